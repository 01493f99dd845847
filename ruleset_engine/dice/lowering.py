"""The dice language lowered to Python source, in one of two modes.

This is the one place that knows how each node of the syntax tree runs. It checks what can be
known before any die is rolled (kinds, constant counts and sides, conditions every face meets),
folds constants, and writes a Python expression that evaluates the node:

* traced (the table, `dusk roll`): every die a Die, every operation a TraceStep in the tally,
  through the t_* helpers of runtime.py;
* untraced (`dusk simulate`): tuples of faces, nothing recorded, small rolls written in place.

Functions and modifiers come from the registry (functions.py, modifiers.py); their form's shape
says how the primitive is wrapped, in SHAPES below. Both modes draw the same dice in the same
order and raise the same errors, because both are written here, side by side.

Names are written by the caller's resolver (a Python local, the game's state, a param's value,
or a lookup in an environment mapping), so the same lowering serves a ruleset and a lone roll.
So are calls of functions the registry does not hold (a ruleset's pairs: `bond(a, b).kind`),
through the caller's `calls` resolver.
"""

from __future__ import annotations

from dataclasses import dataclass
from ..errors import get_close_matches
from collections.abc import Callable

from ruleset_engine import i18n

from . import ast, runtime
from .entries import CONDITION_ARG, EXPR_ARG, FACE_OP, KIND_ARG, NUMBER_ARG, POOL_ARG, TRUTH_ARG, WORD_ARG, operands
from .errors import DiceError, DiceLimitError, DiceTypeError, DiceValueError, UnknownName
from .functions import FUNCTIONS
from .kinds import ANY, BOOL, NUM, POOL, STR, said
from .limits import Limits
from .binding import COMPARE, FLIPPED, bind, negative_count
from .modifiers import MODIFIERS, covers
from .named import NO_FORMULAS
from .values import NO_KIND, Die, Pool

NOT_CONST = object()
INF = float("inf")
HOIST_EVERY = 25       # levels of the syntax tree between functions cut out of a deep expression
SMALL_STEP = 2**20    # what a kept number may change by, per formula, without a check (x + 1)
INLINE_DICE = 8        # a roll of at most this many dice of a written size is written in place (untraced)



# Made by the thousand as formulas are lowered, read by the lowering only: never compared, hashed or shown.
@dataclass(slots=True, eq=False, repr=False)
class Src:
    """A lowered node: a Python expression and what is known of its value before it runs."""

    text: str
    kind: str = ANY
    const: object = NOT_CONST
    bounds: tuple | None = None      # the range of a number, when known (for never-ending checks)
    simple: bool = False             # a constant or a plain read: evaluating it twice changes nothing
    # Cannot raise, and is a value of its kind for sure: constants, the state, sums and tests of
    # such values (not a local, which a branch not taken may have left unbound).
    safe: bool = False
    iterable: str | None = None      # untraced pools: a cheaper form to iterate once, when there is one
    dice: float = 0                  # the most dice it can roll (INF when unbounded)
    # A number that differs from one value read (kept within the limit of numbers) by a small known
    # amount (x + 1, -x): kept again and again, it grows by steps, never past the limit in a game.
    near_read: bool = False

    @property
    def is_const(self) -> bool:
        return self.const is not NOT_CONST

    @property
    def cannot_fail(self) -> bool:
        return self.simple or self.safe

    @property
    def items(self) -> str:
        return self.iterable or self.text


def _safe(*parts: Src) -> bool:
    return all(p.safe for p in parts)


SHARED_HELPERS = ("div", "rem", "mul", "chain", "condition", "modifier", "count_arg", "extreme", "reroll", "word",
                  "joined", "formula_call")   # both modes


_HELPERS: dict = {}


def _helpers() -> dict:
    """The runtime's helpers by the names generated code reads them by, found once (a ruleset's
    hundreds of formulas each get a namespace)."""
    if not _HELPERS:
        for name in dir(runtime):
            if name[:2] in ("t_", "u_") or name in SHARED_HELPERS:
                _HELPERS["_" + name] = getattr(runtime, name)
    return _HELPERS


class Namespace:
    """The names generated code refers to: the helpers, the registry's entries and constants."""

    def __init__(self):
        self.values: dict = {"__builtins__": __builtins__, **_helpers()}
        self._named: dict = {}
        self._fresh = 0

    def fresh(self) -> int:
        self._fresh += 1
        return self._fresh

    def const(self, value, hint: str = "k") -> str:
        """A name for a value the code reads (the same object always gets the same name)."""
        key = (type(value).__name__, id(value))
        name = self._named.get(key)
        if name is None:
            name = f"_{hint}{len(self._named)}_"    # the trailing _ keeps it apart from the writer's locals
            self._named[key] = name
            self.values[name] = value
        return name


class Cond:
    """A lowered condition (`>= 6`): the test of a face, as a bound method or written in place."""

    def __init__(self, lo: "Lowering", node: ast.Condition):
        self.lo = lo
        self.op = node.op
        self.operand = lo.number(node.operand)
        self.span = node.span
        self.text = lo.label(node.span)

    def every_value_meets(self, low: int, high: int) -> bool:
        return self.operand.is_const and covers(self.op, self.operand.const, low, high)

    def test(self) -> str:
        """A Python expression giving the test face -> bool."""
        if self.operand.is_const:
            return self.lo.ns.const(getattr(self.operand.const, FLIPPED[self.op]), "c")
        return f"_condition({self.op!r}, {self.operand.text}, {self.span!r}, {self.lo.num_helper})"

    def inline(self, var: str) -> str | None:
        """`var OP value` written in place, when the value is cheap to read again."""
        if self.operand.simple and self.operand.kind == NUM:
            return f"{var} {self.op} {self.operand.text}"
        return None


