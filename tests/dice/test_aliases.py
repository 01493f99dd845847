"""The notations of other tools (Foundry VTT, Roll20), read as dusk's explicit form.

Each row of the table in docs/dice-language.md is an entry of ALIASES: its example shows, in the
trace, the explicit form the docs give, and gives what that form gives over the same dice, draw for
draw. "The same dice": a notation that reads its pool twice (`10d10cs>=6df=1`) rolls it once, so its
explicit form is checked as the pool rolled once and then the form's body over those faces (P below).
Small pools are checked over every sequence of faces a scripted source can give (so the two have
the same distribution, exactly), larger ones over many seeds; both run modes; and every refusal,
with its hint, as the docs show it.
"""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ruleset_engine import cli, dice
from ruleset_engine.dice import ast
from ruleset_engine.dice.aliases import ALIASES
from ruleset_engine.dice.parser import parse
from ruleset_engine.dice.render import render_text
from tests.conftest import error_of, roll
from tests.dice.test_registry_parity import Builder, same_in_both_modes
from tests.dice.test_registry_parity import outcome as parity_outcome

ROOT = Path(__file__).resolve().parents[2]
DOCS = (ROOT / "docs" / "dice-language.md").read_text("utf-8")


def outcome(text, rng, traced=True, env=None):
    """What an expression gives with this dice source: its value (a pool as its faces) or its error,
    and how many dice it drew."""
    try:
        if traced:
            value = dice.roll(text, rng=rng, env=env).raw
            value = tuple(value.faces) if isinstance(value, dice.Pool) else value
        else:
            value = dice.compile(text).plain(rng, env)
            value = tuple(value) if isinstance(value, tuple) else value
        result = ("value", value)
    except dice.DiceError as err:
        result = ("error", err.message)
    return result, rng.getstate()


def explicit_parts(notation: str) -> tuple[str, str | None]:
    """The explicit pool of a notation (what is rolled, once) and its body over that pool written `P`
    (None: the notation is the pool), read from what the parser made of it."""
    tree = parse(notation)
    assert isinstance(tree, ast.Aliased), notation
    pool = tree.pool.label
    if tree.body is None:
        return pool, None
    return pool, tree.meaning.replace(f"({pool}", "(P")


def explicit_outcome(notation: str, rng, traced=True):
    """The explicit form over the same dice: its pool rolled from `rng`, then its body over those faces."""
    pool, body = explicit_parts(notation)
    rolled, state = outcome(pool, rng, traced)
    if body is None or rolled[0] == "error":
        return rolled, state
    value, _ = outcome(body, dice.ScriptedDice([]), traced, env={"P": list(rolled[1])})
    return value, state


# ---- every row of the docs table ------------------------------------------------------------


def test_the_docs_table_is_the_registry():
    table = DOCS.split("<!-- registry:aliases -->\n", 1)[1].split("<!-- /registry -->", 1)[0]
    rows = [line for line in table.splitlines() if line.startswith("| `")]
    assert len(rows) == len(ALIASES)
    for entry, row in zip(ALIASES.values(), rows):
        assert f"`{entry.example}`" in row and f"`{entry.explicit}`" in row and entry.tool in row


@pytest.mark.parametrize("token", list(ALIASES))
def test_each_row_reads_as_its_explicit_form_in_the_trace(token):
    entry = ALIASES[token]
    result = dice.roll(entry.example, rng=random.Random(1))
    dice.compile(entry.explicit)          # the explicit form is dusk's own language
    if entry.role == "native":            # the same spelling: nothing to read another way
        assert entry.example == entry.explicit and not any(s.means for s in result.steps)
        return
    first = result.steps[0]
    assert (first.label, first.means, first.dice) == (entry.example, entry.explicit, ())
    assert str(result).startswith(f"{entry.example} → {entry.explicit}")
    assert result.to_json()["steps"][0] == {"label": entry.example, "means": entry.explicit, "dice": []}


