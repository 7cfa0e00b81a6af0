"""What the CLI commands do, as plain functions (the CLI only parses and prints).

Each function loads content, rolls dice into render contexts, and only then
renders and writes (two phases). User mistakes raise SheetsError.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from sheets.app import preflight
from sheets.base import config, output
from sheets.base.errors import ContentError, Problem, SheetsError
from sheets.base.options import PrintOptions
from sheets.kinds import registry, style
from sheets.kinds.kind import Kind
from sheets.kinds.calibration import calibration_pdf, offset_from_readings, offset_text, reading
from sheets.kinds.cards import export as card_export
from sheets.kinds.cards import tts
from sheets.kinds.cards.builder import card_sheet, parse_back_offset, pick_sets
from sheets.kinds.tokens.builder import token_sheet
from sheets.kinds.trackers.builder import Overrides, apply_overrides, pick_trackers, roll_designations, tracker_sheet
from sheets.library.kinds.trackers import BoxTracker
from sheets.library.access import library, make_dice, slug
from sheets.library.content import Game, Library
from sheets.library.yaml_source import load_yaml
from sheets.pipeline.build import make_pdfs, render_html
from sheets.pdf.finish import finish_pdf
from sheets.pipeline.sheet import Sheet, ink_save
from sheets.pipeline.write import write


def validate_content(content: Path | None = None) -> list[Problem]:
    """Every problem of the content, and what printing it would fail on (sheets.app.preflight)."""
    lib = library(content)
    return lib.validate() + preflight.problems(lib)


def validate_user_files(files: list[Path], content: Path | None = None) -> list[Problem]:
    """Check users' files (campaigns, squads...): each game's plugin says whether a file is its own."""
    lib = library(content)
    problems: list[Problem] = []
    for path in files:
        try:
            doc = load_yaml(Path(path))
        except ContentError as exc:
            problems += exc.problems
            continue
        for gid in lib.game_ids():
            game = lib.game(gid)
            found = game.plugin.check_user_file(game, doc) if game.plugin else None
            if found is not None:
                problems += found
                break
        else:
            problems.append(Problem(str(path), 1, "", "not a file any game knows (a campaign file has `kind: campaign`)"))
    return problems


def user_file_notes(files: list[Path], content: Path | None = None) -> list[str]:
    """What a valid user file's game says of it beyond validity (e.g. a crew short of a man)."""
    lib = library(content)
    notes: list[str] = []
    for path in files:
        doc = load_yaml(Path(path))
        for gid in lib.game_ids():
            game = lib.game(gid)
            found = game.plugin.user_file_notes(game, doc) if game.plugin else None
            if found is not None:
                notes += [f"{path}: {n}" for n in found]
                break
    return notes


@dataclass
class Catalogue:
    games: list[tuple[str, str, list[str]]] = field(default_factory=list)


def catalogue(content: Path | None = None) -> Catalogue:
    lib = library(content)
    cat = Catalogue()
    for gid in lib.game_ids():
        game = lib.game(gid)
        cat.games.append((gid, game.info.title, registry.listing(game)))
    return cat


def make_kind(kind: Kind, game_id: str, options: PrintOptions = PrintOptions(),
              which: str | None = None) -> list[Path]:
    """A game's sheets of one generic kind (`which`: one card set or tracker), as `sheets watch` builds them."""
    if kind.make is None:
        raise SheetsError(f"{kind.name} sheets are made by their game's own commands")
    lib = library(options.content)
    return write(style.made(kind, lib, lib.game(game_id), options, which), options, folder=True)


def print_kind(name: str, game_id: str, options: PrintOptions = PrintOptions(), which: str | None = None) -> list[Path]:
    """`sheets print KIND GAME` (and a kind's plain command): the game's sheets of the kind named,
    as the kit makes them; one sheet where the options put a printable, several in a folder (or,
    with `-o FILE.pdf`, merged into that file)."""
    kind = registry.printable(name)
    lib = library(options.content)
    game = lib.game(game_id)
    if not registry.has(kind, game):
        raise SheetsError(f"{game.info.title} has no {kind.name}: {kind.about} (see `sheets list`)")
    sheets = style.made(kind, lib, game, options, which)
    return write(style.large_print(sheets, options.large_print), options, folder=len(sheets) > 1,
                 merged=f"{game.info.title}: {kind.about}")


def card_sheets(lib: Library, game: Game, options: PrintOptions, which: str = "all", *, layout: str | None = None,
                backs: bool = False, duplex: str = "long",
                crop_marks: bool | None = None, copies: int = 1, back_offset: tuple[float, float] = (0.0, 0.0),
                fold: bool = False) -> list[Sheet]:

    geometry = lib.geometry()
    chosen = geometry.layout(layout) if layout is not None else None
    return [card_sheet(game, s, geometry, layout=chosen, paper=options.paper, backs=backs, duplex=duplex,
                       crop_marks=crop_marks, copies=copies, back_offset=back_offset, fold=fold,
                       large_print=options.large_print)
            for s in pick_sets(game, which)]


