"""`extends:`, a child ruleset over its parent, the way sqlglot's dialects extend theirs.

Maps deep-merge; scalars replace; lists of items with an `id` merge by id (a
matching item merges into the parent's, a new one is appended), and so do the
levels of the `loop:` by their `name`; other lists are replaced. Explicit keys say the rest:

    params:
      $remove: [old_param]            # drop keys of a map
    actions:
      round:
        steps:
          $insert: {after: search, items: [...]}   # place items by id in a list
          $remove: [old_step]                       # drop list items by id
    tables:
      outcome: {$replace: {...}}      # take this value whole, no merge

Positions survive the merge: every value keeps the file and line it came from,
so an error in a child points at the child's file.
"""

from __future__ import annotations

from ruleset_engine.i18n import N_, _

from ..errors import get_close_matches

from .problems import Problem
from .yamlio import LDict, LList

OPERATORS = ("$remove", "$insert", "$replace", "$merge")


def copy_place(out: LDict, source: LDict, key) -> None:
    """The places of `source`'s key and value, given to the same key of `out`."""
    if key in source.key_pos:
        out.key_pos[key] = source.key_pos[key]
    if key in source.value_pos:
        out.value_pos[key] = source.value_pos[key]


# Lists whose items are known by another key than `id`: the loop's levels, by name.
KEYS = {("loop",): "name"}


def _ids(items, path=()) -> list:
    """Each item's id (None for an item without one: an id is a name or a number, never a list or map)."""
    key = KEYS.get(tuple(path), "id")
    return [_scalar(item.get(key)) if isinstance(item, dict) else None for item in items]


def _scalar(value):
    return value if isinstance(value, (str, int)) else None


def _kind(value) -> str:
    """A value's kind in words, never the value (it may be long)."""
    for kind, words in ((bool, N_("a yes/no")), (dict, N_("a map")), (list, N_("a list")), (float, N_("a fraction")),
                        (type(None), N_("nothing"))):
        if isinstance(value, kind):
            return _(words)
    return _("a number") if isinstance(value, int) else _("a text")


class _At:
    """A place to report at, for an item whose node has none of its own (a number, a text)."""
    def __init__(self, pos):
        self.pos = pos


def _item_node(items, n):
    item = items[n]
    if getattr(item, "pos", None) is None and isinstance(items, LList) and n < len(items.item_pos):
        return _At(items.item_pos[n])
    return item


