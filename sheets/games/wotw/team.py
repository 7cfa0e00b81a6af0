"""The Way of the Warrior's team checker: one set of rules for a team file and a campaign.

The rules (The Way of the Warrior rules, "Equipment", "Post-mission debriefing", optional rule #3):

- every new man is a row of the nation's team table (quality + weapon) and costs its CP;
  Medical expertise adds the nation's medical CP to a new member's cost;
- LMG and Mortar take two men: each man is his own roster row carrying the weapon, and
  the pair costs the table's CP once (an odd number of LMG or Mortar men is refused);
- the Engineer (optional rule #3) costs 2 CP more, one per team; with the rule in use every
  Flame-thrower man is an Engineer (and pays the 2 CP);
- a man carries 4 grenades, 5 with the Grenadier skill;
- a team has at least 3 men at the start and never more than the nation's maximum;
- skills need the quality the skills table says.

`check_men` returns located problems (loc, message) and never raises, so the same code
checks a team file, a campaign file and a campaign change before anything is written.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from pydantic import Field

from sheets.base.errors import ContentError
from sheets.base.limits import MAX_NOTES
from sheets.games.wotw.models import Nation, Rules
from sheets.games.wotw.names import name_problems
from sheets.library.validation import Strict, validate_each
from sheets.library.yaml_source import YamlDocument

GRENADIER = "grenadier"
GRENADIER_GRENADES = 5  # the Grenadier skill: "can be equipped with 5 grenades"
FLAME_THROWER = "flame-thrower"
QUALITIES = ("Green", "Private", "Veteran")


class Member(Strict):
    name: str = Field(min_length=1)
    quality: str
    weapon: str
    medical: bool = False
    engineer: bool = False
    grenades: int | None = Field(None, ge=0, le=9)
    notes: str = Field("", max_length=MAX_NOTES)


class TeamFile(Strict):
    nation: str | None = None
    members: list[Member] = Field(min_length=1)


@dataclass
class Soldier:
    """One roster row as printed on the log sheet."""

    name: str
    quality: str
    weapon: str
    ff: str
    grenades: int
    notes: str
    cp: int
    crew: int = 1  # men the weapon takes (2 for LMG and Mortar); each man is his own row
    state: str = ""  # fit / wounded (campaign); blank for a one-shot team
    skills: list[str] = field(default_factory=list)
    allowance: int = 4  # the grenades he may carry (5 with the Grenadier skill)
    engineer: bool = False  # the team's Engineer (optional rule #3)


@dataclass
class Team:
    nation: Nation
    soldiers: list[Soldier]
    cp_spent: int
    cp_saved_override: int | None = None

    @property
    def size(self) -> int:
        return len(self.soldiers)

    @property
    def cp_saved(self) -> int:
        if self.cp_saved_override is not None:
            return self.cp_saved_override
        return self.nation.starting_cp - self.cp_spent


@dataclass
class TeamRules:
    """The numbers the checker needs, read once from rules.yaml."""

    min_size: int
    grenades: int
    engineer_cp: int
    engineers_max: int
    flame_thrower_is_engineer: bool
    skill_cost: int
    skill_requires: dict[str, list[str]]
    skill_names: dict[str, str]

    @classmethod
    def of(cls, rules: Rules) -> "TeamRules":
        c, e = rules.campaign, rules.engineer
        return cls(int(c.get("min_team_size", 3)), int(c.get("grenades_per_soldier", 4)),
                   int(e.get("cp_cost", 2)), int(e.get("max_per_team", 1)),
                   bool(e.get("flame_thrower_is_engineer", True)), rules.skills.cost_xp,
                   {s.id: s.requires for s in rules.skills.list}, {s.id: s.name for s in rules.skills.list})

    def grenade_allowance(self, skills: list[str]) -> int:
        return GRENADIER_GRENADES if GRENADIER in skills else self.grenades

    def skill_id(self, text: str) -> str | None:
        key = text.strip().lower().replace(" ", "-").replace("_", "-")
        if key in self.skill_requires:
            return key
        return next((i for i, n in self.skill_names.items() if n.lower() == text.strip().lower()), None)


def weapons_for(nation: Nation, quality: str) -> list[str]:
    """The weapons a new man of this quality may carry: the nation's Team Table rows of that quality."""
    return [r.weapon for r in nation.recruits if r.quality.lower() == quality.strip().lower()]


def recruit_row(nation: Nation, quality: str, weapon: str):
    return next((r for r in nation.recruits if r.quality.lower() == quality.strip().lower()
                 and r.weapon.lower() == weapon.strip().lower()), None)


def recruit_options(nation: Nation) -> str:
    return "; ".join(f"{r.quality} {r.weapon} ({r.cp} CP{', two men' if r.crew == 2 else ''})" for r in nation.recruits)


