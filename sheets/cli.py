"""The `sheets` command line. Thin: parse options, call `sheets.api`, print paths.

User errors (SheetsError) print one readable message and exit 1. Heavy
imports (WeasyPrint, pydantic models) happen inside commands, so that
`sheets --help` stays fast.
"""
from __future__ import annotations

import functools
import sys
from enum import Enum
from pathlib import Path
from typing import Optional

import typer

app = typer.Typer(
    name="sheets",
    help="Print-and-play sheets for tabletop war games: playbooks, mission logs, cards, trackers.\n\n"
         "Output goes to ./output/ unless -o says otherwise. Start with `sheets kit`.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _version(value: bool) -> None:
    if value:
        from sheets import __version__  # noqa: PLC0415

        typer.echo(f"warsheets {__version__}")
        raise typer.Exit()


@app.callback()
def _root(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                       help="Print the warsheets version and exit.")) -> None:
    """Print-and-play sheets for tabletop war games."""


class Paper(str, Enum):
    a4 = "a4"
    letter = "letter"


def _err(message: str) -> None:
    typer.echo(f"error: {message}", err=True)


def user_errors(func):
    """Map SheetsError to a one-paragraph message and exit code 1 (no traceback)."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        from sheets.errors import SheetsError  # noqa: PLC0415

        try:
            return func(*args, **kwargs)
        except SheetsError as exc:
            _err(str(exc))
            raise typer.Exit(1) from None
        except KeyboardInterrupt:
            _err("interrupted; nothing half-written was left behind")
            raise typer.Exit(130) from None

    return wrapper


def wrote(path: Path) -> None:
    typer.echo(f"wrote {_show(path)}")


def write_previews(paths: list[Path], on: bool) -> None:
    """--preview: a PNG of every page under preview/ beside each PDF."""
    if not on:
        return
    from sheets.preview import write_previews as render  # noqa: PLC0415

    for path in paths:
        for png in render(Path(path)):
            wrote(png)


def _show(path: Path) -> str:
    try:
        return str(Path(path).resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


ContentOpt = typer.Option(None, "--content", help="Content folder to use instead of the bundled one (homebrew).",
                          exists=False, file_okay=False)
OutOpt = typer.Option(None, "-o", "--output", help="Output file (.pdf) or folder; default ./output/.")
SeedOpt = typer.Option(None, "--seed", help="Seed for the dice; the same seed gives the same sheet.")
DiceOpt = typer.Option(None, "--dice", help="Replay dice rolled at the table, in order, e.g. 3,5,1.")
PaperOpt = typer.Option(Paper.a4, "--paper", help="Paper size.", case_sensitive=False)
PreviewOpt = typer.Option(False, "--preview", help="Also write a PNG of every page under preview/ beside the PDF.")
InkSaverOpt = typer.Option(False, "--ink-saver", help="Outlines and light tints instead of solid dark fills.")


@app.command("list")
@user_errors
def list_cmd(content: Optional[Path] = ContentOpt) -> None:
    """List the games, playbooks and sheet kinds available."""
    from sheets import api  # noqa: PLC0415

    for gid, title, kinds in api.catalogue(content).games:
        typer.echo(f"{gid:<12} {title}")
        for kind in kinds:
            typer.echo(f"{'':<12}   {kind}")


@app.command()
@user_errors
def validate(content: Optional[Path] = ContentOpt) -> None:
    """Validate all content; report every problem with file, line and field."""
    from sheets import api  # noqa: PLC0415
    from sheets.errors import ContentError  # noqa: PLC0415

    problems = api.validate_content(content)
    if problems:
        raise ContentError(problems)
    typer.echo("content is valid")


@app.command()
@user_errors
def playbook(
    name: Optional[str] = typer.Argument(None, help="Playbook: soldier, medic, sniper or operator."),
    character: Optional[Path] = typer.Option(None, "--character", "-c", help="Character file (YAML) to fill the playbook from."),
    random: bool = typer.Option(False, "--random", help="Roll a random legal character."),
    count: int = typer.Option(1, "--count", "-n", help="Roll a squad of N soldiers (one playbook each, one PDF)."),
    seed: Optional[int] = SeedOpt,
    dice: Optional[str] = DiceOpt,
    fillable: bool = typer.Option(False, "--fillable", help="Make every write-in and checkbox a PDF form field."),
    paper: Paper = PaperOpt,
    preview: bool = PreviewOpt,
    ink_saver: bool = InkSaverOpt,
    output: Optional[Path] = OutOpt,
    content: Optional[Path] = ContentOpt,
) -> None:
    """A Regiment playbook: blank, filled from --character, or rolled (--random)."""
    from sheets.games.regiment.commands import make_playbook  # noqa: PLC0415

    path, note = make_playbook(name, character=character, random=random, count=count, seed=seed,
                                   dice=dice, fillable=fillable, paper=paper.value, out=output, content=content,
                                   ink_saver=ink_saver)
    if note:
        typer.echo(note)
    wrote(path)
    write_previews([path], preview)


class Theatre(str, Enum):
    france_1944 = "france-1944"
    russia_1943 = "russia-1943"
    winter_1942 = "winter-1942"
    sicily_1943 = "sicily-1943"
    finland_1940 = "finland-1940"


class Nation(str, Enum):
    us = "us"
    german = "german"
    russian = "russian"
    italian = "italian"
    finnish = "finnish"


@app.command()
@user_errors
def mission(
    theatre: Theatre = typer.Option(Theatre.france_1944, "--theatre", help="Theatre of operations."),
    nation: Optional[Nation] = typer.Option(None, "--nation", help="Your nation (must fight in the theatre); default: the theatre's first."),
    airborne: bool = typer.Option(False, "--airborne", help="Optional rule #1: roll for an airborne mission."),
    beachhead: bool = typer.Option(False, "--beachhead", help="Optional rule #2: roll for a beachhead mission."),
    engineers: bool = typer.Option(False, "--engineers", help="Optional rule #3: an Engineer may strike one step."),
    strike_step: Optional[int] = typer.Option(None, "--strike-step", help="With --engineers: the step to strike."),
    seed: Optional[int] = SeedOpt,
    dice: Optional[str] = DiceOpt,
    count: int = typer.Option(1, "--count", "-n", help="Roll a campaign of N missions (one PDF, plus a campaign page)."),
    team: Optional[Path] = typer.Option(None, "--team", help="Team file (YAML) to fill the roster from."),
    as_json: bool = typer.Option(False, "--json", help="Print the briefing as JSON instead of writing a PDF."),
    paper: Paper = PaperOpt,
    preview: bool = PreviewOpt,
    ink_saver: bool = InkSaverOpt,
    output: Optional[Path] = OutOpt,
    content: Optional[Path] = ContentOpt,
) -> None:
    """Way of the Warrior: roll a mission briefing and print its log sheet."""
    from sheets.games.wotw import commands as api  # noqa: PLC0415

    req = api.MissionRequest(theatre=theatre.value, nation=nation.value if nation else None, airborne=airborne,
                             beachhead=beachhead, engineers=engineers, strike_step=strike_step, count=count,
                             seed=seed, dice=dice, team=team, paper=paper.value,
                             ink_saver=ink_saver)
    if as_json:
        typer.echo(api.mission_json(req, content))
        return
    path, note = api.make_mission(req, output, content)
    typer.echo(note)
    wrote(path)
    write_previews([path], preview)


@app.command()
@user_errors
def kit(
    output: Optional[Path] = typer.Option(None, "-o", "--output", help="Folder for the kit; default ./output/kit/."),
    game: Optional[str] = typer.Option(None, "--game", help="Only this game's section."),
    seed: Optional[int] = SeedOpt,
    paper: Paper = PaperOpt,
    players: int = typer.Option(0, "--players", help="Also write player-1.pdf ... player-N.pdf: one soldier's "
                                "playbook and the moves reference per player, to staple."),
    preview: bool = PreviewOpt,
    ink_saver: bool = InkSaverOpt,
    no_cache: bool = typer.Option(False, "--no-cache", help="Render every PDF again even if unchanged."),
    content: Optional[Path] = ContentOpt,
) -> None:
    """Build the print-and-play kit: kit.pdf (contents, bookmarks, every part), the parts, manifest.json."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn  # noqa: PLC0415

    from sheets import api  # noqa: PLC0415

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  transient=True, disable=not sys.stderr.isatty()) as bar:
        def start(total: int):
            task = bar.add_task("building kit", total=total)

            def tick(label: str) -> None:
                bar.update(task, advance=1, description=f"built {label}")
            return tick

        result = api.make_kit(output, seed=seed, paper=paper.value, game=game, content=content,
                              progress=start, use_cache=not no_cache, players=players, preview=preview,
                              ink_saver=ink_saver)
    built = result.built
    for b in built:
        wrote(b.path)
    for path in result.packets:
        wrote(path)
    wrote(result.manifest)
    if result.previews:
        typer.echo(f"wrote {len(result.previews) - 1} page previews in {_show(result.previews[0].parent)}")
        wrote(result.previews[-1])
    wrote(result.kit_pdf)
    unchanged = sum(b.cached for b in built)
    reused = f" ({unchanged} unchanged, taken from the cache)" if unchanged else ""
    typer.echo(f"kit: {len(built)} files{reused}, dice seed {result.seed} (repeat with --seed {result.seed})")
    typer.echo(f"print it: open {_show(result.kit_pdf)}; page 1 says how to print each part")


