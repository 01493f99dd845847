"""A compiled expression on its own (`dusk roll`, the table's free rolls, the API): parse and
check once, evaluate many times, in the traced mode (every die shown) or untraced (faces only).

Names are read from an environment mapping given at each evaluation.
"""

from __future__ import annotations

import builtins
import random
from collections.abc import Mapping
from functools import lru_cache

from ruleset_engine import i18n

from . import ast
from .errors import DiceError, DiceLimitError, UnknownName
from .kinds import ANY, describe
from .limits import DEFAULT_LIMITS, Limits
from .lowering import Lowering, Namespace, Src
from .named import MAX_WRITTEN_OUT, NO_FORMULAS, calls_in, written_out
from .remembered import parse
from .runtime import Tally, t_env, u_env
from .values import Result

_EMPTY: Mapping = {}


def env_name(env, path: tuple, span, convert):
    """The value of a dotted name in an environment mapping, or UnknownName with a suggestion."""
    value = env
    for depth, part in enumerate(path):
        try:
            value = value[part]
        except (KeyError, TypeError, IndexError):
            raise _missing(env, path, depth, span) from None
    return convert(value)


def _missing(env, path, depth, span) -> UnknownName:
    holder = env
    for part in path[:depth]:
        holder = holder[part]
    prefix = ".".join(path[:depth])
    if not hasattr(holder, "keys"):
        return UnknownName(i18n._("{prefix} is {kind} and has no {field}").format(
                               prefix=repr(prefix), kind=describe(t_env(holder)), field=repr(path[depth])), span=span)
    message = i18n._("unknown name {name}").format(name=repr('.'.join(path[:depth + 1])))
    from difflib import get_close_matches     # only to suggest a name after a mistake

    guesses = get_close_matches(str(path[depth]), [str(k) for k in holder.keys()], n=1)
    if guesses:
        message += i18n._(" (did you mean {guess}?)").format(
                       guess=repr((prefix + '.' if prefix else '') + guesses[0]))
    return UnknownName(message, span=span)


def env_call(env, name: str, args: tuple, path: tuple, span, convert):
    """A function the environment gives (a ruleset's pairs), called with its arguments, then the
    fields read from what it gives."""
    function = env.get(name) if hasattr(env, "get") else None
    if not callable(function):
        raise UnknownName(i18n._("{name}(..) reads the records of a game: use it in the game's rules").format(
                              name=name), span=span)
    return env_name(function(*args), path, span, convert)


def _calls(functions: frozenset, traced: bool):
    """The calls a lone expression leaves to its environment: the names `functions` holds."""
    convert = "_t_env" if traced else "_u_env"

    def resolve(lo: Lowering, node: ast.Call, path: tuple, span) -> Src | None:
        if node.function not in functions:
            return None
        args = "".join(lo.node(arg).text + ", " for arg in node.args)
        return Src(f"_env_call(ENV, {node.function!r}, ({args}), {path!r}, {span!r}, {convert})", ANY)

    return resolve


def _names(traced: bool):
    convert = "_t_env" if traced else "_u_env"

    def resolve(node: ast.Name) -> Src:
        return Src(f"_env_name(ENV, {node.path!r}, {node.span!r}, {convert})", ANY)

    return resolve


def _lowered(text: str, node, limits: Limits, traced: bool, functions: frozenset = frozenset(),
             formulas=NO_FORMULAS):
    """The expression lowered (every check made before rolling is made here): (Lowering, Src, Namespace)."""
    ns = Namespace()
    ns.values["_env_name"] = env_name
    ns.values["_env_call"] = env_call
    lowering = Lowering(text, limits, traced=traced, names=_names(traced), ns=ns, aside=ast.reads_aside(node),
                        calls=_calls(functions, traced) if functions else None, formulas=formulas)
    return lowering, lowering.lower(node), ns


def _function(text: str, lowered):
    lowering, src, ns = lowered
    body = "".join(f"    {line}\n" for line in lowering.hoisted)
    code = builtins.compile(f"def _expression(R, C, ENV):\n{body}    return {src.text}\n", f"<dice {text[:40]!r}>",
                            "exec")
    exec(code, ns.values)  # noqa: S102 - our own generated source
    return ns.values["_expression"]


