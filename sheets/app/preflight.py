"""What printing would fail on, found by `validate` first (issue 49): each a problem at the content
file, line and field that causes it, with the rest of `validate`'s problems, before any layout.

- a card whose text does not fit its card (the layout's model, `sheets.kinds.cards.fit`, at the card
  size's own size: the size printing starts from; a set with a card near the limit, and every set of
  a game with its own templates, whose sizes and boxes the model does not know, is laid out as
  printing lays it out, through the PDF cache);
- a gauge larger than the printable area of A4 or Letter (the kit prints on either);
- a token label whose widest word is wider than the circle at its line (it would run onto the next
  token: the label is set at its size's floor and cannot shrink further);
- a game's own templates (its templates/) rendered on its sheets: an error there names the
  template's file and line; once they render, its sheets are laid out on A4 and Letter, so that
  a box its templates fix that runs off the page or out of its column is named at that template.

The bundled templates and palette are checked where they are read (a palette without a colour the
card template uses is refused at its line: `sheets.library.kinds.cards.Palette`).
"""
from __future__ import annotations

import math
import re
import tempfile
from pathlib import Path

from sheets.base.colors import MIN_TEXT_PT
from sheets.base.errors import ContentError, Problem, SheetsError
from sheets.base.options import PrintOptions
from sheets.base.paper import TABLE, resolve
from sheets.kinds import registry, style
from sheets.kinds.cards import KIND as CARDS
from sheets.kinds.cards import builder as cards
from sheets.kinds.cards.fit import PT_PER_MM, lines, text_em
from sheets.kinds.gauges import builder as gauges
from sheets.kinds.tokens.builder import label_size_pt, token_text
from sheets.library import assets
from sheets.library.content import Game, Library
from sheets.library.yaml_source import load_yaml
from sheets.kinds.cards.impose import CardOverflowError
from sheets.pipeline.build import build
from sheets.pipeline.rendering import LayoutOverflowError
from sheets.pipeline.sheet import render_html

#: a card set with a card whose modelled text fills this much of its room is laid out for real
LAY_OUT_FROM = 0.95
#: the papers a kit prints on (a gauge must fit each)
PAPERS = ("a4", "letter")
#: of a token's diameter, its text box's width (tokens.html.j2: 13 % padding each side)
TOKEN_TEXT_SHARE = 0.74
#: a label's letters keep this far inside the token's cut line
CUT_CLEARANCE_MM = 0.5


class _Locator:
    """A game's content files read once more for their lines (only when a problem is found)."""

    def __init__(self, lib: Library, game: Game):
        self.lib, self.game = lib, game
        self.docs: dict[str, object] = {}

    def problem(self, rel: str, loc: tuple, message: str) -> Problem:
        path = self.game.folder / rel
        shown = _shown(self.lib, path)
        if rel not in self.docs:
            try:
                self.docs[rel] = load_yaml(path, shown)
            except ContentError:
                self.docs[rel] = None
        doc = self.docs[rel]
        return doc.problem(loc, message) if doc is not None else Problem(shown, None, "", message)  # type: ignore[attr-defined]


def problems(lib: Library, only: str | None = None) -> list[Problem]:
    """Every print-time problem of every game that loads (one that does not is reported by the
    loader); `only`: of that one game (`sheets pack`: another game's layout is not its business)."""
    found: list[Problem] = []
    for game_id in lib.game_ids() if only is None else [only]:
        try:
            game = lib.game(game_id)
        except SheetsError:
            continue
        where = _Locator(lib, game)
        its = _cards(lib, game, where) + _gauges(game, where) + _tokens(game, where)
        if not its and assets.own_templates(game.folder) is not None:  # its sheets can be made: render them
            its += _own_templates(lib, game)
        found += its
    return found


def _cards(lib: Library, game: Game, where: _Locator) -> list[Problem]:
    """A card whose text the model says does not fit; a set with a card near its limit is laid out
    as printing lays it out (through the PDF cache), so that no card `validate` passes runs over."""
    try:
        sizes = lib.geometry().card_sizes
    except ContentError:
        return []
    out, near = [], []
    own = assets.own_templates(game.folder) is not None
    for rel in sorted(p.relative_to(game.folder).as_posix() for p in (game.folder / "cards").glob("*.yaml")):
        card_set = game.card_sets.get(Path(rel).stem)
        if card_set is None or card_set.size not in sizes:
            continue
        size, over, close = sizes[card_set.size], False, False
        for i, card in enumerate(card_set.cards):
            need, room = cards.overrun_mm(card, size)
            if need > room:
                over = True
                out.append(_overflow(where, rel, i, card.id, card_set.size,
                                     f"its text needs about {need:.0f} mm and the card has {max(room, 0):.0f} mm for it"))
            close = close or need > LAY_OUT_FROM * room
        # a game's own templates may set any card's room (a text size, a box, padding) where the model
        # cannot see it: each of its sets is laid out as printing lays it out
        if (close or own) and not over:
            near.append((rel, card_set))
    return out + _laid_out(lib, game, where, near, own)


