"""Words the engine puts between a ruleset's own words: today, one list joined ("Ana, Beto and Dani").

This is the one list-joining function of the rulesets' texts. It takes the language and joins as
that language does (Babel's list patterns, through ruleset_engine.i18n: "Ana, Beto y Dani",
"阿娜、贝托和丹妮"); nothing else joins lists for people.
"""

from __future__ import annotations

from ruleset_engine import i18n


def join_list(items, lang: str | None = None) -> str:
    """Texts joined as a sentence says them: '' for none, 'Ana', 'Ana and Beto', 'Ana, Beto and Dani'
    (the table's language when `lang` is not given)."""
    return i18n.join_list(items, lang)
