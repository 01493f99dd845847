"""Completion at the prompt, driven entirely by the ruleset: commands, actions, their parameters
and values (choices, entity names), table names, help topics, the answers of a waiting
decision, `dice manual` and `dice auto`, and for `roll` and `prob` the functions of the dice language (from
the engine's registry) and the names of the state."""

from __future__ import annotations

import re

from prompt_toolkit.completion import Completer, Completion

import ruleset_engine as dusk

from .typed import positional


class TableCompleter(Completer):
    def __init__(self, repl):
        self.repl = repl

    def get_completions(self, document, complete_event):
        text = document.text_before_cursor
        word = re.search(r"[\w.=-]*$", text).group(0)
        labels = self.repl.labels
        # the words before, their labels read as names; a name's label completes too (`words:`)
        candidates = self.candidates(labels.read(text[: len(text) - len(word)]) + word, word)
        if labels:
            candidates = candidates + [labels.label_of[c] for c in candidates if c in labels.label_of]
        for candidate in candidates:
            if candidate.startswith(word) and candidate != word:
                yield Completion(candidate, start_position=-len(word))

    def candidates(self, text: str, word: str) -> list[str]:
        from .commands import BUILTINS, HELP_TOPICS

        repl = self.repl
        game = repl.session.game
        if repl.confirm is not None:
            return ["yes", "no"]
        if getattr(repl, "filling", None) is not None:
            from .fill import candidates

            return candidates(repl.filling, game)
        decision = repl.decision
        if decision is not None and decision.kind == "instances":
            return list(decision.choices)          # each name, after the commas too
        if decision is not None and " " not in text.strip():
            if decision.kind in ("choice", "instance"):
                return list(decision.choices)
            if decision.kind == "yes_no":
                return ["yes", "no"]
            if decision.kind == "number" and decision.min is not None and decision.max is not None \
                    and decision.max - decision.min <= 20:
                return [str(n) for n in range(decision.min, decision.max + 1)]
            return []
        before = text[: len(text) - len(word)]
        words = before.split()
        if not words:
            actions = [a.name for a in game.actions()]
            return actions + list(BUILTINS)
        command = words[0].lower()
        if command == "help":
            return list(game.ruleset.actions) + list(BUILTINS) + list(HELP_TOPICS)
        if command == "table":
            return list(game.ruleset.tables) + list(game.ruleset.pairs)
        if command == "sheet":
            from .render import instance_names

            return instance_names(game) if len(words) == 1 else []
        if command == "dice":
            return ["manual", "auto"] if len(words) == 1 else []
        if command in ("roll", "prob"):
            return list(dusk.FUNCTIONS) + list(game.ruleset.formulas) + self.state_names()
        action = game.ruleset.actions.get(command)
        if action is None:
            return []
        if any(p.word or p.type == "formula" for p in action.params.values()) and "=" not in word:
            return self.worded(action, words[1:])
        if "=" in word:
            key = word.split("=", 1)[0]
            param = action.params.get(key)
            return [f"{key}={value}" for value in self.param_values(param)] if param else []
        given = {w.split("=", 1)[0] for w in words[1:] if "=" in w}
        # In its place, the next parameter's values (`use Or<Tab>`), as the parser reads them.
        placed = [n for n in action.params if n not in given][len([w for w in words[1:] if "=" not in w]):]
        values = self.param_values(action.params[placed[0]]) if placed else []
        return values + [f"{name}=" for name in action.params if name not in given]

    def worded(self, action, typed: list[str]) -> list[str]:
        """An action whose parameters have words (`against 6`) or read formulas (`grit + aim`):
        after a word, its values; inside a formula, the fields of its sheet, then the words not given."""
        words = {p.word: p for p in action.params.values() if p.word}
        places = [action.params[t.name] for t in positional(action)]     # typed in their place, in order
        current, given, loose = None, set(), 0
        for token in typed:
            if token.lower() in words:
                current = words[token.lower()]
                given.add(token.lower())
            elif current is not None and current.type != "formula":
                current = None              # its one value is typed
            elif current is None:
                loose += 1                  # a value typed in its place
        if current is None and places:
            # The parser gives the leading loose words to a formula in the first place; else each
            # loose word fills the next place: `hit Mara Or<Tab>`, `hit Mara Oren cl<Tab>`.
            if places[0].type == "formula":
                current = places[0] if not typed or loose == len(typed) else None
            elif loose < len(places):
                return self.param_values(places[loose]) + [w for w in words if w not in given]
        if current is not None and current.type != "formula":
            if current.type == "boolean":
                return ["yes", "no"] + [w for w in words if w not in given]
            return self.param_values(current)
        rest = [w for w in words if w not in given]
        if current is not None or any(p.type == "formula" and not p.word for p in action.params.values()):
            formula = current or next(p for p in action.params.values() if p.type == "formula" and not p.word)
            over = action.params[formula.over]
            spec = self.repl.session.game.ruleset.entities.get(over.of)
            fields = [f for f, init in spec.fields.items() if init.formula is not None] if spec else []
            return fields + rest
        return rest

    def param_values(self, param) -> list[str]:
        if param.type == "choice":
            return list(param.choices)
        if param.type == "boolean":
            return ["yes", "no"]
        if param.type == "entity":
            value = self.repl.session.game.values.get(param.of)
            instances = value if isinstance(value, list) else [value] if isinstance(value, dict) else []
            return [str(i.get("name")) for i in instances]
        return []

    def state_names(self) -> list[str]:
        game = self.repl.session.game
        names = list(game.ruleset.state) + [f"params.{p}" for p in game.ruleset.params]
        names += list(game.ruleset.pairs)           # read as NAME('a', 'b').FIELD
        names += [f"loop.{level.name}{done}" for level in game.ruleset.loop for done in ("", ".done")]
        for name, spec in game.ruleset.entities.items():
            if not spec.is_group:
                names += [f"{name}.{f}" for f in list(spec.fields) + list(spec.tracks)]
                # a track that remembers what marked it: the count of each type of mark too
                names += [f"{name}.{t}.{m}" for t, track in spec.tracks.items() if track.rule is not None
                          for m in track.rule.types]
        return names
