"""A Way of the Warrior campaign: its rules, and the changes between missions (the records: `records.py`).

Pure: every function here takes a `Campaign` and returns a new one (or raises `Refused`,
naming the rule and the numbers); nothing reads or writes files. `campaign_io.py` loads,
checks and saves; `commands.py` wires the two to the CLI.

Readings of the seed (004, "Equipment", "Post-mission debriefing"), also in the file header:
- reinforcements: 2 CP after a mission, 1 CP after an aborted one, added to saved CP;
- team XP: 1d3 (one d6 halved, rounding up) after a successful mission, none after an abort;
  the Enemy HQ event (Building 11) gives +1 XP at the end of a successful mission;
- the seed gives no healing between missions: a wounded man stays wounded (a second wound
  kills him) until the player edits the file;
- Medical expertise is bought only with a new member ("adding ... to the base cost");
  an Engineer may be made of any man (optional rule #3 "one of your team members").
"""
from __future__ import annotations

from sheets.base.dice import Dice
from sheets.games.wotw.crews import replacement_cost, replacement_cp, short_crews
from sheets.games.wotw.models import Nation, WotwData
from sheets.games.wotw.records import (Campaign, Casualties, LedgerEntry, Man, MissionRecord, Refused, clean_name,
                                       name_key)
from sheets.games.wotw.team import (FLAME_THROWER, GRENADIER, TeamRules, check_men, crew_of, first_team,
                                    is_engineer, recruit_cost, recruit_options, recruit_row)

OPTIONAL_RULES = ("airborne", "beachhead", "engineers")
PROMOTIONS = {"Green": "Private", "Private": "Veteran"}


# -- the rules that hold at every moment -------------------------------------

def check(c: Campaign, data: WotwData) -> list[tuple[tuple, str]]:
    """Every rule a campaign must satisfy, as located problems (never raises)."""
    problems: list[tuple[tuple, str]] = []
    nation = _nation(c, data, problems)
    theatre = next((t for t in data.theatres.theatres if t.id == c.theatre), None)
    if theatre is None:
        problems.append((("theatre",), f"unknown theatre {c.theatre!r}; choose one of: "
                                       f"{', '.join(t.id for t in data.theatres.theatres)}"))
    elif nation is not None:
        if nation.id not in theatre.nations:
            problems.append((("nation",), f"{nation.name} does not fight in {theatre.name}; choose {' or '.join(theatre.nations)}"))
        else:
            enemy = next(n for n in theatre.nations if n != nation.id)
            if c.enemy != enemy:
                problems.append((("enemy",), f"in {theatre.name} the {nation.name} team fights {enemy!r}, not {c.enemy!r}"))
    if nation is None:
        return problems
    rules = TeamRules.of(data.rules)
    problems += check_men(c.team, nation, rules, c.engineers, lambda i: ("team", i), lambda m: m.status != "killed")
    living = len(c.living)
    if living > nation.max_team_size:
        problems.append((("team",), f"{living} men alive but a {nation.name} team has at most {nation.max_team_size}"))
    open_ = [i for i, m in enumerate(c.missions) if m.outcome == "in progress"]
    if len(open_) > 1 or (open_ and open_[0] != len(c.missions) - 1):
        problems.append((("missions",), "only the last mission may be in progress"))
    for i, m in enumerate(c.missions):
        if m.number != i + 1:
            problems.append((("missions", i, "number"), f"mission {i + 1} is numbered {m.number}"))
        for name in m.casualties.killed + m.casualties.wounded:
            if not any(t.name.lower() == name.lower() for t in c.team):
                problems.append((("missions", i, "casualties"), f"{name!r} is not in the team"))
    return problems


def _nation(c: Campaign, data: WotwData, problems: list) -> Nation | None:
    n = next((n for n in data.teams.nations if n.id == c.nation), None)
    if n is None:
        problems.append((("nation",), f"unknown nation {c.nation!r}; choose one of: {', '.join(x.id for x in data.teams.nations)}"))
    return n


def _refuse_if_broken(c: Campaign, data: WotwData) -> Campaign:
    problems = check(c, data)
    if problems:
        raise Refused("; ".join(msg for _, msg in problems))
    return c


# -- the first team ----------------------------------------------------------

def enemy_of(data: WotwData, nation_id: str, theatre_id: str) -> str:
    """Whom the nation fights in the theatre (refused if it does not fight there)."""
    nation, theatre = data.nation(nation_id), data.theatre(theatre_id)
    if nation.id not in theatre.nations:
        raise Refused(f"{nation.name} does not fight in {theatre.name}; choose --nation {' or '.join(theatre.nations)}")
    return next(n for n in theatre.nations if n != nation.id)


