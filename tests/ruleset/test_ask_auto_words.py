"""A text question's auto: may carry one text per language, as every text may: the table's language
picks the answer (by the fallback every text takes), at the table, untraced and in lockstep. And a
refused step still binds the names it declares, so a later read of one is no second problem."""

import textwrap

import pytest

from ruleset_engine import i18n
from ruleset_engine.analysis.simulate import play_game, simulate, simulation_program
from ruleset_engine.ruleset import RulesetError, load
from ruleset_engine.runtime import Game, resolve_params

# The answer chosen is read back by a formula: 1 for the Spanish words, 2 for the English, 3 else.
WORDS = """\
    ruleset: t
    title: T
    state:
      heard: 0
    loop:
      - name: round
        max: 1
        then: [{end: game, result: done}]
        steps:
          - ask: {en: "Your words?", es: "¿Tus palabras?"}
            as: words
            text: {max: 40}
            auto: {en: "said {1 + 1} times", es: "dicho {1 + 1} veces"}
          - set: {heard: "1 if words == 'dicho 2 veces' else (2 if words == 'said 2 times' else 3)"}
          - say: "{words}"
    report:
      heard: heard
    """


@pytest.fixture
def words_file(tmp_path):
    path = tmp_path / "words.yaml"
    path.write_text(textwrap.dedent(WORDS), encoding="utf-8")
    return path


@pytest.mark.parametrize("lang, heard", [("es", 1), ("es-MX", 1), ("zh", 2), ("en", 2)])
def test_the_table_s_language_picks_the_auto_words_in_every_mode(words_file, lang, heard):
    was = i18n.language()
    i18n.set_language(lang)
    try:
        r = load(str(words_file))
        game = Game.start(r, seed=1, auto=True)
        events = game.perform("round").events
        said = [e["text"] for e in events if e["kind"] == "say"]
        assert said == [{1: "dicho 2 veces", 2: "said 2 times"}[heard]]     # zh has none: English
        assert game.report() == {"heard": heard}
        _, _, report, _ = play_game(simulation_program(r, resolve_params(r, {})), 1)
        assert report == {"heard": heard}
        run = simulate(str(words_file), 20, seed=1, backend="lockstep")
        assert run.backend == "lockstep" and run.tally.values["heard"].counts == {heard: 20}
    finally:
        i18n.set_language(was)


def test_workers_answer_in_the_table_s_language_too(words_file):
    """A spawned worker starts in English: it is given the table's language, so two workers play the
    games as one process does."""
    was = i18n.language()
    i18n.set_language("es")
    try:
        run = simulate(str(words_file), 8, seed=1, workers=2, backend="untraced")
        assert run.tally.values["heard"].counts == {1: 8}
    finally:
        i18n.set_language(was)


def problems_of(tmp_path, text):
    (tmp_path / "r.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        load(str(tmp_path / "r.yaml"))
    return [str(p) for p in info.value.problems]


# One step, then a set: that reads what it binds.
AFTER_ONE_STEP = """\
ruleset: t
title: T
state:
  x: 0
actions:
  a:
    steps:
{step}
      - set: {{x: {read}}}
"""
ASK = '      - ask: "How many?"\n        as: n\n'


@pytest.mark.parametrize("ask, said", [
    # the schema refuses a key no step takes
    ("        number: {min: 1}\n        auto: 1\n        bogus: 1", "unknown key 'bogus' in a step"),
    # the checker refuses a key of another kind
    ("        number: {min: 1}\n        auto: 1\n        label: L", "label: does not go with ask:"),
    # the schema refuses what auto: is
    ("        number: {min: 1}\n        auto: [1]", "expected a formula, or a text (a string, or {en: ..., zh: ...}), "
                                                     "not a list"),
    # a number question's auto: is a formula, not a text per language
    ("        number: {min: 1}\n        auto: {en: one, es: uno}", "only a text question's auto: is a text"),
])
def test_a_refused_ask_is_one_problem_not_two(tmp_path, ask, said):
    found = problems_of(tmp_path, AFTER_ONE_STEP.format(step=ASK + ask, read="n"))
    assert len(found) == 1, found
    assert said in found[0] and "unknown name" not in found[0]


def test_a_refused_let_binds_its_names_too(tmp_path):
    found = problems_of(tmp_path, AFTER_ONE_STEP.format(step="      - let: {a: 1, b: 2}\n        bogus: 1",
                                                        read="a + b"))
    assert len(found) == 1 and "unknown key 'bogus' in a step" in found[0], found


def test_a_name_read_that_no_step_binds_is_still_unknown(tmp_path):
    found = problems_of(tmp_path, AFTER_ONE_STEP.format(step=ASK + "        number: {min: 1}\n        auto: 1\n"
                                                                    "        bogus: 1", read="m"))
    assert len(found) == 2 and any("unknown name 'm'" in p for p in found), found
