"""The steps that speak with people: ask (a decision) and say (a line of the chronicle)."""

from __future__ import annotations

from ruleset_engine import i18n
from ruleset_engine.i18n import _

from dataclasses import dataclass

from ruleset_engine.dice.kinds import ANY, BOOL, NUM, POOL, STR

from ..model import Formula, Step
from ..templates import Template, as_text
from ..yamlio import position_of
from .kind import StepFailed, StepKind, nothing

ASK_KINDS = ("number", "choice", "yes_no", "pick", "text", "choose")
TEXT_LONGEST = 200        # a text answer's length when text: gives no max (the schema allows up to 1,000)


@dataclass(slots=True, repr=False, eq=False)
class AskStep(Step):
    """A checked `ask:` step."""

    var: str
    prompt: Template | None
    kind: str                   # number, choice, yes_no, pick, text
    auto: Formula | Template    # a text question's auto: is a text, with placeholders
    min: Formula | None = None
    max: Formula | None = None
    choices: tuple[str, ...] = ()
    source: Formula | None = None   # pick: the pool to pick from
    default: Formula | None = None
    who: Template | None = None
    group: str | None = None        # choose: the group whose instances are offered
    only: Formula | None = None     # choose: where:, read over each instance
    several: bool = False           # choose: with min:/max:, a list of instances; else one


@dataclass(slots=True, repr=False, eq=False)
class SayStep(Step):
    """A checked `say:` step."""

    text: Template


def check_ask(c, item, path, scope):
    p = tuple(path)
    kinds = [k for k in ASK_KINDS if k in item]
    if len(kinds) != 1:
        c.problem(_("ask takes exactly one of number:, choice:, yes_no:, pick:, text: or choose:"), p)
        c.bind(scope, item["as"], p + ("as",), "ask")     # so no problem follows from it
        return None
    kind = kinds[0]
    prompt = c.text(item.get("ask"), p + ("ask",), scope)
    if kind != "text" and isinstance(item["auto"], dict):
        c.problem(_("only a text question's auto: is a text, with one per language; this auto: is a "
                    "formula"), p + ("auto",))
        c.bind(scope, item["as"], p + ("as",), "ask")     # so no problem follows from it
        return None
    if kind == "text":
        return check_text_ask(c, item, path, scope, prompt)
    if kind == "choose":
        return check_choose(c, item, path, scope, prompt)
    step = AskStep(position_of(c.data, path), path, item["as"], prompt, kind,
                   c.formula(item["auto"], p + ("auto",), scope),
                   default=c.formula(item.get("default"), p + ("default",), scope),
                   who=c.text(item.get("who"), p + ("who",), scope))
    if kind == "number":
        spec = item["number"] or {}
        step.min = c.formula(spec.get("min"), p + ("number", "min"), scope)
        step.max = c.formula(spec.get("max"), p + ("number", "max"), scope)
    elif kind == "choice":
        step.choices = tuple(item["choice"])
    elif kind == "pick":
        spec = item["pick"]
        step.source = c.formula(spec["from"], p + ("pick", "from"), scope)
        step.min = c.formula(spec.get("min"), p + ("pick", "min"), scope)
        step.max = c.formula(spec.get("max"), p + ("pick", "max"), scope)
    c.bind(scope, item["as"], tuple(path) + ("as",), "ask")
    return step if step.auto is not None else None


def check_text_ask(c, item, path, scope, prompt):
    """A question answered in words: its bounds of length are fixed numbers (a typed answer is always
    bounded), and its auto: is a text, with placeholders, that stands in for what a person would write
    (a string, or one per language as every text may be: the table's language picks it)."""
    p = tuple(path)
    c.bind(scope, item["as"], p + ("as",), "ask")     # bound even when refused, so no problem follows from it
    spec = item["text"] if isinstance(item["text"], dict) else {}
    low, high = spec.get("min", 1), spec.get("max", TEXT_LONGEST)
    if low > high:
        c.problem(_("min {low} is above max {high}: no text could answer").format(low=low, high=high),
                  p + ("text", "min"))
        return None
    if "default" in item:
        c.problem(_("a text question takes no default: (its auto: is the text given when nobody "
                    "answers)"),
                  p + ("default",), at_key=True)
        return None
    auto = c.text(item["auto"], p + ("auto",), scope)
    step = AskStep(position_of(c.data, path), path, item["as"], prompt, "text", auto,
                   who=c.text(item.get("who"), p + ("who",), scope))
    step.min, step.max = low, high
    return step if auto is not None else None


