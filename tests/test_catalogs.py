"""dusk's own words in every shipped language: the catalogs match the code, and the language machinery
(ruleset_engine.i18n) chooses, loads and formats as each language does.

The catalog test extracts every message of the code with Babel, as `make catalogs` does (babel.cfg),
and reads each locale/LANG/LC_MESSAGES/dusk.po: a message missing, untranslated (any plural form
left empty), fuzzy, or translated with other {placeholders} than its English fails, naming it.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from ruleset_engine import i18n

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "locale"
SHIPPED = ["es", "zh"]
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2)}
PLACEHOLDER = re.compile(r"\{(\w*)[^{}]*\}")


def extracted() -> dict:
    """msgid (or (singular, plural)) -> the first file that says it, for every message of the code."""
    found = {}
    for folder in ("ruleset_engine", "repl", "web"):
        for filename, _line, message, _comments, _context in extract_from_dir(
                ROOT / folder, method_map=[("**.py", "python")], keywords=KEYWORDS):
            found.setdefault(message, f"{folder}/{filename}")
    return found


MESSAGES = extracted()


def catalog(lang: str):
    with open(LOCALE / lang / "LC_MESSAGES" / "dusk.po", "rb") as handle:
        return read_po(handle, locale=lang)


def test_the_extraction_finds_the_table_s_words():
    assert "Built-in commands" in MESSAGES and "one of: {choices}" in MESSAGES
    assert ("({n} round played)", "({n} rounds played)") in MESSAGES
    assert "expected a number after 'd'" in MESSAGES        # a parse error of the dice language
    assert len(MESSAGES) > 250


def test_every_shipped_language_has_a_catalog():
    assert sorted(p.name for p in LOCALE.iterdir() if (p / "LC_MESSAGES" / "dusk.po").is_file()) == SHIPPED
    assert i18n.available() == ["en", *SHIPPED]


@pytest.mark.parametrize("lang", SHIPPED)
def test_every_message_is_translated_in_each_catalog(lang):
    po = catalog(lang)
    problems = []
    for message, where in MESSAGES.items():
        key = message[0] if isinstance(message, tuple) else message
        entry = po.get(key)
        if entry is None:
            problems.append(f"missing ({where}): {message!r}")
            continue
        if entry.fuzzy:
            problems.append(f"fuzzy ({where}): {message!r}")
        forms = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        if isinstance(message, tuple) and len(forms) != po.num_plurals:
            problems.append(f"{len(forms)} plural forms, not {po.num_plurals} ({where}): {message!r}")
        if not all(forms):
            problems.append(f"untranslated ({where}): {message!r}")
            continue
        wanted = set(PLACEHOLDER.findall(" ".join(message) if isinstance(message, tuple) else message))
        for form in forms:
            if set(PLACEHOLDER.findall(form)) != wanted and not (isinstance(message, tuple) and wanted - set(PLACEHOLDER.findall(form)) <= {"n"}):
                problems.append(f"placeholders {sorted(PLACEHOLDER.findall(form))} not {sorted(wanted)}: {message!r}")
    assert not problems, f"{lang}: {len(problems)} problem(s):\n" + "\n".join(problems[:40])


@pytest.mark.parametrize("lang", SHIPPED)
def test_babel_s_checks_find_nothing_wrong(lang):
    po = catalog(lang)
    assert not po.fuzzy
    errors = [(message.id, [str(e) for e in found]) for message, found in po.check()]
    assert not errors, errors


def test_the_plural_rules_are_the_languages_own():
    """CLDR's rules through Babel: Chinese has one form; Spanish one, many (a million) and other."""
    assert catalog("zh").plural_forms == "nplurals=1; plural=0;"
    assert catalog("es").num_plurals == 3
    i18n.set_language("es")
    try:
        forms = [i18n.ngettext("({n} round played)", "({n} rounds played)", n).format(n=n) for n in (1, 2, 0)]
        assert forms == ["(1 ronda jugada)", "(2 rondas jugadas)", "(0 rondas jugadas)"]
        i18n.set_language("zh")
        assert i18n.ngettext("{n} action", "{n} actions", 1) == i18n.ngettext("{n} action", "{n} actions", 5) == "{n} 个行动"
    finally:
        i18n.set_language("en")


