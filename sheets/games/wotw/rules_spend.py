"""The rules of spending: XP on promotions and skills, CP on recruits, weapons and Engineers
(the rules, Equipment and Post-mission debriefing). Pure, as every rule (see `campaign.py`).
"""
from __future__ import annotations

from collections.abc import Callable

from sheets.games.wotw.campaign import refuse_if_broken
from sheets.games.wotw.crews import replacement_cost, replacement_cp, short_crews
from sheets.games.wotw.models import WotwData
from sheets.games.wotw.records import Campaign, LedgerEntry, Man, Refused, SpendEntry, clean_name
from sheets.games.wotw.team import (FLAME_THROWER, GRENADIER, TeamRules, crew_of, is_engineer, recruit_cost,
                                    recruit_options, recruit_row)

PROMOTIONS = {"Green": "Private", "Private": "Veteran"}


def promote(c: Campaign, data: WotwData, name: str) -> Campaign:
    new = c.fork([name])
    man = new.man(name)
    if man.status == "killed":
        raise Refused(f"{man.name} is dead: the dead are not promoted", code="man-dead")
    to = PROMOTIONS.get(man.quality)
    if to is None:
        raise Refused(f"{man.name} is a Veteran already: promotions are Green to Private and Private to Veteran (the rules, Post-mission debriefing)", code="veteran-already")
    cost = next(int(p["xp"]) for p in data.rules.campaign["promotions"] if p["from"] == man.quality)
    if cost > new.xp:
        raise Refused(f"promotion {man.quality} to {to} costs {cost} XP but the team has {new.xp} XP (the rules, Post-mission debriefing)", code="not-enough-xp")
    new.xp -= cost
    man.quality = to
    man.history.append(f"{to} after M{new.played}")
    new.ledger.append(LedgerEntry(after=new.played, what=f"promoted {man.name} to {to}", xp=-cost))
    return refuse_if_broken(new, data)


def learn(c: Campaign, data: WotwData, name: str, skill: str) -> Campaign:
    rules = TeamRules.of(data.rules)
    new = c.fork([name])
    man = new.man(name)
    sid = rules.skill_id(skill)
    if sid is None:
        raise Refused(f"unknown skill {skill!r}; skills: {', '.join(rules.skill_names.values())}", code="unknown-skill")
    label = rules.skill_names[sid]
    if man.status == "killed":
        raise Refused(f"{man.name} is dead: the dead learn no skills", code="man-dead")
    if any(rules.skill_id(s) == sid for s in man.skills):
        raise Refused(f"{man.name} has {label} already", code="skill-known")
    need = rules.skill_requires[sid]
    if "Any" not in need and man.quality not in need:
        raise Refused(f"{label} requires a {' or '.join(need)}; {man.name} is {man.quality} (the rules, Post-mission debriefing)", code="skill-needs-quality")
    if rules.skill_cost > new.xp:
        raise Refused(f"a skill costs {rules.skill_cost} XP but the team has {new.xp} XP (the rules, Post-mission debriefing)", code="not-enough-xp")
    new.xp -= rules.skill_cost
    man.skills.append(label)
    if sid == GRENADIER:
        man.grenades = rules.grenade_allowance([sid])
    man.history.append(f"{label} after M{new.played}")
    new.ledger.append(LedgerEntry(after=new.played, what=f"{man.name} learned {label}", xp=-rules.skill_cost))
    return refuse_if_broken(new, data)


def recruit(c: Campaign, data: WotwData, names: list[str], quality: str, weapon: str,
            medical: bool = False, engineer: bool = False) -> Campaign:
    """Recruits bought with saved CP; a crew short of a man takes one replacement (crews.py)."""
    nation = data.nation(c.nation)
    rules = TeamRules.of(data.rules)
    row = recruit_row(nation, quality, weapon)
    if row is None:
        raise Refused(f"{nation.name} has no {quality} with {weapon}; recruits: {recruit_options(nation)}", code="no-such-recruit")
    if not names:
        raise Refused("name the recruit", code="recruit-unnamed")
    taken = [m.name for m in c.team]
    clean: list[str] = []
    for n in names:
        clean.append(clean_name(n, taken + clean))
    names = clean
    short = short_crews(c, nation).get(row.weapon.lower(), [])
    spare = len(names) % row.crew if row.crew > 1 else 0
    if spare and spare > len(short):
        raise Refused(f"{row.weapon} takes {row.crew} men, each his own roster row: name {row.crew} recruits"
                      f", {len(names)} given" +
                      ("; no crew of the team is short of a man (a single replacement joins a crew that lost one)"
                       if row.crew > 1 else ""), code="crew-needs-pair")
    if engineer and not c.engineers:
        raise Refused("an Engineer needs optional rule #3 (Engineers): this campaign does not use it", code="engineers-not-in-use")
    men = [Man(name=n, quality=row.quality, weapon=row.weapon, medical=medical, engineer=engineer) for n in names]
    cost, problems = recruit_cost(men[spare:], nation, rules, c.engineers)
    if problems:
        raise Refused("; ".join(msg for _, msg in problems), code="recruits-illegal")
    cost += sum(replacement_cost(m, row, nation, rules, c.engineers) for m in men[:spare])
    if cost > c.cp:
        parts = [f"{row.quality} {row.weapon} {row.cp} CP" + (" per pair" if row.crew > 1 else " each" if len(men) > 1 else "")]
        if spare:
            parts.append(f"a crew's replacement {replacement_cp(row)} CP")
        if medical:
            parts.append(f"medical {nation.medical_expertise_cp} CP each")
        if any(is_engineer(m, rules, c.engineers) for m in men):
            parts.append(f"Engineer {rules.engineer_cp} CP")
        raise Refused(f"recruits cost {cost} CP ({', '.join(parts)}) but the campaign has {c.cp} CP saved (the rules, Equipment)", code="not-enough-cp")
    size = len(c.living) + len(men)
    if size > nation.max_team_size:
        raise Refused(f"team size: {len(c.living)} men alive + {len(men)} recruits = {size}, "
                      f"but a {nation.name} team has at most {nation.max_team_size} (the rules, Equipment)", code="team-too-large")
    new = c.fork()
    for i, m in enumerate(men):
        history = [f"joined after M{c.played}" if c.played else "joined before M1"]
        if i < spare:
            history.append(f"replaces the missing man of {short[i]}'s {row.weapon} crew")
        new.team.append(m.model_copy(update={
            "grenades": rules.grenade_allowance([]), "engineer": is_engineer(m, rules, c.engineers),
            "history": history}))
    new.cp -= cost
    new.ledger.append(LedgerEntry(after=c.played, what=f"recruited {', '.join(names)} ({row.quality} {row.weapon}"
                                  f"{', medical' if medical else ''}{', crew replacement' if spare else ''})", cp=-cost))
    return refuse_if_broken(new, data)


