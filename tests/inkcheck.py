"""Solid fills on a PDF page, read from its content stream (forms followed), for the ink-saver tests.

A fill counts as solid when its colour is dark (relative luminance below SOLID_LUMINANCE);
its area is the shoelace area of the filled path (curves by their control points), in mm²,
with subpaths of opposite turn cancelling (a ring is its ring, not its disc).
"""
from __future__ import annotations

import pypdf
from pypdf.generic import ContentStream

MM = 72 / 25.4
SOLID_LUMINANCE = 0.6


def _mul(m, n):
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (a * a2 + b * c2, a * b2 + b * d2, c * a2 + d * c2, c * b2 + d * d2,
            e * a2 + f * c2 + e2, e * b2 + f * d2 + f2)


def _apply(m, x, y):
    a, b, c, d, e, f = m
    return a * x + c * y + e, b * x + d * y + f


def _lum(rgb):
    def ch(c):
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (ch(float(v)) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _signed(pts):
    s = 0.0
    for (x1, y1), (x2, y2) in zip(pts, pts[1:] + pts[:1]):
        s += x1 * y2 - x2 * y1
    return s / 2


def _area(subpaths, even_odd=False):
    areas = [_signed(pts) for pts in subpaths if len(pts) >= 3]
    if even_odd:  # nested subpaths: outer minus the next inside plus the next ...
        sizes = sorted((abs(a) for a in areas), reverse=True)
        return abs(sum(a if i % 2 == 0 else -a for i, a in enumerate(sizes))) / (MM * MM)
    return abs(sum(areas)) / (MM * MM)


def solid_fills(reader: pypdf.PdfReader, index: int) -> list[tuple[float, float]]:
    """(area mm², luminance) of every dark fill on page `index`."""
    page = reader.pages[index]
    out: list[tuple[float, float]] = []
    _walk(page.get_contents(), page.get("/Resources"), (1, 0, 0, 1, 0, 0), reader, out)
    return out


def _walk(contents, resources, ctm, reader, out, depth=0):
    if contents is None or depth > 8:
        return
    resources = resources.get_object() if resources is not None else {}
    stack, colour = [], (0.0, 0.0, 0.0)
    subpaths, current = [], []
    for operands, op in ContentStream(contents, reader).operations:
        if op == b"q":
            stack.append((ctm, colour))
        elif op == b"Q":
            ctm, colour = stack.pop() if stack else (ctm, colour)
        elif op == b"cm":
            ctm = _mul(tuple(float(v) for v in operands), ctm)
        elif op == b"rg":
            colour = tuple(float(v) for v in operands)
        elif op == b"g":
            colour = (float(operands[0]),) * 3
        elif op in (b"sc", b"scn") and len(operands) == 3 and all(not hasattr(v, "startswith") for v in operands):
            colour = tuple(float(v) for v in operands)
        elif op in (b"sc", b"scn") and len(operands) == 1:
            colour = (float(operands[0]),) * 3
        elif op == b"m":
            if current:
                subpaths.append(current)
            current = [_apply(ctm, float(operands[0]), float(operands[1]))]
        elif op in (b"l",):
            current.append(_apply(ctm, float(operands[0]), float(operands[1])))
        elif op in (b"c", b"v", b"y"):
            vals = [float(v) for v in operands]
            for i in range(0, len(vals), 2):
                current.append(_apply(ctm, vals[i], vals[i + 1]))
        elif op == b"re":
            x, y, w, h = (float(v) for v in operands)
            if current:
                subpaths.append(current)
            subpaths.append([_apply(ctm, x, y), _apply(ctm, x + w, y), _apply(ctm, x + w, y + h), _apply(ctm, x, y + h)])
            current = []
        elif op in (b"f", b"F", b"f*", b"B", b"B*", b"b", b"b*"):
            if current:
                subpaths.append(current)
            lum = _lum(colour)
            if lum < SOLID_LUMINANCE:
                out.append((_area(subpaths, op.endswith(b"*")), lum))
            subpaths, current = [], []
        elif op in (b"S", b"s", b"n", b"W", b"W*"):
            if op != b"W" and op != b"W*":
                subpaths, current = [], []
        elif op == b"Do":
            xobjects = resources.get("/XObject", {})
            form = xobjects[operands[0]].get_object()
            if form.get("/Subtype") == "/Form":
                m = tuple(float(v) for v in form.get("/Matrix", [1, 0, 0, 1, 0, 0]))
                _walk(form, form.get("/Resources"), _mul(m, ctm), reader, out, depth + 1)


def largest_solid_fill(path) -> float:
    reader = pypdf.PdfReader(str(path))
    return max((a for i in range(len(reader.pages)) for a, _ in solid_fills(reader, i)), default=0.0)
