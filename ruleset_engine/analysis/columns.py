"""Plain text tables for the analysis reports: rows of cells, each column padded to its widest cell."""

from __future__ import annotations


def layout(rows: list[list[str]], right: set[int] = frozenset(), indent: str = "") -> list[str]:
    """Rows as lines; columns in `right` are right-aligned (numbers), the rest left-aligned."""
    widths = [max(len(row[i]) for row in rows if i < len(row)) for i in range(max(map(len, rows)))]
    lines = []
    for row in rows:
        cells = [cell.rjust(widths[i]) if i in right else cell.ljust(widths[i]) for i, cell in enumerate(row)]
        lines.append((indent + "  ".join(cells)).rstrip())
    return lines


def percent(rate: float) -> str:
    return f"{rate:.2%}"


def interval(ci: list, show=percent) -> str:
    return f"{show(ci[0])} .. {show(ci[1])}"


def signed(value: float, show) -> str:
    text = show(value)
    return text if text.startswith("-") else "+" + text
