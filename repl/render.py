"""What the table sees: events, the state, tables and rules, rendered with rich.

Every die is shown (through the dice renderer's symbols, so colour is never the only
signal). ASCII mode draws boxes with plain characters for terminals whose box-drawing
widths are odd; `lang` picks the ruleset's labels in that language where it has them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rich import box
from rich.table import Table as RichTable
from rich.text import Text

from ruleset_engine import format_value, render_rich
from ruleset_engine import i18n
from ruleset_engine.i18n import N_, _, ngettext
from ruleset_engine import result_words, shown_marks


@dataclass(eq=False, repr=False)
class Style:
    """How the table shows things: its language, ASCII only or not, and the ruleset's words."""

    lang: str = "en"
    ascii_only: bool = False
    # The ruleset's words in the table's language (`words:`): name -> the label shown and typed for it.
    words: dict = field(default_factory=dict)

    @property
    def box(self):
        return box.ASCII if self.ascii_only else box.ROUNDED


def named(name: str, style: Style, spaced: bool = False) -> str:
    """A name of the ruleset as the table shows it: its label in the table's language (`words:`), else
    the name (`spaced`: its `_` as spaces, as a sheet writes a field)."""
    label = style.words.get(name)
    if label is not None:
        return label
    return name.replace("_", " ") if spaced else name


def choice_shown(value, rule, style: Style) -> str | None:
    """A field's value that is one of its choices (a sheet's `choices:`), by its label; None otherwise."""
    choices = getattr(rule, "choices", None)
    if choices and isinstance(value, str) and value in choices and value in style.words:
        return style.words[value]
    return None


def text_of(value, style: Style) -> str:
    """A value as the table shows it: a text in the chosen language (with the engine's fallback), a pool
    as its faces, a track as marked/size."""
    return format_value(value, style.lang)


def filled(shown: str, style: Style) -> str:
    """A shown value that is an empty text as a dash, where words follow it in a line ("words , used 0"
    would dangle); a table's grid keeps an empty cell empty."""
    return shown if shown != "" else ("-" if style.ascii_only else "—")


