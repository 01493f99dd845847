"""The reference tables of the docs, written from the registries (functions, modifiers, other tools'
notations, step kinds, queries over a group).

docs/dice-language.md and docs/rulesets.md carry these tables between marker comments; a test
compares them with what this module writes, so the docs cannot drift from the registry. After
adding an entry, write them anew:

    .venv/bin/python -m ruleset_engine.ruleset.reference --write
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from ruleset_engine.dice.aliases import ALIASES
from ruleset_engine.dice.functions import FUNCTIONS
from ruleset_engine.dice.modifiers import MODIFIERS

from .queries import QUERIES
from .steps import KINDS

ROOT = Path(__file__).resolve().parents[2]
MARKER = re.compile(r"(<!-- registry:(\w+) -->\n)(.*?)(<!-- /registry -->)", re.S)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _table(header: str, rows: list[tuple[str, ...]]) -> str:
    columns = header.count("|") + 1
    lines = [f"| {header} |", "|" + "---|" * columns] + [f"| {' | '.join(row)} |" for row in rows]
    return "\n".join(lines) + "\n"


def _exact(*forms) -> str:
    """Whether `dusk prob` has an exact form for the entry (docs/prob.md)."""
    return "yes" if all(form.exact is not None for form in forms) else "estimated"


def functions_table() -> str:
    return _table("Function | Example | Result | Exact odds", [
        (", ".join(f"`{form.signature}`" for form in entry.forms), f"`{_cell(entry.example)}`", _cell(entry.doc),
         _exact(*entry.forms))
        for entry in FUNCTIONS.values()])


def modifiers_table() -> str:
    return _table("Modifier | Example | Meaning | Exact odds", [
        (" ".join(f"`{part}`" for part in entry.syntax.split()), f"`{_cell(entry.example)}`", _cell(entry.doc),
         _exact(entry))
        for entry in MODIFIERS.values()])


def aliases_table() -> str:
    return _table("Notation | Tool | In dusk | Example | Read as", [
        (" ".join(f"`{_cell(part)}`" for part in entry.syntax.split()), entry.tool, _cell(entry.doc),
         f"`{_cell(entry.example)}`", f"`{_cell(entry.explicit)}`")
        for entry in ALIASES.values()])


def steps_table() -> str:
    return _table("Step | Example | What it does", [
        (f"`{kind.key}`", "<br>".join(f"`{_cell(line)}`" for line in kind.example.splitlines()), _cell(kind.doc))
        for kind in KINDS.values()])


def queries_table() -> str:
    return _table("Query | Example | Gives", [
        (f"`{_cell(query.signature)}`", f"`{_cell(query.example)}`", _cell(query.doc)) for query in QUERIES.values()])


TABLES = {"functions": functions_table, "modifiers": modifiers_table, "aliases": aliases_table,
          "steps": steps_table, "queries": queries_table}
DOCS = ("docs/dice-language.md", "docs/rulesets.md")


def rewritten(text: str) -> str:
    """The text with every marked table written anew from the registries."""
    return MARKER.sub(lambda m: m.group(1) + TABLES[m.group(2)]() + m.group(4), text)


def main(argv: list[str]) -> int:
    stale = []
    for name in DOCS:
        path = ROOT / name
        text = path.read_text("utf-8")
        new = rewritten(text)
        if new != text:
            stale.append(name)
            if "--write" in argv:
                path.write_text(new, "utf-8")
    if stale and "--write" not in argv:
        print("out of step with the registry: " + ", ".join(stale) + " (write them with --write)")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