@pytest.mark.parametrize("token", list(ALIASES))
def test_each_row_gives_what_its_explicit_form_gives_on_the_same_dice(token):
    entry = ALIASES[token]
    for seed in range(150):
        for traced in (True, False):
            if entry.role == "native":
                expected = outcome(entry.explicit, random.Random(seed), traced)
            else:
                expected = explicit_outcome(entry.example, random.Random(seed), traced)
                if entry.explicit.count("(") == 1 or entry.role in ("modifier", "order"):
                    # read once: the explicit text itself rolls the same dice
                    assert outcome(entry.explicit, random.Random(seed), traced) == expected
            assert outcome(entry.example, random.Random(seed), traced) == expected, (seed, traced)


# ---- exact: every sequence of faces, small pools --------------------------------------------------

# (notation, sides, dice drawn at most): every sequence of that many faces is played.
EXHAUSTIVE = [
    ("3d6cs>=4", 6, 3), ("3d6cs>4", 6, 3), ("3d6cs=6", 6, 3), ("3d6cs6", 6, 3), ("3d6cs", 6, 3),
    ("3d6cs<=2", 6, 3), ("3d6cs!=3", 6, 3),
    ("3d6cs>=4df=1", 6, 3), ("3d6cs>3df", 6, 3), ("3d6cs>=5df<3", 6, 3), ("3d6cs==6df1", 6, 3),
    ("3d6>4", 6, 3), ("3d6<2", 6, 3), ("3d6>4f1", 6, 3), ("3d6>4f<2", 6, 3), ("3d6>4f=1", 6, 3),
    ("3d6>(1 + 3)f1", 6, 3),
    ("3d6s", 6, 3), ("3d6sa", 6, 3), ("3d6sd", 6, 3), ("3d6kh2sd", 6, 3), ("[1d6, 2]sa", 6, 1),
    ("2d6ro<2", 6, 4), ("2d6ro1", 6, 4), ("2d6ro=1", 6, 4), ("2d6ro>5", 6, 4), ("2d6ro<=2", 6, 4),
    ("2d4x", 4, 5), ("2d4x>=3", 4, 5), ("2d4x=1", 4, 5), ("1d4x4", 4, 5), ("1d6x>5", 6, 4),
    ("2d4xo", 4, 4), ("2d4xo>=3", 4, 4), ("2d4xo1", 4, 4),
    ("2d4xcs>=3", 4, 5), ("2d4xkh1cs>=3df=1", 4, 5), ("2d6ro<2kh1", 6, 4), ("2d4xo>2sd", 4, 4),
    ("2d6min3cs>=3", 6, 2), ("2d6max2>2", 6, 2), ("[2d6, 1d4]cs>=4df=1", 6, 3),
]


def _sequences(sides: int, length: int):
    return itertools.product(range(1, sides + 1), repeat=length)


@pytest.mark.parametrize("notation, sides, length", EXHAUSTIVE)
def test_every_sequence_of_faces_gives_the_same_as_the_explicit_form(notation, sides, length):
    for faces in _sequences(sides, length):
        for traced in (True, False):
            got = outcome(notation, dice.ScriptedDice(faces), traced)
            want = explicit_outcome(notation, dice.ScriptedDice(faces), traced)
            assert got == want, (notation, faces, traced)


def _distribution(text: str, sides: int, n: int, env_pool: bool = False) -> dict:
    counts: Counter = Counter()
    for faces in _sequences(sides, n):
        if env_pool:
            counts[dice.roll(text, rng=dice.ScriptedDice([]), env={"P": list(faces)}).value] += 1
        else:
            counts[dice.roll(text, rng=dice.ScriptedDice(faces)).value] += 1
    return {v: Fraction(c, sides ** n) for v, c in counts.items()}


def _enumerated(text: str, sides: int, length: int) -> dict:
    """The exact distribution of an expression that draws at most `length` dice of `sides` sides: every
    sequence of that many faces is equally likely, and decides the value by the faces it draws."""
    counts: Counter = Counter()
    for faces in _sequences(sides, length):
        counts[dice.roll(text, rng=dice.ScriptedDice(faces)).value] += 1
    return {v: Fraction(c, sides ** length) for v, c in counts.items()}


