"""A table of rows stamped: a `data-rows` field, rows of plain and bold words set by the stamper.

Some content of a part is rows whose number and heights are its own (a mission's events: one
row per terrain on its track, the rolls in bold). Laid out by WeasyPrint it would give every
part a blank of its own; set here, every part of a shape shares one blank, and its rows are
drawn on it like any value.

The blank says how the rows look: its `data-rows` section holds a hidden sample row (a table
made of <div>s, so that no empty table is in the structure a screen reader reads; its borders
transparent, for a table's collapsed borders are drawn even when it is hidden), whose cells
and inline elements are fields named `<section>~<key>`. `c<i>.<j>` is column i's cell j (its
box gives the cell's x, width and padding, its font the cell's text); an inline element
(`<strong>`, a `<span class="...">`) is styled by the sample element of the same tag or first
class (`~strong`, `~pl`), a block one (display: block) starting a line; `~rule` is the borders'
colour. The filled part's section holds its rows as the template lays them out: one `<table>`
a column, one `<tr>` a row, one `<td>` a cell. The words are wrapped at spaces at the widths
WeasyPrint gives them (kerned: sheets.pipeline.stamp.fonts.kerned_width), so that they break
into its lines; a row is as tall as its tallest cell, and a column's rows are stacked from the
sample's first row. Anything the stamper cannot set exactly (an element of no sample, a glyph
the stamp fonts lack, rows taller than the page's room) gives None: the part is then laid out
in full, where its rows flow.

Each row is drawn as its borders (an artifact) then its words, so that the stamped file tags
each row as a paragraph of its own (sheets.pdf.marking: a run of text between two marked
groups is one P).
"""
from __future__ import annotations

from dataclasses import dataclass
from html.parser import HTMLParser

from sheets.pipeline.stamp.fields import SAMPLE
from sheets.pipeline.stamp.fonts import drawable, face_for, kerned_width, pair_kern, text_width


@dataclass
class _Run:
    text: str
    style: str  # "" (the cell's own font) or a sample key (`strong`, a class)


#: elements with no end tag: one in a cell has nothing the stamper sets (the part is laid out in full)
_VOID = frozenset(("br", "img", "wbr", "hr", "input"))


class _Cells(HTMLParser):
    """The rows of a `data-rows` section's HTML: columns (one a `<table>`) of rows of cells of
    runs; `refused` when its shape is not that (a table in a cell, a cell outside a row, an
    element with no end tag in a cell)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.columns: list[list[list[list[_Run]]]] = []
        self.refused = False
        self._styles: list[str] = []
        self._cell: list[_Run] | None = None

    def handle_starttag(self, tag, attrs):
        if self._cell is not None and (tag in _VOID or tag in ("table", "tr", "td", "th")):
            self.refused = True
        elif tag == "table":
            self.columns.append([])
        elif tag == "tr":
            if not self.columns:
                self.refused = True
            else:
                self.columns[-1].append([])
        elif tag in ("td", "th"):
            if not self.columns or not self.columns[-1]:
                self.refused = True
                return
            self._cell = []
            self.columns[-1][-1].append(self._cell)
            self._styles = []
        elif self._cell is not None:
            cls = (dict(attrs).get("class") or "").split()
            self._styles.append(cls[0] if cls else tag)

    def handle_endtag(self, tag):
        if tag in ("td", "th"):
            self._cell = None
        elif self._cell is not None and self._styles:
            self._styles.pop()

    def handle_data(self, data):
        if self._cell is not None and data:
            self._cell.append(_Run(data, self._styles[-1] if self._styles else ""))


def rows_of(markup: str) -> list[list[list[list[_Run]]]] | None:
    """A section's columns of rows of cells of runs; None: not rows the stamper can read."""
    parser = _Cells()
    parser.feed(markup)
    parser.close()
    return None if parser.refused else parser.columns


@dataclass
class Piece:
    """Text to draw: its words at (x, baseline) pt from the page's top-left, in its font."""

    x: float
    baseline: float
    text: str
    font: dict
    size: float


@dataclass
class Rule:
    """A border: a filled rectangle (x, y, w, h) pt from the page's top-left, in its colour."""

    box: list[float]
    fill: list[float]


def _words(runs: list[_Run], samples: dict, cell_font: dict):
    """The cell's words as (word, font, glued to the previous word, starts a line), whitespace
    collapsed as a browser collapses it; None when a run has no sample to take its style from."""
    out: list = []
    space_before = False
    for run in runs:
        font = cell_font
        block = False
        if run.style:
            spec = samples.get(run.style)
            if spec is None:
                return None
            font, block = spec["font"], spec.get("display") == "block"
        text = run.text.upper() if font["transform"] == "uppercase" else (
            run.text.lower() if font["transform"] == "lowercase" else run.text)
        lead = text[:1].isspace()
        parts = text.split()
        new_line = block
        for k, word in enumerate(parts):
            glued = bool(out) and k == 0 and not lead and not space_before and not new_line
            out.append((word, font, glued, new_line and k == 0))
        if block and parts:
            space_before = True
            out.append(("", font, False, True))  # the text after a block starts a line
        else:
            space_before = text[-1:].isspace() if text else space_before
    return [w for w in out if w[0] or w[3]]


