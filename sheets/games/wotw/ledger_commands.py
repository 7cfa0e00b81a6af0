"""The Way of the Warrior's campaign file commands that print nothing: `sheets campaign new`,
`debrief`, `spend`, `adjust`, `undo`, `history`, `--json` (sheets.games.wotw.commands prints the
log sheets and the record). They load the content and the file, never Jinja, pikepdf or the
PDF pipeline: a ledger command starts in about half the time of one that prints.
"""
from __future__ import annotations

import functools
import json
import re
from pathlib import Path

from sheets.base import output
from sheets.base.dice import count_given
from sheets.base.errors import ContentError, SheetsError
from sheets.base.limits import MAX_CAMPAIGN_ENTRIES
from sheets.games.wotw import campaign as cp
from sheets.games.wotw import campaign_io, ledger, offers
from sheets.games.wotw.crews import crew_messages
from sheets.games.wotw.records import RECRUIT_ONLY, Campaign, Entry, Recruit, make_entry
from sheets.games.wotw.team import Member, TeamFile, resolve_team
from sheets.library.access import game_with_plugin, library, make_dice
from sheets.library.validation import validate
from sheets.library.yaml_source import YamlDocument, load_yaml


# -- `sheets campaign ...` ----------------------------------------------------
# Each command: load the file (its entries replayed and checked), make one entry, apply it
# (ledger.apply: the same transition the replay uses), write the file from the entries
# (campaign_io.py). A refused change raises before anything is written.

def _wotw(content: Path | None):
    return game_with_plugin(library(content), "wotw")


def one_writer(command):
    """The command holds its campaign file's lock from reading it to writing it (base.userfiles):
    two commands on one file run one after the other, and neither change is lost."""
    @functools.wraps(command)
    def locked(file, *args, **kwargs):
        with output.locked(Path(file)):
            return command(file, *args, **kwargs)
    return locked


@one_writer
def change(file: Path, entry: Entry, data) -> tuple[Campaign, Campaign]:
    """Apply one entry to the campaign in FILE and write it; (before, after)."""
    before = campaign_io.load(Path(file), data)
    if len(before.entries) >= MAX_CAMPAIGN_ENTRIES:
        raise cp.Refused(f"{file} holds {len(before.entries)} entries, the most a campaign file may have "
                         f"({MAX_CAMPAIGN_ENTRIES}); nothing was written: start a new campaign file", code="file-full")
    state, rolled = ledger.apply(before.model_copy(update={"entries": []}), entry, data)
    if rolled is not None:
        count_given(rolled)  # the dice given with --dice: the CLI warns of any left unused
    after = state.model_copy(update={"entries": before.entries + [entry]})
    campaign_io.save(Path(file), after, data)
    return before, after


def _dice_entry(seed: int | None, dice: str | None) -> dict:
    if dice is not None:
        return {"seed": seed, "dice": dice}  # with a seed too: the entry refuses both
    return {"seed": make_dice(seed, None).seed}


