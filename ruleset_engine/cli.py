"""The `dusk` command: one subcommand per job, each importing only what it needs (start-up stays quick).

It uses the engine's public face only (`import ruleset_engine as dusk`), whose names are imported
when first used: `dusk roll` loads the dice language and nothing else.

Exit status: 0 done, 1 a check found problems (for `dusk play -c`/`--script`/a pipe: a command
refused, or the script ended with a question unanswered), 2 bad input (a bad expression or
bad arguments), 70 a bug in dusk. Errors are one screen of plain words, never a traceback: a bug
(a DuskBug, or any exception that is no DuskError) is one line naming bugs.log in the data dir,
where its traceback went, with its cause; the same from every command and backend.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

import ruleset_engine as dusk
from ruleset_engine import argparse_words, i18n
from ruleset_engine.i18n import N_, _

LANGUAGE = argparse_words.LANGUAGE      # a language code: en, zh, es, pt-BR


def _stdout_is_terminal() -> bool:
    return sys.stdout.isatty()


def _print_result(result, ascii_only: bool) -> None:
    if _stdout_is_terminal() and not os.environ.get("NO_COLOR"):
        from rich.console import Console

        Console(highlight=False).print(dusk.render_rich(result, ascii_only))
    else:
        print(dusk.render_text(result, ascii_only))


def cmd_roll(args: argparse.Namespace) -> int:
    import random

    rng = random.Random(args.seed) if args.seed is not None else random.Random()
    try:
        # Spaces around the expression are the shell's, not the expression's: they change no layout.
        with dusk.asked_parses():       # an expression rolled before is not parsed again (dice/remembered.py)
            result = dusk.roll(args.expression.strip(), rng=rng)
    except dusk.DuskError as err:
        print(_("dusk roll: {error}").format(error=err), file=sys.stderr)
        return 2
    if args.json:
        data = result.to_json()
        data["seed"] = args.seed
        print(json.dumps(data, ensure_ascii=False, sort_keys=True))
    else:
        _print_result(result, args.ascii)
    return 0


def cmd_prob(args: argparse.Namespace) -> int:
    """Exact odds (icepool, imported here only), or a seeded estimate said to be one."""
    from ruleset_engine.analysis import prob, prob_view

    with dusk.asked_parses():       # an expression asked before is not parsed again (dice/remembered.py)
        return _prob(args, prob, prob_view)


def _prob(args: argparse.Namespace, prob, prob_view) -> int:
    try:
        # One load (and one check) of the ruleset gives both its params and its named formulas.
        env, formulas = prob.ruleset_names(args.ruleset, args.set) if args.ruleset else ({}, prob.NO_FORMULAS)
        if args.set and not args.ruleset:
            raise prob.ProbError(_("--set changes a ruleset's params: name the ruleset with --ruleset"))
        lets = [prob.parse_let(text) for text in args.let or []]
        options = dict(lets=lets, env=env, depth=args.depth, estimate=args.estimate, samples=args.samples,
                       seed=args.seed, formulas=formulas)
        if args.grid:
            if len(args.expressions) != 1:
                raise prob.ProbError(_("a chart (--grid) asks one expression"))
            axes = [prob.parse_axis(text) for text in args.grid]
            result = prob.grid(args.expressions[0].strip(), axes, at_least=args.at_least, at_most=args.at_most,
                               **options)
        else:
            if args.at_least is not None or args.at_most is not None:
                raise prob.ProbError(_("--at-least and --at-most read a chart: give --grid NAME=a..b too"))
            result = prob.ask([text.strip() for text in args.expressions], **options)
    except (dusk.DuskError, OSError) as err:
        print(_("dusk prob: {error}").format(error=err), file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result.to_json(), ensure_ascii=False, sort_keys=True))
        return 0
    chart = args.grid is not None
    if _stdout_is_terminal() and not os.environ.get("NO_COLOR"):
        from rich.console import Console

        view = prob_view.render_chart_rich(result) if chart else prob_view.render_rich(result, args.ascii)
        Console(highlight=False).print(view)
    else:
        print(prob_view.render_chart_text(result) if chart else prob_view.render_text(result, args.ascii))
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    """The table: `dusk play` and `dusk resume` (the REPL lives in ruleset_engine.repl)."""
    from ruleset_engine.repl.app import run

    return run(args)


def cmd_serve(args: argparse.Namespace) -> int:
    """`dusk serve`: the table for the whole group, a web server (ruleset_engine.web)."""
    from ruleset_engine.web.serve import run

    return run(args)


def cmd_sessions(args: argparse.Namespace) -> int:
    """The saved sessions of the data dir, the last played first; `*` marks the one `dusk resume` continues."""
    import time

    from ruleset_engine.repl.journal import DataDirError, last_session, list_sessions, sessions_dir

    try:
        found = list_sessions()
        if not found:
            print(_("no saved sessions in {folder}; start one with dusk play").format(folder=sessions_dir()))
            return 0
        current = last_session()
    except DataDirError as err:
        print(_("dusk sessions: {error}").format(error=err), file=sys.stderr)
        return 1
    current = current.resolve() if current is not None else None

    def when(seconds) -> str:
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(seconds)) if seconds else "?"

    rows = [("", _("last played"), _("started"), _("ruleset"), _("turns"), _("file"))]
    for s in found:
        turns = f"{s.turns} ({s.result})" if s.result else _("setup") if s.setup else str(s.turns)
        if s.problem:
            rows.append(("", when(s.last_played), "?", f"({s.problem})", "", str(s.path)))
            continue
        rows.append(("*" if s.path == current else "", when(s.last_played), when(s.started), s.ruleset, turns,
                     str(s.path)))
    widths = [max(len(row[i]) for row in rows) for i in range(5)]
    for row in rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)) + "  " + row[5])
    if current is not None:
        print(_("* the session dusk resume continues (dusk resume PATH continues another)"))
    if any(s.setup and not s.problem for s in found):
        print(_("setup: left during the game's setup; dusk resume goes on with it from the next question"))
    return 0


COUNTED = {     # '1 action', '0 tables': counts by the language's plural rules (the catalogs')
    "param": lambda n: i18n.ngettext("{n} param", "{n} params", n),
    "action": lambda n: i18n.ngettext("{n} action", "{n} actions", n),
    "table": lambda n: i18n.ngettext("{n} table", "{n} tables", n),
    "procedure": lambda n: i18n.ngettext("{n} procedure", "{n} procedures", n),
    "field": lambda n: i18n.ngettext("{n} field", "{n} fields", n),
}


def _counted(n: int, word: str) -> str:
    """'1 action', '0 tables', in the table's language."""
    return COUNTED[word](n).format(n=n)


