"""The design system as data (issue 47): the base theme and each game's look, checked from the
theme files themselves: every text on every fill it is set on reaches 4.5:1, an accent stays
apart from black text in greyscale, the role markers are unique, and a look that breaks any of
it is refused with its file, line and field."""
from __future__ import annotations

import pytest

from sheets.base import colors, fonts
from sheets.base.errors import ContentError
from sheets.kinds import style
from sheets.library.content import Library
from sheets.library.kinds.theme import GREY_LEVELS_APART, grey_level


def _text_on_fills(theme, large: bool):
    """(text name, text colour, fill name, fill colour) of every text the theme sets on a fill."""
    base = theme.base
    c = base.large_print.colours if large else base.colours
    accent = c.ink if large else theme.look.accent
    back = c.ink if large else theme.back
    on_paper = [("ink", c.ink), ("note", c.note), ("footer", c.footer), ("soft", c.soft), ("accent", accent)]
    yield from ((n, v, "paper", c.paper) for n, v in on_paper)
    yield "on-head-fill", colors.text_on(c.head_fill), "head_fill", c.head_fill
    yield "on-accent", colors.text_on(accent), "accent", accent
    yield "on-back", colors.text_on(back), "back", back
    yield "ink", c.ink, "frame tint", colors.tint(theme.frame, 0.35)


@pytest.mark.parametrize("large", [False, True], ids=["print", "large-print"])
def test_every_text_of_every_game_reads_on_its_fill(library, large):
    for game_id in library.game_ids():
        theme = library.game(game_id).content["theme"]
        for text, ink, fill, paper in _text_on_fills(theme, large):
            ratio = colors.contrast(ink, paper)
            assert ratio >= (7 if large else colors.MIN_CONTRAST), (game_id, text, ink, fill, paper, round(ratio, 2))


def test_each_accent_stays_apart_from_black_text_in_greyscale_and_games_differ(library):
    accents = {g: library.game(g).content["theme"].look.accent for g in library.game_ids()}
    for game_id, accent in accents.items():
        assert abs(grey_level(accent) - grey_level(colors.DARK)) >= GREY_LEVELS_APART, (game_id, accent)
        assert abs(grey_level(accent) - grey_level("#ffffff")) >= GREY_LEVELS_APART, (game_id, accent)
    assert len(set(accents.values())) == len(accents)  # each game its own colour
    faces = {g: library.game(g).content["theme"].look.title_face for g in library.game_ids()}
    assert len(set(faces.values())) == len(faces)  # and its own face
    assert all(face in fonts.TITLE_FACES for face in faces.values())


def test_the_floors_are_the_issue_s_and_the_markers_are_unique(library):
    theme = library.theme()
    assert theme.type.play.floor_pt >= 7.5 and theme.type.note.floor_pt >= 7 and theme.type.footer.floor_pt >= 6.5
    assert theme.large_print.floor_pt >= 12
    assert colors.MIN_TEXT_PT == theme.type.play.floor_pt  # tokens' and cards' smallest type: the play floor
    for palette in (theme.colours, theme.large_print.colours):
        others = {k: v for k, v in palette.model_dump().items() if k not in ("note", "footer")}
        assert palette.note not in others.values() and palette.footer not in others.values()
        assert palette.note != palette.footer


def test_every_sheet_reads_the_theme_as_properties_and_names_its_game(library):
    for game_id in library.game_ids():
        game = library.game(game_id)
        css = style.of(game)["theme_css"]
        theme = game.content["theme"]
        assert f"--accent: {theme.look.accent}" in css and "--play-floor: 7.5pt" in css
        assert "html.large-print {" in css and f"--play-floor: {theme.base.large_print.floor_pt}pt" in css
        assert theme.band.replace('"', '\\"') in css  # the header band names the game
        assert "@top-left" not in style.of(game, band=False)["theme_css"]


def _content_with(tmp_path, game: str, text: str):
    import shutil

    from conftest import REPO

    root = tmp_path / "content"
    shutil.copytree(REPO / "content", root)
    (root / game / "theme.yaml").write_text(text, encoding="utf-8")
    return Library(root)


@pytest.mark.parametrize("text, field, words", [
    ('accent: "#e0e000"\n', "accent", "white text on it reaches only"),  # yellow: no light text reads on it
    ('accent: "#4b5320"\ntitle_face: comic-sans\n', "title_face", "gnu-typewriter"),
    ('accent: "#4b5320"\nfont: big\n', "font", "unknown key"),
])
def test_a_look_that_breaks_the_rules_is_refused_with_file_line_and_field(tmp_path, text, field, words):
    library = _content_with(tmp_path, "regiment", text)
    with pytest.raises(ContentError) as caught:
        library.game("regiment")
    message = str(caught.value)
    assert "regiment/theme.yaml:" in message and field in message and words in message, message


def test_a_base_theme_whose_marker_colour_is_shared_is_refused(tmp_path):
    library = _content_with(tmp_path, "regiment", 'accent: "#4b5320"\n')
    design = library.root / "_print" / "design.yaml"
    design.write_text(design.read_text(encoding="utf-8").replace('soft: "#444444"', 'soft: "#35383c"'), encoding="utf-8")
    problems = library.validate()
    assert any("note colour marks notes only" in str(p) for p in problems), problems


def test_each_accent_is_a_colour_not_a_grey(library):
    """Two games' accents may be alike in grey (they never share a page), but each is a colour."""
    for game_id in library.game_ids():
        h = library.game(game_id).content["theme"].look.accent.lstrip("#")
        r, g, b = (int(h[i:i + 2], 16) for i in (0, 2, 4))
        assert max(r, g, b) - min(r, g, b) >= 30, (game_id, h)
