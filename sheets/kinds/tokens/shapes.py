"""The marks token types wear (issue 47: tokens for any printer): each type of a sheet its own
shape, drawn solid in the type's colour above its label, so that on a mono laser, where most
colours print as the same grey, two types are still told apart at a glance. Each is an SVG
drawing in a 10 x 10 box; the first marks are the ones easiest to tell apart."""
from __future__ import annotations

from typing import get_args

from sheets.library.kinds.tokens import Shape, TokenSheet

#: the SVG elements of each mark, in a 0..10 box (filled with `currentColor`, or stroked for a ring)
MARKS: dict[str, str] = {
    "circle": '<circle cx="5" cy="5" r="4.6"/>',
    "square": '<rect x="0.8" y="0.8" width="8.4" height="8.4"/>',
    "triangle": '<polygon points="5,0.3 9.8,9.3 0.2,9.3"/>',
    "diamond": '<polygon points="5,0 10,5 5,10 0,5"/>',
    "star": '<polygon points="5,0 6.2,3.4 9.8,3.5 7,5.7 8,9.2 5,7.2 2,9.2 3,5.7 0.2,3.5 3.8,3.4"/>',
    "plus": '<polygon points="3.4,0 6.6,0 6.6,3.4 10,3.4 10,6.6 6.6,6.6 6.6,10 3.4,10 3.4,6.6 0,6.6 0,3.4 3.4,3.4"/>',
    "hexagon": '<polygon points="2.5,0.7 7.5,0.7 10,5 7.5,9.3 2.5,9.3 0,5"/>',
    "triangle-down": '<polygon points="0.2,0.7 9.8,0.7 5,9.7"/>',
    "ring": '<circle cx="5" cy="5" r="3.9" fill="none" stroke="currentColor" stroke-width="1.6"/>',
    "cross": '<polygon points="1.6,0 5,3.4 8.4,0 10,1.6 6.6,5 10,8.4 8.4,10 5,6.6 1.6,10 0,8.4 3.4,5 0,1.6"/>',
    "square-ring": '<rect x="1.6" y="1.6" width="6.8" height="6.8" fill="none" stroke="currentColor" stroke-width="1.6"/>',
    "pentagon": '<polygon points="5,0.2 9.8,3.7 8,9.5 2,9.5 0.2,3.7"/>',
    "bar": '<rect x="0" y="3" width="10" height="4"/>',
    "octagon": '<polygon points="3,0 7,0 10,3 10,7 7,10 3,10 0,7 0,3"/>',
    "pillar": '<rect x="3" y="0" width="4" height="10"/>',
    "chevron": '<polygon points="0,2 5,6 10,2 10,5.5 5,9.5 0,5.5"/>',
}
assert set(MARKS) == set(get_args(Shape))  # one drawing for every mark the content may name


def marks_of(sheet: TokenSheet) -> dict[str, str]:
    """Each token type's mark: its own, or the first of MARKS no other type of the sheet wears
    (in the sheet's order, so the same sheet gets the same marks). More types than marks: the
    marks go round again (a sheet of more than 16 types tells them apart by colour and label)."""
    taken = {t.shape for t in sheet.tokens if t.shape}
    free = [m for m in MARKS if m not in taken]
    out: dict[str, str] = {}
    k = 0
    for token in sheet.tokens:
        if token.shape:
            out[token.id] = token.shape
        else:
            out[token.id] = (free or list(MARKS))[k % len(free or MARKS)]
            k += 1
    return out


def svg(mark: str, size_mm: float, colour: str) -> str:
    """The mark as an inline SVG `size_mm` square, in `colour`. Its <title> is the figure's
    alternate text (WeasyPrint tags an inline SVG as a /Figure and takes /Alt from it; PDF/UA
    wants one): the mark tells the types apart, so it is named, not hidden."""
    return (f'<svg class="mark" xmlns="http://www.w3.org/2000/svg" viewBox="-0.5 -0.5 11 11" '
            f'width="{size_mm:g}mm" height="{size_mm:g}mm" fill="{colour}" style="color: {colour}">'
            f'<title>{mark.replace("-", " ")} mark</title>{MARKS[mark]}</svg>')