def rearm(c: Campaign, data: WotwData, name: str, weapon: str) -> Campaign:
    """Veterans and Privates change weapon freely; a Green keeps his starting weapon."""
    nation = data.nation(c.nation)
    new = c.fork([name])
    man = new.man(name)
    if man.status == "killed":
        raise Refused(f"{man.name} is dead", code="man-dead")
    if man.quality == "Green":
        raise Refused(f"{man.name} is Green: a Green must use his starting weapon ({man.weapon}); "
                      f"only Veterans and Privates change weapon (the rules, Equipment)", code="green-keeps-weapon")
    known = {r.weapon.lower(): r.weapon for r in nation.recruits}
    if weapon.strip().lower() not in known:
        raise Refused(f"{nation.name} recruits carry {', '.join(sorted(set(known.values())))}, not {weapon!r}", code="unknown-weapon")
    label = known[weapon.strip().lower()]
    if label.lower() == man.weapon.lower():
        raise Refused(f"{man.name} carries {man.weapon} already", code="weapon-carried")
    # leaving a crew is free (his mate is then a crew short of a man); joining one fills a short crew
    if crew_of(nation, label) > 1 and not short_crews(c, nation).get(label.lower()):
        raise Refused(f"{label} takes two men: a crew is recruited as a pair (two Green recruits with {label}); "
                      f"a Private or Veteran may take {label} only to fill a "
                      f"crew short of a man (the rules, Team Table: {label} (two men))", code="crew-needs-pair")
    if label.lower() == FLAME_THROWER and c.engineers and not man.engineer:
        others = [m.name for m in new.living if m.engineer and m is not man]
        if others:
            raise Refused(f"with optional rule #3 a Flame-thrower man is an Engineer, and the team has one ({others[0]})", code="one-engineer")
        rules = TeamRules.of(data.rules)
        if rules.engineer_cp > new.cp:
            raise Refused(f"a Flame-thrower man is an Engineer: {rules.engineer_cp} CP, but the campaign has {new.cp} CP saved", code="not-enough-cp")
        new.cp -= rules.engineer_cp
        man.engineer = True
        new.ledger.append(LedgerEntry(after=new.played, what=f"{man.name} made Engineer (Flame-thrower)", cp=-rules.engineer_cp))
    man.history.append(f"{man.weapon} to {label} after M{new.played}")
    man.weapon = label
    return refuse_if_broken(new, data)


def make_engineer(c: Campaign, data: WotwData, name: str) -> Campaign:
    rules = TeamRules.of(data.rules)
    if not c.engineers:
        raise Refused("an Engineer needs optional rule #3 (Engineers): this campaign does not use it", code="engineers-not-in-use")
    new = c.fork([name])
    man = new.man(name)
    if man.status == "killed":
        raise Refused(f"{man.name} is dead", code="man-dead")
    if man.engineer:
        raise Refused(f"{man.name} is an Engineer already", code="engineer-already")
    others = [m.name for m in new.living if m.engineer]
    if len(others) >= rules.engineers_max:
        raise Refused(f"one Engineer per team, and the team has {others[0]} (the rules, optional rule #3)", code="one-engineer")
    if rules.engineer_cp > new.cp:
        raise Refused(f"an Engineer costs {rules.engineer_cp} CP but the campaign has {new.cp} CP saved (the rules, optional rule #3)", code="not-enough-cp")
    new.cp -= rules.engineer_cp
    man.engineer = True
    man.history.append(f"Engineer after M{new.played}")
    new.ledger.append(LedgerEntry(after=new.played, what=f"{man.name} made Engineer", cp=-rules.engineer_cp))
    return refuse_if_broken(new, data)


#: a spend's one purchase (the entry's model sees to it that it names exactly one)
SPENDS: dict[str, Callable[[Campaign, SpendEntry, WotwData], Campaign]] = {
    "promote": lambda c, e, data: promote(c, data, e.promote),
    "learn": lambda c, e, data: learn(c, data, e.learn, e.skill or ""),
    "rearm": lambda c, e, data: rearm(c, data, e.rearm, e.weapon or ""),
    "make_engineer": lambda c, e, data: make_engineer(c, data, e.make_engineer),
    "recruit": lambda c, e, data: recruit(c, data, list(e.recruit), (e.quality or "").capitalize(), e.weapon or "",
                                          e.medical, e.engineer),
}


def spend(c: Campaign, e: SpendEntry, data: WotwData) -> Campaign:
    """A `spend` entry: its one purchase."""
    return SPENDS[e.action](c, e, data)
