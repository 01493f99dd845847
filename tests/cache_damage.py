"""Damaged, foreign and hostile cache files, for the tests of every cache that reads back what
`ruleset_engine.cache.write_sealed` wrote: a first line holding the SHA-256 (hex) of the rest, then
the body (JSON). Each cache's test adds the damage only its own body can have."""

from __future__ import annotations

import hashlib
import json
import os

# A JSON array nested far past Python's stack: a reader that recurses on it would raise RecursionError.
DEEP = "[" * 100_000 + "]" * 100_000


def seal(body: bytes) -> bytes:
    """The bytes write_sealed writes for `body` (tests/test_cache.py holds the two together)."""
    return hashlib.sha256(body).hexdigest().encode("ascii") + b"\n" + body


def seal_json(data) -> bytes:
    """A sealed file whose body is `data` as JSON: its seal is sound, only what it holds is wrong."""
    return seal(json.dumps(data, ensure_ascii=False).encode())


def held(path) -> dict:
    """What the sound sealed file at `path` holds, read back from its JSON body."""
    return json.loads(path.read_bytes().partition(b"\n")[2])


def damaged_files(path):
    """(what, bytes) of the damage any sealed cache file at `path` (a sound one, as written) may
    come to: its seal no longer matches, or it was made by other code."""
    good = path.read_bytes()
    _head, _, body = good.partition(b"\n")
    data = json.loads(body)
    flipped = bytearray(good)
    flipped[len(good) // 2] ^= 0x01
    yield "a flipped bit", bytes(flipped)
    yield "cut short", good[: len(good) // 2]
    yield "empty", b""
    yield "binary", os.urandom(300)
    yield "no digest", body
    yield "other code", seal_json(dict(data, code="0" * 64))
    yield "not a mapping", seal_json([1, 2, 3])
