"""A field of an instance set by hand between actions (`set Mara grit 3` at the table): the
fields a group's sheet template lets a sheet file give, within the template's bounds, and no other.

An edit is a turn of the game as an action is: the game before it is kept, so `undo` takes it back,
and its event says it in words (`Mara: grit 3 (was 1).`), so the chronicle and the session
file keep it, and `dusk resume` continues from the game as it stands after it.
"""

from __future__ import annotations

from ruleset_engine import i18n
from ruleset_engine.errors import DuskError
from ruleset_engine.ruleset.instance_names import name_key

from .errors import GameError

MAX_VALUE_TEXT = 200


def find_instance(game, name: str) -> tuple[str, dict]:
    """(group, instance) of the instance named `name` in a group with a sheet template; GameError
    naming those there are."""
    known = []
    for group, spec in game.ruleset.entities.items():
        if spec.sheet is None:
            continue
        for instance in _instances(game.values.get(group)):
            known.append(str(instance.get("name")))
            if name_key(str(instance.get("name"))) == name_key(name):
                return group, instance
    listed = ", ".join(known) or i18n._("none")
    raise GameError(i18n._("no one named {name} has a sheet (those who have one: {listed})").format(
                        name=repr(name), listed=listed))


def editable(game, group: str) -> list[str]:
    """The fields of a group that `set` may change: those its sheet template gives, not internal."""
    template = game.ruleset.entities[group].sheet
    return [f for f in template.fields if f not in template.internal]


def edit(game, name: str, field: str, text: str) -> dict:
    """Check a change of one field (a value typed as text); the event that says it. GameError,
    nothing changed, when it cannot be made."""
    if len(text) > MAX_VALUE_TEXT:
        raise GameError(i18n._("a value of at most {limit} characters").format(limit=MAX_VALUE_TEXT))
    group, instance = find_instance(game, name)
    fields = editable(game, group)
    if field not in fields:
        from difflib import get_close_matches

        guess = get_close_matches(field, fields, n=1)
        hint = i18n._(" (did you mean {guess}?)").format(guess=guess[0]) if guess else ""
        raise GameError(i18n._("{field} is not a field of {instance}'s sheet that can be set{hint}").format(
                            field=repr(field), instance=instance['name'], hint=hint))
    rule = game.ruleset.entities[group].sheet.fields[field]
    value: object = text
    if rule.number:
        try:
            value = int(text)
        except ValueError:
            raise GameError(i18n._("{field} takes a whole number, not {text}").format(field=field,
                                                                                     text=repr(text))) from None
    why = rule.problem(value)
    if why:
        raise GameError(why)
    return {"group": group, "name": instance["name"], "field": field, "value": value, "was": instance.get(field)}


def apply(game, changes: list[dict]) -> list[dict]:
    """Make checked changes (edit's, of one instance) as one turn of the game; its events. Nothing
    changes when there are none."""
    if game.pending is not None:
        raise GameError(i18n._("a decision is waiting: answer it first"))
    changes = [c for c in changes if c["value"] != c["was"]]      # a value it holds already changes nothing
    if not changes:
        return []
    before = game._save()
    try:
        for change in changes:
            _, instance = find_instance(game, change["name"])
            instance[change["field"]] = change["value"]
    except DuskError:
        game._put_back(before)
        raise
    base = len(game.log)
    events = [{"seq": base + i, "turn": game.turn, "kind": "set", "target": f"{c['name']}.{c['field']}",
               "value": c["value"]} for i, c in enumerate(changes)]
    said = ", ".join(i18n._("{field} {value} (was {was})").format(
        field=c["field"], value=_said(c["value"]), was=_said(c["was"])) for c in changes)
    events.append({"seq": base + len(changes), "turn": game.turn, "kind": "say",
                   "text": f"{changes[0]['name']}: {said}."})
    if game.record:
        game.log.extend(events)
        game.history.actions.append((before, base))
    game.turn += 1
    return events


def _said(value) -> str:
    return repr(value) if value == "" else str(value)


def _instances(value) -> list:
    return value if isinstance(value, list) else [value] if isinstance(value, dict) else []
