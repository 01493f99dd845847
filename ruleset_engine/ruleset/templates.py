"""Text shown to people: plain or per language ({en: .., zh: ..}), with {formula} placeholders.

`{{` and `}}` write literal braces. Each placeholder is compiled once, at load time,
with the dice language; rendering evaluates them and formats the values
(a pool as its faces, true/false as words).
"""

from __future__ import annotations

from dataclasses import dataclass

from ruleset_engine.dice import DiceError, Pool


class _NoDice:
    """The dice source of text placeholders: a text shows values, it never rolls."""

    def randint(self, a, b):
        raise DiceError("text placeholders cannot roll dice: roll first with a roll: step, then show the name")


NO_DICE = _NoDice()


class LocalText(str):
    """A string (its English text) that also carries its other languages."""

    __slots__ = ("texts",)

    def __new__(cls, texts: dict[str, str]):
        obj = super().__new__(cls, texts.get("en", next(iter(texts.values()), "")))
        obj.texts = dict(texts)
        return obj

    def get(self, lang: str) -> str:
        return self.texts.get(lang) or self.texts.get("en", "")


def as_text(value, lang: str = "en") -> str:
    if isinstance(value, LocalText):
        return value.get(lang)
    if isinstance(value, dict) and "en" in value:
        return value.get(lang) or value["en"]
    return "" if value is None else str(value)


def split_template(text: str) -> list[tuple[bool, str, int]]:
    """[(is_formula, text, offset)]; raises ValueError(message, offset) on an unclosed brace."""
    parts: list[tuple[bool, str, int]] = []
    i, literal, start = 0, [], 0
    while i < len(text):
        char = text[i]
        if char == "{":
            if text.startswith("{{", i):
                literal.append("{")
                i += 2
                continue
            end = text.find("}", i + 1)
            if end == -1:
                raise ValueError("this '{' is never closed (write {{ for a literal brace)", i)
            if literal:
                parts.append((False, "".join(literal), start))
                literal = []
            parts.append((True, text[i + 1:end], i + 1))
            i = end + 1
            start = i
            continue
        if char == "}":
            if text.startswith("}}", i):
                literal.append("}")
                i += 2
                continue
            raise ValueError("this '}' closes nothing (write }} for a literal brace)", i)
        literal.append(char)
        i += 1
    if literal:
        parts.append((False, "".join(literal), start))
    return parts


def format_value(value, lang: str = "en") -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, Pool):
        return " ".join(str(f) for f in value.faces) or "none"
    if isinstance(value, (list, tuple)) and all(type(v) is int for v in value):
        return " ".join(str(v) for v in value) or "none"
    if isinstance(value, dict) and "labels" in value and "marked" in value:  # a track
        return f"{value['marked']}/{value['size']}"
    return as_text(value, lang)


@dataclass(slots=True)
class Template:
    """A compiled text: per language, a list of literal strings and compiled formulas."""

    parts: dict[str, list]   # lang -> [str | Expression]

    def render(self, env, rng=NO_DICE, lang: str | None = None):
        """The text in one language, or a LocalText carrying every language when lang is None."""
        if lang is not None:
            return self._render_one(self.parts.get(lang) or self.parts["en"], env, rng, lang)
        if len(self.parts) == 1:
            return self._render_one(self.parts["en"], env, rng, "en")
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
