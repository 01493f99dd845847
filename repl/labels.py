"""Input labels at the table: the words a ruleset gives its names in the table's language (`words:`,
ruleset_engine/ruleset/words.py), read as those names.

A line typed at a Chinese table may say `检定 力量 + 格斗` for `throw strength + brawl`: each
label, as a whole word (not inside a longer one), is read as its name before the line is parsed;
a name typed as it is stays as it is. A choice is answered by its label too. The load has already
refused labels that collide, so a label reads as one name only.
"""

from __future__ import annotations

import re


class Labels:
    def __init__(self, ruleset, lang: str | None):
        words = getattr(ruleset, "words", None) or {}
        lang = lang or "en"
        chosen = words.get(lang) or words.get(lang.split("-")[0]) or {}
        self.label_of: dict[str, str] = dict(chosen)                  # name -> its label
        self.name_of = {label.casefold(): name for name, label in chosen.items()}
        alternatives = "|".join(re.escape(label) for label in sorted(chosen.values(), key=len, reverse=True))
        # A label is read as a whole word: not after a letter, a digit, `_` or `.` (a field's path), nor before one.
        self.pattern = re.compile(rf"(?<![\w.])(?:{alternatives})(?!\w)", re.IGNORECASE) if chosen else None

    def __bool__(self) -> bool:
        return bool(self.label_of)

    def read(self, text: str) -> str:
        """`text` with every label read as its name."""
        if self.pattern is None:
            return text
        return self.pattern.sub(lambda m: self.name_of[m.group(0).casefold()], text)

    def name(self, word: str) -> str:
        """The name a word typed stands for: a label's name, else the word itself."""
        return self.name_of.get(word.strip().casefold(), word)

    def shown(self, name: str) -> str:
        """A name as the table shows it among others: its label, else the name."""
        return self.label_of.get(name, name)

    def shown_in(self, text: str) -> str:
        """`text` (a usage line: `aim none|hand|eye`) with each name in it, as a whole word, by its label."""
        if not self.label_of:
            return text
        names = "|".join(re.escape(name) for name in sorted(self.label_of, key=len, reverse=True))
        return re.sub(rf"(?<![\w.])(?:{names})(?![\w])", lambda m: self.label_of[m.group(0)], text)

    def group(self, name: str) -> str:
        """A group's name as the table says it (`the name of a 人物`): its label, else its name."""
        return self.label_of.get(name, name)

    def said_back(self, message: str, typed: str) -> str:
        """An error about a line typed with labels, quoting each name as the player typed it: `'human'`
        back to `'人类'` when the line said 人类 (a name quoted that the line did not type by a label
        stays as it is)."""
        if self.pattern is None:
            return message
        for found in {m.group(0) for m in self.pattern.finditer(typed)}:
            name = self.name_of[found.casefold()]
            message = message.replace(repr(name), repr(found))
        return message
