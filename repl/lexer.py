"""Highlighting of command lines as they are typed: the command word, then the dice language.

A lexer for the prompt must cope with half-typed input (`count(5d1`), so it does not parse:
it splits the line with one regular expression and styles each piece, marking only
characters that can never be part of an expression. The modifiers it knows are the engine's
(ruleset_engine.MODIFIERS, and the other tools' notations of ruleset_engine.ALIASES written as
modifiers are), so a new modifier is highlighted as soon as it exists.
"""

from __future__ import annotations

import re

from prompt_toolkit.document import Document
from prompt_toolkit.lexers import Lexer

import ruleset_engine as dusk

# A modifier as typed: its token (the longest first: rr before r), an optional comparison, a number.
_TOKENS = set(dusk.MODIFIERS) | {token for token in dusk.ALIASES if token.isalpha()}
MODIFIER = "(?:{})(?:>=|<=|==|!=|>|<|=)?\\d*".format(
    "|".join(re.escape(token) for token in sorted(_TOKENS, key=len, reverse=True)))

TOKEN = re.compile(r"""
    (?P<space>\s+)
  | (?P<dice>\d*d(?:\d+|%|(?=\())(?:MODIFIER|[<>]\d+)*)     # [<>]\d+: Roll20's target number, 10d10>6
  | (?P<modifier>MODIFIER)
  | (?P<number>\d+)
  | (?P<string>'[^']*'?|"[^"]*"?)
  | (?P<keyword>\b(?:and|or|not|if|else|true|false)\b)
  | (?P<function>[A-Za-z_]\w*(?=\s*\())
  | (?P<name>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*\.?)
  | (?P<operator>>=|<=|==|!=|//|[-+*%<>=])
  | (?P<bracket>[()\[\],])
  | (?P<error>.)
""".replace("MODIFIER", MODIFIER), re.VERBOSE)

STYLES = {
    "dice": "class:dice", "modifier": "class:dice", "number": "class:number", "string": "class:string",
    "keyword": "class:keyword", "function": "class:function", "name": "class:name", "operator": "class:operator",
    "bracket": "class:bracket", "error": "class:error", "space": "", "command": "class:command",
}


def tokens(line: str) -> list[tuple[str, str]]:
    """[(style, text)] for one line: the first word is the command, the rest is highlighted as dice."""
    out: list[tuple[str, str]] = []
    head = re.match(r"\s*\S+", line)
    start = 0
    if head:
        out.append((STYLES["command"], head.group(0)))
        start = head.end()
    for match in TOKEN.finditer(line, start):
        kind = match.lastgroup
        out.append((STYLES[kind], match.group(0)))
    return out


class DiceLexer(Lexer):
    def lex_document(self, document: Document):
        lines = document.lines

        def get_line(number: int):
            return tokens(lines[number]) if number < len(lines) else []

        return get_line