def new_campaign(data: WotwData, nation_id: str, theatre_id: str, men: list[Man], optional_rules: list[str]) -> Campaign:
    """A campaign from a first team, checked against the starting CP and team size."""
    nation, theatre, enemy = data.nation(nation_id), data.theatre(theatre_id), enemy_of(data, nation_id, theatre_id)
    rules = TeamRules.of(data.rules)
    engineers = "engineers" in optional_rules
    named: list[str] = []
    for m in men:
        named.append(clean_name(m.name, named))
    men = [m.model_copy(update={"name": n}) for m, n in zip(men, named)]
    first = first_team(men, nation, rules, engineers, lambda i: ("team", i))
    if first.problems:
        raise Refused("; ".join(f"{men[loc[1]].name}: {msg}" if loc else msg for loc, msg in first.problems))
    cost = first.spent
    team = []
    for m in men:
        team.append(m.model_copy(update={
            "grenades": rules.grenade_allowance(m.skills),
            "engineer": m.engineer or is_engineer(m, rules, engineers),
            "history": ["joined before M1"]}))
    c = Campaign(nation=nation.id, theatre=theatre.id, enemy=enemy,
                 optional_rules=[r for r in OPTIONAL_RULES if r in optional_rules],
                 cp=nation.starting_cp - cost, xp=0, team=team,
                 ledger=[LedgerEntry(after=0, what=f"starting CP ({nation.name})", cp=nation.starting_cp),
                         LedgerEntry(after=0, what=f"first team: {len(men)} men", cp=-cost)])
    return _refuse_if_broken(c, data)


#: flavour, not rules: the seed names no soldiers. Rename anyone by editing the file.
NAMES = {
    "german": ["Weber", "Brandt", "Lenz", "Haas", "Krause", "Vogel", "Keller", "Franke", "Roth", "Busch", "Lang", "Sauer"],
    "us": ["Miller", "Kowalski", "Hayes", "Russo", "Doyle", "Carter", "Novak", "Brooks", "Shaw", "Kelly", "Reed", "Ortiz"],
    "russian": ["Ivanov", "Petrov", "Sokolov", "Volkov", "Orlov", "Popov", "Lebedev", "Kozlov", "Morozov", "Pavlov", "Belov", "Zaitsev"],
    "italian": ["Rossi", "Bianchi", "Esposito", "Romano", "Colombo", "Ricci", "Marino", "Greco", "Bruno", "Gallo", "Conti", "Costa"],
    "finnish": ["Korhonen", "Virtanen", "Nieminen", "Mäkinen", "Hämäläinen", "Laine", "Heikkinen", "Koskinen", "Järvinen", "Lehtonen", "Saarinen", "Salo"],
}


def random_team(data: WotwData, nation_id: str, dice: Dice, optional_rules: list[str]) -> list[Man]:
    """A legal first team from the nation's table: recruits rolled while CP and room last.

    Each pick is one die over the recruit rows still affordable (CP left, room left, a
    Flame-thrower paying the Engineer's 2 CP when optional rule #3 is in use, one Engineer
    at most); then Green riflemen (0 CP) fill the team up to its minimum of three.
    """
    nation = data.nation(nation_id)
    rules = TeamRules.of(data.rules)
    engineers = "engineers" in optional_rules
    budget, chosen, has_engineer = nation.starting_cp, [], False
    while True:
        room = nation.max_team_size - len(chosen)
        options = []
        for r in nation.recruits:
            cost = r.cp + (rules.engineer_cp if engineers and r.weapon.lower() == FLAME_THROWER else 0)
            if r.cp == 0 or cost > budget or r.crew > room:
                continue
            if engineers and r.weapon.lower() == FLAME_THROWER and has_engineer:
                continue
            options.append((r, cost))
        if not options:
            break
        r, cost = dice.pick(options, "recruit")
        budget -= cost
        has_engineer = has_engineer or (engineers and r.weapon.lower() == FLAME_THROWER)
        chosen += [(r.quality, r.weapon)] * r.crew
    green = next(r for r in nation.recruits if r.quality == "Green" and r.cp == 0)
    while len(chosen) < rules.min_size:
        chosen.append((green.quality, green.weapon))
    names = dice.sample(NAMES.get(nation.id, [f"Soldier {i}" for i in range(1, 13)]), len(chosen), "name")
    return [Man(name=n, quality=q, weapon=w) for n, (q, w) in zip(names, chosen)]


