"""Render contexts for The Way of the Warrior: log sheets, campaign page, reference."""
from __future__ import annotations

import pickle
from dataclasses import dataclass

from sheets.base.paper import page_size, resolve
from sheets.games.wotw.crews import crew_notes
from sheets.games.wotw.mission import Mission, longest_track, roll_missions  # noqa: F401 - roll_missions re-exported
from sheets.games.wotw.team import GRENADIER_GRENADES, Team, TeamRules, soldier_row
from sheets.library.access import make_dice
from sheets.library.blocks import Block, Section, TableBlock
from sheets.library.content import Game
from sheets.base.options import PrintOptions
from sheets.kinds import style
from sheets.kinds.print_plugin import KitOptions
from sheets.pipeline.sheet import Sheet, render_html


#: the track's rows and the events legend's entries on every log sheet: fixed, so that a
#: mission's values are stamped onto one cached blank (sheets.pipeline.stamp). 35 steps hold
#: 99 % of rolled missions and 22 terrains every one we rolled; a longer mission gets
#: more rows, and that sheet is laid out in full instead (slower, never wrong).
TRACK_ROWS = 35
LEGEND_ROWS = 22


def _events_text(events, note: str | None) -> str:
    text = " · ".join(f"{_roll_text(roll)}: {what}" for roll, what in events) or "no events"
    return f"{text} ({note})" if note else text


def _optional_rules_text(m: Mission) -> str:
    parts = []
    if m.airborne is not None:
        parts.append("Airborne: " + ("yes — drop steps added at the start of the track" if m.airborne
                                     else "rolled, not airborne") + ".")
    if m.beachhead is not None:
        parts.append("Beachhead: " + ("yes — beachhead steps added at the start of the track" if m.beachhead
                                      else "rolled, no beachhead") + ".")
    if m.engineers:
        parts.append("Engineers: one step before the objective may be struck"
                     + (f" — step {m.struck_step} struck." if m.struck_step else " (strike it with a pencil)."))
    return " ".join(parts) or "none"


def _rolled_text(m: Mission) -> str:
    origin = f"(seed {m.seed}; repeat with --seed {m.seed})" if m.seed is not None else f"({m.dice})"
    rolls = []
    for r in m.rolls:
        dice = ("+" if len(r.dice) > 1 and r.table.endswith("count") else "·").join(str(d) for d in r.dice)
        rolls.append(f"{r.table} {dice} → {r.result} (row {r.row}): {r.hit}")
    return f"{origin}: " + "; ".join(rolls) + "."


def mission_context(game: Game, mission: Mission, team: Team | None, campaign=None,
                    prefix: str | None = None) -> dict:
    """A mission's log-sheet context: its values (`v`, `rows`, `legend`) as the text written
    into the sheet's fixed boxes, and what stays the same for every mission of these sides."""
    data = game.data
    m = mission
    nation, enemy = data.nation(m.nation), data.nation(m.enemy)
    condition = data.condition(m.weather) if m.weather else None
    rows, legend, seen = [], [], set()
    for i, step in enumerate(m.track):
        last = i == len(m.track) - 1
        rows.append({"terrain": step.terrain + (" (struck)" if step.struck else ""),
                     "cover": step.cover or "none",
                     "enemy": f"Objective: {step.enemy} · {step.range} range" if last else ""})
        resolved = data.terrain(step.group, step.terrain)
        terrain = resolved.terrain if resolved else None
        if not last and terrain is not None and (step.group, step.terrain) not in seen:
            seen.add((step.group, step.terrain))
            legend.append({"terrain": step.terrain,
                           "text": _events_text([(e.roll, e.text) for e in terrain.events], terrain.note)})
    empty_row, empty_entry = {"terrain": "", "cover": "", "enemy": ""}, {"terrain": "", "text": ""}
    rows += [empty_row] * (max(TRACK_ROWS, len(rows)) - len(rows))
    legend_rows = max(LEGEND_ROWS, len(legend) + len(legend) % 2)
    legend += [empty_entry] * (legend_rows - len(legend))
    if campaign:
        state = (f"Campaign: {campaign.cp} CP saved, {campaign.xp} XP unused; state is fit or wounded "
                 f"(a second wound kills).")
    elif team:
        state = f"Team cost {team.cp_spent} CP, {team.cp_saved} CP saved."
    else:
        state = "CP spent: ______ CP saved: ______"
    values = {
        "number": str(m.number), "theatre": m.theatre_name,
        "team": f"{nation.name} (max {nation.max_team_size} men, {nation.starting_cp} CP to start)",
        "enemy": enemy.name,
        "weather": f"{condition.name} — {condition.text}" if condition else "no weather rule in this theatre",
        "rules": _optional_rules_text(m),
        "objective": f"{m.objective.name} — enemy forces {m.objective.enemy}, starting at {m.objective.range} range",
        "state": state, "rolled": _rolled_text(m),
    }
    roster_rows = max(nation.max_team_size, team.size if team else 0)
    return {
        "m": m, "p": prefix if prefix is not None else f"m{m.number}-", "v": values, "rows": rows,
        "legend": legend, "nation": nation, "enemy": enemy, "team": team, "roster_rows": roster_rows,
        "columns": data.rules.log_sheet.roster_columns, "morale": data.rules.morale.values,
        "engineer": data.rules.engineer,
    }


