"""`validate` finds first what printing would fail on (issue 49), each one line naming the file, the
line and the field, exit 1: a card whose text overflows its card, a gauge larger than the paper, a
palette without a colour the card template uses, a token label that runs out of its circle; and
one broken game leaves the kit of the others made (and says so, exit 1)."""
from __future__ import annotations

import math
import shutil

import pymupdf
import pytest

from sheets.app.preflight import label_room_mm
from sheets.base import paths
from sheets.kinds.cards.fit import PT_PER_MM, text_em
from sheets.kinds.tokens.builder import label_size_pt
from sheets.library.content import Library
from sheets.library.kinds.cards import CARD_COLOURS
from sheets.library.kinds.theme import Neutrals
from sheets.library.yaml_source import load_yaml

LONG = " ".join(["Move up to six inches, then fire with minus one to hit against the nearest enemy unit."] * 12)
RULER = """title: "Brew ruler"
unit: in
gauges:
  - id: short
    kind: ruler
    label: "Ruler, 6 in"
    start: 0
    end: 6
    minor: 0.25
    major: 1
  - id: long
    kind: ruler
    label: "Ruler, 12 in"
    start: 0
    end: 12
    minor: 0.25
    major: 1
"""


@pytest.fixture
def brew(cli, tmp_path):
    assert cli("new", "game", "brew").exit_code == 0
    return tmp_path / "my-content" / "brew"


