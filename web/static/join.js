/* Taking a seat (the players' link of dusk serve): POST /api/join {} lists the free seats, and
 * {"seat": NAME} takes one; its answer names the seat's own page, which this phone then opens (the
 * server keeps the seat's token in a cookie from there on). Built with textContent only.
 */
"use strict";

(function () {
  const words = JSON.parse(document.getElementById("words").textContent);
  const list = document.querySelector("#join ul");
  const notice = document.getElementById("notice");

  async function join(body) {
    let response;
    try {
      response = await fetch("/api/join", {
        method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify(body),
      });
    } catch (err) {
      notice.textContent = words.failed;
      return null;
    }
    let data = null;
    try {
      data = await response.json();
    } catch (err) {
      data = null;
    }
    if (response.status === 401) {
      notice.textContent = words.unauthorized;
      return null;
    }
    if (!response.ok) {
      notice.textContent = (data && data.message) || words.failed;
      return null;
    }
    return data;
  }

  // The free seats' names, however the answer lists them.
  function freeSeats(data) {
    const seats = data.free || data.seats || (data.list ? data.list.filter((s) => !s.taken) : []);
    return seats.map((s) => (typeof s === "string" ? s : s.name));
  }

  async function show() {
    const data = await join({});
    if (data === null) return;
    while (list.firstChild) list.removeChild(list.firstChild);
    const free = freeSeats(data);
    if (!free.length) {
      notice.textContent = words.none_free;
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
    const data = await join({ seat: name });
    if (data === null) {
      show();
      return;
    }
    const link = data.link || (data.token ? "/?seat=" + encodeURIComponent(data.token) : "/");
    location.assign(link);
  }

  show();
})();
