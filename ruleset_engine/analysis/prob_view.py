"""The odds as a person reads them: plain text (a pipe, NO_COLOR) or rich (a terminal, the table).

The first line always says how the numbers were found: exact, exact with explosions followed so
deep, or estimated (and why, from how many seeded rolls).
"""

from __future__ import annotations

from fractions import Fraction

from ruleset_engine import i18n
from ruleset_engine.i18n import _
from ruleset_engine.analysis.prob import Answer, Chart, Odds
from ruleset_engine.dice.kinds import BOOL

BAR = 30          # characters of the longest bar


def percent(p) -> str:
    """A chance as a person reads it: 8.24%, 0.0012%, <0.0001%, 100% (8,24 %, ... in Spanish)."""
    p = float(p)
    if p <= 0:
        return _percent_text(0, None)
    if p >= 1:
        return _percent_text(100, None)
    v = p * 100
    if v < 0.0001:
        return "<" + _percent_text(0.0001, 4)
    if v < 0.01:
        return _percent_text(float(f"{v:.2g}"), None)
    if f"{v:.2f}" == "100.00":
        return ">" + _percent_text(99.99, 2)
    return _percent_text(v, 2)


def _percent_text(v: float, digits) -> str:
    """`v` percent as the language writes it, with `digits` places (None: as few as it needs)."""
    if i18n.language() == i18n.ENGLISH:
        return (f"{v:.{digits}f}" if digits is not None else f"{v:g}") + "%"
    if digits is None:
        return i18n.percent(v / 100, _places(v))
    return i18n.percent(v / 100, digits)


def _places(v: float) -> int:
    """The places after the point `v` is written with (0.0012 -> 4, 100 -> 0)."""
    text = f"{v:f}".rstrip("0")
    return len(text.split(".")[1]) if "." in text else 0


def method_line(answer: Answer) -> str:
    """How the numbers were found, in plain words (the first line of the output)."""
    if not answer.exact:
        # TRANSLATORS: {share} is 95%
        return _("Estimated, not exact ({why}): {samples} seeded rolls (seed {seed}); "
                 "each chance with its {share} interval.").format(why=answer.why, samples=i18n.number(answer.samples),
                                                                   seed=answer.seed, share=i18n.percent(0.95, 0))
    if answer.depth is None:
        return _("Exact odds.")
    return _("Exact odds, with explosions followed {depth} deep (a die that would explode again past "
             "that stands as rolled; the chance of that is {chance} per die).").format(depth=answer.depth,
                                                                                      chance=percent(answer.cut))


def _value(value) -> str:
    if type(value) is bool:
        return _("true") if value else _("false")
    return str(value)


TAIL = Fraction(1, 10 ** 5)   # a long table hides the values of its tails beyond this chance
LONG = 30                     # rows past which a table hides its tails


def shown(odds: Odds) -> tuple[list, str]:
    """The values a table shows, and a note for those it hides: a long table stops where the chance
    of a value that far out falls below one in 100,000 (--json has them all)."""
    chances = odds.chances
    if len(chances) <= LONG or odds.kind == BOOL:
        return chances, ""
    kept = [(v, p) for v, p in chances if odds.at_most(v) >= TAIL and odds.at_least(v) >= TAIL]
    hidden = len(chances) - len(kept)
    if not hidden:
        return chances, ""
    mass = 1 - sum(p for _, p in kept)
    return kept, _("{hidden} values in the tails, together {chance}, are not shown "
                   "(--json gives every value)").format(hidden=hidden, chance=percent(mass))


def _rows(odds: Odds, ascii_only: bool) -> tuple[list[str], list[list[str]], list[int]]:
    """The header, the cells and the bar lengths of one question's table."""
    estimated = odds.samples is not None
    # TRANSLATORS: {share} is 95%
    header = [_("value"), "P(=x)"] + ([_("{share} interval").format(share=i18n.percent(0.95, 0))] if estimated else [])
    if odds.kind != BOOL:
        header += ["P(>=x)", "P(<=x)"]
    top = max((p for _, p in odds.chances), default=Fraction(0))
    rows, bars = [], []
    for value, p in shown(odds)[0]:
        row = [_value(value), percent(p)]
        if estimated:
            low, high = odds.interval(p)
            row.append(f"{percent(low)} .. {percent(high)}")
        if odds.kind != BOOL:
            row += [percent(odds.at_least(value)), percent(odds.at_most(value))]
        rows.append(row)
        bars.append(round(BAR * p / top) if top else 0)
    return header, rows, bars


