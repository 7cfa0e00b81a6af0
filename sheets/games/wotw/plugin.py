"""The Way of the Warrior's plugin: loads and cross-checks its tables."""
from __future__ import annotations

from sheets.base import limits
from sheets.base.errors import ContentError
from sheets.games.wotw.campaign_io import is_campaign
from sheets.games.wotw.campaign_io import read as read_campaign, unused_dice
from sheets.games.wotw.crews import crew_messages
from sheets.games.wotw.mission import APPROACH_MAX, count_max, row_steps
from sheets.games.wotw.models import Events, Rules, Tables, Teams, Theatres, WotwData
from sheets.games.wotw.records import Campaign
from sheets.games.wotw.team import TeamFile, resolve_team
from sheets.kinds.kind import Kind
from sheets.kinds.print_plugin import PrintHooks
from sheets.library.content import FileLoader
from sheets.library.kinds import ContentKind
from sheets.library.plugins import GamePlugin
from sheets.library.tables import LEGAL, parse_roll

#: payload keys each kind of table needs (by table id or id prefix)
REQUIRED = {
    "steps": ("steps",),
    "village": ("steps",),
    "town": ("steps",),
    "objective": ("name", "steps", "enemy", "range"),
    "patrol": ("name", "enemy"),
    "weather-": ("weather", "text"),
    "airborne": ("airborne", "stages"),
    "beachhead": ("beachhead", "stages"),
}


def _check(files: FileLoader, data: WotwData) -> None:
    """Coverage, payloads and cross references; every problem located."""
    table_ids = {t.id for t in data.tables.tables}
    group_ids = {g.id for g in data.events.groups}
    _check_tables(files, data, table_ids)
    _check_terrain(files, data, group_ids)
    _check_theatres(files, data, table_ids, group_ids)
    _check_events(files, data)
    _check_teams(files, data)
    _check_track(files, data)


def _check_tables(files: FileLoader, data: WotwData, table_ids: set[str]) -> None:
    """Each table covers its dice, has the payload its kind needs, and leads to known tables."""
    for ti, table in enumerate(data.tables.tables):
        for loc, message in table.coverage_problems():
            files.problem("tables.yaml", ("tables", ti) + loc, message)
        required = next((keys for prefix, keys in REQUIRED.items()
                         if table.id == prefix or (prefix.endswith("-") and table.id.startswith(prefix))), ())
        if table.id in ("airborne", "beachhead"):  # the opening's tables, rolled with a d6 when asked for
            wrong = _not_rolled_as(table, "d6")
            if wrong:
                files.problem("tables.yaml", ("tables", ti, "dice"), f"the {table.id} opening is rolled with a d6, and {wrong}")
        for ri, row in enumerate(table.rows):
            for key in required:
                if getattr(row, key) is None:
                    files.problem("tables.yaml", ("tables", ti, "rows", ri), f"table {table.id!r} needs {key!r} in every row")
            if row.then is not None and row.then.table not in table_ids:
                files.problem("tables.yaml", ("tables", ti, "rows", ri, "then", "table"), f"unknown table {row.then.table!r}")
            elif row.then is not None:
                wrong = _not_rolled_as(data.table(row.then.table), "d6", "steps")
                if wrong:
                    files.problem("tables.yaml", ("tables", ti, "rows", ri, "then", "table"),
                                  f"then: rolls a d6 on a table of steps, and {wrong}")


def _not_rolled_as(table, dice: str, payload: str | None = None) -> str | None:
    """Why the mission roller cannot roll `dice` on `table` and read `payload` from the row it hits
    (a then: naming a d66 table hit no row for a 4: KeyError at the roll); None when it can."""
    if table.dice != dice:
        return f"{table.id!r} is rolled with {table.dice}"
    covered = {r for row in table.rows for r in _covered(row.roll, table)}
    missing = [r for r in LEGAL[dice] if r not in covered]
    if missing:
        return f"{table.id!r} has no row for {', '.join(map(str, missing))} (its results: {table.results.min} to {table.results.max})" \
            if table.results is not None else f"{table.id!r} has no row for {', '.join(map(str, missing))}"
    if payload is not None and any(getattr(row, payload) is None for row in table.rows):
        return f"{table.id!r} has rows without {payload!r}"
    return None


def _covered(roll: str, table) -> list[int]:
    try:
        return parse_roll(roll, table.dice, table.results)
    except ValueError:
        return []  # a malformed roll is reported by the table's own coverage check


