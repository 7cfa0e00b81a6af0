"""The blank squad roster's columns are sized for handwriting (issue 31): a name is the
longest thing written on it, so its column is the widest, measured from the PDF."""
from conftest import text_runs

MM = 72 / 25.4


def test_blank_roster_name_column_is_widest(whole_kit):
    runs = text_runs(whole_kit.folder / "regiment-squad-roster.pdf")
    x = {label: min(r[0] for r in runs if r[2] == label) for label in ("NAME", "PLAYBOOK", "RANK", "BAT")}
    name, playbook, rank = x["PLAYBOOK"] - x["NAME"], x["RANK"] - x["PLAYBOOK"], x["BAT"] - x["RANK"]
    assert name >= 38 * MM, name / MM
    assert name > 1.8 * playbook and playbook > rank
