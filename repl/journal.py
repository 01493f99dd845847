"""The session file: one SQLite database per session, so nothing shown as done is ever lost.

Each accepted command is one transaction appending one entry: the events it added
(every die), the answers its action was given and the game as it stands after it, together.
The game and the dice source are kept as what changed since the entry before (delta.py), so an
entry's size follows what its command changed, not the size of the game; the first entry keeps
them whole. A session of the first format (every game whole) is read as ever, and goes on in this one.
WAL and synchronous=FULL make a committed entry survive a kill -9 or a power cut. Undo appends
a compensating entry; nothing is ever deleted. Switching between the game's dice and real dice
(`dice manual`, `dice auto`) is an entry too, so a resumed game asks for dice where it did.

A path is a path: it is escaped into the SQLite URI (a `#` or `?` in a file name is part of the
name), a new session is a file created anew (never an existing file, nor through a symlink), and
only regular files are opened. A file that is not a dusk session (corrupt, truncated, foreign,
hand-edited into something else) is reported with the place of its first problem and left as it
is: it is read read-only, and every value checked (validate.py), before anything is written.
One table per session: a session is locked while a dusk has it open (lock.py). A write that fails
(a full disk, a read-only file) raises SaveError, and the entry is not in the file.
"""

from __future__ import annotations

import errno
import json
import os
import shlex
import sqlite3
import stat
import time
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

from ruleset_engine import DuskError
from ruleset_engine.i18n import N_, _

from . import delta, validate
from .lock import SessionLock, describe, holder

