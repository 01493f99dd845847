"""The names of instances, as the table tells them apart: two names are the same name when they
look alike after Unicode's compatibility folding and case folding (`Bob`, `bob` and full-width
`Ｂｏｂ` are one name), and a name may not mix scripts (a Latin `Bob` with a Greek omicron, `Bοb`,
is refused), in the spirit of Unicode TR39's mixed-script test.

The script of a letter is read from its Unicode name (`GREEK SMALL LETTER OMICRON`: Greek);
marks, digits, spaces and signs belong to every script. As in TR39, Han goes with Hiragana and
Katakana (Japanese), with Hangul (Korean) and with Bopomofo: `山田たろう` is one script."""

from __future__ import annotations

import unicodedata

from ruleset_engine.i18n import _

# The words of a character's name that end its script's part ("GREEK SMALL LETTER ...").
_ENDS = ("LETTER", "CAPITAL", "SMALL", "SYLLABLE", "IDEOGRAPH", "LIGATURE", "VOWEL", "CHARACTER",
         "DIGRAPH", "SYMBOL", "SIGN")
# Scripts written together in one language, each with the writing systems it belongs to (TR39's
# augmented script sets); a script not here belongs to itself alone.
_TOGETHER = {
    "HAN": frozenset({"HAN", "JAPANESE", "KOREAN", "BOPOMOFO"}),
    "HIRAGANA": frozenset({"JAPANESE"}),
    "KATAKANA": frozenset({"JAPANESE"}),
    "HANGUL": frozenset({"KOREAN"}),
    "BOPOMOFO": frozenset({"BOPOMOFO"}),
}


def name_key(name: str) -> str:
    """What two names are compared by: NFKC, then case folding (and NFKC again, as case folding
    may undo it)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", str(name)).casefold())


def script_of(ch: str) -> str | None:
    """The script of one letter, from its Unicode name; None for a character of every script."""
    if unicodedata.category(ch) not in ("Lu", "Ll", "Lt", "Lo"):
        return None
    name = unicodedata.name(ch, "")
    if name.startswith("CJK "):
        return "HAN"
    words = name.replace("-", " ").split()
    if words[:1] == ["HALFWIDTH"] or words[:1] == ["FULLWIDTH"]:
        words = words[1:]
    script = []
    for word in words:
        if word in _ENDS:
            break
        script.append(word)
    return " ".join(script) or None


def mixed_scripts(name: str) -> tuple[str, str] | None:
    """Two scripts the name mixes (after NFKC), or None when its letters are of one writing system."""
    common = None
    first = None
    for ch in unicodedata.normalize("NFKC", name):
        script = script_of(ch)
        if script is None:
            continue
        sets = _TOGETHER.get(script, frozenset({script}))
        if common is None:
            common, first = sets, script
        elif not common & sets:
            return first, script
        else:
            common = common & sets
    return None


def instance_named(instances, name):
    """The instance (a dict with its name) whose name is `name` as written, or None: an instance is
    found by the name it was given (an action's entity parameter, a pair's argument), in every backend."""
    for instance in instances:
        if instance.get("name") == name:
            return instance
    return None


def no_instance_named(name, call: str | None = None) -> str:
    """What a name no instance has says (`call`: the function it was given to, as `friends(..)`)."""
    said = _("no instance is named {name!r}").format(name=str(name))
    return _("{call}: {problem}").format(call=call, problem=said) if call else said


def name_problem(name: str) -> str | None:
    """Why the name cannot be an instance's name at the table (it mixes scripts), or None."""
    mixed = mixed_scripts(name)
    if mixed:
        return _("it mixes {first} and {second} letters, so it could look like another name; write it in one "
                 "script").format(first=mixed[0].title(), second=mixed[1].title())
    return None
