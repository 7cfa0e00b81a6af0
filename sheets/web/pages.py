"""The core's pages: the desk's home, the kit, cards, and downloads of what the desk wrote.

Each handler parses its form, calls the function the CLI calls (`sheets.kit.request.make_kit`,
`sheets.app.api.make_cards`), and renders the files it wrote as links.
"""
from __future__ import annotations

import io
import zipfile

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, RedirectResponse, Response
from starlette.routing import Route

from sheets.app import api
from sheets.base import limits
from sheets.base.options import PrintOptions
from sheets.base.paper import resolve
from sheets.kinds.print_plugin import KitOptions
from sheets.kinds import registry
from sheets.kit.request import make_kit
from sheets.web.calibration import DUPLEX, PAPERS, calibration_routes, card_options, settings, state
from sheets.kinds.cards import KIND as CARDS
from sheets.web.desk import Desk, checked, number

KIT_DIR = "kit"
DOWNLOADABLE = (".pdf", ".png", ".json", ".yaml", ".zip")


def _games(desk: Desk) -> list[tuple[str, str]]:
    lib = desk.library()
    return [(gid, lib.game(gid).info.title) for gid in lib.game_ids()]


def _squads(desk: Desk) -> list[str]:
    """The workspace's squad files (`squad*.yaml`), for the kit's own squad (`sheets kit --squad FILE`)."""
    return desk.workspace.files("squad*.yaml")


def _prints(desk: Desk) -> list[tuple[str, list[str]]]:
    """What each game's part of the kit holds, as `sheets list` says it (the registry of kinds)."""
    lib = desk.library()
    return [(lib.game(gid).info.title, registry.listing(lib.game(gid))) for gid in lib.game_ids()]


def _kit_routes(desk: Desk) -> list[Route]:
    """The kit: its form, a build (a job), its progress and result, the kit as a zip."""
    def kit_form(request: Request):  # the paper: the workspace's sheets.toml's, as `sheets kit` takes it there
        return desk.page("web/kit.html.j2", title="Kit", games=_games(desk), prints=_prints(desk), papers=PAPERS,
                         squads=_squads(desk), max_players=limits.MAX_PLAYERS, result=None, duplex=DUPLEX,
                         form={"paper": settings(desk)["paper"].value})

    def kit_build(request: Request):
        form = desk.form(request)
        games = [g for g, _ in _games(desk)]
        chosen = [str(g) for g in form.getlist("game") if str(g)]  # none: every game
        for game in chosen:
            if game not in games:
                raise HTTPException(400, f"game {game!r}: choose one of {', '.join(games)}")
        squad = str(form.get("squad") or "")
        if squad and squad not in _squads(desk):
            raise HTTPException(400, f"squad {squad!r}: choose one of the workspace's squad files")
        paper = str(form.get("paper") or settings(desk)["paper"].value)
        if paper not in PAPERS:
            raise HTTPException(400, f"paper {paper!r}: choose {' or '.join(PAPERS)}")
        duplex = str(form.get("duplex") or "long")
        if duplex not in DUPLEX:
            raise HTTPException(400, "duplex is long or short")
        seed = number(form, "seed", lo=0, hi=2**63 - 1)
        players = number(form, "players", default=0, lo=0, hi=limits.MAX_PLAYERS)
        out = desk.workspace.output_dir() / KIT_DIR
        layout = settings(desk)["layout"]  # the workspace's sheets.toml, as `sheets kit` run there takes it
        options = KitOptions(paper=resolve(paper), ink_saver=checked(form.get("ink_saver")), output=out, content=desk.content,
                             seed=seed, players=players, squad=(desk.workspace.path(squad),) if squad else (),
                             layout=layout.value if layout.source != "built-in default" else None, duplex=duplex)
        context = {k: v for k, v in form.items() if k not in ("csrf", "game")}
        job = desk.start(make_kit, options, games=chosen or None, preview=True, context={**context, "game": chosen})
        return RedirectResponse(f"/kit/build/{job}", status_code=303)

    def kit_progress(request: Request):
        job = desk.jobs.get(request.path_params["job"])
        if job is None:
            raise HTTPException(404, "no such build (the desk was restarted?): build the kit again")
        if not job.finished:
            return desk.page("web/kit_progress.html.j2", title="Kit", job=job)
        if job.error is not None:
            return desk.message("Not done", job.error, status=400)
        result = job.result
        sheet = next((p for p in result.previews if p.name == "contact-sheet.png"), None)
        return desk.page("web/kit.html.j2", title="Kit", games=_games(desk), prints=_prints(desk), papers=PAPERS,
                         squads=_squads(desk), max_players=limits.MAX_PLAYERS, duplex=DUPLEX, form=job.context, result={
                             "seed": result.seed, "kit_pdf": desk.link(result.kit_pdf),
                             "parts": [(p.name, desk.link(p)) for p in [*result.parts, *result.packets]],
                             "contact_sheet": desk.link(sheet) if sheet else None,
                             "up_to_date": result.up_to_date})

    def kit_zip(request: Request):
        folder = desk.workspace.path(f"output/{KIT_DIR}")
        pdfs = sorted(folder.glob("*.pdf")) if folder.is_dir() else []
        if not pdfs:
            raise HTTPException(404, "no kit built yet: build one first")
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for pdf in pdfs:
                info = zipfile.ZipInfo(f"kit/{pdf.name}", date_time=(1980, 1, 1, 0, 0, 0))
                archive.writestr(info, pdf.read_bytes(), zipfile.ZIP_DEFLATED)
        return Response(buffer.getvalue(), media_type="application/zip",
                        headers={"content-disposition": 'attachment; filename="kit.zip"'})

    return [Route("/kit", kit_form), Route("/kit", kit_build, methods=["POST"]), Route("/kit/build/{job}", kit_progress),
            Route("/kit.zip", kit_zip)]


