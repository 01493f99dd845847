"""What undo and snapshots keep: the game as it stood before each action, and its JSON form.

A saved state is (dice source state, values, turn, over, result). Saving copies the values;
putting back copies them again into the game's own dictionary (its identity is kept, since the
running program holds it), so a saved state is never changed by the game that goes on.
"""

from __future__ import annotations

import copy

SNAPSHOT_FORMAT = 1


class History:
    def __init__(self):
        self.actions: list = []     # (state before the action, where its events start in the log)

    def __len__(self) -> int:
        """How many actions can be undone."""
        return len(self.actions)

    @staticmethod
    def save(rng, values: dict, turn: int, over: bool, result) -> tuple:
        return (rng.getstate(), copy.deepcopy(values), turn, over, result)

    @staticmethod
    def put_back(saved: tuple, rng, values: dict) -> tuple:
        """Restore the dice source and the values in place; (turn, over, result) for the game."""
        rng_state, kept, turn, over, result = saved
        rng.setstate(rng_state)
        values.clear()
        values.update(copy.deepcopy(kept))
        return turn, over, result


def rng_to_json(state):
    """A dice source's state (random.Random's, or a ScriptedDice's position) as JSON."""
    if isinstance(state, int):   # a scripted source: how many faces it has given
        return state
    version, internal, gauss = state
    return [version, list(internal), gauss]


def rng_from_json(data):
    """The inverse of rng_to_json, for setstate."""
    return data if isinstance(data, int) else (data[0], tuple(data[1]), data[2])


def saved_json(saved: tuple) -> dict:
    rng_state, values, turn, over, result = saved
    return {"rng": rng_to_json(rng_state), "values": copy.deepcopy(values), "turn": turn, "over": over,
            "result": result}


def saved_tuple(data: dict) -> tuple:
    # No copy here: put_back copies whatever it puts back.
    return (rng_from_json(data["rng"]), data["values"], data["turn"], data["over"], data["result"])
