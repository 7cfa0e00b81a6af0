"""Content is validated on load: strict models, located errors, all at once."""
from pathlib import Path

from sheets.library.content import Library
from sheets.library.yaml_source import parse_yaml
import pytest

pytestmark = pytest.mark.unit  # `make check`'s fast tier


def test_bundled_content_is_valid(cli):
    result = cli("validate")
    assert result.exit_code == 0, result
    assert "content is valid" in result.stdout


def test_bundled_content_has_no_problems(library):
    assert library.validate() == []


def test_unknown_key_names_file_line_and_field(cli, content_copy: Path):
    path = content_copy / "regiment" / "playbooks" / "medic.yaml"
    text = path.read_text()
    text = text.replace("choose_moves: 2", "choose_moves: 2\nchoose_movez: 3", 1)
    path.write_text(text)
    line = text.splitlines().index("choose_movez: 3") + 1
    result = cli("validate", "--content", content_copy)
    assert result.exit_code == 1
    assert f"content/regiment/playbooks/medic.yaml:{line}: choose_movez: unknown key" in result.stderr
    assert "Traceback" not in result.stderr


def test_every_error_is_reported_at_once(cli, content_copy: Path):
    medic = content_copy / "regiment" / "playbooks" / "medic.yaml"
    medic.write_text(medic.read_text().replace("roll: guts", "roll: gutz", 1))
    lists = content_copy / "regiment" / "lists.yaml"
    lists.write_text(lists.read_text().replace("profiles:", "profilez:", 1))
    result = cli("validate", "--content", content_copy)
    assert result.exit_code == 1
    assert "medic.yaml" in result.stderr and "moves[0].roll" in result.stderr
    # a misspelt key is one problem: the unknown key names the one it misspells, which is then not also "missing"
    assert "lists.yaml:5: profilez: unknown key: did you mean 'profiles'?" in result.stderr
    assert "profiles: required key is missing" not in result.stderr
    assert "moves[0].roll: 'gutz' is not one of the choices: 'battle', 'guts', " in result.stderr


def test_malformed_yaml_is_located(cli, content_copy: Path):
    path = content_copy / "regiment" / "lists.yaml"
    lines = path.read_text().splitlines()
    lines.insert(5, "  - [unclosed")
    path.write_text("\n".join(lines) + "\n")
    result = cli("validate", "--content", content_copy)
    assert result.exit_code == 1
    assert "content/regiment/lists.yaml:" in result.stderr
    assert "malformed YAML" in result.stderr
    assert "Traceback" not in result.stderr


def test_duplicate_keys_are_errors():
    import pytest

    from sheets.base.errors import ContentError

    with pytest.raises(ContentError, match=r"x.yaml:2: a: duplicate key"):
        parse_yaml("a: 1\na: 2\n", "x.yaml")


def test_yaml_lines_are_remembered():
    doc = parse_yaml("top:\n  items:\n    - one\n    - two\n", "f.yaml")
    assert doc.line_of(("top", "items", 1)) == 4
    assert doc.line_of(("top", "items", 7, "deeper")) == 2


def test_missing_required_file(content_copy: Path):
    (content_copy / "regiment" / "lists.yaml").unlink()
    problems = Library(content_copy).validate()
    assert any(p.file.endswith("regiment/lists.yaml") and "required file is missing" in p.message for p in problems)


def test_a_weapon_tag_without_a_definition_is_located(cli, content_copy: Path):
    tags = content_copy / "regiment" / "tags.yaml"
    text = tags.read_text()
    tags.write_text(text.replace("id: suppress", "id: suppression", 1))
    result = cli("validate", "--content", content_copy)
    assert result.exit_code == 1
    weapons = (content_copy / "regiment" / "weapons.yaml").read_text().splitlines()
    lmg = next(i for i, line in enumerate(weapons, 1) if 'name: "LMG"' in line)
    tags_line = next(i for i, line in enumerate(weapons[lmg:], lmg + 1) if "tags:" in line)
    assert f"content/regiment/weapons.yaml:{tags_line}: categories[0].weapons[6].tags[1]: tag 'suppress' has no definition" in result.stderr
    assert "content/regiment/vehicles.yaml:" in result.stderr and "tag 'suppress' has no definition" in result.stderr
