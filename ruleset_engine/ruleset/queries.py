"""Queries over a group, called in any formula: how_many(character, alive), best_of(character, speed + nerve).

A query reads a group as a whole. Its first argument names the group; the others are formulas read
over each instance in turn, where a field's name (or a track's, `name`, `index`) alone reads that
instance's field and any other name reads what it reads outside (a local, the state, a param).
Each query is one entry of QUERIES: its signature, its docs line and example, the roles of its
arguments, the kind it gives and `run`, the rule itself over the group's instances (a list of
dictionaries in both modes, so the one rule serves the table and the simulation). The checker
reads the entries (`query_problems`), the program writer lowers a call through `lower_query`, and
the docs table and `help` read the docs lines. Each entry's `vector` is the same rule for many games
at once (the lockstep backend): `vector(over, info, *args, **keywords)`, where `over` holds the group
for those games (`over.most` instances in the game with the most, `over.present(j)` the games that have
instance j, counted from 0, `over.np` numpy) and a formula over each instance is a function
`arg(j, among)`: its value for instance j in the games of `among` (a mask), one per game. It gives one
value per game, or for a query that gives an instance its index per game (-1 none). `field`, whose
arguments are read as they are (no group first), gets `given` in place of `over`: the instances its
games pass (`given.group(who)`, `given.fields(who)`, `given.read(who, names)`, ...), so its rule and
its messages stay here.
"""

from __future__ import annotations

from ruleset_engine.i18n import N_, _, ngettext

from dataclasses import dataclass, field
from typing import Callable

from ruleset_engine.dice import ast as dice_ast
from ruleset_engine.dice.errors import DiceError, DiceLimitError, DiceTypeError, DiceValueError
from ruleset_engine.dice.kinds import ANY, BOOL, NUM, STR
from ruleset_engine.dice.lowering import Src
from ruleset_engine.dice.runtime import MAX_NUMBER

from .names import INSTANCE_FIELDS, suggest, unset_problem
from .wording import join_list

TEST, VALUE, SHOWN, NUMBER = "test", "value", "shown", "number"   # the roles of an argument
GIVEN = "given"                      # an argument read as it is, outside any instance (field's)
INSTANCE = "instance"                                               # the kind of what first_of & co give
NO_VECTOR = N_("a query reads a group as a whole; the lockstep backend reads its instances one by one, in for_each")


# Made once per query, when the registry is imported, and never changed: compared and hashed by identity
# (nothing holds two equal entries), so no __eq__, __hash__, __repr__ or frozen __setattr__ is generated.
@dataclass(eq=False, repr=False)
class Query:
    """A query's registry entry: its name, signature and documentation."""

    name: str
    signature: str
    doc: str
    example: str
    args: tuple[str, ...]            # the role of each argument after the group: test, value, shown, number
    run: Callable                    # (info, group, *args, **keywords) -> the value
    gives: str                       # number, true/false, string or instance
    variadic: bool = False           # the last argument may repeat (best_of's tie-breakers)
    optional: int = 0                # how many of the last arguments may be left out
    keywords: dict = field(default_factory=dict)   # keyword -> role
    vector: Callable | None = None   # (over, info, *args, **keywords) -> one value per game (module docstring)
    no_vector: str = NO_VECTOR
    group_first: bool = True         # the first argument names a group (every query but field)


class _Missing:
    pass


MISSING = _Missing()


def _fail(info, message: str, cls=DiceValueError):
    name, group, span = info
    raise cls(message.format(group=group, name=name), span=span)


def _chosen(group, where):
    return group if where is None else [it for it in group if where(it)]


def _within(info, n: int) -> int:
    if not -MAX_NUMBER <= n <= MAX_NUMBER:
        _fail(info, _("{{name}}(..) gives {n:,}, past the limit of numbers ({MAX_NUMBER:,})").format(
                        n=n, MAX_NUMBER=MAX_NUMBER), DiceLimitError)
    return n


def run_how_many(info, group, test):
    return sum(1 for it in group if test(it))


def run_any(info, group, test):
    return any(test(it) for it in group)


def run_all(info, group, test):
    return all(test(it) for it in group)


def run_sum(info, group, value, where=None):
    return _within(info, sum(value(it) for it in _chosen(group, where)))


