"""True-scale gauges: sizes measured in the PDF (points), a check bar on every page,
clear errors for shapes that do not fit or make no sense."""
from __future__ import annotations

import shutil

import pypdf
import pytest

from conftest import REPO, bundled_games, pages, pdf_text, squash

PT_PER_MM = 72 / 25.4


def drawn_rects(path) -> list[tuple[int, float, float]]:
    """(page, width pt, height pt) of every rectangle drawn (`re`), with the transform applied."""
    reader = pypdf.PdfReader(str(path))
    out = []
    for number, page in enumerate(reader.pages):
        ops = pypdf.generic.ContentStream(page.get_contents(), reader).operations
        ctm, stack = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0], []
        for operands, op in ops:
            if op == b"q":
                stack.append(ctm[:])
            elif op == b"Q":
                ctm = stack.pop()
            elif op == b"cm":
                a, b, c, d, e, f = (float(x) for x in operands)
                A, B, C, D, E, F = ctm
                ctm = [a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D,
                       e * A + f * C + E, e * B + f * D + F]
            elif op == b"re":
                _, _, w, h = (float(v) for v in operands)
                out.append((number, abs(w * ctm[0]), abs(h * ctm[3])))
    return out


def has_rect(rects, page, width_pt, height_pt=None, tol=0.05):
    return any(p == page and abs(w - width_pt) <= tol and (height_pt is None or abs(h - height_pt) <= tol)
               for p, w, h in rects)


@pytest.mark.parametrize("game, paper", [(game, paper) for game in bundled_games("gauges") for paper in ("a4", "letter")])
def test_every_page_has_a_true_scale_check_bar(cli, tmp_path, game, paper):
    out = tmp_path / f"{game}.pdf"
    result = cli("gauges", game, "--paper", paper, "-o", out)
    assert result.exit_code == 0, result
    assert f"{game}.pdf" in result.stdout
    rects = drawn_rects(out)
    n = pages(out)
    assert n >= 1
    for page in range(n):
        assert has_rect(rects, page, 50 * PT_PER_MM), f"page {page + 1}: no 5 cm bar"
        assert has_rect(rects, page, 144.0), f"page {page + 1}: no 2 in bar"
    text = squash(pdf_text(out))
    assert text.count("5cm") >= n and text.count("2in") >= n
    assert squash("print at 100 %") in text


def test_down_range_templates_are_drawn_at_true_scale(cli, tmp_path):
    out = tmp_path / "dr.pdf"
    assert cli("gauges", "downrange", "-o", out).exit_code == 0
    rects = drawn_rects(out)
    # the radius ruler strips: 7 in long (504 pt), 13.2 mm high
    assert sum(1 for _, w, h in rects if abs(w - 504) < 0.05 and abs(h - 13.2 * PT_PER_MM) < 0.05) == 3
    # quarter circles: each drawing's box is its radius plus a 1 mm pad on each side
    for radius in (4, 5, 6):
        assert any(abs(w - (radius * 72 + 2 * PT_PER_MM)) < 0.05 and abs(h - w) < 0.05 for _, w, h in rects), radius
    text = squash(pdf_text(out))
    for words in ("45° fan, radius 8″", "Blast radius 4″", "Blast radius 5″", "Blast radius 6″",
                  "R9", "R12", "R18", "R22"):
        assert squash(words) in text, words


def test_platoon_range_ruler_is_in_centimetres(cli, tmp_path):
    out = tmp_path / "pl.pdf"
    assert cli("gauges", "platoon", "-o", out).exit_code == 0
    rects = drawn_rects(out)
    assert any(abs(w - 250 * PT_PER_MM) < 0.05 for _, w, _ in rects)  # a 25 cm strip
    text = squash(pdf_text(out))
    assert squash("0 to 25 cm") in text


def test_the_kit_includes_the_gauges(library):
    from sheets.kinds.print_plugin import KitOptions
    from sheets.kit.plan import kit_sheets

    names = [s.filename for s in kit_sheets(library, KitOptions(seed=1), games=["downrange"])]
    assert names[-1] == "downrange-gauges.pdf" and len(names) == len(set(names))


@pytest.fixture
def dr_content(tmp_path):
    root = tmp_path / "content"
    shutil.copytree(REPO / "content" / "_print", root / "_print")
    shutil.copytree(REPO / "content" / "downrange", root / "downrange")
    return root


@pytest.mark.parametrize("old, new, message", [
    ("    radius: 8\n", "    radius: 30\n", "downrange/gauges.yaml: gauge 'fan' (585.21 x 769 mm) does not fit"),
    ("    end: 7\n", "    end: -1\n", "gauges.yaml:"),
    ("    rings: [2, 4, 6]\n", "    rings: [2, 12]\n", "ring 12 is outside the radius"),
])
def test_bad_gauges_are_clear_errors(cli, dr_content, tmp_path, old, new, message):
    path = dr_content / "downrange" / "gauges.yaml"
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    out = tmp_path / "x.pdf"
    result = cli("gauges", "downrange", "--content", dr_content, "-o", out)
    assert result.exit_code == 1
    assert message in result.stderr
    assert "Traceback" not in result.stderr
    assert not out.exists()
