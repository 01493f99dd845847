"""The pages' own words (templates/ and static/), each through dusk's catalogs, in the table's language.

The server gives a page its words as `words` (`table_words()` for table.html, `join_words()` for
join.html); the template writes the ones it shows and hands them all to the page's script as JSON
(#words), which builds the rest of the page with them. Kept here, in Python, so that `make catalogs`
extracts them with every other message of dusk. A word given by `{name}` is filled in by the page.
"""

from __future__ import annotations

from ruleset_engine.i18n import N_, _

TABLE = {
    "you_are_gm": N_("You are the GM"),
    "you_play": N_("You play {name}"),
    "no_seat": N_("No seat yet"),
    "your_question": N_("Your question"),
    "waiting": N_("Waiting for an answer"),
    "no_question": N_("No question waits."),
    "send": N_("Send"),
    "yes": N_("yes"),
    "no": N_("no"),
    "chosen": N_("{n} chosen"),
    "roll": N_("Roll"),
    "rolls_asked": N_("A roll is asked of you"),
    "rolls_waiting": N_("Rolls asked for"),
    "the_log": N_("The chronicle"),
    "your_sheet": N_("Your sheet"),
    "sheets": N_("Every sheet"),
    "actions": N_("Actions"),
    "play": N_("Play"),
    "cancel": N_("Cancel"),
    "current": N_("(the current one)"),
    "default": N_("(as the rules say)"),
    "seats": N_("Seats"),
    "free": N_("free"),
    "taken": N_("taken"),
    "give_seat": N_("Give this seat"),
    "seat_link": N_("The link for {name} (open it on their phone):"),
    "gm_tools": N_("The GM's tools"),
    "undo": N_("Undo the last command"),
    "export": N_("Download the chronicle"),
    "secret_roll": N_("Secret roll (only you see it)"),
    "request_roll": N_("Ask a player for a roll"),
    "who": N_("Who"),
    "dice": N_("Dice"),
    "command": N_("Type a command"),
    "run": N_("Run"),
    "secret": N_("secret"),
    "requested": N_("asked by the GM"),
    "over": N_("The game is over: {result}."),
    "live": N_("Live"),
    "lost": N_("Connection lost: trying again..."),
    "not_allowed": N_("Not yours to do"),
    "unauthorized": N_("This link is not valid for this table: ask the GM for yours."),
    "too_fast": N_("Too many at once: wait a moment and try again."),
    "failed": N_("The server did not answer: try again."),
    "dice_faces": N_("The faces rolled, one per die"),
    "fields": N_("Every field"),
    "tables": N_("Tables"),
    "show": N_("Show"),
}

# A die's fate in words, for the legend under a roll (the same words as the terminal's legend).
FATES = {
    "counted": N_("counted"),
    "aside": N_("set aside"),
    "cancelled": N_("cancelled"),
    "dropped": N_("dropped"),
    "kept": N_("kept"),
    "exploded": N_("exploded"),
    "rerolled": N_("re-rolled"),
}

JOIN = {
    "pick": N_("Which character do you play?"),
    "none_free": N_("No seat is free: ask the GM."),
    "take": N_("Take this seat"),
    # static/api.js's words, on every page
    "unauthorized": TABLE["unauthorized"],
    "failed": TABLE["failed"],
    "not_allowed": TABLE["not_allowed"],
    "too_fast": TABLE["too_fast"],
}


def table_words() -> dict:
    """table.html's words in the table's language (the language set for this process)."""
    return {**{key: _(text) for key, text in TABLE.items()}, "fates": {key: _(text) for key, text in FATES.items()}}


def join_words() -> dict:
    """join.html's words in the table's language."""
    return {key: _(text) for key, text in JOIN.items()}
