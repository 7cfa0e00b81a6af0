"""`sheets cache` names the one cache and its size; `sheets cache clear` empties it; a kit leaves none
in its folder."""
from __future__ import annotations

from sheets.base import cachedir, paths


def test_sheets_cache_names_the_folder_and_its_size_and_clear_empties_it(cli, tmp_path, monkeypatch):
    folder = tmp_path / "the-cache"
    monkeypatch.setenv("SHEETS_CACHE_DIR", str(folder))
    folder.mkdir()
    (folder / ("ab" * 32 + ".pdf")).write_bytes(b"x" * 1_500_000)
    shown = cli("cache")
    assert shown.exit_code == 0, shown
    assert f"cache: {folder}\n" in shown.stdout
    assert "size: 1.5 MB in 1 files" in shown.stdout and "kept under 500 MB" in shown.stdout
    cleared = cli("cache", "clear")
    assert cleared.exit_code == 0 and f"cleared {folder}: 1 files, 1.5 MB" in cleared.stdout
    assert cachedir.size(folder) == (0, 0)
    assert "size: 0.0 MB in 0 files" in cli("cache").stdout
    wrong = cli("cache", "empty")
    assert wrong.exit_code == 1 and "Traceback" not in wrong.stderr


def test_a_kit_folder_holds_no_cache_and_the_kit_is_still_up_to_date(cli, tmp_path, monkeypatch):
    folder = tmp_path / "the-cache"
    monkeypatch.setenv("SHEETS_CACHE_DIR", str(folder))
    kit = tmp_path / "kit"
    first = cli("kit", "--seed", "3", "--game", "platoon", "-o", kit)
    assert first.exit_code == 0, first
    printed = {line.split(" ", 1)[1] for line in first.stdout.splitlines() if line.startswith("wrote ")}
    inside = {f"kit/{p.relative_to(kit).as_posix()}" for p in kit.rglob("*")}
    assert inside == printed  # the kit's files, nothing hidden, no .cache folder
    assert not (kit / ".cache").exists()
    records = list((folder / cachedir.KITS).glob("*/build-state.json"))
    assert len(records) == 1 and next(folder.glob("*.pdf"), None) is not None  # the cache is where it says
    again = cli("kit", "--seed", "3", "--game", "platoon", "-o", kit)
    assert "up to date" in again.stdout
    assert {f"kit/{p.relative_to(kit).as_posix()}" for p in kit.rglob("*")} == printed
    # another folder is another kit: its own record, the same cached sheets
    other = cli("kit", "--seed", "3", "--game", "platoon", "-o", tmp_path / "other")
    assert other.exit_code == 0 and "up to date" not in other.stdout and "unchanged, taken from the cache" in other.stdout
    assert len(list((folder / cachedir.KITS).glob("*/build-state.json"))) == 2


def test_a_sheet_printed_again_is_taken_from_the_cache_with_the_same_bytes(cli, tmp_path, monkeypatch):
    """A reference card, a card set: printed a second time with the same paper and content, they
    come from the one cache (keyed by their HTML: the bytes are the same) and are not laid out
    again; another paper is another entry, laid out once."""
    from sheets.pipeline import build as pipeline_build
    from sheets.pipeline import layout_jobs

    folder = tmp_path / "the-cache"
    monkeypatch.setenv("SHEETS_CACHE_DIR", str(folder))
    first = cli("reference", "regiment", "-o", tmp_path / "a.pdf")
    assert first.exit_code == 0, first
    assert len(list(folder.glob("*.pdf"))) == 1  # the reference, laid out and cached
    cards = cli("cards", "regiment", "--set", "weapons", "-o", tmp_path / "cards")
    assert cards.exit_code == 0, cards
    entries = sorted(folder.glob("*.pdf"))
    assert len(entries) > 1  # and the card set's sheets

    def laid_out(*args, **kwargs):
        raise AssertionError("laid out again")
    monkeypatch.setattr(pipeline_build, "finished_pdf", laid_out)
    monkeypatch.setattr(layout_jobs, "finished_pdf", laid_out)
    again = cli("reference", "regiment", "-o", tmp_path / "b.pdf")
    assert again.exit_code == 0, again
    assert (tmp_path / "b.pdf").read_bytes() == (tmp_path / "a.pdf").read_bytes()
    cards_again = cli("cards", "regiment", "--set", "weapons", "-o", tmp_path / "cards2")
    assert cards_again.exit_code == 0, cards_again
    assert sorted(p.name for p in (tmp_path / "cards2").iterdir()) == sorted(p.name for p in (tmp_path / "cards").iterdir())
    for path in (tmp_path / "cards").iterdir():
        assert (tmp_path / "cards2" / path.name).read_bytes() == path.read_bytes(), path.name
    assert sorted(folder.glob("*.pdf")) == entries  # nothing new
    monkeypatch.undo()
    monkeypatch.setenv("SHEETS_CACHE_DIR", str(folder))
    letter = cli("reference", "regiment", "--paper", "letter", "-o", tmp_path / "c.pdf")
    assert letter.exit_code == 0, letter
    assert len(list(folder.glob("*.pdf"))) == len(entries) + 1  # Letter is laid out, once


def test_a_campaign_record_is_laid_out_once_to_fit_its_page_and_to_print(cli, tmp_path, monkeypatch):
    """`sheets campaign show` lays the record out to count its pages, then writes the one it
    chose: the writer takes that layout from the cache (one layout, not two); shown again with
    nothing changed, it lays out nothing."""
    from sheets.pipeline import build as pipeline_build

    monkeypatch.setenv("SHEETS_CACHE_DIR", str(tmp_path / "the-cache"))
    monkeypatch.chdir(tmp_path)
    team = tmp_path / "team.yaml"
    team.write_text((paths.content_dir() / "wotw/examples/german-team.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    assert cli("campaign", "new", "ww.yaml", "--nation", "german", "--theatre", "france-1944", "--team", team).exit_code == 0
    calls = []
    real = pipeline_build.finished_pdf
    monkeypatch.setattr(pipeline_build, "finished_pdf", lambda *a, **k: calls.append(1) or real(*a, **k))
    first = cli("campaign", "show", "ww.yaml", "-o", tmp_path / "r1.pdf")
    assert first.exit_code == 0, first
    assert len(calls) == 1  # a fresh campaign's record fits one page: laid out once
    again = cli("campaign", "show", "ww.yaml", "-o", tmp_path / "r2.pdf")
    assert again.exit_code == 0 and len(calls) == 1
    assert (tmp_path / "r1.pdf").read_bytes() == (tmp_path / "r2.pdf").read_bytes()
