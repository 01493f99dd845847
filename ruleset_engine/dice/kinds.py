"""The kinds of value of the dice language, as the lowering knows them before anything runs.

A kind known at load time lets the generated code skip a check; ANY means "checked when it
runs". Both modes (traced and untraced) use the same kinds, so they check the same things.
"""

from __future__ import annotations

from ruleset_engine.i18n import N_, _

# The kinds are identifiers of the lowering and, in a message, words (`said`).
NUM, BOOL, STR, POOL, ANY = N_("number"), N_("true/false"), N_("string"), N_("pool"), N_("any")


def said(kind: str) -> str:
    """A kind as a message says it, in the table's language ("expected a number here, not pool")."""
    return _(kind)


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
        return _("true/false")
    if isinstance(value, int):
        return _("a number")
    if isinstance(value, str):
        return _("a string")
    if isinstance(value, (Pool, tuple)):
        return _("a pool of dice")
    if value is None:
        return _("nothing")
    return _("a {name}").format(name=type(value).__name__)