class Lowering:
    """Lowers one expression (its text, for labels and carets) in one mode."""

    def __init__(self, text: str, limits: Limits, *, traced: bool, names: Callable, ns: Namespace,
                 aside: bool = False, tally: str = "C", rng: str = "R", kinds: frozenset | None = None,
                 calls: Callable | None = None, formulas=NO_FORMULAS):
        self.text = text
        self.limits = limits
        self.traced = traced
        self.names = names                 # ast.Name -> Src
        # Functions the caller gives besides the registry's (a ruleset's pairs): (lowering, call, path of
        # fields read from what it gives, span) -> Src, or None for a name the caller does not give.
        self.calls = calls
        self.ns = ns
        self.aside = aside                 # untraced pools carry what they set aside (the ruleset reads aside())
        self.tally = tally                 # the source of the evaluation's Tally
        self.rng = rng                     # the source of randint
        self.track = traced                # untraced: count dice only when the formula could pass the limit
        self.num_helper = "_t_num" if traced else "_u_num"
        self.hoisted: list[str] = []       # definitions the expression calls, written before it
        self.most_dice: float = 0          # the most dice the nodes lowered so far can roll
        # The kinds of dice that may be read (`of(p, wild)`): a ruleset's, all its kinds(..) give; for a
        # lone expression (None here), those its own kinds(..) give, and any when it gives none (its
        # pools may come from its environment).
        self.kinds = kinds
        self.rolled: list[str] = []        # the Python names of the notations' pools, innermost last
        self.formulas = formulas           # the ruleset's named formulas (named.py)
        self.calling: tuple = ()           # the named formulas whose bodies are being lowered

    # ---- entry points
    def lower(self, node) -> Src:
        """The whole expression; untraced, dice are counted only if the limit could be reached.
        The Src's `dice` is then the most dice the whole expression can roll."""
        self.most_dice = 0
        if self.kinds is None:
            self.kinds = frozenset(ast.kinds_named(node, self.formulas)) or None
        src = self.node(node)
        if not self.track and self.most_dice > self.limits.max_dice_rolled:
            self.track = True
            self.hoisted = []
            self.most_dice = 0
            src = self.node(node)
        src.dice = self.most_dice
        return src

    def node(self, node) -> Src:
        src = NODES[type(node)](self, node)
        # A named formula's body is never cut out: its parameters are a lambda's, unseen outside it
        # (the body's nesting is bounded when the ruleset loads, named.MAX_NESTING).
        if getattr(node, "depth", 0) % HOIST_EVERY == 0 and not src.simple and not self.calling:
            # Python's parser allows about 200 nested brackets: a deep tree is cut into functions.
            name = f"_h{self.ns.fresh()}_"
            self.hoisted.append(f"def {name}(): return {src.text}")
            src = Src(f"{name}()", src.kind, src.const, src.bounds, simple=False, safe=src.safe, dice=src.dice)
        return src

    # ---- helpers
    def label(self, span) -> str:
        return self.text[span[0]:span[1]]

    def label_of(self, node) -> str:
        """What the trace calls a node: its text, or the explicit form a notation was rewritten to."""
        return getattr(node, "label", None) or self.label(node.span)

    def fail(self, cls: type[DiceError], message: str, span) -> DiceError:
        return cls(message, self.text, span)

    @property
    def tally_src(self) -> str:
        return self.tally if self.track else "None"

    def const(self, value, kind: str) -> Src:
        if kind in (NUM, BOOL, STR):
            bounds = (value, value) if kind == NUM else None
            return Src(repr(value), kind, value, bounds, simple=True, safe=True)
        return Src(self.ns.const(value, "k"), kind, value, simple=True, safe=True)

    def fold(self, src: Src, span) -> Src:
        """Evaluate now a node whose inputs are all constants."""
        try:
            value = eval(src.text, self.ns.values)  # noqa: S307 - our own generated source, no names read
        except DiceError as err:
            raise err.located(self.text, span) from None
        kind = NUM if type(value) is int else BOOL if type(value) is bool else STR if type(value) is str else src.kind
        return self.const(value, kind)

    # ---- kinds
    def number(self, node, raw: Src | None = None) -> Src:
        """A node whose value must be a number (a pool means its total)."""
        src = raw if raw is not None else self.node(node)
        if src.kind == NUM:
            return src
        if src.kind in (BOOL, STR):
            raise self.fail(DiceTypeError, i18n._("expected a number here, not {kind}").format(kind=said(src.kind)),
                            node.span)
        if src.kind == POOL:
            text = f"{src.text}.total" if self.traced else f"sum({src.items})"
            return Src(text, NUM, dice=src.dice)
        helper = self.num_helper
        if src.simple:
            text = f"({src.text} if type({src.text}) is int else {helper}({src.text}, {node.span!r}))"
        else:
            text = f"{helper}({src.text}, {node.span!r})"
        return Src(text, NUM, dice=src.dice)

    def pool(self, node, what: str) -> Src:
        """A node whose value must be a pool."""
        src = self.node(node)
        if src.kind == POOL:
            return src
        if src.kind != ANY:
            raise self.fail(DiceTypeError, i18n._("{what} needs a pool of dice (such as 5d10, [1, 2, 3] or a name "
                                                  "holding one), not {kind}").format(what=what, kind=said(src.kind)), node.span)
        helper = "_t_pool" if self.traced else "_u_pool"
        return Src(f"{helper}({src.text}, {node.span!r})", POOL, dice=src.dice)

    def truth(self, node, message: str | None = None, raw: Src | None = None) -> Src:
        src = raw if raw is not None else self.node(node)
        if src.kind == BOOL:
            return src
        if src.kind in (POOL, STR):
            raise self.fail(DiceTypeError, message or i18n._("expected true/false here, not {kind}").format(
                                                          kind=said(src.kind)), node.span)
        if src.kind == NUM:
            return Src(f"({src.text} != 0)", BOOL, dice=src.dice)
        helper = "_t_truth" if self.traced else "_u_truth"
        return Src(f"{helper}({src.text}, {node.span!r})", BOOL, dice=src.dice)

    def kind_name(self, node, what: str) -> str:
        """A kind of dice, written as a bare name (`wild`), checked against the kinds given."""
        if not isinstance(node, ast.KindName):
            raise self.fail(DiceTypeError, i18n._("{what} needs the name of a kind of dice here, as kinds(..) "
                                                  "gives it (such as wild)").format(what=what), node.span)
        name = node.name
        if name == NO_KIND:     # the dice no kinds(..) marked: always there to be read
            return name
        if self.kinds is not None and name not in self.kinds:
            guess = get_close_matches(name, list(self.kinds), n=1)
            hint = i18n._(" (did you mean {guess}?)").format(guess=guess[0]) if guess else ""
            known = i18n._("the kinds given by kinds(..) are {kinds}").format(kinds=", ".join(sorted(self.kinds))) \
                if self.kinds else \
                i18n._("no kinds(..) gives any kind of dice (as in kinds(5d10, wild=2))")
            raise self.fail(UnknownName, i18n._("unknown kind of dice {name}{hint}: {known}").format(
                                             name=repr(name), hint=hint, known=known), node.span)
        return name

    def condition(self, node, what: str) -> Cond:
        if not isinstance(node, ast.Condition):
            raise self.fail(DiceTypeError, i18n._("{what} needs a condition here, such as >= 6").format(what=what),
                            node.span)
        return Cond(self, node)


