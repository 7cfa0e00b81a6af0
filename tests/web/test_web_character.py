"""The Regiment character page: only legal choices offered, the CLI's checker, round-trip saves,
the stale-write conflict, the PDF and the live preview."""
import html
import io
import re

from urllib.parse import urlencode

import pytest
import yaml
from deskfixtures import alerts, controls, desk, field  # noqa: F401 - the fixture
from PIL import Image

from conftest import REPO, pdf_text, squash

from sheets.games.regiment import webform
from sheets.games.regiment.characters import WRITE_INS, CharacterFile, character_json, resolve_character
from sheets.games.regiment.web import _preview_png
from sheets.library.access import game_with_plugin
from sheets.library.yaml_source import load_yaml, parse_yaml

HANS = {"playbook": "soldier", "name": "Hans Weber", "rank": "Corporal", "profile": "Cool", "background": "Athlete",
        "stat_set": "2", "moves": ["Battle tested", "Stone cold"], "loadout": "SMG"}


def options(page: str, select: str) -> list[str]:
    block = re.search(rf'<select id="{select}" name="{select}">(.*?)</select>', page, re.S).group(1)
    return [html.unescape(o) for o in re.findall(r"<option[^>]*>([^<]*)</option>", block)]


def test_a_playbook_offers_only_its_legal_choices(desk, regiment):
    page = desk.get("/regiment/character?playbook=soldier").text
    assert options(page, "rank")[1:] == [r.full for r in regiment.data.playbook("soldier").ranks]
    assert re.findall(r'name="moves" value="([^"]+)"', page) == [
        html.escape(m.name) for m in regiment.data.playbook("soldier").moves[1:]]
    assert "Moves: Once More into the Breach, and choose 2" in page
    operator = desk.get("/regiment/character?playbook=operator").text
    assert 'name="stat_set"' not in operator and options(operator, "stat_battle") == ["choose", "+2", "+1", "0"]
    assert desk.get("/regiment/character?playbook=chaplain").status_code == 400


def test_an_illegal_character_gets_the_clis_messages_and_nothing_is_written(desk):
    page = desk.post("/regiment/character", {**HANS, "rank": "Private", "moves": ["Battle tested"], "action": "save"})
    assert page.status_code == 422
    said = alerts(page.text)
    assert ("characters/hans-weber.yaml:5: rank: rank 'Private' is not allowed for a Soldier; allowed: Private "
            "First Class (Pfc), Technician 5th Grade (T/5), Corporal (Cpl)") in said
    assert "moves: a Soldier chooses exactly 2 moves besides 'Once More into the Breach'; this file lists 1" in said
    assert not (desk.workspace / "characters").exists()


def test_save_writes_a_character_file_the_cli_reads_then_prints_it(desk, regiment, cli):
    page = desk.post("/regiment/character", {**HANS, "action": "print"})
    assert page.status_code == 200, alerts(page.text)
    assert "Saved characters/hans-weber.yaml" in alerts(page.text)
    path = desk.workspace / "characters" / "hans-weber.yaml"
    text = path.read_text()
    assert text.startswith("# A Soldier of The Regiment, made at the warsheets desk.\n")
    assert "\nplaybook: soldier\nname: Hans Weber\nrank: Corporal\nprofile: Cool\nbackground: Athlete\nstat_set: 2\n" \
           "moves:\n- Battle tested\n- Stone cold\nloadout: SMG\n" in text
    char = resolve_character(load_yaml(path), regiment.data)
    assert (char.name, char.rank.abbr, char.stat_set, [m.name for m in char.moves]) == (
        "Hans Weber", "Cpl", 2, ["Battle tested", "Stone cold"])
    pdf = re.search(r'href="(/files/output/characters/hans-weber\.pdf)"', page.text).group(1)
    body = desk.get(pdf).content
    assert body[:5] == b"%PDF-"
    assert "HansWeber" in squash(pdf_text(desk.workspace / "output" / "characters" / "hans-weber.pdf"))
    assert field(page.text, "version")  # the next save goes over this version


