"""Sheets: instances of a group written in YAML files of their own, checked against a template the
ruleset declares, and made when a game starts.

    entities:
      crew:
        count: 0
        fields: {kind: {text: scout}, grit: 1, aim: 0}
        tracks: {health: {boxes: 7, marks: {bashing: "/", lethal: X}}}
        sheet:                               # the template a sheet file is checked against
          fields:
            kind: {choices: [scout, guard]}
            grit: {min: 1, max: 5}
            aim: {min: 0, max: 5}
          tracks: [health]                   # a sheet may start a track marked: {lethal: 1}
          files: [crew/mara.yaml]            # sheets that come with the ruleset

A sheet file names its group (optional when one group has a template), the instance's name, then
fields, at the top or gathered in sections of any name (`attributes:`), and tracks:

    sheet: crew
    name: Mara
    kind: guard
    attributes: {grit: 3}
    aim: 4
    health: {lethal: 1}

Every problem of a sheet is found at once, each at its place in the sheet's file
(`mara.yaml:7:3: grit must be 1..5`). The files of `files:` follow the rule of `include:` (a
.yaml file in the ruleset's folder or below it); every file is read by the one text-file reader.
"""

from __future__ import annotations

from ruleset_engine.i18n import _

import os
from dataclasses import dataclass, field
from ..errors import get_close_matches
from pathlib import Path

from .files import may_include
from .instance_names import name_key, name_problem
from .problems import Position, Problem, Problems, RulesetError
from .yamlio import LDict, key_position_of, load_yaml_file, position_of

MAX_SHEETS = 200          # sheets of one game (the ruleset's and the table's)
MAX_TEXT = 200            # characters of a text field on a sheet
RESERVED = ("sheet", "name")


@dataclass(frozen=True, slots=True)
class FieldRule:
    """What a sheet may write in one field: a number from min to max, or a text (one of choices)."""

    name: str
    number: bool
    min: int | None = None
    max: int | None = None
    choices: tuple[str, ...] = ()

    def problem(self, value) -> str | None:
        if self.number:
            if type(value) is not int or (self.min is not None and value < self.min) or \
                    (self.max is not None and value > self.max):
                span = f"{self.min}..{self.max}" if self.min is not None and self.max is not None else \
                    _("at least {min}").format(min=self.min) if self.min is not None else \
                    _("at most {max}").format(max=self.max) if self.max is not None else _("a whole number")
                return _("{field} must be {span}").format(field=self.name, span=span)
            return None
        if not isinstance(value, str):
            return _("{field} must be a text").format(field=self.name)
        if self.choices and value not in self.choices:
            return _("{field} must be one of {choices}, not {value!r}").format(
                field=self.name, choices=", ".join(self.choices), value=value)
        if len(value) > MAX_TEXT or any(ord(ch) < 32 for ch in value):
            return _("{field} must be a text of one line, at most {most} characters").format(field=self.name,
                                                                                             most=MAX_TEXT)
        return None


@dataclass(frozen=True, slots=True)
class Sheet:
    """One instance, as a sheet file gives it: its group, name, fields and the marks its tracks start with."""

    group: str
    name: str
    fields: tuple                  # ((field, value), ...)
    marks: tuple = ()              # ((track, type or None, count), ...)
    file: str = ""                 # the file, as messages name it
    path: str = ""                 # its real path (a ruleset's sheet named again at the table is the same)


@dataclass(slots=True)
class SheetTemplate:
    group: str
    fields: dict[str, FieldRule]
    tracks: tuple[str, ...] = ()
    types: dict = field(default_factory=dict)      # track -> its types of mark (() for a plain track)
    sheets: tuple = ()                             # the sheets that come with the ruleset
    sizes: dict = field(default_factory=dict)      # track -> its number of boxes (None: a formula's, in play)
    internal: tuple = ()                           # fields the rules keep for themselves: not shown, not set
    layout: tuple = ()                             # (title, ((title, (field or track, ...)), ...)), ...


