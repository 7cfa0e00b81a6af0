"""Writing results: atomic files in the output folder.

A file (a PDF, or a user's character or campaign file) is written to a
temporary file beside its target, flushed to disk (fsync), and renamed into
place; then the folder itself is flushed, so the rename survives a power cut.
A failure, Ctrl-C or SIGTERM removes the temporary file; even SIGKILL at any
moment leaves the target either complete in its old version or complete in its
new one, never half-written.
"""
from __future__ import annotations

import json
import os
import shutil
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

import orjson

from sheets.base import interrupts
from sheets.base.errors import SheetsError, os_meaning, shown_path
from sheets.base.userfiles import UnreadableFile, locked, read_user_file, through_links  # noqa: F401 - the user's files


class OutputError(SheetsError):
    """The output folder or file cannot be written."""


def ensure_dir(folder: Path) -> Path:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot create output folder {shown_path(folder)}: {os_meaning(exc)}") from None
    if not folder.is_dir():
        raise OutputError(f"output folder {folder} is not a folder")
    if not os.access(folder, os.W_OK):
        raise OutputError(f"output folder {folder} is not writable (permission denied)")
    return folder


def write_atomic(path: Path, data: bytes, *, like: os.stat_result | None = None) -> Path:
    """Write `data` to `path` via a temp file + rename; returns the path.

    `like`: the file it replaces, whose mode and owner the new file keeps (else mode 644). A symbolic
    link is written through: its target is replaced, the link stays (`-o` naming a link into a
    synced folder keeps it); the path returned is the one given."""
    with atomic_file(path, like=like) as handle:
        handle.write(data)
    return Path(path)


@contextmanager
def atomic_file(path: Path, *, like: os.stat_result | None = None) -> Iterator[BinaryIO]:
    """`write_atomic` for a writer that streams (a zip of a game folder): the handle of a temporary
    file beside `path`, renamed into place when the block ends; if the block raises (or is
    interrupted), the temporary file is removed and `path` is as it was."""
    path = through_links(Path(path))
    ensure_dir(path.parent)
    tmp_name = None
    try:
        sweep_stale(path.parent, f".{path.name}.")  # a killed writer's temporary file of this name
        with interrupts.held():  # a Ctrl-C waits until the name is known, so that it is removed
            fd, tmp_name = tempfile.mkstemp(prefix=scratch_prefix(f".{path.name}."), suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "wb") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp_name, stat.S_IMODE(like.st_mode) if like is not None else 0o644)
        if like is not None and (like.st_uid, like.st_gid) != (os.getuid(), os.getgid()):
            try:
                os.chown(tmp_name, like.st_uid, like.st_gid)
            except OSError:
                pass  # only its owner's group, or root, may give it back; it stays the writer's
        os.replace(tmp_name, path)
        tmp_name = None
        _fsync_dir(path.parent)
    except OSError as exc:
        raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        if tmp_name and os.path.exists(tmp_name):
            os.unlink(tmp_name)


def scratch_prefix(prefix: str) -> str:
    """A scratch file's or folder's name begins with its maker's process id (`sweep_stale`)."""
    return f"{prefix}{os.getpid()}-"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # someone else's process: alive
    return True


def sweep_stale(folder: Path, prefix: str) -> None:
    """Remove the scratch files and folders named `prefix` + PID + ... whose process is gone: what
    a SIGKILL (which nothing can clean up after) left of an earlier run. Another command's
    scratch, still running, is left alone."""
    try:
        names = [n for n in os.listdir(folder) if n.startswith(prefix)]
    except OSError:
        return
    for name in names:
        pid = name[len(prefix):].split("-", 1)[0]
        if not pid.isdigit() or int(pid) == os.getpid() or _alive(int(pid)):
            continue
        found = Path(folder) / name
        if found.is_dir() and not found.is_symlink():
            shutil.rmtree(found, ignore_errors=True)
        else:
            try:
                found.unlink()
            except OSError:
                pass


def _fsync_dir(folder: Path) -> None:
    """Make a rename in `folder` durable (not every platform or file system can)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def resolve_target(output: Path | None, default_dir: Path, default_name: str) -> Path:
    """-o FILE.pdf, -o DIR/, or the default folder + name."""
    if output is None:
        return default_dir / default_name
    output = Path(output)
    if output.is_dir() or str(output).endswith(os.sep):
        return output / default_name
    if output.suffix.lower() not in (".pdf", ".json"):
        raise OutputError(f"-o {output}: give a file ending in .pdf or an existing folder")
    return output


def with_line_endings_of(old: bytes, data: bytes) -> bytes:
    """`data` (a text) with the line endings `old` has: CRLF when most of old's lines end so (a file
    written on Windows), else LF. A command's new lines (an entry, a key) then end as the lines the
    user's editor wrote, and the file stays one convention, not a mix."""
    crlf = old.count(b"\r\n")
    lf = data.replace(b"\r\n", b"\n")
    return lf.replace(b"\n", b"\r\n") if crlf and crlf >= old.count(b"\n") - crlf else lf


def write_keeping_previous(path: Path, data: bytes) -> Path:
    """Write a user's file (a text) atomically; a different previous version is kept beside it as NAME.bak.

    The file keeps its mode and owner (and so does NAME.bak: the same eyes may read it) and its
    line endings (`with_line_endings_of`: CRLF stays CRLF); a read-only file is refused, not
    replaced; a symbolic link is written through: its target changes (NAME.bak beside the
    target) and the link stays a link. Returns `path`."""
    path = Path(path)
    target = through_links(path)
    try:
        was = os.stat(target)
    except FileNotFoundError:
        was = None
    except OSError as exc:
        raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from None
    if was is not None:
        if not stat.S_ISREG(was.st_mode):
            raise OutputError(f"cannot write {path}: it is not a regular file; nothing was written")
        if not was.st_mode & 0o222 or not os.access(target, os.W_OK):
            raise OutputError(f"{path} is read-only (mode {stat.filemode(was.st_mode)}); nothing was written: "
                              f"make it writable (chmod u+w {path}) to change it")
        try:
            old = target.read_bytes()
        except OSError as exc:
            raise OutputError(f"cannot read {path} to keep it: {exc.strerror or exc}") from None
        data = with_line_endings_of(old, data)
        if old == data:
            return path
        write_atomic(target.with_name(target.name + ".bak"), old, like=was)
    write_atomic(target, data, like=was)
    return path


def json_text(data) -> str:
    """`data` as JSON indented by two spaces, UTF-8 characters as they are (not escaped).

    The same text as `json.dumps(data, indent=2, ensure_ascii=False)`, made by orjson when
    it is installed (it is a dependency; some 20 times faster on 10,000 mission pre-rolls).
    """
    try:
        return orjson.dumps(data, option=orjson.OPT_INDENT_2).decode("utf-8")
    except TypeError:  # a value orjson does not take (e.g. a non-str key): the standard way
        return json.dumps(data, indent=2, ensure_ascii=False)
