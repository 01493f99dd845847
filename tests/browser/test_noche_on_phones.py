"""A Noche de los Vampiros conflict played in real browsers: the GM and three players, each on a
phone's screen of their own (a headless Chromium each, 390 px wide), against `dusk serve`.

The GM answers the setup on their screen (a player early finds no seat yet); each player takes a
seat through the join link; the GM shows one of the ruleset's tables; the GM starts a conflict, and
each player risks dice and brings in a Relationship on their own screen while the others see whose
question it is and have no control to answer it. Every roll shows on every
screen (waited for, with a bound). The GM's secret roll shows on the GM's screen only; a roll the GM
asks of a player is made on the player's phone. Screenshots of the GM's and a player's screen are
written under tests/artifacts (gitignored) and checked not to be blank.
"""

from __future__ import annotations

import re

import pytest

from .harness import ARTIFACTS, WIDTH, spread, wait_until

pytestmark = pytest.mark.timeout(600)

NAMES = ["Ana", "Beto", "Carla"]
RISKS = {"Ana": 3, "Beto": 2, "Carla": 4}
SECRET = "3d10+1"        # an expression no other roll of this game shows


def answer_text(screen, text: str) -> None:
    screen.fill("#question form.answer input[type=text]", text)
    screen.click("#question form.answer button[type=submit]")


def prompt(screen) -> str:
    return screen.one("#question .prompt").text