def _lines(words, width: float):
    """The cell's words wrapped at spaces into `width`, each at its x offset: lines of (x, text,
    font), a word's text with the space after it (a word glued to the next has none), so that
    the page's text reads with its spaces. Widths are kerned as WeasyPrint sets them
    (`kerned_width`), so that the words break into the lines it would break them into; each word
    is placed on its own, so that the kerning reportlab does not draw inside a word moves nothing."""
    lines: list[list] = []
    line: list = []  # (x, word, font, glued to the word before)
    x = 0.0
    last = None  # (face, character) the line's text ends with
    for word, font, glued, breaks in words:
        if breaks and line:
            lines.append(line)
            line, x, last = [], 0.0, None
        if not word:
            continue
        face = face_for(font, word)[0]
        size = font["size"]
        w = kerned_width(word, face, size, font["spacing"])
        gap = 0.0
        if line and not glued:
            gap = text_width(" ", face, size, 0) + pair_kern(face, size, " ", word[0])
            if last is not None and last[0] == face:
                gap += pair_kern(face, size, last[1], " ")
        elif line and last is not None and last[0] == face:
            gap = pair_kern(face, size, last[1], word[0])
        if line and not glued and x + gap + w > width + 0.01:
            lines.append(line)
            line, x, gap = [], 0.0, 0.0
        line.append((x + gap, word, font, glued))
        x += gap + w
        last = (face, word[-1])
    if line:
        lines.append(line)
    return [[(x, word + ("" if k + 1 < len(line) and line[k + 1][3] else " "), font)
             for k, (x, word, font, _) in enumerate(line)] for line in lines]


#: rows set already, by the look they were set in and their words: most rows of a batch are
#: another part's too (one terrain's events are the same on every mission's front)
_SET: dict[tuple, tuple | None] = {}
_SET_MAX = 4096


def _set_row(c: int, row: list, samples: dict, look: str) -> tuple | None:
    """Row `row` of column `c` set in the samples' look: (its height, its cells' (left x, right x),
    its rule and colour, its words as (x, y from the row's top, text, font, size)); None when it
    cannot be set exactly. Remembered by its look (`look`: the samples, as text) and its words."""
    key = (look, c, tuple(tuple((r.text, r.style) for r in runs) for runs in row))
    if key in _SET:
        return _SET[key]
    cells = []
    made: tuple | None = None
    for j, runs in enumerate(row):
        spec = samples.get(f"c{c}.{j}")
        # a cell set from its top-left, as the rows are (one centred, or in the middle of its
        # row, is laid out in full)
        if spec is None or spec["font"]["align"] not in ("start", "left", "justify") \
                or spec.get("valign", "top") not in ("top", "baseline"):
            break
        words = _words(runs, samples, spec["font"])
        if words is None or not all(drawable(f, w) for w, f, _, _ in words if w):
            break
        cells.append((spec, _lines(words, spec["content"][2])))
    else:
        made = _made_row(cells) if cells else None
    if len(_SET) >= _SET_MAX:
        _SET.clear()
    _SET[key] = made
    return made


def _made_row(cells: list) -> tuple:
    # the row: as tall as its tallest cell's lines and padding (a table cell's bottom padding as
    # laid out is the room its row left it: the row's own is the least of its cells'); the
    # padding holds half of each collapsed border, which is centred on the cell's edge and
    # shared with the next cell and the next row
    below = min(spec["pad"][1] for spec, _ in cells)
    height = max(len(lines) * spec["font"]["line_height"] + spec["pad"][0] + below for spec, lines in cells)
    words = []
    for spec, lines in cells:
        cx = spec["content"][0]
        line_h = spec["font"]["line_height"]  # the cell's: its inline elements sit on its lines
        for i, line in enumerate(lines):
            for dx, text, font in line:
                _, asc, desc, _ = face_for(font, text)
                s = font["size"]
                half = (line_h - (asc + desc) * s) / 2
                words.append((cx + dx, spec["pad"][0] + i * line_h + half + asc * s, text, font, s))
    edges = [spec["border"][0] for spec, _ in cells] + [cells[-1][0]["border"][0] + cells[-1][0]["border"][2]]
    return height, edges, cells[0][0].get("rule", 0.3), words


def plan_rows(name: str, markup: str, layout: dict) -> tuple[list[Piece | Rule], float] | None:
    """The rows of section `name` (its filled HTML `markup`) as what to draw on its page, in
    order (per row: its rules, then its words), and how far down they reach (pt from the page
    top); None when they cannot be set exactly or do not fit above the page's bottom."""
    fields = layout["fields"]
    section = fields.get(name)
    columns = rows_of(markup)
    if section is None or columns is None:
        return None
    prefix = name + SAMPLE
    samples = {k[len(prefix):]: v for k, v in fields.items() if k.startswith(prefix)}
    look = repr(sorted(samples.items()))
    # the borders' colour: the sample rule's text (the sample's own borders are transparent, for a
    # table's collapsed borders are drawn even when it is hidden), else the cells' border colour
    fill = samples["rule"]["font"]["color"] if "rule" in samples else next(
        (v["fill"] for k, v in samples.items() if k.startswith("c")), [0.0, 0.0, 0.0, 1.0])
    page = layout["pages"][section["page"]]
    bottom = page.get("bottom", page["height"])
    top = section["content"][1]
    drawn: list[Piece | Rule] = []
    reach = top
    for c, rows in enumerate(columns):
        first = samples.get(f"c{c}.0")
        y = first["border"][1] if first is not None else top  # the table's first row, as laid out
        for r, row in enumerate(rows):
            if not row:
                continue
            made = _set_row(c, row, samples, look)
            if made is None:
                return None
            height, edges, rule, words = made
            x0, x1 = edges[0], edges[-1]
            drawn += [Rule([x0 - rule / 2, e - rule / 2, x1 - x0 + rule, rule], fill)
                      for e in ([y + height] if r else [y, y + height])]
            drawn += [Rule([vx - rule / 2, y - rule / 2, rule, height + rule], fill) for vx in edges]
            drawn += [Piece(x, y + dy, text, font, size) for x, dy, text, font, size in words]
            y += height
        reach = max(reach, y)
    if reach > bottom + 0.01:
        return None
    return drawn, reach
