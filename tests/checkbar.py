"""Measuring check bars in a PDF (shared by the tests of every true-scale sheet)."""
from __future__ import annotations

from pathlib import Path

import pypdf
import pytest
from pypdf.generic import ContentStream

PT_PER_MM = 72 / 25.4
BAR_HEIGHT_MM = 1.7  # base.css .check-bar .cb-bar


def _mul(m, n):
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


def filled_rects_pt(page) -> list[tuple[float, float]]:
    """(width, height) in PDF points of every rectangle drawn on the page, through every `cm`."""
    ops = ContentStream(page.get_contents(), page.pdf).operations
    ctm, stack, out = (1, 0, 0, 1, 0, 0), [], []
    for operands, op in ops:
        if op == b"q":
            stack.append(ctm)
        elif op == b"Q":
            ctm = stack.pop()
        elif op == b"cm":
            ctm = _mul(tuple(float(v) for v in operands), ctm)
        elif op == b"re":
            _, _, w, h = (float(v) for v in operands)
            a, b, c, d = ctm[:4]
            out.append((abs(w * a + h * c) if b == 0 else abs(w) * (a * a + b * b) ** 0.5,
                        abs(h * d + w * b) if c == 0 else abs(h) * (c * c + d * d) ** 0.5))
    return out


def check_bars_pt(path: Path, page: int = 0) -> list[float]:
    """The widths in points of the check bars on a page (rectangles 1.7 mm high)."""
    reader = pypdf.PdfReader(str(path))
    want = BAR_HEIGHT_MM * PT_PER_MM
    return sorted({round(w, 2) for w, h in filled_rects_pt(reader.pages[page]) if abs(h - want) < 0.05})


def assert_true_scale(path: Path, page: int = 0) -> None:
    bars = check_bars_pt(path, page)
    assert bars == [pytest.approx(50 * PT_PER_MM, abs=0.05), pytest.approx(144.0, abs=0.05)], bars
    text = pypdf.PdfReader(str(path)).pages[page].extract_text().replace("\xa0", " ")
    assert "5 cm" in text and "2 in" in text and "print at 100 %" in text


