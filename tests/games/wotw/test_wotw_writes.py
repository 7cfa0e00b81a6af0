"""Writes that never lose (issue 37): one writer at a time, the user's comments and key order
kept (in the .bak too), the file's mode kept, a symlink written through, a read-only file
refused, no scratch folder left by a killed run."""
from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

import pytest
import yaml
from filelock import FileLock
from wotwfixtures import TEAM

from sheets.base import limits, output
from sheets.games.wotw import campaign_io


@pytest.fixture
def campaign(cli, tmp_path):
    (tmp_path / "team.yaml").write_text(TEAM, encoding="utf-8")
    assert cli("campaign", "new", "ww.yaml", "--nation", "german", "--theatre", "france-1944",
               "--team", "team.yaml").exit_code == 0
    return tmp_path / "ww.yaml"


def _entries(path) -> list[dict]:
    return yaml.safe_load(path.read_text(encoding="utf-8"))["entries"]


def _both_kept(paths) -> None:
    for path in paths:
        state = yaml.safe_load(path.read_text(encoding="utf-8"))
        reasons = sorted(e.get("reason", "") for e in state["entries"] if e["do"] == "adjust")
        assert reasons == ["first", "second"], path
        assert (state["cp"], state["xp"]) == (2, 3), path
        assert not list(path.parent.glob(f".{path.name}.*.tmp"))


def _copies(campaign, tmp_path, n: int) -> list:
    files = []
    for i in range(n):
        path = tmp_path / f"race-{i}.yaml"
        path.write_bytes(campaign.read_bytes())
        files.append(path)
    return files


def _adjust_in_a_child(path, reason: str, flag: str, go: int) -> int:
    """Fork a process that waits for `go` to be readable, then runs `campaign adjust` (its
    content already loaded: the race is between the two writes, not two starts)."""
    pid = os.fork()
    if pid:
        return pid
    code = 1
    try:
        os.read(go, 1)
        from sheets.games.wotw.commands import campaign_adjust
        campaign_adjust(path, reason, **{flag: 2 if flag == "cp_delta" else 3})
        code = 0
    finally:
        os._exit(code)


def test_two_writers_at_once_lose_nothing_in_20_trials(campaign, tmp_path, library):
    """Two processes adjusting one file at the same moment: both succeed, and both entries and
    both changes are in the file, every time (before the lock, one was lost in half the trials)."""
    from sheets.games.wotw.commands import _wotw
    _wotw(None)  # the content loaded once, before the forks
    files = _copies(campaign, tmp_path, 20)
    for path in files:
        go, start = os.pipe()
        pids = [_adjust_in_a_child(path, "first", "cp_delta", go), _adjust_in_a_child(path, "second", "xp_delta", go)]
        os.write(start, b"GO")  # both wake at once
        codes = [os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) for pid in pids]
        os.close(go), os.close(start)
        assert codes == [0, 0], path
    _both_kept(files)


@pytest.mark.slow
def test_two_sheets_campaign_adjust_processes_at_once_lose_nothing_in_20_trials(campaign, tmp_path):
    """The same race between two whole `sheets campaign adjust` commands (a minute or two on a busy
    machine: the default run races forked writers above)."""
    files = _copies(campaign, tmp_path, 20)
    env = dict(os.environ, SHEETS_CACHE_DIR=str(tmp_path / "cache"))
    cmd = [sys.executable, "-m", "sheets", "campaign", "adjust"]
    for batch in range(0, 20, 5):  # five trials at a time: ten processes, each pair on its own file
        procs = []
        for path in files[batch:batch + 5]:
            for reason, flag, n in (("first", "--cp", "2"), ("second", "--xp", "3")):
                procs.append((path, subprocess.Popen([*cmd, str(path), "--reason", reason, flag, n], env=env,
                                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)))
        for path, proc in procs:
            _, err = proc.communicate(timeout=300)
            assert proc.returncode == 0, (path, err.decode())
    _both_kept(files)


def test_a_second_writer_waits_then_says_the_file_is_busy(cli, campaign, monkeypatch):
    monkeypatch.setattr(limits, "MAX_LOCK_WAIT", 0.3)
    before = campaign.read_bytes()
    with output.locked(campaign.parent / "elsewhere.yaml"):  # another file's lock stops nothing
        assert cli("campaign", "adjust", "ww.yaml", "--reason", "free", "--cp", "1").exit_code == 0
    before = campaign.read_bytes()
    holder = FileLock(campaign.parent / ".ww.yaml.lock")
    holder.acquire()
    try:
        result = cli("campaign", "adjust", "ww.yaml", "--reason", "blocked", "--cp", "1")
    finally:
        holder.release()
    assert result.exit_code == 1
    assert result.stderr.strip() == ("error: ww.yaml is busy: another command has been changing it for 0.3 s; "
                                     "nothing was written; try again when it is done")
    assert campaign.read_bytes() == before


def test_a_writer_that_waits_gets_its_turn(cli, campaign, monkeypatch):
    holder = FileLock(campaign.parent / ".ww.yaml.lock", thread_local=False)
    holder.acquire()
    threading.Timer(0.4, holder.release).start()
    started = time.monotonic()
    assert cli("campaign", "adjust", "ww.yaml", "--reason", "patient", "--cp", "1").exit_code == 0
    assert time.monotonic() - started >= 0.35
    assert _entries(campaign)[-1] == {"do": "adjust", "reason": "patient", "cp": 1}


