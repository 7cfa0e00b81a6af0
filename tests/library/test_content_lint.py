"""Content lint: escapes that YAML leaves as typed would print literally on a sheet."""
from pathlib import Path

import pytest

from sheets.library.lint import literal_escapes

SAY = ("\\\" in a folded block scalar (>) prints literally: write the character itself "
       "(a double-quoted string is the only kind that reads escapes)")


def test_the_bundled_reference_prints_inches_not_backslashes(cli, tmp_path):
    assert cli("reference", "downrange", "-o", tmp_path / "r.pdf").exit_code == 0
    assert cli("cards", "downrange", "--set", "quickref", "-o", tmp_path / "q.pdf").exit_code == 0
    from conftest import pdf_text

    for pdf in ("r.pdf", "q.pdf"):
        text = pdf_text(tmp_path / pdf)
        assert '12\\"' not in text and "\\" not in text, pdf
    assert 'moves 2" to a mud pit' in " ".join(pdf_text(tmp_path / "r.pdf").split())


def test_validate_refuses_an_escape_in_a_block_scalar_with_file_and_line(cli, content_copy: Path):
    path = content_copy / "downrange" / "reference.yaml"
    text = path.read_text(encoding="utf-8")
    assert 'moves 2" to a mud pit' in text  # in a folded block scalar (>-)
    path.write_text(text.replace('moves 2" to a mud pit', 'moves 2\\" to a mud pit'), encoding="utf-8")
    line = next(i for i, ln in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if '2\\" to a mud' in ln)
    result = cli("validate", "--content", content_copy)
    assert result.exit_code == 1
    assert f"content/downrange/reference.yaml:{line}: {SAY}" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("yaml_text, found", [
    ('a: |\n  one\n  six 6\\" away\n', [(3, '\\" in a block scalar (|)')]),
    ("a: plain 12\\\" text\n", [(1, '\\" in an unquoted value')]),
    ("a: 'say \\\"hi\\\"'\n", [(1, '\\" in a single-quoted value')]),
    ("a: >\n  line\n  it''s\n", [(3, "'' in a folded block scalar (>)")]),
    ('a: "12\\" is fine"\nb: |\n  C:\\\\path? no: \\\\ is an escape\n', [(3, "\\\\ in a block scalar (|)")]),
    ('a: "12\\" quoted"\nb: |\n  a back\\slash alone\n', []),
])
def test_each_kind_of_scalar(yaml_text, found):
    assert [(p.line, p.message.split(" prints")[0]) for p in literal_escapes(yaml_text, "x.yaml")] == found
