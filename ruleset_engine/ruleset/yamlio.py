"""YAML in, with every node's position kept, and nothing but plain data built.

Only safe tags are constructed (no tags that build objects). Files over 5 MB are
refused before they are read, and alias expansion is counted, so a "billion
laughs" is refused instead of eating the memory. Where YAML misreads a formula
(`>= 6`, `!>=10`, `{x} left`, `yes`, `1:30`), the message says to quote it.

Mappings and sequences come back as LDict / LList: plain dict / list subclasses
that also know where each key and value was written. The reading itself (PyYAML, and the checks
above) is yamlparse.py's; a file read before is not read again: what it gave is remembered between
runs (remembered_reads.py), and PyYAML is not even imported when every file is found there.
"""

from __future__ import annotations

from ruleset_engine.i18n import _

import os

from ..textfile import MAX_BYTES, UnreadableFile, read_text
from .problems import Position, Problem, RulesetError
from .located import MAX_DEPTH, MAX_NODES, LDict, LList, key_position_of, position_of  # noqa: F401 (read from here)


def load_yaml_text(text: str, filename: str):
    """Parse YAML text into LDict/LList/scalars; raise RulesetError listing every problem."""
    if "\x00" in text:
        raise RulesetError([Problem(_("this is not a YAML text file (it holds NUL bytes)"), Position(filename, 1, 1))])
    from . import remembered_reads

    data = remembered_reads.recall(text, filename)
    if data is None:
        from .yamlparse import parse

        data = parse(text, filename)
        remembered_reads.keep(text, data)
    return data


def load_yaml_file(path: str | os.PathLike, display: str | None = None):
    """Read and parse a YAML file: a regular UTF-8 file of at most 5 MB, checked before reading."""
    filename = display or os.fspath(path)
    try:
        text = read_text(path, filename, max_bytes=MAX_BYTES, what="ruleset")
    except UnreadableFile as err:
        raise RulesetError([Problem(err.reason, Position(filename, err.line, err.column))]) from None
    return load_yaml_text(text, filename)
