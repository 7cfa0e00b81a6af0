"""The registry of printable kinds: declared once, read by the kit, `sheets list`, watch, the schemas
and the contents page; every kind has printing advice and a golden file."""
import dataclasses

import pytest

from sheets.app import schemas, watch
from sheets.kinds.print_plugin import KitOptions
from sheets.kinds import registry
from sheets.kinds.kind import Kind
from sheets.kit import assemble, plan
from sheets.kit.assemble import load_printing, printing_kind
from sheets.pipeline.sheet import Sheet

pytestmark = pytest.mark.unit  # `make check`'s fast tier


def test_every_registered_kind_has_printing_advice_in_the_bundled_printing_file():
    printing = load_printing()
    missing = [(kind.name, template) for kind in registry.every() for template in kind.templates
               if printing_kind(printing, template) != kind.printing or kind.printing not in printing.kinds]
    assert missing == []


def test_every_registered_kind_has_a_golden_file(library):
    import importlib.util

    from conftest import REPO

    spec = importlib.util.spec_from_file_location("golden_sheets", REPO / "tests" / "pipeline" / "test_golden.py")
    test_golden = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(test_golden)
    covered = {registry.of_template(make(library).template).name for make in test_golden.SHEETS}
    assert {kind.name for kind in registry.every()} - covered == set()
    assert all((test_golden.GOLDEN / f"{make.__name__}.html").is_file() for make in test_golden.SHEETS)


def test_the_kit_plan_lists_each_game_s_kinds_in_registry_kit_order(library):
    for gid in library.game_ids():
        game = library.game(gid)
        kinds = [registry.of_template(s.template) for s in plan.kit_sheets(library, KitOptions(seed=1), games=[gid])]
        generic = [k for k in kinds if k in registry.GENERIC]
        had = sorted((k for k in registry.GENERIC if k.present(game)), key=lambda k: k.kit_rank)
        assert [k.kit_rank for k in generic] == sorted(k.kit_rank for k in generic), gid  # in kit order
        assert list(dict.fromkeys(generic)) == had, gid  # every kind the game has, and no other
        assert kinds[len(kinds) - len(generic):] == generic, gid  # after the game's own


def test_watch_and_the_schemas_take_the_generic_kinds_from_the_registry():
    generic = [k.name for k in registry.GENERIC]
    assert list(watch.KINDS) == generic
    assert [k.name for k in schemas.CORE][1:1 + len(generic)] == generic  # then the shared files of _print/
    # then a game's designer's notes and look (content the reference and every part print, nothing
    # printed of its own), then the shared files of _print/
    assert [k.name for k in schemas.CORE][1 + len(generic):] == ["notes", "theme", "layouts", "printing", "shops",
                                                                 "palette", "design"]


def test_a_new_kind_is_one_registry_entry_for_the_kit_list_and_contents(library, monkeypatch, cli):
    """A kind added to the registry (here: a one-page roll sheet every game has) reaches the kit's
    plan, `sheets list`, the watch targets, and the contents page's printing advice."""
    def make(lib, game, options, which):
        return [Sheet(filename=f"{game.id}-rolls.pdf", template="rolls.html.j2", context={}, game=game.id)]

    rolls = Kind("rolls", "a game's roll sheet", ("rolls.html.j2",), "trackers", present=lambda game: True,
                 make=make, listed=lambda game: "roll sheet", kit_rank=5)
    monkeypatch.setattr(registry, "GENERIC", (*registry.GENERIC, rolls))
    assert plan.kit_sheets(library, KitOptions(seed=1), games=["platoon"])[-1].filename == "platoon-rolls.pdf"
    assert registry.listing(library.game("platoon"))[-1] == "roll sheet"
    assert assemble.printing_kind(load_printing(), "rolls.html.j2") == "trackers"
    listed = cli("list")
    assert listed.exit_code == 0 and listed.stdout.count("roll sheet") == len(library.game_ids())


def test_a_kind_without_a_builder_is_refused_by_name(library):
    from sheets.app import api
    from sheets.base.errors import SheetsError

    sheet = Kind("regiment.sheet", "a sheet only its game's commands make", ("sheet.html.j2",), "playbook")
    with pytest.raises(SheetsError, match="regiment.sheet sheets are made by their game's own commands"):
        api.make_kind(sheet, "regiment")
    playbook = next(k for k in registry.every() if k.name == "regiment.playbook")
    with pytest.raises(SheetsError, match="unknown kind 'rolls'; choose one of: reference, cards, trackers"):
        registry.generic("rolls")
    assert dataclasses.is_dataclass(playbook)
