"""How an action's arguments are typed at the table: one reading of the ruleset's declaration of
its parameters, which the parser (commands.parse_action_args), `help ACTION` and Tab completion
all take, so that help never shows a form the parser refuses.

A parameter with a `word:` is typed as its word, then its value (`against 6`, `from rear`); a yes/no
one's word alone says yes (`blind`); a formula's word takes every word up to the next word. A
parameter without a word is typed in its place, in the order the parameters are declared (`hit Mara
Oren club`), a formula among them taking the leading words (`test grit + aim`).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(eq=False, repr=False)
class Typed:
    """One parameter as the table types it."""

    name: str                   # the parameter's name (what the steps read)
    word: str | None            # the word that introduces it, or None: typed in its place
    kind: str                   # the parameter's type: integer, boolean, choice, text, entity, formula, dice
    choices: tuple = ()
    required: bool = False      # no default: it must be typed

    @property
    def value(self) -> str:
        """What the value is written as in a usage line: its choices, N, a name, a formula."""
        if self.choices:
            return "|".join(self.choices)
        return {"integer": "N", "entity": "NAME", "formula": "TRAITS", "dice": "DICE"}.get(self.kind, "TEXT")

    @property
    def form(self) -> str:
        """As typed: `from front|flank|rear`, `blind`, `WHO`, `KIND`."""
        if self.word is None:
            return self.name.upper()
        if self.kind == "boolean":
            return self.word
        return f"{self.word} {self.value}"


def typed(action) -> list[Typed]:
    """Every parameter of the action as the table types it: those in their place first, in order,
    then those with a word, in order."""
    out = [Typed(name, p.word, p.type, tuple(p.choices), p.default is None) for name, p in action.params.items()]
    return [t for t in out if t.word is None] + [t for t in out if t.word is not None]


def words(action) -> dict[str, str]:
    """word -> the parameter it introduces."""
    return {t.word: t.name for t in typed(action) if t.word is not None}


def positional(action) -> list[Typed]:
    """The parameters typed in their place, in order."""
    return [t for t in typed(action) if t.word is None]


def usage(name: str, action) -> str:
    """The action's line as typed: `attack WHO TARGET [KIND] [diff N] ... [blind]`."""
    parts = [t.form if t.required else f"[{t.form}]" for t in typed(action)]
    return " ".join([name, *parts])
