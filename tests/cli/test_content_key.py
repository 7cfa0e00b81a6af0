"""`content` is a sheets.toml key, and a working folder in a content folder is that content folder:
homebrew needs no `--content` on every command."""
from __future__ import annotations

from pathlib import Path

from sheets.base.config import KEYS, PARAMS


def _new_game(cli, root: Path) -> Path:
    assert cli("new", "game", "brew", "--content", root).exit_code == 0
    return root


def _break(root: Path) -> str:
    """A mistake only this content folder has: its problem names the file."""
    path = root / "brew" / "tokens.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("tokens:", "tokenz:", 1), encoding="utf-8")
    return "brew/tokens.yaml"


def test_content_is_a_key_of_sheets_toml_and_every_command_takes_it():
    assert "content" in KEYS and PARAMS["content"] == "content"


def test_the_sheets_toml_content_is_the_content_of_every_command(cli, tmp_path, monkeypatch):
    root = _new_game(cli, tmp_path / "brew-content")
    assert cli("validate").exit_code == 0  # the bundled content, here in tmp_path without a sheets.toml
    (tmp_path / "sheets.toml").write_text('content = "brew-content"\n', encoding="utf-8")
    listed = cli("list")
    assert listed.exit_code == 0 and "brew" in listed.stdout
    broken = _break(root)
    result = cli("validate")
    assert result.exit_code == 1 and broken in result.stderr, result
    below = tmp_path / "notes"
    below.mkdir()
    monkeypatch.chdir(below)  # a folder below takes it, as the other keys
    assert broken in cli("validate").stderr
    assert cli("validate", "--content", Path(__file__).parents[2] / "content").exit_code == 0  # the command line wins
    shown = cli("config").stdout
    assert any(line.startswith("content") and str(root) in line and "sheets.toml:1" in line
               for line in shown.splitlines()), shown


def test_validate_run_inside_a_content_folder_checks_that_folder(cli, tmp_path, monkeypatch):
    root = _new_game(cli, tmp_path / "my-content")
    broken = _break(root)
    for inside in (root, root / "brew", root / "brew" / "cards"):
        monkeypatch.chdir(inside)
        result = cli("validate")
        assert result.exit_code == 1 and broken in result.stderr, (inside, result)
    monkeypatch.chdir(tmp_path)
    assert cli("validate").exit_code == 0  # outside it: the bundled content


def test_a_bad_content_value_is_located(cli, tmp_path):
    (tmp_path / "sheets.toml").write_text('paper = "a4"\ncontent = 3\n', encoding="utf-8")
    result = cli("validate")
    assert result.exit_code == 1 and "sheets.toml:2: content: give a folder" in result.stderr, result
