"""Dice notation such as "d6" or "2d6", as games declare their die in game.toml."""
from __future__ import annotations

import re
from dataclasses import dataclass

MIN_COUNT, MAX_COUNT = 1, 100
MIN_SIDES, MAX_SIDES = 2, 1000

# ASCII digits only (\d would also take other scripts' digits); the length caps keep int()
# away from absurdly long digit strings, whose values fail the range check anyway.
_DICE_PATTERN = re.compile(r"([0-9]{1,4})?[dD]([0-9]{1,5})")


@dataclass(frozen=True)
class Dice:
    """`count` dice with `sides` faces each, numbered 1 to `sides`."""

    count: int
    sides: int

    def __post_init__(self) -> None:
        if not (MIN_COUNT <= self.count <= MAX_COUNT and MIN_SIDES <= self.sides <= MAX_SIDES):
            raise ValueError(
                f"dice must be {MIN_COUNT} to {MAX_COUNT} dice of {MIN_SIDES} to {MAX_SIDES}"
                f" sides, not {self.count}d{self.sides}"
            )

    @property
    def minimum(self) -> int:
        return self.count

    @property
    def maximum(self) -> int:
        return self.count * self.sides

    def contains(self, total: int) -> bool:
        """Whether a roll of these dice can add up to `total`."""
        return self.minimum <= total <= self.maximum

    def __str__(self) -> str:
        return f"d{self.sides}" if self.count == 1 else f"{self.count}d{self.sides}"

    def in_words(self) -> str:
        """"a die" (d6), "two dice" (2d6), "a twenty-sided die" (d20), "3 eight-sided dice" (3d8)."""
        count = "a" if self.count == 1 else _SMALL.get(self.count, str(self.count))
        kind = "" if self.sides == 6 else f"{_SMALL.get(self.sides, str(self.sides))}-sided "
        return f"{count} {kind}{'die' if self.count == 1 else 'dice'}"


_SMALL = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 8: "eight", 10: "ten", 12: "twelve", 20: "twenty"}


def dice_in_words(text: str) -> str:
    return parse_dice(text).in_words()


def parse_dice(text: str) -> Dice:
    """Read "d6", "D6", "1d6", "2d6", "3d10", ... (surrounding whitespace is ignored).

    Raises ValueError for anything else, including counts outside 1..100 and sides outside
    2..1000.
    """
    match = _DICE_PATTERN.fullmatch(text.strip())
    if match:
        count = int(match[1]) if match[1] else 1
        sides = int(match[2])
        if MIN_COUNT <= count <= MAX_COUNT and MIN_SIDES <= sides <= MAX_SIDES:
            return Dice(count, sides)
    raise ValueError(
        f'not dice notation: "{text}" (expected e.g. "d6" or "2d6": {MIN_COUNT} to {MAX_COUNT}'
        f" dice of {MIN_SIDES} to {MAX_SIDES} sides)"
    )
