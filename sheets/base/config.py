"""The user's defaults: `sheets.toml` in a folder (the working folder, the desk's workspace) or in
the user's config folder, read and (one key at a time) written.

    paper = "letter"          # a4 | letter
    output = "prints"         # the folder output goes to instead of ./output/ (relative to this file)
    layout = "poker-letter-9" # the card layout `sheets cards` and `sheets kit` use (see `sheets layouts`)
    back_offset = "1,-0.5"    # `sheets cards --back-offset X,Y` (mm), measured with `sheets cards calibrate`
    content = "my-content"    # the content folder every command reads (`--content`), relative to this file

Each value is taken from the command line if given there; else (the paper) from `$SHEETS_PAPER`;
else from the nearest `sheets.toml`: in the working folder or the first folder above it that has one
(as git finds its repository); else from the user's `sheets.toml` (`~/.config/warsheets/` on Linux,
written by `sheets config set KEY VALUE`); else (the paper) from the locale (`LC_ALL`, else
`LC_PAPER`, else `LANG`: a Letter country's locale, such as en_US, gives letter); else the built-in
default. With no `content` set, a working folder that is a content folder (its games' folders, or
`_print/`, in it), or a game's folder in one, is the content folder: `sheets validate` run in
`my-content/` checks my-content.
A bad file is one located message (file, line, key) and exit code 1, like any other bad input; so is
one over `MAX_BYTES` (a few lines are all it holds) or one that is not a regular file. A sheets.toml
is obeyed only when it (and the link naming it, if it is one) belongs to the user running the command
or to root: one someone else left in a folder above (a shared /tmp, a parent of a checkout) would
otherwise choose where output goes and which content is read. It is ignored, said in one line on
standard error (once a run), and the search goes on upwards.
`store` changes one key of a folder's file and nothing else in it (comments, other keys, their
order), checked by reading it back; the write is atomic and the previous file kept as .bak.

Light on purpose (the standard library, Typer's app folder, the atomic writer): the CLI reads
this before every command, `--help` included.
"""
from __future__ import annotations

import hashlib
import os
import re
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import typer

from sheets.base import output, userfiles
from sheets.base.errors import SheetsError
from sheets.base.paper import PAPERS

FILE_NAME = "sheets.toml"
APP_NAME = "warsheets"
#: the largest sheets.toml read: five keys take a few hundred bytes (a bigger one is a mistake, or
#: a link to something endless)
MAX_BYTES = 64 * 1024

#: key -> (built-in default, what it is)
KEYS: dict[str, tuple[str, str]] = {
    "paper": ("a4", f"paper size of every sheet ({' or '.join(PAPERS)})"),
    "output": ("./output", "folder output goes to when -o is not given"),
    "layout": ("(the card size's default layout on the paper)", "card layout of `sheets cards` and `sheets kit`"),
    "back_offset": ("0,0", "`sheets cards --back-offset X,Y` in mm"),
    "content": ("(the bundled content)", "content folder every command reads when --content is not given"),
}
#: the command-line parameter each key sets the default of (`output` moves the output root instead)
PARAMS = {"paper": "paper", "layout": "layout", "back_offset": "back_offset", "content": "content"}
_NUMBER = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)"
_OFFSET = re.compile(rf"^\s*({_NUMBER})\s*,\s*({_NUMBER})\s*$")


@dataclass(frozen=True)
class Setting:
    key: str
    value: str
    source: str  # "path/sheets.toml:LINE", "SHEETS_PAPER", "locale LANG=en_US.UTF-8" or "built-in default"


def user_config_file() -> Path:
    """`sheets.toml` in the user's config folder (`$XDG_CONFIG_HOME/warsheets/` or `~/.config/warsheets/`)."""
    return Path(typer.get_app_dir(APP_NAME)) / FILE_NAME


#: the environment variable that sets the paper over every sheets.toml (the command line still wins)
PAPER_VARIABLE = "SHEETS_PAPER"
#: territories whose paper is US Letter: CLDR's supplemental data (measurementData, paperSize "US-Letter");
#: every other territory prints on A4
LETTER_TERRITORIES = frozenset({"BZ", "CA", "CL", "CO", "CR", "GT", "MX", "NI", "PA", "PH", "PR", "SV", "US", "VE"})
_TERRITORY = re.compile(r"^[A-Za-z]{2,3}_([A-Za-z]{2})(?:[.@]|$)")


_ignored: set[Path] = set()  # the files said to be ignored in this run (each said once)


def _owner_of(path: Path) -> int | None:
    """The first owner of `path` (or of the link naming it) who is neither the user nor root;
    None when both are one of them (or the system has no owners)."""
    getuid = getattr(os, "getuid", None)
    if getuid is None:
        return None
    try:
        owners = (os.lstat(path).st_uid, os.stat(path).st_uid)
    except OSError:
        return None  # gone, or unreadable: the reader says so
    return next((uid for uid in owners if uid not in (0, getuid())), None)