@one_writer
def campaign_new(file: Path, nation: str, theatre: str, team: Path | None = None, random: bool = False,
                 seed: int | None = None, optional_rules: list[str] | None = None,
                 content: Path | None = None, members: list[Member] | None = None) -> tuple[Path, str]:
    """A new campaign file: its first team from a team file (`--team`), rolled (`--random`), or
    `members` as a team file's would be (the desk's team builder)."""
    if (team is not None) + bool(random) + (members is not None) != 1:
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
    note, rolled = "", None
    if random:
        dice = make_dice(seed, None)
        men = cp.random_team(game.data, nation, dice, rules)
        rolled = dice.describe
        note = f"team rolled with {rolled}"
    else:
        # one checker for a team (team.resolve_team): what `validate` and `mission --team` refuse, refused here
        engineers = "engineers" in rules
        if members is None:
            doc = load_yaml(Path(team))
            resolve_team(doc, game.data.nation(nation), game.data.rules, engineers_rule=engineers)
            members = validate(TeamFile, doc).members
        else:  # the desk's rows: each problem said with the man's name
            doc = YamlDocument("the team", {"members": [m.model_dump(exclude_defaults=True) for m in members]})
            try:
                resolve_team(doc, game.data.nation(nation), game.data.rules, engineers_rule=engineers)
            except ContentError as exc:
                raise SheetsError("; ".join(_whose(members, p) for p in exc.problems)) from None
        men = [cp.Man(name=m.name, quality=m.quality.capitalize(), weapon=m.weapon, medical=m.medical,
                      engineer=m.engineer, notes=m.notes) for m in members]
    entry = make_entry(do="new", nation=nation, theatre=theatre,
                       optional_rules=[r for r in cp.OPTIONAL_RULES if r in rules],
                       team=[Recruit(name=m.name, quality=m.quality, weapon=m.weapon, medical=m.medical,
                                     engineer=m.engineer, notes=m.notes) for m in men], rolled=rolled)
    state = ledger.apply(None, entry, game.data).campaign
    campaign = state.model_copy(update={"entries": [entry]})
    campaign_io.save(file, campaign, game.data, new=True)
    spent = -sum(e.cp for e in campaign.ledger if e.cp < 0)
    summary = (f"{game.data.nation(nation).name} team of {len(campaign.team)} in {game.data.theatre(theatre).name}: "
               f"{spent} CP spent, {campaign.cp} CP saved")
    return file, "\n".join(x for x in (note, summary) if x)


def _whose(members: list[Member], problem) -> str:
    row = re.match(r"members\[(\d+)\]", problem.field)
    return f"{members[int(row[1])].name}: {problem.message}" if row else problem.message


@one_writer
def campaign_debrief(file: Path, outcome: str, killed: list[str], wounded: list[str], seed: int | None = None,
                     dice: str | None = None, enemy_hq: bool = False, content: Path | None = None) -> tuple[Path, str]:
    game = _wotw(content)
    rolled = _dice_entry(seed, dice) if outcome == "success" else {"seed": seed, "dice": dice}
    entry = make_entry(do="debrief", outcome=outcome, killed=list(killed), wounded=list(wounded), enemy_hq=enemy_hq,
                       **rolled)
    _, updated = change(file, entry, game.data)
    rec = updated.missions[-1]
    line = f"mission {rec.number}: {outcome}"
    if rec.xp_roll:
        line += f", XP {rec.xp_roll}"
    line += f"; +{rec.xp} XP, +{rec.cp} CP -> {updated.xp} XP and {updated.cp} CP saved"
    if rec.casualties.killed or rec.casualties.wounded:
        line += f"; killed: {', '.join(rec.casualties.killed) or 'none'}; wounded: {', '.join(rec.casualties.wounded) or 'none'}"
    short = crew_messages(updated, game.data.nation(updated.nation))
    return Path(file), "\n".join([line] + short)


def _pair(option: str, text: str, example: str) -> tuple[str, str]:
    name, sep, what = text.partition("=")
    if not sep or not name.strip() or not what.strip():
        raise SheetsError(f"{option} {text!r}: write NAME={example}")
    return name.strip(), what.strip()


@one_writer
def campaign_spend(file: Path, promote: str | None = None, skill: str | None = None, recruit: list[str] | None = None,
                   quality: str | None = None, weapon: str | None = None, medical: bool = False,
                   engineer: bool = False, rearm: str | None = None, make_engineer: str | None = None,
                   content: Path | None = None) -> tuple[Path, str]:
    # "exactly one purchase" and what goes with --recruit are the entry's rules (records.SpendEntry)
    learn = what = rearmed = arm = None
    if skill is not None:
        learn, what = _pair("--skill", skill, "SKILL, e.g. --skill 'Hans Weber=Grenadier'")
    if rearm is not None:
        rearmed, arm = _pair("--rearm", rearm, "WEAPON, e.g. --rearm 'Hans Weber=Rifle'")
    entry = make_entry(do="spend", promote=promote, learn=learn, skill=what, recruit=list(recruit or []),
                       quality=quality.capitalize() if quality else quality, weapon=arm or weapon, medical=medical,
                       engineer=engineer, rearm=rearmed, make_engineer=make_engineer)
    if rearm is not None and weapon is not None:
        raise SheetsError(RECRUIT_ONLY)  # --weapon is a recruit's; a rearm names its weapon in --rearm NAME=WEAPON
    game = _wotw(content)
    before, updated = change(file, entry, game.data)
    done = (f"{entry.rearm} now carries {updated.man(entry.rearm).weapon}"
            if entry.rearm and len(updated.ledger) == len(before.ledger) else updated.ledger[-1].what)
    short = crew_messages(updated, game.data.nation(updated.nation))
    return Path(file), "\n".join([f"{done}; now {updated.xp} XP and {updated.cp} CP saved"] + short)


