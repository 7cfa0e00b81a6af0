"""PDF/UA-1 (issue 35, item 5): every kind of PDF we write passes `outloud --layer conformance`
(ISO 14289-1 as a machine can check it) with no error: the session kit (kit.pdf and every
part), a fillable and a filled playbook, a campaign log sheet, a print shop's PDF/X file.
What outloud cannot see is read back here too: `pdfuaid:part` 1 in the XMP, no ToUnicode entry
mapping to U+0000, printable links."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pikepdf
import pytest

ROOT = Path(__file__).resolve().parents[2]
OUTLOUD = Path(sys.executable).with_name("outloud")


def outloud_results(paths: list[Path]) -> dict[Path, dict]:
    """outloud's conformance result for each file (one run of the checker over them all)."""
    done = subprocess.run([str(OUTLOUD), "--layer", "conformance", "--fail-on", "never", "--json", "-",
                           *map(str, paths)], capture_output=True, text=True, check=True)
    results = json.loads(done.stdout)["results"]
    assert len(results) == len(paths), done.stdout[:500]
    by_path = {Path(r["path"]).resolve(): r for r in results}
    return {path: by_path[path.resolve()] for path in paths}


def errors_of(result: dict) -> Counter:
    """The conformance errors of one file's result, per rule (count of occurrences)."""
    assert not result["error"], result["error"]
    errors: Counter = Counter()
    for f in result["findings"]:
        if f["severity"] == "error":
            errors[f["rule"]] += f.get("count", 1)
    return errors


def conformance(path: Path) -> Counter:
    """outloud's conformance errors of one file, per rule (count of occurrences)."""
    return errors_of(outloud_results([path])[path])


@pytest.fixture(scope="module")
def kit_checked(whole_kit) -> dict[Path, dict]:
    """outloud's result for kit.pdf and every part of the session kit, checked once for the module."""
    return outloud_results(sorted(whole_kit.folder.rglob("*.pdf")))


def _null_unicode(pdf: pikepdf.Pdf) -> list[str]:
    bad = []
    for obj in pdf.objects:
        if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/Font" and "/ToUnicode" in obj:
            if re.search(rb"<[0-9A-Fa-f]+>\s*<0000>", obj.ToUnicode.read_bytes()):
                bad.append(str(obj.get("/BaseFont")))
    return bad


def assert_ua(path: Path) -> None:
    assert conformance(path) == Counter(), path.name
    with pikepdf.open(path) as pdf:
        assert "<pdfuaid:part>1</pdfuaid:part>" in pdf.Root.Metadata.read_bytes().decode(), path.name
        assert _null_unicode(pdf) == [], path.name
        for page in pdf.pages:
            for annot in page.obj.get("/Annots", []):
                if annot.get("/Subtype") == "/Link":
                    assert int(annot.F) & 4 and "/Contents" in annot, path.name


def test_the_whole_kit_and_every_part_conform(kit_checked):
    files = sorted(kit_checked)
    assert any(f.name == "kit.pdf" for f in files) and len(files) > 5
    bad = {f.name: dict(errors_of(kit_checked[f])) for f in files}
    assert {k: v for k, v in bad.items() if v} == {}
    for f in files:
        with pikepdf.open(f) as pdf:
            assert "<pdfuaid:part>1</pdfuaid:part>" in pdf.Root.Metadata.read_bytes().decode(), f.name
            assert _null_unicode(pdf) == [], f.name


@pytest.mark.parametrize("args", [
    ("playbook", "medic", "--fillable"),
    ("playbook", "sniper", "--character", str(ROOT / "content/regiment/characters/walter-brzezinski.yaml")),
    ("mission", "--theatre", "winter-1942", "--airborne", "--seed", "7"),  # the campaign log sheet
    # missions 5-7 of seed 1: their dice audit grows its box (stamped on a taller blank), on Letter
    ("mission", "--count", "7", "--seed", "1", "--paper", "letter"),
    ("cards", "regiment", "--set", "weapons", "--export", "pdf", "--shop", "drivethrucards", "--backs"),
], ids=["fillable-playbook", "filled-playbook", "log-sheet", "grown-audit-letter", "shop-pdf"])
def test_each_kind_of_file_conforms(cli, tmp_path, args):
    out = tmp_path / ("shop" if "--export" in args else "out.pdf")  # an export writes a folder
    result = cli(*args, "-o", out)
    assert result.exit_code == 0, result
    made = [out] if out.is_file() else sorted(out.rglob("*.pdf"))
    assert made, result
    for path in made:
        assert_ua(path)


def _footer_findings(result: dict) -> list[str]:
    """outloud's PAG-001 evidence (in one file's result) that is one of our running footers
    ("… · warsheets page 1 of 5", a card's "units 3/21")."""
    return [str(f.get("evidence")) for f in result["findings"]
            if f["rule"] == "PAG-001" and re.search(r"warsheets page \d|\b\d+/\d+\b", str(f.get("evidence")))]


def test_running_footers_are_artifacts_in_the_kit(kit_checked):
    """WeasyPrint tags its page margin boxes with elements outside the tree: finish makes their
    content pagination artifacts, on the page and in the forms of imposed cards (PAG-001)."""
    assert len(kit_checked) > 5
    found = {f.name: _footer_findings(result) for f, result in kit_checked.items()}
    assert {name: evidence for name, evidence in found.items() if evidence} == {}


def test_a_margin_box_footer_becomes_a_pagination_artifact(tmp_path):
    import weasyprint

    from sheets.pdf.finish import finish_pdf

    html = ("<html lang='en'><style>@page { size: a6; @bottom-center { content: 'Footer · page ' counter(page) } }"
            "p { break-after: page }</style>" + "".join(f"<p>Text {i}</p>" for i in range(4)))
    path = tmp_path / "footer.pdf"
    path.write_bytes(finish_pdf(weasyprint.HTML(string=html).write_pdf(pdf_tags=True), title="footers"))
    with pikepdf.open(path) as pdf:
        for page in pdf.pages:
            marks = [(str(o[0]), o[1]) for o, op in pikepdf.parse_content_stream(page, "BDC")]
            assert any(tag == "/Artifact" and p.get("/Type") == "/Pagination" for tag, p in marks)
            assert any(tag != "/Artifact" and "/MCID" in p for tag, p in marks)  # the text stays content
    assert conformance(path) == Counter()
    assert _footer_findings(outloud_results([path])[path]) == []


def test_the_merge_needs_no_repair_of_its_own(whole_kit):
    """kit.pdf is merged from finished parts without running the PDF/UA repairs over it again
    (sheets/pdf/merge.py): running them now must change nothing, else the merge needs them."""
    from sheets.pdf.finish import save
    from sheets.pdf.ua import repair

    kit = whole_kit.folder / "kit.pdf"
    with pikepdf.open(kit) as pdf:
        before = save(pdf)
    with pikepdf.open(kit) as pdf:
        repair(pdf)
        assert save(pdf) == before
