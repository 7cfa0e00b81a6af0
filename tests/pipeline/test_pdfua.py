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


def conformance(path: Path) -> Counter:
    """outloud's conformance errors of one file, per rule (count of occurrences)."""
    done = subprocess.run([str(OUTLOUD), "--layer", "conformance", "--fail-on", "never", "--json", "-", str(path)],
                          capture_output=True, text=True, check=True)
    errors: Counter = Counter()
    for result in json.loads(done.stdout)["results"]:
        assert not result["error"], result["error"]
        for f in result["findings"]:
            if f["severity"] == "error":
                errors[f["rule"]] += f.get("count", 1)
    return errors


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


def test_the_whole_kit_and_every_part_conform(whole_kit):
    files = sorted(whole_kit.folder.rglob("*.pdf"))
    assert any(f.name == "kit.pdf" for f in files) and len(files) > 5
    bad = {f.name: dict(conformance(f)) for f in files}
    assert {k: v for k, v in bad.items() if v} == {}
    for f in files:
        with pikepdf.open(f) as pdf:
            assert "<pdfuaid:part>1</pdfuaid:part>" in pdf.Root.Metadata.read_bytes().decode(), f.name
            assert _null_unicode(pdf) == [], f.name


@pytest.mark.parametrize("args", [
    ("playbook", "medic", "--fillable"),
    ("playbook", "sniper", "--character", str(ROOT / "content/regiment/characters/walter-brzezinski.yaml")),
    ("mission", "--theatre", "winter-1942", "--airborne", "--seed", "7"),  # the campaign log sheet
    ("cards", "regiment", "--set", "weapons", "--export", "pdf", "--shop", "drivethrucards", "--backs"),
], ids=["fillable-playbook", "filled-playbook", "log-sheet", "shop-pdf"])
def test_each_kind_of_file_conforms(cli, tmp_path, args):
    out = tmp_path / ("shop" if "--export" in args else "out.pdf")  # an export writes a folder
    result = cli(*args, "-o", out)
    assert result.exit_code == 0, result
    made = [out] if out.is_file() else sorted(out.rglob("*.pdf"))
    assert made, result
    for path in made:
        assert_ua(path)
