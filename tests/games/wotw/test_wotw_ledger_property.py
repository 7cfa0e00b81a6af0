"""Random command sequences on a campaign file: replay = state after every step, `undo` gives back
the earlier bytes, and every refusal leaves the file byte-identical.

The commands are the application functions the CLI calls (`commands.change`, `campaign_undo`),
without the PDFs. Each example plays one campaign: a first team, then STEPS commands drawn from
mission, strike, debrief, spend (promote, skill, recruit, rearm, Engineer), adjust and undo, with
arguments that are often legal and sometimes not (the dead, the broke, the wrong step).
"""
from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sheets.base.errors import SheetsError
from sheets.games.wotw import campaign_io, commands, ledger, rules_mission
from sheets.games.wotw.records import Recruit, make_entry
from sheets.games.wotw.team import TeamRules

EXAMPLES = int(os.environ.get("WOTW_LEDGER_EXAMPLES", "20"))
STEPS = (8, 20)

TEAMS = [
    ([("Hans Weber", "Veteran", "SMG"), ("Karl Brandt", "Green", "Rifle"), ("Otto Lenz", "Green", "Rifle")], []),
    ([("Jan Vogel", "Green", "LMG"), ("Emil Roth", "Green", "LMG"), ("Paul Busch", "Private", "Rifle")], []),
    ([("Kurt Keller", "Private", "Rifle"), ("Max Lang", "Green", "Rifle"), ("Udo Sauer", "Green", "Rifle")],
     ["engineers"]),
]
FRESH = ["Rolf Franke", "Ernst Krause", "Fritz Busch", "Heinz Roth", "Gerd Lenz", "Wolf Haas"]
KINDS = ["mission", "mission", "strike", "debrief", "debrief", "promote", "learn", "recruit", "rearm",
         "engineer", "adjust", "undo"]
STATS = {"sequences": 0, "steps": 0, "applied": 0, "refused": 0, "undone": 0}


