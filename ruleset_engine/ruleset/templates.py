"""Text shown to people: plain or per language ({en: .., zh: .., pt-BR: ..}), with {formula} placeholders.

`{{` and `}}` write literal braces. Each placeholder is compiled once, at load time,
with the dice language; rendering evaluates them and formats the values
(a pool as its faces, true/false as words).

A text in several languages is shown in the language asked for, else in its base language
(`pt` for `pt-BR`), else in English, else in the first language the text has (FALLBACK below).
"""

from __future__ import annotations

from ruleset_engine.i18n import _

import re
from dataclasses import dataclass

from ruleset_engine import i18n
from ruleset_engine.dice import DiceError, Pool
from ruleset_engine.dice.ast import SameFields


class _NoDice:
    """The dice source of text placeholders: a text shows values, it never rolls."""

    def randint(self, a, b):
        raise DiceError(_("text placeholders cannot roll dice: roll first with a roll: step, then show "
                          "the name"))


NO_DICE = _NoDice()


LANGUAGE = re.compile(r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$")   # a language code: en, zh, es, pt-BR


def choose(texts: dict, lang: str | None) -> str:
    """The text of a language map to show for `lang`: FALLBACK order."""
    if lang:
        if texts.get(lang):
            return texts[lang]
        base = lang.split("-")[0]
        if texts.get(base):
            return texts[base]
    if texts.get("en"):
        return texts["en"]
    return next((t for t in texts.values() if t), "")


FALLBACK = "the language asked for, its base language (pt for pt-BR), English, then the text's first language"


def is_language_map(value) -> bool:
    return isinstance(value, dict) and bool(value) and all(isinstance(k, str) and LANGUAGE.match(k)
                                                           for k in value)


class LocalText(str):
    """A string (its text in the default language) that also carries its other languages."""

    __slots__ = ("texts",)

    def __new__(cls, texts: dict[str, str]):
        obj = super().__new__(cls, choose(texts, None))
        obj.texts = dict(texts)
        return obj

    def get(self, lang: str) -> str:
        return choose(self.texts, lang)


def as_text(value, lang: str = "en") -> str:
    if isinstance(value, LocalText):
        return value.get(lang)
    if is_language_map(value):
        return choose(value, lang)
    return "" if value is None else str(value)


def split_template(text: str) -> list[tuple[bool, str, int]]:
    """[(is_formula, text, offset)]; raises ValueError(message, offset) on an unclosed brace."""
    parts: list[tuple[bool, str, int]] = []
    i, literal, start = 0, [], 0
    while i < len(text):
        # The literal up to the next brace is taken at once (a ruleset's texts are checked at every start).
        opening, closing = text.find("{", i), text.find("}", i)
        brace = opening if closing == -1 or -1 < opening < closing else closing
        if brace == -1:
            brace = len(text)
        if brace > i:
            literal.append(text[i:brace])
            i = brace
            continue
        char = text[i]
        if char == "{":
            if text.startswith("{{", i):
                literal.append("{")
                i += 2
                continue
            end = text.find("}", i + 1)
            if end == -1:
                raise ValueError(_("this '{' is never closed (write {{ for a literal brace)"), i)
            if literal:
                parts.append((False, "".join(literal), start))
                literal = []
            parts.append((True, text[i + 1:end], i + 1))
            i = end + 1
            start = i
            continue
        if text.startswith("}}", i):
            literal.append("}")
            i += 2
            continue
        raise ValueError(_("this '}' closes nothing (write }} for a literal brace)"), i)
    if literal:
        parts.append((False, "".join(literal), start))
    return parts


def format_value(value, lang: str = "en") -> str:
    # dusk's own words (true, false, none) in the table's language (ruleset_engine.i18n)
    if value is True:
        return i18n._("true")
    if value is False:
        return i18n._("false")
    if isinstance(value, Pool):
        return " ".join(str(f) for f in value.faces) or i18n._("none")
    if isinstance(value, (list, tuple)) and all(type(v) is int for v in value):
        return " ".join(str(v) for v in value) or i18n._("none")
    if isinstance(value, dict) and "labels" in value and "marked" in value:  # a track
        if value.get("marks"):   # one that remembers what marked it: the count of each type too
            from .marks import shown_marks

            return f"{value['marked']}/{value['size']} ({shown_marks(value)})"
        return f"{value['marked']}/{value['size']}"
    return as_text(value, lang)


@dataclass(slots=True, repr=False, eq=False)
class Template(SameFields):
    """A compiled text: per language, a list of literal strings and compiled formulas."""

    parts: dict[str, list]   # lang -> [str | Expression]
    plain: bool = False      # written as a plain string: its placeholders' texts keep their languages

    @property
    def is_constant(self) -> bool:
        """No placeholders: the same text whatever the game holds."""
        return all(isinstance(part, str) for parts in self.parts.values() for part in parts)

    def constant(self):
        """A constant text: a string when written with one language and not as a plain string (whose
        placeholders would have kept their languages), else a mapping of languages to strings."""
        texts = {lang: "".join(parts) for lang, parts in self.parts.items()}
        return next(iter(texts.values())) if len(texts) == 1 and not self.plain else texts

    def render(self, env, rng=NO_DICE, lang: str | None = None):
        """The text in one language, or a LocalText carrying every language when lang is None."""
        if lang is not None:
            chosen = lang if lang in self.parts else choose({k: k for k in self.parts}, lang)
            return self._render_one(self.parts[chosen], env, rng, chosen)
        if len(self.parts) == 1:
            only = next(iter(self.parts))
            return self._render_one(self.parts[only], env, rng, only)
        return LocalText({code: self._render_one(parts, env, rng, code) for code, parts in self.parts.items()})

    @staticmethod
    def _render_one(parts, env, rng, lang) -> str:
        out = []
        for part in parts:
            if isinstance(part, str):
                out.append(part)
            else:
                out.append(format_value(part.evaluate(rng=rng, env=env).raw, lang))
        return "".join(out)
