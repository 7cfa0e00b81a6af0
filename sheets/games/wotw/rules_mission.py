"""The rules of a mission: rolled (with the team as it stands), a step struck by the Engineer,
debriefed (casualties, XP, reinforcements). Pure, as every rule (see `campaign.py`).

A rule that rolls dice returns them with the state (`Applied`): the dice are the entry's
(its seed or its scripted dice), made when the rule first needs them.
"""
from __future__ import annotations

from sheets.base.dice import Dice
from sheets.base.errors import SheetsError
from sheets.games.wotw.campaign import Applied, refuse_if_broken
from sheets.games.wotw.mission import Mission, MissionRoller
from sheets.games.wotw.models import WotwData
from sheets.games.wotw.records import (Campaign, Casualties, DebriefEntry, LedgerEntry, MissionEntry, MissionRecord,
                                       Refused, StrikeEntry, name_key)
from sheets.games.wotw.team import TeamRules

ENEMY_HQ = "Enemy HQ"


def entry_dice(e: MissionEntry | DebriefEntry, what: str) -> Dice:
    """The entry's dice: its seed's, or its script (never both: the entry's model refuses a seed with dice)."""
    if e.seed is not None:
        return Dice.seeded(e.seed)
    if e.dice is None:
        raise Refused(f"{what} rolls dice", code="no-dice")
    try:
        return Dice.parse_script(e.dice, given=False)  # the command counts what it was given (commands.change)
    except SheetsError as exc:
        raise Refused(str(exc), code="dice-malformed") from None


def _scripted(e: MissionEntry | DebriefEntry, dice: Dice) -> Dice | None:
    return dice if e.seed is None else None


def has_engineer(c: Campaign) -> bool:
    return c.engineers and any(m.engineer for m in c.living)


def roll(c: Campaign, data: WotwData, dice: Dice, number: int, strike: int | None) -> Mission:
    """The mission these dice give this campaign (the same dice always give the same mission)."""
    try:
        return MissionRoller(data).roll(
            dice, c.theatre, c.nation, airborne="airborne" in c.optional_rules,
            beachhead="beachhead" in c.optional_rules, engineers=has_engineer(c) or strike is not None,
            strike_step=strike, number=number)
    except Refused:
        raise
    except SheetsError as exc:
        raise Refused(str(exc), code="mission-unrollable") from None


def record_dice(record: MissionRecord) -> Dice:
    if record.seed is not None:
        return Dice.seeded(record.seed)
    return Dice.parse_script((record.dice or "").removeprefix("dice "), given=False)


def track_text(mission: Mission) -> str:
    return " > ".join(s.terrain + (" (struck)" if s.struck else "") for s in mission.track)


def open_mission(c: Campaign, data: WotwData) -> Mission:
    """The mission in progress, rolled again from its recorded dice (for its log sheet)."""
    open_ = c.in_progress
    return roll(c, data, record_dice(open_), open_.number, open_.struck_step)


# -- a mission rolled -------------------------------------------------------------

def ready_for_mission(c: Campaign, data: WotwData) -> None:
    """Three men alive for a new mission (the rules, Equipment), on the command and on replay alike."""
    alive, least = len(c.living), TeamRules.of(data.rules).min_size
    if alive < least:
        raise Refused(f"{alive} m{'a' if alive == 1 else 'e'}n alive, but a mission needs at least {least} (the rules, "
                      f"Equipment: “You must select at least three men”): recruit first",
                      code="team-too-small")


def start_mission(c: Campaign, data: WotwData, record: MissionRecord) -> Campaign:
    """Record a rolled mission as in progress; grenades are refilled at the Equipment phase."""
    if c.in_progress is not None:
        raise Refused(f"mission {c.in_progress.number} is still in progress: close it first", code="mission-in-progress")
    if not c.living:
        raise Refused("every man of the team is dead: recruit before the next mission", code="team-all-dead")
    rules = TeamRules.of(data.rules)
    new = c.fork([m.name for m in c.living])
    for m in new.team:
        if m.status != "killed":
            m.grenades = rules.grenade_allowance([rules.skill_id(s) for s in m.skills])
    new.missions.append(record.model_copy(update={"number": len(c.missions) + 1, "outcome": "in progress"}))
    return refuse_if_broken(new, data)


