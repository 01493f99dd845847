"""The JSON the server answers (docs/serve.md, API): log entries, the question, sheets, actions and tables.

Each view is plain data for one seat: what it may see, in the table's language, every die as data
beside the text the terminal shows. Nothing here changes the game.
"""

from __future__ import annotations

import io

from rich.console import Console
from rich.text import Text

import ruleset_engine as dusk
from ruleset_engine.i18n import _
from ruleset_engine.repl import render
from ruleset_engine.repl.commands import dice_question

# The keys of a decision's JSON form a question carries as they are (runtime/decisions.py).
QUESTION_KEYS = ("id", "kind", "valid", "min", "max", "choices", "pool", "sides", "default")


def plain(shown) -> str:
    """A renderable as the terminal shows it, plain (the dice's symbols, no colour)."""
    if isinstance(shown, Text):
        return shown.plain
    if isinstance(shown, str):
        return shown
    out = io.StringIO()
    Console(file=out, width=100, no_color=True, force_terminal=False, highlight=False, emoji=False,
            soft_wrap=True).print(shown)
    return out.getvalue().rstrip("\n")


def dice_of(event: dict) -> list:
    """Every die of a roll event as data: the event's own list, or its steps' dice."""
    if isinstance(event.get("dice"), list):
        return event["dice"]
    return [die for step in event.get("steps") or [] for die in step.get("dice") or []]


def entry(seq: int, event: dict, text: str) -> dict:
    """One log entry (docs/serve.md): its text and its dice."""
    data = {"seq": seq, "kind": event["kind"], "text": text, "secret": bool(event.get("secret")),
            "undone": bool(event.get("undone")), "who": event.get("who"), "dice": dice_of(event)}
    if event["kind"] in ("roll", "free-roll"):
        data.update(value=event.get("value"), expression=event.get("expression"))
    if event["kind"] == "roll-request":
        data.update(expression=event.get("expression"), request=event.get("request"),
                    cancelled=bool(event.get("cancelled")))
    return data


def question(repl, seat: str | None) -> dict | None:
    """The question that waits, for this seat (None: the GM): its kind, valid values and owner."""
    decision = repl.decision
    if decision is None:
        return None
    data = {key: value for key, value in decision.to_json().items() if key in QUESTION_KEYS}
    prompt = dusk.as_text(decision.texts, repl.style.lang) if decision.texts else decision.prompt
    if decision.kind == "dice":
        prompt = dice_question(decision, prompt)
    owner = repl.owner()
    data.update(prompt=prompt, valid=repl.valid(), owner=owner, mine=seat is None or seat == owner,
                owner_label=(_("{seat}'s question").format(seat=owner) if owner is not None
                             else _("the GM's question")))
    if decision.kind == "choice" and repl.labels.label_of:
        data["labels"] = [repl.labels.shown(c) for c in decision.choices]
    return data


def request(event: dict, seat: str | None) -> dict:
    return {"id": event["request"], "seat": event["who"], "expression": event["expression"],
            "text": _("The GM asks {seat} for a roll: {expression}").format(seat=event["who"],
                                                                            expression=event["expression"]),
            "mine": seat == event["who"]}


def sheet(game, name: str, lang: str) -> dict | None:
    """One instance of the seats group: its fields and its tracks, as the table shows them."""
    group = game.ruleset.seats
    spec = game.ruleset.entities.get(group) if group else None
    found = next((i for i in game.values.get(group) or [] if isinstance(i, dict) and i.get("name") == name), None)
    if spec is None or found is None:
        return None
    style = render.Style(lang)
    fields = [{"name": f, "value": found[f], "text": render.text_of(found[f], style)}
              for f in spec.fields if f in found and f != "name"]
    tracks = []
    for t in spec.tracks:
        held = found.get(t)
        if isinstance(held, dict):
            tracks.append({"name": t, "text": render.text_of(held, style), "marked": held.get("marked"),
                           "boxes": held.get("boxes", held.get("size")), "marks": held.get("marks")})
    return {"name": name, "fields": fields, "tracks": tracks}


def _bound(value):
    """A parameter's bound or default as the form shows it: a number, or a formula's text."""
    value = getattr(value, "text", value)
    return value if value is None or isinstance(value, (int, float, bool, str)) else str(value)


def actions(repl, seat: str | None) -> list:
    """The actions offered now that this seat may do, each with its declared parameters (for forms)."""
    game = repl.session.game
    ruleset = game.ruleset
    out = []
    for info in game.actions():
        mine = dusk.seat_parameter(ruleset, info.name)
        if seat is not None and mine is None:
            continue
        action = ruleset.actions[info.name]
        params = []
        for name, p in action.params.items():
            item = {"name": name, "word": p.word, "type": p.type, "of": p.of, "choices": list(p.choices),
                    "min": _bound(p.min), "max": _bound(p.max), "default": _bound(p.default),
                    "doc": dusk.as_text(p.doc, repl.style.lang) if p.doc else ""}
            if p.type == "entity":
                item["choices"] = [i["name"] for i in game.values.get(p.of) or []
                                   if isinstance(i, dict) and "name" in i]
            params.append(item)
        out.append({"name": info.name, "label": repl.labels.shown(info.name),
                    "doc": dusk.as_text(action.doc, repl.style.lang) if action.doc else "",
                    "seat_param": mine, "params": params})
    return out


def tables(repl) -> list:
    """The ruleset's tables, then its pairs' records, by the names `table NAME` takes (the REPL's
    `table` lists the same), each with its title in the table's language (else its label or name)."""
    ruleset, lang = repl.session.game.ruleset, repl.style.lang
    out = [{"name": name, "title": dusk.as_text(table.title, lang) if table.title is not None
            else repl.labels.shown(name)} for name, table in ruleset.tables.items()]
    out += [{"name": name, "title": dusk.as_text(pair.label, lang) if pair.label is not None
             else repl.labels.shown(name)} for name, pair in ruleset.pairs.items()]
    return out
