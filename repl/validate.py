"""What a session file must hold, checked before a game is rebuilt from it.

A session file is input like any other: it may have been edited by hand, cut short or damaged.
Every value the resume reads is checked here for its shape (a mapping, a whole number, a text...)
and refused with its place (`entry 4 (round): game.turn is a text, not a whole number`), so that
nothing later meets a value of the wrong kind. What the values mean for the ruleset (its params,
its names) is checked by the session, which has the ruleset.
"""

from __future__ import annotations

import json

from . import delta
from ruleset_engine.textfile import control_character

KINDS = ("setup", "start", "action", "roll", "undo", "dice", "waiting")    # setup: the answers of a setup that
# waits; waiting: the answers of an action that waits (saved by the served table, web/)
RNG_WORDS = 625          # random.Random's state: 624 words and a position


class Damaged(Exception):
    """A value of the session that is not what it must be; the message says which and why."""


def kind_of(value) -> str:
    """A value's kind in words, for a message."""
    if value is None:
        return "empty (null)"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a number with a fraction"
    if isinstance(value, str):
        return "a text"
    if isinstance(value, (bytes, bytearray)):
        return "binary data"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


def need(value, kinds: tuple, what: str, words: str):
    """`value` if it is one of `kinds` (bool is never taken for int), else Damaged naming `what`."""
    ok = isinstance(value, kinds) and not (isinstance(value, bool) and bool not in kinds)
    if not ok:
        raise Damaged(f"{what} is {kind_of(value)}, not {words}")
    return value


def whole(value, what: str, low: int | None = None):
    need(value, (int,), what, "a whole number")
    if low is not None and value < low:
        raise Damaged(f"{what} is {value}, below {low}")
    return value


def parsed(text, what: str):
    """A JSON column read back; Damaged when it is not JSON text."""
    if isinstance(text, bytes):
        raise Damaged(f"{what} is binary data, not JSON text")
    need(text, (str,), what, "JSON text")
    try:
        value = json.loads(text)
    except (ValueError, RecursionError) as err:
        raise Damaged(f"{what} is not valid JSON ({str(err)[:80]})") from None
    plain(value, what)
    return value


def plain(value, what: str) -> None:
    """Damaged when a text of the value (a key or a value, at any depth) holds a character a terminal
    acts on: the texts of a session are shown at the table, and an escape sequence written into one
    by hand could clear the screen or write the clipboard."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            control = control_character(item)
            if control is not None:
                raise Damaged(f"{what} holds a text with the control character {control}, which a terminal "
                              f"would obey")
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def rng_state(value, what: str) -> None:
    """A dice source's state as the journal writes it: random.Random's [version, 625 words, gauss]."""
    need(value, (list,), what, "a dice source's state")
    if len(value) != 3:
        raise Damaged(f"{what} has {len(value)} parts, not 3")
    version, words, gauss = value
    if version != 3 or isinstance(version, bool):
        raise Damaged(f"{what} is of version {version!r}, not 3")
    need(words, (list,), f"{what}[1]", "a list of whole numbers")
    if len(words) != RNG_WORDS:
        raise Damaged(f"{what}[1] has {len(words)} numbers, not {RNG_WORDS}")
    for i, word in enumerate(words):
        if not isinstance(word, int) or isinstance(word, bool) or not 0 <= word < 2**32:
            raise Damaged(f"{what}[1][{i}] is {word!r}, not a whole number from 0 to 2^32 - 1")
    if words[-1] > RNG_WORDS - 1:
        raise Damaged(f"{what}[1][{RNG_WORDS - 1}] is {words[-1]}, past the end of the state")
    if gauss is not None:
        need(gauss, (int, float), f"{what}[2]", "a number or null")


def game_core(value, what: str) -> None:
    """The game as an entry keeps it: {rng, values, turn, over, result}."""
    need(value, (dict,), what, "a mapping (the game as it stood)")
    for key in ("rng", "values", "turn", "over", "result"):
        if key not in value:
            raise Damaged(f"{what} has no {key}")
    rng_state(value["rng"], f"{what}.rng")
    need(value["values"], (dict,), f"{what}.values", "a mapping")
    whole(value["turn"], f"{what}.turn", 0)
    need(value["over"], (bool,), f"{what}.over", "true or false")
    if value["result"] is not None:
        need(value["result"], (str,), f"{what}.result", "a text or null")


def events(value, what: str) -> None:
    need(value, (list,), what, "a list of events")
    for i, event in enumerate(value):
        need(event, (dict,), f"{what}[{i}]", "a mapping (an event)")
        need(event.get("kind"), (str,), f"{what}[{i}].kind", "a text")


def meta(data: dict) -> None:
    """The session's meta table: what the game was started with."""
    for key, kinds, words in (("source", (str,), "a text (the ruleset)"), ("ruleset", (str,), "a text"),
                              ("params", (dict,), "a mapping")):
        if key not in data:
            raise Damaged(f"meta has no {key}")
        need(data[key], kinds, f"meta.{key}", words)
    for key, value in data.items():
        plain(value, f"meta.{key}")
    if "seed" not in data:
        raise Damaged("meta has no seed")
    if data["seed"] is not None:
        whole(data["seed"], "meta.seed")
    if data.get("lang") is not None:
        need(data["lang"], (str,), "meta.lang", "a text or null")
    if data.get("dice") not in (None, "manual", "auto"):
        raise Damaged(f"meta.dice is {data['dice']!r}, not manual or auto")
    if data.get("interactive") is not None:
        need(data["interactive"], (bool,), "meta.interactive", "true or false")
    if data.get("fingerprint") is not None:
        need(data["fingerprint"], (str,), "meta.fingerprint", "a text")


