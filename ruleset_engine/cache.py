"""The user's cache folder: where what dusk remembers between runs is kept, and kept from growing.

Everything remembered (parses in `parses/`, verdicts in `verdicts/`, YAML reads in `reads/`, the kinds
the program writer settled on in `kinds/`) lives in
DUSK_CACHE_DIR, else the platform's cache folder, one file per thing, named by a SHA-256 of what it
was made from and by which code. A file of an earlier version of dusk (or of a ruleset since edited)
is never found again, so it would stay forever: `prune` removes the files of a folder that have not
been used for MAX_AGE days. A file in use is kept fresh by `used` (its time moved on when it is read,
at most once a day), so only what no run reads any more grows old. The work is bounded: a folder is
pruned at most once a day (a stamp file beside it says when), and at most MAX_SCAN of its entries are looked at.
Nothing here ever raises: a cache that cannot be read, written or pruned is simply not used.
"""

from __future__ import annotations

import hashlib
import os
import stat
import threading
import time

MAX_AGE = 30 * 86400        # seconds a file may go unused before it is removed
PRUNE_EVERY = 86400         # seconds between two prunings of one folder
MAX_SCAN = 2000             # entries of a folder looked at by one pruning
STAMP = ".pruned-"          # beside a folder, `.pruned-NAME`: its time says when NAME was last pruned


def folder(name: str) -> str | None:
    """The cache folder `name` (`parses`, `verdicts`, ...), or None when there is no cache folder."""
    override = os.environ.get("DUSK_CACHE_DIR")
    if override:
        return os.path.join(override, name)
    try:
        from platformdirs import user_cache_dir
    except ImportError:   # pragma: no cover - a declared dependency
        return None
    return os.path.join(user_cache_dir("dusk", appauthor=False), name)


def code_key(label: str, paths) -> str:
    """A SHA-256 naming the code a remembered thing was made by: `label` (what is remembered and in
    which format) and, for each file of `paths`, where it is, its size and the time it was last
    written. Raises OSError when a file is missing.

    The files' stat rather than their text, as Python checks its own compiled bytecode against a
    source: reading and hashing the engine's ~1 MB of sources cost a start 4-9 ms, a stat each a few
    microseconds. A file edited or installed again has a new time; its path is in the key, so two
    installs (another version elsewhere, a store that dates every file alike) never share one."""
    digest = hashlib.sha256(label.encode())
    for path in paths:
        found = os.stat(path)
        digest.update(f"\0{os.path.abspath(path)}\0{found.st_size}\0{found.st_mtime_ns}".encode())
    return digest.hexdigest()


def read_sealed(path: str, limit: int) -> bytes | None:
    """The body of a file `write_sealed` wrote, when its first line is still the SHA-256 of the rest
    and it holds at most `limit` bytes; None otherwise (no file, a damaged or cut one). A body read
    is marked `used`. Raises OSError when the file cannot be read."""
    # Not blocking, not through a link, and only a regular file: a FIFO or a device put under a
    # cache file's name would otherwise hang the start or read without end.
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    with os.fdopen(descriptor, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            return None
        raw = handle.read(limit + 1)
    if len(raw) > limit:
        return None
    head, _, body = raw.partition(b"\n")
    if head != hashlib.sha256(body).hexdigest().encode("ascii"):
        return None
    used(path)
    return body


def write_sealed(path: str, body: bytes) -> None:
    """Keep `body` in `path`, sealed by its SHA-256 on the first line, whole or not at all (written
    aside, then moved in place: a reader never sees half a file); then prune its folder. Nothing
    when it cannot be written."""
    temporary = f"{path}.{os.getpid()}.{threading.get_ident()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(temporary, "wb") as handle:
            handle.write(hashlib.sha256(body).hexdigest().encode("ascii") + b"\n" + body)
        os.replace(temporary, path)
        prune(os.path.dirname(path))
    except OSError:
        try:
            os.remove(temporary)
        except OSError:
            pass


def used(path: str, now: float | None = None) -> None:
    """A cache file just read and found fit: its time moved to now (at most once a day), so that
    `prune` sees it in use."""
    now = time.time() if now is None else now
    try:
        if now - os.stat(path).st_mtime > PRUNE_EVERY:
            os.utime(path, (now, now))
    except OSError:
        pass


def prune(where: str, now: float | None = None, max_age: float = MAX_AGE) -> int:
    """Remove the files of the folder `where` unused for `max_age` seconds (those of other versions of
    dusk, of rulesets since changed), at most once a day and looking at MAX_SCAN entries at most;
    the number removed. Sub-folders and links are left alone."""
    now = time.time() if now is None else now
    where = os.path.normpath(where)
    stamp = os.path.join(os.path.dirname(where), STAMP + os.path.basename(where))
    try:
        if now - os.stat(stamp).st_mtime < PRUNE_EVERY:
            return 0
    except FileNotFoundError:
        pass
    except OSError:
        return 0
    try:
        with open(stamp, "wb"):
            pass
        os.utime(stamp, (now, now))
    except OSError:
        return 0
    removed = 0
    try:
        with os.scandir(where) as entries:
            for scanned, entry in enumerate(entries):
                if scanned >= MAX_SCAN:
                    break
                try:
                    if entry.is_file(follow_symlinks=False) and now - entry.stat(follow_symlinks=False).st_mtime > max_age:
                        os.remove(entry.path)
                        removed += 1
                except OSError:
                    continue
    except OSError:
        pass
    return removed
