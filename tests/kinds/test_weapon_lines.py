"""A line per weapon on unit cards (issues 47 and 48): a card's weapon that names a reference table
prints that table's row, every number with its label, read back from the imposed PDF; the numbers
come from the reference (the same values as its table, so the card and the table never differ),
and a weapon whose table or row is not there is an error at its line."""
from __future__ import annotations

import re

import pytest

from cardfill import fronts
from conftest import bundled_games
from sheets.kinds.cards.builder import card_sheet
from sheets.library.content import Library
from sheets.library.kinds.notes import LOST_MARK
from sheets.pipeline.sheet import pdf_of_html, render_html


def _armed():
    """(game, set) of every bundled card set with a weapon that names a table."""
    library = Library()
    return [(g, s.id) for g in bundled_games() for s in library.game(g).card_sets.values()
            if any(w.table for c in s.cards for w in c.weapons)]


def _row(reference, section_id: str, name: str):
    """The header and row of `name` in the section's tables, read from the reference itself."""
    section = next(s for s in reference.sections if s.id == section_id)
    for block in section.blocks:
        if block.table is not None:
            for row in block.table.rows:
                if str(row[0]) == name:
                    return block.table.header, row
    raise AssertionError(f"no row {name!r} in {section_id!r}")


def test_some_bundled_set_has_weapon_lines():
    assert _armed()  # Down Range's unit cards, at least: the test below must have work


@pytest.mark.parametrize(("game_id", "set_id"), _armed())
def test_each_weapon_prints_its_table_row_on_its_card(game_id, set_id):
    library = Library()
    game = library.game(game_id)
    card_set = game.card_sets[set_id]
    reference = game.content["reference"]
    sheet = card_sheet(game, card_set, library.geometry())
    faces = fronts(pdf_of_html(render_html(sheet), False, sheet.finish))
    checked = 0
    for face, card in zip(faces, card_set.cards):
        # a lost value's write-in box is a span of its own: "4d" and the box read as "4d◊"
        text = re.sub(rf"(\dd) {LOST_MARK}", rf"\1{LOST_MARK}", " ".join(s[4] for s in face.spans).replace("\u00a0", " "))
        for weapon in card.weapons:
            assert weapon.name in text, (card.id, weapon.name)
            if weapon.table is None:
                continue
            header, row = _row(reference, weapon.table, weapon.row or weapon.name)
            for label, value in zip(header[1:], row[1:]):
                if value in ("", None) or str(value).casefold() == "no":
                    continue  # a blank is the rules' none; a lost value prints as lost
                wanted = label if str(value).casefold() == "yes" else f"{label} {value}"
                assert wanted in text, (card.id, weapon.name, wanted)
                checked += 1
    assert checked >= len([w for c in card_set.cards for w in c.weapons if w.table])  # a number or more each


def test_a_weapon_row_the_table_has_not_is_located(cli, content_copy):
    path = content_copy / "downrange" / "cards" / "units.yaml"
    text = path.read_text()
    assert 'row: "M240"' in text
    path.write_text(text.replace('row: "M240"', 'row: "M241"', 1))
    result = cli("validate", "--content", content_copy)
    assert result.exit_code == 1
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if 'row: "M240"' in ln)
    assert f"content/downrange/cards/units.yaml:{line}: " in result.stderr
    assert "no row 'M241' in the table of 'automatic-weapons'" in result.stderr
