/* How every page of dusk serve talks to the server (docs/serve.md, API), loaded before the page's
 * own script: `dusk.get(path)` and `dusk.post(path, body)` send the page's cookie, read the JSON
 * answer and give it, or say what went wrong in #notice (in the page's words) and give null.
 * `dusk.words` are the page's words (#words), `dusk.notice` says one in #notice.
 */
"use strict";

window.dusk = (function () {
  const words = JSON.parse(document.getElementById("words").textContent);

  function notice(message, ok) {
    const box = document.getElementById("notice");
    box.textContent = message || "";
    box.className = ok ? "ok" : "";
  }

  // The answer's JSON when the server took the request, else null, the refusal said in #notice.
  async function ask(path, init) {
    let response;
    try {
      response = await fetch(path, init);
    } catch (err) {
      notice(words.failed);
      return null;
    }
    let data = null;
    try {
      data = await response.json();
    } catch (err) {
      data = null;
    }
    if (response.status === 401) notice(words.unauthorized);
    else if (response.status === 403) notice((data && data.message) || words.not_allowed);
    else if (response.status === 429) notice(words.too_fast);
    else if (!response.ok) notice((data && (data.message || data.error)) || words.failed);
    return response.ok ? data : null;
  }

  function get(path) {
    return ask(path, { credentials: "same-origin", headers: { Accept: "application/json" } });
  }

  function post(path, body) {
    return ask(path, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body),
    });
  }

  return { words: words, notice: notice, get: get, post: post };
})();