# -- missions ----------------------------------------------------------------

def ready_for_mission(c: Campaign, data: WotwData) -> None:
    """Three men alive for a new mission (asked by the command, not the replay: older files keep loading)."""
    alive, least = len(c.living), TeamRules.of(data.rules).min_size
    if alive < least:
        raise Refused(f"{alive} m{'a' if alive == 1 else 'e'}n alive, but a mission needs at least {least} (the rules, "
                      f"Equipment: “You must select at least three men”): recruit first with `sheets campaign spend`")


def start_mission(c: Campaign, data: WotwData, record: MissionRecord) -> Campaign:
    """Record a rolled mission as in progress; grenades are refilled at the Equipment phase."""
    if c.in_progress is not None:
        raise Refused(f"mission {c.in_progress.number} is still in progress: close it first with "
                      f"`sheets campaign debrief FILE --outcome success|aborted`")
    if not c.living:
        raise Refused("every man of the team is dead: recruit before the next mission")
    rules = TeamRules.of(data.rules)
    new = c.model_copy(deep=True)
    for m in new.team:
        if m.status != "killed":
            m.grenades = rules.grenade_allowance([rules.skill_id(s) for s in m.skills])
    new.missions.append(record.model_copy(update={"number": len(c.missions) + 1, "outcome": "in progress"}))
    return _refuse_if_broken(new, data)


def debrief(c: Campaign, data: WotwData, outcome: str, killed: list[str], wounded: list[str],
            dice: Dice | None, enemy_hq: bool = False) -> Campaign:
    """Close the mission in progress: casualties, then XP and reinforcement CP."""
    open_ = c.in_progress
    if open_ is None:
        raise Refused("no mission in progress: roll one with `sheets campaign mission FILE`")
    if outcome not in ("success", "aborted"):
        raise Refused(f"--outcome {outcome!r}: choose success or aborted")
    if outcome == "aborted" and enemy_hq:
        raise Refused("--enemy-hq: the Enemy HQ's +1 XP comes at the end of a successful mission, and this one was "
                      "aborted (the rules, Event Table: Building, 11); leave --enemy-hq out")
    new = c.model_copy(deep=True)
    record = new.missions[-1]
    both = {name_key(n) for n in killed} & {name_key(n) for n in wounded}
    if both:
        raise Refused(f"{', '.join(sorted(both))}: named both --killed and --wounded; a man is one or the other")
    for given, what in ((killed, "--killed"), (wounded, "--wounded")):
        keys = [name_key(new.man(n).name) for n in given]
        twice = sorted({new.man(n).name for n in given if keys.count(name_key(new.man(n).name)) > 1})
        if twice:
            raise Refused(f"{', '.join(twice)}: named twice with {what}; name each casualty once")
    for name in killed:
        man = new.man(name)
        if man.status == "killed":
            raise Refused(f"{man.name} was killed before; the dead cannot be casualties again")
        man.status = "killed"
        man.history.append(f"killed M{record.number}")
    for name in wounded:
        man = new.man(name)
        if man.status == "killed":
            raise Refused(f"{man.name} was killed before; the dead cannot be casualties again")
        if man.status == "wounded":
            raise Refused(f"{man.name} is already wounded: a wounded soldier that suffers a second wound is "
                          f"Killed (use --killed {man.name!r})")
        man.status = "wounded"
        man.history.append(f"wounded M{record.number}")
    record.casualties = Casualties(killed=[new.man(n).name for n in killed], wounded=[new.man(n).name for n in wounded])
    campaign = data.rules.campaign
    if outcome == "aborted":
        record.xp, record.cp = int(campaign.get("xp_after_abort", 0)), int(campaign.get("reinforcement_cp_after_abort", 1))
        what = f"mission {record.number} aborted: no XP, {record.cp} CP reinforcements"
    else:
        if dice is None:
            raise Refused("a successful mission rolls 1d3 XP: give --seed or --dice")
        face = dice.d6("team XP 1d3")
        record.xp = (face + 1) // 2 + (1 if enemy_hq else 0)
        record.xp_roll = f"d6 {face} -> 1d3 {(face + 1) // 2}" + (" +1 Enemy HQ" if enemy_hq else "") + f" ({dice.describe})"
        record.cp = int(campaign.get("reinforcement_cp", 2))
        what = f"mission {record.number} success: {record.xp} XP (1d3{' +1 Enemy HQ' if enemy_hq else ''}), {record.cp} CP reinforcements"
    record.outcome = outcome
    new.cp += record.cp
    new.xp += record.xp
    new.ledger.append(LedgerEntry(after=record.number, what=what, cp=record.cp, xp=record.xp))
    return _refuse_if_broken(new, data)


