"""`sheets kit --squad FILE` (issue 48): the GM's squad's roster filled in, in the kit beside the blank
one, and the contents page saying which copy of each player's sheets to print; read from the PDFs."""
from __future__ import annotations

import pymupdf


def test_a_squad_kit_has_the_filled_roster_and_says_which_copy_to_print(cli, tmp_path, regiment):
    from sheets.games.regiment.squads import load_squad

    assert cli("playbook", "--random", "--count", "3", "--seed", "12", "--save", tmp_path / "sq").exit_code == 0
    squad = tmp_path / "sq" / "squad.yaml"
    members = load_squad(squad, regiment.data).members
    result = cli("kit", "--seed", "3", "--game", "regiment", "--squad", squad, "-o", tmp_path / "kit")
    assert result.exit_code == 0, result
    kit = tmp_path / "kit"
    roster = pymupdf.open(kit / "regiment-your-squad-roster.pdf")
    assert roster.page_count == 1
    text = " ".join(roster[0].get_text().split())
    assert "SQUAD ROSTER" in text
    for ch in members:
        assert f"{ch.name} {ch.playbook.name} {ch.rank.abbr}" in text, ch.name
    assert (kit / "regiment-squad-roster.pdf").is_file()  # the blank one still
    # in kit.pdf too: a roster page naming every member
    book = pymupdf.open(kit / "kit.pdf")
    pages = [" ".join(p.get_text().split()) for p in book]
    assert any("SQUAD ROSTER" in p and all(ch.name in p for ch in members) for p in pages)
    contents = " ".join(pages[0].split())
    assert "Squad roster (your squad)" in contents
    # the filled playbooks are in kit.pdf and in each player's packet: the contents page says print one
    assert "none if you print the player packets" in contents, contents
    for ch in members:
        assert ch.name in contents