FORMAT = "dusk-session/2"                      # the game of each entry kept as what changed
FORMATS_READ = ("dusk-session/1", FORMAT)       # /1: every entry's game whole

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE entries (
    n INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,          -- start, action, roll, undo, dice (a switch: real dice or the game's),
                                 -- waiting (the answers of an action under way, saved by dusk serve)
    command TEXT NOT NULL,       -- what was typed
    events TEXT NOT NULL,        -- JSON: the events this entry added to the game's log
    game TEXT NOT NULL,          -- JSON: the game after this entry (values, dice source, turn, end), or
                                 -- {"changed": ...}: what changed since the entry before (delta.py)
    free_rng TEXT NOT NULL,      -- JSON: the source of free `roll` commands after this entry (or its change)
    at REAL NOT NULL,            -- when (seconds since the epoch)
    command_no INTEGER,          -- the command as typed it belongs to: auto 12 makes twelve entries undone together
    answers TEXT                 -- JSON: the answers its action was given, in order, each {answer, by, kind}:
                                 -- by a person or auto, and the faces of real dice are answers of kind dice
);
"""


class JournalError(DuskError):
    """A session file that cannot be used; the message says why, and the file was not changed."""


@dataclass(slots=True, eq=False, repr=False)
class Entry:
    """One entry of a session file: a command and what it did."""

    n: int
    kind: str
    command: str
    events: list
    game: dict
    free_rng: list
    command_no: int | None = None     # None in a session saved before commands were numbered
    answers: list | None = None       # None in a session saved before answers were kept


class SaveError(JournalError):
    """The session file could not be written: what was being saved is not in it, and (the session
    says) not in the game either. `why` is the reason in words (`disk full`)."""

    def __init__(self, why: str, undone: str = ""):
        self.why = why
        self.undone = undone
        text = _("the session file could not be written: {why}").format(why=why)
        if undone:
            text += _("; {undone}. save PATH copies the session to a new file and goes on there").format(undone=undone)
        super().__init__(text)


# SQLite's primary result codes that a person can do something about, in words.
_SQLITE_WHY = {13: N_("disk full"), 8: N_("it is read-only"), 10: N_("a disk error (a full disk, or a file size limit)"),
               14: N_("it cannot be opened"), 5: N_("another program holds it"), 23: N_("permission denied")}
_OS_WHY = {errno.ENOSPC: N_("disk full"), errno.EROFS: N_("the disk is read-only"), errno.EACCES: N_("permission denied"),
           errno.EPERM: N_("permission denied"), errno.EFBIG: N_("the file is too large"),
           errno.EDQUOT: N_("disk quota exceeded")}


def why(err: BaseException) -> str:
    """Why a file could not be written or read, in words (`disk full`), without Python's codes."""
    if isinstance(err, sqlite3.Error):
        code = getattr(err, "sqlite_errorcode", None)
        if code is not None and code & 0xFF in _SQLITE_WHY:
            return _(_SQLITE_WHY[code & 0xFF])
        return str(err) or type(err).__name__
    if isinstance(err, OSError):
        if err.errno in _OS_WHY:
            return _(_OS_WHY[err.errno])
        if err.strerror:
            return err.strerror[0].lower() + err.strerror[1:]
    return str(err) or type(err).__name__


def _uri(path: Path, mode: str) -> str:
    """The SQLite URI of a file: its path escaped, so that no character of a file name (`#`, `?`,
    `%`) is read as part of the URI (`game#1.dusk` is that file, not `game`)."""
    return f"file:{urllib.parse.quote(os.path.abspath(path), safe='/')}?mode={mode}"


def _connect(path: Path, mode: str) -> sqlite3.Connection:
    """A connection to the file at `path`: mode "ro" (read only) or "rw" (the file must exist).
    Read only where nothing can be written beside the file (a read-only file system, a CD): SQLite is
    told the file will not change (`immutable`), as it cannot make the files it reads a session with."""
    uri = _uri(path, mode)
    if mode == "ro" and unwritable(path) is not None:
        uri += "&immutable=1"
    # Any thread may use it, one at a time: the served table (web/) runs each command in a worker
    # thread of the server, under the table's lock; the REPL uses it from its one thread.
    return sqlite3.connect(uri, uri=True, isolation_level=None, timeout=5, check_same_thread=False)


def unwritable(path: Path) -> str | None:
    """Why the session at `path` cannot be played where it is (every command is written into it, and
    SQLite writes files beside it), in words; None when it can be."""
    folder = Path(os.path.abspath(path)).parent
    try:
        if os.statvfs(folder).f_flag & os.ST_RDONLY:
            return _("it is on a read-only file system")
    except OSError:
        pass
    if not os.access(path, os.W_OK):
        return _("the file is read-only (no permission to write it)")
    if not os.access(folder, os.W_OK | os.X_OK):
        return _("its folder {folder} cannot be written in").format(folder=folder)
    return None


def _remove(path: Path) -> None:
    """A session file this process created and could not finish, with SQLite's files beside it."""
    for name in (path, Path(f"{path}-wal"), Path(f"{path}-shm"), Path(f"{path}-journal")):
        try:
            name.unlink()
        except OSError:
            pass


def regular_file(path: Path) -> None:
    """JournalError unless `path` names a regular file (a folder, a named pipe or a device is refused
    before it is opened: a pipe would wait forever for a writer)."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise JournalError(_("no session file at {path}").format(path=path)) from None
    except OSError as err:
        raise JournalError(_("{path} cannot be read: {why}").format(path=path, why=why(err))) from None
    if stat.S_ISDIR(info.st_mode):
        raise JournalError(_("{path} is a folder, not a session file").format(path=path))
    if not stat.S_ISREG(info.st_mode):
        raise JournalError(_("{path} is not a session file (not a regular file: a named pipe, a device or a "
                             "socket)").format(path=path))


def _new_file(path: Path) -> SessionLock:
    """A new, empty file at `path`, locked: created by this call (O_EXCL), so an existing file, or a
    symlink to one, is never written into. JournalError when it cannot be."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as err:       # a file where a folder must be, a folder that cannot be made
        where = f"{err.filename}: " if err.filename and str(err.filename) != str(path.parent) else ""
        reason = _("a file, not a folder") if isinstance(err, FileExistsError) else why(err)
        # TRANSLATORS: {folder} is the folder the session file goes in; {why} says why it cannot be made
        raise JournalError(_("the session file {path} cannot be created: its folder {folder} cannot be made "
                             "({why})").format(path=path, folder=path.parent, why=f"{where}{reason}")) from None
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o644)
    except FileExistsError:
        raise JournalError(_("{path} already exists; choose another path, or `dusk resume {path}` "
                             "if it is a session").format(path=path)) from None
    except OSError as err:
        raise JournalError(_("the session file {path} cannot be created: {why}").format(path=path, why=why(err))) from None
    lock = SessionLock.take(path, fd)
    if lock is None:      # someone opened the file in the instant after it was made
        raise JournalError(_("{path} was opened by another program as it was created; choose another path").format(
            path=path))
    return lock


