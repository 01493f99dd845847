"""The pages of dusk serve as files and as served: their words in the table's language, every word
their scripts use given to them, nothing loaded from elsewhere, every file they name served.

(What the pages do in a browser is tests/browser.)
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from ruleset_engine import i18n
from ruleset_engine.web import words
from ruleset_engine.web.app import make_app

from .conftest import noche_table

WEB = Path(__file__).resolve().parents[2] / "web"
PAGES = sorted((WEB / "templates").glob("*.html"))
STATIC = sorted(p for p in (WEB / "static").rglob("*") if p.is_file())


def page_words(html: str) -> dict:
    found = re.search(r'<script id="words" type="application/json">(.*?)</script>', html, re.S)
    assert found, "the page hands its words to its script"
    return json.loads(found.group(1))


@pytest.fixture
def spanish():
    i18n.set_language("es")
    yield
    i18n.set_language("en")


def test_every_word_a_script_uses_is_given_to_its_page():
    pages = (("table.js", words.table_words()), ("join.js", words.join_words()))
    for script, given in pages + tuple(("api.js", given) for _, given in pages):     # api.js: on every page
        used = set(re.findall(r"\bwords\.(\w+)", (WEB / "static" / script).read_text("utf-8")))
        assert used and used <= set(given), (script, used - set(given))
    fates = set(re.findall(r'"(\w+)": \("[^"]*", "\w+", "[^"]*", N_', Path(i18n.__file__).parent.joinpath(
        "dice", "render.py").read_text("utf-8")))
    assert fates and fates <= set(words.table_words()["fates"]), fates     # every fate the terminal marks


def test_every_word_a_template_shows_is_given_to_it():
    for page, given in (("table.html", words.table_words()), ("join.html", words.join_words())):
        text = re.sub(r"\{#.*?#\}", "", (WEB / "templates" / page).read_text("utf-8"), flags=re.S)   # comments
        used = set(re.findall(r"\bwords\.(\w+)", text))
        assert used and used <= set(given), (page, used - set(given))


def test_nothing_is_loaded_from_elsewhere():
    """A table may be offline: no page or script names another host (no CDN, no font service)."""
    for path in PAGES + STATIC:
        text = path.read_text("utf-8")
        assert not re.search(r"(https?:)?//[\w.-]+\.\w+/", text.replace("http://www.w3.org", "")), path
        assert "@import" not in text and "innerHTML" not in text, path


def test_the_pages_in_the_table_s_language_and_their_files_served(tmp_path, spanish):
    table = noche_table(tmp_path)
    table.repl.style.lang = "es"
    try:
        with TestClient(make_app(table)) as client:
            client.get(f"/?seat={table.gm_token}")
            page = client.get("/").text
            assert '<html lang="es">' in page
            given = page_words(page)
            assert given["your_question"] == "Tu pregunta" and given["fates"]["cancelled"] == "anulado"
            assert ">Tu pregunta</h2>" in page and ">La crónica</h2>" in page
            assert [t["title"] for t in client.get("/api/state").json()["tables"]] == [
                "Desenlaces (según la tabla de Zak Arntson, contada con nuestras palabras)", "Relaciones"]
            named = re.findall(r'(?:src|href)="(/static/[^"]+)"', page)
            assert named[-2:] == ["/static/api.js", "/static/table.js"], named      # the shared script first
            for name in named:
                served = client.get(name)
                assert served.status_code == 200 and served.content == (WEB / name[1:]).read_bytes(), name
            join = client.get(f"/join?key={table.join_key}").text
            assert ">¿Qué personaje juegas?</h2>" in join
            assert page_words(join)["take"] == "Tomar este asiento"
    finally:
        table.session.close()
