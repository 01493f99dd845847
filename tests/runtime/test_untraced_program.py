"""What the untraced program (dusk simulate) leaves out, and what it must keep: texts nobody reads are
skipped unless a placeholder could fail, and pools carry what they set aside only where aside()
can read it. (tests/test_parity.py holds both modes to the same results; these pin the savings.)"""

from ruleset_engine.ruleset import load
from ruleset_engine.runtime import RunLimits, resolve_params
from ruleset_engine.runtime.program import build


def untraced_source(ruleset) -> str:
    return build(ruleset, resolve_params(ruleset, {}), traced=False, run_limits=RunLimits()).source


def test_attack_skips_its_texts_and_tracks_aside_only_for_the_kill_roll():
    source = untraced_source(load("attack-of-the-vampires"))
    # plural(), sums and `'A' if x else 'B'` cannot fail: nothing of a skipped text is evaluated.
    assert "may fail" not in source
    assert source.count("_u_filter(") == 1 and "set_aside" not in source   # the kill roll's, tracked
    assert "_u_pick_aside" not in source          # largest_set(kill) is never read by aside()


def test_a_placeholder_that_can_fail_is_still_evaluated(written):
    ruleset = written("""\
        ruleset: t
        title: T
        state: {n: 0}
        actions:
          go:
            steps:
              - say: "safe {n + 1} {'a' if n > 0 else 'b'} {plural(n, 'x', 'xs')}"
              - say: "risky {10 // n}"
        """)
    source = untraced_source(ruleset)
    assert source.count("may fail") == 1 and "_div(" in source


def test_a_local_each_branch_binds_its_own_way_is_not_taken_as_safe(written):
    # x is a number when n > 0 and a text otherwise: {x + 1} can fail at the table, so a simulation
    # evaluates it too. (A local bound by one branch only is refused at load: tests/ruleset/test_surely_set.py.)
    ruleset = written("""\
        ruleset: t
        title: T
        state: {n: 0}
        actions:
          go:
            steps:
              - if: n > 0
                then: [{let: {x: 1}}]
                else: [{let: {x: "'one'"}}]
              - say: "{x + 1}"
        """)
    assert untraced_source(ruleset).count("may fail") == 1
