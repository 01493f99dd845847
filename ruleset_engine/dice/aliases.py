"""The notations players bring from other tools (Foundry VTT, Roll20), read as dusk's own: one
registry entry each, and the rewrite that puts them onto dusk's explicit constructs.

An alias is never a second language. The grammar reads it after dice (or a pool literal), as it
reads a modifier, and the parser hands it here; its entry's role says what it becomes:

    modifier   a dusk modifier: `x` is `!`, `xo` is `!o`, `ro<2` is `r<=2`
    count      count(pool, cond) over the dice so far: Foundry's `cs>=6`, Roll20's `>6`
    deduct     after a count, minus count(pool, cond) over the same dice: `df=1`, `f1`
    order      sort(pool) or sort(pool, descending=true): `sa`, `sd`
    native     dusk's own modifier has the same spelling and meaning (`min2`, `max5`): no rewrite

The rewrite gives an ast.Aliased node: the pool, with the modifiers dusk has, rolled once, and
the explicit form that reads it (ast.Rolled) wherever the notation means those dice. So
`10d10cs>=6df=1` is `count(P, >= 6) - count(P, == 1)` over one roll P, and the trace shows
`count(10d10, >= 6) - count(10d10, == 1)`. Everything after the parser (the checks, the lowering
in both modes, the limits) sees only dusk's constructs.

Each entry says whose comparisons it reads. Foundry's are dusk's (`>` is strictly greater, and
`=` is Foundry's spelling of `==`); Roll20's `>6` means 6 or more and `<2` means 2 or less, so an
entry owned by Roll20 reads `>` as `>=` and `<` as `<=`. A bare value means "equal to" in both.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ruleset_engine import i18n

from . import ast
from .entries import Alias
from .errors import DiceSyntaxError

FOUNDRY, ROLL20 = "Foundry VTT", "Roll20"

ALIASES: dict[str, Alias] = {a.token: a for a in (
    Alias("cs", FOUNDRY, "cs<cond>", "count",
          "how many dice meet the condition, count(pool, cond); cs=6 and cs6 mean == 6, and a bare cs counts "
          "the dice on their highest face", "10d10cs>=6", "count(10d10, >= 6)", operand="optional condition"),
    Alias("df", FOUNDRY, "df<cond>", "deduct",
          "after a count, minus count(pool, cond) over the same dice; a bare df deducts the dice the count "
          "did not count", "10d10cs>=6df=1", "count(10d10, >= 6) - count(10d10, == 1)",
          operand="optional condition"),
    Alias(">", ROLL20, ">N", "count",
          "the target number, written against the dice (no space): how many dice show N or more, "
          "count(pool, >= N)",
          "10d10>6", "count(10d10, >= 6)", roll20=True),
    Alias("<", ROLL20, "<N", "count",
          "written against the dice (no space): how many dice show N or less, count(pool, <= N)",
          "5d6<2", "count(5d6, <= 2)", roll20=True),
    Alias("f", ROLL20, "f<cond>", "deduct",
          "after a count, minus count(pool, cond) over the same dice; f1 is == 1, f<2 is <= 2",
          "10d10>6f1", "count(10d10, >= 6) - count(10d10, == 1)", roll20=True),
    Alias("x", FOUNDRY, "x  x<cond>", "modifier",
          "explode, dusk's !: on the highest face, or on the faces meeting the condition; added dice may explode",
          "1d20x", "1d20!", operand="optional condition", becomes="!"),
    Alias("xo", FOUNDRY, "xo  xo<cond>", "modifier",
          "explode once, dusk's !o: each die meeting it adds one die, which does not explode",
          "5d10xo>=9", "5d10!o>=9", operand="optional condition", becomes="!o"),
    Alias("ro", ROLL20, "ro<cond>", "modifier",
          "re-roll once, dusk's r (the new face stands); ro<2 is r<=2, ro1 is r==1",
          "2d6ro<2", "2d6r<=2", roll20=True, becomes="r"),
    Alias("min", FOUNDRY, "minN", "native",
          "the same in dusk: each die showing less than N shows N instead", "4d6min2", "4d6min2", operand="face"),
    Alias("max", FOUNDRY, "maxN", "native",
          "the same in dusk: each die showing more than N shows N instead", "4d6max5", "4d6max5", operand="face"),
    Alias("s", ROLL20, "s", "order", "sort(pool): the same dice from the lowest face up", "4d6s", "sort(4d6)",
          operand="none"),
    Alias("sa", ROLL20, "sa", "order", "sort(pool): the same dice from the lowest face up", "3d6sa",
          "sort(3d6)", operand="none"),
    Alias("sd", ROLL20, "sd", "order", "sort(pool, descending=true): the same dice from the highest face down",
          "3d6sd", "sort(3d6, descending=true)", operand="none"),
)}

# Foundry's bare `df` deducts the dice its count did not count: the condition turned around.
NEGATED = {">=": "<", ">": "<=", "<=": ">", "<": ">=", "==": "!=", "!=": "=="}
_SPLIT = re.compile(r"([a-z]+)(.*)")


@dataclass(slots=True)
class Written:
    """A notation as the parser read it, before its entry rewrites it: `cs>=6` is ("cs", ">=", 6)."""

    token: str
    op: str | None
    value: object        # an ast node, or None for a bare token (`x`, `sa`)
    span: tuple[int, int]


def written(token, value) -> Written:
    """A NOTATION, NOTATION_CMP or TARGET token and the value after it (or None)."""
    text = str(token)
    if token.type == "TARGET":
        name, op = text, text
    else:
        name, op = _SPLIT.fullmatch(text).groups()
    end = value.span[1] if value is not None else token.end_pos
    return Written(name, op or None, value, (token.start_pos, end))


def _refuse(message: str, text: str, span) -> DiceSyntaxError:
    return DiceSyntaxError(message, text, span)


def _condition(entry: Alias, mod: Written) -> tuple[str, object] | None:
    """(dusk's comparison, the value node) as the entry's tool reads it; None for a bare token."""
    if mod.value is None:
        return None
    op = mod.op
    if op in (None, "=", "=="):
        return "==", mod.value
    if entry.roll20 and op in ("<", ">"):
        return op + "=", mod.value
    return op, mod.value


class _Rewrite:
    """One pool and its modifiers, some of them notations: what the pool is, and what reads it."""

    def __init__(self, text: str, node, head_end: int):
        self.text = text
        self.node = node
        self.head_end = head_end
        self.pool_mods: list = []
        self.pool_text = text[node.span[0]:head_end]
        self.pool_end = head_end
        self.count = None           # (written, op, value node)
        self.deduct = None
        self.order = None           # (written, descending)

    def label(self, span) -> str:
        return self.text[span[0]:span[1]]

    def ended_by(self):
        """The notation after which no modifier may come: a count (and its deduction) or a sort."""
        if self.order is not None:
            return self.order[0], i18n._("sorting comes last"), "4d6kh3sd"
        if self.deduct is not None:
            return self.deduct[0], i18n._("the failures deducted end the notation (one deduction, after one count)"), \
                "10d10kh5cs>=6df=1"
        if self.count is not None:
            return self.count[0], i18n._("a count of dice gives a number, not dice (only df or f, failures to "
                                         "deduct, follow it)"), "5d10kh3cs>=6"
        return None

    def add(self, mod) -> None:
        ended = self.ended_by()
        entry = ALIASES.get(mod.token) if isinstance(mod, Written) else None
        if ended is not None:
            if entry is not None and entry.role == "deduct" and self.count is not None and self.deduct is None \
                    and self.order is None:
                self.deduct = self._deduct(entry, mod)
                return
            last, why, example = ended
            raise _refuse(i18n._("'{label}' cannot come after '{last}': {why}; write the dice's modifiers "
                                 "before it, as in {example}").format(label=self.label(mod.span), last=self.label(last.span),
                                                                     why=why, example=example), self.text, mod.span)
        if entry is None:            # dusk's own modifier, as written
            self.pool_mods.append(mod)
            self.pool_text += self.label(mod.span)
            self.pool_end = mod.span[1]
            return
        if entry.role == "modifier":
            node, spelled = self._modifier(entry, mod)
            self.pool_mods.append(node)
            self.pool_text += spelled
            self.pool_end = mod.span[1]
        elif entry.role == "count":
            self.count = self._count(entry, mod)
        elif entry.role == "order":
            if mod.value is not None:
                raise _refuse(i18n._("'{token}' sorts the dice and takes no value").format(token=mod.token), self.text,
                              mod.value.span)
            self.order = (mod, mod.token == "sd")
        else:
            example = "10d10>6f1" if entry.roll20 else "10d10cs>=6df=1"
            raise _refuse(i18n._("'{label}' deducts failures from a count of successes, and nothing before it "
                                 "counts: write the count first, as in {example}").format(
                              label=self.label(mod.span), example=example), self.text, mod.span)

    def _modifier(self, entry: Alias, mod: Written):
        read = _condition(entry, mod)
        if read is None and entry.operand == "condition":
            raise _refuse(i18n._("'{token}' needs the faces to act on: {token}1 (== 1) or {token}<2 (2 or less, "
                                 "as {tool} reads it)").format(token=mod.token, tool=entry.tool), self.text, mod.span)
        cond = None if read is None else ast.Condition(read[0], read[1], mod.span, read[1].depth + 1)
        spelled = entry.becomes + ("" if read is None else read[0] + self.label(read[1].span))
        return ast.Modifier(entry.becomes, (cond,), mod.span), spelled

    def _count(self, entry: Alias, mod: Written):
        """(the notation, dusk's comparison, the value node, the value as the explicit form writes it)."""
        read = _condition(entry, mod)
        if read is None:   # Foundry's bare cs: the dice on their highest face
            sides = getattr(self.node, "sides", None)
            if not isinstance(sides, ast.Integer):
                raise _refuse(i18n._("a bare '{token}' counts the dice on their highest face, and these dice have "
                                     "no written number of sides: write {token}=N").format(token=mod.token), self.text,
                              mod.span)
            return mod, "==", sides, str(sides.value)      # d% has 100 sides
        return mod, read[0], read[1], self.label(read[1].span)

    def _deduct(self, entry: Alias, mod: Written):
        read = _condition(entry, mod)
        if read is None:
            if entry.roll20:
                raise _refuse(i18n._("'{token}' needs the faces that fail: {token}1 (== 1) or {token}<2 (2 or "
                                     "less, as Roll20 reads it)").format(token=mod.token), self.text, mod.span)
            _, op, value, shown = self.count      # Foundry: the dice the count did not count
            return mod, NEGATED[op], value, shown
        return mod, read[0], read[1], self.label(read[1].span)

    def _call(self, function: str, rolled, cond, span, label: str) -> ast.Call:
        # Depth 1: the lowering never cuts these out into a function apart from the roll they read.
        return ast.Call(function, (rolled, cond), (), span, span, 1, label)

    def _count_call(self, part, rolled) -> tuple[ast.Call, str]:
        mod, op, value, shown = part
        label = f"count({self.pool_text}, {op} {shown})"
        cond = ast.Condition(op, value, mod.span, value.depth + 1)
        return self._call("count", rolled, cond, mod.span, label), label

    def result(self) -> ast.Aliased:
        node = self.node
        pool_span = (node.span[0], self.pool_end)
        if isinstance(node, ast.Dice):
            pool = ast.Dice(node.count, node.sides, tuple(self.pool_mods), pool_span, node.depth, self.pool_text)
        else:
            pool = ast.PoolLiteral(node.items, tuple(self.pool_mods), pool_span, node.depth, self.pool_text)
        rolled = ast.Rolled(pool_span)
        body, meaning = None, self.pool_text
        if self.count is not None:
            body, meaning = self._count_call(self.count, rolled)
            if self.deduct is not None:
                minus, text = self._count_call(self.deduct, rolled)
                body = ast.Arithmetic((body, minus), ("-",), node.span, 1)
                meaning = f"{meaning} - {text}"
        elif self.order is not None:
            mod, descending = self.order
            keywords = (ast.Keyword("descending", ast.Boolean(True, mod.span), mod.span, 2),) if descending else ()
            meaning = f"sort({self.pool_text}{', descending=true' if descending else ''})"
            body = ast.Call("sort", (rolled,), keywords, mod.span, mod.span, 1, meaning)
        return ast.Aliased(pool, body, meaning, node.span, node.depth + 2)


def rewrite(text: str, node, head_end: int) -> ast.Aliased:
    """Dice or a pool literal whose modifiers hold notations (Written), as dusk's explicit form.
    `head_end`: where the dice themselves end and their modifiers begin."""
    job = _Rewrite(text, node, head_end)
    for mod in node.modifiers:
        job.add(mod)
    return job.result()


def has_notation(mods) -> bool:
    return any(type(m) is Written for m in mods)


__all__ = ["ALIASES", "Written", "written", "rewrite", "has_notation", "NEGATED"]
