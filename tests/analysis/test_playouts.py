"""dusk check --playouts: random answers on the program written with coverage find what goes
wrong in play, each at its line of the file."""

import random
import subprocess
import sys
from pathlib import Path

from ruleset_engine.analysis.playouts import RandomAnswers, playouts
from ruleset_engine.ruleset import load
from ruleset_engine.runtime import DEFAULT_RUN_LIMITS, resolve_params
from ruleset_engine.runtime.decisions import Decision
from ruleset_engine.runtime.program import build

BROKEN = Path(__file__).parent / "rulesets" / "broken-in-play.yaml"


def lines(found, kind):
    return sorted(f.where.line for f in found.findings if f.kind == kind)


def test_playouts_catch_the_dead_branch_the_row_the_endless_loop_and_the_unread_answer():
    found = playouts(str(BROKEN), 30, seed=1)
    assert lines(found, "bound") == [40]          # the repeat that cannot end (only when the answer is stay)
    assert lines(found, "unreached") == [34]      # then: of `if: sum(d) > 6`
    assert lines(found, "row") == [12]            # the row "7.." of a 1d6 lookup
    assert lines(found, "result") == [44]         # jackpot
    assert lines(found, "unread") == [24]         # the answer `sure`
    assert lines(found, "error") == [] and found.failed
    bound = next(f for f in found.findings if f.kind == "bound")
    assert "more than 100,000 steps" in str(bound) and "game seed" in str(bound)
    assert str(bound).startswith(f"{BROKEN}:40:13: safety bound: ")


def test_a_sound_game_has_no_problems_and_the_same_seed_the_same_report():
    one = playouts("attack-of-the-vampires", 40, seed=4)
    assert not one.failed
    assert one.to_text() == playouts("attack-of-the-vampires", 40, seed=4).to_text()


def test_a_loop_that_runs_to_its_max_without_a_result_is_a_safety_bound(tmp_path):
    path = tmp_path / "idle.yaml"
    path.write_text("ruleset: idle\ntitle: Idle\nstate: {n: 0}\nloop:\n  - name: round\n    max: 5\n"
                    "    steps:\n      - set: {n: n + 1}\nend:\n  - {when: n > 10, result: won}\n")
    found = playouts(str(path), 3)
    bound = [f for f in found.findings if f.kind == "bound"]
    assert [f.where.line for f in bound] == [5] and "ran to its max: 5" in bound[0].message and found.failed


def test_random_answers_are_valid_and_cover_what_is_allowed():
    answers = RandomAnswers()
    answers.rng = random.Random(1)
    choice = Decision(id="q", var="w", kind="choice", prompt="", choices=("a", "b", "c"))
    assert {answers(choice, "a") for _ in range(200)} == {"a", "b", "c"}
    number = Decision(id="q", var="k", kind="number", prompt="", min=2, max=4)
    assert {answers(number, 2) for _ in range(200)} == {2, 3, 4}
    yes_no = Decision(id="q", var="y", kind="yes_no", prompt="")
    assert {answers(yes_no, True) for _ in range(100)} == {True, False}


def test_coverage_is_a_mode_of_the_writer_that_the_normal_modes_never_write():
    ruleset = load("attack-of-the-vampires")
    params = resolve_params(ruleset, {})
    covered = build(ruleset, params, traced=False, run_limits=DEFAULT_RUN_LIMITS, coverage=True)
    plain = build(ruleset, params, traced=False, run_limits=DEFAULT_RUN_LIMITS)
    traced = build(ruleset, params, traced=True, run_limits=DEFAULT_RUN_LIMITS, coverage=True)
    assert "_reached(" in covered.source
    assert "_reached(" not in plain.source and "_reached(" not in traced.source
    assert covered.source.replace("\n", "").count("_reached(") >= len(covered.sites) > 20


def test_the_command_exits_1_on_a_problem_and_2_on_a_bad_count(tmp_path):
    run = [sys.executable, "-m", "ruleset_engine", "check"]
    out = subprocess.run(run + [str(BROKEN), "--playouts", "10"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 1 and ":40:13: safety bound:" in out.stdout and "1 problem, 4 warnings" in out.stdout
    bad = subprocess.run(run + [str(BROKEN), "--playouts", "0"], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr


def test_a_text_question_is_answered_by_its_auto_text():
    # Random answers once treated a text question as a number (and so failed every game that asks one).
    asked = Decision("x", "words", "text", min=1, max=20)
    assert RandomAnswers()(asked, "Ana") == "Ana"
    found = playouts(str(Path(__file__).parents[1] / "rulesets" / "table-sheets.yaml"), 20, seed=3)
    assert lines(found, "error") == []


def test_the_docs_say_what_random_playouts_answer_to_a_text_question():
    # A designer reads what a playout types for words: the docs of the playouts and of ask: say it.
    docs = Path(__file__).parents[2] / "docs"
    simulate = " ".join((docs / "simulate.md").read_text(encoding="utf-8").split())
    assert "A text question is the exception: it is answered with its `auto:` text, rendered for that game" \
        in simulate
    rulesets = " ".join((docs / "rulesets.md").read_text(encoding="utf-8").split())
    assert "answer a text question with its `auto:` text too" in rulesets
    # ... and the playouts do what they say: the auto: text, whatever the generator's state.
    answers = RandomAnswers()
    answers.rng.random()
    assert answers(Decision("x", "words", "text", min=1, max=20), "Beto") == "Beto"


def test_playouts_of_a_ruleset_whose_games_cannot_end_say_so_at_once(tmp_path, monkeypatch):
    """Every game of a clock of 200 x 100 x 60 rounds would play to the limit of 1,000,000 rounds
    (minutes each): the playouts say so at the loop as a safety bound and play no game."""
    import ruleset_engine.analysis.playouts as module

    path = tmp_path / "clock.yaml"
    path.write_text("ruleset: clock\ntitle: A clock\nstate: {n: 0}\nloop:\n  - {name: night, max: 200}\n"
                    "  - {name: scene, max: 100}\n  - name: turn\n    max: 60\n    steps:\n      - set: {n: n + 1}\n")

    def played(*args, **kwargs):
        raise AssertionError("a game was played")

    monkeypatch.setattr(module, "play_game", played)
    found = playouts(str(path), 3)
    assert [(f.kind, f.where.line) for f in found.findings] == [("bound", 5)] and found.failed
    assert "every game would go past 1,000,000 rounds" in found.findings[0].message
    assert "1,200,000 rounds (night 200 x scene 100 x turn 60)" in found.findings[0].message
