"""YAML means what the author wrote: plain text is read by YAML 1.2's core schema, the same by
the CLI's reader (PyYAML), the desk's round-trip editor (ruamel) and an editor's schema."""
from __future__ import annotations

import io

import pytest

from sheets.base.errors import ContentError
from sheets.library.kinds.trackers import TrackerFile
from sheets.library.validation import validate
from sheets.library.yaml_merge import carried_over, round_trip
from sheets.library.yaml_source import parse_yaml

from tests.conftest import pdf_text

#: plain scalars YAML 1.1 turned into something else (a boolean, 90, 8, 1000, a date, 1, 1.5)
AS_TEXT = ["yes", "no", "on", "OFF", "NO", "Yes", "y", "1:30", "010", "0o10", "0x1F", "1_000",
           "2024-05-01", "2024-05-01 10:00:00", "+1", "1.50", "1e3", ".5"]
#: plain scalars that are what they look like
TYPED = {"12": 12, "-3": -3, "0": 0, "2.5": 2.5, "100.0": 100.0, "true": True, "False": False,
         "null": None, "~": None, "": None}


@pytest.mark.parametrize("text", AS_TEXT)
def test_plain_text_stays_the_text_written(text):
    document = f"value: {text}\nnext: 1\n"
    assert parse_yaml(document, "t.yaml").data == {"value": text, "next": 1}
    desk = round_trip().load(document)
    assert desk["value"] == text and isinstance(desk["value"], str)  # the desk reads what the CLI reads
    written = io.StringIO()
    round_trip().dump(desk, written)
    assert written.getvalue() == document  # and writes it back as the author wrote it


@pytest.mark.parametrize("text, value", TYPED.items())
def test_numbers_booleans_and_nothing_are_read_as_such(text, value):
    data = parse_yaml(f"value: {text}\n", "t.yaml").data["value"]
    desk = round_trip().load(f"value: {text}\n")["value"]
    assert data == value and type(data) is type(value)
    assert desk == value and (desk is None) == (value is None)


def test_a_value_the_desk_writes_reads_back_as_it_was_given():
    """Text that YAML 1.2 would read as a number or a boolean is quoted; text it reads as text is not."""
    out = io.StringIO()
    round_trip().dump({"a": "010", "b": "yes", "c": "true", "d": "12"}, out)
    assert out.getvalue() == "a: '010'\nb: yes\nc: 'true'\nd: '12'\n"
    assert parse_yaml(out.getvalue(), "t.yaml").data == {"a": "010", "b": "yes", "c": "true", "d": "12"}
    kept = carried_over("# mine\na: 010\nb: 1\n", "a: 010\nb: 2\n")
    assert kept == "# mine\na: 010\nb: 2\n"


TRACKER = """trackers:
  - id: squad
    title: Squad
    kind: boxes
    unit_label: Unit
    units: {units}
    boxes: {boxes}
    notes: {notes}
"""


def _problems(**values) -> list[str]:
    text = TRACKER.format(**{"units": 2, "boxes": 3, "notes": "true", **values})
    try:
        validate(TrackerFile, parse_yaml(text, "trackers.yaml"))
    except ContentError as exc:
        return [str(p) for p in exc.problems]
    return []


@pytest.mark.parametrize("given", ["yes", "on", "OFF", "1", "'true'"])
def test_a_true_or_false_field_says_what_it_found(given):
    found = _problems(notes=given)
    shown = given.strip("'")
    assert len(found) == 1 and found[0].startswith("trackers.yaml:8: trackers[0].notes:")
    assert f"'{shown}'" in found[0] or f" {shown} " in found[0], found
    assert "true or false" in found[0]


def test_a_number_field_says_what_it_found():
    assert _problems(units="1:30") == ["trackers.yaml:6: trackers[0].units: '1:30' is not a whole number"]
    assert _problems(units="2024-05-01") == ["trackers.yaml:6: trackers[0].units: '2024-05-01' is not a whole number"]
    # where the model asks for a number, YAML 1.2's numbers are numbers (010 is ten, +3 three)
    tracker = validate(TrackerFile, parse_yaml(TRACKER.format(units="010", boxes="+3", notes="false"), "t.yaml"))
    assert (tracker.trackers[0].units, tracker.trackers[0].boxes, tracker.trackers[0].notes) == (10, 3, False)


def test_yes_1_30_and_010_print_as_written(cli, fixture_content, tmp_path):
    cards = fixture_content / "skirmish" / "cards" / "units.yaml"
    text = cards.read_text(encoding="utf-8")
    written = {"Ready": "yes", "Time": "1:30", "Code": "010", "Bonus": "+1", "Since": "1944-06-06"}
    stats = ", ".join(f"{{label: {label}, value: {value}}}" for label, value in written.items())
    cards.write_text(text.replace('{label: "Armour", value: 1}]', '{label: "Armour", value: 1}, ' + stats + "]", 1),
                     encoding="utf-8")
    assert cli("validate", "--content", fixture_content).exit_code == 0
    out = tmp_path / "cards.pdf"
    result = cli("cards", "skirmish", "--content", fixture_content, "-o", out)
    assert result.exit_code == 0, result
    printed = pdf_text(out)
    for label, value in written.items():  # each value under its label (labels print in capitals)
        assert f"{label.upper()}\n{value}\n" in printed, (label, value, printed)
