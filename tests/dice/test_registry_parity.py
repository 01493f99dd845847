"""Random expressions built from the registry, so every function form and every modifier is
exercised, evaluated traced (the table) and untraced (a simulation): both give the same value,
or the same error, and leave the dice source in the same state.

The expressions come from the registry's signatures (argument kinds, keywords, operands): a
function or modifier added to the registry is covered here without touching this file.
"""

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ruleset_engine import dice
from ruleset_engine.dice.aliases import ALIASES
from ruleset_engine.dice.entries import (CAP_OP, CONDITION_ARG, CONDITION_OP, COUNT_OP, EXPR_ARG, FACE_OP, KIND_ARG,
                                         NUMBER_ARG, OPTIONAL_CONDITION_OP, POOL_ARG, TRUTH_ARG, WORD_ARG, spelled)
from ruleset_engine.dice.functions import FUNCTIONS
from ruleset_engine.dice.modifiers import MODIFIERS
from ruleset_engine.dice.values import kind_of

ENV = {"x": 3, "y": 0, "p": [1, 6, 6, 2], "q": [], "flag": True, "params": {"difficulty": 6, "rule": "classic"}}
OPS = [">=", ">", "<=", "<", "==", "!="]
LIMITS = dice.Limits(max_dice_rolled=2_000)     # re-rolls without end stop sooner, in both modes alike


