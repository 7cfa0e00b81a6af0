"""Way of the Warrior at the desk: the campaign desk and the mission pre-roller.

Thin: each form calls the function `sheets campaign ...` / `sheets mission` calls
(`commands`), which checks, refuses with its reason, and writes the campaign file
(atomically, the previous version kept). The file's hash travels with every form: a
change made meanwhile (another tab, the CLI) gets the conflict page instead. A refusal is
shown on the campaign page, the file unchanged. New ledger operations (undo, strike,
adjust) are one more `ACTIONS` entry each: a name, the function, how its form maps to it.
"""
from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urlencode

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse
from starlette.routing import Route

from sheets.base import output
from sheets.base.errors import SheetsError
from sheets.base.options import PrintOptions
from sheets.games.wotw import commands, web_team
from sheets.games.wotw.preroll import MissionRequest, roll_missions
from sheets.library.access import game_with_plugin, new_seed
from sheets.web.desk import Desk, checked, number
from sheets.web.workspace import Conflict

NAV = [("/wotw/campaign", "Campaign"), ("/wotw/mission", "Mission")]
OPTIONAL_RULES = ("airborne", "beachhead", "engineers")
OUTCOMES = ("success", "aborted")
SEED_MAX = 2**63 - 1


def _data(desk: Desk):
    return game_with_plugin(desk.library(), "wotw").data


def _into(desk: Desk, folder: str) -> PrintOptions:
    """A desk print's options: the workspace's paper, into its output folder `folder`, from the desk's content."""
    return desk.print_options(desk.workspace.output_dir(folder))


def _names(form, key: str) -> list[str]:
    return [str(n) for n in form.getlist(key) if str(n).strip()]


def _mission(desk: Desk, path: Path, form) -> tuple[str, list[Path]]:
    written, note = commands.campaign_mission(path, _into(desk, "campaign"), seed=number(form, "seed", lo=0, hi=SEED_MAX))
    return note, [p for p in written if p.suffix == ".pdf"]


def _debrief(desk: Desk, path: Path, form) -> tuple[str, list[Path]]:
    outcome = str(form.get("outcome") or "")
    if outcome not in OUTCOMES:
        raise SheetsError(f"outcome {outcome!r}: success or aborted")
    _, line = commands.campaign_debrief(path, outcome, _names(form, "killed"), _names(form, "wounded"),
                                        seed=number(form, "seed", lo=0, hi=SEED_MAX),
                                        enemy_hq=checked(form.get("enemy_hq")), content=desk.content)
    return line, []


def _spend(desk: Desk, path: Path, form) -> tuple[str, list[Path]]:
    what, name = str(form.get("spend") or ""), str(form.get("man") or "").strip()
    detail = str(form.get("detail") or "").strip()
    args = {"promote": {"promote": name}, "skill": {"skill": f"{name}={detail}"},
            "rearm": {"rearm": f"{name}={detail}"}, "engineer": {"make_engineer": name},
            "recruit": {"recruit": [name], "quality": str(form.get("quality") or "") or None,
                        "weapon": detail or None, "medical": checked(form.get("medical"))}}
    if what not in args:
        raise SheetsError(f"spend {what!r}: one of {', '.join(args)}")
    _, line = commands.campaign_spend(path, content=desk.content, **args[what])
    return line, []


def _record(desk: Desk, path: Path, _form) -> tuple[str, list[Path]]:
    pdf = commands.campaign_show(path, _into(desk, "campaign"))
    return "the campaign record printed", [pdf]


def _strike(desk: Desk, path: Path, form) -> tuple[str, list[Path]]:
    step = number(form, "step", lo=1, hi=99)
    if step is None:
        raise SheetsError("strike: give the step to strike (its number on the track)")
    written, note = commands.campaign_strike(path, step, _into(desk, "campaign"))
    return note, [p for p in written if p.suffix == ".pdf"]


def _adjust(desk: Desk, path: Path, form) -> tuple[str, list[Path]]:
    reason = str(form.get("reason") or "").strip()
    if not reason:
        raise SheetsError("adjust: say why (--reason): it is printed in the record's ledger")
    _, line = commands.campaign_adjust(path, reason, cp_delta=number(form, "cp", lo=-99, hi=99) or 0,
                                       xp_delta=number(form, "xp", lo=-99, hi=99) or 0, heal=_names(form, "heal"),
                                       content=desk.content)
    return line, []


