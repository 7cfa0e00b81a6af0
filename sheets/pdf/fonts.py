"""Every font of a PDF the tool writes embedded, and every subset named by what it holds.

Two things readers, preflight and PDF/A or PDF/X checks care about:
  - no font left to the reader: every font is embedded (reportlab's canvases start with a TTF,
    `initialFontName`, so that no page selects an unembedded Helvetica it never draws in).
  - a subset's tag (the six letters before "+") names that subset alone: reportlab tags
    every subset `AAAAAA+` and WeasyPrint tags a face by its description, so kit.pdf held
    different subsets under one name, and software that merges fonts by name drew the
    wrong glyphs. The tag becomes six letters of the sha256 of the font program itself:
    the same subset gets the same tag in every file, different subsets different ones,
    and the same input still gives the same bytes (`tag_subsets`).
pikepdf is imported when a PDF is finished, not when this module is.
"""
from __future__ import annotations

import hashlib
import io
import re

_TAGGED = re.compile(r"^/?[A-Z]{6}\+")
_FONT_FILES = ("/FontFile", "/FontFile2", "/FontFile3")


def tag_for(program: bytes) -> str:
    """Six uppercase letters from the sha256 of a font program."""
    digest = hashlib.sha256(program).digest()
    return "".join(chr(65 + b % 26) for b in digest[:6])


def _descriptor(font):
    if "/FontDescriptor" in font:
        return font.FontDescriptor
    kids = font.get("/DescendantFonts")
    if kids is not None and len(kids) and "/FontDescriptor" in kids[0]:
        return kids[0].FontDescriptor
    return None


def _program(descriptor) -> bytes | None:
    for key in _FONT_FILES:
        if key in descriptor:
            return descriptor[key].read_bytes()
    return None


def _fonts(pdf):
    """Every font dictionary in the file but a Type0 font's descendant (page resources, forms,
    annotations' appearances: every object, wherever it is used)."""
    import pikepdf  # noqa: PLC0415

    for obj in pdf.objects:
        if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/Font" \
                and obj.get("/Subtype") not in ("/CIDFontType2", "/CIDFontType0"):
            yield obj


def tag_subsets(pdf) -> None:
    """Give every tagged (subset) font the tag of its own program (see the module)."""
    import pikepdf  # noqa: PLC0415

    for font in _fonts(pdf):
        base = str(font.get("/BaseFont", ""))
        descriptor = _descriptor(font)
        if not _TAGGED.match(base) or descriptor is None:
            continue
        program = _program(descriptor)
        if program is None:
            continue
        name = pikepdf.Name("/" + tag_for(program) + "+" + _TAGGED.sub("", base))
        font.BaseFont = name
        for kid in font.get("/DescendantFonts", []):
            kid.BaseFont = name
        descriptor.FontName = name


_NUL_ENTRY = re.compile(rb"<[0-9A-Fa-f]+>\s*<0000>[ \t]*\r?\n?")
_BFCHAR = re.compile(rb"(\d+)(\s+beginbfchar)(.*?)(endbfchar)", re.S)


def _unmapped_dropped(cmap: bytes) -> bytes:
    """A ToUnicode CMap without its `<code> <0000>` entries (reportlab maps every code it
    did not use to U+0000; PDF/UA-1 7.21.7 forbids it), each bfchar block's count fixed."""
    def block(m):
        body = _NUL_ENTRY.sub(b"", m.group(3))
        n = len(re.findall(rb"<[0-9A-Fa-f]+>\s*<[0-9A-Fa-f]+>", body))
        return b"%d%s%s%s" % (n, m.group(2), body, m.group(4)) if n else b""
    return _BFCHAR.sub(block, cmap)


def drop_null_unicode(pdf) -> None:
    """Every font's ToUnicode CMap without U+0000 entries (see _unmapped_dropped)."""
    for font in _fonts(pdf):
        cmap = font.get("/ToUnicode")
        if cmap is None:
            continue
        data = cmap.read_bytes()
        fixed = _unmapped_dropped(data)
        if fixed != data:
            cmap.write(fixed)


def finish_fonts(pdf_bytes: bytes, *, reportlab: bool = False) -> bytes:
    """`pdf_bytes` with its subsets tagged by content (and, for a reportlab file, no U+0000 in
    its ToUnicode maps): deterministic, the same input gives the same bytes."""
    import pikepdf  # noqa: PLC0415

    with pikepdf.open(io.BytesIO(pdf_bytes)) as pdf:
        if reportlab:
            drop_null_unicode(pdf)
        tag_subsets(pdf)
        out = io.BytesIO()
        pdf.save(out, deterministic_id=True)
        return out.getvalue()
