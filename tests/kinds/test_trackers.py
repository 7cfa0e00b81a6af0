"""Trackers are drawn from numbers in content (and on the command line), not by hand."""
from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import pikepdf
import pypdf
import pytest

from conftest import pages, pdf_text, squash



class TrackerHTML(HTMLParser):
    """Units -> groups -> boxes, read from the rendered tracker HTML."""

    def __init__(self):
        super().__init__()
        self.units: list[list[list[dict]]] = []
        self.labels: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        if tag == "tbody" and "unit" in classes:
            self.units.append([])
        elif "group" in classes and "data-group" in a:
            self.units[-1].append([])
        elif "tbox" in classes:
            self.units[-1][-1].append({"pos": int(a["data-pos"]), "circle": "circle" in classes,
                                       "premarked": "premarked" in classes})


def tracker_html(game_id: str, content: Path | None = None, **numbers) -> TrackerHTML:
    """The HTML the `trackers` command renders, parsed (same functions as the command)."""
    from sheets.pipeline.sheet import render_html
    from sheets.library.content import Library
    from sheets.kinds.trackers.builder import Overrides, apply_overrides, pick_trackers, tracker_sheet

    game = Library(content).game(game_id)
    # the game's first tracker (The Regiment's NPC strength tracks; it also has vehicle damage and clocks)
    chosen = [apply_overrides(t, Overrides(**numbers)) for t in pick_trackers(game)[:1]]
    parser = TrackerHTML()
    parser.feed(render_html(tracker_sheet(game, chosen)))
    return parser


def test_twelve_teams_of_five_soldiers_of_three(cli, tmp_path):
    result = cli("trackers", "regiment", "--teams", "12", "--soldiers", "5", "--strength", "3", "-o", tmp_path / "t.pdf")
    assert result.exit_code == 0, result
    assert "wrote t.pdf" in result.stdout or "t.pdf" in result.stdout
    assert pages(tmp_path / "t.pdf") == 1
    text = pdf_text(tmp_path / "t.pdf")
    assert text.count("TEAM") == 12 and text.count("NOTES") == 12
    assert "NPC team strength tracks" in text

    drawing = tracker_html("regiment", units=12, groups=5, boxes=3)
    assert len(drawing.units) == 12
    for unit in drawing.units:
        assert len(unit) == 5
        assert sum(len(g) for g in unit) == 15
        for soldier in unit:
            assert [b["pos"] for b in soldier] == [1, 2, 3]
            assert [b["circle"] for b in soldier] == [False, False, True]  # the third takes them out


def test_the_default_is_the_seed_sheet(cli, tmp_path):
    drawing = tracker_html("regiment")
    assert len(drawing.units) == 12 and all(len(u) == 5 and len(u[0]) == 3 for u in drawing.units)


def test_other_numbers_change_the_drawing(cli, tmp_path):
    drawing = tracker_html("regiment", units=4, groups=2, boxes=4)
    assert len(drawing.units) == 4
    for unit in drawing.units:
        assert len(unit) == 2
        for soldier in unit:
            # the circle is the last box ("circles: [-1]"): the fourth at strength 4
            assert [b["circle"] for b in soldier] == [False, False, False, True]
    assert cli("trackers", "regiment", "--teams", "4", "--soldiers", "2", "--strength", "4", "-o", tmp_path / "a.pdf").exit_code == 0
    assert cli("trackers", "regiment", "-o", tmp_path / "b.pdf").exit_code == 0
    assert (tmp_path / "a.pdf").read_bytes() != (tmp_path / "b.pdf").read_bytes()
    assert pdf_text(tmp_path / "a.pdf").count("TEAM") == 4


def test_long_names_for_the_numbers_work_too(cli, tmp_path):
    result = cli("trackers", "regiment", "--units", "3", "--groups", "2", "--boxes", "2", "-o", tmp_path / "t.pdf")
    assert result.exit_code == 0, result
    assert pdf_text(tmp_path / "t.pdf").count("TEAM") == 3


