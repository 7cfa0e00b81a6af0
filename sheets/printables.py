"""Generic printable content: card sets, card layouts, tracker kinds, token sheets.

These models are shared by every game; a game defines its cards, trackers and
tokens as data in its content folder.
"""
from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import Field, model_validator

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
    cards: list[Card]

    @model_validator(mode="after")
    def _unique_ids(self):
        seen: set[str] = set()
        for card in self.cards:
            if card.id in seen:
                raise ValueError(f"card id {card.id!r} is used twice")
            seen.add(card.id)
        return self


class PaperSize(Strict):
    width_mm: float
    height_mm: float


class CardSize(Strict):
    width_mm: float
    height_mm: float
    font_pt: float = 7.5


class Layout(Strict):
    """Print geometry of an n-up card sheet (squib's 'sprue')."""

    id: str = Id
    description: str = ""
    paper: str
    card: str
    columns: int = Field(ge=1)
    rows: int = Field(ge=1)
    gutter_mm: float = Field(0, ge=0)
    bleed_mm: float = Field(0, ge=0)
    crop_marks: bool = True
    mark_length_mm: float = Field(4, gt=0)
    mark_offset_mm: float = Field(1, ge=0)


class PrintGeometry(Strict):
    papers: dict[str, PaperSize]
    card_sizes: dict[str, CardSize]
    layouts: list[Layout]
    default_layouts: dict[str, str]  # card size -> layout id (on A4)

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
        ids = {lay.id for lay in self.layouts}
        for size, lay_id in self.default_layouts.items():
            if lay_id not in ids:
                raise ValueError(f"default_layouts.{size}: unknown layout {lay_id!r}")
        return self

    def layout(self, layout_id: str) -> Layout:
        for lay in self.layouts:
            if lay.id == layout_id:
                return lay
        raise KeyError(layout_id)


# -- trackers --------------------------------------------------------------
class BoxTracker(Strict):
    """Rows of units, each with groups of boxes (e.g. a team of soldiers)."""

    id: str = Id
    title: str
    kind: Literal["boxes"]
    unit_label: str
    units: int = Field(ge=1, le=200)
    groups: int = Field(1, ge=1, le=50)
    boxes: int = Field(ge=1, le=50)
    box_labels: list[str] = []
    circles: list[int] = []
    premarked: list[int] = []
    notes: bool = True
    names: list[str] = []  # designations to roll for units (optional)
    summary: str | None = None  # Jinja expression text, e.g. "MCP {{ units // 2 }}"
    footer: str | None = None

    @model_validator(mode="after")
    def _positions(self):
        for key in ("circles", "premarked"):
            for pos in getattr(self, key):
                if not 1 <= pos <= self.boxes:
                    raise ValueError(f"{key}: position {pos} is outside 1..{self.boxes}")
        if self.box_labels and len(self.box_labels) != self.boxes:
            raise ValueError(f"box_labels has {len(self.box_labels)} labels for {self.boxes} boxes")
        return self


class GridTracker(Strict):
    """A write-in table (e.g. one row per faction and wave)."""

    id: str = Id
    title: str
    kind: Literal["grid"]
    columns: list[str]
    rows: int = Field(ge=1, le=200)
    prefill: dict[str, str] = {}
    summary: str | None = None
    footer: str | None = None

    @model_validator(mode="after")
    def _prefill_columns(self):
        for col in self.prefill:
            if col not in self.columns:
                raise ValueError(f"prefill: {col!r} is not one of the columns")
        return self


TrackerKind = Union[BoxTracker, GridTracker]


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
