"""The user's defaults: `sheets.toml` in the working folder, or in the user's config folder.

    paper = "letter"          # a4 | letter
    output = "prints"         # the folder output goes to instead of ./output/ (relative to this file)
    layout = "poker-letter-9" # the card layout `sheets cards` uses (see `sheets layouts`)
    back_offset = "1,-0.5"    # `sheets cards --back-offset X,Y` (mm), measured with `sheets cards calibrate`

Each value is taken from the command line if given there, else from `./sheets.toml`, else from
the user's `sheets.toml` (`~/.config/warsheets/` on Linux), else the built-in default. A bad file
is one located message (file, line, key) and exit code 1, like any other bad input.

Only the standard library and Typer here: this runs before every command, `--help` included.
"""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

import typer

from sheets import paths
from sheets.errors import SheetsError

FILE_NAME = "sheets.toml"
APP_NAME = "warsheets"

#: key -> (built-in default, what it is)
KEYS: dict[str, tuple[str, str]] = {
    "paper": ("a4", "paper size of every sheet (a4 or letter)"),
    "output": ("./output", "folder output goes to when -o is not given"),
    "layout": ("(the card size's default layout on the paper)", "card layout of `sheets cards`"),
    "back_offset": ("0,0", "`sheets cards --back-offset X,Y` in mm"),
}
PAPERS = ("a4", "letter")
#: the command-line parameter each key sets the default of (`output` moves the output root instead)
PARAMS = {"paper": "paper", "layout": "layout", "back_offset": "back_offset"}
_NUMBER = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)"
_OFFSET = re.compile(rf"^\s*({_NUMBER})\s*,\s*({_NUMBER})\s*$")


@dataclass(frozen=True)
class Setting:
    key: str
    value: str
    source: str  # "path/sheets.toml:LINE" or "built-in default"


def user_config_file() -> Path:
    """`sheets.toml` in the user's config folder (`$XDG_CONFIG_HOME/warsheets/` or `~/.config/warsheets/`)."""
    return Path(typer.get_app_dir(APP_NAME)) / FILE_NAME


def config_files() -> list[Path]:
    """The config files that exist, the weakest first (the user's, then the working folder's)."""
    found = []
    for path in (user_config_file(), Path.cwd() / FILE_NAME):
        if path.is_file() and path.resolve() not in [f.resolve() for f in found]:
            found.append(path)
    return found


def _shown(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def _line_of(text: str, key: str) -> int | None:
    for number, line in enumerate(text.splitlines(), start=1):
        if re.match(rf"^\s*{re.escape(key)}\s*=", line):
            return number
    return None


def _check(key: str, value, where: str, folder: Path) -> str:
    """The value as a string the command line would take; a located error if it is not one."""
    if key == "paper":
        if not isinstance(value, str) or value.lower() not in PAPERS:
            raise SheetsError(f"{where}: paper: {value!r} is not a paper size this tool prints on "
                              f"(give one of: {', '.join(PAPERS)})")
        return value.lower()
    if key == "output":
        if not isinstance(value, str) or not value.strip():
            raise SheetsError(f"{where}: output: give a folder as a string, e.g. output = \"prints\"")
        path = Path(value).expanduser()
        return str(path if path.is_absolute() else folder / path)
    if key == "layout":
        if not isinstance(value, str) or not value.strip():
            raise SheetsError(f"{where}: layout: give a layout id as a string (see `sheets layouts`)")
        return value.strip()
    # back_offset: "X,Y" or [X, Y], numbers in mm
    if isinstance(value, list) and len(value) == 2 and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
        value = f"{value[0]},{value[1]}"
    if not isinstance(value, str) or not _OFFSET.match(value):
        raise SheetsError(f"{where}: back_offset: {value!r} is not two numbers in mm, "
                          f"e.g. back_offset = \"1,-0.5\"")
    return value.replace(" ", "")


def read(path: Path) -> list[Setting]:
    """The settings one file makes; a located SheetsError for anything wrong in it."""
    shown = _shown(path)
    try:
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except UnicodeDecodeError:
        raise SheetsError(f"{shown}: not UTF-8 text") from None
    except OSError as exc:
        raise SheetsError(f"{shown}: cannot be read ({exc.strerror})") from None
    except tomllib.TOMLDecodeError as exc:
        raise SheetsError(f"{shown}: not valid TOML: {exc}") from None
    settings = []
    for key, value in data.items():
        line = _line_of(text, key)
        where = f"{shown}:{line}" if line else shown
        if key not in KEYS:
            raise SheetsError(f"{where}: {key}: unknown key (a sheets.toml may set {', '.join(KEYS)})")
        settings.append(Setting(key, _check(key, value, where, path.parent), where))
    return settings


def in_force() -> dict[str, Setting]:
    """Every key with the value in force without a command line, and where it came from."""
    found = {key: Setting(key, default, "built-in default") for key, (default, _) in KEYS.items()}
    for path in config_files():
        for setting in read(path):
            found[setting.key] = setting
    return found


def _defaults_for(command, values: dict[str, str]) -> dict:
    """Click's default_map for a command tree: each parameter the config sets, by name."""
    if hasattr(command, "commands"):  # a group: one map per subcommand
        return {name: _defaults_for(sub, values) for name, sub in command.commands.items()}
    return {param.name: values[param.name] for param in command.params if param.name in values}


def apply(ctx: typer.Context) -> None:
    """Make the config's values the defaults of this run's commands (the command line still wins)."""
    settings = {key: s for key, s in in_force().items() if s.source != "built-in default"}
    output = settings.get("output")
    paths.set_output_root(Path(output.value) if output else None)
    values = {PARAMS[key]: s.value for key, s in settings.items() if key in PARAMS}
    if values:
        ctx.default_map = _defaults_for(ctx.command, values)


def from_config(ctx: typer.Context, param: str) -> bool:
    """Did this parameter's value come from sheets.toml (not from the command line)?"""
    source = ctx.get_parameter_source(param)
    return source is not None and source.name == "DEFAULT_MAP"
