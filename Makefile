# The two commands of the README: `make play` and `make test`.
# Both create .venv when it is missing, so a fresh clone needs only python3 and make.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: play test fuzz bench clean catalogs

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Stamp files record which install is current, so a changed pyproject.toml or setup.py reinstalls.
$(VENV)/.installed: pyproject.toml setup.py | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml setup.py | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.installed

play: $(VENV)/.installed
	$(BIN)/dusk play

test: $(VENV)/.installed-test
	$(BIN)/python -m pytest

# The fuzz tests of every input kind, with twenty times the examples `make test` runs (minutes).
fuzz: $(VENV)/.installed-test
	DUSK_FUZZ_SCALE=20 $(BIN)/python -m pytest -m fuzz -p no:cacheprovider --timeout 3600

# dusk's own words by language (docs/table.md, "Adding a language"): extract every message of the
# code into locale/dusk.pot, bring each locale/LANG/LC_MESSAGES/dusk.po up to date with it (new
# messages come in untranslated, none guessed), and compile each into its dusk.mo.
catalogs: $(VENV)/.installed
	$(BIN)/pybabel -q extract -F babel.cfg -o locale/dusk.pot --project dusk --version 0.1 \
		--add-location file --sort-output --no-wrap --add-comments TRANSLATORS: ruleset_engine repl web
	$(BIN)/pybabel -q update -i locale/dusk.pot -d locale -D dusk --no-fuzzy-matching --ignore-obsolete --no-wrap
	$(BIN)/pybabel -q compile -d locale -D dusk --statistics

bench: $(VENV)/.installed-test
	$(BIN)/python benchmarks/dice_throughput.py

clean:
	rm -rf $(VENV) build *.egg-info
