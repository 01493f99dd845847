"""Vampire: the Masquerade, the rolls of part 1 with scripted dice: the source text's four worked
rolls with its own numbers, then each rule and each param, every expected value worked out by hand.

The summary's examples (in its Chinese): Ryoma shoots a tree with Dexterity + Firearms 4 at 6 and
rolls 2 3 6 9 (two successes); Aoshima repairs an engine with Wits + Crafts 5 at 8 and rolls
1 4 4 5 7 (a botch); Musashi, Dexterity 3, Brawl 4, Dodge 3, punches and dodges twice (4, 2 and 1
dice); Kojiro searches a library with Intelligence + Investigation at 8 and needs 15 successes.
"""

import pytest
from tests.games.vtm_table import said, start


def rolls(outcome):
    return [e for e in outcome.events if e["kind"] == "roll"]


def sheet(game, name):
    return next(c for c in game.values["character"] if c["name"] == name)


# ---- the four worked rolls of the text ------------------------------------------------------

def test_ryoma_shoots_a_tree_two_successes():
    game, source = start([2, 3, 6, 9])
    out = game.perform("test", who="Ana", dice=4, diff=6)
    assert rolls(out)[0]["dice"] and [d["face"] for d in rolls(out)[0]["dice"]] == [2, 3, 6, 9]
    assert said(out) == ["2 3 6✓ 9✓ = 2 successes: Moderate"]
    assert said(out, "zh") == ["2 3 6✓ 9✓ = 2 个成功：普通"]
    assert (game.values["last_net"], game.values["last_botch"]) == (2, False)
    assert source.remaining == 0


@pytest.mark.parametrize("rule", ["revised", "classic"])
def test_aoshimas_engine_is_a_botch_under_both_rules(rule):
    game, _ = start([1, 4, 4, 5, 7], botch_rule=rule)
    out = game.perform("test", who="Ana", dice=5, diff=8)
    assert said(out) == ["1⊘ 4 4 5 7 = Botch!"]
    assert said(out, "zh") == ["1⊘ 4 4 5 7 = 严重失误！"]
    assert game.values["last_botch"] is True


def test_musashi_three_actions_four_two_and_one_dice():
    game, source = start([6, 6, 6, 6] + [6, 6] + [6])
    game.perform("turn")
    # Dexterity 3 + Brawl 4 = 7 dice, three actions: the first loses 3.
    first = game.perform("test", who="Kojiro", dice=7, actions=3, nth=1)
    # Dexterity 3 + Dodge 3 = 6 dice: the second loses 4, the third 5.
    second = game.perform("test", who="Kojiro", dice=6, actions=3, nth=2)
    third = game.perform("test", who="Kojiro", dice=6, actions=3, nth=3)
    assert [len(rolls(o)[0]["dice"]) for o in (first, second, third)] == [4, 2, 1]
    assert said(first)[0] == "3 actions: this one, number 1, loses 3 dice."
    assert said(third)[-1] == "6✓ = 1 success: Marginal"
    assert source.remaining == 0


def test_an_action_left_with_no_dice_fails_without_a_roll():
    game, source = start([])
    out = game.perform("test", who="Ana", dice=3, actions=3, nth=1)
    assert rolls(out) == [] and said(out)[-1] == "No dice left: the action fails."
    assert source.remaining == 0


def test_kojiro_gathers_fifteen_successes_in_the_library():
    # Intelligence 5 + Investigation 4 = 9 dice at 8, six rolls of ten minutes each.
    throws = [[8, 9, 10, 2, 3, 4, 5, 6, 7],      # 3
              [8, 8, 1, 2, 3, 4, 5, 6, 7],       # 2 - 1 = 1: 4
              [9, 9, 9, 9, 2, 2, 2, 2, 2],       # 4: 8
              [2, 3, 4, 5, 6, 7, 2, 3, 4],       # 0 (no 1: a failure, not a botch): 8
              [10, 10, 10, 10, 10, 2, 2, 2, 2],  # 5: 13
              [8, 8, 2, 2, 2, 2, 2, 2, 2]]       # 2: 15, done
    game, source = start([f for t in throws for f in t])
    lines = [said(game.perform("extended", who="Kojiro", dice="intelligence + investigation", diff=8, target=15))[-1]]
    for _ in throws[1:]:
        lines.append(said(game.perform("extended", who="Kojiro", dice="intelligence + investigation", diff=8))[-1])
    assert [int(line.split()[0]) for line in lines] == [3, 4, 8, 8, 13, 15]
    assert lines[-1] == "15 of 15 successes gathered: the task is done."
    assert (sheet(game, "Kojiro")["task_total"], sheet(game, "Kojiro")["task_target"]) == (0, 0)
    assert source.remaining == 0
    out = game.perform("extended", who="Kojiro", dice=9, diff=8)
    assert said(out) == ["Kojiro has no extended action under way: begin one with target N."] and rolls(out) == []


