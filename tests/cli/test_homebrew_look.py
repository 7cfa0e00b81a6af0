"""A game folder carries its look (issue 49): a homebrew game made with `sheets new game`, given
its own template override, theme, font, image, icon and per-card counts and colours, validates and
prints them, read back from the PDF; the same folder unpacked elsewhere prints the same bytes; a
file of the look that leaves the game's folder, is missing or too big is one located message."""
from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path
from urllib.parse import unquote, urlparse

import pikepdf
import pymupdf
import pytest
from fontTools.ttLib import TTFont
from PIL import Image

from conftest import bundled_games
from homebrew import ART_RGB, CARDS, KEPT_ASIDE, decorate
from sheets.app import pack as packing
from sheets.kinds.cards import tts
from sheets.library import assets
from sheets.library.content import Library
from sheets.library.yaml_source import load_yaml


def _homebrew(cli, tmp_path):
    assert cli("new", "game", "brew").exit_code == 0
    return decorate(tmp_path / "my-content" / "brew")


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    return tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))  # type: ignore[return-value]


def _fills(page) -> set[tuple[int, int, int]]:
    return {tuple(round(v * 255) for v in d["fill"]) for d in page.get_drawings() if d.get("fill")}


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_game_folder_prints_its_own_look(cli, tmp_path, paper):
    game = _homebrew(cli, tmp_path)
    checked = cli("validate", "--content", "my-content")
    assert checked.exit_code == 0 and checked.stdout == "content is valid\n", checked
    assert cli("cards", "brew", "--content", "my-content", "--paper", paper, "-o", "cards.pdf").exit_code == 0
    written = load_yaml(game / "cards" / "orders.yaml", "orders.yaml").data["cards"]
    with pymupdf.open(tmp_path / "cards.pdf") as pdf:
        page = pdf[0]
        text = page.get_text()
        # each card as many times as its count, every one placed as its own form on the paper
        assert text.count("ADVANCE") == written[0]["count"] and text.count("HOLD") == 1
        # the override's rule: titles in capitals, not as written (the bundled template's way)
        assert written[0]["title"] == "Advance" and "Advance" not in text
        # the art: an image XObject of the picture's own size and colour
        images = page.get_images(full=True)
        assert any((w, h) == (60, 40) for _, _, w, h, *_ in images)
        pix = pymupdf.Pixmap(pdf, images[0][0])
        assert tuple(pix.pixel(pix.width // 2, pix.height // 2))[:3] == ART_RGB
        # the heads on their colours: the theme's named one and the one written as a hex
        fills = _fills(page)
        theme = load_yaml(game / "theme.yaml", "theme.yaml").data
        for hex_colour in (theme["colours"]["reds"], written[1]["colour"]):
            assert _rgb(hex_colour) in fills
        # the icon: the head's and the one in running text (an SVG drawn in the icon's fill)
        assert _rgb("#204080") in fills
        assert "⚄" in text  # :d6-5: is the die's face
        # the game's own face embedded: the font file of its fonts/ folder
        embedded = []
        for xref in range(1, pdf.xref_length()):
            kind, value = pdf.xref_get_key(xref, "FontFile2")
            if kind == "xref":
                font = TTFont(io.BytesIO(pdf.xref_stream(int(value.split()[0]))))
                embedded.append(font["name"].getDebugName(1))
        own = TTFont(game / "fonts" / "brew-face.ttf")["name"].getDebugName(1)
        assert own in embedded
    # the deck's back is its image, to the bleed: the backs' page draws it behind every card
    assert cli("cards", "brew", "--content", "my-content", "--paper", paper, "--backs", "-o", "backs.pdf").exit_code == 0
    with pymupdf.open(tmp_path / "backs.pdf") as pdf:
        assert len(pdf) == 2
        assert not pdf[1].get_text().strip()  # an image back prints no words
        assert any((w, h) == (60, 40) for _, _, w, h, *_ in pdf[1].get_images(full=True))


def test_a_packed_game_prints_the_same_bytes_elsewhere(cli, tmp_path):
    """`sheets pack`: the game's files, its look and the print geometry, not what a person keeps
    beside it; unpacked anywhere it validates and prints the author's bytes; packed again, the
    same zip."""
    game = _homebrew(cli, tmp_path)
    assert cli("cards", "brew", "--content", "my-content", "-o", "mine.pdf").exit_code == 0
    packed = cli("pack", "brew", "--content", "my-content", "-o", "brew.zip")
    assert packed.exit_code == 0, packed
    assert "brew.zip" in packed.stdout and all(rel in packed.stdout for rel in KEPT_ASIDE)
    names = set(zipfile.ZipFile(tmp_path / "brew.zip").namelist())
    look = {f"brew/{p.relative_to(game).as_posix()}" for folder in ("templates", "fonts", "images", "icons")
            for p in (game / folder).rglob("*") if p.is_file()}
    assert look and look <= names and "brew/theme.yaml" in names and "brew/cards/orders.yaml" in names
    assert not {f"brew/{rel}" for rel in KEPT_ASIDE} & names
    assert {n.split("/")[0] for n in names} <= {"brew", "_print", ".schemas"}
    friend = tmp_path / "elsewhere" / "friends-copy"
    zipfile.ZipFile(tmp_path / "brew.zip").extractall(friend)
    assert cli("validate", "--content", friend).exit_code == 0
    assert cli("cards", "brew", "--content", friend, "-o", "theirs.pdf").exit_code == 0
    assert (tmp_path / "mine.pdf").read_bytes() == (tmp_path / "theirs.pdf").read_bytes()
    # the receiver packs what they were given: the same bytes (fixed dates, sorted entries)
    assert cli("pack", "brew", "--content", friend, "-o", "again.zip").exit_code == 0
    assert (tmp_path / "again.zip").read_bytes() == (tmp_path / "brew.zip").read_bytes()


def test_a_game_with_a_mistake_is_not_packed_and_another_games_mistake_does_not_stop_it(cli, tmp_path):
    game = _homebrew(cli, tmp_path)
    assert cli("new", "game", "other").exit_code == 0
    other = tmp_path / "my-content" / "other" / "game.yaml"
    other.write_text(other.read_text() + "colour_of_the_box: red\n")  # a key no model has
    assert cli("pack", "brew", "--content", "my-content", "-o", "brew.zip").exit_code == 0
    refused = cli("pack", "other", "--content", "my-content", "-o", "other.zip")
    assert refused.exit_code == 1 and "Traceback" not in refused.stderr
    assert f"other/game.yaml:{_line_of(other, 'colour_of_the_box')}:" in refused.stderr
    assert not (tmp_path / "other.zip").exists()
    # the zip is never written into the folder it packs (it would be a stray file of it)
    inside = cli("pack", "brew", "--content", "my-content", "-o", "my-content/brew.zip")
    assert inside.exit_code == 1 and "inside the content folder" in inside.stderr
    assert not (tmp_path / "my-content" / "brew.zip").exists()
    cards = game / "cards" / "orders.yaml"
    cards.write_text(CARDS.replace("    image: art.png", "    image: nothere.png"))
    refused = cli("pack", "brew", "--content", "my-content", "-o", "brew2.zip")
    assert refused.exit_code == 1 and f"orders.yaml:{_line_of(cards, 'nothere')}:" in refused.stderr
    assert not (tmp_path / "brew2.zip").exists()


def _line_of(path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)


@pytest.mark.parametrize("mistake", ["missing", "outside", "too-big", "wrong-kind", "no-icon", "no-colour"])
def test_a_look_that_leaves_the_game_is_one_located_message(cli, tmp_path, mistake):
    game = _homebrew(cli, tmp_path)
    cards = game / "cards" / "orders.yaml"
    field = {"no-icon": "icons[0]", "no-colour": "colour"}.get(mistake, "image")
    if mistake == "missing":
        cards.write_text(CARDS.replace("    image: art.png", "    image: nothere.png"))
    elif mistake == "outside":
        (tmp_path / "secret.png").write_bytes((game / "images" / "art.png").read_bytes())
        (game / "images" / "art.png").unlink()
        os.symlink(tmp_path / "secret.png", game / "images" / "art.png")
    elif mistake == "too-big":
        with open(game / "images" / "art.png", "ab") as f:
            f.truncate(assets.FOLDERS["images"].max_bytes + 1)
    elif mistake == "wrong-kind":
        cards.write_text(CARDS.replace("    image: art.png", "    image: art.exe"))
    elif mistake == "no-icon":
        cards.write_text(CARDS.replace("icons: [shield]", "icons: [sheild]"))
    else:
        cards.write_text(CARDS.replace("colour: reds", "colour: greens"))
    result = cli("validate", "--content", "my-content")
    assert result.exit_code == 1, result
    line = _line_of(cards, {"image": "    image:", "icons[0]": "icons:", "colour": "colour:"}[field])
    located = [m for m in result.stderr.splitlines() if f"orders.yaml:{line}: cards[0].{field}:" in m]
    assert len(located) == 1, result.stderr
    if mistake == "no-icon":
        assert "did you mean 'shield'" in located[0]
    # printing says the same, and writes nothing
    printed = cli("cards", "brew", "--content", "my-content", "-o", "cards.pdf")
    assert printed.exit_code == 1 and "Traceback" not in printed.stderr
    assert not (tmp_path / "cards.pdf").exists()


def test_an_own_template_runs_in_the_sandbox(cli, tmp_path):
    game = _homebrew(cli, tmp_path)
    (game / "templates" / "card.html.j2").write_text('{{ "".__class__.__mro__ }}')
    result = cli("cards", "brew", "--content", "my-content", "-o", "cards.pdf")
    assert result.exit_code == 1
    assert "templates/card.html.j2:1:" in result.stderr and "unsafe" in result.stderr
    assert not (tmp_path / "cards.pdf").exists()


def test_a_sandboxed_render_leaves_the_bundled_games_printable(cli, tmp_path):
    """The sandbox compiles a template to other code: the bundled games' processes, sharing the one
    cache folder, must never load what it compiled (they did: 'Environment' has no attribute 'call')."""
    _homebrew(cli, tmp_path)
    assert cli("tokens", "brew", "--content", "my-content", "-o", "theirs.pdf").exit_code == 0  # sandboxed
    game = next(g for g in bundled_games("tokens") if g != "brew")
    fresh = subprocess.run([sys.executable, "-m", "sheets", "tokens", game, "-o", str(tmp_path / "ours.pdf")],
                           capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert fresh.returncode == 0, fresh.stderr


def test_a_cards_count_is_its_copies_in_the_tabletop_simulator_deck(cli, tmp_path):
    game = _homebrew(cli, tmp_path)
    assert cli("cards", "brew", "--content", "my-content", "--export", "tts", "-o", "tts").exit_code == 0
    written = load_yaml(game / "cards" / "orders.yaml", "orders.yaml").data
    faces = sum(card.get("count", 1) for card in written["cards"])
    (grid,) = tts.deck_sheets(written["id"], faces)
    assert (grid.columns, grid.rows, grid.count) == (min(tts.MAX_COLUMNS, faces), 1, faces)
    size = Library(tmp_path / "my-content").geometry().card_sizes[written["size"]]
    with Image.open(tmp_path / "tts" / grid.name) as image:
        width, height = image.size
    # the grid is `columns` cards wide: as wide for its height as that many cards side by side
    assert width / height == pytest.approx(grid.columns * size.width_mm / size.height_mm, rel=0.02)
    # the saved object: a deck of every face, its CustomDeck naming this grid and the back by file URL
    saved = json.loads((tmp_path / "tts" / f"{written['id']}.json").read_text(encoding="utf-8"))
    (deck,) = saved["ObjectStates"]
    assert deck["Name"] == "DeckCustom" and deck["Nickname"] == written["title"]
    (entry,) = deck["CustomDeck"].values()
    assert (entry["NumWidth"], entry["NumHeight"]) == (grid.columns, grid.rows)
    assert urlparse(entry["FaceURL"]).scheme == "file"
    assert Path(unquote(urlparse(entry["FaceURL"]).path)) == (tmp_path / "tts" / grid.name).resolve()
    assert Path(unquote(urlparse(entry["BackURL"]).path)).is_file()
    titles = [card["title"] for card in written["cards"] for _ in range(card.get("count", 1))]
    assert [c["Nickname"] for c in deck["ContainedObjects"]] == titles
    assert deck["DeckIDs"] == [c["CardID"] for c in deck["ContainedObjects"]] == [100 + i for i in range(faces)]


def test_a_cards_count_is_its_pages_in_the_print_shop_pdf(cli, tmp_path):
    game = _homebrew(cli, tmp_path)
    assert cli("cards", "brew", "--content", "my-content", "--export", "pdf", "-o", "shop").exit_code == 0
    written = load_yaml(game / "cards" / "orders.yaml", "orders.yaml").data["cards"]
    with pymupdf.open(tmp_path / "shop" / "orders.pdf") as pdf:
        titles = [page.get_text().split("\n")[0] for page in pdf]
    assert titles == [c["title"].upper() for c in written for _ in range(c.get("count", 1))]


def test_a_pack_that_fails_midway_leaves_no_file(cli, tmp_path, monkeypatch):
    """The zip streams into a temporary file beside the target: a failure after the first entry
    (a file that cannot be read, a full disk) leaves neither the zip nor its temporary."""
    _homebrew(cli, tmp_path)
    real = packing.write_archive

    def failing(entries, handle):
        real(dict(list(entries.items())[:1]), handle)
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(packing, "write_archive", failing)
    (tmp_path / "out").mkdir()
    result = cli("pack", "brew", "--content", "my-content", "-o", "out/brew.zip")
    assert result.exit_code == 1 and "No space left on device" in result.stderr and "Traceback" not in result.stderr
    assert list((tmp_path / "out").iterdir()) == []


def test_a_card_that_only_the_games_own_template_overflows_fails_validate_first(cli, tmp_path):
    """The fit model knows the bundled card's room, not an author's: a game with its own templates
    has its sets laid out by validate, so the card that would not print is found at its line."""
    game = _homebrew(cli, tmp_path)
    override = game / "templates" / "card.html.j2"
    assert cli("validate", "--content", "my-content").exit_code == 0  # the override as shipped: all fit
    override.write_text(override.read_text().replace("{% endblock %}", ".card.front p { font-size: 44pt !important; }\n"
                                                                      "{% endblock %}"))
    result = cli("validate", "--content", "my-content")
    assert result.exit_code == 1, result
    cards = game / "cards" / "orders.yaml"
    written = load_yaml(cards, "orders.yaml").data["cards"]
    for i, card in enumerate(written):
        line = _line_of(cards, f"id: {card['id']}")
        assert any(f"orders.yaml:{line}: cards[{i}]:" in m and "own templates" in m for m in result.stderr.splitlines())
    printed = cli("cards", "brew", "--content", "my-content", "-o", "cards.pdf")
    assert printed.exit_code == 1 and not (tmp_path / "cards.pdf").exists()  # what validate said, printing meets


def test_a_homebrew_deck_reaches_the_cmyk_print_shop_file_as_its_messages_say(cli, tmp_path):
    """The shop's PDF/X-1a is CMYK only: RGB art is refused with what to do (a CMYK JPEG), an icon's
    colour the palette lacks with the folder's own palette file and a line to add; done that way,
    the file holds CMYK images and no RGB colour."""
    game = _homebrew(cli, tmp_path)
    shop = ("cards", "brew", "--content", "my-content", "--shop", "drivethrucards", "-o", "shop")
    # the deck's own colours, each refused in turn until the palette has it: the theme's named
    # colours and a card's hex (its heads), the icon's fill (the accent is drawn nowhere on this deck:
    # each card has its own head, and the back is an image)
    theme = load_yaml(game / "theme.yaml", "theme.yaml").data
    ours = {*theme["colours"].values(), "#103070", "#204080"}
    palette = tmp_path / "my-content" / "_print" / "palette.yaml"
    added: list[str] = []
    refused = cli(*shop)
    while "is not in" in refused.stderr and len(added) < len(ours):
        suggested = re.search(r'`my-colour: (\{rgb: "(#[0-9a-f]{6})".*?\})`', refused.stderr)
        assert refused.exit_code == 1 and "my-content/_print/palette.yaml" in refused.stderr and suggested, refused
        assert suggested[2] in ours and suggested[2] not in added
        added.append(suggested[2])
        palette.write_text(palette.read_text() + f"  brew-{len(added)}: {suggested[1]}\n")
        refused = cli(*shop)
    assert set(added) == ours  # every one asked for, nothing else
    assert refused.exit_code == 1 and "RGB image" in refused.stderr and "CMYK JPEG" in refused.stderr, refused
    Image.new("CMYK", (60, 40), (0, 200, 200, 50)).save(game / "images" / "art.jpg")
    (game / "cards" / "orders.yaml").write_text(CARDS.replace("art.png", "art.jpg"))
    done = cli(*shop)
    assert done.exit_code == 0, done
    with pikepdf.open(tmp_path / "shop" / "orders.pdf") as pdf:
        spaces = set()
        for page in pdf.pages:
            for _, xobject in page.get_images().items():
                spaces.add(str(xobject.get("/ColorSpace")))
            ops = {str(op) for _, op in pikepdf.parse_content_stream(page)}
            assert not ops & {"rg", "RG"}
        assert spaces == {"/DeviceCMYK"}
        # the deck's look kept: each card's head in the CMYK the palette gives it
        written = load_yaml(palette, "palette.yaml").data["colours"]
        cmyk_of = {c["rgb"]: tuple(round(v / 100, 4) for v in c["cmyk"]) for c in written.values()}
        fills = set()
        drawn = [*pdf.pages, *(o for o in pdf.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Form")]
        for stream in drawn:
            fills |= {tuple(round(float(v), 4) for v in operands)
                      for operands, op in pikepdf.parse_content_stream(stream) if str(op) == "k"}
        for colour in (theme["colours"]["reds"], "#103070"):
            assert cmyk_of[colour] in fills, colour
