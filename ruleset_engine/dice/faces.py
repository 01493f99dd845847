"""The faces of untraced pools: a plain int, or a KFace when its die has a kind (kinds(..)).

Below the modifiers and the values: a modifier's primitive makes faces (as_face, kind_of), and
values.py (whose Result the renderer shows) names them, so the renderer may read the registry of
modifiers with no import cycle.
"""

from __future__ import annotations


class KFace(int):
    """A face of a die of a kind (`kinds(5d10, wild=2)`), as untraced pools and the game state hold
    it: it is the number it shows in every sum and comparison, and remembers its kind. Only
    expressions that mark kinds make them, so pools of plain ints stay as fast as they were."""

    def __new__(cls, face: int, kind: str):
        obj = super().__new__(cls, face)
        obj.kind = kind
        return obj

    def __repr__(self) -> str:
        return int.__repr__(self)

    __str__ = __repr__

    def __reduce__(self):
        return (KFace, (int(self), self.kind))

    def __deepcopy__(self, memo):
        return self


NO_KIND = "none"     # the kind written to read the dice that no kinds(..) marked: of(p, none), kind=none


def is_of(kind: str | None, wanted: str) -> bool:
    """A die of kind `kind` (None: no kind) is of the kind a formula names (NO_KIND: of no kind)."""
    return kind is None if wanted == NO_KIND else kind == wanted


def kind_of(face) -> str | None:
    """The kind of an untraced face: None for a plain int."""
    return face.kind if type(face) is KFace else None


def as_face(face: int, kind: str | None):
    """A face as untraced pools hold it: a plain int, or a KFace when it has a kind."""
    return face if kind is None else KFace(face, kind)
