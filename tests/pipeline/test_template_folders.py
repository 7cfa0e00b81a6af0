"""A game's templates are its plug-in's (templates/<plugin>/), never found by its id: a `--from`
copy under a new id prints as its source does, and no game id reaches the tool's own template
folders (the desk's `web`, the shared `_base`)."""
import json
import re

import fitz
import pytest

from sheets.library import plugins
from sheets.library.content import Library
from sheets.pipeline import rendering

BUNDLED = Library()
WITH_PLUGIN = [gid for gid in BUNDLED.game_ids() if BUNDLED.game(gid).info.plugin]
GAME_ID = re.compile(r"^[a-z][a-z0-9-]*$")  # game.yaml's `id` pattern (GameInfo)


def _parts(kit) -> list[tuple[str, int, str]]:
    """A kit's parts as (kind, pages, sha256), in order: what it printed, not what it named them."""
    files = json.loads((kit / "manifest.json").read_text())["files"]
    return sorted((f["kind"], f["pages"], f["sha256"]) for f in files if f["kind"] != "kit")


def test_every_bundled_plugin_game_is_found(library):
    assert WITH_PLUGIN, "no bundled game has a plug-in: the copies below test nothing"
    assert {BUNDLED.game(gid).info.plugin for gid in WITH_PLUGIN} <= set(plugins.names())


@pytest.mark.parametrize("source", WITH_PLUGIN)
def test_a_copy_of_a_plugin_game_prints_as_its_source(cli, tmp_path, source):
    copy = f"copy-of-{source}"
    assert cli("new", "game", copy, "--from", source, "--content", "c").exit_code == 0
    assert cli("validate", "--content", "c").stdout == "content is valid\n"
    built = cli("kit", "--content", "c", "--game", copy, "--seed", "7", "-o", "copy")
    assert built.exit_code == 0, built
    original = cli("kit", "--game", source, "--seed", "7", "-o", "source")
    assert original.exit_code == 0, original
    # the same sheets, byte for byte: the copy's plug-in kinds (log sheets, playbooks, rosters)
    # found their templates by the plug-in, not by the copy's id
    assert _parts(tmp_path / "copy") == _parts(tmp_path / "source")
    assert len(_parts(tmp_path / "copy")) > 0


def test_no_plugin_is_named_as_the_tools_own_template_folders():
    assert not set(plugins.names()) & set(rendering.TOOL_FOLDERS)
    # and every folder of templates/ is the tool's or a plug-in's: none is a game id's
    folders = {p.name for p in rendering.paths.templates_dir().iterdir() if p.is_dir()}
    assert folders <= set(rendering.TOOL_FOLDERS) | set(plugins.names()), folders


@pytest.mark.parametrize("name", sorted({*rendering.TOOL_FOLDERS, *plugins.names()}))
def test_a_game_named_as_a_template_folder_prints_its_own_content(cli, tmp_path, name):
    """`web` is the desk's folder (its base.html.j2 broke every sheet of such a game), a plug-in's
    name is a plug-in's: a game of the starter's content by that id prints with the shared
    templates; a name no game may take is refused in one line, leaving nothing."""
    made = cli("new", "game", name, "--content", "c")
    if not GAME_ID.match(name):
        assert made.exit_code == 1 and len(made.stderr.splitlines()) == 1, made
        assert not (tmp_path / "c").exists()
        return
    assert made.exit_code == 0, made
    assert cli("validate", "--content", "c").stdout == "content is valid\n"
    built = cli("kit", "--content", "c", "--game", name, "--seed", "7", "-o", "kit")
    assert built.exit_code == 0, built
    files = json.loads((tmp_path / "kit" / "manifest.json").read_text())["files"]
    parts = [f for f in files if f["kind"] != "kit"]
    assert {f["game"] for f in parts} == {name}
    with fitz.open(tmp_path / "kit" / next(f["path"] for f in parts if f["kind"] == "cards")) as pdf:
        words = " ".join(page.get_text() for page in pdf)
    # the starter's order cards, laid out by the shared card template (not the desk's page)
    assert "Move up to 6\", then fire" in words and "Stay put and fire" in words
