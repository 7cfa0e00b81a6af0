"""Printer calibration: the sheet, the readings and their sign, the offset stored in the
workspace's sheets.toml (round-trip, atomic, previous kept), and later prints (CLI and desk)
that use it."""
import re

import pypdf
import pytest
from deskfixtures import alerts, desk, field  # noqa: F401 - the fixture
from pypdf.generic import ContentStream

from sheets.base import config
from sheets.base.errors import SheetsError
from sheets.kinds.calibration import TICK_ZERO, behind, offset_from_readings, offset_text, reading

MM = 72 / 25.4
TOML = '# my printer at the club\npaper = "a4"   # the office paper\nback_offset = [1, -0.5]  # measured in May\n'
WIZARD = {"paper": "a4", "duplex": "long"}


def segments(reader, index):
    segs, start = [], None
    for operands, op in ContentStream(reader.pages[index].get_contents(), reader).operations:
        if op == b"m":
            start = [float(v) / MM for v in operands]
        elif op == b"l":
            segs.append((*start, *(float(v) / MM for v in operands)))
    return segs


def placed(reader, index):
    """(name, x, y) in mm of every card (front or back) placed on a page."""
    out, matrix = [], None
    for operands, op in ContentStream(reader.pages[index].get_contents(), reader).operations:
        if op == b"cm":
            matrix = [float(v) for v in operands]
        elif op == b"Do":
            out.append((str(operands[0]), matrix[4] / MM, matrix[5] / MM))
    return out


# -- the readings, and their sign ------------------------------------------------------------
@pytest.mark.parametrize("duplex", ["long", "short"])
@pytest.mark.parametrize("printed_with", [(0.0, 0.0), (1.5, -1.0)])
@pytest.mark.parametrize("drift", [(2.0, -1.5), (-0.5, 3.0)])
def test_the_readings_off_a_drifting_printer_give_the_offset_that_cancels_it(cli, tmp_path, duplex, printed_with,
                                                                             drift):
    """A printer that puts the back `drift` mm off (right, up, as the back is seen): the line
    read off the printed sheet, turned into an offset, puts the next sheet's 0 on the line."""
    def sheet(offset):
        name = tmp_path / f"cal-{offset_text(offset)}.pdf"
        assert cli("cards", "calibrate", "--duplex", duplex, "--back-offset", offset_text(offset), "-o", name).exit_code == 0
        reader = pypdf.PdfReader(str(name))
        w, h = (float(v) / MM for v in (reader.pages[0].mediabox.width, reader.pages[0].mediabox.height))
        front = segments(reader, 0)
        fx = next(s[0] for s in front if abs(s[0] - s[2]) < 0.01 and abs(s[3] - s[1]) > 100)
        fy = next(s[1] for s in front if abs(s[1] - s[3]) < 0.01 and abs(s[2] - s[0]) > 100)
        back = segments(reader, 1)
        zero_x = next(s[0] for s in back if abs(s[0] - s[2]) < 0.01 and abs(abs(s[3] - s[1]) - TICK_ZERO) < 0.01)
        zero_y = next(s[1] for s in back if abs(s[1] - s[3]) < 0.01 and abs(abs(s[2] - s[0]) - TICK_ZERO) < 0.01)
        line_x, line_y = behind(fx, fy, w, h, duplex)  # where the front's lines show through
        # the printer moves the whole back by the drift; a scale reads +t at t mm right of (above) its 0
        return line_x - (zero_x + drift[0]), line_y - (zero_y + drift[1])

    x, y = sheet(printed_with)
    offset = offset_from_readings(x, y, printed_with)
    assert offset == pytest.approx((-drift[0], -drift[1]), abs=0.01)
    assert sheet(offset) == pytest.approx((0, 0), abs=0.01)  # printed again with it, both lines cross 0


