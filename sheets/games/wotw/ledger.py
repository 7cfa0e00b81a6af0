"""The campaign as a ledger: each change is an `Entry`; the state is what replaying the entries gives.

`apply(state, entry)` is the one transition: the commands call it to make a change, and
`replay` calls it for `sheets validate`, `undo` and `history` (no rule is written twice: it
dispatches to the pure rules of `campaign.py`). It never prints and never touches a file.
"""
from __future__ import annotations

from dataclasses import dataclass

from sheets.base.dice import Dice
from sheets.base.errors import SheetsError
from sheets.games.wotw import campaign as cp
from sheets.games.wotw.mission import Mission, MissionRoller
from sheets.games.wotw.models import WotwData
from sheets.games.wotw.records import Campaign, Entry, LedgerEntry, Man, MissionRecord, Refused

FIRST = ("new", "baseline")


class EntryRefused(Refused):
    """Replaying entry `index` was refused by the rules (a hand-edited entry)."""

    def __init__(self, index: int, reason: str):
        super().__init__(reason)
        self.index, self.reason = index, reason


def entry_dice(e: Entry, what: str) -> Dice:
    if e.seed is not None and e.dice is not None:
        raise Refused(f"{what}: give either --seed or --dice, not both")
    if e.seed is not None:
        return Dice.seeded(e.seed)
    if e.dice is None:
        raise Refused(f"{what} rolls dice: give --seed or --dice")
    try:
        return Dice.parse_script(e.dice)
    except SheetsError as exc:
        raise Refused(str(exc)) from None


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
    return Dice.parse_script((record.dice or "").removeprefix("dice "))


def track_text(mission: Mission) -> str:
    return " > ".join(s.terrain + (" (struck)" if s.struck else "") for s in mission.track)


def open_mission(c: Campaign, data: WotwData) -> Mission:
    """The mission in progress, rolled again from its recorded dice (for its log sheet)."""
    open_ = c.in_progress
    return roll(c, data, record_dice(open_), open_.number, open_.struck_step)


# -- the transitions -----------------------------------------------------------

def apply(c: Campaign | None, e: Entry, data: WotwData) -> Campaign:
    """The state after entry `e`, or `Refused` naming the rule (nothing else changes)."""
    if c is None:
        if e.do not in FIRST:
            raise Refused(f"the first entry must be `new` (or `baseline`), not `{e.do}`")
        return _baseline(e, data) if e.do == "baseline" else _new(e, data)
    if e.do in FIRST:
        raise Refused(f"`{e.do}` may only be the first entry")
    return {"mission": _mission, "strike": _strike, "debrief": _debrief, "spend": _spend,
            "adjust": _adjust}[e.do](c, e, data)


def _new(e: Entry, data: WotwData) -> Campaign:
    men = [Man(name=r.name, quality=r.quality, weapon=r.weapon, medical=r.medical, engineer=r.engineer, notes=r.notes)
           for r in e.team]
    return cp.new_campaign(data, e.nation or "", e.theatre or "", men, list(e.optional_rules))


def _baseline(e: Entry, data: WotwData) -> Campaign:
    try:
        c = Campaign.model_validate({k: v for k, v in (e.state or {}).items() if k != "entries"})
    except ValueError as exc:
        raise Refused(f"the baseline state is not a campaign: {exc}") from None
    problems = cp.check(c, data)
    if problems:
        raise Refused("; ".join(msg for _, msg in problems))
    return c


def _mission(c: Campaign, e: Entry, data: WotwData) -> Campaign:
    if c.in_progress is not None:
        raise Refused(f"mission {c.in_progress.number} is still in progress: close it first with "
                      f"`sheets campaign debrief FILE --outcome success|aborted`")
    if e.strike is not None and not has_engineer(c):
        raise Refused("--strike-step: only a team with an Engineer may strike a step (seed 004, optional rule #3)")
    dice = entry_dice(e, "a mission")
    number = len(c.missions) + 1
    mission = roll(c, data, dice, number, e.strike)
    record = MissionRecord(number=number, seed=mission.seed, dice=None if mission.seed is not None else dice.describe,
                           objective=mission.objective.name if mission.objective else "", steps=len(mission.track),
                           track=track_text(mission), weather=mission.weather, struck_step=mission.struck_step)
    return cp.start_mission(c, data, record)


