"""Stamped sheets (values drawn onto cached blanks) carry what laid-out sheets carry.

The reference is the same Sheet laid out in full by WeasyPrint (its template and
context are kept for that). Text is compared page by page as a multiset of words:
a stamped page draws its values after the blank's text, so only the order differs.
"""
from __future__ import annotations

import io
import os
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pypdf
import pytest

from conftest import REPO, squash

from sheets.base.dice import Dice
from sheets.pipeline import rendering
from sheets.pipeline.sheet import render_html
from sheets.base import fonts as bundled
from sheets.pipeline.stamp import fields, fonts, glyphs, overlay
from sheets.pipeline.stamp import write as stamping


def words_by_page(pdf: bytes) -> list[Counter]:
    return [Counter((p.extract_text() or "").split()) for p in pypdf.PdfReader(io.BytesIO(pdf)).pages]


def laid_out(sheet) -> bytes:
    return rendering.html_to_pdf(render_html(sheet))


def stamp(sheet, target: Path, cache: Path, **kw) -> tuple[bytes, dict]:
    stats: dict = {}
    stamping.write_stamped(sheet.parts, target, title=sheet.context["title"], cache_dir=cache, stats=stats, **kw)
    return target.read_bytes(), stats


def assert_same_text(stamped: bytes, reference: bytes) -> None:
    a, b = words_by_page(stamped), words_by_page(reference)
    assert len(a) == len(b)
    for number, (x, y) in enumerate(zip(a, b), 1):
        assert x == y, f"page {number}: stamped only {x - y}, laid out only {y - x}"


@pytest.fixture
def cache(tmp_path) -> Path:
    return tmp_path / "cache"


def test_blank_playbook_stamped_is_the_laid_out_blank(regiment, tmp_path, cache):
    from sheets.games.regiment.sheets import blank_playbook

    sheet = blank_playbook(regiment, regiment.data.playbook("sniper"))
    pdf, stats = stamp(sheet, tmp_path / "b.pdf", cache)
    assert stats["stamped"] == 1 and stats["laid_out"] == 0
    assert_same_text(pdf, laid_out(sheet))


def test_filled_playbook_from_a_file_stamped_like_laid_out(regiment, tmp_path, cache):
    from sheets.games.regiment.characters import resolve_character
    from sheets.games.regiment.sheets import filled_playbooks
    from sheets.library.yaml_source import load_yaml

    example = REPO / "content" / "regiment" / "characters" / "walter-brzezinski.yaml"
    ch = resolve_character(load_yaml(example), regiment.data)
    sheet = filled_playbooks(regiment, [ch], "w.pdf")
    pdf, stats = stamp(sheet, tmp_path / "w.pdf", cache)
    assert stats == {**stats, "stamped": 1, "laid_out": 0}
    assert_same_text(pdf, laid_out(filled_playbooks(regiment, [ch], "w.pdf")))
    words = Counter(" ".join(pypdf.PdfReader(io.BytesIO(pdf)).pages[0].extract_text().split()).split())
    assert words["Brzezinski"] >= 1 and words["Plumber"] >= 1 and words["Plumber,"] >= 1  # written, and in the list of backgrounds


def test_random_squad_stamped_like_laid_out_and_byte_identical(regiment, tmp_path, cache):
    from sheets.games.regiment.sheets import filled_playbooks, roll_squad

    squad = roll_squad(regiment, Dice.seeded(11), 6)  # more than one kind of playbook
    assert len({ch.playbook.id for ch in squad}) > 1
    old_chunk = stamping.CHUNK
    stamping.CHUNK = 2  # three chunks, as a big job has
    try:
        first, stats = stamp(filled_playbooks(regiment, squad, "s.pdf"), tmp_path / "a.pdf", cache, workers=1)
        assert stats["stamped"] == 6 and stats["blanks_rendered"] == len({ch.playbook.id for ch in squad})
        # the same seed again, from the warm cache, on two workers: the same bytes
        again = roll_squad(regiment, Dice.seeded(11), 6)
        second, stats = stamp(filled_playbooks(regiment, again, "s.pdf"), tmp_path / "b.pdf", cache, workers=2)
    finally:
        stamping.CHUNK = old_chunk
    assert_same_text(first, laid_out(filled_playbooks(regiment, squad, "s.pdf")))
    assert stats["blanks_rendered"] == 0 and stats["chunks"] == 3
    assert second == first
    text = "".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(first)).pages)
    assert "page 12 of 12" in text and "soldier 6 of 6" in text


