"""The dice language's errors in the table's language: a parse error, a limit refused before any die
is rolled and an error met while the dice roll, each said in Chinese and in Spanish, with the
expression and its caret as in English, and no English word of the message left.

Expected texts are the catalogs' translations (locale/*/LC_MESSAGES/dusk.po), with the numbers as
CLDR writes them (Spanish groups thousands with a point); the caret's place is the English one."""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from contextlib import contextmanager

import pytest

from ruleset_engine import dice, i18n
from ruleset_engine.dice.expression import roll


@contextmanager
def speaking(lang: str):
    i18n.set_language(lang)
    try:
        yield
    finally:
        i18n.set_language("en")


def refusal(text: str, lang: str, env=None) -> dice.DiceError:
    with speaking(lang):
        with pytest.raises(dice.DiceError) as info:
            roll(text, rng=random.Random(7), env=env)
        return info.value, str(info.value)


def latin_words(message: str) -> set[str]:
    return set(re.findall(r"[A-Za-z][A-Za-z_]*", message))


CASES = [
    # (expression, kind, Chinese, Spanish, the caret line, the notation the message may say)
    ("3d6kh-1", dice.DiceSyntaxError,
     "kh 之后的数量是整数：请写 kh1（一颗骰子），或在 '-' 前加一个空格，表示从保留的骰子中减去",
     "la cantidad después de kh es un número entero: escribe kh1 (un dado), o pon un espacio antes de '-' para "
     "restar de los dados conservados",
     "       ^", {"kh", "kh1"}),
    ("1000000d6", dice.DiceLimitError,
     "一个骰池里的骰子太多：1,000,000（上限为 1,000）",
     "demasiados dados en una reserva: 1.000.000 (el límite es 1.000)",
     "  ^~~~~~~", set()),
    ("1d6 // (1d1 - 1)", dice.DiceValueError, "除以零", "división por cero", "         ^~~~~~~~~", set()),
    ("highest(0d6)", dice.DiceValueError,
     "空骰池的 highest(0d6)：请给出默认值，例如 highest(0d6, default=0)",
     "highest(0d6) de una reserva vacía: da un valor por defecto, como en highest(0d6, default=0)",
     "  ^~~~~~~~~~~~", {"highest", "d", "default"}),
    ("highest(1, 2, 3, 4)", dice.DiceTypeError,
     "highest(..) 需要 1 到 2 个参数，而不是 4", "highest(..) lleva de 1 a 2 argumentos, no 4",
     "  ^~~~~~~~~~~~~~~~~~~", {"highest"}),
]


@pytest.mark.parametrize("text, kind, zh, es, caret, notation", CASES)
@pytest.mark.parametrize("lang", ["zh", "es"])
def test_an_error_of_the_dice_language_is_said_in_the_table_s_language(text, kind, zh, es, caret, notation, lang):
    err, shown = refusal(text, lang)
    message, line, under = shown.splitlines()
    assert isinstance(err, kind)
    assert message == {"zh": zh, "es": es}[lang]
    assert (line, under) == ("  " + text, caret)          # the expression and its caret stay as they are
    _, english = refusal(text, "en")
    assert english.splitlines()[1:] == [line, under]       # the caret is where English puts it
    if lang == "zh":                                       # no English word: only the notation is Latin
        assert latin_words(message) <= notation, latin_words(message) - notation


def test_a_pool_compared_with_a_number_at_run_time_names_both_readings_in_chinese():
    # `p` is known to be a pool only when it runs: the refusal is met while rolling, not while reading.
    _, shown = refusal("p > 3", "zh", env={"p": (1, 5, 6)})
    assert shown.splitlines()[0] == "骰池与数字比较有歧义：要数出满足条件的骰子数，请写 count(p, > 3)；要比较总和，请写 sum(p) > 3"
    assert not latin_words(shown.splitlines()[0]) - {"count", "sum", "p"}


def test_the_kind_of_a_value_is_said_in_the_language_too():
    _, shown = refusal("sum(3)", "es")
    assert shown.splitlines()[0] == ("sum(..) necesita una reserva de dados (como 5d10, [1, 2, 3] o un nombre que "
                                     "guarde una), no número")
    _, shown = refusal("sum(3)", "zh")
    assert shown.splitlines()[0] == "sum(..) 需要骰池（例如 5d10、[1, 2, 3] 或存放骰池的名字），而不是数字"


def test_english_stays_the_default_language():
    _, shown = refusal("1000000d6", "en")
    assert shown.splitlines()[0] == "too many dice in one pool: 1,000,000 (the limit is 1,000)"
    _, shown = refusal("3d6kh-1", "en")
    assert shown.splitlines()[0] == ("a count after kh is a whole number: write kh1 (one die), or put a space before "
                                     "'-' to subtract from the kept dice")


@pytest.mark.parametrize("argv, lang, first", [
    (["prob", "--lang", "es", "3d"], "es", "dusk prob: se esperaba un número después de 'd'"),
    (["roll", "--lang", "zh", "2d6=7"], "zh", "dusk roll：单独的 '=' 不做比较，而且在骰子之后有两种读法：要数出多少颗骰子显示 7，"
                                             "请写 count(2d6, == 7)（Foundry 记法为 2d6cs=7）；要比较总和，请写 sum(2d6) == 7"),
    (["roll", "--lang", "es", "1d6 // (1d1 - 1)"], "es", "dusk roll: división por cero"),
])
def test_the_command_says_a_dice_error_in_its_language_with_the_caret(argv, lang, first):
    env = dict(os.environ, NO_COLOR="1")
    env.pop("DUSK_LANG", None)
    out = subprocess.run([sys.executable, "-m", "ruleset_engine", *argv], capture_output=True, text=True,
                         timeout=300, env=env)
    assert out.returncode != 0 and "Traceback" not in out.stderr
    lines = out.stderr.splitlines()
    assert lines[0] == first
    assert lines[1] == "  " + argv[-1] and "^" in lines[2]
