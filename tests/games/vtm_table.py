"""A table of Vampire: the Masquerade for the tests: a game started with scripted dice and params,
and what it said, so that each test sets up exactly the roll a rule speaks about."""

from __future__ import annotations

from ruleset_engine.dice import ScriptedDice
from ruleset_engine.ruleset import load
from ruleset_engine.runtime import Game

RULESET = load("vampire-the-masquerade")


def start(faces, **params):
    """A new game whose dice show `faces` in order (the source kept, to add faces or check the rest)."""
    source = ScriptedDice(faces)
    game = Game.start(RULESET, params=params, rng=source)
    return game, source


def said(outcome, lang="en"):
    """The lines the game said, in `lang`."""
    return [e["text"][lang] if isinstance(e["text"], dict) else e["text"] for e in outcome.events if e["kind"] == "say"]