# ---- one function per node type ------------------------------------------------------------


def lower_integer(lo: Lowering, node: ast.Integer) -> Src:
    if node.value > runtime.MAX_NUMBER:
        raise lo.fail(DiceLimitError, i18n._("this number is past the limit of numbers ({limit})").format(
                                          limit=i18n.number(runtime.MAX_NUMBER)), node.span)
    return lo.const(node.value, NUM)


def lower_string(lo: Lowering, node: ast.String) -> Src:
    return lo.const(node.value, STR)


def lower_boolean(lo: Lowering, node: ast.Boolean) -> Src:
    return lo.const(node.value, BOOL)


def lower_name(lo: Lowering, node: ast.Name) -> Src:
    return lo.names(node)


def lower_unary(lo: Lowering, node: ast.Unary) -> Src:
    operand = lo.number(node.operand)
    if node.op == "+":
        src = Src(operand.text, NUM, bounds=operand.bounds, dice=operand.dice, safe=_safe(operand))
    else:
        bounds = (-operand.bounds[1], -operand.bounds[0]) if operand.bounds else None
        src = Src(f"(-{operand.text})", NUM, bounds=bounds, dice=operand.dice, safe=_safe(operand),
                  near_read=operand.simple or operand.near_read)
    return lo.fold(src, node.span) if operand.is_const else src


def lower_arithmetic(lo: Lowering, node: ast.Arithmetic) -> Src:
    codes = [lo.number(x) for x in node.operands]
    divisions = [op in ("//", "%") and not (c.is_const and c.const != 0) for op, c in zip(node.ops, codes[1:])]
    if sum(divisions) > 8:
        # A long chain of divisions by values known only when it runs: one helper, not nested calls.
        ops = tuple(zip(node.ops, [x.span for x in node.operands[1:]]))
        text = f"_chain(({''.join(c.text + ', ' for c in codes)}), {lo.ns.const(ops, 'i')})"
    else:
        # One level of precedence, left to right: written flat, as Python reads it the same way.
        # A product is checked against the size limit of numbers (repeated, products grow fastest).
        text = codes[0].text
        for op, code, operand, dynamic in zip(node.ops, codes[1:], node.operands[1:], divisions):
            if dynamic:
                text = f"_{'div' if op == '//' else 'rem'}({text}, {code.text}, {operand.span!r})"
            elif op == "*":
                text = f"_mul({text}, {code.text}, {node.span!r})"
            else:
                text = f"{text} {op} {code.text}"
        text = f"({text})"
    # Sums and differences of numbers cannot fail; a product is checked, a division may be by zero.
    safe = _safe(*codes) and all(op in "+-" for op in node.ops)
    unknown = [c for c in codes if c.bounds is None]
    near = all(op in "+-" for op in node.ops) and len(unknown) == 1 and (unknown[0].simple or unknown[0].near_read) \
        and all(-SMALL_STEP <= b <= SMALL_STEP for c in codes if c.bounds is not None for b in c.bounds)
    src = Src(text, NUM, bounds=_arith_bounds(node.ops, [c.bounds for c in codes]), dice=sum(c.dice for c in codes),
              safe=safe, near_read=near)
    return lo.fold(src, node.span) if all(c.is_const for c in codes) else src


def _arith_bounds(ops, bounds):
    if any(b is None for b in bounds):
        return None
    low, high = bounds[0]
    for op, (lo, hi) in zip(ops, bounds[1:]):
        if op == "+":
            low, high = low + lo, high + hi
        elif op == "-":
            low, high = low - hi, high - lo
        elif op == "*":
            corners = (low * lo, low * hi, high * lo, high * hi)
            low, high = min(corners), max(corners)
        elif op == "%" and lo == hi != 0:
            # The remainder has the sign of the divisor: 0..n-1 for n > 0, n+1..0 for n < 0.
            low, high = (0, lo - 1) if lo > 0 else (lo + 1, 0)
        else:
            return None
    return (low, high)


def lower_compare(lo: Lowering, node: ast.Compare) -> Src:
    left, right = lo.node(node.left), lo.node(node.right)
    for src, side, other in ((left, node.left, node.right), (right, node.right, node.left)):
        if src.kind == POOL:
            written = isinstance(side, (ast.Dice, ast.PoolLiteral)) and side is node.left
            raise lo.fail(DiceTypeError, runtime.pool_comparison(lo.label(side.span), node.op, lo.label(other.span),
                                                                 written), side.span)
    kinds = {left.kind, right.kind} - {ANY}
    if len(kinds) > 1:
        raise lo.fail(DiceTypeError, i18n._("cannot compare {kind} with {kind2}").format(
                                         kind=said(left.kind), kind2=said(right.kind)), node.span)
    if node.op not in ("==", "!=") and kinds & {STR, BOOL}:
        raise lo.fail(DiceTypeError, i18n._("{op} compares numbers, not {kind}").format(op=node.op, kind=said(kinds.pop())),
                      node.span)
    dice = left.dice + right.dice
    if left.kind != ANY and right.kind != ANY:
        src = Src(f"({left.text} {node.op} {right.text})", BOOL, dice=dice, safe=_safe(left, right))
        return lo.fold(src, node.span) if left.is_const and right.is_const else src
    info = lo.ns.const((node.op, lo.label(node.left.span), lo.label(node.right.span), node.left.span,
                        node.right.span, node.span), "i")
    helper = "_t_cmp" if lo.traced else "_u_cmp"
    fn = lo.ns.const(COMPARE[node.op], "o")
    call = f"{helper}({fn}, {left.text}, {right.text}, {info})"
    if left.simple and right.simple and NUM in (left.kind, right.kind):
        unknown = left.text if left.kind == ANY else right.text
        # The common case, a name holding a number, compared at once; anything else goes to the helper.
        return Src(f"(({left.text} {node.op} {right.text}) if type({unknown}) is int else {call})", BOOL, dice=dice)
    return Src(call, BOOL, dice=dice)


