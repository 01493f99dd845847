"""The table front end of dusk: a prompt_toolkit REPL over the engine API (no game logic here)."""
