// --- the view: its parts put together, and its messages with the kernel ----------------------

function render({ model, el }) {
  const texts = model.get("texts");
  const say = (key, blanks = {}) =>
    (texts[key] || key).replace(/\{(\w+)\}/g, (_, name) => String(blanks[name] ?? ""));
  const canvas = make("div", { class: "agv-canvas", tabindex: "0" });
  const panel = make("aside", { class: "agv-panel", hidden: true });
  const status = make("div", { class: "agv-status", "aria-live": "polite" });
  const camera = new Camera(canvas, panel);

  // What the parts share: the model, the words, the picture's camera, the box selected.
  const view = {
    model, say, panel, camera,
    selected: null, // the id of the box the panel describes
    hint: "",
    ask(message) {
      view.setStatus(say("asking"));
      model.send(message);
    },
    setStatus(text) {
      // A passing message, or else the picture's notes and how to use the view.
      status.textContent = text || [model.get("caption"), view.hint].filter(Boolean).join("\n");
    },
    select(id) {
      view.selected = id;
      for (const old of canvas.querySelectorAll(".agv-selected")) old.classList.remove("agv-selected");
      const target = camera.element(id);
      if (target !== null) target.classList.add("agv-selected");
    },
  };

  const bar = make("div", { class: "agv-bar" },
    makeSearch(view),
    button("+", say("zoom in"), () => camera.zoomBy(1.25), { "data-do": "zoom-in" }),
    button("−", say("zoom out"), () => camera.zoomBy(0.8), { "data-do": "zoom-out" }),
    button(say("fit"), say("fit title"), () => camera.fit(), { "data-do": "fit" }),
    button("1:1", say("actual size"), () => camera.zoomBy(NATURAL / camera.scale), { "data-do": "actual" }),
    button("↻", say("refresh"), () => view.ask({ kind: "refresh" }), { "data-do": "refresh" }));
  // A predicted pass asks before it shows a step: no step control to look ahead with.
  const quiz = model.get("predict") ? makeQuiz(view) : null;
  const stepper = !quiz && model.get("steps") > 0 ? makeStepper(view) : null;
  const root = make("div", { class: "agv", "data-lm-suppress-shortcuts": "true" }, bar, stepper,
    quiz && quiz.element, make("div", { class: "agv-main" }, canvas, panel), status);
  // Keys pressed in the view are the view's: JupyterLab would take an arrow key or a letter
  // for one of its own commands (a slider's ArrowRight never reached the slider).
  root.addEventListener("keydown", (event) => event.stopPropagation());
  el.append(root);

  let shown = model.get("shown"); // the step the picture shows, in a view of a backward pass
  function show(first) {
    if (!camera.show(model.get("svg"))) return;
    // One step further than before (next, play, an answer settled, show me): its gradients
    // travel. A jump, a step back or a replay just shows the picture.
    const moved = !first && model.get("shown") === shown + 1;
    shown = model.get("shown");
    const svg = camera.svg;
    // Graphviz titles each box and frame with its DOT name (n12, cluster_3), which a pointer
    // resting there would show: a box says nothing more (its tooltip, if any, is its link's),
    // a frame says what a click on it does.
    for (const title of svg.querySelectorAll("g.node > title")) title.remove();
    for (const title of svg.querySelectorAll("g.cluster > title")) title.textContent = say("fold frame");
    view.hint = say(svg.querySelector("g.cluster, g.node[id^='m']") ? "hint folded" : "hint");
    if (first) camera.open(model.get("home"));
    else camera.place();
    if (!first && model.get("steps") > 0) camera.keepInView(model.get("home"));
    if (view.selected) view.select(view.selected);
    view.setStatus();
    if (moved) moveGradients(svg);
  }

  function clicked(target) {
    const box = target.closest && target.closest("g.node, g.cluster");
    if (!box || !box.id) return;
    if (box.classList.contains("node")) view.select(box.id);
    // Asked which Node runs next, a click on a box is the answer.
    const answering = quiz && model.get("asking") === "next" && box.classList.contains("node");
    view.ask({ kind: answering ? "predict next" : "click", box: box.id });
  }

  function received(message) {
    if (message.kind === "details") {
      showDetails(view, message);
      view.setStatus();
    } else if (message.kind === "focus") {
      // A frame (a module just unfolded) as it fits; a box (a name just found) readable.
      const frame = message.box.startsWith("f");
      camera.focus(message.box, frame ? 0 : NATURAL);
      view.select(frame ? null : message.box);
    } else if (message.kind === "verdict" && quiz) {
      quiz.judged(message);
    } else if (message.kind === "status") {
      view.setStatus(message.text);
    }
  }

  const stopListening = camera.listen(clicked);
  const redraw = () => show(false);
  const captioned = () => view.setStatus();
  model.on("change:svg", redraw);
  model.on("change:caption", captioned);
  model.on("msg:custom", received);
  // The first picture once the canvas has its width in the page.
  requestAnimationFrame(() => show(true));
  return () => {
    stopListening();
    model.off("change:svg", redraw);
    model.off("change:caption", captioned);
    model.off("msg:custom", received);
  };
}

export default { render };
