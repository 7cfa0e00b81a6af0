"""A character file says what it means (issue 37): a bond is with someone else, a number is a
whole number as written (`true` is not 1), and a character has a name."""
import pytest

from sheets.base.errors import ContentError
from sheets.games.regiment.characters import resolve_character
from sheets.library.yaml_source import parse_yaml

pytestmark = pytest.mark.unit  # `make check`'s fast tier

BASE = """\
playbook: operator
name: Joe Kowalski
rank: Cpl
profile: Bold
background: Farmer
stats: {battle: 2, guts: 0, leadership: 1, lucky: 0, tactics: 2}
moves: [Airborne Ranger, Explosives]
loadout: SAW
"""


def problems(regiment, text: str) -> str:
    with pytest.raises(ContentError) as caught:
        resolve_character(parse_yaml(text, "joe.yaml"), regiment.data)
    return str(caught.value)


@pytest.fixture()
def valid(regiment):
    """BASE is a valid character (so each case below is refused for its one change)."""
    resolve_character(parse_yaml(BASE, "joe.yaml"), regiment.data)
    return BASE


def test_a_bond_with_yourself_is_refused(regiment, valid):
    said = problems(regiment, valid + "bonds: {Doc Keller: 1, joe  kowalski: 2}\n")
    assert "joe.yaml:9: bonds.joe  kowalski: a bond with joe  kowalski is a bond with this character" in said
    resolve_character(parse_yaml(valid + "bonds: {Doc Keller: 1}\n", "joe.yaml"), regiment.data)


@pytest.mark.parametrize("line,field", [
    ("xp: true\n", "xp"), ("wounds: 2.0\n", "wounds"), ("stress: false\n", "stress"),
    ("bonds: {Doc Keller: true}\n", "bonds.Doc Keller"), ("squad: {op: true}\n", "squad.op"),
])
def test_booleans_and_floats_are_not_whole_numbers(regiment, valid, line, field):
    said = problems(regiment, valid + line)
    assert f"joe.yaml:9: {field}: " in said and "not a whole number" in said, said


def test_a_stat_of_true_is_refused_not_read_as_1(regiment, valid):
    said = problems(regiment, valid.replace("leadership: 1", "leadership: true"))
    assert "joe.yaml:6: stats.leadership: true is not a whole number" in said, said


@pytest.mark.parametrize("name", ["''", "'   '"])
def test_a_name_is_required_and_not_empty(regiment, valid, name):
    said = problems(regiment, valid.replace("name: Joe Kowalski", f"name: {name}"))
    assert "joe.yaml:2: name: a name is required" in said, said
    said = problems(regiment, valid.replace("name: Joe Kowalski\n", ""))
    assert "name: required key is missing" in said, said
