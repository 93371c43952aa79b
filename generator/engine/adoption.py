"""Whether a vote adopts a proposal under a method (unanimous, majority, fraction).

Choices (documented in docs/format.md): abstentions are not votes cast and count for nothing; a player who
did not vote is not counted against (Suber 105 obliges everyone to vote, but an archive that lacks a
ballot records a lapse, not a "no"). Unanimous therefore means at least one vote for and none against.
"""
from __future__ import annotations

from fractions import Fraction

from ..model import Votes


def adopts(method: str, votes: Votes, fraction: float) -> bool:
    cast_for, cast_against = len(votes.for_), len(votes.against)
    if method == "unanimous":
        return cast_for > 0 and cast_against == 0
    if method == "majority":
        return cast_for > cast_against
    if method == "fraction":
        cast = cast_for + cast_against
        return cast > 0 and Fraction(cast_for, cast) >= Fraction(str(fraction))
    raise ValueError(f"unknown adoption method {method!r}")


def describe(method: str, fraction: float) -> str:
    if method == "fraction":
        return f"{fraction * 100:g}% of votes cast"
    return {"unanimous": "unanimity", "majority": "a simple majority"}[method]