def test_squad_roster_laid_out_and_its_members_stamped(regiment, tmp_path, cache):
    from sheets.games.regiment.sheets import roll_squad, squad_sheet
    from sheets.games.regiment.squads import SquadRoster

    members = roll_squad(regiment, Dice.seeded(3), 3)
    sheet = squad_sheet(regiment, SquadRoster("Big Squad", 2, None, members), "sq.pdf")
    pdf, stats = stamp(sheet, tmp_path / "sq.pdf", cache, workers=1)
    assert stats == {**stats, "stamped": 3, "laid_out": 1, "no_blank": 1}  # the roster is its own page
    reference = squad_sheet(regiment, SquadRoster("Big Squad", 2, None, members), "sq.pdf")
    reference.parts = None
    assert_same_text(pdf, laid_out(reference))


def test_rolled_campaign_log_sheet_like_laid_out(library, tmp_path, cache):
    from sheets.games.wotw.sheets import log_sheet, roll_missions

    wotw = library.game("wotw")
    missions = roll_missions(wotw, Dice.seeded(5), 3, "france-1944", None, engineers=True)
    sheet = log_sheet(wotw, missions, "c.pdf")
    fronts = sum(1 for blank, filled in sheet.parts if blank is not None and filled.context["pages"] == ("front",))
    continued = sum(1 for _, filled in sheet.parts if filled.context["pages"] == ("continuation",))
    assert fronts == 3 and len(sheet.parts) == 3 * 2 + continued + 1  # front, back (+ more track), the record
    blanks = len({render_html(blank) for blank, _ in sheet.parts if blank is not None})
    pdf, stats = stamp(sheet, tmp_path / "c.pdf", cache)
    # every mission's back (its play aid) stamped onto the one blank of its sides, its front (and
    # any continuation page) onto the blank of its rows, its events set as stamped rows; the
    # campaign record onto a blank record of three missions
    assert stats == {**stats, "stamped": len(sheet.parts), "laid_out": 0, "blanks_rendered": blanks}
    # the same words; not page by page: a long value the stamper shrinks into its box, the
    # layout engine wraps, its row grows, and a row of the track may move to the next page
    reference = laid_out(log_sheet(wotw, missions, "c.pdf"))
    assert len(words_by_page(pdf)) == len(words_by_page(reference))
    assert sum(words_by_page(pdf), Counter()) == sum(words_by_page(reference), Counter())
    text = " ".join((p.extract_text() or "") for p in pypdf.PdfReader(io.BytesIO(pdf)).pages)
    assert "Engineers: one step before the objective may be struck" in text  # a written value
    again, _ = stamp(log_sheet(wotw, roll_missions(wotw, Dice.seeded(5), 3, "france-1944", None, engineers=True),
                               "c.pdf"), tmp_path / "d.pdf", cache)
    assert again == pdf


def test_a_campaign_record_is_stamped_on_one_blank_for_every_seed_of_as_many_missions(library, tmp_path, cache):
    """A batch's campaign record (each mission's objective and steps, the team's starting CP) is
    stamped on a blank record of as many missions, the same blank whatever the seed, so that a new
    seed's batch lays no record out; every word lands where the layout engine puts it when the
    record is laid out in full."""
    import pymupdf

    from sheets.games.wotw.sheets import log_sheet, roll_missions

    wotw = library.game("wotw")
    theatre = wotw.data.default_theatre().id

    def record(seed: int):
        missions = roll_missions(wotw, Dice.seeded(seed), 12, theatre, None)
        return missions, log_sheet(wotw, missions, "c.pdf").parts[-1]

    missions, (blank, filled) = record(5)
    _, (other_blank, other) = record(6)
    assert render_html(blank) == render_html(other_blank) and render_html(filled) != render_html(other)
    stats: dict = {}
    target = stamping.write_stamped([(blank, filled)], tmp_path / "r.pdf", cache_dir=cache, stats=stats)
    assert stats == {**stats, "stamped": 1, "laid_out": 0}, stats
    reference = laid_out(filled)
    mm = 72 / 25.4

    def words(pdf: bytes) -> list[list[tuple]]:
        """Each page's words between its header band and its footer (the margin text, drawn
        the same on every stamped page, is set unkerned: a title face's pair moves it a point)."""
        with pymupdf.open(stream=pdf, filetype="pdf") as doc:
            return [[(w[4], w[0], w[3]) for w in page.get_text("words") if 15 * mm < w[3] < page.rect.height - 12 * mm]
                    for page in doc]

    stamped, expected = words(target.read_bytes()), words(reference)
    assert len(stamped) == len(expected)
    for page, (ours, theirs) in enumerate(zip(stamped, expected), 1):
        assert len(ours) == len(theirs), page
        for word, x, y in ours:
            assert any(w == word and abs(x - ex) < 1 and abs(y - ey) < 1 for w, ex, ey in theirs), (page, word, x, y)
    text = " ".join(w for page in stamped for w, _, _ in page)
    for m in missions:
        assert m.objective.name.split()[-1] in text


