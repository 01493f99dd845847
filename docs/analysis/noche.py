"""The figures of docs/analysis/noche.md, made again: each `dusk simulate` command the page shows is
run (with --json) at the page's N, and its table printed in Markdown, ready to paste; the house
rule's sweep also draws the page's chart (docs/analysis/noche-house.png, `--plot`).

    .venv/bin/python docs/analysis/noche.py [--games 1000] [--seed 1]

The commands are the page's, word for word but for N and the seed: tests/test_docs_table_commands.py
runs them at a small N and checks the fields this script reads are there.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DUSK = Path(sys.executable).parent / "dusk"

# (title, the command after `dusk`, the columns: the sweep's params shown, then what is read)
FIGURES = [
    ("The two readings, cautious play",
     "simulate noche-de-los-vampiros -n {n} --seed {seed} --sweep players=2,3,4,6,8 "
     "--sweep cancelled_dice_to_pool=false,true --json"),
    ("The three policies, the text's reading",
     "simulate noche-de-los-vampiros -n {n} --seed {seed} --sweep players=2,3,4,6,8 "
     "--sweep policy=cautious,bold,desperate --json"),
    ("The house rule noche-long-hours, cautious play",
     "simulate noche-long-hours -n {n} --seed {seed} --sweep players=2..8 --plot {plot} --json"),
]


def rate(cell: dict, result: str) -> tuple[str, str]:
    """The rate of a result and its 95% interval, as the page prints them (`none` when no game gave it)."""
    found = cell["results"].get(result)
    if found is None:
        return "none", ""
    return f"{found['rate']:.1%}", f"{found['ci95'][0]:.1%} .. {found['ci95'][1]:.1%}"


def mean(cell: dict, name: str) -> float:
    return cell["report"][name]["mean"]


def distribution(cell: dict, name: str) -> str:
    """A report value's distribution (report.NAME.distribution) as `value: rate` pairs, the rare ones
    (under 0.5%) left out."""
    shown = [f"{d['value']}: {d['rate']:.0%}" for d in cell["report"][name]["distribution"] if d["rate"] >= 0.005]
    return " · ".join(shown)


def per_hour(cell: dict, name: str) -> str:
    """A value read as each Hour ends (report.NAME.per): its mean in Hours 1, 4, 8 and 12."""
    means = {it["iteration"]: it["mean"] for it in cell["report"][name]["per"]["iterations"]}
    return " / ".join(f"{means[h]:.2f}" if h in means else "-" for h in (1, 4, 8, 12))


def table(found: dict) -> list[str]:
    params = sorted(found["sweep"], key=lambda p: p != "players")     # the table size first
    head = params + ["nobody alive", "95% CI", "survivors at dawn", "deaths", "deaths in Hour 1/4/8/12",
                     "conflicts", "conflicts in Hour 1/4/8/12"]
    rows = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for cell in found["cells"]:
        dead, interval = rate(cell, "nobody_alive")
        values = [str(cell["values"][p]) for p in params]
        rows.append("| " + " | ".join(values + [
            dead, interval, distribution(cell, "survivors"), f"{mean(cell, 'deaths'):.2f}",
            per_hour(cell, "hour_deaths"), f"{mean(cell, 'conflicts'):.1f}", per_hour(cell, "hour_conflicts")]) + " |")
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--plot", default=str(HERE / "noche-house.png"))
    args = parser.parse_args()
    for title, command in FIGURES:
        line = command.format(n=args.games, seed=args.seed, plot=args.plot)
        out = subprocess.run([str(DUSK), *line.split()], capture_output=True, text=True)
        print(f"### {title}\n\n    dusk {line}\n")
        if out.returncode != 0:
            print(out.stderr.strip())
            return out.returncode
        print("\n".join(table(json.loads(out.stdout))) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