@pytest.mark.parametrize("text,message", [
    ("abc", "X: 'abc' is not a number: give where the front's line crosses the X scale in mm, e.g. 1.5 or -0.5"),
    ("", "X: '' is not a number"), ("nan", "X: 'nan' is not a number"),
    ("6.5", "X: 6.5 is off the scale (it reads -6 to +6 mm); if the line misses the scale, print the sheet again "
            "with a rough --back-offset (e.g. 8,0) and read what is left")])
def test_a_reading_is_a_number_on_the_scale(text, message):
    with pytest.raises(SheetsError) as caught:
        reading(text, "X")
    assert str(caught.value).startswith(message)
    assert reading(" -1,5 ", "X") == -1.5 and reading("\u22120.5", "Y") == -0.5 and reading("6", "Y") == 6


# -- sheets.toml, one key at a time --------------------------------------------------------------
def test_store_changes_one_value_and_keeps_the_rest(tmp_path):
    path = tmp_path / "sheets.toml"
    path.write_text(TOML)
    change = config.store(tmp_path, "back_offset", "1.5,0")
    assert (change.old, change.new) == ("1,-0.5", "1.5,0")
    assert path.read_text() == TOML.replace("[1, -0.5]", "[1.5, 0]")  # its style, its comment
    assert (tmp_path / "sheets.toml.bak").read_text() == TOML
    assert change.said("sheets.toml") == ("sheets.toml: back_offset 1,-0.5 -> 1.5,0 (the previous file kept as "
                                          "sheets.toml.bak)")
    path.write_text('paper = "letter"\nlayout = "poker-letter-9"')  # no newline at the end, no back_offset
    config.store(tmp_path, "back_offset", "-2,0.5")
    assert path.read_text() == 'paper = "letter"\nlayout = "poker-letter-9"\nback_offset = "-2,0.5"\n'
    assert {s.key: s.value for s in config.read(path)}["back_offset"] == "-2,0.5"
    again = config.store(tmp_path, "back_offset", "-2, 0.5")
    assert again.said("sheets.toml") == "sheets.toml: back_offset is already -2,0.5; nothing changed"
    fresh = tmp_path / "new"
    fresh.mkdir()
    assert str(config.store(fresh, "back_offset", "0.5,0.5")).endswith("sheets.toml: back_offset not set -> 0.5,0.5")
    assert (fresh / "sheets.toml").read_text() == 'back_offset = "0.5,0.5"\n' and not (fresh / "sheets.toml.bak").exists()