# Drawing a bounded number of dice of one size (no x: explosions have no end, prob cuts them at a depth).
BOUNDED = [(text, sides, length) for text, sides, length in EXHAUSTIVE
           if "x" not in text.replace("xo", "") and set(re.findall(r"d\d+", text)) == {f"d{sides}"}]


@pytest.mark.parametrize("notation, sides, length", BOUNDED)
def test_dusk_prob_gives_the_enumerated_distribution_exactly(notation, sides, length):
    from ruleset_engine.analysis.prob import ask

    answer = ask([notation])
    assert answer.exact, answer.why
    assert dict(answer.questions[0].chances) == _enumerated(notation, sides, length)


@pytest.mark.parametrize("token", list(ALIASES))
def test_dusk_prob_of_each_row_is_the_prob_of_its_explicit_form(token):
    # The explicit form over the same dice: its pool bound once (a let), its body reading it.
    from ruleset_engine.analysis.prob import ask

    entry = ALIASES[token]
    got = ask([entry.example])
    assert got.exact, got.why
    if entry.explicit.count("(") <= 1:        # the explicit text reads its roll once
        want = ask([entry.explicit])
    else:
        pool, body = explicit_parts(entry.example)
        want = ask([body], lets=[("P", pool)])
    assert want.exact and got.questions[0].chances == want.questions[0].chances


def test_a_roll_read_twice_whose_size_is_known_only_when_rolled_is_estimated_not_wrong():
    # icepool's joint evaluation of a pool of a rolled size (explosions, a rolled count) is wrong, so
    # dusk prob says it estimates, and the estimate is near the enumerated chances.
    from ruleset_engine.analysis.prob import ask

    for text, lets in (("2d6xcs>=5df=1", []), ("count(P, >= 5) - count(P, == 1)", [("P", "2d6!")]),
                       ("count(P, >= 5) - count(P, == 1)", [("P", "(1d3)d6")])):
        answer = ask([text], lets=lets, samples=4000)
        assert not answer.exact and "known only when rolled" in answer.why
    estimate = dict(ask(["2d6xcs>=5df=1"], samples=20000).questions[0].chances)
    assert abs(float(estimate[-2]) - 1 / 36) < 0.01        # both dice 1


@pytest.mark.parametrize("notation, body", [
    ("3d10cs>=6df=1", "count(P, >= 6) - count(P, == 1)"),
    ("3d10>6f1", "count(P, >= 6) - count(P, == 1)"),
    ("3d6<2", "count(P, <= 2)"),
])
def test_the_exact_distribution_is_that_of_one_roll_not_two(notation, body):
    # Over every outcome of three dice: the notation, the explicit body over one pool P, and the rule
    # computed by hand. Two rolls would give a wider spread (a success and a 1 from different dice).
    dist = _distribution(notation, 10 if "d10" in notation else 6, 3)
    assert dist == _distribution(body, 10 if "d10" in notation else 6, 3, env_pool=True)
    if notation == "3d10cs>=6df=1":
        by_hand: Counter = Counter()
        for faces in _sequences(10, 3):
            by_hand[sum(f >= 6 for f in faces) - sum(f == 1 for f in faces)] += 1
        assert dist == {v: Fraction(c, 1000) for v, c in by_hand.items()}
        assert dist[-3] == Fraction(1, 1000) and dist[3] == Fraction(125, 1000)


@pytest.mark.parametrize("notation", ["10d10cs>=6df=1", "10d10>6f1", "(x)d10cs>=(y)df=1", "5d10xkh3cs>=7df<2",
                                      "[2d10, 3d10]>8f1 + 1", "2 * 10d10cs>=6 - 1"])
