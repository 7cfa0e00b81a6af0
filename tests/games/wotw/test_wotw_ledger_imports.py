"""A campaign command that prints nothing (new, debrief, spend, adjust, undo, history, show --json)
loads the content and the file, never Jinja, pypdf, pikepdf or the PDF pipeline: it starts in about
half the time of one that prints (sheets.games.wotw.ledger_commands), and a GM types many of them."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from conftest import REPO

PRINTING = ("jinja2", "pypdf", "pikepdf", "weasyprint", "reportlab", "sheets.pipeline.build", "sheets.games.wotw.sheets")
TEAM = REPO / "content" / "wotw" / "examples" / "german-team.yaml"


def _imported(args: list[str], cwd) -> set[str]:
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "sheets", *args], cwd=cwd, capture_output=True,
                          text=True, env=dict(os.environ), timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}


@pytest.mark.parametrize("args", [
    ["campaign", "new", "ww.yaml", "--nation", "german", "--theatre", "france-1944", "--team", str(TEAM)],
    ["campaign", "history", "old.yaml"],
    ["campaign", "adjust", "old.yaml", "--reason", "found a crate", "--cp", "1"],
    ["campaign", "undo", "old.yaml"],
    ["campaign", "show", "old.yaml", "--json"],
])
def test_a_ledger_command_imports_no_pdf_machinery(tmp_path, args):
    made = subprocess.run([sys.executable, "-m", "sheets", "campaign", "new", "old.yaml", "--nation", "german",
                           "--theatre", "france-1944", "--random", "--seed", "3"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120)
    assert made.returncode == 0, made.stderr
    adjusted = subprocess.run([sys.executable, "-m", "sheets", "campaign", "adjust", "old.yaml", "--reason", "a crate",
                               "--xp", "1"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert adjusted.returncode == 0, adjusted.stderr  # something to undo
    imported = _imported(args, tmp_path)
    assert "sheets.games.wotw.ledger_commands" in imported  # it did run the command
    assert sorted(m for m in PRINTING if m in imported) == []


def test_a_campaign_mission_still_prints_its_log_sheet(tmp_path):
    made = subprocess.run([sys.executable, "-m", "sheets", "campaign", "new", "ww.yaml", "--nation", "german",
                           "--theatre", "france-1944", "--random", "--seed", "3"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120)
    assert made.returncode == 0, made.stderr
    imported = _imported(["campaign", "mission", "ww.yaml", "--seed", "4", "-o", "m.pdf"], tmp_path)
    assert {"sheets.pipeline.build", "pikepdf"} <= imported and (tmp_path / "m.pdf").stat().st_size > 10_000
