"""Named formulas (`formulas:`): called from any formula, at the table and by dusk prob, their
misuse refused at load, located. Every expected value below is worked out by hand."""

import random
import subprocess
import sys
import textwrap
from fractions import Fraction
from pathlib import Path

import pytest

import ruleset_engine as dusk
from ruleset_engine.analysis import prob
from ruleset_engine.dice import ScriptedDice
from ruleset_engine.ruleset import RulesetError, load

RULESET = Path(__file__).resolve().parents[1] / "rulesets" / "named-formulas.yaml"


@pytest.fixture(scope="module")
def book():
    return load(str(RULESET)).formulas


def value_both_ways(text, book, faces, env=None):
    """The value in the traced mode and in the untraced mode, each from its own copy of the faces,
    both of which must use up every face (a formula that rolled its argument twice would run out)."""
    env = env or {"params": {"ones_cancel": True}}
    traced_dice, plain_dice = ScriptedDice(faces), ScriptedDice(faces)
    traced = dusk.roll(text, rng=traced_dice, env=env, formulas=book).value
    plain = dusk.compile(text, formulas=book).plain(plain_dice, env)
    assert traced_dice.getstate() == plain_dice.getstate() == len(faces)
    return traced, plain


def test_a_call_reads_its_arguments_and_the_params(book):
    # hits: 6, 7, 10 are >= 6 (3); one 1 takes one away: 2. Without ones_cancel: 3.
    assert value_both_ways("success([1, 6, 7, 10], 6)", book, []) == (2, 2)
    assert value_both_ways("success([1, 6, 7, 10], 6)", book, [], {"params": {"ones_cancel": False}}) == (3, 3)
    # never below 0: no hits, two 1s
    assert value_both_ways("success([1, 1, 3], 6)", book, []) == (0, 0)
    assert value_both_ways("half(7) + half(-3)", book, []) == (3 + -2,) * 2


def test_an_argument_that_rolls_is_rolled_once(book):
    # success reads its pool three times (hits, the 1s, through hits again): three faces are enough.
    assert value_both_ways("success(3d10, 6)", book, [6, 1, 9]) == (1, 1)
    assert value_both_ways("botch(2d10, 6) and half(1d6) == 2", book, [1, 4, 5]) == (True, True)


def test_a_call_in_a_game_plays_the_same_in_both_modes():
    ruleset = load(str(RULESET))
    # round 1: pool (2 + half(1))d10 = 2d10 -> 6, 1: one hit, one 1: 0; no botch (a hit);
    # bonus success(2d10, 8) -> 8, 10: 2. Total 2.
    game = dusk.Game.start(ruleset, rng=ScriptedDice([6, 1, 8, 10]))
    game.perform("round")
    assert game.values["total"] == 2 and game.values["last"] == 0 and game.values["botches"] == 0
    assert game.status() == "Round 2: 0 successes, half the total 1"
    assert game.report()["half_total"] == 1


def test_prob_answers_a_named_formula_exactly(book):
    # success(2d10, 6): two hits 1/4; one hit and a 2..5 (2 * 5/10 * 4/10) 2/5; else 0.
    answer = prob.ask(["success(2d10, 6)"], env={"params": {"ones_cancel": True}}, formulas=book)
    assert answer.exact
    assert answer.questions[0].chances == [(0, Fraction(7, 20)), (1, Fraction(2, 5)), (2, Fraction(1, 4))]


def test_dusk_prob_reads_a_rulesets_formulas():
    out = subprocess.run([sys.executable, "-m", "ruleset_engine", "prob", "--ruleset", str(RULESET), "--json",
                          "success(2d10, 6)"], capture_output=True, text=True, check=True).stdout
    assert '"p": "1/4"' in out and '"p": "7/20"' in out


def test_a_body_that_fails_when_it_runs_says_so_in_its_own_text(book):
    with pytest.raises(dusk.DiceError) as info:
        dusk.compile("half(x)", formulas=book).plain(random.Random(1), {"x": "a word"})
    assert "(in the formula half(n))" in info.value.message
    assert info.value.caret_lines() == ["  n // 2", "  ^"]


# ---- refused at load, located ----------------------------------------------------------------

HEAD = "ruleset: t\ntitle: T\nparams: {diff: {type: integer, default: 6}}\nstate: {x: 0}\n"


def problems(tmp_path, text):
    (tmp_path / "r.yaml").write_text(HEAD + textwrap.dedent(text), encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        load(str(tmp_path / "r.yaml"))
    return [str(p) for p in info.value.problems]


def test_a_formula_that_calls_itself_is_refused(tmp_path):
    found = problems(tmp_path, """\
        formulas:
          again: {params: [n], formula: "again(n - 1)"}
          ping: {params: [n], formula: "pong(n) + 1"}
          pong: {params: [n], formula: "ping(n)"}
        """)
    assert any("r.yaml:6:34: the formula again calls itself; a named formula may not" in p for p in found), found
    assert any("the formula ping calls itself (through pong)" in p for p in found), found
    assert any("the formula pong calls itself (through ping)" in p for p in found), found


def test_a_formula_reads_only_its_parameters_and_params(tmp_path):
    found = problems(tmp_path, """\
        formulas:
          bad: {params: [n], formula: "n + x + params.dif"}
        """)
    assert any("r.yaml:6:36: a named formula reads only its parameters (n) and params.NAME, not 'x'" in p
               for p in found), found
    assert any("unknown param 'params.dif' (did you mean 'diff'?)" in p for p in found), found


def test_names_that_cannot_be(tmp_path):
    found = problems(tmp_path, """\
        formulas:
          count: {params: [n], formula: "n"}
          d: {formula: "1"}
          two: {params: [a, a], formula: "a"}
          side: {params: [p], formula: "size(aside(p))"}
        """)
    assert any("the formula 'count' has the name of a function of the dice language" in p for p in found), found
    assert any("the parameter 'a' is named twice" in p for p in found), found
    assert any("d(..) would read as dice, not a call: rename the formula" in p for p in found), found
    assert any("a named formula cannot call aside(..)" in p for p in found), found


def test_calls_are_checked_where_they_are_written(tmp_path):
    found = problems(tmp_path, """\
        formulas:
          hits: {params: [pool, diff], formula: "count(pool, >= diff)"}
        setup:
          - set: {x: "hits(3)"}
          - set: {x: "hits(3, 6)"}
          - set: {x: "hit(3d6, 6)"}
        """)
    assert any("r.yaml:8:15: hits(pool, diff) takes 2 arguments, not 1" in p for p in found), found
    assert any("r.yaml:9:15: hits(pool, diff): count(..) needs a pool of dice" in p for p in found), found
    assert any("unknown function 'hit' (did you mean hits?)" in p for p in found), found


def test_a_formula_that_rolls_is_refused_where_nothing_may_roll(tmp_path):
    found = problems(tmp_path, """\
        formulas:
          tens: {params: [n], formula: "(n)d10"}
        report: {r: "1 + tens(2)"}
        """)
    assert any("r.yaml:7:18: this formula is read at any time" in p for p in found), found


def test_the_table_completes_and_explains_formulas():
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    from ruleset_engine.repl.completer import TableCompleter
    from tests.repl.conftest import make_repl, run

    repl, out = make_repl(str(RULESET))
    found = [c.text for c in TableCompleter(repl).get_completions(Document("roll succ"),
                                                                   CompleteEvent(completion_requested=True))]
    assert found == ["success"]
    shown = run(repl, out, "help formulas")
    assert "success(pool, diff)" in shown and "= n // 2" in shown
    shown = run(repl, out, "roll success([1, 6, 7, 10], 6)")
    assert "2" in shown
