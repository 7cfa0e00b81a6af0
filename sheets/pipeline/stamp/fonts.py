"""Fonts for the stamper: the TTF a field's CSS font uses (`glyphs`), registered with reportlab."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from fontTools.ttLib import TTFont as FontFile
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from sheets.pipeline.stamp.glyphs import drawable, face_file, font_file

__all__ = ["drawable", "face_for", "font_box", "font_file", "kerned_width", "pair_kern", "split_lines", "text_width"]

_PATHS: dict[str, str] = {}  # a registered face's reportlab name -> its TTF


@lru_cache(maxsize=None)
def _registered(path: str) -> tuple[str, float, float]:
    """Register a TTF with reportlab once; (name, ascent, descent) per unit of size (hhea)."""
    name = "WS-" + Path(path).stem
    _PATHS[name] = path
    font = TTFont(name, path)
    pdfmetrics.registerFont(font)
    ft = FontFile(path, lazy=True)
    upm = ft["head"].unitsPerEm
    hhea = ft["hhea"]
    return name, hhea.ascent / upm, -hhea.descent / upm


@lru_cache(maxsize=None)
def font_box(path: str) -> tuple[float, float]:
    """(yMin, yMax) of a TTF's glyph box (its `head`), per unit of size."""
    head = FontFile(path, lazy=True)["head"]
    return head.yMin / head.unitsPerEm, head.yMax / head.unitsPerEm


def face_for(font: dict, text: str = "") -> tuple[str, float, float, str]:
    """(reportlab font name, ascent, descent, file) for a field's CSS font and the text to draw."""
    path = face_file(font, text)
    name, asc, desc = _registered(path)
    return name, asc, desc, path


@lru_cache(maxsize=1 << 16)
def _units(font_name: str, text: str) -> float:
    """The sum of the text's advance widths, in thousandths of its size, summed as reportlab's
    `stringWidth` sums them (a TTF's, `rl_accel`): the same float, computed once per text. A
    value is fitted at up to nine sizes, each wrap measuring every word again."""
    face = pdfmetrics.getFont(font_name).face
    get, default = face.charWidths.get, face.defaultWidth
    return sum(get(ord(u), default) for u in text)


def _width(text: str, font_name: str, size: float) -> float:
    return 0.001 * size * _units(font_name, text)  # reportlab's own expression: the same bits


def text_width(text: str, font_name: str, size: float, spacing: float) -> float:
    return _width(text, font_name, size) + spacing * max(len(text) - 1, 0)


@lru_cache(maxsize=None)
def _kerning(font_name: str) -> tuple[dict, dict, int]:
    """A face's (cmap, kerning pairs by glyph name, units per em): its TTF's `kern` table, the
    pairs HarfBuzz applies when WeasyPrint lays text out in it (none: a face without one)."""
    ft = FontFile(_PATHS[font_name], lazy=True)
    tables = ft["kern"].kernTables if "kern" in ft else []
    pairs = tables[0].kernTable if tables and hasattr(tables[0], "kernTable") else {}
    return ft.getBestCmap(), pairs, ft["head"].unitsPerEm


def pair_kern(font_name: str, size: float, left: str, right: str) -> float:
    """The kerning (pt, usually negative) between two characters set next to each other."""
    cmap, pairs, upm = _kerning(font_name)
    return size * pairs.get((cmap.get(ord(left)), cmap.get(ord(right))), 0) / upm if pairs else 0.0


@lru_cache(maxsize=1 << 16)
def _kern_units(font_name: str, text: str) -> int:
    cmap, pairs, _ = _kerning(font_name)
    if not pairs:
        return 0
    glyphs = [cmap.get(ord(ch)) for ch in text]
    return sum(pairs.get(pair, 0) for pair in zip(glyphs, glyphs[1:]))


def kerned_width(text: str, font_name: str, size: float, spacing: float = 0.0) -> float:
    """The text's width as WeasyPrint sets it: its advances and its face's kerning pairs (a line
    of stamped rows is set word by word at these widths: sheets.pipeline.stamp.rows)."""
    return text_width(text, font_name, size, spacing) + size * _kern_units(font_name, text) / _kerning(font_name)[2]


def split_lines(text: str, font_name: str, size: float, max_width: float) -> list[str]:
    """reportlab's `simpleSplit` (each line of the text wrapped at spaces to `max_width`, a
    word too long for a line alone on its own), with the widths above."""
    if not max_width:
        return text.split("\n")
    found: list[str] = []
    space = _width(" ", font_name, size)
    for line in text.split("\n"):
        words: list[str] = []
        width = -space
        for word in line.split():
            w = _width(word, font_name, size)
            if width + space + w <= max_width or not words:
                words.append(word)
                width = width + space + w
            else:
                found.append(" ".join(words))
                words, width = [word], w
        if words:
            found.append(" ".join(words))
    return found

