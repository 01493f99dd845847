"""The session file: one SQLite database per session, so nothing shown as done is ever lost.

Each accepted command is one transaction appending one entry: the events it added
(every die), the answers its action was given and the game as it stands after it, together.
WAL and synchronous=FULL make a committed entry survive a kill -9 or a power cut. Undo appends
a compensating entry; nothing is ever deleted. Switching between the game's dice and real dice
(`dice manual`, `dice auto`) is an entry too, so a resumed game asks for dice where it did. A file that is not a dusk session (corrupt, truncated, foreign)
is reported and left as it is: it is opened read-only until it is known to be ours.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
import traceback
from dataclasses import dataclass
from pathlib import Path

from ruleset_engine import DuskError

FORMAT = "dusk-session/1"

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE entries (
    n INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,          -- start, action, roll, undo, dice (a switch: real dice or the game's)
    command TEXT NOT NULL,       -- what was typed
    events TEXT NOT NULL,        -- JSON: the events this entry added to the game's log
    game TEXT NOT NULL,          -- JSON: the game after this entry (values, dice source, turn, end)
    free_rng TEXT NOT NULL,      -- JSON: the source of free `roll` commands after this entry
    at REAL NOT NULL,            -- when (seconds since the epoch)
    command_no INTEGER,          -- the command as typed it belongs to: auto 12 makes twelve entries undone together
    answers TEXT                 -- JSON: the answers its action was given, in order, each {answer, by, kind}:
                                 -- by a person or auto, and the faces of real dice are answers of kind dice
);
"""


class JournalError(DuskError):
    """A session file that cannot be used; the message says why, and the file was not changed."""


@dataclass(slots=True)
class Entry:
    n: int
    kind: str
    command: str
    events: list
    game: dict
    free_rng: list
    command_no: int | None = None     # None in a session saved before commands were numbered
    answers: list | None = None       # None in a session saved before answers were kept


def _connect(path: Path, readonly: bool) -> sqlite3.Connection:
    uri = f"file:{path}?mode={'ro' if readonly else 'rwc'}"
    connection = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=5)
    return connection