def _logic(lo: Lowering, node, joiner: str) -> Src:
    parts = [lo.truth(x) for x in node.items]
    src = Src("(" + f" {joiner} ".join(p.text for p in parts) + ")", BOOL, dice=sum(p.dice for p in parts),
              safe=_safe(*parts))
    return lo.fold(src, node.span) if all(p.is_const for p in parts) else src


def lower_all_of(lo: Lowering, node: ast.AllOf) -> Src:
    return _logic(lo, node, "and")


def lower_any_of(lo: Lowering, node: ast.AnyOf) -> Src:
    return _logic(lo, node, "or")


def lower_not(lo: Lowering, node: ast.Not) -> Src:
    raw = lo.node(node.operand)
    operand = lo.truth(node.operand, i18n._("'not' needs true/false, not {kind}").format(kind=said(raw.kind)), raw)
    src = Src(f"(not {operand.text})", BOOL, dice=operand.dice, safe=_safe(operand))
    return lo.fold(src, node.span) if operand.is_const else src


def lower_conditional(lo: Lowering, node: ast.Conditional) -> Src:
    raw = lo.node(node.test)
    test = lo.truth(node.test, i18n._("the test after 'if' must be true/false, not {kind}").format(kind=said(raw.kind)), raw)
    then, otherwise = lo.node(node.then), lo.node(node.otherwise)
    if test.is_const:
        return then if test.const else otherwise
    kind = then.kind if then.kind == otherwise.kind else ANY
    bounds = None
    if then.bounds and otherwise.bounds:
        bounds = (min(then.bounds[0], otherwise.bounds[0]), max(then.bounds[1], otherwise.bounds[1]))
    return Src(f"({then.text} if {test.text} else {otherwise.text})", kind, bounds=bounds,
               dice=test.dice + max(then.dice, otherwise.dice), safe=_safe(test, then, otherwise))


def lower_kind_name(lo: Lowering, node: ast.KindName) -> Src:   # pragma: no cover - the parser places them
    raise lo.fail(DiceTypeError, i18n._("the kind {name} only goes where a function takes one, as in "
                                        "of(p, wild)").format(name=repr(node.name)),
                  node.span)


def lower_condition(lo: Lowering, node: ast.Condition) -> Src:
    raise lo.fail(DiceTypeError, i18n._("a condition such as '{label}' only goes inside count(..), keep(..), "
                                        "drop(..) or reroll(..)").format(label=lo.label(node.span)), node.span)


# ---- calls: the registry's entries, wrapped by shape ---------------------------------------


def lower_call(lo: Lowering, node: ast.Call) -> Src:
    if node.function in lo.formulas:
        return lower_named(lo, node, lo.formulas[node.function])
    entry = FUNCTIONS.get(node.function)
    given = lo.calls(lo, node, (), node.span) if entry is None and lo.calls is not None else None
    if given is not None:
        return given
    if entry is None:
        guess = get_close_matches(node.function, list(FUNCTIONS) + list(lo.formulas), n=1)
        hint = i18n._(" (did you mean {guess}?)").format(guess=guess[0]) if guess else \
            i18n._("; the functions are {functions}").format(functions=", ".join(sorted(FUNCTIONS)))
        raise lo.fail(UnknownName, i18n._("unknown function {function}{hint}").format(
                                       function=repr(node.function), hint=hint), node.name_span)
    try:
        binding = bind(entry, node)
    except DiceError as err:
        raise lo.fail(type(err), err.message, err.span) from None
    form, what = binding.form, binding.label
    args = [ARGUMENTS[kind](lo, arg, what) for kind, arg in binding.args]
    if entry.check is not None:
        entry.check(lo, node, form, args)
    # Keywords go to the shape as written (a default= is lowered only where an empty pool reads it).
    keywords = {name: (kind, value) for name, kind, value in binding.keywords}
    return SHAPES[form.shape](lo, node, form, args, keywords)


def lower_member(lo: Lowering, node: ast.Member) -> Src:
    """A field of what a call gives: only a function the caller gives returns a record."""
    call = node.value
    if call.function not in FUNCTIONS and lo.calls is not None:
        given = lo.calls(lo, call, node.path, node.span)
        if given is not None:
            return given
    value = lo.node(call)      # an unknown function is said here, with its caret
    gives = i18n._({NUM: i18n.N_("a number"), BOOL: i18n.N_("true/false"), STR: i18n.N_("a text"),
                    POOL: i18n.N_("a pool")}.get(value.kind, i18n.N_("a value")))
    raise lo.fail(DiceTypeError, i18n._("{function}(..) gives {gives}, which has no field {field}").format(
                                     function=call.function, gives=gives, field=repr(node.path[0])),
                  node.span)


def lower_named(lo: Lowering, node: ast.Call, formula) -> Src:
    """A call of a named formula (named.py): each argument evaluated once, in order, then the body
    lowered in place with the parameters bound to them, at the kinds the arguments have here."""
    if formula.name in lo.calling:
        raise lo.fail(DiceValueError, i18n._("the formula {name} calls itself").format(name=formula.name),
                      node.name_span)
    if node.keywords:
        raise lo.fail(DiceTypeError, i18n._("{signature} takes no keywords").format(signature=formula.signature),
                      node.keywords[0].span)
    if len(node.args) != len(formula.params):
        n = len(formula.params)
        raise lo.fail(DiceTypeError, i18n.ngettext("{signature} takes {n} argument, not {given}",
                                                   "{signature} takes {n} arguments, not {given}", n).format(
                                         signature=formula.signature, n=n, given=len(node.args)), node.span)
    args = [lo.node(arg) for arg in node.args]
    # Constants and plain reads go in place of the parameters (reading them twice changes nothing);
    # any other argument is evaluated once, as a parameter of a lambda.
    bound, lambda_params, values = {}, [], []
    for pname, arg in zip(formula.params, args):
        if arg.simple:
            bound[pname] = arg
        else:
            name = f"_a{lo.ns.fresh()}_{pname}"
            lambda_params.append(name)
            values.append(arg.text)
            bound[pname] = Src(name, arg.kind, bounds=arg.bounds, simple=True, safe=arg.safe)
    outer_names, outer_text = lo.names, lo.text

    def names(n: ast.Name) -> Src:
        if len(n.path) == 1 and n.path[0] in bound:
            return bound[n.path[0]]
        return outer_names(n)

    lo.names, lo.text, lo.calling = names, formula.text, lo.calling + (formula.name,)
    try:
        body = lo.node(formula.tree)
    except DiceError as err:
        lo.names, lo.text, lo.calling = outer_names, outer_text, lo.calling[:-1]
        # A body that cannot take these arguments: said at the call, with the body's reason.
        raise lo.fail(type(err), i18n._("{signature}: {message} (its formula: {text})").format(
                                     signature=formula.signature, message=err.message, text=formula.text),
                      node.span) from None
    lo.names, lo.text, lo.calling = outer_names, outer_text, lo.calling[:-1]
    dice = body.dice + sum(a.dice for a in args)
    if not values and body.cannot_fail:
        return Src(body.text, body.kind, body.const, body.bounds, simple=body.simple, safe=body.safe,
                   iterable=body.iterable, dice=dice, near_read=body.near_read)
    fn = f"(lambda {', '.join(lambda_params)}: {body.text})"
    if body.cannot_fail:
        text = f"{fn}({', '.join(values)})"
    else:
        text = f"_formula_call({_info(lo, formula.signature, formula.text)}, {fn}{''.join(', ' + v for v in values)})"
    return Src(text, body.kind, bounds=body.bounds, safe=body.safe and all(a.safe for a in args), dice=dice)


