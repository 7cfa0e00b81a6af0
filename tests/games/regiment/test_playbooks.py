"""Playbook PDFs: blank, filled, random, fillable — checked from the PDF itself."""

import pypdf
import pytest

from conftest import REPO, beside, page_size_mm, pages, pdf_text, squash, text_runs
from pagefill import BOTTOM_MARGIN_MM, body_ink

PLAYBOOKS = ["soldier", "medic", "sniper", "operator"]


@pytest.fixture(scope="module")
def blank_pdfs(tmp_path_factory):
    from typer.testing import CliRunner

    from sheets.cli import app

    folder = tmp_path_factory.mktemp("blank")
    out = {}
    for name in PLAYBOOKS:
        target = folder / f"{name}.pdf"
        result = CliRunner().invoke(app, ["playbook", name, "-o", str(target)])
        assert result.exit_code == 0, result.output
        out[name] = target
    return out


@pytest.mark.parametrize("name", PLAYBOOKS)
def test_blank_playbook_is_two_a4_pages(blank_pdfs, name):
    assert pages(blank_pdfs[name]) == 2
    assert page_size_mm(blank_pdfs[name]) == (210.0, 297.0)


@pytest.mark.parametrize("name", PLAYBOOKS)
def test_blank_playbook_has_every_move_loadout_and_stat(blank_pdfs, regiment, name):
    pb = regiment.data.playbook(name)
    text = squash(pdf_text(blank_pdfs[name]))
    for move in pb.moves:
        assert squash(move.name) in text, move.name
        assert squash(move.text) in text, f"full text of {move.name}"
        for option in move.options:
            assert squash(option) in text
    for loadout in pb.loadouts:
        assert squash(loadout.text) in text
    assert squash(pb.also) in text
    for rank in pb.ranks:
        assert squash(rank.full) in text
    if pb.stats.stat_sets:
        for stat in ("BATTLE", "GUTS", "LEADERSHIP", "LUCKY", "TACTICS"):
            column = "".join(
                {1: "+1", 2: "+2", 3: "+3", 0: "=0", -1: "-1", -2: "-2"}[getattr(s, stat.lower())]
                for s in pb.stats.stat_sets)
            assert f"{stat}{column}" in text, stat
    else:
        assert squash(pb.stats.assign_text) in text
    for item in pb.improvements.basic + pb.improvements.advanced.items + pb.mark_xp_when:
        assert squash(item) in text
    assert "OTHEREQUIPMENTANDSPOILSOFWAR" in text


@pytest.mark.parametrize("name", PLAYBOOKS)
def test_blank_playbook_has_the_vof_table(blank_pdfs, regiment, name):
    text = squash(pdf_text(blank_pdfs[name]))
    vof = regiment.data.lists.vof
    assert "VOF123456" in text
    for row in vof.rows:
        assert "".join(row) in text
    for track in ("GEAR", "SMOKES", "WOUNDS", "TOUGH", "STRESS", "GRIT", "EXPERIENCE", "IMPROVE"):
        assert track in text


@pytest.mark.parametrize("name", PLAYBOOKS)
def test_letter_paper_filled_still_two_pages(cli, tmp_path, name):
    result = cli("playbook", name, "--random", "--seed", "1", "--paper", "letter", "-o", tmp_path / "m.pdf")
    assert result.exit_code == 0, result
    assert page_size_mm(tmp_path / "m.pdf") == (215.9, 279.4)
    assert pages(tmp_path / "m.pdf") == 2



@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_notes_box_takes_what_page_one_leaves(cli, tmp_path, paper):
    """Page 1's last ink is the NOTES box's bottom edge, on the bottom margin whatever the paper and the
    playbook (the box grows into the room the rest leaves: no height is set for it anywhere)."""
    for name in PLAYBOOKS:
        out = tmp_path / f"{name}.pdf"
        assert cli("playbook", name, "--paper", paper, "-o", out).exit_code == 0
        _, last, height = body_ink(out, 0)
        assert height - BOTTOM_MARGIN_MM - last < 0.6, f"{name} on {paper}: {height - BOTTOM_MARGIN_MM - last:.1f} mm left"
        assert pages(out) == 2

def test_filled_playbook_shows_the_character(cli, tmp_path):
    example = REPO / "content" / "regiment" / "characters" / "walter-brzezinski.yaml"
    result = cli("playbook", "sniper", "--character", example)
    assert result.exit_code == 0, result
    pdf = tmp_path / "output" / "regiment-sniper-walter-brzezinski.pdf"
    assert f"wrote output/{pdf.name}" in result.stdout
    text = squash(pdf_text(pdf))
    for value in ["WalterBrzezinski", "Sergeant(Sgt)", "Icy", "Plumber", "2ndSquad", "SgtHaines", "DocKeller"]:
        assert value in text, value
    # stat set 1 of the sniper, written into the stat boxes (beside their labels)
    runs = text_runs(pdf, 0)
    stats = {s: beside(runs, s.upper()) for s in ("battle", "lucky", "guts", "tactics", "leadership")}
    assert stats == {"battle": "+1", "lucky": "-1", "guts": "0", "tactics": "+2", "leadership": "+1"}
    with pytest.raises(AssertionError, match="nothing right of"):
        beside(runs, "FORWARD")  # no FORWARD stat yet
    # the chosen moves and loadout carry a tick; the others do not
    runs = text_runs(pdf, 1)
    for move in ("One shot, one kill:", "Camouflage:", "Spotter:"):
        assert beside(runs, move, "left", max_dx=20, max_dy=4) == "✔", move
    for unmarked in ("Deadly Aim:",):
        left = [r for r in runs if abs(r[1] - next(y for x, y, t in runs if t.startswith(unmarked))) < 4
                and r[2] == "✔"]
        assert not left, unmarked
    assert "PrecisionRifle(3dfar/exreload)" in text and text.count("✔") == 6