def cmd_list(args: argparse.Namespace) -> int:
    rows = []
    for ruleset_id in dusk.bundled_files():
        try:
            data, files = dusk.read_merged(ruleset_id)
        except dusk.DuskError as err:
            rows.append((ruleset_id, _("(broken: {error})").format(error=str(err).splitlines()[0]), ""))
            continue
        parent = _(" (extends {parent})").format(parent=files[1].rsplit('/', 1)[-1][:-5]) if len(files) > 1 else ""
        rows.append((ruleset_id, dusk.as_text(data.get("title")) + parent, dusk.as_text(data.get("source"))))
    width = max((len(r[0]) for r in rows), default=0)
    for ruleset_id, title, source in rows:
        print(f"{ruleset_id.ljust(width)}  {title}" + (f"  [{source}]" if source else ""))
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    """Each ruleset loaded and its program written (which finds what only the params reveal): a one-line
    summary, or every problem and how many."""
    if args.playouts is not None and not 1 <= args.playouts <= 1_000_000:
        print(_("dusk check: --playouts takes 1 to 1,000,000 games, not {n}").format(n=i18n.number(args.playouts)),
              file=sys.stderr)
        return 2
    if not args.files and args.sheets and len(args.sheets) > 1:
        # `dusk check --sheets FILE RULESET`: --sheets takes every path after it, so the ruleset named
        # last is read as the one FILE (as a sheet file's own comment shows the command).
        args.files = [args.sheets.pop()]
    if not args.files:
        print("dusk check: name a ruleset FILE (or a bundled id) to check", file=sys.stderr)
        return 2
    if args.sheets and len(args.files) != 1:
        print(_("dusk check: --sheets checks sheets against one ruleset: name one FILE"), file=sys.stderr)
        return 2
    failed = 0
    for source in args.files:
        try:
            ruleset, problems = dusk.check(source)
        except (dusk.DuskError, OSError) as err:     # check() returns a ruleset's problems; this is the rest
            ruleset, problems = None, err.problems if isinstance(err, dusk.RulesetError) else [str(err)]
        if problems:
            failed += 1
            print("\n".join(str(p) for p in problems) + "\n" + dusk.count_line(problems))
            continue
        parts = [_counted(len(ruleset.params), "param"), _counted(len(ruleset.actions), "action"),
                 _counted(len(ruleset.tables), "table"), _counted(len(ruleset.procedures), "procedure")]
        print(_("{file}: ok: {ruleset} ({title}), {counts}").format(
            file=source, ruleset=ruleset.id, title=dusk.as_text(ruleset.title, i18n.language()), counts=', '.join(parts)))
        if args.sheets:
            failed += _sheets(ruleset, args.sheets)
        if args.playouts is not None:
            failed += _playouts(source, args.playouts, args.seed)
    return 1 if failed else 0


