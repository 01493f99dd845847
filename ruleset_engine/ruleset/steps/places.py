"""The steps that read tables and move things between places: lookup, move, mark and clear."""

from __future__ import annotations

from ruleset_engine.i18n import _

from collections import Counter
from dataclasses import dataclass

from ruleset_engine.dice.kinds import ANY, NUM, POOL

from ..marks import MarkRule, mark_typed, set_marked
from ..names import unset_problem
from ..model import Formula, Step
from ..templates import format_value
from ..yamlio import position_of
from .kind import StepFailed, StepKind, given, nothing


@dataclass(slots=True, repr=False, eq=False)
class LookupStep(Step):
    """A checked `lookup:` step."""

    table: str
    keys: list[Formula]
    var: str
    quiet: bool = False      # the row is bound and logged, but the table does not show it


@dataclass(slots=True, repr=False, eq=False)
class MoveStep(Step):
    """A checked `move:` step."""

    source: tuple[str, ...]
    target: tuple[str, ...]
    count: Formula | None = None
    dice: Formula | None = None
    floor: Formula | None = None
    quiet: bool = False      # logged, but the table does not show it (the ruleset says it in its own words)


@dataclass(slots=True, repr=False, eq=False)
class MarkStep(Step):
    """A checked `mark:` or `clear:` step."""

    track: tuple[str, ...]
    count: Formula | None
    clear: bool = False
    type: str | None = None          # the type of mark, on a track that takes marks of types
    rule: MarkRule | None = None     # that track's types and rule
    type_formula: Formula | None = None   # type: a formula giving the type's name, read as the step runs
    quiet: bool = False              # logged, but the table does not show it (the ruleset says it in its own words)


# ---- checks -----------------------------------------------------------------------------


def check_lookup(c, item, path, scope):
    p = tuple(path)
    name = item["lookup"]
    if name not in c.tables:
        c.problem(_("there is no table {name!r}{hint}").format(name=name, hint=c.suggest(name, c.tables)),
                  p + ("lookup",))
        return None
    spec = c.data["tables"][name]
    if not c.sound(("tables", name)):
        return None   # the table itself is broken, and that is reported already
    keys = (spec["key"],) if isinstance(spec["key"], str) else tuple(spec["key"])
    formulas = []
    if "key" in item and "keys" not in item:
        if len(keys) != 1:
            c.problem(_("table {name!r} has {n} key columns ({keys}): give keys: with each").format(
                          name=name, n=len(keys), keys=', '.join(keys)),
                      p + ("key",))
            return None
        formulas = [c.formula(item["key"], p + ("key",), scope)]
    elif "keys" in item and "key" not in item:
        given = item["keys"]
        for k in given:
            if k not in keys:
                c.problem(_("table {name!r} has no key column {k!r} (its keys: {keys})").format(
                              name=name, k=k, keys=', '.join(keys)),
                          p + ("keys", k), at_key=True)
        for k in keys:
            if k not in given:
                c.problem(_("table {name!r} needs a value for its key column {k!r}").format(name=name, k=k),
                          p + ("keys",))
                return None
            formulas.append(c.formula(given[k], p + ("keys", k), scope))
    else:
        c.problem(_("lookup takes key: (one key column) or keys: (a value for each key column)"), p)
        return None
    c.bind(scope, item["as"], tuple(path) + ("as",), "lookup", ("row", name))
    if any(f is None for f in formulas):
        return None
    return LookupStep(position_of(c.data, path), path, name, formulas, item["as"], bool(item.get("quiet")))


def check_move(c, item, path, scope):
    spec = item["move"]
    p = tuple(path) + ("move",)
    if ("count" in spec) == ("dice" in spec):
        c.problem(_("move takes count: (a number of dice) or dice: (a pool of faces)"), p)
        return None
    source = c.target(spec["from"], p + ("from",), scope, "move from", reads=True)
    target = c.target(spec["to"], p + ("to",), scope, "move to", reads=True)
    step = MoveStep(position_of(c.data, path), path, source or (), target or (),
                    count=c.formula(spec.get("count"), p + ("count",), scope),
                    dice=c.formula(spec.get("dice"), p + ("dice",), scope),
                    floor=c.formula(spec.get("floor"), p + ("floor",), scope), quiet=bool(item.get("quiet")))
    return step if source and target else None