def test_the_counts_read_the_same_dice_the_trace_shows(notation):
    # The trace's pool step holds the dice; the explicit form over exactly those faces gives the value.
    for seed in range(200):
        result = dice.roll(notation, rng=random.Random(seed), env={"x": 7, "y": 8})
        aliased = next(n for n in ast.walk(parse(notation)) if isinstance(n, ast.Aliased))
        counts = [s for s in result.steps if s.label.startswith("count(")]
        assert all(s.dice == counts[0].dice for s in counts)        # one pool, the same dice each time
        body = aliased.meaning.replace(f"({aliased.pool.label}", "(P")
        counted = dice.roll(body, rng=dice.ScriptedDice([]), env={"P": [d.face for d in counts[0].dice], "x": 7,
                                                                  "y": 8}).value
        whole = notation.replace(aliased_text(notation, aliased), f"({counted})")
        assert result.value == dice.roll(whole, rng=dice.ScriptedDice([])).value, (notation, seed)


def aliased_text(notation: str, node: ast.Aliased) -> str:
    return notation[node.span[0]:node.span[1]]


# ---- the meaning of each notation, with scripted faces -------------------------------------------


@pytest.mark.parametrize("text, faces, value", [
    ("5d10cs>=6", [6, 1, 10, 5, 7], 3),
    ("5d10cs>6", [6, 1, 10, 5, 7], 2),          # Foundry's > is strictly greater, as dusk's
    ("5d10cs=10", [6, 1, 10, 5, 10], 2),        # Foundry's = is dusk's ==
    ("5d10cs", [6, 1, 10, 5, 10], 2),           # a bare cs: the highest face
    ("2d%cs", [100, 7], 1),
    ("5d10cs>=6df=1", [6, 1, 10, 1, 7], 1),
    ("5d10cs>=6df", [6, 1, 10, 1, 4], -1),      # a bare df: the dice the count did not count
    ("5d10>6", [6, 1, 10, 5, 7], 3),            # Roll20's > is "at least"
    ("5d10<2", [6, 2, 1, 5, 7], 2),             # Roll20's < is "at most"
    ("5d10>6f1", [6, 1, 10, 1, 7], 1),
    ("5d10>6f<2", [6, 2, 10, 1, 7], 1),         # f<2: 2 or less
    ("5d10>6f>=9", [6, 2, 10, 1, 7], 2),
    ("10d10cs>=6df=1 >= 1", [6, 1, 10, 1, 7, 2, 2, 2, 2, 2], True),
])
def test_counts_and_deductions(text, faces, value):
    assert roll(text, faces=faces).value == value
    assert dice.compile(text).plain(dice.ScriptedDice(faces)) == value


@pytest.mark.parametrize("text, faces, pool", [
    ("1d20x", [20, 20, 3], [20, 20, 3]),
    ("3d6x>=5", [5, 1, 2, 6, 4], [5, 1, 2, 6, 4]),
    ("2d6xo", [6, 6, 6, 6], [6, 6, 6, 6]),          # once: the added sixes do not explode
    ("3d10xo>=9", [9, 1, 10, 10, 3], [9, 1, 10, 10, 3]),
    ("2d6ro<2", [2, 3, 1], [1, 3]),                  # ro<2 is r<=2: the 2 is re-rolled once, the 1 stands
    ("2d6ro1", [1, 4, 1], [1, 4]),
    ("4d6min2", [1, 3, 6, 2], [2, 3, 6, 2]),
    ("4d6max5", [1, 3, 6, 2], [1, 3, 5, 2]),
    ("4d6s", [4, 1, 6, 2], [1, 2, 4, 6]),
    ("4d6sa", [4, 1, 6, 2], [1, 2, 4, 6]),
    ("4d6sd", [4, 1, 6, 2], [6, 4, 2, 1]),
    ("4d6kh3sd", [4, 1, 6, 2], [6, 4, 2]),
])
def test_pool_notations(text, faces, pool):
    assert roll(text, faces=faces).pool.faces == pool
    assert list(dice.compile(text).plain(dice.ScriptedDice(faces))) == pool