def _check_track(files: FileLoader, data: WotwData) -> None:
    """The longest Mission Track the tables can roll (mission.longest_track) is at most MAX_TRACK_STEPS
    steps: every step is a row of the briefing and of the log sheet. Said at the row of its largest
    part (the opening's, the Steps row rolled at every roll of the approach, or the objective's);
    checked once the tables it reads are known and rollable."""
    tables = {t.id: t for t in data.tables.tables}
    named = [t.tables.steps for t in data.theatres.theatres] + [t.tables.objective for t in data.theatres.theatres]
    thens = [row.then.table for t in tables.values() for row in t.rows if row.then is not None]
    if not all(n in tables and tables[n].rows for n in named + thens):
        return
    if any(_not_rolled_as(tables[n], "d6", "steps") for n in thens):
        return  # a then: to a table it cannot roll on is said at the then: (its steps mean nothing)
    place = {t.id: ti for ti, t in enumerate(data.tables.tables)}

    def longest_row(table_ids, size):  # (its size, its table's place, its place) of the largest row
        return max(((size(row), place[tid], ri) for tid in table_ids if tid in tables
                    for ri, row in enumerate(tables[tid].rows)), default=(0, 0, 0))

    opening = longest_row(("airborne", "beachhead"), lambda r: sum(count_max(st.count) for st in (r.stages or [])))
    for theatre in data.theatres.theatres:
        step = longest_row((theatre.tables.steps,), lambda r: row_steps(data, r))
        objective = longest_row((theatre.tables.objective,), lambda r: len(r.steps or []))
        parts = [opening, (APPROACH_MAX * step[0], *step[1:]), objective]
        total = sum(p[0] for p in parts)
        if total > limits.MAX_TRACK_STEPS:
            _, ti, ri = max(parts)
            files.problem("tables.yaml", ("tables", ti, "rows", ri),
                          f"the longest mission of {theatre.name} these tables can roll has {total:,} steps on its track "
                          f"({opening[0]} in the opening, {APPROACH_MAX} x {step[0]} on the approach, {objective[0]} at "
                          f"the objective), more than the {limits.MAX_TRACK_STEPS} a track may have: fewer steps or "
                          f"smaller counts")
            return


def _check_terrain(files: FileLoader, data: WotwData, group_ids: set[str]) -> None:
    """Every step name must be known in the event group it is looked up in."""
    main_groups = {t.tables.events for t in data.theatres.theatres}
    for ti, table in enumerate(data.tables.tables):
        for ri, row in enumerate(table.rows):
            names = [(("steps", si), s, None) for si, s in enumerate(row.steps or [])]
            names += [(("stages", si, "terrain"), st.terrain, table.id) for si, st in enumerate(row.stages or [])]
            for loc, name, group in names:
                groups = [group] if group else sorted(main_groups)
                for g in groups:
                    if g in group_ids and data.terrain(g, name) is None:
                        files.problem("tables.yaml", ("tables", ti, "rows", ri) + loc,
                                      f"terrain {name!r} has no entry in events.yaml (group {g!r}): add it or a place with its cover")


def _check_theatres(files: FileLoader, data: WotwData, table_ids: set[str], group_ids: set[str]) -> None:
    """A theatre names known tables, event groups and nations."""
    for ti, theatre in enumerate(data.theatres.theatres):
        for key in ("steps", "objective"):
            if getattr(theatre.tables, key) not in table_ids:
                files.problem("theatres.yaml", ("theatres", ti, "tables", key), f"unknown table {getattr(theatre.tables, key)!r}")
        if theatre.tables.events not in group_ids:
            files.problem("theatres.yaml", ("theatres", ti, "tables", "events"), f"unknown event group {theatre.tables.events!r}")
        if theatre.weather and theatre.weather.table not in table_ids:
            files.problem("theatres.yaml", ("theatres", ti, "weather", "table"), f"unknown table {theatre.weather.table!r}")
        # the roller rolls d66 on the steps and objective tables and a d6 on the weather table
        rolled = [(("tables", key), getattr(theatre.tables, key), "d66") for key in ("steps", "objective")]
        rolled += [(("weather", "table"), theatre.weather.table, "d6")] if theatre.weather else []
        for loc, table_id, dice in rolled:
            wrong = _not_rolled_as(data.table(table_id), dice) if table_id in table_ids else None
            if wrong:
                files.problem("theatres.yaml", ("theatres", ti) + loc, f"a theatre rolls {dice} on it, and {wrong}")
        for ni, nation in enumerate(theatre.nations):
            if nation not in {n.id for n in data.teams.nations}:
                files.problem("theatres.yaml", ("theatres", ti, "nations", ni), f"unknown nation {nation!r} (teams.yaml)")


def _check_events(files: FileLoader, data: WotwData) -> None:
    """Each terrain's events have readable rolls, and no result has two events."""
    for gi, group in enumerate(data.events.groups):
        for te, terrain in enumerate(group.terrains):
            owner: dict[int, int] = {}
            for ei, event in enumerate(terrain.events):
                loc = ("groups", gi, "terrains", te, "events", ei, "roll")
                try:
                    covered = parse_roll(event.roll, group.dice)
                except ValueError as exc:
                    files.problem("events.yaml", loc, f"bad roll {event.roll!r}: {exc}")
                    continue
                for r in covered:
                    if r in owner:
                        files.problem("events.yaml", loc, f"{terrain.name}: result {r} has two events")
                    owner[r] = ei