def _events_below_their_heading(pdf: bytes, missions, wotw) -> int:
    """How many fronts print every event of their mission's terrains below the events heading
    (each front: a page with LOG SHEET on it; its events from the mission's own context)."""
    import pymupdf

    from sheets.games.wotw.sheets import mission_context

    found = 0
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        fronts = [page for page in doc if "LOG SHEET" in page.get_text() and "CONTINUATION" not in page.get_text()]
        assert len(fronts) == len(missions)
        for page, mission in zip(fronts, missions):
            heading = page.search_for("EVENTS (2D6)")
            assert heading, page.number
            below = squash(page.get_textbox(pymupdf.Rect(0, heading[0].y1, page.rect.width, page.rect.height)))
            legend = [e for column in mission_context(wotw, mission, None)["legend"] for e in column]
            assert legend
            for entry in legend:
                assert squash(entry["terrain"]) in below, (page.number, entry["terrain"])
                for roll, text in entry["events"]:
                    assert squash(f"{roll}: {text}") in below, (page.number, roll, text)
            found += 1
    return found


def _events_words(page) -> list[tuple[str, float, float]]:
    """The words below a front's events heading: (word, x, y from the heading's bottom) in pt."""
    import pymupdf

    heading = page.search_for("EVENTS (2D6)")[0]
    area = pymupdf.Rect(0, heading.y1, page.rect.width, page.rect.height - 30)  # not the footer
    return [(w[4], w[0], w[3] - heading.y1) for w in page.get_text("words") if pymupdf.Rect(w[:4]) in area]


def _events_rules(page) -> set[int]:
    """The heights (pt from the events heading's bottom, rounded) of the horizontal rules below it."""
    heading = page.search_for("EVENTS (2D6)")[0]
    found = set()
    for drawing in page.get_drawings():
        r = drawing["rect"]
        if r.y0 > heading.y1 + 1 and r.height < 1.5 and r.width > 20 and r.y1 < page.rect.height - 30:
            found.add(round(r.y0 - heading.y1))
    return found


def test_a_missions_events_are_set_as_stamped_rows_where_the_layout_puts_them(library, tmp_path, cache):
    """A mission's front is stamped on the blank of its track's shape, its events (one row a
    terrain, bold rolls, rows as tall as their text) set by the stamper in the look of the
    blank's sample row (sheets.pipeline.stamp.rows): every word where WeasyPrint puts it when it
    lays the same front out in full, within a point. Rows with no room on their page
    (large print) have their part laid out in full instead, where the events run on. Either way
    every event is printed whole, and the same bytes come back."""
    import pymupdf

    from sheets.games.wotw.sheets import log_sheet, mission_context, roll_missions
    from sheets.kinds.style import large_print

    wotw = library.game("wotw")

    def missions():
        return roll_missions(wotw, Dice.seeded(5), 4, "france-1944", None)

    sheet = log_sheet(wotw, missions(), "c.pdf")
    pdf, stats = stamp(sheet, tmp_path / "c.pdf", cache)
    assert stats == {**stats, "stamped": len(sheet.parts), "laid_out": 0}, stats  # the record too
    assert _events_below_their_heading(pdf, missions(), wotw) == 4
    reference = laid_out(log_sheet(wotw, missions(), "c.pdf"))
    with pymupdf.open(stream=pdf, filetype="pdf") as doc, pymupdf.open(stream=reference, filetype="pdf") as ref:
        fronts = [(a, b) for a, b in zip(doc, ref) if "EVENTS (2D6)" in a.get_text()]
        assert len(fronts) == 4
        for a, b in fronts:
            stamped, expected = _events_words(a), _events_words(b)
            assert len(stamped) == len(expected) > 20, a.number
            assert Counter(w for w, _, _ in stamped) == Counter(w for w, _, _ in expected), a.number
            # the rows' rules where the table's are, and no other line (the blank's hidden sample draws none)
            ruled, table = _events_rules(a), _events_rules(b)
            assert ruled and all(any(abs(y - t) <= 1 for t in table) for y in ruled), (a.number, ruled, table)
            assert all(any(abs(y - t) <= 1 for y in ruled) for t in table), (a.number, ruled, table)
            for word, x, y in stamped:  # set at WeasyPrint's widths (kerned): the same lines, the same rows
                assert any(w == word and abs(x - ex) < 1 and abs(y - ey) < 1 for w, ex, ey in expected), \
                    (a.number, word, x, y)
    again, stats = stamp(log_sheet(wotw, missions(), "c.pdf"), tmp_path / "d.pdf", cache)  # the blanks cached
    assert again == pdf and stats["blanks_rendered"] == 0
    # large print: a front's events may need more than the room its page leaves
    big = large_print([log_sheet(wotw, missions(), "c.pdf")])[0]
    pdf, stats = stamp(big, tmp_path / "e.pdf", cache)
    words = sum(words_by_page(pdf), Counter())
    for mission in missions():
        for column in mission_context(wotw, mission, None)["legend"]:
            for entry in column:
                for _, text in entry["events"]:
                    assert Counter(text.split()) <= words, text


