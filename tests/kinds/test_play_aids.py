"""Issue 13 play aids for Down Range, the platoon rules and Mass Combat: every new sheet is
read back from its PDF; lost values print as write-in boxes (LOST_MARK); no lost-glyph placeholder reaches
paper; the platoon reference prints at 7 pt or larger; tables fit their columns."""
from __future__ import annotations

import re

import pypdf
import pytest

from conftest import bundled_games, page_size_mm, pages, pdf_text, squash
from sheets.library.kinds.notes import LOST_MARK

A4_LANDSCAPE = (297.0, 210.0)


# -- Down Range ----------------------------------------------------------------------
def test_down_range_quick_reference_cards(cli, tmp_path):
    out = tmp_path / "q.pdf"
    assert cli("cards", "downrange", "--set", "quickref", "-o", out).exit_code == 0
    text = squash(pdf_text(out))
    from sheets.library.content import Library

    deck = Library().game("downrange").card_sets["quickref"]
    for card in deck.cards:
        assert squash(card.title).casefold() in text.casefold(), card.title  # titles as the content writes them
    for subject in ("Reactions", "Equipment", "No enemy in sight", "Unmanned vehicles"):  # each on a card it is played with
        assert squash(subject).casefold() in text.casefold(), subject
    # the turn sequence and the no-enemy card are summaries the template adds: the notes page
    # says so (designers_notes.yaml), the card does not
    assert "not rule text" not in text and "Summary of sections" not in text
    # partial cover as the Chapter 6 example plays it
    assert squash("Partial cover: sandbags and dug-in positions that are not total (as played in Chapter 6).") in text
    assert squash("When no enemy is left, the remaining player may take as many turns as he likes") in text
    assert squash("To operate a remotely-piloted vehicle (RPV), a unit must Focus and Signal") in text


def test_down_range_lost_values_print_as_write_in_boxes(cli, tmp_path):
    out = tmp_path / "ref.pdf"
    assert cli("reference", "downrange", "-o", out).exit_code == 0
    text = squash(pdf_text(out))
    # three and four dice of a lost type: the count, then the box for the type (LOST_MARK)
    assert squash(f"Light tank 30\" 4 Tank gun 3d{LOST_MARK} 0 Tracked") in text
    assert squash(f"Tank 24\" 4 Tank gun 4d{LOST_MARK} 0 Tracked") in text
    assert squash(f"Speedboat 30\" 2 {LOST_MARK} 12 0 Water only") in text
    # the weapons-vs-armor example: the kit's readings print plainly; the notes page lists them
    assert squash("A missile with a Damage of d10 can damage the truck.") in text
    assert squash("truck with a Defense of d8:") in text
    assert "†" not in text and "lost in conversion" not in text
    assert squash("Designer's notes") in text and squash("Weapons vs. armor example:") in text


def _boxes(box):
    yield box
    for child in getattr(box, "children", []):
        yield from _boxes(child)


@pytest.mark.parametrize("game", bundled_games("reference"))
def test_reference_tables_fit_their_columns(library, game):
    """Every rules table lies inside the column it sits in (Table 4-1 used to run over)."""

    from sheets.kinds.reference.builder import reference_sheet
    from sheets.pipeline.sheet import render_html

    from sheets.pipeline.rendering import lay_out

    html = render_html(reference_sheet(library.game(game)))
    doc = lay_out(html)  # with the bundled fonts, as the sheet prints
    tables = 0
    for page in doc.pages:
        for box in _boxes(page._page_box):
            if type(box).__name__ != "TableBox":
                continue
            tables += 1
            # the table's wrapper sits in a block of the column: compare with that block
            parent = next(b for b in _boxes(page._page_box)
                          if box in getattr(b, "children", []) or any(box in getattr(c, "children", [])
                                                                      for c in getattr(b, "children", [])))
            right = box.position_x + box.margin_width()
            limit = parent.content_box_x() + parent.width
            assert right <= limit + 0.5, f"{game}: a table is {right - limit:.1f}px wider than its column"
    assert tables > 0


def test_down_range_markers(cli, tmp_path):
    out = tmp_path / "t.pdf"
    assert cli("tokens", "downrange", "-o", out).exit_code == 0
    text = pdf_text(out)
    assert text.count("IMPACT") == 4 and text.count("LANDS") == 4
    for n in (3, 2, 1):
        assert text.count(f"AMMO {n}") == 2
    # a killed unit's marker (the rules upend a token; a model cannot be upended)
    assert squash("DOWN Killed or destroyed: out of the game") in squash(text)
    assert pages(out) == 2


