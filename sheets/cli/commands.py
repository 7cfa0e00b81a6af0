"""The generic commands: what every game's content can print (the games add their own).

Each command parses, calls `sheets.app.api` (or `sheets.kit.request`) and prints what it wrote.
Those modules load pydantic, Jinja and more, so each command imports them when it runs:
`sheets --help` must stay fast.
"""
from __future__ import annotations

import sys
from contextlib import ExitStack
from enum import Enum
from pathlib import Path
from typing import Optional

import typer

from sheets.base import limits, userfiles
from sheets.base.config import card_back_offset
from sheets.base.errors import ContentError, SheetsError
from sheets.kinds.print_plugin import KitOptions
from sheets.cli.config import from_config
from sheets.cli.errors import user_errors
from sheets.cli.kinds import print_cmd
from sheets.cli.options import Content, Dice, Game, InkSaver, LargePrint, Output, Paper, PaperSize, Preview, Seed, print_options
from sheets.cli.output import report, show, wrote


class Duplex(str, Enum):
    long = "long"
    short = "short"


@user_errors
def list_cmd(content: Content = None) -> None:
    """List the games, playbooks and sheet kinds available."""
    from sheets.app import api  # noqa: PLC0415 - loads the content models: not for --help

    for gid, title, kinds in api.catalogue(content).games:
        typer.echo(f"{gid:<12} {title}")
        for kind in kinds:
            typer.echo(f"{'':<12}   {kind}")


@user_errors
def validate(
    files: Optional[list[Path]] = typer.Argument(None, metavar="[FILE]...", help="Also check these user files (a campaign, team, character or squad file)."),
    content: Content = None,
) -> None:
    """Validate all content, and any user FILE given (campaign, team, character, squad); report every problem with file, line and field.

    Example: sheets validate ww.yaml
    """
    userfiles.readable(files or [])  # a device, a FIFO, a folder, too many bytes: said at once, before the content is read
    from sheets.app import api  # noqa: PLC0415 - loads the content models: not for --help
    problems = api.validate_content(content)
    if problems:
        raise ContentError(problems)
    if files:
        problems = api.validate_user_files(list(files), content)
        if problems:
            raise ContentError(problems)
        for note in api.user_file_notes(list(files), content):
            typer.echo(f"note: {note}")
    typer.echo("content is valid" + (f"; {len(files)} file{'s' if len(files) != 1 else ''} valid" if files else ""))


