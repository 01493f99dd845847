"""The packages of the wheel, found rather than listed (everything else is in pyproject.toml).

The code is ruleset_engine/. Four folders stay at the top of the checkout, where a designer or a
reader looks for them, and are installed inside the package: grammar/, schemas/ and rulesets/
(found through importlib.resources), repl/ (the front end at the table) and web/ (the table
for the whole group, `dusk serve`). Each is mapped to its
name inside the package, and every folder below each of them is found, so none can be forgotten
and nothing but ruleset_engine lands in site-packages.

locale/ (dusk's own words by language, gettext catalogs) is installed as ruleset_engine.locale too,
and each language's .po file is compiled into its .mo as the package is built (build_py, through
Babel): the wheel ships the compiled catalogs, the checkout keeps only the sources. An editable
install compiles them into the checkout's locale/, where the package finds them.
"""

from pathlib import Path

from setuptools import find_namespace_packages, find_packages, setup
from setuptools.command.build_py import build_py

INSIDE = {
    "ruleset_engine.grammar": "grammar",
    "ruleset_engine.schemas": "schemas",
    "ruleset_engine.rulesets": "rulesets",
    "ruleset_engine.repl": "repl",
    "ruleset_engine.web": "web",
    "ruleset_engine.locale": "locale",
}
SKIP = ["__pycache__", "*.__pycache__", "*.egg-info"]

packages = find_packages(include=["ruleset_engine", "ruleset_engine.*"])
for name, folder in INSIDE.items():
    packages += [name] + [f"{name}.{sub}" for sub in find_namespace_packages(folder, exclude=SKIP)]



def compile_catalogs(source: Path, target: Path) -> list[str]:
    """Every source/LANG/LC_MESSAGES/dusk.po compiled to target/LANG/LC_MESSAGES/dusk.mo; the files written."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    written = []
    for po in sorted(source.glob("*/LC_MESSAGES/dusk.po")):
        mo = target / po.relative_to(source).with_suffix(".mo")
        mo.parent.mkdir(parents=True, exist_ok=True)
        with open(po, "rb") as handle:
            catalog = read_po(handle, locale=po.parts[-3])
        with open(mo, "wb") as handle:
            write_mo(handle, catalog)
        written.append(str(mo))
    return written


class BuildWithCatalogs(build_py):
    """build_py, then the catalogs compiled into the build (or into the checkout for an editable install)."""

    def run(self):
        super().run()
        source = Path(INSIDE["ruleset_engine.locale"])
        target = source if getattr(self, "editable_mode", False) else Path(self.build_lib, "ruleset_engine", "locale")
        self._catalogs = compile_catalogs(source, target)

    def get_outputs(self, include_bytecode=True):
        return super().get_outputs(include_bytecode) + getattr(self, "_catalogs", [])


setup(packages=packages, package_dir=INSIDE, cmdclass={"build_py": BuildWithCatalogs})
