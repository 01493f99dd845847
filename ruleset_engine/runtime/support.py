"""The helpers a ruleset's program calls that belong to no step kind: values as the game state
keeps them, the coercions of step arguments, decisions, and the names shown in the log."""

from __future__ import annotations

from ruleset_engine import i18n
from ruleset_engine.dice import DiceError, Die, FacesList, Pool
from ruleset_engine.dice.values import as_face, kind_of
from ruleset_engine.dice.runtime import MAX_NUMBER
from ruleset_engine.ruleset.instance_names import instance_named as find_named
from ruleset_engine.ruleset.instance_names import name_key, no_instance_named
from ruleset_engine.ruleset.model import MAX_BOXES, MAX_GROUP
from ruleset_engine.ruleset.steps import StepFailed
from ruleset_engine.ruleset.templates import LocalText, format_value, is_language_map

from .decisions import Decision
from .errors import DecisionError
from .loop_plan import no_end_inside


def group_size(n: int, entity: str, most: int = MAX_GROUP) -> int:
    """How many instances a group starts with: 0 or more, within the limit (the group's max:)."""
    if n > most:
        raise StepFailed(i18n._("a group of {n} {entity} instances is past the limit ({most})").format(
                             n=i18n.number(n), entity=entity, most=i18n.number(most)))
    return max(0, n)


def track_boxes(n: int, what: str) -> range:
    """The labels of a track whose `boxes:` is a formula: 1..n, n from 1 to the limit."""
    if not 1 <= n <= MAX_BOXES:
        raise StepFailed(i18n._("{what} gives {n}: a track has 1 to {limit} boxes").format(
                             what=what, n=n, limit=i18n.number(MAX_BOXES)))
    return range(1, n + 1)


def to_state(value):
    """A value as the game state keeps it: plain JSON (a pool becomes its faces, which remember
    their Pool so a formula reads them back for free; a text in several languages, a mapping)."""
    if isinstance(value, Pool):
        return FacesList(value)
    if isinstance(value, LocalText):
        return dict(value.texts)
    return value


def too_big(value: int):
    raise StepFailed(i18n._("{value} is past the limit of numbers ({limit})").format(
                         value=i18n.number(value), limit=i18n.number(MAX_NUMBER)) if abs(value) < 10**60 else
                     i18n._("a number of {count} digits is past the limit of numbers ({limit})").format(
                         count=i18n.number(len(str(abs(value)))), limit=i18n.number(MAX_NUMBER)))


MAX_TEXT_LENGTH = 100_000     # characters in one text a ruleset builds


def text_ok(text) -> None:
    """A text just built, held to the limit of texts: a note that shows a text twice, again and
    again, is how a text could grow without end."""
    for one in text.texts.values() if isinstance(text, LocalText) else (text,):
        if len(one) > MAX_TEXT_LENGTH:
            raise StepFailed(i18n._("this text would be {count} characters long, past the limit of texts "
                                    "({limit})").format(
                                 count=i18n.number(len(one)), limit=i18n.number(MAX_TEXT_LENGTH)))


def whole(value, what: str) -> int:
    """A step's number (a repeat's times, a bound, a count): a pool means its total."""
    if isinstance(value, Pool):
        return value.total
    if isinstance(value, tuple):
        return sum(value)
    if type(value) is not int:
        raise StepFailed(i18n._("{what} must be a whole number, not {value}").format(
                             what=what, value=repr(format_value(value))))
    return value


def truth_value(value) -> bool:
    if type(value) is bool:
        return value
    if type(value) is int:
        return value != 0
    raise StepFailed(i18n._("a condition must be true or false, not {value}").format(
                         value=repr(format_value(value))))


def fmt(value, lang: str, words: dict | None = None) -> str:
    """A value shown in a text. `words`: the ruleset's labels (`words:`, language -> {name: label}), by
    which a text that is a name (a choice: `human`) and a track's mark types show in that language."""
    if isinstance(value, tuple):
        value = list(value)
    labels = words.get(lang) if words else None
    if labels:
        if type(value) is str and value in labels:
            return labels[value]
        if isinstance(value, dict) and value.get("marks") and "labels" in value:
            from ruleset_engine.ruleset.marks import shown_marks

            return f"{value['marked']}/{value['size']} ({shown_marks(value, labels)})"
    return format_value(value, lang)


def formatter(words: dict):
    """fmt bound to a ruleset's labels (the program's `_fmt`)."""
    if not words:
        return fmt
    return lambda value, lang: fmt(value, lang, words)


