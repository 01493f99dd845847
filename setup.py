"""The packages of the wheel, found rather than listed (everything else is in pyproject.toml).

The code is ruleset_engine/. Four folders stay at the top of the checkout, where a designer or a
reader looks for them, and are installed inside the package: grammar/, schemas/ and rulesets/
(found through importlib.resources) and repl/ (the front end at the table). Each is mapped to its
name inside the package, and every folder below each of them is found, so none can be forgotten
and nothing but ruleset_engine lands in site-packages.
"""

from setuptools import find_namespace_packages, find_packages, setup

INSIDE = {
    "ruleset_engine.grammar": "grammar",
    "ruleset_engine.schemas": "schemas",
    "ruleset_engine.rulesets": "rulesets",
    "ruleset_engine.repl": "repl",
}
SKIP = ["__pycache__", "*.__pycache__", "*.egg-info"]

packages = find_packages(include=["ruleset_engine", "ruleset_engine.*"])
for name, folder in INSIDE.items():
    packages += [name] + [f"{name}.{sub}" for sub in find_namespace_packages(folder, exclude=SKIP)]

setup(packages=packages, package_dir=INSIDE)