def _layout(c, name: str, spec, path, declared: dict, tracks: dict, internal) -> tuple:
    """The template's `layout:` checked: each name a field or a track of the group, once, not internal."""
    sections, seen = [], set()
    for i, section in enumerate(spec.get("layout") or ()):
        columns = []
        for j, column in enumerate(section["columns"]):
            names = []
            for k, fname in enumerate(column["fields"]):
                where = path + ("layout", i, "columns", j, "fields", k)
                if fname not in declared and fname not in tracks:
                    c.problem(_("the group {name!r} has no field or track {fname!r}{hint}").format(
                                  name=name, fname=fname, hint=c.suggest(fname, list(declared) + list(tracks))), where)
                elif fname in seen:
                    c.problem(_("{fname!r} is placed twice in the layout").format(fname=fname), where)
                elif fname in internal:
                    c.problem(_("{fname!r} is internal: the sheet view does not show it").format(fname=fname), where)
                else:
                    names.append(fname)
                seen.add(fname)
            columns.append((column.get("title"), tuple(names)))
        sections.append((section["title"], tuple(columns)))
    return tuple(sections)


# ---- the template, as the checker reads it ---------------------------------------------------

def template(c, name: str, spec, path) -> SheetTemplate | None:
    """A group's `sheet:` (path: its place); problems go to the checker c."""
    if "count" not in (c.data["entities"].get(name) or {}):
        c.problem(_("sheet: makes instances of a group: give it count: (0 when sheets make them all)"), path,
                  at_key=True)
        return None
    declared = c.data["entities"][name].get("fields") or {}
    rules = {}
    for fname, rule in (spec.get("fields") or {}).items():
        where = path + ("fields", fname)
        if fname not in declared:
            c.problem(_("the group has no field {fname!r}{hint}").format(
                          fname=fname, hint=c.suggest(fname, declared)), where, at_key=True)
            continue
        initial = declared[fname]
        number = not (isinstance(initial, dict) and "text" in initial)
        rule = rule or {}
        if number and "choices" in rule:
            c.problem(_("{fname} is a number: give it min:/max:, not choices:").format(fname=fname),
                      where + ("choices",), at_key=True)
        if not number and ("min" in rule or "max" in rule):
            c.problem(_("{fname} is a text: give it choices:, not min:/max:").format(fname=fname), where, at_key=True)
        if rule.get("min") is not None and rule.get("max") is not None and rule["min"] > rule["max"]:
            c.problem(_("min {min} is above max {max}").format(min=rule['min'], max=rule['max']), where + ("min",))
        rules[fname] = FieldRule(fname, number, rule.get("min"), rule.get("max"), tuple(rule.get("choices") or ()))
    tracks = c.data["entities"][name].get("tracks") or {}
    types = {}
    for i, track in enumerate(spec.get("tracks") or ()):
        if track not in tracks:
            c.problem(_("the group has no track {track!r}{hint}").format(track=track,
                                                                         hint=c.suggest(track, tracks)),
                      path + ("tracks", i))
            continue
        types[track] = tuple((tracks[track].get("marks") or {}).keys())
    sizes = {}
    for track in types:
        boxes = tracks[track].get("boxes")
        sizes[track] = boxes if type(boxes) is int else len(boxes) if isinstance(boxes, list) else None
    internal = []
    for i, fname in enumerate(spec.get("internal") or ()):
        if fname not in declared:
            c.problem(_("the group has no field {fname!r}{hint}").format(
                          fname=fname, hint=c.suggest(fname, declared)), path + ("internal", i))
        elif fname in rules:
            c.problem(_("{fname!r} is a field a sheet gives: it cannot be internal too").format(fname=fname),
                      path + ("internal", i))
        else:
            internal.append(fname)
    layout = _layout(c, name, spec, path, declared, tracks, internal)
    made = SheetTemplate(name, rules, tuple(types), types, sizes=sizes, internal=tuple(internal), layout=layout)
    sheets, seen = [], {}
    for i, source in enumerate(spec.get("files") or ()):
        at = position_of(spec["files"], (i,)) or position_of(c.data, path)
        try:
            data, shown, real = read_listed(c, source, at)
        except RulesetError as err:
            for p in err.problems:
                c.problems.append(Problem((_("sheet: {message}").format(message=p.message)
                                           if p.position is None else
                                           p.message),
                                          p.position or at, path + ("files", i) if p.position is None else ()))
            continue
        sheet, problems = check(data, shown, {name: made}, real)
        c.problems.extend(problems)
        if sheet is not None:
            if name_key(sheet.name) in seen:
                c.problem(_("two sheets are named {name!r}: {seen} and {shown}").format(
                              name=sheet.name, seen=seen[name_key(sheet.name)], shown=shown),
                          path + ("files", i))
            seen[name_key(sheet.name)] = shown
            sheets.append(sheet)
    made.sheets = tuple(sheets)
    return made