@dataclass(frozen=True)
class BlankMission:
    """What a blank log sheet shows of its mission: the boxes its options add, nothing rolled
    (the template reads no more on a blank; StrictUndefined would say so if it did)."""

    engineers: object
    weather: object
    airborne: object


def blank_mission_context(ctx: dict) -> dict:
    """The same sheet with nothing written: the blank a mission is stamped onto."""
    m = ctx["m"]
    blank = dict(ctx, v={k: "" for k in ctx["v"]}, team=None, m=BlankMission(m.engineers, m.weather, m.airborne))
    blank["rows"] = [{k: "" for k in r} for r in ctx["rows"]]
    blank["legend"] = [{k: "" for k in e} for e in ctx["legend"]]
    return blank


def log_sheet(game: Game, missions: list[Mission], filename: str, paper: str = "a4",
              team: Team | None = None) -> Sheet:
    campaign = len(missions) > 1
    first = missions[0]
    origin = f"seed {first.seed}" if first.seed is not None else first.dice
    footer = f"{game.info.title} · log sheet · {origin} · warsheets"
    contexts = [mission_context(game, m, team) for m in missions]
    sheet = _log_sheet(game, contexts, filename, paper, campaign, footer)
    # each mission stamped onto the cached blank of its sides (on every core, streamed into
    # one PDF); a campaign ends with its record page, laid out
    sheet.parts = stamped_missions(game, missions, team, filename, paper, footer)
    if campaign:
        sheet.parts.append((None, _log_sheet(game, contexts, filename, paper, True, footer, mission_pages=False)))
    return sheet


def stamped_missions(game: Game, missions: list[Mission], team: Team | None, filename: str, paper: str,
                     footer: str, campaign=None) -> list:
    """(blank, filled) log sheets, one pair per mission; missions of the same sides share a blank.
    A blank is rendered once per context (missions with equal blank contexts have the same
    blank), and shared by every mission whose blank renders the same."""
    parts, blanks, rendered = [], {}, {}
    # the blank's own footer names no seed, so that one blank serves every seed (each
    # page's footer is stamped: `footer`, and "page N of M" over the whole document)
    blank_footer = f"{game.info.title} · log sheet · warsheets"
    for m in missions:
        ctx = mission_context(game, m, team, campaign, prefix="m-")
        filled = _log_sheet(game, [ctx], filename, paper, False, footer)
        blank_ctx = blank_mission_context(ctx)
        try:
            same = pickle.dumps(blank_ctx, protocol=pickle.HIGHEST_PROTOCOL)
        except (pickle.PicklingError, TypeError, AttributeError):  # a plug-in's value: rendered to compare
            same = object()
        if same not in rendered:
            blank = _log_sheet(game, [blank_ctx], filename, paper, False, blank_footer)
            rendered[same] = blanks.setdefault(render_html(blank), blank)
        parts.append((rendered[same], filled))
    return parts


def short_page(paper: str) -> bool:
    """Letter is 18 mm shorter than A4: the log sheet's track rows are a little lower on it, so
    that a mission still takes two pages (its fire factors not alone on a third)."""
    return resolve(paper).height_mm < resolve("a4").height_mm


