"""`sheets watch`: every target built at the start, rebuilt (PDF and PNG previews) on each batch of
changes that can touch it; a failing build prints its located error and the watch goes on."""
import pytest

from conftest import pdf_text
from sheets.app import watch
from sheets.base.errors import SheetsError
from sheets.base.options import PrintOptions


def card_file(root):
    return root / "skirmish" / "cards" / "units.yaml"


def test_a_change_rebuilds_the_set_and_its_preview_and_an_error_does_not_stop_the_watch(fixture_content, tmp_path):
    out = tmp_path / "out"
    cards = card_file(fixture_content)
    said: list[str] = []

    def changes():
        cards.write_text(cards.read_text().replace('title: "Scouts"', 'title: "Scoutz"'))
        yield {cards}
        assert "SCOUTZ" in pdf_text(out / "skirmish-cards-units.pdf")
        cards.write_text(cards.read_text().replace("subtitle: \"Light", "subtitel: \"Light"))
        yield {cards}
        cards.write_text(cards.read_text().replace("subtitel: \"Light", "subtitle: \"Light").replace("Scoutz", "Scouts!"))
        yield {cards}
        yield {fixture_content / "other-game" / "game.yaml"}  # another game's file: nothing to rebuild

    watch.run([watch.parse_target("cards:skirmish:units")], changes(),
              PrintOptions(paper="a4", output=out, content=fixture_content), echo=said.append)
    assert "SCOUTS!" in pdf_text(out / "skirmish-cards-units.pdf")
    assert (out / "preview" / "skirmish-cards-units-01.png").is_file()
    builds = [line for line in said if line.startswith("built cards:skirmish:units in ")]
    assert len(builds) == 3
    assert all(line.endswith("s: skirmish-cards-units.pdf and 1 page previews") for line in builds)
    errors = [line for line in said if line.startswith("error:")]
    assert errors == ["error: cards:skirmish:units: 1 problem found:\n"
                      "  fixture/skirmish/cards/units.yaml:8: cards[0].subtitel: unknown key: did you mean "
                      "'subtitle'?"]
    assert said[1] == "watching for changes (Ctrl-C stops)"
    assert said.count("changed: units.yaml") == 3


def test_a_template_change_rebuilds_every_target(fixture_content, tmp_path):
    targets = [watch.parse_target("cards:skirmish"), watch.parse_target("reference:skirmish")]
    assert watch.affected(targets, [tmp_path / "templates" / "_base" / "base.css"], fixture_content) == targets
    assert watch.affected(targets, [fixture_content / "_print" / "layouts.yaml"], fixture_content) == targets
    assert watch.affected(targets, [fixture_content / "other" / "game.yaml"], fixture_content) == []


@pytest.mark.parametrize("text, message", [
    ("cards", f"watch target 'cards': give KIND:GAME[:ID], KIND one of {', '.join(watch.KINDS)} "
              "(e.g. cards:GAME:SET, reference:GAME)"),
    ("tokens:skirmish:x", "watch target 'tokens:skirmish:x': only cards (a set) and trackers (one tracker) take an ID"),
])
def test_a_bad_target_is_refused(text, message):
    with pytest.raises(SheetsError) as refused:
        watch.parse_target(text)
    assert str(refused.value) == message


def test_watch_refuses_a_bad_target_before_watching(cli, tmp_path):
    result = cli("watch", "cardz:skirmish")
    assert result.exit_code == 1
    assert result.stderr.startswith("error: watch target 'cardz:skirmish': give KIND:GAME[:ID]")
    assert not (tmp_path / "output").exists()
