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
        assert set(definition.get("properties", {})) - {"id", "doc"} == set(kind.takes), key
        assert set(definition.get("required", ())) == set(kind.required), key


def test_the_shipped_schema_is_written_from_the_registry():
    """The file's step definitions are the registry's: a kind changed or added without
    `python -m ruleset_engine.ruleset.step_schema --write` fails here."""
    from ruleset_engine.ruleset import step_schema

    text = (ROOT / "schemas" / "ruleset.schema.json").read_text("utf-8")
    assert step_schema.written(text, KINDS) == text
    assert step_schema.main([]) == 0
    for name, definition in step_schema.step_definitions(KINDS).items():
        assert SCHEMA["$defs"][name] == definition, name


def _shout():
    """A step kind that is in no registry of dusk: `shout: TEXT`, `loud:` required."""
    from ruleset_engine.ruleset.steps import StepKind

    return StepKind("shout", object, ("shout", "loud"), "says a text loudly", "shout: Boo\nloud: true",
                    check=None, lower=None, schema={"shout": {"$ref": "#/$defs/text"}, "loud": {"type": "boolean"}},
                    required=("loud",))


def test_a_new_kind_in_a_registry_is_in_the_schema_written_from_it():
    from jsonschema import Draft202012Validator

    from ruleset_engine.ruleset import step_schema

    kinds = {**KINDS, "shout": _shout()}
    text = step_schema.written((ROOT / "schemas" / "ruleset.schema.json").read_text("utf-8"), kinds)
    schema = json.loads(text)
    assert schema["$defs"]["step_shout"] == {"required": ["loud"], "properties": {
        "id": True, "shout": {"$ref": "#/$defs/text"}, "loud": {"type": "boolean"}}}
    steps = Draft202012Validator({"$defs": schema["$defs"], "$ref": "#/$defs/steps"})
    assert steps.is_valid([{"shout": "Boo", "loud": True}, {"say": "hello"}])
    assert not steps.is_valid([{"shout": "Boo"}])                       # loud: is required
    assert not steps.is_valid([{"shout": "Boo", "loud": "very"}])       # loud: is true or false
    assert not steps.is_valid([{"shout": "Boo", "loud": True, "volume": 3}])     # no such key
    shipped = Draft202012Validator({"$defs": SCHEMA["$defs"], "$ref": "#/$defs/steps"})
    assert not shipped.is_valid([{"shout": "Boo", "loud": True}])      # dusk's own registry has no shout


def test_a_kind_whose_schema_misses_a_key_it_takes_is_refused():
    from dataclasses import replace

    import pytest

    from ruleset_engine.ruleset import step_schema

    with pytest.raises(ValueError, match="shout"):
        step_schema.step_definitions({"shout": replace(_shout(), schema={"shout": {"type": "string"}})})


def test_the_docs_tables_are_written_from_the_registries():
    from ruleset_engine.ruleset.reference import DOCS, TABLES, rewritten

    for name in DOCS:
        text = (ROOT / name).read_text("utf-8")
        assert "<!-- registry:" in text, name
        assert rewritten(text) == text, f"{name} is out of step: python -m ruleset_engine.ruleset.reference --write"
    marked = "".join((ROOT / name).read_text("utf-8") for name in DOCS)
    assert all(f"<!-- registry:{table} -->" in marked for table in TABLES)
