"""Queries over a group (ruleset/queries.py) called in a formula of the lockstep backend.

This module holds only the plumbing between the lockstep machine and a query entry's `vector`
form, which is the rule itself: the group's size in each game, each formula over an instance as a
function `arg(j, among)` read for instance j in the games of `among` (the machine reads a field's
name alone as that instance's while it runs), and what the entry gives made into the machine's
value (an instance per game, a Ref; a field of it read, `first_of(..).name`).
"""

from __future__ import annotations

import numpy as np

from ruleset_engine.ruleset.names import INSTANCE_FIELDS
from ruleset_engine.ruleset.queries import INSTANCE, NUMBER, QUERIES, TEST, VALUE

from ruleset_engine.dice.vector import rows_of

from .lockstep_values import Ref, RefSet, _assemble
from .support import auto_answer, decision


class Over:
    """A group in the games of `rows`: how many instances each has (`count`), the most of them."""

    np = np

    def __init__(self, count):
        self.count = count
        self.rows = len(count)
        self.most = int(count.max()) if len(count) else 0

    def present(self, j: int):
        return self.count > j


def vector_names() -> set:
    """The queries the lockstep backend plays (those whose entry has a vector form)."""
    return {name for name, query in QUERIES.items() if query.vector is not None}


def calls(machine) -> dict:
    """name -> the function dice/vector.py calls for it: (call node, rows, path of a field read)."""
    return {name: (lambda node, rows, path: query(machine, node, rows, path)) for name in vector_names()}


class Groups:
    """A group read over its instances for many games, for the vector forms of the entries that read
    one (a query, ask with choose:): the machine's `groups`."""

    def __init__(self, machine):
        self.m = machine

    def over(self, group: str, rows) -> Over:
        return Over(self.m.counts[group][rows])

    def each(self, group: str, node, role: str, rows):
        """A formula (a syntax tree) read over each instance: `read(j, among)`, its value for instance
        j in the games of `among` (a mask over rows), one per game (the others: 0, false or empty)."""
        m = self.m
        spec = m.ruleset.entities[group]
        own = set(spec.fields) | set(spec.tracks) | set(INSTANCE_FIELDS)

        def read(j: int, among):
            among = np.asarray(among, bool)
            sub = rows[among]
            if not len(sub):
                return np.zeros(len(rows), bool if role == TEST else np.int64 if role == VALUE else object)
            m.over.append((group, own, j))
            try:
                value = m.values.truth(node, sub) if role == TEST else m.values.number(node, sub) \
                    if role == VALUE else m.values.value(node, sub)
            finally:
                m.over.pop()
            return _spread(value, among, role)
        return read

    def names(self, group: str, j: int, rows):
        """The name of instance j in each game of rows (those that have one)."""
        return rows_of(self.m.instance_value(Ref(group, np.full(len(rows), j, np.int64)), ("name",), rows), len(rows))

    def checked(self, step, kind: str, offered: tuple, low, high, answer):
        """An auto: answer to a choice among a group, checked as the untraced program checks it (the
        same question, the same message): the name, or the names, it gives."""
        asked = decision("/".join(map(str, step.path)), step.var, kind, step.var, None, low, high, offered, (), None)
        self.m.site = step
        return auto_answer(asked, answer)

    def instances(self, group: str, index) -> Ref:
        return Ref(group, np.asarray(index, np.int64))

    def chosen(self, group: str, mask) -> RefSet:
        return RefSet(group, mask)


def query(m, node, rows, path: tuple = ()):
    entry = QUERIES[node.function]
    if not entry.group_first:       # field(who, name): its arguments read as they are
        value = entry.vector(Given(m, rows), (entry.name, None, node.span), *(m.values.value(a, rows) for a in node.args))
        return _field_of(m, value, path, rows)
    group = node.args[0].path[0]
    over = m.groups.over(group, rows)

    def over_each(arg, role: str):
        return m.groups.each(group, arg, role, rows)

    roles = list(entry.args) + [entry.args[-1]] * max(0, len(node.args) - 1 - len(entry.args))
    args = [m.values.number(arg, rows) if role == NUMBER else over_each(arg, role)
            for role, arg in zip(roles, node.args[1:])]
    keywords = {}
    for kw in node.keywords:
        role = entry.keywords[kw.name]
        keywords[kw.name] = m.values.number(kw.value, rows) if role == NUMBER else over_each(kw.value, role)
    value = entry.vector(over, (entry.name, group, node.span), *args, **keywords)
    if entry.gives != INSTANCE:
        return value
    ref = Ref(group, value)
    return m.instance_value(ref, path, rows) if path else ref


def _field_of(m, value, path: tuple, rows):
    """A field read further (field(who, name).x): an instance a field holds; else the value."""
    if path and isinstance(value, Ref):
        return m.instance_value(value, path, rows)
    return value


class Given:
    """What field(who, name)'s vector form reads (queries.vector_field): the instance each game passes,
    its fields by name, for the games of `rows`."""

    np = np

    def __init__(self, machine, rows):
        self.m = machine
        self.rows = rows

    def group(self, who):
        """The group (or entity) of the instance each game passes, or None when it is not one."""
        return who.group if isinstance(who, Ref) else None

    def first(self, value):
        return self.m.first_value(value, self.rows)

    def texts(self, name):
        """The name each game gives, or None when it is not a text."""
        if isinstance(name, str):
            return np.full(len(self.rows), name, object)
        if isinstance(name, np.ndarray) and name.dtype.kind in "OU":
            values = name.tolist()
            try:
                values = set(values)        # a few distinct names, however many games
            except TypeError:
                pass
            if all(isinstance(x, str) for x in values):
                return name.astype(object)
        return None

    def fields(self, who) -> tuple:
        spec = self.m.ruleset.entities[who.group]
        own = ("name", "index") if spec.is_group else ("name",)
        return tuple(spec.fields) + tuple(f for f in own if f not in spec.fields)

    def tracks(self, who) -> tuple:
        return tuple(self.m.ruleset.entities[who.group].tracks)

    def name(self, who, k: int) -> str:
        return str(self.m.first_value(who.take(slice(k, k + 1)), self.rows[k:k + 1]))

    def read(self, who, names):
        """Each game's field of that name, read for the games that give each name."""
        if (names == names[0]).all():
            return self.m.instance_value(who, (str(names[0]),), self.rows)
        parts = []
        for one in np.unique(names.astype(str)):
            mine = names == one
            parts.append((mine, self.m.instance_value(who.take(mine), (str(one),), self.rows[mine])))
        return _assemble(len(self.rows), parts)


def _spread(value, among, role: str):
    """A value read for the games of `among` as one of all the games (the others: 0, false or empty)."""
    n = len(among)
    if isinstance(value, np.ndarray):
        out = np.zeros(n, object if value.dtype.kind in "OU" else value.dtype)
        out[among] = value
        return out
    if role == TEST or type(value) is bool:
        out = np.zeros(n, bool)
    elif type(value) is int:
        out = np.zeros(n, np.int64)
    else:
        out = np.empty(n, object)
    out[among] = value
    return out