def _extreme(pick):
    def run(info, group, value, where=None, default=MISSING):
        values = [value(it) for it in _chosen(group, where)]
        if values:
            return pick(values)
        if default is MISSING:
            _fail(info, (_("{name}(..) of no instance: no {group} meets the test (give default=, or "
                          "test with any_of)")
                         if where is not None else
                         _("{name}(..) of an empty group: {group} has no instance (give default=)")))
        return default
    return run


def run_first(info, group, test):
    for it in group:
        if test(it):
            return it
    _fail(info, _("first_of(..): no {group} meets the test (ask any_of(..) first)"))


def run_instance(info, group, n):
    if not 1 <= n <= len(group):
        _fail(info, ngettext("instance(..): {{group}} has {n} instance, so there is no number {asked}",
                             "instance(..): {{group}} has {n} instances, so there is no number {asked}",
                             len(group)).format(n=len(group), asked=n))
    return group[n - 1]


def run_best(info, group, *scores, where=None):
    best, best_key = None, None
    for it in _chosen(group, where):
        key = tuple(score(it) for score in scores)
        if best_key is None or key > best_key:      # strictly better: a tie keeps the first in the group
            best, best_key = it, key
    if best is None:
        _fail(info, (_("best_of(..): no {group} meets the test")
                     if where is not None else
                     _("best_of(..) of an empty group: {group} has no instance")))
    return best


def run_field(info, who, name):
    from .templates import format_value

    if not isinstance(who, dict) or "name" not in who or "labels" in who:
        _fail(info, _("field(..) reads a field of an instance or an entity, not {who!r}").format(
                        who=format_value(who)))
    if not isinstance(name, str):
        _fail(info, _("field(..) takes the name of a field as a text, not {name!r}").format(name=format_value(name)))
    fields = [k for k, v in who.items() if not (isinstance(v, dict) and "labels" in v)]
    if name not in fields:
        track = _(": {name} is a track (read its numbers as {read})").format(
            name=name, read=f"{who['name']}.{name}.marked") if name in who else ""
        _fail(info, _("field(..): {name} has no field {name2!r}{track}").format(
                        name=who['name'], name2=name, track=track or suggest(name, fields)))
    return who[name]


def vector_field(given, info, who, name):
    """run_field for each game: `who` an instance (or the entity) per game, `name` a text per game;
    the first game that fails says what run_field says."""
    from .templates import format_value

    if given.group(who) is None:
        _fail(info, _("field(..) reads a field of an instance or an entity, not {first!r}").format(
                        first=format_value(given.first(who))))
    names = given.texts(name)
    if names is None:
        _fail(info, _("field(..) takes the name of a field as a text, not {first!r}").format(
                        first=format_value(given.first(name))))
    fields, tracks = given.fields(who), given.tracks(who)
    wrong = {str(x) for x in set(names.tolist())} - set(fields)       # the few names the games give
    if wrong:
        k = next(i for i, x in enumerate(names.tolist()) if str(x) in wrong)
        bad, shown = str(names[k]), given.name(who, k)
        track = _(": {name} is a track (read its numbers as {read})").format(
            name=bad, read=f"{shown}.{bad}.marked") if bad in tracks else ""
        _fail(info, _("field(..): {shown} has no field {bad!r}{track}").format(
                        shown=shown, bad=bad, track=track or suggest(bad, fields)))
    return given.read(who, names)


def run_list(info, group, shown, where=None):
    from .templates import format_value

    return join_list([format_value(shown(it)) for it in _chosen(group, where)])


# ---- the vector forms: the same rules for many games at once (the lockstep backend) --------------
# A row is a game. The messages are the rules' own, said for the first game that fails.


def _first_failing(over, failing) -> int:
    return int(over.np.flatnonzero(failing)[0])


def _among(over, j, where):
    """The games whose instance j is read: those that have one and, with where=, meet it."""
    present = over.present(j)
    return present & where(j, present) if where is not None else present


def vector_how_many(over, info, test):
    total = over.np.zeros(over.rows, over.np.int64)
    for j in range(over.most):
        present = over.present(j)
        total += present & test(j, present)
    return total


def vector_any(over, info, test):
    out = over.np.zeros(over.rows, bool)
    for j in range(over.most):
        present = over.present(j) & ~out           # a game that found one reads no further (as any(..))
        out |= present & test(j, present)
    return out


