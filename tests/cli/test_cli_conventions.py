"""What a Python CLI user expects: shell completion, range errors naming the value and the
range, and a sheets.toml for defaults (paper, output folder, card layout, back offset) under
the command line, shown with where each value came from by `sheets config`."""
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import page_size_mm, pages

A4 = (210.0, 297.0)
LETTER = (215.9, 279.4)


def size(path: Path) -> tuple[float, float]:
    width, height = page_size_mm(path)
    return round(width, 1), round(height, 1)


@pytest.fixture
def user_config(tmp_path_factory, monkeypatch) -> Path:
    """The user's config folder (~/.config/warsheets/ on Linux), empty and private to the test."""
    home = tmp_path_factory.mktemp("xdg")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home))
    folder = home / "warsheets"
    folder.mkdir(parents=True)
    return folder


def test_shell_completion_is_offered(cli):
    result = cli("--help")
    assert result.exit_code == 0
    assert "--install-completion" in result.stdout and "--show-completion" in result.stdout
    # `--show-completion` is a flag: the script is for the shell it runs in, which Typer finds
    # among the command's parent processes; run it from bash (`; true` keeps bash from
    # exec-ing the command, so bash stays its parent), as a user at a prompt does
    sheets = Path(sys.executable).with_name("sheets")  # the installed command, as a user types it
    script = subprocess.run(["bash", "-c", f"{shlex.quote(str(sheets))} --show-completion; true"],
                            capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert "_SHEETS_COMPLETE=complete_bash" in script.stdout, script.stderr


@pytest.mark.unit
@pytest.mark.parametrize("args, message", [
    (("trackers", "regiment", "--teams", "0"), "Invalid value for '--units' / '--teams': 0 is not in the range 1 to 200"),
    (("playbook", "--count", "5000"), "Invalid value for '--count' / '-n': 5000 is not in the range 1 to 1000"),
    (("kit", "--players", "-1"), "Invalid value for '--players': -1 is not in the range 0 to 12"),
])
def test_a_range_error_names_the_value_and_the_range(cli, tmp_path, args, message):
    result = cli(*args)
    assert result.exit_code == 1
    assert message in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "output").exists()


def test_the_config_of_the_working_folder_sets_paper_and_output(cli, tmp_path, user_config):
    (tmp_path / "sheets.toml").write_text('paper = "letter"\noutput = "prints"\n', encoding="utf-8")
    result = cli("tokens", "platoon")
    assert result.exit_code == 0, result
    assert "wrote prints/platoon-tokens.pdf" in result.stdout
    assert size(tmp_path / "prints" / "platoon-tokens.pdf") == LETTER
    assert not (tmp_path / "output").exists()
    # the command line wins
    result = cli("tokens", "platoon", "--paper", "a4", "-o", "mine.pdf")
    assert result.exit_code == 0, result
    assert size(tmp_path / "mine.pdf") == A4


def test_the_working_folder_wins_over_the_user_config_key_by_key(cli, tmp_path, user_config):
    (user_config / "sheets.toml").write_text('# mine\npaper = "letter"\noutput = "/tmp/never-used"\n',
                                             encoding="utf-8")
    (tmp_path / "sheets.toml").write_text('output = "prints"\n', encoding="utf-8")
    result = cli("config")
    assert result.exit_code == 0, result
    lines = result.stdout.splitlines()
    assert [line.split("  ")[0] for line in lines[:5]] == ["paper", "output", "layout", "back_offset", "content"]
    assert [line.split()[1:] for line in lines[:2]] == [["letter", f"{user_config / 'sheets.toml'}:2"],
                                                        [str(tmp_path / "prints"), "sheets.toml:1"]]
    assert [" ".join(line.split()) for line in lines[2:4]] == [
        "layout (the card size's default layout on the paper) built-in default",
        "back_offset 0,0 built-in default"]
    assert " ".join(lines[4].split()) == "content (the bundled content) built-in default"
    assert lines[5:] == [
        f"read: {user_config / 'sheets.toml'}",
        f"read: {tmp_path / 'sheets.toml'}",
        "an option given on the command line wins over these",
    ]
    assert cli("tokens", "platoon").exit_code == 0
    assert size(tmp_path / "prints" / "platoon-tokens.pdf") == LETTER


