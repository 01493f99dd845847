"""Text to syntax tree: the Lark parser of grammar/dice.lark and the AST builders.

The grammar is loaded once, lazily, with Lark's cache, so start-up stays quick.
The AST is built by callbacks while the LALR parser runs (no recursive tree walk),
and the length and depth limits are checked before or during parsing, so
a 10,000-deep expression is refused without recursion. Lark's exceptions are
translated here into DiceSyntaxErrors in plain words.
"""

from __future__ import annotations

import re
import threading
from dataclasses import replace
import os

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from ruleset_engine.i18n import N_, _, number

from . import aliases, ast
from .aliases import ALIASES
from .entries import COUNT_OP, KIND_ARG, SCHEMAS
from .functions import FUNCTIONS
from .modifiers import MODIFIERS
from .binding import bind
from .errors import DiceLimitError, DiceSyntaxError, DiceTypeError
from .limits import DEFAULT_LIMITS, Limits

_PARSER: Lark | None = None
_TOKEN_AND_COMPARISON = re.compile(r"(.*?)(>=|<=|==|>|<)$")
_PARSE_LOCK = threading.Lock()


def _span(item) -> tuple[int, int]:
    if isinstance(item, Token):
        return (item.start_pos, item.end_pos)
    return item.span


def _cover(*items) -> tuple[int, int]:
    spans = [_span(i) for i in items if i is not None]
    return (min(s[0] for s in spans), max(s[1] for s in spans))


def _kind_name(node):
    if isinstance(node, ast.Name) and len(node.path) == 1:
        return ast.KindName(node.path[0], node.span, node.depth)
    return node


def _kind_names(call: ast.Call) -> ast.Call:
    """A bare name where the call's binding (dice/binding.py: the form, each argument's kind) takes a
    kind of dice is that kind's name (a KindName), not a name to read: `of(p, wild)` reads no variable
    `wild`. A call that binds to no form is left as written: its compilation says what is wrong."""
    entry = FUNCTIONS.get(call.function)
    if entry is None:
        return call
    try:
        binding = bind(entry, call)
    except DiceTypeError:
        return call
    if KIND_ARG not in {kind for kind, _ in binding.args} | {kind for _, kind, _ in binding.keywords}:
        return call
    args = tuple(_kind_name(node) if kind == KIND_ARG else node for kind, node in binding.args)
    keywords = tuple(replace(k, value=_kind_name(k.value)) if kind == KIND_ARG else k
                     for k, (_, kind, _) in zip(call.keywords, binding.keywords))
    return replace(call, args=args, keywords=keywords)


class _TooDeep(Exception):
    """Raised from inside the parser callbacks; turned into a located DiceLimitError."""

    def __init__(self, span):
        self.span = span