def read_listed(c, source: str, at: Position | None) -> tuple[LDict, str, str]:
    """A sheet file of `files:`, read from the folder of the file that lists it, by include:'s rule."""
    listed_in = at.file if at is not None else c.file
    folder = Path(c.real.get(listed_in, listed_in)).parent
    path = folder / source
    may_include(source, path, folder)
    shown = str(Path(listed_in).parent / source) if listed_in else source
    return load_yaml_file(path, shown), shown, os.path.realpath(path)


# ---- a sheet file ---------------------------------------------------------------------------

def read(path, templates: dict, display: str | None = None) -> Sheet:
    """A sheet file checked against the templates (group -> SheetTemplate); RulesetError with every problem."""
    shown = display or str(path)
    data = load_yaml_file(path, shown)
    sheet, problems = check(data, shown, templates)
    if problems:
        raise RulesetError(problems)
    return sheet


def files_in(paths) -> list[Path]:
    """The sheet files named: each file, and the .yaml/.yml files of each folder (not below it), in order."""
    out = []
    for p in paths:
        p = Path(p)
        if p.is_dir():
            out += sorted(q for q in p.iterdir() if q.suffix in (".yaml", ".yml") and q.is_file())
        else:
            out.append(p)
    return out


def read_all(paths, ruleset) -> list[Sheet]:
    """Every sheet of these files and folders, checked against the ruleset's templates: every problem
    of every file at once; a name two of them share is refused. A sheet named like one of the
    ruleset's own takes its place (an exported sheet continues the chronicle); a file that is one of
    the ruleset's own sheets is checked and left out (the game has it already)."""
    templates = {name: spec.sheet for name, spec in ruleset.entities.items() if spec.sheet is not None}
    if not templates:
        raise RulesetError([Problem(_("{id} reads no sheets: none of its groups has a sheet: template").format(
                                        id=ruleset.id))])
    files = files_in(paths)
    if len(files) > MAX_SHEETS:
        raise RulesetError([Problem(_("{n:,} sheet files: at most {MAX_SHEETS} a game").format(
                                        n=len(files), MAX_SHEETS=MAX_SHEETS))])
    sheets, problems = [], Problems()
    seen: dict = {}
    own = {s.path for t in templates.values() for s in t.sheets}
    for path in files:
        try:
            data = load_yaml_file(path, str(path))
        except RulesetError as err:
            problems += err.problems
            continue
        sheet, found = check(data, str(path), templates, os.path.realpath(path))
        problems += found
        if sheet is None or sheet.path in own:
            continue
        if name_key(sheet.name) in seen:
            problems.append(Problem(_("{name!r} is the name of another sheet ({seen})").format(
                                        name=sheet.name, seen=seen[name_key(sheet.name)]),
                                    position_of(data, ("name",)), ("name",)))
            continue
        seen[name_key(sheet.name)] = str(path)
        sheets.append(sheet)
    if problems:
        raise RulesetError(problems)
    return sheets


