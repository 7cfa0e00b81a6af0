"""The campaign as a ledger: each change is an `Entry`; the state is what replaying the entries gives.

`apply(state, entry)` is the one transition: the commands call it to make a change, and
`replay` calls it for `sheets validate`, `undo` and `history` (no rule is written twice: it
dispatches to the pure rules of `campaign.py`). It never prints and never touches a file.
"""
from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, field

from sheets.base.dice import Dice
from sheets.base.errors import SheetsError
from sheets.games.wotw import campaign as cp
from sheets.games.wotw.mission import Mission, MissionRoller
from sheets.games.wotw.models import WotwData
from sheets.games.wotw.proof import prove
from sheets.games.wotw.records import (AdjustEntry, BaselineEntry, Campaign, DebriefEntry, Entry, LedgerEntry, Man,
                                       MissionEntry, MissionRecord, NewEntry, Refused, SpendEntry, StrikeEntry)

FIRST = ("new", "baseline")


class EntryRefused(Refused):
    """Replaying entry `index` was refused by the rules (a hand-edited entry)."""

    def __init__(self, index: int, reason: str):
        super().__init__(reason)
        self.index, self.reason = index, reason


#: the scripted dice the entry being applied rolled (`rolled`): replay and the commands count the unused
_ROLLED: ContextVar[Dice | None] = ContextVar("wotw_rolled", default=None)


def rolled() -> Dice | None:
    """The scripted dice the last `apply` rolled (None: a seed, or no dice)."""
    return _ROLLED.get()


def entry_dice(e: MissionEntry | DebriefEntry, what: str) -> Dice:
    # never both: the entry's model refuses a seed with dice
    if e.seed is not None:
        return Dice.seeded(e.seed)
    if e.dice is None:
        raise Refused(f"{what} rolls dice: give --seed or --dice")
    try:
        dice = Dice.parse_script(e.dice, given=False)  # the command counts what it was given (commands.change)
    except SheetsError as exc:
        raise Refused(str(exc)) from None
    _ROLLED.set(dice)
    return dice


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
        raise Refused(str(exc).replace("--strike-step", "the struck step")) from None


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


# -- the transitions -----------------------------------------------------------
# One function per kind of entry, in TRANSITIONS at the bottom; what an entry must hold by
# itself is its model's (records.py), what it needs of the campaign is here.

def apply(c: Campaign | None, e: Entry, data: WotwData) -> Campaign:
    """The state after entry `e`, or `Refused` naming the rule (nothing else changes)."""
    if c is None and e.do not in FIRST:
        raise Refused(f"the first entry must be `new` (or `baseline`), not `{e.do}`")
    if c is not None and e.do in FIRST:
        raise Refused(f"`{e.do}` may only be the first entry")
    _ROLLED.set(None)
    return TRANSITIONS[e.do](c, e, data)


def _new(_: None, e: NewEntry, data: WotwData) -> Campaign:
    men = [Man(name=r.name, quality=r.quality, weapon=r.weapon, medical=r.medical, engineer=r.engineer, notes=r.notes)
           for r in e.team]
    return cp.new_campaign(data, e.nation or "", e.theatre or "", men, list(e.optional_rules))


def _baseline(_: None, e: BaselineEntry, data: WotwData) -> Campaign:
    try:
        c = Campaign.model_validate({k: v for k, v in (e.state or {}).items() if k != "entries"})
    except ValueError as exc:
        raise Refused(f"the baseline state is not a campaign: {exc}") from None
    problems = cp.check(c, data) + prove(c, data)  # trusted only when it proves itself
    if problems:
        raise Refused("; ".join(msg for _, msg in problems))
    return c


def _mission(c: Campaign, e: MissionEntry, data: WotwData) -> Campaign:
    if c.in_progress is not None:
        raise Refused(f"mission {c.in_progress.number} is still in progress: close it first with "
                      f"`sheets campaign debrief FILE --outcome success|aborted`")
    if e.strike is not None and not has_engineer(c):
        raise Refused("--strike-step: only a team with an Engineer may strike a step (the rules, optional rule #3)")
    dice = entry_dice(e, "a mission")
    number = len(c.missions) + 1
    mission = roll(c, data, dice, number, e.strike)
    record = MissionRecord(number=number, seed=mission.seed, dice=None if mission.seed is not None else dice.describe,
                           objective=mission.objective.name if mission.objective else "", steps=len(mission.track),
                           track=track_text(mission), weather=mission.weather, struck_step=mission.struck_step)
    return cp.start_mission(c, data, record)


