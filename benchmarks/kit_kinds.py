"""Where the cold kit's time goes, per sheet kind (issue 19, item 4): `python benchmarks/kit_kinds.py`.

Each sheet of the default kit is laid out once, in this one process, with no cache
(WeasyPrint imported and its fonts warmed first, as a worker has them when the pool
starts), and the time is summed per kind (the template: reference, card, trackers,
tokens, gauges, playbook blanks, ...). Prints, per kind: sheets, pages, CPU ms per
page and that as a multiple of a typst page measured in the same run (benchmarks/run.py's
reference). `--json FILE` writes the figures; SHEETS_NO_HB_SUBSET=1 in the environment
measures the fontTools subsetter (run.py passes it with --no-harfbuzz).

CPU per page is what a worker spends; the kit's wall time is about the sum over both
cores, plus start-up, the merge and the previews (the table's last rows).
"""
from __future__ import annotations

import argparse
import io
import json
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


def measure() -> dict:
    from pypdf import PdfReader

    from sheets.base import paper
    from sheets.kit import assemble
    from sheets.pipeline import rendering
    from sheets.kinds.print_plugin import KitOptions
    from sheets.kit.plan import kit_sheets
    from sheets.library.access import library
    from sheets.pipeline.sheet import pdf_of_html, render_html
    from sheets.pipeline.stamp.write import missing_blanks
    from sheets.pipeline.stamp.layout import render_base

    t0 = time.perf_counter()
    lib = library(None)
    sheets = kit_sheets(lib, KitOptions(seed=1))
    stage_one = time.perf_counter() - t0
    rendering.html_to_pdf("<p>warm</p>")  # the import and the fonts, as a started worker has them
    kinds: dict[str, dict] = defaultdict(lambda: {"sheets": 0, "pages": 0, "seconds": 0.0})
    scratch = Path(tempfile.mkdtemp(prefix="kinds-"))
    parts = []
    printing = assemble.load_printing(lib.root)
    for sheet in sheets:
        kind = sheet.template.replace(".html.j2", "")
        start = time.perf_counter()
        if sheet.stamped:  # what a cold stamped sheet lays out: its blanks
            pages = 0
            for html in missing_blanks(sheet.parts or [], scratch).values():
                pdf, _ = render_base(html)
                pages += len(PdfReader(io.BytesIO(pdf)).pages)
            kind += " (stamped: blanks)"
        else:
            pdf = pdf_of_html(render_html(sheet), sheet.forms, sheet.finish)
            pages = len(PdfReader(io.BytesIO(pdf)).pages)
            path = scratch / sheet.filename
            path.write_bytes(pdf)
            parts.append(assemble.describe(path, title=sheet.filename, game=sheet.game, game_title=sheet.game or "",
                                           template=sheet.template, printing=printing))
        row = kinds[kind]
        row["seconds"] += time.perf_counter() - start
        row["sheets"] += 1
        row["pages"] += pages
    start = time.perf_counter()
    assemble.assemble(parts, scratch / "kit.pdf", title="kit", subtitle="bench",
                      paper_size=paper.page_size("a4"), cache_dir=scratch / "cache")
    merge = time.perf_counter() - start
    return {"stage_one_s": stage_one, "merge_s": merge, "merged_pages": len(PdfReader(scratch / "kit.pdf").pages),
            "kinds": dict(kinds)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--json", type=Path, help="write the figures here")
    ap.add_argument("--typst-page-s", type=float, help="the typst page of this run (run.py passes it)")
    opts = ap.parse_args()
    typst_s = opts.typst_page_s
    if typst_s is None:
        from run import _filled_html, typst_page
        typst_s = typst_page(_filled_html())
    figures = measure()
    print(f"| {'sheet kind (cold, one process)':<34} | {'sheets':>6} | {'pages':>5} | {'CPU ms/page':>11} | {'× typst page':>12} |")
    print(f"|{'-' * 36}|{'-' * 8}|{'-' * 7}|{'-' * 13}|{'-' * 14}|")
    total_s = total_pages = 0
    for kind, row in sorted(figures["kinds"].items(), key=lambda kv: -kv[1]["seconds"]):
        per = row["seconds"] / max(row["pages"], 1)
        total_s += row["seconds"]
        total_pages += row["pages"]
        xt = f"{per / typst_s:.1f}" if typst_s else "n/a"
        print(f"| {kind:<34} | {row['sheets']:>6} | {row['pages']:>5} | {per * 1000:>11.0f} | {xt:>12} |")
    per = total_s / max(total_pages, 1)
    print(f"| {'all kinds':<34} | {'':>6} | {total_pages:>5} | {per * 1000:>11.0f} | "
          f"{(f'{per / typst_s:.1f}' if typst_s else 'n/a'):>12} |")
    print(f"stage one (content, dice, contexts) {figures['stage_one_s'] * 1000:.0f} ms · merging "
          f"{figures['merged_pages']} pages into kit.pdf {figures['merge_s'] * 1000:.0f} ms")
    if opts.json:
        opts.json.write_text(json.dumps(dict(figures, typst_page_s=typst_s), indent=2))


if __name__ == "__main__":
    main()
