"""`dusk check` and `dusk show` on odd files, and what `extends:` may read (issue 9, classes 8, 9, 12).

Every case is a one-line message with its place, exit code 1, no traceback, within the timeout (a
named pipe or /dev/zero read as a file would hang or fill the memory)."""

import os
import subprocess
import sys

import pytest

GOOD = "ruleset: odd\ntitle: Odd\n"


def dusk(*args, cwd):
    return subprocess.run([sys.executable, "-m", "ruleset_engine", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=60)


def refused(cwd, *args) -> str:
    out = dusk(*args, cwd=cwd)
    assert out.returncode == 1, out.stdout + out.stderr
    assert "Traceback" not in out.stdout + out.stderr and "a bug" not in out.stdout + out.stderr
    return (out.stdout + out.stderr).splitlines()[0]


def nested_ifs(n: int) -> str:
    text, indent = GOOD + "state: {x: 0}\nloop:\n  - name: r\n    max: 1\n    steps:\n", "      "
    for _ in range(n):
        text += f"{indent}- if: x == 0\n{indent}  then:\n"
        indent += "    "
    return text + f"{indent}- set: {{x: 1}}\n"


@pytest.mark.parametrize("name, text, expected", [
    ("big.yaml", GOOD + "state:\n  x: " + "9" * 5000 + "\n",
     "big.yaml:4:6: this number is past the limit of numbers (9,007,199,254,740,992)"),
    ("big2.yaml", GOOD + "state:\n  x: 9007199254740993\n", "big2.yaml:4:6: this number is past the limit"),
    ("ifs.yaml", nested_ifs(70), "nested more than 64 levels deep"),
    ("ifs2.yaml", nested_ifs(17), "blocks of steps nested more than 16 deep; move the inner steps into a procedure"),
    ("remove.yaml", "extends: attack-of-the-vampires\n$remove: [{a: 1}]\n",
     "remove.yaml:1:1: $remove takes names: the keys or ids to drop"),
    ("remove2.yaml", "extends: attack-of-the-vampires\nparams:\n  $remove: [[life_roll]]\n",
     "remove2.yaml:3:3: $remove takes names"),
    ("merge.yaml", "extends: attack-of-the-vampires\n$merge: 5\n", "merge.yaml:1:1: $merge only applies to a list"),
    ("merge2.yaml", "extends: attack-of-the-vampires\nloop:\n  $merge: 5\n",
     "merge2.yaml:3:3: $merge takes a list of items, each with its id"),
    ("cell.yaml", GOOD + "tables:\n  t:\n    key: n\n    rows:\n      - {n: 1, out: [1, 2]}\n",
     "cell.yaml:7:21: a table cell holds a number, true/false or a text, not a list"),
    ("order.yaml", GOOD + "state:\n  n: x + 1\n  x: 2\n",
     "order.yaml:4:6: the starting value of 'n' reads 'x', which starts after it"),
    ("self.yaml", GOOD + "state:\n  t: {text: \"{t}!\"}\n", "self.yaml:4:6: the starting value of 't' reads itself"),
    ("index.yaml", GOOD + "entities:\n  foe:\n    fields: {hp: index + 2}\n", "index.yaml:5:18: unknown name 'index'"),
])
def test_odd_rulesets_get_one_located_line(tmp_path, name, text, expected):
    (tmp_path / name).write_text(text, encoding="utf-8")
    assert expected in refused(tmp_path, "check", name)


def special_files(tmp_path):
    os.symlink("loop2.yaml", tmp_path / "loop1.yaml")
    os.symlink("loop1.yaml", tmp_path / "loop2.yaml")
    os.mkfifo(tmp_path / "pipe.yaml")
    (tmp_path / "folder.yaml").mkdir()
    (tmp_path / "latin.yaml").write_bytes(b"ruleset: l\ntitle: caf\xe9\n")
    (tmp_path / "nul.yaml").write_bytes(b"ruleset: l\ntitle: a\x00b\n")


@pytest.mark.parametrize("command", ["check", "show"])
@pytest.mark.parametrize("name, expected", [
    ("loop1.yaml", "loop1.yaml:1:1: cannot read the file: its symbolic links go round in a circle"),
    ("pipe.yaml", "pipe.yaml:1:1: this is a named pipe, not a ruleset (only regular files are read)"),
    ("/dev/zero", "/dev/zero:1:1: this is a device, not a ruleset (only regular files are read)"),
    ("folder.yaml", "folder.yaml:1:1: this is a folder, not a ruleset (only regular files are read)"),
    ("latin.yaml", "latin.yaml:2:11: this is not UTF-8 text (byte 0xe9 here); save the ruleset as UTF-8"),
    ("nul.yaml", "nul.yaml:2:9: this is not a text file (it holds NUL bytes)"),
])
def test_only_regular_utf8_files_are_read(tmp_path, command, name, expected):
    special_files(tmp_path)
    assert refused(tmp_path, command, name) == expected


def test_a_file_over_the_size_limit_is_refused_before_reading_by_show_too(tmp_path):
    with open(tmp_path / "huge.yaml", "wb") as handle:
        handle.truncate(6 * 1024 * 1024)
    assert refused(tmp_path, "show", "huge.yaml") == "huge.yaml:1:1: the file is 6.0 MB; a ruleset over 5 MB is refused"


@pytest.mark.parametrize("parent, expected", [
    # The example: never read, never quoted.
    ("../../../../etc/passwd", "names a bundled ruleset or a .yaml file, not '../../../../etc/passwd'"),
    ("/etc/hostname", "names a bundled ruleset or a .yaml file"),
    # Siblings: a .yaml file outside the folder, by a path or by a link that points out of it.
    ("../outside.yaml", "'../outside.yaml' is outside the folder of the ruleset that extends it"),
    ("link.yaml", "'link.yaml' is outside the folder of the ruleset that extends it"),
])
def test_extends_reads_only_rulesets_in_its_folder_tree(tmp_path, parent, expected):
    game = tmp_path / "games"
    (game / "house").mkdir(parents=True)
    (tmp_path / "outside.yaml").write_text("secret: do not show\n")
    os.symlink(tmp_path / "outside.yaml", game / "link.yaml")
    (game / "child.yaml").write_text(f"extends: {parent}\n")
    line = refused(game, "check", "child.yaml")
    assert line.startswith(f"child.yaml:1:10: extends: {expected}")
    assert "root:" not in line and "secret" not in line


def test_extends_reads_a_ruleset_beside_it_or_below(tmp_path):
    (tmp_path / "house").mkdir()
    (tmp_path / "house" / "base.yaml").write_text(GOOD)
    (tmp_path / "child.yaml").write_text("extends: house/base.yaml\ntitle: Child\n")
    out = dusk("check", "child.yaml", cwd=tmp_path)
    assert out.returncode == 0 and "ok: odd (Child)" in out.stdout, out.stdout + out.stderr


def test_a_file_that_is_no_ruleset_is_named_by_kind_not_quoted(tmp_path):
    (tmp_path / "words.yaml").write_text("the password is swordfish\n")
    assert refused(tmp_path, "check", "words.yaml") == \
        "words.yaml:1:1: a ruleset is a mapping of keys (ruleset:, title:, ...), not a text"