# -- spending XP and CP ------------------------------------------------------

def promote(c: Campaign, data: WotwData, name: str) -> Campaign:
    new = c.model_copy(deep=True)
    man = new.man(name)
    if man.status == "killed":
        raise Refused(f"{man.name} is dead: the dead are not promoted")
    to = PROMOTIONS.get(man.quality)
    if to is None:
        raise Refused(f"{man.name} is a Veteran already: promotions are Green to Private and Private to Veteran (the rules, Post-mission debriefing)")
    cost = next(int(p["xp"]) for p in data.rules.campaign["promotions"] if p["from"] == man.quality)
    if cost > new.xp:
        raise Refused(f"promotion {man.quality} to {to} costs {cost} XP but the team has {new.xp} XP (the rules, Post-mission debriefing)")
    new.xp -= cost
    man.quality = to
    man.history.append(f"{to} after M{new.played}")
    new.ledger.append(LedgerEntry(after=new.played, what=f"promoted {man.name} to {to}", xp=-cost))
    return _refuse_if_broken(new, data)


def learn(c: Campaign, data: WotwData, name: str, skill: str) -> Campaign:
    rules = TeamRules.of(data.rules)
    new = c.model_copy(deep=True)
    man = new.man(name)
    sid = rules.skill_id(skill)
    if sid is None:
        raise Refused(f"unknown skill {skill!r}; skills: {', '.join(rules.skill_names.values())}")
    label = rules.skill_names[sid]
    if man.status == "killed":
        raise Refused(f"{man.name} is dead: the dead learn no skills")
    if any(rules.skill_id(s) == sid for s in man.skills):
        raise Refused(f"{man.name} has {label} already")
    need = rules.skill_requires[sid]
    if "Any" not in need and man.quality not in need:
        raise Refused(f"{label} requires a {' or '.join(need)}; {man.name} is {man.quality} (the rules, Post-mission debriefing)")
    if rules.skill_cost > new.xp:
        raise Refused(f"a skill costs {rules.skill_cost} XP but the team has {new.xp} XP (the rules, Post-mission debriefing)")
    new.xp -= rules.skill_cost
    man.skills.append(label)
    if sid == GRENADIER:
        man.grenades = rules.grenade_allowance([sid])
    man.history.append(f"{label} after M{new.played}")
    new.ledger.append(LedgerEntry(after=new.played, what=f"{man.name} learned {label}", xp=-rules.skill_cost))
    return _refuse_if_broken(new, data)


def recruit(c: Campaign, data: WotwData, names: list[str], quality: str, weapon: str,
            medical: bool = False, engineer: bool = False) -> Campaign:
    """Recruits bought with saved CP; a crew short of a man takes one replacement (crews.py)."""
    nation = data.nation(c.nation)
    rules = TeamRules.of(data.rules)
    row = recruit_row(nation, quality, weapon)
    if row is None:
        raise Refused(f"{nation.name} has no {quality} with {weapon}; recruits: {recruit_options(nation)}")
    if not names:
        raise Refused("name the recruit: --recruit NAME (twice for a two-man LMG or Mortar crew)")
    taken = [m.name for m in c.team]
    clean: list[str] = []
    for n in names:
        clean.append(clean_name(n, taken + clean))
    names = clean
    short = short_crews(c, nation).get(row.weapon.lower(), [])
    spare = len(names) % row.crew if row.crew > 1 else 0
    if spare and spare > len(short):
        raise Refused(f"{row.weapon} takes {row.crew} men, each his own roster row: name {row.crew} recruits "
                      f"(--recruit A --recruit B), {len(names)} given" +
                      ("; no crew of the team is short of a man (a single replacement joins a crew that lost one)"
                       if row.crew > 1 else ""))
    if engineer and not c.engineers:
        raise Refused("an Engineer needs optional rule #3 (Engineers): start the campaign with --engineers")
    men = [Man(name=n, quality=row.quality, weapon=row.weapon, medical=medical, engineer=engineer) for n in names]
    cost, problems = recruit_cost(men[spare:], nation, rules, c.engineers)
    if problems:
        raise Refused("; ".join(msg for _, msg in problems))
    cost += sum(replacement_cost(m, row, nation, rules, c.engineers) for m in men[:spare])
    if cost > c.cp:
        parts = [f"{row.quality} {row.weapon} {row.cp} CP" + (" per pair" if row.crew > 1 else " each" if len(men) > 1 else "")]
        if spare:
            parts.append(f"a crew's replacement {replacement_cp(row)} CP")
        if medical:
            parts.append(f"medical {nation.medical_expertise_cp} CP each")
        if any(is_engineer(m, rules, c.engineers) for m in men):
            parts.append(f"Engineer {rules.engineer_cp} CP")
        raise Refused(f"recruits cost {cost} CP ({', '.join(parts)}) but the campaign has {c.cp} CP saved (the rules, Equipment)")
    size = len(c.living) + len(men)
    if size > nation.max_team_size:
        raise Refused(f"team size: {len(c.living)} men alive + {len(men)} recruits = {size}, "
                      f"but a {nation.name} team has at most {nation.max_team_size} (the rules, Equipment)")
    new = c.model_copy(deep=True)
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
    return _refuse_if_broken(new, data)