def campaign_offers(file: Path, content: Path | None = None) -> tuple[Campaign, dict[str, list[offers.Offer]]]:
    """What each living man may buy and its cost (offers.py: each tried through the rules themselves)."""
    game = _wotw(content)
    campaign = campaign_io.load(Path(file), game.data)
    return campaign, offers.spend_options(campaign, game.data)


@one_writer
def campaign_adjust(file: Path, reason: str, cp_delta: int = 0, xp_delta: int = 0, heal: list[str] | None = None,
                    set_state: list[str] | None = None, grenades: list[str] | None = None,
                    content: Path | None = None) -> tuple[Path, str]:
    states = dict(_pair("--set-state", s, "STATE, e.g. --set-state 'Otto Lenz=fit'") for s in set_state or [])
    for name, state in states.items():
        if state not in ("fit", "wounded", "killed"):
            raise SheetsError(f"--set-state {name}={state}: choose fit, wounded or killed")
    counts = {}
    for text in grenades or []:
        name, n = _pair("--grenades", text, "N, e.g. --grenades 'Otto Lenz=3'")
        if not n.isdigit():
            raise SheetsError(f"--grenades {text!r}: N is a whole number of grenades")
        counts[name] = int(n)
    entry = make_entry(do="adjust", reason=reason, cp=cp_delta, xp=xp_delta, heal=list(heal or []), set_state=states,
                       grenades=counts)
    game = _wotw(content)
    _, updated = change(file, entry, game.data)
    return Path(file), f"{updated.ledger[-1].what}; now {updated.xp} XP and {updated.cp} CP saved"


@one_writer
def campaign_undo(file: Path, steps: int = 1, content: Path | None = None) -> tuple[Path, str]:
    game = _wotw(content)
    campaign = campaign_io.load(Path(file), game.data)
    undoable = len(campaign.entries) - 1
    if steps < 1 or steps > undoable:
        first = "`new`" if campaign.entries[0].do == "new" else "the baseline (the file as it stood before the ledger)"
        raise cp.Refused(f"--steps {steps}: the campaign has {undoable} change{'s' if undoable != 1 else ''} after "
                         f"{first}; undo 1 to {undoable}" if undoable else
                         f"nothing to undo: the only entry is {first} (delete the file to start again)",
                         code="undo-out-of-range")
    kept = campaign.entries[:-steps]
    state = ledger.replay(kept, game.data).state
    dropped = [ledger.describe(e) for e in campaign.entries[-steps:]]
    campaign_io.save(Path(file), state.model_copy(update={"entries": kept}), game.data)
    return Path(file), f"undid {steps}: " + "; ".join(reversed(dropped)) + f"; now {state.xp} XP and {state.cp} CP saved"


def campaign_history(file: Path, content: Path | None = None) -> list[str]:
    """One line per entry: its number, what, which mission, CP and XP after it."""
    game = _wotw(content)
    campaign = campaign_io.load(Path(file), game.data)
    states = ledger.replay(campaign.entries, game.data).states
    lines = []
    for i, (e, s) in enumerate(zip(campaign.entries, states), 1):
        when = f"M{s.in_progress.number}" if s.in_progress else f"after M{s.played}" if s.played else "before M1"
        lines.append(f"{i:>3}  {when:<9}  {ledger.describe(e)}  ->  {s.cp} CP, {s.xp} XP")
    return lines


def campaign_json(file: Path, content: Path | None = None) -> str:
    game = _wotw(content)
    return json.dumps(campaign_io.load(Path(file), game.data).as_json(), indent=2, ensure_ascii=False)