class _Builder(Transformer):
    """One method per grammar rule (or alias), each returning an ast node."""

    max_depth = DEFAULT_LIMITS.max_depth  # set for each parse, under _PARSE_LOCK
    text = ""                             # the text parsed, likewise (a notation's rewrite reads it)

    def _depth(self, span, *children) -> int:
        depth = 1 + max((c.depth for c in children if c is not None and hasattr(c, "depth")), default=0)
        if depth > self.max_depth:
            raise _TooDeep(span)
        return depth

    # ---- atoms
    def integer(self, c):
        return ast.Integer(int(c[0]), _span(c[0]))

    def string(self, c):
        return ast.String(str(c[0])[1:-1], _span(c[0]))

    def boolean(self, c):
        return ast.Boolean(c[0].type == "TRUE", _span(c[0]))

    def percent(self, c):
        return ast.Integer(100, _span(c[0]))

    def name(self, c):
        parts = tuple(str(t) for t in c if t.type == "NAME")
        return ast.Name(parts, _cover(c[0], c[-1]))

    def group(self, c):
        # Parentheses only group; the inner node keeps its own span, but the
        # depth counts the bracket so ((((...)))) is refused by depth.
        inner = c[1]
        span = _cover(c[0], c[2])
        return replace(inner, span=span, depth=self._depth(span, inner))

    # ---- operators
    def unary(self, c):
        op, operand = c
        span = _cover(op, operand)
        return ast.Unary(str(op), operand, span, self._depth(span, operand))

    def arithmetic(self, c):
        operands = tuple(c[0::2])
        ops = tuple(str(t) for t in c[1::2])
        span = _cover(c[0], c[-1])
        return ast.Arithmetic(operands, ops, span, self._depth(span, *operands))

    def compare(self, c):
        left, op, right = c
        span = _cover(left, right)
        return ast.Compare(left, str(op), right, span, self._depth(span, left, right))

    def all_of(self, c):
        items = tuple(c[0::2])
        span = _cover(c[0], c[-1])
        return ast.AllOf(items, span, self._depth(span, *items))

    def any_of(self, c):
        items = tuple(c[0::2])
        span = _cover(c[0], c[-1])
        return ast.AnyOf(items, span, self._depth(span, *items))

    def negation(self, c):
        span = _cover(c[0], c[1])
        return ast.Not(c[1], span, self._depth(span, c[1]))

    def conditional(self, c):
        then, _if, test, _else, otherwise = c
        span = _cover(then, otherwise)
        return ast.Conditional(then, test, otherwise, span, self._depth(span, then, test, otherwise))

    # ---- calls
    def condition(self, c):
        op, operand = c
        span = _cover(op, operand)
        return ast.Condition(str(op), operand, span, self._depth(span, operand))

    def keyword(self, c):
        name, _eq, value = c
        span = _cover(name, value)
        return ast.Keyword(str(name), value, span, self._depth(span, value))

    def call(self, c):
        name = c[0]
        items = [x for x in c[2:-1] if x is not None and not isinstance(x, Token)]
        args = tuple(x for x in items if not isinstance(x, ast.Keyword))
        keywords = tuple(x for x in items if isinstance(x, ast.Keyword))
        span = _cover(name, c[-1])
        return _kind_names(ast.Call(str(name), args, keywords, span, _span(name), self._depth(span, *items)))

    def member(self, c):
        call, parts = c[0], [t for t in c[1:] if t.type == "NAME"]
        span = _cover(call, parts[-1])
        return ast.Member(call, tuple(str(t) for t in parts), span, self._depth(span, call))

    def indexed(self, c):
        """`group[n]`: the call instance(group, n), the query that reads a group's instance n."""
        group, index, close = c[0], c[2], c[3]
        span = _cover(group, close)
        return ast.Call("instance", (group, index), (), span, _span(group), self._depth(span, group, index))

    def indexed_member(self, c):
        call = self.indexed(c[:4])
        parts = [t for t in c[4:] if t.type == "NAME"]
        span = _cover(call, parts[-1])
        return ast.Member(call, tuple(str(t) for t in parts), span, self._depth(span, call))

    # ---- dice and pools
    def dice(self, c):
        count, die_op, sides, *mods = c
        span = _cover(count if count is not None else die_op, *(mods or [sides]))
        node = ast.Dice(count, sides, tuple(mods), span, self._depth(span, count, sides))
        if aliases.has_notation(mods):      # another tool's notation: dusk's explicit form
            return aliases.rewrite(self.text, node, _span(sides)[1])
        return node

    def pool_literal(self, c):
        close = next(i for i, x in enumerate(c) if isinstance(x, Token) and x.type == "RSQB")
        items = tuple(x for x in c[1:close] if x is not None and not isinstance(x, Token))
        mods = tuple(c[close + 1:])
        span = _cover(c[0], *(mods or [c[close]]))
        node = ast.PoolLiteral(items, mods, span, self._depth(span, *items))
        if aliases.has_notation(mods):
            return aliases.rewrite(self.text, node, c[close].end_pos)
        return node

    # ---- modifiers: one Modifier node (token, operands) per schema's rule
    def mod_count(self, c):
        op, count = c
        return ast.Modifier(str(op), (count,), _cover(op, count))

    def mod_face(self, c):
        op, value = c
        return ast.Modifier(str(op), (value,), _cover(op, value))

    def mod_condition(self, c):
        if len(c) == 1:  # r1: a bare value means "equal to"
            return ast.Condition("==", c[0], _span(c[0]), c[0].depth + 1)
        op, operand = c
        span = _cover(op, operand)
        return ast.Condition(str(op), operand, span, operand.depth + 1)

    def mod_with_condition(self, c):
        op, cond = c
        return ast.Modifier(str(op), (cond,), _cover(op, cond))

    def mod_optional(self, c):
        return ast.Modifier(str(c[0]), (None,), _span(c[0]))

    def mod_optional_if(self, c):
        op, value = c       # one token, the token and the comparison: `!o>=`
        token, compare = _TOKEN_AND_COMPARISON.match(str(op)).groups()
        span = _cover(op, value)
        return ast.Modifier(token, (ast.Condition(compare, value, span, value.depth + 1),), span)

    def mod_cap(self, c):
        op, cap, _open, cond, close = c
        return ast.Modifier(str(op), (cap, cond), _cover(op, close if close is not None else cap))

    def notation(self, c):
        return aliases.written(c[0], c[1])