def _overflow(where: _Locator, rel: str, index: int, card_id: str, size: str, why: str) -> Problem:
    return where.problem(rel, ("cards", index), f"card {card_id!r} does not fit on a {size} card: {why}; "
                                                 f"shorten it, or choose a bigger size (size: in the set)")


def _laid_out(lib: Library, game: Game, where: _Locator, sets: list, own: bool = False) -> list[Problem]:
    if not sets:
        return []
    out: list[Problem] = []
    geometry = lib.geometry()
    with tempfile.TemporaryDirectory(prefix="sheets-validate-") as scratch:
        for paper in PAPERS:
            for rel, card_set in sets:
                sheet = cards.card_sheet(game, card_set, geometry, paper=paper)
                try:
                    build([sheet], Path(scratch))  # one sheet: laid out here, no workers started
                except LayoutOverflowError as exc:  # a width the game's own card template fixes
                    if not own:
                        raise  # the bundled template's own fault, not the content's: said as it is
                    out.append(_own_overflow(lib, game, sheet.template, paper, exc))
                except CardOverflowError as exc:
                    index = {c.id: i for i, c in enumerate(card_set.cards)}
                    for card_id in re.findall(r"^card '([^']+)'", str(exc), re.M):
                        if card_id in index:
                            out.append(_overflow(where, rel, index[card_id], card_id, card_set.size,
                                                 f"laid out on {paper}"
                                                 + (" with the game's own templates (templates/)" if own else "")
                                                 + ", its text runs onto a second card"))
            if out:
                break
    return out


def _gauges(game: Game, where: _Locator) -> list[Problem]:
    sheet = game.content.get("gauges")
    if sheet is None:
        return []
    out = []
    for i, gauge in enumerate(sheet.gauges):
        drawing = gauges.draw(gauge, sheet.unit)
        too_small = []
        for name in PAPERS:
            w, h = TABLE[name].width_mm, TABLE[name].height_mm
            if sheet.orientation == "landscape":
                w, h = h, w
            usable_w = w - 2 * gauges.MARGIN_MM
            usable_h = h - 2 * gauges.MARGIN_MM - gauges.HEAD_MM - gauges.FOOT_MM
            if drawing.width_mm > usable_w or drawing.outer_h > usable_h:
                too_small.append(f"{name} ({usable_w:g} x {usable_h:g} mm)")
        if too_small:
            out.append(where.problem("gauges.yaml", ("gauges", i), f"gauge {gauge.id!r} is {drawing.width_mm:g} x "
                                     f"{drawing.outer_h:g} mm: larger than the printable area of "
                                     f"{' and '.join(too_small)}; split it into pieces (ruler strips, a quarter circle)"))
    return out


def _tokens(game: Game, where: _Locator) -> list[Problem]:
    sheet = game.content.get("tokens")
    if sheet is None:
        return []
    out = []
    for i, token in enumerate(sheet.tokens):
        size = label_size_pt(token.label, sheet.diameter_mm)
        widest = max(token.label.split(), key=lambda w: text_em(w.upper(), bold=True, spacing_em=0.02), default="")
        width = text_em(widest.upper(), bold=True, spacing_em=0.02) * size / PT_PER_MM
        room = label_room_mm(token.model_copy(update={"detail": None}), sheet.diameter_mm, size)  # the label alone
        if width > room:
            out.append(where.problem("tokens.yaml", ("tokens", i, "label"), f"{widest!r} is {width:.1f} mm wide at "
                                     f"{size:g} pt, and its line of a {sheet.diameter_mm:g} mm token is {room:.1f} mm "
                                     f"inside the cut: it would run out of its circle; shorten it or give a "
                                     f"larger diameter_mm"))
        elif not token_text(token, sheet.diameter_mm).fits:
            # the label fits its line, but not with the detail under it (the template sets the
            # token's words in token_text's box: the one model of what fits)
            out.append(where.problem("tokens.yaml", ("tokens", i, "detail" if token.detail else "label"),
                                     f"its mark, label and detail, at {MIN_TEXT_PT:g} pt at least, are taller than a "
                                     f"{sheet.diameter_mm:g} mm circle holds: its lines near the top or bottom would "
                                     f"run out of the circle; shorten the detail or give a larger diameter_mm"))
    return out


