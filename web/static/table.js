/* The table's page (dusk serve): what this seat sees, kept live, and every control a command line.
 *
 * The page fetches /api/state once, then follows /api/events (server-sent events): each update brings
 * the new log entries, the question and the requests as they stand, or says to fetch the state again.
 * Every control builds a line of the REPL's command language and posts it to /api/command: the page
 * types what a person would type at the prompt, so there is one command language (docs/serve.md).
 * Every part is built with createElement and textContent: data (a name, a roll's label) is never
 * read as markup. The page's words come from the template (#words), in the table's language; the
 * server is asked through static/api.js.
 */
"use strict";

(function () {
  const { words, notice, get, post } = window.dusk;      // static/api.js
  // A die's fate as the terminal marks it (ruleset_engine/dice/render.py): never colour alone.
  const FATES = { kept: "", dropped: "✗", aside: "↓", cancelled: "⊘", counted: "✓" };
  const EXPLODED = "!";
  const REROLLED = "→";

  let state = null;          // the last /api/state, kept up to date by the stream
  let lastSeq = -1;          // the last log entry shown
  let stream = null;

  const $ = (selector) => document.querySelector(selector);

  function say(template, values) {
    return template.replace(/\{(\w+)\}/g, (whole, key) => (key in values ? String(values[key]) : whole));
  }

  function el(tag, props, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(props || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "text") node.textContent = value;
      else if (key === "class") node.className = value;
      else if (key === "on") for (const [name, fn] of Object.entries(value)) node.addEventListener(name, fn);
      else if (key in node && typeof value !== "string") node[key] = value;
      else node.setAttribute(key, value === true ? "" : String(value));
    }
    for (const child of children) {
      if (child === null || child === undefined || child === false) continue;
      node.append(typeof child === "string" ? document.createTextNode(child) : child);
    }
    return node;
  }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
    return node;
  }

  // ---- talking to the server

  // A line of the command language, as this seat: the answer to a question, an action, a roll.
  async function send(line) {
    const reply = await post("/api/command", { line: line });
    if (reply === null) return null;
    if (reply.ok === false) notice(reply.refused || reply.output || words.failed);
    else notice("");
    if (reply.output && !reply.ok) showOutput("");
    else if (reply.output && !(reply.entries && reply.entries.length)) showOutput(reply.output);
    apply({ version: reply.version, entries: reply.entries || [], question: reply.question });
    return reply;
  }

  function showOutput(text) {
    const out = $("#output");
    out.textContent = text;
    out.hidden = !text;
  }

  async function load() {
    const fresh = await get("/api/state");
    if (fresh === null) return;
    state = fresh;
    lastSeq = -1;
    clear($("#log ol"));
    addEntries(state.log || [], false);
    renderAll();
  }

  function follow() {
    if (stream) stream.close();
    // From the entry after the state's last one, so that nothing made in between is missed.
    stream = new EventSource("/api/events" + (state && state.last !== undefined ? "?since=" + state.last : ""));
    stream.addEventListener("update", (event) => {
      let update;
      try {
        update = JSON.parse(event.data);
      } catch (err) {
        return;
      }
      if (update.reload) {
        load().then(follow);     // from the new state's last entry on
        return;
      }
      apply(update);
    });
    stream.onopen = () => {
      const live = $("#live");
      live.textContent = "● " + words.live;
      live.className = "";
    };
    stream.onerror = () => {
      const live = $("#live");
      live.textContent = "○ " + words.lost;
      live.className = "lost";
    };
  }

  // One update (from the stream, or a command's reply): new entries, and what now stands.
  function apply(update) {
    if (state === null) return;
    addEntries(update.entries || [], true);
    // What stands (the question, the status) only from an update as new as the last one applied: a
    // command's reply may come after the stream already told of a later command.
    const version = typeof update.version === "number" ? update.version : null;
    if (version !== null && typeof state.version === "number" && version < state.version) return;
    if (version !== null) state.version = version;
    if ("question" in update) state.question = update.question;
    if ("requests" in update) state.requests = update.requests;
    if ("status" in update) state.status = update.status;
    if ("over" in update) state.over = update.over;
    if ("result" in update) state.result = update.result;
    if ("sheet" in update) state.sheet = update.sheet;
    if ("sheets" in update) state.sheets = update.sheets;
    renderHeader();
    renderQuestion();
    renderRequests();
    if ("sheet" in update || "sheets" in update) renderSheets();
    else if ((update.entries || []).length) refreshSoon();
  }

  // The sheets, seats and actions as they now stand, after entries came that may have changed them
  // (an update that carries no sheet): fetched once for a burst of updates, the log left as it is.
  let refreshTimer = null;
  function refreshSoon() {
    if (refreshTimer !== null) return;
    refreshTimer = setTimeout(async () => {
      refreshTimer = null;
      const fresh = await get("/api/state");
      if (fresh === null || state === null) return;
      for (const key of ["sheet", "sheets", "seats", "actions", "tables", "status", "over", "result"]) state[key] = fresh[key];
      renderHeader();
      renderSheets();
      renderSeats();
      renderGm();
    }, 300);
  }

  // ---- the log

  function addEntries(entries, fresh) {
    const list = $("#log ol");
    for (const entry of entries) {
      if (typeof entry.seq === "number" && entry.seq <= lastSeq) continue;   // shown already
      if (typeof entry.seq === "number") lastSeq = entry.seq;
      const item = entryItem(entry);
      if (fresh) item.classList.add("fresh");
      list.insertBefore(item, list.firstChild);      // the latest first
    }
  }

  function entryItem(entry) {
    const classes = ["entry", entry.kind || "say"];
    if (entry.undone) classes.push("undone");
    if (entry.secret) classes.push("secret");
    const item = el("li", { class: classes.join(" "), "data-seq": entry.seq, "data-kind": entry.kind });
    const text = el("div", { class: "text" });
    if (entry.secret) text.append(el("span", { class: "badge", text: words.secret }));
    if (entry.who && (entry.kind === "roll" || entry.kind === "free-roll")) text.append(el("span", { class: "badge", text: words.requested }));
    text.append(document.createTextNode(entry.text || ""));
    item.append(text);
    if (entry.dice && entry.dice.length) item.append(diceRow(entry.dice));
    return item;
  }

  function diceRow(dice) {
    const row = el("div", { class: "dice", role: "list" });
    for (const die of dice) {
      const fate = die.fate in FATES ? die.fate : "kept";
      const mark = FATES[fate];
      let face = String(die.face);
      if (die.exploded) face += EXPLODED;
      const before = die.rerolled_from && die.rerolled_from.length
        ? die.rerolled_from.map((f) => f + REROLLED).join("") : "";
      const named = [words.fates[fate] || fate];
      if (die.kind) named.push(die.kind);
      const chip = el("span", { class: "die " + fate, role: "listitem", title: named.join(", "),
                                "aria-label": before + face + " " + named.join(", "), "data-face": die.face,
                                "data-fate": fate },
        before ? el("span", { class: "mark", text: before }) : null,
        el("span", { class: "face", text: face }),
        mark ? el("span", { class: "mark", text: mark }) : null);
      row.append(chip);
    }
    // The entry's text above is the terminal's line, with its legend of the marks: not said twice.
    return row;
  }

  // ---- the header

  function renderHeader() {
    const me = clear($("#me"));
    if (state.me && state.me.role === "gm") me.append(el("strong", { text: words.you_are_gm }));
    else if (state.me && state.me.seat) {
      const parts = words.you_play.split("{name}");
      me.append(parts[0], el("strong", { id: "my-seat", text: state.me.seat }), parts[1] || "");
    } else me.append(words.no_seat);
    const status = [state.status || ""];
    if (state.over) status.push(say(words.over, { result: state.result || "" }));
    $("#status").textContent = status.filter(Boolean).join(" | ");
    if (state.ruleset && state.ruleset.title) {
      $("#title").textContent = state.ruleset.title;
      document.title = state.ruleset.title;
    }
  }

  // ---- the question, with controls built from its kind

  const CONTROLS = {
    number: numberControl,
    choice: choiceControl,
    instance: choiceControl,
    yes_no: yesNoControl,
    pick: pickControl,
    text: textControl,
    instances: instancesControl,
    dice: diceControl,
  };

  let shownQuestion = null;    // the question the controls were built for (not rebuilt while it waits)

  function renderQuestion() {
    const section = $("#question");
    const question = state.question;
    const key = question ? JSON.stringify(question) + "|" + state.version : null;
    if (question && shownQuestion && JSON.stringify(question) === shownQuestion.json) return;
    shownQuestion = question ? { json: JSON.stringify(question), key: key } : null;
    const body = clear(section.querySelector(".body"));
    section.classList.toggle("mine", Boolean(question && question.mine));
    if (!question) {
      body.append(el("p", { class: "hint", text: words.no_question }));
      return;
    }
    body.append(el("p", { class: "prompt", text: question.prompt || "" }));
    if (question.owner_label) body.append(el("p", { class: "owner", text: question.owner_label }));
    if (!question.mine) {
      body.append(el("p", { class: "hint", text: words.waiting }));
      return;
    }
    if (question.valid) body.append(el("p", { class: "valid", text: question.valid }));
    const make = CONTROLS[question.kind] || textControl;
    body.append(make(question));
  }

  function answerForm(build, submitLabel) {
    const form = el("form", { class: "answer" });
    const read = build(form);
    const button = el("button", { type: "submit", class: "primary", text: submitLabel || words.send });
    form.append(el("div", { class: "row" }, button));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const line = read();
      if (line === null || line === undefined) return;
      button.disabled = true;
      try {
        await send(line);
      } finally {
        button.disabled = false;
      }
    });
    return form;
  }

  // One input in a form: the line sent is `line(its value)`.
  function inputForm(props, line, submitLabel) {
    return answerForm((form) => {
      const input = el("input", props);
      form.append(el("div", { class: "row" }, input));
      return () => line(input.value.trim());
    }, submitLabel);
  }

  function numberControl(question) {
    const lo = question.min;
    const hi = question.max;
    if (lo !== undefined && hi !== undefined && hi - lo <= 12) {
      // A small range: one button per number, a tap answers.
      const row = el("div", { class: "row choices" });
      for (let n = lo; n <= hi; n++) {
        row.append(el("button", { type: "button", class: "primary", text: String(n), "data-answer": String(n),
                                  on: { click: () => send(String(n)) } }));
      }
      return row;
    }
    return inputForm({ type: "number", name: "answer", inputmode: "numeric", step: "1", min: lo, max: hi,
                       value: question.default !== undefined ? question.default : (lo !== undefined ? lo : ""),
                       "aria-label": question.prompt || "" }, (value) => value);
  }

  function choiceControl(question) {
    const row = el("div", { class: "row choices" });
    const labels = question.labels || [];       // the choices as the table words them, in their order
    (question.choices || []).forEach((choice, i) => {
      row.append(el("button", { type: "button", class: "primary", text: labels[i] || choice, "data-answer": choice,
                                on: { click: () => send(choice) } }));
    });
    return row;
  }

  function yesNoControl() {
    return el("div", { class: "row choices" },
      el("button", { type: "button", class: "primary", text: words.yes, "data-answer": "yes", on: { click: () => send("yes") } }),
      el("button", { type: "button", text: words.no, "data-answer": "no", on: { click: () => send("no") } }));
  }

  function textControl(question) {
    return inputForm({ type: "text", name: "answer", autocomplete: "off", maxlength: question.max,
                       "aria-label": question.prompt || "" }, (value) => value);
  }

  // Toggle buttons, one per item; the answer is the items pressed.
  function toggles(items, label, onChange) {
    const row = el("div", { class: "row toggles" });
    items.forEach((item, index) => {
      const button = el("button", { type: "button", "aria-pressed": "false", text: label(item),
                                    "data-index": index, "data-value": String(item) });
      button.addEventListener("click", () => {
        button.setAttribute("aria-pressed", button.getAttribute("aria-pressed") === "true" ? "false" : "true");
        onChange();
      });
      row.append(button);
    });
    return row;
  }

  function pressed(row, items) {
    return Array.from(row.querySelectorAll("button[aria-pressed='true']")).map((b) => items[Number(b.dataset.index)]);
  }

  function rangeWords(count, lo, hi) {
    return say(words.chosen, { n: count }) + (lo !== undefined ? " (" + (lo === hi ? lo : lo + "–" + hi) + ")" : "");
  }

  // Toggle buttons in a form, the count pressed said under them and the answer sent only between
  // lo and hi of them: the items pressed joined by `sep` (`none` for none).
  function togglesForm(items, label, lo, hi, sep) {
    return answerForm((form) => {
      const count = el("p", { class: "hint" });
      const row = toggles(items, label, () => update());
      function update() {
        const n = pressed(row, items).length;
        count.textContent = rangeWords(n, lo, hi);
        const submit = form.querySelector("button[type=submit]");
        if (submit) submit.disabled = n < lo || n > hi;
      }
      form.append(row, count);
      setTimeout(update, 0);       // once the form has its button
      return () => {
        const chosen = pressed(row, items);
        return chosen.length ? chosen.join(sep) : "none";
      };
    });
  }

  function pickControl(question) {
    const pool = question.pool || [];
    return togglesForm(pool, (face) => String(face), question.min !== undefined ? question.min : 0,
                       question.max !== undefined ? question.max : pool.length, " ");
  }

  function instancesControl(question) {
    const names = question.choices || [];
    return togglesForm(names, (name) => name, question.min !== undefined ? question.min : 0,
                       question.max !== undefined ? question.max : names.length, ", ");
  }

  function diceControl(question) {
    const count = question.min || 1;
    const sides = question.sides || 6;
    return answerForm((form) => {
      const inputs = [];
      const row = el("div", { class: "row" });
      for (let i = 0; i < count; i++) {
        const input = el("input", { type: "number", min: 1, max: sides, step: 1, inputmode: "numeric",
                                    "aria-label": words.dice_faces + " " + (i + 1), required: true });
        inputs.push(input);
        row.append(input);
      }
      form.append(el("p", { class: "hint", text: words.dice_faces }), row);
      return () => inputs.map((input) => input.value.trim()).join(" ");
    });
  }

  // ---- the rolls the GM asked for

  function renderRequests() {
    const section = $("#requests");
    const list = clear(section.querySelector(".list"));
    const mine = (state.requests || []).filter((r) => r.mine);
    const isGm = state.me && state.me.role === "gm";
    const shown = isGm ? state.requests || [] : mine;
    section.hidden = shown.length === 0;
    section.querySelector("h2").textContent = isGm ? words.rolls_waiting : words.rolls_asked;
    for (const request of shown) {
      const item = el("div", { class: "request", "data-id": request.id });
      item.append(el("p", { class: "prompt", text: request.text || request.expression }));
      if (request.mine) {
        item.append(inputForm({ type: "text", name: "expr", value: request.expression, spellcheck: "false",
                                autocomplete: "off", "aria-label": words.dice }, (value) => "roll " + value, words.roll));
      }
      list.append(item);
    }
  }

  // ---- sheets

  // A sheet: its tracks first (the boxes, then the words), then its fields; a long list of fields
  // folded, so that a phone's screen keeps the question and the actions near.
  function sheetList(sheet) {
    const wrap = el("div", { class: "sheet-view" });
    const tracks = el("dl", { class: "sheet tracks" });
    for (const track of sheet.tracks || []) {
      const size = Number(track.boxes) || 0;
      const marked = Math.min(size, Number(track.marked) || 0);
      const boxes = "■".repeat(marked) + "□".repeat(Math.max(0, size - marked));
      tracks.append(el("dt", { text: named(track) }),
        el("dd", {}, el("span", { class: "boxes", "aria-hidden": "true", text: boxes }), " ", track.text || ""));
    }
    if (tracks.childNodes.length) wrap.append(tracks);
    const fields = el("dl", { class: "sheet fields" });
    for (const field of sheet.fields || []) {
      fields.append(el("dt", { text: named(field) }),
        el("dd", { text: field.text !== undefined ? field.text : shown(field.value) }));
    }
    const count = (sheet.fields || []).length;
    if (count > 12) wrap.append(el("details", {}, el("summary", { text: words.fields + " (" + count + ")" }), fields));
    else if (count) wrap.append(fields);
    return wrap;
  }

  // A field's or a track's name as words (a label when the server gives one).
  function named(item) {
    return item.label || String(item.name).replace(/_/g, " ");
  }

  function shown(value) {
    if (value === true) return words.yes;
    if (value === false) return words.no;
    if (value === null || value === undefined) return "";
    if (Array.isArray(value)) return value.map(shown).join(" ");
    if (typeof value === "object") return value.text !== undefined ? String(value.text) : JSON.stringify(value);
    return String(value);
  }

  function renderSheets() {
    const own = $("#sheet");
    own.hidden = !state.sheet;
    if (state.sheet) {
      own.querySelector("h2").textContent = words.your_sheet + ": " + state.sheet.name;
      clear(own.querySelector(".body")).append(sheetList(state.sheet));
    }
    const all = clear($("#all-sheets .body"));
    for (const sheet of state.sheets || []) {
      all.append(el("details", {}, el("summary", { text: sheet.name }), sheetList(sheet)));
    }
    $("#all-sheets").hidden = !(state.sheets && state.sheets.length);
  }

  // ---- actions, with forms built from their declarations

  function quoted(value) {
    const text = String(value);
    if (text !== "" && !/[\s"'\\#;]/.test(text)) return text;
    return "'" + text.replace(/'/g, "'\"'\"'") + "'";
  }

  function paramControl(param) {
    const id = "param-" + param.name;
    let control;
    const hasDefault = param.default !== null && param.default !== undefined;
    const choices = param.choices || (param.type === "boolean" ? ["yes", "no"] : null);
    if (choices) {
      control = el("select", { id: id, name: param.name });
      if (param.type === "entity" || !hasDefault) {
        control.append(el("option", { value: "", text: param.default === "current" ? words.current : words.default }));
      }
      const labels = param.labels || {};
      for (const choice of choices) {
        const label = param.type === "boolean" ? (choice === "yes" ? words.yes : words.no) : (labels[choice] || choice);
        control.append(el("option", { value: choice, text: label }));
      }
      let initial = "";
      if (param.type === "boolean" && hasDefault) initial = param.default === true || param.default === "true" ? "yes" : "no";
      else if (hasDefault && choices.includes(String(param.default))) initial = String(param.default);
      control.value = initial;
      control.dataset.initial = initial;
    } else if (param.type === "integer") {
      control = el("input", { id: id, name: param.name, type: "number", step: 1, min: param.min, max: param.max,
                              inputmode: "numeric" });
      const initial = hasDefault && /^-?\d+$/.test(String(param.default)) ? String(param.default) : "";
      control.value = initial;
      control.dataset.initial = initial;
    } else {
      control = el("input", { id: id, name: param.name, type: "text", autocomplete: "off", spellcheck: "false" });
      control.dataset.initial = "";
      if (hasDefault) control.placeholder = String(param.default);
    }
    control.dataset.param = param.name;
    return el("div", { class: "param" },
      el("label", { for: id }, param.label || param.word || param.name,
        param.doc ? el("span", { class: "doc", text: param.doc }) : null),
      control);
  }

  // The command line an action's form says: its name, then each value given (its word before it, or
  // name=value), the values left as the rules say them left out.
  function actionLine(action, form) {
    const parts = [action.name];
    for (const param of action.params || []) {
      const control = form.querySelector("[data-param='" + CSS.escape(param.name) + "']");
      if (!control) continue;
      const value = control.value.trim();
      if (value === "" || value === control.dataset.initial && param.default !== null && param.default !== undefined) continue;
      if (param.word) parts.push(param.word, quoted(value));
      else parts.push(quoted(param.name + "=" + value));
    }
    return parts.join(" ");
  }

  function renderActions() {
    const section = $("#actions");
    const buttons = clear(section.querySelector(".buttons"));
    const form = section.querySelector(".form");
    const actions = state.actions || [];
    section.hidden = actions.length === 0;
    const isGm = state.me && state.me.role === "gm";
    for (const action of actions) {
      buttons.append(el("button", { type: "button", text: action.label || action.name, "data-action": action.name,
                                    on: { click: () => openAction(current(action), form, isGm) } }));
    }
  }

  // The action as the state now declares it (its choices of names grow as characters are made).
  function current(action) {
    return (state.actions || []).find((a) => a.name === action.name) || action;
  }

  function openAction(action, form, isGm) {
    clear(form);
    form.hidden = false;
    form.dataset.action = action.name;
    form.append(el("h2", { text: action.label || action.name }));
    if (action.doc) form.append(el("p", { class: "hint", text: action.doc }));
    for (const param of action.params || []) {
      if (!isGm && param.name === action.seat_param) continue;     // the server plays it as this seat
      form.append(paramControl(param));
    }
    const play = el("button", { type: "submit", class: "primary", text: words.play });
    const cancel = el("button", { type: "button", text: words.cancel, on: { click: () => { form.hidden = true; } } });
    form.append(el("div", { class: "row" }, play, cancel));
    form.onsubmit = async (event) => {
      event.preventDefault();
      play.disabled = true;
      try {
        const reply = await send(actionLine(action, form));
        if (reply && reply.ok) form.hidden = true;
      } finally {
        play.disabled = false;
      }
    };
    form.scrollIntoView({ block: "nearest" });
  }

  // ---- the GM's parts

  function renderSeats() {
    const section = $("#seats");
    const seats = state.seats;
    const isGm = state.me && state.me.role === "gm";
    section.hidden = !seats || !isGm;
    if (!seats) return;
    if (seats.label) section.querySelector("h2").textContent = words.seats + ": " + seats.label;
    const list = clear(section.querySelector("ul"));
    for (const seat of seats.list || []) {
      const item = el("li", { "data-seat": seat.name },
        el("span", { class: "name", text: seat.name }),
        el("span", { class: seat.taken ? "taken" : "free", text: seat.taken ? words.taken : words.free }));
      if (isGm && !seat.taken) {
        item.append(el("button", { type: "button", text: words.give_seat, on: { click: () => giveSeat(seat.name, item) } }));
      }
      list.append(item);
    }
  }

  async function giveSeat(name, item) {
    const reply = await post("/api/join", { seat: name });
    if (!reply) return;
    const link = reply.link || (reply.token ? location.origin + "/?seat=" + reply.token : null);
    if (link) {
      item.append(el("p", { class: "link" }, say(words.seat_link, { name: name }), " ",
        el("a", { href: link, text: link, rel: "noreferrer" })));
    }
  }

  function renderGm() {
    const isGm = state.me && state.me.role === "gm";
    $("#gm").hidden = !isGm;
    if (!isGm) return;
    const who = $("#request-who");
    const keep = who.value;
    clear(who);
    for (const seat of (state.seats && state.seats.list) || []) who.append(el("option", { value: seat.name, text: seat.name }));
    if (keep) who.value = keep;
    const tables = state.tables || [];
    $("#tables").hidden = tables.length === 0;
    const select = clear($("#table-name"));
    for (const table of tables) {
      const name = typeof table === "string" ? table : table.name;
      select.append(el("option", { value: name, text: typeof table === "string" ? table : table.title || name }));
    }
  }

  function renderAll() {
    renderHeader();
    renderRequests();
    renderQuestion();
    renderSheets();
    renderActions();
    renderSeats();
    renderGm();
  }

  // ---- the fixed controls

  function wire() {
    $("#undo").addEventListener("click", () => send("undo"));
    $("#secret-roll").addEventListener("submit", (event) => {
      event.preventDefault();
      const expr = $("#secret-expr").value.trim();
      if (expr) send("roll --secret " + expr);
    });
    $("#request-roll").addEventListener("submit", (event) => {
      event.preventDefault();
      const who = $("#request-who").value;
      const expr = $("#request-expr").value.trim();
      if (who && expr) send("request " + quoted(who) + " " + expr);
    });
    $("#table-show").addEventListener("click", () => {
      const name = $("#table-name").value;
      if (name) send("table " + quoted(name));
    });
    $("#command").addEventListener("submit", async (event) => {
      event.preventDefault();
      const input = $("#command-line");
      const line = input.value.trim();
      if (!line) return;
      const reply = await send(line);
      if (reply && reply.ok) input.value = "";
    });
  }

  wire();
  load().then(follow);
})();
