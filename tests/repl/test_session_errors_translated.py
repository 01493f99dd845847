"""dusk's refusals of a session file, a data folder and a records file are in the table's language.

Each case runs the real `dusk` (a process of its own, as a player starts it) with --lang es or zh and
looks for the words of that language's catalog (locale/LANG/LC_MESSAGES/dusk.po), not the English
sentence, and for no traceback. The English run of the same case shows the words checked are the
catalog's translation of that very message.
"""

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

from ruleset_engine.repl.session import Session
from tests.repl.conftest import RULESETS


def dusk(*args, data_dir, cwd):
    env = {k: v for k, v in os.environ.items() if k not in ("DUSK_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    env.update(DUSK_DATA_DIR=str(data_dir), NO_COLOR="1", LANG="C")
    done = subprocess.run([sys.executable, "-m", "ruleset_engine", *args], capture_output=True, text=True,
                          env=env, timeout=120, cwd=cwd)
    return done.returncode, done.stdout + done.stderr


def refused(out: str, *words: str, english: str) -> None:
    for word in words:
        assert word in out, out
    assert english not in out, out
    assert "Traceback" not in out, out


def test_another_sqlite_database_is_refused_in_spanish_and_in_english(tmp_path, data_dir):
    other = tmp_path / "other.dusk"
    db = sqlite3.connect(other)
    db.execute("CREATE TABLE notes (text)")
    db.commit()
    db.close()
    before = other.read_bytes()
    code, out = dusk("resume", str(other), "--lang", "es", "-c", "state", data_dir=data_dir, cwd=tmp_path)
    assert code == 2
    refused(out, f"{other} no es una sesión de dusk (es otra base de datos SQLite); se dejó como estaba",
            english="is not a dusk session")
    code, out = dusk("resume", str(other), "--lang", "en", "-c", "state", data_dir=data_dir, cwd=tmp_path)
    assert code == 2
    assert f"{other} is not a dusk session (it is another SQLite database); it was left as it is" in out, out
    assert other.read_bytes() == before


def test_a_file_that_is_no_database_is_refused_in_chinese(tmp_path, data_dir):
    junk = tmp_path / "junk.dusk"
    junk.write_text("this is not a database at all" * 100)
    code, out = dusk("resume", str(junk), "--lang", "zh", "-c", "state", data_dir=data_dir, cwd=tmp_path)
    assert code == 2
    # SQLite's own words stay as SQLite says them, inside the sentence of the catalog.
    refused(out, f"{junk} 不是 dusk 会话（", "）；文件保持原样", english="is not a dusk session")


def test_a_session_open_at_another_table_names_its_holder_in_spanish(tmp_path, data_dir):
    path = tmp_path / "held.dusk"
    session, _reply = Session.new(str(RULESETS / "pool-conflict.yaml"), None, 3, save=path)    # held by this process
    try:
        code, out = dusk("resume", str(path), "--lang", "es", "-c", "state", data_dir=data_dir, cwd=tmp_path)
    finally:
        session.close()
    assert code == 2
    host = os.uname().nodename
    refused(out, f"{path} está abierto en otro dusk (pid {os.getpid()} en {host}, desde ",
            "una sesión se juega en una sola mesa a la vez; deja antes esa mesa (quit o Ctrl-D allí)",
            english="a session is played at one table at a time")


def test_a_changed_ruleset_is_refused_then_forced_in_spanish(tmp_path, data_dir):
    ruleset = tmp_path / "rules.yaml"
    shutil.copy(RULESETS / "pool-conflict.yaml", ruleset)
    save = tmp_path / "s.dusk"
    code, out = dusk("play", str(ruleset), "--seed", "3", "--save", str(save), "-c", "state",
                     data_dir=data_dir, cwd=tmp_path)
    assert code == 0, out
    text = ruleset.read_text(encoding="utf-8")
    assert "hours: {type: integer, default: 3," in text
    ruleset.write_text(text.replace("hours: {type: integer, default: 3,", "hours: {type: integer, default: 4,"),
                       encoding="utf-8")
    code, out = dusk("resume", str(save), "--lang", "es", "-c", "state", data_dir=data_dir, cwd=tmp_path)
    assert code == 2
    refused(out, f"{save}: el reglamento ", " cambió desde que se guardó la sesión: sus reglas no son aquellas "
            "con las que se jugó la sesión. No se reanudó; dusk resume --force sigue jugando con el reglamento "
            "tal como es ahora", english="changed since the session was saved")
    code, out = dusk("resume", str(save), "--force", "--lang", "es", "-c", "state", data_dir=data_dir, cwd=tmp_path)
    assert code == 0, out
    refused(out, " cambió desde que se guardó esta sesión; --force: la partida sigue con el reglamento tal como es "
            "ahora", english="changed since this session was saved")


def test_a_data_folder_that_is_a_file_is_refused_in_chinese(tmp_path):
    taken = tmp_path / "data"
    taken.write_text("not a folder")
    code, out = dusk("play", str(RULESETS / "pool-conflict.yaml"), "--seed", "1", "--lang", "zh", "-c", "state",
                     data_dir=taken, cwd=tmp_path)
    assert code == 2
    refused(out, f"无法使用数据目录 {taken} (DUSK_DATA_DIR)：它是文件，不是文件夹；请把 DUSK_DATA_DIR 设为一个文件夹",
            english="cannot be used")


def test_records_into_a_folder_is_refused_in_spanish(tmp_path, data_dir):
    folder = tmp_path / "out"
    folder.mkdir()
    code, out = dusk("simulate", str(RULESETS / "pool-conflict.yaml"), "-n", "2", "--records", str(folder),
                     "--lang", "es", data_dir=data_dir, cwd=tmp_path)
    assert code == 2
    refused(out, f"--records {folder}: es una carpeta, no un archivo", english="a folder, not a file")
    assert list(folder.iterdir()) == []
