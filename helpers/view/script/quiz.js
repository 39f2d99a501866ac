// --- a predicted pass: the question asked now, the learner's answer, the verdict, the score ---

function makeQuiz(view) {
  const { model, say } = view;
  const question = make("div", { class: "agv-question", "aria-live": "polite" });
  const input = make("input", {
    class: "agv-answer", type: "text", placeholder: say("your answer"), "aria-label": say("your answer"),
  });
  const check = button(say("check"), say("check"), () => send(), { "data-do": "check" });
  const answer = make("span", { class: "agv-answer-row" }, input, check);
  const verdict = make("div", { class: "agv-verdict", "aria-live": "polite", hidden: true });
  const score = make("span", { class: "agv-score" });

  function send() {
    if (!input.value.trim()) return;
    view.ask({ kind: "predict", answer: input.value });
  }

  function shown() {
    // What the kernel asks now: a click on a box, or an answer typed; over, neither.
    const asking = model.get("asking");
    question.textContent = model.get("question")
      + (asking === "next" ? ` ${say("click next")}` : "");
    answer.hidden = asking !== "gradient";
    score.textContent = model.get("score");
  }

  function judged(message) {
    // A box clicked too early: the boxes it still waits for a gradient from glow until the
    // next answer.
    const svg = view.camera.svg;
    for (const old of svg ? svg.querySelectorAll(".agv-waiting") : []) old.classList.remove("agv-waiting");
    for (const id of message.waiting_for || []) {
      const box = view.camera.element(id);
      if (box !== null) box.classList.add("agv-waiting");
    }
    verdict.textContent = message.said || "";
    verdict.hidden = !message.said;
    verdict.className = `agv-verdict ${message.right ? "agv-right" : message.readable ? "agv-wrong" : "agv-unread"}`;
    if (message.readable) input.value = "";
    view.setStatus();
  }

  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault();
      send();
    }
  });
  for (const name of ["question", "asking", "score"]) model.on(`change:${name}`, shown);
  shown();
  const bar = make("div", { class: "agv-bar agv-quiz" },
    button(say("show me"), say("show me"), () => view.ask({ kind: "show me" }), { "data-do": "show-me" }),
    button(say("replay"), say("replay"), () => { verdict.hidden = true; view.ask({ kind: "replay" }); },
      { "data-do": "replay" }),
    score);
  const element = make("div", { class: "agv-predict" }, bar, question, answer, verdict);
  return { element, judged };
}
