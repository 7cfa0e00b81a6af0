"""The README's examples are a test: every line of its shell blocks (```sh, ```console: `sheets`
commands and the shell lines between them, `cp`, `mkdir`, `cd` ..., a `cd` carried over to the
lines after it) and every `sheets` command of its tables runs as written, in the README's order,
in bash from the root of a fresh clone after `make kit`, with the venv's bin first on PATH, a
config folder of its own and a copy of the run's cache (the whole kit's blanks in it); each exits 0.

The exceptions: `serve` and `watch` (they run until stopped), `--install-completion` (it edits
the user's shell), installing (`pipx install`) and `make` (the venv and the suite: this test runs
inside them; `make kit` is the `sheets kit` run first). A command the README shows refused (the
output line under it starts with `error:`) must be refused: exit 1. The other lines a code block
shows under a `$ ...` command are what it prints: each must be in its output.
"""
from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from conftest import REPO

SKIPPED = ("sheets serve", "sheets watch", "--install-completion", "pipx install", "make ")
SHELL_BLOCKS = ("sh", "bash", "shell", "console")
CELL_SPLIT = re.compile(r"(?<!\\)\|")


@dataclass
class Example:
    line: int
    command: str  # as bash runs it: its words, shell-quoted again, the comment dropped
    shown: list[str] = field(default_factory=list)  # what the README says it prints

    @property
    def refused(self) -> bool:
        return bool(self.shown) and self.shown[0].startswith("error:")


def readme_examples(text: str) -> list[Example]:
    found: list[Example] = []
    fence = None
    last: Example | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped.startswith("```"):
            fence = None if fence else stripped[3:] or "text"
            last = None
            continue
        if fence in SHELL_BLOCKS:
            console = fence == "console"
            if console and not stripped.startswith("$ "):
                if last is not None and stripped:
                    last.shown.append(stripped)  # what the command above prints
                continue
            words = shlex.split(stripped[2:] if console else stripped, comments=True)
            if words:  # a comment line or an empty one runs nothing
                last = Example(number, shlex.join(words))
                found.append(last)
            continue
        if fence:
            continue  # toml, yaml: files, not commands
        if line.startswith("| `sheets"):
            cells = [c.strip() for c in CELL_SPLIT.split(line)[1:-1]]
            for command in re.findall(r"`(sheets [^`]*)`", cells[-1]):
                found.append(Example(number, command.replace("\\|", "|")))
    return [e for e in found if not any(skip in e.command for skip in SKIPPED)]


def test_the_reader_finds_table_cells_code_blocks_and_what_they_print():
    text = ("| `sheets a` | what | `sheets a --x 1\\|2`; `sheets a b` |\n"
            "```console\n$ sheets c \"Otto Lenz\"  # a comment\nsaid this\n$ sheets d\nerror: no\n```\n"
            "```sh\nsheets e --y   # plain\n# a comment\ncp -r content mine\ncd mine/\nsheets serve\n```\n"
            "```toml\npaper = \"letter\"\n```\n```yaml\nsheets: no\n```\n")
    examples = readme_examples(text)
    assert [(e.command, e.shown) for e in examples] == [
        ("sheets a --x 1|2", []), ("sheets a b", []), ("sheets c 'Otto Lenz'", ["said this"]),
        ("sheets d", ["error: no"]), ("sheets e --y", []), ("cp -r content mine", []), ("cd mine/", [])]
    assert examples[3].refused and not examples[2].refused


def _fresh_clone(target: Path) -> Path:
    """The repository's tracked files, as a clone has them (no output/, no venv)."""
    files = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True).stdout
    for rel in filter(None, files.decode().split("\0")):
        src = REPO / rel
        if src.is_file():
            (target / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, target / rel)
    return target


def _warm_cache(target: Path) -> Path:
    """A copy of the run's cache, taken after the run's whole kit was built in it: the README's
    commands start where a GM's second `make kit` starts (the blanks laid out once), and the
    test costs the commands, not a cold kit the suite builds already (whole_kit)."""
    target.mkdir()
    for entry in Path(os.environ["SHEETS_CACHE_DIR"]).iterdir():
        if entry.is_file() and not entry.name.startswith("."):  # not a write in progress (its temporary)
            try:
                shutil.copy2(entry, target / entry.name)
            except FileNotFoundError:
                pass  # trimmed or replaced meanwhile by another test: the command makes it again
    return target


@pytest.mark.slow
def test_every_readme_example_runs_as_written(tmp_path, whole_kit):
    if not (REPO / ".git").exists():
        pytest.skip("not a git checkout")
    root = _fresh_clone(tmp_path / "clone")
    bin_dir = Path(sys.executable).parent
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}", COLUMNS="200")
    env["SHEETS_CACHE_DIR"] = str(_warm_cache(tmp_path / "cache"))
    env["XDG_CONFIG_HOME"] = str(tmp_path / "config")  # `sheets config set` writes there, and nowhere else
    where = tmp_path / "cwd"
    here = [root]  # the working folder: a `cd` line moves it for the lines after it

    def run(command: str) -> subprocess.CompletedProcess:
        script = f"{command}\nstatus=$?\npwd > {shlex.quote(str(where))}\nexit $status\n"
        done = subprocess.run(["bash", "-c", script], cwd=here[0], env=env, capture_output=True,
                              text=True, timeout=900, stdin=subprocess.DEVNULL)
        if where.is_file():
            here[0] = Path(where.read_text(encoding="utf-8").strip())
        return done

    assert run("sheets kit").returncode == 0  # `make kit`
    failures = []
    for example in readme_examples((REPO / "README.md").read_text(encoding="utf-8")):
        done = run(example.command)
        said = done.stdout + done.stderr
        expected = 1 if example.refused else 0
        if done.returncode != expected:
            failures.append(f"README.md:{example.line}: `{example.command}` exited {done.returncode} "
                            f"(expected {expected}):\n{said.strip()[-600:]}")
            continue
        missing = [s for s in example.shown if s not in said]
        if missing:
            failures.append(f"README.md:{example.line}: `{example.command}` did not print {missing!r}; it "
                            f"printed:\n{said.strip()[-600:]}")
    assert failures == [], "\n\n".join(failures)
