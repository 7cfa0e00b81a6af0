"""The floor test (issue 47): every text span of every PDF the kit writes, on A4 and on Letter,
read back with PyMuPDF and held to the floor of its role in the theme (tests/floors.py: play
text 7.5 pt, notes and captions 7 pt, running footers 6.5 pt; a role is told by the theme's
marker colours). Values the stamper draws keep its own floor until it reads the theme too."""
from __future__ import annotations

import re

import pytest

from floors import Span, spans, under_floor
from sheets.library.content import Library


def _pdfs(kit):
    return sorted(p for p in kit.folder.glob("*.pdf") if p.name != "kit.pdf")


@pytest.fixture(scope="module")
def theme():
    return Library().theme()


def test_the_measure_tells_roles_apart_and_sees_small_type(theme, tmp_path):
    from sheets.pipeline.rendering import html_to_pdf

    c = theme.colours
    # the bundled face declared as base.css declares it (alone, the test may run before any page
    # that registers it: the system's DejaVu would then stand in, and its spans read as stamped)
    face = '@font-face { font-family: "Sheets DejaVu Sans"; src: url("sheets-font:DejaVuSans.ttf"); }'
    html = (f'<html><head><style>{face}</style></head><body style="font-family: \'Sheets DejaVu Sans\'">'
            f'<p style="font-size: 7.5pt; color: {c.ink}">play at its floor</p>'
            f'<p style="font-size: 7.2pt; color: {c.ink}">play under its floor</p>'
            f'<p style="font-size: 7pt; color: {c.note}">a note at its floor</p>'
            f'<p style="font-size: 6.5pt; color: {c.footer}">a footer at its floor</p>'
            f'<p style="font-size: 6pt; color: {c.footer}">a footer under it</p></body></html>')
    low = under_floor(html_to_pdf(html), theme)
    assert [(role, size, text) for role, size, _, _, text in low] == [
        ("play", 7.2, "play under its floor"), ("footer", 6.0, "a footer under it")]
    assert under_floor(html_to_pdf(html), theme, large_print=True)  # nothing there is 12 pt
    assert Span(1, 6, "#000000", "DejaVuSans", "x").stamped and not Span(1, 6, "#000000", "Sheets-DejaVu-Sans", "x").stamped


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_text_of_every_part_is_at_its_role_s_floor(request, theme, paper):
    kit = request.getfixturevalue("whole_kit" if paper == "a4" else "whole_kit_letter")
    pdfs = _pdfs(kit)
    assert len(pdfs) > 20  # the whole kit: every game's parts
    low = {pdf.name: under_floor(pdf, theme)[:3] for pdf in pdfs}
    assert {name: found for name, found in low.items() if found} == {}
    # every part holds text read in play, and no laid-out play text under its floor
    assert all(any(not s.stamped for s in spans(pdf)) for pdf in pdfs)


def _text_backed(game) -> bool:
    """A game with a deck whose back carries rules text (the Regiment's vehicles: Attack a Vehicle)."""
    return any((cs.back is not None and cs.back.blocks) or any(c.back is not None and c.back.blocks for c in cs.cards)
               for cs in game.card_sets.values())


@pytest.fixture(scope="module")
def large_print_kit(tmp_path_factory):
    """`sheets kit --large-print --seed 7` of every game but those with a rules text on a card back
    (whose large-print deck test_a_back_with_rules_text_... prints alone: a kit the fewer games, the
    quicker): a card that runs over continues on the next card and a table's cells wrap."""
    from typer.testing import CliRunner

    from sheets.cli import app

    library = Library()
    games = [g for g in library.game_ids() if not _text_backed(library.game(g))]
    assert games
    out = tmp_path_factory.mktemp("large") / "kit"
    result = CliRunner().invoke(app, ["kit", "--large-print", "--seed", "7", "-o", str(out),
                                      *[arg for g in games for arg in ("--game", g)]])
    assert result.exit_code == 0, result.output
    return out


def test_a_back_with_rules_text_prints_in_large_print(tmp_path):
    """A back is one card behind every card and cannot run on: in large print its rules are read on
    a front, which continues on the next card (the Regiment's vehicles: Attack a Vehicle did not fit
    a poker card at 12 pt, and the command refused the deck); the back is the deck's designed back."""
    import re
    from collections import Counter

    import pymupdf
    from typer.testing import CliRunner

    from sheets.cli import app

    library = Library()
    game_id = next(g for g in library.game_ids() if _text_backed(library.game(g)))
    game = library.game(game_id)
    result = CliRunner().invoke(app, ["cards", game_id, "--backs", "--large-print", "-o", str(tmp_path / "c")])
    assert result.exit_code == 0, result.output

    def words(text: str) -> Counter:  # a paragraph that continues is cut by the card's footer and head
        return Counter(w for w in (re.sub(r"[^\w]+", "", w).casefold() for w in text.replace("-", " ").split()) if w)

    for card_set in game.card_sets.values():
        backs = [b for b in [card_set.back, *(c.back for c in card_set.cards)] if b is not None and b.blocks]
        if not backs:
            continue
        pdf = next((tmp_path / "c").glob(f"*-cards-{card_set.id}-backs-*.pdf"))
        with pymupdf.open(pdf) as doc:
            printed = words(" ".join(page.get_text() for page in doc))
        for back in backs:
            for block in back.blocks:  # every word of the back's rules is printed
                paragraph = block.model_dump(by_alias=True, exclude_none=True).get("p")
                if paragraph:
                    assert not words(paragraph) - printed, paragraph[:60]


