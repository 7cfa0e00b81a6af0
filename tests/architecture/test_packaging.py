"""The wheel carries templates/ and content/, so an installed `sheets` works outside the repo."""
import subprocess
import sys
import zipfile

from conftest import REPO



def test_wheel_carries_templates_and_content(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(tmp_path), str(REPO)],
                   check=True, capture_output=True)
    wheel = next(tmp_path.glob("warsheets-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    for needed in ["sheets/templates/_base/base.css", "sheets/templates/regiment/playbook.html.j2",
                   "sheets/content/regiment/playbooks/medic.yaml", "sheets/content/wotw/tables.yaml",
                   "sheets/content/_print/layouts.yaml", "sheets/cli/__init__.py", "sheets/__main__.py"]:
        assert needed in names, needed
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    assert "sheets = sheets.__main__:run" in zipfile.ZipFile(wheel).read(entry_points).decode()
