"""Whether a vote adopts a proposal under a method (unanimous, majority, fraction, index), and why.

Choices (documented in docs/format.md): abstentions (and PRESENT) are not votes cast and count for
nothing; a player who did not vote is not counted against (Suber 105 obliges everyone to vote, but an
archive that lacks a ballot records a lapse, not a "no"). Unanimous therefore means at least one vote for
and none against. A ballot may carry a strength (format 1.1): F and A are the strengths for and against, B
the number of ballots; a quorum counts ballots. Every comparison is exact (fractions, never floats).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ..model import Votes


def exact(value: float | int | Fraction) -> Fraction:
    """A setting read from TOML as a float, taken as the decimal it was written as (0.9 is nine tenths):
    Python's repr of a float is the shortest decimal that reads back to it, which is the keeper's text."""
    return value if isinstance(value, Fraction) else Fraction(str(value))


def decimal_text(value: Fraction) -> str:
    """An exact decimal as a keeper writes it: 3/2 as 1.5, 2 as 2.0 (a fraction with no finite decimal
    is shown to six places)."""
    if value.denominator == 1:
        return f"{value.numerator}.0"
    places = 0
    while value * 10 ** places != int(value * 10 ** places) and places < 6:
        places += 1
    return f"{float(value):.{places}f}"


@dataclass(frozen=True)
class Decision:
    """A vote judged: the method and its parameters, the tallies, and the result they give."""

    method: str
    result: str  # adopted | defeated | failed-quorum
    for_: int  # F: the strength for
    against: int  # A: the strength against
    abstain: int  # the strength of ballots neither for nor against
    ballots: int  # B: the ballots cast, of any strength
    weighted: bool  # some ballot carries a strength other than 1
    fraction: Fraction | None = None  # method fraction: the share needed
    index: Fraction | None = None  # method index: the adoption index
    quorum: int = 0  # 0: none

    def tally(self) -> str:
        """`4 for, 1 against, 2 abstaining` (v1's words), or `F 28, A 6` where ballots carry strengths."""
        if self.weighted:
            return f"F {self.for_}, A {self.against}"
        return f"{self.for_} for, {self.against} against" + (f", {self.abstain} abstaining" if self.abstain else "")

    def needed(self) -> str:
        """What the method asks, in a player's words."""
        if self.method == "fraction":
            return f"{_percent(self.fraction)}% needed"
        if self.method == "index":
            return f"index {decimal_text(self.index)}"
        return {"unanimous": "unanimity needed", "majority": "a majority needed"}[self.method]

    def why(self) -> str:
        """The arithmetic that decided it: `F 28 ≥ 2.0 × A 6`, `8 ballots, quorum 9`, `4 for, 1 against (90%
        needed)`."""
        if self.result == "failed-quorum":
            return f"{self.ballots} ballots, quorum {self.quorum}"
        if self.method == "index":
            if self.result == "adopted":
                return f"F {self.for_} ≥ {decimal_text(self.index)} × A {self.against}"
            if self.for_ <= self.against:
                return f"F {self.for_} ≤ A {self.against}"
            return f"F {self.for_} < {decimal_text(self.index)} × A {self.against}"
        return f"{self.tally()} ({self.needed()})"

    def summary(self) -> str:
        """`adopted, 4 for, 1 against (90% needed)`."""
        return f"{self.result}, {self.why()}"


def _percent(fraction: Fraction | None) -> str:
    return f"{float((fraction or 0) * 100):g}"


def decide(method: str, votes: Votes, fraction: float | Fraction = Fraction(1, 2), *,
           index: Fraction | None = None, quorum: int = 0) -> Decision:
    """Judge `votes` under `method` (FORMAT.md, and its Version 1.1 sections 2 and 3)."""
    cast_for, cast_against, neither = votes.strength_for, votes.strength_against, votes.strength_abstain
    ballots = votes.ballot_count
    share = exact(fraction) if method == "fraction" else None
    index = (index if index is not None else Fraction(1)) if method == "index" else None
    if quorum and ballots < quorum:
        result = "failed-quorum"
    elif method == "unanimous":
        result = _adopted(cast_for > 0 and cast_against == 0)  # (strengths are never negative)
    elif method == "majority":
        result = _adopted(cast_for > cast_against)
    elif method == "fraction":
        cast = cast_for + cast_against
        result = _adopted(cast > 0 and Fraction(cast_for, cast) >= share)
    elif method == "index":
        result = _adopted(cast_for > cast_against and cast_for >= index * cast_against)
    else:
        raise ValueError(f"unknown adoption method {method!r}")
    return Decision(method, result, cast_for, cast_against, neither, ballots, votes.weighted, share, index, quorum)


def _adopted(yes: bool) -> str:
    return "adopted" if yes else "defeated"


def adopts(method: str, votes: Votes, fraction: float) -> bool:
    return decide(method, votes, fraction).result == "adopted"


def describe(method: str, fraction: float) -> str:
    if method == "fraction":
        return f"{fraction * 100:g}% of votes cast"
    return {"unanimous": "unanimity", "majority": "a simple majority", "index": "the adoption index"}[method]
