"""The character form of the desk: a character file <-> the form's fields, comments kept.

The form shows only the playbook's legal choices (its ranks, the lists' profiles and
backgrounds, its stat sets or the values to assign, its moves, its loadouts); whatever is
chosen is still checked by `resolve_character`, the CLI's checker, from the YAML text
about to be written, so its messages name the file's lines. The form is the character
file's model (`characters.CharacterFile`): the keys with choices are laid out by hand
(`LAID_OUT`), every other key is a box to type in (`typed`, read from the model, a mapping's
keys one by one: `squad.op`), so a key added to the model is on the form and in its preview
with no line here. An existing file is edited round-trip (ruamel.yaml): its comments and key
order stay as they were. Bonds are the printed page's BOND WITH rows (who, and the bond);
improvements are the list taken, in order, and at most one more to take (`take`), offered
with `improvements.improvement_options`: the checker's own verdict on each.
"""
from __future__ import annotations

import io
import re
import types
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Annotated, Union, get_args, get_origin

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError
from ruamel.yaml.comments import CommentedMap

from pydantic import BaseModel

from sheets.base.errors import ContentError, SheetsError
from sheets.library.yaml_merge import round_trip
from sheets.games.regiment.characters import BOND_ROWS, CharacterFile
from sheets.games.regiment.improvements import CONDITIONS, TRACKS, norm
from sheets.games.regiment.models import STATS, Playbook, RegimentData

MARKS = ("xp", *TRACKS)
MAX_BOND_ROWS = 50  # rows a form may send (the page prints BOND_ROWS; a file with more is shown whole, then refused)
MAX_DIGITS = 20  # a number typed in the form: longer text is passed on as text, for the checker to refuse
ROW = re.compile(r"bond_(?:name|value)_(.*)", re.S)
#: the character file's keys the form lays out by hand (character.html.j2), each with what the playbook
#: allows: its ranks and lists, its stats, moves and loadouts, the marks its tracks hold, the bonds' rows,
#: the notes' box, the improvements the checker would take. Every other key is typed in (`typed`).
LAID_OUT = ("playbook", "rank", "profile", "background", "stat_set", "stats", "moves", "loadout", *MARKS,
            "conditions", "bonds", "notes", "improvements")


@dataclass(frozen=True)
class Typed:
    """A key of the character file that the form shows as a box to type in, as the file writes it."""

    key: str  # the form field's name and the key's place in the file: "deployment", "squad.op" (squad's op)
    label: str
    number: bool  # a whole number: a number box (what is not one goes to the checker as typed)
    required: bool  # the file must have it (the name): an empty box is written, for the checker to refuse
    about: str  # the model's description of the key ("" when it has none): the box's hint


def _types(annotation) -> set:
    """The plain types a field's annotation allows (`Whole | None` -> {int, NoneType})."""
    if get_origin(annotation) is Annotated:
        return _types(get_args(annotation)[0])
    if get_origin(annotation) in (Union, types.UnionType):
        return set().union(*(_types(arg) for arg in get_args(annotation)))
    return {annotation}


def _typed(model: type[BaseModel], prefix: str = "") -> Iterator[Typed]:
    for name, spec in model.model_fields.items():
        key = f"{prefix}{name}"
        if key in LAID_OUT:
            continue
        allowed = _types(spec.annotation) - {type(None)}
        inner = [t for t in allowed if isinstance(t, type) and issubclass(t, BaseModel)]
        if inner:  # a mapping of keys (squad): each of its keys is a box
            yield from _typed(inner[0], f"{key}.")
        elif allowed in ({str}, {int}):
            yield Typed(key, key.replace(".", " ").replace("_", " ").capitalize(), allowed == {int},
                        spec.is_required(), spec.description or "")
        else:  # a list or a table needs its own widget: say so when the model gets one, not in a form that drops it
            raise TypeError(f"the character form types {key} in as text or a number, but it is {spec.annotation}: "
                            f"lay it out in character.html.j2 and name it in LAID_OUT")


@cache
def typed() -> tuple[Typed, ...]:
    """Every key of the character file the form types in, in the file's order."""
    return tuple(_typed(CharacterFile))


def _at(doc, key: str):
    """The value at a typed key's place in the file (None when the file has none)."""
    for part in key.split("."):
        doc = doc.get(part) if isinstance(doc, dict) else None
    return doc


def _yaml() -> YAML:
    return round_trip(width=100)  # comments and key order survive; plain text read as the CLI reads it


def load(text: str, name: str = "character.yaml") -> CommentedMap:
    """The file's text as an editable document (read by the CLI's checker first: see `web._read`)."""
    try:
        doc = _yaml().load(text) if text.strip() else None
    except YAMLError as exc:  # what the CLI's reader takes but the round-trip editor does not (a duplicate key)
        mark = getattr(exc, "problem_mark", None)
        raise ContentError.single(name, mark.line + 1 if mark else None, "",
                                  f"the desk cannot edit this file: {getattr(exc, 'problem', None) or exc}") from None
    return doc if isinstance(doc, CommentedMap) else CommentedMap()