def _band_spans(pdf: bytes, band: str) -> list[tuple[int, str, int]]:
    """(page, font name without a subset tag, colour) of every span of the header band's words."""
    import pymupdf

    found = []
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        for number, page in enumerate(doc):
            for block in page.get_text("dict")["blocks"]:
                for line in block.get("lines", []):
                    for span in line["spans"]:
                        if span["text"].strip() == band and span["bbox"][3] < 20 * 72 / 25.4:  # in the top margin
                            found.append((number, span["font"].split("+")[-1], span["color"]))
    return found


def test_a_stamped_page_s_header_band_is_in_the_theme_s_title_face(library, tmp_path, cache):
    """The log sheet's stamped pages (a mission's play-aid back, drawn onto its cached blank) print
    the header band as the laid-out pages do: the game's title face from its theme (not the family
    behind it), the theme's accent, its rule under it (issue 47: it was DejaVu Sans Condensed Bold,
    black, without the rule)."""
    from fontTools.ttLib import TTFont

    from sheets.games.wotw.sheets import log_sheet, roll_missions

    wotw = library.game("wotw")
    theme = wotw.content["theme"]
    family, weight = bundled.TITLE_FACES[theme.look.title_face]
    assert family not in (bundled.SANS, bundled.CONDENSED, bundled.SERIF)  # a face of its own to check
    face_file = bundled.face(family, weight == "bold", False)
    # the names the face is embedded by: the stamper's (the file's PostScript name), WeasyPrint's
    # (the CSS family with its style)
    names = {str(TTFont(face_file, lazy=True)["name"].getDebugName(6)),
             family.replace(" ", "-") + ("-Bold" if weight == "bold" else "")}
    accent = int(theme.look.accent.lstrip("#"), 16)
    missions = roll_missions(wotw, Dice.seeded(5), 2, "france-1944", None)
    sheet = log_sheet(wotw, missions, "c.pdf")
    pdf, stats = stamp(sheet, tmp_path / "c.pdf", cache)
    assert stats["stamped"] == len(sheet.parts)  # the campaign record too
    spans = _band_spans(pdf, theme.band)
    assert len(spans) == len(words_by_page(pdf))  # every page has its band
    assert {font for _, font, _ in spans} <= names, spans
    assert {colour for _, _, colour in spans} == {accent}
    # the stamped pages' band as the laid-out pages': the same face and colour, and the rule below
    reference = laid_out(log_sheet(wotw, missions, "c.pdf"))
    assert {(f, c) for _, f, c in _band_spans(reference, theme.band)} <= {(f, c) for f in names for c in [accent]}
    import pymupdf

    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        for page in doc:
            band_words = [w for w in page.get_text("words") if w[3] < 20 * 72 / 25.4]
            bottom = max(w[3] for w in band_words)
            rules = [d for d in page.get_drawings() if d.get("fill") and d["rect"].width > page.rect.width / 2
                     and bottom - 2 < d["rect"].y1 < bottom + 6
                     and round(d["fill"][0] * 255) << 16 | round(d["fill"][1] * 255) << 8 | round(d["fill"][2] * 255) == accent]
            assert rules, page.number


def test_blank_cache_follows_content_template_and_paper(regiment, tmp_path, cache, content_copy, monkeypatch):
    from sheets.games.regiment.sheets import blank_playbook
    from sheets.library.content import Library

    def build(game, paper="a4"):
        sheet = blank_playbook(game, game.data.playbook("medic"), paper)
        return stamp(sheet, tmp_path / "m.pdf", cache)

    pdf, stats = build(regiment)
    assert stats["blanks_rendered"] == 1
    assert build(regiment)[1]["blanks_rendered"] == 0  # cached
    pdf_letter, stats = build(regiment, "letter")  # paper
    assert stats["blanks_rendered"] == 1
    assert pypdf.PdfReader(io.BytesIO(pdf_letter)).pages[0].mediabox.width != \
        pypdf.PdfReader(io.BytesIO(pdf)).pages[0].mediabox.width
    # content: a homebrew edit to the playbook shows up
    medic = content_copy / "regiment" / "playbooks" / "medic.yaml"
    text = medic.read_text(encoding="utf-8")
    assert "Battlefield grace" in text
    medic.write_text(text.replace("Battlefield grace", "Battlefield mercy"), encoding="utf-8")
    edited, stats = build(Library(content_copy).game("regiment"))
    assert stats["blanks_rendered"] == 1
    assert "Battlefield mercy" in "".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(edited)).pages)
    # template: an edited playbook template is laid out again
    templates = tmp_path / "templates"
    shutil.copytree(rendering.paths.templates_dir(), templates)
    page = templates / "regiment" / "playbook.html.j2"
    page.write_text(page.read_text(encoding="utf-8").replace("<h2>Notes</h2>", "<h2>Field notes</h2>"),
                    encoding="utf-8")
    monkeypatch.setattr(rendering.paths, "templates_dir", lambda: templates)
    rendering._environment.cache_clear()
    try:
        changed, stats = build(regiment)
    finally:
        rendering._environment.cache_clear()
    assert stats["blanks_rendered"] == 1
    assert "FIELD NOTES" in pypdf.PdfReader(io.BytesIO(changed)).pages[0].extract_text()