def _word_argument(lo: Lowering, node, what: str) -> Src:
    raw = lo.node(node)
    if raw.kind not in (STR, ANY):
        raise lo.fail(DiceTypeError, i18n._("{what} needs a word here (in quotes, such as 'ones'), not {kind}").format(
                                         what=what, kind=said(raw.kind)),
                      node.span)
    if raw.kind == ANY:     # known only when it runs: checked then
        return Src(f"_word({raw.text}, {what!r}, {node.span!r})", STR, dice=raw.dice)
    return raw


def _expression_argument(lo: Lowering, node, what: str) -> Src:
    raw = lo.node(node)
    lo.number(node, raw)   # checks the kind; the value stays as it is (a pool stays a pool)
    return raw


# A bound argument (binding.py) as source, by its kind: (lowering, node, the call's label) -> Src.
ARGUMENTS = {
    POOL_ARG: lambda lo, node, what: lo.pool(node, what),
    CONDITION_ARG: lambda lo, node, what: lo.condition(node, what),
    TRUTH_ARG: lambda lo, node, what: lo.truth(node),
    KIND_ARG: lambda lo, node, what: lo.const(lo.kind_name(node, what), STR),
    WORD_ARG: _word_argument,
    EXPR_ARG: _expression_argument,
    NUMBER_ARG: lambda lo, node, what: lo.number(node),
}


def _info(lo: Lowering, *parts) -> str:
    return lo.ns.const(tuple(parts), "i")


def _prim(lo: Lowering, form) -> str:
    return lo.ns.const(form.primitive, "p")


def _faces(lo: Lowering, src: Src) -> str:
    """A pool argument as the primitives see it: its faces."""
    return f"{src.text}.faces" if lo.traced else src.items


def shape_numbers(lo: Lowering, node, form, args, keywords) -> Src:
    src = Src(f"{_prim(lo, form)}((" + "".join(a.text + ", " for a in args) + "))", NUM,
              dice=sum(a.dice for a in args))
    return lo.fold(src, node.span) if all(a.is_const for a in args) else src


def shape_number(lo: Lowering, node, form, args, keywords) -> Src:
    src = Src(f"{_prim(lo, form)}({args[0].text})", NUM, dice=args[0].dice)
    return lo.fold(src, node.span) if args[0].is_const else src


def shape_reduce(lo: Lowering, node, form, args, keywords) -> Src:
    return Src(f"{_prim(lo, form)}({_faces(lo, args[0])})", NUM, dice=args[0].dice)


def shape_extreme(lo: Lowering, node, form, args, keywords) -> Src:
    pool = args[0]
    prim = _prim(lo, form)
    info = _info(lo, node.function, lo.label(node.args[0].span), node.span)
    default = keywords.get("default")
    dice = pool.dice
    faces = _faces(lo, pool)
    if lo.kinds and not lo.traced:
        prim = lo.ns.const(_plain_face(form.primitive), "p")   # a face of a kind leaves as a plain number
    if default is None:
        return Src(f"_extreme({faces}, {prim}, None, {info})", NUM, dice=dice)
    d = lo.number(default[1])
    dice += d.dice
    if d.is_const and not lo.traced:
        # An empty pool gives its default: the faces, or the default alone.
        return Src(f"{prim}({pool.items} or ({d.text},))", NUM, dice=dice)
    # Only an empty pool reads its default, so only then are its dice (if any) rolled.
    thunk = d.text if d.is_const else f"(lambda: {d.text})"
    return Src(f"_extreme({faces}, {prim}, {thunk}, {info})", NUM, dice=dice)


def _plain_face(pick):
    def plain(faces):
        return int(pick(faces))
    return plain


def shape_count(lo: Lowering, node, form, args, keywords) -> Src:
    pool, cond = args
    dice = pool.dice + cond.operand.dice
    if "kind" in keywords:
        kind = lo.kind_name(keywords["kind"][1], "kind=")
        if lo.traced:
            info = _info(lo, lo.label_of(node), node.span, node.args[0].span)
            return Src(f"_t_count({lo.tally}, {pool.text}, {cond.test()}, {form.mark!r}, {info}, {kind!r})", NUM,
                       dice=dice)
        return Src(f"_u_count_kind({pool.items}, {cond.test()}, {kind!r})", NUM, dice=dice)
    if lo.traced:
        info = _info(lo, lo.label_of(node), node.span, node.args[0].span)
        return Src(f"_t_count({lo.tally}, {pool.text}, {cond.test()}, {form.mark!r}, {info})", NUM, dice=dice)
    if cond.op == "==" and cond.operand.is_const:
        return Src(f"{pool.items}.count({cond.operand.text})", NUM, dice=dice)
    inline = cond.inline("_f")
    if inline is not None:
        return Src(f"len([_f for _f in {pool.items} if {inline}])", NUM, dice=dice)
    return Src(f"_u_count({pool.items}, {cond.test()})", NUM, dice=dice)


