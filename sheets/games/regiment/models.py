"""Content models for The Regiment (validated strictly; see content/regiment)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Union

from pydantic import Field, model_validator

from sheets.base.errors import SheetsError
from sheets.library.blocks import Block, ReferenceDoc
from sheets.library.kinds.notes import LOST_MARK
from sheets.library.validation import Strict

STATS = ("battle", "guts", "leadership", "lucky", "tactics")
Stat = Literal["battle", "guts", "leadership", "lucky", "tactics", "bond", "op", "smokes"]
RANGES = ("tight", "close", "near", "far", "extreme")


class Rank(Strict):
    name: str
    abbr: str

    @property
    def full(self) -> str:
        return f"{self.name} ({self.abbr})"


class StatLine(Strict):
    battle: int = Field(ge=-3, le=3)
    guts: int = Field(ge=-3, le=3)
    leadership: int = Field(ge=-3, le=3)
    lucky: int = Field(ge=-3, le=3)
    tactics: int = Field(ge=-3, le=3)

    def as_dict(self) -> dict[str, int]:
        return {s: getattr(self, s) for s in STATS}


class StatChoice(Strict):
    stat_sets: list[StatLine] | None = None
    assign: list[int] | None = None
    assign_text: str | None = None

    @model_validator(mode="after")
    def _one_way(self):
        if (self.stat_sets is None) == (self.assign is None):
            raise ValueError("give either stat_sets or assign")
        if self.assign is not None and len(self.assign) != len(STATS):
            raise ValueError(f"assign needs {len(STATS)} values, one per stat")
        return self


class Track(Strict):
    id: str
    label: str
    boxes: int = Field(ge=1, le=12)
    premarked: list[int] = []
    end_label: str
    total: Literal["tough", "grit"] | None = None  # the box after end_label holds the character's total


class Protection(Strict):
    """What a move or a piece of gear gives for good ("You get 1-grit"; "Kevlar vest (1-tough)").

    Situational protection ("when you assault ..., gain 1-tough") is not listed: it is not a total.
    """

    tough: int = Field(0, ge=0, le=3)
    grit: int = Field(0, ge=0, le=3)
    source: str | None = None  # how the sheet names it; a move is named by its name


class Experience(Strict):
    boxes: int = Field(ge=1, le=12)
    premarked: list[int] = []
    end_label: str


class LabelledItems(Strict):
    label: str
    items: list[str]


class Improvements(Strict):
    basic: list[str]
    advanced: LabelledItems
    final: LabelledItems


class Outcomes(Strict):
    hit: str | None = None
    strong: str | None = None
    weak: str | None = None
    miss: str | None = None


class StatBonus(Strict):
    """A move that changes a stat for good (Battle tested: +1battle, max +3)."""

    stat: Literal["battle", "guts", "leadership", "lucky", "tactics"]
    by: int = Field(ge=1, le=3)
    max: int = Field(ge=-3, le=3)


class Move(Strict):
    name: str
    stat_bonus: StatBonus | None = None
    gives: Protection | None = None
    roll: Stat | None
    roll_text: str | None = None
    tag: str | None = None
    text: str
    outcomes: Outcomes | None = None
    options: list[str] = []
    extra_blocks: list[Block] = []


class Loadout(Strict):
    name: str
    text: str


class Playbook(Strict):
    id: str = Field(pattern=r"^[a-z][a-z0-9-]*$")
    name: str
    intro: str
    ranks: list[Rank] = Field(min_length=1)
    stats: StatChoice
    tracks: list[Track]
    experience: Experience
    improvements: Improvements
    mark_xp_when: list[str]
    moves_intro: str
    choose_moves: int = Field(ge=0)
    moves: list[Move] = Field(min_length=1)
    loadouts: list[Loadout] = Field(min_length=1)
    loadout_choose: str | None = None  # the heading's "Choose one", when this playbook's differs
    armor: str | None = None
    armor_gives: Protection | None = None  # what the armour gives (source: its name)
    also: str
    # the barter smokes a new soldier starts with, from `also` ("barter worth 3-smokes"): the SMOKES box
    smokes: int | None = Field(None, ge=0, le=12)

    @model_validator(mode="after")
    def _enough_moves(self):
        if self.choose_moves > len(self.moves) - 1:
            raise ValueError(f"choose_moves is {self.choose_moves} but only {len(self.moves) - 1} moves can be chosen")
        return self

    @property
    def own_move(self) -> Move:
        return self.moves[0]

    def track(self, track_id: str) -> Track | None:
        return next((t for t in self.tracks if t.id == track_id), None)


class VofTable(Strict):
    header: list[Union[str, int]]
    rows: list[list[str]]
    notes: list[str] = []


class SheetFields(Strict):
    title: str
    edition: str
    rank: str
    name: str
    profile: str
    background: str
    deployment: str
    stats: str
    stats_choose: str
    stat_boxes: list[str]
    squad_heading: str
    squad: list[str]
    experience: str
    improvements: str
    mark_xp: str
    moves: str
    loadout: str
    loadout_choose: str
    armor: str
    also: str
    other_equipment: str
    conditions: str = "CONDITIONS"
    # the tracks' legend: the grey boxes, the recovery line, the critical box (its tag: critical_tag)
    track_legend: str = ""
    critical_tag: str = "CRIT"


class Lists(Strict):
    profiles: list[str] = Field(min_length=1)
    backgrounds: list[str] = Field(min_length=1)
    names: list[str] = Field(min_length=1)
    vof: VofTable
    sheet_fields: SheetFields


class MoveGroup(Strict):
    id: str
    title: str
    moves: list[Move]


class BasicMoves(Strict):
    groups: list[MoveGroup]
    recovery: str


# -- GM material ------------------------------------------------------------
class Weapon(Strict):
    name: str
    damage: str | None
    ranges: list[Literal["tight", "close", "near", "far", "extreme"]]
    tags: list[str]
    description: str | None = None


class WeaponCategory(Strict):
    id: str
    title: str
    weapons: list[Weapon]


class Weapons(Strict):
    categories: list[WeaponCategory]


#: what a tag the rules use but never define prints in place of a meaning (Setup, Loud, Quiet): the
#: write-in box of a value the source lost, which the notes page (designers_notes.yaml) explains
UNDEFINED_TAG_TEXT = LOST_MARK


class Tag(Strict):
    id: str
    name: str
    text: str | None

    @property
    def printed(self) -> str:
        """The tag's meaning as printed: its text, or the write-in box of a meaning the rules never give."""
        return self.text if self.text is not None else UNDEFINED_TAG_TEXT


