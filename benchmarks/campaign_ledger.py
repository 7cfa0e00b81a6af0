"""How long a long campaign takes to check (not a test): `python benchmarks/campaign_ledger.py [--missions N]`.

Builds a Way of the Warrior campaign of N missions (default 13, a season and more), each
followed by a debrief and a spend or an adjustment, through the same application functions the
CLI calls; then times, best of 3, the commands that replay every entry: `sheets validate`,
`sheets campaign history`, `sheets campaign spend` (load, replay, apply, write, read back) and
`sheets campaign undo`. Every mission entry is rolled again on replay.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from sheets.games.wotw import campaign_io, commands, ledger  # noqa: E402
from sheets.games.wotw.records import Recruit, make_entry  # noqa: E402
from sheets.library.access import game_with_plugin, library  # noqa: E402


def build(path: Path, missions: int) -> int:
    data = game_with_plugin(library(None), "wotw").data
    first = make_entry(do="new", nation="german", theatre="france-1944", team=[
        Recruit(name="Hans Weber", quality="Veteran", weapon="SMG"), Recruit(name="Karl Brandt", quality="Green", weapon="Rifle"),
        Recruit(name="Otto Lenz", quality="Green", weapon="Rifle"), Recruit(name="Willi Haas", quality="Green", weapon="Rifle")])
    state = ledger.apply(None, first, data).campaign
    campaign_io.save(path, state.model_copy(update={"entries": [first]}), data, new=True)
    for n in range(1, missions + 1):
        commands.change(path, make_entry(do="mission", seed=100 + n), data)
        commands.change(path, make_entry(do="debrief", outcome="success", dice=str(n % 6 + 1)), data)
        commands.change(path, make_entry(do="adjust", reason=f"house rule {n}", cp=1) if n % 2 else
                        make_entry(do="spend", recruit=[f"Recruit {n}"], quality="Green", weapon="Rifle"), data)
        c = campaign_io.load(path, data)
        if len(c.living) >= 7:
            commands.change(path, make_entry(do="adjust", reason="sent home", set_state={c.living[-1].name: "killed"}), data)
    return len(campaign_io.load(path, data).entries)


def best(args: list[str], cwd: Path, runs: int = 3, before=None) -> float:
    times = []
    for _ in range(runs):
        if before:
            before()
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "sheets", *args], cwd=cwd, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--missions", type=int, default=13)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        path = folder / "ww.yaml"
        entries = build(path, args.missions)
        size = path.stat().st_size
        print(f"campaign of {args.missions} missions: {entries} entries, {size:,} bytes")
        data = game_with_plugin(library(None), "wotw").data
        entries_ = campaign_io.load(path, data).entries
        replay = []
        for _ in range(3):
            start = time.perf_counter()
            ledger.replay(entries_, data)
            replay.append(time.perf_counter() - start)
        print(f"  replay of every entry, in process  {min(replay):6.2f} s")
        print(f"  sheets --help                      {best(['--help'], folder):6.2f} s  (start-up, for scale)")
        print(f"  sheets validate ww.yaml            {best(['validate', 'ww.yaml'], folder):6.2f} s")
        print(f"  sheets campaign history ww.yaml    {best(['campaign', 'history', 'ww.yaml'], folder):6.2f} s")
        spend = best(['campaign', 'adjust', 'ww.yaml', '--reason', 'bench', '--cp', '1'], folder, runs=1)
        undo = best(['campaign', 'undo', 'ww.yaml'], folder, runs=1)
        print(f"  sheets campaign adjust ... --cp 1  {spend:6.2f} s")
        print(f"  sheets campaign undo ww.yaml       {undo:6.2f} s")


if __name__ == "__main__":
    main()