def vector_all(over, info, test):
    out = over.np.ones(over.rows, bool)
    for j in range(over.most):
        present = over.present(j) & out
        out &= ~present | test(j, present)
    return out


def vector_sum(over, info, value, where=None):
    total = over.np.zeros(over.rows, over.np.int64)
    for j in range(over.most):
        among = _among(over, j, where)
        total += over.np.where(among, value(j, among), 0)
    past = over.np.abs(total) > MAX_NUMBER
    if past.any():
        _within(info, int(total[_first_failing(over, past)]))
    return total


def _vector_extreme(larger: bool):
    def vector(over, info, value, where=None, default=MISSING):
        np = over.np
        best = np.zeros(over.rows, np.int64)
        found = np.zeros(over.rows, bool)
        for j in range(over.most):
            among = _among(over, j, where)
            v = value(j, among)
            better = among & (~found | ((v > best) if larger else (v < best)))
            best = np.where(better, v, best)
            found |= among
        if not found.all():
            if default is MISSING:
                _fail(info, (_("{name}(..) of no instance: no {group} meets the test (give default=, or "
                              "test with any_of)")
                             if where is not None else
                             _("{name}(..) of an empty group: {group} has no instance (give default=)")))
            best = np.where(found, best, default)
        return best
    return vector


def vector_first(over, info, test):
    index = over.np.full(over.rows, -1, over.np.int64)
    for j in range(over.most):
        open_ = over.present(j) & (index < 0)
        index[open_ & test(j, open_)] = j
    if (index < 0).any():
        _fail(info, _("first_of(..): no {group} meets the test (ask any_of(..) first)"))
    return index


def vector_instance(over, info, n):
    n = over.np.broadcast_to(over.np.asarray(n, over.np.int64), (over.rows,))
    outside = (n < 1) | (n > over.count)
    if outside.any():
        k = _first_failing(over, outside)
        count = int(over.count[k])
        _fail(info, ngettext("instance(..): {{group}} has {n} instance, so there is no number {asked}",
                             "instance(..): {{group}} has {n} instances, so there is no number {asked}",
                             count).format(n=count, asked=int(n[k])))
    return n - 1


def vector_best(over, info, *scores, where=None):
    np = over.np
    index = np.full(over.rows, -1, np.int64)
    best = [np.zeros(over.rows, np.int64) for _ in scores]
    for j in range(over.most):
        among = _among(over, j, where)
        keys = [score(j, among) for score in scores]
        # Strictly better, score by score (a tie goes to the next score; a full tie keeps the first).
        better, tied = np.zeros(over.rows, bool), np.ones(over.rows, bool)
        for key, held in zip(keys, best):
            better |= tied & (key > held)
            tied &= key == held
        take = among & ((index < 0) | better)
        index[take] = j
        for k, key in enumerate(keys):
            best[k] = np.where(take, key, best[k])
    if (index < 0).any():
        _fail(info, (_("best_of(..): no {group} meets the test")
                     if where is not None else
                     _("best_of(..) of an empty group: {group} has no instance")))
    return index


def vector_list(over, info, shown, where=None):
    from .templates import format_value

    items: list[list] = [[] for _ in range(over.rows)]
    for j in range(over.most):
        among = _among(over, j, where)
        values = shown(j, among)
        for k in over.np.flatnonzero(among):
            value = values[k]
            items[k].append(format_value(value.item() if hasattr(value, "item") else value))
    out = over.np.empty(over.rows, object)
    out[:] = [join_list(row) for row in items]
    return out


