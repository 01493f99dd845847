"""Seats: whose a question is, and whose an action is, in a game played by a group.

A ruleset's `seats: GROUP` names the group whose instances people play, one seat each (a seat is
an instance's name). A question asked for an instance of that group (its ask step's `who:` names
one) belongs to that seat; every other question is the GM's. An action is a seat's when it has an
`as` parameter: a parameter of type entity of the seats group that the table types after the word
`as` (`test as Ana`), or else the first such parameter that acts (not `acts: false`: in `hit Ana
Beto` the one who hits acts and the one hit does not); the seat is the instance it names. Every
other action is the GM's. The GM
may answer and act for anyone; front ends (the REPL shows whose a question is, the server checks
rights) read these functions, and the engine itself never refuses by seat.
"""

from __future__ import annotations

SEAT_WORD = "as"      # the word of an action's parameter that names who acts (`attack as Ana`)


def seat_names(ruleset, values: dict) -> list[str]:
    """The seats of a game as it stands: the names of the seats group's instances, in their order
    (none when the ruleset has no seats, or before its setup made them)."""
    if ruleset.seats is None:
        return []
    return [i["name"] for i in values.get(ruleset.seats) or [] if isinstance(i, dict) and "name" in i]


def seat_of(ruleset, values: dict, decision) -> str | None:
    """The seat a question belongs to: the instance of the seats group its `who` names, or None (the GM's)."""
    who = getattr(decision, "who", None)
    if who is None or ruleset.seats is None:
        return None
    return who if who in seat_names(ruleset, values) else None


def seat_parameter(ruleset, action_name: str) -> str | None:
    """The parameter of an action that names the seat acting (its `as` parameter), or None: the GM's action."""
    action = ruleset.actions.get(action_name)
    if action is None or ruleset.seats is None:
        return None
    mine = [(name, param) for name, param in action.params.items() if param.type == "entity" and param.of == ruleset.seats]
    typed_as = [name for name, param in mine if (param.word or "").lower() == SEAT_WORD]
    acting = [name for name, param in mine if param.acts]
    return (typed_as or acting or [None])[0]
