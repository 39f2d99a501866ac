// The interactive view of an autograd graph (helpers/view/widget.py), run by anywidget.
//
// The kernel draws the picture with Graphviz, as draw() does, and sends it as SVG: every box
// and frame carries its id ("n12", "m3", "f0"). This script only moves and zooms that SVG (its
// viewBox), finds names in the list the kernel sent, and tells the kernel which box was clicked;
// the kernel answers with what the box holds, or with a new picture. No layout happens here.

const NATURAL = 4 / 3; // Graphviz writes points: at 100 %, one point is 4/3 pixels
const SMALLEST = 0.02; // the zoom's limits, in pixels per point
const LARGEST = 8;
const CLICK_SLOP = 4; // pixels a pointer may move between press and release and still click
const LOWEST = 200; // the canvas's height in pixels: the picture's own, within these
const HIGHEST = 560;
const PLAY_MS = 1500; // one step of a backward pass, when playing
const READABLE = 0.6; // pixels per point: a frame brought into view is shown no smaller
const MARGIN = 12; // pixels around a frame brought into view
const LONG_LABEL = 16; // characters: a longer label in the side panel goes above its value

function make(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else if (name === "class") element.className = value;
    else if (value !== false && value != null) element.setAttribute(name, value === true ? "" : value);
  }
  element.append(...children.filter((child) => child != null));
  return element;
}

