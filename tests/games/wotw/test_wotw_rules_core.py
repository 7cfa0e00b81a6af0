"""The rules core: `ledger.apply` returns the state and the dice the entry rolled (no side
channel), each kind of entry goes to one pure rule, and a refusal names its rule by a code."""
from __future__ import annotations

import pytest

from sheets.games.wotw import ledger, rules_adjust, rules_mission, rules_spend
from sheets.games.wotw.campaign import Applied
from sheets.games.wotw.records import Recruit, Refused, make_entry

from wotwfixtures import data  # noqa: F401 - the fixture


@pytest.fixture()
def team(data):
    first = make_entry(do="new", nation="german", theatre="france-1944", team=[
        Recruit(name="Hans Weber", quality="Veteran", weapon="SMG"),
        Recruit(name="Karl Brandt", quality="Green", weapon="Rifle"),
        Recruit(name="Otto Lenz", quality="Green", weapon="Rifle")])
    return ledger.apply(None, first, data).campaign


def test_apply_returns_the_state_and_the_scripted_dice_it_rolled(data, team):
    c, rolled = ledger.apply(team, make_entry(do="mission", dice="3," * 40 + "3"), data)
    assert c.in_progress is not None and rolled is not None
    assert 0 < rolled.unused < len(rolled.script)  # what the command warns of, counted from the return
    assert ledger.apply(team, make_entry(do="mission", seed=5), data).rolled is None  # a seed: nothing to count
    adjusted = ledger.apply(team, make_entry(do="adjust", reason="x", cp=1), data)
    assert isinstance(adjusted, Applied) and adjusted.rolled is None and adjusted.campaign.cp == team.cp + 1
    assert not hasattr(ledger, "rolled")


def test_replay_counts_the_unused_dice_from_what_apply_returns(data, team):
    entries = [make_entry(do="new", nation="german", theatre="france-1944",
                          team=[Recruit(name=m.name, quality=m.quality, weapon=m.weapon) for m in team.team]),
               make_entry(do="mission", dice="3," * 40 + "3")]
    replayed = ledger.replay(entries, data)
    assert list(replayed.unused) == [1] and replayed.unused[1][1] == 41


def test_each_kind_of_entry_goes_to_one_rule():
    assert ledger.TRANSITIONS["mission"] is rules_mission.roll_mission
    assert ledger.TRANSITIONS["strike"] is rules_mission.strike_step
    assert ledger.TRANSITIONS["debrief"] is rules_mission.close_mission
    assert ledger.TRANSITIONS["spend"] is rules_spend.spend
    assert ledger.TRANSITIONS["adjust"] is rules_adjust.adjust


@pytest.mark.parametrize(("entry", "code", "message"), [
    ({"heal": ["Hans Weber"]}, "not-wounded", "--heal Hans Weber: he is fit, not wounded"),
    ({"set_state": {"Otto Lenz": "fit"}}, "state-unchanged", "--set-state Otto Lenz=fit: Otto Lenz is fit already"),
    ({"xp": -1}, "points-below-zero", "--cp +0 --xp -1: the campaign has 1 CP and 0 XP; neither goes below 0"),
    ({"heal": ["Nobody"]}, "no-such-man", "no man named 'Nobody' in the team"),
])
def test_an_adjustment_refused_names_its_rule(data, team, entry, code, message):
    with pytest.raises(Refused) as refused:
        ledger.apply(team, make_entry(do="adjust", reason="x", **entry), data)
    assert str(refused.value).startswith(message) and refused.value.code == code


def test_the_parts_of_an_adjustment_are_pure(data, team):
    hurt = ledger.apply(team, make_entry(do="adjust", reason="x", set_state={"Otto Lenz": "wounded"}), data).campaign
    healed, done = rules_adjust.heal(hurt, make_entry(do="adjust", reason="x", heal=["Otto Lenz"]))
    assert done == ["Otto Lenz healed"] and healed.man("Otto Lenz").status == "fit"
    assert hurt.man("Otto Lenz").status == "wounded"  # the state given is left as it was


def test_refusals_of_missions_and_spends_carry_codes(data, team):
    short = ledger.apply(team, make_entry(do="adjust", reason="x", set_state={"Otto Lenz": "killed"}), data).campaign
    with pytest.raises(Refused) as refused:
        rules_mission.ready_for_mission(short, data)
    assert refused.value.code == "team-too-small"
    with pytest.raises(Refused) as refused:
        ledger.apply(team, make_entry(do="spend", promote="Karl Brandt"), data)
    assert refused.value.code == "not-enough-xp"
    with pytest.raises(Refused) as refused:
        ledger.apply(team, make_entry(do="strike", step=1), data)
    assert refused.value.code == "no-mission-in-progress"