def check_mark(c, item, path, scope):
    clear = "clear" in item
    key = "clear" if clear else "mark"
    if "mark" in item and "clear" in item:
        c.problem(_("a step marks or clears, not both"), tuple(path))
        return None
    text = item[key]
    parts = tuple(text.split("."))
    head = parts[0]
    info = scope.local.get(head) if head in scope.local else (("entity", head) if head in c.entities else None)
    if info is None or info[0] != "entity" or len(parts) != 2 or parts[1] not in c.entities.get(info[1], {}).get(
            "tracks", ()):
        tracks = [f"{e}.{t}" for e, spec in c.entities.items() for t in spec["tracks"]]
        hint = _("; a procedure's parameter that holds an instance is declared {form}").format(
            form="{" + head + ": {of: GROUP}}") if head in scope.local and info is None and len(parts) == 2 else ""
        c.problem(_("{key}: {text!r} is not a track (write ENTITY.TRACK, declared under entities: "
                    "tracks:{hint}){hint2}").format(
                      key=key, text=text, hint=hint, hint2=c.suggest(text, tracks)), tuple(path) + (key,))
        return None
    unset = unset_problem(parts, scope)     # an instance bound on some ways to this step only
    if unset:
        c.problem(_("{what}: {problem}").format(what=key, problem=unset), tuple(path) + (key,), at_key=True)
        return None
    kinds = c.entities[info[1]].get("marks", {}).get(parts[1])
    mark_type, rule = item.get("type"), None
    if kinds is None and mark_type is not None:
        c.problem(_("{key}: {text!r} takes plain marks; only a track with marks: takes a type:").format(
                      key=key, text=text),
                  tuple(path) + ("type",), at_key=True)
        return None
    if kinds is not None:
        if mark_type is None and not clear:
            c.problem(_("mark: {text!r} takes marks of a type: say which with type: (one of {kinds})").format(
                          text=text, kinds=', '.join(kinds)),
                      tuple(path) + ("mark",))
            return None
        type_formula = None
        if mark_type is not None and mark_type not in kinds:
            # Not a type's name: a formula that gives one as the step runs (a local, a field, a
            # conditional), unless it is a lone name nothing here knows: then a misspelt type.
            if _lone_unknown(c, mark_type, scope):
                c.problem(_("{key}: {text!r} takes marks of the types {kinds}, not {mark_type!r}{hint} "
                            "(or a formula giving one)").format(
                              key=key, text=text, kinds=', '.join(kinds), mark_type=mark_type,
                              hint=c.suggest(mark_type, kinds)), tuple(path) + ("type",))
                return None
            type_formula = c.formula(mark_type, tuple(path) + ("type",), scope)
            if type_formula is None:
                return None
            mark_type = None
        rule = track_rule(c, info[1], parts[1])
        return MarkStep(position_of(c.data, path), path, parts,
                        c.formula(item.get("count", 1), tuple(path) + ("count",), scope), clear, mark_type, rule,
                        type_formula, bool(item.get("quiet")))
    return MarkStep(position_of(c.data, path), path, parts,
                    c.formula(item.get("count", 1), tuple(path) + ("count",), scope), clear, mark_type, rule,
                    None, bool(item.get("quiet")))


def _lone_unknown(c, text, scope) -> bool:
    """Whether a type: is one bare name that no local, state variable or entity has (a misspelt type)."""
    if not isinstance(text, str) or not text.isidentifier():
        return False
    return c.names.name_problem((text,), scope) is not None


def mark_type(value, rule: MarkRule, track: str) -> str:
    """The type a type: formula gives, checked against the track's types as the step runs."""
    if isinstance(value, str) and value in rule.types:
        return value
    from ..templates import format_value

    raise StepFailed(_("{track} takes marks of the types {types}, not {value!r}").format(
                         track=track, types=', '.join(rule.types), value=format_value(value)))


def track_rule(c, entity: str, track: str) -> MarkRule:
    """The rule of a track whose schema the checker accepted (its problems are reported with the entity)."""
    spec = c.data["entities"][entity]["tracks"][track]
    return MarkRule.of(spec)


