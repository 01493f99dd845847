"""docs/tutorial.md and the game it builds, docs/tutorial/: the docs and the files cannot drift apart.

- every stage file loads and passes `dusk check`;
- every stage plays as its rules say, with scripted dice and a result worked out by hand;
- every YAML block of the tutorial marked `<!-- stage: PATH -->` (or `<!-- mistake: PATH -->`) is a
  part of that file, word for word;
- every mistake file is its stage with only the mistake changed;
- every command in a console block is run, and prints what the tutorial shows.

After a deliberate change to the engine's output, rewrite the shown outputs and review the diff:

    DUSK_REGENERATE_TUTORIAL=1 .venv/bin/python -m pytest tests/test_tutorial.py
"""

import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from itertools import pairwise
from pathlib import Path

import pytest

from ruleset_engine.dice import ScriptedDice
from ruleset_engine.ruleset import load
from ruleset_engine.runtime import Game
from ruleset_engine.runtime.decisions import DecisionError
from tests.test_docs_examples import pattern, run_dusk

REPO = Path(__file__).resolve().parents[1]
TUTORIAL = REPO / "docs" / "tutorial.md"
FILES = REPO / "docs" / "tutorial"
STAGES = [f"step{n}.yaml" for n in range(1, 8)] + ["font.yaml", "lantern.yaml"]

# Each mistake file is its stage with these replacements, and nothing else.
MISTAKES = {
    "mistakes/step2-shadow.yaml": ("step2.yaml", [
        (('      - roll: {arrivals: 1d2}\n        label: Arrivals\n      - set: {horde: horde + arrivals}\n'
          '      - say: "Hour {loop.hour}: {arrivals} more out of the dark. {horde} at the door."'),
         ('      - roll: {horde: "horde + 1d2"}\n        label: Arrivals\n'
          '      - say: "Hour {loop.hour}: {horde} at the door."'))]),
    "mistakes/step3-compare.yaml": ("step3.yaml", [
        ('      - roll: {hits: "count((params.dice)d6, >= params.hit_on)"}\n        label: Defend\n',
         ('      - roll: {defence: "(params.dice)d6"}\n        label: Defend\n'
          '      - let: {hits: "defence >= params.hit_on"}\n'))]),
    "mistakes/step4-gap.yaml": ("step4.yaml", [('{through: "7..", loss: 5', '{through: "8..", loss: 5')]),
    # Beside its stage, not in mistakes/: extends: reads only the extending file's folder and below.
    "font-mistake.yaml": ("font.yaml", [
        ('doc: "Blood the holy water gives back, once a night."',
         "doc: Blood the holy water gives back, once a night.")]),
}

MARKER = re.compile(r"^<!-- (stage|mistake): docs/tutorial/(\S+) -->$")
STATUS = "Hour 3 of 6 | Blood 10 | Horde 3 | Stakes 2"     # shown in step 7, after `hour; 0; hour; 1`


# ---- the tutorial's blocks

def blocks():
    """Every fenced block of the tutorial: (language, the marker line before it or None, its lines, line number)."""
    lines = TUTORIAL.read_text(encoding="utf-8").splitlines()
    found, n = [], 0
    while n < len(lines):
        if lines[n].startswith("```") and len(lines[n]) > 3:
            start, language = n, lines[n][3:].strip()
            end = lines.index("```", n + 1)
            before = lines[start - 1] if start > 0 else ""
            found.append((language, MARKER.match(before), lines[start + 1:end], start + 1))
            n = end + 1
        else:
            n += 1
    return found


def console_commands():
    """Each command of the console blocks: (line number, command, the lines of output shown)."""
    out = []
    for language, _marker, lines, at in blocks():
        if language != "console":
            continue
        assert lines and lines[0].startswith("$ "), f"tutorial.md:{at}: a console block starts with a $ command"
        for k, line in enumerate(lines):
            if line.startswith("$ "):
                shown = []
                for following in lines[k + 1:]:
                    if following.startswith("$ "):
                        break
                    shown.append(following)
                out.append((at + 1 + k, line[2:], shown))
    return out


