"""Showing a roll to a person: every die, its fate marked by a symbol and (where there is colour) a style.

One function lays the trace out as (text, style) segments; plain text joins
them, rich turns them into a Text. Colour is never the only signal: every fate
but "kept" has a symbol, and a legend names the symbols used.
"""

from __future__ import annotations

from ruleset_engine import i18n
from ruleset_engine.i18n import N_

from .modifiers import MODIFIERS

# fate: (unicode symbol, ascii symbol, rich style, word for the legend)
FATES = {
    "kept": ("", "", "bold", N_("kept")),
    "dropped": ("✗", "x", "dim strike", N_("dropped")),
    "aside": ("↓", "v", "yellow", N_("set aside")),
    "cancelled": ("⊘", "/", "red strike", N_("cancelled")),
    "counted": ("✓", "*", "bold green", N_("counted")),
}
EXPLODED = ("!", "!", "bold magenta", N_("exploded"))
REROLLED = ("→", "->", "dim", N_("re-rolled"))
# A die a modifier gave a face (its entry's sets_face): the legend names those modifiers (min/max).
CHANGED = ("⇒", "=>", "dim", N_("set by {modifiers}"))
SETS_FACE = "/".join(m.token for m in MODIFIERS.values() if m.sets_face)

Segment = tuple[str, str]

# The colours of kinds of dice: a kind keeps its colour from roll to roll (chosen by its name), and
# its letter after the face says the same for those who cannot see colour.
KIND_COLOURS = ("red", "blue", "yellow", "magenta", "cyan", "green")


def kind_letters(kinds) -> dict[str, str]:
    """Each kind's letters: the shortest start of its name that no other kind shown starts with."""
    names = sorted(set(kinds))
    out = {}
    for name in names:
        for n in range(1, len(name) + 1):
            if not any(other != name and other.startswith(name[:n]) for other in names):
                break
        out[name] = name[:n]
    return out


def kind_colour(kind: str) -> str:
    return KIND_COLOURS[sum(map(ord, kind)) % len(KIND_COLOURS)]


def _die(die: dict, ascii_only: bool, used: set[str], letters: dict | None = None) -> list[Segment]:
    out: list[Segment] = []
    if die.get("rerolled_from"):
        arrow = REROLLED[1] if ascii_only else REROLLED[0]
        out.append(("".join(f"{h}{arrow}" for h in die["rerolled_from"]), REROLLED[2]))
        used.add("rerolled")
    if die.get("changed_from") is not None:
        out.append((f"{die['changed_from']}{CHANGED[1] if ascii_only else CHANGED[0]}", CHANGED[2]))
        used.add("changed")
    fate = die.get("fate", "kept")
    symbol, ascii_symbol, style, _ = FATES.get(fate, FATES["kept"])
    text = str(die["face"])
    if die.get("exploded"):
        text += EXPLODED[0]
        used.add("exploded")
    mark = ascii_symbol if ascii_only else symbol
    if mark:
        used.add(fate)
    kind = die.get("kind")
    if kind is not None and letters:
        text += letters[kind]
        style = f"{style} {kind_colour(kind)}".strip()
    out.append((text + mark, style))
    return out


def _step_dice(step: dict, ascii_only: bool, used: set[str], letters: dict | None = None) -> list[Segment]:
    out: list[Segment] = []
    for i, die in enumerate(step["dice"]):
        if i:
            out.append((" ", ""))
        out.extend(_die(die, ascii_only, used, letters))
    if not step["dice"] and not step.get("note"):
        out.append((i18n._("no dice"), "dim"))
    return out


def _value(value) -> str:
    if value is True:
        return i18n._("true")
    if value is False:
        return i18n._("false")
    return str(value)


def segments(roll: dict, ascii_only: bool = False, label: str | None = None) -> list[Segment]:
    """A roll in its JSON form (Result.to_json(), or a roll event of the log): the expression,
    one line per step, the value, and a legend of the symbols used. Another tool's notation is
    shown with what dusk read it as: `10d10cs>=6 → count(10d10, >= 6)`, on the first line when it is
    the whole expression."""
    used: set[str] = set()
    out: list[Segment] = []
    steps = roll.get("steps", [])
    expression = roll["expression"]
    arrow = "->" if ascii_only else "→"
    heading = expression
    if steps and steps[0].get("means") and steps[0]["label"] == expression:
        heading = f"{expression} {arrow} {steps[0]['means']}"
        steps = steps[1:]
    single = len(steps) == 1 and steps[0]["label"] in (expression, heading.rsplit(f" {arrow} ", 1)[-1])
    letters = kind_letters(d["kind"] for s in steps for d in s["dice"] if d.get("kind") is not None)
    if label:
        out.append((label + "  ", "bold cyan"))
    if single:
        out.append((heading + "  ", "cyan"))
        out.extend(_step_dice(steps[0], ascii_only, used, letters))
    else:
        out.append((heading, "cyan"))
        width = max((len(s["label"]) for s in steps), default=0)
        for step in steps:
            out.append(("\n  " + step["label"].ljust(width) + "  ", "cyan"))
            if step.get("means"):
                out.append((f"{arrow} {step['means']}", "cyan"))
                continue
            out.extend(_step_dice(step, ascii_only, used, letters))
            if step.get("note"):
                out.append((("  " if step["dice"] else "") + step["note"], "dim"))
            value = step.get("value")
            if value is not None and step["label"] != expression and not isinstance(value, list):
                out.append((f"  {arrow} {_value(value)}", "dim"))
        out.append(("\n", ""))
    out.append(((" = " if single else "= ") + _value(roll["value"]), "bold"))
    pool = roll.get("pool")
    if pool is not None:
        plain = single and all(d.get("fate", "kept") == "kept" for d in steps[0]["dice"]) and \
            len(steps[0]["dice"]) == len(pool)
        if not plain:
            faces = " ".join(str(f) for f in pool) or i18n._("none")
            out.append(("  " + i18n._("(dice left: {faces})").format(faces=faces), ""))
    if used or letters:
        legend = [f"{letter} {kind}" for kind, letter in letters.items()]
        for key in ("counted", "dropped", "aside", "cancelled", "exploded", "rerolled", "changed"):
            if key in used:
                sym = {"exploded": EXPLODED, "rerolled": REROLLED, "changed": CHANGED}.get(key) or FATES[key]
                symbol, ascii_symbol, _, word = sym
                legend.append(f"{ascii_symbol if ascii_only else symbol} {i18n._(word).format(modifiers=SETS_FACE)}")
        out.append(("\n  (" + i18n._(", ").join(legend) + ")", "dim"))
    return out


def render_text(result, ascii_only: bool = False) -> str:
    """A Result (or its JSON form) as plain text."""
    data = result if isinstance(result, dict) else result.to_json()
    return "".join(text for text, _ in segments(data, ascii_only))


def render_rich(result, ascii_only: bool = False, label: str | None = None):
    """A Result (or its JSON form) as a rich Text: the same characters, with styles."""
    from rich.text import Text

    data = result if isinstance(result, dict) else result.to_json()
    text = Text()
    for part, style in segments(data, ascii_only, label):
        text.append(part, style=style or None)
    return text
