"""Helpers for running the test rulesets with scripted dice and scripted answers."""

from pathlib import Path

from ruleset_engine.dice import ScriptedDice
from ruleset_engine.ruleset import load
from ruleset_engine.runtime import Game

RULESETS = Path(__file__).resolve().parents[1] / "rulesets"


def ruleset(name):
    return load(str(RULESETS / f"{name}.yaml"))


def scripted_game(name, faces, params=None):
    source = ScriptedDice(faces)
    game = Game.start(ruleset(name), params=params, rng=source)
    return game, source


def play(game, action, answers=(), **args):
    """Perform an action and answer its decisions in order; returns every event it showed."""
    answers = list(answers)
    outcome = game.perform(action, **args)
    events = list(outcome.events)
    while outcome.decision is not None:
        assert answers, f"unexpected decision: {outcome.decision.prompt}"
        outcome = game.answer(outcome.decision, answers.pop(0))
        events += outcome.events
    assert not answers, f"answers left over: {answers}"
    return events


def kinds(events, kind):
    return [e for e in events if e["kind"] == kind]