def elided(printed: str) -> list[str]:
    """What the tutorial shows of an output: the lines naming a fresh session file, and a run's speed, elided."""
    lines = printed.splitlines()
    if lines and lines[0].startswith("Last Light") and "A new game" in lines[0]:
        lines[:2] = ["..."]
    return [re.sub(r", \d+\.\d s \([\d,]+ games/s\)", ", ... s (... games/s)", line.rstrip()) for line in lines]


def test_every_command_prints_what_the_tutorial_shows(tmp_path):
    found = console_commands()
    assert len(found) >= 20
    with ThreadPoolExecutor(max_workers=4) as pool:
        printed = list(pool.map(lambda k: run_dusk(found[k][1], tmp_path / str(k)), range(len(found))))
    wrong = [(at, command, out) for (at, command, shown), out in zip(found, printed)
             if not pattern(shown).fullmatch(out)]
    if wrong and os.environ.get("DUSK_REGENERATE_TUTORIAL"):
        lines = TUTORIAL.read_text(encoding="utf-8").splitlines()
        for at, command, out in sorted(wrong, reverse=True):
            end = at
            while end < len(lines) and not lines[end].startswith(("$ ", "```")):
                end += 1
            lines[at:end] = elided(out)
        TUTORIAL.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert not wrong, "".join(f"\ntutorial.md:{at}: `{command}` prints:\n{out}" for at, command, out in wrong)


# ---- the YAML shown is the YAML of the files

def test_every_marked_yaml_block_is_part_of_its_file():
    marked = [(m.group(1), m.group(2), lines, at) for language, m, lines, at in blocks() if m]
    assert {name for kind, name, _, _ in marked if kind == "stage"} == set(STAGES), \
        "every stage file is shown, and every stage shown is a file"
    assert {name for kind, name, _, _ in marked if kind == "mistake"} == set(MISTAKES)
    for kind, name, lines, at in marked:
        text = (FILES / name).read_text(encoding="utf-8")
        fragment = "\n".join(lines) + "\n"
        assert fragment in text, f"tutorial.md:{at}: this block is not a part of docs/tutorial/{name}"
    for language, marker, lines, at in blocks():
        if language == "yaml":
            assert marker, f"tutorial.md:{at}: a YAML block says which file it is from (<!-- stage: ... -->)"


def test_each_stage_adds_to_the_one_before():
    """Every line of a stage is in the next one (nothing taken away, only added), up to the final game."""
    for before, after in pairwise(STAGES[:7]):
        old, new = ((FILES / name).read_text(encoding="utf-8").splitlines() for name in (before, after))
        rest = iter(new)
        assert all(line in rest for line in old), f"{after} changes a line of {before}"


def test_each_mistake_is_its_stage_with_one_thing_changed():
    for name, (stage, replacements) in MISTAKES.items():
        text = (FILES / stage).read_text(encoding="utf-8")
        for old, new in replacements:
            assert text.count(old) == 1, (stage, old)
            text = text.replace(old, new)
        assert (FILES / name).read_text(encoding="utf-8") == text, name


