"""One table per session: a lock on the session file, held while a dusk plays it.

The lock is flock(2) on a descriptor of the session file itself, kept open for the whole
session. The kernel drops it when its process ends, however it ends (kill -9 included), so a
session is never left locked by a table that is gone. flock is separate from the POSIX record
locks SQLite takes on the same file (Linux keeps the two apart), so neither disturbs the other;
the descriptor is closed only after SQLite's own connection is, because closing any descriptor
of a file drops the process's record locks on it.

Who holds a session (process id, host, since when) is written into the session's meta table by
the journal, so that a second opener can be told whose table it is.
"""

from __future__ import annotations

import fcntl
import os
import time
from pathlib import Path

from ruleset_engine.i18n import _


class SessionLock:
    """The lock on one session file, held by this process until release()."""

    def __init__(self, fd: int):
        self.fd = fd

    @classmethod
    def take(cls, path: Path, fd: int | None = None) -> "SessionLock | None":
        """The lock on `path` (on `fd`, a descriptor of it, when one is open already); None when
        another opener holds it. OSError when the file cannot be opened at all."""
        if fd is None:
            # O_NONBLOCK: the file was checked to be a regular file, but it may have been swapped
            # for a named pipe since; opening one must not wait for a writer.
            fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NONBLOCK)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return None
        except OSError:
            os.close(fd)
            raise
        return cls(fd)

    def release(self) -> None:
        if self.fd is not None:
            os.close(self.fd)     # closing the descriptor drops the lock
            self.fd = None


def holder() -> dict:
    """Who holds a lock taken now: this process, this host, this moment."""
    return {"pid": os.getpid(), "host": _host(), "since": time.time()}


def _host() -> str:
    """The machine's name (the kernel's, as socket.gethostname gives it, without importing socket at every start)."""
    if hasattr(os, "uname"):
        return os.uname().nodename
    import socket

    return socket.gethostname()


def describe(info) -> str:
    """A holder as a person reads it: `pid 4711 on table-pc, since 2026-11-01 20:14`."""
    if not isinstance(info, dict):
        return _("another dusk")
    parts = []
    if isinstance(info.get("pid"), int):
        # TRANSLATORS: the process id of the dusk that has a session open
        parts.append(_("pid {pid}").format(pid=info["pid"]))
    if isinstance(info.get("host"), str):
        # TRANSLATORS: {host} is the name of the computer that has a session open
        parts.append(_("on {host}").format(host=info["host"]))
    since = info.get("since")
    when = ""
    if isinstance(since, (int, float)) and not isinstance(since, bool) and 0 <= since < 1e11:
        # TRANSLATORS: {time} is when the session was opened there, as 2026-11-01 20:14
        when = _(", since {time}").format(time=time.strftime("%Y-%m-%d %H:%M", time.localtime(since)))
    if not parts:
        return _("another dusk")
    # TRANSLATORS: {who} is pid 4711 on table-pc; {since} is empty or ", since 2026-11-01 20:14"
    return _("another dusk ({who}{since})").format(who=" ".join(parts), since=when)
