"""Data with its places: the mappings and sequences a YAML read gives (LDict / LList), which know
where each key and value was written, and the look-ups of a place by path. Read by yamlio.py (which
reads the files), yamlparse.py (PyYAML's nodes built into them) and remembered_reads.py (kept between runs).
"""

from __future__ import annotations

from .problems import Position

MAX_NODES = 200_000   # nodes built, aliases expanded: far above any real ruleset
MAX_DEPTH = 64      # levels of YAML nesting: steps nested as deep as allowed take about 40


class LDict(dict):
    """A mapping that remembers where it, its keys and its values were written."""

    __slots__ = ("pos", "key_pos", "value_pos")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.pos: Position | None = None
        self.key_pos: dict = {}
        self.value_pos: dict = {}


class LList(list):
    """A sequence that remembers where it and each item were written."""

    __slots__ = ("pos", "item_pos")

    def __init__(self, *args):
        super().__init__(*args)
        self.pos: Position | None = None
        self.item_pos: list = []


def position_of(root, path) -> Position | None:
    """The position of the value at `path` (or of the deepest container on it)."""
    node, found = root, getattr(root, "pos", None)
    for part in path:
        if isinstance(node, LDict) and part in node:
            found = node.value_pos.get(part, found)
            node = node[part]
        elif isinstance(node, LList) and isinstance(part, int) and 0 <= part < len(node):
            found = node.item_pos[part] if part < len(node.item_pos) else found
            node = node[part]
        else:
            break
    return found


def key_position_of(root, path) -> Position | None:
    """The position of the key that ends `path` (for "unknown key" problems)."""
    if not path:
        return getattr(root, "pos", None)
    parent = root
    for part in path[:-1]:
        try:
            parent = parent[part]
        except (KeyError, IndexError, TypeError):
            return position_of(root, path)
    if isinstance(parent, LDict):
        return parent.key_pos.get(path[-1], parent.pos)
    return position_of(root, path)
