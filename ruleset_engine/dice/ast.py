"""The syntax tree of the dice language: typed dataclasses, never changed once parsed (they are not
frozen only because frozen dataclasses cost several times as much to import, on every `dusk roll`; and
without a generated __repr__, which nothing shows and which costs every start its compiling; their
equality, which tests and remembered parses read, is SameFields's, written once).

Every node knows its span in the source text (for carets in error messages and
labels in traces) and its depth (so the depth limit is checked while parsing,
before anything recursive walks the tree).
"""

from __future__ import annotations

from dataclasses import dataclass

Span = tuple[int, int]


class SameFields:
    """Equality by class and fields, written once for the many node classes (of this tree, of the ruleset
    model and its steps) rather than generated for each (`eq=False` on them): generating it costs every
    start its compiling. Compared as a generated __eq__ compares: the same class, each field the same
    object or equal. Unhashable, as a generated __eq__ leaves a class that is not frozen."""

    __slots__ = ()

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        for name in self.__dataclass_fields__:
            mine, theirs = getattr(self, name), getattr(other, name)
            if mine is not theirs and not mine == theirs:
                return False
        return True

    __hash__ = None


@dataclass(slots=True, repr=False, eq=False)
class Integer(SameFields):
    """A whole number written in the formula."""

    value: int
    span: Span
    depth: int = 1


@dataclass(slots=True, repr=False, eq=False)
class String(SameFields):
    """A quoted text."""

    value: str
    span: Span
    depth: int = 1


@dataclass(slots=True, repr=False, eq=False)
class Boolean(SameFields):
    """`true` or `false`."""

    value: bool
    span: Span
    depth: int = 1


@dataclass(slots=True, repr=False, eq=False)
class KindName(SameFields):
    """The name of a kind of dice where a function takes one (`of(p, wild)`, `kind=wild`): a word of
    the expression, never a name read from the environment."""

    name: str
    span: Span
    depth: int = 1


@dataclass(slots=True, repr=False, eq=False)
class Name(SameFields):
    """A dotted path into the environment: `player.score`, `params.difficulty`."""

    path: tuple[str, ...]
    span: Span
    depth: int = 1

    @property
    def dotted(self) -> str:
        return ".".join(self.path)


@dataclass(slots=True, repr=False, eq=False)
class Unary(SameFields):
    """A sign before an operand: `-x`, `+x`."""

    op: str  # "+" or "-"
    operand: "Node"
    span: Span
    depth: int


@dataclass(slots=True, repr=False, eq=False)
class Arithmetic(SameFields):
    """A chain of one precedence level: `a + b - c` or `a * b // c` (flat, so 500 terms need no recursion)."""

    operands: tuple["Node", ...]
    ops: tuple[str, ...]  # len(ops) == len(operands) - 1
    span: Span
    depth: int


@dataclass(slots=True, repr=False, eq=False)
class Compare(SameFields):
    """A comparison of two operands: `x >= 6`."""

    left: "Node"
    op: str
    right: "Node"
    span: Span
    depth: int


@dataclass(slots=True, repr=False, eq=False)
class AllOf(SameFields):
    """`a and b and c`"""

    items: tuple["Node", ...]
    span: Span
    depth: int


@dataclass(slots=True, repr=False, eq=False)
class AnyOf(SameFields):
    """`a or b or c`"""

    items: tuple["Node", ...]
    span: Span
    depth: int


@dataclass(slots=True, repr=False, eq=False)
class Not(SameFields):
    """`not x`."""

    operand: "Node"
    span: Span
    depth: int


@dataclass(slots=True, repr=False, eq=False)
class Conditional(SameFields):
    """`then if test else otherwise`"""

    then: "Node"
    test: "Node"
    otherwise: "Node"
    span: Span
    depth: int


@dataclass(slots=True, repr=False, eq=False)
class Condition(SameFields):
    """A comparison waiting for its left side: the `>= 6` of `count(p, >= 6)` or `rr<10`."""

    op: str
    operand: "Node"
    span: Span
    depth: int


@dataclass(slots=True, repr=False, eq=False)
class Keyword(SameFields):
    """A keyword argument of a call: `default=0`, `ignore=[1]`."""

    name: str
    value: "Node"
    span: Span
    depth: int


@dataclass(slots=True, repr=False, eq=False)
class Call(SameFields):
    """A function called by name, with its arguments and keywords: `count(10d10, >= 6)`."""

    function: str
    args: tuple["Node", ...]  # Condition nodes allowed among them
    keywords: tuple[Keyword, ...]
    span: Span
    name_span: Span
    depth: int
    label: str | None = None  # what the trace calls it, when it is not its text (a notation rewritten)