@pytest.mark.unit
def test_config_without_files_shows_the_built_in_defaults(cli, tmp_path, user_config):
    lines = cli("config").stdout.splitlines()
    assert lines[0].split() == ["paper", "a4", "built-in", "default"]
    assert lines[1].split() == ["output", "./output", "built-in", "default"]
    assert lines[5:7] == [f"none: {user_config / 'sheets.toml'}",
                          f"none: {tmp_path / 'sheets.toml'} (nor in a folder above)"]


def test_config_set_writes_the_users_file_and_every_command_takes_it(cli, tmp_path, user_config):
    result = cli("config", "set", "paper", "letter")
    assert result.exit_code == 0, result
    assert (user_config / "sheets.toml").read_text(encoding="utf-8") == 'paper = "letter"\n'
    assert cli("config").stdout.splitlines()[0].split() == ["paper", "letter", f"{user_config / 'sheets.toml'}:1"]
    assert cli("config", "show").stdout == cli("config").stdout
    assert cli("tokens", "platoon").exit_code == 0
    assert size(tmp_path / "output" / "platoon-tokens.pdf") == LETTER
    refused = cli("config", "set", "paper", "a3")
    assert refused.exit_code == 1 and "'a3' is not a paper size" in refused.stderr
    assert (user_config / "sheets.toml").read_text(encoding="utf-8") == 'paper = "letter"\n'


def test_a_sheets_toml_above_the_working_folder_is_found_as_git_finds_its_repository(cli, tmp_path, user_config,
                                                                                     monkeypatch):
    (tmp_path / "sheets.toml").write_text('paper = "letter"\n', encoding="utf-8")
    below = tmp_path / "campaign" / "deeper"
    below.mkdir(parents=True)
    monkeypatch.chdir(below)
    lines = cli("config").stdout.splitlines()
    assert lines[0].split()[:2] == ["paper", "letter"] and lines[0].endswith("sheets.toml:1")
    assert f"read: {tmp_path / 'sheets.toml'}" in lines
    assert cli("mission", "--seed", "3", "-o", "m.pdf").exit_code == 0
    assert cli("playbook", "soldier", "-o", "s.pdf").exit_code == 0
    assert size(below / "m.pdf") == LETTER and size(below / "s.pdf") == LETTER
    # a nearer one wins
    (below / "sheets.toml").write_text('paper = "a4"\n', encoding="utf-8")
    assert cli("config").stdout.splitlines()[0].split() == ["paper", "a4", "sheets.toml:1"]


@pytest.mark.parametrize("environment, paper, source", [
    ({"LANG": "en_US.UTF-8"}, "letter", "locale LANG=en_US.UTF-8"),
    ({"LANG": "fr_CA.UTF-8"}, "letter", "locale LANG=fr_CA.UTF-8"),
    ({"LANG": "es_MX"}, "letter", "locale LANG=es_MX"),
    ({"LANG": "fil_PH.UTF-8"}, "letter", "locale LANG=fil_PH.UTF-8"),
    ({"LANG": "en_GB.UTF-8"}, "a4", "locale LANG=en_GB.UTF-8"),
    ({"LANG": "en_GB.UTF-8", "LC_PAPER": "en_US.UTF-8"}, "letter", "locale LC_PAPER=en_US.UTF-8"),
    ({"LC_ALL": "de_DE.UTF-8", "LC_PAPER": "en_US.UTF-8"}, "a4", "locale LC_ALL=de_DE.UTF-8"),
    ({"LANG": "C.UTF-8"}, "a4", "built-in default"),
    ({"LANG": "en_US.UTF-8", "SHEETS_PAPER": "a4"}, "a4", "SHEETS_PAPER"),
])
def test_with_nothing_set_the_locale_chooses_the_paper(cli, tmp_path, user_config, monkeypatch, environment, paper,
                                                       source):
    for variable, value in environment.items():
        monkeypatch.setenv(variable, value)
    line = cli("config").stdout.splitlines()[0]
    assert " ".join(line.split()) == f"paper {paper} {source}"
    assert cli("tokens", "platoon").exit_code == 0
    assert size(tmp_path / "output" / "platoon-tokens.pdf") == (LETTER if paper == "letter" else A4)


