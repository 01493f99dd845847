"""Loading a ruleset is linear work in its size (issue 24, 5): named formulas calling each other
are measured once each (not written out again at every call: 18 formulas each calling the next
twice took 18 s, 8 calling the next 10 times never ended), a formula too big once written out is
refused before it is written out, and a table's coverage places each row once per column (19,999
rows took 220 s comparing every row with every cell). The tests count the work, never time it."""

import textwrap

import pytest

from ruleset_engine.dice import named
from ruleset_engine.ruleset import RulesetError, load, tables


def formulas_file(tmp_path, n: int, calls: int, wide: bool = False, ring: bool = False) -> str:
    """n formulas, each calling the next `calls` times (added, or as the arguments of one max(..)),
    the last one plain; `ring`: the last calls the first. An action reads f0."""
    lines = ["ruleset: t", "title: T", "formulas:"]
    for i in range(n):
        nxt = f"f{(i + 1) % n}(x)"
        body = "x + 1" if i == n - 1 and not ring else \
            f"max({', '.join([nxt] * calls)})" if wide else " + ".join([nxt] * calls)
        lines.append(f'  f{i}: {{params: [x], formula: "{body}"}}')
    lines += ["state: {v: 0}", "actions:", "  go:", "    steps:", '      - set: {v: "f0(1)"}']
    path = tmp_path / f"f{n}-{calls}{'w' if wide else ''}{'r' if ring else ''}.yaml"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def visits(monkeypatch, path) -> tuple[int, list[str]]:
    """(syntax-tree nodes visited while measuring named formulas, the problems) of loading path."""
    count = [0]
    children = named._children

    def counted(node):
        count[0] += 1
        return children(node)

    monkeypatch.setattr(named, "_children", counted)
    try:
        load(path)
        problems = []
    except RulesetError as err:
        problems = [str(p) for p in err.problems]
    return count[0], problems


def test_formulas_each_calling_the_next_twice_are_measured_once_each(tmp_path, monkeypatch):
    small, _ = visits(monkeypatch, formulas_file(tmp_path, 9, 2))
    large, problems = visits(monkeypatch, formulas_file(tmp_path, 18, 2))
    # Written out in place the work doubles with each formula (2^18 / 2^9 = 512 times more for twice
    # the formulas); measured once each, twice the formulas is about twice the work.
    assert large <= 2.5 * small, (small, large)
    text = "\n".join(problems)
    assert "the formula f0 nests more than 24 levels deep once the formulas it calls are written in place" in text
    assert "f10 is more than 4,096 parts long once the formulas it calls are written in place (about 4,093)" \
        not in text           # f10 .. f17 are small enough: 2^(18-i) parts
    assert "the formula f6 is more than 4,096 parts long once the formulas it calls are written in place " \
           "(about 16,379)" in text
    assert "f0(1)" in text and "more than 4,096 parts long once the named formulas it calls are written in " \
        "place (about 1,048,573); call fewer of them (at actions.go.steps[0].set.v)" in text


def test_formulas_each_calling_the_next_ten_times_are_refused_before_the_work(tmp_path, monkeypatch):
    # 8 formulas, each max(..) of ten calls of the next: 10^7 copies of the last, nesting 16 deep.
    small, _ = visits(monkeypatch, formulas_file(tmp_path, 4, 10, wide=True))
    large, problems = visits(monkeypatch, formulas_file(tmp_path, 8, 10, wide=True))
    assert large <= 2.5 * small, (small, large)
    # f_i is written out as 1 + 11 * (f_{i+1}'s parts) + ...: f3 has 1 + 10 * (2 + 4) ... past the limit.
    assert any("the formula f0 is more than 4,096 parts long" in p for p in problems), problems
    assert any("(at actions.go.steps[0].set.v)" in p and "call fewer of them" in p for p in problems), problems


def test_a_long_chain_and_a_long_ring_of_formulas_are_linear_work(tmp_path, monkeypatch):
    chain_small, _ = visits(monkeypatch, formulas_file(tmp_path, 300, 1))
    chain_large, problems = visits(monkeypatch, formulas_file(tmp_path, 600, 1))
    assert chain_large <= 2.5 * chain_small, (chain_small, chain_large)
    assert any("the formula f0 nests more than 24 levels deep" in p for p in problems)
    _, problems = visits(monkeypatch, formulas_file(tmp_path, 600, 1, ring=True))
    assert any("the formula f0 calls itself (through f1, f2, f3, f4, f5, ... and 594 more)" in p for p in problems), \
        problems[:3]


def test_table_coverage_places_each_row_once(tmp_path, monkeypatch):
    """Coverage reads each key cell a bounded number of times: rows x columns, not rows x cells."""
    count = [0]
    span = tables._span

    def counted(m):
        count[0] += 1
        return span(m)

    monkeypatch.setattr(tables, "_span", counted)

    def reads(n: int, gap: bool) -> int:
        rows = "".join(f"      - {{roll: {i * (2 if gap else 1)}, out: {i}}}\n" for i in range(1, n))
        path = tmp_path / f"t{n}{gap}.yaml"
        path.write_text(f"ruleset: t\ntitle: T\ntables:\n  big:\n    key: roll\n    rows:\n{rows}")
        count[0] = 0
        try:
            load(str(path))
        except RulesetError as err:
            assert gap and len(err.problems) == 100 and err.problems.total == n - 2
        return count[0]

    for gap in (False, True):       # with gaps: n - 2 runs, each named with the row after it
        small, large = reads(2_000, gap), reads(4_000, gap)
        assert large <= 2.2 * small, (gap, small, large)
