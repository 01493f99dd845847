"""Words the engine puts between a ruleset's own words: today, one list joined ("Ana, Beto and Dani").

This is the one list-joining function of dusk. It takes the language, so a catalog of the table's
words adds a language by adding its separators here; nothing else joins lists for people.
"""

from __future__ import annotations

# language -> (between items, before the last item). A language not here reads as English.
LIST_WORDS: dict[str, tuple[str, str]] = {
    "en": (", ", " and "),
}


def join_list(items, lang: str = "en") -> str:
    """Texts joined as a sentence says them: '' for none, 'Ana', 'Ana and Beto', 'Ana, Beto and Dani'."""
    items = [str(item) for item in items]
    between, last = LIST_WORDS.get(lang) or LIST_WORDS.get(lang.split("-")[0]) or LIST_WORDS["en"]
    if len(items) < 2:
        return "".join(items)
    return between.join(items[:-1]) + last + items[-1]
