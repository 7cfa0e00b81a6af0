"""Fonts for the stamper: the TTF a field's CSS font uses (`glyphs`), registered with reportlab."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from fontTools.ttLib import TTFont as FontFile
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfbase.ttfonts import TTFont

from sheets.pipeline.stamp.glyphs import drawable, face_file, font_file

__all__ = ["drawable", "face_for", "font_file", "text_width"]


@lru_cache(maxsize=None)
def _registered(path: str) -> tuple[str, float, float]:
    """Register a TTF with reportlab once; (name, ascent, descent) per unit of size (hhea)."""
    name = "WS-" + Path(path).stem
    font = TTFont(name, path)
    pdfmetrics.registerFont(font)
    ft = FontFile(path, lazy=True)
    upm = ft["head"].unitsPerEm
    hhea = ft["hhea"]
    return name, hhea.ascent / upm, -hhea.descent / upm


def face_for(font: dict, text: str = "") -> tuple[str, float, float, str]:
    """(reportlab font name, ascent, descent, file) for a field's CSS font and the text to draw."""
    path = face_file(font, text)
    name, asc, desc = _registered(path)
    return name, asc, desc, path


def text_width(text: str, font_name: str, size: float, spacing: float) -> float:
    return stringWidth(text, font_name, size) + spacing * max(len(text) - 1, 0)

