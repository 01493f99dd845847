"""The names of a ruleset and the scopes formulas read them in.

Every global name is collected first (params, entities with their fields and tracks, state
variables, tables with their columns, loop levels, procedures and their parameters), so a formula
may refer to what the file declares later. A Scope holds the local names of one place, with what
each holds (an entity's instance, a table's row) when that is known, over the globals.
"""

from __future__ import annotations

from ..errors import get_close_matches

from ruleset_engine.i18n import _

# Names a ruleset may not give: read in formulas (params, loop), or kept by the engine beside the
# game's values (each loop level's iterations done, the iteration a once_per: action was done in).
BUILT_IN = ("params", "loop", "loop_done", "once_per")
TRACK_FIELDS = ("marked", "free", "size", "next", "last", "labels")
INSTANCE_FIELDS = ("name", "index")


def suggest(name, known) -> str:
    guess = get_close_matches(str(name), [str(k) for k in known], n=1)
    return _(" (did you mean {guess}?)").format(guess=repr(guess[0])) if guess else ""


class Scope:
    """The names a formula may read at one place: locals (with what they hold) over the globals,
    which of those locals every way to this place has set (`surely`, kept by ruleset/assigned.py),
    and which were bound by a binding or a step the checker refused (`said`)."""

    def __init__(self, names: "Names", local: dict | None = None):
        self.names = names
        self.local = dict(local or {})
        self.surely = set(self.local)
        self.said: set = set()

    def define(self, name: str, info=None) -> None:
        self.local[name] = info
        self.surely.add(name)

    def said_once(self, name: str) -> None:
        """A local whose binding was refused (it would hide a global, its value was refused, or its
        step was): that problem is said, so the local counts as set wherever it is read after, at
        any depth (the record is shared by the blocks inside, like the locals) and no read of it
        says the mistake a second time."""
        self.said.add(name)

    def fork(self) -> "Scope":
        """The scope of a block inside a step (if:'s then, a loop's do): the same locals (a name bound
        there is known after it too), and its own record of which are surely set."""
        inner = Scope(self.names)
        inner.local = self.local
        inner.surely = self.surely.copy()
        inner.said = self.said
        return inner


def unset_problem(name_path, scope: Scope) -> str | None:
    """A read of a local that some way to this place does not set (ruleset/assigned.py), in a
    designer's words."""
    head = name_path[0]
    if head not in scope.local or head in scope.surely or head in scope.said:
        return None
    return _("{name!r} is not always set here: it is set only on some ways to this step (in one branch "
             "of an if:, or in a loop that may not run); give it a value before, or on every "
             "branch").format(name=head)


