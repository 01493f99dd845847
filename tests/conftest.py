"""Shared helpers for the tests."""

import os
import random
import tempfile

import pytest

from ruleset_engine import dice, i18n

# Verdicts remembered between runs go to a folder of the test run's own, never the user's cache.
os.environ["DUSK_CACHE_DIR"] = tempfile.mkdtemp(prefix="dusk-test-cache-")
# dusk's words in English whatever the machine's locale (a test of another language asks for it).
os.environ["DUSK_LANG"] = "en"


@pytest.fixture(autouse=True)
def catalog_language_restored():
    """dusk's catalog language is one for the whole process (i18n): a test that sets it (a table made with
    a language, tests/repl/conftest.py's make_repl) leaves the next test in the language it found."""
    was = i18n.language()
    yield
    if i18n.language() != was:
        i18n.set_language(was)


def roll(text, faces=None, env=None, seed=None):
    """Roll `text` with scripted faces (checked to be all used), or a seeded Random."""
    if faces is not None:
        source = dice.ScriptedDice(faces)
        result = dice.roll(text, rng=source, env=env)
        assert source.remaining == 0, f"{text}: {source.remaining} scripted dice were not drawn"
        return result
    return dice.roll(text, rng=random.Random(seed), env=env)


def error_of(text, env=None, rng=None):
    """The DiceError that `text` raises, having drawn no die unless rng says otherwise."""
    with pytest.raises(dice.DiceError) as info:
        dice.roll(text, rng=rng if rng is not None else dice.ScriptedDice([]), env=env)
    return info.value
