"""A game's reference pages as one Sheet: its reference.yaml, then the sections its plug-in adds."""
from __future__ import annotations

from sheets.base.errors import SheetsError
from sheets.base.paper import page_size
from sheets.kinds import print_plugin, style
from sheets.library.content import Game
from sheets.library.kinds.notes import KIND_TITLES, LOST_MARK
from sheets.pipeline.sheet import Sheet


def has_reference(game: Game) -> bool:
    return game.content["reference"] is not None or bool(print_plugin.of(game).reference_sections(game))


def reference_sheet(game: Game, paper: str = "a4") -> Sheet:
    """The game's reference pages: its reference.yaml plus what its plugin adds."""
    parts: list[dict] = []
    landscape = False
    doc = game.content["reference"]
    if doc is not None:
        layout = doc.layout
        landscape = layout.orientation == "landscape"
        parts.append({"kind": "doc", "title": doc.title, "sections": doc.sections,
                      "layout": layout})
    parts += print_plugin.of(game).reference_sections(game)
    if parts and (notes := designers_notes(game)) is not None:
        parts.append(notes)
    if not parts:
        raise SheetsError(f"{game.info.title} has no reference sheet (no reference.yaml)")
    context = {**style.of(game), "title": f"{game.info.title} reference", "page_size": page_size(paper, landscape), "parts": parts,
               "footer": f"{game.info.title} · reference · warsheets"}
    return Sheet(filename=f"{game.id}-reference.pdf", template="reference.html.j2", context=context,
                 game=game.id, templates=game.templates, label=f"{game.info.title} reference")


def designers_notes(game: Game) -> dict | None:
    """The reference's last part, its own page: every note of the game's designers_notes.yaml, grouped by
    kind, each one line with its place in the book (None: a game without notes)."""
    doc = game.content.get("notes")
    if doc is None or not doc.notes:
        return None
    groups = [{"title": title, "notes": [n for n in doc.notes if n.kind == kind]} for kind, title in KIND_TITLES.items()]
    return {"kind": "notes", "title": "Designer's notes", "own_page": True, "book": game.info.source,
            "mark": LOST_MARK, "has_lost": any(n.kind == "lost" for n in doc.notes),
            "groups": [g for g in groups if g["notes"]]}