def _made(path: Path, lock: SessionLock, fill) -> sqlite3.Connection:
    """The new file at `path` (made and locked by _new_file), put in WAL mode with synchronous=FULL,
    then filled by `fill(connection)` (the schema, or a copy of a session). Whatever stops it (an
    error, Ctrl-C) leaves no file behind, since a file half made is no session; the error goes on as
    it came."""
    db = None
    try:
        db = _connect(path, "rw")
        # WAL before anything is written: the schema and the meta are then one commit written to
        # disk (in SQLite's first journal mode a start waited on many syncs of the disk); a copy made
        # by backup keeps WAL (the pages of a session say it) and this connection's synchronous.
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        fill(db)
        return db
    except BaseException:
        if db is not None:
            db.close()
        lock.release()
        _remove(path)
        raise


def _holder_of(path: Path) -> str:
    """Who has a locked session open, as far as its meta table says."""
    try:
        db = _connect(path, "ro")
        try:
            row = db.execute("SELECT value FROM meta WHERE key = 'holder'").fetchone()
        finally:
            db.close()
        return describe(json.loads(row[0]) if row else None)
    except (sqlite3.Error, ValueError, TypeError, RecursionError):
        return describe(None)


def _probe(path: Path) -> tuple[dict, list]:
    """The meta and the entries of a session, read read-only and every value checked; JournalError
    naming the first problem (and the file untouched) if it is not a dusk session as dusk writes one."""
    try:
        probe = _connect(path, "ro")
        try:
            check = probe.execute("PRAGMA quick_check").fetchone()
            tables = {row[0] for row in probe.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if check is None or check[0] != "ok":
                if check is None:
                    raise JournalError(_("{path} is damaged (SQLite says: nothing); it was left as it is").format(
                        path=path))
                # TRANSLATORS: {said} is SQLite's own report of the damage, in English
                raise JournalError(_("{path} is damaged (SQLite says: {said}); it was left as it is").format(
                    path=path, said=check[0]))
            if tables != {"meta", "entries"}:
                raise JournalError(_("{path} is not a dusk session (it is another SQLite database); "
                                     "it was left as it is").format(path=path))
            meta = {}
            for key, value in probe.execute("SELECT key, value FROM meta"):
                meta[key] = validate.parsed(value, f"meta.{key}")
            if meta.get("format") not in FORMATS_READ:
                # TRANSLATORS: {format} is the name of the format the file says it has
                raise JournalError(_("{path} is a session of another format ({format}); "
                                     "it was left as it is").format(path=path, format=repr(meta.get("format"))))
            validate.meta(meta)
            columns = {row[1] for row in probe.execute("PRAGMA table_info(entries)")}
            wanted = ["n", "kind", "command", "events", "game", "free_rng", "command_no", "answers"]
            # A session saved before commands were numbered, or before answers were kept, lacks their column.
            chosen = [c if c in columns else "NULL" for c in wanted]
            missing = [c for c in wanted[:6] if c not in columns]
            if missing:
                raise validate.Damaged(f"the entries have no column {missing[0]}")
            # Row by row (not all the rows first): each entry's game is put back together from the one before.
            entries, before = [], None
            for row in probe.execute(f"SELECT {', '.join(chosen)} FROM entries ORDER BY n"):
                entry = Entry(*validate.entry(row, before))
                entries.append(entry)
                before = (entry.game, entry.free_rng)
        finally:
            probe.close()
        validate.history(entries)
    except JournalError:
        raise
    except validate.Damaged as err:
        # TRANSLATORS: {problem} is the first thing found wrong in the file (which value, and how)
        raise JournalError(_("{path} is damaged: {problem}; it was left as it is").format(
            path=path, problem=err)) from None
    except sqlite3.DatabaseError as err:
        # TRANSLATORS: {problem} is SQLite's own message, in English
        raise JournalError(_("{path} is not a dusk session ({problem}); it was left as it is").format(
            path=path, problem=err)) from None
    except (ValueError, TypeError, RecursionError, OverflowError) as err:
        # TRANSLATORS: {problem} is Python's own message, in English
        raise JournalError(_("{path} is damaged ({problem}); it was left as it is").format(
            path=path, problem=err)) from None
    return meta, entries


def read_session(path: Path) -> tuple[dict, list]:
    """The meta and the entries of a session file, read-only, without taking it (a table may be
    playing it): for tools and tests that read what was saved. JournalError as Journal.open."""
    regular_file(path)
    return _probe(path)


class Journal:
    def __init__(self, path: Path, connection: sqlite3.Connection, meta: dict, lock: SessionLock | None = None,
                 entries: list | None = None):
        self.path = path
        self.db = connection
        self.meta = meta
        self.lock = lock
        self._entries = entries      # as read and checked when the session was opened
        # The game and dice source of the last entry: the next one keeps what changed since.
        self._last = (entries[-1].game, entries[-1].free_rng) if entries else None

    @classmethod
    def create(cls, path: Path, meta: dict) -> "Journal":
        """A new session file at `path`, locked; JournalError if the path exists or cannot be written."""
        lock = _new_file(path)
        meta = dict(meta, format=FORMAT, created=time.time(), holder=holder())

        def fill(db: sqlite3.Connection) -> None:
            # The tables and the meta in one transaction (WAL is on already: _made): one commit
            # written to disk, and a file that has its tables has its meta too.
            with db:
                db.executescript("BEGIN;" + SCHEMA)     # the transaction stays open after the script
                db.executemany("INSERT INTO meta VALUES (?, ?)", [(k, json.dumps(v)) for k, v in meta.items()])

        try:
            db = _made(path, lock, fill)
        except (sqlite3.Error, OSError) as err:
            raise JournalError(_("the session file {path} cannot be written: {why}").format(
                path=path, why=why(err))) from None
        return cls(path, db, meta, lock, [])

    @classmethod
    def open(cls, path: Path, accept=None) -> "Journal":
        """Open an existing session and lock it; JournalError (and the file untouched) if it is not one,
        or if another dusk has it open. `accept(meta, entries)`, when given, is asked before anything
        is written: what it raises refuses the session, the file as it was."""
        regular_file(path)
        try:
            lock = SessionLock.take(path)
        except OSError as err:
            raise JournalError(_("{path} cannot be read: {why}").format(path=path, why=why(err))) from None
        if lock is None:
            # TRANSLATORS: {holder} is who has the session open: another dusk (pid 4711 on table-pc, since ...)
            raise JournalError(_("{path} is open at {holder}: a session is played at one table at a time; "
                                 "leave that table first (quit or Ctrl-D there)").format(
                path=path, holder=_holder_of(path)))
        try:
            meta, entries = _probe(path)
            stuck = unwritable(path)
            if stuck is not None:
                # TRANSLATORS: {why} says why the file cannot be written; {source} and {name} are the
                # file's path and name in a shell command, kept as they are
                raise JournalError(_(
                    "{path} is a dusk session, but it cannot be played where it is: {why}, and every command "
                    "is saved into it as it is done. Copy it somewhere you can write (cp {source} ~/{name}) "
                    "and resume the copy; it was left as it is").format(
                    path=path, why=stuck, source=shlex.quote(str(path)), name=shlex.quote(path.name)))
            if accept is not None:
                accept(meta, entries)
            db = _connect(path, "rw")
            db.execute("PRAGMA synchronous=FULL")
            columns = {row[1] for row in db.execute("PRAGMA table_info(entries)")}
            # A session saved before commands were numbered, or before answers were kept: the column is
            # added, empty for the entries already there.
            for column in ("command_no INTEGER", "answers TEXT"):
                if column.split()[0] in columns:
                    continue
                try:
                    db.execute(f"ALTER TABLE entries ADD COLUMN {column}")
                except sqlite3.DatabaseError as err:
                    db.close()
                    raise JournalError(_("{path} cannot be written ({why}); it was left as it is").format(
                        path=path, why=why(err))) from None
        except BaseException:
            lock.release()
            raise
        journal = cls(path, db, meta, lock, entries)
        journal.set_meta("holder", holder(), required=False)
        if meta.get("format") != FORMAT:     # a session of the first format goes on in this one
            journal.set_meta("format", FORMAT, required=False)
        return journal

    def set_meta(self, key: str, value, required: bool = True) -> None:
        """Write one meta value; SaveError when it cannot be (unless not `required`: then it is skipped,
        as the holder of a read-only file is: the lock, not this note, keeps a second table out)."""
        try:
            with self.db:
                self.db.execute("BEGIN IMMEDIATE")
                self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, json.dumps(value)))
        except (sqlite3.Error, OSError) as err:
            if required:
                raise SaveError(why(err)) from None
            return
        self.meta[key] = value

    def append(self, kind: str, command: str, events: list, game: dict, free_rng: list,
               command_no: int | None = None, answers: list | None = None) -> None:
        """One entry, in one transaction: its events, its answers and the game after it, together.
        SaveError (and nothing of it in the file) when it cannot be written."""
        kept_game, kept_rng = game, free_rng
        if self._last is not None:
            kept_game = {"changed": delta.change_of(self._last[0], game)}
            kept_rng = {"changed": delta.change_of(self._last[1], free_rng)}
        row = (kind, command, json.dumps(events, ensure_ascii=False), json.dumps(kept_game, ensure_ascii=False),
               json.dumps(kept_rng), time.time(), command_no,
               None if answers is None else json.dumps(answers, ensure_ascii=False))
        try:
            self._write(row)
        except (sqlite3.Error, OSError) as err:
            raise SaveError(why(err)) from None
        self._entries = None
        self._last = (game, free_rng)     # the caller's fresh copies (Game.core()), never changed after

    def _write(self, row: tuple) -> None:
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute(
                "INSERT INTO entries (kind, command, events, game, free_rng, at, command_no, answers) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", row)

    def entries(self) -> list[Entry]:
        """Every entry, the first first (each checked, as when the session was opened)."""
        if self._entries is not None:
            return list(self._entries)
        return _probe(self.path)[1]

    def move_to(self, path: Path) -> None:
        """Copy the session to a new file at `path` and go on in that one (the old file stays as it is).
        JournalError when the new file cannot be made or written: the session goes on where it was."""
        lock = _new_file(path)
        try:
            target = _made(path, lock, self.db.backup)
        except (sqlite3.Error, OSError) as err:
            # TRANSLATORS: {path} is the new file asked for; {current} the session file the game stays in
            raise JournalError(_("{path} could not be written: {why}; the game goes on in {current}").format(
                path=path, why=why(err), current=self.path)) from None
        self.close()
        self.path, self.db, self.lock = path, target, lock
        self.set_meta("holder", holder(), required=False)

    def close(self) -> None:
        self.db.close()
        if self.lock is not None:      # after SQLite's connection: see lock.py
            self.lock.release()

    def discard(self) -> None:
        """Close a session this process created and remove its file (it holds no game)."""
        self.close()
        _remove(self.path)


