"""The plays a campaign state tells: what a file without its entries (or a `baseline`) is proved by.

A state is legal when some legal sequence of plays reaches it. Every play leaves a trace in the
state: a row of the ledger (the first team, a debriefing, a promotion, a skill, a recruit, an
Engineer, an adjustment), a line of a man's history (a weapon changed) or a mission (its seed or
dice, its struck step, its XP roll). `plays` reads those traces back into the entries that wrote
them, in order; `ledger.prove` replays them with the one rule book (`ledger.apply`, the same
rules every command and every replay run) and compares the state they give with the state the
file holds. So every CP and XP spent is priced by the rules' tables, every CP and XP gained comes
from the start, a debriefed mission or an adjustment with its reason, each man's life is one the
rules allow, every mission re-rolls from its dice and every XP roll from its seed, and every
optional rule used is switched on; a trace no play writes is refused where it stands.

`plays` never raises: a trace it cannot read is a located problem (loc, message).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from sheets.games.wotw.records import (AdjustEntry, Campaign, DebriefEntry, Entry, Man, MissionEntry, MissionRecord,
                                       NewEntry, Recruit, SpendEntry, name_key)

ROWS = {
    "start": re.compile(r"^starting CP \((?P<nation>.+)\)$"),
    "first": re.compile(r"^first team: (?P<n>\d+) m[ae]n$"),
    "debrief": re.compile(r"^mission (?P<n>\d+) (?P<outcome>success|aborted): "),
    "promote": re.compile(r"^promoted (?P<name>.+) to (?:Private|Veteran)$"),
    "learn": re.compile(r"^(?P<name>[^()]+) learned (?P<skill>.+)$"),
    "recruit": re.compile(r"^recruited (?P<names>[^()]+) \((?P<quality>Green|Private|Veteran) (?P<weapon>.+?)"
                          r"(?P<medical>, medical)?(?:, crew replacement)?\)$"),
    "flame": re.compile(r"^(?P<name>[^()]+) made Engineer \(Flame-thrower\)$"),
    "engineer": re.compile(r"^(?P<name>[^()]+) made Engineer$"),
    "adjust": re.compile(r"^adjusted \((?P<parts>[^()]*)\): (?P<reason>.+)$", re.S),
}
REARM = re.compile(r"^(?P<old>[^()]+) to (?P<new>[^()]+) after M(?P<n>\d+)$")
XP_ROLL = re.compile(r"^d6 [1-6] -> 1d3 [1-3](?P<hq> \+1 Enemy HQ)? \((?:seed (?P<seed>-?\d+)|dice (?P<dice>[\d,]+))\)$")
PART_POINTS = re.compile(r"^[+-]\d+ (?:CP|XP)$")
PART_HEAL = re.compile(r"^(?P<name>.+) healed$")
PART_GRENADES = re.compile(r"^(?P<name>.+) (?P<n>\d+) grenades$")
PART_STATE = re.compile(r"^(?P<name>.+) (?P<state>fit|wounded|killed)$")
UNTOLD = ("no play writes this row (the rules give CP only at the start and after a mission, XP only after a "
          "successful mission; every other row is a purchase or an adjustment, as the commands write them)")


@dataclass
class Play:
    """One entry a trace tells, and where the trace stands in the state."""

    loc: tuple
    entry: Entry
    men: tuple[str, ...] = ()    # name keys of the men whose history it writes a line to


def _adjust(parts: str, reason: str, row) -> tuple[dict, list[str]]:
    fields: dict = {"do": "adjust", "reason": reason, "cp": row.cp, "xp": row.xp, "heal": [], "set_state": {},
                    "grenades": {}}
    men = []
    for part in filter(None, parts.split(", ")):
        if PART_POINTS.match(part):
            continue
        if (m := PART_HEAL.match(part)) is not None:
            fields["heal"].append(m["name"])
            men.append(m["name"])
        elif (m := PART_GRENADES.match(part)) is not None:
            fields["grenades"][m["name"]] = int(m["n"])
        elif (m := PART_STATE.match(part)) is not None:
            fields["set_state"][m["name"]] = m["state"]
            men.append(m["name"])
        else:
            raise ValueError(f"{part!r} is no change an adjustment makes")
    return fields, men


def _row_play(c: Campaign, i: int, row) -> Play | None:
    """The play a ledger row tells (None: the start's row, the first team's and a debriefing's are told elsewhere)."""
    kind, found = next(((k, m) for k, rx in ROWS.items() if (m := rx.match(row.what))), (None, None))
    loc = ("ledger", i)
    if kind in ("start", "first", "debrief", "flame"):
        return None
    if found is None:
        raise ValueError(UNTOLD)
    if kind == "promote":
        return Play(loc, SpendEntry(do="spend", promote=found["name"]), (name_key(found["name"]),))
    if kind == "learn":
        return Play(loc, SpendEntry(do="spend", learn=found["name"], skill=found["skill"]), (name_key(found["name"]),))
    if kind == "engineer":
        return Play(loc, SpendEntry(do="spend", make_engineer=found["name"]), (name_key(found["name"]),))
    if kind == "recruit":
        names = found["names"].split(", ")
        men = {name_key(m.name): m for m in c.team}
        engineer = any(men[k].engineer and not _made_engineer(men[k]) for k in map(name_key, names) if k in men)
        return Play(loc, SpendEntry(do="spend", recruit=names, quality=found["quality"], weapon=found["weapon"],
                                    medical=bool(found["medical"]), engineer=engineer), tuple(map(name_key, names)))
    if kind == "adjust":
        fields, adjusted = _adjust(found["parts"], found["reason"], row)
        return Play(loc, AdjustEntry(**fields), tuple(map(name_key, adjusted)))
    raise ValueError(UNTOLD)


def _made_engineer(man: Man) -> bool:
    return any(h.startswith("Engineer after M") or REARM.match(h) and "Flame-thrower" in h for h in man.history)


def _first_team(c: Campaign, recruited: set[str]) -> Play:
    team = []
    for man in c.team:
        if not man.history or man.history[0] != "joined before M1" or name_key(man.name) in recruited:
            continue
        quality = ("Green" if any(h.startswith("Private after M") for h in man.history) else
                   "Private" if any(h.startswith("Veteran after M") for h in man.history) else man.quality)
        rearms = [m for h in man.history if (m := REARM.match(h))]
        team.append(Recruit(name=man.name, quality=quality, weapon=rearms[0]["old"] if rearms else man.weapon,
                            medical=man.medical, engineer=man.engineer and not _made_engineer(man), notes=man.notes))
    at = next((("ledger", i) for i, row in enumerate(c.ledger) if ROWS["first"].match(row.what)), ("team",))
    return Play(at, NewEntry(do="new", nation=c.nation, theatre=c.theatre, optional_rules=list(c.optional_rules),
                             team=team), tuple(name_key(r.name) for r in team))


def _mission_plays(i: int, m: MissionRecord) -> tuple[Play, Play | None]:
    """The mission rolled (its struck step at the roll) and, once closed, its debriefing."""
    where = ("missions", i)
    dice = {"seed": m.seed} if m.seed is not None else {"dice": (m.dice or "").removeprefix("dice ")}
    rolled = Play(where, MissionEntry(do="mission", strike=m.struck_step, **dice))
    if m.outcome == "in progress":
        return rolled, None
    fields: dict[str, Any] = {"do": "debrief", "outcome": m.outcome, "killed": list(m.casualties.killed),
              "wounded": list(m.casualties.wounded)}
    if m.outcome == "success":
        roll = XP_ROLL.match(m.xp_roll or "")
        if roll is None:
            raise ValueError(f"mission {m.number}: xp_roll {m.xp_roll!r} is not a 1d3 as the debriefing writes it, "
                             f"e.g. 'd6 5 -> 1d3 3 (seed 7)' (the rules, Post-mission debriefing)")
        fields.update(enemy_hq=bool(roll["hq"]), **({"seed": int(roll["seed"])} if roll["seed"] else {"dice": roll["dice"]}))
    men = tuple(name_key(n) for n in m.casualties.killed + m.casualties.wounded)
    return rolled, Play(where + ("outcome",), DebriefEntry(**fields), men)


def _timeline(c: Campaign, problems: list) -> list[Play]:
    """The plays the ledger and the missions tell, in the ledger's order (a mission rolled just before its
    debriefing, the one in progress last)."""
    recruited = {name_key(n) for row in c.ledger if (listed := ROWS["recruit"].match(row.what)) for n in listed["names"].split(", ")}
    timeline = [_first_team(c, recruited)]
    missions = {}
    for i, m in enumerate(c.missions):
        try:
            missions[m.number] = _mission_plays(i, m)
        except ValueError as exc:
            problems.append((("missions", i, "xp_roll"), str(exc)))
    told = set()
    for i, row in enumerate(c.ledger):
        debriefed = ROWS["debrief"].match(row.what)
        try:
            if debriefed and int(debriefed["n"]) in missions and int(debriefed["n"]) not in told:
                told.add(int(debriefed["n"]))
                timeline += [p for p in missions[int(debriefed["n"])] if p is not None]
            elif debriefed:
                raise ValueError(f"mission {debriefed['n']} is debriefed once, by its own row; no mission "
                                 f"{debriefed['n']} is left to debrief here (the rules, Post-mission debriefing)")
            elif (play := _row_play(c, i, row)) is not None:
                timeline.append(play)
        except (ValueError, KeyError) as exc:
            problems.append((("ledger", i, "what"), f"{row.what!r}: {exc}"))
    for n, (rolled, debrief) in missions.items():
        if n not in told:
            timeline += [rolled] + ([debrief] if debrief is not None else [])
    return timeline


def plays(c: Campaign) -> tuple[list[Play], list[tuple[tuple, str]]]:
    """The entries the state's traces tell, in order, and every trace no play writes (located)."""
    problems: list[tuple[tuple, str]] = []
    timeline = _timeline(c, problems)
    for k, man in enumerate(c.team):
        key, prev = name_key(man.name), 0
        mine = [j for j, p in enumerate(timeline) if key in p.men]
        lines = iter(mine)
        for h, line in enumerate(man.history):
            rearm = REARM.match(line)
            if rearm is None:
                if not line.startswith("replaces the missing man"):
                    prev = next(lines, prev)
                continue
            after = next((j for j, p in enumerate(timeline) if p.entry.do == "debrief"
                          and p.loc[:2] == ("missions", int(rearm["n"]) - 1)), 0)
            at = max(prev, after) + 1
            timeline.insert(at, Play(("team", k, "history", h), SpendEntry(do="spend", rearm=man.name,
                                                                           weapon=rearm["new"]), (key,)))
            mine = [j + (j >= at) for j in mine]
            lines = iter([j for j in mine if j > at])
            prev = at
    return timeline, problems
