"""Backs inside the kit (issue 47 item 5): in kit.pdf and in each card part, every page of card
faces is followed by a page of backs whose cards lie where duplex printing puts them behind their
faces (mirrored about the axis the sheet turns on), and the contents page names that edge beside
the part, in words, with no command to type."""
from __future__ import annotations

import re

import pymupdf
import pytest

from cardfill import cards
from sheets.library.content import Library

TOL_MM = 0.05
MM = 72 / 25.4


def _pages(path):
    """{page: [faces]} of a PDF's card faces (tests/cardfill.py), and its pages' sizes in mm."""
    by_page: dict[int, list] = {}
    for face in cards(path):
        by_page.setdefault(face.page, []).append(face)
    with pymupdf.open(path) as doc:
        sizes = [(p.rect.width / MM, p.rect.height / MM) for p in doc]
    return by_page, sizes


def _axis(fronts, backs, size) -> str | None:
    """'vertical' when each back lies at its front's place mirrored left to right, 'horizontal' when
    top to bottom; None when neither (or a slot is missing)."""
    w, h = size
    front_at = {f.slot: f.box for f in fronts}
    back_at = {b.slot: b.box for b in backs}
    if front_at.keys() != back_at.keys():
        return None
    def near(a, b):
        return all(abs(x - y) <= TOL_MM for x, y in zip(a, b))
    if all(near(back_at[s], (w - x1, y0, w - x0, y1)) for s, (x0, y0, x1, y1) in front_at.items()):
        return "vertical"
    if all(near(back_at[s], (x0, h - y1, x1, h - y0)) for s, (x0, y0, x1, y1) in front_at.items()):
        return "horizontal"
    return None


def _edge(axis: str, size) -> str:
    """The paper's edge a sheet turning about `axis` flips on."""
    portrait = size[1] >= size[0]
    return "long" if (axis == "vertical") == portrait else "short"


def _decks_checked(path) -> dict[int, str]:
    """Each page of faces followed by its backs: {first page of faces: the edge they flip on}."""
    by_page, sizes = _pages(path)
    edges = {}
    for page, faces in sorted(by_page.items()):
        if not all(f.front for f in faces):
            assert not any(f.front for f in faces), f"page {page + 1}: faces and backs on one page"
            assert page - 1 in by_page and all(f.front for f in by_page[page - 1]), \
                f"page {page + 1}: backs not right after a page of faces"
            continue
        backs = by_page.get(page + 1, [])
        assert backs and not any(b.front for b in backs), f"page {page + 1}: faces with no backs after them"
        axis = _axis(faces, backs, sizes[page])
        assert axis is not None, f"page {page + 2}: its backs are not behind the faces of page {page + 1}"
        edges[page] = _edge(axis, sizes[page])
    return edges


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_deck_s_backs_follow_its_faces_mirrored_for_duplex(request, paper):
    kit = request.getfixturevalue("whole_kit" if paper == "a4" else "whole_kit_letter")
    library = Library()
    decks = {(g, s.id): len(s.cards) for g in library.game_ids() for s in library.game(g).card_sets.values()}
    edges = _decks_checked(kit.folder / "kit.pdf")
    faces = [f for f in cards(kit.folder / "kit.pdf") if f.front]
    assert len(faces) == sum(decks.values())  # every card of every deck is in kit.pdf, once
    parts = [p for p in kit.folder.glob("*.pdf") if p.name != "kit.pdf" and _pages(p)[0]]
    assert len(parts) == len(decks)  # each deck a part of its own ...
    for part in parts:
        assert _decks_checked(part)  # ... with its backs after its faces too
    # the contents page says the edge beside each deck, in words a person reads
    with pymupdf.open(kit.folder / "kit.pdf") as doc:
        contents = doc[0]
        links = sorted((link for link in contents.get_links() if "page" in link), key=lambda link: link["from"].y0)
        said = {}
        for i, link in enumerate(links):
            bottom = links[i + 1]["from"].y0 if i + 1 < len(links) else contents.rect.height
            row = contents.get_textbox(pymupdf.Rect(0, link["from"].y0, contents.rect.width, bottom))
            said[link["page"]] = " ".join(row.split())
        text = contents.get_text()
    firsts = [page for page in said if page in edges]  # each deck's first page of faces: its row
    assert len(firsts) == len(decks)
    for page in firsts:
        assert f"flip on the {edges[page]} edge" in said[page], said[page]
        assert "reverse" in said[page], said[page]
    assert not re.search(r"\bsheets [a-z]+ |--[a-z]", text), "the contents page asks for a terminal"
