"""Decisions: what a step asks a person, the valid answers, and checking an answer against them."""

from __future__ import annotations

import unicodedata
from collections import Counter
from dataclasses import dataclass, field

from ruleset_engine.i18n import _, ngettext
from ruleset_engine.dice.runtime import MAX_NUMBER

from .errors import DecisionError


@dataclass(slots=True)
class Decision:
    """One question. `kind` is number, choice, yes_no, pick (choose dice from `pool`), text (words, of
    `min` to `max` characters), instance or instances (names of a group's instances, among `choices`:
    one, or `min` to `max` of them) or dice (the faces of `min` real dice of `sides` sides, which a person
    rolled: see manual.py)."""

    id: str                       # the asking step's place in the ruleset (stable across replays)
    var: str
    kind: str
    prompt: str = ""
    who: str | None = None
    min: int | None = None
    max: int | None = None
    choices: tuple[str, ...] = ()
    pool: tuple[int, ...] = ()
    default: object = None
    texts: dict = field(default_factory=dict)   # prompt in other languages
    sides: int | None = None                    # dice: the sides of each die
    kinds: tuple | None = None                  # pick: the kind of each die of the pool (None: all plain)

    def describe_valid(self) -> str:
        if self.kind == "number":
            if self.min is not None and self.max is not None:
                return _("a whole number from {min} to {max}").format(min=self.min, max=self.max)
            if self.min is not None:
                return _("a whole number of at least {min}").format(min=self.min)
            if self.max is not None:
                return _("a whole number of at most {max}").format(max=self.max)
            return _("a whole number")
        if self.kind == "choice":
            return _("one of: {choices}").format(choices=", ".join(self.choices))
        if self.kind == "yes_no":
            return _("yes or no")
        if self.kind == "instance":
            return _("one of: {choices}").format(choices=", ".join(self.choices))
        if self.kind == "instances":
            count = f"{self.min}" if self.min == self.max else _("{min} to {max}").format(min=self.min, max=self.max)
            how = _("names separated by commas") + (_(", or none") if self.min == 0 else "")
            return _("{count} of: {choices} ({how})").format(count=count, choices=', '.join(self.choices) or _('none'),
                                                             how=how)
        if self.kind == "text":
            return _("a text of {min} to {max} characters, on one line").format(min=self.min, max=self.max)
        if self.kind == "dice":
            return (ngettext("{n} face from 1 to {sides}", "{n} faces from 1 to {sides}", self.min).format(
                n=self.min, sides=self.sides) + (_(", separated by spaces or commas") if self.min != 1 else ""))
        lo, hi = self.pick_range()
        faces = " ".join(map(str, self.pool)) or _("none")
        how = _("faces separated by spaces or commas") + (_(", or none") if lo == 0 else "")
        count = f"{lo}" if lo == hi else _("{min} to {max}").format(min=lo, max=hi)
        return _("{count} of these dice: {faces} ({how})").format(count=count, faces=faces, how=how)

    def pick_range(self) -> tuple[int, int]:
        """A pick: the fewest and the most dice the answer may hold."""
        lo = self.min if self.min is not None else 0
        hi = self.max if self.max is not None else len(self.pool)
        return lo, hi

    def check(self, answer):
        """The answer in its normal form, or DecisionError naming the valid answers."""
        checker = _CHECKS[self.kind]
        value = checker(self, answer)
        if value is _INVALID:
            raise DecisionError(_("{answer} is not a valid answer: expected {expected}").format(
                answer=_show(answer), expected=self.describe_valid()), self)
        return value

    def to_json(self) -> dict:
        data = {"id": self.id, "kind": self.kind, "prompt": self.prompt, "valid": self.describe_valid()}
        for key in ("who", "min", "max", "default"):
            value = getattr(self, key)
            if value is not None:
                data[key] = value
        if self.choices:
            data["choices"] = list(self.choices)
        if self.kind == "pick":
            data["pool"] = list(self.pool)
        if self.kind == "dice":
            data["sides"] = self.sides
        if self.texts:
            data["texts"] = dict(self.texts)     # the prompt in the ruleset's other languages (shown in the table's)
        return data


_INVALID = object()


def _show(answer) -> str:
    """The answer as a refusal quotes it: what cannot print shown as `?`, a long one cut (a typed
    text may be anything, of any length)."""
    text = str(answer).strip()
    if len(text) > 60:
        text = f"{text[:40]}... ({len(text):,} characters)"
    return "".join(ch if ch.isprintable() else "?" for ch in text) or _("an empty answer")


