"""A character file is checked against its playbook; each mistake is a located error."""
from pathlib import Path

import pytest

GOOD = """\
playbook: sniper
name: Walter Brzezinski
rank: Sgt
profile: Icy
background: Plumber
stat_set: 1
moves: [Camouflage, Spotter]
loadout: Precision Rifle
"""

OPERATOR = """\
playbook: operator
name: Ada Mercer
rank: S/Sgt
profile: Cool
background: Engineer
stats: {battle: 2, guts: 1, leadership: 0, lucky: 0, tactics: 2}
moves: [Explosives, EW]
loadout: SAW
"""


def write(tmp_path: Path, text: str, name: str = "char.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def test_good_character_resolves(regiment, tmp_path):
    from sheets.games.regiment.characters import resolve_character
    from sheets.library.yaml_source import load_yaml

    ch = resolve_character(load_yaml(write(tmp_path, GOOD)), regiment.data)
    assert ch.rank.abbr == "Sgt"
    assert ch.stats == {"battle": 1, "guts": 0, "leadership": 1, "lucky": -1, "tactics": 2}
    assert [m.name for m in ch.moves] == ["Camouflage", "Spotter"]
    assert ch.move_names == {"One shot, one kill", "Camouflage", "Spotter"}


def test_names_match_case_insensitively(regiment, tmp_path):
    from sheets.games.regiment.characters import resolve_character
    from sheets.library.yaml_source import load_yaml

    text = GOOD.replace("sniper", "SNIPER").replace("rank: Sgt", "rank: sergeant (sgt)") \
        .replace("Camouflage", "camouflage").replace("Precision Rifle", "precision rifle").replace("Icy", "icy")
    ch = resolve_character(load_yaml(write(tmp_path, text)), regiment.data)
    assert ch.loadout.name == "Precision Rifle" and ch.rank.name == "Sergeant" and ch.profile == "Icy"


BAD_CASES = [
    ("rank: Sgt", "rank: Pfc", "rank", "rank 'Pfc' is not allowed for a Sniper; allowed: Corporal (Cpl), Sergeant (Sgt), Staff Sergeant (S/Sgt)"),
    ("moves: [Camouflage, Spotter]", "moves: [Camouflage, Medic]", "moves",
     "moves[1]: 'Medic' is not a Sniper move (that is a Medic move)"),
    ("moves: [Camouflage, Spotter]", "moves: [Camouflage]", "moves",
     "moves: a Sniper chooses exactly 2 moves besides 'One shot, one kill'; this file lists 1"),
    ("moves: [Camouflage, Spotter]", "moves: [Camouflage, Spotter, Deadly Aim]", "moves",
     "a Sniper chooses exactly 2 moves besides 'One shot, one kill'; this file lists 3"),
    ("loadout: Precision Rifle", "loadout: Bazooka", "loadout",
     "loadout: unknown loadout 'Bazooka' for a Sniper; choose one of: Precision Rifle, Battle Rifle"),
    ("stat_set: 1", "stat_set: 4\nstat_sez: 2", "stat_sez", "stat_sez: unknown key"),
    ("profile: Icy", "profile: Grumpy", "profile", "profile: unknown profile 'Grumpy'"),
]


@pytest.mark.parametrize("old,new,anchor,message", BAD_CASES)
def test_bad_character_is_a_located_error(cli, tmp_path, old, new, anchor, message):
    text = GOOD.replace(old, new)
    path = write(tmp_path, text)
    result = cli("playbook", "--character", path)
    assert result.exit_code == 1, result
    assert f"char.yaml:{line_of(text, anchor)}:" in result.stderr
    assert message in result.stderr
    assert "Traceback" not in result.stderr
    assert not list(tmp_path.glob("output/*.pdf"))


@pytest.mark.parametrize("stats,message", [
    ("{battle: 2, guts: 2, leadership: 2, lucky: 0, tactics: 0}",
     "the stats (battle +2, guts +2, leadership +2, lucky +0, tactics +0) are not an assignment of +2, +2, +1, 0, 0"),
    ("{battle: 2, guts: 2, leadership: 1, lucky: 0}", "missing stat(s) tactics"),
    ("{battle: 2, guts: 2, leadership: 1, lucky: 0, charm: 0}", "unknown stat(s) charm"),
])
def test_operator_assignment_must_be_a_permutation(cli, tmp_path, stats, message):
    text = OPERATOR.replace("{battle: 2, guts: 1, leadership: 0, lucky: 0, tactics: 2}", stats)
    result = cli("playbook", "--character", write(tmp_path, text))
    assert result.exit_code == 1, result
    assert f"char.yaml:{line_of(text, 'stats:')}: stats:" in result.stderr
    assert message in result.stderr


def test_operator_with_a_stat_set_is_an_error(cli, tmp_path):
    text = OPERATOR.replace("stats: {battle: 2, guts: 1, leadership: 0, lucky: 0, tactics: 2}", "stat_set: 2")
    result = cli("playbook", "--character", write(tmp_path, text))
    assert result.exit_code == 1
    assert "an Operator has no stat sets" in result.stderr


def test_all_problems_of_a_character_at_once(cli, tmp_path):
    text = GOOD.replace("rank: Sgt", "rank: Pfc").replace("loadout: Precision Rifle", "loadout: Bazooka")
    result = cli("playbook", "--character", write(tmp_path, text))
    assert result.exit_code == 1
    assert "2 problems found" in result.stderr
    assert "rank 'Pfc'" in result.stderr and "unknown loadout 'Bazooka'" in result.stderr


def test_unknown_playbook_in_character_file(cli, tmp_path):
    result = cli("playbook", "--character", write(tmp_path, GOOD.replace("sniper", "chaplain")))
    assert result.exit_code == 1
    assert "char.yaml:1: playbook: unknown playbook 'chaplain'; choose one of:" in result.stderr


def test_malformed_character_yaml(cli, tmp_path):
    result = cli("playbook", "--character", write(tmp_path, GOOD + "moves: [oops\n"))
    assert result.exit_code == 1
    assert "char.yaml:" in result.stderr and "malformed YAML" in result.stderr


def test_missing_character_file(cli, tmp_path):
    result = cli("playbook", "--character", tmp_path / "nope.yaml")
    assert result.exit_code == 1
    assert "nope.yaml: file not found" in result.stderr


def test_random_characters_are_always_legal(regiment):
    """Every rolled soldier passes the same checks a character file does."""
    import yaml

    from sheets.base.dice import Dice
    from sheets.games.regiment.characters import resolve_character
    from sheets.games.regiment.sheets import roll_squad
    from sheets.library.yaml_source import parse_yaml

    for seed in range(40):
        for ch in roll_squad(regiment, Dice.seeded(seed), 4):
            record = {"playbook": ch.playbook.id, "name": ch.name, "rank": ch.rank.abbr, "profile": ch.profile,
                      "background": ch.background, "moves": [m.name for m in ch.moves], "loadout": ch.loadout.name}
            if ch.stat_set:
                record["stat_set"] = ch.stat_set
            else:
                record["stats"] = ch.base_stats
            again = resolve_character(parse_yaml(yaml.safe_dump(record), "rolled.yaml"), regiment.data)
            assert again.stats == ch.stats


def test_the_bundled_example_characters_are_valid(regiment):
    from sheets.base import paths
    from sheets.games.regiment.characters import resolve_character
    from sheets.library.yaml_source import load_yaml

    examples = sorted((paths.content_dir() / "regiment" / "characters").glob("*.yaml"))
    assert len(examples) >= 2
    for path in examples:
        assert resolve_character(load_yaml(path), regiment.data).name