def test_an_existing_file_keeps_its_comments_order_and_other_keys(desk):
    source = (REPO / "content" / "regiment" / "characters" / "ada-mercer.yaml").read_text()
    (desk.workspace / "ada.yaml").write_text(source)
    page = desk.get("/regiment/character?file=ada.yaml").text
    assert 'value="Ada Mercer"' in page and "selected>Cool</option>" in page
    data = {"playbook": "operator", "file": "ada.yaml", "version": field(page, "version"), "name": "Ada Mercer",
            "rank": "Staff Sergeant", "profile": "Cool", "background": "Engineer", "stat_battle": "2", "stat_guts": "1",
            "stat_leadership": "0", "stat_lucky": "0", "stat_tactics": "2", "moves": ["Explosives", "EW"],
            "loadout": "SMG w/suppressor", "xp": "1", "action": "save"}
    saved = desk.post("/regiment/character", data)
    assert saved.status_code == 200, alerts(saved.text)
    after = (desk.workspace / "ada.yaml").read_text()
    assert after.splitlines()[0] == source.splitlines()[0]  # the comment
    assert "rank: Staff Sergeant (S/Sgt)" in after  # same meaning: left as written
    assert after == source + "xp: 1\n"  # the one change, and nothing else touched
    assert [line.split(":")[0] for line in after.splitlines() if line and line[0].isalpha()][:8] == [
        "playbook", "name", "rank", "profile", "background", "stats", "moves", "loadout"]
    assert (desk.workspace / "ada.yaml.bak").read_text() == source


def test_a_second_tab_saving_a_stale_version_gets_both_versions_and_nothing_is_lost(desk):
    first = desk.post("/regiment/character", {**HANS, "action": "save"})
    version = field(first.text, "version")
    desk.post("/regiment/character", {**HANS, "file": "characters/hans-weber.yaml", "version": version,
                                      "notes": "tab one", "action": "save"})
    on_disk = (desk.workspace / "characters" / "hans-weber.yaml").read_text()
    stale = desk.post("/regiment/character", {**HANS, "file": "characters/hans-weber.yaml", "version": version,
                                              "notes": "tab two", "action": "save"})
    assert stale.status_code == 409
    text = html.unescape(stale.text)
    assert ("characters/hans-weber.yaml was changed since you opened it (in another tab or by the CLI); "
            "nothing was written") in text
    assert "notes: tab one" in text and "notes: tab two" in text
    assert (desk.workspace / "characters" / "hans-weber.yaml").read_text() == on_disk


def test_the_live_preview_is_the_filled_page(desk):
    query = "&".join(f"{k}={v}" for k, vs in HANS.items() for v in (vs if isinstance(vs, list) else [vs]))
    png = desk.get(f"/regiment/character/preview.png?{query}")
    assert png.status_code == 200 and png.headers["content-type"] == "image/png"
    image = Image.open(io.BytesIO(png.content))
    assert image.width > image.height  # the playbook's pages side by side
    bad = desk.get("/regiment/character/preview.png?playbook=soldier&name=X")
    assert bad.status_code == 422 and "stat_set is missing: choose 1-4" in bad.text


def test_a_new_characters_preview_is_the_blank_playbook_until_the_first_choice(desk, cli, tmp_path):
    """Before any choice the preview is the blank playbook as `sheets playbook` prints it (not a 422
    listing what is missing); the first choice makes it the character's (or what it lacks)."""
    from sheets.games.regiment.web import PREVIEW_DPI
    from sheets.library.content import Library
    from sheets.pipeline.preview import render_pages

    for pb in Library().game("regiment").data.playbooks.values():
        got = desk.get(f"/regiment/character/preview.png?playbook={pb.id}")
        assert got.status_code == 200 and got.headers["content-type"] == "image/png", (pb.id, got.text[:200])
        printed = tmp_path / f"{pb.id}.pdf"
        assert cli("playbook", pb.id, "-o", printed).exit_code == 0
        pages = render_pages(printed, dpi=PREVIEW_DPI)
        shown = Image.open(io.BytesIO(got.content)).convert("RGB")
        assert shown.size == (sum(p.width for p in pages) + 8 * (len(pages) - 1), max(p.height for p in pages))
        assert shown.crop((0, 0, pages[0].width, pages[0].height)).tobytes() == pages[0].convert("RGB").tobytes(), pb.id
    first = desk.get(f"/regiment/character/preview.png?playbook={pb.id}&name=X")
    assert first.status_code == 422  # a choice made: the preview is the character's, which lacks its stats


