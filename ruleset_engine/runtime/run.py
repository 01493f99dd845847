"""The run of one game's program: what the generated code reads and writes besides the game's values.

A Run is the `C` of the generated code. It is the evaluation's tally (the dice budget, and the
trace when traced), the game's end (over, result), and, at the table, the events of the current
action and the answers given so far. A simulation's Run keeps no events: the untraced program
never calls emit.
"""

from __future__ import annotations

from ruleset_engine.dice import DEFAULT_LIMITS, Result
from ruleset_engine.dice.runtime import Tally

from .errors import BoundReached, RuleError
from .limits import nested_too_deep, too_many_steps

NOTHING = object()     # no answer given yet

# What one action keeps of its chronicle (docs/limits.md): events that only show what happened (a note,
# a say, a roll, a value set...) are kept up to about this many characters; past it each is counted, not
# kept, in one `elided` event (how many of each kind), so a loop of 100,000 long notes takes no memory.
# The events that a replay, undo or the table reads (questions asked, levels, the start, the end) are kept.
MAX_EVENT_WEIGHT = 1_000_000
ELIDABLE = frozenset({"note", "say", "set", "roll", "lookup", "clear", "move", "mark"})


def _weight(data: dict) -> int:
    """About how many characters an event holds (its texts, a text in several languages, its lists)."""
    weight = 32
    for value in data.values():
        if isinstance(value, str):
            weight += len(value)
        elif isinstance(value, dict):
            weight += 8 + sum(len(v) if isinstance(v, str) else 8 for v in value.values())
        elif isinstance(value, (list, tuple)):
            weight += 8 * len(value)
        else:
            weight += 8
    return weight


