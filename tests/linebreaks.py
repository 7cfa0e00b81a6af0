"""Lines broken too early, read back from a PDF (PyMuPDF): a line of a paragraph whose next line
starts with a word that would have fit after it.

WeasyPrint (70) cuts a line after its first word when the inline element that ends it does not fit
("Introduce" alone above "new, conflicting, or confusing orders", "passing" alone on a tank card:
sheets.pipeline.rendering._SPACE_BEFORE_TAG). A publisher's proofreader sees such a line at once;
this finds it on every page: within one text block, a line followed by a line of the same column
that continues its sentence (it starts in lower case, and the line before does not end a clause)
whose first word, with a space, fits in what the line leaves of the column (two lines further apart
than a paragraph's lines are, are two paragraphs). The column's right
edge is the longest line of the block that starts where this one starts (a table's cells are
blocks of their own, or start elsewhere).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

SPACE_EM = 0.32   # a space of the bundled faces, in em (DejaVu Sans: 0.318)
SLACK_EM = 0.6    # what a line may leave short of its column and still be full (justification, kerning)
SAME_COLUMN_PT = 12.0
PARAGRAPH_GAP_EM = 0.15  # between two lines of one paragraph (line height 1.1-1.25), less


@dataclass(frozen=True)
class EarlyBreak:
    page: int      # 1-based
    line: str      # the line broken early (its end)
    next_word: str  # the word that would have fit after it
    room_pt: float  # what the line leaves of its column beyond that word

    def __str__(self) -> str:
        return f"page {self.page}: ...{self.line[-40:]!r} / {self.next_word!r} ({self.room_pt:.0f} pt to spare)"


def early_breaks(pdf: Path) -> list[EarlyBreak]:
    import pymupdf

    found: list[EarlyBreak] = []
    with pymupdf.open(pdf) as doc:
        for page in doc:
            words: dict[tuple[int, int], list] = {}
            for x0, _, x1, _, text, block, line, _ in page.get_text("words"):
                words.setdefault((block, line), []).append((x0, x1, text))
            for b, block in enumerate(page.get_text("dict")["blocks"]):
                lines = block.get("lines", [])
                for i, (this, after) in enumerate(zip(lines, lines[1:])):
                    if abs(this["bbox"][0] - after["bbox"][0]) > SAME_COLUMN_PT or after["bbox"][1] < this["bbox"][3] - 1:
                        continue  # another column, or a cell beside it
                    if after["spans"] and after["bbox"][1] - this["bbox"][3] > PARAGRAPH_GAP_EM * after["spans"][0]["size"]:
                        continue  # a paragraph's margin between them: the next starts a paragraph
                    mine, theirs = words.get((b, i)), words.get((b, i + 1))
                    if not mine or not theirs or not after["spans"]:
                        continue
                    line, next_word = " ".join(w[2] for w in mine), theirs[0][2]
                    if not next_word[:1].islower() or line[-1:] in ".:;!?":
                        continue  # a new sentence or item: the line before ended where it should
                    right = max(ln["bbox"][2] for ln in lines if abs(ln["bbox"][0] - this["bbox"][0]) <= SAME_COLUMN_PT)
                    size = max(s["size"] for s in after["spans"])
                    room = right - (mine[-1][1] + SPACE_EM * size + theirs[0][1] - theirs[0][0])
                    if room > SLACK_EM * size:
                        found.append(EarlyBreak(page.number + 1, line, next_word, room))
    return found