def check_choose(c, item, path, scope, prompt):
    """Instances of a group chosen at the table, offered by name: one (bound as the instance), or with
    min:/max: several (bound as a list, in the group's order). auto: gives one instance (or its name),
    or for several a test read over each instance offered: those that meet it."""
    from ..queries import check_over

    p = tuple(path)
    spec = item["choose"]
    group = spec["of"]
    several = "min" in spec or "max" in spec
    c.bind(scope, item["as"], p + ("as",), "ask", None if several else ("entity", group))
    if group not in c.entities or not c.entities[group]["group"]:
        groups = [g for g, e in c.entities.items() if e["group"]]
        c.problem(_("choose: offers the instances of a group ({groups}), not {group!r}{hint}").format(
                      groups=", ".join(groups) or _("this ruleset has none"), group=group,
                      hint=c.suggest(group, groups)), p + ("choose", "of"))
        return None
    if "default" in item:
        c.problem(_("a choice among a group takes no default: (the instances offered change as the "
                    "game goes)"),
                  p + ("default",), at_key=True)
        return None
    where = check_over(c, spec["where"], p + ("choose", "where"), scope, group, "choose: where:") \
        if spec.get("where") is not None else None
    if several:
        auto = check_over(c, item["auto"], p + ("auto",), scope, group, "auto:")
    else:
        auto = c.formula(item["auto"], p + ("auto",), scope)
    step = AskStep(position_of(c.data, path), path, item["as"], prompt, "choose", auto,
                   min=c.formula(spec.get("min"), p + ("choose", "min"), scope),
                   max=c.formula(spec.get("max"), p + ("choose", "max"), scope),
                   who=c.text(item.get("who"), p + ("who",), scope), group=group, only=where, several=several)
    if spec.get("where") is not None and where is None or auto is None:
        return None
    return step


def nothing_offered(group: str) -> str:
    """What a choice among a group says when no instance is offered (in the table's language)."""
    return _("nothing to choose: no {group} is offered").format(group=group)


def offered(group: list, where) -> list:
    """The instances a choice offers: those that meet where:, in the group's order."""
    return [it for it in group if where is None or where(it)]


def chosen(group: list, answer, several: bool):
    """The answer (a name, or a list of names) as the instances: one, or a list in the group's order."""
    if not several:
        return next(it for it in group if it.get("name") == answer)
    names = set(answer)
    return [it for it in group if it.get("name") in names]


def auto_named(value, group_name: str):
    """A choice's auto: as the name it answers with: an instance gives its name, a text is one."""
    if isinstance(value, dict) and "name" in value:
        return value["name"]
    if isinstance(value, str):
        return value
    from ..templates import format_value
    raise StepFailed(_("the auto: answer is not valid: it gives {value!r}, not an instance of "
                       "{group_name} or its name").format(
                         value=format_value(value), group_name=group_name))


def lower_choose(w, step: AskStep, prompt: str, who: str) -> None:
    from ..queries import TEST, lower_over

    group = w.group(step.group)
    where = lower_over(w, step.only, step.group, TEST, "choose: where:") if step.only is not None else "None"
    offer = w.fresh("_o")
    w.line(f"{offer} = _offered({group}, {where})", step)
    if step.several:
        low = w.number(step.min, "min") if step.min is not None else "0"
        high = w.number(step.max, "max") if step.max is not None else f"len({offer})"
        high = f"min({high}, len({offer}))"
        kind = "instances"
    else:
        low = high = "None"
        kind = "instance"
    decision = w.fresh("_d")
    identity = "/".join(map(str, step.path))
    w.line(f"{decision} = _decision({identity!r}, {step.var!r}, {kind!r}, {prompt}, {who}, {low}, {high}, "
           f"tuple(_it['name'] for _it in {offer}), (), None)", step)
    if not step.several:
        w.line(f"if not {offer}: raise _StepFailed(_nothing_offered({step.group!r}))", step)

    def auto() -> str:
        if step.several:
            test = lower_over(w, step.auto, step.group, TEST, "auto:")
            return f"[_it['name'] for _it in {offer} if {test}(_it)]"
        return f"_auto_named({w.value(step.auto)[0]}, {step.group!r})"

    answer, by = take_answer(w, step, decision, auto)
    w.line(f"{w.local(step.var)} = _chosen({group}, {answer}, {step.several})")
    w.bound(step.var, ANY, entity=None if step.several else step.group)
    if w.traced:
        w.emit("ask", decision=f"{decision}.to_json()", answer=answer, by=by)


