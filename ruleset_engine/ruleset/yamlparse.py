"""Reading YAML with PyYAML: nodes composed by libyaml, then built into LDict / LList / scalars by hand.

Only safe tags are constructed; aliases expanded are counted (MAX_NODES) and nesting is bounded
(MAX_DEPTH); where YAML misreads a formula the message says to quote it (yamlio.py says why). Imported
only when a file is read anew: a file read before is remembered (remembered_reads.py).
"""

from __future__ import annotations

from ruleset_engine.i18n import _

import re

import yaml
from yaml.constructor import ConstructorError, SafeConstructor
from yaml.nodes import MappingNode, ScalarNode, SequenceNode

from ..dice.runtime import MAX_NUMBER
from ..textfile import control_character
from .problems import Position, Problem, RulesetError
from .located import MAX_DEPTH, MAX_NODES, LDict, LList

try:  # libyaml's composer is faster; the pure-Python one gives the same nodes
    _Loader = yaml.CSafeLoader
except AttributeError:  # pragma: no cover
    _Loader = yaml.SafeLoader

_SAFE_TAGS = {f"tag:yaml.org,2002:{t}" for t in ("str", "int", "bool", "null", "float")}
_COLLECTION_TAGS = {"tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"}
_PLAIN_INT = re.compile(r"[-+]?[0-9]+$")
_SPECIAL_START = set(">|!{}[]&*@`%#,?")


class _Builder:
    def __init__(self, filename: str):
        self.filename = filename
        self.nodes = 0
        self.problems: list[Problem] = []
        self.scalars = SafeConstructor()

    def at(self, mark) -> Position:
        return Position(self.filename, mark.line + 1, mark.column + 1)

    def value_at(self, node) -> Position:
        """Where a value's text starts: inside the quotes of a quoted scalar, so a formula's
        caret column adds up."""
        pos = self.at(node.start_mark)
        if isinstance(node, ScalarNode) and node.style in ("'", '"'):
            return Position(pos.file, pos.line, pos.column + 1)
        return pos

    def build(self, node, path=(), depth=0):
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise RulesetError([Problem(
                _("the file expands to more than {MAX_NODES:,} values (aliases repeating aliases, a "
                  "'billion laughs'?); refused").format(MAX_NODES=MAX_NODES), self.at(node.start_mark), path)])
        if depth > MAX_DEPTH:
            raise RulesetError([Problem(_("nested more than {MAX_DEPTH} levels deep").format(MAX_DEPTH=MAX_DEPTH),
                                        self.at(node.start_mark),
                                        path)])
        if isinstance(node, (MappingNode, SequenceNode)) and node.tag not in _COLLECTION_TAGS:
            self.problems.append(Problem(
                _("the tag {replace!r} is not allowed in a ruleset").format(
                    replace=node.tag.replace('tag:yaml.org,2002:', '!!')),
                self.at(node.start_mark), path))
            return None
        if isinstance(node, MappingNode):
            out = LDict()
            out.pos = self.at(node.start_mark)
            for key_node, value_node in node.value:
                if not isinstance(key_node, ScalarNode):
                    self.problems.append(Problem(_("a key must be a plain name, not a list or mapping"),
                                                 self.at(key_node.start_mark), path))
                    continue
                key = self.scalar(key_node, path)
                if key in out:
                    self.problems.append(Problem(_("the key {key!r} is given twice in this mapping").format(key=key),
                                                 self.at(key_node.start_mark), path + (key,)))
                out[key] = self.build(value_node, path + (key,), depth + 1)
                out.key_pos[key] = self.at(key_node.start_mark)
                out.value_pos[key] = self.value_at(value_node)
            return out
        if isinstance(node, SequenceNode):
            out = LList()
            out.pos = self.at(node.start_mark)
            for i, item in enumerate(node.value):
                out.append(self.build(item, path + (i,), depth + 1))
                out.item_pos.append(self.value_at(item))
            return out
        return self.scalar(node, path)

    def scalar(self, node: ScalarNode, path):
        tag = node.tag
        if tag not in _SAFE_TAGS:
            self.problems.append(Problem(
                (_("YAML reads {tag!r} as a tag; a formula starting with '!' must be quoted (write "
                  "\"{tag}{value}\")").format(tag=node.tag, value=node.value)
                 if node.tag.startswith("!") else
                 _("the tag {replace!r} is not allowed in a ruleset").format(
                    replace=node.tag.replace('tag:yaml.org,2002:', '!!'))),
                self.at(node.start_mark), path))
            return node.value
        try:
            value = self.scalars.construct_object(node)
        except ConstructorError as err:
            self.problems.append(Problem(_("cannot read this value: {problem}").format(problem=err.problem),
                                         self.at(node.start_mark), path))
            return node.value
        except ValueError:      # an integer of thousands of digits: Python refuses to convert it
            value = MAX_NUMBER + 1
        if type(value) is int and not -MAX_NUMBER <= value <= MAX_NUMBER:
            self.problems.append(Problem(_("this number is past the limit of numbers ({MAX_NUMBER:,})").format(
                                             MAX_NUMBER=MAX_NUMBER),
                                         self.at(node.start_mark), path))
            return 0
        if not node.style:  # plain (unquoted) scalars are where YAML surprises people ('' from libyaml)
            text = node.value
            if isinstance(value, bool) and text.lower() not in ("true", "false"):
                self.problems.append(Problem(
                    _("YAML reads {text!r} as {lower}; quote it if you mean the text (\"{text}\"), or "
                      "write {lower}").format(text=text, lower=str(value).lower()), self.at(node.start_mark), path))
            elif isinstance(value, int) and not isinstance(value, bool) and not _PLAIN_INT.match(text):
                self.problems.append(Problem(
                    _("YAML reads {text!r} as the number {value}; quote it (\"{text}\")").format(
                        text=text, value=value),
                    self.at(node.start_mark), path))
            elif isinstance(value, float):
                self.problems.append(Problem(
                    _("{text!r} is a fraction; rulesets use whole numbers (quote it if it is text)").format(
                        text=text),
                    self.at(node.start_mark), path))
            elif not isinstance(value, (str, int, bool)) and value is not None:
                self.problems.append(Problem(
                    _("YAML reads {text!r} as a {name}; quote it").format(text=text, name=type(value).__name__),
                    self.at(node.start_mark), path))
                return text
        if not isinstance(value, (str, int, bool, float)) and value is not None:
            return node.value
        if isinstance(value, str):
            control = control_character(value)
            if control is not None:
                # A text of a ruleset or a sheet reaches the terminal (a title, a say:, a name): an
                # escape sequence in it could clear the screen, retitle the window or write the clipboard.
                self.problems.append(Problem(
                    _("this text holds the control character {control}, which a terminal would obey; "
                      "take it out (a new line and a tab are the only ones a text may hold)").format(
                        control=control),
                    self.at(node.start_mark), path))
                return ""
        return value


