"""A ruleset whose sections the schema refuses (a list where a mapping goes) is told its problems with
their places; reading the names a table may type (ruleset/words.py) never trips over such a section.
Found by tests/ruleset/test_check_property.py: `params:` turned into a list gave a traceback."""

import pytest

from ruleset_engine.ruleset import RulesetError, load
from ruleset_engine.ruleset.words import typed_names

BASE = """ruleset: t
title: T
state: {n: 0}
actions:
  go:
    steps:
      - set: {n: n + 1}
"""


@pytest.mark.parametrize("section", ["params", "entities", "pairs", "tables", "formulas", "procedures"])
def test_a_section_written_as_a_list_is_a_problem_with_its_place_not_a_traceback(tmp_path, section):
    path = tmp_path / "r.yaml"
    path.write_text(BASE + f"{section}:\n  - if: x\n", encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        load(str(path))
    # the section's value starts on line 9, its item at column 3
    assert any(str(p).startswith(f"{path}:9:") for p in info.value.problems), [str(p) for p in info.value.problems]


def test_typed_names_reads_past_sections_of_the_wrong_shape():
    data = {"params": [{"if": "x"}], "actions": {"go": {"params": ["a"]}}, "loop": {"name": "x"},
            "entities": {"guard": {"fields": ["life"], "tracks": "no"}}, "state": {"n": 0}}
    assert typed_names(data) == {"go", "guard", "n"}