def test_sheets_paper_wins_over_every_sheets_toml_and_the_command_line_over_it(cli, tmp_path, user_config,
                                                                               monkeypatch):
    (user_config / "sheets.toml").write_text('paper = "a4"\n', encoding="utf-8")
    (tmp_path / "sheets.toml").write_text('paper = "a4"\n', encoding="utf-8")
    monkeypatch.setenv("SHEETS_PAPER", "letter")
    assert " ".join(cli("config").stdout.splitlines()[0].split()) == "paper letter SHEETS_PAPER"
    assert cli("tokens", "platoon", "-o", "env.pdf").exit_code == 0
    assert cli("tokens", "platoon", "--paper", "a4", "-o", "given.pdf").exit_code == 0
    assert size(tmp_path / "env.pdf") == LETTER and size(tmp_path / "given.pdf") == A4
    monkeypatch.setenv("SHEETS_PAPER", "a3")
    result = cli("tokens", "platoon")
    assert result.exit_code == 1
    assert result.stderr.strip() == ("error: SHEETS_PAPER: paper: 'a3' is not a paper size this tool prints on "
                                     "(give one of: a4, letter)")


def test_back_offset_and_layout_from_the_config_are_what_the_option_gives(cli, tmp_path, user_config):
    assert cli("cards", "calibrate", "--back-offset", "1.5,-2", "-o", "given.pdf").exit_code == 0
    assert cli("cards", "platoon", "--set", "profiles", "--layout", "poker-a4-gutter", "-o", "given-cards.pdf").exit_code == 0
    (tmp_path / "sheets.toml").write_text('back_offset = [1.5, -2]\nlayout = "poker-a4-gutter"\n', encoding="utf-8")
    assert cli("cards", "calibrate", "-o", "config.pdf").exit_code == 0
    assert cli("cards", "platoon", "--set", "profiles", "-o", "config-cards.pdf").exit_code == 0
    assert (tmp_path / "config.pdf").read_bytes() == (tmp_path / "given.pdf").read_bytes()
    assert (tmp_path / "config-cards.pdf").read_bytes() == (tmp_path / "given-cards.pdf").read_bytes()
    assert cli("cards", "calibrate", "--back-offset", "0,0", "-o", "plain.pdf").exit_code == 0
    assert (tmp_path / "plain.pdf").read_bytes() != (tmp_path / "given.pdf").read_bytes()
    assert pages(tmp_path / "config-cards.pdf") == pages(tmp_path / "given-cards.pdf")


@pytest.mark.unit
@pytest.mark.parametrize("text, message", [
    ('paper = "a3"\n', "error: sheets.toml:1: paper: 'a3' is not a paper size this tool prints on "
                       "(give one of: a4, letter)"),
    ('# defaults\npapr = "a4"\n', "error: sheets.toml:2: papr: unknown key (a sheets.toml may set "
                                  "paper, output, layout, back_offset, content)"),
    ('back_offset = "1;2"\n', "error: sheets.toml:1: back_offset: '1;2' is not two numbers in mm, "
                              "e.g. back_offset = \"1,-0.5\""),
    ('paper = \n', "error: sheets.toml: not valid TOML: Invalid value (at line 1, column 9)"),
])
def test_a_bad_config_is_one_located_message(cli, tmp_path, user_config, text, message):
    (tmp_path / "sheets.toml").write_text(text, encoding="utf-8")
    result = cli("tokens", "platoon")
    assert result.exit_code == 1
    assert result.stderr.strip() == message
    assert not (tmp_path / "output").exists()
    assert cli("config").stderr.strip() == message


@pytest.mark.unit
def test_help_and_version_work_whatever_the_config(cli, tmp_path, user_config):
    (tmp_path / "sheets.toml").write_text("not toml at all\n", encoding="utf-8")
    assert cli("--help").exit_code == 0
    assert cli("--version").exit_code == 0
    assert os.environ["XDG_CONFIG_HOME"] == str(user_config.parent)
    assert not (tmp_path / "output").exists()


def test_the_commands_a_run_prints_carry_its_paper(cli, tmp_path, user_config):
    """The calibration sheet's cards command names its paper and duplex edge; a campaign's message names
    `--paper letter` when the run was given it over the paper in force (a4 here)."""
    from conftest import pdf_text, squash

    from sheets.base import paths

    assert cli("cards", "calibrate", "--paper", "letter", "--duplex", "short", "-o", "cal.pdf").exit_code == 0
    said = squash(pdf_text(tmp_path / "cal.pdf"))
    assert squash("sheets cards GAME --backs --paper letter --duplex short --back-offset X,Y") in said
    team = paths.content_dir() / "wotw" / "examples" / "german-team.yaml"
    assert cli("campaign", "new", "ww.yaml", "--nation", "german", "--theatre", "france-1944", "--team", team).exit_code == 0
    assert cli("campaign", "mission", "ww.yaml", "--seed", "11", "--paper", "letter", "-o", "m1.pdf").exit_code == 0
    refused = cli("campaign", "mission", "ww.yaml", "--seed", "12", "--paper", "letter", "-o", "m2.pdf")
    assert refused.exit_code == 1
    assert squash("(run `sheets campaign mission ww.yaml --paper letter` alone") in squash(refused.stderr)
    refused = cli("campaign", "mission", "ww.yaml", "--seed", "12", "-o", "m2.pdf")
    assert squash("(run `sheets campaign mission ww.yaml` alone") in squash(refused.stderr)