class DataDirError(JournalError):
    """The data folder (sessions, history, bug reports) cannot be made or used; the message says why."""


def data_dir() -> Path:
    """Where sessions, history and bug reports live: DUSK_DATA_DIR, else the user data dir.
    DataDirError (a message for people) when it cannot be made: a file of that name, a full disk."""
    override = os.environ.get("DUSK_DATA_DIR")
    if override:
        base, named = Path(override), " (DUSK_DATA_DIR)"
    else:
        from platformdirs import user_data_dir

        base, named = Path(user_data_dir("dusk", appauthor=False)), ""
    try:
        base.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        # TRANSLATORS: {named} is empty, or " (DUSK_DATA_DIR)" when that variable chose the folder
        raise DataDirError(_("the data folder {folder}{named} cannot be used: it is a file, not a folder; "
                             "set DUSK_DATA_DIR to a folder").format(folder=base, named=named)) from None
    except OSError as err:
        # TRANSLATORS: {named} is empty, or " (DUSK_DATA_DIR)" when that variable chose the folder
        raise DataDirError(_("the data folder {folder}{named} cannot be made: {why}").format(
            folder=base, named=named, why=why(err))) from None
    if not base.is_dir():
        # TRANSLATORS: {named} is empty, or " (DUSK_DATA_DIR)" when that variable chose the folder
        raise DataDirError(_("the data folder {folder}{named} cannot be used: it is not a folder; "
                             "set DUSK_DATA_DIR to a folder").format(folder=base, named=named))
    return base