def test_down_range_force_roster_and_chapter_6_scenario(cli, tmp_path):
    out = tmp_path / "tr.pdf"
    assert cli("trackers", "downrange", "-o", out).exit_code == 0
    assert pages(out) == 2
    assert page_size_mm(out, 0) == A4_LANDSCAPE and page_size_mm(out, 1) == A4_LANDSCAPE
    text = squash(pdf_text(out))
    assert squash("Force roster") in text and squash("FORCE") in text
    assert squash("Scenario: the in-depth example (Chapter 6)") in text
    # one reading per value: the scenario prints Tables 3-1 and 4-1's values, as the cards do
    assert squash("Marines Black Hornet small UAS 48\" pilot's 3") in text
    assert squash("Enemy ZBL-09 IFV 36\" d6 3d10 Autocannon (Fan 4, Difficulty 6, Damage 2d8)") in text
    assert squash(f"Riflemen ({LOST_MARK})") in text and "lost in conversion" not in text


# -- Platoon rules -------------------------------------------------------------------
def _font_sizes(path) -> list[tuple[float, str]]:
    """(effective size in pt, text) of every text run in the PDF."""
    reader = pypdf.PdfReader(str(path))
    runs: list[tuple[float, str]] = []
    for page in reader.pages:
        def visit(text, cm, tm, font, size):
            if text.strip():
                scale = abs(tm[3] * cm[3]) or abs(tm[0] * cm[0])
                runs.append((round(size * scale, 2), text.strip()))
        page.extract_text(visitor_text=visit)
    return runs


def test_platoon_reference_is_seven_points_or_larger(cli, tmp_path):
    out = tmp_path / "ref.pdf"
    assert cli("reference", "platoon", "-o", out).exit_code == 0
    assert pages(out) >= 2
    runs = _font_sizes(out)
    footer = re.compile(r"^(Platoon Rules \(Base Seven\) · reference · warsheets|page \d+ of \d+)$")
    small = [(size, text) for size, text in runs if size < 6.99 and not footer.match(text)]
    assert not small, small[:5]
    assert len(runs) > 100
    text = squash(pdf_text(out))
    assert squash("SAVE CHART") in text and squash("Sandbags, High Walls 3 7+ 6+ 5+ 4+") in text
    assert squash("TURN SEQUENCE") in text and "(SUMMARY)" not in text
    # the fifth order's name is the kit's: the notes page says so, the order does not
    assert squash("Rally You may only move up to 5cm + D5cm") in text and "stand-in" not in text
    assert squash("Rally order: The fifth order's name is an icon in the book") in text


def test_platoon_markers_use_the_rules_words(cli, tmp_path):
    out = tmp_path / "t.pdf"
    assert cli("tokens", "platoon", "-o", out).exit_code == 0
    text = squash(pdf_text(out))
    assert squash("Move and shoot; you may NOT shoot and move") in text
    assert squash("Towards your table edge, plus 5cm; fire at 'reduced' rating") in text
    assert squash("RALLY") in text and "†" not in text
    assert pdf_text(out).count("REDUCED") == 7 and pdf_text(out).count("SUPPRESSED") == 4
    # two sets of orders: one per side
    for order in ("ADVANCE", "ASSAULT", "FALL BACK", "ENGAGE", "RALLY"):
        assert squash(pdf_text(out)).count(squash(order)) == 2, order


def test_platoon_tracker_roster_and_cards(whole_kit):
    out = whole_kit.folder
    text = squash(pdf_text(out / "platoon-trackers.pdf"))
    for words in ("PLATOON", "ORDER GIVEN", "SUPPRESSED", "Platoon roster", "Heavy Weapon", "Close Combat"):
        assert squash(words) in text, words
    assert page_size_mm(out / "platoon-trackers.pdf", 1) == A4_LANDSCAPE
    # card titles print as written, block heads in the theme's casing: compared without case
    cards = squash(pdf_text(out / "platoon-cards-quickref.pdf")).casefold()
    for words in ("TURN SEQUENCE", "ORDERS", "SHOOTING", "CLOSE COMBAT", "HITS, SAVES AND COVER", "D10 needed to save"):
        assert squash(words).casefold() in cards, words
    assert (out / "platoon-gauges.pdf").is_file()


