"""One scratch folder per command, removed when it ends; a killed command's swept by the next.

WeasyPrint keeps the fonts of a page's @font-face rules in a folder of its own
(`mkdtemp(prefix="weasyprint-")`, in the system's temporary folder), removed only when its
FontConfiguration is collected: a process that exits, or a worker that is made to stop,
left it behind, about 4.6 MB a process (873 of them, 3.9 GB, after one audit). So the
process that runs a command makes `sheets-scratch-PID-…` in the system's temporary folder
and points Python's `tempfile` there (`tempfile.tempdir`, and `TMPDIR` for the workers it
spawns, which find the folder through `SHEETS_SCRATCH` and adopt it): whatever WeasyPrint
or anything else makes with `tempfile` lives in it, and the folder is removed when the
process exits (`atexit`, which a Ctrl-C and SIGTERM reach too: the CLI stops through its
exceptions). A process killed outright (SIGKILL) cannot remove it: the next one to make its
own removes every `sheets-scratch-PID-…` of this user whose process is gone.
"""
from __future__ import annotations

import atexit
import os
import re
import shutil
import tempfile
from pathlib import Path

ENV = "SHEETS_SCRATCH"  # the folder, for the processes this one starts (its workers)
PREFIX = "sheets-scratch-"
_NAME = re.compile(rf"^{PREFIX}(\d+)-")
_mine: Path | None = None


def use() -> Path | None:
    """This process's scratch folder, made (or adopted, in a worker) on the first call; None when
    the system's temporary folder cannot hold one (then tempfile is left as it was)."""
    global _mine
    if _mine is not None and _mine.is_dir():
        return _mine
    given = os.environ.get(ENV)
    if given and Path(given).is_dir() and _NAME.match(Path(given).name):
        _mine = _point_at(Path(given))  # a worker: its parent's folder, which the parent removes
        return _mine
    system = Path(tempfile.gettempdir())
    sweep(system)
    try:
        made = Path(tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-", dir=system))
    except OSError:
        return None
    owner = os.getpid()
    atexit.register(_remove, made, owner)
    _mine = _point_at(made)
    return _mine


def _point_at(folder: Path) -> Path:
    tempfile.tempdir = str(folder)
    os.environ["TMPDIR"] = str(folder)
    os.environ[ENV] = str(folder)
    return folder


def _remove(folder: Path, owner: int) -> None:
    if os.getpid() == owner:  # not in a child that inherited the hook (a fork)
        shutil.rmtree(folder, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process: not ours to judge
    return True


def sweep(system: Path) -> int:
    """Remove the scratch folders in `system` that this user's killed commands left; how many."""
    removed = 0
    try:
        found = list(os.scandir(system))
    except OSError:
        return 0
    for entry in found:
        match = _NAME.match(entry.name)
        if not match or int(match.group(1)) == os.getpid():
            continue
        try:
            if not entry.is_dir(follow_symlinks=False) or entry.stat(follow_symlinks=False).st_uid != os.getuid():
                continue
        except OSError:
            continue
        if not _alive(int(match.group(1))):
            shutil.rmtree(entry.path, ignore_errors=True)
            removed += 1
    return removed
