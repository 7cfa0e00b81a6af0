"""A campaign file that cannot lie: a state without its entries, or inside a `baseline` entry, is legal
only when some legal sequence of plays reaches it (issue 37). Each forged state below is one no play
reaches; `sheets validate` refuses it with the file, the line and the rule, as a legacy file and as a
baseline alike. The legal hand-made states (the corpus's, a hand-played one) are accepted.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

HERE = Path(__file__).parent
LEGAL = (HERE / "campaigns" / "baseline.yaml").read_text(encoding="utf-8").split("\n# entries:")[0] + "\n"
SKILLS = ("Sharpshooter, Camouflage, Quick Shot, Close Combat, Heroic morale, Machine Gun Expert, Mortar Expert, "
          "Grenadier, Athletic")
MISSION_1 = "- {after: 1, what: 'mission 1 success: 3 XP (1d3), 2 CP reinforcements', cp: 2, xp: 3}\n"


def forged(*edits: tuple[str, str]) -> str:
    text = LEGAL
    for was, now in edits:
        assert was in text, was
        text = text.replace(was, now, 1)
    return text


#: (id, the forged state, a text on the line the refusal names, what the refusal says)
FORGERIES = [
    ("cp-and-xp-from-nowhere", forged(("cp: 2\nxp: 2\n", "cp: 7\nxp: 5\n"),
                                      ("field hospital', cp: 0, xp: 0}\n", "field hospital', cp: 0, xp: 0}\n"
                                       "- {after: 1, what: found a supply dump, cp: 5, xp: 3}\n")),
     "found a supply dump", "no play writes this row"),
    ("duplicated-mission-row", forged(("cp: 2\nxp: 2\n", "cp: 4\nxp: 5\n"), (MISSION_1, MISSION_1 + MISSION_1)),
     "mission 1 success", "mission 1 is debriefed once"),
    ("starting-cp-50", forged(("cp: 2\nxp: 2\n", "cp: 47\nxp: 2\n"),
                              ("starting CP (German), cp: 5,", "starting CP (German), cp: 50,")),
     "starting CP (German)", "state-unreachable"),
    ("veteran-at-the-old-cost", forged(("- name: Willi Haas\n  quality: Green", "- name: Willi Haas\n  quality: Veteran")),
     "first team: 4 men", "first-team-illegal"),
    ("green-made-veteran-without-xp", forged(("- name: Karl Brandt\n  quality: Green",
                                              "- name: Karl Brandt\n  quality: Veteran")),
     "first team: 4 men", "first-team-illegal"),
    ("nine-skills-without-xp", forged(("weapon: SMG\n  medical: false\n  engineer: false\n  skills: []",
                                       f"weapon: SMG\n  medical: false\n  engineer: false\n  skills: [{SKILLS}]")),
     "Sharpshooter", "state-unreachable"),
    ("killed-then-alive", forged(("    killed: []\n    wounded: [Otto Lenz]", "    killed: [Otto Lenz]\n    wounded: []"),
                                 ("wounded M1, Private after M1", "killed M1, Private after M1")),
     "promoted Otto Lenz to Private", "man-dead"),
    ("second-wound-does-not-kill", forged(
        ("cp: 2\nxp: 2\n", "cp: 3\nxp: 2\n"), ("  status: fit\n  history: [joined before M1, wounded M1, Private after M1, "
                                              "healed after M1]", "  status: wounded\n  history: [joined before M1, "
                                              "wounded M1, Private after M1, wounded M2]"),
        ("  outcome: in progress\n  casualties:\n    killed: []\n    wounded: []\n  xp: 0\n  xp_roll: null\n  cp: 0\n",
         "  outcome: aborted\n  casualties:\n    killed: []\n    wounded: [Otto Lenz]\n  xp: 0\n  xp_roll: null\n  cp: 1\n"),
        ("- {after: 1, what: 'adjusted (Otto Lenz healed): field hospital', cp: 0, xp: 0}\n",
         "- {after: 2, what: 'mission 2 aborted: no XP, 1 CP reinforcements', cp: 1, xp: 0}\n")),
     "outcome: aborted", "second-wound-kills"),
    ("mission-not-what-its-seed-rolls", forged(("objective: Control road", "objective: Eliminate Radio Station")),
     "objective: Eliminate Radio Station\n  steps: 29", "state-unreachable"),
    ("xp-not-what-its-dice-roll", forged(("xp_roll: d6 5 -> 1d3 3 (dice 5)", "xp_roll: d6 5 -> 1d3 3 (dice 1)")),
     "xp: 3\n  xp_roll", "state-unreachable"),
    ("struck-step-without-the-optional-rule", forged(("  struck_step: null\n  outcome: in progress",
                                                       "  struck_step: 3\n  outcome: in progress")),
     "- number: 2", "strike-needs-engineer"),
]


RECRUIT = ("- name: Paul Roth\n  quality: Green\n  weapon: Rifle\n  medical: false\n  engineer: false\n  skills: []\n"
           "  grenades: 4\n  status: {status}\n  history: [{history}]\nmissions:")
RECRUIT_ROW = "- {after: 1, what: 'recruited Paul Roth (Green Rifle)', cp: 0, xp: 0}\n"
FORGERIES.append(("wounded-before-he-joined", forged(
    ("missions:", RECRUIT.format(status="wounded", history="joined after M1, wounded M1")),
    ("    wounded: [Otto Lenz]", "    wounded: [Otto Lenz, Paul Roth]"),
    ("field hospital', cp: 0, xp: 0}\n", "field hospital', cp: 0, xp: 0}\n" + RECRUIT_ROW)),
    "outcome: success", "no-such-man"))
LEGAL_RECRUIT = forged(("missions:", RECRUIT.format(status="fit", history="joined after M1")),
                       ("field hospital', cp: 0, xp: 0}\n", "field hospital', cp: 0, xp: 0}\n" + RECRUIT_ROW))


def line_of(text: str, anchor: str) -> int:
    at = text.rindex(anchor)  # the last: a duplicated row is refused where it is repeated
    return text.count("\n", 0, at) + 1


def as_baseline(state_text: str) -> str:
    return state_text + yaml.safe_dump({"entries": [{"do": "baseline", "state": yaml.safe_load(state_text)}]},
                                       sort_keys=False, allow_unicode=True)


def test_the_legal_hand_made_states_are_accepted(cli):
    Path("recruit.yaml").write_text(LEGAL_RECRUIT, encoding="utf-8")  # a Green rifleman costs 0 CP
    assert cli("validate", "recruit.yaml").exit_code == 0
    Path("legacy.yaml").write_text(LEGAL, encoding="utf-8")
    Path("base.yaml").write_text(as_baseline(LEGAL), encoding="utf-8")
    for name in ("legacy.yaml", "base.yaml"):
        r = cli("validate", name)
        assert r.exit_code == 0, r.stderr
    engineers = (HERE / "campaigns" / "engineers.yaml").read_text(encoding="utf-8").split("\n# entries:")[0] + "\n"
    Path("eng.yaml").write_text(engineers, encoding="utf-8")  # rearms, heals, set states, recruits, strikes
    assert cli("validate", "eng.yaml").exit_code == 0


@pytest.mark.parametrize("text, anchor, rule", [f[1:] for f in FORGERIES], ids=[f[0] for f in FORGERIES])
def test_a_forged_state_without_entries_is_refused_with_file_line_and_rule(cli, text, anchor, rule):
    Path("w.yaml").write_text(text, encoding="utf-8")
    r = cli("validate", "w.yaml")
    assert r.exit_code == 1 and "Traceback" not in r.stderr, r.stderr
    assert rule in r.stderr, r.stderr
    lines = [int(n) for n in re.findall(r"w\.yaml:(\d+):", r.stderr)]
    assert line_of(text, anchor) in lines, r.stderr


@pytest.mark.parametrize("text, anchor, rule", [f[1:] for f in FORGERIES], ids=[f[0] for f in FORGERIES])
def test_the_same_forged_state_inside_a_baseline_entry_is_refused(cli, text, anchor, rule):
    Path("w.yaml").write_text(as_baseline(text), encoding="utf-8")
    r = cli("validate", "w.yaml")
    assert r.exit_code == 1 and "Traceback" not in r.stderr, r.stderr
    assert rule in r.stderr and "baseline" in r.stderr, r.stderr
    assert re.search(r"w\.yaml:\d+: entries\[0\]\.state", r.stderr), r.stderr


def test_a_forged_legacy_file_is_never_converted(cli):
    text = FORGERIES[0][1]
    Path("w.yaml").write_text(text, encoding="utf-8")
    r = cli("campaign", "adjust", "w.yaml", "--reason", "x", "--cp", "1")
    assert r.exit_code == 1 and Path("w.yaml").read_text(encoding="utf-8") == text