class Expression:
    """One dice expression, compiled. `evaluate` draws every die from the `rng` it is given."""

    __slots__ = ("text", "kind", "limits", "names", "tree", "functions", "formulas", "_traced", "_plain", "_src",
                 "_lowered")

    def __init__(self, text: str, tree, limits: Limits, functions: frozenset = frozenset(), formulas=NO_FORMULAS):
        self.text = text
        self.tree = tree       # the syntax tree, for tools that read expressions
        self.limits = limits
        self.names = tuple(ast.names_in(tree))   # [(dotted path, span)]: what it reads from its environment
        self.functions = functions               # the functions its environment gives (a ruleset's pairs)
        self.formulas = formulas                 # the named formulas it may call (a ruleset's; named.py)
        # Lowered now (so every check made before rolling is made at compile), written as a Python
        # function when first evaluated (a ruleset's formulas run in its program instead).
        self._lowered = _lowered(text, tree, limits, traced=True, functions=functions, formulas=formulas)
        self._src = self._lowered[1]
        self._traced = self._plain = None
        self.kind = self._src.kind

    @property
    def is_constant(self) -> bool:
        """True when the value is known without rolling or reading a name."""
        return self._src.is_const

    def evaluate(self, rng=None, env: Mapping | None = None, expect=None) -> Result:
        """Evaluate once, every die traced. `rng`: any object with randint(a, b); None means a fresh
        OS-seeded Random. `expect`: told of each pool before its first die (Tally.expect)."""
        if self._traced is None:
            self._traced = _function(self.text, self._lowered)
        tally = Tally(self.limits.max_dice_rolled)
        tally.expect = expect
        try:
            value = self._traced((rng if rng is not None else random.Random()).randint, tally,
                                 env if env is not None else _EMPTY)
        except DiceError as err:
            raise err.located(self.text, None) from None
        return Result.of(self.text, value, tally.steps)

    def value(self, rng=None, env: Mapping | None = None):
        """Evaluate and return the raw value (a Pool for a pool expression); the trace is still built."""
        return self.evaluate(rng, env).raw

    def plain(self, rng=None, env: Mapping | None = None):
        """Evaluate untraced, as a simulation does: a pool is a tuple of faces, nothing is recorded."""
        if self._plain is None:
            self._plain = _function(self.text, _lowered(self.text, self.tree, self.limits, traced=False,
                                                                 functions=self.functions, formulas=self.formulas))
        tally = Tally(self.limits.max_dice_rolled, traced=False)
        try:
            return self._plain((rng if rng is not None else random.Random()).randint, tally,
                               env if env is not None else _EMPTY)
        except DiceError as err:
            raise err.located(self.text, None) from None

    def __repr__(self) -> str:
        return f"Expression({self.text!r})"


def compile(text: str, limits: Limits = DEFAULT_LIMITS,  # noqa: A001 - the API's name
            functions: frozenset = frozenset(), formulas=NO_FORMULAS) -> Expression:
    """Parse and check `text`; raise a DiceError with a caret if it is not a valid expression.
    `functions`: names of functions the environment gives (a ruleset's pairs), called as name(..).
    `formulas`: the named formulas it may call (a ruleset's FormulaBook)."""
    return _compile_cached(text, limits, functions, formulas)


@lru_cache(maxsize=1024)
def _compile_cached(text: str, limits: Limits, functions: frozenset = frozenset(), formulas=NO_FORMULAS) -> Expression:
    tree = parse(text, limits)
    if formulas:
        written_out_checked(text, tree, formulas)
    try:
        return Expression(text, tree, limits, functions, formulas)
    except RecursionError:  # pragma: no cover - the depth limit is far below Python's
        raise DiceLimitError(i18n._("the expression is too deeply nested"), text, None) from None


def written_out_checked(text: str, tree, formulas) -> None:
    """An expression that calls named formulas is written out with their bodies in place, before it is
    lowered: past MAX_WRITTEN_OUT parts (formulas calling formulas many times each), refused here, at
    its first call, before the work of writing it out."""
    depth, nodes = written_out(tree, formulas)
    if nodes > MAX_WRITTEN_OUT:
        call = calls_in(tree, formulas)[0][0]
        about = f"{nodes:,}" if nodes < 10**9 else f"10^{len(str(nodes)) - 1}"
        raise DiceLimitError(i18n._("this formula is more than {limit} parts long once the named formulas it "
                                    "calls are written in place (about {about}); call fewer of them").format(
                                 limit=i18n.number(MAX_WRITTEN_OUT), about=about), text,
                             call.name_span)


def roll(text: str, *, rng=None, env: Mapping | None = None, limits: Limits = DEFAULT_LIMITS,
         formulas=NO_FORMULAS) -> Result:
    """Compile (cached) and evaluate `text` once; it may call the named `formulas` (a ruleset's)."""
    return compile(text, limits, formulas=formulas).evaluate(rng=rng, env=env)


__all__ = ["Expression", "compile", "roll", "env_name", "u_env"]