def test_names_are_rolled_with_the_dice(cli, tmp_path, regiment):
    result = cli("trackers", "regiment", "--names", "--seed", "7", "-o", tmp_path / "a.pdf")
    assert result.exit_code == 0, result
    assert "designations rolled with seed 7 (repeat with --seed 7)" in result.stdout
    text = pdf_text(tmp_path / "a.pdf")
    names = regiment.content["trackers"]["npc-strength"].names
    found = [n for n in names if n in text.split()]
    assert len(found) == 12  # twelve teams, no name twice while names last
    # the seed is in the PDF's metadata, not on the page a player holds
    assert "seed 7" not in text
    with pikepdf.open(tmp_path / "a.pdf") as pdf:
        assert "seed 7" in str(pdf.docinfo.get("/Keywords"))
    assert cli("trackers", "regiment", "--names", "--seed", "7", "-o", tmp_path / "b.pdf").exit_code == 0
    assert (tmp_path / "a.pdf").read_bytes() == (tmp_path / "b.pdf").read_bytes()
    # scripted dice replay a roll made at the table: the first team gets the 2nd name
    result = cli("trackers", "regiment", "--names", "--teams", "1", "--dice", "2", "-o", tmp_path / "c.pdf")
    assert result.exit_code == 0, result
    assert names[1] in pdf_text(tmp_path / "c.pdf")


def test_names_repeat_only_when_the_list_runs_out():
    from sheets.base.dice import Dice
    from sheets.library.kinds.trackers import BoxTracker
    from sheets.kinds.trackers.builder import roll_designations

    tracker = BoxTracker(id="t", title="T", kind="boxes", unit_label="U", units=7, boxes=1, names=["a", "b", "c"])
    rolled = roll_designations(tracker, Dice.seeded(1))
    assert sorted(rolled[:3]) == ["a", "b", "c"] and sorted(rolled[3:6]) == ["a", "b", "c"]


def test_summary_is_computed_from_the_numbers(cli, fixture_content, tmp_path):
    result = cli("trackers", "skirmish", "--units", "10", "--content", fixture_content, "-o", tmp_path / "s.pdf")
    assert result.exit_code == 0, result
    text = squash(pdf_text(tmp_path / "s.pdf"))
    assert "Breakpoint:6squads" in text
    assert text.count("SQUAD") == 10


def test_grid_tracker_rows_and_prefill(cli, fixture_content, tmp_path):
    path = fixture_content / "skirmish" / "trackers.yaml"
    path.write_text(path.read_text() + (
        "  - id: turns\n    title: Turn record\n    kind: grid\n    columns: [Turn, Side, Result]\n"
        "    rows: 6\n    prefill: {Turn: \"T{n}\"}\n    summary: \"{{ rows }} turns\"\n"))
    result = cli("trackers", "skirmish", "--tracker", "turns", "--units", "9", "--content", fixture_content,
                 "-o", tmp_path / "g.pdf")
    assert result.exit_code == 0, result
    text = squash(pdf_text(tmp_path / "g.pdf"))
    assert "9turns" in text and "T1" in text and "T9" in text and "T10" not in text
    # both trackers, one page each
    assert cli("trackers", "skirmish", "--content", fixture_content, "-o", tmp_path / "both.pdf").exit_code == 0
    assert pages(tmp_path / "both.pdf") == 2


