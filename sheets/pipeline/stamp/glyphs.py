"""Which font file a field's text is drawn in, and whether the stamper can draw it exactly.

Light on purpose (fontconfig and fontTools, no reportlab, no pikepdf): the workers that lay
out blanks ask `drawable` of every page-margin text, and import only this.
"""
from __future__ import annotations

import subprocess
import unicodedata
from functools import lru_cache
from pathlib import Path

from fontTools.ttLib import TTFont as FontFile

from sheets.base import fonts
from sheets.base.errors import SheetsError


@lru_cache(maxsize=None)
def font_file(family: tuple[str, ...], bold: bool, italic: bool, condensed: bool) -> str:
    """The TTF a CSS font is drawn in (the file WeasyPrint's Pango uses too): a bundled font
    (sheets.base.fonts) for the bundled families; fontconfig's choice for any other."""
    for fam in family:
        bundled = fonts.bundled_family(fam)
        if bundled is not None:
            if condensed and bundled == fonts.SANS:
                bundled = fonts.CONDENSED
            return str(fonts.face(bundled, bold, italic))
        if fam in ("serif", "sans-serif", "monospace"):
            fam = {"serif": "DejaVu Serif", "sans-serif": "DejaVu Sans", "monospace": "DejaVu Sans Mono"}[fam]
        pattern = fam + (":bold" if bold else "") + (":italic" if italic else "") + (":condensed" if condensed else "")
        try:
            found = subprocess.run(["fc-match", "-f", "%{file}\n%{family}", pattern], capture_output=True,
                                   text=True, timeout=10).stdout.splitlines()
        except (OSError, subprocess.SubprocessError):
            found = []
        if found and found[0].lower().endswith(".ttf") and len(found) > 1 and fam.split()[0].lower() in found[1].lower():
            return found[0]
        by_name = _font_by_file_name(fam, bold, italic, condensed)
        if by_name:
            return by_name
    raise SheetsError(f"no TrueType font found for {', '.join(family)}; install fonts-dejavu")


_FONT_DIRS = ("/usr/share/fonts", "/usr/local/share/fonts", "~/.local/share/fonts", "~/.fonts",
              "/Library/Fonts", "/System/Library/Fonts", "C:/Windows/Fonts")


def _font_by_file_name(family: str, bold: bool, italic: bool, condensed: bool) -> str | None:
    """Without fc-match: DejaVu-style file names (DejaVuSansCondensed-BoldOblique.ttf)."""
    stem = family.replace(" ", "") + ("Condensed" if condensed and "Condensed" not in family else "")
    styles = ["Bold" if bold else ""]
    styles = [(st + ("Italic" if italic else "")) for st in styles] + [(st + ("Oblique" if italic else "")) for st in styles]
    names = {f"{stem}-{st}.ttf" if st else f"{stem}.ttf" for st in styles}
    for folder in _FONT_DIRS:
        root = Path(folder).expanduser()
        if root.is_dir():
            for path in sorted(root.rglob("*.ttf")):
                if path.name in names:
                    return str(path)
    return None


@lru_cache(maxsize=None)
def _cmap(path: str) -> frozenset:
    """The code points a font file has glyphs for (its best Unicode cmap)."""
    return frozenset((FontFile(path, lazy=True).getBestCmap() or {}).keys())


def _has_glyph(path: str, char: str) -> bool:
    return ord(char) in _cmap(path)


def face_file(font: dict, text: str = "") -> str:
    """The font file a field's CSS font draws `text` in (a fallback face when its own lacks a glyph)."""
    return _face_file(tuple(font["family"]), font["weight"], font["style"], font["stretch"], text)


@lru_cache(maxsize=4096)  # bounded: the values of a batch are many, its fonts and labels few
def _face_file(family: tuple[str, ...], weight: int, style: str, stretch: str, text: str) -> str:
    bold = weight >= 600
    italic = style in ("italic", "oblique")
    condensed = "condensed" in stretch
    path = font_file(family, bold, italic, condensed)
    if text and not all(_has_glyph(path, ch) for ch in set(text) if not ch.isspace()):
        for alt in (font_file(family, bold, False, False), font_file(("DejaVu Sans",), bold, False, False),
                    font_file(("DejaVu Sans",), False, False, False)):
            if all(_has_glyph(alt, ch) for ch in set(text) if not ch.isspace()):
                return alt
    return path


def _needs_shaping(ch: str) -> bool:
    """A character reportlab cannot draw as the layout engine would: right-to-left (its
    order is the bidi algorithm's), combining or joining (their form is HarfBuzz's)."""
    return (unicodedata.bidirectional(ch) in ("R", "AL", "AN", "RLE", "RLO", "RLI", "FSI", "LRE", "LRO", "LRI",
                                               "PDF", "PDI")
            or unicodedata.category(ch) in ("Mn", "Mc", "Me", "Cf") or unicodedata.combining(ch) != 0)


def drawable(font: dict, text: str) -> bool:
    """True when the stamper draws `text` exactly: every glyph in the face it would use, and
    nothing that needs shaping or reordering. Otherwise the sheet is laid out instead."""
    if not text:
        return True
    return _drawable(tuple(font["family"]), font["weight"], font["style"], font["stretch"], text)


def _own_face(family: tuple[str, ...]) -> bool:
    """A face only the layout engine has: one of ours by its name ("Sheets ...") that is not bundled,
    a game's own title face that its theme's @font-face loads from the game's folder. The stamper
    would draw it in the family behind it, so such text stays laid out."""
    first = family[0] if family else ""
    return fonts.bundled_family(first) is None and first.strip().strip("'\"").casefold().startswith("sheets ")


@lru_cache(maxsize=4096)
def _drawable(family: tuple[str, ...], weight: int, style: str, stretch: str, text: str) -> bool:
    if any(_needs_shaping(ch) for ch in text) or _own_face(family):
        return False
    path = _face_file(family, weight, style, stretch, text)
    return all(_has_glyph(path, ch) for ch in set(text) if not ch.isspace())


