"""The card-fill test (issue 47: cards that fill their card). Every card set of every game (the
sets of its cards/ files, its reference's quick-reference cards, a plug-in's), rendered and
imposed as the kit prints it, read back with PyMuPDF (tests/cardfill.py): the median card of a set
reaches at least 70 % of the way down its card (a card marked `short: true` in its content, short
by nature, is left out), and every text, footers included, keeps 3 mm inside the cut."""
from __future__ import annotations

import pytest

from cardfill import fronts, median_fill
from conftest import bundled_games
from sheets.kinds.cards.builder import card_sheet
from sheets.library.content import Library
from sheets.library.kinds.cards import Card, CardSet
from sheets.pipeline.sheet import pdf_of_html, render_html

LEAST_FILL = 0.70
SAFE_MM = 3.0
TOLERANCE_MM = 0.05  # a span's box read back rounds


@pytest.fixture(scope="module")
def library():
    return Library()


def _faces(library, game, card_set, paper="a4"):
    sheet = card_sheet(game, card_set, library.geometry(), paper=paper)
    pdf = pdf_of_html(render_html(sheet), False, sheet.finish)
    return fronts(pdf, bleed=sheet.finish.grid.bleed)


def _games():
    return [g for g in bundled_games() if Library().game(g).card_sets]


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game_id", _games())
def test_every_set_s_median_card_fills_its_card_and_keeps_its_text_inside_the_cut(library, game_id, paper):
    game = library.game(game_id)
    footer = library.theme().colours.footer
    short, loose = {}, {}
    for card_set in game.card_sets.values():
        faces = _faces(library, game, card_set, paper)
        assert len(faces) == len(card_set.cards), card_set.id  # every card placed once, none lost
        counted = [f for f, c in zip(faces, card_set.cards) if not c.short]
        if counted and median_fill(counted, footer) < LEAST_FILL:
            short[card_set.id] = round(median_fill(counted, footer), 2)
        near = [(c.id, round(f.inset(), 2)) for f, c in zip(faces, card_set.cards) if f.inset() < SAFE_MM - TOLERANCE_MM]
        if near:
            loose[card_set.id] = near[:3]
    assert short == {}, f"median card fill under {LEAST_FILL:.0%}"
    assert loose == {}, f"text nearer the cut than {SAFE_MM} mm"


def test_the_measure_fails_a_set_of_short_cards_and_the_flag_excepts_them(library):
    game = library.game(_games()[0])
    footer = library.theme().colours.footer
    one_line = [Card(id=f"c{i}", title=f"Card {i}", blocks=[{"p": "One short rule."}]) for i in range(3)]
    full = Card(id="full", title="Full", blocks=[{"p": "A rule that runs on. " * 40}])
    faces = _faces(library, game, CardSet(id="probe", title="Probe", size="poker", cards=[*one_line, full]))
    fills = [f.fill(footer) for f in faces]
    assert max(fills[:3]) < 0.4 < LEAST_FILL < fills[3]  # short cards read as short, a full one as full
    assert median_fill(faces, footer) < LEAST_FILL
    flagged = [c.model_copy(update={"short": True}) for c in one_line]
    counted = [f for f, c in zip(faces, [*flagged, full]) if not c.short]
    assert median_fill(counted, footer) >= LEAST_FILL
    # the footer is not counted: it sits at the foot of a card however little the card says
    assert all(any(s[5] == footer.lower() for s in f.spans) for f in faces)
