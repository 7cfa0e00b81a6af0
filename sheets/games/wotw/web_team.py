"""The desk's new-campaign wizard (step 2, the team) and spend page: what their forms mean.

Thin like `web.py`: the rows of the team builder become the `Member`s a team file holds,
priced and checked by `team.first_team` (the function `sheets campaign new` refuses with),
and each row's weapon list is `team.weapons_for` its quality (the nation's Team Table).
The spend page lists `offers.spend_options`: the rules' own trial of each purchase.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from starlette.exceptions import HTTPException

from sheets.games.wotw.campaign import OPTIONAL_RULES, enemy_of
from sheets.games.wotw.models import WotwData
from sheets.games.wotw.team import QUALITIES, Member, TeamRules, first_team, weapons_for


@dataclass
class Row:
    index: int
    name: str = ""
    quality: str = "Green"
    weapon: str = ""
    medical: bool = False
    engineer: bool = False
    weapons: list[str] = field(default_factory=list)  # what this quality may carry
    cost: int | None = None  # None: the row is not in the team (no name)
    problems: list[str] = field(default_factory=list)


def _on(value) -> bool:
    return value not in (None, "", "0", "off")


def start(data: WotwData, form) -> dict:
    """Step 1's answers (file, nation, theatre, optional rules), checked as `campaign new` checks them."""
    rel = str(form.get("file") or "").strip()
    if not rel.endswith((".yaml", ".yml")):
        raise HTTPException(400, f"file {rel!r}: a campaign file name ending in .yaml, e.g. campaign.yaml")
    nation, theatre = str(form.get("nation") or ""), str(form.get("theatre") or "")
    enemy_of(data, nation, theatre)  # an unknown id, or a nation that does not fight there: refused here
    return {"file": rel, "nation": nation, "theatre": theatre,
            "rules": [r for r in OPTIONAL_RULES if _on(form.get(r))]}


def rows(data: WotwData, nation_id: str, form) -> list[Row]:
    """The builder's rows as posted (a blank form: Green riflemen to be named), one per place in the team."""
    nation = data.nation(nation_id)
    found = []
    for i in range(nation.max_team_size):
        quality = str(form.get(f"quality_{i}") or "Green")
        weapon = str(form.get(f"weapon_{i}") or "")
        legal = weapons_for(nation, quality)
        if not weapon and legal and quality in QUALITIES:
            weapon = legal[0]
        found.append(Row(i, str(form.get(f"name_{i}") or "").strip(), quality, weapon,
                         _on(form.get(f"medical_{i}")), _on(form.get(f"engineer_{i}")), legal))
    return found


def members(team_rows: list[Row]) -> list[Member]:
    """The named rows, as a team file's members."""
    return [Member(name=r.name, quality=r.quality, weapon=r.weapon, medical=r.medical, engineer=r.engineer)
            for r in team_rows if r.name]


def priced(data: WotwData, nation_id: str, team_rows: list[Row], rules: list[str]) -> dict:
    """Each named row's CP and problems, the budget, and the team's own problems (`team.first_team`)."""
    nation = data.nation(nation_id)
    named = [r for r in team_rows if r.name]
    team = first_team(members(team_rows), nation, TeamRules.of(data.rules), "engineers" in rules)
    for r, cost in zip(named, team.costs):
        r.cost = cost
    whole: list[str] = []
    for loc, msg in team.problems:
        (named[loc[0]].problems if loc else whole).append(msg)
    return {"budget": team.budget, "spent": team.spent, "remaining": team.remaining, "team_problems": whole,
            "legal": not team.problems, "qualities": QUALITIES, "nation_name": nation.name,
            "medical_cp": nation.medical_expertise_cp, "min_size": TeamRules.of(data.rules).min_size,
            "max_size": nation.max_team_size}
