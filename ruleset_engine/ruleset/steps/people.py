"""The steps that speak with people: ask (a decision) and say (a line of the chronicle)."""

from __future__ import annotations

from dataclasses import dataclass

from ruleset_engine.dice.kinds import BOOL, NUM, POOL, STR

from ..model import Formula, Step
from ..templates import Template
from ..yamlio import position_of
from .kind import StepKind

ASK_KINDS = ("number", "choice", "yes_no", "pick", "text")
TEXT_LONGEST = 200        # a text answer's length when text: gives no max (the schema allows up to 1,000)


@dataclass(slots=True)
class AskStep(Step):
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


@dataclass(slots=True)
class SayStep(Step):
    text: Template


def check_ask(c, item, path, scope):
    p = tuple(path)
    kinds = [k for k in ASK_KINDS if k in item]
    if len(kinds) != 1:
        c.problem("ask takes exactly one of number:, choice:, yes_no:, pick: or text:", p)
        c.bind(scope, item["as"], p + ("as",), "ask")     # so no problem follows from it
        return None
    kind = kinds[0]
    prompt = c.text(item.get("ask"), p + ("ask",), scope)
    if kind == "text":
        return check_text_ask(c, item, path, scope, prompt)
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
    bounded), and its auto: is a text, with placeholders, that stands in for what a person would write."""
    p = tuple(path)
    c.bind(scope, item["as"], p + ("as",), "ask")     # bound even when refused, so no problem follows from it
    spec = item["text"] if isinstance(item["text"], dict) else {}
    low, high = spec.get("min", 1), spec.get("max", TEXT_LONGEST)
    if low > high:
        c.problem(f"min {low} is above max {high}: no text could answer", p + ("text", "min"))
        return None
    if "default" in item:
        c.problem("a text question takes no default: (its auto: is the text given when nobody answers)",
                  p + ("default",), at_key=True)
        return None
    auto = c.text(item["auto"], p + ("auto",), scope)
    step = AskStep(position_of(c.data, path), path, item["as"], prompt, "text", auto,
                   who=c.text(item.get("who"), p + ("who",), scope))
    step.min, step.max = low, high
    return step if auto is not None else None


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
    answer, by = w.fresh("_a"), w.fresh("_b")
    if w.traced:
        w.line(f"{answer} = C.given()")
        w.line(f"if {answer} is not _NOTHING:")
        w.line(f"    {by} = C.given_by")
        w.line("elif C.auto:")
        with w.indent():
            auto = automatic(w, step)
            w.line(f"{answer} = C.took_auto(_auto_answer({decision}, {auto}))", step)
            w.line(f"{by} = 'auto'")
        w.line("else:")
        w.line(f"    raise _NeedDecision({decision})")
    else:
        auto = automatic(w, step)
        w.line(f"{answer} = _auto_answer({decision}, {auto})", step)
    kind = {"number": NUM, "yes_no": BOOL, "choice": STR, "pick": POOL, "text": STR}[step.kind]
    var = w.local(step.var)
    if step.kind == "pick":
        w.line(f"{var} = _{'' if w.traced else 'u_'}picked({decision}, {answer})")
    else:
        w.line(f"{var} = {answer}")
    w.bound(step.var, kind)
    if w.traced:
        w.emit("ask", decision=f"{decision}.to_json()", answer=answer, by=by)


def automatic(w, step: AskStep) -> str:
    """The auto: answer's source: a formula's value, or for a text question its text, rendered now
    (in both modes, so a simulation stores the same words the table would)."""
    if step.kind == "text":
        return f"str({w.text(step.auto)})"
    return w.value(step.auto)[0]


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
    if step.kind == "text":       # words: its auto: is a text, rendered for each game
        m.bind(step.var, rows, m.answers(step, rows, m.render(step.auto, rows), None, None, None))
        return
    low = m.per_row(m.number(step.min, rows), rows) if step.min is not None else None
    high = m.per_row(m.number(step.max, rows), rows) if step.max is not None else None
    pool = m.pool_value(step.source, rows) if step.source is not None else None
    if step.default is not None:
        m.value(step.default, rows)      # only shown at the table, but read there (it may roll, or fail)
    auto = m.value(step.auto, rows)
    m.bind(step.var, rows, m.answers(step, rows, auto, low, high, pool))


def vector_say(m, step, rows) -> None:
    """A simulation keeps no chronicle: nothing to do for many games at once either."""


ASK = StepKind("ask", AskStep, ("ask", "as", "who", "number", "choice", "yes_no", "pick", "text", "default", "auto"),
               "a decision for a person: a number, a choice, yes or no, dice picked from a pool, or a text "
               "(text: {max: 80}, its auto: a text); auto: answers it when nobody does (dusk simulate, auto N)",
               'ask: "{p.name}: how many dice?"\nas: risk\nnumber: {min: 1, max: p.dice}\nauto: p.dice',
               check_ask, lower_ask, vector=vector_ask)
SAY = StepKind("say", SayStep, ("say",), "a line of the chronicle", 'say: "The guard strikes for {white}."',
               check_say, lower_say, vector=vector_say)