# ---- what the lowered steps call ---------------------------------------------------------


def find_row(table, keys) -> dict:
    """The first row of the table whose key cells match (a pool key means its total)."""
    values = [sum(k) if isinstance(k, tuple) else k.total if hasattr(k, "total") else k for k in keys]
    row = table.find(values)
    if row is None:
        shown = ", ".join(format_value(k) for k in values)
        raise StepFailed(_("no row of table {name!r} matches {shown} (add a row, or a default:)").format(
                             name=table.name, shown=shown))
    return row


def move_count(source, target, floor: int, n: int) -> tuple[int, int, int]:
    """Move n dice between two counts, never leaving the source below floor: (source, target, moved)."""
    if type(source) is not int or type(target) is not int:
        raise StepFailed(_("move count: moves between numbers of dice; use dice: to move faces between "
                           "pools"))
    n = max(0, min(max(0, n), source - floor))
    return source - n, target + n, n


def move_dice(source, target, floor: int, faces, plain: bool, name: str = "the source"):
    """Move these faces from one pool to another, keeping floor dice in the source:
    (source left, target, faces moved); tuples when plain (untraced), lists otherwise."""
    if hasattr(faces, "faces"):
        faces = faces.faces
    faces = [faces] if type(faces) is int else list(faces)
    source = source.faces if hasattr(source, "faces") else source
    target = target.faces if hasattr(target, "faces") else target
    if not isinstance(source, (list, tuple)) or not isinstance(target, (list, tuple)):
        raise StepFailed(_("move dice: moves faces between pools (lists of faces); use count: for "
                           "numbers"))
    if Counter(faces) - Counter(source):
        raise StepFailed(_("cannot move {faces}: {name} holds {source}").format(
                             faces=format_value(faces), name=name, source=format_value(list(source))))
    keep_back = max(0, floor - (len(source) - len(faces)))
    moving = faces[: len(faces) - keep_back] if keep_back else list(faces)
    left = list(source)
    for face in moving:
        left.remove(face)
    joined = list(target) + moving
    if plain:
        return tuple(left), tuple(joined), moving
    return left, joined, moving


def mark(track, n: int, clear: bool) -> int:
    if not isinstance(track, dict) or "marked" not in track:
        raise StepFailed(_("mark: and clear: change tracks"))
    set_marked(track, track["marked"] + (-n if clear else n))
    return track["marked"]


# ---- lowering ---------------------------------------------------------------------------


def lower_lookup(w, step: LookupStep) -> None:
    keys = [w.value(formula)[0] for formula in step.keys]
    row = w.local(step.var)
    table = w.const(w.program.ruleset.tables[step.table], "table")
    w.line(f"{row} = _find_row({table}, [{', '.join(keys)}])", step)
    w.bound(step.var, ANY)
    if w.traced:
        w.emit("lookup", table=repr(step.table), key=f"[_to_state(_k.total if hasattr(_k, 'total') else _k) "
                                                       f"for _k in ({''.join(k + ', ' for k in keys)})]",
               row=f"{{_c: _to_state(_v) for _c, _v in {row}.items()}}", **({"quiet": "True"} if step.quiet else {}))


def lower_move(w, step: MoveStep) -> None:
    source, target = w.fresh("_s"), w.fresh("_t")
    w.line(f"{source} = {w.read(step.source)}")
    w.line(f"{target} = {w.read(step.target)}")
    floor = w.number(step.floor, "floor") if step.floor is not None else "0"
    if step.count is not None:
        n = w.number(step.count, "count")
        moved = w.fresh("_n")
        w.line(f"{source}, {target}, {moved} = _move_count({source}, {target}, {floor}, {n})", step)
        w.assign(step.source, source, NUM, step, event=False)
        w.assign(step.target, target, NUM, step, event=False)
        if w.traced:
            w.emit("move", source=w.shown(step.source), target=w.shown(step.target), count=moved,
                   **({"quiet": "True"} if step.quiet else {}))
        return
    faces, _ = w.value(step.dice)
    moved = w.fresh("_n")
    w.line(f"{source}, {target}, {moved} = _move_dice({source}, {target}, {floor}, {faces}, {not w.traced}, "
           f"{'.'.join(step.source)!r})", step)
    w.assign(step.source, source, POOL, step, event=False)
    w.assign(step.target, target, POOL, step, event=False)
    if w.traced:
        w.emit("move", source=repr(".".join(step.source)), target=repr(".".join(step.target)), dice=moved,
               **({"quiet": "True"} if step.quiet else {}))


