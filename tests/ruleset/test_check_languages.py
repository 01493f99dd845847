"""`dusk check` in the table's language: the checker's and the loader's problems (ruleset/) come out in
Chinese and Spanish from the catalogs (locale/*/LC_MESSAGES/dusk.po), each at the same place as in
English (file:line:col, the formula and its caret unchanged), with no English sentence of dusk's own
left. One ruleset per kind of problem: a bad key (the schema), a name a formula does not know, a step
of two kinds, a sheet's field out of its bounds, a chapter outside the ruleset's folder, a table with
a gap. Expected words are the catalogs' translations of each message."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap

import pytest

LOOP = "loop: [{name: round, max: 3, steps: [{set: {n: n + 1}}]}]\n"

CASES = {
    "bad-key": ({"r.yaml": "ruleset: r\ntitle: R\nstate: {n: 0}\n"
                           "loop: [{name: round, max: 3, stepz: [{set: {n: n + 1}}]}]\n"},
                "r.yaml:4:30: ", ["unknown key 'stepz'", "(did you mean 'steps'?)"],
                {"zh": ["未知的键 'stepz'（你是想输入 'steps' 吗？）", "（位于 loop[0].stepz）"],
                 "es": ["clave desconocida 'stepz' (¿querías decir 'steps'?)", "(en loop[0].stepz)"]}),
    "unknown-name": ({"r.yaml": "ruleset: r\ntitle: R\nstate: {n: 0}\n"
                                "loop: [{name: round, max: 3, steps: [{set: {n: m + 1}}]}]\n"},
                     "r.yaml:4:48: ", ["unknown name 'm'"],
                     {"zh": ["未知的名字 'm'", "\n  m + 1\n  ^\n"],
                      "es": ["nombre desconocido 'm'", "\n  m + 1\n  ^\n"]}),
    "two-kinds": ({"r.yaml": "ruleset: r\ntitle: R\nstate: {n: 0}\nloop:\n  - name: round\n    max: 3\n"
                             "    steps:\n      - {set: {n: n + 1}, say: hello}\n"},
                  "r.yaml:8:9: ", ["one step, one kind", "split it into steps"],
                  {"zh": ["一个步骤只有一种：这个步骤有 'set'和'say'；请拆成多个步骤"],
                   "es": ["un paso, una clase: este paso tiene 'set' y 'say'; divídelo en pasos"]}),
    "sheet": ({"r.yaml": "ruleset: r\ntitle: R\nentities:\n  hunter:\n    count: 0\n    fields: {grit: 1}\n"
                        "    sheet:\n      files: [sheets/ana.yaml]\n      fields:\n        grit: {min: 1, max: 5}\n"
                        "state: {n: 0}\n" + LOOP,
               "sheets/ana.yaml": "name: Ana\ngrit: 7\n"},
              os.path.join("sheets", "ana.yaml") + ":2:7: ", ["grit must be 1..5"],
              {"zh": ["grit 必须是 1..5"], "es": ["grit debe ser 1..5"]}),
    "include": ({"game/r.yaml": "ruleset: r\ntitle: R\ninclude: [../outside.yaml]\nstate: {n: 0}\n" + LOOP,
                 "outside.yaml": "state: {m: 0}\n"},
                os.path.join("game", "r.yaml") + ":3:11: ", ["is outside the folder of the ruleset that includes it"],
                {"zh": ["include：'../outside.yaml' 在包含它的规则集所在文件夹之外"],
                 "es": ["include: '../outside.yaml' está fuera de la carpeta del reglamento que lo incluye"]}),
    "table-gap": ({"r.yaml": "ruleset: r\ntitle: R\ntables:\n  hits:\n    key: n\n    rows:\n"
                             "      - {n: 1..3, hit: 1}\n      - {n: 5..6, hit: 2}\nstate: {n: 0}\n" + LOOP},
                  "r.yaml:8:9: ", ["no row covers 4..4", "add a row"],
                  {"zh": ["表格 'hits'：没有行覆盖 4..4（添加一行、一个 default:，或设置 gaps: true）"],
                   "es": ["tabla 'hits': ninguna fila cubre 4..4 (añade una fila, un default:, o pon gaps: true)"]}),
}

# Words of an English sentence of dusk's own (a ruleset's identifiers, in quotes, are taken out first).
ENGLISH = re.compile(r"\b(the|is|of|not|and|with|this|has|at|problems?)\b")


def check(tmp_path, files: dict, lang: str) -> str:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    main = next(name for name in files if name.endswith("r.yaml"))
    env = dict(os.environ, NO_COLOR="1", COLUMNS="200")
    env.pop("DUSK_LANG", None)
    out = subprocess.run([sys.executable, "-m", "ruleset_engine", "check", str(tmp_path / main), "--lang", lang],
                         capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path)
    assert out.returncode == 1, out.stdout + out.stderr
    assert "Traceback" not in out.stderr
    return out.stdout + out.stderr


def sentences(output: str, tmp_path) -> str:
    """The messages alone: no place, no quoted identifier, no formula line or caret."""
    kept = []
    for line in output.splitlines():
        if line.startswith("  "):
            continue                               # the formula and its caret
        line = line.replace(str(tmp_path), "")
        line = re.sub(r"^[^ ]*:\d+:\d+: ", "", line)
        kept.append(re.sub(r"'[^']*'", "", line))
    return "\n".join(kept)


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_problem_is_said_in_the_table_s_language_at_the_same_place(tmp_path, case):
    files, place, english, words = CASES[case]
    said = check(tmp_path, files, "en")
    assert str(tmp_path / place) in said and all(e in said for e in english), said
    for lang in ("zh", "es"):
        out = check(tmp_path, files, lang)
        assert str(tmp_path / place) in out, out                # the same file:line:col
        for expected in words[lang]:
            assert expected in out, (lang, out)
        for e in english:
            assert e not in out, (lang, out)
        assert not ENGLISH.search(sentences(out, tmp_path)), (lang, sentences(out, tmp_path))
        # the formula and its caret are the same lines in every language
        assert [l for l in out.splitlines() if l.startswith("  ")] == \
            [l for l in said.splitlines() if l.startswith("  ")]


def test_the_count_line_and_the_english_default_keep_their_words(tmp_path):
    files = CASES["bad-key"][0]
    english = check(tmp_path, files, "en")
    assert english.rstrip().endswith("2 problems")
    assert check(tmp_path, files, "zh").rstrip().endswith("2 个问题")
    assert check(tmp_path, files, "es").rstrip().endswith("2 problemas")