def _undo(desk: Desk, path: Path, form) -> tuple[str, list[Path]]:
    _, line = commands.campaign_undo(path, steps=number(form, "steps", lo=1, hi=999) or 1, content=desk.content)
    return line, []


#: what a campaign form may ask: each a function of (desk, file, form) -> (note, PDFs); the file is
#: checked to be the version the form was made from first
ACTIONS = {"mission": _mission, "debrief": _debrief, "spend": _spend, "record": _record, "strike": _strike,
           "adjust": _adjust, "undo": _undo}
WRITES = {"mission", "debrief", "spend", "strike", "adjust", "undo"}


def _campaigns(desk: Desk) -> list[str]:
    return [f for f in desk.workspace.files("*.yaml")
            if "kind: campaign" in desk.workspace.path(f).read_text(encoding="utf-8", errors="replace")]


def _desk_page(desk: Desk, rel: str, *, status: int = 200, note: str = "", error: str = "", pdfs=()):
    """A campaign's desk: its state, its history and a form per action."""
    path = desk.workspace.path(rel)
    if not path.is_file():
        raise HTTPException(404, f"{rel}: no such campaign file in the workspace")
    state = json.loads(commands.campaign_json(path, desk.content))
    data = _data(desk)
    nation = data.nation(state["nation"])
    return desk.page("wotw/web/campaign.html.j2", status=status, title=f"Campaign: {rel}", rel=rel,
                     version=desk.workspace.digest(path), c=state, note=note, error=error,
                     names={"nation": nation.name, "theatre": data.theatre(state["theatre"]).name},
                     pdfs=[(p.name, desk.link(p)) for p in pdfs],
                     open=next((m for m in state["missions"] if m["outcome"] == "in progress"), None),
                     living=[m for m in state["team"] if m["status"] != "killed"],
                     weapons=[w.name for w in nation.weapons], outcomes=OUTCOMES,
                     history=commands.campaign_history(path, desk.content))


# shown as _desk_page is (`show`), with the files printed, which the spend page does not list
def _spend_page(desk: Desk, rel: str, *, status: int = 200, note: str = "", error: str = "", pdfs=()):  # noqa: ARG001
    """What each man may buy, at its price."""
    path = desk.workspace.path(rel)
    if not path.is_file():
        raise HTTPException(404, f"{rel}: no such campaign file in the workspace")
    campaign, options = commands.campaign_offers(path, desk.content)
    return desk.page("wotw/web/spend.html.j2", status=status, title=f"Spend: {rel}", rel=rel,
                     version=desk.workspace.digest(path), c=campaign, options=options, note=note, error=error,
                     open=campaign.in_progress)


def _team_builder(desk: Desk, form, step: str):
    """The wizard's step 2: rows of men against the CP budget; `create` starts the campaign."""
    data = _data(desk)
    begun = web_team.start(data, form)
    rows = web_team.rows(data, begun["nation"], form)
    status, error = 200, ""
    if step == "create":
        path = desk.workspace.path(begun["file"])
        try:
            desk.call(commands.campaign_new, path, begun["nation"], begun["theatre"],
                      members=web_team.members(rows), optional_rules=begun["rules"], content=desk.content)
            return RedirectResponse(f"/wotw/campaign/desk?{urlencode({'file': begun['file']})}", status_code=303)
        except SheetsError as exc:
            status, error = 400, str(exc)
    return desk.page("wotw/web/team.html.j2", status=status, title="New campaign: the team", begun=begun,
                     rows=rows, error=error, theatre_name=data.theatre(begun["theatre"]).name,
                     **web_team.priced(data, begun["nation"], rows, begun["rules"]))