def lower_mark(w, step: MarkStep) -> None:
    n = w.number(step.count, "count") if step.count is not None else "1"
    marked = w.fresh("_m")
    if step.rule is None:
        w.line(f"{marked} = _mark({w.read(step.track)}, {n}, {step.clear})", step)
        if w.traced:
            w.emit("clear" if step.clear else "mark", track=w.shown(step.track), count=n, marked=marked,
                   **({"quiet": "True"} if step.quiet else {}))
        return
    # A track that remembers what marked it: the event keeps the type and the marks after it.
    track, rule = w.fresh("_k"), w.const(step.rule, "rule")
    kind = repr(step.type)
    if step.type_formula is not None:
        kind = w.fresh("_t")
        value, _ = w.value(step.type_formula)
        w.line(f"{kind} = _mark_type({value}, {rule}, {'.'.join(step.track)!r})", step.type_formula)
    w.line(f"{track} = {w.read(step.track)}")
    w.line(f"_mark_typed({track}, {n}, {kind}, {rule}, {step.clear})", step)
    if w.traced:
        w.emit("clear" if step.clear else "mark", track=w.shown(step.track), count=n, marked=f"{track}['marked']",
               type=kind, marks=f"list({track}['marks'])", **({"quiet": "True"} if step.quiet else {}))


# ---- vector forms (the lockstep backend: many games at once) -----------------------------------


def _matching(matcher, values, np):
    """Matcher.matches for one key value per game: a range holds whole numbers (not true/false)."""
    if matcher.is_range:
        if values.dtype.kind not in "iu":
            return np.zeros(len(values), bool)
        hit = np.ones(len(values), bool)
        if matcher.low is not None:
            hit &= values >= matcher.low
        if matcher.high is not None:
            hit &= values <= matcher.high
        return hit
    if isinstance(matcher.exact, str) != (values.dtype.kind in "OU"):
        return np.zeros(len(values), bool)      # a text never equals a number
    return np.asarray(values == matcher.exact, bool)


def vector_lookup(m, step: LookupStep, rows) -> None:
    """The first matching row per game (the rows tried in order), bound as a record of its cells:
    only those some expression may read (a table's words, which a simulation never shows, are not
    copied to every game)."""
    np = m.np
    table = m.ruleset.tables[step.table]
    keys = [m.number(formula, rows) for formula in step.keys]
    m.site = step      # what fails now is the step's (the formulas ran)
    if all(type(k) in (int, bool, str) for k in keys):
        # The same keys in every game (constants, a procedure's literal argument): the row found once,
        # as find_row finds it, and its cells bound as they are (numpy broadcasts a plain value).
        _lookup_once(m, step, table, keys, rows)
        return
    keys = [m.per_row(k, rows) for k in keys]
    found = np.full(len(rows), -1, np.int64)
    for r, row in enumerate(table.rows):
        open_ = found < 0
        if not open_.any():
            break
        hit = open_.copy()
        for matcher, values in zip(row.matchers, keys):
            hit &= _matching(matcher, values, np)
        found[hit] = r
    cells = [row.cells for row in table.rows]
    if (found < 0).any():
        if table.default is None:
            first = int(np.flatnonzero(found < 0)[0])
            shown = ", ".join(format_value(k[first].item()) for k in keys)
            raise StepFailed(_("no row of table {name!r} matches {shown} (add a row, or a default:)").format(
                                 name=table.name, shown=shown))
        found[found < 0] = len(cells)
        cells.append(table.default)
    record = {}
    read = m.fields_read.get(step.var, set())     # None: read whole (vectorizable.fields_read)
    for column in dict.fromkeys(c for row in cells for c in row):
        if read is not None and column not in read:
            continue
        column_cells = [row.get(column) for row in cells]
        plain = all(type(c) in (int, bool) for c in column_cells) and len({type(c) for c in column_cells}) == 1
        record[column] = np.array(column_cells, None if plain else object)[found]
    m.bind(step.var, rows, record)