@app.command()
@user_errors
def reference(
    game: str = typer.Argument(..., help="Game: regiment, wotw, downrange, platoon or masscombat."),
    paper: Paper = PaperOpt,
    preview: bool = PreviewOpt,
    ink_saver: bool = InkSaverOpt,
    output: Optional[Path] = OutOpt,
    content: Optional[Path] = ContentOpt,
) -> None:
    """A game's reference sheets (moves, tables, rules summaries)."""
    from sheets import api  # noqa: PLC0415

    path = api.make_reference(game, paper=paper.value, out=output, content=content, ink_saver=ink_saver)
    wrote(path)
    write_previews([path], preview)


class Duplex(str, Enum):
    long = "long"
    short = "short"


GameArg = typer.Argument(..., help="Game id (see `sheets list`).")


@app.command()
@user_errors
def cards(
    game: str = typer.Argument(..., help="Game id (see `sheets list`), or `calibrate` for the duplex "
                               "calibration sheet."),
    card_set: str = typer.Option("all", "--set", help="Card set id (see `sheets list`), or all: every set "
                                 "(one PDF per set in a folder; all in one file with -o FILE.pdf)."),
    layout: Optional[str] = typer.Option(None, "--layout", help="Card layout (see `sheets layouts`); "
                                         "default: the set's card size on --paper."),
    paper: Paper = PaperOpt,
    backs: bool = typer.Option(False, "--backs", help="Add a page of card backs after each page of fronts."),
    duplex: Duplex = typer.Option(Duplex.long, "--duplex", case_sensitive=False,
                                  help="Which edge the printer flips on, so backs land behind their fronts."),
    back_offset: Optional[str] = typer.Option(None, "--back-offset", metavar="X,Y",
                                              help="Shift the backs X mm right and Y mm up (as the back is "
                                                   "seen) to cancel your printer's shift; measure it with "
                                                   "`sheets cards calibrate`."),
    fold: bool = typer.Option(False, "--fold", help="No duplex printer: each back beside its front on one "
                              "side of a landscape sheet, with a fold line between."),
    copies: int = typer.Option(1, "--copies", help="Print the whole set N times (a second deck, spares)."),
    crop_marks: Optional[bool] = typer.Option(None, "--crop-marks/--no-crop-marks",
                                              help="Crop marks outside the cut lines (default: as the layout says)."),
    preview: bool = PreviewOpt,
    ink_saver: bool = InkSaverOpt,
    output: Optional[Path] = typer.Option(None, "-o", "--output",
                                          help="Output file (.pdf) or folder; default ./output/."),
    content: Optional[Path] = ContentOpt,
) -> None:
    """Print-and-play cards, imposed n-up with crop marks (backs for duplex, or --fold).

    `sheets cards calibrate` prints a two-sided calibration sheet instead: print it, hold
    it to a light, and read the --back-offset X,Y your printer needs (takes --paper,
    --duplex and --back-offset, to check an offset).
    """
    from sheets import api  # noqa: PLC0415

    if game == "calibrate":
        paths = [api.make_calibration(paper=paper.value, duplex=duplex.value, back_offset=back_offset, out=output)]
    else:
        paths = api.make_cards(game, which=card_set, layout=layout, paper=paper.value, backs=backs,
                               duplex=duplex.value, crop_marks=crop_marks, out=output, content=content,
                               copies=copies, back_offset=back_offset, fold=fold, ink_saver=ink_saver)
    for path in paths:
        wrote(path)
    write_previews(paths, preview)


