"""Issue 47's measures on two kits, part by part, as a Markdown table.

    python benchmarks/kit_measures.py BEFORE_DIR AFTER_DIR

BEFORE_DIR and AFTER_DIR are `sheets kit --seed 1 -o DIR` folders of two commits. Per part:
  pages;
  smallest text in play (pt): laid-out spans whose colour is not one of the theme's markers of
    another role (tests/floors.py); in an older kit, whose notes and footers do not carry those
    colours yet, every span counts as play;
  notes: production notes, placeholders and seeds on the pages a player holds (the banned strings
    of tests/kit/test_player_pages.py), kit.pdf's contents page and the Designer's notes pages,
    which say them on purpose, left out;
  emptiest page: the smallest share of its body a page's ink covers (tests/pagefill.py);
  median card fill: how far down its cut the median card's text reaches, its running footer (the
    colour of the lowest text of nearly every card) left out (tests/cardfill.py);
  token ink: the sheet's mean ink coverage, 0..1 (tests/tokengreys.py).
The measures are read from the PDFs alone; the tests hold the same figures to their floors.
"""
from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

import pymupdf  # noqa: E402

import cardfill  # noqa: E402
from floors import floors, role, spans  # noqa: E402
from pagefill import BOTTOM_MARGIN_MM, TOP_MARGIN_MM, page_bodies  # noqa: E402
from tokengreys import ink_coverage  # noqa: E402

from sheets.library.content import Library  # noqa: E402

NOTES_PAGE = "Every value below is printed the same way in every part of this kit."


def _banned() -> tuple[tuple[str, ...], re.Pattern]:
    sys.path.insert(0, str(REPO / "tests" / "kit"))
    from test_player_pages import BANNED, SEED
    return BANNED, SEED


def measure(pdf: Path, markers: dict) -> dict:
    banned, seed = _banned()
    found: dict = {}
    play = [s.size for s in spans(pdf) if not s.stamped and role(s, markers) == "play"]
    found["smallest in play"] = round(min(play), 2) if play else None
    notes = 0
    with pymupdf.open(pdf) as doc:
        found["pages"] = len(doc)
        for index, page in enumerate(doc):
            text = re.sub(r"(\w)- (\w)", r"\1-\2", " ".join(page.get_text().split()))
            if (pdf.name == "kit.pdf" and index == 0) or NOTES_PAGE in text:
                continue
            lower = text.lower()
            notes += sum(lower.count(b) for b in banned) + len(seed.findall(text))
    found["notes"] = notes
    if pdf.name != "kit.pdf":
        bodies = [b for b in page_bodies(pdf) if b]
        shares = [(bottom - top) / (height - TOP_MARGIN_MM - BOTTOM_MARGIN_MM) for top, bottom, height in bodies]
        found["emptiest page"] = round(min(shares), 2) if shares else None
    if "-cards" in pdf.stem:
        faces = cardfill.fronts(pdf)
        lowest = Counter(max(f.spans, key=lambda s: s[3])[5] for f in faces if f.spans)
        colour, count = lowest.most_common(1)[0] if lowest else ("", 0)
        footer = colour if count > 0.8 * len(faces) else "#-"
        found["median card fill"] = round(cardfill.median_fill(faces, footer), 2) if faces else None
    if pdf.stem.endswith("-tokens"):
        coverage = ink_coverage(pdf.read_bytes())
        found["token ink"] = round(sum(coverage) / len(coverage), 3)
    return found


COLUMNS = ("pages", "smallest in play", "notes", "emptiest page", "median card fill", "token ink")


def main() -> None:
    before, after = (Path(a) for a in sys.argv[1:3])
    markers, _ = floors(Library().theme())
    names = sorted({p.name for p in before.glob("*.pdf")} | {p.name for p in after.glob("*.pdf")})
    print("| part | " + " | ".join(COLUMNS) + " |")
    print("|---|" + "---|" * len(COLUMNS))
    for name in names:
        a = measure(before / name, markers) if (before / name).exists() else {}
        b = measure(after / name, markers) if (after / name).exists() else {}
        cells = [f"{a.get(c, '-')} → {b.get(c, '-')}" if c in a or c in b else "" for c in COLUMNS]
        print(f"| {Path(name).stem} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
