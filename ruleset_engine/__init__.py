"""dusk's engine: the dice language, rulesets as data, and the one program that runs them.

The engine knows no game: its words are dice, pools, tables, tracks, entities, params,
procedures, decisions and events. Games live in YAML rulesets. This module is the public face:
every front end (the CLI, the REPL, a later web page) and a library user need only this.

    import ruleset_engine as dusk

    dusk.roll("4d6kh3", rng=random.Random(7)).value      # one roll, every die in its trace
    ruleset = dusk.load("my-game.yaml")                  # a path, or the id of a bundled ruleset
    game = dusk.Game.start(ruleset, seed=7)
    outcome = game.perform("round")
    summary = dusk.simulate("my-game.yaml", 1000, seed=1)
    frame = dusk.simulate("my-game.yaml", 1000, seed=1, records=True).to_frame()   # a row per game (dusk[data])

Names are imported when first used, so `dusk roll` does not pay for the ruleset machinery.
"""

from __future__ import annotations

__version__ = "0.1.0"

# name -> (module, attribute)
_API = {
    # errors
    "DuskError": ("ruleset_engine.errors", "DuskError"),
    "DuskBug": ("ruleset_engine.errors", "DuskBug"),
    "InputError": ("ruleset_engine.errors", "InputError"),
    "DiceError": ("ruleset_engine.dice", "DiceError"),
    "RulesetError": ("ruleset_engine.ruleset", "RulesetError"),
    "RuleError": ("ruleset_engine.runtime", "RuleError"),
    "GameError": ("ruleset_engine.runtime", "GameError"),
    "DecisionError": ("ruleset_engine.runtime", "DecisionError"),
    "SimulationError": ("ruleset_engine.analysis.simulate", "SimulationError"),
    # the dice language
    "roll": ("ruleset_engine.dice", "roll"),
    "compile": ("ruleset_engine.dice", "compile"),
    "Expression": ("ruleset_engine.dice", "Expression"),
    "Result": ("ruleset_engine.dice", "Result"),
    "Pool": ("ruleset_engine.dice", "Pool"),
    "Die": ("ruleset_engine.dice", "Die"),
    "Limits": ("ruleset_engine.dice", "Limits"),
    "ScriptedDice": ("ruleset_engine.dice", "ScriptedDice"),
    "render_text": ("ruleset_engine.dice.render", "render_text"),
    "render_rich": ("ruleset_engine.dice.render", "render_rich"),
    "asked_parses": ("ruleset_engine.dice.remembered", "asked"),   # `with`: an expression asked before is not parsed again
    # rulesets
    "load": ("ruleset_engine.ruleset", "load"),
    "check": ("ruleset_engine.analysis.check", "check"),
    "read_merged": ("ruleset_engine.ruleset", "read_merged"),
    "bundled_files": ("ruleset_engine.ruleset", "bundled_files"),
    "Ruleset": ("ruleset_engine.ruleset", "Ruleset"),
    "Problem": ("ruleset_engine.ruleset", "Problem"),
    "count_line": ("ruleset_engine.ruleset.problems", "count_line"),
    "parse_sets": ("ruleset_engine.ruleset.params", "parse_sets"),
    "as_text": ("ruleset_engine.ruleset.templates", "as_text"),
    "format_value": ("ruleset_engine.ruleset.templates", "format_value"),
    "result_words": ("ruleset_engine.ruleset.results", "result_words"),
    "shown_marks": ("ruleset_engine.ruleset.marks", "shown_marks"),
    "default_ruleset": ("ruleset_engine.ruleset.bundled", "default_ruleset"),
    "locate": ("ruleset_engine.ruleset.loader", "locate"),
    "show_resolved": ("ruleset_engine.ruleset.show", "show_resolved"),
    # games
    "Game": ("ruleset_engine.runtime", "Game"),
    "Outcome": ("ruleset_engine.runtime", "Outcome"),
    "Decision": ("ruleset_engine.runtime", "Decision"),
    "RunLimits": ("ruleset_engine.runtime", "RunLimits"),
    "resolve_params": ("ruleset_engine.runtime", "resolve_params"),
    "dice_source_state": ("ruleset_engine.runtime.game", "dice_source_state"),
    "restore_dice_source": ("ruleset_engine.runtime.game", "restore_dice_source"),
    "saved_values_problem": ("ruleset_engine.runtime.saved", "problem"),
    "find_instance": ("ruleset_engine.runtime.edits", "find_instance"),
    "editable_fields": ("ruleset_engine.runtime.edits", "editable"),
    "checked_edit": ("ruleset_engine.runtime.edits", "edit"),
    "seat_names": ("ruleset_engine.runtime.seats", "seat_names"),
    "seat_of": ("ruleset_engine.runtime.seats", "seat_of"),
    "seat_parameter": ("ruleset_engine.runtime.seats", "seat_parameter"),
    # analysis
    "simulate": ("ruleset_engine.analysis.simulate", "simulate"),
    "sweep": ("ruleset_engine.analysis.sweep", "sweep"),
    "compare": ("ruleset_engine.analysis.compare", "compare"),
    "prob": ("ruleset_engine.analysis.prob", "odds"),
    # the registries: what the language and the rulesets are made of
    "FUNCTIONS": ("ruleset_engine.dice.functions", "FUNCTIONS"),
    "MODIFIERS": ("ruleset_engine.dice.modifiers", "MODIFIERS"),
    "ALIASES": ("ruleset_engine.dice.aliases", "ALIASES"),
    "STEP_KINDS": ("ruleset_engine.ruleset.steps", "KINDS"),
}

__all__ = sorted(_API) + ["__version__"]


def __getattr__(name: str):
    found = _API.get(name)
    if found is None:
        raise AttributeError(f"module 'ruleset_engine' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(found[0]), found[1])
    globals()[name] = value
    return value


def __dir__():
    return __all__
