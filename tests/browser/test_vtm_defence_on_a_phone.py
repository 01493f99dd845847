"""A Vampire: the Masquerade attack in real browsers: the Storyteller's screen and two players'
phones against `dusk serve`. The Storyteller attacks Kojiro with Ana and leaves the defence to
Kojiro's player (`defend ask`): the question shows on Kojiro's phone only, with a button for each
defence, and the dodge chosen there is rolled, on every screen, before the damage."""

from __future__ import annotations

from pathlib import Path

import pytest

from .harness import ARTIFACTS, WIDTH, spread, wait_until

pytestmark = pytest.mark.timeout(600)

SHEETS = Path(__file__).resolve().parents[2] / "rulesets" / "vampire-the-masquerade"


def test_the_defender_dodges_on_their_phone(table):
    server = table.serve("vampire-the-masquerade", "--seed", "3", "--save", str(table.folder / "fight.dusk"),
                         "--sheets", str(SHEETS / "ana.yaml"), str(SHEETS / "kojiro.yaml"))
    gm = table.screen("Storyteller")
    gm.open(server.gm)
    gm.wait_text("#log .entry", "Added to character: Kojiro.")
    players = {}
    for name in ("Ana", "Kojiro"):
        screen = table.screen(name)
        screen.open(server.join)
        screen.click(f"#join button[data-seat='{name}']")
        screen.wait_text("#me", f"You play {name}")
        players[name] = screen
    everyone = [gm, *players.values()]

    # The attack's form, built from the action's declaration: who, the target, the kind, the defence.
    gm.click("#actions button[data-action='attack']")
    gm.choose("#actions form select[name=who]", "Ana")
    gm.choose("#actions form select[name=target]", "Kojiro")
    gm.choose("#actions form select[name=kind]", "firearms")
    gm.choose("#actions form select[name=defend]", "ask")
    gm.click("#actions form button[type=submit]")

    kojiro, ana = players["Kojiro"], players["Ana"]
    kojiro.wait_text("#question .prompt", "Kojiro: Ana attacks you. Dodge, block, parry, or none?")
    choices = [b.get_attribute("data-answer") for b in kojiro.find("#question button[data-answer]")]
    assert choices == ["none", "dodge", "block", "parry"]
    # Ana's phone shows whose question it is, and nothing to answer it with.
    ana.wait_text("#question .prompt", "Kojiro: Ana attacks you.")
    assert ana.find("#question button[data-answer]") == [] and "Kojiro's question" in ana.text("#question")
    kojiro.click("#question button[data-answer='dodge']")

    for screen in everyone:
        screen.wait_text("#log .entry.roll", "Ana attacks Kojiro (firearms) at 6")
        screen.wait_text("#log .entry.roll", "Kojiro defends (dodge) at 6")
        screen.wait_text("#log .entry", "(dodge) =")
        assert "No question waits." in screen.text("#question")
    # Kojiro's own sheet shows the health track the attack marked.
    kojiro.wait_text("#sheet", "health")

    # A character named as markup, made by the Storyteller's typed command: text on every screen.
    hostile = "<img src=x onerror=alert(1)><script>alert(2)</script>"
    gm.fill("#command-line", f"character 'name={hostile}'")
    gm.click("#command button[type=submit]")
    gm.wait_text("#question .prompt", f"{hostile}: nature?")
    gm.click("#question button[data-answer='vampire']")
    gm.wait_text("#question .prompt", f"{hostile}: generation (4-15)?")
    gm.click("#question button[data-answer='13']")
    gm.wait_text("#question", "No question waits.")
    for screen in everyone:
        shown = screen.wait_text("#log .entry", f"Added to character: {hostile}.")
        assert shown == f"Added to character: {hostile}."
        assert screen.find("#log img") == [] and screen.find("#log script") == []
    newcomer = table.screen("newcomer")
    newcomer.open(server.join)
    button = newcomer.one("#join button[data-seat]")
    assert button.text == hostile and newcomer.find("#join img") == []
    for screen in [*everyone, newcomer]:
        assert_no_alert(screen)

    path = kojiro.screenshot(ARTIFACTS / "vtm-defender.png")
    size, deviation, levels = spread(path)
    assert size[0] == WIDTH and deviation > 10 and levels > 20, (path, deviation, levels)


def assert_no_alert(screen) -> None:
    """No script of the page's data ran: no alert is open."""
    from selenium.common.exceptions import NoAlertPresentException

    try:
        text = screen.driver.switch_to.alert.text
    except NoAlertPresentException:
        return
    raise AssertionError(f"an alert on {screen.name}'s screen: {text!r}")
