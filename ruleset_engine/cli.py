"""The `dusk` command: one subcommand per job, each importing only what it needs (start-up stays quick).

Exit status: 0 done, 1 a check found problems, 2 bad input (a bad expression or
bad arguments). Errors are one screen of plain words, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys



def _stdout_is_terminal() -> bool:
    return sys.stdout.isatty()


def _print_result(result, ascii_only: bool) -> None:
    from ruleset_engine.dice.render import render_rich, render_text

    if _stdout_is_terminal() and not os.environ.get("NO_COLOR"):
        from rich.console import Console

        Console(highlight=False).print(render_rich(result, ascii_only))
    else:
        print(render_text(result, ascii_only))


def cmd_roll(args: argparse.Namespace) -> int:
    import random

    from ruleset_engine import dice

    rng = random.Random(args.seed) if args.seed is not None else random.Random()
    try:
        result = dice.roll(args.expression, rng=rng)
    except dice.DiceError as err:
        print(f"dusk roll: {err}", file=sys.stderr)
        return 2
    if args.json:
        data = result.to_json()
        data["seed"] = args.seed
        print(json.dumps(data, ensure_ascii=False, sort_keys=True))
    else:
        _print_result(result, args.ascii)
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    """The table: `dusk play` and `dusk resume` (the REPL lives in ruleset_engine.repl)."""
    from ruleset_engine.repl.app import run

    return run(args)


def _text(value, lang: str = "en") -> str:
    from ruleset_engine.ruleset.templates import as_text

    return as_text(value, lang)


def cmd_list(args: argparse.Namespace) -> int:
    from ruleset_engine.ruleset import RulesetError, bundled_files, read_merged

    rows = []
    for ruleset_id in bundled_files():
        try:
            data, files = read_merged(ruleset_id)
        except RulesetError as err:
            rows.append((ruleset_id, f"(broken: {err.problems[0].message})", ""))
            continue
        parent = f" (extends {files[1].rsplit('/', 1)[-1][:-5]})" if len(files) > 1 else ""
        rows.append((ruleset_id, _text(data.get("title")) + parent, _text(data.get("source"))))
    width = max((len(r[0]) for r in rows), default=0)
    for ruleset_id, title, source in rows:
        print(f"{ruleset_id.ljust(width)}  {title}" + (f"  [{source}]" if source else ""))
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    from ruleset_engine.ruleset import RulesetError, load

    failed = 0
    for source in args.files:
        try:
            ruleset = load(source)
        except RulesetError as err:
            failed += 1
            print(str(err))
            continue
        parts = [f"{len(ruleset.params)} params", f"{len(ruleset.actions)} actions",
                 f"{len(ruleset.tables)} tables", f"{len(ruleset.procedures)} procedures"]
        print(f"{source}: ok: {ruleset.id} ({_text(ruleset.title)}), {', '.join(parts)}")
    return 1 if failed else 0


def cmd_show(args: argparse.Namespace) -> int:
    from ruleset_engine.ruleset import RulesetError, read_merged
    from ruleset_engine.ruleset.loader import locate
    from ruleset_engine.ruleset.show import show_resolved

    try:
        if not args.resolved:
            path, _name = locate(args.ruleset)
            sys.stdout.write(path.read_text("utf-8"))
            return 0
        data, files = read_merged(args.ruleset)
    except (RulesetError, OSError) as err:
        print(str(err), file=sys.stderr)
        return 1
    sys.stdout.write(show_resolved(data, files))
    return 0


def parse_sets(pairs: list[str] | None) -> dict:
    params = {}
    for pair in pairs or []:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise ValueError(f"--set takes PARAM=VALUE, not {pair!r}")
        params[name.strip()] = value.strip()
    return params


class _Progress:
    """A progress bar on a terminal for runs longer than about a second; nothing on a pipe."""

    def __init__(self, total: int):
        self.total = total
        self.started = None
        self.bar = None
        self.task = None
        self.enabled = sys.stderr.isatty()

    def __call__(self, done: int) -> None:
        import time

        if not self.enabled:
            return
        now = time.perf_counter()
        if self.started is None:
            self.started = now
        if self.bar is None and now - self.started > 1.0 and done < self.total:
            from rich.console import Console
            from rich.progress import Progress

            self.bar = Progress(console=Console(stderr=True), transient=True)
            self.bar.start()
            self.task = self.bar.add_task("simulating", total=self.total)
        if self.bar is not None:
            self.bar.update(self.task, completed=done)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()


def cmd_simulate(args: argparse.Namespace) -> int:
    from ruleset_engine.analysis.simulate import SimulationError, simulate
    from ruleset_engine.ruleset import RulesetError
    from ruleset_engine.runtime import GameError

    if args.n < 1 or args.workers < 1:
        print("dusk simulate: -n and --workers take whole numbers of 1 or more", file=sys.stderr)
        return 2
    progress = _Progress(args.n)
    try:
        summary = simulate(args.ruleset, args.n, args.seed, parse_sets(args.set), args.workers, progress)
    except (RulesetError, GameError, SimulationError, ValueError) as err:
        progress.close()
        print(f"dusk simulate: {err}", file=sys.stderr)
        return 2 if isinstance(err, (GameError, ValueError)) else 1
    progress.close()
    data = summary.to_json()
    if args.json:
        print(json.dumps(data, ensure_ascii=False, sort_keys=True))
        return 0
    rate = data["games"] / summary.seconds if summary.seconds else 0
    print(f"{data['ruleset']}: {data['games']:,} games, seed {data['seed']}, {args.workers} worker"
          f"{'s' if args.workers > 1 else ''}, {summary.seconds:.1f} s ({rate:,.0f} games/s)")
    print("params: " + ", ".join(f"{k}={v}" for k, v in data["params"].items()))
    print("results:")
    width = max((len(k) for k in data["results"]), default=0)
    for name, r in data["results"].items():
        lo, hi = r["ci95"]
        print(f"  {name.ljust(width)}  {r['count']:>9,}  {r['rate']:7.2%}  95% CI {lo:.2%} .. {hi:.2%}")
    length = data["length"]
    print(f"length in rounds: mean {length['mean']:.1f}, median {length['median']}, 90th percentile {length['p90']}")
    if data["report"]:
        print("report:")
        width = max(len(k) for k in data["report"])
        for name, r in data["report"].items():
            if "rate" in r:
                print(f"  {name.ljust(width)}  true {r['rate']:.2%}")
            else:
                print(f"  {name.ljust(width)}  mean {r['mean']:.2f}, median {r['median']}, 90th percentile "
                      f"{r['p90']}, min {r['min']}, max {r['max']}")
    return 0


def _table_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--lang", choices=["en", "zh"], default="en", help="the ruleset's labels in this language")
    parser.add_argument("--ascii", action="store_true", help="ASCII symbols and boxes only")
    parser.add_argument("-c", metavar="COMMANDS", help='run these commands ("round; round; state") and leave')
    parser.add_argument("--script", metavar="FILE", help="run the commands of FILE, one a line, and leave")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dusk",
        description="A rules-as-data engine for dice games: YAML rulesets, one dice language, one interpreter.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    roll = sub.add_parser(
        "roll", help="roll one dice expression, every die shown",
        description="Roll one expression of the dice language and show every die. "
                    "Examples: 4d6kh3, 1d20rr<10, count(5d10, >= 6), unpair(8d6). "
                    "See docs/dice-language.md.",
    )
    roll.add_argument("expression", metavar="EXPR", help="the dice expression (quote it for the shell)")
    roll.add_argument("--seed", type=int, help="seed the dice, so the same seed gives the same roll")
    roll.add_argument("--json", action="store_true", help="print one JSON object (documented, stable)")
    roll.add_argument("--ascii", action="store_true", help="ASCII symbols only")
    roll.set_defaults(handler=cmd_roll)

    listing = sub.add_parser("list", help="the bundled rulesets")
    listing.set_defaults(handler=cmd_list)

    check = sub.add_parser("check", help="validate rulesets: exit 1 and list every problem",
                           description="Check ruleset files (or bundled ids): a one-line summary each, or every "
                                       "problem as file:line:col: message (at path.to.key).")
    check.add_argument("files", nargs="+", metavar="FILE")
    check.set_defaults(handler=cmd_check)

    show = sub.add_parser("show", help="print a ruleset as written, or --resolved after extends:")
    show.add_argument("ruleset", metavar="RULESET", help="a bundled id or a file")
    show.add_argument("--resolved", action="store_true",
                      help="merge extends: and mark where each value comes from")
    show.set_defaults(handler=cmd_show)

    sim = sub.add_parser("simulate", help="play N whole games with the auto: answers and summarise them",
                         description="Play N games of a ruleset with a game loop, answering every decision "
                                     "with its auto: expression; report results with 95% confidence intervals, "
                                     "game length and the ruleset's report: values.")
    sim.add_argument("ruleset", metavar="RULESET", help="a bundled id or a file")
    sim.add_argument("-n", type=int, required=True, help="how many games")
    sim.add_argument("--seed", type=int, default=0, help="the run's seed (game i uses a seed derived from it)")
    sim.add_argument("--workers", type=int, default=1, help="processes to share the games (same report)")
    sim.add_argument("--set", action="append", metavar="PARAM=VALUE", help="override a param (repeatable)")
    sim.add_argument("--json", action="store_true", help="print one JSON object (documented, stable)")
    sim.set_defaults(handler=cmd_simulate)

    play = sub.add_parser("play", help="play a game at the table (the REPL)",
                          description="Open the table on a ruleset: its actions, decisions and status, "
                                      "every die shown, every command saved.")
    play.add_argument("ruleset", nargs="?", metavar="RULESET",
                      help="a bundled id or a file (default: the one named in rulesets/DEFAULT)")
    play.add_argument("--seed", type=int, help="seed the dice (default: a fresh seed, shown and saved)")
    play.add_argument("--set", action="append", metavar="PARAM=VALUE", help="override a param (repeatable)")
    play.add_argument("--save", metavar="PATH", help="the session file (default: in the data dir)")
    _table_options(play)
    play.set_defaults(handler=cmd_play)

    resume = sub.add_parser("resume", help="continue a saved session (default: the last one)")
    resume.add_argument("path", nargs="?", metavar="PATH", help="the session file")
    _table_options(resume)
    resume.set_defaults(handler=cmd_play)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.handler(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
