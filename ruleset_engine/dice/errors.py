"""The errors of the dice language, named after the user's mistake.

Every error carries the expression text and the span of the problem, so a front
end can show the expression with a caret under it. Messages are plain words
("expected a number after 'd'"), never grammar token names.
"""

from __future__ import annotations

from ruleset_engine.errors import DuskError

_WINDOW = 72  # characters of a long expression shown around the caret


class DiceError(DuskError):
    """Anything wrong with a dice expression, its evaluation or its dice source."""

    def __init__(self, message: str, text: str | None = None, span: tuple[int, int] | None = None):
        super().__init__(message)
        self.message = message
        self.text = text
        self.span = span

    def located(self, text: str, span: tuple[int, int] | None) -> "DiceError":
        """Fill in where the error happened, unless a deeper caller already did."""
        if self.text is None:
            self.text = text
        if self.span is None:
            self.span = span
        return self

    @property
    def column(self) -> int | None:
        """0-based offset of the problem in the expression text."""
        return None if self.span is None else self.span[0]

    def caret_lines(self, indent: str = "  ") -> list[str]:
        """The expression and a caret line under the problem (one line each, tabs kept aligned)."""
        if self.text is None:
            return []
        text = self.text
        start, end = self.span if self.span is not None else (len(text), len(text))
        # Only the line holding the problem is shown, so a multi-line formula stays readable.
        line_start = text.rfind("\n", 0, start) + 1
        line_end = text.find("\n", start)
        if line_end == -1:
            line_end = len(text)
        line = text[line_start:line_end]
        col = start - line_start
        width = max(1, min(end, line_end) - start)
        # A long line is cut to a window around the problem, so the message fits one screen.
        if len(line) > _WINDOW:
            left = max(0, col - _WINDOW // 2)
            right = min(len(line), left + _WINDOW)
            head = "..." if left > 0 else ""
            line = head + line[left:right] + ("..." if right < len(line) else "")
            col = col - left + len(head)
            width = min(width, right - (start - line_start))
        pad = "".join("\t" if c == "\t" else " " for c in line[:col])
        return [indent + line, indent + pad + "^" + "~" * (max(1, width) - 1)]

    def __str__(self) -> str:
        return "\n".join([self.message, *self.caret_lines()])


class DiceSyntaxError(DiceError):
    """The text is not a dice expression."""


class DiceLimitError(DiceError):
    """A limit would be passed: too many dice, too long, too deep, or a roll that never ends."""


class UnknownName(DiceError):
    """A name, or a function, that the expression's environment does not have."""


class DiceTypeError(DiceError):
    """A value used where another kind is needed (a pool compared with a number, a string in a sum)."""


class DiceValueError(DiceError):
    """A value out of its range: d0, a negative number of dice, division by zero, an empty pool."""


class DiceSourceExhausted(DiceError):
    """A scripted dice source ran out, or was asked for a die it cannot give."""
