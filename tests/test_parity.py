"""Both modes of the one run path play the same games: every ruleset in the tree, found by glob.

For each ruleset (bundled, house rules, tests/rulesets), each variant of its params (every
choice, both truth values) and many seeds, the traced mode (the table's Game) and the untraced
mode (what `dusk simulate` runs) play the same actions with the ruleset's automatic answers, and
must end the same: the same result, the same report, the same error if one fails, and, when none
does, the same values and the dice source in the same state. (A failed action at the table is
rolled back, a simulation's game simply stops, so their values are compared only when neither
failed. A simulation writes no note that nothing reads: those places are left out of the values.)
"""

import random
import re
from pathlib import Path

import pytest

from ruleset_engine.analysis.simulate import game_seed, play_game, simulation_program
from ruleset_engine.errors import DuskError
from ruleset_engine.ruleset import load
from ruleset_engine.runtime import DEFAULT_RUN_LIMITS, Game, resolve_params
from ruleset_engine.runtime.program import build
from ruleset_engine.runtime.run import Run

ROOT = Path(__file__).resolve().parents[1]
# A ruleset is a file with a top-level ruleset: (its chapters and sheets, in folders beside it, have none).
FOUND = sorted(p for p in list((ROOT / "rulesets").rglob("*.yaml")) + list((ROOT / "tests" / "rulesets").glob("*.yaml"))
               if re.search(r"^ruleset:", p.read_text("utf-8"), re.MULTILINE))
SEEDS = 25
MIN_SEEDS = 3          # every case plays at least these seeds, and more until TURN_BUDGET turns are played
TURN_BUDGET = 1_500
MAX_TURNS = 400


def variants(ruleset):
    """The defaults, and each choice and truth value of each param on its own."""
    out = [{}]
    for name, param in ruleset.params.items():
        if param.type == "choice":
            out += [{name: c} for c in param.choices if c != param.default]
        elif param.type == "boolean":
            out.append({name: not param.default})
    return out


def whole_games_end_soon(ruleset) -> bool:
    """A game whose loop a simulation can play to its end here: not a toolkit's clock, whose levels
    (nights, scenes, turns, each bound at thousands) only count what the Storyteller's actions do."""
    rounds = 1
    for level in ruleset.loop:
        rounds *= level.max if level.max is not None else 1000
    return rounds <= 100_000


def script(ruleset):
    """What to play: the loop action until the game ends, or (no loop, or a toolkit's clock) each action
    with its defaults, in turn."""
    def defaults(action):      # a default that is a formula is left for each mode to read
        return {k: p.default for k, p in action.params.items() if not hasattr(p.default, "expr")}

    loop = [a for a in ruleset.actions.values() if a.plays_level]
    if loop and whole_games_end_soon(ruleset):
        return [(loop[0].name, defaults(loop[0]))] * MAX_TURNS
    playable = [(name, defaults(a)) for name, a in ruleset.actions.items()
                if all(p.default is not None for p in a.params.values())]
    return playable * 4


def noted(ruleset) -> set:
    """The last parts of the places note steps write (a simulation may leave them unwritten): the
    texts each step keeps, as its kind's entry says (ruleset/walk.py)."""
    from ruleset_engine.ruleset import walk

    return {target[-1] for step in walk.all_steps(ruleset) for target, _ in walk.kind_of(step).texts(step)}


def plain(value, skip=frozenset()):
    """Values as JSON sees them, the places in `skip` left out."""
    if isinstance(value, dict):
        return {k: plain(v, skip) for k, v in value.items() if k not in skip}
    if isinstance(value, (list, tuple)):
        return [plain(v, skip) for v in value]
    return value


def traced(ruleset, params, seed, turns, played=None):
    """The table's game; `played` (a list), when given, gets the number of turns it took."""
    game = Game.start(ruleset, params, seed=seed, auto=True)
    if played is not None:
        played.append(game)
    try:
        for name, args in turns:
            if game.over:
                break
            game.perform(name, **args)
        error = None
    except DuskError as err:
        error = str(err)
    if error is not None:
        return game.over, game.result, None, None, None, error
    report = game.report() if ruleset.report else None
    return game.over, game.result, report, plain(game.values, noted(ruleset)), game.rng.getstate(), error


