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
import tempfile
from pathlib import Path

import orjson

from sheets.base import interrupts
from sheets.base.errors import SheetsError


class OutputError(SheetsError):
    """The output folder or file cannot be written."""


def ensure_dir(folder: Path) -> Path:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot create output folder {folder}: {exc.strerror or exc}") from None
    if not folder.is_dir():
        raise OutputError(f"output folder {folder} is not a folder")
    if not os.access(folder, os.W_OK):
        raise OutputError(f"output folder {folder} is not writable (permission denied)")
    return folder


def write_atomic(path: Path, data: bytes) -> Path:
    """Write `data` to `path` via a temp file + rename; returns the path."""
    path = Path(path)
    ensure_dir(path.parent)
    tmp_name = None
    try:
        with interrupts.held():  # a Ctrl-C waits until the name is known, so that it is removed
            fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp_name, 0o644)
        os.replace(tmp_name, path)
        tmp_name = None
        _fsync_dir(path.parent)
    except OSError as exc:
        raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        if tmp_name and os.path.exists(tmp_name):
            os.unlink(tmp_name)
    return path


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


def write_keeping_previous(path: Path, data: bytes) -> Path:
    """Write a user's file atomically; a different previous version is kept beside it as NAME.bak."""
    path = Path(path)
    if path.exists():
        try:
            old = path.read_bytes()
        except OSError as exc:
            raise OutputError(f"cannot read {path} to keep it: {exc.strerror or exc}") from None
        if old == data:
            return path
        write_atomic(path.with_name(path.name + ".bak"), old)
    return write_atomic(path, data)


def json_text(data) -> str:
    """`data` as JSON indented by two spaces, UTF-8 characters as they are (not escaped).

    The same text as `json.dumps(data, indent=2, ensure_ascii=False)`, made by orjson when
    it is installed (it is a dependency; some 20 times faster on 10,000 mission pre-rolls).
    """
    try:
        return orjson.dumps(data, option=orjson.OPT_INDENT_2).decode("utf-8")
    except TypeError:  # a value orjson does not take (e.g. a non-str key): the standard way
        return json.dumps(data, indent=2, ensure_ascii=False)
