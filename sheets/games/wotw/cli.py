"""The Way of the Warrior's commands: `sheets mission` and `sheets campaign ...` (added by `sheets.cli`).

Parse and print only; `sheets.games.wotw.commands` does the work. It loads the content
models and Jinja, so each command imports it when it runs: `sheets --help` must stay fast.
Theatres and nations are the content's: checked when it is read, never against a list here.
"""
from __future__ import annotations

import functools
from enum import Enum
from pathlib import Path
from typing import Optional

import typer

from sheets.base import limits
from sheets.base.errors import SheetsError
from sheets.cli.errors import user_errors
from sheets.cli.options import Content, Dice, InkSaver, LargePrint, Output, Paper, PaperSize, Preview, Seed, print_options
from sheets.cli.output import report, wrote

#: what the command line adds to a rule's refusal, by its code: the rules say the rule in the
#: game's words (the desk shows them as they are), and here the options that give it
HINTS = {
    "nation-not-in-theatre": "{message}: choose one with --nation",
    "points-below-zero": "--cp/--xp: {message}",
    "not-wounded": "--heal: {message}",
    "state-unchanged": "--set-state: {message}",
    "grenades-out-of-range": "--grenades: {message}",
    "no-dice": "{message}: give --seed or --dice",
    "team-too-small": "{message} with `sheets campaign spend`",
    "mission-in-progress": "{message} with `sheets campaign debrief FILE --outcome success|aborted`",
    "strike-needs-engineer": "{message}: start the campaign with --engineers and make a man Engineer (--make-engineer)",
    "no-mission-in-progress": "{message} with `sheets campaign mission FILE`",
    "enemy-hq-not-on-track": "--enemy-hq: {message}; leave --enemy-hq out",
    "enemy-hq-aborted": "--enemy-hq: {message}; leave --enemy-hq out",
    "unknown-outcome": "--outcome: {message}",
    "success-without-survivors": "--outcome success: {message}: --outcome aborted",
    "killed-and-wounded": "{message} (--killed, --wounded)",
    "casualty-twice": "{message} (--killed, --wounded)",
    "second-wound-kills": "{message} (--killed NAME)",
    "recruit-unnamed": "{message}: --recruit NAME (twice for a two-man LMG or Mortar crew)",
    "crew-needs-pair": "{message} (--recruit A --recruit B)",
    "engineers-not-in-use": "{message} (start a campaign with --engineers)",
    "strike-needs-engineers-rule": "--strike-step needs --engineers: {message}",
    "strike-step-off-track": "--strike-step: {message}",
    "rolled-unreadable": "{message} (`sheets campaign new --random` writes 'seed N')",
}


def hinted(message: str, code: str) -> str:
    """A refusal as the command line says it: the rule's words, and the options that give it."""
    return HINTS.get(code, "{message}").format(message=message)


def _with_hints(func):
    """A command whose refusals name its options (a hand-edited entry replayed is no option's: as it is)."""
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except SheetsError as exc:
            code = getattr(exc, "code", None)
            if code not in HINTS or hasattr(exc, "index"):
                raise
            raise SheetsError(hinted(str(exc), code)) from None
    return wrapper


