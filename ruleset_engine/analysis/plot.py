"""`--plot FILE`: a sweep as a figure (PNG or SVG), drawn with matplotlib, an optional extra.

The main result's rate against the first swept param, its 95% interval as a shaded band, one line
per value of the second param when there is one. matplotlib is imported here only, through its
object API (no pyplot, no global state, no window): `pip install 'dusk[plot]'` brings it.
"""

from __future__ import annotations

import os
from pathlib import Path

from ruleset_engine import i18n
from ruleset_engine.errors import InputError

FORMATS = (".png", ".svg")
SIZE = (6.4, 4.8)      # inches, at DPI: 640 × 480 pixels
DPI = 100


class PlotError(InputError):
    """A figure that cannot be written: a file type, or matplotlib missing (a bad argument: exit 2)."""


def check_target(path: str) -> None:
    """Before any game: a file type it can write, a folder that exists and takes files, and
    matplotlib to write it (a sweep of hours is not run for a figure that cannot be written)."""
    target = Path(path)
    if target.suffix.lower() not in FORMATS:
        raise PlotError(i18n._("--plot writes {formats} files, not {path}").format(formats=" or ".join(FORMATS),
                                                                                    path=repr(path)))
    folder = target.parent
    if not folder.is_dir():
        gone = i18n._("--plot {path}: the folder {folder} does not exist; make it first, or choose another path")
        other = i18n._("--plot {path}: the folder {folder} is not a folder; make it first, or choose another path")
        raise PlotError((other if folder.exists() else gone).format(path=path, folder=folder))
    if target.is_dir():
        raise PlotError(i18n._("--plot {path} is a folder: give the path of a .png or .svg file").format(path=path))
    if not os.access(folder, os.W_OK | os.X_OK):
        raise PlotError(i18n._("--plot {path}: the folder {folder} cannot be written in").format(
                            path=path, folder=folder))
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise PlotError(i18n._("--plot needs matplotlib: pip install 'dusk[plot]' (or pip install "
                               "matplotlib)")) from None


def series(data: dict) -> list[tuple[str | None, list, list, list, list]]:
    """(label, x values, rates, lows, highs): one series per value of the second param (or one)."""
    params = list(data["sweep"])
    main = data["main"]
    groups: dict = {}
    for cell in data["cells"]:
        values = cell["values"]
        key = f"{params[1]}={values[params[1]]}" if len(params) > 1 else None
        found = cell["results"].get(main, {"rate": 0.0, "ci95": [0.0, 0.0]})
        group = groups.setdefault(key, ([], [], [], []))
        for column, value in zip(group, (values[params[0]], found["rate"], *found["ci95"])):
            column.append(value)
    return [(key, *columns) for key, columns in groups.items()]


def figure(data: dict):
    """The figure (matplotlib's Figure, on its own Agg canvas) and its axes."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=SIZE, dpi=DPI)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    first = list(data["sweep"])[0]
    numeric = all(type(v) is int for v in data["sweep"][first])
    for label, xs, rates, lows, highs in series(data):
        place = xs if numeric else list(range(len(xs)))
        line, = ax.plot(place, [100 * r for r in rates], marker="o", label=label)
        ax.fill_between(place, [100 * v for v in lows], [100 * v for v in highs], color=line.get_color(),
                        alpha=0.2, linewidth=0)
    if not numeric:
        ax.set_xticks(range(len(data["sweep"][first])), [str(v) for v in data["sweep"][first]])
    ax.set_xlabel(first)
    ax.set_ylabel(i18n._("{result} ({percent} of games, 95{percent} interval)").format(
        result=data["main"], percent="%"))
    ax.set_title(i18n._("{ruleset}: {games} games per value, seed {seed}").format(
                     ruleset=data["ruleset"], games=i18n.number(data["games"]), seed=data["seed"]))
    ax.grid(True, alpha=0.3)
    if len(data["sweep"]) > 1:
        ax.legend()
    return fig, ax


def write(data: dict, path: str):
    """Write the figure to path (its suffix says PNG or SVG); the figure and axes drawn."""
    check_target(path)
    fig, ax = figure(data)
    try:
        fig.savefig(path, format=Path(path).suffix.lower()[1:])
    except OSError as err:
        raise PlotError(i18n._("cannot write {path}: {error}").format(path=path, error=err.strerror or err)) from None
    return fig, ax
