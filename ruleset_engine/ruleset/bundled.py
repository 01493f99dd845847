"""The rulesets that ship with dusk, found through importlib.resources (never the checkout or the cwd)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

PACKAGES = ("ruleset_engine.rulesets", "ruleset_engine.rulesets.house")


def bundled_files() -> dict[str, object]:
    """id -> a Traversable of the file; the id is the file name without `.yaml`."""
    found = {}
    for package in PACKAGES:
        for entry in sorted(resources.files(package).iterdir(), key=lambda e: e.name):
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
    return resources.files(PACKAGES[0]).joinpath("DEFAULT").read_text("utf-8").strip()


def display_name(path: Path) -> str:
    """How a bundled file is named in messages: rulesets/<name>.yaml, wherever it is installed."""
    parts = path.parts
    if "rulesets" in parts:
        return "/".join(parts[len(parts) - 1 - parts[::-1].index("rulesets"):])
    return str(path)