function render({ model, el }) {
  const texts = model.get("texts");
  const say = (key, blanks = {}) =>
    (texts[key] || key).replace(/\{(\w+)\}/g, (_, name) => String(blanks[name] ?? ""));
  const button = (label, title, action, extra = {}) =>
    make("button", { type: "button", title, "aria-label": title, onclick: action, ...extra }, label);

  const canvas = make("div", { class: "agv-canvas", tabindex: "0" });
  const panel = make("aside", { class: "agv-panel", hidden: true });
  const status = make("div", { class: "agv-status", "aria-live": "polite" });
  const search = make("input", {
    class: "agv-search", type: "search", placeholder: say("search"), "aria-label": say("search"),
  });
  const matches = make("ul", { class: "agv-matches", role: "listbox", hidden: true });
  const bar = make("div", { class: "agv-bar" },
    make("span", { class: "agv-find" }, search, matches),
    button("+", say("zoom in"), () => zoomBy(1.25), { "data-do": "zoom-in" }),
    button("−", say("zoom out"), () => zoomBy(0.8), { "data-do": "zoom-out" }),
    button(say("fit"), say("fit title"), () => fit(), { "data-do": "fit" }),
    button("1:1", say("actual size"), () => zoomBy(NATURAL / scale), { "data-do": "actual" }),
    button("↻", say("refresh"), () => ask({ kind: "refresh" }), { "data-do": "refresh" }));
  const stepper = model.get("steps") > 0 ? makeStepper() : null;
  const root = make("div", { class: "agv", "data-lm-suppress-shortcuts": "true" }, bar, stepper,
    make("div", { class: "agv-main" }, canvas, panel), status);
  // Keys pressed in the view are the view's: JupyterLab would take an arrow key or a letter
  // for one of its own commands (a slider's ArrowRight never reached the slider).
  root.addEventListener("keydown", (event) => event.stopPropagation());
  el.append(root);

  let svg = null; // the picture shown
  let width = 0, height = 0; // its size in points
  let x = 0, y = 0, scale = NATURAL; // the point at the canvas's top left corner; pixels per point
  let selected = null; // the id of the box the panel describes
  let hint = "";

  // --- the picture, and where the view looks at it ------------------------------------------

  function show(first) {
    canvas.innerHTML = model.get("svg");
    svg = canvas.querySelector("svg");
    if (svg === null) return;
    const box = svg.viewBox.baseVal;
    width = box.width;
    height = box.height;
    canvas.style.height = `${Math.round(Math.min(HIGHEST, Math.max(LOWEST, height * NATURAL + 2)))}px`;
    panel.style.maxHeight = canvas.style.height;
    svg.setAttribute("width", "100%");
    svg.setAttribute("height", "100%");
    svg.setAttribute("preserveAspectRatio", "xMinYMin meet");
    // Graphviz titles each box and frame with its DOT name (n12, cluster_3), which a pointer
    // resting there would show: a box says nothing more (its tooltip, if any, is its link's),
    // a frame says what a click on it does.
    for (const title of svg.querySelectorAll("g.node > title")) title.remove();
    for (const title of svg.querySelectorAll("g.cluster > title")) title.textContent = say("fold frame");
    hint = say(svg.querySelector("g.cluster, g.node[id^='m']") ? "hint folded" : "hint");
    if (first) open();
    else place();
    if (!first && model.get("steps") > 0) keepInView(model.get("home"));
    if (selected) mark(selected);
    setStatus();
  }

  function size() {
    return [canvas.clientWidth || 600, canvas.clientHeight || LOWEST];
  }

  function place() {
    if (svg === null) return;
    const [w, h] = size();
    svg.setAttribute("viewBox", `${x} ${y} ${w / scale} ${h / scale}`);
  }

  function open() {
    // The whole picture at its own size if it fits; else its own size, at the output.
    const [w, h] = size();
    scale = NATURAL;
    x = (width - w / scale) / 2;
    y = (height - h / scale) / 2;
    place(); // focus() reads where the box is drawn now
    if (width * NATURAL > w || height * NATURAL > h) {
      if (!focus(model.get("home"), NATURAL)) fit();
      // At the output, but showing no more empty space beyond the picture's edge than needed.
      if (width * scale > w) x = Math.min(Math.max(x, 0), width - w / scale);
      if (height * scale > h) y = Math.min(Math.max(y, 0), height - h / scale);
      place();
    }
  }

  function fit() {
    const [w, h] = size();
    scale = Math.min(LARGEST, Math.max(SMALLEST, Math.min(w / width, h / height)));
    x = (width - w / scale) / 2;
    y = (height - h / scale) / 2;
    place();
  }

  function zoomAt(px, py, factor) {
    const next = Math.min(LARGEST, Math.max(SMALLEST, scale * factor));
    x += px / scale - px / next;
    y += py / scale - py / next;
    scale = next;
    place();
  }

  function zoomBy(factor) {
    const [w, h] = size();
    zoomAt(w / 2, h / 2, factor);
  }

  function element(id) {
    return svg === null ? null : svg.querySelector(`[id="${CSS.escape(id)}"]`);
  }

  function focus(id, least = 0) {
    // Bring box or frame ``id`` into view, zoomed in to at least ``least`` pixels per point: a
    // box in the middle; a frame whole if it fits at a readable size, else from its name.
    const target = id ? element(id) : null;
    if (target === null) return false;
    const shape = target.getBoundingClientRect(), canvasShape = canvas.getBoundingClientRect();
    const left = x + (shape.left - canvasShape.left) / scale;
    const top = y + (shape.top - canvasShape.top) / scale;
    const wide = shape.width / scale, high = shape.height / scale;
    const [w, h] = size();
    scale = Math.max(scale, least);
    if (target.classList.contains("cluster")) {
      scale = Math.max(READABLE, Math.min(scale, (w - 2 * MARGIN) / wide, (h - 2 * MARGIN) / high));
      if (wide * scale > w - 2 * MARGIN || high * scale > h - 2 * MARGIN) {
        x = left - MARGIN / scale;
        y = top - MARGIN / scale;
        place();
        return true;
      }
    }
    x = left + wide / 2 - w / 2 / scale;
    y = top + high / 2 - h / 2 / scale;
    place();
    return true;
  }

  function keepInView(id) {
    // The Node a step runs, brought into view if it is outside it.
    const target = id ? element(id) : null;
    if (target === null) return;
    const shape = target.getBoundingClientRect(), frame = canvas.getBoundingClientRect();
    const inside = shape.left >= frame.left && shape.right <= frame.right
      && shape.top >= frame.top && shape.bottom <= frame.bottom;
    if (!inside) focus(id);
  }

  function mark(id) {
    for (const old of canvas.querySelectorAll(".agv-selected")) old.classList.remove("agv-selected");
    const target = id ? element(id) : null;
    if (target !== null) target.classList.add("agv-selected");
  }

  // --- moving about: drag, wheel, keys --------------------------------------------------------

  let press = null;
  canvas.addEventListener("pointerdown", (event) => {
    if (event.button !== 0) return;
    press = { id: event.pointerId, px: event.clientX, py: event.clientY, x, y, target: event.target, moved: false };
    canvas.setPointerCapture(event.pointerId);
  });
  canvas.addEventListener("pointermove", (event) => {
    if (press === null || event.pointerId !== press.id) return;
    const dx = event.clientX - press.px, dy = event.clientY - press.py;
    if (!press.moved && Math.hypot(dx, dy) < CLICK_SLOP) return;
    press.moved = true;
    canvas.classList.add("agv-dragging");
    x = press.x - dx / scale;
    y = press.y - dy / scale;
    place();
  });
  const release = (event) => {
    if (press === null || event.pointerId !== press.id) return;
    const { moved, target } = press;
    press = null;
    canvas.classList.remove("agv-dragging");
    if (!moved && event.type === "pointerup") clicked(target);
  };
  canvas.addEventListener("pointerup", release);
  canvas.addEventListener("pointercancel", release);
  canvas.addEventListener("wheel", (event) => {
    event.preventDefault();
    const frame = canvas.getBoundingClientRect();
    const lines = event.deltaMode === 1 ? 16 : event.deltaMode === 2 ? 400 : 1;
    zoomAt(event.clientX - frame.left, event.clientY - frame.top, Math.exp(-event.deltaY * lines * 0.002));
  }, { passive: false });
  canvas.addEventListener("keydown", (event) => {
    const step = 40 / scale;
    const keys = {
      "+": () => zoomBy(1.25), "=": () => zoomBy(1.25), "-": () => zoomBy(0.8), "0": () => fit(),
      ArrowLeft: () => { x -= step; place(); }, ArrowRight: () => { x += step; place(); },
      ArrowUp: () => { y -= step; place(); }, ArrowDown: () => { y += step; place(); },
    };
    if (keys[event.key]) {
      keys[event.key]();
      event.preventDefault();
    }
  });
  const resized = new ResizeObserver(() => place());
  resized.observe(canvas);

  // --- asking the kernel ----------------------------------------------------------------------

  function ask(message) {
    setStatus(say("asking"));
    model.send(message);
  }

  function clicked(target) {
    const box = target.closest && target.closest("g.node, g.cluster");
    if (!box || !box.id) return;
    if (box.classList.contains("node")) {
      selected = box.id;
      mark(box.id);
    }
    ask({ kind: "click", box: box.id });
  }

  function setStatus(text) {
    // A passing message, or else the picture's notes and how to use the view.
    status.textContent = text || [model.get("caption"), hint].filter(Boolean).join("\n");
  }

  function received(message) {
    if (message.kind === "details") {
      showDetails(message);
      setStatus();
    } else if (message.kind === "focus") {
      // A frame (a module just unfolded) as it fits; a box (a name just found) readable.
      const frame = message.box.startsWith("f");
      selected = frame ? null : message.box;
      focus(message.box, frame ? 0 : NATURAL);
      mark(selected);
    } else if (message.kind === "status") {
      setStatus(message.text);
    }
  }

  function showDetails(message) {
    const sections = (message.sections || []).map((section) => make("section", {},
      section.heading ? make("h4", {}, section.heading) : null,
      section.text ? make("p", {}, section.text) : null,
      section.rows && section.rows.length ? make("table", {}, ...section.rows.flatMap(([label, value]) =>
        // A long label (a parameter's name) goes above its value: beside it, neither would fit.
        label.length > LONG_LABEL
          ? [make("tr", {}, make("th", { colspan: "2" }, label)), make("tr", {}, make("td", { colspan: "2", class: "agv-under" }, value))]
          : [make("tr", {}, make("th", {}, label), make("td", {}, value))])) : null));
    const action = message.action ? button(message.action.label, message.action.label,
      () => ask({ kind: "click", box: message.action.box }), { class: "agv-action" }) : null;
    const parts = [
      button("×", say("close"), () => { panel.hidden = true; selected = null; mark(null); },
        { class: "agv-close" }),
      make("h3", {}, message.title || ""),
      message.subtitle ? make("p", { class: "agv-sub" }, message.subtitle) : null,
      ...sections, action];
    panel.replaceChildren(...parts.filter((part) => part != null));
    panel.hidden = false;
    place();
  }

  // --- search ---------------------------------------------------------------------------------

  let found = [];
  let current = 0;

  function findNames() {
    const query = search.value.trim().toLowerCase();
    found = [];
    if (query) {
      const rank = ([name]) => {
        const lower = name.toLowerCase();
        return lower === query ? 0 : lower.startsWith(query) ? 1 : lower.includes(query) ? 2 : 3;
      };
      found = model.get("index").map((entry) => [rank(entry), entry]).filter(([r]) => r < 3)
        .sort((a, b) => a[0] - b[0] || a[1][0].length - b[1][0].length).slice(0, 12).map(([, e]) => e);
    }
    current = 0;
    matches.replaceChildren(...found.map((entry, number) => make("li", {
      role: "option", class: number === current ? "agv-current" : "",
      onpointerdown: (event) => { event.preventDefault(); go(entry); },
    }, entry[0], make("small", {}, entry[2]))));
    matches.hidden = found.length === 0;
    if (query && found.length === 0) setStatus(say("no match", { query: search.value.trim() }));
  }

  function go(entry) {
    const [name, id, , holder] = entry;
    matches.hidden = true;
    selected = id;
    if (holder) {
      setStatus(say("revealing", { name }));
      model.send({ kind: "reveal", box: id });
      return;
    }
    focus(id, NATURAL);
    mark(id);
    ask({ kind: "read", box: id });
  }

  search.addEventListener("input", findNames);
  search.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && found.length) go(found[current]);
    else if (event.key === "Escape") matches.hidden = true;
    else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      current = (current + (event.key === "ArrowDown" ? 1 : found.length - 1)) % Math.max(1, found.length);
      [...matches.children].forEach((item, number) => item.classList.toggle("agv-current", number === current));
    } else return;
    event.preventDefault();
  });
  search.addEventListener("blur", () => { matches.hidden = true; });

  // --- the steps of a backward pass -------------------------------------------------------------

  function makeStepper() {
    const total = model.get("steps");
    const range = make("input", {
      type: "range", min: "1", max: String(total), value: String(model.get("step") || 1),
      "aria-label": say("step"),
    });
    const label = make("span", { class: "agv-step-text" });
    let playing = null;
    const go = (number) => {
      number = Math.max(1, Math.min(total, number));
      if (number !== model.get("step")) {
        model.set("step", number);
        model.save_changes();
      }
      shown();
    };
    const shown = () => {
      range.value = String(model.get("step"));
      label.textContent = say("step of", { number: model.get("step"), total });
    };
    const play = button("▶", say("play"), () => {
      if (playing !== null) {
        clearInterval(playing);
        playing = null;
        return;
      }
      if (model.get("step") >= total) go(1);
      playing = setInterval(() => {
        if (model.get("step") >= total) { clearInterval(playing); playing = null; } else go(model.get("step") + 1);
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

  // --- wiring ---------------------------------------------------------------------------------

  const redraw = () => show(false);
  const captioned = () => setStatus();
  model.on("change:svg", redraw);
  model.on("change:caption", captioned);
  model.on("msg:custom", received);
  // The first picture once the canvas has its width in the page.
  requestAnimationFrame(() => show(true));
  return () => {
    resized.disconnect();
    model.off("change:svg", redraw);
    model.off("change:caption", captioned);
    model.off("msg:custom", received);
  };
}

export default { render };
