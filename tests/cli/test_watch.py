"""`sheets watch`: every target built at the start, rebuilt (PDF and PNG previews) on each batch of
changes that can touch it; a failing build prints its located error and the watch goes on."""
import pypdf
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
        # the title as edited; its casing on the card is the theme's choice
        assert "scoutz" in pdf_text(out / "skirmish-cards-units.pdf").casefold()
        cards.write_text(cards.read_text().replace("subtitle: \"Light", "subtitel: \"Light"))
        yield {cards}
        cards.write_text(cards.read_text().replace("subtitel: \"Light", "subtitle: \"Light").replace("Scoutz", "Scouts!"))
        yield {cards}
        yield {fixture_content / "other-game" / "game.yaml"}  # another game's file: nothing to rebuild

    watch.run([watch.parse_target("cards:skirmish:units")], changes(),
              PrintOptions(paper="a4", output=out, content=fixture_content), echo=said.append)
    assert "scouts!" in pdf_text(out / "skirmish-cards-units.pdf").casefold()
    # a PNG of every page of the set (its fronts, and the backs the cards kind prints after them)
    pages = len(pypdf.PdfReader(out / "skirmish-cards-units.pdf").pages)
    assert sorted(p.name for p in (out / "preview").glob("skirmish-cards-units-*.png")) == [
        f"skirmish-cards-units-{n:02d}.png" for n in range(1, pages + 1)]
    builds = [line for line in said if line.startswith("built cards:skirmish:units in ")]
    assert len(builds) == 3
    assert all(line.endswith(f"s: skirmish-cards-units.pdf and {pages} page previews") for line in builds), builds
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


def test_an_edit_rebuilds_only_the_targets_that_read_the_file(cli, tmp_path):
    """The guide's loop (`cards:GAME reference:GAME`): a reference edit rebuilds the reference, a card
    set's edit its cards, a README nothing, the game's theme both (issue 49)."""
    from sheets.base import paths
    from sheets.library.content import Library

    assert cli("new", "game", "brew").exit_code == 0
    root = tmp_path / "my-content"
    game = root / "brew"
    cards, reference = watch.parse_target("cards:brew"), watch.parse_target("reference:brew")
    targets = [cards, reference]
    loaded = Library(root).game("brew")
    assert loaded.content["reference"].cards is None  # the starter cuts no cards from its reference
    assert watch.affected(targets, [game / "reference.yaml"], root) == [reference]
    assert watch.affected(targets, [game / "cards" / "orders.yaml"], root) == [cards]
    assert watch.affected(targets, [game / "README.md", game / "art" / "sketch.kra", root / "NOTES.txt"], root) == []
    assert watch.affected(targets, [game / "theme.yaml"], root) == targets
    assert watch.affected(targets, [game / "images" / "art.png"], root) == targets
    assert watch.affected(targets, [root / "other" / "reference.yaml"], root) == []
    templates = paths.templates_dir() / "_base"
    assert watch.affected(targets, [templates / "card.html.j2"], root) == [cards]
    assert watch.affected(targets, [templates / "base.css"], root) == targets
    one_set = watch.parse_target("cards:brew:orders")
    assert watch.affected([one_set], [game / "cards" / "other.yaml"], root) == []

    # built and rebuilt as the watch runs: a reference edit writes the reference again, not the cards
    out = tmp_path / "out"
    said: list[str] = []

    def changes():
        written = {p.name: p.stat().st_mtime_ns for p in out.glob("*.pdf")}
        reference_file = game / "reference.yaml"
        reference_file.write_text(reference_file.read_text() + "\n# an edit\n")
        yield {reference_file}
        again = {p.name: p.stat().st_mtime_ns for p in out.glob("*.pdf")}
        assert [name for name in written if again[name] != written[name]] == ["brew-reference.pdf"]

    watch.run(targets, changes(), PrintOptions(paper="a4", output=out, content=root), echo=said.append)
    assert [line.split(" in ")[0] for line in said if line.startswith("built ")] == [
        "built cards:brew", "built reference:brew", "built reference:brew"]
