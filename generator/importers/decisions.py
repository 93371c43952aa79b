"""What keepers keep beside the rules: the game's decisions (each proposal's proposer, ballots and result) in a
JSON file of proposals, as a bot or a website keeps them, read through a mapping the keeper writes once
(`--records FILE`, a small TOML file) so that results are checked against ballots, not assumed adopted.

    [proposals]
    file = "data/proposals.json"   # in the repository, read at the last commit the import reads
    list = "proposals"             # where the list is in the file ("" : the file is the list)
    number = "n"                   # the key of its number, or "index": its place in the list, from 0
    proposer = "author"
    result = "status"
    date = "timestamp"             # seconds since 1970, or YYYY-MM-DD...
    votes = "votes"                # {voter: ballot}, or lists of voters, one list per kind of ballot
    ballots = { "1" = "for", "-1" = "against", "0" = "abstain" }   # a {voter: ballot} table's ballots
    # ballot_lists = ["for", "against", "", "abstain"]             # or: what each list is ("": no ballot)
    results = { passed = "adopted", failed = "defeated", deleted = "withdrawn", voting = "undecided" }
    adoption = "majority"          # the game's adoption method (game.toml's adoption.method)

Voters and proposers are named as the file names them (a number, a handle); the corrections file's `player`
lines give their names (`player 3097874862 = Gibson#3668`)."""
from __future__ import annotations

import datetime
import json
from dataclasses import dataclass
from pathlib import Path

from ..errors import ArchiveError, ErrorCollector, SourceError
from ..parse.config import locate_keys, read_toml
from ..parse.source import read_text
from .text import clean_line, short_title

RESULTS = ("adopted", "defeated", "withdrawn", "invalid", "failed-quorum", "undecided")
BALLOTS = ("for", "against", "abstain", "")
_KEYS = {"file", "list", "number", "proposer", "result", "date", "votes", "ballots", "ballot_lists", "results",
         "adoption", "title"}
_METHODS = ("unanimous", "majority", "fraction")


@dataclass(frozen=True)
class Mapping:
    """Where the decisions are and how to read them (the keeper's records file)."""

    file: str
    list: str
    number: str
    proposer: str
    result: str
    date: str
    votes: str
    ballots: dict[str, str]
    ballot_lists: tuple[str, ...]
    results: dict[str, str]
    adoption: str
    title: str


@dataclass(frozen=True)
class Decision:
    """One proposal as the file records it, in the log's words (names as the file gives them)."""

    number: int
    proposer: str
    result: str                          # one of RESULTS
    said: str                            # the file's own word for the result
    date: str                            # YYYY-MM-DD, "" where unknown
    moment: float                        # for ordering: seconds since 1970 (0 where unknown)
    votes: tuple[tuple[str, str], ...]   # (voter, for | against | abstain), as the file lists them
    title: str


def read_mapping(path: Path) -> Mapping:
    """The keeper's records file; ArchiveError (exit 2) at the line of each value it cannot use."""
    errors = ErrorCollector()
    name = str(path)
    text = read_text(path, name, errors, missing="no such file (--records names the keeper's mapping of the "
                                                 "game's records, docs/guide/import.md)")
    data = read_toml(text, name, errors) if text is not None else None
    errors.raise_if_any()
    lines = locate_keys(text or "")

    def fail(key: str, message: str) -> ArchiveError:
        return ArchiveError([SourceError(name, lines.get(f"proposals.{key}", lines.get("proposals", 0)), message)])

    table = data.get("proposals")
    if not isinstance(table, dict):
        raise ArchiveError([SourceError(name, 0, "no [proposals] table: it says where the game's decisions are")])
    for key in table:
        if key not in _KEYS:
            raise fail(key, f"proposals.{key}: not a key of the mapping (keys: {', '.join(sorted(_KEYS))})")

    def string(key: str, default: str | None = None) -> str:
        value = table.get(key, default)
        if not isinstance(value, str):
            raise fail(key, f"proposals.{key} must be a string" if key in table else f"proposals.{key} is needed")
        return value

    def words(key: str, allowed: tuple[str, ...]) -> dict[str, str]:
        value = table.get(key, {})
        if not isinstance(value, dict) or any(not isinstance(v, str) or v not in allowed for v in value.values()):
            raise fail(key, f"proposals.{key} must be a table of the record's words, each one of "
                            f"{', '.join(repr(a) for a in allowed)}")
        return {str(k): v for k, v in value.items()}

    lists = table.get("ballot_lists", [])
    if not isinstance(lists, list) or any(item not in BALLOTS for item in lists):
        raise fail("ballot_lists", "proposals.ballot_lists must list, for each list of voters, one of 'for', "
                                   "'against', 'abstain' or '' (no ballot)")
    adoption = string("adoption", "unanimous")
    if adoption not in _METHODS:
        raise fail("adoption", f"proposals.adoption must be one of {', '.join(_METHODS)}")
    return Mapping(string("file"), string("list", ""), string("number"), string("proposer"), string("result"),
                   string("date", ""), string("votes", ""), words("ballots", BALLOTS), tuple(lists),
                   words("results", RESULTS), adoption, string("title", ""))


