"""Reading a text file a person named: a ruleset, a script of commands, a file to show.

Every path that reads such a file comes here, so each gets the same checks before any work:
only a regular file is opened (a folder, a named pipe that would wait forever, a device such as
/dev/zero that never ends, a symbolic link that loops: each refused by what `stat` says, before
opening), the size is bounded before reading and again while reading (a file may grow), and the
bytes must be UTF-8 text without NUL bytes. A refusal names the file and, for a bad byte, its
line and column; it never quotes the file's contents.
"""

from __future__ import annotations

import errno
import os
import re
import stat

from .errors import DuskError

MAX_BYTES = 5 * 1024 * 1024

_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe"), (stat.S_ISCHR, "a device"),
          (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket"))


# The characters a terminal acts on rather than shows: C0 but a new line and a tab, DEL, C1, and the
# marks that reorder a line (bidirectional overrides and isolates: a name shown backwards).
_CONTROL_SEARCH = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]").search
_CONTROL_NAMES = {0x1B: "ESC", 0x07: "BEL", 0x08: "BS", 0x0D: "CR", 0x7F: "DEL", 0x9B: "CSI", 0x9D: "OSC"}


def control_character(text: str) -> str | None:
    """The first character of the text a terminal would act on, named (`U+001B (ESC)`), or None."""
    found = _CONTROL_SEARCH(text)       # one pass at C's speed: a long text read back from the cache
    if found is None:                   # is looked through once per value, thousands per start
        return None
    code = ord(found.group())
    name = _CONTROL_NAMES.get(code)
    return f"U+{code:04X}" + (f" ({name})" if name else "")


class UnreadableFile(DuskError):
    """A file that cannot be read as text: `file:line:col: why`."""

    def __init__(self, filename: str, reason: str, line: int = 1, column: int = 1):
        super().__init__(f"{filename}:{line}:{column}: {reason}")
        self.filename, self.reason, self.line, self.column = filename, reason, line, column


def read_text(path: str | os.PathLike, display: str | None = None, *, max_bytes: int = MAX_BYTES,
              what: str = "file") -> str:
    """The text of a regular UTF-8 file of at most `max_bytes`; UnreadableFile otherwise."""
    filename = display or os.fspath(path)
    try:
        info = os.stat(path)
    except OSError as err:
        raise UnreadableFile(filename, _why(err)) from None
    if not stat.S_ISREG(info.st_mode):
        kind = next((name for test, name in _KINDS if test(info.st_mode)), "not a regular file")
        raise UnreadableFile(filename, f"this is {kind}, not a {what} (only regular files are read)")
    if info.st_size > max_bytes:
        raise UnreadableFile(filename, _too_big(info.st_size, max_bytes, what))
    try:
        # O_NONBLOCK: should the file be swapped for a pipe between stat and open, open does not wait.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as handle:
            raw = handle.read(max_bytes + 1)
    except OSError as err:
        raise UnreadableFile(filename, _why(err)) from None
    if len(raw) > max_bytes:
        raise UnreadableFile(filename, _too_big(len(raw), max_bytes, what))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line, column = _place(raw, err.start)
        raise UnreadableFile(filename, f"this is not UTF-8 text (byte {raw[err.start]:#04x} here); save the "
                                       f"{what} as UTF-8", line, column) from None
    if "\x00" in text:
        line, column = _place(raw, raw.index(b"\x00"))
        raise UnreadableFile(filename, "this is not a text file (it holds NUL bytes)", line, column)
    return text


def _why(err: OSError) -> str:
    if err.errno == errno.ELOOP:
        return "cannot read the file: its symbolic links go round in a circle"
    return f"cannot read the file: {err.strerror or err}"


def _too_big(size: int, limit: int, what: str) -> str:
    return f"the file is {size / 1024 / 1024:.1f} MB; a {what} over {limit / 1024 / 1024:g} MB is refused"


def _place(raw: bytes, offset: int) -> tuple[int, int]:
    """(line, column) of a byte offset, counting characters of the valid text before it."""
    before = raw[:offset]
    line = before.count(b"\n") + 1
    start = before.rfind(b"\n") + 1
    return line, len(before[start:].decode("utf-8", "replace")) + 1