def _lookup_once(m, step: LookupStep, table, keys: list, rows) -> None:
    """vector_lookup for keys that are the same in every game: one row for all, found by find_row; a
    cell that is a number, true/false or a text is bound as that value, any other as vector_lookup
    binds it (a column of the games)."""
    np = m.np
    cells = find_row(table, keys)
    record = {}
    read = m.fields_read.get(step.var, set())
    columns = [row.cells for row in table.rows] + ([cells] if cells is table.default else [])
    for column in dict.fromkeys(c for row in columns for c in row):
        if read is not None and column not in read:
            continue
        cell = cells.get(column)
        if type(cell) in (int, bool, str):
            record[column] = cell
        else:
            one = np.empty(1, object)
            one[0] = cell
            record[column] = one[np.zeros(len(rows), np.int64)]
    m.bind(step.var, rows, record)


def vector_move(m, step: MoveStep, rows) -> None:
    """move: for many games, as move_count and move_dice do for one: the source and the target
    read first, then floor:, then the count or the dice; what cannot move is the first game's error."""
    np = m.np
    source, target = m.read(step.source, rows), m.read(step.target, rows)
    floor = m.per_row(m.number(step.floor, rows), rows) if step.floor is not None else 0
    if step.count is not None:
        n = m.per_row(m.number(step.count, rows), rows)
        if m.is_pool(source) or m.is_pool(target):
            raise StepFailed(_("move count: moves between numbers of dice; use dice: to move faces "
                               "between pools"))
        n = np.maximum(0, np.minimum(np.maximum(0, n), source - floor))
        m.assign(step.source, rows, source - n)
        m.assign(step.target, rows, target + n)
        return
    faces = m.value(step.dice, rows)
    m.site = step
    if not (m.is_pool(source) and m.is_pool(target)):
        raise StepFailed(_("move dice: moves faces between pools (lists of faces); use count: for "
                           "numbers"))
    given = m.as_pool(faces, rows)
    faces = given.faces
    held = source.faces
    empty = m.EMPTY
    bad = np.zeros(len(rows), bool)
    wanted = [v for v in np.unique(faces) if v != empty]
    for v in wanted:
        bad |= (faces == v).sum(axis=1) > (held == v).sum(axis=1)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        shown = [int(f) for f in faces[i] if f != empty]
        raise StepFailed(_("cannot move {shown}: {source} holds {items}").format(
                             shown=format_value(shown), source='.'.join(step.source),
                             items=format_value([int(f) for f in held[i] if f != empty])))
    # The last dice named stay when moving them all would leave fewer than floor: in the source.
    count, size = (faces != empty).sum(axis=1), (held != empty).sum(axis=1)
    keep_back = np.maximum(0, floor - (size - count))
    place = np.cumsum(faces != empty, axis=1)
    moving = np.where((faces != empty) & (place <= (count - keep_back)[:, None]), faces, empty)
    left = held.copy()
    for v in wanted:
        # Each die moved takes the first die of its face still in the source.
        k = (moving == v).sum(axis=1)
        left[(held == v) & (np.cumsum(held == v, axis=1) <= k[:, None])] = empty
    # Kinds of dice go with them: those left keep theirs, those moved bring the kinds they were named with.
    kinds = None
    if source.kinds is not None or target.kinds is not None or given.kinds is not None:
        kinds = (source.kinds_or_none(), np.concatenate([target.kinds_or_none(), given.kinds_or_none()], axis=1))
    m.assign(step.source, rows, m.pool(left, None if kinds is None else kinds[0]))
    m.assign(step.target, rows, m.pool(np.concatenate([target.faces, moving], axis=1),
                                       None if kinds is None else kinds[1]))


def vector_mark(m, step: MarkStep, rows) -> None:
    """mark:/clear: for many games: the track's rules (marks.py) applied to each game's boxes."""
    n = m.per_row(m.number(step.count, rows), rows) if step.count is not None else 1
    if step.type_formula is None:
        m.mark_track(step.track, rows, n, step.type, step.clear)
        return
    # type: a formula: the games split by the type each gives, each part marked with its own.
    types = m.per_row(m.value(step.type_formula, rows), rows)
    n = m.per_row(n, rows)
    for name in dict.fromkeys(types.tolist()):
        part = types == name
        m.mark_track(step.track, rows[part], n[part], mark_type(name, step.rule, ".".join(step.track)), step.clear)


