// The interactive view, run by anywidget (helpers/view/widget.py joins the files of this folder
// into one module, in the order SCRIPT_PARTS gives: this one first, view.js, which exports
// render, last).
//
// The kernel draws the picture with Graphviz and sends it as SVG: every box and frame carries
// its id ("n12", "m3", "f0"). The script only moves and zooms that SVG (its viewBox), finds names
// in the list the kernel sent, steps through a backward pass, and tells the kernel which box was
// clicked; the kernel answers with what the box holds, or with a new picture. No layout happens
// here.

const NATURAL = 4 / 3; // Graphviz writes points: at 100 %, one point is 4/3 pixels
const SMALLEST = 0.02; // the zoom's limits, in pixels per point
const LARGEST = 8;
const CLICK_SLOP = 4; // pixels a pointer may move between press and release and still click
const LOWEST = 200; // the canvas's height in pixels: the picture's own, within these
const HIGHEST = 560;
const PLAY_MS = 1500; // one step of a backward pass, when playing
const MOVE_MS = 700; // a gradient travelling along its arrow: well within a step played
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

function button(label, title, action, extra = {}) {
  return make("button", { type: "button", title, "aria-label": title, onclick: action, ...extra }, label);
}
