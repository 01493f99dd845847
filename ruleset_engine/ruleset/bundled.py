"""The rulesets that ship with dusk, found in the folders of their packages (never the checkout or the cwd).

The packages are imported and their folders listed, as importlib.resources would for a package
installed as files (they always are), without importing importlib.resources (and zipfile) at every start.
"""

from __future__ import annotations

import importlib
from pathlib import Path

PACKAGES = ("ruleset_engine.rulesets", "ruleset_engine.rulesets.house")


def _folder(package: str) -> Path:
    return Path(next(iter(importlib.import_module(package).__path__)))


def bundled_files() -> dict[str, Path]:
    """id -> the path of the file; the id is the file name without `.yaml`."""
    found = {}
    for package in PACKAGES:
        for entry in sorted(_folder(package).iterdir(), key=lambda e: e.name):
            if entry.name.endswith(".yaml") and entry.is_file():
                found.setdefault(entry.name[: -len(".yaml")], entry)
    return found


def bundled_path(ruleset_id: str):
    """The bundled file of an id, as a real path (bundled files are installed as files)."""
    entry = bundled_files().get(ruleset_id)
    if entry is None:
        return None
    return Path(str(entry))


def default_ruleset() -> str:
    """The ruleset `dusk play` opens when none is named: written in rulesets/DEFAULT (data, not code)."""
    return (_folder(PACKAGES[0]) / "DEFAULT").read_text("utf-8").strip()


def display_name(path: Path) -> str:
    """How a bundled file is named in messages: rulesets/<name>.yaml, wherever it is installed."""
    parts = path.parts
    if "rulesets" in parts:
        return "/".join(parts[len(parts) - 1 - parts[::-1].index("rulesets"):])
    return str(path)
