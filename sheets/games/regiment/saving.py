"""`sheets playbook --random --save DIR`: rolled soldiers kept as character files in a squad.

Each soldier gets a new character file (an existing file is never overwritten: the name
takes -2, -3 ...). A folder with no squad.yaml gets one naming them. A folder that holds
a squad gets the new soldiers added to its `members`, and nothing else in the file changes:
the lines are inserted into the user's text (designation, op, leader, every member, every
comment stay as they were), the result is read back and compared before it is written, and
the previous version is kept as squad.yaml.bak.
"""
from __future__ import annotations

from pathlib import Path

import yaml

from sheets.base import output
from sheets.base.errors import ContentError, SheetsError
from sheets.games.regiment.characters import Character, character_file_data
from sheets.games.regiment.models import RegimentData
from sheets.games.regiment.squads import SquadFile, read_squad
from sheets.library.access import slug
from sheets.library.validation import validate
from sheets.library.yaml_source import decode, parse_yaml

SQUAD_FILE = "squad.yaml"


def _dump(data: object) -> str:  # a mapping, or a scalar (_scalar)
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, default_flow_style=None, width=100)


def _scalar(text: str) -> str:
    """A file name as a YAML scalar (quoted only if it must be)."""
    return _dump(text).removesuffix("\n").removesuffix("...").strip()


def plan_save(chars: list[Character], folder: Path, origin: str, command: str,
              data: RegimentData) -> list[tuple[Path, bytes]]:
    """What `--save` writes: (path, bytes) for each new character file, then squad.yaml.

    Everything is checked here, before the PDF or any file is written: a squad already in
    the folder must be valid (its problems are reported, located), and the squad file with
    the new members added must read back as the old one plus them.
    """
    folder = Path(folder)
    squad_path = folder / SQUAD_FILE
    if squad_path.exists() and not squad_path.is_file():
        raise SheetsError(f"--save {folder}: {squad_path} is not a file")
    names: list[str] = []
    files: list[tuple[Path, bytes]] = []
    for i, ch in enumerate(chars):
        stem = slug(ch.name)
        name, n = f"{stem}.yaml", 2
        while name in names or name == SQUAD_FILE or (folder / name).exists() or (folder / f"{name}.bak").exists():
            name, n = f"{stem}-{n}.yaml", n + 1
        names.append(name)
        where = f" (soldier {i + 1} of {len(chars)})" if len(chars) > 1 else ""
        head = (f"# {ch.rank.abbr} {ch.name}, {ch.playbook.name}: rolled with {origin}{where} by `{command}`.\n"
                f"# A character file: edit it as the campaign goes on (xp, gear, wounds, stress, conditions,\n"
                f"# improvements); `sheets playbook --character {folder / name}` checks it and prints the playbook.\n")
        files.append((folder / name, (head + _dump(character_file_data(ch))).encode("utf-8")))
    if squad_path.is_file():
        squad = _added_to_squad(squad_path, names, f"added: rolled with {origin} by `{command}`", data)
    else:
        squad = ("# A squad file: `sheets squad squad.yaml` prints a roster for the GM and every member's playbook.\n"
                 f"# Rolled with {origin} by `{command}`.\n"
                 "# Name the squad when you know it:\n"
                 "# designation: 2nd Squad\n# op: 1\n# leader: Sgt Haines\n"
                 "members:\n" + "".join(f"  - {_scalar(n)}\n" for n in names)).encode("utf-8")
    files.append((squad_path, squad))
    return files


def write_planned(files: list[tuple[Path, bytes]]) -> list[Path]:
    """Write what `plan_save` planned: new files, then squad.yaml (its previous version kept as .bak)."""
    if files:
        output.ensure_dir(files[0][0].parent)
    return [output.write_keeping_previous(path, data) for path, data in files]


def _added_to_squad(path: Path, names: list[str], comment: str, data: RegimentData) -> bytes:
    """The squad file's bytes with `names` appended to its members, checked by reading them back."""
    try:
        # in LF here: the writer gives the file back its own line endings (CRLF stays CRLF)
        text = decode(output.read_user_file(path), str(path)).replace("\r\n", "\n")
    except (OSError, output.UnreadableFile) as exc:
        raise SheetsError(f"cannot read {path}: {getattr(exc, 'reason', None) or getattr(exc, 'strerror', None) or exc}") from None
    doc = parse_yaml(text, str(path), keep_node=True)
    try:
        read_squad(doc, path.parent, data)
    except ContentError as exc:
        raise SheetsError(f"--save {path.parent}: the squad already there has problems; fix them and roll again "
                          f"(nothing was written):\n" + "\n".join(f"  {p}" for p in exc.problems)) from None
    before = validate(SquadFile, doc)
    new_text = _insert_members(text, doc.node, names, comment)
    after = validate(SquadFile, parse_yaml(new_text, str(path)))
    if after.model_dump() != before.model_copy(update={"members": [*before.members, *names]}).model_dump():
        raise SheetsError(f"cannot add to {path} without changing what else it says; nothing was written "
                          f"(--save into a new folder, then add the files to its members by hand)")
    return new_text.encode("utf-8")


def _last_line(node: yaml.Node, text: str) -> int:
    """The 0-based line on which a node's text ends (a block scalar's trailing blank lines left
    out, unless it keeps them: `|+`)."""
    if isinstance(node, yaml.MappingNode) and not node.flow_style and node.value:
        return _last_line(node.value[-1][1], text)
    if isinstance(node, yaml.SequenceNode) and not node.flow_style and node.value:
        return _last_line(node.value[-1], text)
    start, end = node.start_mark, node.end_mark
    body = text[start.index:end.index]
    if isinstance(node, yaml.ScalarNode) and node.style in ("|", ">") and "+" in body.split("\n", 1)[0]:
        return end.line - 1 if end.column == 0 and end.line > start.line else end.line
    return start.line + body.rstrip().count("\n")


def _insert_members(text: str, root: yaml.Node, names: list[str], comment: str) -> str:
    """`text` (whose node tree is `root`) with `names` added at the end of its top-level `members`
    list, in the list's own style."""
    members = next(value for key, value in root.value if key.value == "members")
    items = [_scalar(n) for n in names]
    newline = "\r\n" if "\r\n" in text else "\n"
    if members.flow_style:  # members: [a.yaml, b.yaml]
        end = members.end_mark.index - 1
        return text[:end] + (", " if members.value else "") + ", ".join(items) + text[end:]
    last = members.value[-1]
    dash = last.start_mark.index - 1
    while dash > 0 and text[dash] in " \t\r\n":
        dash -= 1
    indent = " " * (dash - (text.rfind("\n", 0, dash) + 1))
    lines = text.splitlines(keepends=True)
    at = _last_line(last, text) + 1
    if at >= len(lines) and lines and not lines[-1].endswith(("\n", "\r")):
        lines[-1] += newline
    block = [f"{indent}# {comment}{newline}", *(f"{indent}- {item}{newline}" for item in items)]
    return "".join(lines[:at] + block + lines[at:])