class Builder:
    """Random expressions of each kind, calling every registry entry. COUNTS and SIDES are the dice
    it writes (the exact odds' test writes small pools, to enumerate every roll)."""

    COUNTS = ["0", "1", "2", "3", "5", "(x)", "(y + 2)"]
    SIDES = ["4", "6", "10", "(x + 1)"]

    def __init__(self, rng: random.Random):
        self.rng = rng

    def pick(self, items):
        return self.rng.choice(list(items))

    def number(self, depth: int) -> str:
        r = self.rng.random()
        if depth <= 0 or r < 0.3:
            return self.pick(["0", "1", "2", "3", "5", "7", "12", "x", "y", "params.difficulty", "-2"])
        if r < 0.45:
            return f"({self.number(depth - 1)} {self.pick(['+', '-', '*', '//'])} {self.number(depth - 1)})"
        if r < 0.55:
            return f"({self.number(depth - 1)} if {self.truth(depth - 1)} else {self.number(depth - 1)})"
        if r < 0.65:
            return self.dice(depth - 1)
        if r < 0.7:     # a count written in another tool's notation (10d10cs>=6df=1, 10d10>6)
            return self.dice(depth - 1, notation=self.pick(a for a in ALIASES.values() if a.role == "count"))
        return self.call(depth - 1, "number")

    def truth(self, depth: int) -> str:
        r = self.rng.random()
        if depth <= 0 or r < 0.3:
            return self.pick(["true", "false", "flag", f"x {self.pick(OPS)} 2", "params.rule == 'classic'"])
        if r < 0.6:
            return f"({self.number(depth - 1)} {self.pick(OPS)} {self.number(depth - 1)})"
        if r < 0.8:
            return f"({self.truth(depth - 1)} {self.pick(['and', 'or'])} {self.truth(depth - 1)})"
        return f"(not {self.truth(depth - 1)})"

    def word(self, depth: int) -> str:
        if depth <= 0 or self.rng.random() < 0.6:
            return self.pick(["'coffin'", "'coffins'", '"die"'])
        return self.call(depth - 1, "string")

    def condition(self, depth: int) -> str:
        return f"{self.pick(OPS)} {self.pick(['1', '2', '3', '4', '6', 'x', '(y + 5)'])}"

    def modifier(self, entry) -> str:
        """The entry with random operands of the kinds of its schema, written as the grammar reads them."""
        return spelled(entry, [self.operand(kind) for kind in entry.operands])

    def operand(self, kind: str) -> str | None:
        if kind == COUNT_OP:
            return self.pick(["", "1", "2", "3", "(x)"]) or None
        if kind == CAP_OP:
            return self.pick(["0", "1", "2", "3", "(x)"])
        if kind == FACE_OP:
            return self.pick(["1", "2", "5", "(x)", "(y - 1)"])
        if kind == OPTIONAL_CONDITION_OP and self.rng.random() < 0.4:
            return None
        if kind == CONDITION_OP and self.rng.random() < 0.3:
            return self.pick(["1", "2"])        # a bare value means ==
        return f"{self.pick(OPS)}{self.pick(['1', '2', '5', '6', '9', '(x)'])}"

    def dice(self, depth: int, modifier=None, notation=None) -> str:
        count = self.pick(self.COUNTS)
        sides = self.pick(self.SIDES)
        mods = ""
        if modifier is not None:
            mods = self.modifier(modifier)
        elif self.rng.random() < 0.4:
            mods = "".join(self.modifier(self.pick(MODIFIERS.values())) for _ in range(self.rng.randint(1, 2)))
        if notation is not None:
            mods += self.notation(notation)
        return f"{count}d{sides}{mods}"

    def notation(self, entry) -> str:
        """Another tool's notation (an ALIASES entry) written after dice, with what it needs before or
        after it: a deduction follows a count."""
        value = self.pick(["1", "2", "4", "6", "(x)"])
        if entry.role == "native":          # dusk's own modifier, spelled alike (min2)
            return entry.token + value
        if entry.role == "order" or (entry.operand == "optional condition" and self.rng.random() < 0.3):
            return entry.token
        if entry.token in "<>":
            written = entry.token + value
            return written + (self.pick(["df", "f1", "f<2"]) if self.rng.random() < 0.4 else "")
        op = self.pick(["", "=", "<", ">", "<=", ">=", "==", "!="] if not entry.roll20 else ["", "=", "<", ">"])
        written = f"{entry.token}{op}{value}"
        if entry.role == "deduct":
            return self.notation(self.pick(a for a in ALIASES.values() if a.role == "count")) + written
        if entry.role == "count" and self.rng.random() < 0.4:
            written += self.pick(["df", "df=1", "df<2", "f1", "f<2", "f>5"])
        return written

    def pool(self, depth: int) -> str:
        r = self.rng.random()
        if depth <= 0 or r < 0.35:
            return self.pick([self.dice(0), "p", "q", "[1, 2, 2, 5]", "[]", f"[{self.dice(0)}, 3]", "[p, 1d6]"])
        if r < 0.42:     # dice of kinds, which every function given them must keep
            return f"kinds({self.pool(depth - 1)}, wild={self.pick(['1', '2', '(x)'])}, hunger=1)"
        if r < 0.5:
            mods = self.modifier(self.pick(m for m in MODIFIERS.values() if m.operands == (COUNT_OP,)))
            return f"[{self.pool(depth - 1)}, 2]{mods}"
        if r < 0.5:     # dice with another tool's notation that leaves a pool (1d20x, 2d6ro<2, 3d6sd)
            return self.dice(depth - 1, notation=self.pick(a for a in ALIASES.values()
                                                           if a.role in ("modifier", "order")))
        return self.call(depth - 1, "pool")

    def call(self, depth: int, result: str, entry=None, form=None) -> str:
        if entry is None:
            choices = [(e, f) for e in FUNCTIONS.values() for f in e.forms
                       if (f.result == result or (result == "number" and f.shape == "repeat"))]
            entry, form = self.pick(choices)
        args = []
        kinds = list(form.args)
        if form.variadic:
            kinds += [form.args[-1]] * self.rng.randint(0, 2)
        for kind in kinds:
            args.append(self.argument(kind, depth))
        for name, kind in form.keywords.items():
            if self.rng.random() < 0.5:
                args.append(f"{name}={self.keyword(name, kind, depth)}")
        if form.any_keyword is not None:     # kinds(..): one or two kinds, some count of each
            for name in self.pick([["wild"], ["hunger"], ["wild", "hunger"]]):
                args.append(f"{name}={self.argument(form.any_keyword, depth)}")
        return f"{entry.name}({', '.join(args)})"

    def keyword(self, name: str, kind: str, depth: int) -> str:
        return self.argument(kind, depth)

    def argument(self, kind: str, depth: int) -> str:
        if kind == POOL_ARG:
            return self.pool(depth)
        if kind == CONDITION_ARG:
            return self.condition(depth)
        if kind == TRUTH_ARG:
            return self.truth(depth)
        if kind == EXPR_ARG:
            return f"({self.number(depth)} + {self.dice(0)})"
        if kind == WORD_ARG:
            return self.word(depth)
        if kind == KIND_ARG:
            return self.pick(["wild", "hunger"])
        assert kind == NUMBER_ARG, kind
        return self.number(depth)