def test_min_and_max_are_dusks_own_modifiers_and_show_the_face_rolled():
    result = roll("4d6min2kh3", faces=[1, 3, 6, 2])
    assert result.pool.faces == [2, 3, 6]
    die = result.steps[0].dice[0]
    assert (die.face, die.changed_from) == (2, 1)
    assert die.to_json()["changed_from"] == 1
    assert str(roll("2d6max5", faces=[6, 2])) == "2d6max5  6⇒5 2 = 7\n  (⇒ set by min/max)"
    assert dice.roll("2d6max5", rng=dice.ScriptedDice([6, 2])).to_json()["dice"][0]["changed_from"] == 6
    assert render_text(roll("1d6min3", faces=[1]), ascii_only=True) == "1d6min3  1=>3 = 3\n  (=> set by min/max)"
    # a re-roll after min/max rolls the die anew; min/max after a re-roll keeps the face they set
    assert roll("1d6min3r<4", faces=[1, 5]).steps[0].dice[0].changed_from is None
    assert roll("1d6r<2min3", faces=[1, 2]).steps[0].dice[0].changed_from == 2
    assert roll("[1, 5]min(0 - 3)max(4)", faces=[]).pool.faces == [1, 4]      # on fixed numbers too, any value


def test_explode_once_is_dusks_own_modifier():
    result = roll("2d6!o>=5", faces=[5, 2, 6])
    assert result.pool.faces == [5, 2, 6]
    assert [d.exploded for d in result.steps[0].dice] == [True, False, False]
    assert [d.extra for d in result.steps[0].dice] == [False, False, True]
    assert roll("1d1!o", faces=[1, 1]).value == 2        # once always ends, even on a d1
    err = error_of("[3]!o")
    assert err.message.startswith("'!o' re-rolls or explodes dice rolled in these brackets")
    err = error_of("[p, 1d6]!o", env={"p": [3]})
    assert err.message.startswith("'!o' re-rolls or explodes dice rolled in these brackets")


# ---- the trace says what it read ---------------------------------------------------------------


def test_the_trace_of_a_notation_inside_a_larger_expression():
    text = str(roll("2d10>6f1 + 1", faces=[7, 1]))
    assert text.splitlines()[:2] == ["2d10>6f1 + 1", "  2d10>6f1           → count(2d10, >= 6) - count(2d10, == 1)"]
    assert text.endswith("= 1\n  (✓ counted)")
    ascii_text = render_text(roll("2d10>6f1 + 1", faces=[7, 1]), ascii_only=True)
    assert "  2d10>6f1           -> count(2d10, >= 6) - count(2d10, == 1)" in ascii_text


def test_a_notation_of_dice_alone_is_one_line():
    assert str(roll("1d20x", faces=[20, 4])) == "1d20x → 1d20!  20! 4 = 24\n  (! exploded)"
    assert roll("d%cs", faces=[100]).steps[0].means == "count(d%, == 100)"
    assert roll("2d6cs>3df", faces=[5, 2]).steps[0].means == "count(2d6, > 3) - count(2d6, <= 3)"
    assert str(roll("2d6ro<2", faces=[5, 3])) == "2d6ro<2 → 2d6r<=2  5 3 = 8"
    assert str(roll("3d6sd", faces=[2, 6, 4])) == "3d6sd → sort(3d6, descending=true)\n  3d6  2 6 4  → 12\n" \
                                                  "= 12  (dice left: 6 4 2)"


def test_the_whole_trace_of_a_success_pool_counts_the_dice_once():
    result = roll("4d10cs>=6df=1", faces=[6, 1, 10, 3])
    assert [s.label for s in result.steps] == ["4d10cs>=6df=1", "4d10", "count(4d10, >= 6)", "count(4d10, == 1)"]
    pool_dice = result.steps[1].dice
    assert all(s.dice == pool_dice for s in result.steps[2:])       # the very same dice, judged twice
    assert result.steps[2].marks == ("counted", "kept", "counted", "kept")
    assert result.steps[3].marks == ("kept", "counted", "kept", "kept")
    assert [d["fate"] for d in result.to_json()["dice"]] == ["counted", "counted", "counted", "kept"]


def test_what_a_notation_reads_and_where_errors_point():
    assert dice.compile("(n)d10cs>=(difficulty)df").names == (      # once each, though df reads it again
        (("n",), (0, 3)), (("difficulty",), (10, 22)))
    err = error_of("1d1x")
    assert "exploding it would never end" in err.message and err.span == (3, 4)
    err = error_of("3d6cs>=(true)")
    assert err.message == "expected a number here, not true/false" and err.text[err.span[0]:err.span[1]] == "(true)"
    err = error_of("5d10cs>=x", env={"x": "word"}, rng=random.Random(1))      # known only as it runs
    assert "expected a number here, not a string" in err.message
    assert err.text[err.span[0]:err.span[1]] == "x"


