"""What each man can buy between missions, with its cost: the desk's spend page and `campaign spend --list`.

Pure, and no rule of its own. Each offer is a ledger `spend` entry (the one `sheets campaign
spend` would write) tried through `ledger.apply`, the transition every command uses: once
with plenty of XP and CP, once as the team stands. Refused even with plenty: the rules do
not allow it (a Veteran is not promoted, a Green keeps his weapon), so it is not offered.
Allowed with plenty: it is offered, at the XP and CP that trial took. Refused as the team
stands: not affordable, and the reason is the very refusal the command would print. The
offer and the refusal cannot disagree.
"""
from __future__ import annotations

from dataclasses import dataclass

from sheets.games.wotw import ledger
from sheets.games.wotw.rules_spend import PROMOTIONS
from sheets.games.wotw.models import WotwData
from sheets.games.wotw.records import Campaign, Man, Refused, SpendEntry

PLENTY = 10**6  # XP and CP no price reaches: the trial that finds what the rules allow


@dataclass
class Offer:
    man: str
    kind: str  # promote, skill, rearm, engineer (the desk's spend form's names)
    label: str  # "promote to Private", "learn Camouflage", "rearm with SMG", "make Engineer"
    detail: str  # the skill or the weapon ('' for the others)
    entry: SpendEntry  # the ledger entry a purchase writes
    xp: int
    cp: int
    refused: str | None = None  # why the team cannot pay for it now (None: it can)

    @property
    def affordable(self) -> bool:
        return self.refused is None

    @property
    def price(self) -> str:
        parts = [f"{n} {unit}" for n, unit in ((self.xp, "XP"), (self.cp, "CP")) if n]
        return ", ".join(parts) or "free"


def candidates(c: Campaign, data: WotwData, man: Man) -> list[tuple[str, str, str, SpendEntry]]:
    """Every purchase one could ask for this man (the rules then sort out which they allow)."""
    out = [("promote", f"promote to {PROMOTIONS.get(man.quality, 'a higher quality')}", "",
            SpendEntry(do="spend", promote=man.name))]
    out += [("skill", f"learn {s.name}", s.name, SpendEntry(do="spend", learn=man.name, skill=s.name))
            for s in data.rules.skills.list]
    weapons = dict.fromkeys(r.weapon for r in data.nation(c.nation).recruits)
    out += [("rearm", f"rearm with {w}", w, SpendEntry(do="spend", rearm=man.name, weapon=w)) for w in weapons]
    out.append(("engineer", "make Engineer", "", SpendEntry(do="spend", make_engineer=man.name)))
    return out


def offers(c: Campaign, data: WotwData, name: str) -> list[Offer]:
    """What the rules allow this man, each with its price and whether the team can pay it now."""
    c = c.model_copy(update={"entries": []})
    plenty = c.model_copy(update={"xp": PLENTY, "cp": PLENTY})
    found = []
    for kind, label, detail, entry in candidates(c, data, c.man(name)):
        try:
            after = ledger.apply(plenty, entry, data).campaign
        except Refused:
            continue
        offer = Offer(c.man(name).name, kind, label, detail, entry, PLENTY - after.xp, PLENTY - after.cp)
        try:
            ledger.apply(c, entry, data)
        except Refused as exc:
            offer.refused = str(exc)
        found.append(offer)
    return found


def spend_options(c: Campaign, data: WotwData) -> dict[str, list[Offer]]:
    """Each living man's offers, in roster order."""
    return {m.name: offers(c, data, m.name) for m in c.living}


def offer_lines(c: Campaign, options: dict[str, list[Offer]]) -> list[str]:
    """`sheets campaign spend FILE --list`: one line per offer."""
    lines = [f"{c.xp} XP and {c.cp} CP saved"]
    for name, found in options.items():
        man = c.man(name)
        lines.append(f"{name} ({man.quality}, {man.weapon}, {man.status}):")
        lines += [f"  {o.label}: {o.price}" + (f"  -- not now: {o.refused}" if o.refused else "") for o in found]
        if not found:
            lines.append("  nothing the rules allow")
    return lines