def plain_text(pieces: tuple):
    """A text written as a plain string: its literal pieces and the values of its placeholders, in
    order. When a value is a text in several languages, so is the result (one text per language)."""
    languages: list = []
    for piece in pieces:
        texts = piece.texts if isinstance(piece, LocalText) else piece if is_language_map(piece) else None
        for lang in texts or ():
            if lang not in languages:
                languages.append(lang)
    if not languages:
        return _joined(pieces, None)
    return LocalText({lang: _joined(pieces, lang) for lang in languages})


def _joined(pieces: tuple, lang) -> str:
    return "".join(piece if type(piece) is str else fmt(piece, lang) for piece in pieces)


def shown(held, target: tuple) -> str:
    """A place written through a local: through a local holding an instance, the instance's name."""
    if isinstance(held, dict) and "name" in held:
        return ".".join((str(held["name"]),) + tuple(target[1:]))
    return ".".join(target)


REPORTED = i18n.N_("a report gives a number (a pool gives its total) or true/false, not a text")


def reported() -> str:
    """The refusal of a report that gives a text, in the table's language."""
    return i18n._(REPORTED)


def report_value(value):
    """A report's value: a number (a pool's total) or true/false."""
    if isinstance(value, Pool):
        return value.total
    if isinstance(value, tuple):
        return sum(value)
    if type(value) is not int and type(value) is not bool:
        raise StepFailed(i18n._("a report gives a number (a pool gives its total) or true/false, not {value}").format(
            value=repr(format_value(value))))
    return value


def decision(identity, var, kind, prompt, who, low, high, choices, pool, default) -> Decision:
    """The question an ask: step puts, with its valid answers."""
    made = Decision(id=identity, var=var, kind=kind, prompt=str(prompt), who=str(who) if who is not None else None,
                    min=low, max=high, choices=choices)
    if isinstance(prompt, LocalText):
        made.texts = dict(prompt.texts)
    if kind == "pick":
        if isinstance(pool, Pool):
            made.pool = tuple(pool.faces)
            kinds = tuple(d.kind for d in pool.dice)
        else:
            made.pool = tuple(int(f) for f in pool)
            kinds = tuple(kind_of(f) for f in pool)
        # The dice picked are dice of this pool: they keep its kinds (see picked_kinds).
        made.kinds = kinds if any(k is not None for k in kinds) else None
    if default is not None:
        made.default = default.faces if isinstance(default, Pool) else list(default) if isinstance(default, tuple) \
            else default
    if low is not None and high is not None and low > high:
        raise StepFailed(i18n._("this question has no valid answer (min {low} is above max {high})").format(
                             low=low, high=high))
    return made


def auto_answer(asked: Decision, value):
    """The auto: formula's answer, checked like a person's."""
    if isinstance(value, Pool):
        value = value.faces
    elif isinstance(value, tuple):
        value = [int(f) for f in value]     # faces of kinds are answered as the numbers they show
    try:
        return asked.check(value)
    except DecisionError as err:
        raise StepFailed(i18n._("the auto: answer is not valid: {error}").format(error=err)) from None


def picked_kinds(asked: Decision, faces) -> list:
    """The kind of each die picked: a face answered is the earliest die of the pool not yet picked
    that shows it (so a pick from of(hand, wild) gives wild dice)."""
    if asked.kinds is None:
        return [None] * len(faces)
    taken: set = set()
    out = []
    for face in faces:
        i = next(i for i, f in enumerate(asked.pool) if f == face and i not in taken)
        taken.add(i)
        out.append(asked.kinds[i])
    return out


def picked(asked: Decision, faces) -> Pool:
    """A pick's answer at the table: dice of the pool picked from, with their kinds."""
    return Pool(tuple(Die(f, None, kind=k) for f, k in zip(faces, picked_kinds(asked, faces))))


def u_picked(asked: Decision, faces) -> tuple:
    """A pick's answer in a simulation: faces, a face of a kind keeping it."""
    if asked.kinds is None:
        return tuple(faces)
    return tuple(as_face(f, k) for f, k in zip(faces, picked_kinds(asked, faces)))


def in_level(block, level: str, where: str) -> None:
    """A begin:, finish: or then: block, where `end: LEVEL` has no iteration to end."""
    from .signals import EndLevel

    try:
        block()
    except EndLevel as end:
        # Raised with the end: step's own frames, so the error is placed at that step (as lockstep places it).
        raise StepFailed(no_end_inside(end.level, where)).with_traceback(end.__traceback__) from None


