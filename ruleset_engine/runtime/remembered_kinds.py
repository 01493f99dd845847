"""The kinds a program writer settled on, remembered between runs: a second start writes the program once.

The program writer (program.py) infers the kind of every state variable, entity field, procedure
parameter and local by writing the whole program pass after pass until the kinds settle (four
passes for the bundled rulesets). What the last pass assumed and what it observed are kept in the
user's cache folder (ruleset_engine/cache.py, `kinds/`), in a file named by the SHA-256 of all that
decides them: the ruleset's data as resolved, the params, the mode (traced or not, coverage), the
loop's arguments, the limits, and the code that writes (the dice package's, through its remembered
parses' hash, and the modules listed in _WRITERS). The next writer for the same key starts from
the remembered kinds and writes once.

Never trusted blindly: the file is read only when its own SHA-256 matches what it holds, it was
written by the same code, and every row in it is a name (a text) and one of the five kinds; anything
else is passed over. Even then the pass written from it must observe exactly the kinds the file says
the last pass observed, each within the kind assumed (the check every last pass of the writer makes):
otherwise, or when that pass finds a problem or fails, the program is written from scratch as
always. So a stale, damaged or wrong file costs one pass, never a program other than the one the
kinds it settles on describe. The file is written only when what it would hold changed.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass

from .. import cache
from ..dice import remembered as remembered_parses
from ..dice.kinds import ANY, BOOL, NUM, POOL, STR
from ..ruleset.remembered import fingerprint

FORMAT = "1"            # change it when what the file holds, or how, changes
MAX_FILE = 4_000_000    # bytes: a larger file is not read (VtM's kinds are a few tens of kilobytes)
MAX_NAME = 500          # characters of a name in a row (the checker allows far shorter names)

# The kinds a row may hold, each decoded to the kind itself (kinds.py), or None: nothing known yet.
_KINDS = {kind: kind for kind in (NUM, BOOL, STR, POOL, ANY)}
# The rows of each part of the kinds: how many names (then the kind).
_PARTS = (("state", 1), ("fields", 2), ("procs", 2), ("locals", 2))
# The code that decides the kinds, beside the dice package (whose hash dice/remembered.py makes): every
# module of the runtime and of the ruleset's model, checks and step kinds. Not only the writer's own: a
# change to how the model is built or what a helper returns could leave an old memo consistent yet not
# the one a fresh start settles on (the memo's check proves a program sound, not that it is the same).
_WRITERS = (("runtime", None), ("ruleset", None), ("ruleset/steps", None))
_CODE: str | None = None


class _Unfit(Exception):
    """A file's data that a writer could not have written."""


@dataclass
class Kinds:
    """The kinds of one pass of the writer, in its own shapes: state {name: kind}, fields
    {(entity, field): kind}, procs {(procedure, param): kind}, locals {function: {name: kind}}."""

    state: dict
    fields: dict
    procs: dict
    locals: dict

    def copy(self) -> Kinds:
        return Kinds(dict(self.state), dict(self.fields), dict(self.procs),
                     {name: dict(kinds) for name, kinds in self.locals.items()})


def _code() -> str:
    """The SHA-256 naming the code that writes a program (cache.code_key)."""
    global _CODE
    if _CODE is None:
        package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        paths = []
        for folder, names in _WRITERS:
            where = os.path.join(package, folder)
            if names is None:
                names = sorted(name for name in os.listdir(where) if name.endswith(".py"))
            paths += [os.path.join(where, name) for name in names]
        _CODE = cache.code_key(f"kinds/{FORMAT}/{remembered_parses._code()}", paths)
    return _CODE


# ---- the kinds as JSON data and back -----------------------------------------------------------
# {"state": [[name, kind], ...], "fields": [[entity, field, kind], ...], "procs": [[procedure,
# param, kind], ...], "locals": [[function, name, kind], ...]}; a kind is its text, or null.


