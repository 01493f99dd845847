"""The wheel carries every bundled file, and an installed dusk finds them without the checkout."""

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA_DIRS = {"grammar": "ruleset_engine/grammar", "schemas": "ruleset_engine/schemas",
             "rulesets": "ruleset_engine/rulesets"}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                    "--quiet", "-w", str(out), str(ROOT)], check=True, timeout=300,
                   capture_output=True)
    (path,) = out.glob("dusk-*.whl")
    return path


def bundled_files():
    for folder, target in DATA_DIRS.items():
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                yield path, f"{target}/{path.relative_to(ROOT / folder).as_posix()}"


def test_wheel_contains_every_bundled_file(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = list(bundled_files())
    assert any(p.name == "dice.lark" for p, _ in expected)
    missing = [inside for _, inside in expected if inside not in names]
    assert not missing, f"not in the wheel: {missing}"
    assert "repl/__init__.py" in names


def test_installed_package_runs_from_another_folder(wheel, tmp_path):
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--quiet", "--target", str(target),
                    str(wheel)], check=True, timeout=300, capture_output=True)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {"PYTHONPATH": str(target), "PATH": "/usr/bin:/bin"}
    code = ("import ruleset_engine, sys; print(ruleset_engine.__file__);"
            "from ruleset_engine.cli import main; sys.exit(main(['roll', '3d6', '--seed', '1']))")
    out = subprocess.run([sys.executable, "-c", code], cwd=elsewhere, env=env, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    location, roll = out.stdout.splitlines()[:2]
    assert location.startswith(str(target)), location
    assert roll.startswith("3d6  ")