def _cards_routes(desk: Desk) -> list[Route]:
    """Cards: the form, a build, and the calibration pages (which show the same page)."""
    def cards_page(status: int = 200, form: dict | None = None, result=None, cal: dict | None = None):
        return desk.page("web/cards.html.j2", status=status, title="Cards", sets=_card_sets(desk), papers=PAPERS,
                         duplex=DUPLEX, max_copies=limits.MAX_COPIES, result=result, form=form or {},
                         toml=settings(desk), cal=cal or state(desk))

    def cards_form(request: Request):
        return cards_page()

    def cards_build(request: Request):
        form = desk.form(request)
        choice = str(form.get("set") or "")
        sets = _card_sets(desk)
        if choice not in [value for value, _ in sets]:
            raise HTTPException(400, f"card set {choice!r}: choose one of the listed sets")
        game, _, which = choice.partition("/")
        paper, duplex = str(form.get("paper") or ""), str(form.get("duplex") or "long")
        if paper not in ("", *PAPERS) or duplex not in DUPLEX:
            raise HTTPException(400, f"paper is {' or '.join(PAPERS)}; duplex is long or short")
        copies = number(form, "copies", default=1, lo=1, hi=limits.MAX_COPIES)
        out = desk.workspace.output_dir(CARDS.name) / f"{game}-{which}.pdf"
        backs = checked(form.get("backs"))  # paper, layout, back offset: the form's, else sheets.toml's
        chosen = card_options(desk, paper, backs, str(form.get("back_offset") or "").strip())
        options = PrintOptions(paper=chosen.pop("paper"), ink_saver=checked(form.get("ink_saver")), output=out,
                               content=desk.content)
        written = desk.call(api.make_cards, game, options, which=which, backs=backs, duplex=duplex,
                            copies=copies, fold=checked(form.get("fold")), **chosen)
        return cards_page(form=dict(form), result=[(p.name, desk.link(p)) for p in written])

    return [Route("/cards", cards_form), Route("/cards", cards_build, methods=["POST"]),
            *calibration_routes(desk, cards_page)]


def routes(desk: Desk) -> list[Route]:
    async def home(request: Request):  # on the event loop: it answers while every worker thread is busy
        files = desk.workspace.files("*.yaml")
        return desk.page("web/home.html.j2", title="Desk", files=files, workspace=str(desk.workspace.root))

    def files(request: Request):
        rel = request.path_params["path"]
        path = desk.workspace.path(rel)
        if path.suffix.lower() not in DOWNLOADABLE or not path.is_file():
            raise HTTPException(404, f"{rel}: no such file to download")
        return FileResponse(path, filename=path.name if path.suffix != ".png" else None,
                            content_disposition_type="inline" if path.suffix in (".png", ".pdf") else "attachment")

    kit, cards = _kit_routes(desk), _cards_routes(desk)
    # in the order they always had: the calibration pages last
    return [Route("/", home), *kit, *cards[:2], Route("/files/{path:path}", files), *cards[2:]]


def _card_sets(desk: Desk) -> list[tuple[str, str]]:
    lib = desk.library()
    out = []
    for gid in lib.game_ids():
        game = lib.game(gid)
        out += [(f"{gid}/{sid}", f"{game.info.title}: {sid}") for sid in game.card_sets]
    return out
