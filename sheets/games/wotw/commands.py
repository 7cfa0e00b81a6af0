"""What `sheets mission` (its log sheet) and `sheets campaign` do (the CLI only parses and prints).

The missions themselves are rolled by `sheets.games.wotw.preroll` (all `--json` needs).
"""
from __future__ import annotations

import json
from pathlib import Path

from sheets import output, paths
from sheets.build import build_one
from sheets.errors import ContentError, SheetsError
from sheets.games.wotw import campaign as cp
from sheets.games.wotw import campaign_io
from sheets.games.wotw.mission import MissionRoller
from sheets.games.wotw.preroll import MissionRequest, roll_missions
from sheets.games.wotw.sheets import campaign_log_sheet, campaign_record, log_sheet
from sheets.games.wotw.team import TeamFile, resolve_team
from sheets.services import game_with_plugin, library, make_dice
from sheets.sheet import ink_save
from sheets.validation import validate
from sheets.yaml_source import load_yaml


def make_mission(req: MissionRequest, out: Path | None = None, content: Path | None = None) -> tuple[Path, str]:
    game, missions = roll_missions(req, content)
    team = None
    if req.team is not None:
        # the same checker as `sheets campaign`: CP (Engineer, medical), crews, grenades, size
        team = resolve_team(load_yaml(Path(req.team)), game.data.nation(missions[0].nation),
                            game.data.rules, engineers_rule=req.engineers)
    first = missions[0]
    stem = f"wotw-{'campaign' if req.count > 1 else 'mission'}-{first.theatre}"
    stem += f"-seed{first.seed}" if first.seed is not None else "-dice"
    sheet = ink_save([log_sheet(game, missions, f"{stem}.pdf", req.paper, team)], req.ink_saver)[0]
    target = output.resolve_target(out, paths.default_output_dir(), sheet.filename)
    note = f"rolled with {first.dice if first.seed is None else 'seed ' + str(first.seed)}"
    return build_one(sheet, target), note


# -- `sheets campaign ...` ----------------------------------------------------
# Each command: load and check the file, apply one pure change (campaign.py), check the
# result, write it (campaign_io.py). A refused change raises before anything is written.

def _wotw(content: Path | None):
    return game_with_plugin(library(content), "wotw")


def campaign_new(file: Path, nation: str, theatre: str, team: Path | None = None, random: bool = False,
                 seed: int | None = None, optional_rules: list[str] | None = None,
                 content: Path | None = None) -> tuple[Path, str]:
    if (team is None) == (not random):
        raise SheetsError("give either --team TEAMFILE or --random")
    if seed is not None and not random:
        raise SheetsError("--seed goes with --random (it rolls the team)")
    file = Path(file)
    if file.exists():
        raise SheetsError(f"{file} exists: a campaign file is never overwritten by `campaign new`; "
                          f"choose another name or delete it")
    game = _wotw(content)
    # the content's nations and theatres: an unknown id is refused first, naming the valid ones
    game.data.nation(nation)
    game.data.theatre(theatre)
    rules = list(optional_rules or [])
    note = ""
    if random:
        dice = make_dice(seed, None)
        men = cp.random_team(game.data, nation, dice, rules)
        note = f"team rolled with {dice.describe}"
    else:
        doc = load_yaml(Path(team))
        sheet = validate(TeamFile, doc)
        if sheet.nation is not None and sheet.nation.lower() not in (nation, game.data.nation(nation).name.lower()):
            raise SheetsError(f"{team}: this team is {sheet.nation!r} but --nation is {nation!r}")
        bad = [doc.problem(("members", i, "quality"), f"quality {m.quality!r}: choose Green, Private or Veteran")
               for i, m in enumerate(sheet.members) if m.quality.capitalize() not in ("Green", "Private", "Veteran")]
        if bad:
            raise ContentError(bad)
        men = [cp.Man(name=m.name, quality=m.quality.capitalize(), weapon=m.weapon, medical=m.medical,
                      engineer=m.engineer) for m in sheet.members]
    campaign = cp.new_campaign(game.data, nation, theatre, men, rules)
    campaign_io.save(file, campaign, game.data, new=True)
    spent = -sum(e.cp for e in campaign.ledger if e.cp < 0)
    summary = (f"{game.data.nation(nation).name} team of {len(campaign.team)} in {game.data.theatre(theatre).name}: "
               f"{spent} CP spent, {campaign.cp} CP saved")
    return file, "\n".join(x for x in (note, summary) if x)