def shape_filter(lo: Lowering, node, form, args, keywords) -> Src:
    pool, cond = args
    matching = form.params["matching"]
    dice = pool.dice + cond.operand.dice
    if lo.traced:
        info = _info(lo, lo.label_of(node), node.span, node.args[0].span)
        return Src(f"_t_filter({lo.tally}, {pool.text}, {cond.test()}, {matching}, {form.mark!r}, {info})", POOL,
                   dice=dice)
    inline = cond.inline("_f")
    if inline is not None and not lo.aside:
        test = inline if matching else f"not ({inline})"
        listed = f"[_f for _f in {pool.items} if {test}]"
        return Src(f"tuple({listed})", POOL, iterable=listed, dice=dice)
    return Src(f"_u_filter({pool.items}, {cond.test()}, {matching}, {lo.aside})", POOL, dice=dice)


def shape_select(lo: Lowering, node, form, args, keywords) -> Src:
    prim = _prim(lo, form)
    parts = [_faces(lo, args[0])]
    for src, arg in zip(args[1:], node.args[1:]):
        if src.kind == POOL:
            parts.append(_faces(lo, src))
        elif src.is_const:   # a number of dice
            if src.const < 0:
                raise lo.fail(DiceValueError, negative_count(node.function, src.const), arg.span)
            parts.append(src.text)
        else:
            parts.append(f"_count_arg({src.text}, {node.function!r}, {arg.span!r})")
    parts += [repr(v) for v in form.params.values()]
    for name, (kind, value) in keywords.items():
        src = lo.pool(value, f"{name}=") if kind == POOL_ARG else lo.number(value)
        if src.is_const and kind == POOL_ARG:
            faces = src.const.faces if isinstance(src.const, Pool) else src.const
            parts.append(f"{name}={lo.ns.const(frozenset(faces), 'k')}")
        else:
            parts.append(f"{name}={_faces(lo, src) if kind == POOL_ARG else src.text}")
    dice = sum(a.dice for a in args)
    mark = form.mark
    if lo.traced:
        pool_text = args[0].text
        info = _info(lo, lo.label_of(node), node.span, node.args[0].span)
        # The pool is evaluated once, then the primitive decides on its faces.
        rest = "".join(", " + p for p in parts[1:])
        return Src(f"(lambda _p: _t_select({lo.tally}, _p, {prim}(_p.faces{rest}), {mark!r}, {info}))"
                   f"({pool_text})", POOL, dice=dice)
    rest = "".join(", " + p for p in parts[1:])
    if args[0].simple and not lo.aside:
        # A pool read from a name is read twice rather than packed into one call's arguments.
        return Src(f"_u_but({parts[0]}, {prim}({parts[0]}{rest}))", POOL, dice=dice)
    helper = "_u_pick_aside" if lo.aside else "_u_pick"
    return Src(f"{helper}({prim}, {parts[0]}{rest})", POOL, dice=dice)


def shape_order(lo: Lowering, node, form, args, keywords) -> Src:
    pool = args[0]
    descending = keywords.get("descending")
    desc = lo.truth(descending[1]).text if descending is not None else "False"
    if lo.traced:
        return Src(f"_t_order({pool.text}, {desc})", POOL, dice=pool.dice)
    if lo.aside:
        return Src(f"_u_order({pool.text}, {desc})", POOL, dice=pool.dice)
    if desc == "False":
        return Src(f"tuple(sorted({pool.items}))", POOL, dice=pool.dice)
    return Src(f"tuple(sorted({pool.items}, reverse={desc}))", POOL, dice=pool.dice)


def shape_aside(lo: Lowering, node, form, args, keywords) -> Src:
    helper = "_t_aside" if lo.traced else "_u_aside"
    return Src(f"{helper}({args[0].text})", POOL, dice=args[0].dice)


def shape_kinds(lo: Lowering, node, form, args, keywords) -> Src:
    pool = args[0]
    spec, dice, const = [], pool.dice, True
    for kw in node.keywords:
        count = lo.number(kw.value)
        if count.is_const and count.const < 0:
            raise lo.fail(DiceValueError, i18n._("kinds(..) needs a number of dice of 0 or more, not {count}").format(
                                              count=count.const),
                          kw.value.span)
        spec.append((kw.name, count, kw.value.span))
        dice += count.dice
        const = const and count.is_const
    if const:
        spec_text = lo.ns.const(tuple((k, c.const, span) for k, c, span in spec), "i")
    else:
        spec_text = "(" + "".join(f"({k!r}, {c.text}, {span!r}), " for k, c, span in spec) + ")"
    if lo.traced:
        info = _info(lo, lo.label_of(node), node.span, node.args[0].span)
        return Src(f"_t_kinds({lo.tally}, {pool.text}, {spec_text}, {info})", POOL, dice=dice)
    return Src(f"_u_kinds({pool.text}, {spec_text}, {node.args[0].span!r})", POOL, dice=dice)


def shape_of_kind(lo: Lowering, node, form, args, keywords) -> Src:
    pool, kind = args
    if lo.traced:
        info = _info(lo, lo.label_of(node), node.span, node.args[0].span)
        return Src(f"_t_of({lo.tally}, {pool.text}, {kind.text}, {form.mark!r}, {info})", POOL, dice=pool.dice)
    return Src(f"_u_of({pool.items}, {kind.text}, {lo.aside})", POOL, dice=pool.dice)


def shape_chosen(lo: Lowering, node, form, args, keywords) -> Src:
    pool, chosen, sides = args
    if sides.is_const and sides.const < 1:
        raise lo.fail(DiceValueError, i18n._("a die needs at least 1 side, not {s}").format(s=sides.const),
                      node.args[2].span)
    lo.most_dice += INF     # as many dice as are chosen: counted against the limit as they are rolled
    info = _info(lo, lo.label_of(node), node.span, node.args[0].span, node.args[1].span,
                 lo.label(node.args[0].span), node.args[2].span)
    helper = "_t_reroll_chosen" if lo.traced else "_u_reroll_chosen"
    return Src(f"{helper}({lo.tally_src if not lo.traced else lo.tally}, {lo.rng}, {pool.text}, {chosen.text}, "
               f"{sides.text}, {info})", POOL, dice=INF)


