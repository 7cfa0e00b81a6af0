"""The campaign as a ledger: each change is an `Entry`; the state is what replaying the entries gives.

`apply(state, entry)` is the one transition: the commands call it to make a change, and
`replay` calls it for `sheets validate`, `undo` and `history`. It only dispatches: each kind of
entry goes to its rule (`campaign.py`, `rules_mission.py`, `rules_spend.py`, `rules_adjust.py`),
a pure function, so no rule is written twice. A state without its entries (or a `baseline`) is
proved here too (`prove`): the plays its traces tell (`proof.py`) replayed by the same rules. It never prints and never touches a file, and it
returns the state after the entry with the dice the entry rolled (`Applied`).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

from sheets.base.errors import SheetsError
from sheets.games.wotw import campaign as cp
from sheets.games.wotw import rules_adjust, rules_mission, rules_spend
from sheets.games.wotw.campaign import Applied
from sheets.games.wotw.models import WotwData
from sheets.games.wotw.proof import plays
from sheets.games.wotw.records import BaselineEntry, Campaign, DebriefEntry, Entry, Refused, SpendEntry

FIRST = ("new", "baseline")


class EntryRefused(Refused):
    """Replaying entry `index` was refused by the rules (a hand-edited entry)."""

    def __init__(self, index: int, reason: str, code: str = "refused"):
        super().__init__(reason, code)
        self.index, self.reason = index, reason


def apply(c: Campaign | None, e: Entry, data: WotwData) -> Applied:
    """The state after entry `e` and the scripted dice it rolled, or `Refused` naming the rule
    (nothing else changes)."""
    if c is None and e.do not in FIRST:
        raise Refused(f"the first entry must be `new` (or `baseline`), not `{e.do}`", code="first-entry")
    if c is not None and e.do in FIRST:
        raise Refused(f"`{e.do}` may only be the first entry", code="first-entry-again")
    after = TRANSITIONS[e.do](c, e, data)
    return after if isinstance(after, Applied) else Applied(after)


#: kind -> its rule: (the state before, or None for a first entry; the entry; the game's data) -> the state
#: after (`Applied` when the rule rolled dice)
TRANSITIONS: dict[str, Callable[..., Campaign | Applied]] = {  # each rule takes its own kind of entry
    "new": lambda _, e, data: cp.new(e, data),
    "baseline": lambda _, e, data: baseline(e, data),
    "mission": rules_mission.roll_mission,
    "strike": rules_mission.strike_step,
    "debrief": rules_mission.close_mission,
    "spend": rules_spend.spend,
    "adjust": rules_adjust.adjust,
}


# -- replay ----------------------------------------------------------------------

@dataclass
class Replay:
    states: list[Campaign]          # the state after each entry
    unused: dict[int, tuple[int, int]] = field(default_factory=dict)  # entry -> (dice not rolled, dice given)

    @property
    def state(self) -> Campaign:
        return self.states[-1]

    @cached_property
    def last_set(self) -> dict[tuple, int]:
        """flattened field -> index of the entry that last changed it (asked only to say a disagreement)."""
        last: dict[tuple, int] = {}
        before: dict[tuple, object] = {}
        for i, c in enumerate(self.states):
            flat = flatten(state_dict(c))
            for k, v in flat.items():
                if k not in before or before[k] != v:
                    last[k] = i
            before = flat
        return last


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
    c = None
    unused: dict[int, tuple[int, int]] = {}
    for i, e in enumerate(entries):
        try:
            c, dice = apply(c, e, data)
        except SheetsError as exc:  # a rule, or an id the content does not know (a hand-edited entry)
            raise EntryRefused(i, str(exc), getattr(exc, "code", "refused")) from None
        if dice is not None and dice.unused:
            unused[i] = (dice.unused, len(dice.script))
        states.append(c)
    if not states:
        raise Refused("a campaign file needs its first entry (`new`)", code="no-entries")
    return Replay(states, unused)


# -- a state proved without its entries --------------------------------------------

def proved(c: Campaign, data: WotwData) -> tuple[list[tuple[tuple, str]], Campaign | None]:
    """Every way the state is not one a legal sequence of plays reaches (located), and the state the plays
    its traces tell give (proof.py) when they are all allowed; the rules are `apply`'s, as for any entry."""
    told, problems = plays(c)
    state = None
    for play in told:
        try:
            state = apply(state, play.entry, data).campaign
        except SheetsError as exc:
            code = getattr(exc, "code", "refused")
            return problems + [(play.loc, f"{describe(play.entry)}, as this tells it, is refused by the rules "
                                          f"(rule {code}): {exc}")], None
    if problems or state is None:
        return problems, None
    return differences(state_dict(c), state_dict(state)), state


def differences(stored: dict, reached: dict) -> list[tuple[tuple, str]]:
    """Each stored value the plays do not give, located (a list: its length, once)."""
    have, want = flatten(stored), flatten(reached)
    done: list[tuple] = []
    out: list[tuple[tuple, str]] = []
    for key in sorted(set(have) | set(want), key=lambda k: [str(p).zfill(6) for p in k]):
        if have.get(key, ...) == want.get(key, ...) or any(key[:len(d)] == d for d in done):
            continue
        loc = key[:-1] if key[-1] == "#" else key
        done.append(loc)
        said = "rows" if key[-1] == "#" else "value"
        out.append((loc, f"stored {said} {have.get(key)!r}, but the plays this state tells (its ledger, "
                         f"histories and missions, replayed by the rules) give {want.get(key)!r}: no legal sequence "
                         f"of plays reaches this state (rule state-unreachable)"))
    return out


def prove(c: Campaign, data: WotwData) -> list[tuple[tuple, str]]:
    """`proved`'s problems."""
    return proved(c, data)[0]


def baseline(e: BaselineEntry, data: WotwData) -> Campaign:
    """A `baseline` entry: the state it holds, trusted only when it proves itself (as a file without entries)."""
    try:
        c = Campaign.model_validate({k: v for k, v in (e.state or {}).items() if k != "entries"})
    except ValueError as exc:
        raise Refused(f"the baseline state is not a campaign: {exc}", code="baseline-not-a-campaign") from None
    problems = cp.check(c, data)
    state = None
    if not problems:
        problems, state = proved(c, data)
    if problems:
        raise Refused("; ".join(msg for _, msg in problems), code="baseline-unproved")
    return state


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
