"""Letter-spaced text that copies and searches as words (pikepdf).

CSS `letter-spacing` (the sheets' headings: "OPERATOR", "SQUAD ROSTER") makes WeasyPrint
draw each glyph followed by an empty string and a gap (`[<0032> -59 <> -61.4 <0033> …] TJ`);
poppler, PDFium and the viewers built on them read the gaps as spaces ("O P E R A T O R"),
so find-in-page misses the word. Each such run (spaced WIDE or more: narrower spacing
already reads as words) is wrapped in a marked-content sequence
whose `/ActualText` is the run's text (decoded with its font's ToUnicode map): what is
drawn stays exactly as it was, what is read is the words.
"""
from __future__ import annotations

import bisect
import re

import pikepdf
from pikepdf import Dictionary, Name

from sheets.pdf.cmap import cmap_codes


def to_unicode(font) -> dict[int, str] | None:
    """Code -> text of a Type0 (Identity-H) font's ToUnicode map; None when it has none."""
    cmap = font.get("/ToUnicode")
    if not isinstance(cmap, pikepdf.Stream) or font.get("/Subtype") != Name.Type0:
        return None
    return cmap_codes(cmap.read_bytes())


#: a PDF number, matched one way only: it ends where its digits end (the lookahead), so that "123"
#: is never also "1" "2" "3". With `\d*\.?\d+` and items that need no space between them, an
#: array that is not a TJ (a dash pattern, a run that fails further on) backtracked through every
#: split of its digits: 1.2 s on one log-sheet front, 12 s of a 10-mission batch's 21
_NUMBER = rb"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?![\d.])"
_TJ = re.compile(rb"\[((?:\s*(?:<[0-9A-Fa-f]*>|" + _NUMBER + rb"))+)\s*\]\s*TJ")
_ITEM = re.compile(rb"<([0-9A-Fa-f]*)>|(" + _NUMBER + rb")")
_TF = re.compile(rb"/([^\s/\[\]<>()]+)\s+" + _NUMBER + rb"\s+Tf")


def _items(array: bytes) -> list:
    """A TJ array of hex strings and numbers (WeasyPrint writes no other): bytes or float."""
    return [bytes.fromhex(m.group(1).decode()) if m.group(1) is not None else float(m.group(2))
            for m in _ITEM.finditer(array)]


def _text(items: list, cmap: dict[int, str]) -> str | None:
    text = []
    for item in items:
        if isinstance(item, bytes):
            for i in range(0, len(item) - 1, 2):
                char = cmap.get(int.from_bytes(item[i:i + 2], "big"))
                if char is None:
                    return None  # a code the map does not know: leave the run as it is
                text.append(char)
    return "".join(text)


#: the gap (thousandths of an em) from which readers take letter spacing for word breaks
#: (poppler breaks words at 0.1 em); narrower spacing reads as words already, and is left alone
WIDE = 80


def _spaced(items: list) -> bool:
    """WeasyPrint's letter spacing (empty strings between the glyphs), wide enough to be read
    as spaces: most gaps between glyphs of at least WIDE."""
    strings = [item for item in items if isinstance(item, bytes)]
    if len(strings) <= 2 or not any(not s for s in strings):
        return False
    gaps, gap, started = [], 0.0, False
    for item in items:
        if isinstance(item, bytes):
            if not item:
                continue
            if started:
                gaps.append(gap)
            gaps.extend([0.0] * (len(item) // 2 - 1))  # glyphs within one string: no gap
            gap, started = 0.0, True
        else:
            gap -= item
    gaps.sort()
    return bool(gaps) and gaps[len(gaps) // 2] >= WIDE


def mark_stream(stream: pikepdf.Object, resources) -> bool:
    """Wrap the letter-spaced runs of one content stream (a page's or a form's); True when
    something was wrapped. Works on the bytes (a parse of every stream would cost seconds
    a kit): WeasyPrint's TJ arrays hold hex strings and numbers only."""
    if not isinstance(stream, pikepdf.Stream):
        return False
    fonts = resources.get("/Font", Dictionary()) if resources is not None else Dictionary()
    marked = mark_bytes(stream.read_bytes(), lambda font: to_unicode(fonts[font]) if font in fonts else None)
    if marked is None:
        return False
    stream.write(marked)
    return True


def mark_bytes(data: bytes, cmap_of) -> bytes | None:
    """A content stream's bytes with its letter-spaced runs wrapped (see mark_stream), None when
    nothing is; `cmap_of(font resource name)`: that font's ToUnicode codes, or None."""
    if b"<>" not in data:
        return None
    maps: dict[str, dict | None] = {}
    tfs = [(m.start(), "/" + m.group(1).decode("latin-1")) for m in _TF.finditer(data)]
    starts = [pos for pos, _ in tfs]
    out, last = [], 0
    for match in _TJ.finditer(data):
        if b"<>" not in match.group(1):
            continue
        items = _items(match.group(1))
        if not _spaced(items):
            continue
        at = bisect.bisect_left(starts, match.start()) - 1
        if at < 0:
            continue
        font = tfs[at][1]
        if font not in maps:
            maps[font] = cmap_of(font)
        cmap = maps[font]
        text = _text(items, cmap) if cmap else None
        if not text:
            continue
        actual = ("\ufeff" + text).encode("utf-16-be").hex().encode()
        out += [data[last:match.start()], b"/Span <</ActualText <", actual, b">>> BDC ", match.group(0), b" EMC"]
        last = match.end()
    if not out:
        return None
    out.append(data[last:])
    return b"".join(out)


def mark_spacing(pdf: pikepdf.Pdf) -> int:
    """Every page's and every form's letter-spaced runs; returns how many streams changed."""
    seen: set = set()
    changed = 0

    def visit(stream, resources) -> None:
        nonlocal changed
        if isinstance(stream, pikepdf.Stream):
            if stream.objgen in seen:
                return
            seen.add(stream.objgen)
        changed += mark_stream(stream, resources)
        for form in (resources or Dictionary()).get("/XObject", Dictionary()).values():
            if isinstance(form, pikepdf.Stream) and form.get("/Subtype") == Name.Form:
                visit(form, form.get("/Resources", resources))

    for page in pdf.pages:
        contents = page.obj.get("/Contents")
        resources = page.obj.get("/Resources")
        for stream in (contents if isinstance(contents, pikepdf.Array) else [contents]):
            visit(stream, resources)
    return changed
