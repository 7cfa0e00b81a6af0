"""Token sheets: counts from content times --copies, packed on A4 or Letter, never overlapping."""
from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from conftest import page_size_mm, pages, pdf_text, squash



def token_html(content: Path, paper: str = "a4", copies: int = 1) -> str:
    from sheets.pipeline.sheet import render_html
    from sheets.library.content import Library
    from sheets.kinds.tokens.builder import token_sheet

    lib = Library(content)
    return render_html(token_sheet(lib.game("skirmish"), lib.geometry().papers[paper], copies))


def test_counts_times_copies(cli, fixture_content, tmp_path):
    result = cli("tokens", "skirmish", "--copies", "3", "--content", fixture_content, "-o", tmp_path / "t.pdf")
    assert result.exit_code == 0, result
    assert "t.pdf" in result.stdout
    text = pdf_text(tmp_path / "t.pdf")
    assert text.count("PINNED") == 4 * 3 and text.count("DONE") == 6 * 3
    assert "30 tokens (3 copies)" in text
    assert pages(tmp_path / "t.pdf") == 1 and page_size_mm(tmp_path / "t.pdf") == (210.0, 297.0)


@pytest.mark.parametrize("paper, size", [("a4", (210, 297)), ("letter", (215.9, 279.4))])
def test_tokens_are_packed_inside_the_paper_without_overlap(fixture_content, paper, size):
    html = token_html(fixture_content, paper, copies=20)
    centres = [(float(x), float(y)) for x, y in re.findall(r'data-x="([\d.]+)" data-y="([\d.]+)"', html)]
    per_page = html.split('<div class="tpage">')[1:]
    assert sum(p.count('data-token="') for p in per_page) == 200 == len(centres)
    d = 18
    for page in per_page:
        here = [(float(x), float(y)) for x, y in re.findall(r'data-x="([\d.]+)" data-y="([\d.]+)"', page)]
        for i, (x, y) in enumerate(here):
            assert 10 <= x - d / 2 and x + d / 2 <= size[0] - 10
            assert 10 <= y - d / 2 and y + d / 2 <= size[1] - 10
            for x2, y2 in here[i + 1:]:
                assert math.dist((x, y), (x2, y2)) >= d + 2  # a gap to cut in
    assert len(per_page) == 2  # 200 tokens of 18 mm need a second page


def test_letter_tokens(cli, fixture_content, tmp_path):
    result = cli("tokens", "skirmish", "--paper", "letter", "--content", fixture_content, "-o", tmp_path / "t.pdf")
    assert result.exit_code == 0, result
    assert page_size_mm(tmp_path / "t.pdf") == (215.9, 279.4)


def test_bundled_token_sheets_print_every_token(cli, tmp_path):
    from sheets.library.content import Library

    lib = Library()
    games = [gid for gid in lib.game_ids() if lib.game(gid).content["tokens"] is not None]
    for gid in games:
        out = tmp_path / f"{gid}.pdf"
        result = cli("tokens", gid, "-o", out)
        assert result.exit_code == 0, (gid, result)
        text = squash(pdf_text(out))
        for token in lib.game(gid).content["tokens"].tokens:
            assert text.count(squash(token.label.upper())) >= token.count, (gid, token.id)


@pytest.mark.parametrize("args, message", [
    (["tokens", "regiment"], "The Regiment has no tokens (no tokens.yaml)"),
    (["tokens", "skirmish", "--copies", "0"], "Invalid value for '--copies': 0 is not in the range 1 to 50"),
])
def test_bad_token_options_are_clear_errors(cli, fixture_content, args, message):
    result = cli(*args, "--content", fixture_content) if "skirmish" in args else cli(*args)
    assert result.exit_code == 1  # a range check too: bad input is 1 everywhere
    assert message in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("old, new, message", [
    ('color: "#2e86c1"', 'color: "blue"', "tokens[1].color: 'blue': a colour is # and six hex digits"),
    ("count: 4", "count: -1", "tokens[0].count: -1 is too low: at least 0"),
    ("diameter_mm: 18", "diameter_mm: 200", "diameter_mm: 200 is too high: at most 60"),
    ("label: \"DONE\"", "lable: \"DONE\"", "tokens[1].lable: unknown key"),
])
def test_bad_token_values_are_located(cli, fixture_content, old, new, message):
    path = fixture_content / "skirmish" / "tokens.yaml"
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))
    result = cli("validate", "--content", fixture_content)
    assert result.exit_code == 1
    assert re.search(r"skirmish/tokens\.yaml:\d+: ", result.stderr) and message in result.stderr, result.stderr


def test_tokens_are_deterministic(cli, fixture_content, tmp_path):
    for name in ("a.pdf", "b.pdf"):
        assert cli("tokens", "skirmish", "--content", fixture_content, "-o", tmp_path / name).exit_code == 0
    assert (tmp_path / "a.pdf").read_bytes() == (tmp_path / "b.pdf").read_bytes()
