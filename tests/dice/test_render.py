"""Rendering: every die in view, fates marked by symbols (not only colour), a legend."""

from ruleset_engine.dice.render import render_rich, render_text
from tests.conftest import roll


def test_every_die_is_shown_with_its_fate_symbol():
    result = roll("count(4d6kh3, >= 4)", faces=[5, 3, 2, 6])
    text = render_text(result)
    assert "5 3 2✗ 6  → 14" in text
    assert "5✓ 3 6✓" in text
    assert text.rstrip().endswith("(✓ counted, ✗ dropped)")
    assert "= 2" in text


def test_rerolled_and_exploded_dice_keep_their_history_in_view():
    assert "3→7→15" in render_text(roll("1d20rr<10", faces=[3, 7, 15]))
    assert "6! 2 3" in render_text(roll("2d6!", faces=[6, 2, 3]))


def test_set_aside_and_cancelled_symbols():
    assert "2↓" in render_text(roll("unpair([2, 2])", faces=[]))
    assert "1⊘" in render_text(roll("cancel([1, 4], [1])", faces=[]))


def test_ascii_mode_and_rich_text_carry_the_same_symbols():
    result = roll("4d6kh3", faces=[5, 3, 2, 6])
    assert "2x" in render_text(result, ascii_only=True)
    rich_text = render_rich(result)
    assert rich_text.plain == render_text(result)
    assert any("strike" in str(span.style) for span in rich_text.spans)