@pytest.mark.parametrize("text,key,value,message", [
    ('papr = "a4"\n', "back_offset", "1,1", "sheets.toml:1: papr: unknown key"),
    ('back_offset = [\n  1,\n  2,\n]\n', "back_offset", "1,1",
     "back_offset is written in a way this tool does not change by itself (over several lines?); nothing was written"),
    ('back_offset = "1,1"\n', "back_offset", "left", "back_offset: 'left' is not two numbers in mm"),
    ('back_offset = "1,1"\n', "colour", "red", "colour: unknown key"),
])
def test_store_refuses_and_writes_nothing(tmp_path, monkeypatch, text, key, value, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sheets.toml").write_text(text)
    with pytest.raises(SheetsError, match=re.escape(message)):
        config.store(tmp_path, key, value)
    assert (tmp_path / "sheets.toml").read_text() == text and not (tmp_path / "sheets.toml.bak").exists()


# -- the CLI: sheets cards calibrate --readings X,Y -----------------------------------------------
def test_cli_stores_the_readings_offset_in_the_working_folder(cli, tmp_path):
    (tmp_path / "sheets.toml").write_text(TOML)
    result = cli("cards", "calibrate", "--readings", "0.5,0.5")  # the sheet was printed with the stored 1,-0.5
    assert result.exit_code == 0, result
    assert result.stdout == "sheets.toml: back_offset 1,-0.5 -> 1.5,0 (the previous file kept as sheets.toml.bak)\n"
    assert (tmp_path / "sheets.toml").read_text() == TOML.replace("[1, -0.5]", "[1.5, 0]")
    checked = cli("cards", "calibrate", "--back-offset", "0,0", "--readings", "2,-1")  # printed with none
    assert checked.exit_code == 0 and "-> 2,-1 " in checked.stdout
    bad = cli("cards", "calibrate", "--readings", "abc")
    assert bad.exit_code == 1 and bad.stderr.startswith("error: X: 'abc' is not a number")
    elsewhere = cli("cards", "regiment", "--readings", "1,1")
    assert elsewhere.exit_code == 1 and "sheets cards calibrate --readings X,Y" in elsewhere.stderr
    assert "back_offset = [2, -1]  # measured in May\n" in (tmp_path / "sheets.toml").read_text()


# -- the wizard on the desk's Cards page ----------------------------------------------------------
def test_the_wizard_prints_reads_and_stores(desk, cli, monkeypatch):
    (desk.workspace / "sheets.toml").write_text(TOML)
    page = desk.get("/cards").text
    assert "Back offset in force: <strong>1,-0.5</strong> (sheets.toml:3)" in page
    sheet = desk.post("/cards/calibrate", {"step": "sheet", **WIZARD})
    assert sheet.status_code == 200, alerts(sheet.text)
    href = re.search(r'href="(/files/output/cards/cards-calibration-a4-long\.pdf)"', sheet.text).group(1)
    # the sheet `sheets cards calibrate` prints in that folder (with its stored offset), byte for byte
    monkeypatch.chdir(desk.workspace)
    assert cli("cards", "calibrate", "-o", desk.workspace / "cli.pdf").exit_code == 0
    assert desk.get(href).content == (desk.workspace / "cli.pdf").read_bytes()
    assert field(sheet.text, "printed_with") == "1,-0.5"
    read = desk.post("/cards/calibrate", {"step": "readings", **WIZARD, "printed_with": "1,-0.5", "x": "0.5",
                                          "y": "-1"})
    assert read.status_code == 200
    assert re.sub(r"<[^>]+>", "", re.search(r'<p id="cal_change">(.*?)</p>', read.text).group(1)) == \
        "The workspace's sheets.toml: back_offset 1,-0.5 &rarr; 1.5,-1.5."
    assert (desk.workspace / "sheets.toml").read_text() == TOML  # not yet
    store = desk.post("/cards/calibrate", {"step": "store", **WIZARD, "printed_with": "1,-0.5", "x": "0.5", "y": "-1",
                                           "version": field(read.text, "version")})
    assert store.status_code == 200
    assert ("Stored: sheets.toml: back_offset 1,-0.5 -> 1.5,-1.5 (the previous file kept as sheets.toml.bak)"
            in alerts(store.text))
    assert (desk.workspace / "sheets.toml").read_text() == TOML.replace("[1, -0.5]", "[1.5, -1.5]")
    assert (desk.workspace / "sheets.toml.bak").read_text() == TOML
    assert "Back offset in force: <strong>1.5,-1.5</strong> (sheets.toml:3)" in desk.get("/cards").text


def test_the_wizard_refuses_bad_readings_stale_files_and_forged_forms(desk):
    (desk.workspace / "sheets.toml").write_text(TOML)
    for x, message in (("abc", "X: 'abc' is not a number: give where the front's line crosses the X scale in mm"),
                       ("9", "X: 9 is off the scale (it reads -6 to +6 mm)")):
        page = desk.post("/cards/calibrate", {"step": "readings", **WIZARD, "printed_with": "1,-0.5", "x": x, "y": "0"})
        assert page.status_code == 422 and message in alerts(page.text), x
        assert 'name="x" value="' + x + '"' in page.text  # the reading stays to be corrected
    far = desk.post("/cards/calibrate", {"step": "readings", **WIZARD, "printed_with": "18,0", "x": "5", "y": "0"})
    assert far.status_code == 422 and "each shift must be at most 20 mm" in alerts(far.text)
    read = desk.post("/cards/calibrate", {"step": "readings", **WIZARD, "printed_with": "1,-0.5", "x": "1", "y": "1"})
    version = field(read.text, "version")
    (desk.workspace / "sheets.toml").write_text(TOML + 'layout = "poker-a4-gutter"\n')  # edited meanwhile
    stale = desk.post("/cards/calibrate", {"step": "store", **WIZARD, "printed_with": "1,-0.5", "x": "1", "y": "1",
                                           "version": version})
    assert stale.status_code == 409 and "sheets.toml was changed since you opened it" in stale.text
    assert "poker-a4-gutter" in (desk.workspace / "sheets.toml").read_text()
    forged = desk.post("/cards/calibrate", {"step": "store", **WIZARD, "printed_with": "1,-0.5", "x": "1", "y": "1",
                                            "version": version}, csrf=False)
    assert forged.status_code == 403
    assert not (desk.workspace / "sheets.toml.bak").exists()
    assert desk.post("/cards/calibrate", {"step": "guess", **WIZARD}).status_code == 400


# -- later prints use it: the CLI in the workspace and the desk alike ---------------------------------
def test_prints_use_the_stored_offset_as_the_cli_does_in_that_folder(desk, cli, monkeypatch):
    (desk.workspace / "sheets.toml").write_text(TOML.replace("[1, -0.5]", '"1.5,-0.5"'))
    web = desk.post("/cards", {"set": "regiment/battle-plans", "backs": "1", "duplex": "long", "copies": "1"})
    assert web.status_code == 200, alerts(web.text)
    web_pdf = desk.workspace / "output" / "cards" / "regiment-battle-plans.pdf"
    monkeypatch.chdir(desk.workspace)
    args = ("cards", "regiment", "--set", "battle-plans", "--backs")
    assert cli(*args, "-o", desk.workspace / "cli.pdf").exit_code == 0
    (desk.workspace / "sheets.toml").unlink()
    assert cli(*args, "--back-offset", "1.5,-0.5", "-o", desk.workspace / "given.pdf").exit_code == 0
    assert cli(*args, "-o", desk.workspace / "plain.pdf").exit_code == 0
    given = (desk.workspace / "given.pdf").read_bytes()
    assert web_pdf.read_bytes() == given == (desk.workspace / "cli.pdf").read_bytes()
    plain, shifted = pypdf.PdfReader(str(desk.workspace / "plain.pdf")), pypdf.PdfReader(str(web_pdf))
    backs = 0
    for i in range(len(plain.pages)):
        for (n1, x1, y1), (n2, x2, y2) in zip(placed(plain, i), placed(shifted, i)):
            if n1.startswith("/Back"):
                backs += 1
                assert (x2 - x1, y2 - y1) == pytest.approx((1.5, -0.5), abs=0.01)
            else:
                assert (x2, y2) == pytest.approx((x1, y1), abs=0.01)
    assert backs > 0


def test_a_one_sided_print_ignores_the_stored_offset_and_paper_comes_from_the_file(desk, cli, monkeypatch):
    (desk.workspace / "sheets.toml").write_text('paper = "letter"\nback_offset = "1.5,-0.5"\n')
    page = desk.get("/cards").text
    assert '<option value="letter" selected>' in page and "empty: 1.5,-0.5, from sheets.toml:2" in page
    web = desk.post("/cards", {"set": "regiment/battle-plans", "duplex": "long", "copies": "1"})
    assert web.status_code == 200, alerts(web.text)
    monkeypatch.chdir(desk.workspace)
    assert cli("cards", "regiment", "--set", "battle-plans", "-o", desk.workspace / "cli.pdf").exit_code == 0
    web_pdf = (desk.workspace / "output" / "cards" / "regiment-battle-plans.pdf").read_bytes()
    assert web_pdf == (desk.workspace / "cli.pdf").read_bytes()
    box = pypdf.PdfReader(str(desk.workspace / "cli.pdf")).pages[0].mediabox
    assert round(float(box.width) / MM) == 216  # letter, from sheets.toml
