"""How a comparison is shown: each result's rate in A and B, the difference B - A with its 95%
interval from the paired games, and whether that interval leaves out zero; then the mean length
and each report value the same way."""

from __future__ import annotations

from .columns import interval, layout, percent, signed


def _number(value: float) -> str:
    return f"{value:.2f}"


def _row(name: str, entry: dict, show) -> list[str]:
    return [name, show(entry["a"]), show(entry["b"]), signed(entry["difference"], show),
            interval(entry["ci95"], show), "significant" if entry["significant"] else "not significant"]


def render_text(data: dict, seconds: float, workers: int) -> str:
    a, b = data["a"], data["b"]
    lines = [f"A: {a['ruleset']}, B: {b['ruleset']}: {data['games']:,} games each on the same seeds, seed "
             f"{data['seed']}, {workers} worker{'s' if workers > 1 else ''}, {seconds:.1f} s"]
    for side in ("a", "b"):
        other = data["b" if side == "a" else "a"]["params"]
        changed = {k: v for k, v in data[side]["params"].items() if other.get(k, object()) != v}
        if changed:
            lines.append(f"params of {side.upper()} only: " + ", ".join(f"{k}={v}" for k, v in changed.items()))
    rows = [["", "A", "B", "B - A", "95% CI", ""]]
    rows.append(["results:"])
    for name, entry in data["results"].items():
        rows.append(_row("  " + name, {**entry, "a": entry["a"]["rate"], "b": entry["b"]["rate"]}, percent))
    rows.append(_row("length", data["length"], lambda v: f"{v:.1f}"))
    if data["report"]:
        rows.append(["report:"])
        for key, entry in data["report"].items():
            rows.append(_row("  " + key, entry, percent if entry.get("rate") else _number))
    return "\n".join(lines + layout(rows, {1, 2, 3, 4}))