def _log_sheet(game: Game, contexts: list[dict], filename: str, paper: str, campaign: bool, footer: str,
               mission_pages: bool = True) -> Sheet:
    context = {**style.of(game),
        "title": f"{game.info.title} log sheet",
        "page_size": page_size(paper), "short_page": short_page(paper),
        "missions": contexts,
        "grenade_boxes": GRENADIER_GRENADES,  # a box per grenade a man may carry, ticked as he throws it
        "mission_pages": mission_pages,
        "campaign": campaign,
        "campaign_rules": game.data.rules.campaign,
        "skills": game.data.rules.skills,
        "footer": footer,
    }
    return Sheet(filename=filename, template="logsheet.html.j2", context=context, game=game.id, templates=game.templates,
                 label=f"{game.info.title} log sheet")


def _ff_table(nation) -> Block:
    rows = [[w.name, w.short, w.medium, w.long, w.notes] for w in nation.weapons]
    return Block(table=TableBlock(caption=f"{nation.name}: max team {nation.max_team_size}, starting CP "
                                          f"{nation.starting_cp}, medical expertise +{nation.medical_expertise_cp} CP",
                                  header=["Weapon", "Short", "Medium", "Long", "Notes"], rows=rows))


def _recruit_table(nation) -> Block:
    rows = [[r.quality, r.cp, r.weapon + (" (two men)" if r.crew == 2 else "")] for r in nation.recruits]
    return Block(table=TableBlock(header=["Quality", "CP", "Weapon"], rows=rows))


SUMMARY_MARK = "†"
SUMMARY_NOTE = "† Not printed in the rules: our reading, given so that every roll has a row."


def _roll_text(roll: str) -> str:
    """'<=1' -> '≤1', as the rules' Fire table prints its open ends."""
    return roll.replace("<=", "≤").replace(">=", "≥")


def data_title(table_id: str) -> str:
    return table_id.capitalize()


def _steps_text(row) -> str:
    text = ", ".join(row.steps or [])
    if row.then is not None:
        more = f"then roll {row.then.count} times on the {data_title(row.then.table)} table"
        text = f"{text}; {more}" if text else more[:1].upper() + more[1:]
    return text or "—"


def _marked(row, text: str) -> str:
    return f"{text} {SUMMARY_MARK}" if row.summary else text


def mission_table_sections(game: Game) -> list[Section]:
    """Every table a mission is rolled on, as the player needs them at the table."""
    data = game.data
    names = {n.id: n.name for n in data.teams.nations}
    theatre_rows = [[t.name, names[t.nations[0]], names[t.nations[1]], t.weather.text if t.weather else "—"]
                    for t in data.theatres.theatres]
    sections = [Section(id="theatres", title="Theatre of Operations table", blocks=[
        Block(table=TableBlock(header=["Theatre", "Nationality 1", "Nationality 2", "Notes"], rows=theatre_rows,
                               note="Play one nationality; the other is the enemy.")),
        Block(p=data.theatres.rule)])]
    for table_id, header in (("steps", ["2D6*", "Steps"]), ("village", ["1D6", "Steps"]), ("town", ["1D6", "Steps"])):
        table = data.table(table_id)
        note = "* Read two dice as tens and units (5 and 3 = 53)." if table.dice == "d66" else table.note
        sections.append(Section(id=f"table-{table_id}", title=table.title, blocks=[
            Block(table=TableBlock(header=header, rows=[[r.roll, _steps_text(r)] for r in table.rows], note=note))]))
    objective = data.table("objective")
    sections.append(Section(id="table-objective", title=objective.title, blocks=[
        Block(table=TableBlock(header=["2D6*", "Objective", "Steps", "Enemy forces", "Range"],
                               rows=[[r.roll, r.name, ", ".join(r.steps or []), r.enemy or "—",
                                      (r.range or "—").capitalize()] for r in objective.rows],
                               note=objective.note))]))
    weather_blocks = []
    summary = False
    for table in data.tables.tables:
        if not table.id.startswith("weather-"):
            continue
        summary = summary or any(r.summary for r in table.rows)
        weather_blocks.append(Block(table=TableBlock(
            caption=table.title, header=[table.dice.upper(), "Weather"],
            rows=[[r.roll, _marked(r, r.text or "—")] for r in table.rows], note=table.note)))
    conditions = [Block(terms=[{"term": f"{c.name}:", "text": c.text} for c in data.rules.weather_conditions])]
    sections.append(Section(id="table-weather", title="Weather tables",
                            blocks=weather_blocks + conditions + ([Block(p=SUMMARY_NOTE)] if summary else [])))
    # the Airborne and Beachhead tables print with their optional rules (rules.yaml), events included
    return sections


