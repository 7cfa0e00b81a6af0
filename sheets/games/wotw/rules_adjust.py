"""The rules of an adjustment: what the rules leave to the table (CP and XP, healing, a man's
state, grenades), each change the player's, with its reason. Pure, as every rule (see `campaign.py`).

Each part is a function `(Campaign, AdjustEntry) -> (Campaign, what it did)`; `adjust` runs
them in order and writes the ledger row. The entry's model refuses a blank reason and an
adjustment of nothing.
"""
from __future__ import annotations

from collections.abc import Callable

from sheets.games.wotw.campaign import refuse_if_broken
from sheets.games.wotw.models import WotwData
from sheets.games.wotw.records import AdjustEntry, Campaign, LedgerEntry, Refused

Done = tuple[Campaign, list[str]]
MAX_GRENADES = 9  # as a campaign file's `grenades` (records.Man)


def points(c: Campaign, e: AdjustEntry) -> Done:
    """CP and XP added or taken away; neither goes below 0."""
    new = c.fork()
    new.cp, new.xp = c.cp + e.cp, c.xp + e.xp
    if new.cp < 0 or new.xp < 0:
        raise Refused(f"CP {e.cp:+d}, XP {e.xp:+d}: the campaign has {c.cp} CP and {c.xp} XP; neither goes below 0",
                      code="points-below-zero")
    return new, []


def heal(c: Campaign, e: AdjustEntry) -> Done:
    """Wounded men healed (the seed gives no healing between missions: the player's call)."""
    new, done = c.fork(e.heal), []
    for name in e.heal:
        man = new.man(name)
        if man.status != "wounded":
            raise Refused(f"{man.name} is {man.status}, not wounded" +
                          ("; a dead man comes back by setting his state to fit" if man.status == "killed" else ""),
                          code="not-wounded")
        man.status = "fit"
        man.history.append(f"healed after M{c.played}")
        done.append(f"{man.name} healed")
    return new, done


def set_state(c: Campaign, e: AdjustEntry) -> Done:
    """Men made fit, wounded or killed by hand."""
    new, done = c.fork(e.set_state), []
    for name, state in e.set_state.items():
        man = new.man(name)
        if man.status == state:
            raise Refused(f"{man.name} is {state} already", code="state-unchanged")
        man.history.append(f"{man.status} to {state} after M{c.played} (adjusted)")
        man.status = state
        done.append(f"{man.name} {state}")
    return new, done


def grenades(c: Campaign, e: AdjustEntry) -> Done:
    """Grenades counted by hand."""
    new, done = c.fork(e.grenades), []
    for name, count in e.grenades.items():
        man = new.man(name)
        if not 0 <= count <= MAX_GRENADES:
            raise Refused(f"{man.name} with {count} grenades: a man carries 0 to {MAX_GRENADES} grenades",
                          code="grenades-out-of-range")
        man.grenades = count
        done.append(f"{man.name} {count} grenades")
    return new, done


#: the parts of an adjustment, in the order they are made (and refused)
PARTS: tuple[Callable[[Campaign, AdjustEntry], Done], ...] = (points, heal, set_state, grenades)


def adjust(c: Campaign, e: AdjustEntry, data: WotwData) -> Campaign:
    """An `adjust` entry: its parts in order, then one ledger row with the reason."""
    new, done = c, []
    for part in PARTS:
        new, did = part(new, e)
        done += did
    done += [f"{v:+d} {k}" for k, v in (("CP", e.cp), ("XP", e.xp)) if v]
    new.ledger.append(LedgerEntry(after=c.played, what=f"adjusted ({', '.join(done)}): {e.reason.strip()}",
                                  cp=e.cp, xp=e.xp))
    return refuse_if_broken(new, data)