def label_room_mm(token, diameter: float, size_pt: float) -> float:
    """How wide the label's lines may be and stay inside the circle (CUT_CLEARANCE_MM from the cut):
    the chord at the capitals of the label line farthest from the centre, the label and its detail centred as a
    block (tokens.html.j2: line height 1.08, the detail at the floor under the label)."""
    # the text's cell is as wide as its widest word when that is wider than the box (a table cell grows)
    widest = max((text_em(w.upper(), bold=True, spacing_em=0.02) for w in token.label.split()), default=0.0)
    box = max(diameter * TOKEN_TEXT_SHARE, widest * size_pt / PT_PER_MM)
    line = size_pt * 1.08 / PT_PER_MM
    label_h = lines(token.label, size_pt, box, bold=True, upper=True, spacing_em=0.02) * line
    detail_h = (lines(token.detail, MIN_TEXT_PT, box) * MIN_TEXT_PT * 1.08 / PT_PER_MM + 0.4) if token.detail else 0.0
    top = -(label_h + detail_h) / 2
    # a capital's height is 0.73 em, about the middle of its line: the letters' corners, not the line's box
    half_caps = 0.365 * size_pt / PT_PER_MM
    dy = max(abs(top + line / 2), abs(top + label_h - line / 2)) + half_caps
    radius = diameter / 2 - CUT_CLEARANCE_MM
    return 2 * math.sqrt(max(radius * radius - dy * dy, 0.0))


def _own_templates(lib: Library, game: Game) -> list[Problem]:
    """The game's sheets made with its own templates: rendered (an error names the template's file
    and line) and, once every one renders, laid out as printing lays them out (`_own_laid_out`)."""
    out = []
    options = PrintOptions(content=lib.root, paper=resolve(PAPERS[0]))
    rendered: list = []  # the sheets on the first paper, rendered: laid out next as they are
    for kind in registry.kit_kinds(game):
        if kind.make is None:
            continue
        try:
            sheets = style.made(kind, lib, game, options, None)
            for sheet in sheets:
                render_html(sheet)
            rendered += [] if kind is CARDS else sheets  # the cards: laid out by `_cards`
        except SheetsError as exc:
            located = re.match(r"^(\S+?):(\d+): (.*)$", str(exc), re.S)  # a template error: FILE:LINE: what
            out.append(Problem(located[1], int(located[2]), "", located[3]) if located else
                       Problem(_shown(lib, game.folder / "templates"), None, "", str(exc)))
    return out or _own_laid_out(lib, game, rendered)


def _own_overflow(lib: Library, game: Game, template: str, paper: str, exc: Exception) -> Problem:
    """A sheet that runs out of its columns (or cannot be made) with the game's own templates: at
    the game's own template of that sheet when it has one (else at its templates folder), in one line."""
    own = game.folder / "templates" / template
    where = own if own.is_file() else game.folder / "templates"
    return Problem(_shown(lib, where), None, "", f"laid out on {paper} with the game's own templates, {_one_line(exc)}")


def _one_line(exc: Exception) -> str:
    """A layout's message (its title, each box that runs over, what to do) as one line."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return " ".join(lines[:1] + ["; ".join(lines[1:])])


def _shown(lib: Library, path: Path) -> str:
    return str(path.relative_to(lib.root.parent)) if path.is_relative_to(lib.root.parent) else str(path)


def _own_laid_out(lib: Library, game: Game, first: list) -> list[Problem]:
    """The game's sheets (its cards apart: `_cards` lays them out) laid out on each paper a kit
    prints on, one at a time in this process and through the PDF cache (the kit that follows takes
    them from there): what the game's own templates fix (a width, a height, a size) that runs off
    its page or out of its column is found here, at the template of the sheet it breaks, not by
    the kit that would leave the game out. `first`: its sheets on the first paper, made already."""
    out: list[Problem] = []
    with tempfile.TemporaryDirectory(prefix="sheets-validate-") as scratch:
        for paper in PAPERS:
            options = PrintOptions(content=lib.root, paper=resolve(paper))
            sheets = first if paper == PAPERS[0] else [
                sheet for kind in registry.kit_kinds(game) if kind.make is not None and kind is not CARDS
                for sheet in style.made(kind, lib, game, options, None)]
            for sheet in sheets:
                try:
                    build([sheet], Path(scratch))  # one sheet: laid out here, no workers started
                except SheetsError as exc:  # a box run over (LayoutOverflowError), or what else stops it
                    out.append(_own_overflow(lib, game, sheet.template, paper, exc))
            if out:
                break
    return out