def _number(decision: Decision, answer):
    if isinstance(answer, bool):
        return _INVALID
    if isinstance(answer, str):
        try:
            answer = int(answer.strip())
        except ValueError:
            return _INVALID
    if not isinstance(answer, int) or not -MAX_NUMBER <= answer <= MAX_NUMBER:   # kept: within the limit of numbers
        return _INVALID
    if decision.min is not None and answer < decision.min:
        return _INVALID
    if decision.max is not None and answer > decision.max:
        return _INVALID
    return answer


def _choice(decision: Decision, answer):
    if not isinstance(answer, str):
        return _INVALID
    wanted = answer.strip().casefold()
    exact = [c for c in decision.choices if c.casefold() == wanted]
    if exact:
        return exact[0]
    prefixed = [c for c in decision.choices if c.casefold().startswith(wanted)] if wanted else []
    return prefixed[0] if len(prefixed) == 1 else _INVALID


def _instances(decision: Decision, answer):
    """Several names among the choices: a text of names separated by commas (none: an empty answer or
    a word of NO_DICE), or a list of names; each named once, as a choice is (its start, when only one
    name starts so); their number within min..max."""
    if isinstance(answer, str):
        text = answer.strip()
        words = [] if not text or text.casefold() in NO_DICE else [w for w in text.split(",")]
    elif isinstance(answer, (list, tuple)) and all(isinstance(w, str) for w in answer):
        words = list(answer)
    else:
        return _INVALID
    names = []
    for word in words:
        name = _choice(decision, word)
        if name is _INVALID or name in names:
            return _INVALID
        names.append(name)
    return names if decision.min <= len(names) <= decision.max else _INVALID


_YES = {"yes", "y", "true", "1"}
_NO = {"no", "n", "false", "0"}


def _yes_no(decision: Decision, answer):
    if isinstance(answer, bool):
        return answer
    if isinstance(answer, str):
        word = answer.strip().casefold()
        # The table's language's own yes and no too (是, sí): the answer is kept as true or false.
        if word in _YES or word == _("yes").casefold():
            return True
        if word in _NO or word == _("no").casefold():
            return False
    return _INVALID


# Ways to write "no dice" as a pick's answer, besides an empty answer.
NO_DICE = ("none", "-", "[]")


def _face_list(answer, none_words=()):
    """Faces written as text ("6 2 6", "6,2,6", "[6, 2, 6]"; a word of none_words for none), or
    given as a list: a list of ints, or _INVALID. Plain digits only, a few of them each (bounded)."""
    if isinstance(answer, str):
        text = answer.strip()
        if text.casefold() in none_words:
            text = ""
        if text.startswith("[") and text.endswith("]"):      # as the dice language writes a pool
            text = text[1:-1]
        words = text.replace(",", " ").split()
        if not all(w.isascii() and w.isdigit() and len(w) <= 6 for w in words):
            return _INVALID
        return [int(w) for w in words]
    if isinstance(answer, (list, tuple)) and all(type(x) is int for x in answer):
        return list(answer)
    return _INVALID


def _pick(decision: Decision, answer):
    faces = _face_list(answer, NO_DICE)
    if faces is _INVALID or Counter(faces) - Counter(decision.pool):
        return _INVALID
    lo, hi = decision.pick_range()
    return faces if lo <= len(faces) <= hi else _INVALID


def _faces(decision: Decision, answer):
    """Real dice: exactly `min` faces, each on the die."""
    faces = _face_list(answer)
    if faces is _INVALID or len(faces) != decision.min or not all(1 <= x <= decision.sides for x in faces):
        return _INVALID
    return faces


def _text(decision: Decision, answer):
    """Words, on one line: spaces at the ends dropped, no control characters (a new line, an escape
    sequence for the terminal), and a length within the question's bounds."""
    if not isinstance(answer, str):
        return _INVALID
    text = answer.strip()
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") for ch in text):
        return _INVALID
    return text if decision.min <= len(text) <= decision.max else _INVALID


_CHECKS = {"number": _number, "choice": _choice, "instance": _choice, "instances": _instances, "yes_no": _yes_no, "pick": _pick, "dice": _faces, "text": _text}
