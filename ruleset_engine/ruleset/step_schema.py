"""The JSON Schema's step definitions, written from the step registry (`KINDS`).

schemas/ruleset.schema.json is the file an editor validates a ruleset with, and the one dusk loads
(ruleset/schema.py). Its definitions of a step (`step`: the keys a step may have and the sub-schema
each kind's key chooses; `step_KIND`: what each key of that kind takes) are written here from the
entries, each kind's `takes`, `schema` and `required`; the rest of the file is written by hand. A new
step kind is its entry: `--write` puts it in the file, and tests/ruleset/test_step_registry.py fails
while the file is out of step with the registry.

    .venv/bin/python -m ruleset_engine.ruleset.step_schema --write
"""

from __future__ import annotations

from ruleset_engine.i18n import _

import json
import sys
from pathlib import Path

SCHEMA_FILE = Path(__file__).resolve().parents[2] / "schemas" / "ruleset.schema.json"
START = '    "step": {'                 # the step definitions are the last of $defs, from here on
END = "\n  }\n}\n"
COMMON = ("id", "doc")                  # keys any step may have


def step_definitions(kinds: dict) -> dict:
    """`step` and one `step_KIND` per entry of `kinds` (key -> StepKind), as JSON Schema definitions."""
    keys = list(COMMON)
    for kind in kinds.values():
        if set(kind.schema) != set(kind.takes):
            raise ValueError(_("the step kind {key!r} takes {takes} and its schema says {schema}: one "
                               "schema per key it takes").format(
                                 key=kind.key, takes=sorted(kind.takes), schema=sorted(kind.schema)))
        keys += [key for key in kind.takes if key not in keys]
    definitions = {"step": {
        "description": "One step: a mapping whose kind is named by one key. The sub-schema is chosen by that key.",
        "type": "object",
        "minProperties": 1,
        "propertyNames": {"enum": keys},
        "allOf": [{"if": {"required": [key]}, "then": {"$ref": f"#/$defs/step_{key}"}} for key in kinds],
    }}
    for key, kind in kinds.items():
        definition: dict = {"required": list(kind.required)} if kind.required else {}
        definition["properties"] = {"id": True, **{name: kind.schema[name] for name in kind.takes}}
        definitions[f"step_{key}"] = definition
    return definitions


def _dumps(value) -> str:
    return json.dumps(value, ensure_ascii=False)


def written(text: str, kinds: dict) -> str:
    """The schema file's text with its step definitions written anew from `kinds`."""
    at, end = text.index(START), text.rindex(END)
    definitions = step_definitions(kinds)
    step = definitions.pop("step")
    lines = [START]
    lines += [f"      {_dumps(name)}: {_dumps(value)}," for name, value in step.items() if name != "allOf"]
    lines.append('      "allOf": [')
    lines.append(",\n".join(f"        {_dumps(branch)}" for branch in step["allOf"]))
    lines.append("      ]")
    lines.append("    },")
    lines.append(",\n".join(f"    {_dumps(name)}: {_dumps(value)}" for name, value in definitions.items()))
    return text[:at] + "\n".join(lines) + text[end:]


def main(argv: list[str]) -> int:
    from .steps import KINDS

    text = SCHEMA_FILE.read_text("utf-8")
    new = written(text, KINDS)
    if new == text:
        return 0
    if "--write" in argv:
        SCHEMA_FILE.write_text(new, "utf-8")
        return 0
    print(f"{SCHEMA_FILE} is out of step with the step registry (write it with --write)")
    return 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
