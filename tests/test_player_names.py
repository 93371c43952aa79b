"""The names in an entry that are players' (model.PlayerName): every key of the log that names a player fills a field so
typed, and as_people (game.toml's `[aliases]`) maps exactly those, keeping an entry that names no alias the very
same object."""
from __future__ import annotations

import dataclasses
import re
import typing
from dataclasses import dataclass

import pytest

from generator.engine.replay import as_people
from generator.errors import ErrorCollector
from generator.model import Event, Judgment, PlayerName, Proposal, Unrecorded, with_names
from generator.model.config import Aliases
from generator.parse.log import parse_log

# Each name a key of the log can give, a different one at each place; the same names in the free text beside them
# (title, note, body, By:), which names no player and must stay as written.
LOG = """\
## Proposal 301: Amo's prize
Proposer: Amo
Co-authors: Bex
Date: 2020-01-01
Votes: for Cal x2; against Dov; abstain Eli
Result: adopted
Points: Fen +5 (a prize for Amo)
Scores: Gus 5
Winner: Hal
Note: Amo asked for it

Amo wants a prize.

## Judgment 7: Did Ida win?
Judge: Ida
Date: 2020-01-02
Sets: score Jon 45
Sets: next-player Kit
By: Amo

## Event: Lou becomes Max
Date: 2020-01-03
Players: Lou -> Max, +Ned, -Oz
Turn: Pim
Die: 3
"""
NAMES = ("Amo", "Bex", "Cal", "Dov", "Eli", "Fen", "Gus", "Hal", "Ida", "Jon", "Kit", "Lou", "Max", "Ned", "Oz",
         "Pim")
NAMED = re.compile(rf"\b({'|'.join(NAMES)})\b")  # a name as written (its person's name is in capitals)
EVERYONE = Aliases(people=tuple((name.upper(), (name,)) for name in NAMES))


def entries() -> tuple:
    errors = ErrorCollector()
    _, parsed = parse_log([("g/log.md", LOG)], errors)
    assert not errors.errors
    return tuple(parsed)


def strings(value: object, path: str = "") -> list[tuple[str, str]]:
    """(where, text) of every str in an entry, through its dataclass fields and tuples (`[]`: any item of one)."""
    if isinstance(value, str):
        return [(path, value)]
    if isinstance(value, tuple):
        return [found for item in value for found in strings(item, path + "[]")]
    if dataclasses.is_dataclass(value):
        return [found for field in dataclasses.fields(value)
                for found in strings(getattr(value, field.name), f"{path}.{field.name}".lstrip("."))]
    return []


def marked(kind: object, path: str = "") -> set[str]:
    """Where the model's types put a PlayerName in a value of type `kind` (paths as `strings` gives them)."""
    if kind == PlayerName:
        return {path}
    arguments = typing.get_args(kind)
    if typing.get_origin(kind) is tuple:
        return {found for argument in arguments if argument is not Ellipsis for found in marked(argument, path + "[]")}
    if arguments:  # a union
        return {found for argument in arguments for found in marked(argument, path)}
    if dataclasses.is_dataclass(kind):
        hints = typing.get_type_hints(kind, include_extras=True)
        return {found for field in dataclasses.fields(kind)
                for found in marked(hints[field.name], f"{path}.{field.name}".lstrip("."))}
    return set()


def test_every_name_a_key_gives_is_a_player_name_and_becomes_the_persons():
    recorded = entries()
    named = {where for entry in recorded for where, text in strings(entry) if NAMED.search(text)}
    # The log above gives a name at every place the model types PlayerName, and at free-text places besides
    everywhere = set().union(*(marked(kind) for kind in (Proposal, Judgment, Event, Unrecorded)))
    assert everywhere <= named
    free_text = {"title", "notes[]", "body", "by", "points[].reason"}
    assert named == everywhere | free_text
    people = [as_people(entry, EVERYONE) for entry in recorded]
    # A name left as written where a key gave it would be a field holding a player's name that is not a PlayerName
    assert {where for entry in people for where, text in strings(entry) if NAMED.search(text)} == free_text
    proposal, judgment, event = people
    assert (proposal.proposer, proposal.coauthors, proposal.votes.voters) == (
        "AMO", ("BEX",), ("CAL", "DOV", "ELI"))
    assert proposal.votes.strengths == recorded[0].votes.strengths and proposal.votes.strength_for == 2
    assert (proposal.points[0].player, proposal.points[0].points, proposal.points[0].reason) == (
        "FEN", 5, "a prize for Amo")
    assert (proposal.scores.scores, proposal.winner.players) == ((("GUS", 5),), ("HAL",))
    assert (proposal.title, proposal.notes, proposal.body.strip()) == (
        "Amo's prize", ("Amo asked for it",), "Amo wants a prize.")
    assert (judgment.judge, [(s.what, s.player) for s in judgment.settings], judgment.by) == (
        "IDA", [("score", "JON"), ("next-player", "KIT")], "Amo")
    assert [(c.player, c.joins, c.renamed_to) for c in event.players] == [
        ("LOU", False, "MAX"), ("NED", True, ""), ("OZ", False, "")]
    assert event.turn_of == "PIM"
    # Each place keeps where it was written
    assert proposal.source is recorded[0].source and proposal.points[0].source is recorded[0].points[0].source


def test_an_entry_that_names_no_alias_is_the_very_same_object():
    recorded = entries()
    someone_else = Aliases(people=(("Zoe", ("Zed",)),))
    for entry in recorded:
        assert as_people(entry, Aliases()) is entry
        assert as_people(entry, someone_else) is entry
    # Renaming one name makes a new entry, and keeps the parts that name no alias as they were
    proposal = as_people(recorded[0], Aliases(people=(("AMO", ("Amo",)),)))
    assert proposal is not recorded[0] and proposal.proposer == "AMO"
    assert proposal.votes is recorded[0].votes and proposal.scores is recorded[0].scores
    assert proposal.changes is recorded[0].changes
    assert dataclasses.replace(recorded[0], proposer="AMO") == proposal


@dataclass(frozen=True)
class _Ambiguous:
    names: PlayerName | tuple[PlayerName, ...]


def test_a_field_that_may_hold_names_two_ways_is_refused_where_first_mapped():
    with pytest.raises(TypeError, match="more than one member that holds names"):
        with_names(_Ambiguous("Amo"), str.upper)
