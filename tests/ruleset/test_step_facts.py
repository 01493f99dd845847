"""A step kind's data-flow facts (steps/kind.py) are complete: what the program writer, the at-once
end conditions and the lockstep check learn of a step comes from its entry, so an entry that forgot a
formula, a call or a binding would let a construct through unchecked. Held here against the steps
of every ruleset in the tree, and against the model's traversal (ruleset/walk.py)."""

from collections import Counter
from pathlib import Path


import pytest

from ruleset_engine.ruleset import load, model, walk
from ruleset_engine.ruleset.steps import AskStep, CallStep, LetStep, NoteStep, SetStep
from ruleset_engine.ruleset.templates import Template

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted([*ROOT.glob("rulesets/*.yaml"), *ROOT.glob("rulesets/house/*.yaml"), *ROOT.glob("tests/rulesets/*.yaml")])


def _loaded():
    for path in FILES:
        try:
            yield path.name, load(str(path))
        except Exception:       # a ruleset that is meant to be refused (tested elsewhere)
            continue


RULESETS = list(_loaded())


def _own(value, skip=()):
    """Every Formula and Template held in a step's own fields (not in the blocks of steps it holds)."""
    if isinstance(value, (model.Formula, Template)):
        yield value
    elif isinstance(value, (list, tuple)):
        for item in value:
            if not isinstance(item, model.Step):
                yield from _own(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _own(item)


def test_there_are_rulesets_of_every_kind_to_hold_the_facts_against():
    # mark: and clear: share their dataclass (and so their facts): the entry found for both is clear's.
    kinds = {walk.kind_of(step).key for _, r in RULESETS for step in walk.all_steps(r)}
    assert len(RULESETS) >= 30 and kinds >= {"set", "let", "roll", "note", "if", "repeat", "for_each", "call",
                                             "return", "ask", "say", "lookup", "move", "clear", "pair", "create",
                                             "roll_off", "end"}


@pytest.mark.parametrize("name,ruleset", RULESETS, ids=[n for n, _ in RULESETS])
def test_each_step_names_every_formula_it_holds(name, ruleset):
    for step in walk.all_steps(ruleset):
        kind = walk.kind_of(step)
        held = [v for f in step.__dataclass_fields__ if f not in kind.nested and f not in ("where", "path")
                for v in _own(getattr(step, f))]
        formulas = {id(f) for f in kind.formulas(step)}
        kept = {id(t) for _, t in kind.texts(step)}
        for value in held:
            if isinstance(value, model.Formula):
                assert id(value) in formulas, f"{name}: {kind.key}: at {step.path} misses {value.text!r}"
        assert all(isinstance(f, model.Formula) for f in kind.formulas(step)), (name, step.path)
        assert kept <= {id(v) for v in held}, (name, step.path)


@pytest.mark.parametrize("name,ruleset", RULESETS, ids=[n for n, _ in RULESETS])
def test_the_traversal_reaches_every_step_once(name, ruleset):
    # Counted independently: each block by hand, and the steps in them through the checked paths.
    by_path = [step.path for step in walk.all_steps(ruleset)]
    # A group's acts: guard is written into every action that names an instance of the group (its place
    # stays the guard's, for its messages): its steps are reached once per such action, the rest once.
    guarded = [p for p in by_path if p[0] == "entities" and p[2] == "acts"]
    alone = [p for p in by_path if not (p[0] == "entities" and p[2] == "acts")]
    assert len(alone) == len(set(alone))
    tops = Counter(p for p in guarded if len(p) == 4)
    for group in {p[1] for p in tops}:
        assert len({n for p, n in tops.items() if p[1] == group}) == 1     # each guard step as often as the rest
    top = [ruleset.setup] + [getattr(level, part) for level in ruleset.loop for part in ("begin", "steps", "finish",
                                                                                         "then")]
    top += [a.steps for a in ruleset.actions.values() if not a.plays_level]
    top += [p.steps for p in ruleset.procedures.values()] + [t.do for t in ruleset.triggers]
    found = walk.blocks(ruleset)
    assert len(found) == len(top) and all(b.steps is t or not (b.steps or t) for b, t in zip(found, top))
    firsts = {step.path for block in top for step in block}
    assert firsts <= set(by_path)


def test_facts_of_steps_written_by_hand():
    f = model.Formula("1 + 1", None, None, ())
    g = model.Formula("2", None, None, ())
    s = SetStep(None, (), [(("guard", "life"), f), (("n",), g)])
    assert walk.kind_of(s).writes(s) == [("guard", "life"), ("n",)]
    assert walk.kind_of(s).binds(s) == [("n", g)]            # a one-part place may be a local
    assert walk.kind_of(s).formulas(s) == [f, g]
    let = LetStep(None, (), [("net", f)])
    assert walk.kind_of(let).writes(let) == () and walk.kind_of(let).binds(let) == [("net", f)]
    call = CallStep(None, (), "attack", [("damage", f)], "hit")
    assert walk.kind_of(call).calls(call) == [("attack", [("damage", f)], "hit")]
    assert walk.kind_of(call).binds(call) == [("hit", None)] and walk.kind_of(call).formulas(call) == [f]
    text = Template({"en": ["x"]})
    note = NoteStep(None, (), [(("latest",), text)])
    assert walk.kind_of(note).texts(note) == [(("latest",), text)] and walk.kind_of(note).formulas(note) == ()


def test_a_kind_that_says_nothing_of_its_writes_may_write_anything():
    from ruleset_engine.runtime.at_once import writes

    name, ruleset = next((n, r) for n, r in RULESETS if any(walk.kind_of(s).key == "create"
                                                           for s in walk.all_steps(r)))
    create = next(s for s in walk.all_steps(ruleset) if walk.kind_of(s).key == "create")
    assert walk.kind_of(create).writes is None and writes(create, ruleset) is None


def test_the_timed_steps_are_the_set_steps_with_until_and_only_those():
    # Both loop machines keep a clock only when walk.timed_steps finds a step: a fact that forgot one
    # would let a value held until: a point of the clock never be given back.
    found = 0
    for name, ruleset in RULESETS:
        by_hand = [s for s in walk.all_steps(ruleset) if isinstance(s, SetStep) and s.until is not None]
        assert walk.timed_steps(ruleset) == by_hand, name
        found += len(by_hand)
    assert found >= 2       # tests/rulesets/timed-values.yaml holds several


def test_the_answers_are_the_ask_steps_as_names_and_only_those():
    # dusk check --playouts reports an answer nothing reads from this fact: one that forgot ask: would
    # report nothing, one that named another binding would report a row or an instance as a question.
    found = 0
    for name, ruleset in RULESETS:
        for step in walk.all_steps(ruleset):
            answers = walk.kind_of(step).answers(step)
            by_hand = [step.var] if isinstance(step, AskStep) else []
            assert list(answers) == by_hand, (name, step.path)
            assert set(answers) <= {local for local, _ in walk.kind_of(step).binds(step)}, (name, step.path)
            found += len(by_hand)
    assert found >= 10