def encode(kinds: Kinds) -> dict:
    # Sorted: the writer's dictionaries are filled in an order that may change from run to run, and
    # the same kinds must give the same file (one that holds them already is not written again).
    return {
        "state": sorted([name, kind] for name, kind in kinds.state.items()),
        "fields": sorted([entity, field, kind] for (entity, field), kind in kinds.fields.items()),
        "procs": sorted([procedure, param, kind] for (procedure, param), kind in kinds.procs.items()),
        "locals": sorted([function, name, kind] for function, names in kinds.locals.items()
                         for name, kind in names.items()),
    }


def _name(value) -> str:
    if not isinstance(value, str) or len(value) > MAX_NAME:
        raise _Unfit("name")
    return value


def _kind(value):
    if value is None:
        return None
    if not isinstance(value, str) or value not in _KINDS:
        raise _Unfit("kind")
    return _KINDS[value]


def decode(data) -> Kinds:
    """The kinds `encode` wrote; _Unfit for anything it could not have written (a part missing or
    more, a row of another length, a name that is not a text, a kind that is not one, a name twice)."""
    if not isinstance(data, dict) or set(data) != {part for part, _ in _PARTS}:
        raise _Unfit("parts")
    parts = {}
    for part, width in _PARTS:
        rows = data[part]
        if not isinstance(rows, list):
            raise _Unfit(part)
        found: dict = {}
        for row in rows:
            if not isinstance(row, list) or len(row) != width + 1:
                raise _Unfit("row")
            names = tuple(_name(value) for value in row[:width])
            key = names[0] if width == 1 else names
            if key in found:
                raise _Unfit("a name twice")
            found[key] = _kind(row[width])
        parts[part] = found
    local: dict = {}
    for (function, name), kind in parts["locals"].items():
        local.setdefault(function, {})[name] = kind
    return Kinds(parts["state"], parts["fields"], parts["procs"], local)


# ---- the files ---------------------------------------------------------------------------------


class Memo:
    """The remembered kinds of one program: `known` is (assumed, observed) when a fit file was read."""

    def __init__(self, path: str, code: str):
        self.path, self.code = path, code
        self.body: bytes | None = None      # the body read, so that the same is not written again
        self.known: tuple[Kinds, Kinds] | None = None

    @classmethod
    def of(cls, ruleset, params: dict, *, traced: bool, run_limits, dice_limits, loop_args: dict,
           coverage: bool) -> Memo | None:
        """The memo of the program these decide, read; None when there is no cache folder, or the
        ruleset has no data to be known by (one made in memory)."""
        where = cache.folder("kinds")
        if where is None or ruleset.data is None:
            return None
        try:
            code = _code()
            key = fingerprint("kinds", code, ruleset.data,
                              repr(sorted((str(k), repr(v)) for k, v in params.items())),
                              repr(sorted((str(k), repr(v)) for k, v in loop_args.items())),
                              f"traced={traced!r} coverage={coverage!r}", repr(run_limits), repr(dice_limits))
        except (OSError, ValueError, TypeError, RecursionError):
            return None
        memo = cls(os.path.join(where, key + ".json"), code)
        memo.read()
        return memo

    def read(self) -> None:
        try:
            body = cache.read_sealed(self.path, MAX_FILE)
            if body is None:
                return
            held = json.loads(body)
            if not isinstance(held, dict) or set(held) != {"code", "assumed", "observed"} \
                    or held["code"] != self.code:
                return
            self.known = decode(held["assumed"]), decode(held["observed"])
            self.body = body
        except (OSError, ValueError, UnicodeError, RecursionError, _Unfit):
            self.known = None

    def keep(self, assumed: Kinds, observed: Kinds) -> None:
        """Remember the kinds of the last pass; nothing written when the file holds them already."""
        try:
            body = json.dumps({"code": self.code, "assumed": encode(assumed), "observed": encode(observed)},
                              ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        except (ValueError, TypeError, UnicodeError, RecursionError):
            return
        if body == self.body or len(body) > MAX_FILE:
            return
        cache.write_sealed(self.path, body)
        self.body = body