def dump(doc: CommentedMap) -> str:
    buffer = io.StringIO()
    _yaml().dump(doc, buffer)
    return buffer.getvalue()


def fields_of(doc: CommentedMap) -> dict:
    """The form's values from a character file (as written: the checker has the last word)."""
    get = doc.get
    return {"playbook": str(get("playbook", "") or ""),
            **{t.key: "" if _at(doc, t.key) is None else str(_at(doc, t.key)) for t in typed()},
            "rank": str(get("rank", "") or ""), "profile": str(get("profile", "") or ""),
            "background": str(get("background", "") or ""),
            "stat_set": str(get("stat_set", "") or ""),
            "stats": {str(k).lower(): str(v) for k, v in dict(get("stats") or {}).items()},
            "moves": [str(m) for m in (get("moves") or [])], "loadout": str(get("loadout", "") or ""),
            **{m: str(get(m, 0) or 0) for m in MARKS},
            "conditions": [str(c) for c in (get("conditions") or [])], "notes": str(get("notes", "") or ""),
            "bonds": [(str(k), "" if v is None else str(v)) for k, v in dict(get("bonds") or {}).items()],
            "improvements": [str(i) for i in (get("improvements") or [])], "take": ""}


def fields_from_form(form) -> dict:
    return {"playbook": str(form.get("playbook") or ""),
            **{t.key: str(form.get(t.key) or "").strip() for t in typed()},
            "rank": str(form.get("rank") or ""), "profile": str(form.get("profile") or ""),
            "background": str(form.get("background") or ""), "stat_set": str(form.get("stat_set") or ""),
            "stats": {s: str(form.get(f"stat_{s}") or "") for s in STATS if form.get(f"stat_{s}") not in (None, "")},
            "moves": [str(m) for m in form.getlist("moves")], "loadout": str(form.get("loadout") or ""),
            **{m: str(form.get(m) or "0").strip() for m in MARKS},
            "conditions": [str(c) for c in form.getlist("conditions")], "notes": str(form.get("notes") or ""),
            "bonds": [(str(form.get(f"bond_name_{i}") or "").strip(), str(form.get(f"bond_value_{i}") or "0").strip())
                      for i in range(max(BOND_ROWS, _rows(form))) if str(form.get(f"bond_name_{i}") or "").strip()
                      or str(form.get(f"bond_value_{i}") or "").strip() not in ("", "0")],
            "improvements": [str(i) for i in form.getlist("improvements")], "take": str(form.get("take") or "")}


def _rows(form) -> int:
    """How many bond rows the form sent (a file may hold more than the page prints: the checker says so).

    A row's number is checked before it is used: 0 to MAX_BOND_ROWS - 1 in ASCII digits, else refused."""
    last = -1
    for key in form.keys():
        found = ROW.fullmatch(str(key))
        if found is None:
            continue
        index = found.group(1)
        if not re.fullmatch(r"[0-9]{1,2}", index) or int(index) >= MAX_BOND_ROWS:
            shown = key if len(key) <= 40 else f"{key[:30]}...({len(key)} characters)"
            raise SheetsError(f"{shown!r}: bond rows are bond_name_N and bond_value_N, N from 0 to {MAX_BOND_ROWS - 1}")
        last = max(last, int(index))
    return last + 1


def taken(fields: dict) -> list[str]:
    """The improvements the file will list: those taken, then the one being taken now."""
    return [*fields["improvements"], *([fields["take"]] if fields["take"] else [])]


def _int(text: str):
    """A number if it is one; else the text as typed (the checker then says what is wrong, with its line)."""
    if not isinstance(text, str) or not re.fullmatch(r"\s*[-+]?[0-9]{1,%d}\s*" % MAX_DIGITS, text):
        return text  # bounded before int() sees it
    return int(text)


