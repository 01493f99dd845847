"""How a comparison is shown: each result's rate in A and B, the difference B - A with its 95%
interval from the paired games, and whether that interval leaves out zero; then the mean length
and each report value the same way."""

from __future__ import annotations

from ruleset_engine import i18n
from ruleset_engine.i18n import _, ngettext

from ruleset_engine.ruleset.results import result_words as words_of

from .columns import interval, layout, number, percent, signed


def _number(value: float) -> str:
    return number(value, 2)


def _row(name: str, entry: dict, show) -> list[str]:
    return [name, show(entry["a"]), show(entry["b"]), signed(entry["difference"], show),
            interval(entry["ci95"], show), _("significant") if entry["significant"] else _("not significant")]


def render_text(data: dict, seconds: float, workers: int, result_words: dict | None = None) -> str:
    a, b = data["a"], data["b"]
    lines = [ngettext("A: {a}, B: {b}: {games} games each on the same seeds, seed {seed}, {workers} worker, {seconds} s",
                      "A: {a}, B: {b}: {games} games each on the same seeds, seed {seed}, {workers} workers, {seconds} s",
                      workers).format(a=a['ruleset'], b=b['ruleset'], games=i18n.number(data['games']),
                                      seed=data['seed'], workers=workers, seconds=i18n.number(seconds, 1))]
    for side in ("a", "b"):
        other = data["b" if side == "a" else "a"]["params"]
        changed = {k: v for k, v in data[side]["params"].items() if other.get(k, object()) != v}
        if changed:
            lines.append(_("params of {side} only: ").format(side=side.upper())
                         + ", ".join(f"{k}={v}" for k, v in changed.items()))
    rows = [["", "A", "B", "B - A", _("95% CI"), ""]]
    rows.append([_("results:")])
    for name, entry in data["results"].items():
        shown = words_of(result_words or {}, name, i18n.language())     # results: in the table's language
        rows.append(_row("  " + shown, {**entry, "a": entry["a"]["rate"], "b": entry["b"]["rate"]}, percent))
    rows.append(_row(_("length"), data["length"], lambda v: number(v, 1)))
    if data["report"]:
        rows.append([_("report:")])
        for key, entry in data["report"].items():
            rows.append(_row("  " + key, entry, percent if entry.get("rate") else _number))
    return "\n".join(lines + layout(rows, {1, 2, 3, 4}))
