"""The rules core: `ledger.apply` returns the state and the dice the entry rolled (no side
channel), each kind of entry goes to one pure rule, and a refusal names its rule by a code."""
from __future__ import annotations

import pytest

from sheets.games.wotw import ledger, rules_adjust, rules_mission, rules_spend
from sheets.games.wotw.campaign import Applied
from sheets.games.wotw.records import Recruit, Refused, make_entry

from wotwfixtures import data  # noqa: F401 - the fixture

pytestmark = pytest.mark.unit  # `make check`'s fast tier


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
    ({"heal": ["Hans Weber"]}, "not-wounded", "Hans Weber is fit, not wounded"),
    ({"set_state": {"Otto Lenz": "fit"}}, "state-unchanged", "Otto Lenz is fit already"),
    ({"xp": -1}, "points-below-zero", "CP +0, XP -1: the campaign has 1 CP and 0 XP; neither goes below 0"),
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


def _refusals(path):
    """(line, the message's literal text, code) of every `Refused(...)` a module raises."""
    import ast

    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == "Refused":
            # (what a message is rewritten from, `str(exc).replace("--flag", "words")`, is not said)
            unsaid = {id(a) for n in ast.walk(node.args[0]) if isinstance(n, ast.Call) and getattr(n.func, "attr", "") == "replace"
                      for a in n.args[:1]}
            text = "".join(n.value for n in ast.walk(node.args[0])
                           if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in unsaid)
            code = next((k.value.value for k in node.keywords if k.arg == "code"), None)
            found.append((node.lineno, text, code))
    return found


def test_the_rules_say_no_option_and_the_cli_adds_them_by_code():
    """The rules refuse in the game's words (the desk shows them as they are); the CLI adds the
    options that give each rule, keyed by its code."""
    from conftest import REPO
    from sheets.games.wotw import cli

    rules = [REPO / "sheets/games/wotw" / f"{m}.py" for m in ("campaign", "rules_mission", "rules_spend", "rules_adjust", "mission")]
    said = [(path.name, line, text, code) for path in rules for line, text, code in _refusals(path)]
    assert [s for s in said if "--" in s[2] or "`sheets" in s[2]] == []
    codes = {code for *_, code in said}
    assert set(cli.HINTS) <= codes
    assert cli.hinted("a successful mission rolls 1d3 XP", "no-dice") == \
        "a successful mission rolls 1d3 XP: give --seed or --dice"
    assert cli.hinted("the rule", "a-code-without-a-hint") == "the rule"