def campaign_mission(file: Path, seed: int | None = None, dice: str | None = None, strike_step: int | None = None,
                     paper: str = "a4", out: Path | None = None, content: Path | None = None) -> tuple[list[Path], str]:
    game = _wotw(content)
    campaign = campaign_io.load(Path(file), game.data)
    open_ = campaign.in_progress
    reprint = open_ is not None and seed is None and dice is None and strike_step is None
    if open_ is not None and not reprint:
        raise cp.Refused(f"mission {open_.number} is still in progress: close it first with "
                         f"`sheets campaign debrief {file} --outcome success|aborted` "
                         f"(run `sheets campaign mission {file}` alone to print its log sheet again)")
    has_engineer = campaign.engineers and any(m.engineer for m in campaign.living)
    if strike_step is not None and not has_engineer:
        raise cp.Refused("--strike-step: only a team with an Engineer (optional rule #3) may strike a step")
    if reprint:
        # the same seed or dice give the same mission; the file is not changed
        rolled = make_dice(open_.seed, None) if open_.seed is not None else make_dice(None, (open_.dice or "").removeprefix("dice "))
        mission = MissionRoller(game.data).roll(
            rolled, campaign.theatre, campaign.nation, airborne="airborne" in campaign.optional_rules,
            beachhead="beachhead" in campaign.optional_rules, engineers=has_engineer or open_.struck_step is not None,
            strike_step=open_.struck_step, number=open_.number)
        sheet = campaign_log_sheet(game, campaign, mission, paper)
        target = output.resolve_target(out, paths.default_output_dir(), sheet.filename)
        return [build_one(sheet, target)], f"mission {open_.number} is in progress: its log sheet printed again (file unchanged)"
    rolled = make_dice(seed, dice)
    number = len(campaign.missions) + 1
    mission = MissionRoller(game.data).roll(
        rolled, campaign.theatre, campaign.nation, airborne="airborne" in campaign.optional_rules,
        beachhead="beachhead" in campaign.optional_rules, engineers=has_engineer, strike_step=strike_step,
        number=number)
    track = " > ".join(s.terrain + (" (struck)" if s.struck else "") for s in mission.track)
    record = cp.MissionRecord(number=number, seed=mission.seed, dice=None if mission.seed is not None else rolled.describe,
                              objective=mission.objective.name if mission.objective else "", steps=len(mission.track), track=track,
                              weather=mission.weather, struck_step=mission.struck_step)
    updated = cp.start_mission(campaign, game.data, record)
    sheet = campaign_log_sheet(game, updated, mission, paper)
    target = output.resolve_target(out, paths.default_output_dir(), sheet.filename)
    pdf = build_one(sheet, target)
    campaign_io.save(Path(file), updated, game.data)
    note = (f"mission {number} rolled with {rolled.describe}: {record.objective}, {len(mission.track)} steps; "
            f"recorded as in progress")
    return [pdf, Path(file)], note


def campaign_debrief(file: Path, outcome: str, killed: list[str], wounded: list[str], seed: int | None = None,
                     dice: str | None = None, enemy_hq: bool = False, content: Path | None = None) -> tuple[Path, str]:
    game = _wotw(content)
    campaign = campaign_io.load(Path(file), game.data)
    rolled = make_dice(seed, dice) if outcome == "success" else None
    updated = cp.debrief(campaign, game.data, outcome, killed, wounded, rolled, enemy_hq)
    campaign_io.save(Path(file), updated, game.data)
    rec = updated.missions[-1]
    line = f"mission {rec.number}: {outcome}"
    if rec.xp_roll:
        line += f", XP {rec.xp_roll}"
    line += f"; +{rec.xp} XP, +{rec.cp} CP -> {updated.xp} XP and {updated.cp} CP saved"
    if rec.casualties.killed or rec.casualties.wounded:
        line += f"; killed: {', '.join(rec.casualties.killed) or 'none'}; wounded: {', '.join(rec.casualties.wounded) or 'none'}"
    return Path(file), line


def campaign_spend(file: Path, promote: str | None = None, skill: str | None = None, recruit: list[str] | None = None,
                   quality: str | None = None, weapon: str | None = None, medical: bool = False,
                   engineer: bool = False, rearm: str | None = None, make_engineer: str | None = None,
                   content: Path | None = None) -> tuple[Path, str]:
    actions = [a for a in (promote, skill, recruit or None, rearm, make_engineer) if a]
    if len(actions) != 1:
        raise SheetsError("give one of --promote NAME, --skill NAME=SKILL, --recruit NAME --quality Q --weapon W, "
                          "--rearm NAME=WEAPON or --make-engineer NAME")
    if (quality or weapon or medical or engineer) and not recruit:
        raise SheetsError("--quality, --weapon, --medical and --engineer go with --recruit")
    game = _wotw(content)
    campaign = campaign_io.load(Path(file), game.data)
    if promote:
        updated = cp.promote(campaign, game.data, promote)
    elif skill:
        name, sep, what = skill.partition("=")
        if not sep or not name.strip() or not what.strip():
            raise SheetsError(f"--skill {skill!r}: write NAME=SKILL, e.g. --skill 'Hans Weber=Grenadier'")
        updated = cp.learn(campaign, game.data, name, what)
    elif rearm:
        name, sep, what = rearm.partition("=")
        if not sep or not name.strip() or not what.strip():
            raise SheetsError(f"--rearm {rearm!r}: write NAME=WEAPON, e.g. --rearm 'Hans Weber=Rifle'")
        updated = cp.rearm(campaign, game.data, name, what)
    elif make_engineer:
        updated = cp.make_engineer(campaign, game.data, make_engineer)
    else:
        if not quality or not weapon:
            raise SheetsError("--recruit needs --quality (Green, Private, Veteran) and --weapon, "
                              "e.g. --recruit 'Paul Roth' --quality Green --weapon Rifle")
        updated = cp.recruit(campaign, game.data, recruit, quality.capitalize(), weapon, medical, engineer)
    campaign_io.save(Path(file), updated, game.data)
    done = (f"{rearm.partition('=')[0].strip()} now carries {updated.man(rearm.partition('=')[0]).weapon}"
            if rearm and len(updated.ledger) == len(campaign.ledger) else updated.ledger[-1].what)
    return Path(file), f"{done}; now {updated.xp} XP and {updated.cp} CP saved"


def campaign_show(file: Path, paper: str = "a4", out: Path | None = None, content: Path | None = None):
    game = _wotw(content)
    campaign = campaign_io.load(Path(file), game.data)
    sheet = campaign_record(game, campaign, f"wotw-campaign-{Path(file).stem}.pdf", paper)
    target = output.resolve_target(out, paths.default_output_dir(), sheet.filename)
    return build_one(sheet, target)


def campaign_json(file: Path, content: Path | None = None) -> str:
    game = _wotw(content)
    return json.dumps(campaign_io.load(Path(file), game.data).as_json(), indent=2, ensure_ascii=False)