@user_errors
@_with_hints
def mission(
    theatre: Optional[str] = typer.Option(None, "--theatre", help="Theatre of operations (see `sheets list`); "
                                          "default: france-1944, or the content's first."),
    nation: Optional[str] = typer.Option(None, "--nation", help="Your nation (must fight in the theatre); default: the theatre's first."),
    airborne: bool = typer.Option(False, "--airborne", help="Optional rule #1: roll for an airborne mission."),
    beachhead: bool = typer.Option(False, "--beachhead", help="Optional rule #2: roll for a beachhead mission."),
    engineers: bool = typer.Option(False, "--engineers", help="Optional rule #3: an Engineer may strike one step."),
    strike_step: Optional[int] = typer.Option(None, "--strike-step", min=1, max=limits.MAX_STEP,
                                              help="With --engineers: the step to strike."),
    seed: Seed = None,
    dice: Dice = None,
    count: int = typer.Option(1, "--count", "-n", min=1, max=limits.MAX_MISSIONS_JSON,
                              help=f"Roll a campaign of N missions (one PDF, plus a campaign page): at most "
                                   f"{limits.MAX_MISSIONS} to PDF, {limits.MAX_MISSIONS_JSON} with --json."),
    team: Optional[Path] = typer.Option(None, "--team", help="Team file (YAML) to fill the roster from."),
    as_json: bool = typer.Option(False, "--json", help="Print the briefing as JSON instead of writing a PDF."),
    paper: PaperSize = Paper("a4"),
    preview: Preview = False,
    ink_saver: InkSaver = False,
    large_print: LargePrint = False,
    output: Output = None,
    content: Content = None,
) -> None:
    """Way of the Warrior: roll a mission briefing and print its log sheet."""
    # the pre-roller alone: --json must not import Jinja or WeasyPrint (a measured fast path)
    from sheets.games.wotw.preroll import MissionRequest, mission_json  # noqa: PLC0415

    req = MissionRequest(theatre=theatre, nation=nation, airborne=airborne, beachhead=beachhead,
                         engineers=engineers, strike_step=strike_step, count=count, seed=seed, dice=dice, team=team)
    if as_json:
        typer.echo(mission_json(req, content))
        return
    if count > limits.MAX_MISSIONS:
        raise SheetsError(f"--count {count}: at most {limits.MAX_MISSIONS} missions go into one PDF "
                          f"(up to {limits.MAX_MISSIONS_JSON} with --json)")
    from sheets.games.wotw.commands import make_mission  # noqa: PLC0415 - Jinja and the pipeline: not for --help

    path, note = make_mission(req, print_options(paper, ink_saver, output, content, large_print))
    report([path], note, preview)


# -- sheets campaign: a Way of the Warrior campaign file --------------------------

campaign = typer.Typer(
    help="Way of the Warrior campaign: one YAML file carries the team, CP, XP and every mission.\n\n"
         "Example: sheets campaign new ww.yaml --nation german --theatre france-1944 --random --seed 4; "
         "then `campaign mission`, `campaign strike`, `campaign debrief`, `campaign spend`, `campaign adjust`, "
         "`campaign show`. Every change is checked against the rules first and kept as an entry in the file: "
         "`campaign history` lists them, `campaign undo` drops the last; the previous file is kept as FILE.bak.",
    no_args_is_help=True, rich_markup_mode=None)


class Outcome(str, Enum):
    success = "success"
    aborted = "aborted"


CampaignFile = typer.Argument(..., help="The campaign file (YAML).", dir_okay=False, metavar="FILE")


@campaign.command("new")
@user_errors
@_with_hints
def campaign_new(
    file: Path = CampaignFile,
    nation: str = typer.Option(..., "--nation", help="Your nation."),
    theatre: str = typer.Option(..., "--theatre", help="Theatre of operations (your nation must fight there)."),
    team: Optional[Path] = typer.Option(None, "--team", help="Team file (YAML), checked against the starting CP and team size."),
    random: bool = typer.Option(False, "--random", help="Roll a legal team from the nation's table."),
    seed: Seed = None,
    airborne: bool = typer.Option(False, "--airborne", help="Optional rule #1 in use: roll for airborne missions."),
    beachhead: bool = typer.Option(False, "--beachhead", help="Optional rule #2 in use: roll for beachheads."),
    engineers: bool = typer.Option(False, "--engineers", help="Optional rule #3 in use: Engineers (2 CP, one per team)."),
    content: Content = None,
) -> None:
    """Start a campaign with its first team.

    Example: sheets campaign new ww.yaml --nation german --theatre france-1944 --team content/wotw/examples/german-team.yaml
    """
    from sheets.games.wotw import ledger_commands as commands  # noqa: PLC0415 - content models: not for --help

    rules = [r for r, on in (("airborne", airborne), ("beachhead", beachhead), ("engineers", engineers)) if on]
    path, note = commands.campaign_new(file, nation, theatre, team=team, random=random, seed=seed,
                                       optional_rules=rules, content=content)
    report([path], note)


