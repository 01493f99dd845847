"""The table for the whole group (`dusk serve`): a web server over the same Session the REPL plays.

Installed as ruleset_engine.web (setup.py), beside ruleset_engine.repl; docs/serve.md is its contract.
"""