def roll_mission(c: Campaign, e: MissionEntry, data: WotwData) -> Applied:
    """A `mission` entry: the mission its dice give, recorded as in progress."""
    if c.in_progress is not None:
        raise Refused(f"mission {c.in_progress.number} is still in progress: close it first", code="mission-in-progress")
    ready_for_mission(c, data)
    if e.strike is not None and not has_engineer(c):
        raise Refused("only a team with an Engineer may strike a step (the rules, optional rule #3)",
                      code="strike-needs-engineer")
    dice = entry_dice(e, "a mission")
    number = len(c.missions) + 1
    mission = roll(c, data, dice, number, e.strike)
    record = MissionRecord(number=number, seed=mission.seed, dice=None if mission.seed is not None else dice.describe,
                           objective=mission.objective.name if mission.objective else "", steps=len(mission.track),
                           track=track_text(mission), weather=mission.weather, struck_step=mission.struck_step)
    started = start_mission(c, data, record)
    started.missions[-1].brief(has_engineer(c))
    return Applied(started, _scripted(e, dice))


def strike_step(c: Campaign, e: StrikeEntry, data: WotwData) -> Campaign:
    """A `strike` entry: the Engineer removes one step of the mission in progress (optional rule #3)."""
    open_ = c.in_progress
    if open_ is None:
        raise Refused("no mission in progress: the Engineer strikes a step at the end of a mission's briefing "
                      "(the rules, optional rule #3); roll one",
                      code="no-mission-in-progress")
    if not has_engineer(c) or open_.briefed_engineer is False:
        raise Refused("only a team with an Engineer may strike a step (the rules, optional rule #3)"
                      + (f"; the team had none at mission {open_.number}'s briefing, and an Engineer strikes a step "
                         f"at the end of the briefing" if has_engineer(c) else ""), code="strike-needs-engineer")
    if e.step is None or not 1 <= e.step < open_.steps:
        raise Refused(f"step {e.step}: choose a step from 1 to {open_.steps - 1}; the last step is the objective "
                      f"and is never struck (the rules, optional rule #3)", code="step-out-of-track")
    if open_.struck_step is not None:
        raise Refused(f"mission {open_.number}: step {open_.struck_step} is struck already; an Engineer removes "
                      f"one step (the rules, optional rule #3)", code="step-struck-already")
    mission = roll(c, data, record_dice(open_), open_.number, e.step)
    new = c.fork(last_mission=True)
    record = new.missions[-1]
    record.track, record.struck_step = track_text(mission), mission.struck_step
    return new


# -- a mission debriefed ------------------------------------------------------------

def enemy_hq_possible(c: Campaign, data: WotwData) -> None:
    """The Enemy HQ is an event of a Building (H) step (the rules, Event Table: Building, 11): refused
    when no step of the mission's track that gets an Event roll (not a struck step, not the last step: the
    objective) has it."""
    open_ = c.in_progress
    mission = open_mission(c, data)
    for step in mission.track[:-1]:  # the last step, the objective, gets no Event roll (the rules, Mission)
        resolved = data.terrain(step.group, step.terrain)
        if not step.struck and resolved and resolved.terrain and any(
                ev.text.startswith(ENEMY_HQ) for ev in resolved.terrain.events):
            return
    raise Refused(f"the Enemy HQ is an event of a Building (H) step (the rules, Event Table: Building, "
                  f"11), rolled for every step but the last (the objective), and mission {open_.number}'s track has no "
                  f"such Building ({track_text(mission)})",
                  code="enemy-hq-not-on-track")


