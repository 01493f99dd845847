"""The kinds of value of the dice language, as the lowering knows them before anything runs.

A kind known at load time lets the generated code skip a check; ANY means "checked when it
runs". Both modes (traced and untraced) use the same kinds, so they check the same things.
"""

from __future__ import annotations

NUM, BOOL, STR, POOL, ANY = "number", "true/false", "string", "pool", "any"


def join(a: str | None, b: str | None) -> str | None:
    """The kind that covers both (None: nothing known yet)."""
    if a is None:
        return b
    if b is None or a == b:
        return a
    return ANY


def describe(value) -> str:
    """A value's kind in words, for messages ("a number", "a pool of dice")."""
    from .values import Pool

    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, (Pool, tuple)):
        return "a pool of dice"
    if value is None:
        return "nothing"
    return f"a {type(value).__name__}"