def test_comments_and_key_order_survive_every_write_and_the_bak(cli, campaign):
    text = campaign.read_text(encoding="utf-8")
    text = text.replace("\nentries:\n", "\n# Our table: Hans is the player's own man.\nentries:\n")
    text = text.replace("cp: 0\n", "cp: 0  # saving for a Veteran\n")
    text = text.replace("game: wotw\nkind: campaign\n", "kind: campaign\ngame: wotw  # moved by hand\n")
    campaign.write_text(text, encoding="utf-8")
    assert cli("validate", "ww.yaml").exit_code == 0
    assert cli("campaign", "adjust", "ww.yaml", "--reason", "found a crate", "--cp", "2").exit_code == 0
    assert cli("campaign", "adjust", "ww.yaml", "--reason", "a good day", "--xp", "1").exit_code == 0
    for path in (campaign, campaign.with_name("ww.yaml.bak")):
        now = path.read_text(encoding="utf-8")
        lines = now.splitlines()
        at = lines.index("entries:")
        assert lines[at - 1] == "# Our table: Hans is the player's own man.", path
        assert "kind: campaign\ngame: wotw  # moved by hand\n" in now, path
        assert "  # saving for a Veteran\n" in now, path
        assert now.startswith("# The Way of the Warrior campaign (warsheets)"), path
    assert "cp: 2  # saving for a Veteran\n" in campaign.read_text(encoding="utf-8")
    assert [e.get("reason") for e in _entries(campaign)[1:]] == ["found a crate", "a good day"]
    assert cli("validate", "ww.yaml").exit_code == 0
    # undo gives back the bytes of the version before the last change, comments and all
    bak = campaign.with_name("ww.yaml.bak").read_bytes()
    assert cli("campaign", "undo", "ww.yaml").exit_code == 0
    assert campaign.read_bytes() == bak


def test_a_file_without_user_text_is_written_as_before(cli, campaign, library):
    """No comments of the user's: the file is exactly the dumper's text (the carried-over text of
    a file the tool wrote is the same bytes)."""
    assert cli("campaign", "adjust", "ww.yaml", "--reason", "found", "--cp", "2").exit_code == 0
    state = campaign_io.load(campaign, library.game("wotw").data)
    assert campaign.read_text(encoding="utf-8") == campaign_io.dump(state, "ww.yaml")


def test_mode_600_stays_600_and_the_bak_keeps_it(cli, campaign):
    campaign.chmod(0o600)
    for n in range(2):
        assert cli("campaign", "adjust", "ww.yaml", "--reason", f"r{n}", "--cp", "1").exit_code == 0
        assert oct(campaign.stat().st_mode & 0o777) == oct(0o600)
        assert oct(campaign.with_name("ww.yaml.bak").stat().st_mode & 0o777) == oct(0o600)


@pytest.mark.skipif(os.geteuid() != 0, reason="only root may give a file to another owner")
def test_the_owner_stays_the_owner(cli, campaign):
    os.chown(campaign, 1, 1)
    assert cli("campaign", "adjust", "ww.yaml", "--reason", "r", "--cp", "1").exit_code == 0
    assert (campaign.stat().st_uid, campaign.stat().st_gid) == (1, 1)


def test_a_new_campaign_in_a_new_folder_is_made_with_its_folder(cli, campaign):
    assert cli("campaign", "new", "far/away/ww.yaml", "--nation", "german", "--theatre", "france-1944",
               "--team", "team.yaml").exit_code == 0
    assert (campaign.parent / "far/away/ww.yaml").is_file()


def test_a_symlinked_campaign_file_stays_a_link_to_its_target(cli, campaign, tmp_path):
    keep = tmp_path / "kept"
    keep.mkdir()
    target = keep / "real.yaml"
    campaign.rename(target)
    campaign.symlink_to(os.path.relpath(target, campaign.parent))
    for n in range(2):
        assert cli("campaign", "adjust", "ww.yaml", "--reason", f"r{n}", "--cp", "1").exit_code == 0
        assert campaign.is_symlink() and campaign.resolve() == target.resolve()
    assert [e.get("reason") for e in _entries(target)[1:]] == ["r0", "r1"]
    assert (keep / "real.yaml.bak").is_file()
    assert not (tmp_path / "ww.yaml.bak").exists()


def test_a_read_only_file_is_refused_and_left_as_it_is(cli, campaign):
    before = campaign.read_bytes()
    campaign.chmod(0o444)
    result = cli("campaign", "adjust", "ww.yaml", "--reason", "no", "--cp", "1")
    assert result.exit_code == 1
    assert result.stderr.strip() == ("error: ww.yaml is read-only (mode -r--r--r--); nothing was written: "
                                     "make it writable (chmod u+w ww.yaml) to change it")
    assert campaign.read_bytes() == before and not campaign.with_name("ww.yaml.bak").exists()


def test_a_killed_runs_scratch_folders_are_swept_by_the_next(tmp_path):
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    stale = tmp_path / output.scratch_prefix(".stamping-").replace(str(os.getpid()), str(dead.pid))
    stale = stale.with_name(stale.name + "abc")
    stale.mkdir()
    (stale / "half.pdf").write_bytes(b"%PDF-")
    alive = tmp_path / f".stamping-{os.getppid()}-xyz"  # a process still running: its scratch stays
    alive.mkdir()
    tmp = tmp_path / f".out.pdf.{dead.pid}-q1.tmp"
    tmp.write_bytes(b"half")
    output.sweep_stale(tmp_path, ".stamping-")
    output.write_atomic(tmp_path / "out.pdf", b"%PDF-whole")
    assert not stale.exists() and alive.is_dir() and not tmp.exists()
    assert (tmp_path / "out.pdf").read_bytes() == b"%PDF-whole"