def test_trackers_that_share_a_page_print_every_copy_with_its_own_fields(library):
    """A box tracker with per_page N prints N copies on its first page (several platoons a
    page), each with its own named write-ins; a one-line tracker's rows are tracks (>= 7 mm)
    and its boxes at least 3.5 mm; its summary and rules once."""
    import pymupdf

    from sheets.kinds.trackers.builder import tracker_sheet
    from sheets.library.kinds.trackers import BoxTracker
    from sheets.pipeline.sheet import pdf_of_html, render_html

    shared = [(game, t) for gid in library.game_ids() for game in [library.game(gid)]
              for t in game.content["trackers"].values() if isinstance(t, BoxTracker) and t.per_page > 1]
    assert shared  # the bundled content has one (the platoon tracker: three platoons a page)
    for game, t in shared:
        html = render_html(tracker_sheet(game, [t]))
        for copy in [t.id] + [f"{t.id}-{n}" for n in range(2, t.per_page + 1)]:
            for i in range(1, len(t.fields) + 1):
                assert f'data-field="{copy}.field{i}"' in html, (t.id, copy, i)
        for paper in ("a4", "letter"):  # every copy and the rules on one page of either paper (issue 47)
            sheet = tracker_sheet(game, [t], paper=paper)
            with pymupdf.open(stream=pdf_of_html(render_html(sheet), False, sheet.finish)) as doc:
                assert doc.page_count == 1, (t.id, paper, doc.page_count)
                page = doc[0]
                text = page.get_text()
                assert text.count(t.unit_label) >= t.units * t.per_page, (t.id, text.count(t.unit_label))
                for once in (t.summary_text(), t.footer):  # the rules once a page, not once a copy
                    if once:
                        assert squash(text).count(squash(once)[:30]) == 1, (t.id, once)
                squares = [d["rect"] for d in page.get_drawings()
                           if abs(d["rect"].width - d["rect"].height) < 0.5 and d["rect"].width > 5]
                assert squares and min(r.width for r in squares) * 25.4 / 72 >= 3.5
                if t.one_line and t.notes:  # a row's notes line under each unit: rows 7 mm apart at least
                    lines = sorted({round(d["rect"].y1 * 25.4 / 72, 2) for d in page.get_drawings()
                                    if d["rect"].height < 1 and d["rect"].width * 25.4 / 72 > 50})
                    gaps = [b - a for a, b in zip(lines, lines[1:])]
                    # (a copy's last line is drawn with the copy's own rule under it, not alone)
                    assert len(lines) >= (t.units - 1) * t.per_page and min(gaps) >= 7.0, (t.id, paper, gaps)


