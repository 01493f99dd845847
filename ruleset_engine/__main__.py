"""`python -m ruleset_engine` is the `dusk` command."""

from ruleset_engine.cli import main

raise SystemExit(main())
