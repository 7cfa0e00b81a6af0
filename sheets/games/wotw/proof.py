"""A campaign's state against itself: what a campaign file proves without its entries.

The replay (`ledger.py`) proves a file that keeps its entries. A file whose `entries` are gone (a file
from before the ledger) or whose first entry is a `baseline` is held to these checks instead, so that a
hand edit cannot pass as history:

- the ledger's rows add up to `cp` and `xp` (every CP and XP gained or spent is a row), and pay for
  every man of the team (the first team's row, a row per recruit);
- each man's status is what his history says, his history's wounds and deaths are the ones the
  missions list, and every change the table made by hand has its `adjusted` row in the ledger;
- every mission is the one its seed or dice roll on the tables (objective, steps, track, weather), and
  its XP and CP are what its debriefing gives (the rules, Equipment and Post-mission debriefing).

`prove` returns located problems (loc, message) and never raises; the team's own rules are
`campaign.check`'s.
"""
from __future__ import annotations

import re

from sheets.base.dice import Dice
from sheets.base.errors import SheetsError
from sheets.games.wotw.mission import Mission, MissionRoller
from sheets.games.wotw.models import WotwData
from sheets.games.wotw.records import Campaign, MissionRecord, name_key

STATUS_LINE = re.compile(r"^(?:(?P<hit>wounded|killed) M(?P<n>\d+)|healed after M\d+"
                         r"|(?:fit|wounded|killed) to (?P<set>fit|wounded|killed) after M\d+ \(adjusted\))$")
FIRST_TEAM = re.compile(r"^first team: (\d+) m[ae]n$")
RECRUITED = re.compile(r"^recruited (.+?) \(")
XP_ROLL = re.compile(r"^d6 (?P<face>[1-6]) -> 1d3 (?P<d3>[1-3])(?P<hq> \+1 Enemy HQ)? \((?:seed -?\d+|dice [\d,]+)\)$")
DEBRIEFING = "the rules, Post-mission debriefing"
REINFORCEMENTS = "the rules, Equipment: 2 CP after a mission, 1 CP if you've aborted it"


def prove(c: Campaign, data: WotwData) -> list[tuple[tuple, str]]:
    """Every way the state disagrees with itself, located (loc, message)."""
    problems = _sums(c) + _joined(c) + _statuses(c)
    for i, record in enumerate(c.missions):
        problems += _mission(c, data, i, record)
    return problems


def _sums(c: Campaign) -> list[tuple[tuple, str]]:
    problems = []
    for key, unit in (("cp", "CP"), ("xp", "XP")):
        total = sum(getattr(row, key) for row in c.ledger)
        if getattr(c, key) != total:
            problems.append(((key,), f"{key} {getattr(c, key)}, but the ledger's rows add up to {total} {unit} "
                                     f"(every {unit} gained or spent is a row of `ledger`)"))
    return problems


def _joined(c: Campaign) -> list[tuple[tuple, str]]:
    """Every man was paid for: the first team's row counts its men, each recruit has a 'recruited' row."""
    first = [int(m[1]) for row in c.ledger if (m := FIRST_TEAM.match(row.what))]
    recruits = [m[1].split(", ") for row in c.ledger if (m := RECRUITED.match(row.what))]
    paid = sum(first) + sum(len(names) for names in recruits)
    if len(c.team) == paid:
        return []
    return [(("team",), f"{len(c.team)} men in the team, but the ledger pays for {paid}: the first team's "
                        f"{sum(first)} and {paid - sum(first)} recruited (a man joins with `sheets campaign spend "
                        f"--recruit`, and its row says so)")]


def _adjusted(c: Campaign, what: str) -> bool:
    return any(row.what.startswith("adjusted (") and what in row.what.partition("):")[0] for row in c.ledger)


def _statuses(c: Campaign) -> list[tuple[tuple, str]]:
    problems = []
    listed = {(name_key(name), hit, m.number): (i, hit, j)
              for i, m in enumerate(c.missions) for hit in ("killed", "wounded")
              for j, name in enumerate(getattr(m.casualties, hit))}
    told = set()
    for i, man in enumerate(c.team):
        state, said = "fit", "he joined"
        for k, line in enumerate(man.history):
            found = STATUS_LINE.match(line)
            if found is None:
                continue
            if found["hit"]:
                key = (name_key(man.name), found["hit"], int(found["n"]))
                told.add(key)
                if key not in listed:
                    problems.append((("team", i, "history", k), f"{line!r}, but mission {found['n']} does not list "
                                                                f"{man.name} {found['hit']}"))
                state = found["hit"]
            else:
                state = found["set"] or "fit"
                change = f"{man.name} {'healed' if found['set'] is None else state}"
                if not _adjusted(c, change):
                    problems.append((("team", i, "history", k), f"{line!r}, but no `adjusted` row of the ledger says "
                                                                f"{change!r}: what the table changes is recorded with "
                                                                f"`sheets campaign adjust` (with its reason)"))
            said = repr(line)
        if man.status != state:
            problems.append((("team", i, "status"), f"{man.name} is {man.status}, but his history makes him {state} "
                                                    f"(last: {said}); change a man's state with `sheets campaign adjust`"))
    for key, (i, hit, j) in listed.items():
        if key not in told:
            name = getattr(c.missions[i].casualties, hit)[j]
            problems.append((("missions", i, "casualties", hit, j),
                             f"mission {key[2]} lists {name} {hit}, but his history has no '{hit} M{key[2]}'"))
    return problems


