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

from sheets import limits

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


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised in the main thread like Ctrl-C so that the same clean-up runs."""


def _on_sigterm(signum, frame) -> None:  # noqa: ARG001
    import signal  # noqa: PLC0415

    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # once is enough; finish cleaning up
    raise Terminated()


def _err(message: str) -> None:
    typer.echo(f"error: {message}", err=True)


def user_errors(func):
    """Map SheetsError to a one-paragraph message and exit code 1 (no traceback)."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        from sheets.dice import forget_scripted, unused_dice  # noqa: PLC0415
        from sheets.errors import SheetsError  # noqa: PLC0415

        forget_scripted()
        try:
            result = func(*args, **kwargs)
            left = unused_dice()
            if left:
                typer.echo(f"warning: {left} of the dice given with --dice {'was' if left == 1 else 'were'} "
                           f"not used (the rolls needed fewer)", err=True)
            return result
        except SheetsError as exc:
            _err(str(exc))
            raise typer.Exit(1) from None
        except KeyboardInterrupt as exc:
            # Ctrl-C (130) or SIGTERM (143): workers are stopped and temporary files
            # removed on the way out (sheets.build.run_jobs, sheets.output)
            terminated = isinstance(exc, Terminated)
            _err(f"{'terminated' if terminated else 'interrupted'}; nothing half-written was left behind")
            raise typer.Exit(143 if terminated else 130) from None

    return wrapper


def wrote(path: Path, verb: str = "wrote") -> None:
    typer.echo(f"{verb} {_show(path)}")


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
SeedOpt = typer.Option(None, "--seed", min=0, max=limits.MAX_SEED,
                       help="Seed for the dice; the same seed gives the same sheet.")
DiceOpt = typer.Option(None, "--dice", help="Replay dice rolled at the table, in order, e.g. 3,5,1 "
                       f"(ASCII digits, at most {limits.MAX_DICE} dice).")
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
def validate(
    files: Optional[list[Path]] = typer.Argument(None, metavar="[FILE]...", help="Also check these user files (e.g. a campaign file)."),
    content: Optional[Path] = ContentOpt,
) -> None:
    """Validate all content, and any campaign FILE given; report every problem with file, line and field.

    Example: sheets validate ww.yaml
    """
    from sheets import api  # noqa: PLC0415
    from sheets.errors import ContentError  # noqa: PLC0415

    problems = api.validate_content(content)
    if problems:
        raise ContentError(problems)
    if files:
        problems = api.validate_user_files(list(files), content)
        if problems:
            raise ContentError(problems)
    typer.echo("content is valid" + (f"; {len(files)} file{'s' if len(files) != 1 else ''} valid" if files else ""))


@app.command()
@user_errors
def playbook(
    name: Optional[str] = typer.Argument(None, help="Playbook: soldier, medic, sniper or operator."),
    character: Optional[Path] = typer.Option(None, "--character", "-c", help="Character file (YAML) to fill the playbook from."),
    random: bool = typer.Option(False, "--random", help="Roll a random legal character."),
    count: int = typer.Option(1, "--count", "-n", min=1, max=limits.MAX_SOLDIERS,
                              help="Roll a squad of N soldiers (one playbook each, one PDF)."),
    seed: Optional[int] = SeedOpt,
    dice: Optional[str] = DiceOpt,
    fillable: bool = typer.Option(False, "--fillable", help="Make every write-in and checkbox a PDF form field."),
    save: Optional[Path] = typer.Option(None, "--save", help="With --random: also write one character file per "
                                        "soldier and a squad.yaml naming them into this folder."),
    as_json: bool = typer.Option(False, "--json", help="With --character: print the resolved character as JSON "
                                 "instead of writing a PDF."),
    paper: Paper = PaperOpt,
    preview: bool = PreviewOpt,
    ink_saver: bool = InkSaverOpt,
    output: Optional[Path] = OutOpt,
    content: Optional[Path] = ContentOpt,
) -> None:
    """A Regiment playbook: blank, filled from --character, or rolled (--random)."""
    from sheets.games.regiment import commands  # noqa: PLC0415

    if as_json:
        from sheets.errors import SheetsError  # noqa: PLC0415

        if character is None or random or save is not None or count != 1 or seed is not None or dice is not None:
            raise SheetsError("--json prints a character file resolved: use it with --character FILE only")
        typer.echo(commands.playbook_json(character, content))
        return
    paths, note = commands.make_playbook(name, character=character, random=random, count=count, seed=seed,
                                         dice=dice, fillable=fillable, paper=paper.value, out=output,
                                         content=content, save=save, ink_saver=ink_saver)
    if note:
        typer.echo(note)
    for path in paths:
        wrote(path)
    write_previews([p for p in paths if p.suffix == ".pdf"], preview)