class Tags(Strict):
    tags: list[Tag]


class VehicleWeapon(Strict):
    mount: str | None = None
    name: str
    damage: str | None
    ranges: list[Literal["tight", "close", "near", "far", "extreme"]]
    tags: list[str]


class Armor(Strict):
    front: int
    side: int
    rear: int
    top: int


class Vehicle(Strict):
    name: str
    crew: int
    weapons: list[VehicleWeapon]
    armor: Armor | None
    armor_text: str | None = None
    advantages: list[str] = []


class Vehicles(Strict):
    intro: str
    vehicles: list[Vehicle]


class BattlePlan(Strict):
    id: str
    name: str
    goal: str
    methods: list[str]
    considerations: list[str]


class UsingPlans(Strict):
    title: str
    blocks: list[Block]


class BattlePlans(Strict):
    plans: list[BattlePlan]
    using: UsingPlans


class GmMoveGroup(Strict):
    id: str
    title: str
    moves: list[str]


class GmMoves(Strict):
    groups: list[GmMoveGroup]


Elements = ReferenceDoc


@dataclass
class RegimentData:
    """Everything The Regiment's content folder holds, loaded and checked."""

    playbooks: dict[str, Playbook]
    lists: Lists
    basic_moves: BasicMoves
    weapons: Weapons | None = None
    tags: Tags | None = None
    vehicles: Vehicles | None = None
    battle_plans: BattlePlans | None = None
    gm_moves: GmMoves | None = None
    elements: ReferenceDoc | None = None

    def playbook(self, name: str) -> Playbook:
        key = name.strip().lower()
        for pb in self.playbooks.values():
            if key in (pb.id, pb.name.lower()):
                return pb
        raise SheetsError(f"unknown playbook {name!r}; choose one of: {', '.join(self.playbooks)}")
