// --- the side panel: what the kernel says about a box ----------------------------------------

function panelRows(rows) {
  return make("table", {}, ...rows.flatMap(([label, value]) =>
    // A long label (a parameter's name) goes above its value: beside it, neither would fit.
    label.length > LONG_LABEL
      ? [make("tr", {}, make("th", { colspan: "2" }, label)),
        make("tr", {}, make("td", { colspan: "2", class: "agv-under" }, value))]
      : [make("tr", {}, make("th", {}, label), make("td", {}, value))]));
}

function showDetails(view, message) {
  // ``message``: {title, subtitle, sections: [{heading, text, rows}], action: {label, box}}.
  const sections = (message.sections || []).map((section) => make("section", {},
    section.heading ? make("h4", {}, section.heading) : null,
    section.text ? make("p", {}, section.text) : null,
    section.rows && section.rows.length ? panelRows(section.rows) : null));
  const action = message.action ? button(message.action.label, message.action.label,
    () => view.ask({ kind: "click", box: message.action.box }), { class: "agv-action" }) : null;
  const close = () => { view.panel.hidden = true; view.select(null); };
  const parts = [
    button("×", view.say("close"), close, { class: "agv-close" }),
    make("h3", {}, message.title || ""),
    message.subtitle ? make("p", { class: "agv-sub" }, message.subtitle) : null,
    ...sections, action];
  view.panel.replaceChildren(...parts.filter((part) => part != null));
  view.panel.hidden = false;
  view.camera.place();
}