def _strike(c: Campaign, e: StrikeEntry, data: WotwData) -> Campaign:
    open_ = c.in_progress
    if open_ is None:
        raise Refused("no mission in progress: the Engineer strikes a step at the end of a mission's briefing "
                      "(the rules, optional rule #3); roll one with `sheets campaign mission FILE`")
    if not has_engineer(c):
        raise Refused("only a team with an Engineer may strike a step (the rules, optional rule #3: "
                      "start the campaign with --engineers and make a man Engineer)")
    if e.step is None or not 1 <= e.step < open_.steps:
        raise Refused(f"step {e.step}: choose a step from 1 to {open_.steps - 1}; the last step is the objective "
                      f"and is never struck (the rules, optional rule #3)")
    if open_.struck_step is not None:
        raise Refused(f"mission {open_.number}: step {open_.struck_step} is struck already; an Engineer removes "
                      f"one step (the rules, optional rule #3)")
    mission = roll(c, data, record_dice(open_), open_.number, e.step)
    new = c.model_copy(deep=True)
    record = new.missions[-1]
    record.track, record.struck_step = track_text(mission), mission.struck_step
    return new


ENEMY_HQ = "Enemy HQ"


def _enemy_hq_possible(c: Campaign, data: WotwData) -> None:
    """The Enemy HQ is an event of a Building (H) step (the rules, Event Table: Building, 11): refused
    when no step of the mission's track (a struck step apart) has it."""
    open_ = c.in_progress
    mission = open_mission(c, data)
    for step in mission.track:
        resolved = data.terrain(step.group, step.terrain)
        if not step.struck and resolved and resolved.terrain and any(
                ev.text.startswith(ENEMY_HQ) for ev in resolved.terrain.events):
            return
    raise Refused(f"--enemy-hq: the Enemy HQ is an event of a Building (H) step (the rules, Event Table: Building, "
                  f"11), and mission {open_.number}'s track has none ({track_text(mission)}); leave --enemy-hq out")


def _debrief(c: Campaign, e: DebriefEntry, data: WotwData) -> Campaign:
    # an aborted mission's dice are refused by the entry's model
    if e.enemy_hq and e.outcome == "success" and c.in_progress is not None:
        _enemy_hq_possible(c, data)
    dice = entry_dice(e, "a successful mission's 1d3 XP") if e.outcome == "success" and c.in_progress else None
    return cp.debrief(c, data, e.outcome or "", list(e.killed), list(e.wounded), dice, e.enemy_hq)


#: a spend's one purchase (the entry's model sees to it that it names exactly one)
SPENDS: dict[str, Callable[[Campaign, SpendEntry, WotwData], Campaign]] = {
    "promote": lambda c, e, data: cp.promote(c, data, e.promote),
    "learn": lambda c, e, data: cp.learn(c, data, e.learn, e.skill or ""),
    "rearm": lambda c, e, data: cp.rearm(c, data, e.rearm, e.weapon or ""),
    "make_engineer": lambda c, e, data: cp.make_engineer(c, data, e.make_engineer),
    "recruit": lambda c, e, data: cp.recruit(c, data, list(e.recruit), (e.quality or "").capitalize(), e.weapon or "",
                                             e.medical, e.engineer),
}


def _spend(c: Campaign, e: SpendEntry, data: WotwData) -> Campaign:
    return SPENDS[e.action](c, e, data)


def _adjust(c: Campaign, e: AdjustEntry, data: WotwData) -> Campaign:
    """What the rules leave to the table: each change is the player's, with its reason (the
    entry's model refuses a blank reason and an adjustment of nothing)."""
    reason = e.reason.strip()
    new = c.model_copy(deep=True)
    new.cp, new.xp = c.cp + e.cp, c.xp + e.xp
    if new.cp < 0 or new.xp < 0:
        raise Refused(f"--cp {e.cp:+d} --xp {e.xp:+d}: the campaign has {c.cp} CP and {c.xp} XP; neither goes below 0")
    done = []
    for name in e.heal:
        man = new.man(name)
        if man.status != "wounded":
            raise Refused(f"--heal {man.name}: he is {man.status}, not wounded" +
                          ("; to bring a dead man back use --set-state NAME=fit" if man.status == "killed" else ""))
        man.status = "fit"
        man.history.append(f"healed after M{c.played}")
        done.append(f"{man.name} healed")
    for name, state in e.set_state.items():
        man = new.man(name)
        if man.status == state:
            raise Refused(f"--set-state {name}={state}: {man.name} is {state} already")
        man.history.append(f"{man.status} to {state} after M{c.played} (adjusted)")
        man.status = state
        done.append(f"{man.name} {state}")
    for name, count in e.grenades.items():
        man = new.man(name)
        if count < 0:
            raise Refused(f"--grenades {man.name}={count}: a man carries 0 grenades or more")
        man.grenades = count
        done.append(f"{man.name} {count} grenades")
    done += [f"{v:+d} {k}" for k, v in (("CP", e.cp), ("XP", e.xp)) if v]
    new.ledger.append(LedgerEntry(after=c.played, what=f"adjusted ({', '.join(done)}): {reason}", cp=e.cp, xp=e.xp))
    problems = cp.check(new, data)
    if problems:
        raise Refused("; ".join(msg for _, msg in problems))
    return new


