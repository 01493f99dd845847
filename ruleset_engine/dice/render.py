"""Showing a roll to a person: every die, its fate marked by a symbol and (where there is colour) a style.

One function lays the trace out as (text, style) segments; plain text joins
them, rich turns them into a Text. Colour is never the only signal: every fate
but "kept" has a symbol, and a legend names the symbols used.
"""

from __future__ import annotations

from .values import Die, Pool, Result, Step

# fate: (unicode symbol, ascii symbol, rich style, word for the legend)
FATES = {
    "kept": ("", "", "bold", "kept"),
    "dropped": ("✗", "x", "dim strike", "dropped"),
    "aside": ("↓", "v", "yellow", "set aside"),
    "cancelled": ("⊘", "/", "red strike", "cancelled"),
    "counted": ("✓", "*", "bold green", "counted"),
}
EXPLODED = ("!", "!", "bold magenta", "exploded")
REROLLED = ("→", "->", "dim", "re-rolled")

Segment = tuple[str, str]


def _die(die: Die, fate: str, ascii_only: bool, used: set[str]) -> list[Segment]:
    out: list[Segment] = []
    if die.history:
        arrow = REROLLED[1] if ascii_only else REROLLED[0]
        out.append(("".join(f"{h}{arrow}" for h in die.history), REROLLED[2]))
        used.add("rerolled")
    symbol, ascii_symbol, style, _ = FATES.get(fate, FATES["kept"])
    text = str(die.face)
    if die.exploded:
        text += EXPLODED[0]
        used.add("exploded")
    mark = ascii_symbol if ascii_only else symbol
    if mark:
        used.add(fate)
    out.append((text + mark, style))
    return out


def _step_dice(step: Step, ascii_only: bool, used: set[str]) -> list[Segment]:
    out: list[Segment] = []
    for i, die in enumerate(step.dice):
        if i:
            out.append((" ", ""))
        out.extend(_die(die, step.mark(i), ascii_only, used))
    if not step.dice and not step.note:
        out.append(("no dice", "dim"))
    return out


def _value(value) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    return str(value)


def segments(result: Result, ascii_only: bool = False) -> list[Segment]:
    """The whole trace: the expression, one line per step, the value, and a legend."""
    used: set[str] = set()
    out: list[Segment] = []
    steps = result.steps
    arrow = "->" if ascii_only else "→"
    if len(steps) == 1 and steps[0].label == result.expression:
        out.append((result.expression + "  ", "cyan"))
        out.extend(_step_dice(steps[0], ascii_only, used))
    else:
        out.append((result.expression, "cyan"))
        width = max((len(s.label) for s in steps), default=0)
        for step in steps:
            out.append(("\n  " + step.label.ljust(width) + "  ", "cyan"))
            out.extend(_step_dice(step, ascii_only, used))
            if step.note:
                out.append((("  " if step.dice else "") + step.note, "dim"))
            if step.value is not None and step.label != result.expression and not isinstance(step.value, Pool):
                out.append((f"  {arrow} {_value(step.value)}", "dim"))
        out.append(("\n", ""))
    single = len(steps) == 1 and steps[0].label == result.expression
    out.append(((" = " if single else "= ") + _value(result.value), "bold"))
    if result.pool is not None:
        plain = single and steps[0].marks is None and len(steps[0].dice) == len(result.pool.dice)
        if not plain:
            faces = " ".join(str(f) for f in result.pool.faces) or "none"
            out.append((f"  (dice left: {faces})", ""))
    if used:
        legend = []
        for key in ("counted", "dropped", "aside", "cancelled", "exploded", "rerolled"):
            if key in used:
                sym = {"exploded": EXPLODED, "rerolled": REROLLED}.get(key)
                if sym is None:
                    symbol, ascii_symbol, _, word = FATES[key]
                else:
                    symbol, ascii_symbol, _, word = sym
                legend.append(f"{ascii_symbol if ascii_only else symbol} {word}")
        out.append(("\n  (" + ", ".join(legend) + ")", "dim"))
    return out


def render_text(result: Result, ascii_only: bool = False) -> str:
    return "".join(text for text, _ in segments(result, ascii_only))


def render_rich(result: Result, ascii_only: bool = False):
    from rich.text import Text

    text = Text()
    for part, style in segments(result, ascii_only):
        text.append(part, style=style or None)
    return text