#: what the commands import when they run (content models, Jinja, the layout engine, the PDF
#: libraries, every kind's builder), which `sheets --help` must not
HEAVY = ("weasyprint", "jinja2", "pydantic", "pikepdf", "reportlab", "pypdf", "fontTools", "ruamel", "yaml",
         "sheets.kinds.registry", "sheets.library.content", "sheets.app", "sheets.pipeline", "sheets.pdf")
_HELP_IN_A_FRESH_PROCESS = '''
import sys
sys.argv = ["sheets", "--help"]
from sheets.cli import main
try:
    main()
except SystemExit:
    pass
print(" ".join(sorted(sys.modules)))
'''


def test_help_imports_no_command_s_heavy_dependencies():
    """`sheets --help` lists every command without building one or importing what they need
    (it took 10x a bare Python start): the modules a command loads, read in the process."""
    done = subprocess.run([sys.executable, "-c", _HELP_IN_A_FRESH_PROCESS], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    *_, loaded = done.stdout.strip().splitlines()
    heavy = [m for m in loaded.split() if m.startswith(HEAVY) and (m in HEAVY or m.startswith(tuple(h + "." for h in HEAVY)))]
    assert heavy == []
    assert "Commands:" in done.stdout and "  kit " in done.stdout  # the list itself was printed
    running = subprocess.run([sys.executable, "-c", _HELP_IN_A_FRESH_PROCESS.replace('"--help"', '"list"')],
                             capture_output=True, text=True, timeout=120)
    assert "sheets.library.content" in running.stdout.split()  # what the list is checked against: loaded by a command


def test_help_lists_every_command_with_the_help_the_command_itself_gives(cli):
    """The root's list comes from the commands' declarations (nothing is built for it): each line
    is what the built command says of itself, for every command, the kinds' plain ones too."""
    from typer.main import get_command

    from sheets.cli import app
    from sheets.kinds import registry

    root = get_command(app)
    ctx = root.make_context("sheets", ["--help"], resilient_parsing=True)
    names = root.list_commands(ctx)
    assert {k.name for k in registry.GENERIC if k.command} <= set(names)
    listed = cli("--help").stdout.split("Commands:\n", 1)[1]
    for name in names:
        command = root.get_command(ctx, name)
        assert command is not None, name
        line = next(line for line in listed.splitlines() if line.split()[:1] == [name])
        assert " ".join(line.split()[1:]) == command.get_short_help_str(80 - 6 - max(map(len, names))), name
        assert cli(*name.split(), "--help").exit_code == 0, name


def _imported(stderr: str) -> set[str]:
    """The modules `python -X importtime` says a run imported."""
    return {line.rsplit("|", 1)[1].strip() for line in stderr.splitlines() if line.startswith("import time:")}


@pytest.mark.parametrize("columns", ["100", "60"])
def test_the_root_help_is_the_cli_s_own_text_kept_and_then_needs_no_typer(tmp_path, columns):
    """`sheets --help` prints what the CLI printed for it (kept in the cache, named by what the
    text is made of: the terminal's width among them); once kept, the run imports no Typer."""
    env = dict(os.environ, SHEETS_CACHE_DIR=str(tmp_path / "cache"), COLUMNS=columns)
    runs = [subprocess.run([sys.executable, "-X", "importtime", "-m", "sheets", "--help"], capture_output=True,
                           text=True, env=env, timeout=120) for _ in range(2)]
    assert [r.returncode for r in runs] == [0, 0]
    made, kept = runs
    assert made.stdout == kept.stdout and "Commands:" in made.stdout and "  kit " in made.stdout
    assert max(len(line) for line in made.stdout.splitlines()) <= int(columns)
    assert "typer" in _imported(made.stderr) and not {m for m in _imported(kept.stderr) if m.startswith("typer")}
