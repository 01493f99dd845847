"""The engine knows no game: no game's words in the engine, the REPL, the served table or the grammar."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORDS = ["vampire", "coffin", "garlic", "midnight", "masquerade", "noche", "botch", "torpor", "frenzy",
         "willpower", "diablerie", "kindred", "ghoul", "dexterity", "firearms", "storyteller", "neonate",
         "humanity", "soak", "kojiro", "ryoma", "musashi", "relationship", "hunter"]


def test_no_game_words_outside_the_rulesets():
    pattern = re.compile("|".join(WORDS), re.IGNORECASE)
    hits = []
    for folder in ("ruleset_engine", "repl", "web", "grammar"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix not in (".py", ".lark", ".json", ".html", ".js", ".css") or "tests" in path.parts:
                continue
            for number, line in enumerate(path.read_text("utf-8").splitlines(), 1):
                if pattern.search(line):
                    hits.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not hits, "\n".join(hits)