QUERIES: dict[str, Query] = {q.name: q for q in (
    Query("how_many", "how_many(group, test)", "how many instances meet the test",
          "how_many(character, alive and blood > 2)", (TEST,), run_how_many, NUM, vector=vector_how_many),
    Query("any_of", "any_of(group, test)", "whether any instance meets the test",
          "any_of(character, side == 'dead')", (TEST,), run_any, BOOL, vector=vector_any),
    Query("all_of", "all_of(group, test)", "whether every instance meets the test (true for an empty group)",
          "all_of(character, alive)", (TEST,), run_all, BOOL, vector=vector_all),
    Query("sum_of", "sum_of(group, value, where=test)", "the sum of a number over the instances (0 for none)",
          "sum_of(character, blood, where=alive)", (VALUE,), run_sum, NUM, keywords={"where": TEST}, vector=vector_sum),
    Query("max_of", "max_of(group, value, where=test, default=N)",
          "the largest value over the instances; with none, default= (else an error)",
          "max_of(character, hunger, where=alive, default=0)", (VALUE,), _extreme(max), NUM,
          keywords={"where": TEST, "default": NUMBER}, vector=_vector_extreme(True)),
    Query("min_of", "min_of(group, value, where=test, default=N)",
          "the smallest value over the instances; with none, default= (else an error)",
          "min_of(character, blood, default=0)", (VALUE,), _extreme(min), NUM,
          keywords={"where": TEST, "default": NUMBER}, vector=_vector_extreme(False)),
    Query("first_of", "first_of(group, test)", "the first instance (in the group's order) that meets the test",
          "first_of(character, side == 'dead').name", (TEST,), run_first, INSTANCE, vector=vector_first),
    Query("instance", "instance(group, n)", "the group's instance number n (its index: 1, 2, ...)",
          "instance(character, 2).name", (NUMBER,), run_instance, INSTANCE, vector=vector_instance),
    Query("best_of", "best_of(group, score, then.., where=test)",
          "the instance with the highest score; a tie goes to the highest next score, then to the first "
          "in the group", "best_of(character, speed + nerve, nerve)", (VALUE,), run_best, INSTANCE,
          variadic=True, keywords={"where": TEST}, vector=vector_best),
    Query("list_of", "list_of(group, text, where=test)",
          "the values over the instances as one text, joined as a sentence says them",
          "list_of(character, name, where=alive)", (SHOWN,), run_list, STR, keywords={"where": TEST},
          vector=vector_list),
    Query("field", "field(who, name)", "the field of an instance (or an entity) named by a text: an answer, a "
          "table's cell", "field(who, trait)", (GIVEN, GIVEN), run_field, ANY, group_first=False,
          vector=vector_field),
)}


# ---- the checker's part: names inside a query, and misuse, each at its place ----------------------


def _group_of(node, entities) -> str | None:
    arg = node.args[0] if node.args else None
    if isinstance(arg, dice_ast.Name) and len(arg.path) == 1 and arg.path[0] in entities \
            and entities[arg.path[0]].get("group"):
        return arg.path[0]
    return None


def _arity_problem(query: Query, node) -> str | None:
    first = 1 if query.group_first else 0
    n = len(node.args) - first
    low = len(query.args) - query.optional
    if n < low or (n > len(query.args) and not query.variadic):
        wanted = _("{signature} takes at least {n} arguments, not {given}") if query.variadic else \
            _("{signature} takes {n} arguments, not {given}")
        return wanted.format(signature=query.signature, n=len(query.args) + first, given=n + first)
    for kw in node.keywords:
        if kw.name not in query.keywords:
            known = ", ".join(f"{k}=" for k in query.keywords) or _("none")
            return _("{query}(..) has no keyword {keyword!r} (keywords: {known})").format(
                query=query.name, keyword=kw.name, known=known)
    return None


def _instance_names(spec) -> list:
    return list(spec.get("fields", ())) + list(spec.get("tracks", ())) + list(INSTANCE_FIELDS)


