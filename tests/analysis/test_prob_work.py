"""dusk prob bounds its work, not only its dice (issue 24, 3 and 7): the size of an exact computation
is estimated before it is done, and past ExactLimits.max_work (or a die of more faces than
max_faces) the odds are estimated, the first line saying why; an estimate's dice are bounded too,
refused up front from its first samples. Each case below once ran past a minute, ended in icepool's
RecursionError or in a MemoryError."""

import pytest

from ruleset_engine.analysis.exact import EXACT_LIMITS
from ruleset_engine.analysis.prob import MAX_ESTIMATE_DICE, ProbError, ask
from ruleset_engine.analysis.prob_view import method_line

TEN_LETS = [("p", "20d10")] + [(f"a{i}", f"count(p, >= {i})") for i in range(1, 11)]


@pytest.mark.parametrize("question, lets, why", [
    ("5d1000", (), "exact odds would need about 25,000,000 steps, more than 200,000"),        # (5 x 1000)^2
    ("1d1000000", (), "1d1000000 has dice of up to 1,000,000 faces, more than the 10,000 exact odds follow"),
    ("2d100000", (), "2d100000 has dice of up to 100,000 faces"),
    ("50d100", (), "exact odds would need about 25,000,000 steps"),                           # (50 x 100)^2
    ("(1d100)d100", (), "exact odds would need about 10^10 steps"),       # 100 pools of up to (100 x 100)^2
    ("count(cancel(100d6, 100d6), >= 1)", (), "exact odds would need about 360,000 steps"),   # (100 x 6)^2
    ("100d6!o", (), "exact odds would need about 1,440,000 steps"),                 # (200 dice x 6)^2
    (" + ".join(f"a{i}" for i in range(1, 11)), TEN_LETS, "exact odds would need about 10^"),
])
def test_past_the_work_limit_the_odds_are_estimated_and_said_so(question, lets, why):
    answer = ask([question], lets=lets, samples=200)
    assert not answer.exact and why in answer.why, answer.why
    assert method_line(answer).startswith(f"Estimated, not exact ({answer.why}): 200 seeded rolls")


def test_within_the_limit_the_odds_stay_exact():
    assert EXACT_LIMITS.max_work == 200_000
    for question in ("20d10", "count(7d10, >= 8)", "highest(20d10, 3)", "3d100"):
        assert ask([question]).exact, question
    answer = ask(["hits - ones"], lets=[("p", "7d10"), ("hits", "count(p, >= 8)"), ("ones", "count(p, == 1)")])
    assert answer.exact


def test_an_estimate_past_its_dice_is_refused_from_its_first_samples():
    assert MAX_ESTIMATE_DICE == 20_000_000
    with pytest.raises(ProbError, match=r"1,000,000 samples would roll about 1,000,000,000 dice \(1,000 a sample\), "
                                        r"more than the 20,000,000 an estimate rolls; ask for --samples 20,000 "
                                        r"or fewer"):
        ask(["sum(1000d6)"], estimate=True, samples=1_000_000)
    assert ask(["sum(1000d6)"], estimate=True, samples=200).samples == 200


def test_a_long_table_reads_its_tails_in_one_pass():
    # 10,000 values of an estimate: P(>=x) and P(<=x) of each were summed afresh (10^8 additions).
    odds = ask(["1d1000000"], samples=10_000).questions[0]
    assert len(odds.chances) > 9_000
    assert odds.at_least(odds.chances[0][0]) == 1 and odds.at_most(odds.chances[-1][0]) == 1
    value = odds.chances[100][0]
    assert odds.at_most(value) == sum(p for v, p in odds.chances if v <= value)
    assert odds.at_least(value) == sum(p for v, p in odds.chances if v >= value)