def test_filled_playbook_marks_boxes_in_the_html(regiment, tmp_path):
    from sheets.pipeline.sheet import render_html
    from sheets.games.regiment.characters import resolve_character
    from sheets.games.regiment.sheets import filled_playbooks
    from sheets.library.yaml_source import load_yaml

    example = REPO / "content" / "regiment" / "characters" / "walter-brzezinski.yaml"
    ch = resolve_character(load_yaml(example), regiment.data)
    html = render_html(filled_playbooks(regiment, [ch], "x.pdf"))
    pb = ch.playbook
    for i, move in enumerate(pb.moves, 1):
        marked = move.name in {"One shot, one kill", "Camouflage", "Spotter"}
        assert (f'class="box marked" data-field="c0.move.{i}"' in html) == marked, move.name
    assert 'class="box marked" data-field="c0.loadout.1"' in html
    assert 'class="box" data-field="c0.loadout.2"' in html
    assert 'class="box marked" data-field="c0.statset.1"' in html


def test_random_squad_is_deterministic(cli, tmp_path):
    args = ["playbook", "medic", "--random", "--seed", "7", "--count", "4"]
    assert cli(*args, "-o", tmp_path / "a.pdf").exit_code == 0
    assert cli(*args, "-o", tmp_path / "b.pdf").exit_code == 0
    a, b = (tmp_path / "a.pdf").read_bytes(), (tmp_path / "b.pdf").read_bytes()
    assert a == b
    assert pages(tmp_path / "a.pdf") == 8
    assert cli("playbook", "medic", "--random", "--seed", "8", "--count", "4", "-o", tmp_path / "c.pdf").exit_code == 0
    assert (tmp_path / "c.pdf").read_bytes() != a
    text = pdf_text(tmp_path / "a.pdf")
    assert "soldier 1 of 4" in text and "soldier 4 of 4" in text and "seed 7" not in text
    assert squash(pdf_text(tmp_path / "c.pdf")) != squash(text)


def test_scripted_dice_choose_the_soldier(cli, tmp_path):
    # rank 2 (Cpl), name 1, profile 10 (Icy), background 20 (Plumber), set 3, moves 1 and 1, loadout 2
    result = cli("playbook", "medic", "--dice", "2,1,10,20,3,1,1,2", "-o", tmp_path / "d.pdf")
    assert result.exit_code == 0, result
    text = squash(pdf_text(tmp_path / "d.pdf"))
    assert "Corporal(Cpl)" in text and "Icy" in text and "Plumber" in text
    runs = text_runs(tmp_path / "d.pdf", 1)
    for ticked in ("Battlefield grace:", "Inopportune Target:", "Battle Rifle"):
        assert beside(runs, ticked, "left", max_dx=20, max_dy=4) == "✔", ticked
    runs = text_runs(tmp_path / "d.pdf", 0)
    assert (beside(runs, "BATTLE"), beside(runs, "LUCKY")) == ("0", "+1")  # stat set 3 of the medic


def test_running_out_of_scripted_dice(cli, tmp_path):
    result = cli("playbook", "medic", "--dice", "2,1,10", "-o", tmp_path / "d.pdf")
    assert result.exit_code == 1
    assert "ran out of scripted dice: 3 given, die #4 needed (a d25 for background)" in result.stderr
    assert not (tmp_path / "d.pdf").exists()


def test_fillable_playbook_has_form_fields(cli, tmp_path):
    result = cli("playbook", "sniper", "--random", "--seed", "3", "--fillable", "-o", tmp_path / "f.pdf")
    assert result.exit_code == 0, result
    fields = pypdf.PdfReader(str(tmp_path / "f.pdf")).get_fields()
    names = set(fields)
    for name in ["c0.name", "c0.rank", "c0.profile", "c0.background", "c0.stat.battle", "c0.squad",
                 "c0.bond.0.name", "c0.gear.1", "c0.wounds.5", "c0.xp.4", "c0.move.2", "c0.loadout.1",
                 "c0.markxp.1", "c0.imp.basic.1", "c0.notes", "c0.equip.0", "c0.deployment"]:
        assert name in names, name
    # the own move's tick and the shaded TOUGH/IMPROVE thresholds are printed, never fields (issue 34)
    assert not {"c0.move.1", "c0.wounds.6", "c0.xp.5"} & names
    assert fields["c0.gear.1"].get("/V") in (None, "/Off")
    assert fields["c0.name"].get("/V")


def test_unknown_playbook_name(cli):
    result = cli("playbook", "chaplain")
    assert result.exit_code == 1
    assert "unknown playbook 'chaplain'; choose one of: medic, operator, sniper, soldier" in result.stderr


def test_unwritable_output_folder(cli, tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    result = cli("playbook", "medic", "-o", blocker / "medic.pdf")
    assert result.exit_code == 1
    assert "cannot create output folder" in result.stderr and "not-a-folder" in result.stderr
    assert "Traceback" not in result.stderr


def test_failed_write_leaves_no_partial_file(tmp_path, monkeypatch):
    import os

    import sheets.base.output as output

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(output.OutputError, match="No space left on device"):
        output.write_atomic(tmp_path / "x.pdf", b"%PDF-1.7 ...")
    assert list(tmp_path.iterdir()) == []
