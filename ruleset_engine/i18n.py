"""dusk's own words in the table's language: gettext catalogs managed with Babel.

The messages of the code are written in English and wrapped in `_()` (or `ngettext()` for a
count); `pybabel` extracts them into locale/dusk.pot and each language's locale/LANG/LC_MESSAGES/
dusk.po holds its translations (`make catalogs`; docs/table.md says how a translator adds one).
The compiled dusk.mo files are built when dusk is built or installed (setup.py) and shipped in
the wheel.

One language is active for the whole process: `--lang`, else the `DUSK_LANG` environment
variable, else the locale (when dusk has a catalog for it), else English (`choose`). English
needs no catalog and imports nothing: `dusk roll 1d6` in English starts as fast as before. Another
language loads its compiled catalog once, on the first message (gettext reads it in a few
milliseconds); Babel itself is imported only to join a list, format a number or, in a checkout
whose catalogs were not compiled, to read the .po file.

Plural forms come from the catalog's own `Plural-Forms` header (CLDR's rules, written by Babel),
lists are joined by Babel's list patterns and numbers formatted by its number patterns. English
keeps the wording dusk always had (no serial comma, Python's own number formats), so English
output is unchanged.
"""

from __future__ import annotations

import os

DOMAIN = "dusk"
ENGLISH = "en"

_language = ENGLISH
_catalog = None          # the active language's translations, loaded on first use (None: not yet)


def N_(message: str) -> str:
    """A message marked for the catalogs but translated where it is shown (module constants)."""
    return message


def locale_dirs() -> list[Path]:
    """Where the catalogs are: inside the installed package, or locale/ at the top of a checkout."""
    from pathlib import Path      # here, not at the top: English (`dusk roll` most often) never needs it

    here = Path(__file__).resolve().parent
    return [here / "locale", here.parent / "locale"]


def available() -> list[str]:
    """The languages dusk has a catalog for (English, whose words are the code's, always)."""
    found = {ENGLISH}
    for folder in locale_dirs():
        if folder.is_dir():
            found.update(p.name for p in folder.iterdir() if (p / "LC_MESSAGES" / f"{DOMAIN}.po").is_file()
                         or (p / "LC_MESSAGES" / f"{DOMAIN}.mo").is_file())
    return sorted(found)


def _base(code: str) -> str:
    return code.replace("_", "-").split("-")[0].lower()


def from_locale() -> str | None:
    """The language of the locale (LC_ALL, LC_MESSAGES, LANG, as gettext reads them), when dusk has
    a catalog for it; None otherwise (C, POSIX, or a language without a catalog)."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name, "")
        if not value:
            continue
        code = _base(value.split(":")[0].split(".")[0])
        if code in ("c", "posix", ""):
            return None
        return code if code in available() else None
    return None


def choose(asked: str | None) -> str:
    """The table's language: `--lang` (asked), else DUSK_LANG, else the locale's, else English."""
    return asked or os.environ.get("DUSK_LANG") or from_locale() or ENGLISH


def set_language(code: str | None) -> str:
    """Make `code` the language of every message from now on; returns it."""
    global _language, _catalog
    _language = code or ENGLISH
    _catalog = None
    return _language


def language() -> str:
    return _language


def _load(code: str):
    """The translations of `code` (or of its base language: es for es-MX), or None for English or a
    language without a catalog (whose messages stay English)."""
    import gettext

    for name in dict.fromkeys((code.replace("-", "_"), _base(code))):
        if name == ENGLISH:
            return None
        installed, checkout = locale_dirs()
        for folder in (installed, checkout):
            messages = folder / name / "LC_MESSAGES"
            compiled, source = messages / f"{DOMAIN}.mo", messages / f"{DOMAIN}.po"
            # Installed, the compiled catalog is the one built with it; in a checkout, a .po edited
            # since its .mo was compiled is read itself.
            stale = folder == checkout and source.is_file() and compiled.is_file() \
                and source.stat().st_mtime > compiled.stat().st_mtime
            if compiled.is_file() and not stale:
                with open(compiled, "rb") as handle:
                    return gettext.GNUTranslations(handle)
            if source.is_file():       # a checkout whose catalogs were not compiled (or changed since)
                return gettext.GNUTranslations(_compiled_from(source, name))
    return None


def _compiled_from(source: Path, name: str):
    """A .po file compiled in memory, through Babel (`make catalogs` writes the .mo instead)."""
    import io

    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with open(source, "rb") as handle:
        catalog = read_po(handle, locale=name)
    out = io.BytesIO()
    write_mo(out, catalog)
    out.seek(0)
    return out


def _translations():
    global _catalog
    if _catalog is None:
        _catalog = _load(_language) or False
    return _catalog


def _(message: str) -> str:
    """`message` in the active language (itself in English, or when the catalog lacks it)."""
    if _language == ENGLISH:
        return message
    found = _translations()
    return found.gettext(message) if found else message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message for the count `n`, by the language's plural rules."""
    if _language == ENGLISH:
        return singular if n == 1 else plural
    found = _translations()
    if found:
        return found.ngettext(singular, plural, n)
    return singular if n == 1 else plural


