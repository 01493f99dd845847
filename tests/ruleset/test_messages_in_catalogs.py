"""Every problem the checker and the loader say goes through the catalogs: a scan of the source of
ruleset_engine/ruleset/ (Python's own ast) finds each place a message is made — a problem reported
(`problem(..)`, `Problem(..)`), an error raised (StepFailed, PairFailed, the dice errors, `_fail`,
`lo.fail`, InputError...), a (message, span) found by a check, a message a `*_problem`/`*_refusal`
function returns — and fails when the message is, or is joined from, a plain string literal or an
f-string rather than `_()`/`ngettext()` (formatted after translating). What the message is made of
besides (a variable, `err.message`, a name) is not the scan's business: those are made, and
scanned, where they are written."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "ruleset_engine" / "ruleset"

# The call that makes a message -> the index of the message among its arguments.
SINKS = {"problem": 0, "Problem": 0, "StepFailed": 0, "PairFailed": 0, "InputError": 0, "DuskError": 0,
         "GameError": 0, "RuleError": 0, "DiceError": 0, "DiceTypeError": 0, "DiceValueError": 0,
         "DiceSyntaxError": 0, "DiceLimitError": 0, "UnknownName": 0, "_fail": 1, "fail": 1, "no_dice": 3,
         "within": 2}
TRANSLATED = {"_", "ngettext", "N_"}
RETURNS = re.compile(r"(problem|refusal|_named|_full|_taken|not_an_instance|no_instance_argument|nothing_offered)$")
WORDS = re.compile(r"[A-Za-z]{2,}")


def _name(call: ast.Call) -> str | None:
    f = call.func
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None


def untranslated(node) -> list[ast.AST]:
    """The literals a message is made of that are not translated: a message is `_()`/`ngettext()`
    (maybe `.format()`ed), a variable, or those joined with + or chosen by `if ... else`."""
    if isinstance(node, ast.Constant):
        return [node] if isinstance(node.value, str) and WORDS.search(node.value) else []
    if isinstance(node, ast.JoinedStr):
        text = "".join(v.value for v in node.values if isinstance(v, ast.Constant))
        return [node] if WORDS.search(text) else []
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return untranslated(node.left) + untranslated(node.right)
    if isinstance(node, ast.IfExp):
        return untranslated(node.body) + untranslated(node.orelse)
    if isinstance(node, ast.Call) and _name(node) in TRANSLATED:
        return []
    if isinstance(node, ast.Call) and _name(node) == "format" and isinstance(node.func, ast.Attribute):
        return untranslated(node.func.value)
    return []


def messages(tree) -> list[ast.AST]:
    """Each message expression of a module."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _name(node) in SINKS and len(node.args) > SINKS[_name(node)]:
            found.append(node.args[SINKS[_name(node)]])
        if isinstance(node, ast.Call) and _name(node) == "append" and len(node.args) == 1 \
                and isinstance(node.args[0], ast.Tuple) and len(node.args[0].elts) == 2:
            found.append(node.args[0].elts[0])          # (message, span) of a check
        if isinstance(node, ast.FunctionDef) and RETURNS.search(node.name):
            found += [r.value for r in ast.walk(node) if isinstance(r, ast.Return) and r.value is not None]
    return found


def scan() -> tuple[int, list[str]]:
    seen, bad = 0, []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for message in messages(tree):
            seen += 1
            for literal in untranslated(message):
                bad.append(f"{path.relative_to(ROOT)}:{literal.lineno}: {ast.unparse(literal)[:100]}")
    return seen, bad


def test_every_message_of_the_checker_and_the_loader_is_translated():
    seen, bad = scan()
    assert seen > 250                    # the scan finds the messages (about 300 places)
    assert not bad, f"{len(bad)} message(s) not through the catalogs:\n" + "\n".join(bad)


def test_the_scan_finds_a_message_left_in_english():
    """The scan itself: each way of leaving a message in English is found; each translated one is not."""
    source = '''
def check(c, name, path):
    c.problem(f"unknown thing {name!r}", path)
    c.problem("a plain sentence", path)
    c.problem(_("translated {name}").format(name=name) + " (an English tail)", path)
    c.problem(_("a") if name else f"not translated {name}", path)
    raise StepFailed("cannot do it")
    found.append((f"bad {name}", span))
    c.problem(_("fine {name}").format(name=name), path)
    c.problem(ngettext("{n} thing", "{n} things", 2).format(n=2) + hint, path)
    c.problem(message, path)
    c.problem("", path)

def name_problem(name):
    return f"{name} is wrong"
'''
    tree = ast.parse(source)
    found = [ast.unparse(lit) for message in messages(tree) for lit in untranslated(message)]
    assert sorted(found) == sorted(["f'unknown thing {name!r}'", "'a plain sentence'", "' (an English tail)'",
                                    "f'not translated {name}'", "'cannot do it'", "f'bad {name}'",
                                    "f'{name} is wrong'"])
