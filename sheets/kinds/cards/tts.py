"""Tabletop Simulator decks (`sheets cards GAME --export tts -o DIR`).

Tabletop Simulator's Custom Deck takes the faces as one grid image of at most 10 columns and
7 rows, at most 4096×4096 pixels, RGB PNG or JPEG, and one image for the back
(https://kb.tabletopsimulator.com/custom-content/asset-creation/). A full 10×7 sheet's last
slot is the deck's hidden card, so a sheet holds at most 69 faces; a bigger deck is split into
`NAME-deck-1.png`, `NAME-deck-2.png` ... Each card is rendered without bleed at the highest
whole resolution that fits 10×7 cards in 4096 px (a poker card: 409×572 px at 165 dpi).
Import: Objects → Components → Cards → Custom Deck; Face: NAME-deck.png, Back: NAME-back.png,
Width: the sheet's columns, Height: its rows, Number: its cards.
"""
from __future__ import annotations

import io
import math
from dataclasses import dataclass

MAX_COLUMNS, MAX_ROWS, MAX_PX = 10, 7, 4096
PER_SHEET = MAX_COLUMNS * MAX_ROWS - 1  # the last slot of a full sheet is the hidden card
MAX_DPI = 300
MM_PER_INCH = 25.4


def card_dpi(width_mm: float, height_mm: float) -> int:
    """The highest whole resolution at which 10×7 cards of this size fit in 4096 px."""
    fit = min(MAX_PX / MAX_COLUMNS / (width_mm / MM_PER_INCH), MAX_PX / MAX_ROWS / (height_mm / MM_PER_INCH))
    dpi = min(MAX_DPI, math.floor(fit))
    while dpi > 1 and (round(width_mm / MM_PER_INCH * dpi) * MAX_COLUMNS > MAX_PX
                       or round(height_mm / MM_PER_INCH * dpi) * MAX_ROWS > MAX_PX):
        dpi -= 1  # whole pixels round up now and then
    return dpi


@dataclass(frozen=True)
class DeckSheet:
    """One grid image: its file name, the faces on it, and its columns × rows."""

    name: str
    first: int
    count: int
    columns: int
    rows: int

    def how_to_import(self) -> str:
        return f"{self.name}: Custom Deck, Width {self.columns}, Height {self.rows}, Number {self.count}"


def deck_sheets(deck: str, cards: int) -> list[DeckSheet]:
    """The grid images of a deck of `cards` faces, in order."""
    parts = math.ceil(cards / PER_SHEET)
    out = []
    for k in range(parts):
        first = k * PER_SHEET
        count = min(PER_SHEET, cards - first)
        columns = min(MAX_COLUMNS, count)
        rows = math.ceil(count / columns)
        name = f"{deck}-deck.png" if parts == 1 else f"{deck}-deck-{k + 1}.png"
        out.append(DeckSheet(name, first, count, columns, rows))
    return out


def grid_png(faces: list[bytes], sheet: DeckSheet) -> bytes:
    """The sheet's faces pasted left to right, top to bottom, on one RGB PNG (white where no card)."""
    from PIL import Image  # noqa: PLC0415 - only when images are made

    images = [Image.open(io.BytesIO(data)).convert("RGB") for data in faces[sheet.first:sheet.first + sheet.count]]
    width, height = images[0].size
    grid = Image.new("RGB", (width * sheet.columns, height * sheet.rows), (255, 255, 255))
    for index, image in enumerate(images):
        grid.paste(image, ((index % sheet.columns) * width, (index // sheet.columns) * height))
    buf = io.BytesIO()
    grid.save(buf, format="PNG", optimize=False)
    return buf.getvalue()


def deck_files(card_set, back_of: tuple[int, ...], pngs: list[bytes]) -> list[tuple[str, bytes]]:
    """(file name, PNG) of a deck: its grid images (each card as many times as its `count`), then its back (the first card's: Tabletop
    Simulator's Custom Deck has one back for the deck)."""
    n = len(card_set.cards)
    faces = [pngs[i] for i, card in enumerate(card_set.cards) for _ in range(card.count)]  # a card of count N: N faces
    files = [(grid.name, grid_png(faces, grid)) for grid in deck_sheets(card_set.id, len(faces))]
    return files + [(f"{card_set.id}-back.png", pngs[n + back_of[0]])]
