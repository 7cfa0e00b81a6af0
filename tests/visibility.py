"""Is every word a PDF contains visible on paper? Text extraction cannot tell: text under a
clip, cut at a cell edge or pushed off the page is still extracted.

The page is rendered (PDFium) four times: as it is; without its text; without its clips;
without text nor clips. For each character PDFium's text page knows (its tight glyph box):
  - its *visible ink* is where the page with text differs from the page without;
  - its *whole ink* is the same difference with every clip taken out;
the character is visible when its box lies on the page and its visible ink is most of its
whole ink (a glyph cut in half by a clip, or hidden under one, is not). A character that
draws no ink at all (a missing glyph) is invisible too. `invisible_words` lists the words
with an invisible character, page by page. Text that is white on white, or covered by a
later opaque shape, is caught as well: its visible ink is none.
"""
from __future__ import annotations

import io
import unicodedata
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from PIL import ImageChops

SCALE = 3  # 216 dpi: the smallest type (5.6 pt) is some 17 px tall
INK = 24  # a pixel differs by more than this (0-255, any channel): ink
PAD = 1  # px around a glyph's tight box (a hairline dash covers less than a pixel row)
SHARE = 0.9  # visible when this share of a character's whole ink is on the page

_DELIM = b"()<>[]{}/%"
_SPACE = b" \t\r\n\f\x00"
_SHOW = {b"Tj", b"TJ", b"'", b'"'}
_CLIP = {b"W", b"W*"}


def _skip_string(data: bytes, i: int) -> int:
    depth, n = 0, len(data)
    while i < n:
        c = data[i]
        if c == 0x5C:  # backslash escapes the next byte
            i += 2
            continue
        if c == 0x28:
            depth += 1
        elif c == 0x29:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return n


def _skip_group(data: bytes, i: int, open_: bytes, close: bytes) -> int:
    """Past a balanced [..] or <<..>> starting at i (strings inside skipped)."""
    depth, n = 0, len(data)
    while i < n:
        if data[i] == 0x28:
            i = _skip_string(data, i)
            continue
        if data.startswith(open_, i):
            depth += 1
            i += len(open_)
            continue
        if data.startswith(close, i):
            depth -= 1
            i += len(close)
            if depth == 0:
                return i
            continue
        i += 1
    return n


def strip_content(data: bytes, text: bool, clips: bool) -> bytes:
    """A content stream without its text-showing operators and/or its clipping operators
    (everything else, colour and text state included, stays as it was)."""
    out, operands, i, n = [], [], 0, len(data)
    while i < n:
        c = data[i]
        if c in _SPACE:
            i += 1
            continue
        if c == 0x25:  # comment
            while i < n and data[i] not in b"\r\n":
                i += 1
            continue
        start = i
        if c == 0x28:
            i = _skip_string(data, i)
        elif data.startswith(b"<<", i):
            i = _skip_group(data, i, b"<<", b">>")
        elif c == 0x3C:
            i = data.index(b">", i) + 1
        elif c == 0x5B:
            i = _skip_group(data, i, b"[", b"]")
        elif c == 0x2F:
            i += 1
            while i < n and data[i] not in _SPACE and data[i] not in _DELIM:
                i += 1
        else:
            while i < n and data[i] not in _SPACE and data[i] not in _DELIM:
                i += 1
            if i == start:
                i += 1
            token = data[start:i]
            if not (token[:1].isdigit() or token[:1] in (b"-", b"+", b".")) and token not in (b"true", b"false",
                                                                                                 b"null"):
                if token == b"BI":  # an inline image: copy it whole
                    end = data.index(b"EI", i) + 2
                    out.append(data[start:end])
                    i, operands = end, []
                    continue
                drop = (text and token in _SHOW) or (clips and token in _CLIP)
                if not drop:
                    out.append(b" ".join([*operands, token]))
                operands = []
                continue
        operands.append(data[start:i])
    return b"\n".join(out) + b"\n"


def _stripped(pdf: bytes, text: bool, clips: bool) -> bytes:
    """The PDF with every page's content, and every form XObject it draws, stripped (pikepdf: a
    tenth of pypdf's time over a whole kit's parts)."""
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        seen: set[tuple[int, int]] = set()

        def forms(resources) -> None:
            xobjects = resources.get("/XObject") if resources is not None else None
            if xobjects is None:
                return
            for _, obj in xobjects.items():
                if obj.is_indirect:
                    if obj.objgen in seen:
                        continue
                    seen.add(obj.objgen)
                if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Form":
                    forms(obj.get("/Resources"))
                    obj.write(strip_content(obj.read_bytes(), text, clips))

        for page in doc.pages:
            forms(page.obj.get("/Resources"))
            if "/Contents" in page.obj:
                page.contents_coalesce()
                page.obj.Contents = doc.make_stream(strip_content(page.obj.Contents.read_bytes(), text, clips))
        buf = io.BytesIO()
        doc.save(buf)
        return buf.getvalue()


def _ink(a, b):
    """A black-and-white mask: where two renders differ by more than INK."""
    diff = ImageChops.difference(a, b).convert("RGB")
    r, g, bl = diff.split()
    return ImageChops.lighter(ImageChops.lighter(r, g), bl).point(lambda v: 255 if v > INK else 0)


def _count(mask, box) -> int:
    return mask.crop(box).histogram()[255]


def _render(doc, index: int):
    return doc[index].render(scale=SCALE).to_pil().convert("RGB")


def invisible_words(pdf: bytes | str | Path, pages: list[int] | None = None) -> list[tuple[int, str]]:
    """(page number from 1, word) of every word with a character not visible on paper."""
    data = Path(pdf).read_bytes() if isinstance(pdf, (str, Path)) else pdf
    docs = [pdfium.PdfDocument(d) for d in (data, _stripped(data, True, False), _stripped(data, False, True),
                                            _stripped(data, True, True))]
    found: list[tuple[int, str]] = []
    try:
        for index in pages if pages is not None else range(len(docs[0])):
            page = docs[0][index]
            width, height = page.get_size()
            shown, bare, unclipped, unclipped_bare = (_render(d, index) for d in docs)
            visible, whole = _ink(shown, bare), _ink(unclipped, unclipped_bare)
            textpage = page.get_textpage()
            word, bad = [], False
            for i in range(textpage.count_chars() + 1):
                ch = chr(pdfium_c.FPDFText_GetUnicode(textpage, i)) if i < textpage.count_chars() else " "
                if ch.isspace() or unicodedata.category(ch) in ("Cf", "Zs", "Zl", "Zp", "Cc") or (
                        pdfium_c.FPDFText_IsGenerated(textpage, i) == 1):
                    if word and bad:
                        found.append((index + 1, "".join(word)))
                    word, bad = [], False
                    continue
                word.append(ch)
                left, bottom, right, top = textpage.get_charbox(i)
                if left < -0.5 or bottom < -0.5 or right > width + 0.5 or top > height + 0.5:
                    bad = True
                    continue
                box = (int(left * SCALE) - PAD, int((height - top) * SCALE) - PAD,
                       -int(-right * SCALE) + PAD, -int(-(height - bottom) * SCALE) + PAD)
                full = _count(whole, box)
                if full == 0 or _count(visible, box) < SHARE * full:
                    bad = True
            textpage.close()
    finally:
        for d in docs:
            d.close()
    return found