#: kind -> transition: (the state before, or None for a first entry; the entry; the game's data) -> the state after
TRANSITIONS: dict[str, Callable[[Campaign | None, Entry, WotwData], Campaign]] = {
    "new": _new, "baseline": _baseline, "mission": _mission, "strike": _strike, "debrief": _debrief,
    "spend": _spend, "adjust": _adjust,
}


# -- replay ----------------------------------------------------------------------

@dataclass
class Replay:
    states: list[Campaign]          # the state after each entry
    last_set: dict[tuple, int]      # flattened field -> index of the entry that last changed it
    unused: dict[int, tuple[int, int]] = field(default_factory=dict)  # entry -> (dice not rolled, dice given)

    @property
    def state(self) -> Campaign:
        return self.states[-1]


def state_dict(c: Campaign) -> dict:
    """The state as the file holds it (the entries apart; a man's empty notes left out)."""
    d = c.model_dump(mode="json", exclude={"entries"})
    for man in d["team"]:
        if not man.get("notes"):
            man.pop("notes", None)
    return d


def flatten(value, loc: tuple = ()) -> dict[tuple, object]:
    """{(path...): leaf}; every list also gives (path..., '#') -> its length."""
    out: dict[tuple, object] = {}
    if isinstance(value, dict):
        for k, v in value.items():
            out.update(flatten(v, loc + (k,)))
    elif isinstance(value, list):
        out[loc + ("#",)] = len(value)
        for i, v in enumerate(value):
            out.update(flatten(v, loc + (i,)))
    else:
        out[loc] = value
    return out


def replay(entries: list[Entry], data: WotwData) -> Replay:
    states: list[Campaign] = []
    last: dict[tuple, int] = {}
    before: dict[tuple, object] = {}
    c = None
    unused: dict[int, tuple[int, int]] = {}
    for i, e in enumerate(entries):
        try:
            c = apply(c, e, data)
        except SheetsError as exc:  # a rule, or an id the content does not know (a hand-edited entry)
            raise EntryRefused(i, str(exc)) from None
        dice = rolled()
        if dice is not None and dice.unused:
            unused[i] = (dice.unused, len(dice.script))
        flat = flatten(state_dict(c))
        for k, v in flat.items():
            if k not in before or before[k] != v:
                last[k] = i
        before = flat
        states.append(c)
    if not states:
        raise Refused("a campaign file needs its first entry (`new`)")
    return Replay(states, last, unused)


def _describe_debrief(e: DebriefEntry) -> str:
    parts = [f"debrief: {e.outcome}" + (f" ({e.rolled_with})" if e.rolled_with else "")
             + (" +Enemy HQ" if e.enemy_hq else "")]
    parts += [f"killed {', '.join(e.killed)}"] if e.killed else []
    parts += [f"wounded {', '.join(e.wounded)}"] if e.wounded else []
    return "; ".join(parts)


DESCRIBE_SPEND: dict[str, Callable[[SpendEntry], str]] = {
    "promote": lambda e: f"spend: promote {e.promote}",
    "learn": lambda e: f"spend: {e.learn} learns {e.skill}",
    "rearm": lambda e: f"spend: rearm {e.rearm} with {e.weapon}",
    "make_engineer": lambda e: f"spend: make {e.make_engineer} Engineer",
    "recruit": lambda e: (f"spend: recruit {', '.join(e.recruit)} "
                          f"({e.quality} {e.weapon}{', medical' if e.medical else ''})"),
}

#: kind -> how an entry of that kind reads in a few words
DESCRIBE: dict[str, Callable[[Entry], str]] = {
    "new": lambda e: (f"new: {e.nation} team of {len(e.team)} in {e.theatre}"
                      + (f" (rolled with {e.rolled})" if e.rolled else "")),
    "baseline": lambda e: "baseline: the file as it stood before the ledger",
    "mission": lambda e: f"mission ({e.rolled_with}" + (f", step {e.strike} struck" if e.strike else "") + ")",
    "strike": lambda e: f"strike step {e.step}",
    "debrief": _describe_debrief,
    "spend": lambda e: DESCRIBE_SPEND[e.action](e),
    "adjust": lambda e: f"adjust: {e.reason}",
}


def describe(e: Entry) -> str:
    """One entry in a few words (history, validate)."""
    return DESCRIBE[e.do](e)
