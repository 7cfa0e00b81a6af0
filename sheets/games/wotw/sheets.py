"""Render contexts for The Way of the Warrior: log sheets, campaign page, reference."""
from __future__ import annotations

import re
from dataclasses import dataclass

from sheets.base.paper import page_size
from sheets.games.wotw.crews import crew_notes
from sheets.games.wotw.mission import Mission, longest_track, roll_missions  # noqa: F401 - roll_missions re-exported
from sheets.games.wotw.team import GRENADIER_GRENADES, Team, TeamRules, soldier_row
from sheets.library.access import make_dice
from sheets.library.blocks import Block, Section, TableBlock
from sheets.library.content import Game
from sheets.base.options import PrintOptions
from sheets.kinds import style
from sheets.kinds.print_plugin import KitOptions
from sheets.pipeline.sheet import Sheet


#: the mission track on the log sheet: steps in columns of pencil rows (7 mm: a track), the
#: front page holding FRONT_ROWS of them (25 steps and spare rows hold 83 % of rolled missions,
#: the rest run on to a continuation page); SPARE_ROWS below the last step rolled, for a step
#: added in play (a Wind event's Regrouping, a move back)
TRACK_COLUMNS = 3
#: the large-print edition's track: two columns of the same rows, its words whole at 12 pt
LARGE_PRINT_TRACK_COLUMNS = 2
FRONT_ROWS = 27
SPARE_ROWS = 2
#: the fewest rows a front's track has: five lines (the shortest missions the tables roll, 10
#: steps, get 5 spare rows, not 2). Their page has the room, and they share the blank of the
#: 11 to 13 step missions: one blank fewer to lay out, for missions rolled 1 time in 200
MIN_FRONT_ROWS = 15
#: the team's points on a mission of no campaign and no team file: lines to write them on
STATE_LINES = "CP spent: ______ CP saved: ______"
#: the pages of a mission's log sheet, in print order: the front, its back (the play aid: a
#: duplex pair), then the continuation page of a track longer than the front holds
PAGES = ("front", "back", "continuation")


