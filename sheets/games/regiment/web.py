"""The Regiment's pages at the desk: the character form (with its live preview) and the squad.

Thin: the form becomes a character file's text (`webform`), `resolve_character` (the
CLI's checker) judges it, the workspace writes it (only over the version the form was
made from, the old one kept), and `commands.make_playbook` prints it, as
`sheets playbook --character FILE` does.
"""
from __future__ import annotations

import io
import tempfile
from pathlib import Path
from urllib.parse import urlencode

from PIL import Image
from starlette.exceptions import HTTPException
from starlette.datastructures import QueryParams
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from sheets.base.errors import ContentError, SheetsError
from sheets.base.options import PrintOptions
from sheets.games.regiment import commands, webform
from sheets.games.regiment.characters import resolve_character
from sheets.games.regiment.improvements import improvement_options
from sheets.games.regiment.saving import SQUAD_FILE
from sheets.games.regiment.sheets import blank_playbook, filled_playbooks
from sheets.library.access import game_with_plugin, slug
from sheets.library.yaml_source import load_yaml, parse_yaml
from sheets.pipeline.build import build_one
from sheets.pipeline.preview import render_pages
from sheets.web.desk import Desk, number
from sheets.web.workspace import Workspace

NAV = [("/regiment/character", "Character"), ("/regiment/squad", "Squad")]
PREVIEW_DPI = 50
ACTIONS = ("check", "save", "print")
MAX_SQUAD_FOLDERS = 99  # squad/, squad-2/ ... squad-99/


def _data(desk: Desk):
    return game_with_plugin(desk.library(), "regiment").data


def _read(desk: Desk, rel: str) -> str:
    """A character file's text, read as `sheets playbook --character` reads it: a file that is not UTF-8,
    not YAML, or not a mapping of keys is refused with the CLI's located message (a 400 page)."""
    doc = load_yaml(desk.workspace.path(rel), rel)
    if doc.data is not None and not isinstance(doc.data, dict):
        resolve_character(doc, _data(desk))  # the CLI's words: "expected a mapping of keys (key: value)"
        raise ContentError.single(rel, 1, "", "expected a mapping of keys (key: value)")  # pragma: no cover
    return desk.workspace.path(rel).read_text(encoding="utf-8")


def _text(desk: Desk, rel: str, fields: dict, pb) -> str:
    """The character file as it would be written: the existing file with the form's values put in."""
    path = desk.workspace.path(rel) if rel else None
    old = _read(desk, rel) if path is not None and path.is_file() else ""
    doc = webform.load(old, rel) if old else webform.new_document(pb)
    return webform.dump(webform.apply(doc, fields, pb))


def _check(desk: Desk, rel: str, text: str) -> list[str]:
    """The CLI checker's problems with this text, as the CLI prints them ([] when legal)."""
    try:
        resolve_character(parse_yaml(text, rel or "character.yaml"), _data(desk))
    except ContentError as exc:
        return [str(p) for p in exc.problems]
    return []


def _options(desk: Desk, fields: dict, pb):
    """Each improvement the playbook offers, judged as the next one by the checker (None until the
    rest of the character is legal: what is legal next depends on its stats and moves)."""
    data = _data(desk)
    try:
        char = resolve_character(parse_yaml(_text(desk, "", {**fields, "take": ""}, pb), "character.yaml"), data)
    except ContentError:
        return None
    return improvement_options(pb, data, [i.text for i in char.improvements], char.base_stats, char.moves)


def _target(fields: dict, rel: str) -> str:
    if rel:
        if not rel.endswith((".yaml", ".yml")):
            raise HTTPException(400, f"file {rel!r}: a character file ends in .yaml")
        return rel
    if not fields["name"]:
        raise HTTPException(400, "name: give the soldier a name (it names the file)")
    return f"characters/{slug(fields['name'])}.yaml"


