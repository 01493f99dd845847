"""Noche de los Vampiros in Spanish: every text the ruleset shows carries `es:` beside `en:`, and a
seeded night played with `--lang es` tells the night in Spanish (the ruleset's words; dusk's own
words are the i18n catalogs' business)."""

import os
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
RULESET = ROOT / "rulesets" / "noche-de-los-vampiros.yaml"
# Keys whose values are texts shown at the table (a plain string there would be English only).
TEXT_KEYS = {"say", "ask", "label", "text", "title", "description", "status"}


def texts(node, key=None):
    """Every text of the file: (the key it sits under, its value), a value a string or a {lang: ..} map."""
    if isinstance(node, dict):
        if "en" in node and key is not None:
            yield key, node
            return
        for k, v in node.items():
            yield from texts(v, k)
    elif isinstance(node, list):
        for item in node:
            yield from texts(item, key)
    elif isinstance(node, str) and key in TEXT_KEYS and (key != "text" or "{" in node):
        yield key, node        # (a state variable's `text: ""` is a starting value, not a text shown)


def test_every_text_has_its_spanish():
    data = yaml.safe_load(RULESET.read_text(encoding="utf-8"))
    found = list(texts(data))
    assert len(found) > 40
    english_only = [(key, value) for key, value in found if not isinstance(value, dict) or "es" not in value]
    assert not english_only, english_only[:5]
    # Chinese as well (tests/games/test_tables_in_their_languages.py plays a night in it).
    without_chinese = [(key, value) for key, value in found if not isinstance(value, dict) or "zh" not in value]
    assert not without_chinese, without_chinese[:5]
    # The outcome grid too: each row's label and its three scales.
    for row in data["tables"]["outcomes"]["rows"]:
        for cell in ("label", "hour", "scene", "shot"):
            assert set(row[cell]) == {"en", "es", "zh"}, row


def test_a_night_in_spanish(tmp_path):
    env = {**os.environ, "DUSK_DATA_DIR": str(tmp_path), "NO_COLOR": "1", "COLUMNS": "120"}
    done = subprocess.run([sys.executable, "-m", "ruleset_engine", "play", "noche-de-los-vampiros", "--lang", "es",
                           "--seed", "2", "--set", "hours=2", "-c", "2; Ana; Beto; auto; auto 30"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert "Empieza la Hora 1. La Reserva Vampírica tiene un dado." in lines
    assert any(line.startswith("Amanece. 2 personajes viven un día más: Ana") for line in lines)
    assert any(line.startswith("Conflicto 1 de la Hora 1, una escena.") for line in lines)
    # None of the ruleset's English lines is said.
    for english in ("Hour 1 begins.", "Dawn.", "the Vampire Pool", "Highest die", "to be told"):
        assert not any(english in line for line in lines), english