def log_bug(what: str) -> str:
    """Write the exception being handled, with its traceback, to bugs.log in the data dir; where its
    details are, in words (`the details are in PATH`) for the one line a person sees.

    A bug is never shown as a traceback, and the report of one never fails: when the log cannot be
    written (a full disk, a data folder that is a file) the line says so, and nothing more is raised."""
    try:
        path = data_dir() / "bugs.log"
        with open(path, "a", encoding="utf-8") as handle:
            shown = what if len(what) <= 2_000 else f"{what[:2_000]}... ({len(what):,} characters)"
            import traceback      # only when a bug is logged

            handle.write(f"--- {shown} ({time.strftime('%Y-%m-%d %H:%M:%S')})\n{traceback.format_exc()}\n")
    except DataDirError as err:
        return _("its details could not be written down ({why})").format(why=err)
    except (OSError, ValueError) as err:
        return _("its details could not be written down ({why})").format(why=f"{path}: {why(err)}")
    return _("the details are in {path}").format(path=path)


def sessions_dir() -> Path:
    path = data_dir() / "sessions"
    try:
        path.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise DataDirError(_("the folder of sessions {path} cannot be used: it is a file, not a folder").format(
            path=path)) from None
    except OSError as err:
        raise DataDirError(_("the folder of sessions {path} cannot be made: {why}").format(
            path=path, why=why(err))) from None
    return path


