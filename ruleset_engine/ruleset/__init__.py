"""Rulesets as data: load YAML with positions, resolve `extends:`, validate, check, build the typed Ruleset.

    ruleset = load("my-game")          # a bundled id, or a path to a YAML file

The names below are imported when first used: the runtime reads the typed model and the step
registry without loading the YAML reader, the schema or the checker.
"""

from __future__ import annotations

_NAMES = {
    "bundled_files": ".bundled", "load": ".loader", "read_merged": ".loader", "Ruleset": ".model",
    "Position": ".problems", "Problem": ".problems", "RulesetError": ".problems",
}

__all__ = sorted(_NAMES)


def __getattr__(name: str):
    module = _NAMES.get(name)
    if module is None:
        raise AttributeError(f"module 'ruleset_engine.ruleset' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value
