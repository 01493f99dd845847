"""The `dusk` command in the table's language: results by their words (`results:`), the help and
argparse's own errors, and the numbers of the analysis reports as the language writes them, while
`--json` keeps its English keys, the results' names and plain numbers.

Expected texts come from the catalogs (locale/*/LC_MESSAGES/dusk.po), the rulesets' `results:` and
CLDR's number patterns (Spanish: decimal comma, a space before %)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap

import pytest

from ruleset_engine.ruleset import RulesetError, load
from ruleset_engine.ruleset.results import result_words


def dusk(*argv, lang_env: str = "en", code: int = 0) -> subprocess.CompletedProcess:
    env = dict(os.environ, DUSK_LANG=lang_env, NO_COLOR="1", COLUMNS="100")
    out = subprocess.run([sys.executable, "-m", "ruleset_engine", *argv], capture_output=True, text=True,
                         timeout=300, env=env)
    assert out.returncode == code, out.stdout + out.stderr
    # CLDR puts a no-break space before a Spanish % (99,00\xa0%): read here as a space
    return subprocess.CompletedProcess(out.args, out.returncode, out.stdout.replace("\xa0", " "),
                                       out.stderr.replace("\xa0", " "))


# ---- results: the words of each result, per language ---------------------------------------------

def test_a_result_reads_in_the_table_s_language_else_english_else_its_name():
    attack = load("attack-of-the-vampires").results
    assert result_words(attack, "lost", "zh") == "吸血鬼获胜"
    assert result_words(attack, "lost", "es") == "ganan los vampiros"
    assert result_words(attack, "lost", "zh-TW") == "吸血鬼获胜"          # the base language's
    assert result_words(attack, "lost", "en") == "lost"                   # no English words: the name
    assert result_words(attack, "lost", "fr") == "lost"                   # nor French
    assert result_words(attack, "nobody", "zh") == "nobody"               # a result without words


def write(tmp_path, text: str) -> str:
    path = tmp_path / "r.yaml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return str(path)


RULESET = """\
    ruleset: r
    title: R
    state: {n: 0}
    loop: [{name: round, max: 3, steps: [{set: {n: n + 1}}]}]
    end: [{when: n >= 2, result: done}]
    results:
