/* Taking a seat (the players' link of dusk serve): POST /api/join {} lists the free seats, and
 * {"seat": NAME} takes one; its answer names the seat's own page, which this phone then opens (the
 * server keeps the seat's token in a cookie from there on). Built with textContent only; the server is
 * asked through static/api.js.
 */
"use strict";

(function () {
  const { words, notice, post } = window.dusk;      // static/api.js
  const list = document.querySelector("#join ul");

  // The free seats' names, however the answer lists them.
  function freeSeats(data) {
    const seats = data.free || data.seats || (data.list ? data.list.filter((s) => !s.taken) : []);
    return seats.map((s) => (typeof s === "string" ? s : s.name));
  }

  async function show() {
    const data = await post("/api/join", {});
    if (data === null) return;
    while (list.firstChild) list.removeChild(list.firstChild);
    const free = freeSeats(data);
    if (!free.length) {
      notice(words.none_free);
      return;
    }
    for (const name of free) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "primary";
      button.textContent = name;
      button.dataset.seat = name;
      button.setAttribute("aria-label", words.take + ": " + name);
      button.addEventListener("click", () => take(name));
      const item = document.createElement("li");
      item.append(button);
      list.append(item);
    }
  }

  async function take(name) {
    const data = await post("/api/join", { seat: name });
    if (data === null) {
      show();
      return;
    }
    const link = data.link || (data.token ? "/?seat=" + encodeURIComponent(data.token) : "/");
    location.assign(link);
  }

  show();
})();
