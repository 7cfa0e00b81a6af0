"""Tokens for any printer (issue 47 item 7), measured on the rendered sheet (tests/tokengreys.py):
ink-saver style by default and full colour on request; in greyscale any two token types of a sheet
differ by the shape of their mark or by 25 levels of mean luma; and the measure sees two types that
share a mark and a grey."""
from __future__ import annotations

import pytest

from conftest import bundled_games
from sheets.base.paper import resolve
from sheets.kinds.tokens import builder, shapes
from sheets.library.content import Library
from sheets.pipeline.sheet import pdf_of_html, render_html
from tokengreys import alike, ink_coverage, measure


def _rendered(game, paper="a4", full_colour=False):
    sheet = builder.token_sheet(game, resolve(paper), full_colour=full_colour)
    pdf = pdf_of_html(render_html(sheet), False, sheet.finish)
    placed = {}
    for index, page in enumerate(builder.layout_tokens(game.content["tokens"], resolve(paper))):
        for p in page:
            placed.setdefault(p.token.id, (index, p.x_mm, p.y_mm))
    return pdf, measure(pdf, placed, game.content["tokens"].diameter_mm)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game_id", bundled_games("tokens"))
def test_any_two_token_types_differ_in_greyscale_by_shape_or_grey(game_id, paper):
    game = Library().game(game_id)
    pdf, measured = _rendered(game, paper)
    assert set(measured) == {t.id for t in game.content["tokens"].tokens if t.count}
    assert alike(measured) == []
    full_pdf, full = _rendered(game, paper, full_colour=True)
    assert alike(full) == []  # full colour too: on a mono laser its colours are greys
    # ink-saver is the default: it lays down less ink than the full-colour discs asked for
    assert max(ink_coverage(pdf)) < min(ink_coverage(full_pdf))


def test_the_measure_sees_two_types_that_share_a_mark_and_a_grey(monkeypatch):
    game = Library().game(bundled_games("tokens")[0])
    monkeypatch.setattr(shapes, "marks_of", lambda sheet: {t.id: "circle" for t in sheet.tokens})
    _, measured = _rendered(game)
    tinted = [t.id for t in game.content["tokens"].tokens if t.color and t.count]
    assert len(tinted) >= 2
    assert alike(measured)  # one mark for all and light tints: some pair is too near in grey


def test_each_type_wears_its_own_mark_and_a_mark_given_twice_is_an_error(cli, content_copy):
    for game_id in bundled_games("tokens"):
        sheet = Library().game(game_id).content["tokens"]
        marks = shapes.marks_of(sheet)
        assert len(set(marks.values())) == len(sheet.tokens)  # 16 marks: every bundled sheet has fewer types
    path = content_copy / bundled_games("tokens")[0] / "tokens.yaml"
    lines = path.read_text().splitlines()
    first, second = [i for i, ln in enumerate(lines) if ln.strip().startswith("- id:")][:2]
    lines.insert(second + 1, "    shape: star")  # the later one first: the earlier index stays put
    lines.insert(first + 1, "    shape: star")
    path.write_text("\n".join(lines) + "\n")
    result = cli("validate", "--content", content_copy)
    assert result.exit_code == 1 and "two token types wear the mark 'star'" in result.stderr