def test_the_squad_page_rolls_a_squad_lists_it_and_prints_its_roster(desk):
    page = desk.post("/regiment/squad", {"count": "3", "seed": "5", "folder": "alpha"})
    assert page.status_code == 200, alerts(page.text)
    box = re.search(r'role="status">(.*?)</div>', page.text, re.S).group(1)
    written = re.findall(r'<li><a href="[^"]+">([^<]+)</a></li>', box)
    assert written[0] == "output/squads/regiment-squad-random-3-seed5.pdf"
    assert "alpha/squad.yaml" in written and len([w for w in written if w.startswith("alpha/")]) == 4
    listing = desk.get("/regiment/squad").text
    files = re.findall(r'href="/regiment/character\?file=([^"]+)"', listing)
    assert len(files) == 3 and all(f.startswith("alpha/") for f in files)
    roster = desk.post("/regiment/squad", {"squad": "alpha/squad.yaml"})
    assert roster.status_code == 200, alerts(roster.text)
    pdf = desk.workspace / "output" / "squads" / "squad.pdf"
    assert 'href="/files/output/squads/squad.pdf"' in roster.text and pdf.stat().st_size > 0
    assert desk.post("/regiment/squad", {"count": "99"}).status_code == 400
    assert desk.post("/regiment/squad", {"squad": "../x.yaml"}).status_code == 403


# -- improvements and bonds -------------------------------------------------------------------
JOE = HANS | {"name": "Joe Kowalski", "stat_set": "1"}  # stat set 1 + Battle tested: battle +3


def offered(page: str) -> dict[str, tuple[bool, str]]:
    """Each improvement on offer: (takeable?, the refusal shown beside it); '' is "none now"."""
    out = {}
    for found in re.finditer(r'id="take_(\w+)" name="take" value="([^"]*)"([^>]*)>', page):
        why = re.search(rf'<span class="why" id="why_{found.group(1)}">([^<]*)</span>', page)
        out[html.unescape(found.group(2))] = ("disabled" not in found.group(3), html.unescape(why.group(1)) if why else "")
    return out


def test_improvements_are_offered_with_the_checkers_own_refusals(desk, regiment):
    page = desk.post("/regiment/character", {**JOE, "improvements": ["+1 guts", "Fight back"], "action": "check"})
    assert page.status_code == 200, alerts(page.text)
    shown = offered(page.text)
    assert shown["+1 lucky"] == (True, "") and shown["Heavy weapon"] == (True, "")
    assert shown["+1 battle"] == (False, "'+1 battle' would make battle +4; no stat goes above +3 (it is +3 "
                                         "counting moves and earlier improvements)")
    assert shown["Fight back"] == (False, "'Fight back' cannot be taken as an improvement: the character already "
                                          "holds it")
    assert shown["1 tough"] == (False, "'1 tough' is an advanced improvement: it needs 4 improvements before it, "
                                       "and 2 came before")
    soldier = regiment.data.playbook("soldier")
    assert shown["new character"][0] is False and shown[""] == (True, "")
    assert list(shown) == ["", "+1 battle", "+1 guts", "+1 leadership", "+1 lucky", "+1 tactics",
                           *(m.name for m in soldier.moves[1:]), "+1 grit", "1 tough", "go home", "new character"]
    assert re.findall(r'name="improvements" value="([^"]+)" checked', page.text) == ["+1 guts", "Fight back"]
    # not legal yet: nothing is offered, and the page says why
    early = desk.get("/regiment/character?playbook=soldier").text
    assert 'name="take"' not in early and "offered once the rest of the character is legal" in early


