"""The Cards page's printer settings: the workspace's sheets.toml, and the calibration wizard.

A print from the Cards page uses the workspace's sheets.toml (and the user's) as `sheets
cards` run in that folder does: its paper and layout, and its back_offset for two-sided
cards (`config.card_back_offset`). The wizard: (1) the calibration sheet, made by
`api.make_calibration` as `sheets cards calibrate` makes it, with the offset in force;
(2) the two readings off it, turned into an offset by `calibrate.offset_from_readings`, shown
as sheets.toml's old -> new value; (3) stored by `api.store_calibration` (`sheets cards
calibrate --readings X,Y`): one key changed, the rest of the file kept, atomic, the previous
file kept as sheets.toml.bak, and only over the version the page showed.
"""
from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.routing import Route

from sheets.app import api
from sheets.base import config
from sheets.base.errors import SheetsError
from sheets.base.options import PrintOptions
from sheets.base.paper import PAPERS, resolve  # PAPERS: the Cards and Kit pages' paper choices
from sheets.kinds import calibration as calibrate
from sheets.kinds.cards.builder import parse_back_offset
from sheets.web.desk import Desk
from sheets.kinds.cards import KIND as CARDS
from sheets.web.workspace import Conflict

DUPLEX = ("long", "short")
STEPS = ("sheet", "readings", "store")


def settings(desk: Desk) -> dict[str, config.Setting]:
    """What sheets.toml sets for a print run in the workspace (the file's line, or the built-in default)."""
    return config.in_force(desk.workspace.root)


def from_file(setting: config.Setting) -> bool:
    return setting.source != "built-in default"


def card_options(desk: Desk, paper: str, backs: bool, back_offset: str) -> dict:
    """The paper, layout and back offset of a Cards print: the form's, else sheets.toml's, as the CLI takes them."""
    found = settings(desk)
    offset, stored = (back_offset, False) if back_offset else (found["back_offset"].value, from_file(found["back_offset"]))
    return {"paper": paper or found["paper"].value,
            "layout": found["layout"].value if from_file(found["layout"]) else None,
            "back_offset": config.card_back_offset(offset if back_offset or stored else None, stored, backs)}


def state(desk: Desk, **step) -> dict:
    """The wizard as the Cards page shows it: the offset in force, where it comes from, and this step."""
    found = settings(desk)
    offset = found["back_offset"]
    return {"step": "sheet", "paper": found["paper"].value, "duplex": "long", "offset": offset.value,
            "source": offset.source, "error": None, **step}


def calibration_routes(desk: Desk, page) -> list[Route]:
    """`page(status=..., cal=...)` renders the Cards page with the wizard at a step."""
    def calibrate_post(request: Request):
        form = desk.form(request)
        step = str(form.get("step") or "")
        paper, duplex = str(form.get("paper") or settings(desk)["paper"].value), str(form.get("duplex") or "long")
        if step not in STEPS:
            raise HTTPException(400, f"step {step!r}: one of {', '.join(STEPS)}")
        if paper not in PAPERS or duplex not in DUPLEX:
            raise HTTPException(400, f"paper is {' or '.join(PAPERS)}; duplex is long or short")
        here = {"paper": paper, "duplex": duplex}
        if step == "sheet":
            offset = state(desk)["offset"]
            out = desk.workspace.output_dir(CARDS.name) / f"cards-calibration-{paper}-{duplex}.pdf"
            written = desk.call(api.make_calibration, PrintOptions(paper=resolve(paper), output=out), duplex=duplex,
                                back_offset=offset)
            return page(cal=state(desk, step="readings", pdf=desk.link(written), printed_with=offset, **here))
        printed_with = str(form.get("printed_with") or "0,0")
        x, y = str(form.get("x") or ""), str(form.get("y") or "")
        here |= {"printed_with": printed_with, "x": x, "y": y}
        path = desk.workspace.path(config.FILE_NAME)
        try:
            offset = calibrate.offset_text(calibrate.offset_from_readings(
                calibrate.reading(x, "X"), calibrate.reading(y, "Y"), parse_back_offset(printed_with)))
            parse_back_offset(offset)
            if step == "readings":
                old = next((s.value for s in config.read(path, desk.workspace.root) if s.key == "back_offset"), None) \
                    if path.is_file() else None
                return page(cal=state(desk, step="store", new=offset, old=old, version=desk.workspace.digest(path), **here))
            desk.workspace.check_fresh(config.FILE_NAME, str(form.get("version") or ""))
            change = desk.call(api.store_calibration, desk.workspace.root, x, y, printed_with=printed_with)
        except Conflict:
            raise  # sheets.toml changed since the page showed old -> new: both versions, nothing written
        except SheetsError as exc:
            return page(status=422, cal=state(desk, step="readings", error=str(exc), **here))
        return page(cal=state(desk, step="done", change=change.said(config.FILE_NAME), **here))

    return [Route("/cards/calibrate", calibrate_post, methods=["POST"])]
