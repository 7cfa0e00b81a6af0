"""The Regiment's GM material as generic cards: weapons, vehicles, battle plans.

The rules live once in content (weapons.yaml, tags.yaml, vehicles.yaml,
battle_plans.yaml, basic_moves.yaml); this module only arranges them as card sets,
which the generic card core renders, checks and imposes.
"""
from __future__ import annotations

import re

from sheets.games.regiment.models import UNDEFINED_TAG_TEXT
from sheets.library.kinds.cards import CardSet

#: card sizes chosen so that the longest card of each set passes the pre-flight
WEAPON_CARD = "poker"
VEHICLE_CARD = "poker"
PLAN_CARD = "poker"


def tag_id(tag: str) -> str:
    """'2-crew' -> 'crew', 'HEAT' -> 'heat', '#d' -> 'd'."""
    return re.sub(r"^[#\d]+-?", "", tag.strip()).lower() or tag.strip().lower()


def card_id(name: str) -> str:
    """'Mortar, Light' -> 'mortar-light'."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def ranges_text(ranges: list[str]) -> str | None:
    """['near', 'far'] -> 'Near / Far' (as the rules print 'near/far')."""
    return " / ".join(r.capitalize() for r in ranges) or None


def tag_term(printed: str, name: str) -> str:
    """How a tag is named on a card: '2-crew' keeps its number, 'HEAT' gets its long name."""
    return printed if printed[:1].isdigit() else name


def weapon_cards(data) -> dict:
    tags = {t.id: t for t in data.tags.tags} if data.tags else {}
    cards = []
    for category in data.weapons.categories:
        for weapon in category.weapons:
            blocks: list[dict] = []
            if weapon.description:
                blocks.append({"p": f"*{weapon.description}*"})
            terms = []
            for printed in weapon.tags:
                tag = tags.get(tag_id(printed))
                # a tag the rules never define says so, never silently vanishes
                terms.append({"term": f"{tag_term(printed, tag.name) if tag else printed}:",
                              "text": tag.printed if tag else UNDEFINED_TAG_TEXT})
            if terms:
                blocks += [{"h": "Tags"}, {"terms": terms}]
            else:
                blocks.append({"p": "No tags."})
            cards.append({
                "id": card_id(weapon.name), "title": weapon.name, "subtitle": category.title,
                "stats": [{"label": "Damage", "value": weapon.damage},
                          {"label": "Range", "value": ranges_text(weapon.ranges)}],
                "blocks": blocks,
            })
    return dict(id="weapons", title="Weapons", size=WEAPON_CARD, cards=cards)


RANGE_WORDS = {"tight": "tight", "close": "close", "near": "near", "far": "far", "ex": "extreme", "extreme": "extreme"}
#: "**SAW** (3d far area autofire suppress)" / "sidearm w/suppressor (2d tight quick quiet)"
_GEAR_WEAPON = re.compile(r"(?:\*\*)?([A-Za-z][A-Za-z /-]*?)(?:\*\*)? \((\d+d(?:/\d+d)?) ([a-z/]+)((?: [a-z0-9-]+)*)\)")


def gear_weapons(text: str) -> list[tuple[str, str, list[str], list[str]]]:
    """(name, damage, ranges, tags) of every weapon a loadout line states with its damage dice."""
    out = []
    for match in _GEAR_WEAPON.finditer(text):
        name, damage, ranges, tags = match.groups()
        words = ranges.split("/")
        if not all(w in RANGE_WORDS for w in words):
            continue
        name = re.sub(r"^(?:and|or) ", "", name.strip())
        out.append((name[:1].upper() + name[1:], damage, [RANGE_WORDS[w] for w in words], tags.split()))
    return out


def loadout_cards(data, playbook) -> dict | None:
    """Cards for the weapons a playbook's loadout names that the weapon list does not have
    (the Operator's modern kit): damage, range and tags as the loadout prints them."""
    known = {w.name.lower() for c in data.weapons.categories for w in c.weapons} if data.weapons else set()
    tags = {t.id: t for t in data.tags.tags} if data.tags else {}
    options = [lo.name for lo in playbook.loadouts]
    cards, seen = [], set()
    for source, text in [*((f"loadout option ({', '.join(options)}: choose one)", lo.text) for lo in playbook.loadouts),
                         ("carried with every loadout", playbook.also)]:
        for name, damage, ranges, printed_tags in gear_weapons(text):
            if name.lower() in known or name.lower() in seen:
                continue
            seen.add(name.lower())
            terms = []
            for printed in printed_tags:
                tag = tags.get(tag_id(printed))
                terms.append({"term": f"{tag_term(printed, tag.name) if tag else printed}:",
                              "text": tag.printed if tag else UNDEFINED_TAG_TEXT})
            blocks: list[dict] = [{"h": "Tags"}, {"terms": terms}] if terms else [{"p": "No tags."}]
            blocks.append({"p": f"*{playbook.name}: {source}.*"})
            cards.append({"id": card_id(name), "title": name, "subtitle": f"{playbook.name} loadout",
                          "stats": [{"label": "Damage", "value": damage},
                                    {"label": "Range", "value": ranges_text(ranges)}],
                          "blocks": blocks})
    if not cards:
        return None
    return dict(id=f"{playbook.id}-loadout", title=f"{playbook.name} loadout", size=WEAPON_CARD, cards=cards)


def _move(data, name: str):
    for group in data.basic_moves.groups:
        for move in group.moves:
            if move.name.lower() == name.lower():
                return move
    return None


def vehicle_cards(data) -> dict:
    cards = []
    for vehicle in data.vehicles.vehicles:
        blocks: list[dict] = [{"h": "Armor"}]
        if vehicle.armor is not None:
            facings = ("front", "side", "rear", "top")
            blocks.append({"table": {"header": [f.capitalize() for f in facings],
                                     "rows": [[getattr(vehicle.armor, f) for f in facings]]}})
        else:
            blocks.append({"p": vehicle.armor_text})
        lines = []
        for w in vehicle.weapons:
            mount = f"({w.mount}) " if w.mount else ""
            detail = " · ".join(x for x in (w.damage or "—", "/".join(w.ranges), ", ".join(w.tags)) if x)
            lines.append(f"{mount}**{w.name}** {detail}")
        blocks += [{"h": "Weapons"}, {"list": lines}]
        if vehicle.advantages:
            blocks.append({"p": "**Advantages:** " + ", ".join(vehicle.advantages)})
        cards.append({"id": card_id(vehicle.name), "title": vehicle.name, "subtitle": "Vehicle",
                      "stats": [{"label": "Crew", "value": vehicle.crew}], "blocks": blocks})
    # every vehicle's back: how to hurt it (the attack-a-vehicle move with its major and
    # minor conditions, from basic_moves.yaml) and what armor means (vehicles.yaml)
    back: dict = {"title": "Vehicles", "blocks": [{"p": data.vehicles.intro}]}
    attack = _move(data, "Attack a Vehicle")
    if attack is not None:
        back = {"title": attack.name, "subtitle": attack.roll_text,
                "blocks": [{"p": attack.text},
                           *[b.model_dump(by_alias=True, exclude_none=True) for b in attack.extra_blocks],
                           {"p": data.vehicles.intro}]}
    # the same rules as a front too: the kit prints fronts only, and a GM needs them on the table
    cards.append({"id": "vehicle-damage", "title": back["title"], "subtitle": back.get("subtitle") or "Vehicles",
                  "blocks": back["blocks"]})
    return dict(id="vehicles", title="Vehicles", size=VEHICLE_CARD, back=back, cards=cards)


def battle_plan_cards(data) -> dict:
    cards = []
    for plan in data.battle_plans.plans:
        cards.append({
            "id": plan.id, "title": plan.name, "subtitle": "Battle plan",
            "blocks": [{"p": f"**Goal:** {plan.goal}"},
                       {"h": "Methods"}, {"list": plan.methods},
                       {"h": "Considerations"}, {"list": plan.considerations}],
        })
    using = data.battle_plans.using
    blocks = [b.model_dump(by_alias=True, exclude_none=True) for b in using.blocks]
    # the rules' page on using the plans is three times a plan's length: cut, between its blocks,
    # into as many cards of about the same length as a plan card holds (at the play floor it runs
    # past one)
    parts = _shares(blocks)
    for i, part in enumerate(parts):
        cards.append({"id": "using-battle-plans" + (f"-{i + 1}" if i else ""),
                      # no "(1 of 3)": a poker card's title has no room for it (it split the title
                      # over two lines); the deck's numbers in each card's footer give the order
                      "title": using.title,
                      "blocks": part})
    return dict(id="battle-plans", title="Battle plans", size=PLAN_CARD, cards=cards)


def _shares(blocks: list[dict], longest: int = 700) -> list[list[dict]]:
    """`blocks` cut into the fewest runs of at most about `longest` characters each (a block is
    never cut), of about the same length."""
    sizes = [len(str(b)) for b in blocks]
    count = min(len(blocks), max(1, -(-sum(sizes) // longest)))
    runs: list[list[dict]] = [[]]
    done, share = 0, sum(sizes) / count
    for block, size in zip(blocks, sizes):
        if runs[-1] and len(runs) < count and done + size / 2 > share * len(runs):
            runs.append([])
        runs[-1].append(block)
        done += size
    return runs


def build_card_sets(data) -> dict[str, CardSet]:
    """The GM card sets the loaded content supports (a missing file means no such set)."""
    sets: dict[str, CardSet] = {}
    if data.weapons is not None:
        sets["weapons"] = CardSet.model_validate(weapon_cards(data))
    if data.vehicles is not None:
        sets["vehicles"] = CardSet.model_validate(vehicle_cards(data))
    if data.battle_plans is not None:
        sets["battle-plans"] = CardSet.model_validate(battle_plan_cards(data))
    for playbook in getattr(data, "playbooks", {}).values():
        found = loadout_cards(data, playbook)
        if found is not None:
            sets[found["id"]] = CardSet.model_validate(found)
    return sets