def reference_parts(game: Game, nations: list[str] | None = None) -> list[dict]:
    """Rules sections, the mission tables, then the Event, Patrol and team tables built from the data."""
    data = game.data
    parts = [{"kind": "doc", "title": data.rules.title, "sections": data.rules.sections},
             {"kind": "doc", "title": "Mission tables", "sections": mission_table_sections(game)}]
    event_sections = []
    for group in data.events.groups:
        rows = []
        for t in group.terrains:
            # " · " between events, as the log sheet prints them: a "; " after an event that ends
            # in a full stop printed "step.;"
            events = " · ".join(f"**{e.roll}:** {e.text}" for e in t.events) or "no events"
            if t.note:
                events += f" ({t.note})"
            rows.append([t.name, {"light": "L", "heavy": "H"}.get(t.cover or "", ""), events])
        blocks = [Block(table=TableBlock(header=["Terrain", "Cover", "Events (2d6)"], rows=rows))]
        blocks += [Block(p=n) for n in group.notes]
        event_sections.append(Section(id=f"events-{group.id}", title=group.title, blocks=blocks))
    patrol = data.table("patrol")
    event_sections.append(Section(id="patrol", title=patrol.title, blocks=[
        Block(table=TableBlock(header=["2d6", "Group", "Enemy forces"],
                               rows=[[_marked(r, _roll_text(r.roll)), r.name, r.enemy] for r in patrol.rows])),
        *( [Block(p=patrol.note)] if patrol.note else [])]))
    parts.append({"kind": "doc", "title": "Event and Patrol tables", "sections": event_sections})
    team_sections = []
    for nation in data.teams.nations:
        if nations and nation.id not in nations:
            continue
        blocks = [_recruit_table(nation), _ff_table(nation)]
        blocks += [Block(p=f"**{t.name}:** {t.text}") for t in nation.traits]
        blocks += [Block(p=f"**As the enemy:** {sw.weapon} becomes {sw.becomes}{'*' if sw.grenade else ''} "
                           f"(no {sw.weapon} in this table; the rules: “Replace the Flamethrower with a SMG* if "
                           f"this weapon is not present in the Team table of the enemy forces”).")
                   for sw in nation.enemy_swaps]
        team_sections.append(Section(id=f"team-{nation.id}", title=f"Team table: {nation.name}", blocks=blocks))
    parts.append({"kind": "doc", "title": "Team tables and fire factors", "sections": team_sections})
    return parts



def blank_log_sheet(game: Game, paper: str = "a4") -> Sheet:
    """A log sheet with nothing rolled, for a mission rolled at the table."""
    data = game.data
    context = {**style.of(game),
        "title": f"{game.info.title} log sheet (blank)", "page_size": page_size(paper), "campaign": False,
        "columns": data.rules.log_sheet.roster_columns, "morale": data.rules.morale.values,
        "roster_rows": max((n.max_team_size for n in data.teams.nations), default=8),
        # rows for the longest mission the tables can roll (optional rules included), numbered
        # throughout: the track runs on to a second page
        "track_rows": longest_track(data),
        "grenade_boxes": GRENADIER_GRENADES,
        "footer": f"{game.info.title} · log sheet (blank) · warsheets",
    }
    return Sheet(filename="wotw-log-sheet-blank.pdf", template="logsheet_blank.html.j2", context=context,
                 game=game.id, templates=game.templates, label=f"{game.info.title} log sheet (blank)")


def kit_log_sheets(game: Game, options: PrintOptions) -> list[Sheet]:
    """The kit's log sheets: one mission rolled with the kit's seed (none given: a fresh one), and a blank."""
    dice = make_dice(options.seed if isinstance(options, KitOptions) else None, None)
    missions = roll_missions(game, dice, 1, game.data.default_theatre().id, None)
    return [log_sheet(game, missions, "wotw-log-sheet.pdf", options.paper), blank_log_sheet(game, options.paper)]


