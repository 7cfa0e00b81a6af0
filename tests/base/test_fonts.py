"""The bundled fonts: what they are, what they cover, who may fetch them, and the one line a
command prints for a value no font on the machine has."""
from __future__ import annotations

import re
import subprocess
import sys

import pytest
from fontTools.ttLib import TTFont

from conftest import REPO
from samebytes import hidden_fonts_env
from sheets.base import fonts
from sheets.pipeline import rendering


def test_every_bundled_face_is_a_dejavu_or_title_font_file_with_its_license_beside_it():
    files = sorted(p.name for p in fonts.FONTS_DIR.glob("*.ttf"))
    assert files == sorted(fonts.FILES.values())
    titles = {family for family, _ in fonts.TITLE_FACES.values()} - set(fonts.FAMILIES)
    for (family, _, _), name in fonts.FILES.items():
        real = TTFont(fonts.path(name), lazy=True)["name"].getDebugName(1)
        if family in fonts.FAMILIES:
            assert real.startswith("DejaVu"), (name, real)
        else:  # a title face: its own license file, the SIL Open Font License (issue 47)
            assert family in titles, family
            licences = [p for p in fonts.FONTS_DIR.glob("LICENSE-*") if p.name.removeprefix("LICENSE-").lower()[:5]
                        in name.lower().replace(" ", "")]
            assert licences, name
            assert any(re.search(r"OFL|Open Font License", p.read_text(encoding="utf-8")) for p in licences), name
    assert "Bitstream Vera" in (fonts.FONTS_DIR / "LICENSE").read_text(encoding="utf-8")


def test_the_templates_ask_only_for_bundled_faces_by_their_own_names():
    from sheets.kinds import style
    from sheets.library.content import Library

    library = Library()
    themes = "\n".join(style.of(library.game(g))["theme_css"] for g in library.game_ids())
    css = "\n".join(p.read_text(encoding="utf-8") for p in (REPO / "templates").rglob("*")
                    if p.suffix in (".css", ".j2") and "web" not in p.relative_to(REPO / "templates").parts)
    faces = re.findall(r'font-family: "([^"]+)"; src: url\("sheets-font:([^"]+)"\)', css + themes)
    # the text faces in the shared stylesheet, each title face in the theme of the game that uses it
    used_titles = {fonts.TITLE_FACES[library.game(g).content["theme"].look.title_face][0] for g in library.game_ids()}
    assert sorted(set(f for _, f in faces)) == sorted(n for (fam, _, _), n in fonts.FILES.items()
                                                      if fam in fonts.FAMILIES or fam in used_titles)
    assert {family for family, _ in faces} == set(fonts.FAMILIES) | (used_titles - set(fonts.FAMILIES))
    assert not re.search(r'(?<!Sheets )"DejaVu', css + themes)  # an installed DejaVu never stands in


def test_the_common_characters_are_in_every_bundled_sans_face():
    surely = {ord(c) for c in re.sub(r"(.)-(.)", lambda m: "".join(map(chr, range(ord(m[1]), ord(m[2]) + 1))),
                                     fonts._SURELY) if c not in "\t\n\r"}
    for (family, _, _), name in fonts.FILES.items():
        if family in (fonts.SANS, fonts.CONDENSED):  # a title face always has the sans family behind it
            missing = surely - set(TTFont(fonts.path(name), lazy=True).getBestCmap())
            assert not missing, (name, sorted(hex(c) for c in missing)[:10])


def test_only_text_beyond_the_bundled_fonts_needs_an_installed_font():
    assert not fonts.needs_fallback("<p class=\"x\">Zoë Ünal · Ελένη · Светлана — ≥ ★ ✓ &amp; &#x2190;</p>")
    assert fonts.uncovered("<p>Ming 李雷 &#x4E00;</p>") == {"李", "雷", "一"}


def test_the_fetcher_serves_bundled_fonts_by_name_and_nothing_beside_them():
    _, _, fetcher, fatal = rendering._weasy()
    response = fetcher().fetch("sheets-font:DejaVuSans.ttf")
    assert response.read() == fonts.path("DejaVuSans.ttf").read_bytes()
    response.close()
    for url in ("sheets-font:../fonts.py", "sheets-font:LICENSE", "sheets-font:%2e%2e%2fpaths.py",
                "sheets-font:/etc/passwd", "sheets-font:Missing.ttf"):
        with pytest.raises(fatal):
            fetcher().fetch(url)


def test_a_value_no_font_has_is_one_line_and_the_sheet_is_still_written(tmp_path):
    """With the system's fonts hidden, a Chinese name prints as boxes: the command says so in one
    line naming it and what to install, and exits 0 with the file written."""
    team = tmp_path / "team.yaml"
    team.write_text((REPO / "content" / "wotw" / "examples" / "german-team.yaml").read_text(encoding="utf-8")
                    .replace("Hans Weber", "李雷"), encoding="utf-8")
    assert "李雷" in team.read_text(encoding="utf-8")
    env = dict(hidden_fonts_env(tmp_path / "nofonts"), PYTHONPATH=str(REPO), SHEETS_CACHE_DIR=str(tmp_path / "c"))
    done = subprocess.run([sys.executable, "-m", "sheets", "mission", "--nation", "german", "--team", str(team),
                           "--seed", "3", "-o", str(tmp_path / "m.pdf")], capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "m.pdf").stat().st_size > 1000
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and '"李雷"' in lines[0] and "apt install fonts-noto-cjk" in lines[0], done.stderr
    assert "Traceback" not in done.stderr