@user_errors
def kit(
    output: Optional[Path] = typer.Option(None, "-o", "--output", help="Folder for the kit; default ./output/kit/."),
    game: Optional[list[str]] = typer.Option(None, "--game", help="Only this game's section; repeat it for several "
                                             "(--game GAME --game OTHER)."),
    seed: Seed = None,
    paper: PaperSize = Paper("a4"),
    players: int = typer.Option(0, "--players", min=0, max=limits.MAX_PLAYERS, help="Also write player-1.pdf ... player-N.pdf: one soldier's "
                                "playbook and the moves reference per player, to staple."),
    squad: Optional[list[Path]] = typer.Option(None, "--squad", metavar="FILE", help="Your own squad: a squad file "
                                               "(or a character file; repeat it): the filled playbooks and one "
                                               "player packet per character, named after them."),
    character: Optional[list[Path]] = typer.Option(None, "--character", metavar="FILE",
                                                   help="A character file of your squad (repeat it): as --squad."),
    layout: Optional[str] = typer.Option(None, "--layout", help="Card layout (see `sheets layouts`) of the kit's "
                                         "card sets of its card size (or its US twin) and paper; the others keep their default."),
    duplex: Duplex = typer.Option(Duplex.long, "--duplex", case_sensitive=False, help="Which edge your printer flips on: the cards' "
                                    "backs are placed for it (landscape sheets: the short edge)."),
    preview: Preview = False,
    ink_saver: InkSaver = False,
    large_print: LargePrint = False,
    no_cache: bool = typer.Option(False, "--no-cache", help="Render every PDF again even if unchanged."),
    content: Content = None,
) -> None:
    """Build the print-and-play kit: kit.pdf (contents, bookmarks, every part), the parts, manifest.json."""
    from sheets.kit.request import make_kit  # noqa: PLC0415 - the whole pipeline: not for --help

    with ExitStack() as stack:
        def start(total: int):
            if not sys.stderr.isatty():  # no bar to draw: an up-to-date kit never imports Rich
                return lambda label: None
            # Rich's progress bar, made when a build starts (not for --help, nor an up-to-date kit)
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn  # noqa: PLC0415

            bar = stack.enter_context(Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                               TimeElapsedColumn(), transient=True))
            task = bar.add_task("building kit", total=total)

            def tick(label: str) -> None:
                bar.update(task, advance=1, description=f"built {label}")
            return tick

        options = KitOptions.of(print_options(paper, ink_saver, output, content, large_print), seed=seed, players=players,
                                squad=[*(squad or []), *(character or [])], layout=layout,
                                duplex=duplex.value)
        result = make_kit(options, games=game, progress=start, use_cache=not no_cache, preview=preview)
    verb = "unchanged" if result.up_to_date else "wrote"
    for path in [*result.parts, *result.packets, result.manifest]:
        wrote(path, verb)
    if result.previews:
        typer.echo(f"{verb} {len(result.previews) - 1} page previews in {show(result.previews[0].parent)}")
        wrote(result.previews[-1], verb)
    wrote(result.kit_pdf, verb)
    if result.up_to_date:
        reused = "; up to date: nothing changed since the last build with this seed, --no-cache rebuilds"
    else:
        reused = f"; {result.unchanged} parts unchanged, taken from the cache" if result.unchanged else ""
    typer.echo(f"kit: {len(result.files())} files ({result.breakdown()}{reused}), dice seed {result.seed} "
               f"(repeat with --seed {result.seed})")
    typer.echo(f"print it: open {show(result.kit_pdf)}; page 1 says how to print each part")