def _character_routes(desk: Desk) -> list[Route]:
    """The character form: open, check, save, print, and its preview."""
    def form_page(fields: dict, *, rel: str, version: str, problems=(), status=200, done=None):
        data = _data(desk)
        pb = data.playbook(fields["playbook"]) if fields["playbook"] else None
        query = urlencode([(k, v) for k, vs in _flat(fields) for v in vs])
        return desk.page("regiment/web/character.html.j2", status=status, title="Regiment character",
                         playbooks=[(p.id, p.name) for p in data.playbooks.values()], pb=pb, f=fields,
                         c=webform.choices(pb, data) if pb else None, options=_options(desk, fields, pb) if pb else None,
                         rel=rel, version=version,
                         problems=list(problems), done=done, preview=f"/regiment/character/preview.png?{query}",
                         files=_character_files(desk.workspace), same=webform.same, rank_selected=webform.rank_selected)

    def character(request: Request):
        rel = request.query_params.get("file", "")
        playbook = request.query_params.get("playbook", "")
        fields = webform.fields_of(webform.load(""))
        version = ""
        if rel:
            path = desk.workspace.path(rel)
            if not path.is_file():
                raise HTTPException(404, f"{rel}: no such character file in the workspace")
            fields = webform.fields_of(webform.load(_read(desk, rel), rel))
            version = desk.workspace.digest(path)
        if playbook:
            fields["playbook"] = _data(desk).playbook(playbook).id
        return form_page(fields, rel=rel, version=version)

    def character_post(request: Request):
        form = desk.form(request)
        action = str(form.get("action") or "check")
        if action not in ACTIONS:
            raise HTTPException(400, f"action {action!r}: one of {', '.join(ACTIONS)}")
        fields = webform.fields_from_form(form)
        pb = _data(desk).playbook(fields["playbook"])
        version = str(form.get("version") or "")
        rel = str(form.get("file") or "").strip()
        if action != "check":
            rel = _target(fields, rel)
        text = _text(desk, rel, fields, pb)
        problems = _check(desk, rel, text)
        if problems or action == "check":
            return form_page(fields, rel=rel, version=version, problems=problems, status=422 if problems else 200,
                             done="legal: every choice is allowed" if not problems else None)
        path = desk.workspace.save(rel, text, version)
        done = {"saved": rel, "pdf": None, "took": fields["take"]}
        fields = {**fields, "improvements": webform.taken(fields), "take": ""}
        if action == "print":
            written, _ = desk.call(commands.make_playbook, None,
                                   _into(desk, desk.workspace.output_dir("characters") / f"{path.stem}.pdf"),
                                   character=path)
            done["pdf"] = desk.link(written[0])
        return form_page(fields, rel=rel, version=desk.workspace.digest(path), done=done)

    def preview(request: Request):
        fields = webform.fields_from_form(request.query_params)
        pb = _data(desk).playbook(fields["playbook"])
        if fields == webform.fields_from_form(QueryParams({"playbook": pb.id})):
            # a new character, no choice made yet: the blank playbook, not a list of what is missing
            png = desk.read(_blank_png, pb.id, game_with_plugin(desk.library(), "regiment"))
            return Response(png, media_type="image/png", headers={"cache-control": "no-store"})
        text = _text(desk, "", fields, pb)
        problems = _check(desk, "", text)
        if problems:
            return Response("\n".join(problems), status_code=422, media_type="text/plain")
        png = desk.read(_preview_png, text, game_with_plugin(desk.library(), "regiment"))
        return Response(png, media_type="image/png", headers={"cache-control": "no-store"})

    return [Route("/regiment/character", character), Route("/regiment/character", character_post, methods=["POST"]),
            Route("/regiment/character/preview.png", preview)]


def _into(desk: Desk, output: Path) -> PrintOptions:
    """A desk print's options: the paper in force in the workspace, written to `output` in it, from the desk's content."""
    return desk.print_options(output)