@pytest.mark.parametrize("rule, said_last, left", [
    ("reset", "The botch loses all 12 successes gathered: start again from 0 (of 15).", (0, 15)),
    ("lose_one", "11 of 15 successes gathered.", (11, 15)),
    ("end", "The botch ends the task: it fails.", (0, 0)),
])
def test_a_botch_in_an_extended_action(rule, said_last, left):
    game, _ = start([10, 10, 10, 10, 10, 10, 9, 9, 9, 9, 9, 9] + [1, 2, 3, 4, 5, 6, 7, 2, 3], extended_botch=rule)
    assert said(game.perform("extended", who="Kojiro", dice=12, diff=8, target=15))[-1] == \
        "12 of 15 successes gathered."
    out = game.perform("extended", who="Kojiro", dice=9, diff=8)
    assert said(out)[-1] == said_last
    kojiro = sheet(game, "Kojiro")
    assert (kojiro["task_total"], kojiro["task_target"]) == left


# ---- successes, ones, botches: each param ----------------------------------------------------

@pytest.mark.parametrize("faces, diff, rule, line", [
    ([8, 1, 1], 6, "revised", "8✓ 1⊘ 1⊘ = 0 successes: Failure"),    # a success rolled: not a botch
    ([8, 1, 1], 6, "classic", "8✓ 1⊘ 1⊘ = Botch!"),                   # more 1s than successes
    ([8, 8, 1, 1], 6, "classic", "8✓ 8✓ 1⊘ 1⊘ = 0 successes: Failure"),
    ([5, 5, 5], 6, "revised", "5 5 5 = 0 successes: Failure"),        # no 1: a failure
    ([6, 10, 1], 6, "revised", "6✓ 10✓ 1⊘ = 1 success: Marginal"),
])
def test_successes_ones_and_botches(faces, diff, rule, line):
    game, _ = start(faces, botch_rule=rule)
    out = game.perform("test", who="Ana", dice=len(faces), diff=diff)
    assert said(out) == [line]


def test_a_die_at_the_difficulty_succeeds():
    game, _ = start([7, 6])
    assert said(game.perform("test", who="Ana", dice=2, diff=7)) == ["7✓ 6 = 1 success: Marginal"]


def test_ones_that_do_not_cancel():
    game, _ = start([8, 9, 1, 1], ones_cancel=False)
    assert said(game.perform("test", who="Ana", dice=4, diff=6)) == ["8✓ 9✓ 1✗ 1✗ = 2 successes: Moderate"]


def test_a_specialty_rerolls_tens_which_may_roll_ten_again():
    game, source = start([10, 3, 1, 10, 7])     # 10 adds a die (10, which adds another: 7)
    out = game.perform("test", who="Ana", dice=3, diff=6, spec="firearms")
    assert [d["face"] for d in rolls(out)[0]["dice"]] == [10, 3, 1, 10, 7]
    assert said(out) == ["10✓ 3 1⊘ 10✓ 7✓ = 2 successes: Moderate"]
    assert source.remaining == 0


def test_a_specialty_under_the_double_rule_counts_a_ten_twice():
    game, source = start([10, 3, 1], specialty="double")
    out = game.perform("test", who="Ana", dice=3, diff=6, spec="firearms")
    assert said(out) == ["10✓ 3 1⊘ = 1 success: Marginal"]           # 1 + 1 (the ten) - 1
    assert source.remaining == 0


def test_a_specialty_needs_a_trait_of_four_or_more():
    game, source = start([10, 3, 1])
    out = game.perform("test", who="Ana", dice=3, diff=6, spec="dexterity")      # Dexterity 3
    assert said(out) == ["A specialty needs a trait of 4 or more, not 3: rolled without it.",
                         "10✓ 3 1⊘ = 0 successes: Failure"]
    assert source.remaining == 0


def test_without_a_specialty_a_ten_is_one_success():
    game, _ = start([10, 3, 1], specialty="double")
    assert said(game.perform("test", who="Ana", dice=3, diff=6)) == ["10✓ 3 1⊘ = 0 successes: Failure"]


# ---- Willpower ----------------------------------------------------------------------------

