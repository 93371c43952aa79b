import pytest

from generator.model.dice import Dice, parse_dice


@pytest.mark.parametrize(
    ("text", "count", "sides"),
    [
        ("d6", 1, 6),
        ("D6", 1, 6),
        ("1d6", 1, 6),
        ("2d6", 2, 6),
        ("d8", 1, 8),
        ("3d10", 3, 10),
        ("2D20", 2, 20),
        (" d6 ", 1, 6),
        ("d2", 1, 2),
        ("100d1000", 100, 1000),
    ],
)
def test_parse(text: str, count: int, sides: int) -> None:
    assert parse_dice(text) == Dice(count, sides)


@pytest.mark.parametrize(
    "text",
    ["", "d", "6", "d0", "d1", "0d6", "101d6", "d1001", "2d", "2x6", "d6+1", "-d6", "2 d6",
     "d 6", "d6.5", "dd6", "d٦", "d" + "9" * 5000],
)
def test_parse_rejects(text: str) -> None:
    with pytest.raises(ValueError, match="^not dice notation: ") as info:
        parse_dice(text)
    assert 'expected e.g. "d6" or "2d6"' in str(info.value)


def test_error_message_quotes_text() -> None:
    with pytest.raises(ValueError, match='not dice notation: "d0"'):
        parse_dice("d0")


def test_str_round_trips() -> None:
    assert str(Dice(1, 6)) == "d6"
    assert str(Dice(2, 6)) == "2d6"
    for text in ["d6", "2d6", "3d10"]:
        assert str(parse_dice(text)) == text


def test_ranges() -> None:
    d6 = parse_dice("d6")
    assert (d6.minimum, d6.maximum) == (1, 6)
    assert [total for total in range(-1, 9) if d6.contains(total)] == [1, 2, 3, 4, 5, 6]

    two_d6 = parse_dice("2d6")
    assert (two_d6.minimum, two_d6.maximum) == (2, 12)
    assert not two_d6.contains(1)
    assert two_d6.contains(2) and two_d6.contains(12)
    assert not two_d6.contains(13)


@pytest.mark.parametrize(("count", "sides"), [(0, 6), (101, 6), (1, 1), (1, 1001)])
def test_constructor_checks_ranges(count: int, sides: int) -> None:
    with pytest.raises(ValueError):
        Dice(count, sides)


def test_dice_in_words():
    from generator.model.dice import dice_in_words
    assert [dice_in_words(t) for t in ("d6", "2d6", "d20", "3d8", "d100")] == [
        "a die", "two dice", "a twenty-sided die", "three eight-sided dice", "a 100-sided die"]