def test_a_noche_conflict_on_four_phones(table):
    server = table.serve("noche-de-los-vampiros", "--seed", "5", "--save", str(table.folder / "night.dusk"))
    gm = table.screen("GM")
    gm.open(server.gm)
    gm.wait_text("#me", "You are the GM")

    # The setup, on the GM's screen: a number from 2 to 8 is one button each.
    gm.wait_text("#question .prompt", "How many characters tonight")
    assert "the GM's question" in gm.text("#question")
    # A player early, before any character exists: no seat to take, and no question on their screen.
    early = table.screen("Ana")
    early.open(server.join)
    early.wait_text("#notice", "No seat is free: ask the GM.")
    assert early.find("#question") == [] and early.find("#join button") == []
    gm.click("#question button[data-answer='3']")
    for name in NAMES:
        gm.wait_text("#question .prompt", "a first name?")
        answer_text(gm, name)
        gm.wait_text("#log .entry", f"Added to character: {name}.")
    # Who starts: the dice of each, then the Relationships' words (the GM may answer any seat's question).
    words = {}
    while True:
        question = wait_until(lambda: gm.one("#question .body").text, "a question or none on the GM's screen")
        found = re.search(r"(\w+): your (Bond|Conflict) with (\w+), in a few words\?", question)
        if not found:
            break
        said = f"{found[1]} owes {found[3]} a {found[2].lower()}"
        answer_text(gm, said)
        gm.wait_text("#log .entry", f"{found[1]} has a {found[2]} with {found[3]}: {said}")
        words[found.groups()] = said
    assert len(words) == 6, words
    gm.wait_text("#log .entry", "The night begins with 3 characters")
    assert "No question waits." in gm.text("#question")

    # Each player takes a seat through the join link, on their own phone.
    players = {}
    for name in NAMES:
        screen = early if name == "Ana" else table.screen(name)
        screen.open(server.join)
        screen.click(f"#join button[data-seat='{name}']")
        screen.wait_text("#me", f"You play {name}")
        screen.wait_text("#sheet h2", name)
        players[name] = screen
    everyone = [gm, *players.values()]
    gm.open(server.base + "/")       # the GM's page again: the seats taken
    gm.wait_text("#seats", "taken")
    assert all(f"{name}\ntaken" in gm.text("#seats") or f"{name} taken" in gm.text("#seats") for name in NAMES), \
        gm.text("#seats")

    # The ruleset's tables, on the GM's screen only, by their titles: the Relationships the setup wrote.
    gm.wait_text("#table-name", "Outcomes (after Zak Arntson's grid, in our own words)")
    gm.choose("#table-name", "relationships")
    gm.click("#table-show")
    shown = gm.wait_text("#output", "Relationships")
    assert all(said in shown for said in words.values()), shown
    for screen in players.values():          # a player's page has no tables to pick (nor the GM's tools)
        assert screen.find("#table-name option") == [] and not screen.find("#gm")[0].is_displayed()

    # A secret roll: on the GM's screen only.
    gm.fill("#secret-expr", SECRET)
    gm.click("#secret-roll button[type=submit]")
    secret = gm.wait_text("#log .entry.secret", SECRET)
    assert "secret" in secret

    # The GM starts a conflict; each player answers their own questions on their own phone.
    gm.click("#actions button[data-action='conflict']")
    gm.click("#actions form button[type=submit]")
    for name in NAMES:
        mine = players[name]
        mine.wait_text("#question .prompt", f"{name}: how many of your 10 dice do you risk?")
        for other in (s for s in everyone if s is not mine):
            other.wait_text("#question .prompt", f"{name}: how many")
            if other is not gm:     # another seat's question: whose it is, and nothing to answer it with
                assert other.find("#question button[data-answer]") == [] and other.find("#question form") == []
                assert f"{name}'s question" in other.text("#question")
        if name == "Ana":       # a player's phone while their question waits (docs/serve.md shows it)
            path = mine.screenshot(ARTIFACTS / "noche-player-asked.png", whole=False)
            assert spread(path)[1] > 10
        mine.click(f"#question button[data-answer='{RISKS[name]}']")
        mine.wait_text("#question .prompt", f"{name}: which of your Relationships do you bring in")
        mine.click("#question .toggles button[data-index='0']")
        mine.click("#question form.answer button[type=submit]")
        # The player's roll, on every screen, every die shown with its mark.
        label = f"{name}: {RISKS[name]} risked, 1 for Relationships"
        for screen in everyone:
            shown = screen.wait_text("#log .entry.roll", label)
            assert shown.startswith(label)
        entry = next(e for e in players[name].find("#log .entry.roll") if e.text.startswith(label))
        dice = entry.find_elements("css selector", ".die")
        assert len(dice) == RISKS[name] + 1
        assert all(d.get_attribute("data-face") in "123456" for d in dice)
    # The Vampire Pool and each player against it, on every screen; the conflict's end.
    for screen in everyone:
        screen.wait_text("#log .entry.roll", "GM (")
        for name in NAMES:
            screen.wait_text("#log .entry.roll", f"{name} against the pool")
        screen.wait_text("#log .entry", "Highest die")
        assert "No question waits." in screen.text("#question")
    # The secret roll never reached a player's screen, though every later roll did.
    for name, screen in players.items():
        assert screen.find("#log .entry.secret") == []
        assert not any(SECRET in text for text in screen.log_texts()), name
    # A cancelled die shows its mark, never colour alone.
    marks = [d.text for s in everyone for d in s.find("#log .die.cancelled")]
    assert all(mark.endswith("⊘") for mark in marks)

    # A roll the GM asks of Ana: her phone shows it with the dice filled in, and she makes it.
    gm.fill("#command-line", "request Ana 2d6")
    gm.click("#command button[type=submit]")
    ana = players["Ana"]
    asked = ana.one("#requests input[name=expr]")
    assert asked.get_attribute("value") == "2d6"
    assert players["Beto"].find("#requests .request form") == []
    ana.click("#requests button[type=submit]")
    for screen in everyone:
        screen.wait_text("#log .entry.roll, #log .entry.free-roll", "2d6")
    wait_until(lambda: ana.find("#requests .request") == [], "the request gone from Ana's screen")

    # Screenshots at a phone's width: the GM's and a player's, not blank.
    for who, screen in (("gm", gm), ("player", ana)):
        path = screen.screenshot(ARTIFACTS / f"noche-{who}.png")
        size, deviation, levels = spread(path)
        assert size[0] == WIDTH, size
        assert deviation > 10 and levels > 20, (path, deviation, levels)