def _entry(d, c, data, fresh: list[str]) -> dict | int:
    """The next command's entry, drawn against the campaign as it stands (mostly one the rules allow,
    one in six anything at all); an int is `undo --steps N`."""
    wild = d.draw(st.integers(0, 5)) == 0
    everyone = [m.name for m in c.team] + ["Nobody"]
    living = [m.name for m in c.living] or everyone
    names = everyone if wild else living
    nation = data.nation(c.nation)
    if wild:
        kinds = KINDS
    elif c.in_progress is not None:
        kinds = ["debrief", "debrief", "debrief"] + (["strike"] if rules_mission.has_engineer(c) else [])
    else:
        kinds = [k for k in KINDS if k not in ("debrief", "strike") and (k != "engineer" or c.engineers)
                 and (k != "undo" or len(c.entries) > 1)]
    kind = d.draw(st.sampled_from(kinds))
    if kind == "mission":
        strike = d.draw(st.integers(1, 40)) if (wild or rules_mission.has_engineer(c)) and d.draw(st.booleans()) else None
        return dict(do="mission", seed=d.draw(st.integers(0, 10_000)), strike=strike)
    if kind == "strike":
        top = 40 if wild or c.in_progress is None else c.in_progress.steps - 1
        return dict(do="strike", step=d.draw(st.integers(1, max(top, 1))))
    if kind == "debrief":
        outcome = d.draw(st.sampled_from(["success", "aborted"]))
        hit = d.draw(st.lists(st.sampled_from(names), max_size=3, unique=not wild))
        cut = d.draw(st.integers(0, len(hit)))
        dice = str(d.draw(st.integers(1, 6))) if outcome == "success" or (wild and d.draw(st.booleans())) else None
        return dict(do="debrief", outcome=outcome, killed=hit[:cut], wounded=hit[cut:], dice=dice,
                    enemy_hq=(outcome == "success" or wild) and d.draw(st.integers(0, 3)) == 0)
    if kind == "promote":
        green = [m.name for m in c.living if m.quality != "Veteran"]
        return dict(do="spend", promote=d.draw(st.sampled_from(green if green and not wild else names)))
    if kind == "learn":
        skill = d.draw(st.sampled_from(sorted(TeamRules.of(data.rules).skill_names.values())))
        return dict(do="spend", learn=d.draw(st.sampled_from(names)), skill=skill)
    if kind == "recruit":
        rows = nation.recruits if wild else [r for r in nation.recruits if r.cp <= c.cp] or nation.recruits
        row = d.draw(st.sampled_from(rows))
        count = d.draw(st.integers(1, 2)) if wild else row.crew
        recruits = [fresh.pop() if fresh and not wild else d.draw(st.sampled_from(everyone)) for _ in range(count)]
        return dict(do="spend", recruit=recruits, quality=row.quality, weapon=row.weapon,
                    medical=d.draw(st.integers(0, 4)) == 0)
    if kind == "rearm":
        weapon = d.draw(st.sampled_from(sorted({r.weapon for r in nation.recruits})))
        free = [m.name for m in c.living if m.quality != "Green"]
        return dict(do="spend", rearm=d.draw(st.sampled_from(free if free and not wild else names)), weapon=weapon)
    if kind == "engineer":
        return dict(do="spend", make_engineer=d.draw(st.sampled_from(names)))
    if kind == "adjust":
        wounded = [m.name for m in c.team if m.status == "wounded"]
        heal = d.draw(st.lists(st.sampled_from(wounded if wounded and not wild else everyone), max_size=1, unique=True))
        return dict(do="adjust", reason="table ruling", cp=d.draw(st.integers(0 if not wild else -2, 2)),
                    xp=d.draw(st.integers(0 if not wild else -1, 2)), heal=heal)
    return d.draw(st.integers(1, min(3, max(len(c.entries) - 1, 1)) if not wild else 9))


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(d=st.data())
def test_random_command_sequences(library, tmp_path_factory, d):
    data = library.game("wotw").data
    path = tmp_path_factory.mktemp("ledger") / "ww.yaml"
    team, rules = d.draw(st.sampled_from(TEAMS))
    first = make_entry(do="new", nation="german", theatre="france-1944", optional_rules=rules,
                       team=[Recruit(name=n, quality=q, weapon=w, engineer=bool(rules) and i == 0)
                             for i, (n, q, w) in enumerate(team)])
    state = ledger.apply(None, first, data).campaign
    campaign_io.save(path, state.model_copy(update={"entries": [first]}), data, new=True)
    versions = [path.read_bytes()]  # versions[i]: the file with i + 1 entries
    fresh = list(FRESH)
    STATS["sequences"] += 1
    for _ in range(d.draw(st.integers(*STEPS))):
        STATS["steps"] += 1
        c = campaign_io.load(path, data)
        step = _entry(d, c, data, fresh)
        before = path.read_bytes()
        try:
            if isinstance(step, int):
                commands.campaign_undo(path, step)
            else:
                commands.change(path, make_entry(**step), data)  # its model may refuse it first
        except SheetsError as exc:
            STATS["refused"] += 1
            if os.environ.get("WOTW_LEDGER_STATS"):
                print("refused:", str(exc)[:70])
            assert path.read_bytes() == before  # a refusal changes nothing
            continue
        after = campaign_io.load(path, data)  # replays every entry and compares every stored value
        assert ledger.replay(after.entries, data).state == after.model_copy(update={"entries": []})
        if isinstance(step, int):
            STATS["undone"] += 1
            assert path.read_bytes() == versions[len(after.entries) - 1]  # undo gives back the earlier bytes
            del versions[len(after.entries):]
        else:
            STATS["applied"] += 1
            assert len(after.entries) == len(versions) + 1
            versions.append(path.read_bytes())
    if os.environ.get("WOTW_LEDGER_STATS"):
        print(STATS)