@campaign.command("mission")
@user_errors
@_with_hints
def campaign_mission(
    file: Path = CampaignFile,
    seed: Seed = None,
    dice: Dice = None,
    strike_step: Optional[int] = typer.Option(None, "--strike-step", min=1, max=limits.MAX_STEP, help="A team with an Engineer may strike one step (not the objective); or later, once the track is known: `campaign strike FILE STEP`."),
    paper: PaperSize = Paper("a4"),
    output: Output = None,
    content: Content = None,
) -> None:
    """Roll the next mission, print its log sheet with the current roster, record it in progress.

    With a mission in progress and no --seed/--dice, print its log sheet again (file unchanged).

    Example: sheets campaign mission ww.yaml --seed 11 -o mission1.pdf
    """
    from sheets.games.wotw import commands  # noqa: PLC0415 - content models and Jinja: not for --help

    written, note = commands.campaign_mission(file, print_options(paper, output=output, content=content), seed=seed,
                                              dice=dice, strike_step=strike_step)
    report(written, note)


@campaign.command("debrief")
@user_errors
@_with_hints
def campaign_debrief(
    file: Path = CampaignFile,
    outcome: Outcome = typer.Option(..., "--outcome", help="success: 1d3 XP and 2 CP; aborted: no XP, 1 CP."),
    killed: list[str] = typer.Option([], "--killed", metavar="NAME", help="A man killed in the mission (repeat for more)."),
    wounded: list[str] = typer.Option([], "--wounded", metavar="NAME", help="A man wounded in the mission (repeat for more)."),
    enemy_hq: bool = typer.Option(False, "--enemy-hq", help="The Enemy HQ event (Building 11) was met: +1 XP on success."),
    seed: Seed = None,
    dice: Optional[str] = typer.Option(None, "--dice", help="The d6 rolled at the table for the 1d3 XP, e.g. 5 (success only)."),
    content: Content = None,
) -> None:
    """Close the mission in progress: casualties, XP and reinforcement CP.

    Example: sheets campaign debrief ww.yaml --outcome success --wounded "Otto Lenz" --dice 5
    """
    from sheets.games.wotw import ledger_commands as commands  # noqa: PLC0415 - content models: not for --help

    path, note = commands.campaign_debrief(file, outcome.value, list(killed), list(wounded), seed=seed, dice=dice,
                                           enemy_hq=enemy_hq, content=content)
    report([path], note)


@campaign.command("spend")
@user_errors
@_with_hints
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
    list_: bool = typer.Option(False, "--list", help="List what each man may buy, its cost, and what the team cannot pay now (nothing is spent)."),
    content: Content = None,
) -> None:
    """Spend XP (promotions, skills) or saved CP (recruits, an Engineer) between missions.

    Example: sheets campaign spend ww.yaml --promote "Otto Lenz"; sheets campaign spend ww.yaml --recruit "Paul Roth" --quality Green --weapon SMG
    """
    from sheets.games.wotw import ledger_commands as commands  # noqa: PLC0415 - content models: not for --help

    if list_:
        if promote or skill or recruit or rearm or make_engineer:
            raise SheetsError("--list spends nothing: give it alone")
        from sheets.games.wotw.offers import offer_lines  # noqa: PLC0415 - as commands, not for --help

        typer.echo("\n".join(offer_lines(*commands.campaign_offers(file, content))))
        return

    path, note = commands.campaign_spend(file, promote=promote, skill=skill, recruit=list(recruit), quality=quality,
                                         weapon=weapon, medical=medical, engineer=engineer, rearm=rearm,
                                         make_engineer=make_engineer, content=content)
    report([path], note)


@campaign.command("strike")
@user_errors
@_with_hints
def campaign_strike(
    file: Path = CampaignFile,
    step: int = typer.Argument(..., min=1, max=limits.MAX_STEP, metavar="STEP", help="The step of the track to strike (not the last: the objective)."),
    paper: PaperSize = Paper("a4"),
    output: Output = None,
    content: Content = None,
) -> None:
    """With an Engineer (optional rule #3): strike one step of the mission in progress, once its track is known.

    Prints the log sheet again with the step struck. Example: sheets campaign strike ww.yaml 3 -o mission1.pdf
    """
    from sheets.games.wotw import commands  # noqa: PLC0415 - content models and Jinja: not for --help

    written, note = commands.campaign_strike(file, step, print_options(paper, output=output, content=content))
    report(written, note)


