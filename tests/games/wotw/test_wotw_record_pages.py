"""The campaign record never leaves its last box alone on a page (issue 34, item 3), measured on the
PDFs `sheets campaign show` writes after one to five missions, on A4 and Letter: one page while
spare rows can give way (before: the rules between missions alone on page 2 after two missions on
A4, after one on Letter), and a record that runs over shares its pages out (tests/pagefill.py)."""
from __future__ import annotations

from conftest import pages, pdf_text
from pagefill import last_page_problem

TEAM = """\
nation: german
members:
  - {name: "Ferdinand O'Neil: the 2nd", quality: Veteran, weapon: SMG}
  - {name: Karl Brandt, quality: Green, weapon: Rifle, medical: true}
  - {name: Otto Lenz, quality: Green, weapon: Rifle}
  - {name: Willi Haas, quality: Green, weapon: Rifle}
"""


def test_the_record_after_one_to_five_missions_keeps_its_pages_full(cli, tmp_path):
    (tmp_path / "team.yaml").write_text(TEAM, encoding="utf-8")
    assert cli("campaign", "new", "ww.yaml", "--nation", "german", "--theatre", "france-1944",
               "--team", "team.yaml").exit_code == 0
    counts = {}
    for n in range(1, 6):
        assert cli("campaign", "mission", "ww.yaml", "--seed", str(10 + n), "-o", f"m{n}.pdf").exit_code == 0
        extra = {1: ["--wounded", "Otto Lenz"], 3: ["--killed", "Willi Haas"]}.get(n, [])
        assert cli("campaign", "debrief", "ww.yaml", "--outcome", "success", "--dice", "5", *extra).exit_code == 0
        cli("campaign", "spend", "ww.yaml", "--promote", "Otto Lenz")
        for paper in ("a4", "letter"):
            record = tmp_path / f"record-{n}-{paper}.pdf"
            assert cli("campaign", "show", "ww.yaml", "--paper", paper, "-o", record).exit_code == 0
            counts[n, paper] = pages(record)
            assert f"mission {n} success" in " ".join(pdf_text(record).split())  # every mission on it
            assert last_page_problem(record, counts[n, paper]) is None, (n, paper, last_page_problem(record, 2))
    # two and three missions: one page on either paper (spare rows give way to the rules)
    assert all(counts[n, paper] == 1 for n in (1, 2, 3) for paper in ("a4", "letter")), counts
