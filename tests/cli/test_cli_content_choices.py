"""Choices that content defines (WotW theatres and nations) are checked against the content in
use, not against a list in code: a homebrew theatre in a --content folder rolls like a bundled one."""
import json
from pathlib import Path

import pytest
import yaml

from conftest import pdf_text, squash

BUNDLED_THEATRES = ["russia-1943", "winter-1942", "france-1944", "sicily-1943", "finland-1940"]


def edit_theatres(content: Path, change) -> None:
    path = content / "wotw" / "theatres.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data["theatres"])
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")


@pytest.fixture
def homebrew(content_copy) -> Path:
    """The bundled content plus Normandy 1944: France 1944's tables under a new id and name."""
    def add(theatres):
        france = next(t for t in theatres if t["id"] == "france-1944")
        theatres.append(dict(france, id="normandy-1944", name="Normandy 1944", nations=["us", "german"]))
    edit_theatres(content_copy, add)
    return content_copy


def test_a_homebrew_theatre_rolls_a_mission(cli, homebrew, tmp_path):
    assert cli("validate", "--content", homebrew).exit_code == 0
    result = cli("mission", "--content", homebrew, "--theatre", "normandy-1944", "--seed", "1", "-o", "x.pdf")
    assert result.exit_code == 0, result
    assert "Normandy1944" in squash(pdf_text(tmp_path / "x.pdf"))
    data = json.loads(cli("mission", "--content", homebrew, "--theatre", "normandy-1944", "--seed", "1",
                          "--json").stdout)
    assert (data["theatre"], data["nation"], data["enemy"]) == ("normandy-1944", "us", "german")


def test_a_homebrew_theatre_starts_a_campaign(cli, homebrew, tmp_path):
    result = cli("campaign", "new", "ww.yaml", "--content", homebrew, "--nation", "german",
                 "--theatre", "normandy-1944", "--random", "--seed", "4")
    assert result.exit_code == 0, result
    assert "in Normandy 1944" in result.stdout
    assert yaml.safe_load((tmp_path / "ww.yaml").read_text(encoding="utf-8"))["theatre"] == "normandy-1944"


def test_an_unknown_theatre_names_the_valid_ones(cli, homebrew):
    result = cli("mission", "--content", homebrew, "--theatre", "atlantis-1944", "--seed", "1", "--json")
    assert result.exit_code == 1
    assert "unknown theatre 'atlantis-1944'; choose one of: " in result.stderr
    for theatre in [*BUNDLED_THEATRES, "normandy-1944"]:
        assert theatre in result.stderr
    assert result.stdout == ""


def test_an_unknown_nation_names_the_valid_ones(cli):
    result = cli("mission", "--nation", "atlantean", "--seed", "1", "--json")
    assert result.exit_code == 1
    assert "unknown nation 'atlantean'; choose one of: german, italian, finnish, us, russian" in result.stderr
    result = cli("campaign", "new", "ww.yaml", "--nation", "german", "--theatre", "atlantis-1944", "--random")
    assert result.exit_code == 1
    assert "unknown theatre 'atlantis-1944'; choose one of: " + ", ".join(BUNDLED_THEATRES) in result.stderr
    assert not Path("ww.yaml").exists()


def test_without_theatre_the_bundled_default_else_the_contents_first(cli, content_copy):
    assert json.loads(cli("mission", "--seed", "1", "--json").stdout)["theatre"] == "france-1944"
    edit_theatres(content_copy, lambda theatres: theatres.remove(next(t for t in theatres if t["id"] == "france-1944")))
    data = json.loads(cli("mission", "--content", content_copy, "--seed", "1", "--json").stdout)
    assert data["theatre"] == "russia-1943"
