"""Two revisions print the same pages: the same pixels at 100 dpi, the same text, the same tags.

    .venv/bin/python benchmarks/pixels.py REV_A REV_B [--quick | --cards]

Each revision is checked out into a temporary worktree and its `sheets` run (this venv's
Python, the worktree first on the path, a cache of its own, the system's fonts as they are)
on the same commands: the whole kit on A4 and on Letter, a 100-playbook batch, 20 missions
and a fillable playbook (`--quick`: one game's kit, 10 playbooks, 5 missions; `--cards`: every
game's card sets with backs on A4 and Letter, and each way of imposing them: gutters and bleed,
short-edge duplex with a back offset, fold, copies without crop marks, the 1-up export and a print
shop's PDF/X). Every PDF
the two write is compared: byte-equal, or else every page rendered by PyMuPDF at 100 dpi to
the same samples, the same extracted text and the same structure (the structure tree's
element types in order, pikepdf). Prints one line per file and a summary; exit 1 on any
difference.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pikepdf
import pymupdf

REPO = Path(__file__).resolve().parent.parent
DPI = 100


def card_commands() -> list[list[str]]:
    """The card sheets, every imposition option (the games as this checkout's `sheets list` names them)."""
    listed = subprocess.run([sys.executable, "-m", "sheets", "list"], cwd=REPO, capture_output=True, text=True,
                            check=True).stdout
    games, game = [], ""
    for line in listed.splitlines():  # a game's id at the margin, then its kinds indented ("cards (sets)")
        if line[:1].islower():
            game = line.split()[0]
        elif line.strip().startswith("cards (") and game:
            games.append(game)
    out = [["cards", game, "--set", "all", "--backs", "--paper", paper, "-o", f"{game}-{paper}.pdf"]
           for game in games for paper in ("a4", "letter")]
    one = ["cards", "regiment", "--set"]
    return out + [
        [*one, "weapons", "--layout", "poker-a4-gutter", "--backs", "-o", "gutter.pdf"],
        [*one, "vehicles", "--backs", "--duplex", "short", "--back-offset", "1,-0.5", "-o", "short-offset.pdf"],
        [*one, "vehicles", "--fold", "-o", "fold.pdf"],
        [*one, "weapons", "--copies", "2", "--paper", "letter", "--no-crop-marks", "-o", "copies.pdf"],
        [*one, "vehicles", "--export", "pdf", "--backs", "-o", "export"],
        [*one, "vehicles", "--shop", "drivethrucards", "-o", "shop"],
    ]


def commands(quick: bool) -> list[list[str]]:
    kit = ["kit", "--seed", "1944", "--game", "regiment"] if quick else ["kit", "--seed", "1944", "--players", "2"]
    count = "10" if quick else "100"
    return [
        [*kit, "-o", "kit-a4"],
        [*kit, "--paper", "letter", "-o", "kit-letter"],
        ["playbook", "--random", "--seed", "3", "--count", count, "-o", "batch.pdf"],
        ["mission", "--count", "5" if quick else "20", "--seed", "12", "-o", "missions.pdf"],
        ["playbook", "operator", "--fillable", "-o", "fillable.pdf"],
    ]


def run(rev: str, work: Path, argvs: list[list[str]]) -> Path:
    """The revision's files, written under `work`."""
    tree = work / "tree"
    subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", str(tree), rev], check=True,
                   capture_output=True)
    out = work / "out"
    out.mkdir()
    env = dict(os.environ, PYTHONPATH=str(tree), SHEETS_CACHE_DIR=str(work / "cache"), COLUMNS="100")
    for argv in argvs:
        done = subprocess.run([sys.executable, "-m", "sheets", *argv], cwd=out, env=env, capture_output=True,
                              stdin=subprocess.DEVNULL, text=True)
        if done.returncode != 0:
            raise SystemExit(f"{rev}: sheets {' '.join(argv)} -> {done.returncode}\n{done.stderr[-2000:]}")
    return out


def _tags(path: Path) -> list[str]:
    """The structure tree's element types, depth first."""
    found: list[str] = []
    with pikepdf.open(path) as pdf:
        root = pdf.Root.get("/StructTreeRoot")
        stack = [root.get("/K")] if root is not None else []
        while stack:
            node = stack.pop()
            if isinstance(node, pikepdf.Array):
                stack.extend(reversed(list(node)))
            elif isinstance(node, pikepdf.Dictionary) and "/S" in node:
                found.append(str(node.S))
                if "/K" in node:
                    stack.append(node.K)
    return found


def differences(a: Path, b: Path) -> list[str]:
    """What differs between two PDFs' pages (empty: the same)."""
    if a.read_bytes() == b.read_bytes():
        return []
    out = []
    with pymupdf.open(a) as da, pymupdf.open(b) as db:
        if len(da) != len(db):
            return [f"{len(da)} pages vs {len(db)}"]
        for n, (pa, pb) in enumerate(zip(da, db), 1):
            if pa.get_text() != pb.get_text():
                out.append(f"page {n}: text differs")
            ia, ib = pa.get_pixmap(dpi=DPI), pb.get_pixmap(dpi=DPI)
            if (ia.width, ia.height) != (ib.width, ib.height) or ia.samples != ib.samples:
                out.append(f"page {n}: pixels differ")
    tags_a, tags_b = _tags(a), _tags(b)
    if tags_a != tags_b:
        out.append(f"structure differs ({len(tags_a)} vs {len(tags_b)} elements)")
    return out


def main(argv: list[str]) -> int:
    argvs = card_commands() if "--cards" in argv else commands("--quick" in argv)
    revs = [a for a in argv if not a.startswith("--")]
    if len(revs) != 2:
        print(__doc__)
        return 2
    with tempfile.TemporaryDirectory(prefix="pixels-") as tmp:
        outs = []
        for i, rev in enumerate(revs):
            work = Path(tmp) / f"rev{i}"
            work.mkdir()
            outs.append(run(rev, work, argvs))
        files_a = {p.relative_to(outs[0]) for p in outs[0].rglob("*.pdf")}
        files_b = {p.relative_to(outs[1]) for p in outs[1].rglob("*.pdf")}
        bad = 0
        same_bytes = pages = 0
        for rel in sorted(files_a | files_b):
            if rel not in files_a or rel not in files_b:
                print(f"{rel}: only in {revs[0] if rel in files_a else revs[1]}")
                bad += 1
                continue
            diff = differences(outs[0] / rel, outs[1] / rel)
            with pymupdf.open(outs[0] / rel) as doc:
                pages += len(doc)
            same = (outs[0] / rel).read_bytes() == (outs[1] / rel).read_bytes()
            same_bytes += same
            print(f"{rel}: {'same bytes' if same else 'same pixels, text, tags' if not diff else '; '.join(diff)}")
            bad += bool(diff)
        for i in range(2):
            subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(Path(tmp) / f"rev{i}" / "tree")],
                           capture_output=True)
        print(f"{len(files_a | files_b)} files, {pages} pages: {same_bytes} byte-equal, {bad} differ "
              f"(pixels at {DPI} dpi, text, structure)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
