"""`dusk check` on random rulesets and random mutations: refused with every problem located, or
accepted, and then it runs in both modes without a bug (what check accepts must run).

`make fuzz` (DUSK_FUZZ_SCALE=20) runs twenty times more examples, for a longer hunt."""

import os
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ruleset_engine.analysis.simulate import play_game, simulation_program
from ruleset_engine.errors import DuskError
from ruleset_engine.ruleset import RulesetError, load
from ruleset_engine.runtime import Game, resolve_params

pytestmark = pytest.mark.fuzz
SCALE = int(os.environ.get("DUSK_FUZZ_SCALE", "1"))   # make fuzz: many times more examples

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [p for p in sorted((ROOT / "tests" / "rulesets").glob("*.yaml")) + sorted((ROOT / "rulesets").rglob("*.yaml"))
           if re.search(r"^ruleset:", p.read_text("utf-8"), re.MULTILINE)]     # not a ruleset's chapters or sheets
TEXTS = [p.read_text("utf-8") for p in SOURCES]
JUNK = ["", " ", "-", ":", "{", "}", "[", "]", "'", '"', "#", "&a", "*a", "!", ">= 6", "yes", "1:30", "\t",
        "steps:", "- if: x", "then: []", "0", "-1", "1.5", "~", "null", "count(", "d6", "params.", "x."]


def check(tmp_path, text):
    """Load a ruleset: refused with every problem located, or accepted and then it runs."""
    path = tmp_path / "mutant.yaml"
    path.write_text(text, encoding="utf-8")
    try:
        ruleset = load(str(path))
    except RulesetError as err:
        assert err.problems
        for problem in err.problems:
            assert problem.position is not None, str(problem)
            assert problem.message and "Traceback" not in str(problem)
        return
    runs_in_both_modes(ruleset)


TURNS = 12


def runs_in_both_modes(ruleset):
    """What check accepts runs: at the table (traced) and in a simulation (untraced), a few turns with
    the automatic answers, ending well or with an error for people (a DuskError that is no bug)."""
    for seed in (1, 2):
        try:
            game = Game.start(ruleset, {}, seed=seed, auto=True)
            for _ in range(TURNS):
                playable = [a for a in game.actions() if all(p.default is not None for p in a.params.values())]
                if game.over or not playable:
                    break
                action = next((a for a in playable if a.plays_level), playable[seed % len(playable)])
                game.perform(action.name)
        except DuskError as err:
            assert "a bug in dusk" not in str(err), str(err)
        try:
            play_game(simulation_program(ruleset, resolve_params(ruleset, {})), seed, max_rounds=TURNS)
        except DuskError as err:
            assert "a bug in dusk" not in str(err), str(err)


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
@settings(max_examples=150 * SCALE, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(0, len(TEXTS) - 1), st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 4),
                                                           st.sampled_from(JUNK)), min_size=1, max_size=4))
def test_mutated_rulesets_are_accepted_or_located(tmp_path, which, edits):
    lines = TEXTS[which].splitlines()
    for where, how, junk in edits:
        i = where % max(1, len(lines))
        if how == 0 and lines:
            del lines[i]
        elif how == 1 and lines:
            lines.insert(i, lines[i])
        elif how == 2 and lines:
            lines[i] = lines[i] + junk
        elif how == 3 and lines:
            line = lines[i]
            cut = where % (len(line) + 1)
            lines[i] = line[:cut] + junk + line[cut:]
        else:
            lines.insert(i, junk)
    check(tmp_path, "\n".join(lines) + "\n")


names = st.sampled_from(["x", "n", "life", "params.a", "loop.round", "p.dice", "hand", "y"])
formulas = st.one_of(names, st.sampled_from(["1", "x + 1", "count(3d6, >= 5)", "2d6", "x >", "size(hand)", "true",
                                              "x * x", "x + x", "[hand, hand]", "n // 0", "(x)d6"]))
simple_steps = st.one_of(
    st.builds(lambda n, f: {"set": {n: f}}, names, formulas),
    st.builds(lambda n, f: {"let": {n: f}}, st.sampled_from(["hand", "k"]), formulas),
    st.builds(lambda f: {"if": f, "then": [{"say": "yes {x}"}]}, formulas),
    st.builds(lambda f: {"repeat": {"while": f, "max": 1000000000}, "do": []}, formulas),
    st.builds(lambda f: {"return": f}, formulas),
    st.just({"note": {"words": "{words}{words}"}}),
    st.just({"end": "round"}),
    st.just({"call": "proc"}),
)
# Blocks inside blocks: repeats whose count is a formula, around any of the above (values that grow).
steps = st.recursive(st.lists(simple_steps, max_size=5), lambda inner: st.lists(st.one_of(
    simple_steps, st.builds(lambda f, body: {"repeat": {"times": f}, "do": body}, formulas, inner)), max_size=4),
    max_leaves=12)


@settings(max_examples=100 * SCALE, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps, st.booleans(), st.dictionaries(st.sampled_from(["x", "n", "life"]), formulas, max_size=3))
def test_random_small_rulesets_are_accepted_or_located(tmp_path, body, with_loop, state):
    import json

    data = {"ruleset": "random", "title": "Random", "state": {**(state or {"x": 0}), "words": {"text": "ab"}},
            "params": {"a": {"type": "integer", "default": 1}},
            "actions": {"go": {"steps": body}}}
    if with_loop:
        data["loop"] = [{"name": "round", "max": 5, "steps": body}]
    check(tmp_path, json.dumps(data))   # JSON is YAML