def _squad_routes(desk: Desk) -> list[Route]:
    """The squad: a squad file printed, or a new squad rolled."""
    def squad(request: Request):
        return desk.page("regiment/web/squad.html.j2", title="Regiment squad", files=_character_files(desk.workspace),
                         squads=[f for f in desk.workspace.files("squad*.yaml")], written=None, note="")

    def squad_post(request: Request):
        form = desk.form(request)
        written, note = [], ""
        if form.get("squad"):
            path = desk.workspace.path(str(form.get("squad")))
            written = [desk.call(commands.make_squad, path,
                                 _into(desk, desk.workspace.output_dir("squads") / f"{path.stem}.pdf"))]
        else:
            count = number(form, "count", default=4, lo=1, hi=12)
            asked = str(form.get("folder") or "squad").strip().strip("/") or "squad"
            folder = _new_squad_folder(desk.workspace, asked)
            if desk.workspace.rel(folder) != asked:
                note = (f"{asked}/ holds a squad already (its {SQUAD_FILE} is left as it is): "
                        f"the new squad is in {desk.workspace.rel(folder)}/")
            written, _ = desk.call(commands.make_playbook, None, random=True, count=count,
                                   seed=number(form, "seed", lo=0, hi=2**63 - 1), save=folder,
                                   options=_into(desk, desk.workspace.output_dir("squads")))
        return desk.page("regiment/web/squad.html.j2", title="Regiment squad", files=_character_files(desk.workspace),
                         squads=desk.workspace.files("squad*.yaml"), note=note,
                         written=[(desk.workspace.rel(p), desk.link(p)) for p in written])

    return [Route("/regiment/squad", squad), Route("/regiment/squad", squad_post, methods=["POST"])]


def routes(desk: Desk) -> list[Route]:
    return _character_routes(desk) + _squad_routes(desk)


def _new_squad_folder(workspace: Workspace, asked: str) -> Path:
    """Where a rolled squad goes: the folder asked for, or, when it holds a squad already, the first free
    `FOLDER-2`, `FOLDER-3`, ...: a roll at the desk never rewrites a squad file (the user may have edited it)."""
    folder, n = workspace.path(asked), 2
    while (folder / SQUAD_FILE).exists() or (folder.exists() and not folder.is_dir()):
        if n > MAX_SQUAD_FOLDERS:
            raise SheetsError(f"{asked}/ and {asked}-2/ to {asked}-{MAX_SQUAD_FOLDERS}/ hold squads already: "
                              f"name another folder")
        folder, n = workspace.path(f"{asked}-{n}"), n + 1
    return folder


def _flat(fields: dict):
    for key, value in fields.items():
        if key == "bonds":
            for i, (who, bond) in enumerate(value):
                yield from ((f"bond_name_{i}", [who]), (f"bond_value_{i}", [bond]))
        elif isinstance(value, dict):
            yield from ((f"stat_{k}", [v]) for k, v in value.items())
        else:
            yield key, value if isinstance(value, list) else [value]


def _character_files(workspace: Workspace) -> list[str]:
    return [f for f in workspace.files("*.yaml") if not Path(f).name.startswith("squad")
            and "playbook:" in workspace.path(f).read_text(encoding="utf-8", errors="replace")]


def _preview_png(text: str, game) -> bytes:
    """The filled playbook's pages side by side, as one PNG.

    The character branch of `commands.make_playbook` (the same checker, the same sheet, the same
    build) with the desk's loaded content: a preview must not load the content again (≤ 300 ms).
    """
    char = resolve_character(parse_yaml(text, "character.yaml"), game.data)
    return _side_by_side(filled_playbooks(game, [char], f"regiment-{char.playbook.id}-{slug(char.name)}.pdf", "a4", False))


def _blank_png(playbook_id: str, game) -> bytes:
    """The blank playbook's pages side by side: a new character's preview before its first choice."""
    return _side_by_side(blank_playbook(game, game.data.playbook(playbook_id)))


def _side_by_side(sheet) -> bytes:
    """A sheet's pages built and drawn side by side, as one PNG."""
    with tempfile.TemporaryDirectory(prefix="sheets-preview-") as scratch:
        pages = render_pages(build_one(sheet, Path(scratch) / sheet.filename), dpi=PREVIEW_DPI)
    image = Image.new("RGB", (sum(p.width for p in pages) + 8 * (len(pages) - 1), max(p.height for p in pages)), "white")
    x = 0
    for page in pages:
        image.paste(page, (x, 0))
        x += page.width + 8
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()