class Journal:
    def __init__(self, path: Path, connection: sqlite3.Connection, meta: dict):
        self.path = path
        self.db = connection
        self.meta = meta

    @classmethod
    def create(cls, path: Path, meta: dict) -> "Journal":
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists():
            raise JournalError(f"{path} already exists; choose another --save path or `dusk resume {path}`")
        db = _connect(path, readonly=False)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.executescript(SCHEMA)
        meta = dict(meta, format=FORMAT, created=time.time())
        with db:
            db.execute("BEGIN")
            db.executemany("INSERT INTO meta VALUES (?, ?)", [(k, json.dumps(v)) for k, v in meta.items()])
        return cls(path, db, meta)

    @classmethod
    def open(cls, path: Path) -> "Journal":
        """Open an existing session; JournalError (and the file untouched) if it is not one."""
        if not path.exists():
            raise JournalError(f"no session file at {path}")
        try:
            probe = _connect(path, readonly=True)
            try:
                check = probe.execute("PRAGMA quick_check").fetchone()
                tables = {row[0] for row in probe.execute("SELECT name FROM sqlite_master WHERE type='table'")}
                if check is None or check[0] != "ok":
                    raise JournalError(f"{path} is damaged (SQLite says: {check[0] if check else 'nothing'}); "
                                       "it was left as it is")
                if tables != {"meta", "entries"}:
                    raise JournalError(f"{path} is not a dusk session (it is another SQLite database); "
                                       "it was left as it is")
                meta = {k: json.loads(v) for k, v in probe.execute("SELECT key, value FROM meta")}
                if meta.get("format") != FORMAT:
                    raise JournalError(f"{path} is a session of another format ({meta.get('format')!r}); "
                                       "it was left as it is")
                if probe.execute("SELECT count(*) FROM entries").fetchone()[0] == 0:
                    raise JournalError(f"{path} holds no game yet; it was left as it is")
            finally:
                probe.close()
        except sqlite3.DatabaseError as err:
            raise JournalError(f"{path} is not a dusk session ({err}); it was left as it is") from None
        except (ValueError, TypeError) as err:
            raise JournalError(f"{path} is damaged ({err}); it was left as it is") from None
        db = _connect(path, readonly=False)
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
                raise JournalError(f"{path} cannot be written ({err}); it was left as it is") from None
        return cls(path, db, meta)

    def append(self, kind: str, command: str, events: list, game: dict, free_rng: list,
               command_no: int | None = None, answers: list | None = None) -> None:
        """One entry, in one transaction: its events, its answers and the game after it, together."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute(
                "INSERT INTO entries (kind, command, events, game, free_rng, at, command_no, answers) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (kind, command, json.dumps(events, ensure_ascii=False), json.dumps(game), json.dumps(free_rng),
                 time.time(), command_no, None if answers is None else json.dumps(answers, ensure_ascii=False)))

    def entries(self) -> list[Entry]:
        rows = self.db.execute(
            "SELECT n, kind, command, events, game, free_rng, command_no, answers FROM entries ORDER BY n")
        return [Entry(n, kind, command, json.loads(events), json.loads(game), json.loads(free_rng), command_no,
                      None if answers is None else json.loads(answers))
                for n, kind, command, events, game, free_rng, command_no, answers in rows]

    def close(self) -> None:
        self.db.close()


def data_dir() -> Path:
    """Where sessions, history and bug reports live: DUSK_DATA_DIR, else the user data dir."""
    override = os.environ.get("DUSK_DATA_DIR")
    if override:
        base = Path(override)
    else:
        from platformdirs import user_data_dir

        base = Path(user_data_dir("dusk", appauthor=False))
    base.mkdir(parents=True, exist_ok=True)
    return base


def log_bug(what: str) -> Path:
    """Write the exception being handled, with its traceback, to bugs.log in the data dir; its path.

    A bug is never shown as a traceback: the person sees one line naming this file."""
    path = data_dir() / "bugs.log"
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(f"--- {what} ({time.strftime('%Y-%m-%d %H:%M:%S')})\n{traceback.format_exc()}\n")
    return path


def sessions_dir() -> Path:
    path = data_dir() / "sessions"
    path.mkdir(parents=True, exist_ok=True)
    return path


def remember_last(path: Path) -> None:
    """Point `dusk resume` (without a path) at this session: only interactive sessions move it."""
    (data_dir() / "last-session").write_text(str(path.resolve()), encoding="utf-8")


def _pointer() -> Path | None:
    marker = data_dir() / "last-session"
    if marker.exists():
        path = Path(marker.read_text(encoding="utf-8").strip())
        if path.exists():
            return path
    return None


def last_session() -> Path | None:
    """The session `dusk resume` continues: the last interactive one of this data dir; when its
    pointer is gone, the newest session in sessions/ that was played at the prompt."""
    pointer = _pointer()
    if pointer is not None:
        return pointer
    played = [s for s in list_sessions(with_pointer=False) if s.problem is None and s.interactive is not False]
    return played[0].path if played else None


@dataclass(slots=True)
class Summary:
    """One saved session as `dusk sessions` lists it (read without changing the file)."""

    path: Path
    ruleset: str = ""
    started: float | None = None
    last_played: float = 0.0
    turns: int = 0
    result: str | None = None
    interactive: bool | None = None     # None: a session from before this was recorded
    problem: str | None = None


def summary(path: Path) -> Summary:
    """What a session file holds, read-only: its ruleset, when it started and was last played, how
    many turns the game has had (the setup not counted) and how it ended; `problem` when it cannot be read."""
    found = Summary(path, last_played=path.stat().st_mtime)
    try:
        db = _connect(path, readonly=True)
        try:
            meta = {k: json.loads(v) for k, v in db.execute("SELECT key, value FROM meta")}
            last = db.execute("SELECT game, at FROM entries ORDER BY n DESC LIMIT 1").fetchone()
        finally:
            db.close()
    except (sqlite3.DatabaseError, ValueError, TypeError) as err:
        found.problem = f"not a dusk session ({err})"
        return found
    if meta.get("format") != FORMAT:
        found.problem = f"a session of another format ({meta.get('format')!r})"
        return found
    found.ruleset = str(meta.get("ruleset", ""))
    found.started = meta.get("created")
    found.interactive = meta.get("interactive")
    if last is None:
        found.problem = "no game yet"
        return found
    game, at = json.loads(last[0]), last[1]
    found.last_played = at
    found.turns = max(0, int(game.get("turn", 1)) - 1)
    found.result = game.get("result") if game.get("over") else None
    return found


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
