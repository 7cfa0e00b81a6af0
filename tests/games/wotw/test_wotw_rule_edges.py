"""Rules at their edges, run by commands and replay alike (issue 37, items 2 and 3): the three-man minimum,
the Enemy HQ only for a Building that got an Event roll, a struck step only by an Engineer the team had at
the briefing, no success with no man left; names a command can name, and the file's documented maxima."""
from __future__ import annotations

from pathlib import Path

import pytest

from sheets.base.limits import MAX_FILE_BYTES, MAX_NAME, MAX_REASON
from sheets.games.wotw import campaign_io, ledger, rules_mission
from sheets.games.wotw.records import Refused, make_entry
from wotwfixtures import data  # noqa: F401 - the fixture

THREE = [{"name": "Kurt Keller", "quality": "Green", "weapon": "Rifle"},
         {"name": "Karl Brandt", "quality": "Green", "weapon": "Rifle"},
         {"name": "Otto Lenz", "quality": "Green", "weapon": "Rifle"}]


def new(team=THREE, rules=()):
    return make_entry(do="new", nation="german", theatre="france-1944", optional_rules=list(rules), team=team)


def play(data, *entries):
    return ledger.replay(list(entries), data).state


def refused(data, *entries) -> str:
    with pytest.raises(Refused) as exc:
        ledger.replay(list(entries), data)
    return exc.value.code


def test_the_three_man_minimum_holds_on_replay_too(data):
    entries = [new(), make_entry(do="mission", seed=11),
               make_entry(do="debrief", outcome="success", killed=["Otto Lenz"], dice="5")]
    assert len(play(data, *entries).living) == 2
    assert refused(data, *entries, make_entry(do="mission", seed=12)) == "team-too-small"


def test_no_success_when_no_man_is_left_standing(data):
    entries = [new(), make_entry(do="mission", seed=11)]
    all_dead = make_entry(do="debrief", outcome="success", killed=[m["name"] for m in THREE], dice="5")
    assert refused(data, *entries, all_dead) == "success-without-survivors"
    aborted = make_entry(do="debrief", outcome="aborted", killed=[m["name"] for m in THREE])
    assert play(data, *entries, aborted).living == []


def test_a_step_is_struck_only_by_an_engineer_the_team_had_at_the_briefing(data):
    late = [new(rules=["engineers"]), make_entry(do="mission", seed=11),
            make_entry(do="spend", make_engineer="Kurt Keller")]
    assert refused(data, *late, make_entry(do="strike", step=2)) == "strike-needs-engineer"
    early = [new(rules=["engineers"]), make_entry(do="spend", make_engineer="Kurt Keller"),
             make_entry(do="mission", seed=11), make_entry(do="strike", step=2)]
    assert play(data, *early).missions[-1].struck_step == 2


def _hq_only_at_the_objective(data, state):
    """A seed whose track's only Building with the Enemy HQ event is its last step, the objective."""
    for seed in range(1, 3000):
        mission = rules_mission.roll(state, data, rules_mission.Dice.seeded(seed), 1, None)
        has = [bool((r := data.terrain(s.group, s.terrain)) and r.terrain
                    and any(ev.text.startswith(rules_mission.ENEMY_HQ) for ev in r.terrain.events)) for s in mission.track]
        if has[-1] and not any(has[:-1]):
            return seed
    pytest.skip("no seed puts the Enemy HQ at the objective only")


def test_the_enemy_hq_bonus_is_never_for_the_objective(data):
    start = play(data, new())
    seed = _hq_only_at_the_objective(data, start)
    entries = [new(), make_entry(do="mission", seed=seed)]
    hq = make_entry(do="debrief", outcome="success", enemy_hq=True, dice="5")
    assert refused(data, *entries, hq) == "enemy-hq-not-on-track"


# -- names --------------------------------------------------------------------------

