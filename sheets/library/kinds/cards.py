"""Card sets and the print geometry of card sheets (card sizes, n-up layouts on the papers of
`sheets.base.paper`, the one table of papers); print shops' presets and the card colours' palette
(each colour defined once, in RGB and in CMYK)."""
from __future__ import annotations

import difflib
from pathlib import Path
import re
from typing import TYPE_CHECKING, Any, Literal, Union

from pydantic import Field, PrivateAttr, field_validator, model_validator

from sheets.base import limits
from sheets.base.errors import SheetsError
from sheets.base.paper import TABLE, Paper
from sheets.library import assets
from sheets.library.blocks import Block
from sheets.library.ids import COLOUR_OR_NAME, IMAGE_FILE, Id
from sheets.library.kinds import ContentKind
from sheets.library.validation import Strict

if TYPE_CHECKING:
    from sheets.library.files import FileLoader


class Stat(Strict):
    label: str
    value: Union[str, int, float, None]


class CardBack(Strict):
    title: str
    subtitle: str | None = None
    blocks: list[Block] = []
    image: str | None = Field(None, pattern=IMAGE_FILE)  # the whole back, to the bleed: art from the game's images/


class Weapon(Strict):
    """A weapon a card's unit carries, printed as one line of its numbers (issue 47/48: a unit card
    says what its weapon does, not which table to look it up in). `table` names the section of the
    game's reference.yaml whose table has the weapon's row, `row` that row's first cell (the
    weapon's name when not given): its numbers are the table's, read when the content loads, so
    the card and the reference never differ. A weapon no table has: give its `stats`, or none
    (a name alone)."""

    name: str
    table: str | None = None
    row: str | None = None
    stats: list[Stat] | None = None  # from the table's row when `table` is given


class Card(Strict):
    id: str = Id
    title: str
    subtitle: str | None = None
    stats: list[Stat] = []
    weapons: list[Weapon] = []
    blocks: list[Block] = []
    back: CardBack | None = None  # overrides the set's back for this card
    #: its text is short by nature (a card of one rule, a weapon without tags): the card-fill
    #: measure (tests/kinds/test_card_fill.py) leaves it out of its set's median
    short: bool = False
    count: int = Field(1, ge=1, le=limits.MAX_CARD_COUNT)  # copies of it in the deck
    colour: str | None = Field(None, pattern=COLOUR_OR_NAME)  # its head's fill: #rrggbb or a theme colour's name
    image: str | None = Field(None, pattern=IMAGE_FILE)  # its art, from the game's images/
    icons: list[str] = Field([], max_length=8)  # icons of the game's icons/ (by name) in its head

    @field_validator("icons")
    @classmethod
    def _icon_names(cls, value: list[str]) -> list[str]:
        for name in value:
            if not re.match(r"^[a-z0-9][a-z0-9_-]*$", name):
                raise ValueError(f"{name!r}: an icon is named by its file's name in icons/ without .svg or .png")
        return value