def test_every_stage_passes_dusk_check():
    done = subprocess.run([sys.executable, "-m", "ruleset_engine", "check", *STAGES], cwd=FILES,
                          check=False, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert [line.split(":")[0] for line in lines] == STAGES
    assert all(": ok: last-light" in line for line in lines)


# ---- the rules, played with scripted dice: each fact worked out by hand from the YAML

def start(stage, faces, **params):
    source = ScriptedDice(faces)
    return Game.start(load(str(FILES / stage)), params=params, rng=source), source


def hour(game, *answers):
    """Play one hour, answering its questions in order; the lines it said."""
    answers = list(answers)
    outcome = game.perform("hour")
    events = list(outcome.events)
    while outcome.decision is not None:
        assert answers, f"an unexpected question: {outcome.decision.prompt}"
        outcome = game.answer(outcome.decision, answers.pop(0))
        events += outcome.events
    assert not answers, f"questions that never came: {answers}"
    return [e["text"] for e in events if e["kind"] == "say"]


NO_HIT = [1, 2, 3, 4]       # four defence dice, none on 5 or more


def test_step1_params_and_state():
    game, _ = start("step1.yaml", [])
    assert game.values["blood"] == 12 and game.values["horde"] == 0
    assert game.actions() == []                   # no loop yet: nothing to play
    game, _ = start("step1.yaml", [], blood=20)
    assert game.values["blood"] == 20             # state reads the params


def test_step2_the_horde_grows_by_a_d2_each_hour():
    game, source = start("step2.yaml", [2, 1, 2, 2, 1, 2])
    assert hour(game) == ["Hour 1: 2 more out of the dark. 2 at the door."]
    assert hour(game) == ["Hour 2: 1 more out of the dark. 3 at the door."]
    for _ in range(4):
        hour(game)
    # 2 + 1 + 2 + 2 + 1 + 2 = 10 after the sixth hour, when the loop is done: the game ends, "done".
    assert game.values["horde"] == 10 and game.over and game.result == "done" and source.remaining == 0


def test_step3_hits_drive_back_and_a_miss_costs_blood():
    game, _ = start("step3.yaml", [2, 5, 6, 1, 3] + [1] + NO_HIT)
    # Hour 1: 2 at the door, dice 5 6 1 3: two on 5 or more, so 2 - 2 = 0 get through.
    assert hour(game)[1] == "You drive back 2; 0 get through."
    assert game.values["blood"] == 12
    # Hour 2: 3 at the door and no hit: the lantern rule takes 1 blood.
    assert hour(game)[1] == "Every blow misses, and a claw opens your arm. Blood 11."
    assert game.values["blood"] == 11 and game.values["horde"] == 3


def test_step4_the_table_says_what_it_costs():
    game, source = start("step4.yaml", [2] + NO_HIT + [2, 5, 1, 1, 1])
    # Hour 1: 2 at the door, no hit: 1 blood for the miss, and 2 get through: the row 1..2 costs 1 more.
    assert hour(game)[-1] == "Claws rake the shutters. You lose 1 blood; 10 left."
    # Hour 2: 4 at the door, one hit: 3 get through, the row 3..4: 2 blood.
    assert hour(game)[-1] == "A window gives way. You lose 2 blood; 8 left."
    assert game.values["blood"] == 8 and source.remaining == 0
    # Seven or more get through: the last row, 5 blood; blood never shows below 0.
    game, _ = start("step4.yaml", [2] + NO_HIT, blood=3)
    game.values["horde"] = 7
    assert hour(game)[-1] == "The chapel is overrun. You lose 5 blood; 0 left."


def test_step5_stakes_are_asked_for_and_spent():
    game, _ = start("step5.yaml", [2] + NO_HIT)
    outcome = game.perform("hour")
    decision = outcome.decision
    assert decision.prompt == "2 are inside. How many stakes do you use? (you have 3)"
    assert decision.describe_valid() == "a whole number from 0 to 2"     # the table's prompt shows it
    with pytest.raises(DecisionError):            # at most min(stakes, through) = 2
        game.answer(decision, 3)
    game.answer(decision, 2)
    # Both stakes used: nobody gets through, so only the miss costs blood.
    assert game.values["stakes"] == 1 and game.values["blood"] == 11
    # No question when nobody gets through.
    game, _ = start("step5.yaml", [1, 5, 1, 1, 1])
    assert hour(game)[-1] == "Silence at the door. You lose 0 blood; 12 left."
    # The automatic answer spends a stake only at 3, 5 or 7 inside: 3 -> 2 is the row costing 1, not 2.
    game = Game.start(load(str(FILES / "step5.yaml")), rng=ScriptedDice([2, 1, 1, 1, 1] + [1] + NO_HIT), auto=True)
    hour(game)                                   # 2 inside: no stake
    assert game.values["stakes"] == 3 and game.values["blood"] == 10
    hour(game)                                   # 3 inside: one stake, then 2 get through
    assert game.values["stakes"] == 2 and game.values["blood"] == 8


def test_step5_has_no_end_yet_and_step6_has():
    faces = [1] + NO_HIT + [1] + NO_HIT
    game, _ = start("step5.yaml", faces, blood=2, hours=2)
    hour(game, 0)
    assert game.values["blood"] == 0 and not game.over     # 2 - 1 (miss) - 1 (one through): the game goes on
    game, _ = start("step6.yaml", faces, blood=2, hours=2)
    assert hour(game, 0)[-1] == "The lantern goes out in hour 1."
    assert game.over and game.result == "lost"
    game, _ = start("step6.yaml", [1, 5, 1, 1, 1], hours=1)
    assert hour(game)[-1] == "The windows turn grey. Dawn!"
    assert game.over and game.result == "survived"
    # Bleeding out in the last hour is a loss: the end: conditions come before the loop's then:.
    game, _ = start("step6.yaml", [1] + NO_HIT, hours=1, blood=2)
    says = hour(game, 0)
    assert game.result == "lost" and "The windows turn grey. Dawn!" not in says


def test_step7_status_and_report():
    game, _ = start("step7.yaml", [2] + NO_HIT)
    assert game.status() == "Hour 1 of 6 | Blood 12 | Horde 0 | Stakes 3"
    hour(game, 1)
    # 2 at the door, no hit (1 blood), one stake, 1 through (1 blood).
    assert game.status() == "Hour 2 of 6 | Blood 10 | Horde 2 | Stakes 2"
    assert game.report() == {"blood": 10, "stakes_left": 2}


def test_the_status_line_the_tutorial_shows():
    """The toolbar's text after the two hours step 7 plays with --seed 2 (a script has no toolbar to compare)."""
    game = Game.start(load(str(FILES / "step7.yaml")), seed=2)
    hour(game, 0)
    hour(game, 1)
    assert game.status() == STATUS
    assert f"> status\n{STATUS}\n" in TUTORIAL.read_text(encoding="utf-8")     # and the status command shows it


def test_the_font_house_rule():
    game, _ = start("font.yaml", [1] + NO_HIT + [1] + NO_HIT, blood=6)
    hour(game, 0)
    # 6 - 1 (miss) - 1 (one through) = 4: the font gives 3 back, once.
    assert game.values["blood"] == 7 and game.values["font_full"] is False
    hour(game, 0)
    # 2 through: 7 - 1 - 1 = 5; and at 4 or less the font is empty now.
    assert game.values["blood"] == 5
    assert game.report() == {"blood": 5, "stakes_left": 3, "drank": True}
    # The font raises no one: at 0 blood the game is lost, the font still full.
    game, _ = start("font.yaml", [1] + NO_HIT, blood=2)
    hour(game, 0)
    assert game.result == "lost" and game.values["font_full"] is True
    # The rules of step 7 are all there: same dice, same hour.
    game, _ = start("font.yaml", [2] + NO_HIT)
    hour(game, 1)
    assert game.status() == "Hour 2 of 6 | Blood 10 | Horde 2 | Stakes 2"


def test_the_lantern_speaks_as_each_hour_ends_and_counts_down_in_words():
    # Levels merge by name: the house rule adds a finish: block and keeps the hour's steps and times.
    game, _ = start("lantern.yaml", ([1] + NO_HIT) * 6, blood=30)
    flickers = []
    for _ in range(6):
        flickers += [line for line in hour(game, 0) if line.startswith("The lantern")]   # no stakes used
    assert flickers == [f"The lantern flickers. {n} {'hour' if n == 1 else 'hours'} to dawn." for n in range(5, -1, -1)]
    assert game.over and game.result == "survived"
