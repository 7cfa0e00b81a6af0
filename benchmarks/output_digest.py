"""Run every README example with fixed dice and print a sha256 of each file and stdout.

A refactor that must not change behaviour (issue 17) is checked by running this before and
after and diffing the two listings:

    .venv/bin/python benchmarks/output_digest.py > before.txt
    ... change ...
    .venv/bin/python benchmarks/output_digest.py > after.txt && diff before.txt after.txt
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHEETS = str(Path(sys.executable).parent / "sheets")
TEAM = REPO / "content/wotw/examples/german-team.yaml"
WALTER = REPO / "content/regiment/characters/walter-brzezinski.yaml"

COMMANDS = [
    ["list"], ["layouts"], ["validate"], ["--help"],
    ["kit", "--seed", "1944", "--players", "4", "--preview", "--no-cache", "-o", "kit"],
    ["kit", "--seed", "7", "--game", "wotw", "--paper", "letter", "--ink-saver", "-o", "kit-wotw"],
    ["playbook", "medic", "-o", "medic.pdf"],
    ["playbook", "operator", "--fillable", "-o", "operator.pdf"],
    ["playbook", "medic", "--random", "--seed", "7", "--count", "4", "-o", "medics.pdf"],
    ["playbook", "--random", "--seed", "3", "--count", "4", "--save", "squad", "-o", "four.pdf"],
    ["playbook", "sniper", "--dice", "2,1,10,20,1,1,2,1", "-o", "dice.pdf"],
    ["playbook", "sniper", "--character", str(WALTER), "-o", "walter.pdf", "--preview"],
    ["playbook", "--character", str(WALTER), "--json"],
    ["squad", "squad/squad.yaml", "-o", "squad.pdf"],
    ["reference", "regiment", "--paper", "letter", "-o", "ref.pdf"],
    ["cards", "regiment", "--set", "weapons", "--backs", "--back-offset", "1,-0.5", "-o", "weapons.pdf"],
    ["cards", "masscombat", "--fold", "--copies", "2", "-o", "mutant-cards.pdf"],
    ["cards", "calibrate", "-o", "calibrate.pdf"],
    ["trackers", "regiment", "--teams", "12", "--names", "--seed", "3", "-o", "trackers.pdf"],
    ["tokens", "downrange", "--copies", "2", "-o", "tokens.pdf"],
    ["gauges", "downrange", "-o", "gauges.pdf"],
    ["mission", "--theatre", "russia-1943", "--dice", "2,1,6,2,4,1,1,1,1,1,1", "-o", "worked.pdf"],
    ["mission", "--theatre", "sicily-1943", "--nation", "us", "--beachhead", "--engineers",
     "--strike-step", "3", "--seed", "5", "-o", "sicily.pdf"],
    ["mission", "--count", "5", "--seed", "12", "-o", "five.pdf"],
    ["mission", "--nation", "german", "--team", str(TEAM), "--seed", "4", "-o", "team.pdf"],
    ["mission", "--seed", "12", "--json"],
    ["campaign", "new", "ww.yaml", "--nation", "german", "--theatre", "france-1944", "--team", str(TEAM)],
    ["campaign", "mission", "ww.yaml", "--seed", "11", "-o", "m1.pdf"],
    ["campaign", "debrief", "ww.yaml", "--outcome", "success", "--wounded", "Otto Lenz", "--dice", "5"],
    ["campaign", "spend", "ww.yaml", "--promote", "Otto Lenz"],
    ["campaign", "spend", "ww.yaml", "--skill", "Hans Weber=Grenadier"],
    ["campaign", "spend", "ww.yaml", "--recruit", "Paul Roth", "--quality", "Green", "--weapon", "SMG"],
    ["campaign", "mission", "ww.yaml", "--seed", "12", "-o", "m2.pdf"],
    ["campaign", "debrief", "ww.yaml", "--outcome", "aborted", "--killed", "Willi Haas"],
    ["campaign", "spend", "ww.yaml", "--promote", "Karl Brandt"],
    ["campaign", "show", "ww.yaml", "-o", "record.pdf"],
    ["campaign", "show", "ww.yaml", "--json"],
]


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def main() -> int:
    work = Path(tempfile.mkdtemp(prefix="digest-"))
    env = dict(os.environ, COLUMNS="100", NO_COLOR="1", TERM="dumb")
    try:
        for argv in COMMANDS:
            run = subprocess.run([SHEETS, *argv], cwd=work, env=env, capture_output=True, stdin=subprocess.DEVNULL)
            out = run.stdout.replace(str(work).encode(), b"<work>").replace(str(REPO).encode(), b"<repo>")
            err = run.stderr.replace(str(work).encode(), b"<work>").replace(str(REPO).encode(), b"<repo>")
            print(f"$ sheets {' '.join(a.replace(str(REPO), '<repo>') for a in argv)}  -> exit {run.returncode} "
                  f"stdout {digest(out)} stderr {digest(err)}")
        for path in sorted(p for p in work.rglob("*") if p.is_file() and ".cache" not in p.parts):
            print(f"{digest(path.read_bytes())}  {path.relative_to(work)}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