def test_a_back_s_rules_go_on_a_front_of_their_own_when_no_front_has_them():
    from sheets.kinds.cards.builder import large_print_backs
    from sheets.library.kinds.cards import CardSet

    rules = [{"p": "Roll two dice and add them."}]
    deck = CardSet.model_validate({"id": "d", "title": "Deck", "size": "poker",
                                   "back": {"title": "How to roll", "blocks": rules},
                                   "cards": [{"id": "a", "title": "A", "blocks": [{"p": "An ace."}]}]})
    large = large_print_backs(deck)
    assert large.back is not None and large.back.title == "How to roll" and not large.back.blocks
    assert [c.id for c in large.cards] == ["a", "back-rules-1"]
    assert large.cards[-1].title == "How to roll" and large.cards[-1].blocks == deck.back.blocks
    # a front that carries the back's rules already (the Regiment's vehicle-damage card) is not doubled
    carried = deck.model_copy(update={"cards": [*deck.cards, deck.cards[0].model_copy(
        update={"id": "rules", "blocks": deck.back.blocks})]})
    assert [c.id for c in large_print_backs(carried).cards] == ["a", "rules"]


def _scale_label(text: str) -> bool:
    """A gauge's or clock's scale number ('6″', '3:00', '12'): drawn to the drawing's own scale."""
    import re

    return re.fullmatch(r"[0-9.,:]+\s*(″|cm|mm|in)?", text.strip()) is not None


def test_the_large_print_kit_prints_every_text_at_12_pt(theme, large_print_kit):
    """Every text of every part of the large-print kit, laid out or stamped, is at its floor
    (12 pt), but the scale numbers of drawings and the true-scale gauges."""
    import json

    # a true-scale gauge's labels are drawn to its scale, in the drawing (the gauges kind): left out
    files = json.loads((large_print_kit / "manifest.json").read_text(encoding="utf-8"))["files"]
    pdfs = sorted(large_print_kit / f["path"] for f in files if f["kind"] not in ("gauges", "kit"))
    assert len(pdfs) > 10
    low = {}
    for pdf in pdfs:
        found = [s for s in spans(pdf) if not _scale_label(s.text)
                 and s.size < theme.large_print.floor_pt - 0.02]
        if found:
            low[pdf.name] = [(s.page, s.size, s.text[:40]) for s in found[:3]]
    assert low == {}


def test_no_line_of_the_large_print_kit_is_cut_before_a_word_that_fits(large_print_kit):
    """The large-print kit's lines, 12 pt in the same columns, broken as the A4 and Letter kits'
    are (tests/kit/test_line_breaks.py): no line cut before a word that would have fit on it."""
    from linebreaks import early_breaks

    pdfs = sorted(p for p in large_print_kit.glob("*.pdf") if p.name != "kit.pdf")
    assert len(pdfs) > 10
    found = {pdf.name: [str(b) for b in early_breaks(pdf)] for pdf in pdfs}
    assert {name: breaks for name, breaks in found.items() if breaks} == {}


def test_every_card_s_footer_is_printed_whole_in_large_print(large_print_kit, tmp_path):
    """At 12 pt a card's footer (its deck's name, its number) is printed whole: on a poker card "The
    Regiment · Battle plans" beside "5/11" lost its last word, so the large-print footer names the
    deck alone (its game is on the card's back)."""
    import re

    from cardfill import fronts

    library = Library()
    titles = {cs.title for g in library.game_ids() for cs in library.game(g).card_sets.values()}
    parts = sorted(p for p in large_print_kit.glob("*-cards*.pdf"))
    # and the decks of the games the kit above leaves out, printed alone
    from typer.testing import CliRunner

    from sheets.cli import app

    for game_id in (g for g in library.game_ids() if _text_backed(library.game(g))):
        result = CliRunner().invoke(app, ["cards", game_id, "--large-print", "-o", str(tmp_path / game_id)])
        assert result.exit_code == 0, result.output
        parts += sorted((tmp_path / game_id).glob("*.pdf"))
    assert parts
    for part in parts:
        for face in fronts(part):
            foot = max(s[3] for s in face.spans)
            line = " ".join(s[4] for s in sorted(face.spans, key=lambda s: s[0]) if foot - s[3] < 1.0)
            found = re.fullmatch(r"(.+) (\d+/\d+)", line)
            assert found and found[1] in titles, (part.name, face.page + 1, face.slot, line)