def query_problems(names, tree, scope, over: tuple = ()) -> tuple[list, set]:
    """(problems, names handled): each misuse of a query (its first argument not a group, the wrong
    number of arguments, a keyword it does not take, a field of an instance it gives that the group
    lacks, a formula over each instance that rolls dice), and the names the query reads itself (the
    group, and each field read alone over an instance), which the caller does not check again."""
    problems, handled = [], set()
    members = {id(n.value): n for n in dice_ast.walk(tree) if isinstance(n, dice_ast.Member)}

    def visit(node, over: tuple):
        if isinstance(node, dice_ast.Call) and node.function in QUERIES and not QUERIES[node.function].group_first:
            message = _arity_problem(QUERIES[node.function], node) or _field_problem(names, node, scope)
            if message:
                problems.append((message, node.span))
            for child in _children(node):
                visit(child, over)
            return
        if isinstance(node, dice_ast.Call) and node.function in QUERIES:
            query = QUERIES[node.function]
            group = _group_of(node, names.entities)
            if group is None:
                groups = [g for g, spec in names.entities.items() if spec.get("group")]
                span = node.args[0].span if node.args else node.span
                problems.append((_("{query}(..) reads a group: its first argument is the name of one ({groups})").format(
                    query=query.name, groups=", ".join(groups) or _("this ruleset has none")), span))
            else:
                handled.add((node.args[0].path, node.args[0].span))
                message = _arity_problem(query, node)
                if message:
                    problems.append((message, node.span))
                member = members.get(id(node))
                if member is not None:
                    if query.gives != INSTANCE:
                        problems.append((_("{query}(..) gives a value, which has no field {field!r}").format(
                            query=query.name, field=member.path[0]), member.span))
                    else:
                        message = names.member_problem(group, ("entity", group), member.path)
                        if message:
                            problems.append((message, member.span))
            roles = list(query.args) + [query.args[-1]] * max(0, len(node.args) - 1 - len(query.args))
            inner = over + ((group,) if group else ())
            for role, arg in zip(roles, node.args[1:]):
                visit(arg, inner if role != NUMBER else over)
                if role != NUMBER and group:
                    _no_dice(arg, query, problems)
            for kw in node.keywords:
                role = query.keywords.get(kw.name)
                visit(kw.value, inner if role not in (None, NUMBER) else over)
                if role not in (None, NUMBER) and group:
                    _no_dice(kw.value, query, problems)
            return
        if isinstance(node, dice_ast.Name) and over:
            for group in reversed(over):
                spec = names.entities[group]
                if node.path[0] in _instance_names(spec):
                    handled.add((node.path, node.span))
                    message = names.member_problem(group, ("entity", group), node.path)
                    if message:
                        problems.append((message, node.span))
                    break
            else:
                if names.name_problem(node.path, scope):
                    group = over[-1]
                    handled.add((node.path, node.span))
                    known = _instance_names(names.entities[group])
                    problems.append((_("{name!r} is not a field of {group}{hint}, nor a name known here").format(
                        name=node.path[0], group=group, hint=suggest(node.path[0], known)), node.span))
            return
        for child in _children(node):
            visit(child, over)

    visit(tree, over)
    return problems, handled


def _field_problem(names, node, scope) -> str | None:
    """field(who, 'NAME') with a name written in the formula, of an instance whose group is known here
    (a for_each name, an entity parameter, an entity): the group must have that field."""
    who, name = node.args
    if not isinstance(who, dice_ast.Name) or len(who.path) != 1 or not isinstance(name, dice_ast.String):
        return None
    head = who.path[0]
    info = scope.local.get(head) if head in scope.local else ("entity", head) if head in names.entities else None
    if not info or info[0] != "entity":
        return None
    spec = names.entities.get(info[1], {})
    if name.value in spec.get("tracks", ()):
        return _("field(..) reads fields, and {name!r} is a track of {group} (read {read})").format(
            name=name.value, group=info[1], read=f"{head}.{name.value}.marked")
    return names.member_problem(head, info, (name.value,))


def _children(node):
    for name in getattr(node, "__dataclass_fields__", ()):
        value = getattr(node, name)
        if isinstance(value, tuple):
            yield from (v for v in value if hasattr(v, "__dataclass_fields__"))
        elif hasattr(value, "__dataclass_fields__"):
            yield value


def _no_dice(node, query, problems) -> None:
    for inner in dice_ast.walk(node):
        if isinstance(inner, (dice_ast.Dice,)):
            problems.append((_("{query}(..) reads each instance and rolls no dice: roll first, then read the "
                               "name").format(query=query.name), inner.span))
            return


# ---- the program writer's part: a call lowered, in either mode ------------------------------------