def _yaml_problem(filename: str, text: str, err: yaml.MarkedYAMLError) -> Problem:
    mark = err.problem_mark or err.context_mark
    position = Position(filename, mark.line + 1, mark.column + 1) if mark else None
    message = f"YAML: {err.problem or err.context}"
    if err.context and err.problem:
        message = f"YAML: {err.problem} ({err.context})"
    detail = []
    if mark is not None:
        lines = text.splitlines()
        if mark.line < len(lines):
            line = lines[mark.line]
            detail = ["  " + line, "  " + " " * mark.column + "^"]
            # Find the value that starts before the problem: `key: >= 6` or `- !>=10`.
            head = line[: mark.column + 1]
            found = re.search(r"(?:^|:\s|-\s)\s*(\S)[^:]*$", head)
            if found and found.group(1) in _SPECIAL_START:
                start = found.start(1)
                value = line[start:].strip()
                message += _("; a value starting with {start!r} means something else to YAML: quote the formula, "
                             "as in {quoted}").format(start=found.group(1), quoted=f'"{value}"')
                position = Position(filename, mark.line + 1, start + 1)
                detail = ["  " + line, "  " + " " * start + "^"]
            elif "mapping values are not allowed" in (err.problem or ""):
                # `say: Hour {n}: the door` reads as a key inside a value.
                message += _("; a text or formula holding ': ' must be quoted, as in {example}").format(
                    example='say: "Hour {n}: ..."')
    return Problem(message, position, (), detail)


def parse(text: str, filename: str):
    """Parse YAML text (no NUL in it) into LDict/LList/scalars; raise RulesetError listing every problem."""
    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as err:
        raise RulesetError([_yaml_problem(filename, text, err)]) from None
    except yaml.YAMLError as err:
        raise RulesetError([Problem(_("YAML: {err}").format(err=err), Position(filename, 1, 1))]) from None
    except RecursionError:
        raise RulesetError([Problem(_("YAML nested too deeply"), Position(filename, 1, 1))]) from None
    if node is None:
        raise RulesetError([Problem(_("the file is empty: a ruleset is a mapping with at least "
                                      "`ruleset:` and `title:`"), Position(filename, 1, 1))])
    builder = _Builder(filename)
    data = builder.build(node)
    if builder.problems:
        raise RulesetError(builder.problems)
    return data
