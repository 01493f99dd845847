"""The compiled ruleset: typed dataclasses, every formula compiled once, every step located. No
generated __repr__ (nothing shows one; generating it costs every start), here nor in the steps' own
dataclasses (ruleset/steps/); their equality is SameFields's (dice/ast.py), written once, not generated.

The runtime lowers these to one program (ruleset_engine/runtime/program.py); nothing here knows a game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ruleset_engine.dice import Expression
from ruleset_engine.dice.ast import SameFields
from ruleset_engine.dice.named import NO_FORMULAS, FormulaBook

from .marks import MarkRule
from .problems import Position
from .templates import Template


@dataclass(slots=True, repr=False, eq=False)
class Formula(SameFields):
    """A dice-language formula with the place it was written (for errors when it runs)."""

    text: str
    expr: Expression
    where: Position | None
    path: tuple


@dataclass(slots=True, repr=False, eq=False)
class Param(SameFields):
    """A param of the ruleset (`params:`), set with --set."""

    name: str
    type: str                 # integer, boolean, choice, dice, text
    default: Any
    min: int | None = None
    max: int | None = None
    choices: tuple[str, ...] = ()
    doc: Any = None
    label: Any = None
    names: str | None = None  # a text param whose value names an instance of this group (made from sheets)


@dataclass(slots=True, repr=False, eq=False)
class ActionParam(SameFields):
    """A param an action takes at the table."""

    name: str
    type: str                 # integer, boolean, choice, dice, text, entity
    default: Any = None
    min: Formula | None = None
    max: Formula | None = None
    choices: tuple[str, ...] = ()
    of: str | None = None
    doc: Any = None
    over: str | None = None   # type formula: the entity parameter whose fields the formula reads
    word: str | None = None   # a word that introduces the value at the table (`diff 6`)
    reads: str | None = None  # type formula: a local holding the list of the fields the formula names
    acts: bool = True         # type entity: the instance acts, so its group's acts: guard is asked


@dataclass(slots=True, repr=False, eq=False)
class Matcher(SameFields):
    """One key cell of a table row: an exact value, or an integer range low..high."""

    exact: Any = None
    low: int | None = None
    high: int | None = None
    is_range: bool = False

    def matches(self, value) -> bool:
        if self.is_range:
            return type(value) is int and (self.low is None or value >= self.low) and \
                (self.high is None or value <= self.high)
        return value == self.exact


@dataclass(slots=True, repr=False, eq=False)
class Row(SameFields):
    """One row of a table: what it matches, and its cells."""

    matchers: tuple[Matcher, ...]
    cells: dict
    where: Position | None = None


@dataclass(slots=True, repr=False, eq=False)
class LookupTable(SameFields):
    """A table of the ruleset: rows tried in order, the first whose key cells match wins."""

    name: str
    keys: tuple[str, ...]
    rows: list[Row]
    default: dict | None = None
    columns: dict = field(default_factory=dict)
    title: Any = None
    doc: Any = None

    def find(self, values) -> dict | None:
        for row in self.rows:
            if all(m.matches(v) for m, v in zip(row.matchers, values)):
                return row.cells
        return self.default


@dataclass(slots=True, repr=False, eq=False)
class Initial(SameFields):
    """An initial value: a formula, a text template, or a fixed pool."""

    formula: Formula | None = None
    text: Template | None = None
    pool: tuple[int, ...] | None = None


@dataclass(slots=True, repr=False, eq=False)
class TrackSpec(SameFields):
    """A track of boxes an entity has."""

    name: str
    labels: tuple                    # the boxes' labels; () when `size` says how many (numbered 1..n)
    rule: MarkRule | None = None     # a track whose boxes remember what marked them (marks.py)
    size: Formula | None = None      # `boxes:` a formula, read as each instance is made

    @property
    def numbered(self) -> bool:
        """Every box is labelled by a number (a track sized by a formula is numbered 1..n)."""
        return all(type(label) is int for label in self.labels)


MAX_BOXES = 1000      # boxes of one track (the schema's bound for a number, checked in play for a formula)


MAX_GROUP = 10_000    # instances of one entity group, those made during play included
MAX_NESTING = 16      # blocks of steps, one inside another (Python nests at most 20 loops)


@dataclass(slots=True, repr=False, eq=False)
class EntitySpec(SameFields):
    """A kind of entity (`entities:`): its fields and tracks."""

    name: str
    fields: dict[str, Initial]
    tracks: dict[str, TrackSpec]
    count: Formula | None = None     # a group of instances when set
    names: Template | None = None
    label: Any = None
    doc: Any = None
    max: int | None = None           # the most instances the group may hold (create: makes more)
    sheet: Any = None                # a SheetTemplate (sheets.py): instances written in sheet files
    acts: Any = None                 # {as, when, refused}: who may act (every action's guard), as written

    @property
    def most(self) -> int:
        return self.max if self.max is not None else MAX_GROUP

    @property
    def is_group(self) -> bool:
        return self.count is not None


@dataclass(slots=True, repr=False, eq=False)
class PairSpec(SameFields):
    """Records between two instances of one group (pairs.py): fields with the values a record has
    until a step writes it, kept by the two instances' indices (in order when `ordered`)."""

    name: str
    between: str
    ordered: bool
    fields: dict[str, Any]           # field -> its default (a number, true/false or a text)
    label: Any = None
    doc: Any = None


