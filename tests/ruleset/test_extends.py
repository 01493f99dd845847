"""`extends:`: maps deep-merge, scalars replace, lists merge by id, and $remove / $replace / $insert."""

import textwrap

import pytest

from ruleset_engine.ruleset import RulesetError, load, read_merged

PARENT = """\
ruleset: parent
title: Parent
params:
  a: {type: integer, default: 1, doc: first}
  b: {type: integer, default: 2}
state: {n: 0}
actions:
  go:
    steps:
      - {id: first, set: {n: n + 1}}
      - {id: last, say: "n is {n}"}
triggers:
  - {id: t1, when: n > 5, do: [{set: {n: 0}}]}
  - {id: t2, when: n > 9, do: [{set: {n: 1}}]}
"""


@pytest.fixture(autouse=True)
def files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "parent.yaml").write_text(PARENT)


def child(tmp_path, text):
    (tmp_path / "child.yaml").write_text("extends: parent.yaml\n" + textwrap.dedent(text))
    return "child.yaml"


def test_maps_deep_merge_and_scalars_replace(tmp_path):
    data, files = read_merged(child(tmp_path, """\
        ruleset: child
        title: Child
        params:
          a: {default: 5}
        """))
    assert files == ["child.yaml", "parent.yaml"]
    assert data["params"]["a"] == {"type": "integer", "default": 5, "doc": "first"}
    assert data["params"]["b"]["default"] == 2 and data["title"] == "Child"
    assert "extends" not in data


def test_lists_merge_by_id_and_explicit_edits(tmp_path):
    ruleset = load(child(tmp_path, """\
        ruleset: child
        title: Child
        params:
          $remove: [b]
        triggers:
          - {id: t2, when: n > 7}
          - {id: t3, when: n > 8, do: [{say: three}]}
        actions:
          go:
            steps:
              $insert: {after: first, items: [{id: twice, set: {n: n + 1}}]}
        """))
    assert list(ruleset.params) == ["a"]
    assert [t.id for t in ruleset.triggers] == ["t1", "t2", "t3"]
    assert ruleset.triggers[1].when.text == "n > 7"
    assert [s.path[-1] for s in ruleset.actions["go"].steps] == [0, 1, 2]
    assert ruleset.actions["go"].steps[1].assignments[0][1].text == "n + 1"


def test_replace_takes_a_value_whole(tmp_path):
    data, _ = read_merged(child(tmp_path, """\
        params:
          a: {$replace: {type: boolean, default: true}}
        """))
    assert data["params"]["a"] == {"type": "boolean", "default": True}


def test_errors_in_the_child_point_at_the_child(tmp_path):
    with pytest.raises(RulesetError) as info:
        load(child(tmp_path, """\
            ruleset: child
            title: Child
            actions:
              go:
                steps:
                  - {id: first, set: {n: n +}}
            """))
    assert str(info.value.problems[0]).startswith("child.yaml:7:")


def test_merge_errors_name_both_files(tmp_path):
    with pytest.raises(RulesetError) as info:
        load(child(tmp_path, """\
            actions:
              go:
                steps:
                  $insert: {after: nothing, items: []}
            """))
    message = str(info.value.problems[0])
    assert message.startswith("child.yaml:5:")
    assert "'nothing', which this list in parent.yaml does not have" in message


def test_show_resolved_names_the_source_of_each_value(tmp_path):
    from ruleset_engine.ruleset.show import show_resolved

    data, files = read_merged(child(tmp_path, "title: Child\n"))
    text = show_resolved(data, files)
    assert 'title: "Child"  # child.yaml:2' in text
    assert 'ruleset: "parent"  # parent.yaml:1' in text


LOOPED = """\
ruleset: looped
title: Looped
state: {n: 0}
loop:
  - name: hour
    times: 3
    steps:
      - {id: tick, set: {n: n + 1}}
"""


def test_loop_levels_merge_by_name(tmp_path):
    (tmp_path / "looped.yaml").write_text(LOOPED)
    (tmp_path / "child.yaml").write_text(textwrap.dedent("""\
        extends: looped.yaml
        ruleset: looped-twice
        title: Looped twice
        loop:
          - name: hour
            steps:
              $insert: {after: tick, items: [{id: again, set: {n: n + 10}}]}
        """))
    data, _ = read_merged("child.yaml")
    (level,) = data["loop"]
    assert level["times"] == 3                           # kept from the parent
    assert [s["id"] for s in level["steps"]] == ["tick", "again"]
    from ruleset_engine.runtime import Game

    game = Game.start(load("child.yaml"), seed=1, auto=True)
    for _ in range(3):
        game.perform("hour")
    assert game.values["n"] == 33



def test_loop_levels_merge_by_name_in_merge_and_a_misspelt_level_is_refused(tmp_path):
    (tmp_path / "looped.yaml").write_text(LOOPED)
    (tmp_path / "child.yaml").write_text("extends: looped.yaml\nruleset: c\ntitle: C\n"
                                         "loop:\n  $merge: [{name: hour, times: 5}]\n")
    data, _ = read_merged("child.yaml")
    (level,) = data["loop"]
    assert level["times"] == 5 and [s["id"] for s in level["steps"]] == ["tick"]

    (tmp_path / "child.yaml").write_text("extends: looped.yaml\nruleset: c\ntitle: C\n"
                                         "loop:\n  - name: houre\n    times: 5\n")
    with pytest.raises(RulesetError) as info:
        load("child.yaml")
    (problem,) = info.value.problems
    assert str(problem).startswith("child.yaml:5:5: looped.yaml has no loop level named 'houre' "
                                   "(did you mean 'hour'?); its levels: hour")


def test_merge_items_need_an_id_that_is_a_name_or_a_number(tmp_path):
    # issue 24 (17): {$merge: [{id: [1], ...}]} replaced the whole list without a word.
    with pytest.raises(RulesetError) as info:
        load(child(tmp_path, """\
            triggers:
              $merge: [{id: [1], when: n > 3, do: []}, {when: n > 2, do: []}]
            """))
    found = [str(p) for p in info.value.problems]
    assert found == [
        "child.yaml:3:17: each item of $merge names the item it changes by its id: (a name or a number); "
        "this one has a list as its id (merging over parent.yaml) (at triggers.$merge[0].id)",
        "child.yaml:3:44: each item of $merge names the item it changes by its id: (a name or a number); "
        "this one has no id: (merging over parent.yaml) (at triggers.$merge[1])"]
