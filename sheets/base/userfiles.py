"""A user's own files: read only when they are files, written by one command at a time.

`read_user_file(path)`: only a regular file is read (a folder, a device such as /dev/zero, a
FIFO or a socket is refused at once, from `os.stat`, before anything is opened; the file is
opened with O_NONBLOCK, so a FIFO swapped in meanwhile cannot block either), and no more
than `limits.MAX_FILE_BYTES` of it. `-` is standard input, read once (a second read in the
same command gets the same bytes) and bounded the same way.

`locked(path)`: an advisory lock (filelock: `flock` on `.NAME.lock` beside the file, removed
when released) held around a command's read-modify-write of a user's file, so that two
commands changing the same file at once run one after the other and neither change is
lost. A command waits up to `limits.MAX_LOCK_WAIT` seconds, then says the file is busy.
Held again by the same thread (a command calling another), it is not taken twice.
"""
from __future__ import annotations

import os
import stat
import sys
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from sheets.base import limits
from sheets.base.errors import SheetsError

STDIN = "-"


class UnreadableFile(SheetsError):
    """A file the user named that the tool will not read; `reason` says why, without the name."""

    def __init__(self, path, reason: str):
        super().__init__(f"{path}: {reason}")
        self.reason = reason


class FileBusy(SheetsError):
    """Another command is changing the file, and went on for longer than a command waits."""


def _kind(mode: int) -> str | None:
    """What a non-regular file is, in the user's words (None: a regular file)."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "is a folder, not a file"
    if stat.S_ISFIFO(mode):
        return "is a named pipe (FIFO), not a file; give a YAML file (or - to read standard input)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "is a device, not a file; give a YAML file"
    if stat.S_ISSOCK(mode):
        return "is a socket, not a file; give a YAML file"
    return "is not a regular file; give a YAML file"


def _too_big(size: int | None) -> str:
    if size is None:
        return f"is more than the {limits.MAX_FILE_BYTES:,} bytes a YAML file may have"
    return f"file is {size:,} bytes, more than the {limits.MAX_FILE_BYTES:,} a YAML file may have"


def _read_bounded(fd: int, limit: int) -> bytes | None:
    """Up to `limit` bytes from `fd`; None when there are more."""
    chunks: list[bytes] = []
    total = 0
    while total <= limit:
        chunk = os.read(fd, min(1 << 20, limit + 1 - total))
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        total += len(chunk)
    return None


_stdin: list[bytes] = []


def _read_stdin(limit: int) -> bytes:
    if not _stdin:
        data = _read_bounded(sys.stdin.fileno(), limit)
        if data is None:
            raise UnreadableFile("standard input", _too_big(None))
        _stdin.append(data)
    return _stdin[0]


def read_user_file(path, *, limit: int = limits.MAX_FILE_BYTES) -> bytes:
    """The bytes of a regular file the user named (or of standard input, `-`), at most `limit`.

    FileNotFoundError when there is none; UnreadableFile for anything else that stops it."""
    if str(path) == STDIN:
        return _read_stdin(limit)
    try:
        kind = _kind(os.stat(path).st_mode)  # before open: opening a FIFO would wait for a writer
        if kind is not None:
            raise UnreadableFile(path, kind)
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        raise
    except NotADirectoryError:
        raise FileNotFoundError(path) from None
    except OSError as exc:
        raise UnreadableFile(path, f"cannot read file ({exc.strerror or exc})") from None
    try:
        opened = os.fstat(fd)
        kind = _kind(opened.st_mode)  # the file opened is the one checked (it may have been swapped)
        if kind is not None:
            raise UnreadableFile(path, kind)
        if opened.st_size > limit:
            raise UnreadableFile(path, _too_big(opened.st_size))
        data = _read_bounded(fd, limit)
    except OSError as exc:
        raise UnreadableFile(path, f"cannot read file ({exc.strerror or exc})") from None
    finally:
        os.close(fd)
    if data is None:
        raise UnreadableFile(path, _too_big(None))
    return data


def readable(paths) -> None:
    """Refuse at once, one line each, the files named that are not files or are too big (a
    missing file is left to the reader, which says so with the other problems)."""
    refused = []
    for path in paths:
        try:
            read_user_file(path)
        except FileNotFoundError:
            continue
        except UnreadableFile as exc:
            refused.append(str(exc))
    if refused:
        raise SheetsError("\n".join(refused))


def through_links(path: Path) -> Path:
    """The file a symbolic link (or a chain of them) leads to; `path` itself when it is none."""
    path = Path(path)
    return Path(os.path.realpath(path)) if path.is_symlink() else path


_held = threading.local()


@contextmanager
def locked(path, *, wait: float | None = None) -> Iterator[None]:
    """Hold the lock of the user's file `path` (its target, if it is a link) for the block."""
    target = Path(os.path.abspath(through_links(Path(path))))
    held: set = getattr(_held, "paths", None) or set()
    _held.paths = held
    if target in held:
        yield
        return
    from filelock import FileLock, Timeout  # noqa: PLC0415 - only a command that writes needs it (not --help)

    wait = limits.MAX_LOCK_WAIT if wait is None else wait
    lock = FileLock(target.with_name(f".{target.name}.lock"), timeout=wait, thread_local=False)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)  # a new file's folder is made by its writer anyway
        lock.acquire()
    except Timeout:
        raise FileBusy(f"{path} is busy: another command has been changing it for {wait:g} s; nothing was "
                       f"written; try again when it is done") from None
    except OSError as exc:
        raise SheetsError(f"cannot lock {path} to change it: {exc.strerror or exc}") from None
    held.add(target)
    try:
        yield
    finally:
        held.discard(target)
        lock.release()