@app.command()
@user_errors
def layouts(content: Optional[Path] = ContentOpt) -> None:
    """List the card layouts (paper, card size, cards per page) the content defines."""
    from sheets import api  # noqa: PLC0415

    for row in api.layouts(content):
        default = f"  (default for {', '.join(row.default_for)})" if row.default_for else ""
        typer.echo(f"{row.id:<20} {row.per_page:>2} {row.card} on {row.paper}: {row.description}{default}")


@app.command()
@user_errors
def trackers(
    game: str = GameArg,
    tracker: Optional[str] = typer.Option(None, "--tracker", help="Tracker id (default: every tracker of the game)."),
    units: Optional[int] = typer.Option(None, "--units", "--teams",
                                        help="Units (rows) instead of the content's number."),
    groups: Optional[int] = typer.Option(None, "--groups", "--soldiers",
                                         help="Groups of boxes per unit (e.g. soldiers per team)."),
    boxes: Optional[int] = typer.Option(None, "--boxes", "--strength",
                                        help="Boxes per group (e.g. strength per soldier)."),
    names: bool = typer.Option(False, "--names", help="Roll a designation for every unit."),
    seed: Optional[int] = SeedOpt,
    dice: Optional[str] = DiceOpt,
    paper: Paper = PaperOpt,
    preview: bool = PreviewOpt,
    ink_saver: bool = InkSaverOpt,
    output: Optional[Path] = OutOpt,
    content: Optional[Path] = ContentOpt,
) -> None:
    """Trackers to tick off (NPC strength, squads, waves), drawn from numbers in content."""
    from sheets import api  # noqa: PLC0415

    path, note = api.make_trackers(game, tracker=tracker, units=units, groups=groups, boxes=boxes, names=names,
                                   seed=seed, dice=dice, paper=paper.value, out=output, content=content,
                                   ink_saver=ink_saver)
    if note:
        typer.echo(note)
    wrote(path)
    write_previews([path], preview)


@app.command()
@user_errors
def tokens(
    game: str = GameArg,
    copies: int = typer.Option(1, "--copies", help="Print every token N times as often as content says."),
    paper: Paper = PaperOpt,
    preview: bool = PreviewOpt,
    ink_saver: bool = InkSaverOpt,
    output: Optional[Path] = OutOpt,
    content: Optional[Path] = ContentOpt,
) -> None:
    """A sheet of round counters to cut out."""
    from sheets import api  # noqa: PLC0415

    path = api.make_tokens(game, copies=copies, paper=paper.value, out=output, content=content, ink_saver=ink_saver)
    wrote(path)
    write_previews([path], preview)


def main() -> None:
    try:
        app()
    except SystemExit as exc:
        # Click reports a bad option value or a missing argument with exit code 2; like
        # every other bad input, that is exit code 1 here.
        if exc.code == 2:
            raise SystemExit(1) from None
        raise


if __name__ == "__main__":
    main()
