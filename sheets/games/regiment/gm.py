"""The Regiment's GM material as generic cards: weapons, vehicles, battle plans."""
from __future__ import annotations

import re

from sheets.printables import CardSet


def tag_id(tag: str) -> str:
    """'2-crew' -> 'crew', 'HEAT' -> 'heat', '#d' -> 'd'."""
    return re.sub(r"^[#\d]+-?", "", tag.strip()).lower() or tag.strip().lower()


def build_card_sets(data) -> dict[str, CardSet]:
    return {}
