// --- pan and zoom: where the view looks at the picture ---------------------------------------

class Camera {
  constructor(canvas, panel) {
    this.canvas = canvas;
    this.panel = panel; // as tall as the canvas
    this.svg = null; // the picture shown
    this.width = 0; // its size in points
    this.height = 0;
    this.x = 0; // the point at the canvas's top left corner
    this.y = 0;
    this.scale = NATURAL; // pixels per point
  }

  show(text) {
    // The picture ``text`` (SVG) in the canvas, sized to it; false if there is none.
    this.canvas.innerHTML = text;
    this.svg = this.canvas.querySelector("svg");
    if (this.svg === null) return false;
    const box = this.svg.viewBox.baseVal;
    this.width = box.width;
    this.height = box.height;
    const pixels = Math.min(HIGHEST, Math.max(LOWEST, this.height * NATURAL + 2));
    this.canvas.style.height = `${Math.round(pixels)}px`;
    this.panel.style.maxHeight = this.canvas.style.height;
    this.svg.setAttribute("width", "100%");
    this.svg.setAttribute("height", "100%");
    this.svg.setAttribute("preserveAspectRatio", "xMinYMin meet");
    return true;
  }

  size() {
    return [this.canvas.clientWidth || 600, this.canvas.clientHeight || LOWEST];
  }

  place() {
    if (this.svg === null) return;
    const [w, h] = this.size();
    this.svg.setAttribute("viewBox", `${this.x} ${this.y} ${w / this.scale} ${h / this.scale}`);
  }

  open(home) {
    // The whole picture at its own size if it fits; else its own size, at ``home``.
    const [w, h] = this.size();
    this.scale = NATURAL;
    this.x = (this.width - w / this.scale) / 2;
    this.y = (this.height - h / this.scale) / 2;
    this.place(); // focus() reads where the box is drawn now
    if (this.width * NATURAL > w || this.height * NATURAL > h) {
      if (!this.focus(home, NATURAL)) this.fit();
      // At the output, but showing no more empty space beyond the picture's edge than needed.
      if (this.width * this.scale > w) this.x = Math.min(Math.max(this.x, 0), this.width - w / this.scale);
      if (this.height * this.scale > h) this.y = Math.min(Math.max(this.y, 0), this.height - h / this.scale);
      this.place();
    }
  }

  fit() {
    const [w, h] = this.size();
    this.scale = Math.min(LARGEST, Math.max(SMALLEST, Math.min(w / this.width, h / this.height)));
    this.x = (this.width - w / this.scale) / 2;
    this.y = (this.height - h / this.scale) / 2;
    this.place();
  }

  zoomAt(px, py, factor) {
    const next = Math.min(LARGEST, Math.max(SMALLEST, this.scale * factor));
    this.x += px / this.scale - px / next;
    this.y += py / this.scale - py / next;
    this.scale = next;
    this.place();
  }

  zoomBy(factor) {
    const [w, h] = this.size();
    this.zoomAt(w / 2, h / 2, factor);
  }

  moveBy(dx, dy) {
    this.x += dx;
    this.y += dy;
    this.place();
  }

  element(id) {
    return this.svg === null || !id ? null : this.svg.querySelector(`[id="${CSS.escape(id)}"]`);
  }

  focus(id, least = 0) {
    // Bring box or frame ``id`` into view, zoomed in to at least ``least`` pixels per point: a
    // box in the middle; a frame whole if it fits at a readable size, else from its name.
    const target = this.element(id);
    if (target === null) return false;
    const shape = target.getBoundingClientRect(), canvasShape = this.canvas.getBoundingClientRect();
    const left = this.x + (shape.left - canvasShape.left) / this.scale;
    const top = this.y + (shape.top - canvasShape.top) / this.scale;
    const wide = shape.width / this.scale, high = shape.height / this.scale;
    const [w, h] = this.size();
    this.scale = Math.max(this.scale, least);
    if (target.classList.contains("cluster")) {
      this.scale = Math.max(READABLE, Math.min(this.scale, (w - 2 * MARGIN) / wide, (h - 2 * MARGIN) / high));
      if (wide * this.scale > w - 2 * MARGIN || high * this.scale > h - 2 * MARGIN) {
        this.x = left - MARGIN / this.scale;
        this.y = top - MARGIN / this.scale;
        this.place();
        return true;
      }
    }
    this.x = left + wide / 2 - w / 2 / this.scale;
    this.y = top + high / 2 - h / 2 / this.scale;
    this.place();
    return true;
  }

  keepInView(id) {
    // The Node a step runs, brought into view if it is outside it.
    const target = this.element(id);
    if (target === null) return;
    const shape = target.getBoundingClientRect(), frame = this.canvas.getBoundingClientRect();
    const inside = shape.left >= frame.left && shape.right <= frame.right
      && shape.top >= frame.top && shape.bottom <= frame.bottom;
    if (!inside) this.focus(id);
  }

  listen(clicked) {
    // Drag to move, the wheel to zoom, keys for both; a press released where it began is a
    // click on ``clicked``'s target. Returns what stops listening.
    const canvas = this.canvas;
    let press = null;
    canvas.addEventListener("pointerdown", (event) => {
      if (event.button !== 0) return;
      press = { id: event.pointerId, px: event.clientX, py: event.clientY, x: this.x, y: this.y, target: event.target, moved: false };
      canvas.setPointerCapture(event.pointerId);
    });
    canvas.addEventListener("pointermove", (event) => {
      if (press === null || event.pointerId !== press.id) return;
      const dx = event.clientX - press.px, dy = event.clientY - press.py;
      if (!press.moved && Math.hypot(dx, dy) < CLICK_SLOP) return;
      press.moved = true;
      canvas.classList.add("agv-dragging");
      this.x = press.x - dx / this.scale;
      this.y = press.y - dy / this.scale;
      this.place();
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
      this.zoomAt(event.clientX - frame.left, event.clientY - frame.top, Math.exp(-event.deltaY * lines * 0.002));
    }, { passive: false });
    canvas.addEventListener("keydown", (event) => {
      const step = 40 / this.scale;
      const keys = {
        "+": () => this.zoomBy(1.25), "=": () => this.zoomBy(1.25), "-": () => this.zoomBy(0.8),
        "0": () => this.fit(),
        ArrowLeft: () => this.moveBy(-step, 0), ArrowRight: () => this.moveBy(step, 0),
        ArrowUp: () => this.moveBy(0, -step), ArrowDown: () => this.moveBy(0, step),
      };
      if (keys[event.key]) {
        keys[event.key]();
        event.preventDefault();
      }
    });
    const resized = new ResizeObserver(() => this.place());
    resized.observe(canvas);
    return () => resized.disconnect();
  }
}
