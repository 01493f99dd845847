"""A new member of an entity group is announced with the group's label in a wording that reads right
whatever the label is: a plural or feminine label ("Personajes") must not follow a masculine
singular adjective ("Nuevo Personajes")."""

from ruleset_engine import i18n
from ruleset_engine.repl.render import Style, event

CREATE = {"kind": "create", "entity": "characters", "name": "Ana"}
LABELS = {("entity", "characters"): {"en": "Characters", "es": "Personajes", "zh": "角色"}}


def _shown(lang):
    was = i18n.language()
    i18n.set_language(lang)
    try:
        return event(CREATE, Style(lang=lang), labels=LABELS).plain
    finally:
        i18n.set_language(was)


def test_spanish_names_the_group_without_an_adjective_that_must_agree_with_it():
    assert _shown("es") == "Se añade a Personajes: Ana."


def test_chinese_puts_new_before_the_label_which_has_no_number_or_gender():
    assert _shown("zh") == "新角色：Ana。"


def test_english_keeps_the_group_name_in_words_a_plural_name_reads_right_in():
    # "New characters: Ana." read as if Ana were several
    assert _shown("en") == "Added to characters: Ana."
