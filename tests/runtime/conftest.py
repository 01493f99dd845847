"""Fixtures of the runtime tests: `written`, a small ruleset a test writes to its tmp_path and loads."""

import textwrap
from pathlib import Path

import pytest

from ruleset_engine.ruleset import Ruleset, load


class Written:
    """Rulesets written by one test in its own folder: `written(text)` writes and loads one (indented
    text is dedented); `written.path(text)` only writes it, for `dusk` run as a process or `simulate`."""

    def __init__(self, folder: Path):
        self.folder = folder

    def path(self, text: str, name: str = "t.yaml") -> Path:
        path = self.folder / name
        path.write_text(textwrap.dedent(text), encoding="utf-8")
        return path

    def __call__(self, text: str, name: str = "t.yaml") -> Ruleset:
        return load(str(self.path(text, name)))


@pytest.fixture
def written(tmp_path) -> Written:
    return Written(tmp_path)