def _sheets(ruleset, paths) -> int:
    """`dusk check --sheets`: each sheet checked against the ruleset's template; 1 when one is not valid."""
    from ruleset_engine.ruleset.sheets import files_in, read_all

    try:
        sheets = read_all(paths, ruleset)
    except dusk.RulesetError as err:
        print("\n".join(str(p) for p in err.problems) + "\n" + dusk.count_line(err.problems))
        return 1
    except (dusk.DuskError, OSError) as err:
        print(_("dusk check: {error}").format(error=err))
        return 1
    # The ruleset's own sheets, named again, were checked and left out of what a game would add.
    known = {s.path: s for spec in ruleset.entities.values() if spec.sheet is not None for s in spec.sheet.sheets}
    known.update({s.path: s for s in sheets})
    for path in files_in(paths):
        sheet = known[os.path.realpath(path)]
        print(_("{file}: ok: {name} ({group}), {counts}").format(file=path, name=sheet.name, group=sheet.group,
                                                                  counts=_counted(len(sheet.fields), 'field')))
    return 0


def _playouts(source: str, games: int, seed: int) -> int:
    """`dusk check --playouts`: 1 when the games found a problem (a safety bound, a run-time error)."""
    from ruleset_engine.analysis.playouts import playouts

    try:
        found = playouts(source, games, seed)
    except (dusk.DuskError, OSError) as err:
        print(_("{file}: playouts: {error}").format(file=source, error=err))
        return 1
    print(found.to_text())
    return 1 if found.failed else 0


def cmd_show(args: argparse.Namespace) -> int:
    from ruleset_engine.textfile import read_text

    try:
        if not args.resolved:
            path, name = dusk.locate(args.ruleset)
            sys.stdout.write(read_text(path, name, what="ruleset"))
            return 0
        data, files = dusk.read_merged(args.ruleset)
    except (dusk.DuskError, OSError) as err:
        print(str(err), file=sys.stderr)
        return 1
    sys.stdout.write(dusk.show_resolved(data, files))
    return 0


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
            self.task = self.bar.add_task(_("simulating"), total=self.total)
        if self.bar is not None:
            self.bar.update(self.task, completed=done)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()

    def of(self, done: int, total: int) -> None:
        """Progress whose total is known only once the run is planned (a sweep's cells × games)."""
        self.total = total
        self(done)