def _babel_locale(lang: str):
    from babel import Locale, UnknownLocaleError

    try:
        return Locale.parse(lang.replace("-", "_"))
    except (UnknownLocaleError, ValueError):
        return None


def join_list(items, lang: str | None = None) -> str:
    """Texts joined as a sentence of the language says them: 'Ana, Beto and Dani', 'Ana, Beto y Dani',
    '阿娜、贝托和丹妮' (Babel's list patterns; English keeps dusk's wording, without a serial comma)."""
    items = [str(item) for item in items]
    lang = lang or _language
    if len(items) < 2:
        return "".join(items)
    if _base(lang) != ENGLISH:
        found = _babel_locale(lang)
        if found is not None:
            from babel.lists import format_list

            return format_list(items, locale=found)
    return ", ".join(items[:-1]) + " and " + items[-1]


def number(value, digits: int | None = None, lang: str | None = None) -> str:
    """A number as the language writes it: 1,234 or 1.234 (grouped), `digits` places after the point."""
    lang = lang or _language
    if _base(lang) == ENGLISH or _babel_locale(lang) is None:
        return f"{value:,.{digits}f}" if digits is not None else f"{value:,}"
    from babel.numbers import format_decimal

    found = _babel_locale(lang)
    return format_decimal(value, format=_places(found.decimal_formats[None].pattern, digits), locale=found)


def plain(value, lang: str | None = None) -> str:
    """A number as written without a chosen precision (a median, a percentile): as Python writes it in
    English (40.0), as the language writes it otherwise (40, 12,5)."""
    lang = lang or _language
    if isinstance(value, bool) or not isinstance(value, (int, float)) or _base(lang) == ENGLISH \
            or _babel_locale(lang) is None:
        return str(value)
    from babel.numbers import format_decimal

    return format_decimal(value, locale=_babel_locale(lang))


def percent(value: float, digits: int = 2, lang: str | None = None) -> str:
    """A share as the language writes a percentage: 12.50% (English), 12,50 % (Spanish)."""
    lang = lang or _language
    if _base(lang) == ENGLISH or _babel_locale(lang) is None:
        return f"{value:.{digits}%}"
    from babel.numbers import format_percent

    found = _babel_locale(lang)
    return format_percent(value, format=_places(found.percent_formats[None].pattern, digits), locale=found)


def _places(pattern: str, digits: int | None) -> str:
    """The language's number pattern (`#,##0.###`, `#,##0 %`) with exactly `digits` places after the point."""
    body = pattern.split(";")[0]
    whole = body.rfind("0")
    if "." in body:                  # `#,##0.###`: the places written, replaced
        start = body.index(".")
        end = start + 1
        while end < len(body) and body[end] in "#0":
            end += 1
        body, whole = body[:start] + body[end:], start - 1
    return body[:whole + 1] + ("." + "0" * digits if digits else "") + body[whole + 1:]