def _strike(c: Campaign, e: Entry, data: WotwData) -> Campaign:
    open_ = c.in_progress
    if open_ is None:
        raise Refused("no mission in progress: the Engineer strikes a step at the end of a mission's briefing "
                      "(seed 004, optional rule #3); roll one with `sheets campaign mission FILE`")
    if not has_engineer(c):
        raise Refused("only a team with an Engineer may strike a step (seed 004, optional rule #3: "
                      "start the campaign with --engineers and make a man Engineer)")
    if e.step is None or not 1 <= e.step < open_.steps:
        raise Refused(f"step {e.step}: choose a step from 1 to {open_.steps - 1}; the last step is the objective "
                      f"and is never struck (seed 004, optional rule #3)")
    if open_.struck_step is not None:
        raise Refused(f"mission {open_.number}: step {open_.struck_step} is struck already; an Engineer removes "
                      f"one step (seed 004, optional rule #3)")
    mission = roll(c, data, record_dice(open_), open_.number, e.step)
    new = c.model_copy(deep=True)
    record = new.missions[-1]
    record.track, record.struck_step = track_text(mission), mission.struck_step
    return new


def _debrief(c: Campaign, e: Entry, data: WotwData) -> Campaign:
    if e.outcome == "aborted" and (e.seed is not None or e.dice is not None):
        raise Refused(f"--{'seed' if e.seed is not None else 'dice'}: an aborted mission rolls no XP "
                      f"(seed 004, Post-mission debriefing); leave it out")
    dice = entry_dice(e, "a successful mission's 1d3 XP") if e.outcome == "success" and c.in_progress else None
    return cp.debrief(c, data, e.outcome or "", list(e.killed), list(e.wounded), dice, e.enemy_hq)


def _spend(c: Campaign, e: Entry, data: WotwData) -> Campaign:
    if e.promote:
        return cp.promote(c, data, e.promote)
    if e.learn:
        return cp.learn(c, data, e.learn, e.skill or "")
    if e.rearm:
        return cp.rearm(c, data, e.rearm, e.weapon or "")
    if e.make_engineer:
        return cp.make_engineer(c, data, e.make_engineer)
    if e.recruit:
        return cp.recruit(c, data, list(e.recruit), (e.quality or "").capitalize(), e.weapon or "", e.medical, e.engineer)
    raise Refused("a spend names one of promote, learn, recruit, rearm or make_engineer")


def _adjust(c: Campaign, e: Entry, data: WotwData) -> Campaign:
    """What the rules leave to the table: each change is the player's, with its reason."""
    reason = (e.reason or "").strip()
    if not reason:
        raise Refused("--reason: say why (it is printed in the record's ledger)")
    if not (e.cp or e.xp or e.heal or e.set_state or e.grenades):
        raise Refused("adjust what? give --cp, --xp, --heal NAME, --set-state NAME=STATE or --grenades NAME=N")
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


# -- replay ----------------------------------------------------------------------

@dataclass
class Replay:
    states: list[Campaign]          # the state after each entry
    last_set: dict[tuple, int]      # flattened field -> index of the entry that last changed it

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
    for i, e in enumerate(entries):
        try:
            c = apply(c, e, data)
        except SheetsError as exc:  # a rule, or an id the content does not know (a hand-edited entry)
            raise EntryRefused(i, str(exc)) from None
        flat = flatten(state_dict(c))
        for k, v in flat.items():
            if k not in before or before[k] != v:
                last[k] = i
        before = flat
        states.append(c)
    if not states:
        raise Refused("a campaign file needs its first entry (`new`)")
    return Replay(states, last)


def describe(e: Entry) -> str:
    """One entry in a few words (history, validate)."""
    dice = f"seed {e.seed}" if e.seed is not None else f"dice {e.dice}" if e.dice else ""
    if e.do == "new":
        return f"new: {e.nation} team of {len(e.team)} in {e.theatre}" + (f" (rolled with {e.rolled})" if e.rolled else "")
    if e.do == "baseline":
        return "baseline: the file as it stood before the ledger"
    if e.do == "mission":
        return f"mission ({dice}" + (f", step {e.strike} struck" if e.strike else "") + ")"
    if e.do == "strike":
        return f"strike step {e.step}"
    if e.do == "debrief":
        parts = [f"debrief: {e.outcome}" + (f" ({dice})" if dice else "") + (" +Enemy HQ" if e.enemy_hq else "")]
        parts += [f"killed {', '.join(e.killed)}"] if e.killed else []
        parts += [f"wounded {', '.join(e.wounded)}"] if e.wounded else []
        return "; ".join(parts)
    if e.do == "spend":
        if e.promote:
            return f"spend: promote {e.promote}"
        if e.learn:
            return f"spend: {e.learn} learns {e.skill}"
        if e.rearm:
            return f"spend: rearm {e.rearm} with {e.weapon}"
        if e.make_engineer:
            return f"spend: make {e.make_engineer} Engineer"
        return f"spend: recruit {', '.join(e.recruit)} ({e.quality} {e.weapon}{', medical' if e.medical else ''})"
    return f"adjust: {e.reason}"