def _cpus() -> int:
    """The CPUs this process may run on (fewer than the machine's when it is confined to some)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def _cap_workers(args: argparse.Namespace, command: str) -> None:
    """--workers at most the CPUs, said on stderr: more processes than CPUs only share them (the same
    games, no sooner, and more memory)."""
    cpus = _cpus()
    if args.workers > cpus:
        print(i18n.ngettext("dusk {command}: --workers {workers} is more than the {cpus} CPU here; using {cpus}",
                            "dusk {command}: --workers {workers} is more than the {cpus} CPUs here; using {cpus}",
                            cpus).format(command=command, workers=args.workers, cpus=cpus), file=sys.stderr)
        args.workers = cpus


def _announce_backend(backend: str, reason: str) -> None:
    """The backend a simulation plays, and why, on stderr (stdout keeps the report alone)."""
    lines = reason.splitlines() or [""]
    print(_("dusk simulate: backend {backend}: {reason}").format(backend=backend, reason=lines[0]), file=sys.stderr)
    for line in lines[1:]:
        print(f"  {line}", file=sys.stderr)


def _long_game(start: int, stop: int, rounds: int, limit: int) -> None:
    """A lockstep game grown long, said on stderr as it goes on (run in the worker that plays it)."""
    print(_("dusk simulate: games {start}..{last} (lockstep): a game has played {rounds} rounds and goes on (one "
            "past {limit} rounds stops the run); lockstep plays the rounds of a few long games slowly, --backend "
            "untraced plays them faster").format(start=start, last=stop - 1, rounds=i18n.number(rounds),
                                                 limit=i18n.number(limit)),
          file=sys.stderr, flush=True)


def cmd_simulate(args: argparse.Namespace) -> int:
    if args.n < 1 or args.workers < 1:
        print(_("dusk simulate: -n and --workers take whole numbers of 1 or more"), file=sys.stderr)
        return 2
    _cap_workers(args, "simulate")
    if args.sweep:
        if args.sheets:
            print(_("dusk simulate: --sheets goes with a plain run, not a --sweep"), file=sys.stderr)
            return 2
        return cmd_sweep(args)
    if args.plot:
        print(_("dusk simulate: --plot draws a sweep: give --sweep PARAM=a..b too"), file=sys.stderr)
        return 2
    progress = _Progress(args.n)
    try:
        summary = dusk.simulate(args.ruleset, args.n, args.seed, dusk.parse_sets(args.set), args.workers, progress,
                                backend=args.backend, announce=_announce_backend, sheets=args.sheets or (),
                                records=args.records, told=_long_game)
    except (dusk.DuskError, OSError) as err:
        progress.close()
        print(_("dusk simulate: {error}").format(error=err), file=sys.stderr)
        # a bad param or --set is bad input (2); a ruleset that cannot be played is a problem found (1)
        return 2 if isinstance(err, (dusk.GameError, dusk.InputError)) else 1
    except KeyboardInterrupt:
        progress.close()
        print(_("dusk simulate: interrupted (Ctrl-C); no summary"), file=sys.stderr)
        return 130
    progress.close()
    data = summary.to_json()
    _records_written(args, "simulate")
    if args.json:
        print(json.dumps(data, ensure_ascii=False, sort_keys=True))
        return 0
    rate = data["games"] / summary.seconds if summary.seconds else 0
    print(i18n.ngettext("{ruleset}: {games} games, seed {seed}, {workers} worker, {seconds} s ({rate} games/s)",
                        "{ruleset}: {games} games, seed {seed}, {workers} workers, {seconds} s ({rate} games/s)",
                        args.workers).format(ruleset=data['ruleset'], games=i18n.number(data['games']),
                                             seed=data['seed'], workers=args.workers,
                                             seconds=i18n.number(summary.seconds, 1), rate=i18n.number(rate, 0)))
    if data["params"]:              # a ruleset without params has no line for them, as report: has none
        print(_("params: {params}").format(params=", ".join(f"{k}={v}" for k, v in data["params"].items())))
    print(_("results:"))
    from rich.cells import cell_len as cell_width

    shown = {name: dusk.result_words(summary.result_words, name, i18n.language()) for name in data["results"]}
    width = max((cell_width(k) for k in shown.values()), default=0)
    for name, r in data["results"].items():
        lo, hi = r["ci95"]
        print(f"  {shown[name] + ' ' * (width - cell_width(shown[name]))}  {i18n.number(r['count']):>9}  {i18n.percent(r['rate']):>7}  "
              + _("95% CI {low} .. {high}").format(low=i18n.percent(lo), high=i18n.percent(hi)))
        if "value" in r:            # the value the result carries (end: value:)
            print(f"  {' ' * width}  " + _("value: {value}").format(value=_value_line(r['value'])))
            if "distribution" in r["value"]:
                print("\n".join(distribution_lines(r["value"]["distribution"], indent=width + 4)))
    length = data["length"]
    print(_("length in rounds: mean {mean}, median {median}, 90th percentile {p90}").format(
        mean=i18n.number(length['mean'], 1), median=i18n.plain(length['median']), p90=i18n.plain(length['p90'])))
    if data["report"]:
        print(_("report:"))
        width = max(len(k) for k in data["report"])
        for name, r in data["report"].items():
            if "rate" in r:
                print(f"  {name.ljust(width)}  " + _("true {rate}").format(rate=i18n.percent(r['rate'])))
            else:
                print(f"  {name.ljust(width)}  " + _("mean {mean}, median {median}, 90th percentile {p90}, min {min}, "
                                                     "max {max}").format(mean=i18n.number(r['mean'], 2),
                                                                         median=i18n.plain(r['median']),
                                                                         p90=i18n.plain(r['p90']),
                                                                         min=i18n.plain(r['min']),
                                                                         max=i18n.plain(r['max'])))
            if "distribution" in r:
                print("\n".join(distribution_lines(r["distribution"], indent=width + 4)))
            if "per" in r:
                print("\n".join(per_lines(r["per"], indent=width + 4)))
    return 0


def per_lines(per: dict, indent: int) -> list[str]:
    """A report value per iteration of a loop level: a line each (the first MAX_BARS; --json has all)."""
    rows = per["iterations"]
    label = max((len(str(row["iteration"])) for row in rows), default=1)
    lines = [f"{' ' * indent}{per['level']} {str(row['iteration']).rjust(label)}  "
             + i18n.ngettext("mean {mean}  ({games} game)", "mean {mean}  ({games} games)", row['games']).format(
                 mean=i18n.number(row['mean'], 2), games=i18n.number(row['games'])) for row in rows[:MAX_BARS]]
    if len(rows) > MAX_BARS:
        lines.append(f"{' ' * indent}" + _("(the first {shown} of {n} iterations; --json lists every one)").format(
            shown=MAX_BARS, n=i18n.number(len(rows))))
    return lines


def _value_line(v: dict) -> str:
    """A result's value in one line: its mean and the rest, or its rate of true."""
    games = i18n.ngettext(" (in {n} game)", " (in {n} games)", v['games']).format(n=i18n.number(v['games']))
    if "rate" in v:
        return _("true {rate}").format(rate=i18n.percent(v['rate'])) + games
    return _("mean {mean}, median {median}, 90th percentile {p90}, min {min}, max {max}").format(
        mean=i18n.number(v['mean'], 2), median=i18n.plain(v['median']), p90=i18n.plain(v['p90']),
        min=i18n.plain(v['min']), max=i18n.plain(v['max'])) + games


def _records_written(args: argparse.Namespace, command: str, row: str = "game") -> None:
    """The file --records wrote, one line on stderr (stdout keeps the report alone)."""
    if args.records:
        line = _("dusk {command}: a row per game written to {file}") if row == "game" else \
            _("dusk {command}: a row per pair of games written to {file}")
        print(line.format(command=command, file=args.records), file=sys.stderr)