def default_said(action, param, formula) -> str:
    """How a message names a parameter's default: `attack target: the default best_of(..)`."""
    return i18n._("{action} {param}: the default {formula}").format(action=action.name, param=param.name,
                                                                   formula=formula.text)


def default_arg(value, low, high, what: str):
    """An integer parameter's default read from a formula, held to the parameter's bounds as a
    value typed at the table is (what: "ACTION PARAM: the default TEXT")."""
    if type(value) is not int or (low is not None and value < low) or (high is not None and value > high):
        span = i18n._(" from {low} to {high}") if low is not None and high is not None else \
            i18n._(" of at least {low}") if low is not None else i18n._(" of at most {high}") if high is not None else ""
        span = span.format(low=low, high=high)
        raise StepFailed(i18n._("{what} gives {value}, not a whole number{span}").format(
                             what=what, value=format_value(value), span=span))
    return value


def default_truth(value, what: str) -> bool:
    """A yes/no parameter's default read from a formula: true or false, nothing else."""
    if type(value) is not bool:
        raise StepFailed(i18n._("{what} gives {value}, not true or false").format(
                             what=what, value=format_value(value)))
    return value


def default_choice(value, choices: tuple, what: str) -> str:
    """A choice parameter's default read from a formula: one of the choices."""
    if not isinstance(value, str) or value not in choices:
        shown = repr(value) if isinstance(value, str) else format_value(value)
        raise StepFailed(i18n._("{what} gives {shown}, not one of {choices}").format(
                             what=what, shown=shown, choices=", ".join(choices)))
    return value


def default_entity(value, instances, what: str) -> str:
    """An entity parameter's default read from a formula: an instance, or the name of one."""
    items = instances if isinstance(instances, list) else [instances] if isinstance(instances, dict) else []
    name = value.get("name") if isinstance(value, dict) else value
    for instance in items:
        if isinstance(name, str) and name_key(instance.get("name", "")) == name_key(name):
            return instance["name"]
    names = ", ".join(str(i.get("name")) for i in items) or i18n._("none yet")
    raise StepFailed(i18n._("{what} gives {value}, which names none of them ({names})").format(
                         what=what, value=format_value(value), names=names))


def formula_arg(text, instance, what: str) -> int:
    """An action parameter of type formula: its value over the fields of the instance (over.py)."""
    from ruleset_engine.ruleset import over

    try:
        return over.evaluate(str(text), instance)
    except DiceError as err:
        raise StepFailed(f"{what}: {err}") from None


def formula_reads(text) -> list:
    """The fields a formula parameter names (already checked to be fields), each once, in the order
    written: what its reads: name holds."""
    from ruleset_engine.ruleset import over

    return over.names_read(str(text))


def add_sheets(instances: list, make, sheets: tuple, run, entity: str, most: int, rules: dict, traced: bool) -> None:
    """The instances the sheets give (the ruleset's, then the run's for this group), made as create:
    makes one (the group's fields, then the sheet's), their tracks marked as the sheet says. A sheet
    the table brought takes the place of the ruleset's of the same name."""
    from ruleset_engine.ruleset.marks import mark_typed
    from ruleset_engine.ruleset.steps.places import mark

    taken = {name_key(i.get("name", "")) for i in instances}
    brought = tuple(s for s in getattr(run, "sheets", ()) if s.group == entity)
    replaced = {name_key(s.name) for s in brought}
    for sheet in tuple(s for s in sheets if name_key(s.name) not in replaced) + brought:
        if name_key(sheet.name) in taken:
            raise StepFailed(i18n._("the sheet {sheet}: the group {entity} has an instance named {name} "
                                    "already").format(sheet=sheet.file or sheet.name, entity=repr(entity), name=repr(sheet.name)))
        if len(instances) >= most:
            raise StepFailed(i18n._("the sheet {sheet}: the group {entity} holds {most} already").format(
                                 sheet=sheet.file or sheet.name, entity=repr(entity), most=i18n.number(most)))
        instance = make(instances[-1]["index"] + 1 if instances else 1, sheet.name)
        instance.update(dict(sheet.fields))
        for track, kind, count in sheet.marks:
            if kind is None:
                mark(instance[track], count, False)
            else:
                mark_typed(instance[track], count, kind, rules[track], False)
        instances.append(instance)
        taken.add(name_key(sheet.name))
        if traced:
            run.emit("create", entity=entity, name=sheet.name)


def instance_named(instances, name):
    """The instance of an entity (or group) an action's entity parameter names."""
    found = find_named(instances if isinstance(instances, list) else [instances], name)
    if found is None:
        raise StepFailed(no_instance_named(name))
    return found
