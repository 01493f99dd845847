"""`words:`: the names a table types, in its own language (input labels).

A ruleset may give, per language, a label for any name a player types or answers with: an
action, a parameter or its word, a choice value, a group, a field or track (a trait), a state
name, a table, a loop level. At a table in that language the label is read as the name (both are
accepted; Tab completes both), so `检定 力量 + 格斗` is `throw strength + brawl`:

    words:
      zh: {throw: 检定, strength: 力量, brawl: 格斗, bold: 大胆}

Checked at load, each problem with its place: a key that names nothing of the ruleset, a label
with a space or a character the table splits words on, two names given one label (in any case),
a label that is another name of the ruleset (typed, it could mean either), and a label that is
the word of one of the table's built-in commands (typed first on a line, it would no longer run it).
"""

from __future__ import annotations

import re

from ruleset_engine.i18n import _

# A label is one word as the table splits a line: no space, and none of , = ; " ' # ( ) [ ] { } + - * / < > !
# One word as a table reads one: compiled when a ruleset first has words: (re keeps it), not at every start.
LABEL = r"^[^\s,=;\"'#()\[\]{}+\-*/<>!]{1,40}$"

# The words of the table's built-in commands (repl/commands.py's BUILTINS; a test holds the two
# together). They are typed as they are at a table of any language, so no label may be one of them.
BUILTIN_COMMANDS = ("help", "roll", "request", "prob", "state", "status", "log", "table", "rules", "auto", "undo",
                    "dice", "new", "export", "sheet", "fill", "set", "save", "quit", "exit")


def _mapping(value) -> dict:
    """A section read as a mapping; {} for one the schema refused (a list where a mapping goes has its
    own problem already, said with its place)."""
    return value if isinstance(value, dict) else {}


def typed_names(data) -> set[str]:
    """Every name of the ruleset a table may type or answer with."""
    names: set[str] = set()
    for section in ("params", "tables", "entities", "state", "pairs", "actions", "procedures", "formulas"):
        names.update(_mapping(data.get(section)).keys())
    loop = data.get("loop") if isinstance(data.get("loop"), list) else []
    names.update(level.get("name") for level in loop if isinstance(level, dict) and level.get("name"))
    for spec in list(_mapping(data.get("entities")).values()) + list(_mapping(data.get("pairs")).values()):
        if isinstance(spec, dict):
            names.update(_mapping(spec.get("fields")).keys())       # a pair's fields too (`table bond`)
            names.update(_mapping(spec.get("tracks")).keys())
    for action in list(_mapping(data.get("actions")).values()) + loop:
        if isinstance(action, dict):
            for name, param in _mapping(action.get("params")).items():
                names.add(name)
                if isinstance(param, dict) and isinstance(param.get("word"), str):
                    names.add(param["word"])
    _choices(data, names)
    return {name for name in names if isinstance(name, str)}


def _choices(node, names: set[str]) -> None:
    """The choice values written anywhere (a param's choices:, a choice: question's list)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("choices", "choice") and isinstance(value, list):
                names.update(v for v in value if isinstance(v, str))
            _choices(value, names)
    elif isinstance(node, list):
        for item in node:
            _choices(item, names)


def check_words(checker) -> dict[str, dict[str, str]]:
    """language -> {name: label}, every problem reported through the checker with its place."""
    data = checker.data
    words = data.get("words") or {}
    known = typed_names(data)
    folded = {name.casefold(): name for name in known}
    out: dict[str, dict[str, str]] = {}
    for lang, labels in words.items():
        given: dict[str, str] = {}          # label casefolded -> the name it was given first
        kept: dict[str, str] = {}
        for name, label in (labels or {}).items():
            path = ("words", lang, name)
            if name not in known:
                checker.problem(_("words: {name} names nothing a table types in this ruleset (an action, "
                                  "parameter, word, choice, group, field, track, state, table or level)").format(
                                    name=repr(name))
                                + checker.suggest(name, known), path, at_key=True)
                continue
            if not isinstance(label, str) or not re.match(LABEL, label):
                checker.problem(_("words: the label {label} of {name} is not one word as the table reads one "
                                  "(1 to 40 characters, no space, none of , = ; quotes # brackets or operators)").format(
                                    label=repr(label), name=repr(name)), path)
                continue
            key = label.casefold()
            if key in given and given[key] != name:
                checker.problem(_("words: the label {label} is given to both {first} and {second} in {lang}: "
                                  "typed, it could mean either").format(label=repr(label), first=repr(given[key]),
                                                                       second=repr(name), lang=lang), path)
                continue
            if key in BUILTIN_COMMANDS and key != name.casefold():
                checker.problem(_("words: the label {label} of {name} is the built-in command {command}: typed, "
                                  "it would no longer run the command").format(label=repr(label), name=repr(name),
                                                                               command=key), path)
                continue
            if key in folded and folded[key] != name:
                checker.problem(_("words: the label {label} of {name} is also the name {other} of this ruleset: "
                                  "typed, it could mean either").format(label=repr(label), name=repr(name),
                                                                         other=repr(folded[key])), path)
                continue
            given[key] = name
            kept[name] = label
        out[lang] = kept
    return out
