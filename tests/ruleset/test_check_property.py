"""`dusk check` on random rulesets and random mutations: accepted, or every problem located.

DUSK_PROPERTY_EXAMPLES=5000 runs more mutations than the default 150 (for a longer hunt)."""

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ruleset_engine.ruleset import RulesetError, load

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted((ROOT / "tests" / "rulesets").glob("*.yaml")) + sorted((ROOT / "rulesets").rglob("*.yaml"))
TEXTS = [p.read_text("utf-8") for p in SOURCES]
JUNK = ["", " ", "-", ":", "{", "}", "[", "]", "'", '"', "#", "&a", "*a", "!", ">= 6", "yes", "1:30", "\t",
        "steps:", "- if: x", "then: []", "0", "-1", "1.5", "~", "null", "count(", "d6", "params.", "x."]


def check(tmp_path, text):
    path = tmp_path / "mutant.yaml"
    path.write_text(text, encoding="utf-8")
    try:
        load(str(path))
    except RulesetError as err:
        assert err.problems
        for problem in err.problems:
            assert problem.position is not None, str(problem)
            assert problem.message and "Traceback" not in str(problem)


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
@settings(max_examples=int(__import__('os').environ.get('DUSK_PROPERTY_EXAMPLES', 150)), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
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
formulas = st.one_of(names, st.sampled_from(["1", "x + 1", "count(3d6, >= 5)", "2d6", "x >", "size(hand)", "true"]))
steps = st.lists(st.one_of(
    st.builds(lambda n, f: {"set": {n: f}}, names, formulas),
    st.builds(lambda n, f: {"let": {n: f}}, st.sampled_from(["hand", "k"]), formulas),
    st.builds(lambda f: {"if": f, "then": [{"say": "yes {x}"}]}, formulas),
    st.builds(lambda f: {"repeat": {"while": f}, "do": []}, formulas),
    st.builds(lambda f: {"return": f}, formulas),
    st.just({"end": "round"}),
    st.just({"call": "proc"}),
), max_size=5)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps, st.booleans(), st.dictionaries(st.sampled_from(["x", "n", "life"]), formulas, max_size=3))
def test_random_small_rulesets_are_accepted_or_located(tmp_path, body, with_loop, state):
    import json

    data = {"ruleset": "random", "title": "Random", "state": state or {"x": 0},
            "params": {"a": {"type": "integer", "default": 1}},
            "actions": {"go": {"steps": body}}}
    if with_loop:
        data["loop"] = [{"name": "round", "max": 5, "steps": body}]
    check(tmp_path, json.dumps(data))   # JSON is YAML