def test_taking_an_improvement_saves_it_round_trip_and_prints_it(desk, regiment, cli):
    source = (REPO / "content" / "regiment" / "characters" / "walter-brzezinski.yaml").read_text()
    (desk.workspace / "walter.yaml").write_text(source)
    page = desk.get("/regiment/character?file=walter.yaml").text
    assert offered(page)["Deadly Aim"] == (True, "")
    assert 'name="bond_name_0" value="Doc Keller"' in page and 'name="bond_value_0" type="number" value="2"' in page
    # the form as the page shows it (what a browser sends), with a bond added and an improvement taken
    form = {**controls(page, "character"), "bond_name_1": "Ada Mercer", "bond_value_1": "-1", "take": "+1 guts",
            "action": "print"}
    saved = desk.post("/regiment/character", form)
    assert saved.status_code == 200, alerts(saved.text)
    assert "Saved walter.yaml . Improvement taken: +1 guts." in alerts(saved.text)
    after = (desk.workspace / "walter.yaml").read_text()
    assert after == source.replace("bonds: {Doc Keller: 2}", "bonds: {Doc Keller: 2, Ada Mercer: -1}") \
        + "improvements:\n- +1 guts\n"
    assert (desk.workspace / "walter.yaml.bak").read_text() == source
    # the next form lists it as taken, and offers what comes after it
    assert re.findall(r'name="improvements" value="([^"]+)" checked', saved.text) == ["+1 guts"]
    assert offered(saved.text)["+1 grit"][1].endswith("and 1 came before")
    char = resolve_character(load_yaml(desk.workspace / "walter.yaml"), regiment.data)
    assert [i.text for i in char.improvements] == ["+1 guts"] and char.stats["guts"] == 1
    printed = squash(pdf_text(desk.workspace / "output" / "characters" / "walter.pdf"))
    assert "AdaMercer-1" in printed and "DocKeller+2" in printed
    plain = desk.workspace / "plain.pdf"
    assert cli("playbook", "--character", desk.workspace / "walter.yaml.bak", "-o", plain).exit_code == 0
    # the +1 STAT box names the stat it raised: one more "guts" on the page than before
    assert printed.count("guts") == squash(pdf_text(plain)).count("guts") + 1


def test_an_improvement_the_rules_refuse_is_not_written(desk):
    first = desk.post("/regiment/character", {**JOE, "improvements": ["+1 guts"], "action": "save"})
    path = desk.workspace / "characters" / "joe-kowalski.yaml"
    before = path.read_text()
    refused = desk.post("/regiment/character", {**JOE, "file": "characters/joe-kowalski.yaml",
                                                "version": field(first.text, "version"), "improvements": ["+1 guts"],
                                                "take": "+1 grit", "action": "save"})
    assert refused.status_code == 422
    line = before.splitlines().index("improvements:") + 3  # the list's 2nd item, 1-based
    assert (f"characters/joe-kowalski.yaml:{line}: improvements[1]: '+1 grit' is an advanced improvement: it needs 4 "
            "improvements before it, and 1 came before") in alerts(refused.text)
    assert path.read_text() == before
    nobody = desk.post("/regiment/character", {**JOE, "bond_name_0": "", "bond_value_0": "2", "action": "check"})
    assert nobody.status_code == 422 and "bonds: a bond without a name" in alerts(nobody.text)
    words = desk.post("/regiment/character", {**JOE, "bond_name_0": "Doc", "bond_value_0": "abc", "action": "check"})
    assert words.status_code == 422
    assert "bonds.Doc: 'abc' is not a whole number" in alerts(words.text)
    forged = desk.post("/regiment/character", {**JOE, "take": "+1 lucky", "action": "save"}, csrf=False)
    assert forged.status_code == 403 and not (desk.workspace / "characters" / "joe-kowalski.yaml.bak").exists()


def test_the_preview_shows_the_improvement_being_taken(desk):
    def preview(**extra):
        data = {**JOE, **extra}
        query = "&".join(f"{k}={v}" for k, vs in data.items() for v in (vs if isinstance(vs, list) else [vs]))
        got = desk.get(f"/regiment/character/preview.png?{query.replace('+', '%2B')}")
        assert got.status_code == 200, got.text
        return got.content
    assert preview(take="+1 lucky") != preview()
    assert preview(take="+1 lucky") == preview(improvements="+1 lucky")
    refused = desk.get("/regiment/character/preview.png?" + "&".join(
        f"{k}={v}" for k, vs in JOE.items() for v in (vs if isinstance(vs, list) else [vs])) + "&take=%2B1%20battle")
    assert refused.status_code == 422 and "'+1 battle' would make battle +4" in refused.text