def outcome(text: str, seed: int, traced: bool):
    rng = random.Random(seed)
    try:
        if traced:
            value = dice.roll(text, rng=rng, env=ENV, limits=LIMITS).raw
            # A pool is compared with the kind of each die, which both modes must keep alike.
            value = tuple((d.face, d.kind) for d in value.dice) if isinstance(value, dice.Pool) else value
        else:
            value = dice.compile(text, LIMITS).plain(rng, ENV)
            value = tuple((int(f), kind_of(f)) for f in value) if isinstance(value, tuple) else value
        return ("value", value, rng.getstate())
    except dice.DiceError as err:
        return ("error", err.message, str(err))


def same_in_both_modes(text: str, seed: int) -> None:
    table = outcome(text, seed, traced=True)
    simulation = outcome(text, seed, traced=False)
    assert table == simulation, text


@pytest.mark.parametrize("name, index", [(e.name, i) for e in FUNCTIONS.values() for i in range(len(e.forms))])
def test_every_function_form_gives_the_same_in_both_modes(name, index):
    entry = FUNCTIONS[name]
    form = entry.forms[index]
    builder = Builder(random.Random(f"{name}/{index}"))
    values = 0
    for seed in range(60):
        text = builder.call(2, form.result, entry, form)
        same_in_both_modes(text, seed)
        values += outcome(text, seed, traced=True)[0] == "value"
    assert values >= 10, f"{name}: too few of the random calls evaluated to a value"


@pytest.mark.parametrize("token", list(MODIFIERS))
def test_every_modifier_gives_the_same_in_both_modes(token):
    builder = Builder(random.Random(f"mod/{token}"))
    values = 0
    for seed in range(80):
        text = builder.dice(1, MODIFIERS[token])
        if builder.rng.random() < 0.3:
            text = f"count({text}, >= 4)"
        same_in_both_modes(text, seed)
        values += outcome(text, seed, traced=True)[0] == "value"
    assert values >= 20, f"{token}: too few of the random rolls evaluated to a value"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.integers(0, 3), st.sampled_from(["number", "pool", "truth"]))
def test_random_expressions_give_the_same_in_both_modes(seed, depth, kind):
    builder = Builder(random.Random(seed))
    text = builder.truth(depth) if kind == "truth" else builder.number(depth) if kind == "number" else \
        builder.pool(depth)
    same_in_both_modes(text, seed)


def entries_in(text: str) -> set:
    """The functions and modifiers an expression calls, read from its syntax tree."""
    from ruleset_engine.dice import ast
    from ruleset_engine.dice.parser import parse

    found = set()
    try:
        tree = parse(text)
    except dice.DiceError:
        return found
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            found.add(node.function)
        for mod in getattr(node, "modifiers", ()):
            found.add(mod.token)
    return found


def test_the_builder_reaches_every_entry():
    seen = set()
    builder = Builder(random.Random(0))
    for _ in range(400):
        seen |= entries_in(builder.number(3)) | entries_in(builder.pool(3)) | entries_in(builder.word(3))
    assert seen == set(FUNCTIONS) | set(MODIFIERS)


