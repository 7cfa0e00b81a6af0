"""A Way of the Warrior campaign: the rules that hold at every moment, and the first team.

The rules core. Every rule is a pure function: it takes a `Campaign` (and the entry that asks
for the change) and returns a new one, or raises `Refused` naming the rule (its `code`, in the
game's words) and the numbers; nothing reads or writes files, prints or keeps state. By subject:

- `campaign.py` (here): what every state must satisfy (`check`), a new campaign and its first
  team (`new`; a `baseline` is proved by `ledger.prove`);
- `rules_mission.py`: a mission rolled, a step struck, a mission debriefed;
- `rules_spend.py`: XP and CP spent (promotions, skills, recruits, weapons, Engineers);
- `rules_adjust.py`: what the rules leave to the table (CP, XP, healing, a man's state, grenades).

`ledger.py` only dispatches each entry to its rule; `campaign_io.py` loads, checks and saves;
`commands.py` wires the two to the CLI.

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

from typing import NamedTuple

from sheets.base.dice import Dice, DiceError
from sheets.base.limits import MAX_SEED
from sheets.games.wotw.models import Nation, WotwData
from sheets.games.wotw.records import (Campaign, LedgerEntry, Man, NewEntry, Refused, clean_name,
                                       name_key, name_problem)
from sheets.games.wotw.team import FLAME_THROWER, TeamRules, check_men, first_team, is_engineer

OPTIONAL_RULES = ("airborne", "beachhead", "engineers")


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
    problems += [(("team", i, "name"), said[0]) for i, m in enumerate(c.team) if (said := name_problem(m.name))]
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
            if not any(name_key(t.name) == name_key(name) for t in c.team):
                problems.append((("missions", i, "casualties"), f"{name!r} is not in the team"))
    return problems


def _nation(c: Campaign, data: WotwData, problems: list) -> Nation | None:
    n = next((n for n in data.teams.nations if n.id == c.nation), None)
    if n is None:
        problems.append((("nation",), f"unknown nation {c.nation!r}; choose one of: {', '.join(x.id for x in data.teams.nations)}"))
    return n


def refuse_if_broken(c: Campaign, data: WotwData) -> Campaign:
    problems = check(c, data)
    if problems:
        raise Refused("; ".join(msg for _, msg in problems), code="state-broken")
    return c


# -- the first team ----------------------------------------------------------

def enemy_of(data: WotwData, nation_id: str, theatre_id: str) -> str:
    """Whom the nation fights in the theatre (refused if it does not fight there)."""
    nation, theatre = data.nation(nation_id), data.theatre(theatre_id)
    if nation.id not in theatre.nations:
        raise Refused(f"{nation.name} does not fight in {theatre.name}; the nations there: {' or '.join(theatre.nations)}",
                      code="nation-not-in-theatre")
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
        raise Refused("; ".join(f"{men[loc[1]].name}: {msg}" if loc else msg for loc, msg in first.problems),
                      code="first-team-illegal")
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
    return refuse_if_broken(c, data)


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
    chosen: list[tuple[str, str]] = []  # (quality, weapon) per man
    budget, has_engineer = nation.starting_cp, False
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


class Applied(NamedTuple):
    """What a rule gives: the state after the entry, and the scripted dice the entry rolled
    (None: a seed, or no dice), so that a command can say which of the dice given went unused."""

    campaign: Campaign
    rolled: Dice | None = None


# -- the first entry -----------------------------------------------------------

def new(e: NewEntry, data: WotwData) -> Campaign:
    """A `new` entry: the campaign of its first team (one its `rolled:` says was rolled is the team
    those dice roll)."""
    if e.rolled is not None:
        check_rolled(e, data)
    men = [Man(name=r.name, quality=r.quality, weapon=r.weapon, medical=r.medical, engineer=r.engineer, notes=r.notes)
           for r in e.team]
    return new_campaign(data, e.nation or "", e.theatre or "", men, list(e.optional_rules))


def _claimed_dice(rolled: str) -> Dice:
    """The dice a `rolled:` names ('seed 4', as `campaign new --random` writes it, or 'dice 3,5,1'),
    or Refused when it names none."""
    how, _, given = rolled.strip().partition(" ")
    given = given.strip()
    if how == "seed" and given.isascii() and given.isdigit() and len(given) <= len(str(MAX_SEED)) \
            and int(given) <= MAX_SEED:
        return Dice.seeded(int(given))
    if how == "dice":
        try:
            return Dice.parse_script(given, given=False)
        except DiceError:
            pass
    raise Refused(f"rolled: {rolled!r} names no dice: write 'seed N' or 'dice 3,5,1', or leave "
                  f"`rolled` out for a team chosen, not rolled", code="rolled-unreadable")


def check_rolled(e: NewEntry, data: WotwData) -> None:
    """A team that says it was rolled (`rolled: seed 4`) is the team those dice roll, man by man:
    quality, weapon and (none rolled) no medic or Engineer bought. Names are flavour (rename anyone),
    so they may differ. Anything else is a hand-made team claiming the dice's authority."""
    dice = _claimed_dice(e.rolled or "")
    try:
        rolled = random_team(data, e.nation or "", dice, list(e.optional_rules))
    except DiceError as exc:
        raise Refused(f"rolled: {e.rolled}: {exc}", code="rolled-team-differs") from None
    want: list[tuple[str, str, bool, bool]] = [(m.quality, m.weapon, False, False) for m in rolled]
    have: list[tuple[str, str, bool, bool]] = [(r.quality, r.weapon, r.medical, r.engineer) for r in e.team]
    if have != want:
        def said(men: list[tuple[str, str, bool, bool]]) -> str:
            return ", ".join(f"{q} {w}" + (" (medic)" if med else "") + (" (Engineer)" if eng else "")
                             for q, w, med, eng in men)
        raise Refused(f"the team is not what {e.rolled} rolls: it rolls {said(want)}, the file has {said(have)} "
                      f"(a rolled team is as its dice rolled it; a team of your choosing has no `rolled`)",
                      code="rolled-team-differs")