MAX_BARS = 40       # rows of a distribution's chart in the terminal (--json lists every value)


def distribution_lines(rows: list, indent: int, width: int = 30) -> list[str]:
    """A report value's distribution as a bar chart: each value, its share of the games and a bar
    scaled to the most common value; past MAX_BARS values, the most common ones, said so."""
    shown = rows if len(rows) <= MAX_BARS else \
        sorted(sorted(rows, key=lambda row: -row["count"])[:MAX_BARS], key=lambda row: row["value"])
    top = max(row["count"] for row in rows)
    label = max(len(_shown_value(row["value"])) for row in shown)
    lines = [f"{' ' * indent}{_shown_value(row['value']).rjust(label)}  {i18n.percent(row['rate']):>7}  "
             f"{'█' * max(1 if row['count'] else 0, round(width * row['count'] / top))}" for row in shown]
    if len(shown) < len(rows):
        lines.append(f"{' ' * indent}" + _("(the {shown} most common of {n} values; --json lists every one)").format(
            shown=MAX_BARS, n=i18n.number(len(rows))))
    return lines


def _shown_value(value) -> str:
    return (_("true") if value else _("false")) if isinstance(value, bool) else str(value)


def _analysis_failed(command: str, err: Exception, progress: _Progress) -> int:
    """A run that could not be done: bad arguments (2), or a ruleset that cannot be played (1)."""
    progress.close()
    print(_("dusk {command}: {error}").format(command=command, error=err), file=sys.stderr)
    return 2 if isinstance(err, (dusk.GameError, dusk.InputError)) else 1


def cmd_sweep(args: argparse.Namespace) -> int:
    """`dusk simulate --sweep`: a table of every value, a chart under it, and --plot's figure."""
    from ruleset_engine.analysis import plot, sweep, sweep_view

    progress = _Progress(args.n)
    try:
        if args.plot:
            plot.check_target(args.plot)          # before any game: a file type and matplotlib
        result = sweep.sweep(args.ruleset, args.n, args.sweep, args.seed, dusk.parse_sets(args.set), args.workers,
                             progress.of, records=args.records)
        data = result.to_json()
    except (dusk.DuskError, OSError) as err:
        return _analysis_failed("simulate", err, progress)
    progress.close()
    _records_written(args, "simulate")
    # The sweep is shown before its figure is drawn: a figure that fails loses none of it.
    if args.json:
        print(json.dumps(data, ensure_ascii=False, sort_keys=True))
    else:
        print("\n".join(sweep_view.render_table(data, result.axes, result.seconds, args.workers)))
        print()
        if _stdout_is_terminal() and not os.environ.get("NO_COLOR"):
            from rich.console import Console

            Console(highlight=False).print(sweep_view.render_chart_rich(data, result.axes))
        else:
            print("\n".join(sweep_view.render_chart_text(data, result.axes)))
    if args.plot:
        sys.stdout.flush()
        try:
            plot.write(data, args.plot)
        except (dusk.DuskError, OSError, ValueError) as err:
            print(_("dusk simulate: the figure was not written: {error}").format(error=err), file=sys.stderr)
            return 1
        if not args.json:
            print(_("figure written to {file}").format(file=args.plot))
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    """`dusk compare A B`: both rulesets on the same per-game seeds, the paired differences."""
    from ruleset_engine.analysis import compare, compare_view

    if args.n < 1 or args.workers < 1:
        print(_("dusk compare: -n and --workers take whole numbers of 1 or more"), file=sys.stderr)
        return 2
    _cap_workers(args, "compare")
    progress = _Progress(args.n)
    try:
        result = compare.compare(args.a, args.b, args.n, args.seed, dusk.parse_sets(args.set), args.workers,
                                 progress, records=args.records)
    except (dusk.DuskError, OSError) as err:
        return _analysis_failed("compare", err, progress)
    progress.close()
    _records_written(args, "compare", "pair")
    data = result.to_json()
    if args.json:
        print(json.dumps(data, ensure_ascii=False, sort_keys=True))
    else:
        print(compare_view.render_text(data, result.seconds, args.workers, result.result_words))
    return 0


def language_code(text: str) -> str:
    """--lang: any language code (en, zh, es, pt-BR); a ruleset without texts in it says so and falls back."""
    if not LANGUAGE.match(text):
        raise argparse.ArgumentTypeError(_("{text} is not a language code (for example en, zh, es, pt-BR)").format(
            text=repr(text)))
    return text


def _language_option(parser: argparse.ArgumentParser) -> None:
    """--lang on every command: dusk's own words (and a ruleset's texts) in this language."""
    parser.add_argument("--lang", type=language_code, metavar="CODE",
                        help=_("dusk's words and the ruleset's texts in this language (en, zh, es, pt-BR, ...; "
                             "default: DUSK_LANG, else the locale's, else English); where a text has "
                             "none: its base language (pt for pt-BR), then English, then its first language"))