class CardSet(Strict):
    id: str = Id
    title: str
    size: str = "poker"
    back: CardBack | None = None
    cards: list[Card] = Field(min_length=1)


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
    card_sizes: dict[str, CardSize]
    layouts: list[Layout]
    default_layouts: dict[str, dict[str, str]]  # card size -> {paper: layout id}, for --paper a4 / letter
    _own_papers: dict[str, Paper] = PrivateAttr(default_factory=dict)  # an export's paper: one card and its bleed

    @property
    def papers(self) -> dict[str, Paper]:
        """The papers a layout may be laid on: the one table (sheets.base.paper), and an export's own."""
        return {**TABLE, **self._own_papers}

    def with_paper(self, paper: Paper) -> "PrintGeometry":
        """This geometry, with one more paper a layout may name (an export's card-sized page)."""
        changed = self.model_copy()
        changed._own_papers = {**self._own_papers, paper.name: paper}  # noqa: SLF001 - a copy of its own class
        return changed

    @model_validator(mode="after")
    def _references(self):
        for lay in self.layouts:
            if lay.paper not in TABLE:
                raise ValueError(f"layout {lay.id!r}: unknown paper {lay.paper!r}; the papers are: {', '.join(TABLE)}")
            if lay.card not in self.card_sizes:
                raise ValueError(f"layout {lay.id!r}: unknown card size {lay.card!r}")
            paper, card = TABLE[lay.paper], self.card_sizes[lay.card]
            need_w = lay.columns * (card.width_mm + 2 * lay.bleed_mm) + (lay.columns - 1) * lay.gutter_mm
            need_h = lay.rows * (card.height_mm + 2 * lay.bleed_mm) + (lay.rows - 1) * lay.gutter_mm
            if need_w > paper.width_mm or need_h > paper.height_mm:
                raise ValueError(f"layout {lay.id!r}: {lay.columns}x{lay.rows} cards do not fit on {lay.paper}")
        by_id = {lay.id: lay for lay in self.layouts}
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
        raise SheetsError(f"unknown layout {layout_id!r}; the layouts are: {', '.join(lay.id for lay in self.layouts)}")

    def default_layout(self, size: str, paper: str) -> Layout:
        """The layout a card set of `size` uses on `paper` when no --layout is given."""
        if size not in self.card_sizes:
            raise SheetsError(f"unknown card size {size!r}; the sizes are: {', '.join(self.card_sizes)}")
        choices = self.default_layouts.get(size, {})
        if paper not in choices:
            raise SheetsError(f"no default layout for {size} cards on {paper} paper; "
                              f"give --layout (see `sheets layouts`)")
        return self.layout(choices[paper])


# -- print shops (content/_print/shops.yaml) and the card colours (content/_print/palette.yaml) --
MM_PER_INCH = 25.4
HEX = re.compile(r"^#[0-9a-fA-F]{6}$")


class ShopCard(Strict):
    """One card size a shop prints: our card size, and the template's pixels (card and bleed)."""

    card: str
    pixels: tuple[int, int] | None = None


class Shop(Strict):
    title: str
    format: Literal["png", "pdf"]
    pdf: Literal["plain", "x-1a"] = "plain"
    bleed_in: float = Field(ge=0, le=0.5)
    safe_in: float = Field(ge=0, le=0.5)
    dpi: int = Field(300, ge=72, le=1200)
    ink_limit: int | None = Field(None, ge=100, le=400)
    order: Literal["fronts-then-backs", "back-front"] = "fronts-then-backs"
    cards: dict[str, ShopCard]   # a card set's size -> what the shop prints it as
    sources: dict[str, str]      # a field of this preset -> where its number comes from

    @property
    def bleed_mm(self) -> float:
        return self.bleed_in * MM_PER_INCH

    @property
    def safe_mm(self) -> float:
        return self.safe_in * MM_PER_INCH

    @model_validator(mode="after")
    def _sourced(self):
        """Every number of a preset says where it comes from."""
        need = ["bleed_in", "safe_in", "pixels" if any(c.pixels for c in self.cards.values()) else "cards"]
        need += ["format"] if self.format == "pdf" else []
        need += ["ink_limit"] if self.ink_limit is not None else []
        need += ["order"] if self.order != "fronts-then-backs" else []
        missing = [k for k in need if k not in self.sources]
        if missing:
            raise ValueError(f"sources: say where {', '.join(missing)} comes from")
        return self

    def summary(self, name: str) -> str:
        """One line for `--help` and the README."""
        sizes = ", ".join(sorted({c.card + (f" {c.pixels[0]}x{c.pixels[1]} px" if c.pixels else "")
                                  for c in self.cards.values()}))
        kind = "PDF/X-1a:2003" if self.pdf == "x-1a" else self.format.upper()
        extra = f", {self.order.replace('-', '/')} pages" if self.format == "pdf" else ""
        ink = f", ink at most {self.ink_limit} %" if self.ink_limit else ""
        return f"{name}: {self.title}, {kind} ({sizes}), bleed {self.bleed_in:g} in{extra}{ink}"