"""


def test_results_names_a_result_the_ruleset_has(tmp_path):
    with pytest.raises(RulesetError) as err:
        load(write(tmp_path, RULESET + "      dnoe: {es: hecho}\n"))
    message = str(err.value)
    assert "results: 'dnoe' is no result of this ruleset" in message and "did you mean 'done'?" in message
    assert "r.yaml:7:3" in message                      # the key's own place


def test_a_result_s_words_are_shown_as_written(tmp_path):
    with pytest.raises(RulesetError) as err:
        load(write(tmp_path, RULESET + "      done: {es: \"hecho en {n}\"}\n"))
    assert "results: the words of 'done' are shown as written: no placeholders in braces" in str(err.value)
    assert load(write(tmp_path, RULESET + "      done: {es: hecho}\n")).results["done"].texts == {"es": "hecho"}


def test_the_table_ends_in_the_result_s_words(tmp_path):
    env = dict(os.environ, DUSK_DATA_DIR=str(tmp_path), NO_COLOR="1")
    lines = {}
    for lang in ("en", "es", "zh"):
        out = subprocess.run([sys.executable, "-m", "ruleset_engine", "play", "attack-of-the-vampires", "--seed", "5",
                              "--lang", lang, "-c", "auto 80; status"], capture_output=True, text=True,
                             timeout=300, env=env)
        lines[lang] = out.stdout
    assert "The game is over: lost." in lines["en"] and "| over: lost" in lines["en"]
    assert "La partida ha terminado: ganan los vampiros." in lines["es"]
    assert "游戏结束：吸血鬼获胜。" in lines["zh"]


def test_simulate_reports_results_in_their_words_and_json_keeps_the_names():
    spanish = dusk("simulate", "attack-of-the-vampires", "-n", "100", "--lang", "es").stdout
    # Seed 0's hundred games: 99 lost, 1 won (the same games as in English; only the words change).
    assert re.search(r"^  ganan los vampiros +99 +99,00 %  IC 95 % 94,55 % \.\. 99,82 %$", spanish, re.M), spanish
    assert re.search(r"^  gana el cazador +1 +1,00 %", spanish, re.M)
    data = json.loads(dusk("simulate", "attack-of-the-vampires", "-n", "100", "--lang", "es", "--json").stdout)
    assert data["results"]["lost"]["count"] == 99 and data["results"]["lost"]["rate"] == 0.99
    english = dusk("simulate", "attack-of-the-vampires", "-n", "100").stdout
    assert re.search(r"^  lost +99 +99\.00%  95% CI 94\.55% \.\. 99\.82%$", english, re.M), english


def test_compare_in_spanish_writes_decimal_commas_and_the_results_words():
    out = dusk("compare", "attack-of-the-vampires", "attack-of-the-vampires", "-n", "50", "--lang", "es").stdout
    # The same ruleset twice: every difference is 0, written as Spanish writes it.
    assert re.search(r"^  ganan los vampiros +92,00 % +92,00 % +\+0,00 % +0,00 % \.\. 0,00 % +no significativo$",
                     out, re.M), out
    assert re.search(r"^duración +47,8 +47,8 +\+0,0", out, re.M)


# ---- prob: percentages as the language writes them -------------------------------------------------

def test_prob_writes_percentages_as_the_language_does():
    # 2d6: P(=7) = 6/36 = 16.67%, P(>=2) = 100%, P(=2) = 1/36 = 2.78%; mean 7, sd sqrt(35/6) = 2.415.
    english = dusk("prob", "sum(2d6)").stdout
    spanish = dusk("prob", "sum(2d6)", "--lang", "es").stdout
    assert re.search(r"^ +7 +16\.67% +58\.33% +58\.33%", english, re.M), english
    assert re.search(r"^ +7 +16,67 % +58,33 % +58,33 %", spanish, re.M), spanish
    assert re.search(r"^ +2 +2,78 % +100 % +2,78 %", spanish, re.M)
    assert "media 7, desviación típica 2,415" in spanish and "mean 7, standard deviation 2.415" in english
    data = json.loads(dusk("prob", "sum(2d6)", "--lang", "es", "--json").stdout)
    assert "16,67" not in json.dumps(data)                 # --json: plain numbers


# ---- the help and argparse's own words ---------------------------------------------------------------

def test_help_in_chinese_and_spanish():
    chinese = dusk("roll", "--help", "--lang", "zh").stdout
    assert chinese.startswith("用法：dusk roll ") and "掷一个骰子语言的表达式，显示每颗骰子。" in chinese
    assert "显示此帮助信息并退出" in chinese and "选项" in chinese and "位置参数" in chinese
    spanish = dusk("--help", lang_env="es").stdout            # DUSK_LANG chooses too
    assert spanish.startswith("uso: dusk ") and "muestra la versión de dusk y sale" in spanish
    assert "tira una expresión de dados, cada dado a la vista" in spanish
    assert dusk("--lang", "zh", "--help").stdout.startswith("用法：dusk ")       # --lang before the command


def test_argparse_errors_in_the_table_s_language():
    missing = dusk("roll", "--lang", "zh", code=2).stderr
    assert missing.rstrip().endswith("dusk roll：错误：缺少以下参数：EXPR")
    choice = dusk("simulate", "attack-of-the-vampires", "-n", "1", "--backend", "fast", "--lang", "es", code=2).stderr
    assert "argumento --backend: opción no válida: 'fast' (elige entre 'auto', 'lockstep', 'untraced')" in choice
    assert "dusk simulate: error:" in choice
    english = dusk("roll", code=2).stderr
    assert english.rstrip().endswith("dusk roll: error: the following arguments are required: EXPR")


# ---- the analysis commands' refusals, in the language ---------------------------------------------

@pytest.mark.parametrize("argv, lang, said", [
    (["prob", "--samples", "0", "1d6"], "es", "dusk prob: --samples admite de 1 a 1.000.000, no 0"),
    (["prob", "--grid", "x", "1d6"], "zh", "dusk prob：--grid 接受 NAME=a..b，例如 N=1..10，而不是 'x'"),
    (["simulate", "noche-de-los-vampiros", "-n", "5", "--sweep", "hours"], "zh",
     "dusk simulate：--sweep 接受 PARAM=a..b 或 PARAM=a,b,c，而不是 'hours'"),
])
def test_an_analysis_refusal_is_said_in_the_language(argv, lang, said):
    out = dusk(*argv, "--lang", lang, code=2)
    assert out.stderr.splitlines()[-1] == said
    assert "Traceback" not in out.stderr


# ---- dusk check --playouts: its findings, in the language -----------------------------------------

def test_playouts_findings_are_said_in_chinese():
    out = dusk("check", "tests/analysis/rulesets/broken-in-play.yaml", "--playouts", "20", "--lang", "zh", code=1)
    lines = out.stdout.splitlines()
    assert lines[1] == "tests/analysis/rulesets/broken-in-play.yaml：20 局随机对局（随机回答），种子 0：won 1"
    assert "tests/analysis/rulesets/broken-in-play.yaml:34:13: 从未到达: then: 分支，共 20 局" in lines
    assert "tests/analysis/rulesets/broken-in-play.yaml:44:5: 结局从未出现: 'jackpot'，共 20 局" in lines
    assert lines[-1] == "1 个问题，4 个警告"
    assert "never" not in out.stdout
