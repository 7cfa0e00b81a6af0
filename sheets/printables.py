"""Generic printable content: card sets, card layouts, tracker kinds, token sheets.

These models are shared by every game; a game defines its cards, trackers and
tokens as data in its content folder.
"""
from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import Field, field_validator, model_validator

from sheets import limits
from sheets.blocks import Block
from sheets.validation import Strict

Id = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")


# -- cards -----------------------------------------------------------------
class Stat(Strict):
    label: str
    value: Union[str, int, float, None]


class CardBack(Strict):
    title: str
    subtitle: str | None = None
    blocks: list[Block] = []


class Card(Strict):
    id: str = Id
    title: str
    subtitle: str | None = None
    stats: list[Stat] = []
    blocks: list[Block] = []
    back: CardBack | None = None  # overrides the set's back for this card


class CardSet(Strict):
    id: str = Id
    title: str
    size: str = "poker"
    back: CardBack | None = None
    cards: list[Card] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique_ids(self):
        seen: set[str] = set()
        for card in self.cards:
            if card.id in seen:
                raise ValueError(f"card id {card.id!r} is used twice")
            seen.add(card.id)
        return self


class PaperSize(Strict):
    width_mm: float = Field(gt=0, le=limits.MAX_PAPER_MM)
    height_mm: float = Field(gt=0, le=limits.MAX_PAPER_MM)


class CardSize(Strict):
    width_mm: float = Field(gt=0, le=limits.MAX_CARD_MM)
    height_mm: float = Field(gt=0, le=limits.MAX_CARD_MM)
    font_pt: float = Field(7.5, ge=4, le=14)
    margin_mm: float = Field(3, ge=0, le=20)  # safe area: text keeps this far inside the cut line


class Layout(Strict):
    """Print geometry of an n-up card sheet (squib's 'sprue')."""

    id: str = Id
    description: str = ""
    paper: str
    card: str
    columns: int = Field(ge=1, le=20)
    rows: int = Field(ge=1, le=20)
    gutter_mm: float = Field(0, ge=0, le=100)
    bleed_mm: float = Field(0, ge=0, le=20)
    crop_marks: bool = True
    mark_length_mm: float = Field(4, gt=0, le=50)
    mark_offset_mm: float = Field(1, ge=0, le=50)


class PrintGeometry(Strict):
    papers: dict[str, PaperSize]
    card_sizes: dict[str, CardSize]
    layouts: list[Layout]
    default_layouts: dict[str, dict[str, str]]  # card size -> {paper: layout id}, for --paper a4 / letter

    @model_validator(mode="after")
    def _references(self):
        for lay in self.layouts:
            if lay.paper not in self.papers:
                raise ValueError(f"layout {lay.id!r}: unknown paper {lay.paper!r}")
            if lay.card not in self.card_sizes:
                raise ValueError(f"layout {lay.id!r}: unknown card size {lay.card!r}")
            paper, card = self.papers[lay.paper], self.card_sizes[lay.card]
            need_w = lay.columns * (card.width_mm + 2 * lay.bleed_mm) + (lay.columns - 1) * lay.gutter_mm
            need_h = lay.rows * (card.height_mm + 2 * lay.bleed_mm) + (lay.rows - 1) * lay.gutter_mm
            if need_w > paper.width_mm or need_h > paper.height_mm:
                raise ValueError(f"layout {lay.id!r}: {lay.columns}x{lay.rows} cards do not fit on {lay.paper}")
        by_id = {lay.id: lay for lay in self.layouts}
        if len(by_id) != len(self.layouts):
            raise ValueError("two layouts have the same id")
        for size, choices in self.default_layouts.items():
            if size not in self.card_sizes:
                raise ValueError(f"default_layouts: unknown card size {size!r}")
            for paper, lay_id in choices.items():
                if lay_id not in by_id:
                    raise ValueError(f"default_layouts.{size}.{paper}: unknown layout {lay_id!r}")
                if by_id[lay_id].card != size:
                    raise ValueError(f"default_layouts.{size}.{paper}: layout {lay_id!r} "
                                     f"is for {by_id[lay_id].card} cards")
        return self

    def layout(self, layout_id: str) -> Layout:
        for lay in self.layouts:
            if lay.id == layout_id:
                return lay
        from sheets.errors import SheetsError  # noqa: PLC0415

        raise SheetsError(f"unknown layout {layout_id!r}; the layouts are: {', '.join(lay.id for lay in self.layouts)}")

    def default_layout(self, size: str, paper: str) -> Layout:
        """The layout a card set of `size` uses on `paper` when no --layout is given."""
        from sheets.errors import SheetsError  # noqa: PLC0415

        if size not in self.card_sizes:
            raise SheetsError(f"unknown card size {size!r}; the sizes are: {', '.join(self.card_sizes)}")
        choices = self.default_layouts.get(size, {})
        if paper not in choices:
            raise SheetsError(f"no default layout for {size} cards on {paper} paper; "
                              f"give --layout (see `sheets layouts`)")
        return self.layout(choices[paper])


# -- trackers --------------------------------------------------------------
def summary_text(template: str, **values: int) -> str:
    """A tracker's `summary`, rendered as a bounded sandboxed Jinja template over plain numbers.

    Content may compute with the numbers (`{{ units // 2 }}`) but can reach nothing
    else, and every resource is bounded (see `sheets.expressions`).
    """
    from sheets.expressions import render  # noqa: PLC0415

    return render(template, "summary", **values)


def _check_position(key: str, pos: int, boxes: int) -> int:
    """1-based box position; negative counts from the end (-1 is the last box)."""
    resolved = pos + boxes + 1 if pos < 0 else pos
    if pos == 0 or not 1 <= resolved <= boxes:
        raise ValueError(f"{key}: position {pos} is outside 1..{boxes} (or -{boxes}..-1 counting from the end)")
    return resolved


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
    landscape: bool = False

    @model_validator(mode="after")
    def _positions(self):
        total = self.units * self.groups * self.boxes
        if total > limits.MAX_TRACKER_BOXES:
            raise ValueError(f"{self.units} units x {self.groups} groups x {self.boxes} boxes is {total:,} boxes, "
                             f"more than the {limits.MAX_TRACKER_BOXES:,} one tracker may draw")
        for key in ("circles", "premarked"):
            for pos in getattr(self, key):
                _check_position(key, pos, self.boxes)
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

    @field_validator("columns")
    @classmethod
    def _some_columns(cls, columns: list[str]) -> list[str]:
        if not columns:
            raise ValueError("a grid needs at least one column")
        return columns

    @model_validator(mode="after")
    def _prefill_columns(self):
        for col in self.prefill:
            if col not in self.columns:
                raise ValueError(f"prefill: {col!r} is not one of the columns")
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


# -- tokens ----------------------------------------------------------------
class Token(Strict):
    id: str = Id
    label: str
    detail: str | None = None
    count: int = Field(1, ge=0, le=200)
    color: str | None = Field(None, pattern=r"^#[0-9a-fA-F]{6}$")


class TokenSheet(Strict):
    title: str
    diameter_mm: float = Field(20, ge=8, le=60)
    tokens: list[Token]

    @model_validator(mode="after")
    def _something_to_print(self):
        if not any(t.count for t in self.tokens):
            raise ValueError("every token has count 0 (or there are none), so there is nothing to print")
        total = sum(t.count for t in self.tokens)
        if total > limits.MAX_TOKENS:
            raise ValueError(f"the counts add up to {total:,} tokens, more than the {limits.MAX_TOKENS:,} "
                             f"one sheet may have")
        return self
