"""The reference's content side: a game's reference.yaml (`ReferenceDoc`, in `sheets.library.blocks`),
and the quick-reference cards it may cut from its own sections."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sheets.library.blocks import Block, ReferenceDoc
from sheets.library.kinds import ContentKind
from sheets.library.kinds.cards import Card, CardBack, CardSet

if TYPE_CHECKING:
    from sheets.library.files import FileLoader


def _quickref_cards(reference: ReferenceDoc, files: FileLoader) -> CardSet | None:
    """Cards cut from the reference: each card shows the sections it names, in order."""
    spec = reference.cards
    cards = []
    ok = True
    seen: set[str] = set()
    for ci, card in enumerate(spec.cards):
        if card.id in seen:
            ok = False  # a card id used twice: reported where the file's ids are checked
        seen.add(card.id)
        blocks: list[Block] = []
        for si, section_id in enumerate(card.sections):
            section = reference.section(section_id)
            if section is None:
                files.problem("reference.yaml", ("cards", "cards", ci, "sections", si),
                              f"no section with id {section_id!r} in this file")
                ok = False
                continue
            if len(card.sections) > 1:
                blocks.append(Block(h=section.title))
            blocks.extend(section.blocks)
        cards.append(Card(id=card.id, title=card.title, blocks=blocks))
    if not ok:
        return None
    back = CardBack(title=spec.back_title or reference.title, subtitle="Quick reference")
    return CardSet(id=spec.id, title=spec.title, size=spec.size, back=back, cards=cards)


def _load(files: FileLoader, game: Any, _library: Any) -> ReferenceDoc | None:
    """The reference.yaml; its quick-reference cards join the game's card sets."""
    reference = files.model("reference.yaml", ReferenceDoc, required=False)
    if reference is not None and reference.cards is not None:
        derived = _quickref_cards(reference, files)
        if derived is not None:
            game.card_sets[derived.id] = derived
    elif reference is None and isinstance(files.data("reference.yaml"), dict):
        _unknown_sections(files.data("reference.yaml"), files)
    return reference


def _unknown_sections(written: dict, files: FileLoader) -> None:
    """The sections quick-reference cards name that the file has not, checked as written (when
    some other mistake keeps the file from loading, this one is reported with it)."""
    sections = written.get("sections")
    # as written: an id may be any YAML value (a mapping is unhashable), and only text names a section
    known = {s.get("id") for s in sections if isinstance(s, dict) and isinstance(s.get("id"), str)} \
        if isinstance(sections, list) else set()
    spec = written.get("cards")
    cards = spec.get("cards") if isinstance(spec, dict) else None
    for ci, card in enumerate(cards if isinstance(cards, list) else []):
        named = card.get("sections") if isinstance(card, dict) else None
        for si, section_id in enumerate(named if isinstance(named, list) else []):
            if isinstance(section_id, str) and section_id not in known:
                files.problem("reference.yaml", ("cards", "cards", ci, "sections", si),
                              f"no section with id {section_id!r} in this file")


CONTENT = ContentKind("reference", ReferenceDoc, "reference.yaml", "a game's reference.yaml", rank=0, load=_load)