def crew_of(nation: Nation, weapon: str) -> int:
    return max((r.crew for r in nation.recruits if r.weapon.lower() == weapon.lower()), default=1)


def is_engineer(man, rules: TeamRules, engineers_rule: bool) -> bool:
    """An Engineer by choice, or (rule in use) by carrying a Flame-thrower."""
    if not engineers_rule:
        return False
    return bool(getattr(man, "engineer", False)) or (
        rules.flame_thrower_is_engineer and man.weapon.strip().lower() == FLAME_THROWER)


def recruit_cost(new_men: list, nation: Nation, rules: TeamRules, engineers_rule: bool,
                 loc_of=lambda i: (i,)) -> tuple[int, list[tuple[tuple, str]]]:
    """CP for recruiting `new_men` (objects with quality, weapon, medical, engineer)."""
    costs, problems = recruit_costs(new_men, nation, rules, engineers_rule, loc_of)
    return sum(costs), problems


def recruit_costs(new_men: list, nation: Nation, rules: TeamRules, engineers_rule: bool,
                  loc_of=lambda i: (i,)) -> tuple[list[int], list[tuple[tuple, str]]]:
    """Each new man's CP (a two-man crew pays on its first man; a man no row allows costs 0, and is a problem)."""
    problems: list[tuple[tuple, str]] = []
    costs: list[int] = []
    crews: dict[str, list[int]] = {}
    for i, m in enumerate(new_men):
        row = recruit_row(nation, m.quality, m.weapon)
        costs.append(0)
        if row is None:
            problems.append((loc_of(i), f"{nation.name} has no {m.quality} with {m.weapon}; recruits: {recruit_options(nation)}"))
            continue
        if row.crew > 1:
            crews.setdefault(row.weapon, []).append(i)
            if len(crews[row.weapon]) % row.crew == 1:
                costs[i] += row.cp  # the pair pays once, on its first man
        else:
            costs[i] += row.cp
        if m.medical:
            costs[i] += nation.medical_expertise_cp
        if getattr(m, "engineer", False) and not engineers_rule:
            problems.append((loc_of(i) + ("engineer",),
                             "an Engineer needs optional rule #3 (Engineers) in use"))
        if is_engineer(m, rules, engineers_rule):
            costs[i] += rules.engineer_cp
    for weapon, idx in crews.items():
        crew = crew_of(nation, weapon)
        if len(idx) % crew:
            problems.append((loc_of(idx[-1]), f"{weapon} takes {crew} men, each his own roster row: "
                                               f"{len(idx)} man{'s' if len(idx) != 1 else ''} with {weapon} "
                                               f"(add {crew - len(idx) % crew} more)"))
    return costs, problems


@dataclass
class FirstTeam:
    """A first team against its nation's Team Table: what each man costs, and what the rules refuse."""

    budget: int
    costs: list[int]
    problems: list[tuple[tuple, str]]

    @property
    def spent(self) -> int:
        return sum(self.costs)

    @property
    def remaining(self) -> int:
        return self.budget - self.spent


def first_team(men: list, nation: Nation, rules: TeamRules, engineers_rule: bool,
               loc_of=lambda i: (i,)) -> FirstTeam:
    """The starting CP and team size (the rules, Equipment): "You must select at least three men in
    the [Team Table] using these CP"; "the max team size is given in the [Team Table]"."""
    costs, problems = recruit_costs(men, nation, rules, engineers_rule, loc_of)
    spent, size = sum(costs), len(men)
    if spent > nation.starting_cp:
        problems.append(((), f"starting CP: the team costs {spent} CP but a {nation.name} team starts with "
                             f"{nation.starting_cp} CP (the rules, Equipment)"))
    if size > nation.max_team_size:
        problems.append(((), f"team size: {size} men but a {nation.name} team has at most {nation.max_team_size} "
                             f"(the rules, Equipment)"))
    if size < rules.min_size:
        problems.append(((), f"team size: {size} men, but a team starts with at least {rules.min_size} "
                             f"(the rules, Equipment)"))
    return FirstTeam(nation.starting_cp, costs, problems)


