"""--lang takes any language code; a ruleset without texts in it says so once, and shows its fallback."""

import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from ruleset_engine.cli import build_parser
from ruleset_engine.repl.render import language_notice
from tests.repl.conftest import RULESETS

BILINGUAL = str(RULESETS / "success-pool.yaml")      # texts in en and zh


def dusk(*args, data_dir):
    import os

    env = dict(os.environ, DUSK_DATA_DIR=str(data_dir), NO_COLOR="1")
    return subprocess.run([sys.executable, "-m", "ruleset_engine", *args], capture_output=True, text=True,
                          env=env, timeout=60, cwd=Path(data_dir).parent)


@pytest.mark.parametrize("code", ["en", "zh", "es", "pt-BR", "zh-Hant-TW", "yue", "de-CH-1996"])
def test_any_language_code_is_taken(code):
    assert build_parser().parse_args(["play", "--lang", code]).lang == code


@pytest.mark.parametrize("code", ["EN", "e", "english", "pt_BR", "pt-", "fr!"])
def test_what_is_not_a_language_code_is_refused(code, capsys):
    with pytest.raises(SystemExit) as exit_:
        build_parser().parse_args(["play", "--lang", code])
    assert exit_.value.code == 2
    assert "is not a language code" in capsys.readouterr().err


@pytest.mark.parametrize("languages, lang, notice", [
    (("en",), None, None),                      # nothing asked for: nothing to say
    (("en",), "en", None),
    (("en", "zh"), "zh-TW", None),              # its base language is there
    (("en", "pt"), "pt-BR", None),
    (("en",), "fr", "r has no texts in fr; showing English"),
    (("en", "pt-BR"), "pt", "r has no texts in pt; showing English"),
    (("zh",), "fr", "r has no texts in fr; showing zh"),
    (("es", "zh"), "en", "r has no texts in en; showing each text in the first language it has"),
])
def test_the_notice_names_the_fallback_used(languages, lang, notice):
    assert language_notice(SimpleNamespace(id="r", languages=languages), lang) == notice


def test_play_in_a_language_the_ruleset_lacks_says_so_once_and_goes_on(data_dir):
    out = dusk("play", "attack-of-the-vampires", "--seed", "1", "--lang", "fr", "-c", "round; help; state",
               data_dir=data_dir)
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.count("attack-of-the-vampires has no texts in fr; showing English.") == 1
    assert "Search" in out.stdout and "Vampire Hunter" in out.stdout


def test_play_in_a_language_the_ruleset_has_says_nothing(data_dir):
    out = dusk("play", BILINGUAL, "--seed", "1", "--lang", "zh-TW", "-c", "table degrees", data_dir=data_dir)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "no texts in" not in out.stdout and "成功度" in out.stdout


def test_resume_says_so_too_and_keeps_the_language_of_the_session(data_dir, tmp_path):
    save = tmp_path / "game.dusk"
    first = dusk("play", BILINGUAL, "--seed", "1", "--lang", "zh", "--save", str(save), "-c", "table degrees",
                 data_dir=data_dir)
    assert first.returncode == 0 and "成功度" in first.stdout
    again = dusk("resume", str(save), "-c", "table degrees", data_dir=data_dir)   # the session's zh
    assert again.returncode == 0 and "成功度" in again.stdout and "no texts in" not in again.stdout
    other = dusk("resume", str(save), "--lang", "es", "-c", "table degrees", data_dir=data_dir)
    assert other.returncode == 0, other.stdout + other.stderr
    # dusk's own words are Spanish now (the catalogs): the notice says so in Spanish, once
    assert other.stdout.count("no tiene textos en es; se muestra en inglés.") == 1 and "成功度" not in other.stdout
