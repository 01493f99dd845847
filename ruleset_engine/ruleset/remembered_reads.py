"""YAML reads remembered between runs: a ruleset's file read once need not be read by PyYAML again.

Importing PyYAML (its patterns compiled) and reading a ruleset with it cost a start more than the
rest of its loading. What a file's text read as (LDict / LList / scalars, every position) is kept in
the user's cache folder (ruleset_engine/cache.py, `reads/`), in a file named by the SHA-256 of the
text and of the code that read it (yamlio.py, yamlparse.py, this module, PyYAML's version, the limits
of a read); the next read of the same text takes it from there. Only a read without a problem is
kept: a file with a problem is read again, and says it again with its place.

Never trusted blindly: a file is used only when its own SHA-256 matches what it holds, it was written
by the same code for the same text, and every value in it is one a read can give: texts without a
control character, whole numbers within the limit, positions that are numbers from 1, no key twice,
nesting and size within a read's limits. Anything else (no file, a damaged or foreign one, a folder
that cannot be read or written) is silently passed over: the text is read by PyYAML as always. The
positions name the file by the name it is read under now, so one text read under two names is kept once.
"""

from __future__ import annotations

import hashlib
import json
import os
from importlib.machinery import PathFinder

from .. import cache
from ..dice.runtime import MAX_NUMBER
from ..textfile import control_character
from .problems import Position
from .located import MAX_DEPTH, MAX_NODES, LDict, LList

FORMAT = "1"            # change it when what the file holds, or how, changes
MAX_FILE = 16_000_000   # bytes: a larger file is not read (a 5 MB ruleset's read is far below it)
_CODE: str | None = None


class _Unfit(Exception):
    """A value a read cannot give, found in a remembered file."""


def _code() -> str:
    """The SHA-256 naming what a read depends on (cache.code_key): the modules that read and check,
    PyYAML (its __init__, which names its version, and whether libyaml is there), and the limits."""
    global _CODE
    if _CODE is None:
        here = os.path.dirname(os.path.abspath(__file__))
        # the modules that read, and those whose classes a read is made of (LDict, LList, Position)
        paths = [os.path.join(here, name) for name in ("yamlio.py", "yamlparse.py", "remembered_reads.py",
                                                       "located.py", "problems.py")]
        paths.append(os.path.join(os.path.dirname(here), "textfile.py"))
        spec = PathFinder.find_spec("yaml")     # found, not imported: a read from here needs no PyYAML
        if spec is None or spec.origin is None:
            raise OSError("PyYAML not found")
        paths.append(spec.origin)
        libyaml = sorted(name for name in os.listdir(os.path.dirname(spec.origin)) if name.startswith("_yaml"))
        _CODE = cache.code_key(f"reads/{FORMAT}/{MAX_NUMBER}/{MAX_NODES}/{MAX_DEPTH}/{libyaml}", paths)
    return _CODE


def _path(text: str) -> tuple[str, str] | None:
    """(the remembered file of `text`, the code's SHA-256), or None when there is no cache."""
    where = cache.folder("reads")
    if where is None:
        return None
    code = _code()
    digest = hashlib.sha256(code.encode() + b"\0" + text.encode("utf-8", "surrogatepass")).hexdigest()
    return os.path.join(where, digest + ".json"), code


# ---- the data of a read as JSON and back -------------------------------------------------------
# A scalar is itself; a mapping ["d", line, column, [[key, key line, key column, value line, value
# column, value], ...]]; a sequence ["l", line, column, [[value line, value column, value], ...]].


def encode(data):
    if isinstance(data, LDict):
        return ["d", data.pos.line, data.pos.column,
                [[key, data.key_pos[key].line, data.key_pos[key].column, data.value_pos[key].line,
                  data.value_pos[key].column, encode(value)] for key, value in data.items()]]
    if isinstance(data, LList):
        return ["l", data.pos.line, data.pos.column,
                [[pos.line, pos.column, encode(value)] for pos, value in zip(data.item_pos, data, strict=True)]]
    if data is None or isinstance(data, (bool, str)) or type(data) is int:
        return data
    raise _Unfit(type(data).__name__)


class _Decoder:
    def __init__(self, filename: str):
        self.filename = filename
        self.nodes = 0

    def position(self, line, column) -> Position:
        if type(line) is not int or type(column) is not int or line < 1 or column < 1:
            raise _Unfit("position")
        return Position(self.filename, line, column)

    def scalar(self, value):
        if value is None or isinstance(value, bool):
            return value
        if type(value) is int:
            if not -MAX_NUMBER <= value <= MAX_NUMBER:
                raise _Unfit("number")
            return value
        if isinstance(value, str):
            if control_character(value) is not None:
                raise _Unfit("text")
            return value
        raise _Unfit(type(value).__name__)

    def node(self, data, depth: int = 0):
        self.nodes += 1
        if self.nodes > MAX_NODES or depth > MAX_DEPTH:
            raise _Unfit("size")
        if not isinstance(data, list):
            return self.scalar(data)
        if len(data) != 4 or not isinstance(data[3], list):
            raise _Unfit("container")
        kind, line, column, items = data
        if kind == "d":
            out = LDict()
            out.pos = self.position(line, column)
            for item in items:
                if not isinstance(item, list) or len(item) != 6:
                    raise _Unfit("entry")
                key = self.scalar(item[0])
                if key in out:
                    raise _Unfit("key twice")
                out[key] = self.node(item[5], depth + 1)
                out.key_pos[key] = self.position(item[1], item[2])
                out.value_pos[key] = self.position(item[3], item[4])
            return out
        if kind == "l":
            out = LList()
            out.pos = self.position(line, column)
            for item in items:
                if not isinstance(item, list) or len(item) != 3:
                    raise _Unfit("item")
                out.append(self.node(item[2], depth + 1))
                out.item_pos.append(self.position(item[0], item[1]))
            return out
        raise _Unfit("container")


def decode(data, filename: str):
    """The read `encode` wrote, its positions in the file `filename`; _Unfit for anything a read cannot give."""
    return _Decoder(filename).node(data)


# ---- the files ---------------------------------------------------------------------------------


def recall(text: str, filename: str):
    """What `text` read as, remembered, its positions in `filename`; None when there is none fit to use."""
    try:
        found = _path(text)
        if found is None:
            return None
        path, code = found
        body = cache.read_sealed(path, MAX_FILE)
        if body is None:
            return None
        held = json.loads(body)
        if not isinstance(held, dict) or held.get("code") != code or "data" not in held:
            return None
        data = decode(held["data"], filename)
        if not isinstance(data, LDict):      # only a mapping is a ruleset, a sheet or a chapter read well
            return None
        return data
    except (OSError, ValueError, UnicodeError, RecursionError, _Unfit):
        return None


def keep(text: str, data) -> None:
    """Remember what `text` read as (a read without a problem); nothing when it cannot be kept."""
    try:
        found = _path(text)
        if found is None or not isinstance(data, LDict):
            return
        path, code = found
        body = json.dumps({"code": code, "data": encode(data)}, ensure_ascii=False,
                          separators=(",", ":")).encode("utf-8", "surrogatepass")
    except (OSError, ValueError, UnicodeError, RecursionError, _Unfit, AttributeError, KeyError):
        return
    if len(body) > MAX_FILE:
        return
    cache.write_sealed(path, body)