@dataclass(frozen=True)
class Skipped:
    """A name in a content folder that is not a regular file inside it, and why it is not read."""

    path: Path
    why: str

    def __str__(self) -> str:
        return f"{self.path}: {self.why}; skipped (the tool reads only regular files inside the folder)"


def content_files(root: Path) -> tuple[list[Path], list[Skipped]]:
    """The regular files under `root` (sorted; dot files and folders left out) and what was skipped.

    Everything that reads a content folder whole (the up-to-date check, `validate`'s stray-file
    check, the kit's content digest) walks it through here: a FIFO would block its reader forever,
    a link to /dev/zero would feed it without end, and a link out of the folder would make the
    kit depend on a file elsewhere. Links inside the folder are followed; the files are not opened."""
    root = Path(root)
    top = os.path.realpath(root)
    files: list[Path] = []
    skipped: list[Skipped] = []
    for folder, dirs, names in os.walk(root):
        kept_dirs = []
        for d in sorted(dirs):
            if d.startswith(".") or d == "__pycache__":
                continue
            path = Path(folder) / d
            if os.path.islink(path) and not _inside(os.path.realpath(path), top):
                skipped.append(Skipped(path, "a link to a folder outside the content folder"))
                continue
            kept_dirs.append(d)
        dirs[:] = kept_dirs
        for name in sorted(names):
            if name.startswith("."):
                continue
            path = Path(folder) / name
            try:
                mode = os.stat(path).st_mode  # through a link: what it leads to
            except OSError as exc:
                skipped.append(Skipped(path, f"cannot be read ({exc.strerror or exc})"))
                continue
            if os.path.islink(path) and not _inside(os.path.realpath(path), top):
                skipped.append(Skipped(path, "a link to a file outside the content folder"))
            elif not stat.S_ISREG(mode):
                kind = _kind(mode) or "is not a regular file"
                skipped.append(Skipped(path, kind.split(";")[0].replace("is a ", "a ").replace("is not ", "not ")))
            else:
                files.append(path)
    return sorted(files), skipped


def _inside(path: str, top: str) -> bool:
    return path == top or path.startswith(top.rstrip(os.sep) + os.sep)
