"""Tabletop Simulator decks (`sheets cards GAME --export tts -o DIR`).

Tabletop Simulator's Custom Deck takes the faces as one grid image of at most 10 columns and
7 rows, at most 4096×4096 pixels, RGB PNG or JPEG, and one image for the back
(https://kb.tabletopsimulator.com/custom-content/asset-creation/). A full 10×7 sheet's last
slot is the deck's hidden card, so a sheet holds at most 69 faces; a bigger deck is split into
`NAME-deck-1.png`, `NAME-deck-2.png` ... Each card is rendered without bleed at the highest
whole resolution that fits 10×7 cards in 4096 px (a poker card: 409×572 px at 165 dpi).
Import: Objects → Components → Cards → Custom Deck; Face: NAME-deck.png, Back: NAME-back.png,
Width: the sheet's columns, Height: its rows, Number: its cards.

Or with no import at all: `NAME.json` is the deck as a Tabletop Simulator saved object (a
`DeckCustom` whose `CustomDeck` entries name the grid and back images by file URL, one entry per
grid image, each card's `CardID` its sheet's number times 100 plus its slot on the sheet). Copied
into Tabletop Simulator's `Saves/Saved Objects/` folder it is under Objects → Saved Objects, and
placing it puts the deck on the table. The URLs are the images' paths on this machine: move the
folder, and export again (or upload the images and put their web addresses in the file).
"""
from __future__ import annotations

import hashlib
import io
import json
import math
from dataclasses import dataclass
from pathlib import Path

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


def _transform(y: float = 1.0) -> dict:
    """Where an object lands when placed: at the table's middle, face down (rotated 180° about z)."""
    return {"posX": 0.0, "posY": y, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
            "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}


def _guid(*parts: str) -> str:
    """Tabletop Simulator's object id (six hex digits), from what the object is: the same deck
    exported again is the same file."""
    return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()[:6]


def saved_object(card_set, folder: Path, sideways: bool = False) -> tuple[str, bytes]:
    """(file name, JSON) of the deck as a Tabletop Simulator saved object, naming the grid and back
    images that `deck_files` writes into `folder` by their file URLs."""
    faces = [card for card in card_set.cards for _ in range(card.count)]
    back = (Path(folder) / f"{card_set.id}-back.png").resolve().as_uri()
    decks: dict[str, dict] = {}
    cards: list[dict] = []
    for number, grid in enumerate(deck_sheets(card_set.id, len(faces)), start=1):
        entry = {"FaceURL": (Path(folder) / grid.name).resolve().as_uri(), "BackURL": back,
                 "NumWidth": grid.columns, "NumHeight": grid.rows, "BackIsHidden": True, "UniqueBack": False, "Type": 0}
        decks[str(number)] = entry
        for slot in range(grid.count):
            card = faces[grid.first + slot]
            card_id = number * 100 + slot
            cards.append({"Name": "Card", "Transform": _transform(), "Nickname": card.title, "Description": "",
                          "CardID": card_id, "SidewaysCard": sideways, "CustomDeck": {str(number): entry},
                          "GUID": _guid(card_set.id, str(grid.first + slot), card.id)})
    if len(cards) == 1:  # one card is a card, not a deck
        state = dict(cards[0], Transform=_transform(), Nickname=faces[0].title)
    else:
        state = {"Name": "DeckCustom", "Transform": _transform(), "Nickname": card_set.title, "Description": "",
                 "Locked": False, "Grid": True, "Snap": True, "Hands": False, "SidewaysCard": sideways,
                 "DeckIDs": [card["CardID"] for card in cards], "CustomDeck": decks,
                 "ContainedObjects": cards, "GUID": _guid(card_set.id)}
    saved = {"SaveName": card_set.title, "Date": "", "VersionNumber": "", "GameMode": "", "GameType": "",
             "GameComplexity": "", "Tags": [], "Gravity": 0.5, "PlayArea": 0.5, "Table": "", "Sky": "",
             "Note": "", "TabStates": {}, "LuaScript": "", "LuaScriptState": "", "XmlUI": "", "ObjectStates": [state]}
    return f"{card_set.id}.json", (json.dumps(saved, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
