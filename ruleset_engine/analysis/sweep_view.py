"""How a sweep is shown: a table of its cells, and under it a chart of the main result's rate.

The table gives, per cell, each result's rate with its 95% interval, the mean length and the
report's means (the rate of a true/false value). The chart is bars of the main result against the
swept values: rich colours on a terminal, plain characters on a pipe or with NO_COLOR.
"""

from __future__ import annotations

from ruleset_engine import i18n
from ruleset_engine.i18n import _, ngettext

from .columns import interval, layout, number, percent

BAR_WIDTH = 40


def _label(axes, values) -> str:
    return ", ".join(f"{a.param}={v}" for a, v in zip(axes, values)) if len(axes) > 1 else str(values[0])


def render_table(data: dict, axes, seconds: float, workers: int) -> list[str]:
    cells = data["cells"]
    results = sorted({name for cell in cells for name in cell["results"]})
    report = list(cells[0]["report"]) if cells else []
    names = " × ".join(f"{len(a.values)} {a.param}" for a in axes)
    lines = [ngettext("{ruleset}: {names} values, {games} games each on the same seeds, seed {seed}, "
                      "{workers} worker, {seconds} s",
                      "{ruleset}: {names} values, {games} games each on the same seeds, seed {seed}, "
                      "{workers} workers, {seconds} s", workers).format(
                 ruleset=data['ruleset'], names=names, games=i18n.number(data['games']), seed=data['seed'],
                 workers=workers, seconds=i18n.number(seconds, 1)),
             _("params: ") + ", ".join(f"{k}={v}" for k, v in data["params"].items()
                                       if k not in {a.param for a in axes})]
    head = [" × ".join(a.param for a in axes) if len(axes) > 1 else axes[0].param]
    for name in results:
        head += [name, _("95% CI")]
    head += [_("length")] + report
    rows = [head]
    for cell in cells:
        row = [_label(axes, tuple(cell["values"].values()))]
        for name in results:
            found = cell["results"].get(name, {"rate": 0.0, "ci95": [0.0, 0.0]})
            row += [percent(found["rate"]), interval(found["ci95"])]
        row.append(number(cell['length']['mean'], 1))
        for key in report:
            value = cell["report"][key]
            row.append(percent(value["rate"]) if "rate" in value else number(value['mean'], 2))
        rows.append(row)
    numeric = set(range(1, len(head)))
    return lines + layout(rows, numeric)


def chart_rows(data: dict, axes) -> list[tuple[str, float, list]]:
    """(label, rate of the main result, its interval) for each cell."""
    main = data["main"]
    out = []
    for cell in data["cells"]:
        found = cell["results"].get(main, {"rate": 0.0, "ci95": [0.0, 0.0]})
        out.append((_label(axes, tuple(cell["values"].values())), found["rate"], found["ci95"]))
    return out


def _bar_length(rate: float, top: float) -> int:
    return round(BAR_WIDTH * rate / top) if top > 0 else 0


def render_chart_text(data: dict, axes) -> list[str]:
    if data["main"] is None:
        return []
    rows = chart_rows(data, axes)
    top = max(rate for _, rate, _ in rows)
    width = max(len(label) for label, _, _ in rows)
    lines = [_("{result} by {params}:").format(result=data['main'], params=' × '.join(a.param for a in axes))]
    for label, rate, ci in rows:
        bar = "#" * _bar_length(rate, top)
        lines.append(f"  {label.rjust(width)}  {bar.ljust(BAR_WIDTH)}  {percent(rate)} ({interval(ci)})")
    return lines


def render_chart_rich(data: dict, axes):
    from rich.table import Table
    from rich.text import Text

    if data["main"] is None:
        return Text("")
    rows = chart_rows(data, axes)
    top = max(rate for _, rate, _ in rows)
    table = Table(title=_("{result} by {params}").format(result=data['main'], params=' × '.join(a.param for a in axes)), show_header=False,
                  box=None, title_justify="left")
    for label, rate, ci in rows:
        table.add_row(label, Text("█" * _bar_length(rate, top), style="cyan"),
                      f"{percent(rate)} ({interval(ci)})")
    return table