class AutoAnswer:
    """An answer the auto: formula gave, kept among the action's answers so that a replay (which a
    later question, or real dice, can cause) reads it back, still marked as auto's."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


class Run(Tally):
    __slots__ = ("events", "answers", "answered", "auto", "over", "result", "turn", "base_seq", "max_steps",
                 "max_depth", "purpose", "given_by", "sheets", "kept", "elided", "value", "tallies")

    def __init__(self, *, traced: bool, auto: bool, max_steps: int, max_depth: int,
                 dice_limit: int = DEFAULT_LIMITS.max_dice_rolled):
        super().__init__(dice_limit, traced=False)
        self.events: list | None = [] if traced else None
        self.kept = 0           # the weight of the events of this action kept so far
        self.elided: dict | None = None    # the event counting those past MAX_EVENT_WEIGHT
        self.answers: list = []
        self.answered = 0
        self.auto = auto
        self.over = False
        self.result: str | None = None
        self.value = None       # the value the result carries (an end condition's value:), or None
        self.tallies: dict = {}  # report value -> iteration -> its value as it ended (report: per:)
        self.turn = 0
        self.base_seq = 0
        self.max_steps = max_steps
        self.max_depth = max_depth
        self.sheets: tuple = ()  # sheets the table brought (ruleset/sheets.py), made as the game starts
        self.purpose = None     # what the formula being traced is for (asked about with real dice)
        self.given_by = "person"  # who gave the answer given() returned last

    def attempt(self, answers: list, turn: int, base_seq: int) -> None:
        """Get ready for one attempt at an action: its answers so far, a fresh list of events."""
        self.answers = answers
        self.answered = 0
        self.turn = turn
        self.base_seq = base_seq
        if self.events is not None:
            self.events = []
        self.kept, self.elided = 0, None
        self.steps = None
        self.budget = self.limit

    # ---- events (traced)
    def emit(self, kind: str, **data) -> None:
        if kind in ELIDABLE:
            if self.kept >= MAX_EVENT_WEIGHT:
                self._elide(kind)
                return
            self.kept += _weight(data)
        event = {"seq": self.base_seq + len(self.events), "turn": self.turn, "kind": kind}
        event.update(data)
        self.events.append(event)

    def _elide(self, kind: str) -> None:
        """An event past what one action keeps: counted in the action's `elided` event."""
        if self.elided is None:
            self.elided = {"seq": self.base_seq + len(self.events), "turn": self.turn, "kind": "elided",
                           "count": 0, "kinds": {}}
            self.events.append(self.elided)
        self.elided["count"] += 1
        self.elided["kinds"][kind] = self.elided["kinds"].get(kind, 0) + 1

    def trace(self, purpose=None) -> None:
        """A formula that may roll dice starts: its trace and its dice budget start afresh.
        `purpose`: what its dice are for (a roll's label or name, or the formula's text)."""
        self.steps = []
        self.budget = self.limit
        self.purpose = purpose

    def after_formula(self, text: str, value) -> None:
        """A formula that may roll dice ended: at the table, if it drew dice, its roll is shown."""
        steps, self.steps = self.steps, None
        if steps and self.budget < self.limit:
            self.emit("roll", name=None, **Result.of(text, value, steps).to_json())

    def end_trace(self) -> list:
        """The trace of the formula that just ran; nothing more is traced until the next starts."""
        steps, self.steps = self.steps, None
        return steps

    def roll_event(self, text: str, value, name: str, label, steps: list) -> None:
        """A roll: step's roll, shown with every die whether or not it drew any."""
        data = Result.of(text, value, steps).to_json()
        data["name"] = name
        if label is not None:
            data["label"] = label
        self.emit("roll", **data)

    def param_rolled(self, name: str, text: str, value):
        """A dice param, rolled when the game starts: the roll is shown, formulas read its value."""
        steps, self.steps = self.steps, None
        result = Result.of(text, value, steps)
        if self.events is not None:
            self.emit("roll", name=f"params.{name}", **result.to_json())
        return result.value

    def roll_arg(self, name: str, text: str, randint, values: dict, path: tuple):
        """An action's dice parameter, rolled as the action starts (its roll logged); it reads the
        game's values, never the action's other parameters."""
        from ruleset_engine import dice

        self.purpose = name       # real dice are asked for under the parameter's name
        try:
            result = dice.compile(text).evaluate(rng=_Draw(randint), env=values, expect=self.expect)
        except dice.DiceError as err:
            err.located(text, err.span)
            raise RuleError(err.message, None, path, err.caret_lines()) from None
        if self.events is not None:
            self.emit("roll", name=name, **result.to_json())
        return result.raw

    # ---- decisions
    def given(self):
        """The next answer given for this attempt, or NOTHING; given_by says whose it is."""
        if self.answered < len(self.answers):
            value = self.answers[self.answered]
            self.answered += 1
            if type(value) is AutoAnswer:
                self.given_by = "auto"
                return value.value
            self.given_by = "person"
            return value
        return NOTHING

    def took_auto(self, value):
        """Keep an answer of the auto: formula as the next answer of this attempt, and return it."""
        self.answers.append(AutoAnswer(value))
        self.answered += 1
        return value

    # ---- limits and the end
    def too_many(self, site, in_loop: bool) -> None:
        raise BoundReached(too_many_steps(self.max_steps, in_loop), site.where, site.path)

    def too_deep(self, site) -> None:
        raise BoundReached(nested_too_deep(self.max_depth, site.procedure), site.where, site.path)

    def tallied(self, name: str, iteration: int, value) -> None:
        """A report value read as an iteration of the outermost level ended (the first reading
        stands: the one as the game ends does not replace it)."""
        self.tallies.setdefault(name, {}).setdefault(iteration, value)

    def finish(self, result: str, value=None, text=None) -> None:
        """The game is over with this result (and the value and text of the end condition that
        ended it, if it gives them)."""
        self.over = True
        self.result = result
        self.value = value
        if self.events is not None:
            given = {} if value is None else {"value": value}
            if text is not None:
                given["text"] = text
            self.emit("end", result=result, **given)


class _Draw:
    """The game's randint as a dice source."""

    __slots__ = ("randint",)

    def __init__(self, randint):
        self.randint = randint
