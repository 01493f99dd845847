"""Tables checked whatever their key (one column or several), texts in any language, and formulas
that are read at any time refusing dice: each found at load, with its place."""

import textwrap

import pytest

from ruleset_engine.ruleset import RulesetError, load
from ruleset_engine.ruleset.templates import LocalText, as_text, choose
from ruleset_engine.runtime import Game

HEAD = "ruleset: r\ntitle: R\n"


def problems_of(tmp_path, body: str) -> list[str]:
    path = tmp_path / "r.yaml"
    path.write_text(HEAD + textwrap.dedent(body), encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        load(str(path))
    return [str(p) for p in info.value.problems]


def loads(tmp_path, body: str):
    path = tmp_path / "r.yaml"
    path.write_text(HEAD + textwrap.dedent(body), encoding="utf-8")
    return load(str(path))


GRID = """\
    tables:
      grid:
        key: [net, scale]
        rows:
          - {net: "..0", scale: hour, out: a}
          - {net: "1..", scale: hour, out: b}
          - {net: "..0", scale: scene, out: c}
          - {net: "1..2", scale: scene, out: d}
          - {net: "3..", scale: scene, out: e}
    """


def test_a_two_key_table_that_covers_everything_loads(tmp_path):
    ruleset = loads(tmp_path, GRID)
    assert ruleset.tables["grid"].find([2, "scene"])["out"] == "d"
    assert ruleset.tables["grid"].find([-4, "hour"])["out"] == "a"


def test_a_two_key_table_with_a_hole_says_where(tmp_path):
    found = problems_of(tmp_path, GRID.replace('"1..2", scale: scene', '"1..1", scale: scene'))
    assert any("no row covers net 2..2, scale 'scene'" in p for p in found), found
    assert all("r.yaml:" in p for p in found)


def test_a_two_key_table_with_overlapping_rows_names_both(tmp_path):
    found = problems_of(tmp_path, GRID.replace('"1..2", scale: scene', '"0..2", scale: scene'))
    assert any("rows 3 and 4 overlap at net 0..0, scale 'scene'" in p for p in found), found


def test_first_match_allows_overlaps_but_not_rows_that_can_never_match(tmp_path):
    body = GRID.rstrip(" ").replace("key: [net, scale]", "key: [net, scale]\n        first_match: true") + \
        "          - {net: 5, scale: scene, out: never}\n"
    found = problems_of(tmp_path, body)
    assert found and all("row 6 can never match" in p for p in found), found
    assert all(p.endswith("(at tables.grid.rows)") for p in found), found     # not rows[5]: the 6th row again


def test_a_default_row_fills_the_holes(tmp_path):
    body = GRID.rstrip(" ").replace('"1..2", scale: scene', '"1..1", scale: scene') + "        default: {out: z}\n"
    assert loads(tmp_path, body).tables["grid"].find([2, "scene"]) == {"out": "z"}


def test_texts_in_any_language_with_the_documented_fallback():
    texts = {"es": "hola", "pt-BR": "olá", "en": "hello"}
    assert choose(texts, "pt-BR") == "olá"
    assert choose(texts, "pt") == "hello"             # no pt text: English
    assert choose({"pt": "oi", "en": "hi"}, "pt-BR") == "oi"   # the base language
    assert choose({"es": "hola", "fr": "salut"}, "de") == "hola"   # no English: the first
    assert as_text(LocalText({"es": "hola"}), "en") == "hola"
    assert str(LocalText({"es": "hola", "en": "hello"})) == "hello"


def test_a_ruleset_in_spanish_and_brazilian_portuguese(tmp_path):
    ruleset = loads(tmp_path, """\
        state: {n: 2}
        actions:
          greet:
            steps:
              - say: {es: "hay {n}", pt-BR: "tem {n}"}
        status: {es: "n = {n}", pt-BR: "n = {n}!"}
        """)
    assert ruleset.languages == ("es", "pt-BR")
    game = Game.start(ruleset, seed=1)
    text = game.perform("greet").events[-1]["text"]
    assert text == {"es": "hay 2", "pt-BR": "tem 2"}
    assert game.status("pt-BR") == "n = 2!" and game.status("pt") == "n = 2" and game.status("en") == "n = 2"


def test_a_text_key_that_is_no_language_code_is_refused(tmp_path):
    found = problems_of(tmp_path, "actions:\n  a:\n    steps:\n      - say: {english: hi}\n")
    assert found and "r.yaml:" in found[0]


@pytest.mark.parametrize("body, where", [
    ("report: {x: 1d6}\n", "report.x"),
    ("state: {n: 0}\nactions:\n  a:\n    when: sum(1d6) > 3\n    steps: []\n", "actions.a.when"),
    ("actions:\n  a:\n    params: {k: {type: integer, max: 1d6}}\n    steps: []\n", "actions.a.params.k.max"),
    ("state: {n: 0}\nstatus: 'roll {1d6}'\n", "status"),
])
def test_formulas_read_at_any_time_cannot_roll_dice(tmp_path, body, where):
    found = problems_of(tmp_path, body)
    assert len(found) == 1 and "cannot roll dice" in found[0] or "never roll dice" in found[0], found
    assert f"(at {where})" in found[0] and "^" in found[0]


def test_brackets_whose_dice_are_re_rolled_hold_dice_of_a_written_size(tmp_path):
    from ruleset_engine import dice

    assert dice.roll("[2d6, 1d8]r<2", rng=dice.ScriptedDice([1, 3, 5, 4])).pool.faces == [4, 3, 5]
    for text in ("[p, 2d6]r<2", "[1, 2d6]!", "[2d(x)]rr<2"):
        with pytest.raises(dice.DiceValueError, match="re-rolls or explodes dice rolled in these brackets"):
            dice.compile(text)
    assert dice.roll("[p, 2d6]kh1", rng=dice.ScriptedDice([1, 3]), env={"p": [6]}).pool.faces == [6]


def test_a_plain_text_shows_its_placeholders_in_every_language_they_have(tmp_path):
    ruleset = loads(tmp_path, """\
        state: {msg: {text: {en: hello, zh: 你好}}, n: 3}
        actions:
          greet:
            steps:
              - say: "{msg} x{n}"
              - say: "just {n}"
        """)
    events = Game.start(ruleset, seed=1).perform("greet").events
    assert [e["text"] for e in events if e["kind"] == "say"] == [{"en": "hello x3", "zh": "你好 x3"}, "just 3"]


def test_an_open_range_in_one_column_does_not_hide_a_gap_in_another(tmp_path):
    found = problems_of(tmp_path, """\
        tables:
          hit:
            key: [weapon, hits]
            rows:
              - {weapon: gun, hits: "1..3", out: a}
              - {weapon: knife, hits: "1..", out: b}
        """)
    assert any("no row covers weapon 'gun', hits 4.." in p for p in found), found


def test_the_refusal_names_the_modifier_that_re_rolls():
    from ruleset_engine import dice

    with pytest.raises(dice.DiceValueError, match="'r' re-rolls or explodes"):
        dice.compile("[2d6, 3]kh2r1")


def test_a_bad_choice_argument_names_the_action_and_its_parameter(tmp_path):
    from ruleset_engine.runtime import GameError

    ruleset = loads(tmp_path, """\
        actions:
          pick:
            params: {colour: {type: choice, choices: [red, blue], default: red}}
            steps: []
        """)
    with pytest.raises(GameError, match=r"pick colour: expected one of: red, blue, not 'green'"):
        Game.start(ruleset, seed=1).perform("pick", colour="green")
