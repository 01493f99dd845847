"""A ruleset's lookup tables: their rows built from YAML, and their coverage checked at load.

Coverage works the same for one key column or several: each column's key cells (numbers,
ranges, words) cut that column into pieces, the pieces of every column make a grid, and each
square of the grid is matched against the rows in order. That finds rows that overlap (unless
`first_match: true`), squares of the grid that no row covers (unless `gaps: true` or the table
has a `default:`; a column's pieces reach only as far as its rows do), and rows that can never
match because the rows before them cover everything they match.
"""

from __future__ import annotations

from ruleset_engine.i18n import _

import re
from itertools import product

from . import model
from .templates import LocalText, is_language_map
from .yamlio import position_of

# A range key, `3..5`: compiled when a table first has one (re keeps it), not at every start.
RANGE = r"^\s*(-?\d+)?\s*\.\.\s*(-?\d+)?\s*$"
MAX_SQUARES = 20_000     # a grid larger than this is not checked (no real table comes near it)
MAX_GAPS_SHOWN = 3
INF = float("inf")


def build_table(c, name: str, spec) -> model.LookupTable:
    """The table `name` from its YAML; problems (a missing key cell, an empty range, coverage) go to c."""
    path = ("tables", name)
    keys = (spec["key"],) if isinstance(spec["key"], str) else tuple(spec["key"])
    rows = []
    for i, row in enumerate(spec["rows"]):
        row_path = path + ("rows", i)
        missing = [k for k in keys if k not in row]
        if missing:
            c.problem(_("this row has no key column {missing!r}").format(missing=missing[0]), row_path)
            continue
        matchers = tuple(_matcher(c, row[k], row_path + (k,)) for k in keys)
        rows.append(model.Row(matchers, _cells(row), position_of(c.data, row_path)))
    default = _cells(spec["default"]) if spec.get("default") is not None else None
    if rows and len(rows) == len(spec["rows"]):
        gaps_ok = spec.get("gaps", False) or default is not None
        for message, at, named in coverage(name, keys, rows, gaps_ok, spec.get("first_match", False)):
            row = path + (("rows", at) if at is not None else ())
            # A message that names its rows counts them from 1, as a designer does; the path shown
            # stops at rows: (its [i] counts from 0), the line and column are still the row's.
            c.problem(message, path + ("rows",) if named else row, place=row)
    return model.LookupTable(name, keys, rows, default, dict(spec.get("columns") or {}), spec.get("title"),
                             spec.get("doc"))


def _cells(row) -> dict:
    return {k: (LocalText(v) if is_language_map(v) else v) for k, v in row.items()}


def _matcher(c, value, path) -> model.Matcher:
    if isinstance(value, str):
        found = re.match(RANGE, value)
        if found:
            low = int(found.group(1)) if found.group(1) is not None else None
            high = int(found.group(2)) if found.group(2) is not None else None
            if low is not None and high is not None and low > high:
                c.problem(_("the range {value!r} is empty ({low} is above {high})").format(
                              value=value, low=low, high=high), path)
            return model.Matcher(low=low, high=high, is_range=True)
    if isinstance(value, (list, dict)):
        c.problem(_("a key cell is a number, a range such as '3..5', or a word"), path)
    return model.Matcher(exact=value)


# ---- coverage ------------------------------------------------------------------------------

def _span(m: model.Matcher):
    """A key cell as a closed numeric interval (low, high), or None for a word."""
    if m.is_range:
        return (-INF if m.low is None else m.low, INF if m.high is None else m.high)
    if type(m.exact) is int:
        return (m.exact, m.exact)
    return None


def _pieces(matchers) -> list:
    """The pieces one key column is cut into: ("n", low, high) intervals and ("w", word) words."""
    words = {}          # in order, each once (a dict: a table of many words is not quadratic)
    spans = []
    for m in matchers:
        span = _span(m)
        if span is None:
            words.setdefault(_word_key(m.exact), m.exact)
        else:
            spans.append(span)
    pieces = [("w", w) for w in words.values()]
    if not spans:
        return pieces
    cuts = sorted({lo for lo, _ in spans} | {hi + 1 for _, hi in spans})
    for lo, nxt in zip(cuts, cuts[1:]):
        pieces.append(("n", lo, nxt - 1))
    if any(lo == -INF for lo, _ in spans) and cuts[0] != -INF:
        pieces.insert(len(words), ("n", -INF, cuts[0] - 1))
    return pieces


def _word_key(word):
    """A word cell as a dict key: True and 1 are two words here, as == would not tell them apart."""
    return (type(word).__name__, word) if isinstance(word, (str, int, bool)) else ("other", repr(word))


