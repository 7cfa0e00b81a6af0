"""A playbook's footer names the character and the file's name, never a folder (issue 31)."""
from conftest import pdf_text, squash


def test_character_footer_names_the_file_not_its_folder(cli, tmp_path):
    folder = tmp_path / "qzhomefolder" / "qzplayers"
    folder.mkdir(parents=True)
    character = folder / "walter.yaml"
    assert cli("new", "character", "sniper", character).exit_code == 0
    out = tmp_path / "walter.pdf"
    result = cli("playbook", "sniper", "--character", character, "-o", out)
    assert result.exit_code == 0, result
    text = squash(pdf_text(out))
    assert squash("Sniper playbook ·") in text and squash("· walter.yaml · warsheets") in text
    assert "qzhomefolder" not in text and "qzplayers" not in text