def _check_teams(files: FileLoader, data: WotwData) -> None:
    """A nation's swaps and recruits name weapons it has fire factors for (a swap: one it lacks)."""
    for ni, nation in enumerate(data.teams.nations):
        for si, swap in enumerate(nation.enemy_swaps):
            if nation.weapon(swap.weapon) is not None:
                files.problem("teams.yaml", ("nations", ni, "enemy_swaps", si, "weapon"),
                              f"{nation.name} has fire factors for {swap.weapon!r}: nothing to swap")
            if nation.weapon(swap.becomes) is None:
                files.problem("teams.yaml", ("nations", ni, "enemy_swaps", si, "becomes"),
                              f"{nation.name} has no fire factors for {swap.becomes!r}")
        for ri, recruit in enumerate(nation.recruits):
            if nation.weapon(recruit.weapon) is None:
                files.problem("teams.yaml", ("nations", ni, "recruits", ri, "weapon"),
                              f"{nation.name} has no fire factors for {recruit.weapon!r}")


def _logsheets(game) -> str:
    theatres = ", ".join(t.id for t in game.data.theatres.theatres)
    return f"mission log sheets (sheets mission; theatres {theatres})"


def _make_log_sheets(_lib, game, options, _which):
    # the sheets need Jinja; the plugin is loaded with the content (`mission --json`, `validate`)
    from sheets.games.wotw.sheets import kit_log_sheets  # noqa: PLC0415

    return kit_log_sheets(game, options)


def _make_record(_lib, game, options, _which):
    from sheets.games.wotw.sheets import kit_record  # noqa: PLC0415 - Jinja: as above

    return kit_record(game, options)


class WotwPlugin(GamePlugin, PrintHooks):
    extra_files = ("examples/*.yaml",)  # examples, read by their own commands and tests

    def kinds(self):
        return [Kind("wotw.logsheet", "a mission log sheet, rolled or blank", ("logsheet.html.j2",),
                     "logsheet", make=_make_log_sheets, listed=_logsheets),
                Kind("wotw.record", "a campaign's record", ("campaign.html.j2",), "record", make=_make_record)]

    def load(self, files: FileLoader):
        before = len(files.problems)
        parts = dict(
            theatres=files.model("theatres.yaml", Theatres),
            teams=files.model("teams.yaml", Teams),
            tables=files.model("tables.yaml", Tables),
            events=files.model("events.yaml", Events),
            rules=files.model("rules.yaml", Rules),
        )
        if len(files.problems) > before:
            return None
        data = WotwData(**parts)
        _check(files, data)
        if len(files.problems) > before:
            return None
        return data

    def file_kinds(self):
        return [
            ContentKind("theatres", Theatres, "theatres.yaml", "the Way of the Warrior's theatres"),
            ContentKind("teams", Teams, "teams.yaml", "the Way of the Warrior's nations and team tables"),
            ContentKind("tables", Tables, "tables.yaml", "the Way of the Warrior's random tables"),
            ContentKind("events", Events, "events.yaml", "the Way of the Warrior's terrain events"),
            ContentKind("rules", Rules, "rules.yaml", "the Way of the Warrior's rule numbers"),
            ContentKind("team", TeamFile, "examples/*.yaml", "a team file (sheets mission --team, sheets campaign new --team)"),
            # the model campaign_io.read validates a campaign file with
            ContentKind("campaign", Campaign, None, "a Way of the Warrior campaign file (sheets campaign)"),
        ]

    def reference_sections(self, game):
        # the sheets need Jinja; the plugin is loaded with the content (`mission --json`, `validate`)
        from sheets.games.wotw.sheets import reference_parts  # noqa: PLC0415

        return reference_parts(game)

    def check_user_file(self, game, doc):
        """A campaign file (`kind: campaign`) or a team file: every rule, located by line and field."""
        data = doc.data if isinstance(doc.data, dict) else {}
        try:
            if is_campaign(data) and data.get("game", "wotw") == "wotw":
                read_campaign(doc, game.data)
            elif "members" in data and str(data.get("nation", "")).lower() in {n.id for n in game.data.teams.nations}:
                # a team file for `sheets mission --team` / `sheets campaign new --team`
                resolve_team(doc, game.data.nation(str(data["nation"]).lower()), game.data.rules)
            else:
                return None
        except ContentError as exc:
            return exc.problems
        return []


    def user_file_notes(self, game, doc):
        """A valid campaign's crews short of a man (a legal state, named until it is whole)."""
        data = doc.data if isinstance(doc.data, dict) else {}
        if not (is_campaign(data) and data.get("game", "wotw") == "wotw"):
            return None
        c = read_campaign(doc, game.data)
        return unused_dice(doc, c, game.data) + crew_messages(c, game.data.nation(c.nation))


plugin = WotwPlugin()
