"""Down Range, the platoon rules and Mass Combat: content, printables and their text."""
import re

import pytest

from conftest import bundled_games, pdf_text, squash

#: the games whose content has a reference (reference.yaml), the bundled ones as the library finds them
REFERENCED = bundled_games("reference")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The three games' printables and every game's content reference, built once through the CLI."""
    from typer.testing import CliRunner

    from sheets.cli import app

    folder = tmp_path_factory.mktemp("games")
    runner = CliRunner()
    commands = {
        **{f"{game}-reference": ["reference", game] for game in REFERENCED},
        "downrange-quickref": ["cards", "downrange", "--set", "quickref"],
        "downrange-units": ["cards", "downrange", "--set", "units"],
        "downrange-tokens": ["tokens", "downrange"],
        "platoon-profiles": ["cards", "platoon", "--set", "profiles"],
        "platoon-orders": ["tokens", "platoon", "--copies", "3"],
        "platoon-tracker": ["trackers", "platoon"],
        "masscombat-memo": ["cards", "masscombat", "--set", "memo"],
        "masscombat-strategies": ["cards", "masscombat", "--set", "strategies"],
        "masscombat-waves": ["trackers", "masscombat"],
    }
    out = {}
    for name, args in commands.items():
        target = folder / f"{name}.pdf"
        result = runner.invoke(app, [*args, "-o", str(target)])
        assert result.exit_code == 0, (name, result.output)
        out[name] = target
    return out


def text_of(built, name):
    return squash(pdf_text(built[name]))


def every_cell(doc):
    for section in doc.sections:
        for block in section.blocks:
            if block.table is not None:
                for row in block.table.rows:
                    yield section.id, row


@pytest.mark.parametrize("game", REFERENCED)
def test_every_reference_table_row_is_printed(built, library, game):
    text = text_of(built, f"{game}-reference")
    reference = library.game(game).content["reference"]
    for section in reference.sections:
        assert squash(section.title).lower() in text.lower(), section.id
    rows = 0
    for section_id, row in every_cell(reference):
        rows += 1
        for cell in row:
            expected = "—" if cell is None else squash(str(cell))
            assert expected in text, (section_id, row)
    assert rows > 10


def test_platoon_reference_takes_the_pages_it_needs(built, library):
    # issue 13: as many pages as it needs at 7 pt or larger (was one page at 5.8 pt);
    # the type size itself is measured in test_play_aids.py. The rules take two pages; the
    # designer's notes, when the game has any, follow on a page of their own (issue 47)
    import fitz

    from sheets.kinds.reference.builder import designers_notes

    with fitz.open(built["platoon-reference"]) as doc:
        heads = [p.number for p in doc if p.get_text().lstrip().startswith("Designer's notes")]
        total = doc.page_count
    has_notes = designers_notes(library.game("platoon")) is not None
    assert heads == ([total - 1] if has_notes else [])
    assert total - len(heads) == 2


def test_downrange_tables_are_all_there(library):
    captions = [b.table.caption for s in library.game("downrange").content["reference"].sections for b in s.blocks
                if b.table is not None and b.table.caption]
    for table in ["2-1", "2-2", "2-3", "3-1", "3-2", "3-3", "4-1"]:
        assert any(table in c for c in captions), table


def test_downrange_quick_reference_cards(built):
    text = text_of(built, "downrange-quickref")
    for title in ["Attack sequence", "Difficulty", "Medical", "Weapons: small arms", "Explosives",
                  "Vehicles", "Signals", "Voice, EW and command"]:
        assert squash(title).upper() in text.upper(), title


def test_downrange_unit_cards(built, library):
    text = text_of(built, "downrange-units")
    cards = library.game("downrange").card_sets["units"].cards
    assert len(cards) == 21
    for card in cards:
        assert squash(card.title).upper() in text.upper(), card.title


def test_downrange_tokens(built, library):
    text = text_of(built, "downrange-tokens")
    for label in ["REACTION", "SIGNAL", "NOAMMO", "SUPPRESSED", "INJURED", "OBSERVED", "MAINEFFORT", "FOCUS"]:
        assert label in text, label
    tokens = library.game("downrange").content["tokens"].tokens
    assert {t.id for t in tokens} >= {"reaction", "emission", "no-ammo", "suppressed", "injured",
                                      "fires-observation", "main-effort", "focus"}


def test_platoon_profiles_and_orders(built, library):
    text = text_of(built, "platoon-profiles")
    assert "REGULARINFANTRYSQUAD" in text.upper() and "REGULARHEAVYWEAPONSQUAD" in text.upper()
    assert "StatFullReduced" in text and "Firefight31" in text
    orders = text_of(built, "platoon-orders")
    for order in ["ADVANCE", "ASSAULT", "FALLBACK", "ENGAGE", "RALLY"]:
        assert orders.upper().count(order) >= 3, order


def test_platoon_tracker_computes_the_morale_check_point(cli, tmp_path, built):
    text = pdf_text(built["platoon-tracker"])
    assert "7 squads: MCP 3" in text  # 7 squads by default, halved rounding down
    result = cli("trackers", "platoon", "--tracker", "platoon", "--units", "10", "-o", tmp_path / "p.pdf")
    assert result.exit_code == 0, result
    assert "10 squads: MCP 5" in pdf_text(tmp_path / "p.pdf")


def test_mass_combat_strategy_cards(built, library):
    text = text_of(built, "masscombat-strategies").upper()
    strategies = library.game("masscombat").card_sets["strategies"].cards
    assert len(strategies) == 13
    for card in strategies:
        assert squash(card.title).upper() in text, card.title
        assert squash(card.subtitle).upper() in text, card.subtitle
    for category in ["OFFENSIVE", "DEFENSIVE", "RETREAT", "HARASS"]:
        assert category in text


def test_mass_combat_memo_and_wave_tracker(built):
    assert "MEMO" in text_of(built, "masscombat-memo").upper()
    waves = text_of(built, "masscombat-waves")
    for column in ["Wave", "Faction", "BattleLevel", "Strategy", "Casualties", "Retaliation", "Confused"]:
        assert column in waves, column


def test_the_three_games_are_deterministic(cli, tmp_path):
    for args in (["cards", "masscombat", "--set", "strategies"], ["tokens", "downrange"], ["reference", "platoon"]):
        assert cli(*args, "-o", tmp_path / "a.pdf").exit_code == 0
        assert cli(*args, "-o", tmp_path / "b.pdf").exit_code == 0
        assert (tmp_path / "a.pdf").read_bytes() == (tmp_path / "b.pdf").read_bytes(), args


def test_a_bad_value_in_a_new_game_is_located(cli, content_copy):
    path = content_copy / "masscombat" / "trackers.yaml"
    path.write_text(path.read_text().replace("rows: 12", "rows: many", 1))
    line = next(i for i, text in enumerate(path.read_text().splitlines(), 1) if "rows: many" in text)
    result = cli("validate", "--content", content_copy)
    assert result.exit_code == 1
    assert f"content/masscombat/trackers.yaml:{line}: trackers[0].rows:" in result.stderr


def test_list_shows_every_game(cli, library):
    out = cli("list").stdout
    for game in bundled_games():  # each on a line of its own, with its title
        assert re.search(rf"^{game} +{re.escape(library.game(game).info.title)}$", out, re.M), game
    assert "tokens" in out and "trackers" in out and "cards" in out
