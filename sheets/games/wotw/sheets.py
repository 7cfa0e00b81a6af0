"""Render contexts for The Way of the Warrior: log sheets, campaign page, reference."""
from __future__ import annotations

from sheets.blocks import Block, Section, TableBlock
from sheets.build import Sheet
from sheets.dice import Dice
from sheets.games.wotw.mission import Mission, MissionRoller
from sheets.games.wotw.team import Team
from sheets.library import Game, KitOptions
from sheets.rendering import page_size

KIT_THEATRE = "france-1944"


def mission_context(game: Game, mission: Mission, team: Team | None) -> dict:
    data = game.data
    nation, enemy = data.nation(mission.nation), data.nation(mission.enemy)
    condition = data.condition(mission.weather) if mission.weather else None
    rows = []
    for i, step in enumerate(mission.track):
        last = i == len(mission.track) - 1
        resolved = data.terrain(step.group, step.terrain)
        terrain = resolved.terrain if resolved else None
        rows.append({"step": step, "last": last,
                     "events": [] if last or terrain is None else [(e.roll, e.text) for e in terrain.events],
                     "note": terrain.note if terrain else None})
    roster_rows = max(nation.max_team_size, team.size if team else 0)
    return {
        "m": mission, "nation": nation, "enemy": enemy, "condition": condition, "rows": rows,
        "team": team, "roster_rows": roster_rows, "columns": data.rules.log_sheet.roster_columns,
        "morale": data.rules.morale.values, "theatre": data.theatre(mission.theatre),
    }


def log_sheet(game: Game, missions: list[Mission], filename: str, paper: str = "a4",
              team: Team | None = None) -> Sheet:
    campaign = len(missions) > 1
    first = missions[0]
    origin = f"seed {first.seed}" if first.seed is not None else first.dice
    context = {
        "title": f"{game.info.title} log sheet",
        "page_size": page_size(paper),
        "missions": [mission_context(game, m, team) for m in missions],
        "campaign": campaign,
        "campaign_rules": game.data.rules.campaign,
        "skills": game.data.rules.skills,
        "footer": f"{game.info.title} · log sheet · {origin} · warsheets",
    }
    return Sheet(filename=filename, template="logsheet.html.j2", context=context, game=game.id,
                 label=f"{game.info.title} log sheet")


def roll_missions(game: Game, dice: Dice, count: int, theatre: str, nation: str | None, **flags) -> list[Mission]:
    roller = MissionRoller(game.data)
    return [roller.roll(dice, theatre, nation, number=i + 1, **flags) for i in range(count)]


def _ff_table(nation) -> Block:
    rows = [[w.name, w.short, w.medium, w.long, w.notes] for w in nation.weapons]
    return Block(table=TableBlock(caption=f"{nation.name}: max team {nation.max_team_size}, starting CP "
                                          f"{nation.starting_cp}, medical expertise +{nation.medical_expertise_cp} CP",
                                  header=["Weapon", "Short", "Medium", "Long", "Notes"], rows=rows))


def _recruit_table(nation) -> Block:
    rows = [[r.quality, r.cp, r.weapon + (" (two men)" if r.crew == 2 else "")] for r in nation.recruits]
    return Block(table=TableBlock(header=["Quality", "CP", "Weapon"], rows=rows))


def reference_parts(game: Game, nations: list[str] | None = None) -> list[dict]:
    """Rules sections plus the Event, Patrol and team tables built from the data."""
    data = game.data
    parts = [{"kind": "doc", "title": data.rules.title, "sections": data.rules.sections}]
    event_sections = []
    for group in data.events.groups:
        rows = []
        for t in group.terrains:
            events = "; ".join(f"{e.roll}: {e.text}" for e in t.events) or "no events"
            if t.note:
                events += f" ({t.note})"
            rows.append([t.name, {"light": "L", "heavy": "H"}.get(t.cover or "", ""), events])
        blocks = [Block(table=TableBlock(header=["Terrain", "Cover", "Events (2d6)"], rows=rows))]
        blocks += [Block(p=n) for n in group.notes]
        event_sections.append(Section(id=f"events-{group.id}", title=group.title, blocks=blocks))
    patrol = data.table("patrol")
    event_sections.append(Section(id="patrol", title=patrol.title, blocks=[
        Block(table=TableBlock(header=["2d6", "Group", "Enemy forces"],
                               rows=[[r.roll, r.name, r.enemy] for r in patrol.rows])),
        *( [Block(p=patrol.note)] if patrol.note else [])]))
    parts.append({"kind": "doc", "title": "Event and Patrol tables", "sections": event_sections})
    team_sections = []
    for nation in data.teams.nations:
        if nations and nation.id not in nations:
            continue
        blocks = [_recruit_table(nation), _ff_table(nation)]
        blocks += [Block(p=f"**{t.name}:** {t.text}") for t in nation.traits]
        team_sections.append(Section(id=f"team-{nation.id}", title=f"Team table: {nation.name}", blocks=blocks))
    parts.append({"kind": "doc", "title": "Team tables and fire factors", "sections": team_sections})
    return parts


BLANK_TRACK_ROWS = 18  # room for 3+1D3 approach groups, the objective and airborne/beachhead steps


def blank_log_sheet(game: Game, paper: str = "a4") -> Sheet:
    """A log sheet with nothing rolled, for a mission rolled at the table."""
    data = game.data
    context = {
        "title": f"{game.info.title} log sheet (blank)", "page_size": page_size(paper), "campaign": False,
        "columns": data.rules.log_sheet.roster_columns, "morale": data.rules.morale.values,
        "roster_rows": max((n.max_team_size for n in data.teams.nations), default=8),
        "track_rows": BLANK_TRACK_ROWS,
        "footer": f"{game.info.title} · log sheet (blank) · warsheets",
    }
    return Sheet(filename="wotw-log-sheet-blank.pdf", template="logsheet_blank.html.j2", context=context,
                 game=game.id, label=f"{game.info.title} log sheet (blank)")


def kit_sheets(game: Game, options: KitOptions) -> list[Sheet]:
    dice = Dice.seeded(options.seed)
    missions = roll_missions(game, dice, 1, KIT_THEATRE, None)
    return [log_sheet(game, missions, "wotw-log-sheet.pdf", options.paper), blank_log_sheet(game, options.paper)]