@pytest.mark.parametrize("name, code", [
    ("Strauß", "name-taken"), ("STRAUSS", "name-taken"), ("Ｓｔｒａｕｓｓ", "name-taken"),
    ("x" * (MAX_NAME + 1), "name-too-long"), ("Hans=Weber", "name-unspeakable"), ("Weber, Hans", "name-unspeakable"),
("Hans (the elder)", "name-unspeakable"), ("Hans\tWeber", "name-unspeakable"),
    ("Hans\u200bWeber", "name-unspeakable"), ("   ", "name-empty"),
])
def test_a_recruit_name_a_command_could_not_name_is_refused(data, name, code):
    team = THREE[:2] + [{"name": "Strauss", "quality": "Green", "weapon": "Rifle"}]
    recruit = make_entry(do="spend", recruit=[name], quality="Green", weapon="Rifle")
    assert refused(data, new(team), recruit) == code
    assert refused(data, new(team + [{"name": name, "quality": "Green", "weapon": "Rifle"}])) == code


def test_a_name_of_sixty_characters_is_a_name(data):
    name = "x" * MAX_NAME
    state = play(data, new(), make_entry(do="spend", recruit=[name], quality="Green", weapon="Rifle"))
    assert state.man(name.upper()).name == name


@pytest.mark.parametrize("was, now, said", [
    ("- name: Willi Haas", "- name: Hans weber", "one name to the commands"),
    ("- name: Willi Haas", "- name: Willi=Haas", "cannot be in a name"),
    ("- name: Willi Haas", f"- name: {'W' * 61}", f"at most {MAX_NAME}"),
])
def test_a_file_without_entries_is_held_to_the_same_names(cli, was, now, said):
    legal = (Path(__file__).parent / "campaigns" / "baseline.yaml").read_text(encoding="utf-8").split("\n# entries:")[0]
    Path("w.yaml").write_text(legal.replace(was, now), encoding="utf-8")
    r = cli("validate", "w.yaml")
    assert r.exit_code == 1 and said in r.stderr and "w.yaml:" in r.stderr, r.stderr


def test_no_command_grows_a_file_past_what_the_tool_reads_back(data, tmp_path):
    """The largest strings the commands take, many times over: the file stays readable, or the write is refused."""
    entries = [new(), make_entry(do="adjust", reason="r" * 200, cp=1)]
    for i in range(300):
        entries.append(make_entry(do="adjust", reason="r" * 200, grenades={"Kurt Keller": i % 5}))
    state = ledger.replay(entries, data).state.model_copy(update={"entries": entries})
    path = tmp_path / "big.yaml"
    campaign_io.save(path, state, data, new=True)
    assert path.stat().st_size < MAX_FILE_BYTES
    with pytest.raises(Refused):
        make_entry(do="adjust", reason="r" * (MAX_REASON + 1), cp=1)


def test_a_mission_appended_by_hand_to_a_team_of_two_is_refused_by_validate(cli):
    Path("t.yaml").write_text("nation: german\nmembers:\n" + "".join(
        f"  - {{name: {m['name']}, quality: Green, weapon: Rifle}}\n" for m in THREE), encoding="utf-8")
    assert cli("campaign", "new", "c.yaml", "--nation", "german", "--theatre", "france-1944", "--team", "t.yaml").exit_code == 0
    assert cli("campaign", "mission", "c.yaml", "--seed", "11", "-o", "m.pdf").exit_code == 0
    assert cli("campaign", "debrief", "c.yaml", "--outcome", "success", "--killed", "Otto Lenz", "--dice", "5").exit_code == 0
    refused_now = cli("campaign", "mission", "c.yaml", "--seed", "12", "-o", "m2.pdf")
    assert refused_now.exit_code == 1 and "team-too-small" not in refused_now.stderr  # the rule's words, not its code
    assert "a mission needs at least 3" in refused_now.stderr
    text = Path("c.yaml").read_text(encoding="utf-8") + "- {do: mission, seed: 12}\n"
    Path("c.yaml").write_text(text, encoding="utf-8")
    r = cli("validate", "c.yaml")
    line = len(text.splitlines())
    assert r.exit_code == 1 and f"c.yaml:{line}: entries[3]: entry 4 (mission (seed 12)) is refused by the rules: 2 men " \
        "alive, but a mission needs at least 3" in r.stderr and "(rule team-too-small)" in r.stderr, r.stderr
