"""What changed between two JSON values, and the value again from the one before and its change.

Each entry of a session keeps the game as it stands after it; written whole, a game of 10,000
instances adds megabytes per round though a round changes a few values. So an entry keeps what
changed since the entry before it (`diff`), and reading the session puts each game back together
from the one before (`apply`), every change checked as it is applied (a hand-edited or damaged
change is refused with its place, as any other value of the file). Unchanged parts are shared
between consecutive games read back, never changed in place.

A change is a mapping with one of three shapes: {"=": value} (the value whole), {"{": {key: change},
"-": [keys gone]} (a mapping, its keys in the same order), {"[": {"i": change}, "n": length, "+":
[items added]} (a list).
"""

from __future__ import annotations

SAME = object()        # no change


class BadChange(Exception):
    """A change that does not apply to the value before it; the message says where and why."""


def diff(old, new):
    """The change that turns `old` into `new`, or SAME."""
    if isinstance(old, dict) and isinstance(new, dict):
        kept = [k for k in old if k in new]
        if list(new)[:len(kept)] != kept:        # keys moved: the mapping whole keeps their order
            return {"=": new}
        changed = {}
        for key, value in new.items():
            if key in old:
                change = diff(old[key], value)
                if change is not SAME:
                    changed[key] = change
            else:
                changed[key] = {"=": value}
        gone = [k for k in old if k not in new]
        if not changed and not gone:
            return SAME
        patch: dict = {"{": changed}
        if gone:
            patch["-"] = gone
        return patch
    if isinstance(old, list) and isinstance(new, list):
        changed = {}
        for i in range(min(len(old), len(new))):
            change = diff(old[i], new[i])
            if change is not SAME:
                changed[str(i)] = change
        if not changed and len(new) == len(old):
            return SAME
        if len(changed) > len(new) // 2:           # most items changed (a dice source drawn anew): whole
            return {"=": new}
        patch = {"[": changed, "n": len(new)}
        if len(new) > len(old):
            patch["+"] = new[len(old):]
        return patch
    if type(old) is type(new) and old == new:     # true is not 1, and 1 is not 1.0
        return SAME
    return {"=": new}


def apply(old, change, where: str):
    """`old` changed by `change` (a new value: `old` is not changed); BadChange naming `where`."""
    if not isinstance(change, dict):
        raise BadChange(f"{where} is not a change")
    if set(change) == {"="}:
        return change["="]
    if "{" in change and set(change) <= {"{", "-"}:
        if not isinstance(old, dict) or not isinstance(change["{"], dict):
            raise BadChange(f"{where} changes a mapping, but the value before it is not one")
        gone = change.get("-", [])
        if not isinstance(gone, list) or not all(isinstance(k, str) and k in old for k in gone):
            raise BadChange(f"{where} takes away a key that the value before it has not")
        new = {k: v for k, v in old.items() if k not in gone}
        for key, inner in change["{"].items():
            new[key] = apply(old.get(key), inner, f"{where}.{key}") if key in old else _whole(inner, f"{where}.{key}")
        return new
    if "[" in change and set(change) <= {"[", "n", "+"}:
        if not isinstance(old, list) or not isinstance(change["["], dict):
            raise BadChange(f"{where} changes a list, but the value before it is not one")
        n, added = change.get("n"), change.get("+", [])
        if type(n) is not int or not isinstance(added, list) or n != min(n, len(old)) + len(added) \
                or (added and n <= len(old)):
            raise BadChange(f"{where} gives a length that does not agree with its items")
        new = old[:n] + added
        for key, inner in change["["].items():
            if not key.isdigit() or int(key) >= min(n, len(old)):
                raise BadChange(f"{where}[{key[:20]}] is not an item of the list before it")
            new[int(key)] = apply(old[int(key)], inner, f"{where}[{key}]")
        return new
    raise BadChange(f"{where} is not a change")


def _whole(change, where: str):
    if not isinstance(change, dict) or set(change) != {"="}:
        raise BadChange(f"{where} adds a key without its value")
    return change["="]


def change_of(old, new) -> dict:
    """The change that turns `old` into `new`, as kept in a session (never SAME: no change is an empty one)."""
    change = diff(old, new)
    if change is not SAME:
        return change
    if isinstance(new, dict):
        return {"{": {}}
    if isinstance(new, list):
        return {"[": {}, "n": len(new)}
    return {"=": new}
