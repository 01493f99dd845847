"""The values of tracks: a row of boxes marked from the first, and tracks whose boxes remember
what marked them (the types of mark a track takes, and the rule for what a new mark does).

A typed track keeps, besides the numbers every track has (marked, free, size, next, last), the
type of each marked box in box order (`marks`) and a count per type (`track[TYPE]`), so formulas
read `sheet.health.TYPE`. Types are declared weakest first. Two choices of the ruleset make the
rule of a new mark:

- `order`: `strongest` keeps the boxes sorted, strongest first, so a new mark goes before every
  weaker one and moves them along; `marked` keeps them in the order they were made.
- `full`: what a mark does when every box is marked: `lost` (nothing), `upgrade` (the weakest
  mark on the track becomes one type stronger) or `replace` (the weakest mark, when weaker than
  the new one, takes its type).

Nothing here knows a game: the types are names the ruleset gives.
"""

from __future__ import annotations

from dataclasses import dataclass


# Part of the model (a track's rule): frozen and compared by value, as it always was (a rule may be hashed).
@dataclass(frozen=True, slots=True, repr=False)
class MarkRule:
    """The types of mark of one track, weakest first, with their symbols, and its rule."""

    types: tuple[str, ...]
    symbols: tuple[str, ...]
    order: str = "strongest"
    full: str = "lost"

    @classmethod
    def of(cls, track: dict) -> "MarkRule":
        """The rule a track's YAML declares (`marks:`, `order:`, `full:`), its defaults filled in."""
        return cls(tuple(track["marks"]), tuple(track["marks"].values()), track.get("order", "strongest"),
                   track.get("full", "lost"))

    def rank(self, name: str) -> int:
        return self.types.index(name)

    def symbol(self, name: str) -> str:
        return self.symbols[self.types.index(name)]


def set_marked(track: dict, marked: int) -> None:
    """A track with `marked` boxes marked from the first (within 0..size), and what follows from it."""
    labels = track["labels"]
    marked = max(0, min(len(labels), marked))
    track["marked"] = marked
    track["free"] = len(labels) - marked
    track["next"] = labels[marked] if marked < len(labels) else 0
    track["last"] = labels[marked - 1] if marked > 0 else 0


def new_track(labels, marked: int = 0) -> dict:
    track = {"labels": list(labels), "size": len(labels), "marked": 0}
    set_marked(track, marked)
    return track


def start_marks(track: dict, rule: MarkRule) -> None:
    """A typed track as it starts: no box marked, each type counted 0."""
    track["marks"] = []
    for name in rule.types:
        track[name] = 0


def _weakest(marks: list, rule: MarkRule) -> int:
    """The box of the weakest mark (the last one of the lowest rank)."""
    low = min(rule.rank(m) for m in marks)
    return max(i for i, m in enumerate(marks) if rule.rank(m) == low)


def _place(marks: list, name: str, rule: MarkRule) -> None:
    if rule.order == "marked":
        marks.append(name)
        return
    rank = rule.rank(name)
    at = next((i for i, m in enumerate(marks) if rule.rank(m) < rank), len(marks))
    marks.insert(at, name)


def _when_full(marks: list, name: str, rule: MarkRule) -> bool:
    """A mark on a full track, by the rule: whether it changed anything."""
    if rule.full == "lost" or not marks:
        return False
    i = _weakest(marks, rule)
    rank = rule.rank(marks[i])
    if rule.full == "upgrade":
        if rank + 1 >= len(rule.types):
            return False
        marks[i] = rule.types[rank + 1]
    else:   # replace
        if rank >= rule.rank(name):
            return False
        marks[i] = name
    if rule.order == "strongest":   # a stronger mark moves before the weaker ones (a stable sort)
        marks.sort(key=rule.rank, reverse=True)
    return True


