// --- the steps of a backward pass: play, previous, a slider, next ----------------------------

function makeStepper(view) {
  const { model, say } = view;
  const total = model.get("steps");
  const range = make("input", {
    type: "range", min: "1", max: String(total), value: String(model.get("step") || 1),
    "aria-label": say("step"),
  });
  const label = make("span", { class: "agv-step-text" });
  let playing = null;
  const shown = () => {
    range.value = String(model.get("step"));
    label.textContent = say("step of", { number: model.get("step"), total });
  };
  const go = (number) => {
    number = Math.max(1, Math.min(total, number));
    if (number !== model.get("step")) {
      model.set("step", number);
      model.save_changes();
    }
    shown();
  };
  const stop = () => { clearInterval(playing); playing = null; };
  const play = button("▶", say("play"), () => {
    if (playing !== null) return stop();
    if (model.get("step") >= total) go(1);
    playing = setInterval(() => {
      if (model.get("step") >= total) stop(); else go(model.get("step") + 1);
    }, PLAY_MS);
  }, { "data-do": "play" });
  range.addEventListener("input", () => go(Number(range.value)));
  model.on("change:step", shown);
  shown();
  return make("div", { class: "agv-bar agv-steps" }, play,
    button("◀", say("previous"), () => go(model.get("step") - 1), { "data-do": "previous" }),
    range,
    button("▶▶", say("next"), () => go(model.get("step") + 1), { "data-do": "next" }),
    label);
}

// A step just shown: a dot carries each gradient the Node sent along its arrow (the kernel
// gives those arrows the class agv-moving), and the number on the arrow appears as the dot
// arrives. The picture itself never moves; a reader who asked for less motion sees no dot.
function moveGradients(svg) {
  if (!svg || window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  const moving = [];
  for (const arrow of svg.querySelectorAll("g.edge.agv-moving")) {
    const path = arrow.querySelector("path");
    if (!path || typeof path.getTotalLength !== "function") continue;
    const dot = document.createElementNS("http://www.w3.org/2000/svg", "circle");
    dot.setAttribute("r", "5");
    dot.setAttribute("class", "agv-gradient");
    arrow.append(dot);
    const labels = [...arrow.querySelectorAll("text")];
    for (const label of labels) label.style.opacity = "0";
    // Drawn forward, an arrow points against the gradient: the dot goes from its end.
    const against = arrow.classList.contains("agv-moving-against");
    moving.push({ path, dot, labels, against, length: path.getTotalLength() });
  }
  if (moving.length === 0) return;
  const started = performance.now();
  const frame = (now) => {
    const done = Math.min(1, (now - started) / MOVE_MS);
    const along = done * (2 - done); // quick to leave, slow to arrive
    for (const { path, dot, against, length } of moving) {
      const point = path.getPointAtLength((against ? 1 - along : along) * length);
      dot.setAttribute("cx", point.x);
      dot.setAttribute("cy", point.y);
    }
    if (done < 1) {
      requestAnimationFrame(frame);
      return;
    }
    for (const { dot, labels } of moving) {
      dot.remove();
      for (const label of labels) label.style.opacity = "";
    }
  };
  requestAnimationFrame(frame);
}
