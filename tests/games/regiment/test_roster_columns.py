"""The blank squad roster's columns are sized for handwriting (issue 31): a name is the
longest thing written on it, so its column is the widest, measured from the PDF."""
import pypdf
from pypdf.generic import ContentStream

from conftest import page_size_mm


def first_row_cells_mm(path) -> list[float]:
    """The widths of the roster's first row of cells, from the rule drawn under each cell
    (a move-to and line-to per cell, end to end across the table), scaled so that the row
    spans the page's width less its 9 mm margins."""
    reader = pypdf.PdfReader(str(path))
    ops = ContentStream(reader.pages[0].get_contents(), reader).operations
    rows: dict[float, list[tuple[float, float]]] = {}
    start = None
    for operands, op in ops:
        if op == b"m":
            start = [float(v) for v in operands]
        elif op == b"l" and start is not None:
            x, y = (float(v) for v in operands)
            if abs(y - start[1]) < 0.01 and x > start[0]:
                rows.setdefault(round(y, 2), []).append((start[0], x))
            start = None
    # the first y (from the top) where a row of 10 or more cells runs end to end
    for y in sorted(rows):
        cells = sorted(rows[y])
        if len(cells) >= 10 and all(abs(a[1] - b[0]) < 0.01 for a, b in zip(cells, cells[1:])):
            span = cells[-1][1] - cells[0][0]
            content = page_size_mm(path)[0] - 18
            return [(b - a) / span * content for a, b in cells]
    raise AssertionError("no row of cells found")


def test_blank_roster_name_column_is_widest(whole_kit):
    widths = first_row_cells_mm(whole_kit.folder / "regiment-squad-roster.pdf")
    number, name, playbook, rank = widths[:4]
    assert name >= 38, widths
    assert name == max(widths) and name > 1.8 * playbook and playbook > rank > number, widths
