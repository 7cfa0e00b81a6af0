"""Any file the user names (issue 37): only regular files are read, at once and bounded; what
cannot be read as text is said with its line and column; a number too long to read is said in
the project's words."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from sheets.base import limits
from sheets.base.errors import ContentError
from sheets.library.yaml_source import load_yaml, parse_yaml


def _sheets(args: list[str], tmp_path, **how) -> subprocess.CompletedProcess:
    """`sheets ARGS` in a process of its own. How soon it ends is not measured (speed is `make bench`'s):
    what each test asserts shows that the file was refused before it was read or waited on, and
    the timeout only keeps a process that does wait (a FIFO opened with no writer never returns)
    from hanging the run; it raises, so the test fails."""
    return subprocess.run([sys.executable, "-m", "sheets", *args], capture_output=True, timeout=60, cwd=tmp_path,
                          env=dict(os.environ, SHEETS_CACHE_DIR=str(tmp_path / "cache")), **how)


def _one_line(result) -> str:
    err = result.stderr.decode()
    assert result.returncode == 1, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    return err.strip()


def test_dev_zero_is_refused_at_once_in_one_line(tmp_path):
    result = _sheets(["validate", "/dev/zero"], tmp_path)
    # said of the device itself, not of its size: refused before a byte of it was read
    assert _one_line(result) == "error: /dev/zero: is a device, not a file; give a YAML file"


def test_a_fifo_is_refused_at_once_not_waited_on(tmp_path):
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    result = _sheets(["validate", "pipe.yaml"], tmp_path)  # nothing ever writes to it: opened, it would block
    assert _one_line(result) == ("error: pipe.yaml: is a named pipe (FIFO), not a file; give a YAML file "
                                 "(or - to read standard input)")


def test_five_megabytes_on_stdin_are_refused_at_once(tmp_path):
    result = _sheets(["validate", "-"], tmp_path, input=b"a" * 5_000_000)
    # refused for its size, not parsed: no YAML error about five million a's
    assert _one_line(result) == (f"error: standard input: is more than the {limits.MAX_FILE_BYTES:,} bytes a "
                                 f"YAML file may have")


def test_a_folder_is_refused_in_one_line(cli, tmp_path):
    (tmp_path / "folder.yaml").mkdir()
    result = cli("validate", "folder.yaml")
    assert result.exit_code == 1 and result.stderr.strip() == "error: folder.yaml: is a folder, not a file"


def test_a_campaign_on_stdin_is_validated(cli, tmp_path, monkeypatch):
    from sheets.base import userfiles

    monkeypatch.setattr(userfiles, "_stdin", [b"kind: campaign\ngame: wotw\n"])
    result = cli("validate", "-")
    assert result.exit_code == 1 and "standard input:" in result.stderr


def _refusal(tmp_path, data: bytes) -> str:
    path = tmp_path / "odd.yaml"
    path.write_bytes(data)
    with pytest.raises(ContentError) as caught:
        load_yaml(path, "odd.yaml")
    assert len(caught.value.problems) == 1
    return str(caught.value.problems[0])


@pytest.mark.unit
def test_a_latin_1_file_is_located_by_line_and_column(tmp_path):
    said = _refusal(tmp_path, "game: wotw\nname: Caf\u00e9 Ren\u00e9\n".encode("latin-1"))
    assert said == ("odd.yaml:2: column 10: byte 0xE9 is not UTF-8 text (a file saved as Latin-1 or "
                    "Windows-1252?); save the file as UTF-8")


@pytest.mark.unit
def test_a_nul_byte_is_located_by_line_and_column(tmp_path):
    said = _refusal(tmp_path, b"game: wotw\nkind: camp\x00aign\n")
    assert said == "odd.yaml:2: column 11: a NUL character (\\0) is not allowed in a YAML file (is it a text file?)"
    said = _refusal(tmp_path, b"a: 1\nb: \x07\n")
    assert said.startswith("odd.yaml:2: column 4: the control character U+0007 is not allowed")


@pytest.mark.unit
def test_a_5000_digit_number_gets_the_projects_own_message(tmp_path):
    said = _refusal(tmp_path, b"game: wotw\ncp: " + b"7" * 5000 + b"\n")
    assert said == ("odd.yaml:2: column 5: a number of 5,000 digits; numbers are at most 1,000,000,000,000 "
                    "(quote it if it is text)")
    assert "sys.set_int_max_str_digits" not in said
    assert parse_yaml("name: '" + "7" * 5000 + "'\n", "q.yaml").data["name"] == "7" * 5000  # quoted: text
