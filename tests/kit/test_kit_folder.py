"""The kit folder holds one kit, the contents page says for whom each part is printed and lists the
player packets, and the command's count is the files it wrote."""
import json

from conftest import pdf_text, squash


def _files(folder):
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*")
                  if p.is_file() and not p.relative_to(folder).parts[0].startswith("."))


def test_a_rebuild_leaves_only_its_own_kit_and_never_a_file_it_did_not_write(cli, tmp_path):
    kit = tmp_path / "k"
    first = cli("kit", "--seed", "1", "--game", "regiment", "--players", "2", "--preview", "-o", kit)
    assert first.exit_code == 0, first
    written = _files(kit)
    assert "player-2.pdf" in written and "preview/contact-sheet.png" in written
    # the count is every file written: the parts, the packets, the previews, manifest and kit.pdf
    assert f"kit: {len(written)} files (" in first.stdout
    mine = kit / "my-notes.txt"
    mine.write_text("the GM's own notes")
    edited = kit / "regiment-reference.pdf"
    edited.write_bytes(edited.read_bytes() + b"% annotated by the user\n")
    second = cli("kit", "--seed", "2", "--game", "wotw", "-o", kit)
    assert second.exit_code == 0, second
    manifest = {f["path"] for f in json.loads((kit / "manifest.json").read_text())["files"]}
    left = set(_files(kit)) - {"manifest.json"}
    # every file the tool wrote before is gone unless this build wrote it again...
    assert left - manifest == {"my-notes.txt", "regiment-reference.pdf"}
    assert not (kit / "preview").exists() and not (kit / "player-1.pdf").exists()
    # ...and what it did not write, or what the user changed since, is kept as it was
    assert mine.read_text() == "the GM's own notes" and edited.read_bytes().endswith(b"% annotated by the user\n")
    assert f"kit: {len(manifest) + 1} files (5 parts, manifest.json, kit.pdf" in second.stdout


def test_the_contents_page_lists_the_packets_and_says_for_whom(cli, tmp_path):
    kit = tmp_path / "k"
    assert cli("kit", "--seed", "4", "--game", "regiment", "--players", "2", "-o", kit).exit_code == 0
    contents = squash(pdf_text(kit / "kit.pdf").split("Printing:")[0])
    for words in ("Player 1 of 2 (player-1.pdf)", "Player 2 of 2 (player-2.pdf)",
                  "copies: one file per player, each printed once",
                  "copies: none if you print the player packets",  # the filled set is in the packets too
                  "copies: one, for the GM", "copies: one for each player who takes this playbook"):
        assert squash(words) in contents, words
    assert "copies: one per player" not in pdf_text(kit / "kit.pdf")


def test_a_random_squad_of_four_is_one_of_each_playbook(regiment):
    from sheets.base.dice import Dice
    from sheets.games.regiment.sheets import roll_squad

    every = sorted(regiment.data.playbooks)
    for seed in range(25):
        squad = roll_squad(regiment, Dice.seeded(seed), 4)
        assert sorted(s.playbook.id for s in squad) == every, seed
        eight = sorted(s.playbook.id for s in roll_squad(regiment, Dice.seeded(seed), 8))
        assert eight == sorted(every * 2), seed
    named = roll_squad(regiment, Dice.seeded(1), 4, regiment.data.playbook("medic"))
    assert {s.playbook.id for s in named} == {"medic"}
