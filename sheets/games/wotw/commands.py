"""What `sheets mission` (its log sheet) and `sheets campaign` do (the CLI only parses and prints).

The missions themselves are rolled by `sheets.games.wotw.preroll` (all `--json` needs).
"""
from __future__ import annotations

import io
from pathlib import Path

from sheets.base import interrupts
from sheets.base.config import paper_flag
from sheets.base.options import PrintOptions
from sheets.games.wotw import campaign as cp
from sheets.games.wotw import campaign_io, ledger, rules_mission
from sheets.games.wotw.ledger_commands import (  # noqa: F401 - the campaign file's commands, here too
    _dice_entry, _wotw, campaign_adjust, campaign_debrief, campaign_history, campaign_json, campaign_new,
    campaign_offers, campaign_spend, campaign_undo, change, one_writer)
from sheets.games.wotw.preroll import MissionRequest, roll_missions
from sheets.games.wotw.records import make_entry
from sheets.games.wotw.sheets import campaign_log_sheet, campaign_record, log_sheet
from sheets.games.wotw.team import resolve_team
from sheets.library.yaml_source import load_yaml
from sheets.kinds import style
from sheets.pipeline import cache
from sheets.pipeline.build import sheet_pdf
from sheets.pipeline.sheet import Sheet
from sheets.pipeline.write import write

with interrupts.held():  # a Ctrl-C while pikepdf registers its C++ types aborts the process
    import pikepdf


def make_mission(req: MissionRequest, options: PrintOptions = PrintOptions()) -> tuple[Path, str]:
    game, missions = roll_missions(req, options.content)
    team = None
    if req.team is not None:
        # the same checker as `sheets campaign`: CP (Engineer, medical), crews, grenades, size
        team = resolve_team(load_yaml(Path(req.team)), game.data.nation(missions[0].nation),
                            game.data.rules, engineers_rule=req.engineers)
    first = missions[0]
    stem = f"wotw-{'campaign' if req.count > 1 else 'mission'}-{first.theatre}"
    stem += f"-seed{first.seed}" if first.seed is not None else "-dice"
    note = f"rolled with {first.dice if first.seed is None else 'seed ' + str(first.seed)}"
    sheets = style.large_print([log_sheet(game, missions, f"{stem}.pdf", options.paper, team)], options.large_print)
    return write(sheets, options)[0], note


def _log_sheet(game, campaign, mission, options: PrintOptions) -> Path:
    return write(style.large_print([campaign_log_sheet(game, campaign, mission, options.paper)], options.large_print), options)[0]


@one_writer
def campaign_mission(file: Path, options: PrintOptions = PrintOptions(), *, seed: int | None = None,
                     dice: str | None = None, strike_step: int | None = None) -> tuple[list[Path], str]:
    game = _wotw(options.content)
    campaign = campaign_io.load(Path(file), game.data)
    open_ = campaign.in_progress
    if open_ is not None and seed is None and dice is None and strike_step is None:
        # a jammed printer: the same seed or dice give the same mission; the file is not changed
        pdf = _log_sheet(game, campaign, rules_mission.open_mission(campaign, game.data), options)
        return [pdf], f"mission {open_.number} is in progress: its log sheet printed again (file unchanged)"
    if open_ is not None:
        raise cp.Refused(f"mission {open_.number} is still in progress: close it first with "
                         f"`sheets campaign debrief {file} --outcome success|aborted` "
                         f"(run `sheets campaign mission {file}{paper_flag(options.paper)}` alone to print its log "
                         f"sheet again)",
                         code="mission-open")
    entry = make_entry(do="mission", strike=strike_step, **_dice_entry(seed, dice))
    state = ledger.apply(campaign.model_copy(update={"entries": []}), entry, game.data).campaign
    mission = rules_mission.open_mission(state, game.data)
    pdf = _log_sheet(game, state, mission, options)
    _, updated = change(file, entry, game.data)
    record = updated.missions[-1]
    note = (f"mission {record.number} rolled with {mission.dice if mission.seed is None else 'seed ' + str(mission.seed)}: "
            f"{record.objective}, {record.steps} steps; recorded as in progress")
    if rules_mission.has_engineer(updated) and record.struck_step is None:
        note += f"; your Engineer may strike one step: `sheets campaign strike {file} STEP"
        note += f"{paper_flag(options.paper)}` (1 to {record.steps - 1})"
    return [pdf, Path(file)], note


@one_writer
def campaign_strike(file: Path, step: int, options: PrintOptions = PrintOptions()) -> tuple[list[Path], str]:
    game = _wotw(options.content)
    campaign = campaign_io.load(Path(file), game.data)
    entry = make_entry(do="strike", step=step)
    state = ledger.apply(campaign.model_copy(update={"entries": []}), entry, game.data).campaign
    pdf = _log_sheet(game, state, rules_mission.open_mission(state, game.data), options)
    _, updated = change(file, entry, game.data)
    record = updated.missions[-1]
    return [pdf, Path(file)], f"mission {record.number}: step {step} struck; its log sheet printed again"


def campaign_show(file: Path, options: PrintOptions = PrintOptions()) -> Path:
    game = _wotw(options.content)
    campaign = campaign_io.load(Path(file), game.data)
    record = fitted_record(game, campaign, f"wotw-campaign-{Path(file).stem}.pdf", options.paper)
    return write(style.large_print([record], options.large_print), options)[0]


#: blank rows a played record keeps for missions and ledger lines to come, tried in turn when the
#: blank record's rows would push the page's last box (the rules between missions) onto a page alone
RECORD_SPARE_ROWS = (3, 2, 1)


def fitted_record(game, campaign, filename: str, paper) -> Sheet:
    """The record with as many blank rows as keep it on one page: a record just over a page (two
    missions played, one on Letter) keeps fewer empty rows rather than leave the rules alone on a
    page 2; a record that runs over anyway keeps them all, and its ledger begins page 2 (so that
    page holds the ledger and the rules, not the rules alone), unless that costs a page."""
    def pages(sheet: Sheet) -> int:  # laid out through the cache: the one chosen is written from it
        with pikepdf.open(io.BytesIO(sheet_pdf(sheet, cache.default_dir()))) as pdf:
            return len(pdf.pages)

    sheet = campaign_record(game, campaign, filename, paper)
    if campaign is None or pages(sheet) == 1:
        return sheet
    for spare in RECORD_SPARE_ROWS:
        fewer = campaign_record(game, campaign, filename, paper, spare=spare)
        if pages(fewer) == 1:
            return fewer
    shared = campaign_record(game, campaign, filename, paper, ledger_on_next_page=True)
    return shared if pages(shared) == pages(sheet) else sheet