def make_cards(game_id: str, options: PrintOptions = PrintOptions(), *, which: str = "all",
               layout: str | None = None, backs: bool = False, duplex: str = "long",
               crop_marks: bool | None = None, copies: int = 1, back_offset: str | None = None,
               fold: bool = False) -> list[Path]:
    """One imposed PDF per card set in a folder; `-o FILE.pdf` puts every chosen set into that one file."""
    offset = parse_back_offset(back_offset)
    if offset != (0.0, 0.0) and not backs:
        raise SheetsError("--back-offset shifts the backs of two-sided cards: add --backs")
    lib = library(options.content)
    game = lib.game(game_id)
    sheets = card_sheets(lib, game, options, which, layout=layout, backs=backs, duplex=duplex,
                         crop_marks=crop_marks, copies=copies, back_offset=offset, fold=fold)
    return write(style.large_print(sheets, options.large_print), options, folder=True, merged=f"{game.info.title}: cards")


def make_card_images(game_id: str, options: PrintOptions = PrintOptions(), *, which: str = "all",
                     export: str | None = "png", dpi: float | None = None, bleed: float | None = None,
                     backs: bool = False, shop: str | None = None, skipped: list[str] | None = None) -> list[Path]:
    """`sheets cards GAME --export png|pdf|tts [--shop NAME] -o DIR`: for a print shop, one image per
    card face (and the back with `backs`), or one PDF per deck; for Tabletop Simulator, grid images
    per deck and its back. Into DIR (png: DIR/<set id>/ for several sets). Every option is checked
    and every file made before the first is written. With a shop and every set (no --set), the
    sets the shop prints are written and `skipped` gets a line for each other one."""
    lib = library(options.content)
    preset, export = card_export.find_shop(lib.shops().shops if shop else {}, shop, export, dpi, bleed)
    dpi = card_export.DPI if dpi is None else dpi
    bleed = card_export.BLEED_MM if bleed is None else bleed
    folder = card_export.check_options(export or "png", dpi, bleed, options.output)
    game = lib.game(game_id)
    geometry = lib.geometry()
    chosen = pick_sets(game, which)
    if preset is not None and which == "all":
        chosen, passed_over = card_export.shop_takes(chosen, shop or "", preset)
        if skipped is not None:
            skipped.extend(passed_over)
    if export == "tts":
        return _write_tts(game, chosen, geometry, options, folder)
    plans = [card_export.plan(s, shop, preset, dpi, bleed) for s in chosen]
    for how in plans:
        size = geometry.card_sizes.get(how.size)
        if size is not None and export == "png":
            card_export.check_pixels(size, how)
    sheets = ink_save([card_export.export_sheet(game, s, geometry, backs=backs, how=how) for s, how in zip(chosen, plans)],
                      options.ink_saver)
    pdfs = make_pdfs([(render_html(s), s.forms, s.finish) for s in sheets])
    if export == "pdf":
        palette = lib.palette()
        read = lib.shared_file("palette.yaml")
        palette_file = str(read.relative_to(lib.root.parent)) if read.is_relative_to(lib.root.parent) else str(read)
        files = [(folder / f"{s.id}.pdf", card_export.deck_pdf(pdf, s, sheet, how, palette, palette_file))
                 for s, sheet, pdf, how in zip(chosen, sheets, pdfs, plans)]
        output.ensure_dir(folder)
        return [output.write_atomic(path, data) for path, data in files]
    batches = []
    for card_set, sheet, pdf, how in zip(chosen, sheets, pdfs, plans):
        size = geometry.card_sizes[how.size]
        pngs = card_export.render_pngs(pdf, how.dpi, (size.width_mm + 2 * how.bleed_mm, size.height_mm + 2 * how.bleed_mm))
        names = card_export.image_names(card_set, sheet.finish.spec)  # type: ignore[union-attr]
        batches.append((folder if len(chosen) == 1 else folder / card_set.id,
                        [(name, pngs[page]) for name, page in names]))
    return [path for target, images in batches for path in card_export.write_images(target, images)]


def _write_tts(game: Game, chosen: list, geometry, options: PrintOptions, folder: Path) -> list[Path]:
    """`--export tts`: per deck, its faces on grid images of at most 10×7 cards and 4096 px, its back,
    and the deck as a saved object naming them (tts.saved_object)."""
    plans = [card_export.Plan(size=s.size, bleed_mm=0.0, dpi=tts.card_dpi(geometry.card_sizes[s.size].width_mm,
                                                                           geometry.card_sizes[s.size].height_mm))
             for s in chosen]
    sheets = ink_save([card_export.export_sheet(game, s, geometry, backs=True, how=how) for s, how in zip(chosen, plans)],
                      options.ink_saver)
    pdfs = make_pdfs([(render_html(s), s.forms, s.finish) for s in sheets])
    files: list[tuple[str, bytes]] = []
    for card_set, sheet, pdf, how in zip(chosen, sheets, pdfs, plans):
        size = geometry.card_sizes[how.size]
        pngs = card_export.render_pngs(pdf, how.dpi, (size.width_mm, size.height_mm))
        files += tts.deck_files(card_set, sheet.finish.spec.back_of, pngs)  # type: ignore[union-attr]
        files.append(tts.saved_object(card_set, folder, sideways=size.width_mm > size.height_mm))
    output.ensure_dir(folder)
    return [output.write_atomic(folder / name, data) for name, data in files]