LOOKUP = StepKind("lookup", LookupStep, ("lookup", "key", "keys", "as", "quiet"),
                  "binds the first matching row of a table; keys: {col: formula, ..} for several key columns; "
                  "quiet: true keeps the row out of the table's output (it stays in the log)",
                  "lookup: degrees\nkey: net\nas: row", check_lookup, lower_lookup, helpers={"_find_row": find_row},
                  vector=vector_lookup, writes=nothing, binds=lambda s: [(s.var, None)],
                  formulas=lambda s: list(s.keys),
                  schema={
                      "lookup": {"$ref": "#/$defs/name"},
                      "key": {"$ref": "#/$defs/formula"},
                      "keys": {"type": "object", "additionalProperties": {"$ref": "#/$defs/formula"}},
                      "as": {"$ref": "#/$defs/name"},
                      "quiet": {"type": "boolean",
                                "description": "true: the row is bound and logged, not shown at the table"},
                  },
                  required=("as",),
                  declares=("as",))
MOVE = StepKind("move", MoveStep, ("move", "quiet"),
                "moves a number of dice between counts, or dice: POOL faces between pools; floor: keeps the source "
                "from going below that many; quiet: true keeps it out of the table's output (it stays in the log)",
                'move: {count: "size(aside(hand))", from: p.dice, to: pool, floor: 1}',
                check_move, lower_move, helpers={"_move_count": move_count, "_move_dice": move_dice},
                vector=vector_move, writes=lambda s: [s.source, s.target],
                formulas=lambda s: given(s.count, s.dice, s.floor),
                schema={
                    "move": {"type": "object", "required": ["from", "to"], "additionalProperties": False,
                             "properties": {"count": {"$ref": "#/$defs/formula"},
                                            "dice": {"$ref": "#/$defs/formula"}, "from": {"$ref": "#/$defs/path"},
                                            "to": {"$ref": "#/$defs/path"}, "floor": {"$ref": "#/$defs/formula"}}},
                    "quiet": {"type": "boolean", "description": "true: the move is logged, not shown at the table"},
                })
MARK = StepKind("mark", MarkStep, ("mark", "count", "type", "quiet"),
                "marks boxes of a track, from the first unmarked; type: names the mark on a track with marks:, "
                "or is a formula giving its name (its full: rule says what a mark does to a full track); quiet: "
                "true as for move",
                "mark: character.health\ncount: 2\ntype: heavy", check_mark, lower_mark,
                helpers={"_mark": mark, "_mark_typed": mark_typed, "_mark_type": mark_type}, vector=vector_mark,
                writes=lambda s: [s.track], formulas=lambda s: given(s.count, s.type_formula),
                schema={
                    "mark": {"$ref": "#/$defs/path"},
                    "count": {"$ref": "#/$defs/formula"},
                    "type": {"$ref": "#/$defs/formula",
                             "description": "A type of the track's marks: its name, or a formula giving one as the step runs."},
                    "quiet": {"type": "boolean", "description": "true: the marks are logged, not shown at the table"},
                })
CLEAR = StepKind("clear", MarkStep, ("clear", "count", "type", "quiet"),
                 "clears marked boxes of a track, from the last marked (type: only the marks of that type; quiet: true "
                 "as for move)",
                 "clear: character.health\ncount: 1", check_mark, lower_mark,
                 helpers={"_mark": mark, "_mark_typed": mark_typed, "_mark_type": mark_type},
                 vector=vector_mark, writes=lambda s: [s.track], formulas=lambda s: given(s.count, s.type_formula),
                 schema={
                     "clear": {"$ref": "#/$defs/path"},
                     "count": {"$ref": "#/$defs/formula"},
                     "type": {"$ref": "#/$defs/formula",
                              "description": "A type of the track's marks: its name, or a formula giving one as the step runs."},
                     "quiet": {"type": "boolean", "description": "true: the marks are logged, not shown at the table"},
                 })
