"""Tracker kinds: boxes to tick off, write-in grids and countdown clocks."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Annotated, Literal, Union

from pydantic import Field, field_validator, model_validator

from sheets.base import limits
from sheets.library.expressions import render
from sheets.library.ids import Id
from sheets.library.kinds import ContentKind
from sheets.library.validation import Strict

if TYPE_CHECKING:
    from sheets.library.files import FileLoader


def summary_text(template: str, **values: int) -> str:
    """A tracker's `summary`, rendered as a bounded sandboxed Jinja template over plain numbers.

    Content may compute with the numbers (`{{ units // 2 }}`) but can reach nothing
    else, and every resource is bounded (see `sheets.library.expressions`).
    """
    return render(template, "summary", **values)


def _check_position(key: str, pos: int, boxes: int) -> int:
    """1-based box position; negative counts from the end (-1 is the last box)."""
    resolved = pos + boxes + 1 if pos < 0 else pos
    if pos == 0 or not 1 <= resolved <= boxes:
        raise ValueError(f"{key}: position {pos} is outside 1..{boxes} (or -{boxes}..-1 counting from the end)")
    return resolved


class UnitField(Strict):
    """A labelled write-in on every unit of a box tracker, under its boxes: number boxes or lines.

    `boxes`: one small box per label, for a number (a vehicle's armor by facing: F, S, R, T);
    `lines`: that many write-in lines (one per crew position)."""

    label: str = Field(min_length=1, max_length=40)
    boxes: list[Annotated[str, Field(min_length=1, max_length=12)]] = Field(
        [], max_length=12, description="one box to write a number in per label, the label before it")
    lines: int = Field(0, ge=0, le=12, description="write-in lines (e.g. one per crew position)")

    @model_validator(mode="after")
    def _one_shape(self):
        if bool(self.boxes) == bool(self.lines):
            raise ValueError(f"{self.label!r}: give either boxes (labels of boxes for numbers) or lines (a count)")
        return self


class BoxTracker(Strict):
    """Rows of units, each with groups of boxes (e.g. a team of soldiers)."""

    id: str = Id
    title: str
    kind: Literal["boxes"]
    unit_label: str
    units: int = Field(ge=1, le=limits.MAX_TEAMS)
    groups: int = Field(1, ge=1, le=limits.MAX_GROUPS)
    boxes: int = Field(ge=1, le=limits.MAX_BOXES)
    box_labels: list[str] = []
    group_labels: list[str] = []  # one per group, printed before its boxes (e.g. "Major", "Minor")
    group_ends: list[str] = []    # one per group, printed after its boxes (e.g. "3: destroyed")
    circles: list[int] = []     # box positions drawn as circles, 1-based; -1 is the last box
    premarked: list[int] = []   # box positions already filled in
    notes: bool = True
    names: list[Annotated[str, Field(min_length=1)]] = []  # designations `--names` rolls for units
    # the tracker that --units/--groups/--boxes/--names change when no --tracker is named (a game
    # with several trackers; at most one may say so)
    primary: bool = False
    summary: str | None = None  # Jinja text over units, groups, boxes, e.g. "MCP {{ units // 2 }}"
    footer: str | None = None
    fields: list[Annotated[str, Field(min_length=1, max_length=40)]] = []  # write-in lines above (e.g. "Force")
    flags: list[Annotated[str, Field(min_length=1, max_length=40)]] = []   # tick boxes above (e.g. "Suppressed")
    # write-ins every unit has, on a row under its boxes (a vehicle's ARMOR by facing, its CREW)
    unit_fields: list[UnitField] = Field([], max_length=6, description=(
        "labelled write-ins on every unit, under its boxes: boxes for numbers (ARMOR F/S/R/T) or lines (CREW)"))
    landscape: bool = False
    # how many of this tracker share its page (several platoons a page), each with its own
    # write-ins; one_line: each unit on one row (its name, boxes and notes side by side), so
    # that a tracker of short tracks takes a third of the page, not the whole of it
    per_page: int = Field(1, ge=1, le=4)
    one_line: bool = False

    @model_validator(mode="after")
    def _positions(self):
        for key in ("circles", "premarked"):  # first: they need only the boxes (the units may be wrong)
            for pos in getattr(self, key):
                _check_position(key, pos, self.boxes)
        total = self.units * self.groups * self.boxes
        if total > limits.MAX_TRACKER_BOXES:
            raise ValueError(f"{self.units} units x {self.groups} groups x {self.boxes} boxes is {total:,} boxes, "
                             f"more than the {limits.MAX_TRACKER_BOXES:,} one tracker may draw")
        if self.unit_fields and self.one_line:
            raise ValueError("unit_fields print on a row of their own under each unit: not with one_line")
        if self.box_labels and len(self.box_labels) != self.boxes:
            raise ValueError(f"box_labels has {len(self.box_labels)} labels for {self.boxes} boxes")
        for key in ("group_labels", "group_ends"):
            given = getattr(self, key)
            if given and len(given) != self.groups:
                raise ValueError(f"{key} has {len(given)} labels for {self.groups} groups")
        if self.summary is not None:
            self.summary_text()
        return self

    def positions(self, key: str) -> set[int]:
        """The 1-based positions of `circles` or `premarked`, negatives resolved."""
        return {_check_position(key, pos, self.boxes) for pos in getattr(self, key)}

    def summary_text(self) -> str | None:
        if self.summary is None:
            return None
        return summary_text(self.summary, units=self.units, groups=self.groups, boxes=self.boxes)


class GridTracker(Strict):
    """A write-in table (e.g. one row per faction and wave)."""

    id: str = Id
    title: str
    kind: Literal["grid"]
    columns: list[str]
    rows: int = Field(ge=1, le=limits.MAX_TEAMS)
    prefill: dict[str, str] = {}  # column -> text written in every row; "{n}" is the row number
    summary: str | None = None    # Jinja text over rows and columns (the number of columns)
    footer: str | None = None
    fields: list[Annotated[str, Field(min_length=1, max_length=40)]] = []  # write-in lines above the table
    flags: list[Annotated[str, Field(min_length=1, max_length=40)]] = []   # tick boxes above the table
    landscape: bool = False       # a wide table: this tracker's page turns sideways
    filled: list[list[str]] = []  # rows written in advance (e.g. a scenario's forces); the rest stay blank
    widths: dict[str, float] = {}  # column -> width in mm (room to write a name); others share the rest
    # columns whose cells are a tick box to mark (a modifier that applies, a unit out), not a
    # space to write in
    ticks: list[str] = []
    # rows that belong together (the two factions of one Wave): a heavier rule between groups,
    # and "{group}" in prefill is the group's number ("{n}" the row's)
    group_rows: int = Field(1, ge=1, le=12)

    @field_validator("columns")
    @classmethod
    def _some_columns(cls, columns: list[str]) -> list[str]:
        if not columns:
            raise ValueError("a grid needs at least one column")
        return columns

    @model_validator(mode="after")
    def _prefill_columns(self):
        for key in ("prefill", "ticks"):
            for col in getattr(self, key):
                if col not in self.columns:
                    raise ValueError(f"{key}: {col!r} is not one of the columns")
        for col, width in self.widths.items():
            if col not in self.columns:
                raise ValueError(f"widths: {col!r} is not one of the columns")
            if not 5 <= width <= 250:
                raise ValueError(f"widths: {col!r} is {width:g} mm; give 5 to 250 mm")
        for i, row in enumerate(self.filled):
            if len(row) != len(self.columns):
                raise ValueError(f"filled[{i}] has {len(row)} cells but there are {len(self.columns)} columns")
        if len(self.filled) > self.rows:
            raise ValueError(f"filled has {len(self.filled)} rows but the grid has only {self.rows}")
        if self.summary is not None:
            self.summary_text()
        return self

    def summary_text(self) -> str | None:
        if self.summary is None:
            return None
        return summary_text(self.summary, rows=self.rows, columns=len(self.columns))


class ClockTracker(Strict):
    """A sheet of countdown clocks: circles cut into segments to fill in, each with a name line."""

    id: str = Id
    title: str
    kind: Literal["clocks"]
    clocks: int = Field(ge=1, le=60)
    segments: int = Field(6, ge=2, le=12)
    diameter_mm: float = Field(30, ge=12, le=80)
    # where each segment ends, in clock hours clockwise from 12 (e.g. [3, 6, 9, 10, 11, 12]), each
    # printed as "3:00"; none: equal segments, unlabelled
    hours: list[float] = []
    summary: str | None = None  # Jinja text over clocks and segments
    footer: str | None = None
    fields: list[Annotated[str, Field(min_length=1, max_length=40)]] = []  # write-in lines above
    flags: list[Annotated[str, Field(min_length=1, max_length=40)]] = []   # tick boxes above
    landscape: bool = False

    @model_validator(mode="after")
    def _hours(self):
        if self.hours:
            if len(self.hours) != self.segments:
                raise ValueError(f"hours has {len(self.hours)} entries for {self.segments} segments")
            if any(b <= a for a, b in zip([0.0] + self.hours, self.hours)) or self.hours[-1] != 12:
                raise ValueError("hours must rise from 12 o'clock clockwise and end at 12")
        if self.summary is not None:
            self.summary_text()
        return self

    def summary_text(self) -> str | None:
        if self.summary is None:
            return None
        return summary_text(self.summary, clocks=self.clocks, segments=self.segments)


TrackerKind = Union[BoxTracker, GridTracker, ClockTracker]


class TrackerFile(Strict):
    trackers: list[Annotated[TrackerKind, Field(discriminator="kind")]]


def _load(files: FileLoader, _game: Any, _library: Any) -> dict[str, TrackerKind]:
    """A game's trackers by id: one trackers.yaml, ids unique, at most one primary."""
    trackers: dict[str, TrackerKind] = {}
    tracker_file = files.model("trackers.yaml", TrackerFile, required=False)
    if tracker_file is not None:
        for tracker in tracker_file.trackers:  # ids differ: checked as the file loaded
            trackers[tracker.id] = tracker
        primaries = [i for i, t in enumerate(tracker_file.trackers) if getattr(t, "primary", False)]
        for i in primaries[1:]:
            files.problem("trackers.yaml", ("trackers", i, "primary"),
                          "only one tracker may be primary (the one numbers change without --tracker)")
    return trackers


CONTENT = ContentKind("trackers", TrackerFile, "trackers.yaml", "a game's trackers.yaml", rank=2, load=_load)
