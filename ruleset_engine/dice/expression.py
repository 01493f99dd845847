"""A compiled expression: parse and check once, evaluate many times."""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import lru_cache

from .ast import names_in
from .compiler import Code, Compiler
from .context import Context
from .errors import DiceError
from .limits import DEFAULT_LIMITS, Limits
from .parser import parse
from .values import Result

_EMPTY: Mapping = {}


class Expression:
    """One dice expression, compiled. `evaluate` draws every die from the `rng` it is given."""

    __slots__ = ("text", "kind", "limits", "names", "tree", "_run", "_const")

    def __init__(self, text: str, code: Code, limits: Limits, names=(), tree=None):
        self.text = text
        self.tree = tree     # the syntax tree (for tools that translate expressions, such as a simulation's compiler)
        self.names = names   # [(dotted path, span)]: what the expression reads from its environment
        self.kind = code.kind
        self.limits = limits
        self._run = code.run
        self._const = code.const if code.is_const else None

    @property
    def is_constant(self) -> bool:
        """True when the value is known without rolling or reading a name."""
        return self._const is not None

    def evaluate(self, rng=None, env: Mapping | None = None) -> Result:
        """Evaluate once. `rng`: any object with randint(a, b); None means a fresh OS-seeded Random."""
        ctx = Context(rng if rng is not None else random.Random(), env if env is not None else _EMPTY,
                      self.limits.max_dice_rolled)
        try:
            value = self._run(ctx)
        except DiceError as err:
            raise err.located(self.text, None) from None
        return Result.of(self.text, value, ctx.steps)

    def value(self, rng=None, env: Mapping | None = None):
        """Evaluate and return the raw value (a Pool for a pool expression); the trace is still built."""
        return self.evaluate(rng, env).raw

    def run(self, ctx: Context):
        """The raw value, in a Context the caller owns (set its env, budget and steps first).

        The interpreter's hot path: no Result is built, and with ctx.steps None no trace
        either. DiceErrors come out without the expression text; the caller locates them."""
        return self._run(ctx)

    def __repr__(self) -> str:
        return f"Expression({self.text!r})"


def compile(text: str, limits: Limits = DEFAULT_LIMITS) -> Expression:  # noqa: A001 - the API's name
    """Parse and check `text`; raise a DiceError with a caret if it is not a valid expression."""
    return _compile_cached(text, limits)


@lru_cache(maxsize=1024)
def _compile_cached(text: str, limits: Limits) -> Expression:
    node = parse(text, limits)
    try:
        code = Compiler(text, limits).compile(node)
    except RecursionError:  # pragma: no cover - the depth limit is far below Python's
        from .errors import DiceLimitError

        raise DiceLimitError("the expression is too deeply nested", text, None) from None
    return Expression(text, code, limits, tuple(names_in(node)), node)


def roll(text: str, *, rng=None, env: Mapping | None = None, limits: Limits = DEFAULT_LIMITS) -> Result:
    """Compile (cached) and evaluate `text` once."""
    return compile(text, limits).evaluate(rng=rng, env=env)