_BUILDER = _Builder()


def _with_modifier_tokens(grammar: str) -> str:
    """The grammar with each schema's terminal made of the registry's tokens of that schema: longest
    first, each kept from matching where it is only the start of another terminal's token (`r` of
    `ro`, a notation's). A schema no entry uses yet matches nothing."""
    written = set(MODIFIERS) | {token for token in ALIASES if token.isalpha()}
    for schema in SCHEMAS:
        tokens = sorted((m.token for m in MODIFIERS.values() if m.operands == schema), key=lambda t: (-len(t), t))
        parts = []
        for token in tokens:
            rests = sorted({other[len(token):] for other in written
                            if other.startswith(token) and other != token and other not in tokens})
            parts.append(re.escape(token) + (f"(?!{'|'.join(map(re.escape, rests))})" if rests else ""))
        grammar = grammar.replace(f"@{'+'.join(schema)}@", "|".join(parts) or "(?!x)x")
    return grammar


def _grammar_file() -> str:
    """grammar/dice.lark: inside the installed package, or at the top of a checkout (an editable install
    maps ruleset_engine.grammar there). Found by path: importlib.resources would cost `dusk roll` a
    tenth of its start-up."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    installed = os.path.join(package, "grammar", "dice.lark")
    return installed if os.path.isfile(installed) else os.path.join(os.path.dirname(package), "grammar", "dice.lark")


def _load_parser() -> Lark:
    global _PARSER
    if _PARSER is None:
        with open(_grammar_file(), encoding="utf-8") as handle:
            grammar = _with_modifier_tokens(handle.read())
        _PARSER = Lark(
            grammar,
            parser="lalr",
            lexer="contextual",
            maybe_placeholders=True,
            transformer=_BUILDER,
            cache=True,
        )
    return _PARSER


# ---- error messages in plain words --------------------------------------------

_VALUE_START = {"INT", "NAME", "LPAR", "LSQB", "DIE_OP", "STRING", "TRUE", "FALSE", "NOT", "ADD_OP"}
# The words of the messages are marked for the catalogs (ruleset_engine.i18n) and translated as shown.
_WORDS = {
    "RPAR": "')'", "RSQB": "']'", "COMMA": "','", "ELSE": "'else'", "IF": "'if'",
    "AND": "'and'", "OR": "'or'", "COMP_OP": N_("a comparison such as '>='"), "MUL_OP": N_("'*', '//' or '%'"),
    "ADD_OP": N_("'+' or '-'"), "EQUAL": "'='", "DOT": "'.'",
}
_TOKEN_WORDS = {
    "INT": N_("number"), "NAME": N_("name"), "STRING": N_("string"), "DIE_OP": "'d'",
    "$END": N_("end of the expression"),
}
_CHAR_HINTS = {
    "/": N_("'/' is not an operator here: write // to divide (rounding down)"),
    "=": N_("'=' alone does not compare: write == for equal"),
    "&": N_("write 'and' to combine conditions"),
    "|": N_("write 'or' for either condition"),
    "^": N_("there is no power operator: multiply, or roll more dice"),
    "!": N_("'!' only follows dice (explode); write 'not' to negate a condition"),
    # TRANSLATORS: {die} is d% (written so, the catalogs' checks read no printf format in it)
    "%": N_("'%' only follows d ({die} is a hundred-sided die); there is no remainder operator"),
}
_PREV_TOKEN = re.compile(r"(!>=|!<=|!==|>=|<=|==|!=|//|[A-Za-z_][A-Za-z0-9_]*|[0-9]+|\S)\s*$")


def _describe_expected(expected: set[str]) -> str:
    words = []
    if expected & _VALUE_START:
        words.append(_("a number") if expected & _VALUE_START <= {"INT", "LPAR"} else _("a value"))
    for name in sorted(expected - _VALUE_START):
        if name in _WORDS and _(_WORDS[name]) not in words:
            words.append(_(_WORDS[name]))
    if not words:
        return _("something else")
    return words[0] if len(words) == 1 else _("{these} or {last}").format(these=", ".join(words[:-1]), last=words[-1])


def _previous_token(text: str, pos: int) -> str | None:
    match = _PREV_TOKEN.search(text[:pos])
    return match.group(1) if match else None


def _syntax_error(text: str, err: UnexpectedInput) -> DiceSyntaxError:
    if isinstance(err, UnexpectedCharacters):
        pos = err.pos_in_stream
        char = text[pos]
        if char == "d" and "DIE_OP" in err.allowed:
            return DiceSyntaxError(_("expected a number after 'd'"), text, (pos, pos + 1))
        hint = _CHAR_HINTS.get(char)
        if text.startswith("**", pos):
            hint = _CHAR_HINTS["^"]
        return DiceSyntaxError(_(hint).format(die="d%") if hint else _("unexpected character {char}").format(char=repr(char)), text,
                               (pos, pos + 1))
    if isinstance(err, (UnexpectedToken, UnexpectedEOF)):
        token = getattr(err, "token", None)
        expected = set(err.expected) if isinstance(err, UnexpectedEOF) else set(err.accepts or err.expected)
        at_end = token is None or token.type == "$END"
        pos = len(text) if at_end else token.start_pos
        span = (pos, pos + (0 if at_end else max(1, len(str(token)))))
        if not at_end and token.type == "NAME" and str(token).startswith("d") and "DIE_OP" in expected:
            return DiceSyntaxError(_("expected a number after 'd'"), text, (pos, pos + 1))
        what = _describe_expected(expected)
        prev = _previous_token(text, pos)
        after = _(" after {previous}").format(previous=repr(prev)) if prev else ""
        if at_end:
            if prev is None:
                return DiceSyntaxError(_("the expression is empty: expected a value such as 2d6 + 1"), text, span)
            return DiceSyntaxError(_("expected {what}{after}, but the expression ends there").format(what=what, after=after),
                                   text, span)
        if token.type == "EQUAL" and "TARGET" in expected:      # right after dice: `2d6=7`
            return DiceSyntaxError(_equal_after_dice(text, pos), text, span)
        hint = _CHAR_HINTS.get(str(token))
        if hint:
            return DiceSyntaxError(_(hint).format(die="d%"), text, span)
        if token.type in ("RPAR", "RSQB") and token.type not in expected:
            return DiceSyntaxError(_("this {token} closes nothing").format(token=repr(str(token))), text, span)
        kind = _TOKEN_WORDS.get(token.type)
        found = f"{_(kind)} {str(token)!r}" if kind in ("number", "name", "string") else repr(str(token))
        if token.type in ("NAME", "INT", "LPAR", "LSQB", "DIE_OP") and "ADD_OP" in expected:
            return DiceSyntaxError(_("unexpected {found}{after}: expected an operator such as + or *").format(
                found=found, after=after), text, span)
        return DiceSyntaxError(_("unexpected {found}{after}: expected {what}").format(found=found, after=after,
                                                                                      what=what), text, span)
    return DiceSyntaxError(_("cannot read this expression ({error})").format(error=err.__class__.__name__), text, None)


_POOL_BEFORE = re.compile(r"(\[.*\]|[0-9A-Za-z_.()%]+)\s*$")
_VALUE_AFTER = re.compile(r"\s*(\([^()]*\)|[0-9]+|[A-Za-z_][A-Za-z0-9_.]*)")


def _equal_after_dice(text: str, pos: int) -> str:
    """`2d6=7` reads two ways (how many dice show 7, or is the total 7): both are named."""
    pool = _POOL_BEFORE.search(text[:pos])
    value = _VALUE_AFTER.match(text, pos + 1)
    p = pool.group(1) if pool else "pool"
    n = value.group(1) if value else "N"
    return (_("'=' alone does not compare, and after dice it reads two ways: write count({p}, == {n}) for "
                   "how many dice show {n} ({p}cs={n} in Foundry's notation), or sum({p}) == {n} for the total").format(
                p=p, n=n))


def _check_nesting(text: str, limit: int) -> None:
    """Refuse deep brackets before Lark sees them (cheap, and the caret is exact)."""
    depth = 0
    for pos, char in enumerate(text):
        if char in "([":
            depth += 1
            if depth > limit:
                raise DiceLimitError(
                    _("brackets nested more than {limit} deep (the limit)").format(limit=limit), text,
                    (pos, pos + 1)
                )
        elif char in ")]":
            depth -= 1


def parse(text: str, limits: Limits = DEFAULT_LIMITS) -> ast.Node:
    """Parse one expression; raise a DiceError (with a caret) when it is not one."""
    if not isinstance(text, str):
        raise DiceSyntaxError(_("a dice expression must be text, not {name}").format(name=type(text).__name__))
    # Depth first (it stops at the first bracket too deep, so it is cheap), then length.
    _check_nesting(text[: limits.max_length + 1], limits.max_depth)
    if len(text) > limits.max_length:
        raise DiceLimitError(
            _("the expression is {count} characters long (the limit is {limit})").format(
                count=number(len(text)), limit=number(limits.max_length)),
            text, (limits.max_length, limits.max_length + 1),
        )
    parser = _load_parser()
    try:
        # The builder runs inside the LALR parser as each rule is reduced: no
        # recursive walk, so deep unary chains cannot exhaust Python's stack.
        with _PARSE_LOCK:
            _BUILDER.max_depth = limits.max_depth
            _BUILDER.text = text
            tree = parser.parse(text)
    except _TooDeep as deep:
        raise DiceLimitError(
            _("the expression nests more than {limit} levels deep (the limit is {limit})").format(
                limit=limits.max_depth),
            text, deep.span,
        ) from None
    except UnexpectedInput as err:
        raise _syntax_error(text, err) from None
    _check_modifiers(text, tree)
    return tree


def _check_modifiers(text: str, tree) -> None:
    """Two spellings that read two ways, refused with both readings. `3d6kh-1` reads as (3d6kh) - 1,
    surely not what was meant: a keep or drop modifier with no count, right before a sign. `3d6!!` is
    Roll20's compounding explosion, which dusk does not have; dusk would explode twice."""
    for node in ast.walk(tree):
        mods = getattr(node, "modifiers", ())
        for before, mod in zip(mods, mods[1:]):
            if before.token == "!" and before.operands == (None,) and mod.span[0] == before.span[1] \
                    and text.startswith("!", mod.span[0]):
                raise DiceSyntaxError(
                    _("'!!' is Roll20's compounding explosion (a die's explosions added into one die), which "
                           "dusk does not have; dusk would explode the dice twice: write ! once (3d6!), or '! !' "
                           "with a space to explode twice"), text, (before.span[0], mod.span[1]))
        for mod in mods:
            if MODIFIERS[mod.token].operands[0] == COUNT_OP and mod.operands[0] is None:
                end = mod.span[1]
                if end < len(text) and text[end] in "+-":
                    subtract = _("a count after {token} is a whole number: write {token}1 (one die), or put a space "
                                 "before {sign} to subtract from the kept dice")
                    add = _("a count after {token} is a whole number: write {token}1 (one die), or put a space "
                            "before {sign} to add to the kept dice")
                    raise DiceSyntaxError((subtract if text[end] == "-" else add).format(
                        token=mod.token, sign=repr(text[end])), text, (end, end + 1))
