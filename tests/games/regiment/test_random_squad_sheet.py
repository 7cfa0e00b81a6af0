"""A random squad's playbooks carry what the rules give a new soldier (issue 48): the SMOKES his
playbook's barter gives, and a BOND WITH row for each squad mate; read back from the PDF."""
from __future__ import annotations

import pymupdf
import pytest

MM = 72 / 25.4


@pytest.mark.parametrize("seed", [7, 1944])
def test_random_soldiers_get_their_smokes_and_bonds(cli, tmp_path, regiment, seed):
    from sheets.base.dice import Dice
    from sheets.games.regiment.sheets import roll_squad

    count = len(regiment.data.playbooks)
    squad = roll_squad(regiment, Dice.seeded(seed), count)
    assert cli("playbook", "--random", "--count", str(count), "--seed", str(seed), "-o", "r.pdf").exit_code == 0
    doc = pymupdf.open(tmp_path / "r.pdf")
    assert doc.page_count == 2 * count
    for i, ch in enumerate(squad):
        page = doc[2 * i]
        words = page.get_text("words")
        assert ch.name.split()[-1] in [w[4] for w in words]  # the page is this soldier's
        label = next(w for w in words if w[4] == "SMOKES")
        box = [w[4] for w in words if abs(w[1] - label[1]) < 3 * MM and 0 < w[0] - label[2] < 15 * MM]
        assert ch.playbook.smokes is not None and box == [str(ch.playbook.smokes)], (ch.playbook.id, box)
        heading = next(w for w in words if w[4] == "WITH")
        bonds = pymupdf.Rect(heading[0] - 12 * MM, heading[3], page.rect.x1, heading[3] + 36 * MM)
        under = " ".join(page.get_textbox(bonds).split())
        for mate in squad:
            if mate is not ch and mate.name != ch.name:
                assert mate.name in under, (ch.name, mate.name, under)
        assert ch.name not in under, "no bond with himself"


def test_saved_random_soldiers_keep_smokes_and_bonds(cli, tmp_path, regiment):
    """`--save` writes them into the character files, which read back the same (the bond's value left open)."""
    from sheets.games.regiment.squads import load_squad

    assert cli("playbook", "--random", "--count", "3", "--seed", "5", "--save", "sq", "-o", "r.pdf").exit_code == 0
    members = load_squad(tmp_path / "sq" / "squad.yaml", regiment.data).members
    for ch in members:
        assert ch.smokes == ch.playbook.smokes
        assert set(ch.bonds) == {m.name for m in members if m.name != ch.name}
        assert set(ch.bonds.values()) == {None}