def close_mission(c: Campaign, e: DebriefEntry, data: WotwData) -> Applied:
    """A `debrief` entry: the mission in progress closed (an aborted mission's dice are refused by the entry's model)."""
    if e.enemy_hq and e.outcome == "success" and c.in_progress is not None:
        enemy_hq_possible(c, data)
    dice = entry_dice(e, "a successful mission's 1d3 XP") if e.outcome == "success" and c.in_progress else None
    after = debrief(c, data, e.outcome or "", list(e.killed), list(e.wounded), dice, e.enemy_hq)
    return Applied(after, _scripted(e, dice) if dice is not None else None)


def debrief(c: Campaign, data: WotwData, outcome: str, killed: list[str], wounded: list[str],
            dice: Dice | None, enemy_hq: bool = False) -> Campaign:
    """Close the mission in progress: casualties, then XP and reinforcement CP."""
    open_ = c.in_progress
    if open_ is None:
        raise Refused("no mission in progress: roll one", code="no-mission-in-progress")
    if outcome not in ("success", "aborted"):
        raise Refused(f"outcome {outcome!r}: a mission ends in success or aborted", code="unknown-outcome")
    if outcome == "aborted" and enemy_hq:
        raise Refused("the Enemy HQ's +1 XP comes at the end of a successful mission, and this one was "
                      "aborted (the rules, Event Table: Building, 11)", code="enemy-hq-aborted")
    new = c.fork(killed + wounded, last_mission=True)
    record = new.missions[-1]
    both = {name_key(n) for n in killed} & {name_key(n) for n in wounded}
    if both:
        raise Refused(f"{', '.join(sorted(both))}: named both killed and wounded; a man is one or the other", code="killed-and-wounded")
    for given, what in ((killed, "killed"), (wounded, "wounded")):
        keys = [name_key(new.man(n).name) for n in given]
        twice = sorted({new.man(n).name for n in given if keys.count(name_key(new.man(n).name)) > 1})
        if twice:
            raise Refused(f"{', '.join(twice)}: named twice as {what}; name each casualty once", code="casualty-twice")
    for name in killed:
        man = new.man(name)
        if man.status == "killed":
            raise Refused(f"{man.name} was killed before; the dead cannot be casualties again", code="dead-already")
        man.status = "killed"
        man.history.append(f"killed M{record.number}")
    for name in wounded:
        man = new.man(name)
        if man.status == "killed":
            raise Refused(f"{man.name} was killed before; the dead cannot be casualties again", code="dead-already")
        if man.status == "wounded":
            raise Refused(f"{man.name} is already wounded: a wounded soldier that suffers a second wound is "
                          f"Killed: count him killed", code="second-wound-kills")
        man.status = "wounded"
        man.history.append(f"wounded M{record.number}")
    record.casualties = Casualties(killed=[new.man(n).name for n in killed], wounded=[new.man(n).name for n in wounded])
    if outcome == "success" and not new.living:
        raise Refused("every man of the team is killed, and a mission is a success only when the team reaches "
                      "the objective and clears it (the rules, Mission: “The mission is over when the final step "
                      "is free of enemies”); with no man left standing it was aborted",
                      code="success-without-survivors")
    campaign = data.rules.campaign
    if outcome == "aborted":
        record.xp, record.cp = int(campaign.get("xp_after_abort", 0)), int(campaign.get("reinforcement_cp_after_abort", 1))
        what = f"mission {record.number} aborted: no XP, {record.cp} CP reinforcements"
    else:
        if dice is None:
            raise Refused("a successful mission rolls 1d3 XP", code="no-dice")
        face = dice.d6("team XP 1d3")
        record.xp = (face + 1) // 2 + (1 if enemy_hq else 0)
        record.xp_roll = f"d6 {face} -> 1d3 {(face + 1) // 2}" + (" +1 Enemy HQ" if enemy_hq else "") + f" ({dice.describe})"
        record.cp = int(campaign.get("reinforcement_cp", 2))
        what = f"mission {record.number} success: {record.xp} XP (1d3{' +1 Enemy HQ' if enemy_hq else ''}), {record.cp} CP reinforcements"
    record.outcome = outcome
    new.cp += record.cp
    new.xp += record.xp
    new.ledger.append(LedgerEntry(after=record.number, what=what, cp=record.cp, xp=record.xp))
    return refuse_if_broken(new, data)