def remember_last(path: Path) -> None:
    """Point `dusk resume` (without a path) at this session: only interactive sessions move it. A
    pointer that cannot be written (a full disk) is skipped: `dusk resume PATH` still continues it."""
    try:
        (data_dir() / "last-session").write_text(str(path.resolve()), encoding="utf-8")
    except (OSError, DataDirError):
        pass


def _pointer() -> Path | None:
    try:
        marker = data_dir() / "last-session"
        if marker.is_file():
            path = Path(marker.read_text(encoding="utf-8").strip())
            if path.exists():
                return path
    except (OSError, ValueError):      # unreadable, not UTF-8, a NUL in the path
        pass
    return None


def last_session() -> Path | None:
    """The session `dusk resume` continues: the last interactive one of this data dir; when its
    pointer is gone, the newest session in sessions/ that was played at the prompt."""
    pointer = _pointer()
    if pointer is not None:
        return pointer
    played = [s for s in list_sessions(with_pointer=False) if s.problem is None and s.interactive is not False]
    return played[0].path if played else None


@dataclass(eq=False, repr=False)
class Summary:
    """One saved session as `dusk sessions` lists it (read without changing the file)."""

    path: Path
    ruleset: str = ""
    started: float | None = None
    last_played: float = 0.0
    turns: int = 0
    result: str | None = None
    interactive: bool | None = None     # None: a session from before this was recorded
    setup: bool = False                 # left during its game's setup (its answers so far are saved)
    problem: str | None = None


def summary(path: Path) -> Summary:
    """What a session file holds, read-only: its ruleset, when it started and was last played, how
    many turns the game has had (the setup not counted) and how it ended; `problem` when it cannot be read."""
    found = Summary(path)
    try:
        found.last_played = path.stat().st_mtime
        regular_file(path)
    except (OSError, JournalError) as err:
        found.problem = str(err) if isinstance(err, JournalError) else why(err)
        return found
    try:
        db = _connect(path, "ro")
        try:
            meta = {k: validate.parsed(v, f"meta.{k}") for k, v in db.execute("SELECT key, value FROM meta")}
            if meta.get("format") not in FORMATS_READ:
                found.problem = f"a session of another format ({meta.get('format')!r})"
                return found
            last = None
            for text, at, kind in db.execute("SELECT game, at, kind FROM entries ORDER BY n"):   # each from the one before
                game = validate.changed(validate.parsed(text, "an entry's game"), last and last[0], "an entry's game")
                last = (game, at, kind)
        finally:
            db.close()
        found.ruleset = str(meta.get("ruleset", ""))
        # What a hand-edited file holds is read only where it has the kind it must have.
        created = meta.get("created")
        found.started = created if _moment(created) else None
        found.interactive = meta.get("interactive") if isinstance(meta.get("interactive"), bool) else None
        if last is None:
            found.problem = "no game yet"
            return found
        game, at, _ = last
        validate.game_core(game, "the last entry's game")
    except (sqlite3.DatabaseError, validate.Damaged, ValueError, TypeError) as err:
        found.problem = f"not a dusk session ({err})"
        return found
    if _moment(at):
        found.last_played = at
    found.turns = max(0, game["turn"] - 1)
    found.setup = last[2] == "setup"
    found.result = game["result"] if game["over"] else None
    return found


def _moment(value) -> bool:
    """True for a time that time.localtime can show (a number of seconds since the epoch, before 5138)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value < 1e11


def list_sessions(with_pointer: bool = True) -> list[Summary]:
    """Every session in the data dir's sessions/ (and the one `dusk resume` points at, wherever it
    is), the last played first."""
    paths = {p.resolve() for p in sessions_dir().glob("*.dusk")}
    pointer = _pointer() if with_pointer else None
    if pointer is not None:
        paths.add(pointer.resolve())
    found = [summary(p) for p in paths]
    return sorted(found, key=lambda s: (s.last_played, str(s.path)), reverse=True)


def new_session_path(ruleset_id: str) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    base = sessions_dir() / f"{stamp}-{ruleset_id}"
    path, k = base.with_suffix(".dusk"), 1
    while path.exists():
        k += 1
        path = sessions_dir() / f"{stamp}-{ruleset_id}-{k}.dusk"
    return path