def _masks(matchers, pieces) -> list[int]:
    """For each piece of one key column, the rows whose key cell holds it, as a bit mask (bit i: row
    i). Each row's cell is placed once (a word: its piece; a range: the run of pieces it spans,
    marked at its ends and swept once), so the work is rows + pieces, not rows x pieces."""
    from bisect import bisect_left, bisect_right

    word_at = {_word_key(p[1]): k for k, p in enumerate(pieces) if p[0] == "w"}
    numbers = [k for k, p in enumerate(pieces) if p[0] == "n"]
    lows = [pieces[k][1] for k in numbers]
    highs = [pieces[k][2] for k in numbers]
    masks = [0] * len(pieces)
    starts = [0] * (len(numbers) + 1)
    ends = [0] * (len(numbers) + 1)
    for i, m in enumerate(matchers):
        span = _span(m)
        if span is None:
            masks[word_at[_word_key(m.exact)]] |= 1 << i
            continue
        first, last = bisect_left(lows, span[0]), bisect_right(highs, span[1]) - 1
        if first <= last:
            starts[first] |= 1 << i
            ends[last] |= 1 << i
    held = 0
    for n, k in enumerate(numbers):
        held |= starts[n]
        masks[k] = held
        held &= ~ends[n]
    return masks


def _lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _show(piece) -> str:
    if piece[0] == "w":
        return repr(piece[1])
    lo, hi = piece[1], piece[2]
    return f"{'' if lo == -INF else int(lo)}..{'' if hi == INF else int(hi)}"


def _where(keys, pieces) -> str:
    if len(keys) == 1:
        return _show(pieces[0])
    return ", ".join(f"{k} {_show(p)}" for k, p in zip(keys, pieces))


def _common(a: model.Matcher, b: model.Matcher):
    """Where two key cells both match, as a piece."""
    sa, sb = _span(a), _span(b)
    if sa is None:
        return ("w", a.exact)
    return ("n", max(sa[0], sb[0]), min(sa[1], sb[1]))


def coverage(name: str, keys, rows, gaps_ok: bool, first_match: bool) -> list[tuple[str, int | None, bool]]:
    """(message, row index to point at, whether the message names the row) for each coverage
    problem of the table."""
    columns = [_pieces([row.matchers[k] for row in rows]) for k in range(len(keys))]
    size = 1
    for pieces in columns:
        size *= max(1, len(pieces))
    if size > MAX_SQUARES:
        return []
    found = []
    overlaps: set = set()
    reachable: set = set()
    gaps = []
    masks = [_masks([row.matchers[k] for row in rows], pieces) for k, pieces in enumerate(columns)]
    everyone = (1 << len(rows)) - 1
    for square in product(*[range(len(pieces)) for pieces in columns]):
        matching = everyone
        for k, piece in enumerate(square):
            matching &= masks[k][piece]
        square = tuple(columns[k][piece] for k, piece in enumerate(square))
        if not matching:
            gaps.append(square)
            continue
        first = _lowest(matching)
        reachable.add(first)
        rest = matching & (matching - 1)
        if rest and not first_match:
            pair = (first, _lowest(rest))
            if pair not in overlaps:
                overlaps.add(pair)
                first, second = rows[pair[0]], rows[pair[1]]
                common = [_common(a, b) for a, b in zip(first.matchers, second.matchers)]
                found.append((_("table {name!r}: rows {first} and {second} overlap at {where} (set first_match: "
                                "true if the first row should win)").format(
                    name=name, first=pair[0] + 1, second=pair[1] + 1, where=_where(keys, common)), pair[1], True))
    if first_match:
        for i in range(len(rows)):
            if i not in reachable:
                found.append((_("table {name!r}: row {row} can never match: the rows before it match everything "
                                "it does").format(name=name, row=i + 1), i, True))
    if gaps and not gaps_ok:
        if len(keys) == 1:
            for lo, hi, after in _merged(gaps, rows):
                found.append((_("table {name!r}: no row covers {where} (add a row, a default:, or set gaps: "
                                "true)").format(name=name, where=_show(("n", lo, hi))), after, False))
        else:
            for square in gaps[:MAX_GAPS_SHOWN]:
                found.append((_("table {name!r}: no row covers {where} (add a row, a default:, or set gaps: "
                                "true)").format(name=name, where=_where(keys, square)), None, False))
            if len(gaps) > MAX_GAPS_SHOWN:
                found.append((_("table {name!r}: and {n} more combinations no row covers").format(
                    name=name, n=len(gaps) - MAX_GAPS_SHOWN), None, False))
    return found


def _merged(gaps, rows):
    """Runs of uncovered numbers of a one-column table: (low, high, the row just after the run)."""
    runs = []
    starting: dict = {}      # a number -> the first row whose range starts at it
    for i, row in enumerate(rows):
        starting.setdefault((_span(row.matchers[0]) or (INF,))[0], i)
    for (piece,) in gaps:
        if piece[0] != "n":
            continue
        if runs and runs[-1][1] + 1 == piece[1]:
            runs[-1][1] = piece[2]
        else:
            runs.append([piece[1], piece[2]])
    out = []
    for lo, hi in runs:
        out.append((lo, hi, starting.get(hi + 1)))
    return out
