"""A new game is content plus (optional) templates: the core names no game (its modules: import-linter's
contract in pyproject.toml; its templates: here)."""
import re


from conftest import REPO, pdf_text, squash
from sheets.base import paths

SHEETS = REPO / "sheets"


def game_ids() -> list[str]:
    return sorted(p.parent.name for p in paths.content_dir().glob("*/game.yaml"))


def test_base_templates_name_no_game():
    ids = game_ids()
    for template in (paths.templates_dir() / "_base").iterdir():
        text = template.read_text().lower()
        assert not [gid for gid in ids if re.search(rf"\b{gid}\b", text)], template.name


def test_fixture_game_validates_and_is_listed(cli, fixture_content):
    assert cli("validate", "--content", fixture_content).exit_code == 0
    listing = cli("list", "--content", fixture_content)
    assert "skirmish" in listing.stdout and "Pocket Skirmish" in listing.stdout


def test_fixture_game_reference_renders(cli, fixture_content, tmp_path):
    result = cli("reference", "skirmish", "--content", fixture_content, "-o", tmp_path / "ref.pdf")
    assert result.exit_code == 0, result
    text = squash(pdf_text(tmp_path / "ref.pdf"))
    # the heading under the band that names the game: "Reference", not "Pocket Skirmish — Reference"
    assert "PocketSkirmish" in text and "PocketSkirmish—Reference" not in text
    assert text.startswith("ReferenceTHETURN"), text[:40]
    assert "Eachsideactivatesoneunitatatime." in text
    assert "7—" in text  # the unknown value prints as a dash


def test_fixture_game_in_the_kit(cli, fixture_content, tmp_path):
    result = cli("kit", "--content", fixture_content, "--seed", "1", "-o", tmp_path / "kit")
    assert result.exit_code == 0, result
    assert (tmp_path / "kit" / "skirmish-reference.pdf").is_file()