# ---- refusals, with both readings named -----------------------------------------------------------


def _docs_refusals() -> list[tuple[str, str]]:
    section = DOCS.split("**Where two readings stay, dusk refuses**", 1)[1].split("\n\n", 2)[1]
    rows = []
    for line in section.splitlines()[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows.append((re.match(r"`([^`]*)`", cells[0]).group(1), cells[1].strip("`")))
    return rows


def test_the_docs_show_the_refusals_as_dusk_writes_them():
    rows = _docs_refusals()
    assert len(rows) >= 8
    for text, message in rows:
        assert error_of(text).message == message, text


@pytest.mark.parametrize("text, message, at", [
    # what stays ambiguous: a pool compared with a number, with each reading named
    ("10d10 > 6", "(Roll20's 10d10>6, written without spaces, counts the dice of 6 or more)", "10d10"),
    ("10d10 >6", "or sum(10d10) > 6 for the total", "10d10"),
    ("3d6 < 2", "counts the dice of 2 or less", "3d6"),
    ("5d10>=6", "write count(5d10, >= 6) for how many dice meet it, or sum(5d10) >= 6 for the total", "5d10"),
    ("2d6=7", "write count(2d6, == 7) for how many dice show 7 (2d6cs=7 in Foundry's notation), or sum(2d6) == 7", "="),
    ("x = 7", "'=' alone does not compare: write == for equal", "="),
    # notations out of place
    ("10d10df=1", "as in 10d10cs>=6df=1", "df=1"),
    ("10d10f1", "as in 10d10>6f1", "f1"),
    ("10d10cs>=6kh1", "'kh1' cannot come after 'cs>=6'", "kh1"),
    ("10d10>6x", "'x' cannot come after '>6'", "x"),
    ("10d10cs>=6df=1f1", "'f1' cannot come after 'df=1': the failures deducted end the notation", "f1"),
    ("10d10cs>=6sa", "'sa' cannot come after 'cs>=6'", "sa"),
    ("3d6sdkh1", "'kh1' cannot come after 'sd': sorting comes last", "kh1"),
    ("3d6sacs>=2", "'cs>=2' cannot come after 'sa'", "cs>=2"),
    ("3d6sa2", "'sa' sorts the dice and takes no value", "2"),
    ("10d10>6f", "'f' needs the faces that fail: f1 (== 1) or f<2 (2 or less, as Roll20 reads it)", "f"),
    ("2d6ro", "'ro' needs the faces to act on", "ro"),
    ("(n)d(s)cs", "a bare 'cs' counts the dice on their highest face", "cs"),
    ("3d6!!", "'!!' is Roll20's compounding explosion", "!!"),
    ("3d6!!>=5", "dusk would explode the dice twice", "!!>=5"),
])
def test_refusals_name_the_readings_and_point_at_the_place(text, message, at):
    err = error_of(text, env={"n": 2, "s": 6})
    assert message in err.message, err.message
    assert err.text[err.span[0]:err.span[1]] == at
    assert "^" in str(err) and "Traceback" not in str(err)


def test_dusks_own_readings_stay():
    # Spellings dusk had before keep their meaning: r re-rolls once, < and > are strict.
    assert roll("2d6r<2", faces=[2, 1, 3]).pool.faces == [2, 3]        # not Roll20's "re-roll while 2 or less"
    assert roll("3d6!>5", faces=[5, 6, 1, 2]).pool.faces == [5, 6, 1, 2]  # explodes on 6 only
    assert roll("2d6rr<2", faces=[1, 1, 4, 2]).pool.faces == [4, 2]
    assert roll("4d6kh3", faces=[5, 3, 2, 6]).value == 14
    assert roll("1d6! !", faces=[6, 6, 1, 2, 3]).pool.faces == [6, 6, 1, 2, 3]     # twice, spelled apart
    assert roll("1d6!o!", faces=[6, 6, 1, 2]).pool.faces == [6, 6, 1, 2]


def test_a_count_read_from_a_name_is_written_in_brackets_after_a_modifier():
    # Right after dice a modifier is read before a name: kh(x) keeps x dice, khx keeps one and explodes.
    assert roll("3d6kh(x)", faces=[1, 5, 3], env={"x": 2}).pool.faces == [5, 3]
    assert roll("3d6khx", faces=[1, 5, 3]).pool.faces == [5]


# ---- both modes, everywhere the language runs --------------------------------------------------


@pytest.mark.parametrize("token", list(ALIASES))
def test_each_notation_gives_the_same_in_both_modes(token):
    builder = Builder(random.Random(f"alias/{token}"))
    values = 0
    for seed in range(60):
        text = builder.dice(1, notation=ALIASES[token])
        same_in_both_modes(text, seed)
        values += parity_outcome(text, seed, traced=True)[0] == "value"
    assert values >= 10


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(1, 10), max_size=8), st.integers(1, 10), st.integers(1, 10),
       st.sampled_from(["cs>=", "cs>", "cs<=", "cs=", ">", "<"]), st.sampled_from(["df=", "df<", "f", "f<", ""]))
