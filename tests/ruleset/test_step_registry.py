"""The step kinds are listed once, in the registry: the schema an editor validates with, the checker
and the docs agree with it."""

import json
from pathlib import Path

from ruleset_engine.ruleset.steps import KINDS

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "schemas" / "ruleset.schema.json").read_text("utf-8"))


def test_the_schema_names_exactly_the_registry_keys_of_a_step():
    step = SCHEMA["$defs"]["step"]
    allowed = set(step["propertyNames"]["enum"])
    assert allowed == {key for kind in KINDS.values() for key in kind.takes} | {"id", "doc"}
    chosen = {tuple(branch["if"]["required"])[0]: branch["then"]["$ref"] for branch in step["allOf"]}
    assert set(chosen) == set(KINDS)


def test_each_kind_takes_what_its_schema_allows():
    step = SCHEMA["$defs"]["step"]
    chosen = {tuple(branch["if"]["required"])[0]: branch["then"]["$ref"] for branch in step["allOf"]}
    for key, kind in KINDS.items():
        definition = SCHEMA["$defs"][chosen[key].rsplit("/", 1)[-1]]
        properties = set(definition.get("properties", {})) - {"id", "doc"}
        sharing = {k for k, ref in chosen.items() if ref == chosen[key]}     # mark and clear share one
        assert properties == {t for k in sharing for t in KINDS[k].takes}, key




def test_the_docs_tables_are_written_from_the_registries():
    from ruleset_engine.ruleset.reference import DOCS, TABLES, rewritten

    for name in DOCS:
        text = (ROOT / name).read_text("utf-8")
        assert "<!-- registry:" in text, name
        assert rewritten(text) == text, f"{name} is out of step: python -m ruleset_engine.ruleset.reference --write"
    marked = "".join((ROOT / name).read_text("utf-8") for name in DOCS)
    assert all(f"<!-- registry:{table} -->" in marked for table in TABLES)