@campaign.command("adjust")
@user_errors
@_with_hints
def campaign_adjust(
    file: Path = CampaignFile,
    reason: str = typer.Option(..., "--reason", help="Why (printed in the record's ledger), e.g. 'house rule: field hospital'."),
    cp: int = typer.Option(0, "--cp", help="Add (or, negative, take away) saved CP."),
    xp: int = typer.Option(0, "--xp", help="Add (or, negative, take away) unused team XP."),
    heal: list[str] = typer.Option([], "--heal", metavar="NAME", help="A wounded man is fit again (repeat for more)."),
    set_state: list[str] = typer.Option([], "--set-state", metavar="NAME=STATE", help="Set a man's status: fit, wounded or killed (repeat for more)."),
    grenades: list[str] = typer.Option([], "--grenades", metavar="NAME=N", help="Set a man's grenades (at most his allowance)."),
    content: Content = None,
) -> None:
    """Record what the rules leave to the table: heal a man, a house rule, a mistake corrected.

    Each adjustment is an entry with its reason, printed in the record's ledger; the rules still
    hold afterwards (team size, grenades, quality and weapon). Example:
    sheets campaign adjust ww.yaml --reason "field hospital (house rule)" --heal "Otto Lenz"
    """
    from sheets.games.wotw import ledger_commands as commands  # noqa: PLC0415 - content models: not for --help

    path, note = commands.campaign_adjust(file, reason, cp_delta=cp, xp_delta=xp, heal=list(heal),
                                          set_state=list(set_state), grenades=list(grenades), content=content)
    report([path], note)


@campaign.command("undo")
@user_errors
@_with_hints
def campaign_undo(
    file: Path = CampaignFile,
    steps: int = typer.Option(1, "--steps", min=1, help="How many changes (entries) to drop, the last first."),
    content: Content = None,
) -> None:
    """Drop the last N changes: the file is then byte for byte what it was before them.

    Example: sheets campaign undo ww.yaml; sheets campaign undo ww.yaml --steps 2
    """
    from sheets.games.wotw import ledger_commands as commands  # noqa: PLC0415 - content models: not for --help

    path, note = commands.campaign_undo(file, steps, content=content)
    report([path], note)


@campaign.command("history")
@user_errors
@_with_hints
def campaign_history(
    file: Path = CampaignFile,
    content: Content = None,
) -> None:
    """List every change, one line each: its number, which mission, what, and the CP and XP after it.

    Example: sheets campaign history ww.yaml
    """
    from sheets.games.wotw import ledger_commands as commands  # noqa: PLC0415 - content models: not for --help

    for line in commands.campaign_history(file, content=content):
        typer.echo(line)


@campaign.command("show")
@user_errors
@_with_hints
def campaign_show(
    file: Path = CampaignFile,
    as_json: bool = typer.Option(False, "--json", help="Print the campaign as JSON instead of writing a PDF."),
    paper: PaperSize = Paper("a4"),
    output: Output = None,
    content: Content = None,
) -> None:
    """Print the campaign record page (missions, XP and CP ledger, roster with state and history).

    Example: sheets campaign show ww.yaml -o record.pdf; sheets campaign show ww.yaml --json
    """
    if as_json:
        from sheets.games.wotw.ledger_commands import campaign_json  # noqa: PLC0415 - the file as JSON: no PDF pipeline

        typer.echo(campaign_json(file, content))
        return
    from sheets.games.wotw import commands  # noqa: PLC0415 - content models and Jinja: not for --help

    wrote(commands.campaign_show(file, print_options(paper, output=output, content=content)))


def register_new(new: typer.Typer) -> None:
    new.command("campaign", help="Start a campaign file with its first team (the same as `sheets campaign new`); "
                "the file explains every key in its comments.")(campaign_new)


def register(app: typer.Typer) -> None:
    app.command()(mission)
    app.add_typer(campaign, name="campaign")
