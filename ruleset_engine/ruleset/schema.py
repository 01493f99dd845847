"""Validating a ruleset against schemas/ruleset.schema.json, every error in plain words and located."""

from __future__ import annotations

import json
from ..errors import get_close_matches
from functools import lru_cache
import importlib
import os

from ruleset_engine.i18n import N_, _

from .problems import Problem
from .yamlio import key_position_of, position_of


@lru_cache(maxsize=1)
def schema() -> dict:
    return json.loads(_schema_text())


@lru_cache(maxsize=1)
def _validator():
    from jsonschema import Draft202012Validator

    return Draft202012Validator(schema())


_TYPE_WORDS = {"string": N_("text"), "integer": N_("a whole number"), "boolean": N_("true or false"),
               "object": N_("a mapping"), "array": N_("a list"), "null": N_("nothing")}


def _kind(value) -> str:
    if isinstance(value, bool):
        return _("true/false")
    if isinstance(value, int):
        return _("the number {value}").format(value=value)
    if isinstance(value, str):
        return _("the text {value!r}").format(value=value)
    if isinstance(value, dict):
        return _("a mapping")
    if isinstance(value, list):
        return _("a list")
    if value is None:
        return _("nothing")
    return type(value).__name__


def _types(t) -> str:
    names = [t] if isinstance(t, str) else list(t)
    words = [_(_TYPE_WORDS[n]) if n in _TYPE_WORDS else n for n in names]
    return words[0] if len(words) == 1 else _("{some} or {last}").format(some=", ".join(words[:-1]), last=words[-1])


def _message(err) -> tuple[str, bool]:
    """(message, points at a key rather than a value)"""
    v = err.validator
    schema_path = list(err.absolute_schema_path)
    if "propertyNames" in schema_path:
        allowed = err.validator_value if v == "enum" else None
        hint = ""
        if allowed:
            guess = get_close_matches(str(err.instance), [str(a) for a in allowed], n=1)
            hint = _(" (did you mean {guess!r}?)").format(guess=guess[0]) if guess else ""
        if v == "enum":
            return _("unknown key {key!r} in a step{hint}").format(key=err.instance, hint=hint), True
        return _("{name!r} is not a valid name (letters, digits and _, not starting with a digit)").format(
            name=err.instance), True
    if v == "required":
        missing = err.message.split("'")[1] if "'" in err.message else err.message
        return _("missing key {key!r}").format(key=missing), False
    if v == "additionalProperties":
        extra = _extra_keys(err)
        allowed = sorted(err.schema.get("properties", {}))
        guess = get_close_matches(str(extra[0]), allowed, n=1) if extra else []
        hint = _(" (did you mean {guess!r}?)").format(guess=guess[0]) if guess else \
            _(" (allowed: {keys})").format(keys=", ".join(allowed))
        if extra and " " in str(extra[0]) and err.instance.get(extra[0]) is None:
            # `{doc: Once a night, or never.}`: YAML cut the text of the key before at its comma.
            keys = list(err.instance)
            cut = keys[keys.index(extra[0]) - 1] if keys.index(extra[0]) > 0 else None
            hint += _("; a text with a comma inside {braces} must be quoted").format(braces="{ }") \
                + (f": {cut}: \"..., ...\"" if cut is not None else "")
        return _("unknown key {key!r}{hint}").format(key=extra[0], hint=hint) if extra else err.message, True
    if v == "type":
        return _("expected {types}, not {kind}").format(types=_types(err.validator_value),
                                                        kind=_kind(err.instance)), False
    if v == "enum":
        options = ", ".join(str(o) for o in err.validator_value)
        guess = get_close_matches(str(err.instance), [str(o) for o in err.validator_value], n=1)
        hint = _(" (did you mean {guess!r}?)").format(guess=guess[0]) if guess else ""
        return _("expected one of {options}, not {kind}{hint}").format(
            options=options, kind=_kind(err.instance), hint=hint), False
    if v == "const":
        return _("expected {value!r}, not {kind}").format(value=err.validator_value, kind=_kind(err.instance)), False
    if v == "pattern":
        if "a-z0-9-" in err.validator_value:
            return _("{name!r} is not a valid id (lower-case letters, digits and -)").format(name=err.instance), False
        return _("{name!r} is not a valid name (letters, digits, _ and dots)").format(name=err.instance), False
    if v == "oneOf":
        if "text" in schema_path or err.schema.get("$ref", "").endswith("text") or \
                any("en" in (s.get("properties") or {}) for s in err.validator_value if isinstance(s, dict)):
            return _("expected text (a string, or {form}), not {kind}").format(
                form="{en: ..., zh: ...}", kind=_kind(err.instance)), False
        if err.context:
            best = min(err.context, key=lambda e: len(list(e.absolute_path)))
            return _message(best)[0], False
        return _("{kind} is not allowed here").format(kind=_kind(err.instance)), False
    if v == "anyOf" and {s.get("$ref") for s in err.validator_value if isinstance(s, dict)} == \
            {"#/$defs/formula", "#/$defs/text"}:
        # ask's auto: a formula, or (a text question's) a text: one per language a map
        return _("expected a formula, or a text (a string, or {form}), not {kind}").format(
            form="{en: ..., zh: ...}", kind=_kind(err.instance)), False
    if v == "anyOf" and err.schema.get("description", "").startswith("A table cell"):
        return _("a table cell holds a number, true/false or a text, not {kind}").format(
            kind=_kind(err.instance)), False
    if v in ("minItems", "minProperties"):
        return _("this must not be empty"), False
    if v in ("minimum", "maximum"):
        shown = _("expected at least {limit}, not {value}") if v == "minimum" else \
            _("expected at most {limit}, not {value}")
        return shown.format(limit=err.validator_value, value=err.instance), False
    if v == "uniqueItems":
        return _("the items of this list must differ"), False
    return err.message, False


def _extra_keys(err) -> list:
    """The keys an additionalProperties error is about, in order (YAML keys need not be texts: `~: 1`)."""
    return sorted(set(err.instance) - set(err.schema.get("properties", {})), key=lambda k: (str(type(k)), str(k)))


def validate(data) -> list[Problem]:
    """Every problem the schema finds in a ruleset's (merged) data, located; [] when it is valid.

    A valid ruleset is remembered by a fingerprint of its data and the schema (remembered.py), so
    loading the same file again does not pay for jsonschema: what the schema would say is known."""
    from .remembered import fingerprint, known, remember

    key = fingerprint("schema-valid", _schema_text(), data)
    if known(key):
        return []
    problems = _problems(data)
    if not problems:
        remember(key)
    return problems


@lru_cache(maxsize=1)
def _schema_text() -> str:
    # The package's folder (installed as files), as importlib.resources would find it, without importing it.
    folder = next(iter(importlib.import_module("ruleset_engine.schemas").__path__))
    with open(os.path.join(folder, "ruleset.schema.json"), encoding="utf-8") as handle:
        return handle.read()


def _problems(data) -> list[Problem]:
    problems = []
    seen = set()
    for err in _validator().iter_errors(data):
        path = tuple(err.absolute_path)
        message, at_key = _message(err)
        if at_key and err.validator == "additionalProperties":
            extra = _extra_keys(err)
            if extra:
                path = path + (extra[0],)
        if at_key and "propertyNames" in list(err.absolute_schema_path):
            path = path + (err.instance,)
        key = (path, message)
        if key in seen:
            continue
        seen.add(key)
        position = key_position_of(data, path) if at_key else position_of(data, path)
        problems.append(Problem(message, position, path))
    return problems