def check_men(men: list, nation: Nation, rules: TeamRules, engineers_rule: bool,
              loc_of=lambda i: (i,), alive=lambda m: True) -> list[tuple[tuple, str]]:
    """Per-man and whole-team rules that hold at every moment (not costs)."""
    problems: list[tuple[tuple, str]] = []
    weapons = {r.weapon.lower() for r in nation.recruits}
    green_weapons = {r.weapon.lower() for r in nation.recruits if r.quality == "Green"}
    engineers = []
    problems += [(loc_of(i) + ("name",), msg) for i, msg in name_problems([m.name for m in men], unique_only=True)]
    for i, m in enumerate(men):
        if m.quality not in QUALITIES:
            problems.append((loc_of(i) + ("quality",), f"quality {m.quality!r}: choose Green, Private or Veteran"))
        if m.weapon.lower() not in weapons:
            problems.append((loc_of(i) + ("weapon",), f"{nation.name} recruits carry {', '.join(sorted({r.weapon for r in nation.recruits}))}, not {m.weapon!r}"))
        elif m.quality == "Green" and m.weapon.lower() not in green_weapons:
            problems.append((loc_of(i) + ("weapon",), f"a Green keeps his starting weapon, and no Green starts with {m.weapon}"))
        skills = list(getattr(m, "skills", []) or [])
        for s in skills:
            sid = rules.skill_id(s)
            if sid is None:
                problems.append((loc_of(i) + ("skills",), f"unknown skill {s!r}; skills: {', '.join(rules.skill_names.values())}"))
                continue
            need = rules.skill_requires[sid]
            if "Any" not in need and m.quality not in need:
                problems.append((loc_of(i) + ("skills",), f"{rules.skill_names[sid]} needs a {' or '.join(need)}; {m.name} is {m.quality}"))
        allowance = rules.grenade_allowance([rules.skill_id(s) for s in skills])
        if m.grenades is not None and m.grenades > allowance:
            problems.append((loc_of(i) + ("grenades",), f"{m.grenades} grenades, but a man carries {rules.grenades} "
                                                         f"({GRENADIER_GRENADES} with Grenadier): {m.name} may carry {allowance}"))
        if getattr(m, "engineer", False) and not engineers_rule:
            problems.append((loc_of(i) + ("engineer",), "an Engineer needs optional rule #3 (Engineers) in use"))
        if alive(m) and is_engineer(m, rules, engineers_rule):
            engineers.append(m.name)
    if len(engineers) > rules.engineers_max:
        problems.append(((), f"{len(engineers)} Engineers ({', '.join(engineers)}; with optional rule #3 a "
                             f"Flame-thrower man is one) but a team has at most {rules.engineers_max}"))
    return problems


def resolve_team(doc: YamlDocument, nation: Nation, rules: Rules, engineers_rule: bool = False) -> Team:
    """Check a team file against the nation's recruits, CP budget and team size; all problems at once."""
    sheet, failed, problems = validate_each(TeamFile, doc)
    if sheet is None:
        raise ContentError(problems)
    tr = TeamRules.of(rules)
    if sheet.nation is not None and sheet.nation.lower() not in (nation.id, nation.name.lower()):
        problems.append(doc.problem(("nation",), f"this team is {sheet.nation!r}, but --nation is {nation.id!r}"))
    if "members" in failed:  # a member of the wrong shape: the others' own rules are still checked
        rows = [(i, Member.model_validate(m)) for i, m in enumerate(_listed(doc.data.get("members")))
                if _fits(Member, m)]
        found = check_men([m for _, m in rows], nation, tr, engineers_rule, lambda k: ("members", rows[k][0]))
        raise ContentError(problems + [doc.problem(where, msg) for where, msg in found if where])
    loc = lambda i: ("members", i)  # noqa: E731
    team = first_team(sheet.members, nation, tr, engineers_rule, loc)
    # quality and weapon were checked against the recruit rows just above
    found = team.problems + [p for p in check_men(sheet.members, nation, tr, engineers_rule, loc)
                             if not (p[0] and p[0][-1] in ("quality", "weapon"))]
    problems += [doc.problem(where if where else ("members",), msg) for where, msg in found]
    if problems:
        raise ContentError(problems)
    soldiers = [soldier_row(m, nation, tr, engineers_rule) for m in sheet.members]
    return Team(nation, soldiers, team.spent)


def _listed(value) -> list:
    return value if isinstance(value, list) else []


def _fits(model, value) -> bool:
    try:
        model.model_validate(value)
    except ValueError:
        return False
    return True


def soldier_row(m, nation: Nation, rules: TeamRules, engineers_rule: bool, state: str = "") -> Soldier:
    weapon = nation.weapon(m.weapon)
    skills = [rules.skill_names.get(rules.skill_id(s) or "", s) for s in (getattr(m, "skills", []) or [])]
    notes = []
    if m.medical:
        notes.append("Medical")
    if is_engineer(m, rules, engineers_rule):
        notes.append("Engineer")
    crew = crew_of(nation, m.weapon)
    if crew > 1:
        notes.append(f"{m.weapon} crew")
    notes += skills
    if getattr(m, "notes", ""):
        notes.append(m.notes)
    allowance = rules.grenade_allowance([rules.skill_id(s) for s in (getattr(m, "skills", []) or [])])
    grenades = m.grenades if m.grenades is not None else allowance
    row = recruit_row(nation, m.quality, m.weapon)
    return Soldier(m.name, m.quality, weapon.name if weapon else m.weapon, weapon.ff if weapon else "—", grenades,
                   "; ".join(notes), row.cp if row else 0, crew, state, skills, allowance,
                   is_engineer(m, rules, engineers_rule))
