"""`sheets new`: a game folder, a character and a campaign, each commented, each valid as written,
and never written over a file that exists."""
import json

import jsonschema
import pytest
import yaml

from conftest import pdf_text, squash
from sheets.app.schemas import MODELINE

STARTER = ["game.yaml", "reference.yaml", "cards/orders.yaml", "trackers.yaml", "tokens.yaml"]


def test_new_game_is_a_working_commented_game(cli, tmp_path):
    result = cli("new", "game", "my-skirmish")
    assert result.exit_code == 0, result
    assert result.stdout.splitlines()[1:] == [
        "check it:  sheets validate --content my-content",
        "print it:  sheets kit --content my-content --game my-skirmish   "
        "(or: sheets watch cards:my-skirmish --content my-content)"]
    game = tmp_path / "my-content" / "my-skirmish"
    assert sorted(p.relative_to(game).as_posix() for p in game.rglob("*.yaml")) == sorted(STARTER)
    assert cli("validate", "--content", "my-content").stdout == "content is valid\n"
    for rel in STARTER:
        path = game / rel
        text = path.read_text(encoding="utf-8")
        assert "__ID__" not in text and "__TITLE__" not in text
        first = text.split("\n", 1)[0]
        schema_path = (path.parent / first.removeprefix(MODELINE)).resolve()
        assert first.startswith(MODELINE) and schema_path.parent == (tmp_path / "my-content" / ".schemas")
        errors = list(jsonschema.Draft202012Validator(json.loads(schema_path.read_text())).iter_errors(
            yaml.safe_load(text)))
        assert errors == []
        assert sum(line.lstrip().startswith("#") or " # " in line for line in text.splitlines()) >= 3
    assert yaml.safe_load((game / "game.yaml").read_text())["title"] == "My Skirmish"
    assert cli("cards", "my-skirmish", "--content", "my-content", "-o", "orders.pdf").exit_code == 0
    # The titles as the starter writes them; their casing on the card is the theme's choice.
    titles = [card["title"] for card in yaml.safe_load((game / "cards" / "orders.yaml").read_text())["cards"]]
    printed = pdf_text(tmp_path / "orders.pdf").casefold()
    assert titles and all(title.casefold() in printed for title in titles), (titles, printed)
    assert cli("reference", "my-skirmish", "--content", "my-content", "-o", "ref.pdf").exit_code == 0
    assert "Hittable" in squash(pdf_text(tmp_path / "ref.pdf"))


def test_new_game_never_overwrites_and_checks_its_name(cli, tmp_path):
    assert cli("new", "game", "mine").exit_code == 0
    before = (tmp_path / "my-content" / "mine" / "game.yaml").read_bytes()
    again = cli("new", "game", "mine")
    assert again.exit_code == 1
    assert again.stderr == "error: my-content/mine exists: `sheets new game` never overwrites a folder; choose another name\n"
    assert (tmp_path / "my-content" / "mine" / "game.yaml").read_bytes() == before
    bad = cli("new", "game", "My Game")
    assert bad.exit_code == 1
    assert bad.stderr == ("error: game name 'My Game': use lower-case letters, digits and hyphens, "
                          "starting with a letter (e.g. my-skirmish)\n")
    unknown = cli("new", "game", "other", "--from", "chess")
    assert unknown.exit_code == 1
    assert unknown.stderr.startswith("error: --from chess: no such game in ")
    assert not (tmp_path / "my-content" / "other").exists()


def test_new_game_from_a_game_copies_it_under_the_new_id(cli, tmp_path):
    assert cli("new", "game", "my-platoon", "--from", "platoon").exit_code == 0
    game = tmp_path / "my-content" / "my-platoon"
    assert yaml.safe_load((game / "game.yaml").read_text())["id"] == "my-platoon"
    assert (game / "cards" / "profiles.yaml").read_text().split("\n", 1)[0] == \
        f"{MODELINE}../../.schemas/cards.schema.json"
    assert cli("validate", "--content", "my-content").stdout == "content is valid\n"
    assert cli("tokens", "my-platoon", "--content", "my-content", "-o", "t.pdf").exit_code == 0


@pytest.mark.parametrize("playbook", ["soldier", "medic", "sniper", "operator"])
def test_new_character_prints_as_written(cli, tmp_path, playbook):
    result = cli("new", "character", playbook, "mine.yaml")
    assert result.exit_code == 0, result
    assert result.stdout == "wrote mine.yaml\nedit it, then: sheets playbook --character mine.yaml\n"
    text = (tmp_path / "mine.yaml").read_text(encoding="utf-8")
    assert f"playbook: {playbook}\n" in text and "# loadout: " in text and "# profile: " in text
    printed = cli("playbook", "--character", "mine.yaml", "-o", "mine.pdf")
    assert printed.exit_code == 0, printed
    assert "WalterKowalski" in squash(pdf_text(tmp_path / "mine.pdf"))


def test_new_character_names_its_schema_when_there_is_one_and_never_overwrites(cli, tmp_path):
    assert cli("schema", "--out", "schemas").exit_code == 0
    assert cli("new", "character", "medic", "chars/doc.yaml").exit_code == 0
    text = (tmp_path / "chars" / "doc.yaml").read_text(encoding="utf-8")
    assert text.split("\n", 1)[0] == f"{MODELINE}../schemas/regiment.character.schema.json"
    again = cli("new", "character", "sniper", "chars/doc.yaml")
    assert again.exit_code == 1
    assert again.stderr == "error: chars/doc.yaml exists: `sheets new` never overwrites a file; choose another name\n"
    assert (tmp_path / "chars" / "doc.yaml").read_text(encoding="utf-8") == text
    unknown = cli("new", "character", "pilot", "p.yaml")
    assert unknown.exit_code == 1
    assert unknown.stderr == "error: unknown playbook 'pilot'; choose one of: medic, operator, sniper, soldier\n"
    assert not (tmp_path / "p.yaml").exists()


def test_new_campaign_writes_a_commented_campaign(cli, tmp_path):
    result = cli("new", "campaign", "ww.yaml", "--nation", "german", "--theatre", "france-1944", "--random",
                 "--seed", "4")
    assert result.exit_code == 0, result
    text = (tmp_path / "ww.yaml").read_text(encoding="utf-8")
    assert text.startswith("# The Way of the Warrior campaign (warsheets).")
    assert cli("validate", "ww.yaml").exit_code == 0