@pytest.mark.parametrize("args, message", [
    (["trackers", "regiment", "--tracker", "npc-strength", "--teams", "200", "--soldiers", "50"],
     "tracker 'npc-strength' with --units 200, --groups 50: 200 units x 50 groups x 3 boxes is 30,000 boxes"),
    (["trackers", "regiment", "--tracker", "tanks"], "unknown tracker 'tanks' for The Regiment; choose one of: npc-strength, vehicle-damage, countdown-clocks"),
    (["trackers", "regiment", "--seed", "4"], "--seed/--dice roll designations: add --names"),
    (["trackers", "chess"], "unknown game 'chess'"),
])
def test_bad_tracker_options_are_clear_errors(cli, args, message):
    result = cli(*args)
    assert result.exit_code == 1
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_overrides_need_one_tracker_and_fitting_positions(cli, fixture_content):
    path = fixture_content / "skirmish" / "trackers.yaml"
    path.write_text(path.read_text() + "  - {id: turns, title: Turns, kind: grid, columns: [A], rows: 3}\n")
    result = cli("trackers", "skirmish", "--units", "3", "--content", fixture_content)
    assert result.exit_code == 1 and "name one with --tracker" in result.stderr
    result = cli("trackers", "skirmish", "--tracker", "turns", "--boxes", "3", "--content", fixture_content)
    assert result.exit_code == 1 and "only --units (its rows) can be changed" in result.stderr
    # the fixture's circle is at position 4: three boxes leave no room for it
    result = cli("trackers", "skirmish", "--tracker", "squads", "--boxes", "3", "--content", fixture_content)
    assert result.exit_code == 1 and "circles: position 4 is outside 1..3" in result.stderr
    result = cli("trackers", "skirmish", "--tracker", "squads", "--names", "--content", fixture_content)
    assert result.exit_code == 1 and "has no names to roll" in result.stderr


@pytest.mark.parametrize("line, replacement, message", [
    ("units: 4", "units: 0", "trackers[0].units: 0 is too low: at least 1"),
    ("circles: [4]", "circles: [5]", "circles: position 5 is outside 1..4"),
    ("circles: [4]", "circles: [0]", "circles: position 0 is outside 1..4"),
    ("summary: \"Break point: {{ units // 2 + 1 }} squads\"", "summary: \"{{ squads }}\"",
     "summary: UndefinedError: 'squads' is undefined (the names known here are units, groups, boxes)"),
    ("summary: \"Break point: {{ units // 2 + 1 }} squads\"", "summary: \"{{ units.__class__.__mro__ }}\"",
     "summary: SecurityError"),
    ("summary: \"Break point: {{ units // 2 + 1 }} squads\"", "summary: \"{{ units \"", "summary: template syntax error"),
    ("kind: boxes", "kind: bars", "trackers[0].kind: 'bars' is not one of the kinds"),
])
def test_bad_tracker_values_are_located(cli, fixture_content, line, replacement, message):
    path = fixture_content / "skirmish" / "trackers.yaml"
    text = path.read_text()
    assert line in text
    path.write_text(text.replace(line, replacement))
    result = cli("validate", "--content", fixture_content)
    assert result.exit_code == 1
    assert "skirmish/trackers.yaml:" in result.stderr and message in result.stderr, result.stderr


def test_negative_positions_count_from_the_end():
    from sheets.library.kinds.trackers import BoxTracker

    tracker = BoxTracker(id="t", title="T", kind="boxes", unit_label="U", units=1, boxes=5, circles=[-1, 1],
                         premarked=[-2])
    assert tracker.positions("circles") == {1, 5} and tracker.positions("premarked") == {4}


def test_trackers_are_deterministic(cli, tmp_path):
    for name in ("a.pdf", "b.pdf"):
        assert cli("trackers", "regiment", "--teams", "6", "-o", tmp_path / name).exit_code == 0
    data = (tmp_path / "a.pdf").read_bytes()
    assert data == (tmp_path / "b.pdf").read_bytes()
    # no clock in the file: no /CreationDate, and the XMP's dates are the fixed epoch (the /ID
    # that qpdf writes is a hash of the content: the same in both builds, as the bytes are)
    assert b"/CreationDate" not in data
    with pikepdf.open(tmp_path / "a.pdf") as pdf, pdf.open_metadata() as xmp:
        dates = {k: v for k, v in xmp.items() if k.endswith("Date")}
    assert dates and set(dates.values()) == {"2000-01-01T00:00:00Z"}
    assert len(pypdf.PdfReader(str(tmp_path / "a.pdf")).pages) == 1


MM = 72 / 25.4