def test_lists_are_joined_as_each_language_joins_them():
    assert i18n.join_list(["Ana", "Beto", "Dani"], "en") == "Ana, Beto and Dani"
    assert i18n.join_list(["Ana", "Beto", "Dani"], "es") == "Ana, Beto y Dani"
    assert i18n.join_list(["阿娜", "贝托", "丹妮"], "zh") == "阿娜、贝托和丹妮"
    assert i18n.join_list(["Ana", "Beto"], "es") == "Ana y Beto"
    assert i18n.join_list(["Ana"], "zh") == "Ana" and i18n.join_list([], "es") == ""


def test_numbers_and_percentages_are_written_as_each_language_writes_them():
    assert i18n.number(12345.678, 1, "en") == "12,345.7" and i18n.percent(0.125, 1, "en") == "12.5%"
    assert i18n.number(12345.678, 1, "es") == "12.345,7"
    assert i18n.percent(0.125, 1, "es") == "12,5\xa0%"          # CLDR: a no-break space before %
    assert i18n.number(12345.678, 1, "zh") == "12,345.7" and i18n.percent(0.125, 1, "zh") == "12.5%"


def test_a_message_is_translated_and_english_is_the_code_s_own():
    i18n.set_language("zh")
    try:
        assert i18n._("Built-in commands") == "内置命令"
        i18n.set_language("zh-TW")            # no catalog of its own: its base language's
        assert i18n._("Built-in commands") == "内置命令"
        i18n.set_language("fr")               # no catalog: English
        assert i18n._("Built-in commands") == "Built-in commands"
    finally:
        i18n.set_language("en")
    assert i18n._("Built-in commands") == "Built-in commands"


def test_the_language_is_lang_then_dusk_lang_then_the_locale_then_english(monkeypatch):
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", "DUSK_LANG"):
        monkeypatch.delenv(name, raising=False)
    assert i18n.choose(None) == "en"
    monkeypatch.setenv("LANG", "es_MX.UTF-8")
    assert i18n.choose(None) == "es"
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")         # no catalog for the locale's language: English
    assert i18n.choose(None) == "en"
    monkeypatch.setenv("LANG", "C.UTF-8")
    assert i18n.choose(None) == "en"
    monkeypatch.setenv("DUSK_LANG", "zh")
    assert i18n.choose(None) == "zh" and i18n.choose("es") == "es"


def run(*args, env=None):
    import os

    return subprocess.run([sys.executable, "-m", "ruleset_engine", *args], capture_output=True, text=True,
                          timeout=120, env=dict(os.environ, **(env or {})))


def test_dusk_roll_speaks_the_language_and_json_keeps_english_keys():
    out = run("roll", "4d6kh3", "--seed", "3", "--lang", "zh")
    assert out.returncode == 0 and out.stdout == "4d6kh3  2 5 5 2✗ = 12  （剩余骰子：2 5 5）\n  (✗ 舍弃)\n"
    english = run("roll", "4d6kh3", "--seed", "3", "--lang", "en")
    assert "dropped" in english.stdout and "舍弃" not in english.stdout
    bad = run("roll", "2d6 +", env={"DUSK_LANG": "es"})
    assert bad.returncode == 2 and "se esperaba un valor después de '+', pero la expresión termina ahí" in bad.stderr
    data = run("roll", "4d6kh3", "--seed", "3", "--json", "--lang", "zh").stdout
    assert '"fate": "dropped"' in data and '"expression"' in data


def test_dusk_check_counts_by_the_language_s_plural_rules():
    out = run("check", "attack-of-the-vampires", "--lang", "es")
    assert out.returncode == 0
    assert "attack-of-the-vampires: bien: attack-of-the-vampires (El ataque de los vampiros), 8 parámetros, " \
           "1 acción, 0 tablas, 7 procedimientos" in out.stdout


def test_an_uncompiled_catalog_reads_as_its_compiled_one():
    """A checkout whose .po was edited since `make catalogs` (or never compiled) reads the .po itself."""
    import gettext

    for lang in SHIPPED:
        source = LOCALE / lang / "LC_MESSAGES" / "dusk.po"
        read = gettext.GNUTranslations(i18n._compiled_from(source, lang))
        po = catalog(lang)
        assert read.gettext("Built-in commands") == po.get("Built-in commands").string
        assert read.ngettext("{n} action", "{n} actions", 2) == po.get("{n} action").string[-1]
