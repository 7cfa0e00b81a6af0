"""The first team against the CP budget (`team.first_team`, `team.weapons_for`) and what each man can
buy (`offers`): exact seed values, and the offer agreeing with the command's own refusal."""
from __future__ import annotations

import pytest

from sheets.games.wotw import campaign as cp
from sheets.games.wotw import commands, ledger
from sheets.games.wotw.records import Man, Refused
from sheets.games.wotw.records import SpendEntry
from sheets.games.wotw.team import Member, TeamRules, first_team, weapons_for

from wotwfixtures import TEAM, data  # noqa: F401 - the fixture


def test_each_quality_offers_only_its_rows_of_the_team_table(data):
    # seed 004, [Team Table: German]: "Veteran 4 Rifle / Veteran 4 SMG / Veteran 5 Assault Rifle /
    # Private 2 Rifle / Private 2 SMG / Private 4 Flame-thrower / Green 0 Rifle / Green 1 SMG /
    # Green 3 LMG (two men) / Green 3 Mortar (two men)"
    german = data.nation("german")
    assert weapons_for(german, "Veteran") == ["Rifle", "SMG", "Assault Rifle"]
    assert weapons_for(german, "Private") == ["Rifle", "SMG", "Flame-thrower"]
    assert weapons_for(german, "Green") == ["Rifle", "SMG", "LMG", "Mortar"]
    assert weapons_for(german, "Elite") == []
    # the Italian table has no Assault Rifle and no Flame-thrower
    assert weapons_for(data.nation("italian"), "Private") == ["Rifle", "SMG"]


def test_first_team_prices_each_man_and_refuses_as_campaign_new_does(data):
    # seed 004: "Starting CP: 5", "Max team members: 7", "You must select at least three men";
    # "Add 1 CP to the cost to give Medical experience to a new team member"; an LMG crew is two men
    # and the row's 3 CP once
    german, rules = data.nation("german"), TeamRules.of(data.rules)
    men = [Member(name="A", quality="Veteran", weapon="SMG"), Member(name="B", quality="Green", weapon="Rifle", medical=True),
           Member(name="C", quality="Green", weapon="LMG"), Member(name="D", quality="Green", weapon="LMG")]
    team = first_team(men, german, rules, False)
    assert (team.costs, team.spent, team.budget, team.remaining) == ([4, 1, 3, 0], 8, 5, -3)
    message = "starting CP: the team costs 8 CP but a German team starts with 5 CP (the rules, Equipment)"
    assert team.problems == [((), message)]
    with pytest.raises(Refused) as refused:
        cp.new_campaign(data, "german", "france-1944", [Man(**m.model_dump(exclude={"grenades"})) for m in men], [])
    assert str(refused.value) == message

    legal = first_team(men[:2] + [Member(name="E", quality="Green", weapon="Rifle")], german, rules, False)
    assert (legal.costs, legal.spent, legal.remaining, legal.problems) == ([4, 1, 0], 5, 0, [])

    wrong = first_team([Member(name="A", quality="Green", weapon="Assault Rifle")] * 1, german, rules, False)
    assert wrong.costs == [0]
    assert wrong.problems == [
        ((0,), "German has no Green with Assault Rifle; recruits: Veteran Rifle (4 CP); Veteran SMG (4 CP); Veteran "
               "Assault Rifle (5 CP); Private Rifle (2 CP); Private SMG (2 CP); Private Flame-thrower (4 CP); Green Rifle "
               "(0 CP); Green SMG (1 CP); Green LMG (3 CP, two men); Green Mortar (3 CP, two men)"),
        ((), "team size: 1 men, but a team starts with at least 3 (the rules, Equipment)")]
    # optional rule #3: a Flame-thrower man is an Engineer and pays 2 CP more
    flame = first_team([Member(name="F", quality="Private", weapon="Flame-thrower")], german, rules, True)
    assert flame.costs == [6]


@pytest.fixture
def campaign(data, tmp_path):
    team = tmp_path / "team.yaml"
    team.write_text(TEAM)
    commands.campaign_new(tmp_path / "ww.yaml", "german", "france-1944", team=team, optional_rules=["engineers"])
    return tmp_path / "ww.yaml"


def test_offers_each_man_what_the_rules_allow_with_its_cost(data, campaign):
    commands.campaign_adjust(campaign, "a test's XP", xp_delta=1)
    c, options = commands.campaign_offers(campaign)
    assert list(options) == ["Hans Weber", "Karl Brandt", "Otto Lenz", "Willi Haas"]
    # seed 004: "1XP: promote a Green to Private 2XP: promote a Private to Veteran"; "Additionally, 2XP can be
    # spent to get one of the following Skills" (Camouflage and Athletic: any quality); "You can freely change
    # weapon for Veteran/Private while Green must use their starting weapon"; optional rule #3: Engineer 2 CP
    karl = {o.label: (o.price, o.refused) for o in options["Karl Brandt"]}
    assert karl == {
        "promote to Private": ("1 XP", None),
        "learn Camouflage": ("2 XP", "a skill costs 2 XP but the team has 1 XP (the rules, Post-mission debriefing)"),
        "learn Athletic": ("2 XP", "a skill costs 2 XP but the team has 1 XP (the rules, Post-mission debriefing)"),
        "make Engineer": ("2 CP", "an Engineer costs 2 CP but the campaign has 0 CP saved (the rules, optional rule #3)")}
    hans = {o.label: o.price for o in options["Hans Weber"]}
    assert "promote to Veteran" not in hans and "promote to a higher quality" not in hans  # a Veteran already
    assert hans["rearm with Rifle"] == "free" and hans["rearm with Flame-thrower"] == "2 CP"
    assert "rearm with LMG" not in hans  # an LMG is a two-man crew, recruited as a pair
    assert "rearm with SMG" not in hans  # he carries it
    assert hans["learn Sharpshooter"] == "2 XP"


def test_an_offer_and_the_commands_refusal_cannot_disagree(data, campaign, cli):
    c, options = commands.campaign_offers(campaign)
    for found in options.values():
        for o in found:
            try:
                ledger.apply(c.model_copy(update={"entries": []}), o.entry, data)
                accepted = None
            except Refused as exc:
                accepted = str(exc)
            assert accepted == o.refused, o.label
    refused = next(o for o in options["Karl Brandt"] if o.label == "promote to Private")
    result = cli("campaign", "spend", campaign, "--promote", "Karl Brandt")
    assert result.exit_code == 1
    assert refused.refused in " ".join(result.stderr.split())
    assert refused.entry == SpendEntry(do="spend", promote="Karl Brandt")


def test_campaign_spend_list_prints_the_offers(campaign, cli):
    result = cli("campaign", "spend", campaign, "--list")
    assert result.exit_code == 0, result
    lines = result.stdout.splitlines()
    assert lines[0] == "0 XP and 0 CP saved"
    assert "Karl Brandt (Green, Rifle, fit):" in lines
    assert ("  promote to Private: 1 XP  -- not now: promotion Green to Private costs 1 XP but the team has 0 XP "
            "(the rules, Post-mission debriefing)") in lines
    assert "  rearm with Rifle: free" in lines  # Hans Weber, a Veteran with an SMG
    both = cli("campaign", "spend", campaign, "--list", "--promote", "Karl Brandt")
    assert both.exit_code == 1 and "--list spends nothing: give it alone" in both.stderr