def _summary(odds: Odds) -> str:
    note = shown(odds)[1]
    if odds.kind == BOOL:
        return note
    line = _("estimated mean {mean}, standard deviation {sd}") if odds.samples is not None else \
        _("mean {mean}, standard deviation {sd}")
    line = line.format(mean=_significant(float(odds.mean)), sd=_significant(odds.sd))
    return f"{line}\n  {note}" if note else line


def _significant(value: float) -> str:
    """A mean or a deviation with four significant digits, as the language writes it (3.5, 3,5)."""
    text = f"{value:.4g}"
    if i18n.language() == i18n.ENGLISH or "e" in text:
        return text
    return i18n.number(float(text), _places(float(text)))


def _lets_line(answer: Answer) -> str:
    return _("with {lets}").format(lets=", ".join(f"{name} = {text}" for name, text in answer.lets)) if answer.lets else ""


def render_text(answer: Answer, ascii_only: bool = False) -> str:
    mark = "#" if ascii_only else "█"
    lines = [method_line(answer)]
    if answer.lets:
        lines.append(_lets_line(answer))
    for odds in answer.questions:
        header, rows, bars = _rows(odds, ascii_only)
        widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
        lines += ["", odds.expression]
        lines.append("  " + "  ".join(h.rjust(w) for h, w in zip(header, widths)))
        for row, bar in zip(rows, bars):
            lines.append("  " + "  ".join(c.rjust(w) for c, w in zip(row, widths)) + "  " + mark * bar)
        summary = _summary(odds)
        if summary:
            lines.append("  " + summary)
    return "\n".join(lines)


def render_rich(answer: Answer, ascii_only: bool = False):
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    mark = "#" if ascii_only else "█"
    parts = [Text(method_line(answer), style="bold" if answer.exact else "bold yellow")]
    if answer.lets:
        parts.append(Text(_lets_line(answer), style="dim"))
    for odds in answer.questions:
        header, rows, bars = _rows(odds, ascii_only)
        table = Table(title=odds.expression, title_justify="left", box=None, padding=(0, 1))
        for h in header:
            table.add_column(h, justify="right")
        table.add_column("")
        for row, bar in zip(rows, bars):
            table.add_row(*row, Text(mark * bar, style="magenta"))
        parts += [Text(""), table]
        summary = _summary(odds)
        if summary:
            parts.append(Text(summary))
    return Group(*parts)


# ---- charts ------------------------------------------------------------------------------------


def chart_title(chart: Chart) -> str:
    if chart.at_least is not None:
        what = f"P({chart.expression} >= {chart.at_least})"
    elif chart.at_most is not None:
        what = f"P({chart.expression} <= {chart.at_most})"
    elif chart.shows_chance:
        what = f"P({chart.expression})"
    else:
        what = _("the mean of {expression}").format(expression=chart.expression)
    by = _("{name} down").format(name=chart.rows[0]) + (_(", {name} across").format(name=chart.columns[0])
                                                         if chart.columns else "")
    return f"{what}, {by}"


def _chart_cells(chart: Chart) -> tuple[list[str], list[list[str]]]:
    header = [f"{chart.rows[0]}\\{chart.columns[0]}" if chart.columns else chart.rows[0]]
    header += [str(c) for c in chart.columns[1]] if chart.columns else [_("chance") if chart.shows_chance else _("mean")]
    rows = []
    for r, line in zip(chart.rows[1], chart.cells):
        cells = [percent(chart.reading(o)) if chart.shows_chance else _fixed(float(chart.reading(o))) for o in line]
        rows.append([str(r), *cells])
    return header, rows


def _fixed(value: float) -> str:
    return f"{value:.2f}" if i18n.language() == i18n.ENGLISH else i18n.number(value, 2)


def _chart_method(chart: Chart) -> str:
    line = method_line(chart.first())
    if not chart.exact and any(a.exact for row in chart.answers for a in row):
        line += _(" (Only the cells with no exact answer; the others are exact.)")
    return line


def render_chart_text(chart: Chart) -> str:
    header, rows = _chart_cells(chart)
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = [_chart_method(chart), chart_title(chart), ""]
    for row in [header, *rows]:
        lines.append("  ".join(c.rjust(w) for c, w in zip(row, widths)))
    return "\n".join(lines)


def render_chart_rich(chart: Chart):
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    header, rows = _chart_cells(chart)
    table = Table(title=chart_title(chart), title_justify="left")
    for i, h in enumerate(header):
        table.add_column(h, justify="right", style="bold" if i == 0 else None)
    for row in rows:
        table.add_row(*row)
    return Group(Text(_chart_method(chart), style="bold" if chart.exact else "bold yellow"), table)
