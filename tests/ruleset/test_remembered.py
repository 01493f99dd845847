"""A ruleset found valid is remembered by a fingerprint of its data: loading it again skips the
schema's check, and any change to the file is checked anew."""

import subprocess
import sys

LOAD = """
import sys
from ruleset_engine.ruleset import RulesetError, load
try:
    load(sys.argv[1])
    print("ok", "jsonschema" in sys.modules)
except RulesetError as err:
    print("problems", len(err.problems), "jsonschema" in sys.modules)
"""


def load_in_a_process(path, cache) -> str:
    env = {"DUSK_CACHE_DIR": str(cache), "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-c", LOAD, str(path)], capture_output=True, text=True, env=env,
                         timeout=60, check=True)
    return out.stdout.strip()


def test_a_valid_ruleset_is_checked_once_and_a_changed_one_again(tmp_path):
    path = tmp_path / "r.yaml"
    cache = tmp_path / "cache"
    path.write_text("ruleset: r\ntitle: R\nstate: {n: 0}\n", encoding="utf-8")
    assert load_in_a_process(path, cache) == "ok True"       # checked by the schema, remembered
    assert load_in_a_process(path, cache) == "ok False"      # known valid: jsonschema not even imported
    path.write_text("ruleset: r\ntitle: R\nstate: {n: 0}\nsetup: 3\n", encoding="utf-8")
    assert load_in_a_process(path, cache) == "problems 1 True"
    assert load_in_a_process(path, cache) == "problems 1 True"   # a problem is never remembered


def test_a_cache_folder_that_cannot_be_written_is_not_used(tmp_path):
    path = tmp_path / "r.yaml"
    path.write_text("ruleset: r\ntitle: R\n", encoding="utf-8")
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    assert load_in_a_process(path, blocked / "cache") == "ok True"
    assert load_in_a_process(path, blocked / "cache") == "ok True"


def test_keys_that_are_not_texts_are_located_not_a_crash(tmp_path):
    # YAML keys may be null or numbers beside texts: sorting them once raised a TypeError
    from ruleset_engine.ruleset import RulesetError, load

    path = tmp_path / "keys.yaml"
    path.write_text("ruleset: t\ntitle: T\n~: 1\n1: a\nactions: {go: {steps: []}}\n", encoding="utf-8")
    try:
        load(str(path))
    except RulesetError as err:
        found = [str(p) for p in err.problems]
    assert [f.split(" (allowed")[0] for f in found] == [f"{path}:3:1: unknown key None"]
