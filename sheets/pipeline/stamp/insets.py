"""An inset's page: a part's content too rich to stamp, laid out on its own and drawn into its blank.

A worker that lays out an inset imports this module (pikepdf, through sheets.pdf.inset), one that
only lays out blanks imports `layout` alone (sheets.pipeline.stamp).
"""
from __future__ import annotations

import re

from sheets.pdf.fonts import finish_fonts
from sheets.pdf.inset import place
from sheets.pipeline import rendering


#: an inset's document: the part's own page, as wide as its slot and as tall as the room below
#: it, with no margin and no running footer (the blank's are stamped)
_INSET_PAGE = ('<style id="inset-page">@page { size: %(w).2fpt %(h).2fpt; margin: 0; background: none; '
               "@top-left { content: none } @top-center { content: none } @top-right { content: none } "
               "@bottom-left { content: none } @bottom-center { content: none } @bottom-right { content: none } } "
               "html, body { margin: 0; padding: 0; background: none; }</style>")
_STYLE = re.compile(r"<style>(.*?)</style>", re.S)
_PAGE_STYLE = re.compile(r'<style id="inset-page">(.*?)</style>', re.S)
_SECTION = re.compile(r'<section\b[^>]*\sdata-field="([^"]*)"[^>]*\sdata-inset\b[^>]*>(.*?)</section>', re.S)


def inset_document(filled_html: str, name: str, spec: dict, room: float) -> str | None:
    """The HTML that lays out the inset field `name` of a filled part on its own: the part's
    head (its styles, its language, its edition's classes) and the field's content, on a page of
    the slot's width and `room` pt tall. None: the part has no such field or it is empty."""
    found = next((m for m in _SECTION.finditer(filled_html) if m.group(1) == name), None)
    body = filled_html.find("<body")
    if found is None or body < 0 or not found.group(2).strip():
        return None
    head = filled_html[:body].replace("</head>", _INSET_PAGE % {"w": spec["content"][2], "h": room} + "</head>", 1)
    return f'{head}<body><section class="inset-page">{found.group(2)}</section></body></html>'


def render_insets(blank_pdf: bytes, insets: list[tuple[int, float, float, str]]) -> bytes | None:
    """The blank's PDF with each inset (page, x, top, HTML: `inset_document`) laid out and drawn
    into that page at (x, top) pt (sheets.pdf.inset); None when an inset needs more than its one
    page (the part is then laid out in full, where its inset flows on)."""
    pdf = blank_pdf
    for page, x, top, html in insets:
        # the part's styles parsed once for every inset this worker lays out with them (most
        # of the time an inset of a few rows takes), its page's size (the room, which differs
        # from one part to the next) each time, after them
        page_style = _PAGE_STYLE.search(html)
        html = _PAGE_STYLE.sub("", html)
        css = "\n".join(m.group(1) for m in _STYLE.finditer(html))
        document = rendering.lay_out(_STYLE.sub("", html), css, page_style.group(1) if page_style else None)
        if len(document.pages) != 1:
            return None
        pdf = place(pdf, finish_fonts(document.write_pdf(uncompressed_pdf=False, pdf_tags=True)), page, x, top)
    return pdf