def shape_repeat(lo: Lowering, node, form, args, keywords) -> Src:
    expr, cond = args
    info = _info(lo, lo.label_of(node), node.span, node.args[0].span)
    lo.most_dice += INF   # the dice limit is what stops a total re-rolled without end
    return Src(f"_reroll({lo.tally}, (lambda: {expr.text}), {cond.test()}, {info}, {lo.num_helper})", expr.kind,
               dice=INF)


def shape_plain(lo: Lowering, node, form, args, keywords) -> Src:
    kind = {"string": STR, "number": NUM, "pool": POOL}.get(form.result, ANY)
    src = Src(f"{_prim(lo, form)}({', '.join(a.text for a in args)})", kind, dice=sum(a.dice for a in args),
              safe=form.total and _safe(*args))
    return lo.fold(src, node.span) if all(a.is_const for a in args) else src


SHAPES = {
    "numbers": shape_numbers, "number": shape_number, "reduce": shape_reduce, "extreme": shape_extreme,
    "count": shape_count, "filter": shape_filter, "select": shape_select, "order": shape_order,
    "aside": shape_aside, "repeat": shape_repeat, "plain": shape_plain, "kinds": shape_kinds,
    "of_kind": shape_of_kind, "chosen": shape_chosen,
}


# ---- dice and pools --------------------------------------------------------------------------


def _modifiers(lo: Lowering, mods) -> tuple[str, list, bool]:
    """The modifiers as a runtime tuple of (entry, shown, operands, span): a constant when their
    values are written in the formula. Also the lowered modifiers, (entry, parts, span) with each
    operand by its kind (a Src, a condition (op, Src, text), or None), and whether any draws dice."""
    lowered = []
    for mod in mods:
        entry = MODIFIERS[mod.token]

        def number(node, kind, entry=entry, mod=mod):
            value = lo.number(node) if node is not None else lo.const(1, NUM)
            if value.is_const and value.const < 0 and kind != FACE_OP:
                raise lo.fail(DiceValueError, i18n._("{token} needs a number of dice of 0 or more, not {value}").format(
                                                  token=entry.token, value=value.const),
                              mod.span)
            return value

        parts = operands(entry, mod, number, lambda cond: (cond.op, lo.number(cond.operand), lo.label(cond.span)))
        lowered.append((entry, parts, mod.span))
    draws = any(entry.draws for entry, *_ in lowered)
    if all(src.is_const for _, parts, _ in lowered for src in _sources(parts)):
        built = []
        for entry, parts, span in lowered:
            try:
                built.append(runtime.modifier(entry, _constants(parts), span, runtime.t_num))
            except DiceError as err:
                raise err.located(lo.text, span) from None
        return lo.ns.const(tuple(built), "m"), lowered, draws
    out = []
    for entry, parts, span in lowered:
        texts = [("None" if part is None else f"({part[0]!r}, {part[1].text}, {part[2]!r})" if isinstance(part, tuple)
                  else part.text) for part in parts]
        out.append(f"_modifier({lo.ns.const(entry, 'e')}, ({''.join(t + ', ' for t in texts)}), {span!r}, "
                   f"{lo.num_helper})")
    return "(" + "".join(p + ", " for p in out) + ")", lowered, draws


def _sources(parts):
    """The Srcs of a modifier's lowered operands (a condition's value)."""
    for part in parts:
        if part is not None:
            yield part[1] if isinstance(part, tuple) else part


def _constants(parts) -> tuple:
    """Lowered operands whose values are all written: their constant values, for runtime.modifier."""
    return tuple(None if part is None else (part[0], part[1].const, part[2]) if isinstance(part, tuple)
                 else part.const for part in parts)


def _static_modifier_checks(lo: Lowering, lowered, sides_values) -> None:
    """Modifiers that could never end on dice of a written size are refused now."""
    for entry, parts, span in lowered:
        if entry.never_ends is None or not all(src.is_const for src in _sources(parts)):
            continue
        shown = _constants(parts)
        for sides in sides_values:
            message = entry.never_ends(sides, *shown)
            if message:
                raise lo.fail(DiceLimitError, message, span)


def lower_dice(lo: Lowering, node: ast.Dice) -> Src:
    limits = lo.limits
    count = lo.number(node.count) if node.count is not None else lo.const(1, NUM)
    sides = lo.number(node.sides)
    count_span = node.count.span if node.count is not None else node.span
    info_tuple = (lo.label_of(node), node.span, count_span, node.sides.span, limits.max_pool_dice)
    if count.is_const:
        try:
            runtime.check_count(count.const, info_tuple)
        except DiceError as err:
            raise err.located(lo.text, err.span) from None
    if sides.is_const:
        try:
            runtime.check_sides(sides.const, info_tuple)
        except DiceError as err:
            raise err.located(lo.text, err.span) from None
    mods, lowered, draws = _modifiers(lo, node.modifiers) if node.modifiers else ("()", [], False)
    if sides.is_const:
        _static_modifier_checks(lo, lowered, (sides.const,))
    dice = count.dice + sides.dice + sum(src.dice for _, parts, _ in lowered for src in _sources(parts))
    dice += INF if draws else (count.const if count.is_const else limits.max_pool_dice)
    lo.most_dice += INF if draws else (count.const if count.is_const else limits.max_pool_dice)
    bounds = None
    if count.is_const and sides.is_const and all(entry.keeps_bounds for entry, *_ in lowered):
        bounds = (count.const, count.const * sides.const)
    info = _info(lo, *info_tuple)
    if lo.traced:
        return Src(f"_t_roll({lo.tally}, {lo.rng}, {count.text}, {sides.text}, {mods}, {info})", POOL,
                   bounds=bounds, dice=dice)
    if lowered:
        return Src(f"_u_dice({lo.tally_src}, {lo.rng}, {count.text}, {sides.text}, {mods}, {info}, {lo.aside})",
                   POOL, bounds=bounds, dice=dice)
    if sides.is_const and not lo.track:
        draw = f"{lo.rng}(1, {sides.text})"
        if count.is_const and count.const <= INLINE_DICE:
            return Src("(" + "".join(draw + ", " for _ in range(count.const)) + ")", POOL, bounds=bounds, dice=dice)
        listed = f"[{draw} for _ in _u_count_of({count.text}, {info})]"
        return Src(f"tuple({listed})", POOL, bounds=bounds, iterable=listed, dice=dice)
    return Src(f"_u_roll({lo.tally_src}, {lo.rng}, {count.text}, {sides.text}, {info})", POOL, bounds=bounds,
               dice=dice)