@user_errors
def cards(
    ctx: typer.Context,
    game: str = typer.Argument(..., help="Game id (see `sheets list`), or `calibrate` for the duplex "
                               "calibration sheet."),
    card_set: str = typer.Option("all", "--set", help="Card set id (see `sheets list`), or all: every set "
                                 "(one PDF per set in a folder; all in one file with -o FILE.pdf)."),
    layout: Optional[str] = typer.Option(None, "--layout", help="Card layout (see `sheets layouts`); "
                                         "default: the set's card size on --paper."),
    paper: PaperSize = Paper("a4"),
    backs: bool = typer.Option(False, "--backs", help="Add a page of card backs after each page of fronts."),
    duplex: Duplex = typer.Option(Duplex.long, "--duplex", case_sensitive=False,
                                  help="Which edge the printer flips on, so backs land behind their fronts."),
    back_offset: Optional[str] = typer.Option(None, "--back-offset", metavar="X,Y",
                                              help="Shift the backs X mm right and Y mm up (as the back is "
                                                   "seen) to cancel your printer's shift; measure it with "
                                                   "`sheets cards calibrate`."),
    fold: bool = typer.Option(False, "--fold", help="No duplex printer: each back beside its front on one "
                              "side of a landscape sheet, with a fold line between."),
    copies: int = typer.Option(1, "--copies", min=1, max=limits.MAX_COPIES,
                               help="Print the whole set N times (a second deck, spares)."),
    readings: Optional[str] = typer.Option(None, "--readings", metavar="X,Y",
                                           help="With `calibrate`: the X and Y read off the printed sheet; "
                                                "stores the offset they mean (plus the --back-offset the "
                                                "sheet was printed with) as back_offset in ./sheets.toml."),
    crop_marks: Optional[bool] = typer.Option(None, "--crop-marks/--no-crop-marks",
                                              help="Crop marks outside the cut lines (default: as the layout says)."),
    export: Optional[str] = typer.Option(None, "--export", metavar="png|pdf|tts", help=(
        "Instead of n-up sheets, into -o DIR: png, a PNG per card face with bleed (back.png once when the "
        "backs are alike; several sets: a folder each); pdf, a PDF per deck, a face per page, TrimBox and "
        "BleedBox (--backs: back/front alternating); tts, Tabletop Simulator <set>-deck.png grids (10x7 at "
        "most), <set>-back.png and <set>.json, the deck as a saved object (copy it into Tabletop Simulator's "
        "Saves/Saved Objects/ folder).")),
    shop: Optional[str] = typer.Option(None, "--shop", metavar="NAME", help=(
        "A print shop's spec in one word (content/_print/shops.yaml): drivethrucards (PDF/X-1a:2003, "
        "2.5x3.5 in, 1/8 in bleed, back/front, CMYK <= 240 % ink), thegamecrafter (PNG 825x1125 px), "
        "makeplayingcards (PNG 822x1122 px).")),
    dpi: Optional[float] = typer.Option(None, "--dpi", metavar="N", help="With --export: resolution of the images (default 300)."),
    bleed: Optional[float] = typer.Option(None, "--bleed", metavar="MM",
                                          help="With --export: bleed on every side, in mm (default 3); text keeps "
                                               "as far inside the cut line."),
    preview: Preview = False,
    ink_saver: InkSaver = False,
    large_print: LargePrint = False,
    output: Output = None,
    content: Content = None,
) -> None:
    """Print-and-play cards, imposed n-up with crop marks (backs for duplex, or --fold).

    `sheets cards calibrate` prints a two-sided calibration sheet instead: print it, hold
    it to a light, and read the --back-offset X,Y your printer needs (takes --paper,
    --duplex and --back-offset, to check an offset). `sheets cards calibrate --readings X,Y`
    stores that offset in ./sheets.toml, which later prints here use.
    """
    from sheets.app import api  # noqa: PLC0415 - the pipeline: not for --help

    back_offset = card_back_offset(back_offset, from_config(ctx, "back_offset"), backs or game == "calibrate")
    if readings is not None:
        if game != "calibrate":
            raise SheetsError("--readings X,Y are read off the calibration sheet: sheets cards calibrate --readings X,Y")
        x, _, y = readings.partition(",")
        typer.echo(str(api.store_calibration(Path.cwd(), x, y, printed_with=back_offset)))
        return
    options = print_options(paper, ink_saver, output, content, large_print)
    if export is not None or dpi is not None or bleed is not None or shop is not None:
        _card_export_only(export or shop, game, layout, fold, copies, crop_marks, preview)
        skipped: list[str] = []  # with --shop and every set: the sets the shop does not print, and why
        written = api.make_card_images(game, options, which=card_set, export=export, dpi=dpi, bleed=bleed,
                                       backs=backs, shop=shop, skipped=skipped)
        report(written, note="\n".join(skipped))
    elif game == "calibrate":  # the calibration sheet reads no content and has no ink to save
        report([api.make_calibration(options, duplex=duplex.value, back_offset=back_offset)], preview=preview)
    else:
        report(api.make_cards(game, options, which=card_set, layout=layout, backs=backs, duplex=duplex.value,
                              crop_marks=crop_marks, copies=copies, back_offset=back_offset, fold=fold),
               preview=preview)


def _card_export_only(export: str | None, game: str, layout, fold: bool, copies: int, crop_marks, preview: bool) -> None:
    """`sheets cards --export`: one image per card; the options of n-up sheets do not go with it."""
    if export is None:
        raise SheetsError("--dpi and --bleed size the images of --export png: add --export png -o DIR")
    sheet_only = [name for name, given in (("--layout", layout is not None), ("--fold", fold), ("--copies", copies != 1),
                                           ("--crop-marks", crop_marks is not None), ("--preview", preview),
                                           ("calibrate", game == "calibrate")) if given]
    if sheet_only:
        raise SheetsError(f"{', '.join(sheet_only)}: for n-up sheets; --export writes one image or page per card")


@user_errors
def layouts(content: Content = None) -> None:
    """List the card layouts (paper, card size, cards per page) the content defines."""
    from sheets.app import api  # noqa: PLC0415 - loads the content models: not for --help

    for row in api.layouts(content):
        default = f"  (default for {', '.join(row.default_for)})" if row.default_for else ""
        typer.echo(f"{row.id:<20} {row.per_page:>2} {row.card} on {row.paper}: {row.description}{default}")


