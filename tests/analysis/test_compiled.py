"""The compiled simulation path plays exactly the games the interpreter plays."""

import random

import pytest
from hypothesis import HealthCheck, given, settings

from ruleset_engine import dice
from ruleset_engine.analysis import fastlib
from ruleset_engine.analysis.compiled import CompiledGame, compile_ruleset
from ruleset_engine.analysis.fastlib import Fallback
from ruleset_engine.analysis.pysource import ANY, ExprSource, NotCovered
from ruleset_engine.analysis.simulate import game_seed, loop_action
from ruleset_engine.ruleset import load
from ruleset_engine.runtime import Game, resolve_params
from tests.dice.test_property import ENV, expressions
from tests.runtime.helpers import RULESETS

pytestmark = pytest.mark.filterwarnings("ignore:Generating overly large repr")

GAMES = [("attack-of-the-vampires", {}), ("attack-keep-sets", {}),
         (str(RULESETS / "pool-conflict.yaml"), {"ghosts": "1", "cancelled_to_pool": "true"}),
         (str(RULESETS / "search-and-kill.yaml"), {})]


def finish(game, play, action):
    rounds = 0
    while not game.over:
        play(action)
        rounds += 1
    return rounds


@pytest.mark.parametrize("source, given", GAMES)
def test_compiled_and_interpreted_games_end_the_same_way(source, given):
    ruleset = load(source)
    params = resolve_params(ruleset, given)
    compiled = compile_ruleset(ruleset, params)
    action = loop_action(ruleset)
    assert compiled.blocks, "nothing was compiled"
    for i in range(40):
        seed = game_seed(99, i)
        fast = CompiledGame.start_compiled(ruleset, params, seed, compiled)   # no Fallback expected
        fast_rounds = fast.play_to_end(action, 10**6) if i % 2 else finish(fast, fast.play_round, action)
        slow = Game.start(ruleset, params, seed, record=False, auto=True)
        slow_rounds = finish(slow, slow.perform, action)
        assert (fast.result, fast_rounds, fast.report()) == (slow.result, slow_rounds, slow.report()), f"game {i}"
        assert _plain(fast.values) == _plain(slow.values), f"game {i}"
        assert fast.rng.getstate() == slow.rng.getstate(), f"game {i} drew other dice"


def _plain(value):
    """Values as JSON sees them (the compiled path keeps pools as tuples, the interpreter as lists)."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def test_a_game_that_meets_something_unusual_is_played_by_the_interpreter(tmp_path):
    path = tmp_path / "odd.yaml"
    path.write_text("ruleset: odd\ntitle: Odd\nstate: {n: 0, x: 3}\nloop:\n  - name: round\n    max: 3\n"
                    "    steps: [{set: {n: \"n + x // (n - n)\"}}]\n")
    ruleset = load(str(path))
    params = resolve_params(ruleset, {})
    compiled = compile_ruleset(ruleset, params)
    game = CompiledGame.start_compiled(ruleset, params, 1, compiled)
    with pytest.raises(Fallback):
        game.play_round("round")        # division by zero: the interpreter will say so, located
    from ruleset_engine.analysis.simulate import SimulationError, play_range

    with pytest.raises(SimulationError, match="division by zero"):
        play_range(str(path), params, 1, 0, 1)


def _compiled_value(text, seed):
    expr = dice.compile(text)
    gen = ExprSource(lambda path: ("ENV" + "".join(f"[{p!r}]" for p in path), ANY))
    source, _kind = gen.gen(expr.tree)
    rng = random.Random(seed)
    namespace = {"_L": fastlib, "_R": rng.randint, "ENV": ENV}
    return eval(source, namespace), rng   # noqa: S307 - our own translation, in a test


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(expressions)
def test_random_expressions_give_the_same_value_and_draw_the_same_dice(text):
    try:
        expected = dice.roll(text, rng=random.Random(5), env=ENV)
    except dice.DiceError:
        return
    rng_after = random.Random(5)
    dice.roll(text, rng=rng_after, env=ENV)
    try:
        value, rng = _compiled_value(text, 5)
    except (NotCovered, Fallback):
        return
    raw = expected.raw
    got = sum(value) if isinstance(value, tuple) and not isinstance(raw, dice.Pool) else value
    if isinstance(raw, dice.Pool):
        assert tuple(raw.faces) == tuple(value), text
    else:
        assert raw == got, text
    assert rng.getstate() == rng_after.getstate(), text


def test_what_the_compiled_path_does_not_cover_runs_interpreted(tmp_path):
    path = tmp_path / "mixed.yaml"
    path.write_text(
        "ruleset: mixed\ntitle: Mixed\nstate: {n: 0, total: 0}\n"
        "loop:\n  - name: round\n    max: 20\n    steps:\n      - call: outer\n"
        "procedures:\n"
        "  outer: {steps: [{call: inner, with: {p: '[1, 1, 2]'}}]}\n"
        # aside() of a parameter: the compiled path cannot know what it set aside, the interpreter can
        "  inner: {params: [p], steps: [{set: {total: 'total + size(aside(p)) + 1d6'}}]}\n"
        "report: {total: total}\n")
    ruleset = load(str(path))
    params = resolve_params(ruleset, {})
    compiled = compile_ruleset(ruleset, params)
    round_steps = ruleset.actions["round"].steps
    assert id(round_steps) not in compiled.blocks          # it calls what is not covered
    assert "def p_outer" not in compiled.source and "def p_inner" not in compiled.source
    fast = CompiledGame.start_compiled(ruleset, params, 3, compiled)
    fast_rounds = fast.play_to_end("round", 100)
    slow = Game.start(ruleset, params, 3, record=False, auto=True)
    assert fast_rounds == finish(slow, slow.perform, "round") == 20
    assert fast.report() == slow.report()
