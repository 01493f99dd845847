"""Files the table writes besides its session (`export`): a new file, or one replaced only when told.

A file that exists is never written over unless the person said so (`--force`), and the session's
own file (and SQLite's files beside it) never is, told or not: an export onto it would put Markdown
where the game is. A new file is created exclusively (an existing file, or a symlink, even one that
points nowhere, is refused); a replaced one is written beside it first and then renamed over it,
so a write that fails (a full disk) leaves the old file whole.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

from ruleset_engine import GameError
from ruleset_engine.i18n import _

SQLITE_SIDES = ("", "-wal", "-shm", "-journal")


def _same(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.abspath(a) == os.path.abspath(b)


def refuse_session(path: Path, session_file: Path | None) -> None:
    """GameError when `path` is the session's file or one of SQLite's files beside it."""
    if session_file is None:
        return
    for side in SQLITE_SIDES:
        if _same(path, Path(f"{session_file}{side}")):
            raise GameError(_("{path} is this game's session file: writing there would lose the game; "
                              "choose another name").format(path=path))


def write_text(path: Path, text, *, force: bool = False, session_file: Path | None = None,
               how: str = "export --force FILE") -> None:
    """Write `text` (a text, or texts one after another, written as they come) to `path`: a new file,
    or (with `force`) in place of the one there. Never the session's file. GameError when the path
    exists and `force` was not given (`how` says how to replace it); OSError when it cannot be written."""
    refuse_session(path, session_file)
    if path.is_dir():
        raise IsADirectoryError(errno.EISDIR, "Is a directory", str(path))
    pieces = [text] if isinstance(text, str) else text
    if not force:
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o644)
        except FileExistsError:
            raise GameError(_("{path} exists already: {how} replaces it, or choose another name").format(
                path=path, how=how)) from None
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.writelines(pieces)
        except BaseException:
            _unlink(path)      # a file half written is nobody's
            raise
        return
    import tempfile     # here: only a replaced file needs it (with shutil, bz2 and lzma it weighs on every start)

    fd, temporary = tempfile.mkstemp(prefix=".dusk-", dir=path.parent or Path("."))
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.writelines(pieces)
        os.replace(temporary, path)
    except BaseException:
        _unlink(Path(temporary))
        raise


def _unlink(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass
