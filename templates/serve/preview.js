// cardgen serve: the page follows the builds. Each event holds the whole state (every section's
// HTML, escaped by the server); a section is replaced only when its HTML changed, so an open
// rulebook or report stays open, and pictures whose address is the same are not fetched again.
"use strict";
(function () {
  const received = {};

  function replace(section, html) {
    const open = [...section.querySelectorAll("details[open]")].map((d) => d.id);
    section.innerHTML = html;
    for (const id of open) {
      const details = document.getElementById(id);
      if (details) details.open = true;
    }
  }

  function show(state) {
    const fresh = String(state.version) !== document.body.dataset.version;   // (not the page's own)
    for (const [name, html] of Object.entries(state.sections)) {
      let section = document.getElementById(name);
      if (!section) {           // (the page was served before the first build began)
        section = document.createElement("section");
        section.id = name;
        document.body.append(section);
      }
      if (fresh && received[name] !== html) replace(section, html);
      received[name] = html;
    }
    document.title = state.title;
    document.body.dataset.version = state.version;
  }

  const events = new EventSource("/events");
  events.onmessage = (event) => show(JSON.parse(event.data));
  events.onopen = () => document.body.classList.remove("offline");
  events.onerror = () => document.body.classList.add("offline");
})();
