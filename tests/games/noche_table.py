"""A table of Noche de los Vampiros for the tests: a night started with scripted dice and names, and
conflicts played with answers chosen by the test (a policy), so that each test sets up exactly the
moment a rule speaks about."""

from __future__ import annotations

from ruleset_engine.dice import ScriptedDice
from ruleset_engine.ruleset import load
from ruleset_engine.ruleset.steps import set_marked
from ruleset_engine.runtime import Game

RULESET = load("noche-de-los-vampiros")
NAMES = ["Ana", "Beto", "Carla", "Dani", "Elena", "Fede", "Gabi", "Hugo"]


def answer_all(game, outcome, policy):
    """Answer every question of an action: policy(decision) gives the answer, or None for the auto: one
    (which answers every later question of the action by its auto: too)."""
    while outcome.decision is not None:
        given = policy(outcome.decision)
        outcome = game.auto_answer(outcome.decision) if given is None else game.answer(outcome.decision, given)
    return outcome


def night(n, start_rolls, faces=(), ruleset=RULESET, **params):
    """A night of n characters (Ana, Beto, ...): start_rolls are the dice of who starts, faces the dice
    after them; every Relationship gets its automatic words. Returns the game and its dice source."""
    source = ScriptedDice(list(start_rolls) + list(faces))
    game = Game.start(ruleset, params=params, rng=source)

    def setup(decision):
        if decision.var == "n":
            return n
        if decision.var == "who":
            return NAMES[int(decision.prompt.split()[1].rstrip(",")) - 1]
        return None

    answer_all(game, game.last_outcome, setup)
    assert not game.starting
    return game, source


def stakes(**per_player):
    """A policy: each player's (risk, relationships), by name: the Relationships brought in are the
    first ones offered, by the other character's name; yes to resolving the whole Hour after max_conflicts."""
    def policy(decision):
        if decision.var == "whole":
            return True
        risk, ties = per_player[decision.who]
        return {"risk": risk, "ties": list(decision.choices[:ties])}[decision.var]
    return policy


def conflict(game, policy=lambda d: None):
    return answer_all(game, game.perform("conflict"), policy)


def who(game, name):
    return next(c for c in game.values["character"] if c["name"] == name)


def check_boxes(game, name, marked):
    set_marked(who(game, name)["boxes"], marked)


def rolls(game, since=0):
    """The rolls logged after entry `since`: (label, faces)."""
    return [(e["label"]["en"] if isinstance(e.get("label"), dict) else e.get("label"), e["pool"])
            for e in game.log[since:] if e["kind"] == "roll"]


def says(game, since=0):
    return [e["text"]["en"] if isinstance(e["text"], dict) else e["text"]
            for e in game.log[since:] if e["kind"] == "say"]
