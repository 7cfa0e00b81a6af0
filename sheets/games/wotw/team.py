"""A Way of the Warrior team file, checked against the nation's team table."""
from __future__ import annotations

from dataclasses import dataclass

from pydantic import Field

from sheets.errors import ContentError, Problem
from sheets.games.wotw.models import Nation
from sheets.validation import Strict, validate
from sheets.yaml_source import YamlDocument


class Member(Strict):
    name: str
    quality: str
    weapon: str
    medical: bool = False
    grenades: int | None = Field(None, ge=0, le=9)
    notes: str = ""


class TeamFile(Strict):
    nation: str | None = None
    members: list[Member] = Field(min_length=1)


@dataclass
class Soldier:
    name: str
    quality: str
    weapon: str
    ff: str
    grenades: int
    notes: str
    cp: int
    crew: int


@dataclass
class Team:
    nation: Nation
    soldiers: list[Soldier]
    cp_spent: int

    @property
    def size(self) -> int:
        return sum(s.crew for s in self.soldiers)

    @property
    def cp_saved(self) -> int:
        return self.nation.starting_cp - self.cp_spent


def resolve_team(doc: YamlDocument, nation: Nation, min_size: int = 3, grenades: int = 4) -> Team:
    """Check a team against the nation's recruits, CP budget and team size; all problems at once."""
    sheet = validate(TeamFile, doc)
    problems: list[Problem] = []
    if sheet.nation is not None and sheet.nation.lower() not in (nation.id, nation.name.lower()):
        problems.append(doc.problem(("nation",), f"this team is {sheet.nation!r} but the mission's nation is {nation.id!r}"))
    soldiers: list[Soldier] = []
    spent = 0
    for i, m in enumerate(sheet.members):
        recruit = next((r for r in nation.recruits if r.quality.lower() == m.quality.lower()
                        and r.weapon.lower() == m.weapon.lower()), None)
        if recruit is None:
            options = "; ".join(f"{r.quality} {r.weapon} ({r.cp} CP)" for r in nation.recruits)
            problems.append(doc.problem(("members", i), f"{nation.name} has no {m.quality} with {m.weapon}; recruits: {options}"))
            continue
        cost = recruit.cp + (nation.medical_expertise_cp if m.medical else 0)
        spent += cost
        weapon = nation.weapon(recruit.weapon)
        notes = ("Medical; " if m.medical else "") + m.notes
        soldiers.append(Soldier(m.name, recruit.quality, recruit.weapon, weapon.ff if weapon else "—",
                                m.grenades if m.grenades is not None else grenades, notes.strip("; "), cost, recruit.crew))
    if not problems:
        size = sum(s.crew for s in soldiers)
        if spent > nation.starting_cp:
            problems.append(doc.problem(("members",), f"the team costs {spent} CP but a {nation.name} team starts with {nation.starting_cp} CP"))
        if size > nation.max_team_size:
            problems.append(doc.problem(("members",), f"{size} men (two-man weapons count twice) but a {nation.name} team has at most {nation.max_team_size}"))
        if size < min_size:
            problems.append(doc.problem(("members",), f"{size} men: a team has at least {min_size}"))
    if problems:
        raise ContentError(problems)
    return Team(nation, soldiers, spent)
