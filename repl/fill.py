"""`fill NAME`: a sheet filled in at the table, a column of its template's layout at a time.

Each question names the column's fields with the values they hold (`Mara, Traits, Body: grit
brawn [1 1] >`). The answer is the values in order (`3 2`), or fields by name with their values
(`brawn 3`, any field of the sheet; Tab completes the names), `keep` (or Enter) to keep them,
`skip` to keep the rest of the section, `done` to keep all the rest. A value out of the template's
bounds is refused with the reason and the question is asked again. Nothing changes until the last
column is answered: then every change is made at once, as one command (`fill Mara`), which is
saved and which `undo` takes back whole.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field

import ruleset_engine as dusk
from ruleset_engine import GameError, InputError, as_text, format_value
from ruleset_engine.i18n import _

KEEP, SKIP, DONE = "keep", "skip", "done"
WORDS = (KEEP, SKIP, DONE)


@dataclass(eq=False, repr=False)
class Fill:
    """A sheet being filled in at the table, field by field."""

    name: str                        # the instance, as its sheet names it
    command: str                     # as typed: what undo names
    steps: list                      # (section index, section title, column title, fields)
    at: int = 0
    changes: dict = field(default_factory=dict)     # field -> value, checked
    allowed: tuple = ()                              # every field the fill may set, by name

    @property
    def fields(self) -> tuple:
        return self.steps[self.at][3]


def begin(game, name: str, command: str) -> Fill:
    """The questions of a fill, from the instance's sheet template (its layout's columns, else one
    question per field); GameError when the name has no sheet."""

    group, instance = dusk.find_instance(game, name)
    template = game.ruleset.entities[group].sheet
    allowed = set(dusk.editable_fields(game, group))
    steps = []
    for i, (title, columns) in enumerate(template.layout):
        for column_title, names in columns:
            names = tuple(n for n in names if n in allowed)
            if names:
                steps.append((i, title, column_title, names))
    placed = {n for *_, names in steps for n in names}
    rest = tuple(n for n in dusk.editable_fields(game, group) if n not in placed)
    if rest:
        steps += [(len(template.layout) + k, None, None, (n,)) for k, n in enumerate(rest)]
    return Fill(instance["name"], command, steps, allowed=tuple(dusk.editable_fields(game, group)))


def question(fill: Fill, game, lang: str) -> str:
    """The prompt of the column under way."""
    _group, instance = dusk.find_instance(game, fill.name)
    _kind, title, column, names = fill.steps[fill.at]
    where = ", ".join(as_text(t, lang) for t in (title, column) if t is not None)
    now = " ".join(_shown(fill.changes.get(n, instance.get(n)), lang) for n in names)
    return _("{name}{where}: {fields} [{now}; {keep}, {skip} or {done}] > ").format(
        name=fill.name, where=", " + where if where else "", fields=" ".join(names), now=now, keep=KEEP, skip=SKIP,
        done=DONE)


def answer(fill: Fill, game, line: str) -> bool:
    """Take one answer; True when the fill is complete. InputError/GameError (the question stays)
    when the answer cannot be read or a value is out of bounds."""
    try:
        words = shlex.split(line)
    except ValueError as err:
        raise InputError(_("cannot read it: {error}").format(error=err)) from None
    word = words[0].lower() if words else KEEP
    if len(words) <= 1 and word in WORDS:
        if word == DONE:
            fill.at = len(fill.steps)
        elif word == SKIP:
            section = fill.steps[fill.at][0]
            while fill.at < len(fill.steps) and fill.steps[fill.at][0] == section:
                fill.at += 1
        else:
            fill.at += 1
        return fill.at >= len(fill.steps)
    names = fill.fields
    given: dict = {}
    if words[0] in fill.allowed:                    # by name, any field of the sheet: `brawn 3 aim 2`
        if len(words) % 2:
            raise InputError(_("{field} needs a value").format(field=words[-1]))
        for key, value in zip(words[::2], words[1::2]):
            if key not in fill.allowed:
                raise InputError(_("{field} is not a field of the sheet that can be set").format(field=repr(key)))
            given[key] = value
    else:                                           # in order: `3 2 2`
        if len(words) > len(names):
            raise InputError(_("{values} values for {count} fields ({fields})").format(
                values=len(words), count=len(names), fields=" ".join(names)))
        given = dict(zip(names, words))
    checked = {key: dusk.checked_edit(game, fill.name, key, value)["value"] for key, value in given.items()}
    fill.changes.update(checked)
    fill.at += 1
    return fill.at >= len(fill.steps)


def candidates(fill: Fill, game) -> list[str]:
    """Tab at a fill's question: the column's field names, the words, then every other field."""
    return list(fill.fields) + list(WORDS) + [n for n in fill.allowed if n not in fill.fields]


def _shown(value, lang: str) -> str:
    text = format_value(value, lang)
    return text if text and " " not in text else repr(text) if text else "''"


__all__ = ["Fill", "begin", "question", "answer", "candidates", "GameError"]
