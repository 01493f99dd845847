"""Verdicts remembered between runs: a ruleset's data once found valid need not be checked again.

A verdict is kept as an empty file named by the SHA-256 of what was checked (the schema and the
data, and FORMAT), in the user's cache folder (DUSK_CACHE_DIR, else the platform's),
so a changed file, a changed schema or another version is checked anew. Only "valid" is ever
remembered; a folder that cannot be written is simply not used. Verdicts unused for a month (those of
other versions, of files since changed) are removed (ruleset_engine/cache.py).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from .. import cache

FORMAT = "1"    # change it when what a verdict means changes


def _folder() -> Path | None:
    found = cache.folder("verdicts")
    return None if found is None else Path(found).parent


def fingerprint(kind: str, *parts) -> str:
    digest = hashlib.sha256(f"{kind}/{FORMAT}".encode())
    for part in parts:
        text = part if isinstance(part, str) else json.dumps(_keyed(part), sort_keys=True, ensure_ascii=False,
                                                              default=repr)
        digest.update(b"\0" + text.encode("utf-8"))
    return digest.hexdigest()


def _keyed(value):
    """Data whose mapping keys can be sorted: YAML allows keys that are not texts (`~: 1`, `1: a`)
    beside ones that are, so every key is written with its kind ("str:a", "NoneType:None")."""
    if isinstance(value, dict):
        return {f"{type(k).__name__}:{k}": _keyed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_keyed(v) for v in value]
    return value


def known(key: str) -> bool:
    folder = _folder()
    if folder is None or not (folder / "verdicts" / key).exists():
        return False
    cache.used(str(folder / "verdicts" / key))
    return True


def remember(key: str) -> None:
    folder = _folder()
    if folder is None:
        return
    try:
        (folder / "verdicts").mkdir(parents=True, exist_ok=True)
        (folder / "verdicts" / key).touch()
        cache.prune(str(folder / "verdicts"))
    except OSError:
        pass