def kit_record(game: Game, options: PrintOptions) -> list[Sheet]:
    """The kit's blank campaign record."""
    return [campaign_record(game, None, "wotw-campaign-record.pdf", options.paper)]


def campaign_team(game: Game, campaign) -> Team:
    """The living men of a campaign as log-sheet roster rows, each with his state."""
    nation = game.data.nation(campaign.nation)
    rules = TeamRules.of(game.data.rules)
    soldiers = [soldier_row(m, nation, rules, campaign.engineers, state=m.status) for m in campaign.living]
    short = crew_notes(campaign, nation)
    for s in soldiers:
        if s.name in short:  # the roster's Notes box is narrow: the record page says it in full
            s.notes = s.notes.replace(f"{s.weapon} crew", f"{s.weapon} crew short")
    return Team(nation, soldiers, 0, cp_saved_override=campaign.cp)


def campaign_log_sheet(game: Game, campaign, mission: Mission, paper: str = "a4") -> Sheet:
    """The log sheet of a campaign's next mission: its roster is the campaign's living men."""
    team = campaign_team(game, campaign)
    origin = f"seed {mission.seed}" if mission.seed is not None else mission.dice
    context = {**style.of(game),
        "title": f"{game.info.title} log sheet",
        "page_size": page_size(paper), "short_page": short_page(paper),
        "missions": [mission_context(game, mission, team, campaign)],
        "campaign": False,
        "campaign_rules": game.data.rules.campaign,
        "skills": game.data.rules.skills,
        "footer": f"{game.info.title} · campaign mission {mission.number} · {origin} · warsheets",
    }
    stem = f"wotw-campaign-mission{mission.number}-" + (f"seed{mission.seed}" if mission.seed is not None else "dice")
    sheet = Sheet(filename=f"{stem}.pdf", template="logsheet.html.j2", context=context, game=game.id, templates=game.templates,
                  label=f"{game.info.title} log sheet")
    sheet.parts = stamped_missions(game, [mission], team, sheet.filename, paper, context["footer"], campaign)
    return sheet


#: the blank record's row counts: the largest team (9, Russian) with room for recruits
#: and the fallen; a season of missions; the ledger lines of about five missions
RECORD_ROSTER_ROWS = 10
RECORD_MISSION_ROWS = 7
RECORD_LEDGER_ROWS = 11


def campaign_record(game: Game, campaign, filename: str, paper: str = "a4", spare: int | None = None,
                    ledger_on_next_page: bool = False) -> Sheet:
    """The campaign record page: missions, the XP and CP ledger, the roster with state and history.

    `campaign` None gives the blank record of the kit (same boxes, nothing written). `spare`: the
    blank rows kept below the missions and the ledger lines played (None: the blank record's rows);
    `ledger_on_next_page`: the ledger and the rules begin a page (a record on two pages shares them out)."""
    data = game.data
    nation = data.nation(campaign.nation) if campaign else None
    theatre = data.theatre(campaign.theatre) if campaign else None
    enemy = data.nation(campaign.enemy) if campaign else None
    team = list(campaign.team) if campaign else []
    missions = list(campaign.missions) if campaign else []
    ledger = list(campaign.ledger) if campaign else []
    balance, running = [], (0, 0)
    for e in ledger:
        running = (running[0] + e.cp, running[1] + e.xp)
        balance.append(running)
    context = {**style.of(game), "title": f"{game.info.title} campaign record", "page_size": page_size(paper),
        "c": campaign, "nation": nation, "theatre": theatre, "enemy": enemy,
        "team": team, "missions": missions, "ledger": list(zip(ledger, balance)),
        "crew_short": crew_notes(campaign, nation) if campaign else {},
        "roster_rows": max(RECORD_ROSTER_ROWS, len(team)),
        "mission_rows": max(RECORD_MISSION_ROWS, len(missions)) if spare is None else len(missions) + spare,
        "ledger_rows": max(RECORD_LEDGER_ROWS, len(ledger)) if spare is None else len(ledger) + spare,
        "campaign_rules": data.rules.campaign, "skills": data.rules.skills,
        "nations": data.teams.nations, "ledger_on_next_page": ledger_on_next_page,
        "footer": f"{game.info.title} · campaign record · warsheets",
    }
    return Sheet(filename=filename, template="campaign.html.j2", context=context, game=game.id, templates=game.templates,
                 label=f"{game.info.title} campaign record")