def check_say(c, item, path, scope):
    text = c.text(item["say"], tuple(path) + ("say",), scope)
    return SayStep(position_of(c.data, path), path, text) if text else None


def lower_ask(w, step: AskStep) -> None:
    """The question's bounds and default are read in the same order in both modes; a person (or,
    when nobody answers, the auto: formula) gives the answer."""
    prompt = w.text(step.prompt) if w.traced and step.prompt is not None else repr(step.var)
    who = w.text(step.who) if w.traced and step.who is not None else "None"
    if not w.traced:
        for text in (step.prompt, step.who):
            if text is not None:
                w.text_checked(text)
    if step.kind == "choose":
        lower_choose(w, step, prompt, who)
        return
    if step.kind == "text":          # lengths, fixed at load
        low, high = repr(step.min), repr(step.max)
    else:
        low = w.number(step.min, "min") if step.min is not None else "None"
        high = w.number(step.max, "max") if step.max is not None else "None"
    pool = w.value(step.source)[0] if step.source is not None else "()"
    default = w.value(step.default)[0] if step.default is not None else "None"
    decision = w.fresh("_d")
    identity = "/".join(map(str, step.path))
    w.line(f"{decision} = _decision({identity!r}, {step.var!r}, {step.kind!r}, {prompt}, {who}, {low}, {high}, "
           f"{step.choices!r}, {pool}, {default})", step)
    answer, by = take_answer(w, step, decision, lambda: automatic(w, step))
    kind = {"number": NUM, "yes_no": BOOL, "choice": STR, "pick": POOL, "text": STR}[step.kind]
    var = w.local(step.var)
    if step.kind == "pick":
        w.line(f"{var} = _{'' if w.traced else 'u_'}picked({decision}, {answer})")
    else:
        w.line(f"{var} = {answer}")
    w.bound(step.var, kind)
    if w.traced:
        w.emit("ask", decision=f"{decision}.to_json()", answer=answer, by=by)


def take_answer(w, step: AskStep, decision: str, auto) -> tuple[str, str]:
    """The lines that take a decision's answer: at the table the one given (or, when the table plays
    itself, the auto: answer, written by `auto()` only there), else the question waits; untraced,
    the auto: answer. Returns the names of the answer and of who gave it (traced only)."""
    answer, by = w.fresh("_a"), w.fresh("_b")
    if w.traced:
        w.line(f"{answer} = C.given()")
        w.line(f"if {answer} is not _NOTHING:")
        w.line(f"    {by} = C.given_by")
        w.line("elif C.auto:")
        with w.indent():
            w.line(f"{answer} = C.took_auto(_auto_answer({decision}, {auto()}))", step)
            w.line(f"{by} = 'auto'")
        w.line("else:")
        w.line(f"    raise _NeedDecision({decision})")
    else:
        w.line(f"{answer} = _auto_answer({decision}, {auto()})", step)
    return answer, by


def automatic(w, step: AskStep) -> str:
    """The auto: answer's source: a formula's value, or for a text question its text, rendered now
    (in both modes, so a simulation stores the same words the table would)."""
    if step.kind == "text":
        return f"_table_words({w.text(step.auto)})"
    return w.value(step.auto)[0]


def table_words(text) -> str:
    """A text question's auto: answer as a person at the table would give it: one text, in the table's
    language when the auto: has one per language (else by the fallback every text takes: FALLBACK)."""
    return as_text(text, i18n.language())


def lower_say(w, step: SayStep) -> None:
    if not w.traced:
        w.line("pass  # say: a simulation keeps no chronicle")
        w.text_checked(step.text)
        return
    text = w.text(step.text)
    w.emit("say", text=f"_to_state({text})")