def _vocabulary() -> set[str]:
    """Every word the bundled content and templates write, lower case: a sheet prints nothing else
    but numbers and the names rolled from content."""
    from sheets.base import paths

    words: set[str] = set()
    for folder, pattern in ((paths.content_dir(), "**/*.yaml"), (paths.templates_dir(), "**/*.j2")):
        for path in folder.glob(pattern):
            words.update(w.lower() for w in re.findall(r"[A-Za-z0-9]+", path.read_text(encoding="utf-8")))
    return words


def broken_words(pdf, vocabulary: set[str]) -> list[str]:
    """Words cut between two lines of one text block without a hyphen ("Qualit" / "y"): a line that
    ends in a word's letters, the next that starts with more, and the two pieces a word of the
    vocabulary that one of them alone is not."""
    import pymupdf

    found = []
    with pymupdf.open(pdf) as doc:
        for number, page in enumerate(doc, 1):
            for block in page.get_text("dict")["blocks"]:
                lines = ["".join(s["text"] for s in line["spans"]) for line in block.get("lines", [])]
                for before, after in zip(lines, lines[1:]):
                    end, start = re.search(r"([A-Za-z0-9]+)$", before), re.match(r"([A-Za-z0-9]+)", after)
                    if end and start and (end[1] + start[1]).lower() in vocabulary and not (
                            end[1].lower() in vocabulary and start[1].lower() in vocabulary):
                        found.append(f"page {number}: {end[1]}|{start[1]}")
    return found


def test_the_broken_word_measure_sees_a_word_cut_without_a_hyphen(tmp_path):
    from sheets.pipeline.rendering import html_to_pdf

    face = '@font-face { font-family: "Sheets DejaVu Sans"; src: url("sheets-font:DejaVuSans.ttf"); }'
    cell = '<table style="table-layout: fixed; width: 14mm"><tr><td style="overflow-wrap: anywhere">Quality</td></tr></table>'
    page = ('<html lang="en"><head><style>' + face + '</style></head><body style="font-family: \'Sheets DejaVu Sans\'; '
            'font-size: 12pt">BODY</body></html>')
    cut, whole = tmp_path / "cut.pdf", tmp_path / "whole.pdf"
    cut.write_bytes(html_to_pdf(page.replace("BODY", cell)))
    whole.write_bytes(html_to_pdf(page.replace("BODY", "<p>Quality</p>")))
    assert broken_words(cut, {"quality"}) and not broken_words(whole, {"quality"})


def test_no_word_of_the_large_print_kit_is_cut_but_at_a_hyphen(large_print_kit):
    """At 12 pt a cell laid out for 7.5 pt holds a few letters of a word: every table cell may break
    a word that does not fit its column (overflow-wrap), and does so at a syllable, with a hyphen
    (hyphens: auto), never as "Qualit" over "y"; a reference prints in one column and the mission
    track in two, so that their words fit. Every part of the large-print kit, read back: no word cut."""
    vocabulary = _vocabulary()
    cut = {pdf.name: found[:5] for pdf in sorted(large_print_kit.glob("*.pdf")) if pdf.name != "kit.pdf"
           if (found := broken_words(pdf, vocabulary))}
    assert cut == {}


def _band_sizes(pdf, band: str) -> set[float]:
    """The sizes the band's text is set at in the top margin (its first 15 mm) of each page."""
    import pymupdf

    with pymupdf.open(pdf) as doc:
        return {round(s["size"], 2) for page in doc for block in page.get_text("dict")["blocks"]
                for line in block.get("lines", []) for s in line["spans"]
                if s["text"].strip() == band and s["bbox"][3] < 15 * 72 / 25.4}


def test_a_hand_lettered_title_face_names_its_game_in_the_band_at_its_own_size(whole_kit):
    """A title face whose strokes need more than the play size (sheets.base.fonts.BAND_MIN_PT:
    hand-drawn lettering) sets the header band naming its game at that size, on every part that
    has the band; every other face at the play size."""
    from sheets.base import fonts
    from sheets.kinds import style

    library = Library()
    checked = 0
    for game_id in library.game_ids():
        game = library.game(game_id)
        face = game.content["theme"].look.title_face
        band = style.band_of(game)
        sizes = {size for pdf in whole_kit.folder.glob(f"{game_id}-*.pdf") for size in _band_sizes(pdf, band)}
        if not sizes:
            continue
        want = max(library.theme().type.play.size_pt, fonts.BAND_MIN_PT.get(face, 0.0))
        assert sizes == {want}, (game_id, face, sizes)
        checked += face in fonts.BAND_MIN_PT
    assert checked  # a bundled game has such a face (Mass Combat's Cabin Sketch)