def rearm(c: Campaign, data: WotwData, name: str, weapon: str) -> Campaign:
    """Veterans and Privates change weapon freely; a Green keeps his starting weapon."""
    nation = data.nation(c.nation)
    new = c.model_copy(deep=True)
    man = new.man(name)
    if man.status == "killed":
        raise Refused(f"{man.name} is dead")
    if man.quality == "Green":
        raise Refused(f"{man.name} is Green: a Green must use his starting weapon ({man.weapon}); "
                      f"only Veterans and Privates change weapon (the rules, Equipment)")
    known = {r.weapon.lower(): r.weapon for r in nation.recruits}
    if weapon.strip().lower() not in known:
        raise Refused(f"{nation.name} recruits carry {', '.join(sorted(set(known.values())))}, not {weapon!r}")
    label = known[weapon.strip().lower()]
    if label.lower() == man.weapon.lower():
        raise Refused(f"{man.name} carries {man.weapon} already")
    # leaving a crew is free (his mate is then a crew short of a man); joining one fills a short crew
    if crew_of(nation, label) > 1 and not short_crews(c, nation).get(label.lower()):
        raise Refused(f"{label} takes two men: a crew is recruited as a pair (--recruit A --recruit B "
                      f"--quality Green --weapon {label}); a Private or Veteran may take {label} only to fill a "
                      f"crew short of a man (the rules, Team Table: {label} (two men))")
    if label.lower() == FLAME_THROWER and c.engineers and not man.engineer:
        others = [m.name for m in new.living if m.engineer and m is not man]
        if others:
            raise Refused(f"with optional rule #3 a Flame-thrower man is an Engineer, and the team has one ({others[0]})")
        rules = TeamRules.of(data.rules)
        if rules.engineer_cp > new.cp:
            raise Refused(f"a Flame-thrower man is an Engineer: {rules.engineer_cp} CP, but the campaign has {new.cp} CP saved")
        new.cp -= rules.engineer_cp
        man.engineer = True
        new.ledger.append(LedgerEntry(after=new.played, what=f"{man.name} made Engineer (Flame-thrower)", cp=-rules.engineer_cp))
    man.history.append(f"{man.weapon} to {label} after M{new.played}")
    man.weapon = label
    return _refuse_if_broken(new, data)


def make_engineer(c: Campaign, data: WotwData, name: str) -> Campaign:
    rules = TeamRules.of(data.rules)
    if not c.engineers:
        raise Refused("an Engineer needs optional rule #3 (Engineers): this campaign does not use it")
    new = c.model_copy(deep=True)
    man = new.man(name)
    if man.status == "killed":
        raise Refused(f"{man.name} is dead")
    if man.engineer:
        raise Refused(f"{man.name} is an Engineer already")
    others = [m.name for m in new.living if m.engineer]
    if len(others) >= rules.engineers_max:
        raise Refused(f"one Engineer per team, and the team has {others[0]} (the rules, optional rule #3)")
    if rules.engineer_cp > new.cp:
        raise Refused(f"an Engineer costs {rules.engineer_cp} CP but the campaign has {new.cp} CP saved (the rules, optional rule #3)")
    new.cp -= rules.engineer_cp
    man.engineer = True
    man.history.append(f"Engineer after M{new.played}")
    new.ledger.append(LedgerEntry(after=new.played, what=f"{man.name} made Engineer", cp=-rules.engineer_cp))
    return _refuse_if_broken(new, data)