@user_errors
def trackers(
    game: Game,
    tracker: Optional[str] = typer.Option(None, "--tracker", help="Tracker id (default: every tracker of the game)."),
    units: Optional[int] = typer.Option(None, "--units", "--teams", min=1, max=limits.MAX_TEAMS,
                                        help="Units (rows) instead of the content's number."),
    groups: Optional[int] = typer.Option(None, "--groups", "--soldiers", min=1, max=limits.MAX_GROUPS,
                                         help="Groups of boxes per unit (e.g. soldiers per team)."),
    boxes: Optional[int] = typer.Option(None, "--boxes", "--strength", min=1, max=limits.MAX_BOXES,
                                        help="Boxes per group (e.g. strength per soldier)"
                                             f"; units x groups x boxes at most {limits.MAX_TRACKER_BOXES}."),
    names: bool = typer.Option(False, "--names", help="Roll a designation for every unit."),
    seed: Seed = None,
    dice: Dice = None,
    paper: PaperSize = Paper("a4"),
    preview: Preview = False,
    ink_saver: InkSaver = False,
    large_print: LargePrint = False,
    output: Output = None,
    content: Content = None,
) -> None:
    """Trackers to tick off (NPC strength, squads, waves), drawn from numbers in content."""
    from sheets.app import api  # noqa: PLC0415 - the pipeline: not for --help

    path, note = api.make_trackers(game, print_options(paper, ink_saver, output, content, large_print), tracker=tracker,
                                   units=units, groups=groups, boxes=boxes, names=names, seed=seed, dice=dice)
    report([path], note, preview)


@user_errors
def tokens(
    game: Game,
    copies: int = typer.Option(1, "--copies", min=1, max=limits.MAX_COPIES,
                               help="Print every token N times as often as content says "
                                    f"(at most {limits.MAX_TOKENS} tokens in all)."),
    full_colour: bool = typer.Option(False, "--full-colour", help="Solid colour discs with light text (the "
                                     "default is ink-saver style: a light tint in a ring of each colour, for any printer)."),
    paper: PaperSize = Paper("a4"),
    preview: Preview = False,
    ink_saver: InkSaver = False,
    large_print: LargePrint = False,
    output: Output = None,
    content: Content = None,
) -> None:
    """A sheet of round counters to cut out."""
    from sheets.app import api  # noqa: PLC0415 - the pipeline: not for --help

    report([api.make_tokens(game, print_options(paper, ink_saver, output, content, large_print), copies=copies,
                            full_colour=full_colour)], preview=preview)


@user_errors
def watch(
    targets: list[str] = typer.Argument(..., metavar="TARGET...", help="KIND:GAME[:ID]: reference:GAME, "
                                        "cards:GAME[:SET], trackers:GAME[:TRACKER], tokens:GAME, gauges:GAME."),
    paper: PaperSize = Paper("a4"),
    output: Optional[Path] = typer.Option(None, "-o", "--output", help="Folder for the PDFs and their "
                                          "previews; default ./output/."),
    content: Content = None,
) -> None:
    """Rebuild printables and their PNG previews whenever a content file or template they read is saved.

    A build that fails prints its error (file, line, field) and the watch goes on. Ctrl-C stops.

    Example: sheets watch cards:mygame:orders reference:mygame --content my-content
    """
    # watchfiles, and the pipeline each rebuild runs: not for --help
    import watchfiles  # noqa: PLC0415

    from sheets.app import watch as watching  # noqa: PLC0415 - the pipeline: not for --help

    parsed = [watching.parse_target(t) for t in targets]
    folders = watching.watched(content)
    changes = ({Path(path) for _, path in batch} for batch in watchfiles.watch(*folders, raise_interrupt=True))
    watching.run(parsed, changes, print_options(paper, output=output, content=content), echo=typer.echo)