class Merger:
    def __init__(self, parent_file: str, child_file: str):
        self.parent_file = parent_file
        self.child_file = child_file
        self.problems: list[Problem] = []

    def problem(self, message: str, node, path) -> None:
        position = getattr(node, "pos", None)
        self.problems.append(Problem(_("{message} (merging over {parent_file})").format(
                                         message=message, parent_file=self.parent_file), position, path))

    def merge(self, parent, child, path=()):
        if isinstance(child, LDict) and "$replace" in child:
            extra = [k for k in child if k != "$replace"]
            if extra:
                self.problem(_("$replace takes the value whole; drop the other keys {extra}").format(extra=extra),
                             child, path)
            return child["$replace"]
        if isinstance(parent, dict) and isinstance(child, dict):
            return self.merge_maps(parent, child, path)
        if isinstance(parent, list) and isinstance(child, LDict) and any(k in child for k in OPERATORS):
            return self.edit_list(parent, child, path)
        if isinstance(parent, list) and isinstance(child, list):
            return self.merge_lists(parent, child, path)
        return child

    def names(self, child: LDict, path) -> list:
        """What $remove names: keys or ids, one or a list of them."""
        removed = child.get("$remove", [])
        removed = removed if isinstance(removed, list) else [removed]
        names = [name for name in removed if _scalar(name) is not None]
        if len(names) < len(removed):
            self.problem(_("$remove takes names: the keys or ids to drop, as in $remove: [old_param]"), child,
                         path + ("$remove",))
        return names

    def merge_maps(self, parent: LDict, child: LDict, path):
        out = LDict()
        out.pos = getattr(child, "pos", None) or getattr(parent, "pos", None)
        removed = self.names(child, path)
        for key in removed:
            if key not in parent:
                self.problem(_("$remove names {key!r}, which {parent_file} does not have").format(
                                 key=key, parent_file=self.parent_file), child,
                             path + ("$remove",))
        for key, value in parent.items():
            if key in removed:
                continue
            out[key] = value
            if isinstance(parent, LDict):
                copy_place(out, parent, key)
        for key, value in child.items():
            if key == "$remove":
                continue
            if key in OPERATORS:
                self.problem(_("{key} only applies to a list of items with ids").format(key=key), child, path + (key,))
                continue
            out[key] = self.merge(out[key], value, path + (key,)) if key in out else value
            copy_place(out, child, key)
        return out

    def merge_lists(self, parent: list, child: list, path, keyed_by=None):
        keyed_by = path if keyed_by is None else keyed_by
        parent_ids, child_ids = _ids(parent, keyed_by), _ids(child, keyed_by)
        if not child or not all(i is not None for i in child_ids) or not any(i is not None for i in parent_ids):
            return child
        key = KEYS.get(tuple(keyed_by))
        if key is not None:
            # A level is edited, never added by name: a misspelt name would quietly make a new level.
            known = [i for i in parent_ids if i is not None]
            for n, item_id in enumerate(child_ids):
                if item_id not in known:
                    guess = get_close_matches(str(item_id), [str(k) for k in known], n=1)
                    hint = _(" (did you mean {guess!r}?)").format(guess=guess[0]) if guess else ""
                    self.problem(_("{parent_file} has no loop level named {item_id!r}{hint}; its "
                                   "levels: {map} (to write a new loop, use $replace)").format(
                                     parent_file=self.parent_file, item_id=item_id, hint=hint,
                                     map=', '.join(map(str, known))),
                                 child[n], path + (n, key))
            if any(item_id not in known for item_id in child_ids):
                return parent
        out = LList()
        out.pos = getattr(child, "pos", None)
        index = {item_id: n for n, item_id in enumerate(parent_ids) if item_id is not None}
        merged = list(parent)
        positions = list(getattr(parent, "item_pos", [None] * len(parent)))
        for n, item in enumerate(child):
            pos = child.item_pos[n] if isinstance(child, LList) and n < len(child.item_pos) else None
            if child_ids[n] in index:
                k = index[child_ids[n]]
                merged[k] = self.merge(parent[k], item, path + (k,))
                positions[k] = pos or positions[k]
            else:
                merged.append(item)
                positions.append(pos)
        out.extend(merged)
        out.item_pos = positions
        return out

    def keyed(self, items: list, path) -> bool:
        """Whether each item of a `$merge` has its id, a name or a number: an item without one would
        make the list be replaced whole, which $merge never means. Each item that has none is named."""
        key = KEYS.get(tuple(path), "id")
        good = True
        for n, item in enumerate(items):
            if isinstance(item, dict) and _scalar(item.get(key)) is not None:
                continue
            if not isinstance(item, dict):
                found = _("is {kind}, not a map").format(kind=_kind(item))
                node, at = _item_node(items, n), path + ("$merge", n)
            elif key not in item:
                found, node, at = _("has no {key}:").format(key=key), _item_node(items, n), path + ("$merge", n)
            else:
                found = _("has {kind} as its {key}").format(kind=_kind(item[key]), key=key)
                node = _At(item.value_pos.get(key)) if isinstance(item, LDict) else item
                at = path + ("$merge", n, key)
            self.problem(_("each item of $merge names the item it changes by its {key}: (a name or a "
                           "number); this one {found}").format(key=key, found=found), node, at)
            good = False
        return good

    def edit_list(self, parent: list, child: LDict, path):
        items = list(parent)
        positions = list(getattr(parent, "item_pos", [None] * len(parent)))
        for key in child:
            if key not in OPERATORS:
                self.problem(_("{key!r}: a list is edited with $remove, $insert, $merge or $replace "
                               "only").format(key=key), child,
                             path + (key,))
        if "$replace" in child:
            return child["$replace"]
        for item_id in self.names(child, path):
            ids = _ids(items, path)
            if item_id not in ids:
                self.problem(_("$remove names {item_id!r}, which this list in {parent_file} does not "
                               "have").format(
                                 item_id=item_id, parent_file=self.parent_file),
                             child, path + ("$remove",))
                continue
            k = ids.index(item_id)
            del items[k]
            del positions[k]
        if "$merge" in child and not isinstance(child["$merge"], list):
            self.problem(_("$merge takes a list of items, each with its id"), child, path + ("$merge",))
        elif "$merge" in child and self.keyed(child["$merge"], path):
            merged = self.merge_lists(items, child["$merge"], path + ("$merge",), keyed_by=path)
            positions = list(getattr(merged, "item_pos", positions))
            items = list(merged)
        inserts = child.get("$insert", [])
        for insert in inserts if isinstance(inserts, list) else [inserts]:
            if not isinstance(insert, dict) or not isinstance(insert.get("items"), list) or \
                    len({"before", "after"} & set(insert)) != 1:
                self.problem(_("$insert takes {before: ID, items: [...]} or {after: ID, items: [...]}"), child,
                             path + ("$insert",))
                continue
            anchor = insert.get("before", insert.get("after"))
            ids = _ids(items, path)
            if anchor not in ids:
                self.problem(_("$insert is placed by {anchor!r}, which this list in {parent_file} does "
                               "not have (it has: {items})").format(
                                 anchor=anchor, parent_file=self.parent_file,
                                 items=[i for i in ids if i is not None]), insert,
                             path + ("$insert",))
                continue
            k = ids.index(anchor) + (1 if "after" in insert else 0)
            new = insert["items"]
            items[k:k] = new
            new_pos = list(getattr(new, "item_pos", [None] * len(new)))
            positions[k:k] = new_pos
        out = LList(items)
        out.pos = getattr(child, "pos", None)
        out.item_pos = positions
        return out


def merge_rulesets(parent: LDict, child: LDict, parent_file: str, child_file: str):
    """The child over its parent; returns (merged, problems)."""
    merger = Merger(parent_file, child_file)
    merged = merger.merge_maps(parent, child, ())
    merged.pop("extends", None)
    return merged, merger.problems