def lower_query(w, lo, node, path: tuple, span):
    """A query call as Python source (an Src): the group, each formula over an instance as a lambda,
    and the entry's rule. `path`: the fields read from the instance it gives (`first_of(..).name`)."""
    query = QUERIES[node.function]
    ruleset = w.program.ruleset
    if not query.group_first:
        message = _arity_problem(query, node)
        if message:
            raise lo.fail(DiceTypeError, message, node.span)
        args = "".join(", " + lo.node(arg).text for arg in node.args)
        text = f"{lo.ns.const(query.run, 'q')}({lo.ns.const((query.name, None, span), 'i')}{args})"
        if path:
            raise lo.fail(DiceTypeError, _("{query}(..) gives a value: read a field of an instance with field(..) "
                                           "itself").format(query=query.name), span)
        return Src(f"{'_t_env' if lo.traced else '_u_env'}({text})", ANY)
    if not node.args or not isinstance(node.args[0], dice_ast.Name) or node.args[0].path[0] not in ruleset.entities \
            or not ruleset.entities[node.args[0].path[0]].is_group or len(node.args[0].path) != 1:
        raise lo.fail(DiceTypeError, _("{query}(..) reads a group: its first argument is the name of one").format(
                          query=query.name),
                      node.args[0].span if node.args else node.span)
    message = _arity_problem(query, node)
    if message:
        raise lo.fail(DiceTypeError, message, node.span)
    group = node.args[0].path[0]

    def over_each(arg, role: str) -> str:
        return over_instance(w, lo, group, arg, role, f"{query.name}(..)")

    roles = list(query.args) + [query.args[-1]] * max(0, len(node.args) - 1 - len(query.args))
    args = [lo.number(arg).text if role == NUMBER else over_each(arg, role) for role, arg in zip(roles, node.args[1:])]
    for kw in node.keywords:
        role = query.keywords[kw.name]
        args.append(f"{kw.name}=" + (lo.number(kw.value).text if role == NUMBER else over_each(kw.value, role)))
    info = lo.ns.const((query.name, group, span), "i")
    text = f"{lo.ns.const(query.run, 'q')}({info}, {w.group(group)}{''.join(', ' + a for a in args)})"
    if path:
        if query.gives != INSTANCE:
            raise lo.fail(DiceTypeError, _("{query}(..) gives a value, which has no field {field!r}").format(
                              query=query.name, field=path[0]), span)
        read = w.member(text, group, path, span, sure=False)
        return Src(read.text, read.kind)        # a call, never a plain read: it may fail, and runs once
    return _src(text, ANY if query.gives == INSTANCE else query.gives)


def over_instance(w, lo, group: str, node, role: str, what: str) -> str:
    """A formula read over each instance of a group, as a Python lambda of the instance: a field's
    name alone is the instance's, any other name is read as outside. `role`: test, value or shown."""
    spec = w.program.ruleset.entities[group]
    own = set(spec.fields) | set(spec.tracks) | set(INSTANCE_FIELDS)
    it = f"_it{lo.ns.fresh()}_"
    outer = lo.names

    def names(n):
        if n.path[0] in own:
            return w.member(it, group, n.path, n.span)
        return outer(n)

    lo.names, lo.calling = names, lo.calling + ("(a query)",)   # nothing cut out: `it` is the lambda's
    try:
        src = lo.truth(node) if role == TEST else lo.number(node) if role == VALUE else lo.node(node)
    finally:
        lo.names, lo.calling = outer, lo.calling[:-1]
    if src.dice:
        raise lo.fail(DiceValueError, _("{what} reads each instance and rolls no dice: roll first, then read the "
                                        "name").format(what=what),
                      node.span)
    return f"(lambda {it}: {src.text})"


def lower_over(w, formula, group: str, role: str, what: str) -> str:
    """A whole formula of a step read over each instance (ask's where:), as a lambda; "None" after a
    problem (said once the program is written)."""
    lo = w.lowering(formula.text)
    try:
        return over_instance(w, lo, group, formula.expr.tree, role, what)
    except DiceError as err:
        w.program.problem(err, formula)
        return "None"


def check_over(c, value, path, scope, group: str, what: str):
    """A formula of a step read over each instance of a group, checked as a query's argument is: a
    field alone is the instance's (the group must have it), any other name must be known here."""
    formula = c.formula(value, path, None)
    if formula is None:
        return None
    problems, handled = query_problems(c.names, formula.expr.tree, scope, over=(group,))
    for name_path, span in formula.expr.names:
        if (name_path, span) not in handled:
            message = c.names.name_problem(name_path, scope) or unset_problem(name_path, scope)
            if message:
                problems.append((message, span))
    for message, span in problems:
        c.formula_problem(DiceTypeError(message, formula.text, span), formula.text, path)
    c.no_dice(formula.expr.tree, formula.text, path, _("{what} reads each instance and rolls no dice").format(
                                                         what=what))
    return None if problems else formula


def _src(text, kind):
    return Src(text, kind)


def suggest_query(name: str) -> str:
    return suggest(name, QUERIES)
