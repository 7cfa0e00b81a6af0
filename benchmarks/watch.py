"""`sheets watch`'s figures (issue 49), in one warm process as the watch runs them: the guide's loop
(`sheets watch cards:GAME reference:GAME`) on a game `sheets new game` made, each edit of its
reference.yaml timed from the save to the end of the rebuild it causes (the reference only: the
cards do not read it), the first edit after the start apart; and one target (`cards:GAME:SET`) on
an edit of its set. Prints JSON: the p90 and the median of each, and the first edit."""
from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

EDITS = 10


def _p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]


def _timed(targets: list[str], edited: Path, root: Path, out: Path) -> list[float]:
    """Each edit's time, save to rebuilt, over EDITS edits (the first is the first after the start)."""
    from sheets.app import watch  # noqa: PLC0415 - after the game is made, as the command imports it
    from sheets.base.options import PrintOptions  # noqa: PLC0415

    took: list[float] = []

    def changes():
        for n in range(EDITS):
            edited.write_text(edited.read_text(encoding="utf-8") + f"# edit {n}\n", encoding="utf-8")
            start = time.perf_counter()
            yield {edited}
            took.append(time.perf_counter() - start)  # resumed once the batch's rebuilds are done

    watch.run([watch.parse_target(t) for t in targets], changes(),
              PrintOptions(paper="a4", output=out, content=root), echo=lambda _: None)
    return took


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="sheets-bench-watch-") as scratch:
        root = Path(scratch) / "my-content"
        subprocess.run([sys.executable, "-m", "sheets", "new", "game", "brew", "--content", str(root)],
                       check=True, capture_output=True)
        game = root / "brew"
        loop = _timed(["cards:brew", "reference:brew"], game / "reference.yaml", root, Path(scratch) / "loop")
        card_set = sorted((game / "cards").glob("*.yaml"))[0]
        one = _timed([f"cards:brew:{card_set.stem}"], card_set, root, Path(scratch) / "one")
    print(json.dumps({"loop_first_s": loop[0], "loop_p90_s": _p90(loop[1:]), "loop_median_s": statistics.median(loop[1:]),
                      "one_p90_s": _p90(one[1:]), "one_median_s": statistics.median(one[1:])}))


if __name__ == "__main__":
    main()