def apply(doc: CommentedMap, fields: dict, pb: Playbook) -> CommentedMap:
    """Put the form's values into the document; a value that means the same as the file's is left as written."""
    def put(key: str, value) -> None:
        old = doc.get(key)
        if isinstance(value, str) and isinstance(old, str) and norm(old) == norm(value):
            return
        if isinstance(value, list) and isinstance(old, list) and [norm(str(o)) for o in old] == [norm(str(v)) for v in value]:
            return
        if old != value:
            _place(doc, key, value)

    rank = next((r for r in pb.ranks if rank_selected(fields["rank"], r.name, r.full, r.abbr)), None)
    old_rank = doc.get("rank")
    same_rank = rank and isinstance(old_rank, str) and rank_selected(old_rank, rank.name, rank.full, rank.abbr)
    for key in ("playbook", "rank", "profile", "background"):
        if not (key == "rank" and same_rank):  # 'Sgt' and 'Sergeant' are one rank: left as written
            put(key, fields[key])
    for entry in typed():
        _put_typed(doc, entry, fields[entry.key])
    _put_stats(doc, fields, pb, put)
    put("moves", fields["moves"])
    put("loadout", fields["loadout"])
    for mark in MARKS:
        value = _int(fields[mark] or "0")
        if value or mark in doc:
            put(mark, value)
    if fields["conditions"] or "conditions" in doc:
        put("conditions", fields["conditions"])
    if fields["notes"] or "notes" in doc:
        put("notes", fields["notes"])
    bonds = {name: _int(value or "0") for name, value in fields["bonds"]}
    old = doc.get("bonds")
    if bonds != ({str(k): v for k, v in old.items()} if isinstance(old, dict) else {}) and (bonds or "bonds" in doc):
        flow = CommentedMap(bonds)
        flow.fa.set_flow_style()
        _place(doc, "bonds", flow)
    improvements = taken(fields)
    if improvements or "improvements" in doc:
        put("improvements", improvements)
    return doc


def _put_stats(doc: CommentedMap, fields: dict, pb: Playbook, put) -> None:
    """The stat set chosen, or the stats assigned: whichever the playbook has (the other key goes)."""
    if pb.stats.stat_sets is not None:
        doc.pop("stats", None)
        put("stat_set", _int(fields["stat_set"]) if fields["stat_set"] else None)
        return
    doc.pop("stat_set", None)
    stats = {s: _int(fields["stats"][s]) for s in STATS if s in fields["stats"]}
    old = doc.get("stats")
    if not isinstance(old, dict) or {str(k).lower(): v for k, v in old.items()} != stats:
        flow = CommentedMap(stats)
        flow.fa.set_flow_style()
        _place(doc, "stats", flow)


def _put_typed(doc: CommentedMap, entry: Typed, text: str) -> None:
    """A typed key's box into the file: as typed (a number as a number); an empty box is the key's
    default, so the key goes (or is never written), but for a key the file must have."""
    *outer, leaf = entry.key.split(".")
    holder = doc
    for part in outer:
        inner = holder.get(part)
        if not isinstance(inner, dict):
            if not text:
                return  # nothing to write, and no mapping to write it in
            inner = CommentedMap()
            inner.fa.set_flow_style()  # as `--save` writes squad: {designation: ..., op: ...}
            _place(holder, part, inner)
        holder = inner
    if not text and not entry.required:
        holder.pop(leaf, None)
        return
    value = _int(text) if entry.number else text
    if holder.get(leaf) != value or leaf not in holder:
        _place(holder, leaf, value)


#: the character file's keys in the model's order, where a key new to a file is written
ORDER = {key: i for i, key in enumerate(CharacterFile.model_fields)}


def _place(doc: CommentedMap, key: str, value) -> None:
    """doc[key] = value; a key the file lacks goes after the keys the model puts before it (a new
    file's keys are in the model's order), the file's own order left as it is."""
    if key in doc or key not in ORDER or not isinstance(doc, CommentedMap):
        doc[key] = value
        return
    before = [i for i, k in enumerate(doc) if ORDER.get(k, len(ORDER)) < ORDER[key]]
    doc.insert(before[-1] + 1 if before else 0, key, value)


def new_document(pb: Playbook) -> CommentedMap:
    doc = CommentedMap()
    doc.yaml_set_start_comment(f"A {pb.name} of The Regiment, made at the warsheets desk.\n"
                               f"Plain YAML: edit it here or in the desk; `sheets playbook --character FILE` prints it.")
    return doc


def choices(pb: Playbook, data: RegimentData) -> dict:
    """Only what this playbook may choose."""
    return {"ranks": [(r.name, r.full, r.abbr) for r in pb.ranks], "profiles": data.lists.profiles,
            "backgrounds": data.lists.backgrounds,
            "stat_sets": [(i + 1, ", ".join(f"{k} {v:+d}" for k, v in s.as_dict().items()))
                          for i, s in enumerate(pb.stats.stat_sets or [])],
            "assign": sorted(set(pb.stats.assign or []), reverse=True), "assign_text": pb.stats.assign_text,
            "stats": STATS, "moves": [(m.name, m.text) for m in pb.moves[1:]], "own_move": pb.own_move.name,
            "choose_moves": pb.choose_moves, "loadouts": [(lo.name, lo.text) for lo in pb.loadouts],
            "conditions": CONDITIONS, "marks": MARKS, "bond_rows": BOND_ROWS, "typed": typed()}


def same(a: str, b: str) -> bool:
    return norm(str(a)) == norm(str(b))


def rank_selected(value: str, name: str, full: str, abbr: str) -> bool:
    return norm(value) in (norm(name), norm(full), norm(abbr))