@app.command()
@user_errors
def squad(
    squad_file: Path = typer.Argument(..., help="Squad file (YAML): designation, op, leader, members."),
    fillable: bool = typer.Option(False, "--fillable", help="Make every write-in and checkbox a PDF form field."),
    paper: Paper = PaperOpt,
    output: Optional[Path] = OutOpt,
    content: Optional[Path] = ContentOpt,
) -> None:
    """A Regiment squad: the GM's roster page, then every member's playbook, in one PDF."""
    from sheets.games.regiment.commands import make_squad  # noqa: PLC0415

    wrote(make_squad(squad_file, fillable=fillable, paper=paper.value, out=output, content=content))


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
    strike_step: Optional[int] = typer.Option(None, "--strike-step", min=1, max=limits.MAX_STEP,
                                              help="With --engineers: the step to strike."),
    seed: Optional[int] = SeedOpt,
    dice: Optional[str] = DiceOpt,
    count: int = typer.Option(1, "--count", "-n", min=1, max=limits.MAX_MISSIONS_JSON,
                              help=f"Roll a campaign of N missions (one PDF, plus a campaign page): at most "
                                   f"{limits.MAX_MISSIONS} to PDF, {limits.MAX_MISSIONS_JSON} with --json."),
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
    if count > limits.MAX_MISSIONS:
        from sheets.errors import SheetsError  # noqa: PLC0415

        raise SheetsError(f"--count {count}: at most {limits.MAX_MISSIONS} missions go into one PDF "
                          f"(up to {limits.MAX_MISSIONS_JSON} with --json)")
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
    players: int = typer.Option(0, "--players", min=0, max=limits.MAX_PLAYERS, help="Also write player-1.pdf ... player-N.pdf: one soldier's "
                                "playbook and the moves reference per player, to staple."),
    preview: bool = PreviewOpt,
    ink_saver: bool = InkSaverOpt,
    no_cache: bool = typer.Option(False, "--no-cache", help="Render every PDF again even if unchanged."),
    content: Optional[Path] = ContentOpt,
) -> None:
    """Build the print-and-play kit: kit.pdf (contents, bookmarks, every part), the parts, manifest.json."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn  # noqa: PLC0415

    from sheets import kit as kit_builder  # noqa: PLC0415

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  transient=True, disable=not sys.stderr.isatty()) as bar:
        def start(total: int):
            task = bar.add_task("building kit", total=total)

            def tick(label: str) -> None:
                bar.update(task, advance=1, description=f"built {label}")
            return tick

        result = kit_builder.make_kit(output, seed=seed, paper=paper.value, game=game, content=content,
                              progress=start, use_cache=not no_cache, players=players, preview=preview,
                              ink_saver=ink_saver)
    verb = "unchanged" if result.up_to_date else "wrote"
    for path in [*result.parts, *result.packets, result.manifest]:
        wrote(path, verb)
    if result.previews:
        typer.echo(f"{verb} {len(result.previews) - 1} page previews in {_show(result.previews[0].parent)}")
        wrote(result.previews[-1], verb)
    wrote(result.kit_pdf, verb)
    count = len(result.parts)
    if result.up_to_date:
        reused = " (up to date: nothing changed since the last build with this seed; --no-cache rebuilds)"
    else:
        reused = f" ({result.unchanged} unchanged, taken from the cache)" if result.unchanged else ""
    typer.echo(f"kit: {count} files{reused}, dice seed {result.seed} (repeat with --seed {result.seed})")
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
    copies: int = typer.Option(1, "--copies", min=1, max=limits.MAX_COPIES,
                               help="Print the whole set N times (a second deck, spares)."),
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
    units: Optional[int] = typer.Option(None, "--units", "--teams", min=1, max=limits.MAX_TEAMS,
                                        help="Units (rows) instead of the content's number."),
    groups: Optional[int] = typer.Option(None, "--groups", "--soldiers", min=1, max=limits.MAX_GROUPS,
                                         help="Groups of boxes per unit (e.g. soldiers per team)."),
    boxes: Optional[int] = typer.Option(None, "--boxes", "--strength", min=1, max=limits.MAX_BOXES,
                                        help="Boxes per group (e.g. strength per soldier)"
                                             f"; units x groups x boxes at most {limits.MAX_TRACKER_BOXES}."),
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
    copies: int = typer.Option(1, "--copies", min=1, max=limits.MAX_COPIES,
                               help="Print every token N times as often as content says "
                                    f"(at most {limits.MAX_TOKENS} tokens in all)."),
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


# -- sheets campaign: a Way of the Warrior campaign file --------------------------

campaign_app = typer.Typer(
    help="Way of the Warrior campaign: one YAML file carries the team, CP, XP and every mission.\n\n"
         "Example: sheets campaign new ww.yaml --nation german --theatre france-1944 --random --seed 4; "
         "then `campaign mission`, `campaign debrief`, `campaign spend`, `campaign show`. Every change is "
         "checked against the rules first; the previous file is kept as FILE.bak.",
    no_args_is_help=True, rich_markup_mode=None)
app.add_typer(campaign_app, name="campaign")


class Outcome(str, Enum):
    success = "success"
    aborted = "aborted"


class OptionalRule(str, Enum):
    airborne = "airborne"
    beachhead = "beachhead"
    engineers = "engineers"


CampaignFile = typer.Argument(..., help="The campaign file (YAML).", dir_okay=False, metavar="FILE")


@campaign_app.command("new")
@user_errors
def campaign_new(
    file: Path = CampaignFile,
    nation: Nation = typer.Option(..., "--nation", help="Your nation."),
    theatre: Theatre = typer.Option(..., "--theatre", help="Theatre of operations (your nation must fight there)."),
    team: Optional[Path] = typer.Option(None, "--team", help="Team file (YAML), checked against the starting CP and team size."),
    random: bool = typer.Option(False, "--random", help="Roll a legal team from the nation's table."),
    seed: Optional[int] = SeedOpt,
    airborne: bool = typer.Option(False, "--airborne", help="Optional rule #1 in use: roll for airborne missions."),
    beachhead: bool = typer.Option(False, "--beachhead", help="Optional rule #2 in use: roll for beachheads."),
    engineers: bool = typer.Option(False, "--engineers", help="Optional rule #3 in use: Engineers (2 CP, one per team)."),
    content: Optional[Path] = ContentOpt,
) -> None:
    """Start a campaign with its first team.

    Example: sheets campaign new ww.yaml --nation german --theatre france-1944 --team content/wotw/examples/german-team.yaml
    """
    from sheets.games.wotw import commands as api  # noqa: PLC0415

    rules = [r for r, on in (("airborne", airborne), ("beachhead", beachhead), ("engineers", engineers)) if on]
    path, note = api.campaign_new(file, nation.value, theatre.value, team=team, random=random, seed=seed,
                                  optional_rules=rules, content=content)
    typer.echo(note)
    wrote(path)


@campaign_app.command("mission")
@user_errors
def campaign_mission(
    file: Path = CampaignFile,
    seed: Optional[int] = SeedOpt,
    dice: Optional[str] = DiceOpt,
    strike_step: Optional[int] = typer.Option(None, "--strike-step", min=1, max=limits.MAX_STEP, help="A team with an Engineer may strike one step (not the objective)."),
    paper: Paper = PaperOpt,
    output: Optional[Path] = OutOpt,
    content: Optional[Path] = ContentOpt,
) -> None:
    """Roll the next mission, print its log sheet with the current roster, record it in progress.

    With a mission in progress and no --seed/--dice, print its log sheet again (file unchanged).

    Example: sheets campaign mission ww.yaml --seed 11 -o mission1.pdf
    """
    from sheets.games.wotw import commands as api  # noqa: PLC0415

    written, note = api.campaign_mission(file, seed=seed, dice=dice, strike_step=strike_step, paper=paper.value,
                                         out=output, content=content)
    typer.echo(note)
    for path in written:
        wrote(path)


@campaign_app.command("debrief")
@user_errors
def campaign_debrief(
    file: Path = CampaignFile,
    outcome: Outcome = typer.Option(..., "--outcome", help="success: 1d3 XP and 2 CP; aborted: no XP, 1 CP."),
    killed: list[str] = typer.Option([], "--killed", metavar="NAME", help="A man killed in the mission (repeat for more)."),
    wounded: list[str] = typer.Option([], "--wounded", metavar="NAME", help="A man wounded in the mission (repeat for more)."),
    enemy_hq: bool = typer.Option(False, "--enemy-hq", help="The Enemy HQ event (Building 11) was met: +1 XP on success."),
    seed: Optional[int] = SeedOpt,
    dice: Optional[str] = typer.Option(None, "--dice", help="The d6 rolled at the table for the 1d3 XP, e.g. 5."),
    content: Optional[Path] = ContentOpt,
) -> None:
    """Close the mission in progress: casualties, XP and reinforcement CP.

    Example: sheets campaign debrief ww.yaml --outcome success --wounded "Otto Lenz" --dice 5
    """
    from sheets.games.wotw import commands as api  # noqa: PLC0415

    path, note = api.campaign_debrief(file, outcome.value, list(killed), list(wounded), seed=seed, dice=dice,
                                      enemy_hq=enemy_hq, content=content)
    typer.echo(note)
    wrote(path)


@campaign_app.command("spend")
@user_errors
def campaign_spend(
    file: Path = CampaignFile,
    promote: Optional[str] = typer.Option(None, "--promote", help="Promote NAME: Green to Private 1 XP, Private to Veteran 2 XP."),
    skill: Optional[str] = typer.Option(None, "--skill", help="NAME=SKILL: a skill for 2 XP, if his quality allows it."),
    recruit: list[str] = typer.Option([], "--recruit", metavar="NAME", help="Recruit NAME with --quality and --weapon (twice for an LMG or Mortar crew)."),
    quality: Optional[str] = typer.Option(None, "--quality", help="With --recruit: Green, Private or Veteran."),
    weapon: Optional[str] = typer.Option(None, "--weapon", help="With --recruit: a weapon of the nation's team table."),
    medical: bool = typer.Option(False, "--medical", help="With --recruit: medical expertise (the nation's CP)."),
    engineer: bool = typer.Option(False, "--engineer", help="With --recruit: an Engineer (optional rule #3, 2 CP)."),
    rearm: Optional[str] = typer.Option(None, "--rearm", help="NAME=WEAPON: a Veteran or Private changes weapon (a Green cannot)."),
    make_engineer: Optional[str] = typer.Option(None, "--make-engineer", help="Make NAME the team's Engineer (optional rule #3, 2 CP)."),
    content: Optional[Path] = ContentOpt,
) -> None:
    """Spend XP (promotions, skills) or saved CP (recruits, an Engineer) between missions.

    Example: sheets campaign spend ww.yaml --promote "Otto Lenz"; sheets campaign spend ww.yaml --recruit "Paul Roth" --quality Green --weapon SMG
    """
    from sheets.games.wotw import commands as api  # noqa: PLC0415

    path, note = api.campaign_spend(file, promote=promote, skill=skill, recruit=list(recruit), quality=quality,
                                    weapon=weapon, medical=medical, engineer=engineer, rearm=rearm,
                                    make_engineer=make_engineer, content=content)
    typer.echo(note)
    wrote(path)


@campaign_app.command("show")
@user_errors
def campaign_show(
    file: Path = CampaignFile,
    as_json: bool = typer.Option(False, "--json", help="Print the campaign as JSON instead of writing a PDF."),
    paper: Paper = PaperOpt,
    output: Optional[Path] = OutOpt,
    content: Optional[Path] = ContentOpt,
) -> None:
    """Print the campaign record page (missions, XP and CP ledger, roster with state and history).

    Example: sheets campaign show ww.yaml -o record.pdf; sheets campaign show ww.yaml --json
    """
    from sheets.games.wotw import commands as api  # noqa: PLC0415

    if as_json:
        typer.echo(api.campaign_json(file, content))
        return
    wrote(api.campaign_show(file, paper=paper.value, out=output, content=content))


@app.command()
@user_errors
def gauges(
    game: str = GameArg,
    paper: Paper = PaperOpt,
    output: Optional[Path] = OutOpt,
    content: Optional[Path] = ContentOpt,
) -> None:
    """True-scale templates and rulers (blast circles, fans, range rulers) with a check bar."""
    from sheets import api  # noqa: PLC0415

    wrote(api.make_gauges(game, paper=paper.value, out=output, content=content))


def main() -> None:
    import signal  # noqa: PLC0415

    try:
        signal.signal(signal.SIGTERM, _on_sigterm)
    except ValueError:  # not the main thread (embedded use): leave SIGTERM alone
        pass
    try:
        app()
    except KeyboardInterrupt as exc:  # outside a command (the command wrapper handles its own)
        terminated = isinstance(exc, Terminated)
        _err(f"{'terminated' if terminated else 'interrupted'}; nothing half-written was left behind")
        raise SystemExit(143 if terminated else 130) from None
    except SystemExit as exc:
        # Click reports a bad option value or a missing argument with exit code 2; like
        # every other bad input, that is exit code 1 here.
        if exc.code == 2:
            raise SystemExit(1) from None
        raise


if __name__ == "__main__":
    main()
