"""The design system as data: the kit's base theme (content/_print/design.yaml: one type scale of
named roles with their floors, one heading scale, one casing rule, spacing and rules, the neutral
colours, the large-print edition) and each game's look on top of it (content/<game>/theme.yaml:
accent colour, title face, header band, card frame and back).

Every template reads the resolved theme as CSS custom properties (`Theme.css`, made by
`sheets.kinds.style`), so a size, a colour or a face is written once, here. The colours of two
roles are markers as well as colours: text in the `note` colour is a note or caption (floor
`type.note`), text in the `footer` colour a running footer (floor `type.footer`); every other
text is held to the floor of text read in play (tests/floors.py reads them back from the PDFs),
so neither colour is used by any other role (`_markers_are_unique`).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, Union

from pydantic import Field, model_validator

from sheets.base import colors, fonts
from sheets.base.errors import ContentError, SheetsError
from sheets.library import assets
from sheets.library.ids import Id
from sheets.library.kinds import ContentKind
from sheets.library.validation import Strict

if TYPE_CHECKING:
    from sheets.library.files import FileLoader

Colour = Field(pattern=r"^#[0-9a-fA-F]{6}$")
BundledFace = Literal[tuple(fonts.TITLE_FACES)]  # type: ignore[valid-type]
#: a face of the game's own: a font file of its fonts/ folder (sheets.library.assets)
OwnFace = Annotated[str, Field(pattern=r"^fonts/[^/\\]+\.(ttf|otf|woff|woff2)$")]
TitleFace = Union[BundledFace, OwnFace]  # type: ignore[valid-type]
#: the levels of grey two inks must differ by to stay apart on a mono laser (issue 47)
GREY_LEVELS_APART = 25


class Role(Strict):
    """A role of the type scale: the size it is set at and the smallest it may ever print at."""

    size_pt: float = Field(ge=4, le=40)
    floor_pt: float = Field(ge=4, le=40)

    @model_validator(mode="after")
    def _size_over_floor(self):
        if self.size_pt < self.floor_pt:
            raise ValueError(f"size_pt {self.size_pt} is under its floor_pt {self.floor_pt}")
        return self


class TypeScale(Strict):
    play: Role    # text read in play: rules, tables, events, fire factors, rules on cards and tokens
    note: Role    # notes under tables, captions
    footer: Role  # running footers, page numbers


class Headings(Strict):
    """The one heading scale (pt): a part's title, a section, a block's heading, a card's title."""

    title_pt: float = Field(ge=8, le=40)
    section_pt: float = Field(ge=7.5, le=24)
    block_pt: float = Field(ge=7.5, le=18)
    card_title_pt: float = Field(ge=7.5, le=24)


class Spacing(Strict):
    """The spacing steps (mm) and rule weights (pt) every template takes its gaps and lines from."""

    xs_mm: float = Field(ge=0, le=5)
    s_mm: float = Field(ge=0, le=10)
    m_mm: float = Field(ge=0, le=20)
    l_mm: float = Field(ge=0, le=40)
    hair_pt: float = Field(ge=0.1, le=2)
    rule_pt: float = Field(ge=0.1, le=3)
    heavy_pt: float = Field(ge=0.1, le=5)


class Neutrals(Strict):
    ink: str = Colour         # body text
    paper: str = Colour
    note: str = Colour        # notes and captions: this colour only (a marker)
    footer: str = Colour      # running footers: this colour only (a marker)
    soft: str = Colour        # secondary text (sub-titles, labels), held to the play floor
    rule: str = Colour        # rules and cell borders
    head_fill: str = Colour   # table heads (light text on it)


class LargePrint(Strict):
    """The large-print edition (--large-print): every floor raised to one size, high contrast."""

    floor_pt: float = Field(ge=10, le=24)
    colours: Neutrals