def _rows_of_words(page) -> list[list[tuple]]:
    """A page's words in rows (the same baseline within 1.5 pt), each row left to right."""
    rows: list[list[tuple]] = []
    for w in sorted(page.get_text("words"), key=lambda w: (round(w[3]), w[0])):
        if rows and abs(rows[-1][0][3] - w[3]) < 1.5:
            rows[-1].append(w)
        else:
            rows.append([w])
    return [sorted(row, key=lambda w: w[0]) for row in rows]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_vehicle_tracker_has_armor_by_facing_and_crew_lines(cli, tmp_path, regiment, paper):
    """Every vehicle of the tracker has its ARMOR boxes (one per facing, the facing's letter
    before a box big enough for a number) and its CREW lines (as many as the largest crew the
    game's vehicles list), read back from the PDF; the damage track stays."""
    import pymupdf

    tracker = next(t for t in regiment.content["trackers"].values()
                   if t.kind == "boxes" and any(f.boxes for f in t.unit_fields))
    boxes_field = next(f for f in tracker.unit_fields if f.boxes)
    lines_field = next(f for f in tracker.unit_fields if f.lines)
    vehicles = regiment.data.vehicles.vehicles
    # the facings the rules give every armored vehicle ("Armor: Front 10, Side 7, Rear 6, Top 4"),
    # by initial, and one line per crewman of the largest crew
    facings = [name for name in type(next(v.armor for v in vehicles if v.armor)).model_fields]
    assert boxes_field.boxes == [f[0].upper() for f in facings]
    assert lines_field.lines == max(v.crew for v in vehicles)

    out = tmp_path / "v.pdf"
    result = cli("trackers", "regiment", "--tracker", tracker.id, "--paper", paper, "-o", out)
    assert result.exit_code == 0, result
    armor_rows = crew_rows = 0
    with pymupdf.open(out) as doc:
        assert len(doc) == 1  # the fields fit the page the paragraph did
        for page in doc:
            drawn = [d["rect"] for d in page.get_drawings()]
            for words in _rows_of_words(page):
                texts = [w[4] for w in words]
                head = [boxes_field.label.upper(), *boxes_field.boxes]
                if texts[:len(head)] == head:
                    armor_rows += 1
                    for w in words[1:len(head)]:
                        # the box right after its letter: room for a number in pencil
                        box = [r for r in drawn if 0 <= r.x0 - w[2] <= 3 * MM and r.y0 < w[3] and r.y1 > w[1]]
                        assert len(box) == 1, (w, box)
                        assert box[0].width >= 7.5 * MM and box[0].height >= 6 * MM, box[0]
                for i, label in enumerate(words):
                    if label[4] != lines_field.label.upper():
                        continue
                    # the lines after the label (up to the next word on its row): a name's width
                    # each, on rows a pencil writes in
                    end = words[i + 1][0] if i + 1 < len(words) else page.rect.width
                    row = [r for r in drawn if label[2] < r.x0 and r.x1 <= end and abs(r.y1 - label[3]) < 3
                           and r.width >= 15 * MM and r.height >= 6 * MM]
                    if row:
                        crew_rows += 1
                        assert len(row) == lines_field.lines, (label, row)
        text = "".join(page.get_text() for page in doc)
    assert armor_rows == crew_rows == tracker.units
    assert text.count(tracker.unit_label) == tracker.units and text.count("NOTES") == tracker.units
    for label in tracker.group_labels:  # the damage track is still there, every vehicle
        assert text.count(label.upper()) >= tracker.units


@pytest.mark.parametrize("fields, message", [
    ([{"label": "Armor"}], "give either boxes"),
    ([{"label": "Armor", "boxes": ["F"], "lines": 2}], "give either boxes"),
])
def test_unit_fields_are_boxes_or_lines(fields, message):
    from pydantic import ValidationError
    from sheets.library.kinds.trackers import BoxTracker

    with pytest.raises(ValidationError, match=message):
        BoxTracker(id="t", title="T", kind="boxes", unit_label="U", units=1, boxes=3, unit_fields=fields)
    with pytest.raises(ValidationError, match="not with one_line"):
        BoxTracker(id="t", title="T", kind="boxes", unit_label="U", units=1, boxes=3, one_line=True,
                   unit_fields=[{"label": "Crew", "lines": 2}])