def mark_typed(track: dict, n: int, name: str, rule: MarkRule, clear: bool) -> list:
    """Mark n boxes with marks of type `name` (or clear n: the last n boxes of that type, or the last
    n boxes whatever marked them when `name` is None); the track's numbers follow. Returns the
    marks. Bounded whatever n is: once a mark can change nothing, the rest change nothing either."""
    marks = track["marks"]
    size = len(track["labels"])
    for _ in range(max(0, n)):
        if clear:
            at = len(marks) - 1 if name is None else \
                next((i for i in range(len(marks) - 1, -1, -1) if marks[i] == name), -1)
            if at < 0:
                break
            del marks[at]
        elif len(marks) < size:
            _place(marks, name, rule)
        elif not _when_full(marks, name, rule):
            break
    for t in rule.types:
        track[t] = 0
    for m in marks:
        track[m] += 1
    set_marked(track, len(marks))
    return marks


def shown_marks(track: dict, words: dict | None = None) -> str:
    """The counts of a typed track's marks, strongest first by box order: `lethal 2, bashing 1`
    (`words`: each type by its label in the table's language, when the ruleset gives one)."""
    counts: dict = {}
    for m in track.get("marks", ()):
        counts[m] = counts.get(m, 0) + 1
    words = words or {}
    return ", ".join(f"{words.get(m, m)} {c}" for m, c in counts.items())


# ---- the same rules for many games at once (the lockstep backend; numpy passed in, never imported
# here: the process that only checks a ruleset never loads it) ------------------------------------


def mark_typed_many(np, ranks, n, rank: int | None, rule: MarkRule, clear: bool):
    """mark_typed for one track of many games: `ranks` (games x boxes) holds each box's type by its
    rank in rule.types, -1 an unmarked box, the marked boxes first; `n` the marks per game (an array),
    `rank` the type's (None: a clear of any type). Changes `ranks` in place, one mark at a time for
    the games that still have one to make, until no game's mark can change anything (bounded: a mark
    that changes nothing ends that game's marks, as in mark_typed)."""
    games, size = ranks.shape
    columns = np.arange(size)
    left = np.maximum(0, np.asarray(n, np.int64)) * np.ones(games, np.int64)
    while True:
        todo = np.flatnonzero(left > 0)
        if not len(todo):
            return ranks
        box = ranks[todo]
        count = (box >= 0).sum(axis=1)
        changed = np.zeros(len(todo), bool)
        if clear:
            at = count - 1 if rank is None else \
                size - 1 - np.argmax((box == rank)[:, ::-1], axis=1)
            has = count > 0 if rank is None else (box == rank).any(axis=1)
            # Boxes after the cleared one move back by one (the marked boxes stay first).
            shifted = np.where(columns[None, :] >= at[:, None], np.roll(box, -1, axis=1), box)
            shifted[:, -1] = np.where(has, -1, shifted[:, -1])
            box = np.where(has[:, None], shifted, box)
            changed = has
        else:
            room = count < size
            if room.any():
                # strongest: before the first weaker mark (an unmarked box is weaker than any);
                # marked: after the last mark.
                at = np.argmax(box < rank, axis=1) if rule.order == "strongest" else count
                moved = np.where(columns[None, :] > at[:, None], np.roll(box, 1, axis=1), box)
                moved[columns[None, :] == at[:, None]] = rank
                box = np.where(room[:, None], moved, box)
                changed |= room
            full = ~room
            if full.any() and rule.full != "lost":
                low = box.min(axis=1)
                weakest = size - 1 - np.argmax((box == low[:, None])[:, ::-1], axis=1)
                if rule.full == "upgrade":
                    can = full & (low + 1 < len(rule.types))
                    new = low + 1
                else:   # replace
                    can = full & (low < rank)
                    new = np.full(len(todo), rank)
                if can.any():
                    index = np.flatnonzero(can)
                    box[index, weakest[index]] = new[index]
                    if rule.order == "strongest":
                        box[index] = -np.sort(-box[index], axis=1)     # stronger marks first
                changed |= can
        ranks[todo] = box
        left[todo] -= 1
        left[todo[~changed]] = 0
