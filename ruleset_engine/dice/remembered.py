"""Parses remembered between runs: a ruleset's formulas need not be parsed by Lark on every start.

Loading a ruleset parses its every formula; building Lark's parser, compiling its lexer's patterns and
importing Lark cost a start more than the parsing itself. While a ruleset loads (`remembering`), the
syntax trees of the texts parsed are kept in the user's cache folder (DUSK_CACHE_DIR, else the
platform's), in a file named by the SHA-256 of the ruleset's files; the next load reads the trees
from it, and Lark is not even imported when every text is found there.

Never trusted blindly: a tree is used only for the very text it was parsed from, only by the code it
was parsed by (the file holds the SHA-256 of the dice package's sources and of the grammar, and of the
limits the parse checked), only when the file's own SHA-256 matches what it holds and every node in it
is one of the syntax tree's classes with its fields. Anything else (no file, a foreign or damaged
one, a folder that cannot be read or written) is silently passed over: the text is parsed as always.
Only successful parses are kept; an error is found again, with its message and place.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from contextlib import contextmanager
from dataclasses import fields

from .. import cache
from . import ast
from .limits import DEFAULT_LIMITS, Limits

FORMAT = "1"            # change it when what the file holds, or how, changes
MAX_FILE = 8_000_000    # bytes: a larger file is not read (no ruleset's formulas come near it)
KEEP_ASKED = 100        # expressions asked at the command line whose parses are kept

# The classes a remembered node may be, by name: every dataclass the syntax tree defines (so a new
# node class is remembered with no edit here).
_NODES = {name: cls for name, cls in vars(ast).items()
          if isinstance(cls, type) and cls.__module__ == ast.__name__ and hasattr(cls, "__dataclass_fields__")}
_FIELDS: dict[type, tuple[str, ...]] = {}

_STATE = threading.local()      # .known: {key: encoded tree} of the ruleset loading, .new: those parsed now
_CODE: str | None = None


class _Unfit(Exception):
    """A value a remembered tree cannot hold, or a file's node that is not one."""


def _field_names(cls) -> tuple[str, ...]:
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in fields(cls))
    return names


def encode(node):
    """A tree as JSON data: a node is {class name: [its fields]}, a tuple a list."""
    if node is None or isinstance(node, (bool, int, str)):
        return node
    if isinstance(node, tuple):
        return [encode(item) for item in node]
    cls = type(node)
    if _NODES.get(cls.__name__) is not cls:
        raise _Unfit(cls.__name__)
    return {cls.__name__: [encode(getattr(node, name)) for name in _field_names(cls)]}


def decode(data):
    """The tree `encode` wrote; _Unfit for anything it could not have written."""
    if data is None or isinstance(data, (bool, int, str)):
        return data
    if isinstance(data, list):
        return tuple([decode(item) for item in data])       # (a list, not a generator: a start decodes some
    if isinstance(data, dict) and len(data) == 1:           # thousand nodes, and a generator costs each more)
        (name, values), = data.items()
        cls = _NODES.get(name)
        if cls is not None and isinstance(values, list) and len(values) == len(_field_names(cls)):
            return cls(*[decode(value) for value in values])
    raise _Unfit(type(data).__name__)


def _code() -> str:
    """The SHA-256 of what a parse's result depends on: the dice package's sources and the grammar."""
    global _CODE
    if _CODE is None:
        here = os.path.dirname(os.path.abspath(__file__))
        package = os.path.dirname(here)
        grammar = os.path.join(package, "grammar", "dice.lark")
        if not os.path.isfile(grammar):     # an editable install: the grammar is at the top of the checkout
            grammar = os.path.join(os.path.dirname(package), "grammar", "dice.lark")
        paths = sorted(os.path.join(here, name) for name in os.listdir(here) if name.endswith(".py"))
        _CODE = cache.code_key(f"parses/{FORMAT}", paths + [grammar])
    return _CODE


def _key(text: str, limits: Limits) -> str:
    return f"{limits.max_depth}/{limits.max_length}/{text}"


def _folder() -> str | None:
    return cache.folder("parses")


def _read(path: str, code: str) -> dict:
    """The encoded trees of a file, checked; {} when there is none fit to use."""
    try:
        body = cache.read_sealed(path, MAX_FILE)
        if body is None:
            return {}
        data = json.loads(body)
        if not isinstance(data, dict) or data.get("code") != code or not isinstance(data.get("trees"), dict):
            return {}
        trees = data["trees"]
        if not all(isinstance(k, str) for k in trees):
            return {}
        return trees
    except (OSError, ValueError, UnicodeError, RecursionError):
        return {}


def _write(path: str, code: str, trees: dict) -> None:
    body = json.dumps({"code": code, "trees": trees}, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    if len(body) > MAX_FILE:
        return
    cache.write_sealed(path, body)


@contextmanager
def remembering(sources, keep: int | None = None):
    """While a ruleset loads: its parses are read from, and kept in, the file of `sources` (the bytes
    of the ruleset's files, in order); the file holds the texts parsed this time. `keep`: the file
    holds the last `keep` texts parsed anew under it instead (the expressions asked at the command line).
    Nested, the inner one holds while it lasts (a ruleset loaded to answer a question asked)."""
    folder = _folder()
    try:
        code = _code()
        digest = hashlib.sha256(code.encode())
        for source in sources:
            digest.update(hashlib.sha256(source).digest())
    except OSError:
        folder = None
    if folder is None:
        yield
        return
    path = os.path.join(folder, digest.hexdigest() + ".json")
    outer = (getattr(_STATE, "known", None), getattr(_STATE, "new", None), getattr(_STATE, "used", None))
    _STATE.known, _STATE.new, _STATE.used = _read(path, code), {}, {}
    try:
        yield
        if _STATE.new:
            if keep is None:
                trees = {**_STATE.used, **_STATE.new}
            else:       # the oldest first, the last `keep` parsed kept (a file is written only after a parse)
                trees = dict(list({**_STATE.known, **_STATE.new}.items())[-keep:])
            _write(path, code, trees)
    finally:
        _STATE.known, _STATE.new, _STATE.used = outer


def asked():
    """The parses of the expressions asked at the command line (`dusk roll`, `dusk prob`): the last
    KEEP_ASKED of them are remembered."""
    return remembering((b"expressions asked at the command line",), keep=KEEP_ASKED)


def parse(text: str, limits: Limits = DEFAULT_LIMITS) -> ast.Node:
    """dice.parser.parse: the remembered tree of `text` while a ruleset loads, when there is one fit to
    use; else Lark's parse (and the tree is kept)."""
    known = getattr(_STATE, "known", None)
    if known is None or not isinstance(text, str):
        from .parser import parse as lark_parse
        return lark_parse(text, limits)
    key = _key(text, limits)
    data = known.get(key)
    if data is not None:
        try:
            tree = decode(data)
        except (_Unfit, TypeError, ValueError, RecursionError):
            tree = None
        if isinstance(tree, tuple(_NODES.values())):
            _STATE.used[key] = data
            return tree
    from .parser import parse as lark_parse
    tree = lark_parse(text, limits)
    try:
        _STATE.new[key] = encode(tree)
    except (_Unfit, RecursionError):
        pass
    return tree
