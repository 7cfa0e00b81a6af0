"""The mission pre-roller: a whole briefing from dice, with an audit trail.

Dice are rolled in the order the rules give (so scripted dice replay a real
table exactly):

1. weather d6, if the theatre has a weather rule;
2. airborne d6 if asked for (a 1: the drop steps, Low Altitude x1d3);
   otherwise beachhead d6 if asked for (a 1: Enemy Beach x(1d3+1));
3. 1d3 for the target approach: 3+1d3 rolls on the Steps table;
4. each Steps roll: tens, units; a Village row rolls 1d3 then a d6 per roll,
   a Town row rolls 1d3 (2+1d3 rolls) then a d6 per roll;
5. the objective: tens, units.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from sheets.base.dice import Dice
from sheets.base.errors import SheetsError
from sheets.games.wotw.records import Refused
from sheets.games.wotw.models import WotwData


@dataclass(slots=True)
class TableRoll:
    """One lookup: which table, the dice as rolled, the result and the row hit."""

    table: str
    dice: list[int]
    result: int
    row: str  # the row's roll spec, e.g. "11-13"
    hit: str  # what the row gave, in words


@dataclass(slots=True)
class Step:
    n: int
    terrain: str
    cover: str | None
    source: str  # "airborne", "beachhead", "steps 16", "village 3", "town 5", "objective 24"
    group: str   # the event group its events come from
    enemy: str | None = None
    range: str | None = None
    struck: bool = False


@dataclass
class Objective:
    roll: int
    name: str
    enemy: str
    range: str


@dataclass
class Mission:
    seed: int | None
    dice: str
    theatre: str
    theatre_name: str
    nation: str
    enemy: str
    weather: str | None
    airborne: bool | None
    beachhead: bool | None
    engineers: bool
    rolls: list[TableRoll] = field(default_factory=list)
    track: list[Step] = field(default_factory=list)
    objective: Objective | None = None
    struck_step: int | None = None
    number: int = 1

    def as_json(self) -> dict:
        track = []
        for s in self.track:
            item = {"n": s.n, "terrain": s.terrain, "cover": s.cover, "source": s.source}
            if s.enemy is not None:
                item["enemy"] = s.enemy
            if s.range is not None:
                item["range"] = s.range
            if s.struck:
                item["struck"] = True
            track.append(item)
        return {
            "seed": self.seed, "dice": self.dice, "theatre": self.theatre, "nation": self.nation,
            "enemy": self.enemy, "weather": self.weather, "airborne": self.airborne,
            "beachhead": self.beachhead, "engineers": self.engineers, "struck_step": self.struck_step,
            "rolls": [{"table": r.table, "dice": list(r.dice), "result": r.result, "row": r.row, "hit": r.hit}
                      for r in self.rolls],
            "track": track,
            "objective": None if self.objective is None else {
                "roll": self.objective.roll, "name": self.objective.name, "enemy": self.objective.enemy,
                "range": self.objective.range},
        }


STEPS_TENS = [f"steps roll {i + 1} (tens)" for i in range(6)]
STEPS_UNITS = [f"steps roll {i + 1} (units)" for i in range(6)]

_TERM = re.compile(r"^(\d*)d3$|^(\d+)$")


def roll_count(expr: str, dice: Dice, purpose: str, record: list[int]) -> int:
    """'1', '1d3', '1d3+1', '2+1d3' -> a number, rolling d3s as halved d6s."""
    total = 0
    for term in expr.replace(" ", "").split("+"):
        m = _TERM.match(term)
        if not m:
            raise SheetsError(f"cannot roll count {expr!r} (use N, 1d3 or sums of them)")
        if m.group(2) is not None:
            total += int(m.group(2))
        else:
            for _ in range(int(m.group(1) or 1)):
                face = dice.d6(purpose)
                record.append(face)
                total += (face + 1) // 2
    return total


def count_max(expr: str) -> int:
    """The largest value a count ('1', '1d3', '1d3+1', '2+1d3') can roll."""
    total = 0
    for term in expr.replace(" ", "").split("+"):
        m = _TERM.match(term)
        if not m:
            raise SheetsError(f"cannot roll count {expr!r} (use N, 1d3 or sums of them)")
        total += int(m.group(2)) if m.group(2) is not None else 3 * int(m.group(1) or 1)
    return total


def row_steps(data: WotwData, row) -> int:
    """The most steps one roll on a Steps table row can give: its own and its then: rolls' longest."""
    n = len(row.steps or [])
    if row.then is not None:
        sub = data.table(row.then.table)
        n += count_max(row.then.count) * max(len(r.steps or []) for r in sub.rows)
    return n