def test_grid_trackers_draw_their_tick_columns_and_pair_their_rows(library):
    """A grid's `ticks` columns are a tick box (>= 3.5 mm, a named field) in every row not written
    in advance; rows in groups (`group_rows`: the two factions of a Wave) carry their group's
    number where prefill says {group} and a heavier rule between groups."""
    import pymupdf

    from sheets.kinds.trackers.builder import tracker_sheet
    from sheets.library.kinds.trackers import GridTracker
    from sheets.pipeline.sheet import pdf_of_html, render_html

    grids = [(library.game(gid), t) for gid in library.game_ids()
             for t in library.game(gid).content["trackers"].values() if isinstance(t, GridTracker)]
    ticked = [(g, t) for g, t in grids if t.ticks]
    grouped = [(g, t) for g, t in grids if t.group_rows > 1]
    assert ticked and grouped
    for game, t in ticked + grouped:
        sheet = tracker_sheet(game, [t])
        html = render_html(sheet)
        blank = t.rows - len(t.filled)
        assert html.count('class="tick"') == blank * len(t.ticks), t.id
        with pymupdf.open(stream=pdf_of_html(html, False, sheet.finish)) as doc:
            drawn = [d["rect"] for page in doc for d in page.get_drawings()
                     if abs(d["rect"].width - d["rect"].height) < 0.3 and 3.5 <= d["rect"].width * 25.4 / 72 <= 6]
            assert len(drawn) >= blank * len(t.ticks), (t.id, len(drawn))
            if t.group_rows > 1 and "{group}" in "".join(t.prefill.values()):
                column = next(c for c, v in t.prefill.items() if v == "{group}")
                words = [w[4] for page in doc for w in page.get_text("words")]
                for group in range(1, t.rows // t.group_rows + 1):
                    assert words.count(str(group)) >= t.group_rows, (t.id, column, group)
        starts = (t.rows - 1) // t.group_rows if t.group_rows > 1 else 0
        assert html.count("grid-row group-start") == starts, t.id


def test_tracker_fields_and_flags_are_named_fields():
    from sheets.library.content import Library
    from sheets.kinds.trackers.builder import tracker_sheet
    from sheets.pipeline.sheet import render_html

    game = Library().game("platoon")
    html = render_html(tracker_sheet(game, [game.content["trackers"]["platoon"]]))
    assert 'data-field="platoon.field1"' in html and 'data-field="platoon.field2"' in html
    assert 'data-field="platoon.flag1"' in html


# -- Mass Combat ---------------------------------------------------------------------
def test_mass_combat_prints_no_lost_glyph_placeholder(whole_kit):
    texts = {p.name: pdf_text(p) for p in whole_kit.folder.glob("masscombat-*.pdf")}
    assert len(texts) >= 4
    for name, text in texts.items():
        assert "[symbol lost]" not in text and "[dice lost]" not in text and "[lost]" not in text, name
    ref = squash(texts["masscombat-reference.pdf"])
    assert squash("On a gear damage, one random project in the Ark is destroyed.") in ref
    assert squash("rolls her Battle Pool of six dice.") in ref
    # the bunker conflict has one reading everywhere (+3 Support Dice), the notes page says why
    assert squash("Fortress or castle, underground bunker +3 Support Dice") in ref
    assert squash("two Strategy Dice in mountain or large urbanized areas") in ref
    assert squash("Underground bunkers: The Defensive advantage text gives underground bunkers two Strategy Dice") in ref
    memo = squash(texts["masscombat-cards-memo.pdf"])
    # one reading of the bunker everywhere (+3 Support Dice): the conflict is a designer's note
    assert squash("Bunker: the rules text says two Strategy Dice instead") not in memo


def test_mass_combat_sheets(cli, tmp_path):
    out = tmp_path / "tr.pdf"
    assert cli("trackers", "masscombat", "-o", out).exit_code == 0
    assert pages(out) == 5
    assert all(page_size_mm(out, i) == A4_LANDSCAPE for i in range(5))
    text = squash(pdf_text(out))
    for words in ("Wave tracker", "Trauma", "Gear damage", "Ret. PC 1", "Ret. PC 4",
                  "Risk PC 1", "Risk PC 4", "Faction roster", "Battle-pool worksheet", "Strategy total", "PC sheet",
                  "Risk Modifier (−3 to +3)", "Reconnaissance helper", "Forced march -1"):
        assert squash(words) in text, words


@pytest.mark.parametrize("old, new, message", [
    ('    widths: {"PC": 32, "Result": 30}\n', '    widths: {"Name": 32}\n', "widths: 'Name' is not one of the columns"),
    ('    widths: {"PC": 32, "Result": 30}\n', '    widths: {"PC": 500}\n', "give 5 to 250 mm"),
])
def test_bad_grid_widths_are_located(cli, content_copy, tmp_path, old, new, message):
    path = content_copy / "masscombat" / "trackers.yaml"
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))
    result = cli("trackers", "masscombat", "--content", content_copy, "-o", tmp_path / "x.pdf")
    assert result.exit_code == 1
    assert "masscombat/trackers.yaml:" in result.stderr and message in result.stderr
    assert not (tmp_path / "x.pdf").exists()


def test_filled_rows_must_match_the_columns(cli, content_copy, tmp_path):
    path = content_copy / "downrange" / "trackers.yaml"
    text = path.read_text()
    old = '      - ["Marines", "Mortar assistant", "8\\"", "d6", "5", "—", "Crew of the mortar"]\n'
    assert old in text
    path.write_text(text.replace(old, '      - ["Marines", "Mortar assistant"]\n'))
    result = cli("trackers", "downrange", "--content", content_copy, "-o", tmp_path / "x.pdf")
    assert result.exit_code == 1
    assert "filled[2] has 2 cells but there are 7 columns" in result.stderr
