"""The step kinds of a ruleset, one registry entry each (see kind.py), in the order the docs list them.

    KINDS["set"].check(checker, item, path, scope)   # YAML -> a typed step
    KINDS["set"].lower(writer, step)                 # a typed step -> Python source

Adding a step kind is one entry (its dataclass, check, lowering, doc line and helpers) in one of
these modules, listed in _MODULES below, and its tests; the schema file's step definitions are written from the
entries (`python -m ruleset_engine.ruleset.step_schema --write`).
"""

from .contests import ROLL_OFF, RollOffStep
from .control import CALL, END, FOR_EACH, IF, REPEAT, RETURN, CallStep, EndStep, ForEachStep, IfStep, RepeatStep, \
    ReturnStep
from .kind import StepFailed, StepKind
from .people import ASK, SAY, AskStep, SayStep
from ..marks import new_track, set_marked
from .places import CLEAR, LOOKUP, MARK, MOVE, LookupStep, MarkStep, MoveStep
from .instances import CREATE, CreateStep
from .records import PAIR, PairStep
from .values import LET, NOTE, ROLL, SET, LetStep, NoteStep, RollStep, SetStep
from . import contests, control, instances, people, places, records, values

# Every StepKind each module defines, in this order of modules and each module's order of
# definition: a new kind in one of them is registered with no edit here (a new module is one name).
_MODULES = (values, control, people, places, records, instances, contests)
KINDS: dict[str, StepKind] = {kind.key: kind for module in _MODULES for kind in vars(module).values()
                              if isinstance(kind, StepKind)}

__all__ = [
    "KINDS", "StepKind", "StepFailed", "SetStep", "LetStep", "RollStep", "NoteStep", "IfStep", "RepeatStep",
    "ForEachStep", "CallStep", "ReturnStep", "AskStep", "SayStep", "LookupStep", "MoveStep", "MarkStep", "EndStep", "PairStep", "CreateStep",
    "RollOffStep",
    "new_track", "set_marked",
]