def test_a_value_that_cannot_fit_is_laid_out_whole_instead_of_refused(regiment, tmp_path, cache):
    from sheets.games.regiment.sheets import filled_playbooks, roll_squad

    squad = roll_squad(regiment, Dice.seeded(3), 2)
    name = "Private " + "Wojciechowski-" * 30
    squad[1].name = name
    pdf, stats = stamp(filled_playbooks(regiment, squad, "x.pdf"), tmp_path / "x.pdf", cache)
    assert (stats["stamped"], stats["laid_out"]) == (1, 1)  # the other soldier is still stamped
    text = "".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(pdf)).pages[2:4])
    assert name.replace(" ", "") in "".join(text.split())  # whole, in flow, wrapped where it must
    assert not list(tmp_path.glob(".x.pdf*"))


def test_a_long_value_shrinks_into_its_box(regiment, tmp_path, cache):
    from sheets.games.regiment.sheets import filled_playbooks, roll_squad

    squad = roll_squad(regiment, Dice.seeded(3), 1)
    squad[0].name = "Aleksander Wojciechowski-Brzęczyszczykiewicz"
    pdf, stats = stamp(filled_playbooks(regiment, squad, "x.pdf"), tmp_path / "x.pdf", cache)
    assert stats["stamped"] == 1
    assert "Wojciechowski-Brzęczyszczykiewicz" in pypdf.PdfReader(io.BytesIO(pdf)).pages[0].extract_text()


def test_a_sheet_that_varies_outside_its_fields_is_laid_out_instead():
    blank = fields.fields_of('<p>Name <span class="write" data-field="n"></span></p><p>x</p>')
    same = fields.fields_of('<p>Name <span class="write" data-field="n">Walt</span></p><p>x</p>')
    other = fields.fields_of('<p>Name <span class="write" data-field="n">Walt</span></p><p>y</p>')
    layout = {"pages": [{"width": 100, "height": 100, "margins": []}],
              "fields": {"n": {"page": 0, "content": [0, 0, 80, 12], "border": [0, 0, 80, 12],
                               "font": {"family": ["DejaVu Serif"], "weight": 400, "style": "italic",
                                        "stretch": "normal", "size": 9, "line_height": 11, "color": [0, 0, 0, 1],
                                        "align": "start", "transform": "none", "spacing": 0}}}}
    plan = overlay.plan_part(blank, layout, same)
    assert plan is not None and plan[0][0].lines == ["Walt"]
    assert overlay.plan_part(blank, layout, other) is None


