"""The wheel: only ruleset_engine in it, every module and bundled file inside, and an installed dusk
that runs from another folder without the checkout.

The wheel is built from a copy of the checkout's sources (a stale build/ folder could otherwise
slip files into it) and installed into a folder of its own. The installed commands run with
`python -S` and a PYTHONPATH of that folder and the folder of the dependencies: without the site
machinery, the editable install of the checkout (a finder in site-packages) is not there to make up
for a file the wheel forgot.
"""

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# Folders of the checkout installed inside the package (setup.py).
INSIDE = {"grammar": "ruleset_engine/grammar", "schemas": "ruleset_engine/schemas",
          "rulesets": "ruleset_engine/rulesets", "repl": "ruleset_engine/repl", "ruleset_engine": "ruleset_engine",
          "locale": "ruleset_engine/locale", "web": "ruleset_engine/web"}
SOURCES = ["pyproject.toml", "setup.py", "README.md", *INSIDE]
# A compiled catalog (.mo) is built into the wheel by setup.py, never copied from the checkout.
NOT_SHIPPED = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "*.mo")

pytestmark = pytest.mark.timeout(600)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    source = tmp_path_factory.mktemp("source")
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, source / name, ignore=NOT_SHIPPED)
        else:
            shutil.copy2(path, source / name)
    out = tmp_path_factory.mktemp("wheel")
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                            "--quiet", "-w", str(out), str(source)], timeout=300, capture_output=True, text=True)
    assert built.returncode == 0, built.stdout + built.stderr
    (path,) = out.glob("dusk-*.whl")
    return path


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory):
    target = tmp_path_factory.mktemp("site")
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--quiet", "--target", str(target),
                    str(wheel)], check=True, timeout=300, capture_output=True)
    return target


def shipped():
    """(file in the checkout, where the wheel must hold it), for every module and bundled file."""
    for folder, inside in INSIDE.items():
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix not in (".pyc", ".mo"):
                yield path, f"{inside}/{path.relative_to(ROOT / folder).as_posix()}"


def test_the_wheel_holds_only_the_package(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    tops = {name.split("/")[0] for name in names}
    assert tops == {"ruleset_engine", "dusk-0.1.0.dist-info"}, tops


def test_the_wheel_holds_every_module_and_bundled_file(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = list(shipped())
    assert any(p.name == "dice.lark" for p, _ in expected) and any(p.name == "app.py" for p, _ in expected)
    missing = [inside for _, inside in expected if inside not in names]
    assert not missing, f"not in the wheel: {missing}"
    assert "ruleset_engine/web/templates/table.html" in names      # the served table's page (dusk serve)
    for package in ("analysis", "ruleset/steps", "repl", "web", "rulesets/house", "web/static", "web/templates"):
        assert f"ruleset_engine/{package}/" in {name.rsplit("/", 1)[0] + "/" for name in names}, package


def test_the_wheel_holds_the_compiled_catalogs(wheel):
    """Each language's .po is compiled into its .mo as the wheel is built (the copy it is built from has none)."""
    names = set(zipfile.ZipFile(wheel).namelist())
    for lang in ("zh", "es"):
        assert f"ruleset_engine/locale/{lang}/LC_MESSAGES/dusk.mo" in names
        assert f"ruleset_engine/locale/{lang}/LC_MESSAGES/dusk.po" in names
    assert "ruleset_engine/locale/dusk.pot" in names


def dusk(installed, tmp_path, *args):
    """`python -m ruleset_engine ARGS` from an empty folder, seeing the installed wheel and the dependencies only."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(exist_ok=True)
    dependencies = sysconfig.get_paths()["purelib"]
    env = {"PYTHONPATH": os.pathsep.join([str(installed), dependencies]), "PATH": os.defpath,
           "DUSK_DATA_DIR": str(tmp_path / "data"), "PYTHONUTF8": "1", "NO_COLOR": "1"}
    return subprocess.run([sys.executable, "-S", "-m", "ruleset_engine", *args], cwd=elsewhere, env=env,
                          capture_output=True, text=True, timeout=120)


def test_the_checkout_is_not_importable(installed, tmp_path):
    out = dusk(installed, tmp_path, "roll", "1")    # the package itself comes from the install
    assert out.returncode == 0, out.stderr
    probe = ("import sys, ruleset_engine, ruleset_engine.repl.app as app; print(ruleset_engine.__file__); "
             "print(app.__file__); print(any('editable' in type(f).__name__.lower() or 'editable' in repr(f) "
             "for f in sys.meta_path))")
    env = {"PYTHONPATH": os.pathsep.join([str(installed), sysconfig.get_paths()["purelib"]]), "PATH": os.defpath}
    out = subprocess.run([sys.executable, "-S", "-c", probe], cwd=tmp_path, env=env, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    package, app, editable = out.stdout.splitlines()
    assert package.startswith(str(installed)) and app.startswith(str(installed)), (package, app)
    assert editable == "False"


def test_installed_roll(installed, tmp_path):
    out = dusk(installed, tmp_path, "roll", "3d6", "--seed", "1")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("3d6  ")


def test_installed_roll_in_chinese_and_spanish(installed, tmp_path):
    out = dusk(installed, tmp_path, "roll", "4d6kh3", "--seed", "3", "--lang", "zh")
    assert out.returncode == 0 and out.stdout == "4d6kh3  2 5 5 2✗ = 12  （剩余骰子：2 5 5）\n  (✗ 舍弃)\n", out.stderr
    out = dusk(installed, tmp_path, "roll", "2d6 +", "--lang", "es")
    assert out.returncode == 2 and "pero la expresión termina ahí" in out.stderr


def test_installed_check_of_a_bundled_ruleset(installed, tmp_path):
    out = dusk(installed, tmp_path, "check", "attack-of-the-vampires")
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.startswith("attack-of-the-vampires: ok: attack-of-the-vampires (Attack of the Vampires)")


def test_installed_simulate(installed, tmp_path):
    out = dusk(installed, tmp_path, "simulate", "attack-of-the-vampires", "-n", "50")
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.startswith("attack-of-the-vampires: 50 games, seed 0")
    assert "results:" in out.stdout and "length in rounds" in out.stdout


def test_installed_play(installed, tmp_path):
    out = dusk(installed, tmp_path, "play", "attack-of-the-vampires", "--seed", "1", "-c", "round; state")
    assert out.returncode == 0, out.stdout + out.stderr
    words = " ".join(out.stdout.split())         # the console wraps long lines
    assert words.startswith(f"Attack of the Vampires. A new game, seed 1, saved in {tmp_path / 'data'}")
    assert "> round" in out.stdout and "\nSearch  " in out.stdout
    assert "> state" in out.stdout and "Vampire Hunter" in out.stdout
    assert "Traceback" not in out.stdout + out.stderr
