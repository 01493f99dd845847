"""The characters a terminal would act on (ruleset_engine/textfile.control_character), the check
every name, text and value read from a file or the cache goes through."""

from __future__ import annotations

import pytest

from ruleset_engine.textfile import control_character

# Written out by hand from the rule (C0 but a new line and a tab, DEL, C1, the bidirectional marks,
# overrides and isolates), not from the code's pattern.
ACTED_ON = ({c for c in range(0x20)} - {0x09, 0x0A}) | {0x7F} | set(range(0x80, 0xA0)) \
    | {0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069}


def test_every_character_up_to_the_isolates_is_judged_as_the_rule_says():
    for code in range(0x2100):
        found = control_character(f"abc{chr(code)}def")
        assert (found is not None) == (code in ACTED_ON), hex(code)
        if found is not None:
            assert found.startswith(f"U+{code:04X}")


@pytest.mark.parametrize("text, named", [
    ("plain text, 中文, ñ and a tab\there\nand a new line", None),
    ("red \x1b[31m", "U+001B (ESC)"),
    ("first \x07 then \x1b", "U+0007 (BEL)"),
    ("a name \u202eshown backwards", "U+202E"),
    ("\x9b C1", "U+009B (CSI)"),
    ("", None),
])
def test_the_first_one_is_named(text, named):
    assert control_character(text) == named
