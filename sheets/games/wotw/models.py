"""Content models for The Way of the Warrior (see content/wotw/*.yaml headers)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, Union

from pydantic import AfterValidator, Field

from sheets.base import limits
from sheets.base.errors import SheetsError
from sheets.library.blocks import Section
from sheets.library.tables import RandomTable, TableRow
from sheets.library.validation import Strict

Range = Literal["short", "medium", "long"]
Cover = Literal["light", "heavy"]
Quality = Literal["V", "P", "G"]
FF = Union[int, Literal["-"]]

#: the theatre of `sheets mission` without --theatre (and of the kit's log sheet), when the content has it
DEFAULT_THEATRE = "france-1944"


class TheatreTables(Strict):
    steps: str
    objective: str
    events: str


class TheatreWeather(Strict):
    table: str
    conditions: list[str]
    text: str


class Theatre(Strict):
    id: str = Field(pattern=r"^[a-z0-9-]+$")
    name: str
    nations: list[str] = Field(min_length=2, max_length=2)
    tables: TheatreTables
    weather: TheatreWeather | None


class Theatres(Strict):
    rule: str
    theatres: list[Theatre] = Field(max_length=limits.MAX_TABLE_ROWS)  # rows of the Theatre of Operations table


class Recruit(Strict):
    quality: Literal["Veteran", "Private", "Green"]
    cp: int = Field(ge=0)
    weapon: str
    crew: int = Field(1, ge=1, le=3)


class WeaponFF(Strict):
    name: str
    ff: str
    short: FF
    medium: FF
    long: FF
    notes: str = ""


class Trait(Strict):
    id: str
    name: str
    text: str


class WeaponSwap(Strict):
    """A weapon the enemy tables list that this nation's team table lacks, and what it becomes."""

    weapon: str
    becomes: str
    grenade: bool = False  # the replacement carries a grenade ("SMG*")


class Nation(Strict):
    id: str
    name: str
    max_team_size: int = Field(ge=1)
    starting_cp: int = Field(ge=0)
    medical_expertise_cp: int = Field(ge=0)
    recruits: list[Recruit] = Field(max_length=limits.MAX_TABLE_ROWS)  # each list is a table of the reference
    weapons: list[WeaponFF] = Field(max_length=limits.MAX_TABLE_ROWS)
    traits: list[Trait] = []
    enemy_swaps: list[WeaponSwap] = []  # applied when this nation is the enemy

    def as_enemy(self, forces: str) -> str:
        """An Enemy Forces cell as this nation fields it: each weapon its team table lacks swapped
        ("Flamethrower(P)" becomes "SMG*(P)" against an Italian enemy; the rules, under the Patrol table)."""
        for sw in self.enemy_swaps:
            letters = r"[-\s]?".join(re.escape(part) for part in re.split(r"[-\s]", sw.weapon) if part)
            forces = re.sub(rf"(?i)\b{letters}\*?(?=\s*\()", sw.becomes + ("*" if sw.grenade else ""), forces)
        return forces

    def weapon(self, name: str) -> WeaponFF | None:
        key = name.strip().lower()
        return next((w for w in self.weapons if w.name.lower() == key), None)


class Teams(Strict):
    nations: list[Nation]


class Force(Strict):
    weapon: str
    quality: Quality
    grenade: bool = False


_COUNT_TERM = re.compile(r"^(\d{0,2})d3$|^(\d{1,3})$")


def _count_expr(expr: str) -> str:
    """A count the mission roller can roll: N, 1d3, or sums of them (checked here, not when rolled),
    whose largest roll is at most MAX_ROLL_COUNT: every one it rolls is a roll on a table and a step
    on the track (ten terms of 999 rolled 9,990 times: minutes and gigabytes)."""
    terms = expr.replace(" ", "").split("+")
    matched = [_COUNT_TERM.match(t) for t in terms]
    if len(terms) > 10 or not all(matched):
        raise ValueError(f"cannot roll count {expr!r} (use N, 1d3 or sums of them, each number up to 2 digits "
                         f"before d3 and 3 digits alone, at most 10 terms)")
    most = sum(int(m.group(2)) if m.group(2) is not None else 3 * int(m.group(1) or 1) for m in matched if m)
    if most > limits.MAX_ROLL_COUNT:
        raise ValueError(f"count {expr!r} can roll {most:,}, more than the {limits.MAX_ROLL_COUNT} a count may roll")
    return expr


CountExpr = Annotated[str, AfterValidator(_count_expr)]


class Then(Strict):
    table: str
    count: CountExpr


