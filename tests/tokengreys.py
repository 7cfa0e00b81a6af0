"""Token types told apart on any printer (issue 47 item 7), measured on the rendered sheet: each
type's mean luma in greyscale (PDFium's render, ITU-R 601 weights) over its disc, and its mark's
shape as drawn (PyMuPDF's vector drawings inside the disc, smaller than the disc itself, their
points taken relative to their own box). Two types are apart when their shapes differ or their
lumas differ by at least `LUMA_GAP` levels of 255."""
from __future__ import annotations

import numpy
import pymupdf
import pypdfium2 as pdfium

LUMA_GAP = 25
MM = 72 / 25.4


def _grey(pdf: bytes, index: int, dpi: int):
    doc = pdfium.PdfDocument(pdf)
    try:
        rgb = doc[index].render(scale=dpi / 72).to_numpy()[:, :, :3].astype(float)
    finally:
        doc.close()
    return rgb @ numpy.array([0.299, 0.587, 0.114])


def ink_coverage(pdf: bytes, dpi: int = 50) -> list[float]:
    """Each page's mean ink, 0..1 (1 - luma / 255 over the whole page)."""
    doc = pdfium.PdfDocument(pdf)
    pages = len(doc)
    doc.close()
    return [float(1 - _grey(pdf, i, dpi).mean() / 255) for i in range(pages)]


def measure(pdf: bytes, placed: dict[str, tuple[int, float, float]], diameter: float, dpi: int = 100):
    """{type: (mean luma, shape)} of one token of each type: `placed` its page and centre (mm)."""
    out = {}
    doc = pymupdf.open(stream=pdf)
    greys: dict[int, numpy.ndarray] = {}
    try:
        for kind, (page, x, y) in placed.items():
            grey = greys.setdefault(page, _grey(pdf, page, dpi))
            px = dpi / 25.4
            yy, xx = numpy.mgrid[0:grey.shape[0], 0:grey.shape[1]]
            inside = (xx / px - x) ** 2 + (yy / px - y) ** 2 <= (diameter / 2 - 0.5) ** 2
            luma = float(grey[inside].mean())
            shape = []
            for d in doc[page].get_drawings():
                r = d["rect"]
                cx, cy = (r.x0 + r.x1) / 2 / MM, (r.y0 + r.y1) / 2 / MM
                if (cx - x) ** 2 + (cy - y) ** 2 > (diameter / 2) ** 2 or max(r.width, r.height) / MM > diameter * 0.5:
                    continue  # another token's, or the disc, its ring, its cut line
                w, h = max(r.width, 1e-6), max(r.height, 1e-6)
                pts = []
                for item in d["items"]:
                    for p in item[1:]:
                        if isinstance(p, pymupdf.Point):
                            pts.append((round((p.x - r.x0) / w, 1), round((p.y - r.y0) / h, 1)))
                        elif isinstance(p, pymupdf.Rect):
                            pts.append(("rect", round(p.width / w, 1), round(p.height / h, 1)))
                # the points relative to the drawing's box, and the box's proportions (a bar is not a square)
                shape.append((d.get("type"), round(w / h, 1), tuple(sorted(set(pts), key=str))))
            out[kind] = (luma, tuple(sorted(shape, key=str)))
    finally:
        doc.close()
    return out


def alike(measured: dict) -> list[tuple[str, str, float]]:
    """Pairs of types with the same shape and lumas under LUMA_GAP apart: (a, b, gap)."""
    kinds = sorted(measured)
    return [(a, b, round(abs(measured[a][0] - measured[b][0]), 1))
            for i, a in enumerate(kinds) for b in kinds[i + 1:]
            if measured[a][1] == measured[b][1] and abs(measured[a][0] - measured[b][0]) < LUMA_GAP]
