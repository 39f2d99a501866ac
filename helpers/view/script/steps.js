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