def check(data, shown: str, templates: dict, real: str = "") -> tuple[Sheet | None, list[Problem]]:
    """(the sheet, []) or (None, every problem), each at its place in the file `shown`."""
    problems = Problems()

    def problem(message, path, at_key=False):
        where = (key_position_of(data, path) if at_key else position_of(data, path)) or Position(shown, 1, 1)
        problems.append(Problem(message, where, tuple(path)))

    if not isinstance(data, LDict):
        return None, [Problem(_("a sheet is a mapping of keys: name:, then its fields and tracks"),
                              Position(shown, 1, 1))]
    group = data.get("sheet")
    if group is None and len(templates) == 1:
        group = next(iter(templates))
    if group not in templates:
        known = ", ".join(templates)
        problem((_("sheet: names the group this sheet belongs to ({known}), not {group!r}").format(
                    known=known, group=group)
                 if "sheet" in data else
                 _("say which group this sheet belongs to: sheet: {next} (the groups: {known})").format(
                    next=next(iter(templates)), known=known)),
                ("sheet",) if "sheet" in data else ())
        return None, problems
    rule = templates[group]
    name = data.get("name")
    if not isinstance(name, str) or not name.strip() or len(name) > 80 or any(ord(ch) < 32 for ch in name):
        problem(_("name: the instance's name, a text of 1 to 80 characters on one line"),
                ("name",) if "name" in data else ())
    elif name_problem(name):
        problem(_("name: {name_problem}").format(name_problem=name_problem(name)), ("name",))
    fields: dict = {}
    marks: list = []

    def read_field(key, value, path):
        if key in fields:
            problem(_("{key} is given twice on this sheet").format(key=key), path, at_key=True)
            return
        why = rule.fields[key].problem(value)
        if why:
            problem(why, path)
        fields[key] = value

    def read_track(key, value, path):
        before = len(marks)
        read_marks(key, value, path)
        size, total = rule.sizes.get(key), sum(count for _, _, count in marks[before:])
        if size is not None and total > size:
            problem(_("{key} has {size} boxes: {total} cannot be marked").format(key=key, size=size, total=total), path)

    def read_marks(key, value, path):
        types = rule.types[key]
        if types and isinstance(value, dict):
            for kind, count in value.items():
                if kind not in types:
                    guess = get_close_matches(str(kind), types, n=1)
                    hint = _(" (did you mean {guess}?)").format(guess=guess[0]) if guess else ""
                    problem(_("the track {key} takes marks of {types}, not {kind!r}{hint}").format(
                                key=key, types=", ".join(types), kind=kind, hint=hint), path + (kind,), at_key=True)
                elif type(count) is not int or not 0 <= count <= 1000:
                    problem(_("{key}.{kind} must be 0..1000 (boxes marked)").format(key=key, kind=kind), path + (kind,))
                else:
                    marks.append((key, kind, count))
        elif not types and type(value) is int and 0 <= value <= 1000:
            marks.append((key, None, value))
        else:
            problem(_("{key} takes the boxes marked: {form}").format(
                key=key, form="{" + f"{types[0]}: 1" + "}" if types else _("a number")), path)

    for key, value in data.items():
        path = (key,)
        if key in RESERVED:
            continue
        if key in rule.fields:
            read_field(key, value, path)
        elif key in rule.types:
            read_track(key, value, path)
        elif isinstance(value, LDict):         # a section: attributes:, abilities:, ...
            for sub, item in value.items():
                if sub in rule.fields:
                    read_field(sub, item, path + (sub,))
                elif sub in rule.types:
                    read_track(sub, item, path + (sub,))
                else:
                    _unknown(problem, sub, rule, path + (sub,))
        else:
            _unknown(problem, key, rule, path)
    if problems:
        return None, problems
    order = list(rule.fields)
    return Sheet(group, name.strip(), tuple(sorted(fields.items(), key=lambda kv: order.index(kv[0]))),
                 tuple(marks), shown, real), []


def _unknown(problem, key, rule: SheetTemplate, path) -> None:
    names = list(rule.fields) + list(rule.types)
    guess = get_close_matches(str(key), names, n=1)
    hint = _(" (did you mean {guess}?)").format(guess=guess[0]) if guess else ""
    problem(_("{key!r} is not a field a sheet of {group} may give{hint}").format(
                key=key, group=rule.group, hint=hint), path, at_key=True)