def reroll(c: Campaign, data: WotwData, record: MissionRecord) -> Mission:
    """The mission a record's seed or dice roll for this campaign (`SheetsError` when they cannot)."""
    if record.seed is not None:
        dice = Dice.seeded(record.seed)
    elif record.dice:
        dice = Dice.parse_script(record.dice.removeprefix("dice "), given=False)
    else:
        raise SheetsError("neither seed nor dice: the tables cannot roll this mission again")
    return MissionRoller(data).roll(dice, c.theatre, c.nation, airborne="airborne" in c.optional_rules,
                                    beachhead="beachhead" in c.optional_rules,
                                    engineers=c.engineers or record.struck_step is not None,
                                    strike_step=record.struck_step, number=record.number)


def _mission(c: Campaign, data: WotwData, i: int, m: MissionRecord) -> list[tuple[tuple, str]]:
    where = ("missions", i)
    try:
        rolled = reroll(c, data, m)
    except SheetsError as exc:
        return [(where + ("seed" if m.seed is not None else "dice",), f"mission {m.number}: {exc}")]
    problems = []
    track = " > ".join(s.terrain + (" (struck)" if s.struck else "") for s in rolled.track)
    for key, wanted in (("objective", rolled.objective.name if rolled.objective else ""),
                        ("steps", len(rolled.track)), ("track", track), ("weather", rolled.weather)):
        if getattr(m, key) != wanted:
            rolled_with = f"seed {m.seed}" if m.seed is not None else f"its dice ({m.dice})"
            problems.append((where + (key,), f"mission {m.number}: {key} {getattr(m, key)!r}, but {rolled_with} "
                                             f"roll{'s' if m.seed is not None else ''} {wanted!r} on the tables"))
    campaign = data.rules.campaign
    if m.outcome == "in progress":
        wanted_xp, wanted_cp, why = 0, 0, "a mission in progress has gained nothing yet"
    elif m.outcome == "aborted":
        wanted_xp, wanted_cp = int(campaign.get("xp_after_abort", 0)), int(campaign.get("reinforcement_cp_after_abort", 1))
        why = f"an aborted mission gains no XP ({DEBRIEFING}) and {wanted_cp} CP ({REINFORCEMENTS})"
    else:
        wanted_cp = int(campaign.get("reinforcement_cp", 2))
        roll = XP_ROLL.match(m.xp_roll or "")
        if roll is None or (int(roll["face"]) + 1) // 2 != int(roll["d3"]):
            problems.append((where + ("xp_roll",), f"mission {m.number}: xp_roll {m.xp_roll!r} is not a 1d3 as the "
                                                   f"debriefing writes it, e.g. 'd6 5 -> 1d3 3 (seed 7)' ({DEBRIEFING})"))
            wanted_xp = m.xp
        else:
            wanted_xp = int(roll["d3"]) + (1 if roll["hq"] else 0)
        why = f"a success gains 1d3 XP, +1 for the Enemy HQ ({DEBRIEFING}), and {wanted_cp} CP ({REINFORCEMENTS})"
    for key, wanted in (("xp", wanted_xp), ("cp", wanted_cp)):
        if getattr(m, key) != wanted:
            problems.append((where + (key,), f"mission {m.number}: {key} {getattr(m, key)}, but its outcome and "
                                             f"roll give {wanted}: {why}"))
    if m.outcome != "in progress" and not any(row.after == m.number and row.what.startswith(f"mission {m.number} ")
                                              and (row.cp, row.xp) == (m.cp, m.xp) for row in c.ledger):
        problems.append((where,  f"mission {m.number}: no row of the ledger gains its {m.xp} XP and {m.cp} CP "
                                 f"(the debriefing writes one, 'mission {m.number} {m.outcome}: ...')"))
    return problems