def event(e: dict, style: Style, innermost: str | None = None, labels: dict | None = None):
    """One event as a renderable, or None for the events a table need not see (set, note, ...)."""
    kind = e["kind"]
    mark = _(" (undone)") if e.get("undone") else ""
    if kind in ("roll", "free-roll"):
        label = text_of(e.get("label"), style) if e.get("label") is not None else (e.get("name") or None)
        if label and label.startswith("params.") and e.get("label") is None:
            label = named(label[len("params."):], style)      # a dice param rolled at the start, by its word
        if kind == "roll" and label and e.get("dice"):
            return named_roll(e, label + mark, style)
        if kind == "free-roll" and (e.get("secret") or e.get("who")):
            # A roll only the GM sees, or the one a seat was asked for, says so before its dice.
            label = _("secret roll") if e.get("secret") else _("{seat} rolls").format(seat=e["who"])
        return render_rich(e, style.ascii_only, label=(label or "") + mark if label or mark else None)
    if kind == "say":
        return Text(text_of(e["text"], style) + mark)
    if kind == "roll-request":
        if e.get("cancelled"):
            return Text(_("The roll asked of {seat} is cancelled: {expression}").format(
                seat=e["who"], expression=e["expression"]), style="dim")
        return Text(_("The GM asks {seat} for a roll: {expression}").format(seat=e["who"], expression=e["expression"]),
                    style="bold")
    if kind == "elided":
        n = e["count"]
        return Text(ngettext("(and {n} more line of this action, not kept: an action keeps "
                             "about a million characters of the chronicle)",
                             "(and {n} more lines of this action, not kept: an action keeps "
                             "about a million characters of the chronicle)", n).format(n=i18n.number(n)) + mark,
                    style="dim")
    if kind == "ask":
        decision = e["decision"]
        # The question in the table's language (a decision keeps its other languages' prompts in texts).
        prompt = text_of(decision["texts"], style) if decision.get("texts") else decision.get("prompt", "")
        by = _(" (auto)") if e.get("by") == "auto" else ""
        answer = e["answer"]
        if decision.get("kind") == "yes_no" and isinstance(answer, bool):
            said = _("yes") if answer else _("no")      # a yes or no as the question asked it, never true
        elif isinstance(answer, list) and not all(type(a) is int for a in answer):
            said = i18n.join_list([format_value(a, style.lang) for a in answer]) or _("none")   # names picked, as a list is said
        else:
            said = format_value(answer, style.lang)
        return Text(f"{prompt} {said}{by}{mark}", style="italic")
    if kind in ("mark", "clear", "move") and e.get("quiet"):
        return None                 # the ruleset says it in its own words
    if kind in ("mark", "clear"):
        kind_of = f" {named(e['type'], style)}" if e.get("type") else ""
        line = _("{track}: marks {count}{kind} (now {marked} marked)") if kind == "mark" else \
            _("{track}: clears {count}{kind} (now {marked} marked)")
        return Text(line.format(track=_path_shown(e['track'], style), count=e['count'], kind=kind_of, marked=e['marked']) + mark,
                    style="yellow")
    if kind == "move":
        if "count" in e:
            what = ngettext("{n} die moves", "{n} dice move", e['count']).format(n=e['count'])
        else:
            faces = e.get("dice", [])
            what = ngettext("{faces} moves", "{faces} move", len(faces)).format(faces=' '.join(map(str, faces))) \
                if faces else _("no dice move")
        return Text(_("{what} from {source} to {target}").format(what=what, source=e['source'], target=e['target'])
                    + mark, style="yellow")
    if kind == "lookup" and e.get("quiet"):
        return None                 # the ruleset shows the row in its own words
    if kind == "lookup":
        keys = ", ".join(text_of(k, style) for k in e["key"])
        table = RichTable(title=f"{e['table']} [{keys}]{mark}", box=style.box, title_justify="left")
        row = e["row"]
        for column in row:
            table.add_column(str(column))
        table.add_row(*[text_of(v, style) for v in row.values()])
        return table
    if kind == "roll_off":
        again = ngettext(", after {n} tie", ", after {n} ties", e['rounds'] - 1).format(n=e['rounds'] - 1) \
            if e["rounds"] > 1 else ""
        return Text(_("{winner} rolls highest{again}.").format(winner=e['winner'], again=again) + mark, style="green")
    if kind == "create":
        # In another language than English the group's label: (labels: ("entity", group) -> its label:), when
        # it has one; English keeps the group's name, as it always showed.
        entity = e['entity']
        if labels and ("entity", entity) in labels and i18n.language() != i18n.ENGLISH:
            entity = text_of(labels[("entity", entity)], style)
        return Text(_("Added to {entity}: {name}.").format(entity=entity, name=e['name']) + mark, style="green")
    if kind == "level" and e["event"] == "begin" and e["level"] != innermost:
        # The level's label: in the table's language (`labels`: level -> its label:), else its name.
        name = text_of(labels[e["level"]], style) if labels and e["level"] in labels else e["level"]
        return Text(f"— {name} {e['iteration']} —{mark}", style="bold magenta")
    if kind == "end":
        # The result as the ruleset words it in the table's language (results:, labels ("result", name)), else its name.
        result = result_words({e["result"]: labels[("result", e["result"])]}, e["result"], style.lang) \
            if labels and ("result", e["result"]) in labels else e["result"]
        if e.get("text") is not None:       # the result in the ruleset's words (end: text:)
            return Text(_("The game is over: {result}.").format(result=result) + f" {text_of(e['text'], style)}{mark}",
                        style="bold")
        return Text(_("The game is over: {result}.").format(result=result) + mark, style="bold")
    if kind == "undo":
        return _undone(e, style)
    return None                     # a trigger's id among them: its own steps say what it does


def _path_shown(path: str, style: Style) -> str:
    """`Brute.health` with the field by its label (`Brute.身体状态`); the instance's name as it is."""
    head, dot, tail = path.rpartition(".")
    return f"{head}{dot}{named(tail, style)}" if dot else named(path, style)