class BaseTheme(Strict):
    type: TypeScale
    headings: Headings
    casing: Literal["uppercase", "as-written"]  # section and block headings; titles are as written
    spacing: Spacing
    colours: Neutrals
    large_print: LargePrint

    @model_validator(mode="after")
    def _markers_are_unique(self):
        for palette in (self.colours, self.large_print.colours):
            values = palette.model_dump()
            for marker in ("note", "footer"):
                others = [k for k, v in values.items() if k != marker and v.lower() == values[marker].lower()]
                if others:
                    raise ValueError(f"the {marker} colour marks {marker}s only; {', '.join(others)} has it too")
        return self


class CardLook(Strict):
    frame: str = Colour   # the card's frame, and its border into the bleed
    back: str = Colour    # the back's fill


class GameLook(Strict):
    """content/<game>/theme.yaml: how a game looks beside the others."""

    accent: str = Colour       # heads, the header band, card heads (light text on it)
    title_face: TitleFace = "dejavu-condensed"
    band: str | None = Field(None, min_length=1, max_length=60)  # the header band's words; None: the game's title
    card: CardLook | None = None  # None: frame and back in the accent
    #: named colours a card's `colour:` may name (a faction's, a style's): its head is set on it
    colours: dict[Annotated[str, Id], Annotated[str, Colour]] = Field(default_factory=dict, max_length=64)

    @model_validator(mode="after")
    def _readable_and_apart(self):
        light = colors.LIGHT
        if colors.contrast(light, self.accent) < colors.MIN_CONTRAST:
            raise ValueError(f"accent {self.accent}: white text on it reaches only "
                             f"{colors.contrast(light, self.accent):.2f}:1 (at least {colors.MIN_CONTRAST}:1)")
        for name, colour in self.colours.items():
            if colors.contrast(colors.text_on(colour), colour) < colors.MIN_CONTRAST:
                raise ValueError(f"colours.{name} {colour}: no text on it reaches {colors.MIN_CONTRAST}:1")
        ink = grey_level(colors.DARK)
        if abs(grey_level(self.accent) - ink) < GREY_LEVELS_APART:
            raise ValueError(f"accent {self.accent} prints as the same grey as black text "
                             f"({grey_level(self.accent):.0f} and {ink:.0f} of 255)")
        return self


def grey_level(hex_colour: str) -> float:
    """The grey (0-255) a colour prints as on a mono printer (Rec. 601 luma)."""
    h = hex_colour.lstrip("#")
    r, g, b = (int(h[i:i + 2], 16) for i in (0, 2, 4))
    return 0.299 * r + 0.587 * g + 0.114 * b


DEFAULT_LOOK = GameLook(accent="#2b2f33")  # a game without a theme.yaml: a dark slate, the base face


@dataclass(frozen=True)
class Theme:
    """A game's look on the base theme: what its sheets' CSS says (`sheets.kinds.style.css`)."""

    base: BaseTheme
    look: GameLook
    band: str  # the header band's words
    own_face: Path | None = None  # the title face's file when it is the game's own (fonts/...), checked

    @property
    def frame(self) -> str:
        return self.look.card.frame if self.look.card else self.look.accent

    @property
    def back(self) -> str:
        return self.look.card.back if self.look.card else self.look.accent

    def fills(self) -> dict[str, str]:
        """Every fill a text of the theme is set on (name -> colour): the contrast test's pairs."""
        c = self.base.colours
        return {"paper": c.paper, "head_fill": c.head_fill, "accent": self.look.accent, "back": self.back}


def _load(files: FileLoader, game: Any, library: Any) -> Theme | None:
    look = files.model("theme.yaml", GameLook, required=False)
    own_face = None
    if look is not None and look.title_face not in fonts.TITLE_FACES:
        try:
            own_face = assets.find(game.folder, "fonts", look.title_face)
        except SheetsError as exc:
            files.problem("theme.yaml", ("title_face",), str(exc).split(": ", 1)[1])
            look = None
    try:
        base = library.theme()
    except ContentError as exc:  # the base theme's own problems: the game cannot print without it
        files.problems.extend(exc.problems)
        return None
    return Theme(base, look or DEFAULT_LOOK, (look.band if look and look.band else None) or game.info.title, own_face)


CONTENT = ContentKind("theme", GameLook, "theme.yaml", "a game's theme.yaml (its look: accent, title face, band, cards)",
                      rank=9, load=_load)
