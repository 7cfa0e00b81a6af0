"""Whatever the user wrote is on the paper: the campaign record after many missions, a log
sheet with a long (hostile) name. Checked by rendering the pages (tests/visibility.py),
not only by text extraction, which finds text a clip hides."""
from __future__ import annotations

import shutil

import pypdfium2 as pdfium
import pytest

from conftest import REPO
from typesizes import too_small
from visibility import invisible_words

from sheets.pipeline import rendering

LONG = "Ferdinand O'Neil: the 2nd"
HOSTILE = '<img src="file:///etc/passwd"> {{ 7*7 }}'
TEAM = f"""\
nation: german
members:
  - {{name: "{LONG}", quality: Veteran, weapon: SMG}}
  - {{name: Karl Brandt, quality: Green, weapon: Rifle, medical: true}}
  - {{name: Otto Lenz, quality: Green, weapon: Rifle}}
  - {{name: Willi Haas, quality: Green, weapon: Rifle}}
"""
# the record page's rules before issue 19: fixed boxes that clip what does not fit
CLIPPING_CSS = """
table.grid td { overflow: hidden; }
td .write, table.info .write { overflow: hidden; white-space: nowrap; }
td.wrap .write { white-space: normal; max-height: 4.5mm; }
"""


def pdfium_text(path) -> str:
    doc = pdfium.PdfDocument(str(path))
    try:
        return "\n".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))
    finally:
        doc.close()


@pytest.fixture
def long_campaign(cli, tmp_path):
    (tmp_path / "team.yaml").write_text(TEAM, encoding="utf-8")
    assert cli("campaign", "new", "ww.yaml", "--nation", "german", "--theatre", "france-1944",
               "--team", "team.yaml").exit_code == 0
    for n in range(1, 7):
        assert cli("campaign", "mission", "ww.yaml", "--seed", str(10 + n), "-o", f"m{n}.pdf").exit_code == 0
        extra = {1: ["--wounded", "Otto Lenz"], 3: ["--killed", "Willi Haas"]}.get(n, [])
        assert cli("campaign", "debrief", "ww.yaml", "--outcome", "success", "--dice", "5", *extra).exit_code == 0
        cli("campaign", "spend", "ww.yaml", "--promote", "Otto Lenz")
    return tmp_path / "ww.yaml"


def test_the_record_after_six_missions_shows_every_word(cli, long_campaign, tmp_path):
    assert cli("campaign", "show", "ww.yaml", "-o", "record.pdf").exit_code == 0
    assert invisible_words(tmp_path / "record.pdf") == []
    assert too_small(tmp_path / "record.pdf") == []  # every word at 6 pt or more (issue 31)
    text = " ".join(pdfium_text(tmp_path / "record.pdf").split())
    for needle in [LONG, "joined before M1; wounded M1; Private after M1; Veteran after M2", "killed M3",
                   "Crossing > Road", "mission 6 success"]:  # no seed: the record asks for none (issue 48)
        assert needle in text, needle


def test_the_check_fails_on_the_record_laid_out_with_clipping_boxes(cli, long_campaign, tmp_path, monkeypatch):
    templates = tmp_path / "templates"
    shutil.copytree(REPO / "templates", templates)
    page = templates / "wotw" / "campaign.html.j2"
    page.write_text(page.read_text(encoding="utf-8").replace("{% endblock %}", CLIPPING_CSS + "{% endblock %}", 1),
                    encoding="utf-8")
    monkeypatch.setattr(rendering.paths, "templates_dir", lambda: templates)
    rendering._environment.cache_clear()
    try:
        assert cli("campaign", "show", "ww.yaml", "-o", "clipped.pdf").exit_code == 0
    finally:
        rendering._environment.cache_clear()
    hidden = {word for _, word in invisible_words(tmp_path / "clipped.pdf")}
    assert LONG in " ".join(pdfium_text(tmp_path / "clipped.pdf").split())  # extraction finds it: not enough
    assert {"2nd", "Crossing"} <= hidden or {"2ndVeteran", "Crossing"} <= hidden, sorted(hidden)


def test_a_long_hostile_team_name_prints_whole(cli, tmp_path):
    assert len(HOSTILE) == 40
    (tmp_path / "team.yaml").write_text(TEAM.replace(LONG, HOSTILE.replace('"', '\\"')), encoding="utf-8")
    result = cli("mission", "--nation", "german", "--team", "team.yaml", "--seed", "3", "-o", "m.pdf")
    assert result.exit_code == 0, result
    assert HOSTILE.replace(" ", "") in "".join(pdfium_text(tmp_path / "m.pdf").split())
    assert "49" not in pdfium_text(tmp_path / "m.pdf").split()  # printed, never evaluated
    assert invisible_words(tmp_path / "m.pdf") == []
