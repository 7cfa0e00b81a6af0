"""Helpers for the same-bytes tests: fontconfig without the system's fonts, a kit's files, a PDF's fonts."""
from __future__ import annotations

import os
from pathlib import Path

import pypdf

#: fontconfig with no font folder at all: only the fonts the sheets bring can be used
NO_FONTS = """<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig>{dirs}<cachedir>{cache}</cachedir></fontconfig>
"""


def hidden_fonts_env(folder: Path, env: dict | None = None, only: Path | None = None) -> dict:
    """The environment with the system's fonts hidden from fontconfig (and a cache of our own);
    `only`: the one font folder it shows."""
    folder.mkdir(parents=True, exist_ok=True)
    conf = folder / "fonts.conf"
    dirs = f"<dir>{only}</dir>" if only is not None else ""
    conf.write_text(NO_FONTS.format(dirs=dirs, cache=folder / "fc-cache"), encoding="utf-8")
    env = dict(os.environ if env is None else env)
    env["FONTCONFIG_FILE"] = str(conf)
    env.pop("FONTCONFIG_PATH", None)
    return env


def kit_files(folder: Path) -> dict[str, bytes]:
    """Every file a kit wrote, by path (the cache lives elsewhere: nothing else is in the folder)."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def pdf_font_names(path: Path) -> set[str]:
    """The BaseFont of every font a PDF's pages (and their form XObjects) use, subset tag dropped."""
    names = set()
    for page in pypdf.PdfReader(str(path)).pages:
        stack = [page.get("/Resources")]
        while stack:
            res = stack.pop()
            res = res.get_object() if res is not None else {}
            for font in (res.get("/Font") or {}).values():
                names.add(str(font.get_object().get("/BaseFont", "")).split("+")[-1])
            for xo in (res.get("/XObject") or {}).values():
                stack.append(xo.get_object().get("/Resources"))
    return names