def trusted(path: Path) -> bool:
    """Is this sheets.toml obeyed? Only when the user (or root) owns it; else it is said, once, to
    be ignored."""
    owner = _owner_of(path)
    if owner is None:
        return True
    key = Path(path).absolute()
    if key not in _ignored:
        _ignored.add(key)
        print(f"note: {_shown(path)}: ignored: it belongs to another user (uid {owner}), not to you or root",
              file=sys.stderr)
    return False


def nearest_file(folder: Path | None = None) -> Path | None:
    """The `sheets.toml` of `folder` (by default the working folder) or of the first folder above it
    that has one the user may be told by (`trusted`)."""
    start = Path(folder or Path.cwd()).absolute()
    for place in (start, *start.parents):
        if (place / FILE_NAME).is_file() and trusted(place / FILE_NAME):
            return place / FILE_NAME
    return None


def config_files(folder: Path | None = None) -> list[Path]:
    """The config files that exist, the weakest first: the user's, then the nearest one from `folder`
    (by default the working folder) up."""
    found: list[Path] = []
    user = user_config_file()
    for path in (user if user.is_file() and trusted(user) else None, nearest_file(folder)):
        if path is not None and path.is_file() and path.resolve() not in [f.resolve() for f in found]:
            found.append(path)
    return found


def locale_paper(environ=None) -> Setting | None:
    """The paper the locale names (POSIX order: LC_ALL, else LC_PAPER, else LANG): letter for a Letter
    country's territory, a4 for any other territory; None without a territory (C, POSIX, unset)."""
    environ = os.environ if environ is None else environ
    for variable in ("LC_ALL", "LC_PAPER", "LANG"):
        value = environ.get(variable, "")
        if value:
            found = _TERRITORY.match(value)
            if found is None:
                return None
            paper = "letter" if found[1].upper() in LETTER_TERRITORIES else "a4"
            return Setting("paper", paper, f"locale {variable}={value}")
    return None


def environment_paper(environ=None) -> Setting | None:
    """`$SHEETS_PAPER`, checked; None when unset or empty."""
    value = (os.environ if environ is None else environ).get(PAPER_VARIABLE, "").strip()
    if not value:
        return None
    return Setting("paper", _check("paper", value, PAPER_VARIABLE, Path.cwd()), PAPER_VARIABLE)


def _shown(path: Path, base: Path | None = None) -> str:
    """A file named from `base` (by default the working folder), as messages name it."""
    try:
        return str(path.resolve().relative_to(Path(base or Path.cwd()).resolve()))
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
    if key in ("output", "content"):
        if not isinstance(value, str) or not value.strip():
            example = "prints" if key == "output" else "my-content"
            raise SheetsError(f"{where}: {key}: give a folder as a string, e.g. {key} = \"{example}\"")
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


def read(path: Path, base: Path | None = None) -> list[Setting]:
    """The settings one file makes; a located SheetsError for anything wrong in it."""
    shown = _shown(path, base)
    try:
        text = _text(path, shown)
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


def _text(path: Path, shown: str) -> str:
    """The file's text: a regular file of at most MAX_BYTES, else one located message."""
    try:
        data = userfiles.read_user_file(path, limit=MAX_BYTES)
    except userfiles.UnreadableFile as exc:
        reason = exc.reason if "bytes" not in exc.reason else f"is more than the {MAX_BYTES:,} bytes a {FILE_NAME} may have"
        raise SheetsError(f"{shown}: {reason}") from None
    return data.decode("utf-8")


def in_force(folder: Path | None = None) -> dict[str, Setting]:
    """Every key with the value in force without a command line (run in `folder`, by default the
    working folder), and where it came from."""
    found = {key: Setting(key, default, "built-in default") for key, (default, _) in KEYS.items()}
    local = locale_paper()
    if local is not None:
        found["paper"] = local
    for path in config_files(folder):
        for setting in read(path, folder):
            found[setting.key] = setting
    env = environment_paper()
    if env is not None:
        found["paper"] = env
    if found["content"].source == "built-in default":
        here = content_folder_here(folder)
        if here is not None:
            found["content"] = Setting("content", str(here), "the working folder is in this content folder")
    return found


def _is_content_folder(place: Path) -> bool:
    return (place / "_print").is_dir() or any(p.is_file() for p in place.glob("*/game.yaml"))


def content_folder_here(folder: Path | None = None) -> Path | None:
    """The content folder the working folder is (or is in: a game's folder, or one below it, such as
    its cards/); None when it is none."""
    start = Path(folder or Path.cwd()).absolute()
    for place in (start, *list(start.parents)[:2]):
        if (place / "game.yaml").is_file() and _is_content_folder(place.parent):
            return place.parent
        if _is_content_folder(place):
            return place
    return None


