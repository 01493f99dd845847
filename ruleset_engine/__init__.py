"""dusk's engine: the dice language, rulesets as data, and the interpreter that runs them.

The engine knows no game: its words are dice, pools, tables, tracks, entities,
params, procedures, decisions and events. Games live in YAML rulesets.
"""

__version__ = "0.1.0"