@dataclass(slots=True, repr=False, eq=False)
class Member(SameFields):
    """A field of the record a call gives: `bond(a, b).kind` (path `('kind',)`)."""

    value: Call
    path: tuple[str, ...]
    span: Span
    depth: int


@dataclass(slots=True, repr=False, eq=False)
class Modifier(SameFields):
    """A pool modifier: its registry token (kh, r, !, min, ...; dice/modifiers.py) and its operands,
    in the order and kinds of its entry's schema: a number node (a count, None when left out), a
    Condition (None when an optional one is left out)."""

    token: str
    operands: tuple
    span: Span


@dataclass(slots=True, repr=False, eq=False)
class Dice(SameFields):
    """`NdS` with its modifiers; count None means one die (`d20`)."""

    count: "Node | None"
    sides: "Node"
    modifiers: tuple[Modifier, ...]
    span: Span
    depth: int
    label: str | None = None  # what the trace calls it, when it is not its text (a notation rewritten)


@dataclass(slots=True, repr=False, eq=False)
class PoolLiteral(SameFields):
    """`[1, 2, 2, 5]`: numbers become fixed dice, pools among the items are joined in."""

    items: tuple["Node", ...]
    modifiers: tuple[Modifier, ...]
    span: Span
    depth: int
    label: str | None = None


@dataclass(slots=True, repr=False, eq=False)
class Aliased(SameFields):
    """Another tool's notation (`10d10cs>=6df=1`), rewritten by its registry entries (aliases.py)
    onto dusk's explicit form over one roll: `pool` is rolled once and `body` reads it wherever it
    holds a Rolled (None: the value is the pool itself). `meaning` is that form as text, for the trace:
    `count(10d10, >= 6) - count(10d10, == 1)`."""

    pool: "Dice | PoolLiteral"
    body: "Node | None"
    meaning: str
    span: Span
    depth: int


@dataclass(slots=True, repr=False, eq=False)
class Rolled(SameFields):
    """The pool of the Aliased node around it, as rolled once (the explicit form reads it, maybe twice)."""

    span: Span
    depth: int = 1


Node = (Integer | String | Boolean | Name | Unary | Arithmetic | Compare | AllOf | AnyOf | Not
        | Conditional | Condition | Call | Dice | PoolLiteral | KindName | Aliased | Rolled)


def reads_aside(node) -> bool:
    """Whether a tree calls aside(..): only then must its pools keep what they set aside."""
    return any(isinstance(n, Call) and n.function == "aside" for n in walk(node))


def kinds_named(node, book=None, seen: tuple = ()) -> set:
    """The kinds of dice a tree gives (the keywords of its kinds(..) calls), with those the bodies of
    the named formulas it calls give (`book`: the ruleset's named formulas; `seen` stops a cycle)."""
    named = set()
    for n in walk(node):
        if not isinstance(n, Call):
            continue
        if n.function == "kinds":
            named.update(k.name for k in n.keywords)
        elif book and n.function in book and n.function not in seen:
            named |= kinds_named(book[n.function].tree, book, seen + (n.function,))
    return named


# Fields that never hold a node (places, depths, labels): walk skips them, since the checks of a large
# ruleset walk its trees tens of thousands of times.
_NOT_NODES = frozenset({"span", "depth", "name_span", "label", "meaning"})
_WALKED: dict[type, tuple[str, ...]] = {}


def _walked_fields(cls) -> tuple[str, ...]:
    names = _WALKED.get(cls)
    if names is None:
        names = _WALKED[cls] = tuple(n for n in getattr(cls, "__dataclass_fields__", ()) if n not in _NOT_NODES)
    return names


def walk(node):
    """Every node of a tree, the node first (no recursion, so any depth is fine)."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        for field_name in _WALKED.get(type(current)) or _walked_fields(type(current)):
            value = getattr(current, field_name)
            if isinstance(value, tuple):
                stack.extend([v for v in value if hasattr(v, "__dataclass_fields__")])   # (a list: quicker)
            elif hasattr(value, "__dataclass_fields__"):
                stack.append(value)


def names_in(node) -> list[tuple[tuple[str, ...], Span]]:
    """Every name the expression reads, with its span, in source order."""
    # A set: a notation's explicit form may read one written name twice (`cs>=xdf` counts >= x and < x).
    found = {(n.path, n.span) for n in walk(node) if isinstance(n, Name)}
    return sorted(found, key=lambda item: item[1])
