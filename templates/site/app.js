// Search, filter and sort the card grid. Plain script: works from the file system, no server.
(function () {
  "use strict";
  const data = window.CARDGEN;
  const grid = document.getElementById("grid");
  const count = document.getElementById("count");
  const search = document.getElementById("search");
  const sort = document.getElementById("sort");
  const selects = Array.from(document.querySelectorAll("select[data-filter]"));

  data.sorts.forEach(function (s) {
    const option = document.createElement("option");
    option.value = s.key;
    option.textContent = s.label;
    sort.appendChild(option);
  });

  function matches(card, query, chosen) {
    if (query && card.text.indexOf(query) === -1) return false;
    for (const key in chosen) {
      const have = card.values[key];
      const want = chosen[key];
      if (Array.isArray(have) ? have.indexOf(want) === -1 : have !== want) return false;
    }
    return true;
  }

  function compare(key) {
    return function (a, b) {
      if (key === "name") return a.name.localeCompare(b.name);
      const x = a.values[key], y = b.values[key];
      if (x === undefined && y === undefined) return a.name.localeCompare(b.name);
      if (x === undefined) return 1;
      if (y === undefined) return -1;
      if (x < y) return -1;
      if (x > y) return 1;
      return a.name.localeCompare(b.name);
    };
  }

  function tile(card) {
    const link = document.createElement("a");
    link.className = "tile";
    link.href = "card/" + card.slug + ".html";
    link.dataset.name = card.name;
    if (card.image) {
      const img = document.createElement("img");
      img.loading = "lazy";
      img.src = card.image;
      img.alt = card.name;
      if (card.scale < 100) img.style.width = card.scale + "%";   // a smaller card type
      link.appendChild(img);
    }
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = card.name;
    const meta = document.createElement("span");
    meta.className = "meta";
    meta.textContent = card.summary;
    link.appendChild(name);
    link.appendChild(meta);
    return link;
  }

  function update() {
    const query = search.value.trim().toLowerCase();
    const chosen = {};
    selects.forEach(function (s) { if (s.value !== "") chosen[s.dataset.filter] = JSON.parse(s.value); });
    const shown = data.cards.filter(function (c) { return matches(c, query, chosen); })
      .sort(compare(sort.value || "name"));
    grid.replaceChildren.apply(grid, shown.map(tile));
    count.textContent = shown.length + " of " + data.cards.length + " cards";
    const state = new URLSearchParams();
    if (query) state.set("q", query);
    for (const k in chosen) state.set(k, JSON.stringify(chosen[k]));
    if (sort.value && sort.value !== "name") state.set("sort", sort.value);
    history.replaceState(null, "", state.toString() ? "#" + state.toString() : location.pathname);
  }

  // Restore a shared link's search (index.html#q=fire&element="Fire").
  const saved = new URLSearchParams(location.hash.slice(1));
  if (saved.get("q")) search.value = saved.get("q");
  selects.forEach(function (s) { if (saved.get(s.dataset.filter)) s.value = saved.get(s.dataset.filter); });
  if (saved.get("sort")) sort.value = saved.get("sort");

  search.addEventListener("input", update);
  sort.addEventListener("change", update);
  selects.forEach(function (s) { s.addEventListener("change", update); });
  document.getElementById("reset").addEventListener("click", function () {
    search.value = "";
    selects.forEach(function (s) { s.value = ""; });
    sort.value = "name";
    update();
  });
  update();
})();
