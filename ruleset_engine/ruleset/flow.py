"""What a ruleset does: its loop levels, actions (with their parameters), procedures, triggers
and end conditions. Each is built by a function that takes the checker (its reporting, formulas,
texts and steps) and one YAML item; the steps inside are each checked by their kind's entry."""

from __future__ import annotations

from ruleset_engine.i18n import N_, _

from . import model
from .names import Scope, procedure_param_names
from .yamlio import position_of


def level(c, i: int, spec) -> model.Level:
    path = ("loop", i)
    name = spec["name"]
    innermost = i == len(c.data["loop"]) - 1
    if spec.get("times") is None and spec.get("max") is None:
        c.problem(_("the loop level {name!r} has neither times: nor max:, so it could run forever").format(
                      name=name), path)
    if innermost and "steps" not in spec:
        c.problem(_("the innermost loop level {name!r} needs steps: (one table action plays them once)").format(
                      name=name), path)
    if not innermost and "steps" in spec:
        c.problem(_("only the innermost loop level has steps:; {name!r} has begin:, finish: and then:").format(
                      name=name),
                  path + ("steps",), at_key=True)
    params = action_params(c, spec.get("params") or {}, path + ("params",))
    scope = Scope(c.names, {p: (("entity", params[p].of) if params[p].type == "entity" else None) for p in params})
    bind_reads(c, params, scope, path)
    blocks = {}
    for part in ("begin", "finish", "then"):
        # No iteration is running there that `end: LEVEL` could end.
        with c.no_level_end(_("the {part}: of loop level {name!r}").format(part=part, name=name)):
            blocks[part] = c.steps(spec.get(part) or [], path + (part,), Scope(c.names))
    return model.Level(
        name=name,
        times=c.formula(spec.get("times"), path + ("times",), Scope(c.names)),
        max=spec.get("max"),
        begin=blocks["begin"], finish=blocks["finish"], then=blocks["then"],
        steps=guard_steps(c, params) + c.steps(spec.get("steps") or [], path + ("steps",), scope),
        params=params, doc=spec.get("doc"), label=spec.get("label"), where=position_of(c.data, path),
    )


def action_params(c, specs, path) -> dict:
    params = {}
    words: dict = {}
    for name, spec in specs.items():
        p = path + (name,)
        kind = spec["type"]
        if kind == "entity" and spec.get("of") not in c.entities:
            c.problem(_("'of' names no entity: {get!r}{hint}").format(
                          get=spec.get('of'), hint=c.suggest(spec.get('of'), c.entities)),
                      p + ("of",))
        if kind == "dice" and spec.get("default") is not None:
            c.formula(str(spec["default"]), p + ("default",), Scope(c.names))   # it is rolled: it must be one
        default = spec.get("default")
        word = spec.get("word")
        if word is not None:
            # The words a table types before values: each names one parameter, and none is another's name.
            if word in words or (word in specs and word != name):
                c.problem(_("the word {word!r} already names the parameter {get!r}").format(
                              word=word, get=words.get(word, word)), p + ("word",))
            words[word] = name
        over = spec.get("over")
        if kind == "formula":
            before = {k: s for k, s in params.items() if s.type == "entity"}
            if over not in before:
                c.problem(_("over: names an entity parameter declared before this one, and {over!r} is "
                            "none{value}").format(
                              over=over, value=c.suggest(over, before) if before else _(" (there is none)")),
                          p + ("over",))
            if default is not None and not isinstance(default, str):
                c.problem(_("the default of a formula parameter is a formula in quotes, not {default!r}").format(
                              default=default),
                          p + ("default",))
            elif default is not None:
                group = c.entities.get(params[over].of) if over in before else None
                from .over import formula_over_fields
                problem = formula_over_fields(default, group)
                if problem:
                    c.problem(_("the default {default!r}: {problem}").format(default=default, problem=problem),
                              p + ("default",))
        elif over is not None:
            c.problem(_("over: goes with type: formula"), p + ("over",), at_key=True)
        if spec.get("reads") is not None and kind != "formula":
            c.problem(_("reads: names the fields a formula parameter reads: it goes with type: formula"),
                      p + ("reads",), at_key=True)
        if spec.get("acts") is not None and kind != "entity":
            c.problem(_("acts: says whether an entity parameter's instance acts: it goes with type: "
                        "entity"),
                      p + ("acts",), at_key=True)
        if kind == "entity" and isinstance(default, str):
            # A formula giving an instance or its name (a state variable naming the current one), read
            # as the action starts without it.
            default = c.formula(default, p + ("default",), Scope(c.names), still=True)
        if kind == "integer" and isinstance(default, str) or kind == "boolean" and isinstance(default, str) \
                or kind == "choice" and isinstance(default, str) and default not in (spec.get("choices") or ()):
            # A formula (params.NAME, a field), read as the action starts without it: a table's switch
            # (`default: params.rote`). A choice's default that is one of its choices is that choice.
            default = c.formula(default, p + ("default",), Scope(c.names), still=True)
        elif kind == "integer" and default is not None and (isinstance(default, bool) or not isinstance(default, int)):
            c.problem(_("the default of an integer parameter is a whole number or a formula, not "
                        "{default!r}").format(default=default),
                      p + ("default",))
        params[name] = model.ActionParam(
            name, kind, default,
            c.formula(spec.get("min"), p + ("min",), Scope(c.names), still=True),
            c.formula(spec.get("max"), p + ("max",), Scope(c.names), still=True),
            tuple(spec.get("choices") or ()), spec.get("of"), spec.get("doc"), over, word,
            spec.get("reads"), spec.get("acts", True) is not False,
        )
    return params