def named_roll(e: dict, label: str, style: Style) -> Text:
    """A roll of the game on one line, as its name and every die with its final fate, marked as
    `dusk roll` marks it (the symbols and styles are the dice renderer's), then a legend of the marks:

        Kill  6✓ 6✓ 6✓ 3↓ 1↓  (✓ counted, ↓ set aside)

    A pool is shown as its dice (in the order _pool_order says); a sum is shown only when the roll's value is a number (`= 7`), never a pool's total. The whole
    trace stays in the log and in the session file."""
    pool = e.get("pool")
    dice = _pool_order(e["dice"], pool) if pool is not None else e["dice"]
    value = e.get("value")
    shown = render_rich({"expression": label, "value": value, "pool": None,
                         "steps": [{"label": label, "dice": dice}]}, style.ascii_only)
    # The dice renderer lays this out as "LABEL  DICE = VALUE" and, when a mark is used, "\n  (LEGEND)":
    # the pieces are taken from it with their styles, so a die looks as it looks in `dusk roll`.
    plain = shown.plain
    start = len(label) + 2
    end = plain.index(" = ", start)
    line = shown[:end]
    if pool is None:
        line.append(f" = {format_value(value, style.lang)}", style="bold")
    legend = plain.find("\n  (", end)
    if legend >= 0:
        line.append("  ")
        line.append_text(shown[legend + 3:])
    return line


def _pool_order(dice: list, pool: list) -> list:
    """The dice of a pool roll in roll order, as `dusk roll` shows them, when the dice still in the
    pool come in the pool's order (4d6kh3); else in the pool's order (the faces still in it, matched to
    dice that are: `[blue, 2d6]` shows the dice kept from before first), then the dice it left out in
    roll order; the roll order when the faces cannot be matched."""
    if [d["face"] for d in dice if d.get("fate", "kept") in ("kept", "counted")] == list(pool):
        return dice
    rest = list(dice)
    ordered = []
    for face in pool:
        for i, die in enumerate(rest):
            if die["face"] == face and die.get("fate", "kept") in ("kept", "counted"):
                ordered.append(rest.pop(i))
                break
        else:
            return dice
    return ordered + rest


def _undone(e: dict, style: Style):
    """What an undo took back: one line for each command as typed (a session writes the command and
    its turns on each game action's undo event; the line is shown on the last, which names the first
    turn), or the turn alone for an undo event without them."""
    turns = e.get("turns")
    if not turns:
        return Text(_("Undone: turn {turn}.").format(turn=e['of']), style="dim")
    first, last = turns
    if e["of"] != first:
        return None
    dash = "-" if style.ascii_only else "–"
    span = _("turn {turn}").format(turn=first) if first == last else _("turns {first}{dash}{last}").format(
        first=first, dash=dash, last=last)
    return Text(_("Undone: {command} ({span}).").format(command=e['command'], span=span), style="dim")


def state_tables(game, style: Style) -> list:
    """The whole state: variables in one table, each entity (or group) in a table of its own."""
    values = game.values
    ruleset = game.ruleset
    out = []
    variables = RichTable(title=_("state"), box=style.box, show_header=True)
    variables.add_column(_("name"), style="cyan")
    variables.add_column(_("value"))
    for name in ruleset.state:
        variables.add_row(named(name, style), text_of(values.get(name), style))
    counters = values.get("loop")     # none yet while a question of the setup waits
    for level in ruleset.loop if counters is not None else ():
        done = (values.get("loop_done") or {}).get(level.name)
        variables.add_row(named(level.name, style) if level.name in style.words else f"loop.{level.name}", _("{count} ({done} done)").format(count=counters.get(level.name), done=done))
    out.append(variables)
    for name, spec in ruleset.entities.items():
        instances = values.get(name)
        # none made yet while a question of the setup waits: the table shows its columns, no row
        instances = [i for i in (instances if isinstance(instances, list) else [instances]) if isinstance(i, dict)]
        title = text_of(spec.label, style) if spec.label is not None else name
        columns = ["name"] + list(spec.fields) + list(spec.tracks)
        table = RichTable(title=title, box=style.box)
        rules = spec.sheet.fields if spec.sheet is not None else {}
        for column in columns:
            table.add_column(_("name") if column == "name" else named(column, style),
                             style="cyan" if column == "name" else None)
        for instance in instances:
            table.add_row(*[choice_shown(instance.get(c), rules.get(c), style)
                            or _cell(instance.get(c), style, spec.tracks.get(c)) for c in columns])
        out.append(table)
    out += [pair_table(game, name, style) for name in ruleset.pairs]
    return out


