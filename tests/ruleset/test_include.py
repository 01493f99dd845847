"""`include:` (issue 11, item 13): a ruleset in several files. Chapters add their sections to the
file that names them; a key given twice, a chapter with a `ruleset:`, a circle, a path outside the
folder or no file at all are refused, each at its own file, line and column."""

import textwrap
from pathlib import Path

import pytest

import ruleset_engine as dusk
from ruleset_engine.dice import ScriptedDice
from ruleset_engine.ruleset import RulesetError, load
from ruleset_engine.repl.session import fingerprint

TESTS = Path(__file__).resolve().parents[1] / "rulesets"


def test_the_chapters_make_one_ruleset():
    ruleset = load(str(TESTS / "in-chapters.yaml"))
    assert [Path(f).name for f in ruleset.files] == ["in-chapters.yaml", "dice.yaml", "ending.yaml"]
    assert list(ruleset.procedures) == ["throw"] and list(ruleset.formulas) == ["best"]
    # each throw scores its best die: 6, 4, 5, then 6 makes 21 >= 20 (the chapter's end:)
    game = dusk.Game.start(ruleset, rng=ScriptedDice([6, 2, 4, 4, 5, 1, 6, 6]))
    for _ in range(4):
        game.perform("turn")
    assert game.over and game.result == "won" and game.report() == {"score": 21, "turns": 4}


def write(tmp_path, files: dict) -> str:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(textwrap.dedent(text), encoding="utf-8")
    return str(tmp_path / "main.yaml")


MAIN = """\
    ruleset: main
    title: Main
    include: [ch/a.yaml]
    state: {n: 0}
    status: "n {n}"
    actions:
      go: {steps: [{set: {n: n + 1}}]}
    """


def problems(tmp_path, chapter: str, main: str = MAIN, more: dict | None = None) -> list[str]:
    with pytest.raises(RulesetError) as caught:
        load(write(tmp_path, {"main.yaml": main, "ch/a.yaml": chapter, **(more or {})}))
    return [str(p).replace(str(tmp_path) + "/", "") for p in caught.value.problems]


def test_an_error_in_a_chapter_names_the_chapter(tmp_path):
    assert problems(tmp_path, """\
        # a comment line, so the place is not the first line
        end:
          - {when: m >= 2, result: won}
        """) == ["ch/a.yaml:3:12: unknown name 'm' (at end[0].when)\n  m >= 2\n  ^"]


def test_a_key_given_twice_is_refused_at_both_places(tmp_path):
    assert problems(tmp_path, """\
        status: "again"
        actions:
          go: {steps: []}
          stop: {steps: []}
        """) == [
        "ch/a.yaml:1:1: status is given twice: here and at main.yaml:5:1 (a chapter adds to a ruleset; to change "
        "what another file gives, use extends:) (at status)",
        "ch/a.yaml:3:3: actions.go is given twice: here and at main.yaml:7:3 (a chapter adds to a ruleset; to "
        "change what another file gives, use extends:) (at actions.go)"]


@pytest.mark.parametrize("chapter, more, message", [
    ("ruleset: other\n", {}, "ch/a.yaml:1:1: ruleset: belongs to the file that includes the chapters, not to a chapter"),
    ("include: [b.yaml]\n", {"ch/b.yaml": "include: [a.yaml]\n"},
     "ch/b.yaml:1:11: include: goes round in a circle: main.yaml -> a.yaml -> b.yaml -> a.yaml"),
    ("include: [../../x.yaml]\n", {}, "ch/a.yaml:1:11: include: '../../x.yaml' is outside the folder of the ruleset "
                                      "that includes it"),
    ("include: [none.yaml]\n", {}, "ch/a.yaml:1:11: include: there is no file 'none.yaml'"),
    ("include: [notes.txt]\n", {}, "ch/a.yaml:1:11: include: names a .yaml file, not 'notes.txt'"),
    ("include: b.yaml\n", {}, "ch/a.yaml:1:10: include: takes a list of files"),
    ("- a list\n", {}, "ch/a.yaml:1:1: a chapter is a mapping of sections"),
    ("tables: {t: {key: k, rows: [{k: 1}]}}\nbad: [\n", {}, "ch/a.yaml:3:1:"),
])
def test_a_chapter_that_cannot_be_read_is_refused_at_its_place(tmp_path, chapter, more, message):
    found = problems(tmp_path, chapter, more=more)
    assert len(found) == 1 and found[0].startswith(message), found


def test_a_house_rule_in_chapters_extends_a_bundled_game(tmp_path):
    path = write(tmp_path, {
        "main.yaml": """\
            extends: attack-of-the-vampires
            ruleset: attack-in-chapters
            include: [ch/more.yaml]
            """,
        "ch/more.yaml": """\
            report:
              rounds_doubled: "2 * turns"
            state:
              turns: 0
            """})
    ruleset = load(path)
    assert "rounds_doubled" in ruleset.report and "life" in ruleset.report     # the chapter's, and the parent's
    assert [Path(f).name for f in ruleset.files][:2] == ["main.yaml", "more.yaml"]


def test_a_changed_chapter_changes_the_fingerprint(tmp_path):
    chapter = "end:\n  - {when: n >= 2, result: won}\n"
    path = write(tmp_path, {"main.yaml": MAIN, "ch/a.yaml": chapter})
    before = fingerprint(load(path))
    (tmp_path / "ch/a.yaml").write_text(chapter.replace("2", "3"), encoding="utf-8")
    assert fingerprint(load(path)) != before


def test_a_folder_and_a_section_of_another_shape_are_named(tmp_path):
    (tmp_path / "ch" / "sub.yaml").mkdir(parents=True)
    assert problems(tmp_path, "include: [sub.yaml]\n")[0].startswith(
        "ch/a.yaml:1:11: include: 'sub.yaml' is a folder, not a file")
    assert problems(tmp_path, "state: [1, 2]\n") == [
        "ch/a.yaml:1:1: state is a list here and a map at main.yaml:4:1: a section is written the same way in "
        "every file (at state)"]