def untraced(ruleset, params, seed, turns, program):
    rng = random.Random(seed)
    run = Run(traced=False, auto=True, max_steps=DEFAULT_RUN_LIMITS.max_steps,
              max_depth=DEFAULT_RUN_LIMITS.max_call_depth)
    entry = program.bind(rng.randint, run)
    error = None
    try:
        entry["start"]()
        for name, args in turns:
            if run.over:
                break
            entry["perform"](name, dict(args))
    except Exception as err:   # noqa: BLE001 - located as the table locates it, then compared
        error = str(program.locate(err))
    if error is not None:
        return run.over, run.result, None, None, None, error
    report = entry["report"]() if ruleset.report else None
    return run.over, run.result, report, plain(entry["values"](), noted(ruleset)), rng.getstate(), error


CASES = [(path, variant) for path in FOUND for variant in variants(load(str(path)))]
NAMES = [f"{p.stem}-{'-'.join(f'{k}={v}' for k, v in v.items()) or 'defaults'}" for p, v in CASES]


@pytest.mark.parametrize("path, variant", CASES, ids=NAMES)
def test_both_modes_play_the_same_games(path, variant):
    ruleset = load(str(path))
    params = resolve_params(ruleset, variant)
    turns = script(ruleset)
    program = build(ruleset, params, traced=False, run_limits=DEFAULT_RUN_LIMITS)
    games: list = []
    for i in range(SEEDS):
        seed = game_seed(17, i)
        table = traced(ruleset, params, seed, turns, games)
        simulation = untraced(ruleset, params, seed, turns, program)
        assert simulation == table, f"seed {seed}"
        if i >= MIN_SEEDS - 1 and sum(game.turn for game in games) >= TURN_BUDGET:
            break      # long games (a night of 250 conflicts) play fewer seeds, each turn still compared


def test_every_ruleset_in_the_tree_is_covered():
    names = {p.stem for p in FOUND}
    assert {"attack-of-the-vampires", "attack-keep-sets", "pool-conflict", "success-pool", "parity-edges"} <= names


def test_an_action_that_fails_fails_alike_in_both_modes():
    """The wild variant of parity-edges meets a text whose placeholder fails, in some games: both
    modes stop those games with the same located error."""
    path = ROOT / "tests" / "rulesets" / "parity-edges.yaml"
    ruleset = load(str(path))
    params = resolve_params(ruleset, {"mode": "wild"})
    program = build(ruleset, params, traced=False, run_limits=DEFAULT_RUN_LIMITS)
    failed = 0
    for i in range(40):
        table = traced(ruleset, params, game_seed(5, i), script(ruleset))
        assert untraced(ruleset, params, game_seed(5, i), script(ruleset), program) == table
        failed += table[5] is not None and "of an empty pool" in table[5]
    assert failed >= 3, "too few games met the failing text to test anything"


@pytest.mark.parametrize("path", [p for p in FOUND if any(a.plays_level for a in load(str(p)).actions.values())
                                  and whole_games_end_soon(load(str(p)))], ids=lambda p: p.stem)
def test_the_simulation_loop_plays_the_games_of_the_table(path):
    """`dusk simulate`'s own loop (play) against the table, turn by turn, with the default params."""
    ruleset = load(str(path))
    params = resolve_params(ruleset, {})
    program = simulation_program(ruleset, params)
    loop = [name for name, a in ruleset.actions.items() if a.plays_level][0]
    for i in range(SEEDS):
        seed = game_seed(23, i)
        result, rounds, report, rng = play_game(program, seed)
        game = Game.start(ruleset, params, seed=seed, auto=True)
        turns = 0
        while not game.over:
            game.perform(loop)
            turns += 1
        assert (result, rounds, report, rng.getstate()) == (game.result, turns, game.report(), game.rng.getstate())