# -- the form is the character file's model -----------------------------------------------------
def _with_every_typed_key(data: dict) -> dict:
    """The file's data with a value for each key the form types in that it lacks (a key the model gains is
    in this test without a line here)."""
    data = {**data, **{k: dict(v) for k, v in data.items() if isinstance(v, dict)}}
    for entry in webform.typed():
        *outer, leaf = entry.key.split(".")
        holder = data
        for part in outer:
            holder = holder.setdefault(part, {})
        holder.setdefault(leaf, 1 if entry.number else f"{entry.label} written at the desk")
    return data


def test_every_key_of_a_character_file_is_on_the_form_and_in_its_preview(desk, library):
    """Walter's file has a squad (designation, OP, leader), a deployment, bonds and notes. Opened at the desk,
    each key the form types in shows the file's value, and the preview the page shows, and the one the form
    makes as it stands (desk.js: its controls), are the file's own preview: nothing the file says is dropped
    on the way through the form. Saved from the form to a new file, it is the same character."""
    source = load_yaml(REPO / "content" / "regiment" / "characters" / "walter-brzezinski.yaml").data
    data = _with_every_typed_key(source)
    text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
    (desk.workspace / "walter.yaml").write_text(text)
    page = desk.get("/regiment/character?file=walter.yaml").text
    form = controls(page, "character")
    for entry in webform.typed():
        assert form[entry.key] == [str(webform._at(data, entry.key))], entry.key
    game = game_with_plugin(library, "regiment")
    own = _preview_png(text, game)
    shown = html.unescape(re.search(r'<img id="preview" class="preview" src="([^"]+)"', page).group(1))
    assert desk.get(shown).content == own
    query = urlencode([(k, v) for k, vs in form.items() if k not in ("csrf", "version", "action") for v in vs])
    assert desk.get(f"/regiment/character/preview.png?{query}").content == own
    # the comparison sees them: without the squad and the write-ins, the file's preview is another picture
    bare = {k: v for k, v in data.items() if k != "squad" and k not in WRITE_INS}
    assert _preview_png(yaml.safe_dump(bare, sort_keys=False), game) != own

    saved = desk.post("/regiment/character", {**form, "file": "copy.yaml", "version": "", "action": "save"})
    assert saved.status_code == 200, alerts(saved.text)
    copy, original = (resolve_character(load_yaml(desk.workspace / name, "walter.yaml"), game.data)
                      for name in ("copy.yaml", "walter.yaml"))
    assert (character_json(copy), copy.write_ins) == (character_json(original), original.write_ins)
    assert load_yaml(desk.workspace / "copy.yaml").data == {**data, "rank": "Sergeant"}  # the rank by its name


def test_a_new_character_file_lists_its_keys_in_the_models_order(desk):
    """A file made at the desk writes its keys where the model has them, the typed ones among the rest."""
    page = desk.post("/regiment/character", {**HANS, "squad.designation": "2nd Squad", "squad.op": "1",
                                             "deployment": "Anzio", "notes": "Quiet", "action": "save"})
    assert page.status_code == 200, alerts(page.text)
    written = parse_yaml((desk.workspace / "characters" / "hans-weber.yaml").read_text(), "hans.yaml").data
    order = list(webform.ORDER)
    assert list(written) == sorted(written, key=order.index)
    assert written["squad"] == {"designation": "2nd Squad", "op": 1} and written["deployment"] == "Anzio"


def test_the_form_holds_every_key_of_the_model_and_refuses_one_it_cannot_show():
    """Each key of the character file is laid out (with the playbook's choices) or typed in; a key the form
    could not show as a box (a list) stops the desk at its start instead of being dropped on a save."""
    keys = set(CharacterFile.model_fields)
    assert set(webform.LAID_OUT) <= keys
    assert keys == set(webform.LAID_OUT) | {entry.key.split(".")[0] for entry in webform.typed()}

    class WithTags(CharacterFile):
        tags: list[str] = []

    with pytest.raises(TypeError, match="the character form types tags in as text or a number"):
        list(webform._typed(WithTags))
