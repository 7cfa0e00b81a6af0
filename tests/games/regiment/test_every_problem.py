"""Every problem of a character file at once (issue 30): type errors included, each with file, line and
field, in the project's words; an unknown key names the nearest known one; an unknown value lists the choices."""
from __future__ import annotations

from pathlib import Path

from sheets.base.errors import ContentError
from sheets.games.regiment.characters import resolve_character
from sheets.library.yaml_source import parse_yaml
import pytest

pytestmark = pytest.mark.unit  # `make check`'s fast tier

SNIPER = """\
playbook: sniper
name: Walter Brzezinski
rank: Sargent
profile: Icey
background: Plumber
stat_set: 5
moves: [Camoflage, Spotter]
loadout: Precision rifel
"""

PROFILES = ("Methodical, Bold, Cool, Precise, Charming, Sharp, Fragile, Reckless, Indecisive, Icy, Savage, "
            "Absent-Minded, Gung-Ho, Honorable, Psychotic, Hopeful, Shy, Guarded, Pessimistic, Cheerful, Dominant")


def problems(text: str, regiment) -> list[str]:
    try:
        resolve_character(parse_yaml(text, "walter.yaml"), regiment.data)
    except ContentError as exc:
        return [str(p) for p in exc.problems]
    return []


def test_the_broken_sniper_gets_one_message_per_broken_field_each_with_its_line(regiment):
    assert problems(SNIPER, regiment) == [
        "walter.yaml:3: rank: rank 'Sargent' is not allowed for a Sniper; allowed: Corporal (Cpl), Sergeant (Sgt), "
        "Staff Sergeant (S/Sgt)",
        f"walter.yaml:4: profile: unknown profile 'Icey'; choose one of: {PROFILES}",
        "walter.yaml:6: stat_set: 5 is too high: at most 4",
        "walter.yaml:7: moves[0]: 'Camoflage' is not a Sniper move; choose from: Camouflage, Deadly Aim, "
        "Advanced Marksmanship, Forward Observer, Spotter",
        "walter.yaml:8: loadout: unknown loadout 'Precision rifel' for a Sniper; choose one of: Precision Rifle, "
        "Battle Rifle",
    ]


def test_a_type_error_hides_no_other_problem_and_a_misspelt_key_says_what_it_meant(regiment):
    text = (SNIPER.replace("rank: Sargent", "rank: Sgt").replace("Icey", "Icy").replace("stat_set: 5", "stat_set: 2")
            .replace("Camoflage", "Camouflage").replace("rifel", "Rifle").replace("background:", "backgound:")
            + "xp: five\nwounds: 7\n")
    assert problems(text, regiment) == [
        "walter.yaml:5: backgound: unknown key: did you mean 'background'?",
        "walter.yaml:9: xp: 'five' is not a whole number",
        "walter.yaml:10: wounds: 7 marked, but a Sniper's WOUNDS track has 5 boxes to mark",
    ]


def test_an_unknown_background_lists_the_backgrounds_and_an_unknown_key_lists_the_keys(regiment):
    found = problems(SNIPER.replace("Plumber", "Plumbr") + "colour: red\n", regiment)
    assert any(p.startswith("walter.yaml:5: background: unknown background 'Plumbr'; choose one of: ")
               and "Plumber" in p for p in found)
    assert ("walter.yaml:9: colour: unknown key; the keys here are: background, bonds, conditions, deployment, gear, improvements, "
            "loadout, moves, name, notes, playbook, profile, rank, smokes, squad, stat_set, stats, stress, wounds, xp") in found


def test_playbook_and_validate_report_all_five(cli):
    Path("walter.yaml").write_text(SNIPER, encoding="utf-8")
    for args in (("validate", "walter.yaml"), ("playbook", "--character", "walter.yaml", "-o", "w.pdf")):
        r = cli(*args)
        assert r.exit_code == 1 and r.stderr.startswith("error: 5 problems found:\n") and "Traceback" not in r.stderr
    assert not Path("w.pdf").exists()