def vector_ask(m, step: AskStep, rows) -> None:
    """A simulation answers with auto:, so many games answer at once: the bounds, the pool and the
    default read in the order lower_ask reads them, then auto:, each game's answer checked as a
    person's would be (the machine's answers(): Decision.check, once per distinct answer)."""
    if step.kind == "choose":
        vector_choose(m, step, rows)
        return
    if step.kind == "text":       # words: its auto: is a text, rendered for each game in the table's language
        words = m.render(step.auto, rows)
        if len(step.auto.parts) > 1:        # each game's LocalText, in the table's language
            words[:] = [table_words(text) for text in words]
        m.bind(step.var, rows, m.answers(step, rows, words, None, None, None))
        return
    low = m.per_row(m.number(step.min, rows), rows) if step.min is not None else None
    high = m.per_row(m.number(step.max, rows), rows) if step.max is not None else None
    pool = m.pool_value(step.source, rows) if step.source is not None else None
    if step.default is not None:
        m.value(step.default, rows)      # only shown at the table, but read there (it may roll, or fail)
    auto = m.value(step.auto, rows)
    m.bind(step.var, rows, m.answers(step, rows, auto, low, high, pool))


def _ask_formulas(step: AskStep) -> list:
    # auto: of a text question is a text, and a text's min:/max: are plain numbers, not formulas.
    return [v for v in (step.auto, step.min, step.max, step.source, step.default, step.only) if isinstance(v, Formula)]


def vector_choose(m, step: AskStep, rows) -> None:
    """A choice among a group for many games: the instances offered (where: over each, in the group's
    order), min:/max: read after them as lower_choose reads them, then auto:, each distinct answer
    checked as the untraced program checks it (m.groups.checked: the same question, the same
    message); bound as an instance per game, or for several the instances chosen per game."""
    from ..queries import TEST

    np, groups = m.np, m.groups
    over = groups.over(step.group, rows)
    n = len(rows)
    where = groups.each(step.group, step.only.expr.tree, TEST, rows) if step.only is not None else None
    offered = np.zeros((n, over.most), bool)
    for j in range(over.most):
        present = over.present(j)
        offered[:, j] = present & where(j, present) if where is not None else present
    many = offered.sum(axis=1)
    if step.several:
        low = m.per_row(m.number(step.min, rows), rows) if step.min is not None else np.zeros(n, np.int64)
        high = m.per_row(m.number(step.max, rows), rows) if step.max is not None else many
        high = np.minimum(high, many)
        test = groups.each(step.group, step.auto.expr.tree, TEST, rows)
        picked = np.zeros((n, over.most), bool)
        for j in range(over.most):
            picked[:, j] = offered[:, j] & test(j, offered[:, j])
    else:
        if (many == 0).any():
            raise StepFailed(_("nothing to choose: no {group} is offered").format(group=step.group))
        auto = m.value(step.auto, rows)
        index = getattr(auto, "index", None)
    # The usual answer needs no look at the names: instances among those offered (several: as many as
    # min:..max: allow; one: an instance offered; names are unique in a group). Otherwise each game's
    # answer is checked as the untraced program checks it, so a wrong one stops with its message.
    if step.several:
        count = picked.sum(axis=1)
        if ((count >= low) & (count <= high)).all():
            m.bind(step.var, rows, groups.chosen(step.group, picked))
            return
    elif index is not None:
        inside = (index >= 0) & (index < over.most)
        fine = inside.copy()
        fine[inside] = offered[np.flatnonzero(inside), index[inside]]
        if fine.all():
            m.bind(step.var, rows, groups.instances(step.group, index))
            return
    names = [groups.names(step.group, j, rows) for j in range(over.most)]     # read only when checked one by one
    checked: dict = {}
    out = np.full(n, -1, np.int64) if not step.several else np.zeros((n, over.most), bool)
    for k in range(n):
        offer = tuple(str(names[j][k]) for j in range(over.most) if offered[k, j])
        if step.several:
            lo, hi = int(low[k]), int(high[k])
            answer = [str(names[j][k]) for j in range(over.most) if picked[k, j]]
            key = (offer, lo, hi, tuple(answer))
        else:
            lo = hi = None
            if index is not None:       # an instance (the entity itself: not one of the group's)
                answer = str(names[int(index[k])][k]) if index[k] >= 0 else auto_named({}, step.group)
            else:
                answer = auto_named(m.per_row(auto, rows)[k], step.group)
            key = (offer, answer)
        if key not in checked:
            checked[key] = m.groups.checked(step, "instances" if step.several else "instance", offer, lo, hi, answer)
        given = checked[key]
        if step.several:
            wanted = set(given)
            out[k] = [bool(j < len(names) and over.count[k] > j and str(names[j][k]) in wanted)
                      for j in range(over.most)]
        else:
            out[k] = next(j for j in range(over.most) if over.count[k] > j and str(names[j][k]) == given)
    m.bind(step.var, rows, groups.chosen(step.group, out) if step.several else groups.instances(step.group, out))


