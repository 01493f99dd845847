"""A local bound by let: to a number, true/false, a text or a pool holds a value with no fields:
`{f.net}` over it is refused by `dusk check` at its place (file:line:col), in a text and in a
formula alike; a local holding a record or an instance still reads its fields."""

import textwrap

import pytest

from ruleset_engine.ruleset import RulesetError, load

HEAD = "ruleset: t\ntitle: T\nstate: {x: 0}\n"


def problems(tmp_path, text):
    (tmp_path / "r.yaml").write_text(HEAD + textwrap.dedent(text), encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        load(str(tmp_path / "r.yaml"))
    return [str(p).splitlines()[0].split("/")[-1] for p in info.value.problems]


@pytest.mark.parametrize("value, held", [
    ("3", "a number"), ("x + 1", "a number"), ("x > 1", "true or false"), ("\"'a'\"", "a string"),
    ("\"count(2d6, >= 5)\"", "a number"), ("2d6", "a pool"),
])
def test_a_field_of_a_plain_value_is_refused_where_it_is_read(tmp_path, value, held):
    found = problems(tmp_path, f"""\
        actions:
          go:
            steps:
              - let: {{f: {value}}}
              - say: "net {{f.net}}"
              - set: {{x: f.hits}}
        """)
    # line 8 is the say (col 20: where f.net starts, after `- say: "net {`), line 9 the set (col 18)
    assert found == [f"r.yaml:8:20: 'f' holds {held}, which has no field 'net' (at actions.go.steps[1].say)",
                     f"r.yaml:9:18: 'f' holds {held}, which has no field 'hits' (at actions.go.steps[2].set.x)"]


def test_a_record_or_an_instance_in_a_local_still_reads_its_fields(tmp_path):
    (tmp_path / "r.yaml").write_text(HEAD + textwrap.dedent("""\
        entities:
          fighter: {count: 1, fields: {hp: 3}}
        procedures:
          two:
            steps: [{return: {hits: 1, ones: 0}}]
        actions:
          go:
            steps:
              - call: two
                as: r
              - let: {n: r.hits, who: "fighter[1]"}
              - say: "{r.hits} {n} {who.hp}"
        """), encoding="utf-8")
    assert load(str(tmp_path / "r.yaml")).actions["go"] is not None