# ---- steps ------------------------------------------------------------------------

@dataclass(slots=True, repr=False, eq=False)
class Step(SameFields):
    """What every step has: where it was written. Each kind's dataclass lives with its registry
    entry, in ruleset_engine/ruleset/steps/."""

    where: Position | None
    path: tuple


# ---- the whole -------------------------------------------------------------------

@dataclass(slots=True, repr=False, eq=False)
class Level(SameFields):
    """A level of the loop (`loop:`): its steps at its begin, finish and then."""

    name: str
    times: Formula | None = None
    max: int | None = None
    begin: list = field(default_factory=list)
    finish: list = field(default_factory=list)
    then: list = field(default_factory=list)
    steps: list = field(default_factory=list)
    params: dict[str, ActionParam] = field(default_factory=dict)
    doc: Any = None
    label: Any = None
    where: Position | None = None


@dataclass(slots=True, repr=False, eq=False)
class Action(SameFields):
    """An action of the table: its params and steps."""

    name: str
    steps: list
    params: dict[str, ActionParam] = field(default_factory=dict)
    when: Formula | None = None
    doc: Any = None
    label: Any = None
    plays_level: str | None = None   # set for the action that plays one iteration of the loop
    once_per: str | None = None      # a loop level: done at most once in each of its iterations


@dataclass(slots=True, repr=False, eq=False)
class Procedure(SameFields):
    """A procedure (`procedures:`): its params and steps."""

    name: str
    params: tuple[str, ...]
    steps: list
    doc: Any = None
    where: Position | None = None
    groups: dict = field(default_factory=dict)   # parameter -> the group whose instance it holds ({of: GROUP})


@dataclass(slots=True, repr=False, eq=False)
class Trigger(SameFields):
    """A trigger: steps run when its test holds."""

    id: str | None
    when: Formula
    do: list


@dataclass(slots=True, repr=False, eq=False)
class Ending(SameFields):
    """An ending: the result of the game when its test holds."""

    id: str | None
    when: Formula
    result: str
    say: Template | None = None
    where: Position | None = None
    at_once: bool = False     # also checked after every step that may change it, not only between actions
    value: Formula | None = None      # a number (or true/false) the result carries, read as the game ends
    text: Template | None = None      # the result in words at the table; its placeholders may read `value`
    distribution: bool = False        # dusk simulate shows the value value by value


@dataclass(slots=True, repr=False, eq=False)
class Ruleset(SameFields):
    """A whole ruleset, loaded and checked: what a game runs."""

    id: str
    title: Any
    file: str
    params: dict[str, Param]
    tables: dict[str, LookupTable]
    entities: dict[str, EntitySpec]
    state: dict[str, Initial]
    setup: list
    loop: list[Level]
    actions: dict[str, Action]
    procedures: dict[str, Procedure]
    triggers: list[Trigger]
    end: list[Ending]
    status: Template | None
    report: dict[str, Formula]
    source: Any = None
    description: Any = None
    languages: tuple[str, ...] = ("en",)
    data: Any = None          # the merged YAML data, for `dusk show --resolved`
    files: tuple[str, ...] = ()   # this file, its chapters, then its parents (each with its chapters)
    pairs: dict[str, PairSpec] = field(default_factory=dict)   # records between two instances
    formulas: FormulaBook = NO_FORMULAS   # the named formulas, which any formula may call
    distributions: tuple[str, ...] = ()   # the report values a simulation shows value by value
    tallies: dict[str, str] = field(default_factory=dict)   # report value -> the level it is read per iteration of
    words: dict[str, dict[str, str]] = field(default_factory=dict)   # language -> {name: the label typed for it}
    seats: str | None = None  # the group whose instances people play, one seat each (runtime/seats.py)
    results: dict[str, Any] = field(default_factory=dict)   # result -> its words at the table (a text)