def test_willpower_is_one_success_ones_cannot_cancel_and_no_botch():
    game, _ = start([1, 1, 4])
    out = game.perform("test", who="Ana", dice=3, diff=6, wp=True)
    assert said(out) == ["1⊘ 1⊘ 4 +1 (Willpower) = 1 success: Marginal"]
    assert sheet(game, "Ana")["willpower_pool"] == 4


def test_willpower_cancelable_lets_ones_take_it_but_still_no_botch():
    game, _ = start([1, 1, 4], willpower_cancelable=True)
    out = game.perform("test", who="Ana", dice=3, diff=6, wp=True)
    assert said(out) == ["1⊘ 1⊘ 4 +1 (Willpower) = 0 successes: Failure"]
    assert game.values["last_botch"] is False


def test_willpower_once_a_turn_then_again_next_turn():
    game, source = start([7, 7] + [7, 7])
    game.perform("test", who="Ana", dice=2, wp=True)
    refused = game.perform("test", who="Ana", dice=2, wp=True)
    assert said(refused) == ["Refused: Ana has spent Willpower this turn already (one point a turn)."]
    assert rolls(refused) == [] and sheet(game, "Ana")["willpower_pool"] == 4
    other = game.perform("test", who="Kojiro", dice=2, wp=True)     # another character may
    assert sheet(game, "Kojiro")["willpower_pool"] == 7 and rolls(other)
    game.perform("turn")
    game.perform("test", who="Ana", dice=0, wp=True)                 # no dice, no roll: nothing spent
    assert sheet(game, "Ana")["willpower_pool"] == 4
    assert source.remaining == 0


def test_the_clock_moves_on_by_turn_scene_and_night():
    game, _ = start([])
    loop = lambda: (game.values["loop"]["night"], game.values["loop"]["scene"], game.values["loop"]["turn"])  # noqa: E731
    game.perform("next")
    game.perform("next", what="turn")
    assert loop() == (1, 1, 3) and game.values["clock"] == 3
    game.perform("next", what="scene")
    assert loop() == (1, 2, 1) and game.values["clock"] == 4
    game.perform("next", what="night")
    assert loop() == (2, 1, 1)
    game.perform("scene")
    game.perform("night")
    assert loop() == (3, 1, 1) and game.values["clock"] == 7


def test_no_willpower_left_is_refused():
    game, _ = start([])
    for c in game.values["character"]:
        if c["name"] == "Ana":
            c["willpower_pool"] = 0
    out = game.perform("test", who="Ana", dice=2, wp=True)
    assert said(out) == ["Refused: Ana has no Willpower left."]


# ---- retry, the wound penalty -----------------------------------------------------------------

def test_each_retry_raises_the_difficulty():
    game, _ = start([7, 8])
    out = game.perform("test", who="Ana", dice=2, diff=6, retry=2)
    assert said(out) == ["Retry 2: difficulty 6 + 2 = 8.", "7 8✓ = 1 success: Marginal"]


def test_a_difficulty_above_ten_cannot_succeed_and_says_so():
    game, source = start([])
    out = game.perform("test", who="Ana", dice=5, diff=9, retry=2)
    assert said(out)[-1] == "Difficulty 11 is above 10: the action cannot succeed."
    assert rolls(out) == [] and source.remaining == 0


def test_the_wound_penalty_takes_dice_off_except_when_it_does_not_apply():
    game, _ = start([7] * 40)
    game.perform("wound", who="Ana", levels=4, type="lethal")          # Wounded: -2
    # Dexterity 3 + Firearms 4 rolls a Physical Attribute: 7 - 2; Perception 3 + Alertness 2 does not.
    hurt = game.perform("test", who="Ana", dice="dexterity + firearms")
    mind = game.perform("test", who="Ana", dice="perception + alertness")
    # Dice the Storyteller counts name no trait: no penalty unless said (wounds always).
    counted = game.perform("test", who="Ana", dice=6)
    said_so = game.perform("test", who="Ana", dice=6, wounds="always")
    off = game.perform("test", who="Ana", dice="dexterity + firearms", wounds="never")
    assert [len(rolls(o)[0]["dice"]) for o in (hurt, mind, counted, said_so, off)] == [5, 5, 6, 4, 7]