class Stage(Strict):
    terrain: str
    count: CountExpr


class WotwRow(TableRow):
    """One row of any WotW table; which payload keys a table needs is checked on load."""

    steps: list[str] | None = None
    then: Then | None = None
    name: str | None = None
    enemy: str | None = None
    forces: list[Force] | None = None
    range: Range | None = None
    weather: str | None = None
    text: str | None = None
    airborne: bool | None = None
    beachhead: bool | None = None
    stages: list[Stage] | None = None
    summary: bool = False  # a row the book does not print (the kit's reading): listed in designers_notes.yaml


class Tables(Strict):
    tables: list[RandomTable[WotwRow]]


class Event(Strict):
    roll: str
    text: str
    patrol_modifier: int | None = None
    forces: list[Force] | None = None
    range: Range | None = None


class Terrain(Strict):
    name: str
    abbr: str | None = None
    cover: Cover | None
    events: list[Event]
    note: str | None = None


class Place(Strict):
    name: str
    label: str
    terrain: str | None
    cover: Cover | None


class EventGroup(Strict):
    id: str
    title: str
    dice: Literal["2d6"]
    default_range: Range
    notes: list[str] = []
    terrains: list[Terrain] = Field(max_length=limits.MAX_TABLE_ROWS)  # rows of the group's Event table
    places: list[Place] = []


class Events(Strict):
    groups: list[EventGroup]


class Morale(Strict):
    test: str
    values: dict[str, int]


class Skill(Strict):
    id: str
    name: str
    text: str
    requires: list[str]


class Skills(Strict):
    cost_xp: int
    list: list[Skill]


class WeatherCondition(Strict):
    id: str
    name: str
    combat_shift: int
    patrol_modifier: int
    roll_table: str | None
    text: str


class LogSheet(Strict):
    title: str
    roster_title: str | None
    roster_columns: list[str]
    roster_rows: int | None
    track_title: str
    track_columns: list[str]
    track_rows: int | None


class Rules(Strict):
    title: str
    sections: list[Section]
    dice: dict[str, str]
    morale: Morale
    skills: Skills
    weather_conditions: list[WeatherCondition]
    campaign: dict[str, Any]
    engineer: dict[str, Any]
    log_sheet: LogSheet


# -- the loaded game: all five files, with lookups indexed once ------------------

@dataclass
class Resolved:
    """What a step's terrain name means: its cover, events and where they come from."""

    name: str
    cover: str | None
    terrain: Terrain | None  # the Event-table terrain whose events apply (None: none)


@dataclass
class WotwData:
    theatres: Theatres
    teams: Teams
    tables: Tables
    events: Events
    rules: Rules
    _tables: dict[str, RandomTable] = field(default_factory=dict)
    _terrains: dict[tuple[str, str], Resolved] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._tables = {t.id: t for t in self.tables.tables}
        for group in self.events.groups:
            for t in group.terrains:
                self._terrains[(group.id, t.name)] = Resolved(t.name, t.cover, t)
            for place in group.places:
                terrain = next((t for t in group.terrains if t.name == place.terrain), None)
                self._terrains[(group.id, place.name)] = Resolved(place.name, place.cover, terrain)

    def table(self, table_id: str) -> RandomTable:
        return self._tables[table_id]

    def terrain(self, group: str, name: str) -> Resolved | None:
        return self._terrains.get((group, name))

    def group(self, group_id: str) -> EventGroup:
        return next(g for g in self.events.groups if g.id == group_id)

    def theatre(self, theatre_id: str) -> Theatre:
        for t in self.theatres.theatres:
            if t.id == theatre_id:
                return t
        raise SheetsError(f"unknown theatre {theatre_id!r}; choose one of: {', '.join(t.id for t in self.theatres.theatres)}")

    def default_theatre(self) -> Theatre:
        """`sheets mission` without --theatre, and the kit's log sheet: France 1944, else the content's first."""
        theatres = self.theatres.theatres
        if not theatres:
            raise SheetsError("the content defines no theatre (theatres.yaml)")
        return next((t for t in theatres if t.id == DEFAULT_THEATRE), theatres[0])

    def nation(self, nation_id: str) -> Nation:
        for n in self.teams.nations:
            if n.id == nation_id:
                return n
        raise SheetsError(f"unknown nation {nation_id!r}; choose one of: {', '.join(n.id for n in self.teams.nations)}")

    def condition(self, condition_id: str):
        return next((c for c in self.rules.weather_conditions if c.id == condition_id), None)