def track_pages(steps: list[dict]) -> tuple[list[dict], list[dict]]:
    """The track's rows on the front and on the continuation page (empty: none): the steps
    rolled, then spare rows (at least MIN_FRONT_ROWS on a front), so that the last column of
    each page is full."""
    spare = {"n": 0, "terrain": "", "cover": "", "enemy": "", "struck": False, "objective": False}
    rows = list(steps)
    if len(rows) <= FRONT_ROWS:
        total = max(min(len(rows) + SPARE_ROWS, FRONT_ROWS), MIN_FRONT_ROWS)
    else:
        total = len(rows) + SPARE_ROWS
    total = -(-total // TRACK_COLUMNS) * TRACK_COLUMNS
    rows += [dict(spare) for _ in range(total - len(rows))]
    for i, r in enumerate(rows, 1):
        r["n"] = i
    return rows[:FRONT_ROWS], rows[FRONT_ROWS:]


def in_columns(rows: list, columns: int = TRACK_COLUMNS) -> list[list]:
    """Rows read down each column in turn, as table rows across the columns."""
    height = -(-len(rows) // columns)
    return [[rows[c * height + r] if c * height + r < len(rows) else None for c in range(columns)]
            for r in range(height)]


def split_balanced(entries: list[dict]) -> tuple[list[dict], list[dict]]:
    """Two columns of the events table, in order, about as long as each other (by their text)."""
    weights = [len(e["terrain"]) + 24 + sum(len(p) for p in e["places"]) + sum(len(r) + len(t) + 3 for r, t in e["events"]) + len(e["note"] or "")
               for e in entries]
    total, best, cut = sum(weights), None, len(entries)
    running = 0
    for i in range(len(entries) + 1):
        gap = abs(total - 2 * running)
        if best is None or gap < best:
            best, cut = gap, i
        if i < len(entries):
            running += weights[i]
    return entries[:cut], entries[cut:]


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


#: a lookup's dice spec at the end of its name ("target approach 3+1d3", "village count 1d3"):
#: the audit trail names the dice as rolled instead
_DICE_SPEC = re.compile(r"\s+x?[\d+]*d\d+$")


def _rolled_text(m: Mission) -> str:
    """The mission's rolls as a player reads dice: "Approach: d6 2 → 4 rolls on the Steps table;
    Steps: d66 1·4 → 14: Road, Cliff, Hill Top; ...". The seed that rolled them is no player's
    business: it is in the PDF's metadata (`rolled_keywords`), never on the page."""
    rolls = []
    for r in m.rolls:
        name = _DICE_SPEC.sub("", r.table).replace("target approach", "approach")
        name = name[:1].upper() + name[1:]
        if len(r.dice) == 1:
            dice = f"d6 {r.dice[0]}"
        elif r.table.endswith("count") or _DICE_SPEC.search(r.table):
            dice = f"{len(r.dice)}d6 " + "+".join(str(d) for d in r.dice)
        else:  # two dice read as tens and units
            dice = "d66 " + "·".join(str(d) for d in r.dice)
        if len(r.dice) == 1 and r.result == r.dice[0] or r.hit.startswith(f"{r.result} "):
            rolls.append(f"{name}: {dice} → {r.hit}")
        else:
            rolls.append(f"{name}: {dice} → {r.result}: {r.hit}")
    return "; ".join(rolls) + "."


def rolled_keywords(missions: list[Mission]) -> str:
    """What rolled a sheet's missions, for its PDF's metadata (/Keywords): the seed or the dice."""
    first = missions[0]
    return f"dice seed {first.seed}" if first.seed is not None else str(first.dice)


def mission_context(game: Game, mission: Mission, team: Team | None, campaign=None,
                    prefix: str | None = None) -> dict:
    """A mission's log-sheet context: its values (`v`), the track's rows page by page, the
    events of the terrains rolled, the roster, and its play aid (the back page)."""
    data = game.data
    m = mission
    nation, enemy = data.nation(m.nation), data.nation(m.enemy)
    condition = data.condition(m.weather) if m.weather else None
    steps, legend, seen = [], [], {}
    for i, step in enumerate(m.track):
        last = i == len(m.track) - 1
        steps.append({"n": step.n, "terrain": step.terrain, "cover": step.cover or "none", "struck": step.struck,
                      "objective": last, "enemy": step.range if last else ""})
        resolved = data.terrain(step.group, step.terrain)
        terrain = resolved.terrain if resolved else None
        if last or terrain is None:
            continue
        # a place ("House (Building)") rolls its terrain's events: one entry for the terrain,
        # naming the places on this track that use it
        key = (step.group, terrain.name)
        if key not in seen:
            seen[key] = {"terrain": terrain.name, "places": [],
                         "events": [(_roll_text(e.roll), e.text) for e in terrain.events], "note": terrain.note}
            legend.append(seen[key])
        if step.terrain != terrain.name and step.terrain not in seen[key]["places"]:
            seen[key]["places"].append(step.terrain)
    front, continuation = track_pages(steps)
    steps_text = f"({len(steps)} steps" + (f": from step {len(front) + 1} on the continuation page" if continuation else "") + ")"
    continued_text = f"(steps {len(front) + 1} to {len(steps)}, then spare rows)" if continuation else ""
    if campaign:
        state = (f"Campaign: {campaign.cp} CP saved, {campaign.xp} XP unused; state is fit or wounded "
                 f"(a second wound kills).")
    elif team:
        state = f"Team cost {team.cp_spent} CP, {team.cp_saved} CP saved."
    else:
        state = STATE_LINES
    values = {
        "number": str(m.number), "theatre": m.theatre_name,
        "team": f"{nation.name} (max {nation.max_team_size} men, {nation.starting_cp} CP to start)",
        "enemy": enemy.name,
        "weather": f"{condition.name} — {condition.text}" if condition else "no weather rule in this theatre",
        "rules": _optional_rules_text(m),
        "objective": f"{m.objective.name} — enemy forces {m.objective.enemy}, starting at {m.objective.range} range",
        "state": state, "rolled": _rolled_text(m),
    }
    rules = TeamRules.of(data.rules)
    roster_rows = max(nation.max_team_size, team.size if team else 0)
    roster = []
    for i in range(roster_rows):
        s = team.soldiers[i] if team and i < team.size else None
        roster.append({"s": s, "grenades": grenade_boxes(s, rules.grenades)})
    engineer_name = next((s.name for s in team.soldiers if s.engineer), "") if team else ""
    return {
        "m": m, "p": prefix if prefix is not None else f"m{m.number}-", "v": values,
        "front": in_columns(front), "continuation": in_columns(continuation), "last_step": len(steps), "steps": steps_text,
        "steps_cont": continued_text,
        "front_large": in_columns(front, LARGE_PRINT_TRACK_COLUMNS),
        "continuation_large": in_columns(continuation, LARGE_PRINT_TRACK_COLUMNS),
        "legend": split_balanced(legend), "nation": nation, "enemy": enemy, "team": team, "roster": roster,
        "columns": data.rules.log_sheet.roster_columns, "morale": data.rules.morale.values,
        "engineer": data.rules.engineer, "engineer_name": engineer_name,
        "aid": play_aid(game, enemy, weather=m.weather is not None),
    }


def grenade_boxes(soldier, carried: int) -> list[str]:
    """A box per grenade the man carries ("grenadier": the fifth, the Grenadier skill's); a row
    with no man: the grenades every man carries and the Grenadier's fifth, marked."""
    if soldier is None:
        return [""] * carried + ["grenadier"] * (GRENADIER_GRENADES - carried)
    return ["grenadier" if i >= carried else "" for i in range(soldier.grenades)]


def _section(data, section_id: str):
    return next((s for s in data.rules.sections if s.id == section_id), None)


def _blocks(data, section_id: str, kind: str) -> list:
    section = _section(data, section_id)
    return [getattr(b, kind) for b in (section.blocks if section else []) if getattr(b, kind) is not None]


def play_aid(game: Game, enemy, weather: bool) -> dict:
    """The back of a mission's log sheet, from the rules as printed: the Fire Table and its
    modifiers, the result key (P/W/K), morale, the Patrol table (its enemy forces as this
    enemy fields them), and the Weather Effect table when the theatre has weather."""
    data = game.data
    fire = _blocks(data, "fire-table", "table")
    patrol = data.table("patrol")
    weather_tables = [t for t in _blocks(data, "weather", "table")] if weather else []
    return {
        "fire": fire[0] if fire else None, "modifiers": fire[1] if len(fire) > 1 else None,
        "key": [t for terms in _blocks(data, "fire-phase", "terms") for t in terms],
        "morale_test": data.rules.morale.test,
        "patrol": [{"roll": _roll_text(r.roll), "summary": r.summary, "name": r.name,
                    "enemy": enemy.as_enemy(r.enemy) if r.enemy else "—"} for r in patrol.rows],
        "patrol_title": patrol.title, "patrol_note": patrol.note,
        "weather": weather_tables[0] if weather_tables else None,
    }


@dataclass(frozen=True)
class BlankMission:
    """What a blank page shows of its mission: the boxes its options add, nothing rolled
    (the template reads no more on a blank; StrictUndefined would say so if it did)."""

    engineers: bool
    weather: bool
    airborne: bool


def _blank_back(ctx: dict) -> dict:
    """A mission's back page with nothing written: the blank its values are stamped onto (the
    same for every mission of these sides, weather and opening)."""
    m = ctx["m"]
    return {"m": BlankMission(bool(m.engineers), m.weather is not None, bool(m.airborne)), "p": ctx["p"],
            "v": {k: "" for k in ctx["v"]}, "nation": ctx["nation"], "enemy": ctx["enemy"],
            "morale": ctx["morale"], "aid": ctx["aid"]}


def _blank_rows(rows: list[list]) -> list[list]:
    """A track's rows with nothing rolled on them (a struck step stays struck: its row's look)."""
    return [[None if r is None else dict(r, terrain="", cover="", enemy="", objective=False) for r in line]
            for line in rows]


def _blank_front(ctx: dict) -> dict:
    """A mission's front with nothing written: the blank its values are stamped onto, its events
    drawn into (the same for every mission with as many rows on its front, the same steps struck,
    the same men carrying the same grenades and the same optional rules)."""
    # the team's state line is the same on every mission of a batch (the team's or the campaign's
    # points, or lines to write them on): printed on the blank, where its words flow as laid out
    return {**ctx, "v": {k: "" if k != "state" else v for k, v in ctx["v"].items()},
            "steps": "", "steps_cont": "", "legend": ([], []), "events_sample": True, "engineer_name": "",
            "front": _blank_rows(ctx["front"]), "front_large": _blank_rows(ctx["front_large"]),
            "continuation": _blank_rows(ctx["continuation"]),
            "continuation_large": _blank_rows(ctx["continuation_large"]),
            "roster": [{"s": None, "grenades": row["grenades"]} for row in ctx["roster"]]}


def _front_shape(ctx: dict, page: str = "front") -> tuple:
    """What tells two missions' blank fronts (or continuation pages) apart (`_blank_front`)."""
    rows = ctx[page]
    return (page, ctx["v"]["state"], len(rows), tuple(bool(r and r["struck"]) for line in rows for r in line),
            tuple(tuple(row["grenades"]) for row in ctx["roster"]), bool(ctx["m"].engineers))


def log_sheet(game: Game, missions: list[Mission], filename: str, paper: str = "a4",
              team: Team | None = None) -> Sheet:
    campaign = len(missions) > 1
    footer = f"{game.info.title} · log sheet · warsheets"
    contexts = [mission_context(game, m, team) for m in missions]
    sheet = _log_sheet(game, contexts, filename, paper, campaign, footer)
    sheet.context["keywords"] = rolled_keywords(missions)
    # each mission's front stamped onto the cached blank of its shape (its events set as
    # stamped rows), its back onto the blank of its sides (on every core, streamed into one
    # PDF); a campaign ends with its record page
    sheet.parts = mission_parts(game, missions, team, filename, paper, footer)
    if campaign:  # its record, stamped on a blank record of as many missions (any seed's)
        blank = _log_sheet(game, contexts, filename, paper, True, footer, mission_pages=False, record=_record(contexts, blank=True))
        sheet.parts.append((blank, _log_sheet(game, contexts, filename, paper, True, footer, mission_pages=False)))
    return sheet


def _record(contexts: list[dict], blank: bool = False) -> list[dict]:
    """The campaign record's rows: each mission's number, and what was rolled for it (its
    objective and steps; the team's starting CP on the first), left empty on a `blank` record."""
    return [{"number": c["m"].number,
             "objective": "" if blank else c["m"].objective.name,
             "steps": "" if blank else len(c["m"].track),
             "cp": "" if blank or i else c["nation"].starting_cp} for i, c in enumerate(contexts)]


def mission_parts(game: Game, missions: list[Mission], team: Team | None, filename: str, paper: str,
                  footer: str, campaign=None) -> list:
    """(blank, filled) parts, in print order: each mission's front (stamped on a blank that every
    mission of the same shape shares, its events laid out on their own and drawn into it), its
    back (the play aid, stamped on a blank that every mission of the same sides shares) and its
    continuation page, if its track needs one (stamped on a blank of its rows)."""
    parts, backs, fronts = [], {}, {}
    # the blank's own footer names no seed, so that one blank serves every seed (each
    # page's footer is stamped: `footer`, and "page N of M" over the whole document)
    blank_footer = f"{game.info.title} · log sheet · warsheets"
    for m in missions:
        ctx = mission_context(game, m, team, campaign, prefix="m-")
        shape = _front_shape(ctx)
        if shape not in fronts:  # one blank front for every mission of this shape (its Jinja rendered once)
            fronts[shape] = _log_sheet(game, [_blank_front(ctx)], filename, paper, False, blank_footer, pages=("front",))
        parts.append((fronts[shape], _log_sheet(game, [ctx], filename, paper, False, footer, pages=("front",))))
        side = (m.nation, m.enemy, m.weather is not None, bool(m.airborne))
        if side not in backs:  # one blank back for every mission of these sides (its Jinja rendered once)
            backs[side] = _log_sheet(game, [_blank_back(ctx)], filename, paper, False, blank_footer, pages=("back",))
        parts.append((backs[side], _log_sheet(game, [ctx], filename, paper, False, footer, pages=("back",))))
        if ctx["continuation"]:  # stamped on a blank of its rows, as the front
            shape = _front_shape(ctx, "continuation")
            if shape not in fronts:
                fronts[shape] = _log_sheet(game, [_blank_front(ctx)], filename, paper, False, blank_footer,
                                           pages=("continuation",))
            parts.append((fronts[shape],
                          _log_sheet(game, [ctx], filename, paper, False, footer, pages=("continuation",))))
    return parts


def _log_sheet(game: Game, contexts: list[dict], filename: str, paper: str, campaign: bool, footer: str,
               mission_pages: bool = True, pages: tuple[str, ...] = PAGES, record: list[dict] | None = None) -> Sheet:
    context = {**style.of(game),
        "title": f"{game.info.title} log sheet",
        "page_size": page_size(paper),
        "missions": contexts if mission_pages else [],
        "record": (_record(contexts) if record is None else record) if campaign else [],
        "pages": pages,
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
    # a row the rules do not print (`summary`) prints as the others: the notes page says which
    weather_blocks = []
    for table in data.tables.tables:
        if not table.id.startswith("weather-"):
            continue
        weather_blocks.append(Block(table=TableBlock(
            caption=table.title, header=[table.dice.upper(), "Weather"],
            rows=[[r.roll, r.text or "—"] for r in table.rows], note=table.note)))
    conditions = [Block(terms=[{"term": f"{c.name}:", "text": c.text} for c in data.rules.weather_conditions])]
    sections.append(Section(id="table-weather", title="Weather tables",
                            blocks=weather_blocks + conditions))
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
                               rows=[[_roll_text(r.roll), r.name, r.enemy] for r in patrol.rows])),
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
    """A log sheet with nothing rolled, for a mission rolled at the table: its front (FRONT_ROWS
    rows, every optional rule's boxes) and a continuation sheet numbered on to the longest
    mission the tables can roll."""
    data = game.data
    rules = TeamRules.of(data.rules)
    rows = [{"n": 0, "terrain": "", "cover": "", "enemy": "", "struck": False, "objective": False}
            for _ in range(longest_track(data))]
    front, continuation = track_pages(rows)
    empty = {"terrain": "", "places": [], "events": [], "note": None}
    size = max((n.max_team_size for n in data.teams.nations), default=8)
    ctx = {"m": BlankMission(True, True, True), "p": "", "blank": True,
           "v": {**dict.fromkeys(("number", "theatre", "team", "enemy", "weather", "rules", "objective", "rolled"), ""),
                 "state": STATE_LINES},
           "front": in_columns(front), "continuation": in_columns(continuation), "last_step": 0,
           "front_large": in_columns(front, LARGE_PRINT_TRACK_COLUMNS),
           "continuation_large": in_columns(continuation, LARGE_PRINT_TRACK_COLUMNS),
           "legend": ([dict(empty) for _ in range(BLANK_EVENT_ROWS)], [dict(empty) for _ in range(BLANK_EVENT_ROWS)]),
           "roster": [{"s": None, "grenades": grenade_boxes(None, rules.grenades)} for _ in range(size)],
           "columns": data.rules.log_sheet.roster_columns, "morale": data.rules.morale.values,
           "engineer": data.rules.engineer, "engineer_name": "",
           "weather_theatres": [t.name for t in data.theatres.theatres if t.weather is not None]}
    sheet = _log_sheet(game, [ctx], "wotw-log-sheet-blank.pdf", paper, False,
                       f"{game.info.title} · log sheet (blank) · warsheets", pages=("front", "continuation"))
    sheet.context["title"] = f"{game.info.title} log sheet (blank)"
    sheet.label = f"{game.info.title} log sheet (blank)"
    return sheet


#: the blank's events table: rows to write a terrain's events in, in each of its two columns
BLANK_EVENT_ROWS = 3


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
    context = {**style.of(game), "keywords": rolled_keywords([mission]),
        "title": f"{game.info.title} log sheet",
        "page_size": page_size(paper),
        "missions": [mission_context(game, mission, team, campaign)], "pages": PAGES,
        "campaign": False,
        "campaign_rules": game.data.rules.campaign,
        "skills": game.data.rules.skills,
        "footer": f"{game.info.title} · campaign mission {mission.number} · warsheets",
    }
    stem = f"wotw-campaign-mission{mission.number}-" + (f"seed{mission.seed}" if mission.seed is not None else "dice")
    sheet = Sheet(filename=f"{stem}.pdf", template="logsheet.html.j2", context=context, game=game.id, templates=game.templates,
                  label=f"{game.info.title} log sheet")
    sheet.parts = mission_parts(game, [mission], team, sheet.filename, paper, context["footer"], campaign)
    return sheet


#: the blank record's row counts (7 mm pencil rows): the largest team (9, Russian) with room
#: for a recruit; the missions and ledger lines its first page holds, and its continuation
#: sheet's (a campaign of eleven missions wrote 26 ledger lines)
RECORD_ROSTER_ROWS = 10
RECORD_MISSION_ROWS = 4
RECORD_LEDGER_ROWS = 6
RECORD_CONTINUED_MISSIONS = 6
RECORD_CONTINUED_LEDGER = 20
#: a printed record's roster: its men and a spare row for the next recruit
RECORD_ROSTER_SPARE = 1


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
        "roster_rows": len(team) + RECORD_ROSTER_SPARE if campaign else RECORD_ROSTER_ROWS,
        # the blank record runs on to a continuation sheet of missions and ledger lines
        "continuation": None if campaign else {"mission_rows": RECORD_CONTINUED_MISSIONS,
                                               "ledger_rows": RECORD_CONTINUED_LEDGER},
        "mission_rows": max(RECORD_MISSION_ROWS, len(missions)) if spare is None else len(missions) + spare,
        "ledger_rows": max(RECORD_LEDGER_ROWS, len(ledger)) if spare is None else len(ledger) + spare,
        "campaign_rules": data.rules.campaign, "skills": data.rules.skills,
        "nations": data.teams.nations, "ledger_on_next_page": ledger_on_next_page,
        "footer": f"{game.info.title} · campaign record · warsheets",
    }
    return Sheet(filename=filename, template="campaign.html.j2", context=context, game=game.id, templates=game.templates,
                 label=f"{game.info.title} campaign record")