def instance_table(game, wanted: str, style: Style):
    """One instance of any entity or group, found by its name (any case), as a two-column table:
    every field and track (`sheet Ana`); None when no instance has the name."""
    for entity, spec in game.ruleset.entities.items():
        instances = game.values.get(entity)
        for instance in instances if isinstance(instances, list) else [instances]:
            if isinstance(instance, dict) and str(instance.get("name", "")).casefold() == wanted.casefold():
                kind = text_of(spec.label, style) if spec.label is not None else entity
                if spec.sheet is not None and spec.sheet.layout:
                    return laid_out(instance, spec, f"{instance['name']} ({kind})", style)
                table = RichTable(title=f"{instance['name']} ({kind})", box=style.box, show_header=False)
                table.add_column(_("field"), style="cyan")
                table.add_column(_("value"))
                hidden = spec.sheet.internal if spec.sheet is not None else ()
                rules = spec.sheet.fields if spec.sheet is not None else {}
                for column in list(spec.fields) + list(spec.tracks):
                    if column not in hidden:
                        table.add_row(named(column, style), choice_shown(instance.get(column), rules.get(column), style)
                                      or _cell(instance.get(column), style, spec.tracks.get(column)))
                return table
    return None


def laid_out(instance: dict, spec, title: str, style: Style):
    """An instance as its sheet template's layout draws it: each section a row of columns, each
    column its fields with their values (a track as its boxes), as the paper sheet is laid out;
    the fields the layout leaves out (not internal) follow under `other`."""
    from rich.console import Group

    parts = [Text(title, style="bold")]
    placed = {f for _, columns in spec.sheet.layout for _, names in columns for f in names}
    sections = list(spec.sheet.layout)
    rest = [f for f in list(spec.fields) + list(spec.tracks) if f not in placed and f not in spec.sheet.internal
            and f != "name"]
    if rest:
        sections.append((_("other"), ((None, tuple(rest)),)))
    for heading, columns in sections:
        grid = RichTable(title=text_of(heading, style), box=style.box, title_justify="left",
                         show_header=any(t is not None for t, _names in columns))
        for column_title, _names in columns:
            grid.add_column(text_of(column_title, style) if column_title is not None else "")
        cells = [[_sheet_cell(f, instance.get(f), spec, style) for f in names] for _, names in columns]
        for row in range(max(len(c) for c in cells)):
            grid.add_row(*[c[row] if row < len(c) else "" for c in cells])
        parts.append(grid)
    return Group(*parts)


def _sheet_cell(name: str, value, spec, style: Style) -> str:
    """One field on a laid-out sheet: its name in words, then its dots (a number the template bounds
    to at most 10, as a paper sheet fills them) and the number, or its value, or a track's boxes."""
    rule = spec.sheet.fields.get(name)
    shown = named(name, style, spaced=True)
    if rule is not None and rule.number and type(value) is int and rule.max is not None and 0 < rule.max <= 10 \
            and 0 <= value <= rule.max:
        full, empty = ("*", ".") if style.ascii_only else ("●", "○")
        return f"{shown} {full * value}{empty * (rule.max - value)} {value}"
    # An empty text as the dash the pair tables show: "motto " with nothing after would look cut off.
    return f"{shown} {filled(choice_shown(value, rule, style) or _cell(value, style, spec.tracks.get(name)), style)}"


def instance_names(game) -> list[str]:
    """The names of every instance of the game's groups, in order (for `sheet` and its completion)."""
    names = []
    for entity, spec in game.ruleset.entities.items():
        instances = game.values.get(entity)
        if spec.is_group and isinstance(instances, list):
            names += [str(i.get("name")) for i in instances]
    return names


