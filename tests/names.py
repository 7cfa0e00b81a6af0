"""Every name a PDF's content streams use, resolved against their resources (issue 34).

`unresolved(path)` walks every page, every form XObject it draws or lists (recursively) and
every annotation appearance, and returns one line per `Tf`, `Do` or `gs` operand its
resources lack. `poppler_errors(path)` runs `pdftotext` and `pdftoppm` and returns the
"Syntax Error" lines they print.
"""
from __future__ import annotations

import subprocess
from pathlib import Path

import pikepdf

KINDS = {"Tf": "/Font", "Do": "/XObject", "gs": "/ExtGState"}


def _check(stream, resources, where: str, bad: list[str], seen: set) -> None:
    if stream.objgen != (0, 0):
        if stream.objgen in seen:
            return
        seen.add(stream.objgen)
    res = resources if resources is not None else pikepdf.Dictionary()
    for operands, op in pikepdf.parse_content_stream(stream):
        op = str(op)
        if op not in KINDS or not operands:
            continue
        name, entries = str(operands[0]), res.get(KINDS[op])
        if entries is None or name not in entries:
            bad.append(f"{where}: {op} {name} not in {KINDS[op]}")
    for name, x in (res.get("/XObject") or {}).items():
        if isinstance(x, pikepdf.Stream) and x.get("/Subtype") == "/Form":
            _check(x, x.get("/Resources", res), f"{where}>{name}", bad, seen)


def _appearances(annot):
    for state in (annot.get("/AP") or {}).values():
        if isinstance(state, pikepdf.Stream):
            yield state
        else:
            yield from (s for s in state.values() if isinstance(s, pikepdf.Stream))


def unresolved(path: Path) -> list[str]:
    bad: list[str] = []
    seen: set = set()
    with pikepdf.open(path) as pdf:
        for i, page in enumerate(pdf.pages):
            _check(page, page.obj.get("/Resources"), f"{path.name} p{i + 1}", bad, seen)
            for annot in page.obj.get("/Annots", []):
                for s in _appearances(annot):
                    _check(s, s.get("/Resources"), f"{path.name} p{i + 1} {annot.get('/T')}", bad, seen)
    return bad


def poppler_errors(path: Path, tmp: Path) -> list[str]:
    """The "Syntax Error" lines pdftotext and pdftoppm (every page, at 20 dpi) print."""
    runs = [["pdftotext", str(path), str(tmp / "out.txt")],
            ["pdftoppm", "-r", "20", "-png", str(path), str(tmp / "page")]]
    lines = []
    for cmd in runs:
        err = subprocess.run(cmd, capture_output=True, text=True, check=False).stderr
        lines += [f"{path.name}: {cmd[0]}: {line}" for line in err.splitlines() if "Error" in line]
    for png in tmp.glob("page*.png"):
        png.unlink()
    return lines
