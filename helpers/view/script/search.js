// --- search: a name typed, its box found (unfolding the module it is folded into) -------------

function makeSearch(view) {
  const { model, say } = view;
  const search = make("input", {
    class: "agv-search", type: "search", placeholder: say("search"), "aria-label": say("search"),
  });
  const matches = make("ul", { class: "agv-matches", role: "listbox", hidden: true });
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
    if (query && found.length === 0) view.setStatus(say("no match", { query: search.value.trim() }));
  }

  function go(entry) {
    const [name, id, , holder] = entry;
    matches.hidden = true;
    if (holder) {
      view.selected = id;
      view.setStatus(say("revealing", { name }));
      model.send({ kind: "reveal", box: id });
      return;
    }
    view.camera.focus(id, NATURAL);
    view.select(id);
    view.ask({ kind: "read", box: id });
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
  return make("span", { class: "agv-find" }, search, matches);
}
