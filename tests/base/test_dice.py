import pytest

from sheets.base.dice import Dice, DiceError

pytestmark = pytest.mark.unit  # `make check`'s fast tier


def test_same_seed_same_rolls():
    a, b = Dice.seeded(42), Dice.seeded(42)
    assert [a.d6() for _ in range(50)] == [b.d6() for _ in range(50)]


def test_different_seeds_differ():
    a, b = Dice.seeded(1), Dice.seeded(2)
    assert [a.d6() for _ in range(30)] != [b.d6() for _ in range(30)]


@pytest.mark.parametrize("face,expected", [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_d3_is_a_halved_d6_rounding_up(face, expected):
    assert Dice.scripted([face]).d3() == expected


def test_d66_reads_tens_then_units():
    dice = Dice.scripted([1, 6, 6, 1])
    assert dice.d66() == 16
    assert dice.d66() == 61


def test_two_d6_adds_two_dice():
    assert Dice.scripted([3, 5]).two_d6() == 8


def test_scripted_dice_replay_in_order_and_are_logged():
    dice = Dice.parse_script("2,1,6")
    assert [dice.d6("a"), dice.d6("b"), dice.d6("c")] == [2, 1, 6]
    assert [(r.value, r.purpose) for r in dice.log] == [(2, "a"), (1, "b"), (6, "c")]


def test_running_out_of_scripted_dice_is_a_clear_error():
    dice = Dice.scripted([4])
    dice.d6()
    with pytest.raises(DiceError, match=r"ran out of scripted dice: 1 given, die #2 needed \(a d6 for weather\)"):
        dice.d6("weather")


def test_scripted_value_too_big_for_the_die():
    with pytest.raises(DiceError, match=r"scripted die #1 is 7, but it was rolled as a d6"):
        Dice.scripted([7]).d6()


@pytest.mark.parametrize("text", ["", "a,b", "0", "3,-1"])
def test_bad_dice_text(text):
    with pytest.raises(DiceError):
        Dice.parse_script(text)


def test_pick_uses_a_die_with_as_many_sides_as_options():
    dice = Dice.scripted([3])
    assert dice.pick(["a", "b", "c", "d"]) == "c"
    assert dice.log[0].sides == 4


def test_sample_never_repeats():
    dice = Dice.seeded(5)
    for _ in range(100):
        got = dice.sample(list(range(6)), 3)
        assert len(set(got)) == 3
