"""Equality of the syntax tree's and the ruleset model's nodes (SameFields, dice/ast.py): written once
instead of generated per class, it must compare as a generated __eq__ does."""

import pytest

from ruleset_engine.dice import ast
from ruleset_engine.dice.parser import parse
from ruleset_engine.ruleset import model
from ruleset_engine.ruleset.steps.values import LetStep


def test_trees_parsed_apart_are_equal_and_a_changed_field_is_not():
    assert parse("count(3d10, >= 6) + x.y") == parse("count(3d10, >= 6) + x.y")
    assert parse("count(3d10, >= 6)") != parse("count(3d10, >= 7)")           # a field deep inside
    assert ast.Integer(1, (0, 1)) != ast.Integer(1, (0, 2))                    # the span is a field too
    assert ast.Integer(1, (0, 1), 1) == ast.Integer(1, (0, 1))                 # a default is a value


def test_another_class_with_the_same_fields_is_not_equal():
    assert ast.Integer(1, (0, 1)) != ast.String(1, (0, 1))
    assert ast.AllOf((), (0, 1), 1) != ast.AnyOf((), (0, 1), 1)
    assert (ast.Integer(1, (0, 1)) == 1) is False


def test_nodes_are_unhashable_as_generated_equality_leaves_them():
    for node in (ast.Integer(1, (0, 1)), model.Formula("1", None, None, ()), LetStep(None, (), [])):
        with pytest.raises(TypeError):
            hash(node)


def test_steps_and_model_compare_by_fields():
    f, g = model.Formula("1 + 1", None, None, ()), model.Formula("1 + 1", None, None, ())
    assert f == g and f is not g
    assert LetStep(None, ("a",), [("x", f)]) == LetStep(None, ("a",), [("x", g)])
    assert LetStep(None, ("a",), [("x", f)]) != LetStep(None, ("b",), [("x", f)])
    assert model.Formula("1", None, None, ()) != model.Formula("2", None, None, ())
