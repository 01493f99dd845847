"""A broken ruleset never gives a traceback: every problem, located, in words."""

import subprocess
import sys
import textwrap

import pytest

from ruleset_engine.ruleset import RulesetError, load

GOOD_HEAD = "ruleset: t\ntitle: T\n"


@pytest.fixture(autouse=True)
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)   # messages name files as given: r.yaml


def problems_of(tmp_path, text, name="r.yaml"):
    (tmp_path / name).write_text(textwrap.dedent(text), encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        load(name)
    return [str(p) for p in info.value.problems]


def one(tmp_path, text, **kw):
    found = problems_of(tmp_path, text, **kw)
    assert len(found) == 1, found
    return found[0]


def test_missing_keys_and_wrong_types_are_all_reported(tmp_path):
    found = problems_of(tmp_path, """\
        ruleset: t
        params:
          n: {type: integer}
          m: {type: number, default: 1}
        state:
          x: [1, two]
        """)
    text = "\n".join(found)
    assert "r.yaml:1:1: missing key 'title'" in text
    assert "r.yaml:3:6: missing key 'default' (at params.n)" in text
    assert "r.yaml:4:13: expected one of integer, boolean, choice, dice, text, not the text 'number' (at params.m.type)" in text


def test_unknown_key_points_at_the_key_with_a_suggestion(tmp_path):
    message = one(tmp_path, GOOD_HEAD + "parms: {}\n")
    assert message == "r.yaml:3:1: unknown key 'parms' (did you mean 'params'?) (at parms)"


def test_yaml_syntax_error_has_its_line(tmp_path):
    message = one(tmp_path, GOOD_HEAD + "state:\n  x: [1, 2\n")
    assert message.startswith("r.yaml:5:1: YAML:")


def test_unquoted_formula_is_told_to_quote(tmp_path):
    message = one(tmp_path, GOOD_HEAD + "state:\n  x: 1\nactions:\n  a:\n    steps:\n      - if: >= 6\n        then: []\n")
    assert "r.yaml:8:13:" in message and "quote the formula" in message and '">= 6"' in message
    message = one(tmp_path, GOOD_HEAD + "state:\n  x: yes\n")
    assert message.startswith("r.yaml:4:6: YAML reads 'yes' as true")


def test_formula_that_does_not_parse_has_a_caret_at_its_column(tmp_path):
    message = one(tmp_path, GOOD_HEAD + "state:\n  x: 1\nreport:\n  r: \"x +* 2\"\n")
    lines = message.splitlines()
    assert lines[0] == "r.yaml:6:10: unexpected '*' after '+': expected a value (at report.r)"
    assert lines[1:] == ["  x +* 2", "     ^"]


def test_unknown_names_are_named(tmp_path):
    message = one(tmp_path, GOOD_HEAD + "state:\n  life: 10\nreport:\n  r: lif + 1\n")
    assert message.startswith("r.yaml:6:6: unknown name 'lif' (did you mean 'life'?) (at report.r)")
    message = one(tmp_path, GOOD_HEAD + "params:\n  d: {type: integer, default: 1}\nreport:\n  r: params.e\n")
    assert "unknown param 'e'" in message


def test_call_to_a_missing_procedure(tmp_path):
    message = one(tmp_path, GOOD_HEAD + "actions:\n  a:\n    steps:\n      - call: atack\nprocedures:\n  attack: {steps: []}\n")
    assert message == "r.yaml:6:15: there is no procedure 'atack' (did you mean 'attack'?) (at actions.a.steps[0].call)"


def test_repeat_without_a_bound(tmp_path):
    message = one(tmp_path, GOOD_HEAD + "state: {x: 0}\nactions:\n  a:\n    steps:\n      - repeat: {while: x < 3}\n        do: []\n")
    assert "repeat with while: needs max:" in message and message.startswith("r.yaml:7:17:")


def test_loop_level_without_a_bound(tmp_path):
    message = one(tmp_path, GOOD_HEAD + "loop:\n  - name: round\n    steps: []\n")
    assert "has neither times: nor max:" in message


def test_table_rows_that_overlap_or_leave_gaps(tmp_path):
    found = problems_of(tmp_path, GOOD_HEAD + textwrap.dedent("""\
        tables:
          t:
            key: n
            rows:
              - {n: "1..3", v: a}
              - {n: "3..4", v: b}
              - {n: 7, v: c}
        """))
    # rows count from 1, as a designer counts them: the first two rows; the place is the second row's
    assert any(p.startswith("r.yaml:8:9: table 't': rows 1 and 2 overlap at 3..3") for p in found), found
    # the message names the rows (from 1): the path after it does not name one again from 0
    overlap, = [p for p in found if "overlap" in p]
    assert overlap.endswith("(at tables.t.rows)") and "rows[" not in overlap, overlap
    assert any("no row covers 5..6" in p for p in found)
    assert all(p.startswith("r.yaml:") for p in found)


def test_unreachable_step(tmp_path):
    message = one(tmp_path, GOOD_HEAD + "actions:\n  a:\n    steps:\n      - return: 1\n      - say: never\n")
    assert message == "r.yaml:7:9: this step can never run: the return step before it always stops this block (at actions.a.steps[1])"


def test_step_with_two_kinds_or_none(tmp_path):
    found = problems_of(tmp_path, GOOD_HEAD + "actions:\n  a:\n    steps:\n      - {say: hi, return: 1}\n      - {then: []}\n")
    assert any("r.yaml:6:9: one step, one kind: this step has 'return' and 'say'" in p for p in found), found
    assert any("r.yaml:7:9: a step needs one of" in p for p in found), found
    message = one(tmp_path, GOOD_HEAD + "actions:\n  a:\n    steps:\n      - {say: hi, then: []}\n")
    assert "then: does not go with say: (a say step takes say)" in message


def test_extends_cycle_and_missing_parent(tmp_path):
    (tmp_path / "a.yaml").write_text("ruleset: a\ntitle: A\nextends: b.yaml\n")
    (tmp_path / "b.yaml").write_text("ruleset: b\ntitle: B\nextends: a.yaml\n")
    with pytest.raises(RulesetError) as info:
        load("a.yaml")
    assert "extends: goes round in a circle: a.yaml -> b.yaml -> a.yaml" in str(info.value)
    message = one(tmp_path, GOOD_HEAD + "extends: no-such-game\n")
    assert message.startswith("r.yaml:3:10: extends: no bundled ruleset 'no-such-game'")


def test_files_that_are_not_rulesets(tmp_path):
    (tmp_path / "bin.yaml").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    with pytest.raises(RulesetError, match="this is not UTF-8 text"):
        load(str(tmp_path / "bin.yaml"))
    assert "the file is empty" in one(tmp_path, "")
    assert "a ruleset is a mapping of keys" in one(tmp_path, "- 1\n- 2\n")
    assert "a ruleset is a mapping of keys" in one(tmp_path, "just words\n")
    assert "cannot read the file" in one(tmp_path, "", name="x.yaml").replace("the file is empty", "cannot read the file")


def test_a_missing_file(tmp_path):
    with pytest.raises(RulesetError, match="cannot read the file: No such file"):
        load(str(tmp_path / "nope.yaml"))


def test_a_50_mb_file_is_refused_before_reading(tmp_path):
    path = tmp_path / "big.yaml"
    with open(path, "wb") as handle:
        handle.truncate(50 * 1024 * 1024)
    with pytest.raises(RulesetError, match=r"the file is 50.0 MB; a ruleset over 5 MB is refused"):
        load(str(path))


def test_an_alias_bomb_is_refused(tmp_path):
    lines = ["a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1]"]
    for prev, name in zip("abcdefgh", "bcdefghi"):
        lines.append(f"{name}: &{name} [*{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}]")
    message = one(tmp_path, "\n".join(lines) + "\n")
    assert "billion laughs" in message


def test_no_python_tags(tmp_path):
    message = one(tmp_path, GOOD_HEAD + "state:\n  x: !!python/object/apply:os.system [echo]\n")
    assert "the tag '!!python/object/apply:os.system' is not allowed" in message


def test_dusk_check_exits_1_and_lists_every_problem(tmp_path):
    path = tmp_path / "r.yaml"
    path.write_text(GOOD_HEAD + "state:\n  life: 10\nreport:\n  a: lif\n  b: \"1 +\"\n")
    out = subprocess.run([sys.executable, "-m", "ruleset_engine", "check", str(path)], capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 1
    assert "unknown name 'lif'" in out.stdout and "expected a value after '+'" in out.stdout
    assert out.stdout.rstrip().endswith("2 problems") and "Traceback" not in out.stdout + out.stderr


def test_schema_problems_and_meaning_problems_come_out_together(tmp_path):
    found = problems_of(tmp_path, """\
        ruleset: t
        state: {life: 10}
        params:
          n: {type: integer}
        actions:
          a: {steps: [{say: "{lif}"}]}
          b: {steps: [{repeat: {while: "life > 0"}, do: []}], color: red}
        """)
    text = "\\n".join(found)
    assert "missing key 'title'" in text
    assert "missing key 'default' (at params.n)" in text
    assert "unknown name 'lif' (did you mean 'life'?)" in text          # checked though the file has schema errors
    # Action b has a key the schema refused; its steps are still checked, and nothing is said twice.
    assert text.count("unknown key 'color'") == 1 and text.count("needs max:") == 1


def test_every_problem_of_a_file_in_one_pass(tmp_path):
    # Ten mistakes of ten kinds, one run: a key the schema refuses hides nothing else.
    found = problems_of(tmp_path, """\
        ruleset: nine
        title: Nine
        stat: {x: 1}
        params:
          n: {type: integer, default: 30, max: 10}
        state:
          x: 0
          y: "1d6 +"
        entities:
          e:
            fields: {a: "zz + 1"}
        tables:
          t:
            key: k
            rows:
              - {k: "1..3", v: 1}
              - {k: "2..4", v: 2}
        actions:
          go:
            steps:
              - set: {x: "x + qq"}
              - sey: "hello"
              - call: nowhere
              - say: "broken {x"
              - if: "x >"
                then: [{set: {x: 1}}]
        """)
    expected = ["unknown key 'stat'", "above the maximum 10", "expected a value after '+'", "unknown name 'zz'",
                "rows 1 and 2 overlap", "unknown name 'qq'", "unknown key 'sey'", "no procedure 'nowhere'",
                "'{' is never closed", "expected a value after '>'"]
    for message in expected:
        assert sum(message in p for p in found) == 1, (message, found)
    assert len(found) == len(expected), found


def test_a_local_may_not_hide_a_state_variable(tmp_path):
    message = one(tmp_path, GOOD_HEAD + "state:\n  horde: 0\nactions:\n  a:\n    steps:\n"
                  "      - roll: {horde: \"horde + 1d2\"}\n")
    assert message.startswith("r.yaml:8:16: roll: 'horde' is a state variable; a local of that name would hide it")
    assert "set: {horde: ...}" in message
    message = one(tmp_path, GOOD_HEAD + "entities:\n  hero:\n    fields: {life: 3}\nactions:\n  a:\n"
                  "    steps:\n      - let: {hero: 2}\n")
    assert "let: 'hero' is an entity" in message
    # Every binder: call as:, for_each, repeat as:, ask as:, lookup as:, a procedure's parameter.
    found = problems_of(tmp_path, GOOD_HEAD + """\
state: {score: 0, i: 0, hp: 0}
procedures:
  p:
    params: [score]
    steps:
      - return: 1
actions:
  a:
    steps:
      - call: p
        with: {score: 1}
        as: score
      - for_each: hp
        in: "[1, 2]"
        do: []
      - repeat: {times: 2}
        as: i
        do: []
""")
    assert [p.split(": ", 2)[1] for p in found] == ["a procedure's parameter", "call", "for_each", "repeat"]
    assert all("is a state variable; a local of that name would hide it" in p for p in found)


def test_yaml_that_cut_a_text_says_to_quote_it(tmp_path):
    message = one(tmp_path, GOOD_HEAD + "setup:\n  - say: Hour {n}: the door\n")
    assert message.startswith("r.yaml:4:18: YAML: mapping values are not allowed")
    assert "holding ': ' must be quoted" in message
    message = one(tmp_path, GOOD_HEAD + "params:\n  n: {type: integer, default: 1, doc: Once a night, or never.}\n")
    assert "unknown key 'or never.'" in message and "a text with a comma inside { } must be quoted" in message


def test_one_wrong_formula_is_one_problem_not_a_cascade(tmp_path):
    # `hits` would read as true/false later on: its readers are not reported again.
    from ruleset_engine.analysis.check import check

    (tmp_path / "r.yaml").write_text(GOOD_HEAD + "state:\n  horde: 3\nactions:\n  a:\n    steps:\n"
                                     "      - roll: {d: 4d6}\n      - let: {hits: \"d >= 5\"}\n"
                                     "      - let: {through: \"max(0, horde - hits)\"}\n"
                                     "      - if: hits == 0\n        then: []\n")
    _, found = check("r.yaml")
    assert len(found) == 1, [str(p) for p in found]
    assert str(found[0]).startswith("r.yaml:9:22: a pool of dice compared with a number is ambiguous")


def test_end_naming_no_level_beside_a_level_without_a_name(tmp_path):
    # issue 24 (10): the level without name: was listed as None, and the message about end: crashed.
    found = problems_of(tmp_path, GOOD_HEAD + "loop:\n  - times: 2\n    begin:\n      - end: nowhere\n"
                        "  - name: b\n    times: 3\n    steps:\n      - end: nowhere\n")
    assert found == ["r.yaml:4:5: missing key 'name' (at loop[0])",
                     "r.yaml:10:14: end: takes game or a loop level (b), not 'nowhere' (at loop[1].steps[0].end)"]
    found = problems_of(tmp_path, GOOD_HEAD + "loop:\n  - times: 2\n    steps: []\n"
                        "actions:\n  x:\n    steps:\n      - end: nowhere\n")
    assert found == ["r.yaml:4:5: missing key 'name' (at loop[0])",
                     "r.yaml:9:14: end: takes game or a loop level (this ruleset has no named loop level), "
                     "not 'nowhere' (at actions.x.steps[0].end)"]


@pytest.mark.parametrize("text, named", [
    (r'"\e[2J\e]0;owned\a"', "U+001B (ESC)"),                 # clear the screen, retitle the terminal
    (r'"\e]52;c;aGVsbG8=\a"', "U+001B (ESC)"),                # OSC 52: write the clipboard
    (r'"a\x9b2Jb"', "U+009B (CSI)"),                         # the one-byte C1 form
    (r'"Bob\u202Eevil"', "U+202E"),                          # a line shown backwards
    (r'"x\ry"', "U+000D (CR)"),
])
def test_a_text_a_terminal_would_obey_is_refused_at_load(tmp_path, text, named):
    # issue 24 (8): a title (or any text, key or sheet) with an escape sequence was printed raw.
    message = one(tmp_path, f"ruleset: t\ntitle: {text}\n")
    assert message == (f"r.yaml:2:8: this text holds the control character {named}, which a terminal would "
                       "obey; take it out (a new line and a tab are the only ones a text may hold) (at title)")
    message = one(tmp_path, GOOD_HEAD + f"state:\n  {text}: 1\n")
    assert named in message and message.startswith("r.yaml:4:3:")
    (tmp_path / "ok.yaml").write_text(GOOD_HEAD.replace("title: T", 'title: "a\\tb\\nc"'))
    assert load("ok.yaml").title == "a\tb\nc"                 # a tab and a new line are text