def vector_say(m, step, rows) -> None:
    """A simulation keeps no chronicle: nothing to do for many games at once either."""


ASK = StepKind("ask", AskStep, ("ask", "as", "who", "number", "choice", "yes_no", "pick", "text", "choose", "default",
                                "auto"),
               "a decision for a person: a number, a choice, yes or no, dice picked from a pool, a text "
               "(text: {max: 80}, its auto: a text, or one per language), or instances of a group (choose: {of: GROUP, where: TEST}); "
               "auto: answers it when nobody does (dusk simulate, auto N)",
               'ask: "{p.name}: how many dice?"\nas: risk\nnumber: {min: 1, max: p.dice}\nauto: p.dice',
               check_ask, lower_ask, vector=vector_ask,
               helpers={"_offered": offered, "_table_words": table_words, "_chosen": chosen, "_auto_named": auto_named,
                        "_nothing_offered": nothing_offered},
               writes=nothing, binds=lambda s: [(s.var, None)], answers=lambda s: [s.var],
               formulas=_ask_formulas,
               schema={
                   "ask": {"$ref": "#/$defs/text"},
                   "as": {"$ref": "#/$defs/name"},
                   "who": {"$ref": "#/$defs/text"},
                   "number": {"type": "object", "additionalProperties": False,
                              "properties": {"min": {"$ref": "#/$defs/formula"}, "max": {"$ref": "#/$defs/formula"}}},
                   "choice": {"type": "array", "minItems": 1, "items": {"type": "string"}},
                   "yes_no": {"const": True},
                   "pick": {"type": "object", "required": ["from"], "additionalProperties": False,
                            "properties": {"from": {"$ref": "#/$defs/formula"}, "min": {"$ref": "#/$defs/formula"},
                                           "max": {"$ref": "#/$defs/formula"}}},
                   "text": {"type": ["object", "boolean"], "if": {"type": "boolean"}, "then": {"const": True},
                            "additionalProperties": False,
                            "properties": {"min": {"type": "integer", "minimum": 0, "maximum": 1000},
                                           "max": {"type": "integer", "minimum": 1, "maximum": 1000}},
                            "description": "A text answer of min (1) to max (200) characters; auto: is then a text."},
                   "choose": {"type": "object", "required": ["of"], "additionalProperties": False,
                              "properties": {"of": {"$ref": "#/$defs/name"}, "where": {"$ref": "#/$defs/formula"},
                                             "min": {"$ref": "#/$defs/formula"},
                                             "max": {"$ref": "#/$defs/formula"}},
                              "description": "Instances of a group, offered by name: those that meet where:. Without min:/max: one instance; with them, several (a list)."},
                   "default": {"$ref": "#/$defs/formula"},
                   "auto": {"anyOf": [{"$ref": "#/$defs/formula"}, {"$ref": "#/$defs/text"}],
                            "description": "The answer when nobody gives one: a formula; for a text question a text, or one per language."},
               },
               required=("as", "auto"),
               declares=("as",))
SAY = StepKind("say", SayStep, ("say",), "a line of the chronicle", 'say: "The guard strikes for {white}."',
               check_say, lower_say, vector=vector_say, writes=nothing, shows=lambda s: [s.text],
               schema={
                   "say": {"$ref": "#/$defs/text"},
               })