class Shops(Strict):
    shops: dict[str, Shop]


class Colour(Strict):
    rgb: str
    cmyk: tuple[float, float, float, float]  # per cent

    @field_validator("rgb")
    @classmethod
    def _hex(cls, value: str) -> str:
        if not HEX.match(value):
            raise ValueError(f"{value!r}: give #rrggbb")
        return value.lower()

    @field_validator("cmyk")
    @classmethod
    def _ink(cls, value: tuple) -> tuple:
        if any(not 0 <= v <= 100 for v in value):
            raise ValueError("each of C, M, Y, K is a per cent from 0 to 100")
        return value

    @property
    def rgb_bytes(self) -> tuple[int, int, int]:
        return tuple(int(self.rgb[i:i + 2], 16) for i in (1, 3, 5))  # type: ignore[return-value]


#: the colours the card template uses (templates/_base/card.html.j2's `c.NAME`): a palette
#: without one of them is refused where it is written, not left to a template error
CARD_COLOURS = ("ink", "frame", "frame-saver", "paper", "muted", "label", "text-soft", "rule")


class Palette(Strict):
    colours: dict[str, Colour] = Field(json_schema_extra={"required": list(CARD_COLOURS)})

    @field_validator("colours")
    @classmethod
    def _every_card_colour(cls, value: dict) -> dict:
        missing = [name for name in CARD_COLOURS if name not in value]
        if missing:
            raise ValueError(f"no {', '.join(missing)}: the card template uses every one of "
                             f"{', '.join(CARD_COLOURS)}")
        return value

    def css(self, cmyk: bool) -> dict[str, str]:
        """Each colour as CSS: `#rrggbb`, or `device-cmyk(c m y k)` for a CMYK document."""
        if not cmyk:
            return {name: c.rgb for name, c in self.colours.items()}
        return {name: "device-cmyk({})".format(" ".join(f"{v / 100:g}" for v in c.cmyk))
                for name, c in self.colours.items()}

    def by_rgb(self) -> dict[tuple[int, int, int], tuple[float, float, float, float]]:
        """RGB (0-255) -> CMYK (0-1) of every colour."""
        return {c.rgb_bytes: tuple(v / 100 for v in c.cmyk) for c in self.colours.values()}  # type: ignore[misc]


def _load(files: FileLoader, game: Any, library: Any) -> dict[str, CardSet]:
    """A game's card sets (`cards/<set>.yaml`), added to `game.card_sets` (which the reference's
    quick-reference cards and the plug-in's sets join): the set's id is its file name. The id and
    the size are checked as written, so a mistake elsewhere in the file does not hide theirs."""
    for rel in files.glob("cards/*.yaml"):
        card_set = files.model(rel, CardSet)
        written = files.data(rel)
        written = written if isinstance(written, dict) else {}
        set_id = card_set.id if card_set is not None else written.get("id")
        if isinstance(set_id, str) and set_id != Path(rel).stem:
            files.problem(rel, ("id",), f"id {set_id!r} must equal the file name {Path(rel).stem!r}")
        size = card_set.size if card_set is not None else written.get("size")
        sizes = library.card_sizes()
        if isinstance(size, str) and sizes is not None and size not in sizes:
            near = difflib.get_close_matches(size, sizes, n=1)
            hint = f"did you mean {near[0]!r}? " if near else ""
            files.problem(rel, ("size",), f"unknown card size {size!r}; {hint}"
                                          f"the sizes in _print/layouts.yaml are: {', '.join(sizes)}")
        if card_set is not None:
            _check_looks(files, game, rel, card_set)
            game.card_sets[card_set.id] = _weapon_rows(card_set, rel, files, game)
    return game.card_sets