def test_the_health_levels_and_their_penalties():
    game, _ = start([])
    lines = [said(game.perform("wound", who="Ana", levels=1, type="bashing"))[-1] for _ in range(7)]
    assert [line.split(": ", 1)[1].split(";")[0] for line in lines] == [
        "Bruised (0)", "Hurt (-1)", "Injured (-1)", "Wounded (-2)",
        "Mauled (-2)", "Crippled (-5)", "Incapacitated, only blood may be spent"]
    assert lines[2] == "Ana takes 1 bashing: Injured (-1); 3/7 (bashing 3)."
    out = game.perform("test", who="Ana", dice=6)
    assert said(out) == ["Ana cannot act: incapacitated."] and rolls(out) == []


# ---- resisted, teamwork, automatic success, generation -----------------------------------------

def test_a_resisted_action_more_successes_wins():
    game, _ = start([7, 8, 1] + [9, 2, 3])
    out = game.perform("resisted", who="Ana", dice=3, vs="Kojiro", vs_dice=3)
    assert said(out)[-1] == "A tie, 1 to 1: nobody wins."
    game, _ = start([7, 8, 9] + [9, 2, 3])
    assert said(game.perform("resisted", who="Ana", dice=3, vs="Kojiro", vs_dice=3))[-1] == "Ana wins, 3 to 1."


def test_a_resisted_action_read_as_net_successes():
    game, _ = start([7, 8, 9] + [9, 2, 3], resisted_rule="net")
    out = game.perform("resisted", who="Ana", dice=3, vs="Kojiro", vs_dice=3)
    assert said(out)[-1] == "Ana keeps 3 - 1 = 2 successes."


def test_extended_and_resisted_the_first_to_the_target_wins():
    game, source = start([7, 7] + [7, 2] + [7, 7] + [7, 2] + [2, 2] + [7, 7])
    out = game.perform("resisted", who="Ana", dice=2, vs="Kojiro", vs_dice=2, target=4)
    assert [s for s in said(out) if s.startswith("Roll")] == [
        "Roll 1: Ana 2, Kojiro 1 (of 4).", "Roll 2: Ana 4, Kojiro 2 (of 4)."]
    assert said(out)[-1] == "Ana reaches 4 first and wins."
    assert source.remaining == 4


def test_teamwork_sums_successes_and_reports_a_botch():
    game, _ = start([7, 8] + [1, 2] + [9, 9, 9])
    game.perform("team", who="Ana", dice=2)
    botched = game.perform("team", who="Kojiro", dice=2)
    assert said(botched)[1] == "Kojiro botches: the whole team may fall into chaos (the Storyteller's call)."
    game.perform("npc", name="Brute", dex=3)
    game.perform("team", who="Brute", dice=3)
    done = game.perform("team_done")
    assert said(done) == ["Teamwork: 5 successes (Phenomenal) from 3 rolls, 1 botch."]
    assert game.values["team_net"] == 0


def test_an_automatic_success_rolls_nothing():
    game, source = start([])
    out = game.perform("automatic", who="Ana")
    assert said(out) == ["Ana: an automatic success, 1 success: Marginal."] and rolls(out) == []


def test_the_generation_chart_sets_the_blood_pool():
    game, _ = start([])
    out = game.perform("generation", who="Ana", gen=8)
    assert said(out) == ["Ana: generation 8, blood pool 10/15, 3 a turn."]
    ana = sheet(game, "Ana")
    assert (ana["generation"], ana["blood_max"], ana["blood_per_turn"]) == (8, 15, 3)


def test_an_extra_from_one_line():
    game, _ = start([])
    game.perform("npc", name="Brute", nature="human", str=4, dex=3, sta=4, brawl=3)
    brute = sheet(game, "Brute")
    assert (brute["nature"], brute["strength"], brute["dexterity"], brute["stamina"], brute["brawl"]) == \
        ("human", 4, 3, 4, 3)
    assert brute["blood"] == 0


def test_a_new_character_asks_its_nature_and_generation():
    # The rest of the sheet is filled at the table (fill NAME, tests/repl/test_sheet_set.py).
    game, _ = start([])
    out = game.perform("character", name="Rosa")
    prompts = []
    for answer in ["ghoul", 9]:
        prompts.append(out.decision.prompt["en"] if isinstance(out.decision.prompt, dict) else out.decision.prompt)
        out = game.answer(out.decision, answer)
    assert out.decision is None and prompts == ["Rosa: nature?", "Rosa: generation (4-15)?"]
    rosa = sheet(game, "Rosa")
    assert (rosa["nature"], rosa["dexterity"], rosa["generation"]) == ("ghoul", 1, 9)
    assert (rosa["blood_max"], rosa["blood_per_turn"], rosa["firearms"]) == (14, 2, 0)   # the chart's 9th generation