def bind_reads(c, params: dict, scope: Scope, path) -> None:
    """Each formula parameter's reads: name, bound for the steps (the list of the fields it names)."""
    for p in params.values():
        if p.reads is None:
            continue
        where = path + ("params", p.name, "reads")
        if p.reads in params:
            c.problem(_("reads: {reads!r} is the name of a parameter; name the list of fields another "
                        "way").format(reads=p.reads), where)
            continue
        c.bind(scope, p.reads, where, "reads")


def guard_steps(c, params: dict) -> list:
    """The steps an action runs first, one guard for each entity parameter whose instance acts (not
    acts: false) and whose group says who may act (acts:): bind the instance by the group's as: name,
    and when its when: does not hold, say refused: and end the action, nothing changed. One
    definition, the group's; the same steps in every mode."""
    out = []
    for pname, p in params.items():
        acts = c.guards.get(p.of) if p.type == "entity" and p.acts else None
        if acts is None:
            continue
        where = ("entities", p.of, "acts")
        scope = Scope(c.names, {q: (("entity", params[q].of) if params[q].type == "entity" else None)
                                for q in params})
        out += c.steps(_guard_raw(acts, pname), where, scope)
    return out


def _guard_raw(acts: dict, pname: str) -> list:
    """The group's guard over the instance named `pname`, as steps: when its when: does not hold,
    say refused: and return 0."""
    return [{"let": {acts["as"]: pname}},
            {"if": f"not ({acts['when']})", "then": [{"say": acts["refused"]}, {"return": 0}]}]


def action(c, name: str, spec) -> model.Action:
    path = ("actions", name)
    params = action_params(c, spec.get("params") or {}, path + ("params",))
    scope = Scope(c.names, {p: (("entity", params[p].of) if params[p].type == "entity" else None) for p in params})
    bind_reads(c, params, scope, path)
    guard = guard_steps(c, params)
    once_per = spec.get("once_per")
    levels = c.levels
    if once_per is not None and once_per not in levels:
        c.problem(_("once_per: names a loop level, and {once_per!r} is none{value}").format(
                      once_per=once_per,
                      value=c.suggest(once_per, levels) if levels else _(" (this ruleset has no loop:)")),
                  path + ("once_per",))
    return model.Action(
        name=name, steps=guard + c.steps(spec["steps"], path + ("steps",), scope), params=params,
        when=c.formula(spec.get("when"), path + ("when",), Scope(c.names), still=True),
        doc=spec.get("doc"), label=spec.get("label"), once_per=once_per,
    )


def procedure(c, name: str, spec) -> model.Procedure:
    raw = spec.get("params") or []
    params = procedure_param_names(raw)
    scope = Scope(c.names)
    guard, groups = [], {}
    for i, (p, given) in enumerate(zip(params, raw)):
        info = None
        declared = given[p] if isinstance(given, dict) and isinstance(given.get(p), dict) else {}
        of = declared.get("of")
        if isinstance(of, str):
            # {NAME: {of: GROUP}}: the parameter holds an instance of that group, so steps may mark
            # its tracks and formulas read its fields as they do an entity parameter's.
            if of not in c.entities:
                c.problem(_("procedure parameter {p!r}: {of!r} is not an entity{hint}").format(
                              p=p, of=of, hint=c.suggest(of, c.entities)),
                          ("procedures", name, "params", i, p, "of"))
            else:
                info = ("entity", of)
                groups[p] = of
        c.bind(scope, p, ("procedures", name, "params", i), N_("a procedure's parameter"), info)
        if declared.get("acts") is True and info is not None:
            # {NAME: {of: GROUP, acts: true}}: the group's guard is asked first, as an action's is:
            # its one refusal said and 0 returned when the instance cannot act.
            acts = c.guards.get(of)
            if acts is None:
                c.problem(_("procedure parameter {p!r}: acts: asks the group's guard, and {of!r} says "
                            "no acts:").format(p=p, of=of),
                          ("procedures", name, "params", i, p, "acts"), at_key=True)
            else:
                guard += c.steps(_guard_raw(acts, p), ("entities", of, "acts"), scope)
    return model.Procedure(name, params, guard + c.steps(spec["steps"], ("procedures", name, "steps"), scope),
                           spec.get("doc"), position_of(c.data, ("procedures", name)), groups)


def trigger(c, i: int, spec) -> model.Trigger:
    path = ("triggers", i)
    return model.Trigger(spec.get("id"), c.formula(spec["when"], path + ("when",), Scope(c.names)),
                         c.steps(spec["do"], path + ("do",), Scope(c.names)))


def ending(c, i: int, spec) -> model.Ending:
    path = ("end", i)
    c.results.add(spec["result"])
    value = None
    if spec.get("value") is not None:
        # Read as the game ends, like a report value: it may not roll dice.
        value = c.formula(spec["value"], path + ("value",), Scope(c.names), still=True)
    elif spec.get("distribution"):
        c.problem(_("distribution: shows the values of value:, and this result has no value: give it "
                    "one"),
                  path + ("distribution",), at_key=True)
    text_scope = Scope(c.names)
    if spec.get("value") is not None:
        text_scope.define("value", None)       # the text reads the value by this name
    return model.Ending(spec.get("id"), c.formula(spec["when"], path + ("when",), Scope(c.names)),
                        spec["result"], c.text(spec.get("say"), path + ("say",), Scope(c.names)),
                        position_of(c.data, path), bool(spec.get("at_once")), value,
                        c.text(spec.get("text"), path + ("text",), text_scope), bool(spec.get("distribution")))
