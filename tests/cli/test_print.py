"""`sheets print KIND GAME`: every kind of the registry with the shared options, and the kinds'
plain commands made from the registry (a new kind adds no command)."""
from conftest import pdf_text

from sheets.cli import app
from sheets.kinds import registry
from typer.main import get_command


def test_print_makes_a_generic_kind_as_its_plain_command_does(cli, tmp_path, library):
    kind = next(k for k in registry.GENERIC if k.command)
    game = next(gid for gid in library.game_ids() if registry.has(kind, library.game(gid)))
    printed = cli("print", kind.name, game, "-o", tmp_path / "printed.pdf")
    plain = cli(kind.name, game, "-o", tmp_path / "plain.pdf")
    assert printed.exit_code == 0 and plain.exit_code == 0, (printed, plain)
    assert (tmp_path / "printed.pdf").read_bytes() == (tmp_path / "plain.pdf").read_bytes()
    assert library.game(game).info.title in pdf_text(tmp_path / "printed.pdf")


def test_print_makes_a_game_s_own_kind(cli, tmp_path, library):
    kind = next(k for k in registry.every() if "." in k.name and k.make is not None)
    game = kind.name.split(".")[0]
    result = cli("print", kind.name, game, "-o", tmp_path / "own")
    assert result.exit_code == 0, result
    written = sorted((tmp_path / "own").glob("*.pdf")) or [tmp_path / "own"]
    assert all(library.game(game).info.title in pdf_text(path) for path in written)


def test_an_unknown_kind_or_one_the_game_lacks_is_one_message(cli, library):
    unknown = cli("print", "rolls", library.game_ids()[0])
    assert unknown.exit_code == 1 and "unknown kind 'rolls'; choose one of: " + registry.GENERIC[0].name in unknown.stderr
    kind, game = next((k, gid) for k in registry.GENERIC for gid in library.game_ids()
                      if not registry.has(k, library.game(gid)))
    lacking = cli("print", kind.name, game)
    assert lacking.exit_code == 1 and f"has no {kind.name}" in lacking.stderr and "Traceback" not in lacking.stderr


def test_the_plain_commands_are_the_registry_s_and_listed_by_help(cli):
    plain = [k.name for k in registry.GENERIC if k.command]
    assert plain and not set(plain) & set(get_command(app).commands)  # made when asked for, not at start
    helped = cli("--help").stdout
    assert all(f"  {name} " in helped for name in plain) and "  print " in helped
    for kind in registry.GENERIC:
        if kind.command:
            shown = cli(kind.name, "--help").stdout
            assert kind.command.split(" (")[0] in shown and ("--ink-saver" in shown) == kind.ink