def _weapon_rows(card_set: CardSet, rel: str, files: FileLoader, game: Any) -> CardSet:
    """Each weapon that names a reference table takes its row's numbers: every column after the
    first whose cell is not blank (a blank Fan or Ammunition is the rules' "none" or "unlimited"),
    a lost value (null) kept as lost; a column of Yes/No, such as Focus, printed as its name."""
    reference = game.content.get("reference")
    if reference is None and files.exists("reference.yaml"):
        return card_set  # the reference did not load (its own problems say why): nothing to look up
    cards = []
    for ci, card in enumerate(card_set.cards):
        weapons = []
        for wi, weapon in enumerate(card.weapons):
            weapons.append(weapon)
            if weapon.table is None:
                continue
            where = ("cards", ci, "weapons", wi)
            section = reference.section(weapon.table) if reference is not None else None
            tables = [b.table for b in section.blocks if b.table is not None] if section is not None else []
            if not tables:
                files.problem(rel, (*where, "table"), f"no table in a section {weapon.table!r} of reference.yaml")
                continue
            name = weapon.row or weapon.name
            found = next(((t.header, row) for t in tables for row in t.rows if row and str(row[0]) == name), None)
            if found is None:
                rows = ", ".join(str(r[0]) for t in tables for r in t.rows if r)
                files.problem(rel, (*where, "row"), f"no row {name!r} in the table of {weapon.table!r}; its rows: {rows}")
                continue
            header, row = found
            stats = []
            for label, value in zip(header[1:], row[1:]):
                if value == "" or (isinstance(value, str) and value.casefold() == "no"):
                    continue
                if isinstance(value, str) and value.casefold() == "yes":
                    stats.append(Stat(label=str(label), value=""))
                else:
                    stats.append(Stat(label=str(label), value=value))
            weapons[-1] = weapon.model_copy(update={"stats": stats})
        cards.append(card.model_copy(update={"weapons": weapons}) if card.weapons else card)
    return card_set.model_copy(update={"cards": cards})


def _theme_colours(files: FileLoader) -> dict[str, str]:
    """The colours theme.yaml names, as written (checked with the theme)."""
    if not files.exists("theme.yaml"):
        return {}
    files.document("theme.yaml")
    written = files.data("theme.yaml")
    colours = written.get("colours") if isinstance(written, dict) else None
    return colours if isinstance(colours, dict) else {}


def _check_looks(files: FileLoader, game: Any, rel: str, card_set: CardSet) -> None:
    """Each card's art, icons and colour, and each back's art, name a file or colour the game has, at
    the line that names it."""
    named = None
    icons = assets.icon_names(game.folder)
    images: list[tuple[tuple, str | None]] = [(("back", "image"), card_set.back.image)] if card_set.back else []
    images += [(("cards", i, "image"), card.image) for i, card in enumerate(card_set.cards)]
    images += [(("cards", i, "back", "image"), card.back.image) for i, card in enumerate(card_set.cards) if card.back]
    for loc, image in images:
        if image is not None:
            try:
                assets.find(game.folder, "images", image)
            except SheetsError as exc:
                files.problem(rel, loc, str(exc).split(": ", 1)[1])
    for i, card in enumerate(card_set.cards):
        for j, icon in enumerate(card.icons):
            if icon not in icons:
                near = difflib.get_close_matches(icon, icons, n=1)
                hint = f"did you mean {near[0]!r}? " if near else ""
                files.problem(rel, ("cards", i, "icons", j),
                              f"no icon {icon!r} in icons/; {hint}the icons are: {', '.join(icons) or 'none'}")
        if card.colour is not None and not card.colour.startswith("#"):
            named = _theme_colours(files) if named is None else named
            if card.colour not in named:
                near = difflib.get_close_matches(card.colour, list(named), n=1)
                hint = f"did you mean {near[0]!r}? " if near else ""
                files.problem(rel, ("cards", i, "colour"), f"no colour {card.colour!r} in theme.yaml's colours; "
                                                            f"{hint}they are: {', '.join(named) or 'none'}")


CONTENT = ContentKind("cards", CardSet, "cards/*.yaml", "a card set, cards/<set>.yaml", rank=1, load=_load)
