"""`results:`: how a game's results read in the table's language.

A result is a name (`end: ... result: lost`), kept as it is in the session, the chronicle's
export, `dusk simulate --json` and the records. `results:` gives a result the words a table shows
for it, per language, like any text of the ruleset:

    results:
      lost: {zh: 失败, es: derrota}

Shown as written (no placeholders: `end: text:` says more with values). Checked at load, each
problem with its place: a key that is no result of the ruleset (an `end:` condition's or an
`end: game` step's), and a label with a placeholder's brace.
"""

from __future__ import annotations

from ruleset_engine.i18n import _


def check_results(checker) -> dict:
    """result -> its words (a text: a string or a language map), problems reported with their place."""
    out = {}
    for name, label in (checker.data.get("results") or {}).items():
        path = ("results", name)
        if name not in checker.results:
            checker.problem(_("results: {name} is no result of this ruleset (the result: of an end: condition "
                              "or of an end: game step)").format(name=repr(name))
                            + checker.suggest(name, checker.results), path, at_key=True)
            continue
        texts = label.values() if isinstance(label, dict) else [label]
        if any("{" in text or "}" in text for text in texts if isinstance(text, str)):
            checker.problem(_("results: the words of {name} are shown as written: no placeholders in braces "
                              "(end: text: says a result with its value)").format(name=repr(name)), path)
            continue
        out[name] = checker.plain_text(label)
    return out


def result_words(labels: dict, result: str, lang: str) -> str:
    """A result as the table shows it in `lang`: its words in that language (or its base language: zh
    for zh-TW), else in English, else its name (a result is named in English: the name reads better
    than another language's words)."""
    label = labels.get(result)
    if label is None:
        return result
    texts = getattr(label, "texts", None)       # a language map (a LocalText); a plain string is every language's
    if texts is None:
        return str(label)
    for code in (lang, lang.split("-")[0], "en"):
        if texts.get(code):
            return texts[code]
    return result
