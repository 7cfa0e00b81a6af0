"""The Way of the Warrior campaign: every rule and every refusal, the file, the pages."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import beside, pdf_text, squash, text_runs
from sheets.base.dice import Dice
from sheets.games.wotw import campaign as cp
from sheets.games.wotw import rules_mission, rules_spend
from sheets.games.wotw.records import Man, MissionRecord, Refused

from wotwfixtures import TEAM, data  # noqa: F401 - the fixture


def men(*rows, **kw) -> list[Man]:
    return [Man(name=f"M{i}", quality=q, weapon=w, **kw) for i, (q, w) in enumerate(rows)]


def german(data, rows=(("Veteran", "SMG"), ("Green", "Rifle"), ("Green", "Rifle")), rules=()):
    return cp.new_campaign(data, "german", "france-1944", men(*rows), list(rules))


def played(data, c, outcome="success", die=5, **kw):
    c = rules_mission.start_mission(c, data, MissionRecord(number=1, seed=1))
    return rules_mission.debrief(c, data, outcome, kw.get("killed", []), kw.get("wounded", []), Dice.scripted([die]))


# -- the first team ------------------------------------------------------------

def test_first_team_saves_unused_cp(data):
    c = german(data, (("Private", "Rifle"), ("Green", "Rifle"), ("Green", "Rifle")))
    assert c.cp == 3 and c.xp == 0 and c.enemy == "us"
    assert [e.cp for e in c.ledger] == [5, -2]
    assert all(m.grenades == 4 and m.status == "fit" for m in c.team)


@pytest.mark.parametrize("rows,rules,message", [
    ((("Veteran", "Assault Rifle"), ("Veteran", "SMG"), ("Green", "Rifle")), (),
     "the team costs 9 CP but a German team starts with 5 CP"),
    ((("Green", "Rifle"), ("Green", "Rifle")), (), "2 men, but a team starts with at least 3"),
    ((("Green", "Rifle"),) * 8, (), "8 men but a German team has at most 7"),
    ((("Green", "LMG"), ("Green", "Rifle"), ("Green", "Rifle")), (),
     "LMG takes 2 men, each his own roster row: 1 man with LMG"),
    ((("Private", "Flame-thrower"), ("Green", "Rifle"), ("Green", "Rifle")), ("engineers",),
     "the team costs 6 CP but a German team starts with 5 CP"),  # 4 + the Engineer's 2
    ((("Veteran", "Bazooka"), ("Green", "Rifle"), ("Green", "Rifle")), (), "German has no Veteran with Bazooka"),
])
def test_first_team_refusals(data, rows, rules, message):
    with pytest.raises(Refused) as exc:
        german(data, rows, rules)
    assert message in str(exc.value)


def test_two_man_crew_pays_once_and_is_two_rows(data):
    c = german(data, (("Green", "LMG"), ("Green", "LMG"), ("Green", "Rifle")))
    assert c.cp == 5 - 3 and len(c.team) == 3


def test_flame_thrower_without_the_engineer_rule_costs_the_table(data):
    c = german(data, (("Private", "Flame-thrower"), ("Green", "Rifle"), ("Green", "Rifle")))
    assert c.cp == 1 and not c.team[0].engineer


def test_medical_costs_the_nations_value(data):
    team = [Man(name="A", quality="Private", weapon="Rifle", medical=True)] + men(("Green", "Rifle"), ("Green", "Rifle"))
    c = cp.new_campaign(data, "russian", "russia-1943", team, [])
    assert c.cp == 8 - 2 - 2  # Russian medical expertise is 2 CP


def test_one_engineer_per_team(data):
    team = [Man(name="A", quality="Green", weapon="Rifle", engineer=True),
            Man(name="B", quality="Green", weapon="Rifle", engineer=True), Man(name="C", quality="Green", weapon="Rifle")]
    with pytest.raises(Refused, match="2 Engineers .* at most 1"):
        cp.new_campaign(data, "german", "france-1944", team, ["engineers"])
    with pytest.raises(Refused, match="needs optional rule #3"):
        cp.new_campaign(data, "german", "france-1944", team[:1] + team[2:] + [team[2].model_copy(update={"name": "D"})], [])


def test_nation_must_fight_in_the_theatre(data):
    with pytest.raises(Refused, match="Italian does not fight in France 1944"):
        cp.new_campaign(data, "italian", "france-1944", men(("Green", "Rifle"),) * 3, [])


@pytest.mark.parametrize("nation,theatre", [("german", "france-1944"), ("us", "sicily-1943"), ("russian", "russia-1943"),
                                            ("italian", "sicily-1943"), ("finnish", "finland-1940")])
@pytest.mark.parametrize("seed", range(6))
def test_random_team_is_legal(data, nation, theatre, seed):
    team = cp.random_team(data, nation, Dice.seeded(seed), ["engineers"])
    c = cp.new_campaign(data, nation, theatre, team, ["engineers"])  # raises if not legal
    assert 3 <= len(c.team) <= data.nation(nation).max_team_size and c.cp >= 0


# -- debriefing ----------------------------------------------------------------

@pytest.mark.parametrize("die,xp", [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_success_gives_1d3_xp_and_2_cp(data, die, xp):
    c = played(data, german(data), die=die)
    assert (c.xp, c.cp) == (xp, 1 + 2)  # 1 CP saved at the start
    assert c.missions[0].outcome == "success" and c.missions[0].xp == xp and c.missions[0].cp == 2


def test_aborted_gives_no_xp_and_1_cp(data):
    c = rules_mission.start_mission(german(data), data, MissionRecord(number=1, seed=1))
    c = rules_mission.debrief(c, data, "aborted", [], [], None)
    assert (c.xp, c.cp, c.missions[0].xp, c.missions[0].cp) == (0, 2, 0, 1)


def test_enemy_hq_bonus_xp(data):
    c = rules_mission.start_mission(german(data), data, MissionRecord(number=1, seed=1))
    assert rules_mission.debrief(c, data, "success", [], [], Dice.scripted([1]), enemy_hq=True).xp == 2


def test_casualties_are_marked_and_carry(data):
    c = played(data, german(data), killed=["M1"], wounded=["m2"])
    assert [m.status for m in c.team] == ["fit", "killed", "wounded"]
    assert c.missions[0].casualties.killed == ["M1"] and c.missions[0].casualties.wounded == ["M2"]
    assert [m.name for m in c.living] == ["M0", "M2"]


@pytest.mark.parametrize("kw,message", [
    ({"killed": ["M1"], "wounded": ["M1"]}, "named both killed and wounded"),
    ({"killed": ["Nobody"]}, "no man named 'Nobody'"),
])
def test_debrief_refusals(data, kw, message):
    with pytest.raises(Refused, match=message):
        played(data, german(data), **kw)


def test_a_second_wound_is_refused_as_a_wound(data):
    c = played(data, german(data), wounded=["M1"])
    c = rules_mission.start_mission(c, data, MissionRecord(number=2, seed=2))
    with pytest.raises(Refused, match="M1 is already wounded: a wounded soldier that suffers a second wound is Killed"):
        rules_mission.debrief(c, data, "aborted", [], ["M1"], None)


def test_debrief_needs_a_mission_and_mission_needs_a_debrief(data):
    with pytest.raises(Refused, match="no mission in progress"):
        rules_mission.debrief(german(data), data, "aborted", [], [], None)
    c = rules_mission.start_mission(german(data), data, MissionRecord(number=1, seed=1))
    with pytest.raises(Refused, match="mission 1 is still in progress"):
        rules_mission.start_mission(c, data, MissionRecord(number=2, seed=2))


# -- spending ------------------------------------------------------------------

def test_promotions_cost_1_then_2_xp(data):
    c = played(data, german(data), die=5)  # 3 XP
    c = rules_spend.promote(c, data, "M1")
    assert (c.team[1].quality, c.xp) == ("Private", 2)
    c = rules_spend.promote(c, data, "M1")
    assert (c.team[1].quality, c.xp) == ("Veteran", 0)
    with pytest.raises(Refused, match="M1 is a Veteran already"):
        rules_spend.promote(c, data, "M1")
    with pytest.raises(Refused, match="promotion Green to Private costs 1 XP but the team has 0 XP"):
        rules_spend.promote(c, data, "M2")


def test_skills_cost_2_xp_and_need_the_level(data):
    c = played(data, german(data), die=5)  # 3 XP
    with pytest.raises(Refused, match="Sharpshooter requires a Veteran; M1 is Green"):
        rules_spend.learn(c, data, "M1", "Sharpshooter")
    with pytest.raises(Refused, match="unknown skill 'Flying'"):
        rules_spend.learn(c, data, "M1", "Flying")
    c = rules_spend.learn(c, data, "M0", "grenadier")
    assert c.team[0].skills == ["Grenadier"] and c.team[0].grenades == 5 and c.xp == 1
    with pytest.raises(Refused, match="M0 has Grenadier already"):
        rules_spend.learn(c, data, "M0", "Grenadier")
    with pytest.raises(Refused, match="a skill costs 2 XP but the team has 1 XP"):
        rules_spend.learn(c, data, "M1", "Camouflage")


def test_recruits_within_cp_and_team_size(data):
    c = played(data, german(data), die=1)  # 1 CP saved + 2 reinforcements = 3
    assert c.cp == 3
    with pytest.raises(Refused, match=r"recruits cost 4 CP \(Veteran SMG 4 CP\) but the campaign has 3 CP saved"):
        rules_spend.recruit(c, data, ["New"], "Veteran", "SMG")
    with pytest.raises(Refused, match="LMG takes 2 men, each his own roster row: name 2 recruits"):
        rules_spend.recruit(c, data, ["New"], "Green", "LMG")
    c2 = rules_spend.recruit(c, data, ["A", "B"], "Green", "LMG")
    assert c2.cp == 0 and [m.weapon for m in c2.team[-2:]] == ["LMG", "LMG"]
    c3 = rules_spend.recruit(c, data, ["Doc"], "Private", "Rifle", medical=True)
    assert c3.cp == 3 - 2 - 1 and c3.team[-1].medical
    with pytest.raises(Refused, match="the team already has a man named 'M0'"):
        rules_spend.recruit(c, data, ["M0"], "Green", "Rifle")
    full = rules_spend.recruit(c, data, ["A", "B", "C", "D"], "Green", "Rifle")
    with pytest.raises(Refused, match=r"team size: 7 men alive \+ 1 recruits = 8, but a German team has at most 7"):
        rules_spend.recruit(full, data, ["E"], "Green", "Rifle")


def test_engineer_rule_costs_and_limits(data):
    c = played(data, german(data, rules=["engineers"]), die=1)  # 3 CP
    with pytest.raises(Refused, match=r"recruits cost 6 CP \(Private Flame-thrower 4 CP, Engineer 2 CP\)"):
        rules_spend.recruit(c, data, ["Fritz"], "Private", "Flame-thrower")
    c2 = rules_spend.make_engineer(c, data, "M0")
    assert c2.cp == 1 and c2.team[0].engineer
    with pytest.raises(Refused, match="one Engineer per team, and the team has M0"):
        rules_spend.make_engineer(c2, data, "M1")
    with pytest.raises(Refused, match="this campaign does not use it"):
        rules_spend.make_engineer(played(data, german(data)), data, "M0")


def test_green_keeps_his_weapon(data):
    c = german(data)
    with pytest.raises(Refused, match="M1 is Green: a Green must use his starting weapon"):
        rules_spend.rearm(c, data, "M1", "SMG")
    assert rules_spend.rearm(c, data, "M0", "Rifle").team[0].weapon == "Rifle"


def test_the_dead_are_not_promoted(data):
    c = played(data, german(data), die=6, killed=["M1"])
    with pytest.raises(Refused, match="M1 is dead"):
        rules_spend.promote(c, data, "M1")


# -- the CLI, the file, the pages ----------------------------------------------

@pytest.fixture
def campaign(cli, tmp_path):
    (tmp_path / "team.yaml").write_text(TEAM)
    result = cli("campaign", "new", "ww.yaml", "--nation", "german", "--theatre", "france-1944", "--team", "team.yaml")
    assert result.exit_code == 0, result
    return tmp_path / "ww.yaml"


def test_a_campaign_to_its_third_mission(cli, campaign, tmp_path):
    r = cli("campaign", "mission", "ww.yaml", "--seed", "11", "-o", "m1.pdf")
    assert r.exit_code == 0, r
    assert "recorded as in progress" in r.stdout and "wrote m1.pdf" in r.stdout and "wrote ww.yaml" in r.stdout
    flat = squash(pdf_text(tmp_path / "m1.pdf"))
    assert beside(text_runs(tmp_path / "m1.pdf"), "MISSION", occurrence=0) == "1"
    assert "HansWeberVeteranfitSMG4/1/-4" in flat and "Campaign:0CPsaved,0XPunused" in flat
    r = cli("campaign", "debrief", "ww.yaml", "--outcome", "success", "--wounded", "Otto Lenz", "--dice", "5")
    assert r.exit_code == 0, r
    assert "+3 XP, +2 CP -> 3 XP and 2 CP saved" in r.stdout
    assert cli("campaign", "spend", "ww.yaml", "--promote", "Otto Lenz").exit_code == 0
    assert cli("campaign", "spend", "ww.yaml", "--skill", "Hans Weber=Grenadier").exit_code == 0
    assert cli("campaign", "spend", "ww.yaml", "--recruit", "Paul Roth", "--quality", "Green", "--weapon", "SMG").exit_code == 0
    assert cli("campaign", "mission", "ww.yaml", "--seed", "12", "-o", "m2.pdf").exit_code == 0
    r = cli("campaign", "debrief", "ww.yaml", "--outcome", "aborted", "--killed", "Willi Haas")
    assert r.exit_code == 0 and "+0 XP, +1 CP" in r.stdout
    r = cli("campaign", "mission", "ww.yaml", "--seed", "13", "-o", "m3.pdf")
    assert r.exit_code == 0, r
    flat = squash(pdf_text(tmp_path / "m3.pdf"))
    assert beside(text_runs(tmp_path / "m3.pdf"), "MISSION", occurrence=0) == "3"
    assert "HansWeberVeteranfitSMG4/1/-5Grenadier" in flat      # Grenadier: 5 grenades
    assert "OttoLenzPrivatewoundedRifle2/2/14" in flat           # promoted, still wounded
    assert "PaulRothGreenfitSMG4/1/-4" in flat and "WilliHaas" not in flat  # the dead leave the roster
    data = json.loads(cli("campaign", "show", "ww.yaml", "--json").stdout)
    assert (data["nation"], data["theatre"], data["cp"], data["xp"]) == ("german", "france-1944", 2, 0)
    assert [(m["seed"], m["outcome"], m["xp"]) for m in data["missions"]] == [(11, "success", 3), (12, "aborted", 0),
                                                                             (13, "in progress", 0)]
    willi = next(m for m in data["team"] if m["name"] == "Willi Haas")
    assert willi["status"] == "killed" and {"name", "quality", "weapon", "status", "skills", "grenades"} <= set(willi)
    r = cli("campaign", "show", "ww.yaml", "-o", "record.pdf")
    assert r.exit_code == 0, r
    flat = squash(pdf_text(tmp_path / "record.pdf"))
    for needle in ["CAMPAIGNRECORD", "2PLAYED·M3INPROGRESS", "WilliHaasGreenRifle-4killed", "joinedbeforeM1;killedM2",
                   "1Controlroad", "success", "aborted", "killedWilliHaas", "mission1success:3XP(1d3),2CPreinforcements",
                   "promotedOttoLenztoPrivate-12"]:
        assert needle in flat, needle


def test_the_previous_version_is_kept_as_bak(cli, campaign):
    before = campaign.read_bytes()
    assert cli("campaign", "mission", "ww.yaml", "--seed", "3", "-o", "m.pdf").exit_code == 0
    assert (campaign.parent / "ww.yaml.bak").read_bytes() == before
    assert campaign.read_bytes() != before


@pytest.mark.parametrize("args,message", [
    (("spend", "ww.yaml", "--promote", "Otto Lenz"), "promotion Green to Private costs 1 XP but the team has 0 XP"),
    (("spend", "ww.yaml", "--skill", "Otto Lenz=Sharpshooter"), "Sharpshooter requires a Veteran; Otto Lenz is Green"),
    (("spend", "ww.yaml", "--recruit", "New", "--quality", "Green", "--weapon", "SMG"),
     "recruits cost 1 CP (Green SMG 1 CP) but the campaign has 0 CP saved"),
    (("spend", "ww.yaml", "--recruit", "A", "--quality", "Green", "--weapon", "LMG"), "LMG takes 2 men"),
    (("spend", "ww.yaml", "--rearm", "Otto Lenz=SMG"), "a Green must use his starting weapon"),
    (("spend", "ww.yaml", "--make-engineer", "Otto Lenz"), "needs optional rule #3"),
    (("debrief", "ww.yaml", "--outcome", "success", "--dice", "3"), "no mission in progress"),
    (("spend", "ww.yaml"), "give one of --promote NAME"),
    (("new", "ww.yaml", "--nation", "german", "--theatre", "france-1944", "--random"), "ww.yaml exists"),
])
def test_refused_changes_leave_the_file_byte_identical(cli, campaign, args, message):
    before = campaign.read_bytes()
    r = cli("campaign", *args)
    assert r.exit_code == 1 and message in r.stderr, r
    assert "Traceback" not in r.stderr
    assert campaign.read_bytes() == before and not (campaign.parent / "ww.yaml.bak").exists()


def test_a_mission_in_progress_refuses_a_second(cli, campaign):
    assert cli("campaign", "mission", "ww.yaml", "--seed", "3", "-o", "m.pdf").exit_code == 0
    before = campaign.read_bytes()
    r = cli("campaign", "mission", "ww.yaml", "--seed", "4", "-o", "m2.pdf")
    assert r.exit_code == 1 and "mission 1 is still in progress" in r.stderr
    assert campaign.read_bytes() == before and not Path("m2.pdf").exists()
    r = cli("campaign", "mission", "ww.yaml", "-o", "again.pdf")  # a jammed printer: the same sheet again
    assert r.exit_code == 0 and "printed again (file unchanged)" in r.stdout and campaign.read_bytes() == before
    assert squash(pdf_text(Path("again.pdf"))) == squash(pdf_text(Path("m.pdf")))
    r = cli("campaign", "debrief", "ww.yaml", "--outcome", "success", "--wounded", "Otto Lenz", "--killed", "otto lenz",
            "--dice", "2")
    assert r.exit_code == 1 and "named both" in r.stderr and campaign.read_bytes() == before


def test_random_campaign_is_repeatable(cli, tmp_path):
    for name in ("a.yaml", "b.yaml"):
        r = cli("campaign", "new", name, "--nation", "russian", "--theatre", "winter-1942", "--random", "--seed", "7",
                "--engineers")
        assert r.exit_code == 0 and "team rolled with seed 7" in r.stdout, r
    a, b = (tmp_path / "a.yaml").read_text(), (tmp_path / "b.yaml").read_text()
    assert a.replace("a.yaml", "b.yaml") == b and "optional_rules: [engineers]" in a


def test_validate_checks_a_hand_edited_campaign(cli, campaign):
    assert cli("validate", "ww.yaml").exit_code == 0
    text = campaign.read_text()
    campaign.write_text(text.replace("grenades: 4", "grenades: 6", 1))
    r = cli("validate", "ww.yaml")
    assert r.exit_code == 1
    line = next(i for i, s in enumerate(campaign.read_text().splitlines(), 1) if "grenades: 6" in s)
    assert f"ww.yaml:{line}: team[0].grenades: 6 grenades, but a man carries 4 (5 with Grenadier)" in r.stderr
    campaign.write_text(text.replace("enemy: us", "enemy: russian"))
    r = cli("campaign", "show", "ww.yaml", "--json")
    assert r.exit_code == 1 and "enemy: in France 1944 the German team fights 'us', not 'russian'" in r.stderr


def test_validate_checks_team_files(cli, tmp_path):
    (tmp_path / "t.yaml").write_text(TEAM.replace("{name: Otto Lenz, quality: Green, weapon: Rifle}",
                                                  "{name: Otto Lenz, quality: Green, weapon: Rifle, grenades: 5}"))
    r = cli("validate", "t.yaml")
    assert r.exit_code == 1 and "t.yaml:5: members[2].grenades: 5 grenades" in r.stderr


# -- the one-shot `sheets mission --team` uses the same checker ----------------

@pytest.mark.parametrize("members,flags,message", [
    ("  - {name: A, quality: Green, weapon: LMG}\n  - {name: B, quality: Green, weapon: Rifle}\n"
     "  - {name: C, quality: Green, weapon: Rifle}\n", (), "LMG takes 2 men, each his own roster row"),
    ("  - {name: A, quality: Green, weapon: Rifle, grenades: 6}\n  - {name: B, quality: Green, weapon: Rifle}\n"
     "  - {name: C, quality: Green, weapon: Rifle}\n", (), "6 grenades, but a man carries 4"),
    ("  - {name: A, quality: Private, weapon: Flame-thrower}\n  - {name: B, quality: Green, weapon: Rifle}\n"
     "  - {name: C, quality: Green, weapon: Rifle}\n", ("--engineers",), "the team costs 6 CP but a German team starts with 5 CP"),
    ("  - {name: A, quality: Green, weapon: Rifle, engineer: true}\n  - {name: B, quality: Green, weapon: Rifle}\n"
     "  - {name: C, quality: Green, weapon: Rifle}\n", (), "an Engineer needs optional rule #3"),
])
def test_one_shot_team_uses_the_same_checker(cli, tmp_path, members, flags, message):
    (tmp_path / "team.yaml").write_text("nation: german\nmembers:\n" + members)
    r = cli("mission", "--nation", "german", "--seed", "2", "--team", tmp_path / "team.yaml", *flags)
    assert r.exit_code == 1 and "team.yaml:" in r.stderr and message in r.stderr, r


def test_one_shot_crew_is_two_rows_paid_once(cli, tmp_path):
    (tmp_path / "team.yaml").write_text("nation: german\nmembers:\n  - {name: A, quality: Green, weapon: LMG}\n"
                                        "  - {name: B, quality: Green, weapon: LMG}\n  - {name: C, quality: Green, weapon: SMG}\n")
    r = cli("mission", "--nation", "german", "--seed", "2", "--team", tmp_path / "team.yaml", "-o", tmp_path / "t.pdf")
    assert r.exit_code == 0, r
    flat = squash(pdf_text(tmp_path / "t.pdf"))
    assert "AGreenLMG3/2/24LMGcrew" in flat and "BGreenLMG3/2/24LMGcrew" in flat and "Teamcost4CP,1CPsaved" in flat


@pytest.mark.parametrize("command", ["new", "mission", "debrief", "spend", "show"])
def test_each_campaign_command_has_help_with_an_example(cli, command):
    r = cli("campaign", command, "--help")
    assert r.exit_code == 0 and "Example: sheets campaign " + command in " ".join(r.stdout.split())


def test_new_from_a_bad_team_file_is_located_and_writes_nothing(cli, tmp_path):
    (tmp_path / "t.yaml").write_text(TEAM.replace("quality: Veteran", "quality: Vet"))
    r = cli("campaign", "new", "ww.yaml", "--nation", "german", "--theatre", "france-1944", "--team", "t.yaml")
    assert r.exit_code == 1 and "t.yaml:3: members[0]: German has no Vet with SMG" in r.stderr
    assert not (tmp_path / "ww.yaml").exists()


def test_rearm_a_private(cli, campaign):
    assert cli("campaign", "debrief", "ww.yaml", "--outcome", "aborted").exit_code == 1  # nothing in progress
    assert cli("campaign", "mission", "ww.yaml", "--seed", "3", "-o", "m.pdf").exit_code == 0
    assert cli("campaign", "debrief", "ww.yaml", "--outcome", "success", "--dice", "6").exit_code == 0
    assert cli("campaign", "spend", "ww.yaml", "--promote", "Otto Lenz").exit_code == 0
    r = cli("campaign", "spend", "ww.yaml", "--rearm", "Otto Lenz=SMG")
    assert r.exit_code == 0 and "Otto Lenz now carries SMG" in r.stdout, r
    assert "SMG to" not in campaign.read_text() and "Rifle to SMG after M1" in campaign.read_text()