def _written_sides(item) -> int | None:
    """The sides of an item of a literal when they are written: NdS, or kinds(NdS, ..), whose dice
    keep their kinds when re-rolled or exploded (a die an explosion adds is of its parent's kind)."""
    if isinstance(item, ast.Call) and item.function == "kinds" and len(item.args) == 1:
        item = item.args[0]
    if isinstance(item, ast.Dice) and isinstance(item.sides, ast.Integer):
        return item.sides.value
    return None


def _dice_items(lo: Lowering, node: ast.PoolLiteral, token: str) -> list:
    """The sides of the dice of a literal whose modifiers re-roll or explode: every item must be
    dice of a written size (NdS or kinds(NdS, ..)), or brackets of them, so both modes know each die's sides."""
    found = []
    for item in node.items:
        if isinstance(item, ast.PoolLiteral) and not item.modifiers:
            found += _dice_items(lo, item, token)
        elif _written_sides(item) is not None:
            found.append(_written_sides(item))
        else:
            raise lo.fail(DiceValueError, i18n._("'{token}' re-rolls or explodes dice rolled in these brackets, "
                                                 "written as NdS with a number of sides (or kinds(NdS, ..)); "
                                                 "{label} is not").format(
                                              token=token, label=repr(lo.label(item.span))),
                          item.span)
    return found


def lower_pool_literal(lo: Lowering, node: ast.PoolLiteral) -> Src:
    items = [lo.node(x) for x in node.items]
    for src, x in zip(items, node.items):
        if src.kind in (BOOL, STR):
            raise lo.fail(DiceTypeError, i18n._("a pool holds numbers and dice, not {kind}").format(kind=said(src.kind)),
                          x.span)
    dice = sum(src.dice for src in items)
    if not node.modifiers and all(src.is_const and src.kind == NUM for src in items):
        faces = tuple(src.const for src in items)
        value = Pool(tuple(Die(f, None) for f in faces)) if lo.traced else faces
        return lo.const(value, POOL)
    info = _info(lo, lo.label_of(node), node.span)
    if node.modifiers:
        mods, lowered, draws = _modifiers(lo, node.modifiers)
        drawing = next((entry.token for entry, *_ in lowered if entry.draws), None)
        sides = _dice_items(lo, node, drawing) if draws else []
        if draws:
            _static_modifier_checks(lo, lowered, set(sides))
            lo.most_dice += INF
        dice += sum(src.dice for _, parts, _ in lowered for src in _sources(parts)) + (INF if draws else 0)
    else:
        mods = "()"
    if lo.traced:
        listed = "".join(f"({src.text}, {x.span!r}), " for src, x in zip(items, node.items))
        return Src(f"_t_literal({lo.tally}, {lo.rng}, ({listed}), {mods}, {info})", POOL, dice=dice)
    if node.modifiers:
        flat = _flat_items(lo, node, items)
        listed = "".join(f"({text}, {s!r}, {span!r}), " for text, s, span in flat)
        return Src(f"_u_literal({lo.tally_src}, {lo.rng}, ({listed}), {mods}, {info}, {lo.aside})", POOL, dice=dice)
    parts = []
    for src, x in zip(items, node.items):
        if src.kind == NUM:
            parts.append(f"({src.text},)")
        elif src.kind == POOL and (not lo.aside or len(items) > 1):
            parts.append(src.text)      # joined, a pool that set dice aside gives a plain tuple
        else:
            parts.append(f"_u_item({src.text}, {x.span!r})")
    if not parts:
        return Src("()", POOL, dice=dice)
    if len(parts) == 1:
        return Src(parts[0] if items[0].kind == NUM or not lo.aside else f"tuple({parts[0]})", POOL, dice=dice)
    text = "(" + " + ".join(parts) + ")"
    if any(src.kind != NUM and not isinstance(x, ast.Dice) for src, x in zip(items, node.items)):
        # Pools read from names, joined, may outgrow a pool (dice rolled here are counted already).
        text = f"_joined({text}, {node.span!r})"
    return Src(text, POOL, dice=dice)


def _flat_items(lo: Lowering, node: ast.PoolLiteral, items: list) -> list:
    """(value source, sides, span) for each item of a literal with modifiers."""
    out = []
    for src, x in zip(items, node.items):
        sides = _written_sides(x)
        if isinstance(x, ast.PoolLiteral) and not x.modifiers:
            inner = [lo.node(i) for i in x.items]
            out += _flat_items(lo, x, inner)
            continue
        out.append((src.text, sides, x.span))
    return out


# ---- other tools' notations, as their entries rewrote them (aliases.py) -------------------------


def lower_aliased(lo: Lowering, node: ast.Aliased) -> Src:
    """The pool rolled once, then the explicit form that reads it (a Python lambda's argument), and
    at the table a step saying what the notation meant, before the pool's dice."""
    pool = lo.pool(node.pool, "a notation")
    roll = pool.text
    if lo.traced:
        roll = f"_t_alias({lo.tally}, {_info(lo, lo.label(node.span), node.span, node.meaning)}, lambda: {roll})"
    if node.body is None:
        return Src(roll, POOL, dice=pool.dice) if lo.traced else pool
    name = f"_a{lo.ns.fresh()}_"
    lo.rolled.append(name)
    try:
        body = lo.node(node.body)
    finally:
        lo.rolled.pop()
    return Src(f"(lambda {name}: {body.text})({roll})", body.kind, dice=pool.dice + body.dice)


def lower_rolled(lo: Lowering, node: ast.Rolled) -> Src:
    return Src(lo.rolled[-1], POOL, simple=True)


NODES: dict[type, Callable[[Lowering, object], Src]] = {
    ast.Integer: lower_integer, ast.String: lower_string, ast.Boolean: lower_boolean, ast.Name: lower_name,
    ast.Unary: lower_unary, ast.Arithmetic: lower_arithmetic, ast.Compare: lower_compare,
    ast.AllOf: lower_all_of, ast.AnyOf: lower_any_of, ast.Not: lower_not, ast.Conditional: lower_conditional,
    ast.Condition: lower_condition, ast.Call: lower_call, ast.Member: lower_member, ast.KindName: lower_kind_name,
    ast.Dice: lower_dice, ast.PoolLiteral: lower_pool_literal, ast.Aliased: lower_aliased, ast.Rolled: lower_rolled,
}
