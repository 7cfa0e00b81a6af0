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


def _shared(library: Library, paper: str) -> dict[str, list[tuple[str, str]]]:
    """{card part's file name: the (game, set) decks it holds}, as the kit makes them."""
    from sheets.base.options import PrintOptions
    from sheets.kinds import registry

    kind = registry.generic("cards")
    out = {}
    for game_id in library.game_ids():
        game = library.game(game_id)
        if kind.make is None or not registry.has(kind, game):
            continue
        for sheet in kind.make(library, game, PrintOptions(paper=paper), None):
            finish = sheet.finish  # its imposition: the set of each card, when several share it
            out[sheet.filename] = [(game_id, s) for s in dict.fromkeys(finish.sets_of or (finish.set_id,))]
    return out


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_deck_s_backs_follow_its_faces_mirrored_for_duplex(request, paper):
    kit = request.getfixturevalue("whole_kit" if paper == "a4" else "whole_kit_letter")
    library = Library()
    decks = {(g, s.id): len(s.cards) for g in library.game_ids() for s in library.game(g).card_sets.values()}
    edges = _decks_checked(kit.folder / "kit.pdf")
    faces = [f for f in cards(kit.folder / "kit.pdf") if f.front]
    assert len(faces) == sum(decks.values())  # every card of every deck is in kit.pdf, once
    parts = [p for p in kit.folder.glob("*.pdf") if p.name != "kit.pdf" and _pages(p)[0]]
    # each deck in a part of its own, or sharing one with the decks beside it where that saves paper
    shared = _shared(library, paper)
    assert sorted(p.name for p in parts) == sorted(shared)
    for part in parts:
        faces = [f for f in cards(part) if f.front]
        assert len(faces) == sum(decks[d] for d in shared[part.name])  # its decks' cards, each once ...
        assert _decks_checked(part)  # ... with their backs after the faces
        # sharing saves a sheet: its decks apart would take more
        per_sheet = max(len(fs) for fs in _pages(part)[0].values())
        apart = sum(-(-decks[d] // per_sheet) for d in shared[part.name])
        assert len(shared[part.name]) == 1 or len(_decks_checked(part)) < apart, part.name
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
    firsts = [page for page in said if page in edges]  # each part's first page of faces: its row
    assert len(firsts) == len(shared)
    for page in firsts:
        assert f"flip on the {edges[page]} edge" in said[page], said[page]
        assert "reverse" in said[page], said[page]
    # a part of several decks names them (its title), and says how its cut cards come apart
    several = [held for held in shared.values() if len(held) > 1]
    sorting = [row for row in said.values() if "sort the cards into their decks by their backs" in row]
    assert len(sorting) == len(several), sorting
    for held in several:
        titles = [library.game(g).card_sets[s].title for g, s in held]
        assert any(all(title in row for title in titles) for row in sorting), (titles, sorting)
    assert not re.search(r"\bsheets [a-z]+ |--[a-z]", text), "the contents page asks for a terminal"


def test_small_decks_share_their_sheets_and_each_card_keeps_its_own_deck_s_footer_and_back(whole_kit):
    """Small sets share a sheet (issue 47 item 4): a part that holds several decks takes fewer paper
    sheets than its decks apart, and cut up it sorts by its backs: each card's footer names its own
    deck, and the back behind it is that deck's."""
    library = Library()
    footer = library.theme().colours.footer.lower()
    shared = {name: decks for name, decks in _shared(library, "a4").items() if len(decks) > 1}
    assert shared, "no game's decks share a sheet"
    for name, decks in shared.items():
        sets = {s: library.game(g).card_sets[s] for g, s in decks}
        titles = {s: card_set.title for s, card_set in sets.items()}
        # a deck's back: its own (the vehicles' rules, by their title), else its name on the game's back
        on_back = {s: card_set.back.title if card_set.back else card_set.title for s, card_set in sets.items()}
        by_page, _ = _pages(whole_kit.folder / name)
        mixed = 0
        for page, faces in sorted(by_page.items()):
            if not faces[0].front:
                continue
            backs = {b.slot: " ".join(s[4] for s in b.spans) for b in by_page[page + 1]}
            on_page = set()
            for face in faces:
                foot = " ".join(s[4] for s in face.spans if s[5] == footer)
                deck = [s for s, title in titles.items() if f"· {title}" in foot]
                assert len(deck) == 1, (name, page + 1, face.slot, foot)
                on_page.add(deck[0])
                assert on_back[deck[0]] in backs[face.slot], (name, page + 1, face.slot, backs[face.slot][:80])
            mixed += len(on_page) > 1
        assert mixed, f"{name}: no sheet holds two decks"