class Names:
    """The global names of one ruleset."""

    def __init__(self):
        self.params: dict = {}
        self.entities: dict = {}          # name -> {"fields": [...], "tracks": [...], "group": bool}
        self.state_names: list[str] = []
        self.tables: dict = {}            # name -> the columns its rows have
        self.levels: list[str] = []
        self.procedure_params: dict[str, tuple[str, ...]] = {}
        self.pairs: dict = {}             # name -> {"between": group, "fields": [...]}: read as NAME(a, b)
        self.procedure_fields: dict[str, tuple[str, ...]] = {}   # the fields of the record a procedure returns

    def collect(self, d, problem) -> None:
        """Every global name first, so formulas may refer to what is declared later in the file.
        Names are taken even from items the schema refused, so they do not read as unknown.
        `problem(message, path, at_key=...)` reports a name that cannot be."""

        def section(name) -> dict:
            value = d.get(name)
            return value if isinstance(value, dict) else {}

        self.params = {k: v for k, v in section("params").items() if isinstance(v, dict)}
        for name, spec in section("entities").items():
            if name in BUILT_IN:
                problem(_("the entity {name!r} has a built-in name ({BUILT_IN})").format(
                            name=name, BUILT_IN=', '.join(BUILT_IN)), ("entities", name),
                        at_key=True)
            spec = spec if isinstance(spec, dict) else {}
            fields = spec.get("fields") if isinstance(spec.get("fields"), dict) else {}
            tracks = spec.get("tracks") if isinstance(spec.get("tracks"), dict) else {}
            self.entities[name] = {"fields": list(fields), "tracks": list(tracks),
                                   "group": spec.get("count") is not None,
                                   "marks": {t: list(v["marks"]) for t, v in tracks.items()
                                             if isinstance(v, dict) and isinstance(v.get("marks"), dict)}}
        for name, spec in section("pairs").items():
            spec = spec if isinstance(spec, dict) else {}
            fields = spec.get("fields") if isinstance(spec.get("fields"), dict) else {}
            self.pairs[name] = {"between": spec.get("between"), "fields": list(fields)}
            if name in self.entities or name in section("state") or name in BUILT_IN:
                problem(_("the pair {name!r} has the name of an entity, a state variable or a built-in "
                          "name").format(name=name),
                        ("pairs", name), at_key=True)
        self.state_names = list(section("state"))
        for name in self.state_names:
            if name in self.entities or name in BUILT_IN:
                problem(_("the state variable {name!r} has the name of an entity or a built-in name").format(
                            name=name),
                             ("state", name), at_key=True)
        for name, spec in section("tables").items():
            columns = set()
            rows = spec.get("rows") if isinstance(spec, dict) else None
            for row in rows if isinstance(rows, list) else []:
                if isinstance(row, dict):
                    columns.update(row.keys())
            self.tables[name] = columns
        loop = d.get("loop") if isinstance(d.get("loop"), list) else []
        # Only the levels that have a name (the schema reports the others): a None here would reach
        # every message that lists the levels.
        self.levels = [level["name"] for level in loop
                       if isinstance(level, dict) and isinstance(level.get("name"), str)]
        for name, spec in section("procedures").items():
            params = spec.get("params") if isinstance(spec, dict) else None
            self.procedure_params[name] = procedure_param_names(params)
            steps = spec.get("steps") if isinstance(spec, dict) else None
            self.procedure_fields[name] = _record_fields(name, steps, ("procedures", name, "steps"), problem)

    def name_problem(self, name_path, scope: Scope) -> str | None:
        head, rest = name_path[0], name_path[1:]
        if head in scope.local:
            info = scope.local[head]
            return self.member_problem(head, info, rest)
        if head == "params":
            if not rest:
                return _("params is a group of names: write params.NAME")
            if rest[0] not in self.params:
                return _("unknown param {name!r}{hint}").format(name=rest[0], hint=suggest(rest[0], self.params))
            return None
        if head == "loop":
            if rest and rest[0] not in self.levels:
                return _("unknown loop level {name!r}{hint}").format(name=rest[0], hint=suggest(rest[0], self.levels))
            if len(rest) > 1 and rest[1:] != ("done",):
                return _("loop.{level} has one field, done (how many of its iterations are done), not {name!r}").format(
                    level=rest[0], name=".".join(rest[1:]))
            return None
        if head in self.state_names:
            return None
        if head in self.entities:
            spec = self.entities[head]
            if spec.get("group"):
                return _("{name!r} is a group: go through it with for_each").format(name=head)
            return self.member_problem(head, ("entity", head), rest)
        known = list(scope.local) + self.state_names + list(self.entities) + ["params", "loop"]
        return _("unknown name {name!r}{hint}").format(name=head, hint=suggest(head, known))

    def member_problem(self, head, info, rest) -> str | None:
        if not rest or info is None:
            return None
        kind, detail = info
        if kind == "entity":
            spec = self.entities.get(detail, {})
            if rest[0] in spec.get("tracks", ()):
                return self.member_problem(f"{head}.{rest[0]}", ("track", spec.get("marks", {}).get(rest[0], [])),
                                           rest[1:])
            instance = INSTANCE_FIELDS if spec.get("group") else ("name",)
            known = list(spec.get("fields", ())) + list(spec.get("tracks", ())) + list(instance)
            if rest[0] == "index" and not spec.get("group"):
                return _("{name!r} is one entity: index belongs to the instances of a group").format(name=head)
            if rest[0] not in known:
                return _("{name!r} has no {field!r}{hint}").format(name=head, field=rest[0],
                                                                   hint=suggest(rest[0], known))
        elif kind == "track":
            known = TRACK_FIELDS + tuple(detail or ())     # and a count for each type of mark it takes
            if rest[0] not in known:
                return _("a track has {fields}, not {field!r}{hint}").format(
                    fields=", ".join(known), field=rest[0], hint=suggest(rest[0], known))
        elif kind == "record":
            fields = self.procedure_fields.get(detail, ())
            if rest[0] not in fields:
                return _("{name!r} is the record {procedure!r} returns, with {fields}: it has no {field!r}{hint}").format(
                    name=head, procedure=detail, fields=", ".join(fields), field=rest[0], hint=suggest(rest[0], fields))
        elif kind == "value":
            held = _("true or false") if detail == "true/false" else _("a {kind}").format(kind=detail)
            return _("{name!r} holds {held}, which has no field {field!r}").format(name=head, held=held, field=rest[0])
        elif kind == "row":
            columns = self.tables.get(detail, set())
            if columns and rest[0] not in columns:
                return _("the rows of table {table!r} have no column {column!r}{hint}").format(
                    table=detail, column=rest[0], hint=suggest(rest[0], columns))
        return None


NESTED_STEPS = ("then", "else", "do")     # the keys under which steps hold steps


def _returns(steps, path):
    """(path, value) of every return: step in a block of steps, nested blocks too."""
    for i, step in enumerate(steps if isinstance(steps, list) else []):
        if not isinstance(step, dict):
            continue
        if "return" in step:
            yield path + (i,), step["return"]
        for key in NESTED_STEPS:
            yield from _returns(step.get(key), path + (i, key))


def _record_fields(name, steps, path, problem) -> tuple[str, ...]:
    """The fields of the record a procedure returns: () unless every return: gives a record, and
    then they must give the same fields, so that what a caller reads is always there."""
    found = list(_returns(steps, path))
    records = [(p, tuple(v)) for p, v in found if isinstance(v, dict)]
    if not records:
        return ()
    first_path, fields = records[0]
    for p, value in found:
        if not isinstance(value, dict):
            problem(_("procedure {name!r} returns a record elsewhere ({fields}): return one here too").format(
                        name=name, fields=', '.join(fields)),
                    p + ("return",))
        elif set(value) != set(fields):
            problem(_("procedure {name!r} returns a record of {fields} elsewhere, and {value} here: "
                      "give every return the same fields").format(
                        name=name, fields=', '.join(fields), value=', '.join(value)), p + ("return",))
    return fields


def procedure_param_names(params) -> tuple[str, ...]:
    """A procedure's parameter names, in order: each is a name, or {NAME: {of: GROUP}} for one that
    holds an instance of a group."""
    if not isinstance(params, list):
        return ()
    return tuple(next(iter(p)) if isinstance(p, dict) and p else p for p in params)