def pair_table(game, name: str, style: Style):
    """The records of a pair written so far, one row each; a record not listed holds the defaults."""
    spec = game.ruleset.pairs[name]
    title = text_of(spec.label, style) if spec.label is not None else name
    arrow = "->" if style.ascii_only else "→"
    defaults = ", ".join(f"{named(field, style)} {filled(text_of(value, style), style)}"
                         for field, value in spec.fields.items())
    way = _("from {arrow} to").format(arrow=arrow) if spec.ordered else _("either way")
    table = RichTable(title=f"{title} ({way})",
                      caption=_("any other pair: {defaults}").format(defaults=defaults) if defaults else None,
                      box=style.box)
    table.add_column(_("from") if spec.ordered else _("between"), style="cyan")
    table.add_column(_("to") if spec.ordered else _("and"), style="cyan")
    for field in spec.fields:
        table.add_column(named(field, style))
    for first, second, fields in game.pair_records(name):
        table.add_row(str(first), str(second), *[text_of(fields.get(f), style) for f in spec.fields])
    return table


def _cell(value, style: Style, track=None) -> str:
    if isinstance(value, dict) and "marked" in value and "labels" in value:
        marks = ("x" if style.ascii_only else "■", "." if style.ascii_only else "□")
        rule = getattr(track, "rule", None)
        if rule is not None and "marks" in value:
            # Each box shows the symbol of the type that marked it, and the counts follow in words.
            boxes = "".join(rule.symbol(m) for m in value["marks"]) + marks[1] * value["free"]
            counts = f" ({shown_marks(value, style.words)})" if value.get("marks") else ""
            return f"{boxes} {value['marked']}/{value['size']}{counts}"
        boxes = "".join(marks[0] if i < value["marked"] else marks[1] for i in range(value["size"]))
        return f"{boxes} {value['marked']}/{value['size']}"
    return text_of(value, style)


def lookup_table(table, style: Style):
    """A ruleset table, every row, in the chosen language."""
    title = text_of(table.title, style) if table.title is not None else table.name
    rendered = RichTable(title=title, box=style.box, show_lines=False)
    columns: list[str] = list(table.keys)
    for row in table.rows:
        for key in row.cells:
            if key not in columns:
                columns.append(key)
    for column in columns:
        header = table.columns.get(column)
        rendered.add_column(text_of(header, style) if header is not None else column,
                            style="cyan" if column in table.keys else None)
    for row in table.rows:
        rendered.add_row(*[text_of(row.cells.get(c, ""), style) for c in columns])
    return rendered


def rules(game, style: Style):
    ruleset = game.ruleset
    head = Text()
    head.append(text_of(ruleset.title, style), style="bold")
    if ruleset.source:
        head.append(f"\n{text_of(ruleset.source, style)}", style="dim")
    if ruleset.description:
        head.append(f"\n{text_of(ruleset.description, style)}")
    head.append("\n" + _("seed {seed}").format(seed=game.seed))
    params = RichTable(title=_("params"), box=style.box)
    for column in (N_("param"), N_("value"), N_("default"), N_("doc")):
        params.add_column(_(column), style="cyan" if column == "param" else None)
    for name, param in ruleset.params.items():
        value = game.params.get(name)
        params.add_row(name, text_of(value, style), text_of(param.default, style),
                       text_of(param.doc, style) if param.doc is not None else "")
    return [head, params]


def language_notice(ruleset, lang: str | None) -> str | None:
    """One line saying which texts are shown when the ruleset has none in `lang` (nor in its base
    language, pt for pt-BR); None when it has them, or when no language was asked for."""
    if not lang:
        return None
    languages = tuple(ruleset.languages)
    if lang in languages or lang.split("-")[0] in languages:
        return None
    if "en" in languages:
        shown = _("English")
    elif len(languages) == 1:
        shown = languages[0]
    else:
        shown = _("each text in the first language it has")
    return _("{ruleset} has no texts in {lang}; showing {shown}").format(ruleset=ruleset.id, lang=lang, shown=shown)