def paper_flag(paper) -> str:
    """` --paper NAME` for a command a run prints for the user to run next, when the run's paper is not
    the one in force here (given on its command line): the next command then prints on the same paper."""
    name = getattr(paper, "name", paper)
    try:
        in_force_here = in_force()["paper"].value
    except SheetsError:
        in_force_here = None
    return "" if name == in_force_here else f" --paper {name}"


def card_back_offset(value: str | None, from_file: bool, two_sided: bool) -> str | None:
    """The back offset a cards print uses: a sheets.toml's is for two-sided cards, and a one-sided
    print (no --backs) ignores it; one given for the print is used as given (and checked)."""
    return None if from_file and not two_sided else value


def digest(path: Path) -> str:
    """The sha256 of a file's bytes ('' when there is none): what a form that changes it carries."""
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except FileNotFoundError:
        return ""


@dataclass(frozen=True)
class Change:
    """What `store` did: the file, the key, its value before (None: not set in that file) and now."""

    path: Path
    key: str
    old: str | None
    new: str

    def __str__(self) -> str:
        return self.said(_shown(self.path))  # from the working folder (the CLI's)

    def said(self, shown: str) -> str:
        """What was done, naming the file as `shown` (the CLI: from the working folder; the desk: in its workspace)."""
        if self.old == self.new:
            return f"{shown}: {self.key} is already {self.new}; nothing changed"
        was = "not set" if self.old is None else self.old
        backup = self.path.with_name(self.path.name + ".bak")
        kept = f" (the previous file kept as {shown}.bak)" if self.old is not None or backup.exists() else ""
        return f"{shown}: {self.key} {was} -> {self.new}{kept}"


_STRING = r'"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\''
_VALUE = rf'(?:{_STRING}|\[[^\]\n#]*\]|[^\s#\[\'"][^\s#]*)'  # one line: a string, an array, a bare value


def _toml_value(key: str, value: str, old_raw: str | None) -> str:
    """How `value` is written: back_offset in the style the file already uses ([X, Y] or "X,Y")."""
    if key == "back_offset" and old_raw is not None and old_raw.startswith("["):
        x, y = value.split(",")
        return f"[{x}, {y}]"
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def store(folder: Path, key: str, value: str) -> Change:
    """Set `key` in `folder`'s sheets.toml (made if there is none): that one value changes, every
    other line (comments, other keys, their order) stays as it was. Checked before anything is
    written: the file as it is must be valid, the value must be one the key takes, and the new
    text must read back as the old settings with only this key changed. Atomic; the previous
    file is kept as sheets.toml.bak."""
    if key not in KEYS:
        raise SheetsError(f"{key}: unknown key (a sheets.toml may set {', '.join(KEYS)})")
    path = Path(folder) / FILE_NAME
    new = _check(key, value, key, Path(folder))
    with output.locked(path):  # read, changed and written with no other writer in between
        return _store(path, folder, key, new)


def _store(path: Path, folder: Path, key: str, new: str) -> Change:
    text, old = "", None
    if path.exists():
        before = {s.key: s.value for s in read(path, folder)}  # a bad file is refused, located, before any write
        old = before.get(key)
        # in LF here: the writer gives the file back its own line endings (CRLF stays CRLF)
        text = _text(path, _shown(path, folder)).replace("\r\n", "\n")
    line = re.compile(rf"^(?P<head>[ \t]*{re.escape(key)}[ \t]*=[ \t]*)(?P<value>{_VALUE})(?P<tail>[ \t]*(?:#.*)?)$", re.M)
    found = line.search(text)
    if old is not None and found is None:
        raise SheetsError(f"{_shown(path, folder)}: {key} is written in a way this tool does not change by itself "
                          f"(over several lines?); nothing was written: set it by hand: "
                          f"{key} = {_toml_value(key, new, None)}")
    if found:
        written = found.group("value")
        text = text[:found.start("value")] + _toml_value(key, new, written) + text[found.end("value"):]
    else:
        text += ("" if not text or text.endswith("\n") else "\n") + f"{key} = {_toml_value(key, new, None)}\n"
    try:
        after = tomllib.loads(text)
        wanted = {k: v for k, v in tomllib.loads(_text(path, _shown(path, folder))).items()} if path.exists() else {}
    except tomllib.TOMLDecodeError as exc:  # never expected: the file was read above
        raise SheetsError(f"{_shown(path, folder)}: cannot set {key} without breaking the file ({exc}); nothing was written") \
            from None
    if {k: v for k, v in after.items() if k != key} != {k: v for k, v in wanted.items() if k != key} \
            or _check(key, after.get(key), key, Path(folder)) != new:
        raise SheetsError(f"{_shown(path, folder)}: cannot set {key} without changing what else the file says; nothing "
                          f"was written: set it by hand: {key} = {_toml_value(key, new, None)}")
    if old != new:
        output.write_keeping_previous(path, text.encode("utf-8"))
    return Change(path, key, old, new)