def _campaign_routes(desk: Desk) -> list[Route]:
    def index(request: Request):
        data = _data(desk)
        return desk.page("wotw/web/campaigns.html.j2", title="WotW campaigns", files=_campaigns(desk),
                         nations=[(n.id, n.name) for n in data.teams.nations],
                         theatres=[(t.id, t.name, ", ".join(t.nations)) for t in data.theatres.theatres],
                         rules=OPTIONAL_RULES, teams=desk.workspace.files("*team*.yaml"), error="")

    def new(request: Request):
        form = desk.form(request)
        step = str(form.get("step") or "")
        if step in ("team", "update", "create"):
            return _team_builder(desk, form, step)
        rel = str(form.get("file") or "").strip()
        if not rel.endswith((".yaml", ".yml")):
            raise HTTPException(400, f"file {rel!r}: a campaign file name ending in .yaml, e.g. campaign.yaml")
        path = desk.workspace.path(rel)
        team = str(form.get("team") or "")
        desk.call(commands.campaign_new, path, str(form.get("nation") or ""), str(form.get("theatre") or ""),
                  team=desk.workspace.path(team) if team else None, random=not team,
                  seed=number(form, "seed", lo=0, hi=SEED_MAX) if not team else None,
                  optional_rules=[r for r in OPTIONAL_RULES if checked(form.get(r))], content=desk.content)
        return RedirectResponse(f"/wotw/campaign/desk?{urlencode({'file': rel})}", status_code=303)

    def view(request: Request):
        return _desk_page(desk, request.query_params.get("file", ""))

    def spend_view(request: Request):
        return _spend_page(desk, request.query_params.get("file", ""))

    def act(request: Request):
        form = desk.form(request)
        rel, action = str(form.get("file") or ""), str(form.get("action") or "")
        if action not in ACTIONS:
            raise HTTPException(400, f"action {action!r}: one of {', '.join(ACTIONS)}")

        def run():
            with output.locked(desk.workspace.path(rel)):  # no other writer between the check and the change
                path = desk.workspace.check_fresh(rel, str(form.get("version") or ""))
                return ACTIONS[action](desk, path, form)
        show = _spend_page if form.get("page") == "spend" else _desk_page  # the page the form was on
        try:
            note, pdfs = desk.call(run)
        except Conflict:
            raise
        except SheetsError as exc:
            return show(desk, rel, status=400, error=str(exc))
        return show(desk, rel, note=note, pdfs=pdfs)

    return [Route("/wotw/campaign", index), Route("/wotw/campaign/new", new, methods=["POST"]),
            Route("/wotw/campaign/desk", view), Route("/wotw/campaign/desk", act, methods=["POST"]),
            Route("/wotw/campaign/spend", spend_view)]


def _mission_routes(desk: Desk) -> list[Route]:
    def mission_form(request: Request):
        data = _data(desk)
        return desk.page("wotw/web/mission.html.j2", title="Mission pre-roller", form={}, result=None,
                         theatres=[(t.id, t.name) for t in data.theatres.theatres],
                         nations=[(n.id, n.name) for n in data.teams.nations], rules=OPTIONAL_RULES)

    def mission_roll(request: Request):
        form = desk.form(request)
        theatre, nation = str(form.get("theatre") or "") or None, str(form.get("nation") or "") or None
        seed = number(form, "seed", lo=0, hi=SEED_MAX)
        req = MissionRequest(theatre=theatre, nation=nation, seed=seed if seed is not None else new_seed(),
                             **{r: checked(form.get(r)) for r in OPTIONAL_RULES})
        _, missions = desk.call(roll_missions, req, desk.content)
        pdf, note = desk.call(commands.make_mission, req, _into(desk, "missions"))
        data = _data(desk)
        return desk.page("wotw/web/mission.html.j2", title="Mission pre-roller", form=dict(form), note=note,
                         result=missions[0].as_json(), pdf=desk.link(pdf),
                         theatres=[(t.id, t.name) for t in data.theatres.theatres],
                         nations=[(n.id, n.name) for n in data.teams.nations], rules=OPTIONAL_RULES)

    return [Route("/wotw/mission", mission_form), Route("/wotw/mission", mission_roll, methods=["POST"])]


def routes(desk: Desk) -> list[Route]:
    """The campaign desk (campaigns, the new-campaign wizard, each campaign's desk and spend page)
    and the mission pre-roller."""
    return _campaign_routes(desk) + _mission_routes(desk)