def test_a_count_over_a_literal_pool_is_the_rule_computed_by_hand(faces, target, fail, count, deduct):
    text = f"{faces}{count}{target}" + (f"{deduct}{fail}" if deduct else "")
    op = {"cs>=": ">=", "cs>": ">", "cs<=": "<=", "cs=": "==", ">": ">=", "<": "<="}[count]
    fop = {"df=": "==", "df<": "<", "f": "==", "f<": "<="}.get(deduct)
    tests = {">=": int.__ge__, ">": int.__gt__, "<=": int.__le__, "==": int.__eq__, "<": int.__lt__}
    want = sum(tests[op](f, target) for f in faces) - (sum(tests[fop](f, fail) for f in faces) if fop else 0)
    assert dice.roll(text, rng=dice.ScriptedDice([])).value == want
    assert dice.compile(text).plain(dice.ScriptedDice([])) == want


def test_a_ruleset_with_notations_plays_and_logs_what_they_meant():
    # tests/test_parity.py plays it in both modes; here, what the table's log keeps of it.
    from ruleset_engine.ruleset import load
    from ruleset_engine.runtime import Game

    game = Game.start(load(str(ROOT / "tests" / "rulesets" / "notations.yaml")), seed=3, auto=True)
    game.perform("round")
    means = [s.get("means") for e in game.log if e["kind"] == "roll" for s in e.get("steps", []) if s.get("means")]
    assert "count((pool)d10, >= (params.difficulty)) - count((pool)d10, == 1)" in means
    assert "count(2d10, >= 6) - count(2d10, == 1)" in means


# ---- the command line ------------------------------------------------------------------------------


def test_a_leading_minus_is_an_expression_not_an_option(capsys):
    assert cli.main(["roll", "-1d6", "--seed", "4"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "= -2"
    assert cli.main(["roll", "--seed", "-3", "-(2d6)", "--json"]) == 0
    assert '"expression": "-(2d6)"' in capsys.readouterr().out
    assert cli.main(["roll", "-d6kh1", "--ascii", "--seed", "1"]) == 0
    assert cli.expressions_are_not_options(["roll", "-1d6", "--seed", "-3"]) == ["roll", "--seed", "-3", "--", "-1d6"]
    assert cli.expressions_are_not_options(["roll", "--", "-1d6"]) == ["roll", "--", "-1d6"]
    assert cli.expressions_are_not_options(["simulate", "x", "-n", "3"]) == ["simulate", "x", "-n", "3"]


def test_roll_help_points_to_the_table(capsys):
    with pytest.raises(SystemExit):
        cli.main(["roll", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "Foundry VTT and Roll20" in text and "docs/dice-language.md, 'Notations from other tools'" in text
    assert "## Notations from other tools" in DOCS
