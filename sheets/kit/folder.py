"""The kit folder holds one kit: what the previous build wrote there and this one did not is removed.

A GM prints "the parts beside kit.pdf": after `sheets kit --game GAME` in a folder that held the
whole kit, the other games' PDFs must not be there to print. The previous build's manifest.json
says what it wrote (its parts, packets and previews, each with its sha256); a file is removed
only when it is in that list, is a plain file inside the folder, is not written again by this
build, and still has the bytes that build wrote. A file the tool did not write, or one the user
has changed since, is never removed.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

MANIFEST = "manifest.json"


def previous_files(out_dir: Path) -> dict[str, str]:
    """What the previous build recorded in the folder: relative path -> sha256 (empty when none)."""
    try:
        data = json.loads((Path(out_dir) / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    recorded: dict[str, str] = {}
    if not isinstance(data, dict):
        return {}
    for entry in [*data.get("files", []), *data.get("previews", [])]:
        if isinstance(entry, dict) and isinstance(entry.get("path"), str) and isinstance(entry.get("sha256"), str):
            recorded[entry["path"]] = entry["sha256"]
    return recorded


def remove_stale(out_dir: Path, previous: dict[str, str], written: list[Path]) -> list[Path]:
    """Remove what the previous build wrote and this one did not (see the module's docstring)."""
    root = Path(out_dir).resolve()
    kept = {Path(p).resolve() for p in written}
    removed = []
    for rel, digest in sorted(previous.items()):
        path = (root / rel).resolve()
        if path in kept or not path.is_relative_to(root) or path == root / MANIFEST:
            continue
        if path.is_symlink() or not path.is_file():
            continue
        if hashlib.sha256(path.read_bytes()).hexdigest() != digest:
            continue  # changed since the tool wrote it: the user's now
        path.unlink()
        removed.append(path)
        parent = path.parent
        if parent != root and parent.is_relative_to(root) and not any(parent.iterdir()):
            parent.rmdir()  # preview/ emptied
    return removed