def changed(value, before, what: str):
    """A column that an entry may keep whole, or as what changed since the entry before it
    ({"changed": ...}, delta.py): the value whole, put back together from `before`."""
    if not (isinstance(value, dict) and set(value) == {"changed"}):
        return value
    if before is None:
        raise Damaged(f"{what} is kept as a change, but there is no entry before it")
    try:
        return delta.apply(before, value["changed"], what)
    except delta.BadChange as err:
        raise Damaged(str(err)) from None


def entry(row: tuple, before: tuple | None = None) -> tuple:
    """One row of the entries table, its JSON read and every part checked; the row as read, its game and
    dice source whole (`before`: the game and the dice source of the entry before it, for a change)."""
    n, kind, command, raw_events, raw_game, raw_rng, command_no, raw_answers = row
    whole(n, "an entry's number")
    where = f"entry {n}"
    need(kind, (str,), f"{where}: kind", "a text")
    if kind not in KINDS:
        raise Damaged(f"{where}: kind is {kind!r}, not one of {', '.join(KINDS)}")
    need(command, (str,), f"{where}: command", "a text")
    plain(command, f"{where}: command")
    where = f"entry {n} ({command[:40]})"
    got_events = parsed(raw_events, f"{where}: events")
    events(got_events, f"{where}: events")
    game = changed(parsed(raw_game, f"{where}: game"), before and before[0], f"{where}: game")
    game_core(game, f"{where}: game")
    free_rng = changed(parsed(raw_rng, f"{where}: free_rng"), before and before[1], f"{where}: free_rng")
    rng_state(free_rng, f"{where}: free_rng")
    if command_no is not None:
        whole(command_no, f"{where}: command_no")
    answers = None
    if raw_answers is not None:
        answers = parsed(raw_answers, f"{where}: answers")
        need(answers, (list,), f"{where}: answers", "a list")
    return n, kind, command, got_events, game, free_rng, command_no, answers


def history(entries: list) -> None:
    """The order of the entries: the game's start first, the turns never going back but by undo."""
    if not entries:
        raise Damaged("it holds no game yet")
    # A setup left waiting: its answers so far, one entry per answer, before the game's start.
    setup = 0
    while setup < len(entries) and entries[setup].kind == "setup":
        setup += 1
    if setup == len(entries):
        return
    if entries[setup].kind != "start":
        raise Damaged(f"entry {entries[setup].n}, the first, is {entries[setup].kind!r}, not the game's start")
    for e in entries[setup + 1:]:
        if e.kind == "setup":
            raise Damaged(f"entry {e.n} is an answer of the setup, after the game's start")
        if e.kind == "start":
            raise Damaged(f"entry {e.n} is a second start")
        if e.kind == "action" and e.game["turn"] < 1:
            raise Damaged(f"entry {e.n} ({e.command[:40]}): an action leaves the game at turn {e.game['turn']}")