def make_calibration(options: PrintOptions = PrintOptions(), *, duplex: str = "long",
                     back_offset: str | None = None) -> Path:
    """`sheets cards calibrate`: the two-sided sheet that measures a printer's back offset."""
    data = finish_pdf(calibration_pdf(options.paper, duplex, parse_back_offset(back_offset)),
                      f"Duplex calibration sheet ({options.paper.name}, flip on the {duplex} edge)")
    return output.write_atomic(options.target(f"cards-calibration-{options.paper.name}-{duplex}.pdf"), data)


def store_calibration(folder: Path, x: str, y: str, printed_with: str | None = None) -> config.Change:
    """`sheets cards calibrate --readings X,Y` and the desk's wizard: the readings off a calibration
    sheet printed with `printed_with`, made the back offset stored in `folder`'s sheets.toml."""
    offset = offset_from_readings(reading(x, "X"), reading(y, "Y"), parse_back_offset(printed_with))
    parse_back_offset(offset_text(offset))  # within what --back-offset takes
    return config.store(Path(folder), "back_offset", offset_text(offset))


@dataclass
class LayoutRow:
    id: str
    description: str
    paper: str
    card: str
    per_page: int
    default_for: list[str]


def layouts(content: Path | None = None) -> list[LayoutRow]:
    """Every card layout the content defines (`sheets layouts`)."""
    geometry = library(content).geometry()
    defaults: dict[str, list[str]] = {}
    for size, choices in geometry.default_layouts.items():
        for paper, lay_id in choices.items():
            defaults.setdefault(lay_id, []).append(f"{size} on {paper}")
    return [LayoutRow(lay.id, lay.description, lay.paper, lay.card, lay.columns * lay.rows,
                      defaults.get(lay.id, [])) for lay in geometry.layouts]


def make_trackers(game_id: str, options: PrintOptions = PrintOptions(), *, tracker: str | None = None,
                  units: int | None = None, groups: int | None = None, boxes: int | None = None,
                  names: bool = False, seed: int | None = None, dice: str | None = None) -> tuple[Path, str]:
    """A tracker sheet; numbers from content unless given; designations rolled with --names."""
    game = library(options.content).game(game_id)
    chosen = pick_trackers(game, tracker)
    overrides = Overrides(units, groups, boxes)
    primary = [t for t in chosen if getattr(t, "primary", False)]
    if tracker is None and (overrides.any() or names) and len(chosen) > 1 and primary:
        chosen = primary  # numbers without --tracker change the game's main tracker, printed alone
    if overrides.any() and len(chosen) > 1:
        raise SheetsError(f"{game.info.title} has {len(chosen)} trackers ({', '.join(t.id for t in chosen)}): "
                          f"name one with --tracker to change its numbers")
    chosen = [apply_overrides(t, overrides) for t in chosen]
    if (seed is not None or dice is not None) and not names:
        raise SheetsError("--seed/--dice roll designations: add --names")
    designations: dict[str, list[str]] = {}
    note = origin = ""
    if names:
        rollable = [t for t in chosen if isinstance(t, BoxTracker)]
        if not rollable:
            raise SheetsError("--names rolls designations for units, and no chosen tracker has units")
        rolled = make_dice(seed, dice)
        for t in rollable:
            designations[t.id] = roll_designations(t, rolled)
        origin = rolled.describe
        note = f"designations rolled with {origin}"
        if rolled.seed is not None:
            note += f" (repeat with --seed {rolled.seed})"
    name = f"{game.id}-trackers" + (f"-{chosen[0].id}" if tracker else "") + (f"-{slug(origin)}" if origin else "")
    name += ".pdf"
    sheet = tracker_sheet(game, chosen, paper=options.paper, designations=designations, origin=origin, filename=name)
    return write(style.large_print([sheet], options.large_print), options)[0], note


def make_tokens(game_id: str, options: PrintOptions = PrintOptions(), *, copies: int = 1,
                full_colour: bool = False) -> Path:
    """A game's token sheet: ink-saver style, or solid colour discs with `full_colour`."""
    game = library(options.content).game(game_id)
    sheet = token_sheet(game, options.paper, copies, full_colour=full_colour, large_print=options.large_print)
    return write(style.large_print([sheet], options.large_print), options)[0]