# -- interruption (issue 11, item 6) ---------------------------------------------
def _children(pid: int) -> list[int]:
    found = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        found.append(int(d))
            except (OSError, ValueError, IndexError):
                pass
    return found


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.parametrize("sig, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
@pytest.mark.parametrize("args", [["playbook", "--random", "--count", "60", "--seed", "1"],
                                  ["mission", "--count", "30", "--seed", "1"]])
def test_interrupted_build_stops_workers_and_leaves_nothing(tmp_path, sig, code, args):
    out = tmp_path / "out"
    out.mkdir()
    env = dict(os.environ, SHEETS_CACHE_DIR=str(tmp_path / "cache"))  # cold: workers lay blanks out
    proc = subprocess.Popen([sys.executable, "-m", "sheets", *args, "-o", str(out / "x.pdf")], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    workers: list[int] = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        workers = _children(proc.pid)
        if len(workers) >= 2:
            break
        time.sleep(0.05)
    assert proc.poll() is None and len(workers) >= 2, "the build did not start its workers"
    time.sleep(0.5)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=10)
    assert proc.returncode == code, err
    assert err.strip().count("\n") == 0 and "nothing half-written" in err and "Traceback" not in err
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline and any(_alive(p) for p in workers):
        time.sleep(0.05)
    assert not [p for p in workers if _alive(p)], "worker processes left running"
    assert list(out.iterdir()) == []  # no partial PDF, no temporary file
    cache = tmp_path / "cache"
    assert not cache.exists() or not [p for p in cache.iterdir() if p.name.startswith(".")]


def test_the_stamper_draws_in_the_bundled_fonts_without_asking_fontconfig(monkeypatch):
    """The stamper takes the files the sheets' @font-face rules name (sheets/base/fonts/), for
    the templates' names and the older DejaVu ones alike; fontconfig is never asked for them."""
    def no_fc_match(*args, **kwargs):
        raise FileNotFoundError("fc-match")

    monkeypatch.setattr(glyphs.subprocess, "run", no_fc_match)
    fonts.font_file.cache_clear()
    try:
        found = {(family, bold, italic, condensed): Path(fonts.font_file(family, bold, italic, condensed))
                 for family, bold, italic, condensed in [
                     (("Sheets DejaVu Serif", "Sheets DejaVu Sans", "serif"), False, True, False),
                     (("DejaVu Serif", "serif"), False, True, False),
                     (("Sheets DejaVu Serif",), True, False, False),
                     (("Sheets DejaVu Sans", "sans-serif"), True, False, False),
                     (("Sheets DejaVu Sans Condensed", "Sheets DejaVu Sans"), False, False, False),
                     (("DejaVu Sans",), False, False, True)]}
    finally:
        fonts.font_file.cache_clear()
    assert [p.name for p in found.values()] == ["DejaVuSerif-Italic.ttf", "DejaVuSerif-Italic.ttf",
                                                "DejaVuSerif-Bold.ttf", "DejaVuSans-Bold.ttf",
                                                "DejaVuSansCondensed.ttf", "DejaVuSansCondensed.ttf"]
    assert all(p.parent == bundled.FONTS_DIR for p in found.values())


def test_a_long_audit_trail_grows_its_box_and_is_stamped_not_laid_out(library, tmp_path, cache):
    """A mission whose dice audit runs longer than the blank's box (missions 5-7 of seed 1) is
    stamped on a blank whose audit box is as tall as its lines (laid out once, cached, shared),
    not laid out in full per mission (issue 38): the same words on the same pages as the sheet
    laid out in full, the whole audit drawn inside its box, and the same bytes every time."""
    from sheets.games.wotw.sheets import log_sheet, roll_missions

    wotw = library.game("wotw")

    def missions():  # the seed's missions 5 to 7 (rolled after 1 to 4, with the same dice)
        return roll_missions(wotw, Dice.seeded(1), 7, wotw.data.default_theatre().id, None)[4:]

    sheet = log_sheet(wotw, missions(), "c.pdf")
    # every page stamped (the fronts with their events drawn in), the backs, the play aid with
    # the audit, on the grown blank; the campaign record on its blank
    pdf, stats = stamp(sheet, tmp_path / "c.pdf", cache)
    assert stats == {**stats, "stamped": len(sheet.parts), "grown": 3, "laid_out": 0, "no_blank": 0}, stats
    reference = laid_out(log_sheet(wotw, missions(), "c.pdf"))
    assert words_by_page(pdf) == words_by_page(reference)  # page by page: the boxes grew as laid out
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    audits = [page for page in reader.pages if "How this mission was rolled" in page.extract_text()]
    assert len(audits) == 3  # one audit a mission, on its back
    for mission, page in zip(missions(), audits):  # the audit's last word is on the mission's back, drawn
        runs: list = []
        page.extract_text(visitor_text=lambda text, cm, tm, fd, fs: runs.append((tm[5], text)))  # noqa: B023 - read here
        last = f"{mission.rolls[-1].hit}.".split()[-1]
        ys = [y for y, t in runs if last in t]
        assert ys and min(ys) > 40, (mission.number, last, ys)  # above the footer
    assert 1 <= stats["taller_laid_out"] <= 3, stats  # laid out here, once for each height needed
    # the taller blanks are cached: the same missions again lay out nothing, and give the same bytes
    again, stats = stamp(log_sheet(wotw, missions(), "c.pdf"), tmp_path / "d.pdf", cache)
    assert stats["blanks_rendered"] == 0 and stats["taller_laid_out"] == 0 and again == pdf
    # on the workers (in chunks), each part is planned on its cached taller blank there: every
    # chunk is written as it comes, none drawn again here, and the bytes are the one-process bytes
    many = roll_missions(wotw, Dice.seeded(1), 30, wotw.data.default_theatre().id, None)
    first, stats = stamp(log_sheet(wotw, many, "c.pdf"), tmp_path / "e.pdf", cache, workers=1)
    assert stats["grown"] >= 3 and stats["chunks"] >= 2, stats  # in chunks: the workers path is tried
    on_workers, stats = stamp(log_sheet(wotw, roll_missions(wotw, Dice.seeded(1), 30, wotw.data.default_theatre().id,
                                                            None), "c.pdf"), tmp_path / "f.pdf", cache, workers=2)
    assert stats["taller_laid_out"] == 0 and stats["redrawn"] == 0 and stats["grown"] >= 3, stats
    assert on_workers == first


def test_growing_a_box_keeps_everything_else_and_refuses_what_it_cannot_fit():
    spec = {"page": 0, "content": [10.0, 10.0, 100.0, 14.4], "border": [10.0, 10.0, 100.0, 14.4], "baseline": None,
            "fill": [0, 0, 0, 1], "round": False, "valign": "top",
            "font": {"family": ["Sheets DejaVu Sans"], "size": 6.0, "line_height": 7.2, "weight": 400, "style": "normal",
                     "stretch": "normal", "spacing": 0.0, "transform": "none", "align": "start", "color": [0, 0, 0, 1]}}
    layout = {"pages": [{"width": 200, "height": 200, "margins": []}], "fields": {"a": spec}}
    blank_html = '<p>x <span class="write" style="min-width: 0" data-field="a" data-grow></span></p>'
    blank = fields.fields_of(blank_html)
    long = "word " * 60
    filled = fields.fields_of(blank_html.replace("data-grow></span>", f"data-grow>{long}</span>"))
    assert overlay.plan_part(blank, layout, filled) is None  # too long for two lines
    heights = overlay.growth(blank, layout, filled)
    assert heights is not None and heights["a"] > 14.4 and round(heights["a"] / 7.2, 6).is_integer()
    grown = overlay.grown_html(blank_html, heights)
    assert f'style="min-width: 0; min-height: {heights["a"]:.2f}pt"' in grown
    # a min-height of its own, single quotes, the attribute on a line of its own: one style, ours last
    own = blank_html.replace('style="min-width: 0"', "\n style='min-height: 6mm;'")
    assert f"style='min-height: 6mm; min-height: {heights['a']:.2f}pt'" in overlay.grown_html(own, heights)
    assert overlay.grown_html(blank_html.replace(' style="min-width: 0"', ""), heights).count("style=") == 1
    assert fields.fields_of(grown).skeleton == blank.skeleton  # the field's own attributes are not the skeleton
    # a box without data-grow does not grow; a word wider than the box is laid out in full instead
    fixed = fields.fields_of(blank_html.replace(" data-grow", ""))
    assert overlay.growth(fixed, layout, fields.fields_of(blank_html.replace(" data-grow></span>", f">{long}</span>"))) is None
    wide = fields.fields_of(blank_html.replace("data-grow></span>", f"data-grow>{'W' * 80}</span>"))
    assert overlay.growth(blank, layout, wide) is None


def test_a_field_read_again_is_the_same_value_and_the_memory_is_bounded(monkeypatch):
    """Issue 38: a batch's fields are read once per distinct markup (`fields._value`); the value
    is frozen (shared by every part), the same as read afresh, and the memory has a bound."""
    html = ('<p><span class="box marked" data-field="a.1" data-label="A &amp; B">✔</span>'
            '<span class="write" data-field="name" data-grow>Jan <b>Kowalski</b></span></p>')
    first, again = fields.fields_of(html), fields.fields_of(html)
    assert first == again and first.values["a.1"] is again.values["a.1"]
    assert first.values["a.1"] == fields.Value("✔", frozenset({"box", "marked"}), "", "A & B", False)
    assert first.values["name"].text == "Jan Kowalski" and first.values["name"].grow
    with pytest.raises(AttributeError):
        first.values["name"].text = "changed"  # shared, so it cannot change
    monkeypatch.setattr(fields, "_SEEN_MAX", 3)
    monkeypatch.setattr(fields, "_SEEN", {})
    for i in range(10):
        fields.fields_of(f'<span data-field="n{i}">{i}</span>')
        assert len(fields._SEEN) <= 3


def test_a_chunks_blanks_are_unpickled_once_per_worker(monkeypatch):
    """Issue 38: a blank goes to a worker pickled once (`chunk.packed`) and is unpickled once
    per worker (`chunk._unpacked`); a part's own base ("part-N", numbered per job) is never
    remembered, since another job's part-N is another page."""
    from sheets.pipeline.stamp import chunk

    monkeypatch.setattr(chunk, "_READ", {})
    f = fields.fields_of('<span data-field="x">1</span>')
    blank = chunk.packed("abc", f, {"pages": [1]})
    own = chunk.packed("part-3", f, {"pages": [2]})
    assert isinstance(blank, bytes) and own == (f, {"pages": [2]})
    one = chunk._unpacked({"abc": blank, "part-3": own})
    two = chunk._unpacked({"abc": blank, "part-3": (f, {"pages": [9]})})
    assert one["abc"] is two["abc"] and one["abc"] == (f, {"pages": [1]})
    assert two["part-3"][1] == {"pages": [9]} and set(chunk._READ) == {"abc"}


def test_the_stamper_measures_and_wraps_text_as_reportlab_does():
    """`text_width` and `split_lines` remember each text's width in the font's units, and give
    reportlab's own floats (`stringWidth`) and lines (`simpleSplit`): the same ops, the same bytes."""
    import random

    from reportlab.lib.utils import simpleSplit
    from reportlab.pdfbase.pdfmetrics import stringWidth

    rnd = random.Random(38)
    letters = "abcdefghijklmnopqrstuvwxyz ABCDEFGHIJ éüß—–·✔’“”0123456789,.;:()\n  "
    names = [fonts.face_for({"family": ("Sheets DejaVu Sans",), "weight": w, "style": s, "stretch": "normal"})[0]
             for w, s in ((400, "normal"), (700, "normal"), (400, "italic"))]
    checked = 0
    for name in names:
        for _ in range(1500):
            text = "".join(rnd.choice(letters) for _ in range(rnd.randint(0, 90)))
            size = rnd.choice([6, 6.65, 7.5, 8.55, 9, 10.5, 12]) * (1 - 0.05 * rnd.randint(0, 8))
            width = rnd.choice([0, 12, 40, 80.5, 120.25, 300])
            assert fonts.text_width(text, name, size, 0) == stringWidth(text, name, size)
            assert fonts.split_lines(text, name, size, width) == simpleSplit(text, name, size, width)
            checked += 1
    assert checked == 4500


def test_drawn_chunks_wait_for_a_slow_writer_and_memory_stays_bounded(regiment, tmp_path, cache, monkeypatch):
    """The file is written a chunk at a time as the chunks are taken, in order, from the workers;
    when the writing falls behind (a slow disk), no chunk is handed out while the workers' two
    and AHEAD more are drawn and not yet written, so that the overlays held never grow with the
    batch. The same bytes as in one process."""
    import time as clock

    from sheets.games.regiment.sheets import filled_playbooks, roll_squad
    from sheets.pipeline import workers
    from sheets.pipeline.stamp import out as out_module

    squad = roll_squad(regiment, Dice.seeded(3), 24)
    monkeypatch.setattr(stamping, "CHUNK", 1)  # 24 chunks
    one, _ = stamp(filled_playbooks(regiment, squad, "s.pdf"), tmp_path / "one.pdf", cache, workers=1)
    write, taken, out = out_module.Out.write, workers.Results.__next__, []

    def slow(self, chunk, data, between=None):
        clock.sleep(0.1)  # a chunk written slowly
        write(self, chunk, data, between)

    def counted(self):
        value = taken(self)
        out.append(self.out)  # drawn or being drawn, not yet written
        return value

    monkeypatch.setattr(out_module.Out, "write", slow)
    monkeypatch.setattr(workers.Results, "__next__", counted)
    again = roll_squad(regiment, Dice.seeded(3), 24)
    two, stats = stamp(filled_playbooks(regiment, again, "s.pdf"), tmp_path / "two.pdf", cache, workers=2)
    assert stats["chunks"] == 24 and two == one
    assert len(out) >= 24 and max(out) <= 2 + stamping.AHEAD  # at most one a worker, and AHEAD more
    assert max(out) > 2  # the writer did fall behind


def test_a_tagged_files_blanks_are_prepared_once_and_kept_in_the_cache(regiment, tmp_path, cache, monkeypatch):
    """The tagged writer prepares each blank's page once (its content marked and compressed, its
    structure compiled: sheets.pdf.tagged.prepared); the cache keeps that beside the blank, so that
    the next file stamped on it takes it from there, and gives the same bytes. An entry of another
    format is not taken: the page is prepared again."""
    from sheets.games.regiment.sheets import filled_playbooks, roll_squad
    from sheets.base import cachedir
    from sheets.pdf import tagged
    from sheets.pipeline import cache as cached

    def squad():
        return filled_playbooks(regiment, roll_squad(regiment, Dice.seeded(3), 6), "s.pdf")

    first, _ = stamp(squad(), tmp_path / "a.pdf", cache)
    kept = sorted(cache.glob("blank-*.tagged.json"))
    blanks = sorted(cache.glob("blank-*.pdf"))
    assert kept and len(kept) == len(blanks)  # every blank the squad was stamped on
    assert set(kept) <= {path for path, _ in cachedir.entries(cache)}  # the cache's own: trimmed, cleared
    made = []
    real = tagged.page_structure
    monkeypatch.setattr(tagged, "page_structure", lambda pdf, i: made.append(i) or real(pdf, i))
    again, _ = stamp(squad(), tmp_path / "b.pdf", cache)
    assert again == first and made == []  # taken from the cache, not prepared again
    for path in kept:  # an entry of another format: prepared again, the same bytes
        cached.write(path, cached.read(path).replace(tagged.PREPARED_FORMAT.encode(), b"prepared 0"))
    third, _ = stamp(squad(), tmp_path / "c.pdf", cache)
    assert third == first and made