@user_errors
def pack(
    game: Game,
    output: Optional[Path] = typer.Option(None, "-o", "--output", help="The zip to write (FILE.zip, or a folder "
                                          "for GAME.zip); default ./output/GAME.zip."),
    content: Content = None,
) -> None:
    """Zip a game folder to share: everything it uses (its files, look, print geometry) and nothing else.

    The game is checked first, as `sheets validate` checks it: a game with mistakes is not packed.
    The receiver unpacks the zip into a folder and prints from it with --content FOLDER; the same
    folder gives the same zip, and the unpacked game prints the same bytes as the author's.

    Example: sheets pack my-skirmish --content my-content -o my-skirmish.zip
    """
    from sheets.app.pack import pack as pack_game  # noqa: PLC0415 - loads the content models: not for --help

    if output is None or output.is_dir() or str(output).endswith(("/", "\\")):
        output = (output if output is not None else print_options().home()) / f"{game}.zip"
    packed = pack_game(game, output, content)
    if packed.left_out:
        typer.echo(f"left out (kept beside the game, read by nothing): {', '.join(packed.left_out)}")
    wrote(packed.path, f"packed {packed.files} files into")
    typer.echo("the receiver: unzip it into a folder, then  sheets validate --content FOLDER")


@user_errors
def schema(
    out: Optional[Path] = typer.Option(None, "--out", help="Folder for the schemas; default ./output/schemas/."),
) -> None:
    """Write a JSON Schema for every YAML kind sheets reads (content files, character, squad, team, campaign).

    Point your editor at one with a first line such as
    `# yaml-language-server: $schema=schemas/GAME.character.schema.json`
    (VS Code's YAML extension then completes keys and marks mistakes as you type).

    Example: sheets schema --out schemas
    """
    from sheets.app.schemas import write_schemas  # noqa: PLC0415 - loads every content model: not for --help

    written = write_schemas(out if out is not None else print_options().home() / "schemas")
    typer.echo(f"wrote {len(written)} schemas in {show(written[0].parent)}")


@user_errors
def serve(
    workspace: Path = typer.Option(Path("."), "--workspace", help="Folder of your files (characters, campaigns); "
                                   "PDFs go to its output/. Default: the current folder."),
    port: int = typer.Option(8000, "--port", min=1, max=65535, help="Port to listen on."),
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on. Off loopback, every request "
                             "needs the access token printed in the URL."),
    no_open: bool = typer.Option(False, "--no-open", help="Do not open the browser."),
    content: Content = None,
) -> None:
    """The desk in your browser: kit, cards, characters, campaigns (a local web app; Ctrl-C stops it).

    Example: sheets serve --workspace campaign/
    """
    from sheets.web.app import serve as run_desk  # noqa: PLC0415 - Starlette and uvicorn: not for --help

    run_desk(workspace, host=host, port=port, open_browser=not no_open, content=content,
             echo=lambda text, file=None: typer.echo(text, err=file is not None))


@user_errors
def doctor() -> None:
    """Check this machine (Python, WeasyPrint, Pango, the bundled fonts, a CJK font, HarfBuzz's subsetter, the
    cache folder), each finding with what to install; exit 1 when something required is missing.

    Example: sheets doctor
    """
    from sheets.app.doctor import report  # noqa: PLC0415 - imports WeasyPrint: not for --help

    lines, verdict, ok = report()
    typer.echo("\n".join(lines))
    typer.echo(verdict, err=not ok)
    raise typer.Exit(0 if ok else 1)


class CacheAction(str, Enum):
    """What `sheets cache` does besides saying where the cache is and its size."""

    clear = "clear"


@user_errors
def cache(action: Optional[CacheAction] = typer.Argument(None, help="clear: empty the cache.")) -> None:
    """Where the one cache is and its size (never an output folder; $SHEETS_CACHE_DIR moves it, kept under
    $SHEETS_CACHE_MAX_MB, 500: the entries used longest ago go first); `sheets cache clear` empties it.

    Example: sheets cache clear
    """
    from sheets.base import cachedir  # noqa: PLC0415 - only this command needs it

    typer.echo(cachedir.clear_report() if action is CacheAction.clear else cachedir.report())


#: `sheets --help` lists these first, then the games' own commands, then LATER (as it always has; the kinds'
#: plain commands, from the registry, after `kit`: see `sheets.cli.SheetsGroup`)
FIRST = {"list": list_cmd, "validate": validate}
LATER = {c.__name__.removesuffix("_cmd"): c for c in (kit, cards, layouts, trackers, tokens, print_cmd,
                                                      watch, pack, schema, serve, doctor, cache)}
