"""The layout pre-flight: find boxes that run out of the column or page they sit in.

WeasyPrint never refuses a layout: a table wider than its column is drawn over the
text beside it, a word too long for its cell runs over the next cell. Both are
visible only on paper. This module walks WeasyPrint's laid-out box tree (every page
of a rendered `Document`) and reports each box whose border box extends past the
padding box of the block that contains it (a column, a table cell, the page area).

Rules, all generic:
- bounds come from block containers (blocks, columns, cells, inline blocks, the
  page); lines, inline boxes, table rows and row groups pass their container's
  bounds down, so a word that does not fit a cell is checked against the cell;
- a table is checked against the block around it (WeasyPrint's table wrapper is
  as wide as the table, so the wrapper's container is the column);
- outside list markers hang in the margin by design, and what a box with
  `overflow: hidden` clips is its own business: neither is reported;
- absolutely positioned boxes are placed on purpose: they only have to stay on
  the paper;
- only the outermost offender is reported (its children overflow with it).
"""
from __future__ import annotations

from dataclasses import dataclass

from sheets.base.weasyboxes import page_box

TOLERANCE_PT = 0.75  # rounding in WeasyPrint's layout; a quarter of a millimetre
PT_PER_PX = 0.75     # WeasyPrint lays out in CSS px (96 per inch); PDF points are 72 per inch
MM_PER_PX = 25.4 / 96


@dataclass(frozen=True)
class Overflow:
    page: int          # 1-based
    what: str          # e.g. "<table> in #table-4-1"
    text: str          # the start of the box's text, to find it on the page
    excess_mm: float   # how far it runs out
    side: str          # "right" or "left"

    def describe(self) -> str:
        snippet = f" (“{self.text}”)" if self.text else ""
        return (f"page {self.page}: {self.what}{snippet} runs {self.excess_mm:.1f} mm past the "
                f"{self.side} edge of its column")


def _text(box, limit: int = 48) -> str:
    parts: list[str] = []

    def walk(b) -> None:
        if sum(map(len, parts)) > limit:
            return
        text = getattr(b, "text", None)
        if isinstance(text, str):
            parts.append(text)
        for child in getattr(b, "children", ()) or ():
            walk(child)

    walk(box)
    text = " ".join(" ".join(parts).split())
    return text[:limit] + ("…" if len(text) > limit else "")


def _label(box, anchor: str | None) -> str:
    tag = getattr(box, "element_tag", None) or type(box).__name__
    tag = tag.rsplit("}", 1)[-1]  # "{http://www.w3.org/2000/svg}svg" -> "svg"
    element = getattr(box, "element", None)
    classes = ""
    if element is not None and hasattr(element, "get"):
        cls = (element.get("class") or "").split()
        classes = "".join(f".{c}" for c in cls[:2])
    where = f" in #{anchor}" if anchor else ""
    return f"<{tag}{classes}>{where}"


def find_overflows(document) -> list[Overflow]:
    """Every box (outermost only) that runs out of its container, page by page."""
    from weasyprint.formatting_structure import boxes  # noqa: PLC0415 - WeasyPrint is imported lazily

    found: list[Overflow] = []
    skip = (boxes.TableColumnGroupBox, boxes.TableColumnBox, boxes.MarginBox)

    def visit(box, bounds, anchor, page_no, paper) -> None:
        element = getattr(box, "element", None)
        if element is not None and hasattr(element, "get") and element.get("id"):
            anchor = element.get("id")
        if getattr(box, "style", None) is not None and box.style["overflow"] != "visible":
            return  # the box clips what it holds, on purpose
        if isinstance(box, boxes.TableBox):
            inner = None  # rows and cells are placed by the table itself; cells bound their content
        elif isinstance(box, boxes.PageBox):
            left = box.content_box_x()
            inner = (left, left + box.width)
        elif isinstance(box, boxes.BlockContainerBox):
            # the padding box: a hanging indent may use the padding, it stays inside the box
            left = box.padding_box_x()
            inner = (left, left + box.padding_width())
        else:
            inner = bounds  # lines, inline boxes, row groups, rows: their container's bounds
        for child in getattr(box, "children", None) or ():
            if isinstance(child, skip) or child.is_outside_marker:
                continue
            # positioned boxes are placed on purpose (a card's frame sits in the margin):
            # they only have to stay on the paper
            positioned = child.style["position"] in ("absolute", "fixed")
            limit = paper if positioned else inner
            if limit is not None and _escapes(child, limit, page_no, anchor, found):
                continue  # report the outermost box only
            visit(child, inner, anchor, page_no, paper)

    for number, page in enumerate(document.pages, start=1):
        root = page_box(page)  # WeasyPrint has no public laid-out box tree (sheets.base.weasyboxes)
        visit(root, None, None, number, (0.0, root.margin_width()))
    return found


def _edges(box) -> tuple[float, float] | None:
    try:
        left = box.border_box_x()
        return left, left + box.border_width()
    except (TypeError, AttributeError):
        return None  # a box WeasyPrint did not place


def _escapes(box, bounds, page_no, anchor, found) -> bool:
    edges = _edges(box)
    if edges is None:
        return False
    tol = TOLERANCE_PT / PT_PER_PX
    left, right = edges
    is_text = isinstance(getattr(box, "text", None), str) or type(box).__name__ == "LineBox"
    what = (f"text in #{anchor}" if anchor else "text") if is_text else _label(box, anchor)
    if right > bounds[1] + tol:
        found.append(Overflow(page_no, what, _text(box), (right - bounds[1]) * MM_PER_PX, "right"))
        return True
    if left < bounds[0] - tol:
        found.append(Overflow(page_no, what, _text(box), (bounds[0] - left) * MM_PER_PX, "left"))
        return True
    return False