def test_random_expressions_in_a_ruleset_give_the_same_in_both_modes(tmp_path):
    """The same random expressions written into a ruleset, where the program writer knows the kinds
    of x, p, flag and the params (so the checks it leaves out, and the shortcuts it takes, are
    exercised): played at the table and in a simulation, each action ends alike."""
    from ruleset_engine.ruleset import load
    from ruleset_engine.runtime import DEFAULT_RUN_LIMITS, Game, RuleError
    from ruleset_engine.runtime.program import ProgramError, build
    from ruleset_engine.runtime.run import Run

    builder = Builder(random.Random(2026))
    texts = []
    while len(texts) < 80:
        kind = builder.pick(["number", "pool", "truth"])
        text = getattr(builder, kind)(3)
        if "reroll(" in text:     # re-rolls to the dice limit are the lone-expression tests' job
            continue
        try:
            dice.compile(text)    # what cannot compile is refused alike, before any mode runs
        except dice.DiceError:
            continue
        texts.append(text)
    while True:
        lines = ["ruleset: typed", "title: Typed", "params:", "  difficulty: {type: integer, default: 6}",
                 "  rule: {type: choice, choices: [classic, revised], default: classic}",
                 "state:", "  x: 3", "  y: 0", '  p: "[1, 6, 6, 2]"', '  q: "[]"', "  flag: true"]
        lines += [f"  o{i}: 0" for i in range(len(texts))]
        lines.append("actions:")
        for i, text in enumerate(texts):
            lines += [f"  e{i}:", "    steps:", f"      - set: {{o{i}: {json.dumps(text)}}}"]
        path = tmp_path / "typed.yaml"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        ruleset = load(str(path))
        try:
            program = build(ruleset, {"difficulty": 6, "rule": "classic"}, traced=False,
                            run_limits=DEFAULT_RUN_LIMITS)
            break
        except ProgramError as err:
            # What the program writer refuses once it knows the kinds (5d4 if true else 1, compared with a
            # number) is refused when either mode is written: those actions are left out.
            refused = {int(problem.path[1][1:]) for problem in err.problems}
            texts = [t for i, t in enumerate(texts) if i not in refused]
    values = 0
    for i in range(len(texts)):
        game = Game.start(ruleset, seed=i)
        try:
            game.perform(f"e{i}")
            table = ("done", _plain(game.values[f"o{i}"]), game.rng.getstate())
        except RuleError as err:
            table = ("error", str(err), None)
        rng = random.Random(i)
        run = Run(traced=False, auto=True, max_steps=100_000, max_depth=64)
        entry = program.bind(rng.randint, run)
        entry["start"]()
        try:
            entry["perform"](f"e{i}", {})
            simulation = ("done", _plain(entry["values"]()[f"o{i}"]), rng.getstate())
        except Exception as err:   # noqa: BLE001 - located as the table locates it
            simulation = ("error", str(program.locate(err)), None)
        assert simulation == table, texts[i]
        values += table[0] == "done"
    assert values >= 40


def _plain(value):
    return list(value) if isinstance(value, (list, tuple)) else value


@pytest.mark.parametrize("depth", [20, 24, 25, 26, 49, 50, 55])
def test_deep_formulas_cut_into_functions_give_the_same_in_both_modes(depth):
    # Past HOIST_EVERY levels the lowering writes a tree in pieces; each piece keeps what is known of it.
    for text in ("sum(" + "sort(" * depth + "3d6" + ")" * depth + ")",
                 "(" * depth + "1d6 + x" + ")" * depth + " + 2",
                 "size(aside(" + "sort(" * depth + "drop(4d6, == 1)" + ")" * depth + "))"):
        for seed in range(5):
            assert outcome(text, seed, traced=True) == outcome(text, seed, traced=False), (text, seed)