def _table_options(parser: argparse.ArgumentParser) -> None:
    _language_option(parser)
    parser.add_argument("--ascii", action="store_true", help=_("ASCII symbols and boxes only"))
    parser.add_argument("--dice", choices=("manual", "auto"),
                        help=_("manual: real dice, every roll the game needs asks for the faces rolled; auto: the "
                             "game rolls (play: auto unless said; resume: as the session was unless said)"))
    parser.add_argument("-c", metavar="COMMANDS", help=_('run these commands ("round; round; state") and leave'))
    parser.add_argument("--script", metavar="FILE", help=_("run the commands of FILE, one a line, and leave"))


RECORDS_HELP = N_("write a row per game to FILE: .parquet (needs pyarrow: pip install 'dusk[data]'), .csv or .jsonl; "
                "the same rows whatever --workers")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse_words.Parser(
        prog="dusk",
        description=_("A rules-as-data engine for dice games: YAML rulesets, one dice language, one engine."),
    )
    parser.add_argument("--version", action="version", version=f"dusk {dusk.__version__}",
                        help=_("show dusk's version and exit"))
    # --lang before the command too (`dusk --lang zh --help`); the command's own --lang wins.
    parser.add_argument("--lang", type=language_code, metavar="CODE", dest="top_lang",
                        help=_("dusk's words in this language (en, zh, es, ...; default: DUSK_LANG, else the "
                               "locale's, else English)"))
    # Each command's arguments are made when it is parsed (argparse_words.CommandParser). The prog of
    # the commands' usage, argparse's own (`dusk`: the top has no positional argument before the
    # command), is given: argparse would make a formatter to write it, asking the terminal's width.
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=argparse_words.CommandParser,
                                prog=parser.prog)
    sub.required = True

    roll = sub.add_parser(
        "roll", help=_("roll one dice expression, every die shown"),
        description=_("Roll one expression of the dice language and show every die. "
                    "Examples: 4d6kh3, 1d20rr<10, count(5d10, >= 6), unpair(8d6). "
                    "See docs/dice-language.md. The notations of Foundry VTT and Roll20 (10d10cs>=6df=1, "
                    "10d10>6f1, 1d20x, 2d6ro<2, 4d6min2, 3d6sd, ...) are read as dusk's own, and the roll says "
                    "what it read: the table is in docs/dice-language.md, 'Notations from other tools'."),
    )
    roll.add_argument("expression", metavar="EXPR",
                      help=_("the dice expression (quote it for the shell; one that starts with - is an expression "
                           "too: dusk roll \"-1d6\")"))
    roll.add_argument("--seed", type=int, help=_("seed the dice, so the same seed gives the same roll"))
    roll.add_argument("--json", action="store_true", help=_("print one JSON object (documented, stable)"))
    roll.add_argument("--ascii", action="store_true", help=_("ASCII symbols only"))
    _language_option(roll)
    roll.set_defaults(handler=cmd_roll)

    prob_ = sub.add_parser(
        "prob", help=_("the exact odds of dice expressions (or a seeded estimate, said to be one)"),
        description=_("Every value of each expression with its chance, P(>=x) and P(<=x), a bar, the mean and "
                    "standard deviation: exact where every part of the language has an exact form, else a "
                    "seeded estimate, said on the first line. Examples: 'count(7d10, >= 8)', "
                    "'highest(cancel(unpair(5d6), 3d6), default=0)'. See docs/prob.md."),
    )
    prob_.add_argument("expressions", nargs="+", metavar="EXPR",
                       help=_("one or more dice expressions (asked together: a let's roll is shared by all)"))
    prob_.add_argument("--let", action="append", metavar="NAME=EXPR",
                       help=_("bind NAME to one evaluation of EXPR that later lets and every EXPR read (repeatable)"))
    prob_.add_argument("--ruleset", metavar="RULESET", help=_("read params.NAME from this ruleset (id or file)"))
    prob_.add_argument("--set", action="append", metavar="PARAM=VALUE", help=_("override a param of --ruleset"))
    prob_.add_argument("--grid", action="append", metavar="NAME=a..b",
                       help=_("a chart over one or two names (rows, then columns)"))
    prob_.add_argument("--at-least", type=int, metavar="K", help=_("a chart shows P(value >= K)"))
    prob_.add_argument("--at-most", type=int, metavar="K", help=_("a chart shows P(value <= K)"))
    prob_.add_argument("--depth", type=int, metavar="N",
                       help=_("follow explosions N deep (default: until a die's chance to explode again is "
                            "below one in a million)"))
    prob_.add_argument("--estimate", action="store_true", help=_("simulate even when an exact answer exists"))
    prob_.add_argument("--samples", type=int, default=10_000, metavar="N", help=_("rolls of an estimate (10000)"))
    prob_.add_argument("--seed", type=int, default=0, help=_("the seed of an estimate (0)"))
    prob_.add_argument("--json", action="store_true", help=_("print one JSON object (documented, stable)"))
    prob_.add_argument("--ascii", action="store_true", help=_("ASCII bars only"))
    _language_option(prob_)
    prob_.set_defaults(handler=cmd_prob)

    listing = sub.add_parser("list", help=_("the bundled rulesets"))
    _language_option(listing)
    listing.set_defaults(handler=cmd_list)

    check = sub.add_parser("check", help=_("validate rulesets: exit 1 and list every problem"),
                           description=_("Check ruleset files (or bundled ids): a one-line summary each, or every "
                                       "problem as file:line:col: message (at path.to.key)."))
    check.add_argument("files", nargs="*", metavar="FILE")
    check.add_argument("--sheets", nargs="+", metavar="PATH",
                       help=_("sheet files or folders to check against the ruleset (one ruleset FILE)"))
    check.add_argument("--playouts", type=int, metavar="N",
                       help=_("then play N games with random answers and report bounds hit, run-time errors "
                            "(both: exit 1), and what no game reached"))
    check.add_argument("--seed", type=int, default=0, help=_("the seed of the playouts (0)"))
    _language_option(check)
    check.set_defaults(handler=cmd_check)

    show = sub.add_parser("show", help=_("print a ruleset as written, or --resolved after extends:"))
    show.add_argument("ruleset", metavar="RULESET", help=_("a bundled id or a file"))
    show.add_argument("--resolved", action="store_true",
                      help=_("merge extends: and mark where each value comes from"))
    _language_option(show)
    show.set_defaults(handler=cmd_show)

    sim = sub.add_parser("simulate", help=_("play N whole games with the auto: answers and summarise them"),
                         description=_("Play N games of a ruleset with a game loop, answering every decision "
                                     "with its auto: expression; report results with their confidence intervals (95%), "
                                     "game length and the ruleset's report: values."))
    sim.add_argument("ruleset", metavar="RULESET", help=_("a bundled id or a file"))
    sim.add_argument("-n", type=int, required=True, help=_("how many games"))
    sim.add_argument("--seed", type=int, default=0, help=_("the run's seed (game i uses a seed derived from it)"))
    sim.add_argument("--workers", type=int, default=1, help=_("processes to share the games (same report)"))
    sim.add_argument("--set", action="append", metavar="PARAM=VALUE", help=_("override a param (repeatable)"))
    sim.add_argument("--sheets", nargs="+", metavar="PATH",
                     help=_("sheet files, or folders of them: instances every game starts with (as dusk play "
                          "--sheets), checked against the ruleset's sheet: template"))
    sim.add_argument("--sweep", action="append", metavar="PARAM=a..b",
                     help=_("play N games for every value (PARAM=a..b or PARAM=a,b,c; twice: every combination), "
                          "on the same seeds"))
    sim.add_argument("--plot", metavar="FILE", help=_("with --sweep: draw the main result to FILE (.png or .svg; "
                                                    "needs matplotlib: pip install 'dusk[plot]')"))
    sim.add_argument("--json", action="store_true", help=_("print one JSON object (documented, stable)"))
    sim.add_argument("--records", metavar="FILE", help=_(RECORDS_HELP))
    sim.add_argument("--backend", choices=("auto", "lockstep", "untraced"), default="auto",
                     help=_("lockstep: many games at once (numpy); untraced: one game at a time; auto (the default): "
                          "lockstep when every construct the ruleset uses has a vector form"))
    _language_option(sim)
    sim.set_defaults(handler=cmd_simulate)

    comp = sub.add_parser("compare", help=_("two rulesets on the same per-game seeds: the differences and their odds"),
                          description=_("Play N games of each ruleset on the same per-game seeds (a game and its "
                                      "house rule, say) and show each result's rate in both, the difference B - A "
                                      "with its interval (95%) from the paired games, and whether it is "
                                      "significant; the mean length and report values the same way."))
    comp.add_argument("a", metavar="RULESET_A", help=_("a bundled id or a file"))
    comp.add_argument("b", metavar="RULESET_B", help=_("a bundled id or a file"))
    comp.add_argument("-n", type=int, required=True, help=_("how many games of each"))
    comp.add_argument("--seed", type=int, default=0, help=_("the run's seed (game i of both uses a seed derived from it)"))
    comp.add_argument("--workers", type=int, default=1, help=_("processes to share the games (same report)"))
    comp.add_argument("--set", action="append", metavar="PARAM=VALUE", help=_("override a param of both (repeatable)"))
    comp.add_argument("--json", action="store_true", help=_("print one JSON object (documented, stable)"))
    comp.add_argument("--records", metavar="FILE", help=_(RECORDS_HELP) + _(" (one row per pair of games: _a and _b)"))
    _language_option(comp)
    comp.set_defaults(handler=cmd_compare)

    play = sub.add_parser("play", help=_("play a game at the table (the REPL)"),
                          description=_("Open the table on a ruleset: its actions, decisions and status, "
                                      "every die shown, every command saved."))
    play.add_argument("ruleset", nargs="?", metavar="RULESET",
                      help=_("a bundled id or a file (default: the one named in rulesets/DEFAULT)"))
    play.add_argument("--seed", type=int, help=_("seed the dice (default: a fresh seed, shown and saved)"))
    play.add_argument("--set", action="append", metavar="PARAM=VALUE", help=_("override a param (repeatable)"))
    play.add_argument("--save", metavar="PATH", help=_("the session file (default: in the data dir)"))
    play.add_argument("--sheets", nargs="+", metavar="PATH",
                      help=_("sheet files, or folders of them (characters/): instances the game starts with, checked "
                           "against the ruleset's sheet: template"))
    _table_options(play)
    play.set_defaults(handler=cmd_play)

    sessions = sub.add_parser("sessions", help=_("the saved sessions, the last played first"),
                              description=_("List the sessions saved in the data dir: when each was last played "
                                          "and started, its ruleset, its turns and its file; * marks the one "
                                          "dusk resume continues."))
    _language_option(sessions)
    sessions.set_defaults(handler=cmd_sessions)

    resume = sub.add_parser("resume", help=_("continue a saved session (default: the last one played at the prompt)"))
    resume.add_argument("path", nargs="?", metavar="PATH", help=_("the session file"))
    resume.add_argument("--force", action="store_true",
                        help=_("resume even though the ruleset changed since the session was saved (the game goes "
                             "on under the ruleset as it is now)"))
    _table_options(resume)
    resume.set_defaults(handler=cmd_play)

    serve = sub.add_parser("serve", help="serve a game to the GM's and the players' phones (docs/serve.md)",
                           description="The table for the whole group: a web server over one game, the GM on one "
                                       "screen and each player on their own; it prints the GM's link and the "
                                       "players' join link, each with a QR code.")
    serve.add_argument("ruleset", nargs="?", metavar="RULESET",
                       help="a bundled id or a file (default: the one named in rulesets/DEFAULT)")
    serve.add_argument("--resume", nargs="?", const="", metavar="SESSION",
                       help="serve a saved session (default: the last one played)")
    serve.add_argument("--force", action="store_true",
                       help="with --resume: even though the ruleset changed since the session was saved")
    serve.add_argument("--seed", type=int, help="seed the dice (default: a fresh seed, shown and saved)")
    serve.add_argument("--set", action="append", metavar="PARAM=VALUE", help="override a param (repeatable)")
    serve.add_argument("--save", metavar="PATH", help="the session file (default: in the data dir)")
    serve.add_argument("--sheets", nargs="+", metavar="PATH", help="sheet files, or folders of them")
    _language_option(serve)
    serve.add_argument("--dice", choices=("manual", "auto"),
                       help="manual: real dice, every roll the game needs asks for the faces rolled; auto: the "
                            "game rolls")
    serve.add_argument("--port", type=int, default=8765, help="the port (8765; 0: any free one)")
    serve.add_argument("--host", default="127.0.0.1",
                       help="the address to listen on (127.0.0.1: this computer only; 0.0.0.0: every network "
                            "it is on, so phones on the same Wi-Fi can join)")
    serve.set_defaults(handler=cmd_serve)
    return parser