class DecisionsUnreadable(Exception):
    """The file of decisions cannot be read as the mapping says: the message says where and why."""


def read_decisions(mapping: Mapping, content: str) -> list[Decision]:
    """The decisions in `content` (the mapping's file), in the file's order; DecisionsUnreadable naming the first
    entry that cannot be read as the mapping says."""
    try:
        data = json.loads(content, parse_constant=lambda word: None)
    except (ValueError, RecursionError) as error:
        raise DecisionsUnreadable(f"not JSON: {error}") from None
    items = _at(data, mapping.list)
    if not isinstance(items, list):
        raise DecisionsUnreadable(f"'{mapping.list or 'the top'}' holds no list of proposals")
    out = []
    for place, item in enumerate(items):
        if not isinstance(item, dict):
            raise DecisionsUnreadable(f"proposal {place} (from 0) is not an object")
        out.append(_decision(mapping, place, item))
    return out


def _at(data, path: str):
    for key in [part for part in path.split(".") if part]:
        data = data.get(key) if isinstance(data, dict) else None
    return data


def _decision(mapping: Mapping, place: int, item: dict) -> Decision:
    where = f"proposal {place} (from 0)"
    if mapping.number == "index":
        number = place
    else:
        value = item.get(mapping.number)
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 10 ** 12:
            raise DecisionsUnreadable(f"{where}: its '{mapping.number}' is not a number")
        number = value
    said = clean_line(str(item.get(mapping.result, "")))
    result = mapping.results.get(said, said if said in RESULTS else "")
    if not result:
        raise DecisionsUnreadable(f"proposal {number}: its result '{said}' is not one the mapping names "
                                  f"(proposals.results)")
    moment, date = _moment(item.get(mapping.date)) if mapping.date else (0.0, "")
    title = short_title(str(item.get(mapping.title) or ""))[0] if mapping.title else ""
    proposer = item.get(mapping.proposer)
    return Decision(number, "" if proposer is None else clean_line(str(proposer)), result, said, date, moment,
                    _votes(mapping, item.get(mapping.votes) if mapping.votes else None, number), title)


def _moment(value) -> tuple[float, str]:
    if isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value < 10 ** 11:
        moment = datetime.datetime.fromtimestamp(value, datetime.timezone.utc)
        return float(value), moment.date().isoformat()
    if isinstance(value, str):
        try:
            moment = datetime.datetime.fromisoformat(value.strip())
        except ValueError:
            return 0.0, ""
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=datetime.timezone.utc)
        return moment.timestamp(), moment.date().isoformat()
    return 0.0, ""


def _votes(mapping: Mapping, value, number: int) -> tuple[tuple[str, str], ...]:
    if value is None:
        return ()
    out = []
    if isinstance(value, dict):
        for voter, ballot in value.items():
            kind = mapping.ballots.get(clean_line(str(ballot)))
            if kind is None:
                raise DecisionsUnreadable(f"proposal {number}: the ballot '{ballot}' of {voter} is not one the mapping "
                                          "names (proposals.ballots)")
            if kind:
                out.append((clean_line(str(voter)), kind))
    elif isinstance(value, list) and mapping.ballot_lists:
        for kind, voters in zip(mapping.ballot_lists, value):
            if kind and isinstance(voters, list):
                out += [(clean_line(str(voter)), kind) for voter in voters]
    else:
        raise DecisionsUnreadable(f"proposal {number}: its votes are neither a table of ballots nor lists the mapping "
                                  "names (proposals.ballot_lists)")
    return tuple(out)