#: the target approach is 3+1d3 rolls on the Steps table (MissionRoller.roll, step 3)
APPROACH_MAX = 3 + 3


def longest_track(data: WotwData) -> int:
    """The most steps a Mission Track can hold, from the tables as they are: the longest
    opening (airborne or beachhead, one at most), 3+1d3 = 6 rolls each on the Steps table's
    longest row (a Town row: 2+1d3 = 5 rolls of 2 steps), then the longest objective. Regrouping
    steps added by Wind events during play are kept in their own boxes, not on the track."""
    tables = {t.id: t for t in data.tables.tables}
    opening = max((sum(count_max(st.count) for st in (r.stages or []))
                   for tid in ("airborne", "beachhead") if tid in tables for r in tables[tid].rows), default=0)
    longest = 0
    for theatre in data.theatres.theatres:
        steps, objective = tables[theatre.tables.steps], tables[theatre.tables.objective]
        approach = APPROACH_MAX * max(row_steps(data, r) for r in steps.rows)
        longest = max(longest, opening + approach + max(len(r.steps or []) for r in objective.rows))
    return longest


class MissionRoller:
    """Rolls missions for one content set; lookups are indexed once."""

    def __init__(self, data: WotwData):
        self.data = data
        self._index = {t.id: t.index() for t in data.tables.tables}
        # what each row "gave", in words, computed once per row (the audit trail prints it)
        self._hit: dict[int, str] = {}
        for t in data.tables.tables:
            for row in t.rows:
                hit = ", ".join(row.steps or [])
                if row.then is not None:
                    hit += (", then " if hit else "") + f"{row.then.count} on the {row.then.table} table"
                if row.name is not None and t.id.startswith("objective"):
                    hit = f"{row.name}: {hit}"
                self._hit[id(row)] = hit
        self._resolved: dict[tuple[str, str], str | None] = {}

    def _row(self, table_id: str, result: int):
        return self._index[table_id][result]

    def roll(self, dice: Dice, theatre_id: str, nation_id: str | None = None, *, airborne: bool = False,
             beachhead: bool = False, engineers: bool = False, strike_step: int | None = None,
             number: int = 1) -> Mission:
        """A mission rolled in the seed's order: weather, an airborne or beachhead opening, the
        target approach and the Steps table, the objective; then its track (a step struck)."""
        data = self.data
        theatre = data.theatre(theatre_id)
        nation_id = nation_id or theatre.nations[0]
        data.nation(nation_id)  # unknown nation -> clear error
        if nation_id not in theatre.nations:
            raise SheetsError(f"nation {nation_id!r} does not fight in {theatre.name}; "
                              f"choose {' or '.join(theatre.nations)}")
        if strike_step is not None and not engineers:
            raise Refused("only a team with an Engineer may strike a step (the Engineers optional rule)",
                          code="strike-needs-engineers-rule")
        enemy = next(n for n in theatre.nations if n != nation_id)
        m = Mission(seed=dice.seed, dice=dice.describe, theatre=theatre.id, theatre_name=theatre.name,
                    nation=nation_id, enemy=enemy, weather=None, airborne=None, beachhead=None,
                    engineers=engineers, number=number)
        self._weather(m, theatre, dice)
        steps: list[tuple[str, str, str]] = [(t, g, g) for t, g in self._opening(m, dice, airborne, beachhead)]
        steps += self._approach(m, theatre, dice)
        row, forces, objective_steps = self._objective(m, theatre, dice, enemy)
        steps += objective_steps
        self._track(m, steps, forces, row.range, strike_step)
        return m

    def _weather(self, m: Mission, theatre, dice: Dice) -> None:
        """1. the weather."""
        if theatre.weather is not None:
            face = dice.d6("weather")
            row = self._row(theatre.weather.table, face)
            m.weather = row.weather
            m.rolls.append(TableRoll(theatre.weather.table, [face], face, row.roll, row.text or row.weather))

    def _opening(self, m: Mission, dice: Dice, airborne: bool, beachhead: bool) -> list[tuple[str, str]]:
        """2. airborne, otherwise beachhead: the opening steps, as (terrain, group)."""
        opening: list[tuple[str, str]] = []
        for flag, table_id in ((airborne, "airborne"), (beachhead, "beachhead")):
            if not flag:
                continue
            face = dice.d6(table_id)
            row = self._row(table_id, face)
            happened = bool(getattr(row, table_id))
            setattr(m, table_id, happened)
            m.rolls.append(TableRoll(table_id, [face], face, row.roll,
                                     f"{table_id} mission" if happened else f"no {table_id}"))
            if happened:
                for stage in row.stages or []:
                    faces: list[int] = []
                    count = roll_count(stage.count, dice, f"{stage.terrain} count", faces)
                    if faces:
                        m.rolls.append(TableRoll(f"{table_id}: {stage.terrain} x{stage.count}", faces, count,
                                                 stage.count, f"{count} {stage.terrain} step{'s' if count != 1 else ''}"))
                    opening += [(stage.terrain, table_id)] * count
                break
        return opening

    def _approach(self, m: Mission, theatre, dice: Dice) -> list[tuple[str, str, str]]:
        """3. the target approach, 4. the Steps table: the steps, as (terrain, group, source)."""
        main_group = theatre.tables.events
        steps: list[tuple[str, str, str]] = []
        face = dice.d6("target approach 1d3")
        rolls_on_steps = 3 + (face + 1) // 2
        m.rolls.append(TableRoll("target approach 3+1d3", [face], rolls_on_steps, "3+1d3",
                                 f"{rolls_on_steps} rolls on the Steps table"))
        for i in range(rolls_on_steps):
            tens, units = dice.d6(STEPS_TENS[i]), dice.d6(STEPS_UNITS[i])
            result = tens * 10 + units
            row = self._row(theatre.tables.steps, result)
            m.rolls.append(TableRoll(theatre.tables.steps, [tens, units], result, row.roll, self._hit[id(row)]))
            steps += [(s, main_group, f"steps {result}") for s in row.steps or []]
            if row.then is not None:
                faces: list[int] = []
                count = roll_count(row.then.count, dice, f"{row.then.table} count", faces)
                m.rolls.append(TableRoll(f"{row.then.table} count {row.then.count}", faces, count, row.then.count,
                                         f"{count} roll{'s' if count != 1 else ''} on the {row.then.table} table"))
                for _ in range(count):
                    sub = dice.d6(row.then.table)
                    sub_row = self._row(row.then.table, sub)
                    m.rolls.append(TableRoll(row.then.table, [sub], sub, sub_row.roll, self._hit[id(sub_row)]))
                    steps += [(s, main_group, f"{row.then.table} {sub}") for s in sub_row.steps or []]
        return steps

    def _objective(self, m: Mission, theatre, dice: Dice, enemy: str):
        """5. the objective: its row, the enemy's forces as they show, and its steps."""
        tens, units = dice.d6("objective (tens)"), dice.d6("objective (units)")
        result = tens * 10 + units
        row = self._row(theatre.tables.objective, result)
        m.rolls.append(TableRoll(theatre.tables.objective, [tens, units], result, row.roll, self._hit[id(row)]))
        # the enemy's weapon swap (a Flamethrower its team table lacks is an SMG*) on every cell showing its forces
        forces = self.data.nation(enemy).as_enemy(row.enemy) if row.enemy else row.enemy
        m.objective = Objective(roll=result, name=row.name, enemy=forces, range=row.range)
        return row, forces, [(s, theatre.tables.events, f"objective {result}") for s in row.steps or []]

    def _track(self, m: Mission, steps: list[tuple[str, str, str]], forces, range_, strike_step: int | None) -> None:
        """The track: each step with its cover; the last shows the objective's enemy; a step struck."""
        covers = self._resolved
        for n, (name, group, source) in enumerate(steps, 1):
            key = (group, name)
            if key not in covers:
                resolved = self.data.terrain(group, name)
                covers[key] = resolved.cover if resolved else None
            m.track.append(Step(n, name, covers[key], source, group))
        last = m.track[-1]
        last.enemy, last.range = forces, range_
        if strike_step is not None:
            if not 1 <= strike_step < len(m.track):
                raise Refused(f"step {strike_step}: choose a step from 1 to {len(m.track) - 1} "
                              f"(the objective, step {len(m.track)}, cannot be struck)", code="strike-step-off-track")
            m.track[strike_step - 1].struck = True
            m.struck_step = strike_step


def roll_missions(game, dice: Dice, count: int, theatre: str, nation: str | None, **flags) -> list[Mission]:
    """`count` missions of a campaign, numbered from 1, all rolled with the same dice."""
    roller = MissionRoller(game.data)
    return [roller.roll(dice, theatre, nation, number=i + 1, **flags) for i in range(count)]