def _line(path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def _one_located(result, where: str) -> str:
    assert result.exit_code == 1, result
    assert "Traceback" not in result.stderr
    lines = [m for m in result.stderr.splitlines() if where in m]
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_a_card_whose_text_overflows_fails_validate_at_its_line(cli, brew):
    cards = brew / "cards" / "orders.yaml"
    cards.write_text(cards.read_text().replace('"Stay put and fire with +1 to hit."', f'"{LONG}"'))
    assert cli("validate", "--content", "my-content").exit_code == 1
    index = next(i for i, c in enumerate(load_yaml(cards, "orders.yaml").data["cards"]) if LONG in str(c["blocks"]))
    start = _line(cards, f"- id: {load_yaml(cards, 'orders.yaml').data['cards'][index]['id']}")
    message = _one_located(cli("validate", "--content", "my-content"), f"orders.yaml:{start}: cards[{index}]:")
    assert "does not fit on a poker card" in message
    # and printing it indeed fails (validate said what printing finds)
    printed = cli("cards", "brew", "--content", "my-content", "-o", "x.pdf")
    assert printed.exit_code == 1 and "does not fit" in printed.stderr


@pytest.mark.parametrize("broken", ["gauge", "template"])
def test_a_game_that_cannot_print_fails_validate_and_stops_no_other_game(cli, brew, tmp_path, broken):
    if broken == "gauge":  # a gauge larger than the paper
        (brew / "gauges.yaml").write_text(RULER)
        named = "gauges.yaml"
        message = _one_located(cli("validate", "--content", "my-content"),
                               f"gauges.yaml:{_line(brew / 'gauges.yaml', '- id: long')}: gauges[1]:")
        assert "a4" in message and "letter" in message and "larger than the printable area" in message
    else:  # an error in the game's own template
        (brew / "templates").mkdir()
        (brew / "templates" / "reference.html.j2").write_text('{% extends "bundled/reference.html.j2" %}\n'
                                                               "{% block style %}{{ nothing.here }}{% endblock %}\n")
        named = "templates/reference.html.j2:2:"
        assert named in _one_located(cli("validate", "--content", "my-content"), named)
    # a second game beside the broken one: the kit is made with it, and the command says what it left out
    shutil.copytree(paths.content_dir() / "masscombat", tmp_path / "my-content" / "masscombat")
    kit = cli("kit", "--content", "my-content", "-o", "kit")
    assert kit.exit_code == 1, kit
    assert "without brew" in kit.stderr and named in kit.stderr
    with pymupdf.open(tmp_path / "kit" / "kit.pdf") as pdf:
        text = "".join(page.get_text() for page in pdf)
    title = Library(tmp_path / "my-content").game("masscombat").info.title
    assert title in text and "Brew" not in text


def test_a_game_whose_layout_fails_only_when_laid_out_stops_no_other_game(cli, brew, tmp_path):
    """A game's own template that fixes a width wider than the page (found only by laying it out,
    after validate): the kit is made with the other game, the command fails naming the game and
    the box, and the broken game's parts are not in the folder."""
    (brew / "templates").mkdir()
    (brew / "templates" / "reference.html.j2").write_text(
        '{% extends "bundled/reference.html.j2" %}\n{% block extra_style %}.blocks table.rules { width: 400mm; }'
        "{% endblock %}\n")
    shutil.copytree(paths.content_dir() / "masscombat", tmp_path / "my-content" / "masscombat")
    kit = cli("kit", "--content", "my-content", "-o", "kit")
    assert kit.exit_code == 1, kit
    assert "without brew" in kit.stderr and "past the right edge of its column" in kit.stderr
    assert "Traceback" not in kit.stderr
    with pymupdf.open(tmp_path / "kit" / "kit.pdf") as pdf:
        text = "".join(page.get_text() for page in pdf)
    title = Library(tmp_path / "my-content").game("masscombat").info.title
    assert title in text and "Brew" not in text
    assert not list((tmp_path / "kit").glob("brew-*"))


@pytest.mark.parametrize("template, block, rule", [
    ("reference.html.j2", "extra_style", ".blocks table.rules { width: %s; }"),
    ("card.html.j2", "style", "{{ super() }} .card-head { width: %s; }")], ids=["reference", "card"])
def test_a_width_a_games_own_template_fixes_past_the_page_fails_validate_at_that_template(cli, brew, template,
                                                                                          block, rule):
    """What only a layout finds (a box the game's own template makes 400 mm wide) is found by
    `validate` first, in one line at that template (the kit would leave the game out); the same
    template with a width that fits passes."""
    own = brew / "templates" / template
    own.parent.mkdir()
    for width in ("40mm", "400mm"):
        own.write_text(f'{{% extends "bundled/{template}" %}}\n'
                       f"{{% block {block} %}}{rule % width}{{% endblock %}}\n")
        result = cli("validate", "--content", "my-content")
        if width == "40mm":
            assert result.exit_code == 0, result
    line = _one_located(result, f"templates/{template}")
    assert "laid out on a4" in line and "past the right edge of its column" in line, line


def test_a_palette_without_a_template_colour_fails_at_its_line(cli, brew, tmp_path):
    palette = tmp_path / "my-content" / "_print" / "palette.yaml"
    removed = CARD_COLOURS[1]
    palette.write_text("".join(line for line in palette.read_text().splitlines(keepends=True)
                               if not line.strip().startswith(f"{removed}:")))
    located = f"palette.yaml:{_line(palette, 'colours:')}: colours:"
    message = _one_located(cli("validate", "--content", "my-content"), located)
    assert f"no {removed}" in message
    # printing says the same, not a template's error
    printed = cli("cards", "brew", "--content", "my-content", "-o", "x.pdf")
    assert printed.exit_code == 1 and located in printed.stderr and "card.html.j2" not in printed.stderr


def _label_reach_mm(pdf_path, word: str) -> float:
    """How far from its token's centre the printed word reaches (its letters' corners), in mm."""
    with pymupdf.open(pdf_path) as pdf:
        for page in pdf:
            circles = [d["rect"] for d in page.get_drawings() if abs(d["rect"].width - d["rect"].height) < 1]
            spans = [s for b in page.get_text("dict")["blocks"] for line in b.get("lines", []) for s in line["spans"]]
            for span in spans:
                if span["text"].strip().upper() != word.upper():
                    continue
                r = pymupdf.Rect(span["bbox"])
                mid = pymupdf.Point((r.x0 + r.x1) / 2, (r.y0 + r.y1) / 2)
                cut = min((c for c in circles if c.contains(mid)), key=lambda c: c.width)
                centre = pymupdf.Point((cut.x0 + cut.x1) / 2, (cut.y0 + cut.y1) / 2)
                inset = r.height * 0.2  # the span's box is the line's: its capitals sit inside it
                return max(math.hypot(x - centre.x, y - centre.y)
                           for x in (r.x0, r.x1) for y in (r.y0 + inset, r.y1 - inset)) / PT_PER_MM
    raise AssertionError(f"{word} not printed")


def test_a_token_label_out_of_its_circle_fails_validate_and_truly_runs_out(cli, brew, tmp_path):
    tokens = brew / "tokens.yaml"
    sheet = load_yaml(tokens, "tokens.yaml").data
    word = "Reinforcements"
    tokens.write_text(tokens.read_text().replace('label: "PINNED"', f'label: "{word}"'))
    message = _one_located(cli("validate", "--content", "my-content"),
                           f"tokens.yaml:{_line(tokens, word)}: tokens[0].label:")
    assert word in message and "run out of its circle" in message
    # printed anyway, the word does leave its circle: validate's model says what the page shows
    assert cli("tokens", "brew", "--content", "my-content", "-o", "t.pdf").exit_code == 0
    assert _label_reach_mm(tmp_path / "t.pdf", word) > sheet["diameter_mm"] / 2


def test_a_bundled_label_near_its_limit_passes_and_stays_inside(cli, tmp_path):
    """The other way round: the bundled label with the least room passes and prints inside its cut."""
    lib = Library()
    near = []
    for game_id in lib.game_ids():
        sheet = lib.game(game_id).content.get("tokens")
        for token in sheet.tokens if sheet else []:
            size = label_size_pt(token.label, sheet.diameter_mm)
            widest = max(token.label.split(), key=lambda w: text_em(w.upper(), bold=True, spacing_em=0.02))
            width = text_em(widest.upper(), bold=True, spacing_em=0.02) * size / PT_PER_MM
            near.append((width / label_room_mm(token, sheet.diameter_mm, size), game_id, widest, sheet.diameter_mm))
    ratio, game_id, word, diameter = max(near)
    assert ratio <= 1
    assert cli("tokens", game_id, "-o", "t.pdf").exit_code == 0
    assert _label_reach_mm(tmp_path / "t.pdf", word) < diameter / 2


def test_an_error_in_a_games_own_template_fails_validate_naming_the_template(cli, brew):
    (brew / "templates").mkdir()
    own = brew / "templates" / "card.html.j2"
    own.write_text('{% extends "bundled/card.html.j2" %}\n{% block style %}{{ super() }}\n'
                   '.card-head { background: {{ colours.gold }}; }\n{% endblock %}\n')
    result = cli("validate", "--content", "my-content")
    assert result.exit_code == 1, result
    assert "templates/card.html.j2:3:" in result.stderr and "gold" in result.stderr


def test_a_theme_without_a_colour_fails_at_its_line_not_in_a_template(cli, brew, tmp_path):
    design = tmp_path / "my-content" / "_print" / "design.yaml"
    removed = next(iter(Neutrals.model_fields))
    lines = design.read_text().splitlines(keepends=True)
    colours = next(i for i, line in enumerate(lines) if line.startswith("colours:"))
    cut = next(i for i in range(colours + 1, len(lines)) if lines[i].strip().startswith(f"{removed}:"))
    design.write_text("".join(lines[:cut] + lines[cut + 1:]))
    for command in (("validate",), ("cards", "brew", "-o", "x.pdf"), ("reference", "brew", "-o", "r.pdf")):
        result = cli(*command, "--content", "my-content")
        message = _one_located(result, f"design.yaml:{colours + 1}: colours.{removed}:")  # the mapping it is missing from
        assert "required key is missing" in message, result
        assert ".j2" not in result.stderr
    assert not (tmp_path / "x.pdf").exists() and not (tmp_path / "r.pdf").exists()


def test_a_section_id_written_as_a_mapping_is_a_located_mistake_not_a_traceback(cli, tmp_path):
    """Found by the hostile property test: a quick-reference card naming a section, in a file whose
    section id is a mapping (unhashable), crashed the check that runs when the file does not load."""
    assert cli("new", "game", "brew").exit_code == 0
    (tmp_path / "my-content" / "brew" / "reference.yaml").write_text(
        "title: Brew\nsections:\n  - id: {a: 1}\n    title: Moves\n    blocks: [{p: Move.}]\n"
        "cards:\n  title: Quick\n  size: poker\n  cards:\n    - {id: q, title: Q, sections: [moves]}\n")
    result = cli("validate", "--content", "my-content")
    assert result.exit_code == 1 and "Traceback" not in result.stderr
    assert "reference.yaml:3:" in result.stderr, result.stderr


def _token_overrun_mm(pdf_path) -> list[tuple[float, str]]:
    """How far each printed word on a token reaches past its cut circle (negative: inside), in
    mm: its letters' corners, from the capitals' height above the baseline to a descender under it."""
    out = []
    with pymupdf.open(pdf_path) as pdf:
        for page in pdf:
            circles = [d["rect"] for d in page.get_drawings() if abs(d["rect"].width - d["rect"].height) < 1]
            for span in (s for b in page.get_text("dict")["blocks"] for line in b.get("lines", []) for s in line["spans"]):
                r = pymupdf.Rect(span["bbox"])
                mid = pymupdf.Point((r.x0 + r.x1) / 2, (r.y0 + r.y1) / 2)
                around = [c for c in circles if math.hypot(mid.x - (c.x0 + c.x1) / 2, mid.y - (c.y0 + c.y1) / 2) < c.width / 2]
                if not span["text"].strip() or not around:
                    continue  # the sheet's head and foot
                cut = min(around, key=lambda c: c.width)
                cx, cy = (cut.x0 + cut.x1) / 2, (cut.y0 + cut.y1) / 2
                base = span["origin"][1]
                reach = max(math.hypot(x - cx, y - cy) for x in (r.x0, r.x1)
                            for y in (base - 0.73 * span["size"], base + 0.2 * span["size"]))
                out.append(((reach - cut.width / 2) / PT_PER_MM, span["text"].strip()))
    return out


@pytest.mark.parametrize("options", [("--paper", "a4"), ("--paper", "letter"), ("--large-print",)])
def test_every_bundled_token_prints_its_words_inside_its_circle(cli, tmp_path, options):
    """Every word of every token of every game (its label and its rule text at the 7.5 pt floor,
    or at 12 pt in large print, where the tokens grow to hold them), read back from the printed
    sheet, stays inside the cut (a reminder of six lines ran 1.5 mm through it at the bottom of a
    30 mm circle, where the circle is narrow; at 12 pt, 4.8 mm)."""
    lib = Library()
    games = [g for g in lib.game_ids() if lib.game(g).content.get("tokens") is not None]
    assert games
    for game_id in games:
        out = tmp_path / f"{game_id}.pdf"
        assert cli("tokens", game_id, *options, "-o", str(out)).exit_code == 0
        reach = _token_overrun_mm(out)
        assert reach, game_id
        worst = max(reach)
        assert worst[0] < 0, (game_id, worst)  # no letter reaches the cut line
        assert _head_overlap_mm(out) <= 0, game_id  # the sheet's title, wrapped or not, stays above the tokens


def _head_overlap_mm(pdf_path) -> float:
    """How far the lowest text of a token sheet's head reaches into its first row of tokens (the
    outer edge of their rings), in mm; negative: above it."""
    worst = -math.inf
    with pymupdf.open(pdf_path) as pdf:
        for page in pdf:
            rings = [d["rect"] for d in page.get_drawings() if abs(d["rect"].width - d["rect"].height) < 1
                     and d["rect"].width > 20]
            first_row = min(r.y0 for r in rings)
            head = [pymupdf.Rect(s["bbox"]) for b in page.get_text("dict")["blocks"] for line in b.get("lines", [])
                    for s in line["spans"] if s["text"].strip() and s["bbox"][1] < first_row]
            worst = max(worst, max(r.y1 for r in head) - first_row)
    return worst / PT_PER_MM


def test_a_token_whose_words_overfill_its_circle_fails_validate_and_truly_runs_out(cli, brew, tmp_path):
    """A detail whose every line fits across the token, but whose lines together reach where the
    circle is too narrow for them, is named at its detail; printed anyway, it does run out."""
    tokens = brew / "tokens.yaml"
    detail = "activated this turn; may not move, fire or react again until the next turn begins"
    tokens.write_text(tokens.read_text().replace('detail: "activated"', f'detail: "{detail}"'))
    message = _one_located(cli("validate", "--content", "my-content"),
                           f"tokens.yaml:{_line(tokens, detail)}: tokens[1].detail:")
    assert "run out of the circle" in message
    assert cli("tokens", "brew", "--content", "my-content", "-o", "t.pdf").exit_code == 0
    assert max(_token_overrun_mm(tmp_path / "t.pdf"))[0] > 0
