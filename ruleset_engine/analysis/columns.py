"""Plain text tables for the analysis reports: rows of cells, each column padded to its widest cell."""

from __future__ import annotations

from ruleset_engine import i18n


def layout(rows: list[list[str]], right: set[int] = frozenset(), indent: str = "") -> list[str]:
    """Rows as lines; columns in `right` are right-aligned (numbers), the rest left-aligned."""
    widths = [max(cell_width(row[i]) for row in rows if i < len(row)) for i in range(max(map(len, rows)))]
    lines = []
    for row in rows:
        cells = [" " * (widths[i] - cell_width(cell)) + cell if i in right else cell + " " * (widths[i] - cell_width(cell))
                 for i, cell in enumerate(row)]
        lines.append((indent + "  ".join(cells)).rstrip())
    return lines


def cell_width(text: str) -> int:
    """Columns a cell takes on a terminal: a Chinese character takes two (rich's measure)."""
    if text.isascii():
        return len(text)
    from rich.cells import cell_len

    return cell_len(text)


def percent(rate: float) -> str:
    """A rate as the table's language writes a percentage: 12.50% (English), 12,50 % (Spanish)."""
    return i18n.percent(rate)


def number(value: float, digits: int = 2) -> str:
    """A mean or a length as the table's language writes it: 2.34 (English, ungrouped as it always
    was), 2,34 (Spanish)."""
    if i18n.language() == i18n.ENGLISH:
        return f"{value:.{digits}f}"
    return i18n.number(value, digits)


def interval(ci: list, show=percent) -> str:
    return f"{show(ci[0])} .. {show(ci[1])}"


def signed(value: float, show) -> str:
    text = show(value)
    return text if text.startswith(("-", "\u2212")) else "+" + text
