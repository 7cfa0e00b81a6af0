"""What the desk offers as the next improvement is what the CLI's checker would accept, refused
with the checker's own words; bonds are the printed BOND WITH rows."""
import pytest

from conftest import pdf_text, squash

from sheets.base.errors import ContentError
from sheets.games.regiment.characters import BOND_ROWS, resolve_character
from sheets.games.regiment.improvements import improvement_options
from sheets.library.yaml_source import parse_yaml
from regiment_characters import JOE

#: the line a test appends to Joe's file (an improvement, or his bonds) is the one after his last
APPENDED = len(JOE.splitlines()) + 1



def options_of(regiment, text):
    char = resolve_character(parse_yaml(text, "joe.yaml"), regiment.data)
    return char, improvement_options(char.playbook, regiment.data, [i.text for i in char.improvements],
                                     char.base_stats, char.moves)


def test_every_offered_improvement_is_judged_by_the_checker(regiment):
    char, options = options_of(regiment, JOE)
    pb = char.playbook
    assert [o.text for o in options] == [
        "+1 battle", "+1 guts", "+1 leadership", "+1 lucky", "+1 tactics",
        *(m.name for m in pb.moves[1:]), "+1 grit", "1 tough", "go home", "new character"]
    verdict = {o.text: (o.legal, o.reason) for o in options}
    # stat set 1 with Battle tested gives battle +3: the cap refuses it, in the checker's words
    assert verdict["+1 battle"] == (False, "'+1 battle' would make battle +4; no stat goes above +3 (it is +3 "
                                           "counting moves and earlier improvements)")
    assert verdict["+1 lucky"] == (True, "")
    assert verdict["Battle tested"] == (False, "'Battle tested' cannot be taken as an improvement: the character "
                                               "already holds it")
    assert verdict["Fight back"][0] is False and verdict["Heavy weapon"] == (True, "")
    assert verdict["+1 grit"] == (False, "'+1 grit' is an advanced improvement: it needs 4 improvements before "
                                         "it, and 2 came before")
    assert verdict["go home"] == (False, "'go home' is a final improvement: it needs 7 improvements before it, "
                                         "and 2 came before")
    assert [o.label for o in options][:1] == ["get +1 stat (max +3): battle"]


def test_each_option_taken_in_a_file_gets_the_same_verdict_from_the_cli(regiment, cli, tmp_path):
    _, options = options_of(regiment, JOE)
    for option in options:
        path = tmp_path / "joe.yaml"
        path.write_text(JOE + f"  - {option.text}\n")
        result = cli("playbook", "--character", path, "--json")
        if option.legal:
            assert result.exit_code == 0, (option, result.stderr)
        else:
            assert result.exit_code == 1 and f"joe.yaml:{APPENDED}: improvements[2]: {option.reason}" in result.stderr, option


def test_after_four_the_advanced_ones_open_and_a_full_stat_row_closes(regiment):
    four = JOE + "  - +1 lucky\n  - Heavy weapon\n"
    verdict = {o.text: (o.legal, o.reason) for o in options_of(regiment, four)[1]}
    assert verdict["+1 grit"] == (True, "") and verdict["1 tough"] == (True, "")
    assert verdict["+1 tactics"] == (False, "'+1 tactics': a Soldier can take +1 STAT at most 2 times (the "
                                            "playbook prints 2 boxes); this is the 3rd")


def test_bonds_fit_the_printed_rows_and_name_someone(regiment, cli, tmp_path):
    many = {f"Pal {i}": 1 for i in range(BOND_ROWS + 1)}
    path = tmp_path / "joe.yaml"
    path.write_text(JOE + "bonds: {" + ", ".join(f"{k}: {v}" for k, v in many.items()) + "}\n")
    result = cli("playbook", "--character", path)
    assert result.exit_code == 1
    assert f"joe.yaml:{APPENDED}: bonds: 6 bonds, but the playbook prints 5 BOND WITH rows; keep the 5 that matter" \
        in result.stderr
    path.write_text(JOE + "bonds: {'': 2}\n")
    result = cli("playbook", "--character", path)
    assert result.exit_code == 1 and "bonds: a bond without a name: say who the bond is with" in result.stderr
    path.write_text(JOE + "bonds: {Doc Keller: 2, Ada Mercer: -1}\n")
    assert cli("playbook", "--character", path, "-o", tmp_path / "joe.pdf").exit_code == 0
    text = squash(pdf_text(tmp_path / "joe.pdf"))
    assert "AdaMercer-1" in text and "DocKeller+2" in text


@pytest.mark.parametrize("bad,why", [("abc", "'abc' is not a whole number"), ("1.5", "1.5 is not a whole number")])
def test_a_bond_is_a_whole_number(regiment, bad, why):
    with pytest.raises(ContentError) as caught:
        resolve_character(parse_yaml(JOE + f"bonds: {{Doc Keller: {bad}}}\n", "joe.yaml"), regiment.data)
    assert f"joe.yaml:{APPENDED}: bonds.Doc Keller: {why}" in str(caught.value)