def expressions_are_not_options(argv: list[str]) -> list[str]:
    """`dusk roll "-1d6"`: an expression may start with '-', which argparse would take for an option.
    Any such word given to `roll` that is not one of its options is put after '--', where every word
    is an argument (unless the line already has a '--': then it says what it means)."""
    if not argv or argv[0] != "roll" or "--" in argv:
        return argv
    kept, moved = ["roll"], []
    words = iter(argv[1:])
    for word in words:
        if word == "--seed":                 # its value may be negative: -3 is a seed, not an expression
            kept += [word, next(words, "")]
        elif word.startswith("-") and not word.startswith("--") and word != "-h" and len(word) > 1:
            moved.append(word)
        else:
            kept.append(word)
    return kept + (["--", *moved] if moved else [])


def main(argv: list[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    # The language first: the help and argparse's own errors speak it too (argparse_words).
    i18n.set_language(i18n.choose(argparse_words.language_asked(words)))
    argparse_words.install()
    parser = build_parser()
    args = parser.parse_args(expressions_are_not_options(words))
    if getattr(args, "lang", None) is None and args.top_lang is not None:
        args.lang = args.top_lang           # `dusk --lang zh play ...`: as if given to the command
    i18n.set_language(i18n.choose(getattr(args, "lang", None)))
    try:
        return args.handler(args)
    except KeyboardInterrupt:
        print(_("dusk: interrupted (Ctrl-C)"), file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception:  # noqa: BLE001 - a bug: logged with its traceback, one line shown
        from ruleset_engine.repl.journal import log_bug

        where = log_bug(f"dusk {' '.join(sys.argv[1:] if argv is None else argv)}")
        print(_("dusk: something went wrong inside dusk (a bug); {where}").format(where=where), file=sys.stderr)
        return 70


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
