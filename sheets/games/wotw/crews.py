"""Two-man crews (LMG, Mortar) over a campaign: who is a crew short of a man, and his replacement.

The seed's Team Table gives an LMG or a Mortar as one row of "two men" at one price; it
says nothing of a crew that loses a man. Readings (also in the campaign file header):
- the survivor fights on with the weapon, a crew short of a man, named on the log sheet, on
  the record and by `sheets validate` until it is whole again;
- it is made whole by one replacement recruit (`--recruit NAME --weapon LMG`) at the pair's
  CP halved, rounding up, or by a Private or Veteran changing weapon to it;
- a Private or Veteran of a crew may change weapon freely (the rules, Equipment), leaving his
  mate a crew short of a man.
"""
from __future__ import annotations

from sheets.games.wotw.models import Nation
from sheets.games.wotw.team import TeamRules, is_engineer


def short_crews(c, nation: Nation) -> dict[str, list[str]]:
    """Crew weapon (lower case) -> the living men whose crew is short of a man, in roster order."""
    crews = {r.weapon.lower(): r.crew for r in nation.recruits if r.crew > 1}
    short: dict[str, list[str]] = {}
    for weapon, crew in crews.items():
        men = [m.name for m in c.team if m.status != "killed" and m.weapon.lower() == weapon]
        if len(men) % crew:
            short[weapon] = men[len(men) - len(men) % crew:]
    return short


def crew_notes(c, nation: Nation) -> dict[str, str]:
    """Man's name -> 'LMG crew, one man short' for every man of a crew short of a man."""
    notes = {}
    for weapon, names in short_crews(c, nation).items():
        label = next(r.weapon for r in nation.recruits if r.weapon.lower() == weapon)
        for n in names:
            notes[n] = f"{label} crew, one man short"
    return notes


def crew_messages(c, nation: Nation) -> list[str]:
    """What `sheets validate` says of each crew short of a man (a legal state, named)."""
    out = []
    for weapon, names in short_crews(c, nation).items():
        row = next(r for r in nation.recruits if r.weapon.lower() == weapon and r.crew > 1)
        out.append(f"{', '.join(names)}: {row.weapon} crew one man short; make it whole with one replacement "
                   f"(`sheets campaign spend FILE --recruit NAME --quality {row.quality} --weapon {row.weapon}`, "
                   f"{replacement_cp(row)} CP) or a Private or Veteran rearmed with {row.weapon}")
    return out


def replacement_cp(row) -> int:
    """One man of a crew: the pair's CP halved, rounding up."""
    return -(-row.cp // row.crew)


def replacement_cost(man, row, nation: Nation, rules: TeamRules, engineers_rule: bool) -> int:
    return (replacement_cp(row) + (nation.medical_expertise_cp if man.medical else 0)
            + (rules.engineer_cp if is_engineer(man, rules, engineers_rule) else 0))
