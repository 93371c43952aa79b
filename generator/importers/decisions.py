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
    text = "content"               # the proposal's text, where it states what it depends on (optional)

A keeper's Markdown archive of proposals, one heading each (`#302 - Title - passed`, then `Proposed by: Ann` and
a line per ballot, `Bo: For`), is read by regular expressions instead of keys:

    [proposals]
    file = "old_proposals.md"
    heading = '^#(?P<number>[0-9]+|[A-Z]{4}) - (?P<title>.*) - (?P<result>[A-Za-z]+)$'
    byline = '^Proposed by: (.+?)(?: [+-][0-9].*)?$'
    ballot = '^(?P<voter>[^:]+): (?P<ballot>For|Against|Abstain)'
    ballots = { For = "for", Against = "against", Abstain = "abstain" }
    results = { passed = "adopted", Passed = "adopted", defeated = "defeated" }

A number written in capital letters (VPRD) is numbered as a rule so named is (each letter's place in the alphabet
in two digits: 22161804).

Each player's score, as the game keeps it beside the rules (a file per player, or a JSON table), read at the last
commit so that `check` holds it to the replay (`Scores:` on the log's last entry), and the points the game's rules
give for an adopted proposal:

    [scores]
    files = "players/*.md"                         # a file per player (a pattern of paths), or one JSON file
    name = 'GitHub handle: @(\\S+)'                # in each file, the player's name (default: the file's name)
    score = 'Current score: (-?[0-9]+(?:[.][0-9]+)?)'
    # table = "points.players"                     # or, in one JSON file: where {player: score} is
    adopted = 1                                    # points to a proposal's proposer when it is adopted

Without [proposals] the game has no file of decisions: only its scores are read.

Voters and proposers are named as the file names them (a number, a handle); the corrections file's `player`
lines give their names (`player 3097874862 = Gibson#3668`). A proposal's text may state what the game's rules let
it depend on ("This proposal depends on #36", "is incompatible with #6"): `stated_conditions` reads it."""
from __future__ import annotations

import datetime
import fnmatch
import json
import math
import re
import time
from collections import Counter
from fractions import Fraction
from dataclasses import dataclass
from pathlib import Path

import regex

from ..errors import ArchiveError, ErrorCollector, SourceError
from ..limits import MAX_EXPRESSION_CHARS, MAX_EXPRESSION_REPEATS, MAX_MATCHING_SECONDS
from ..parse.config import locate_keys, read_toml
from ..parse.source import read_text
from .rulesfile import letters_number
from .text import clean_line, short_title

RESULTS = ("adopted", "defeated", "withdrawn", "invalid", "failed-quorum", "undecided")
BALLOTS = ("for", "against", "abstain", "")
_METHODS = ("unanimous", "majority", "fraction")


class Expression:
    """A regular expression of the records file, which may come from anyone's repository, compiled within the caps
    (MAX_EXPRESSION_CHARS, MAX_EXPRESSION_REPEATS) and run by the `regex` engine, whose matching stops at a timeout:
    all of a records file's expressions share MAX_MATCHING_SECONDS (`budget`), past which the import is refused at
    the expression's line (ArchiveError), whatever text it was matching."""

    def __init__(self, pattern: str, where: str, file: str, line: int, budget: list[float]):
        self.where, self.file, self.line, self.budget = where, file, line, budget
        if len(pattern) > MAX_EXPRESSION_CHARS:
            raise self._error(f"is {len(pattern):,} characters long; an expression may be at most "
                              f"{MAX_EXPRESSION_CHARS:,}")
        counts = [max(int(low or 0), int(high or 0), 1) for low, high in _COUNT.findall(pattern)]
        if math.prod(counts) > MAX_EXPRESSION_REPEATS:
            raise self._error(f"its counted repetitions ({{m,n}}), multiplied together, come to more than "
                              f"{MAX_EXPRESSION_REPEATS:,}, which the engine would unroll into that many copies: "
                              "write + or * for a long run")
        try:
            self.compiled = regex.compile(pattern, regex.MULTILINE)
        except (regex.error, OverflowError, RecursionError) as error:
            raise self._error(f"is not a regular expression: {error}") from None

    def search(self, text: str, what: str):
        return self._timed(lambda timeout: self.compiled.search(text, timeout=timeout), what)

    def finditer(self, text: str, what: str) -> list:
        """Every match in `text`, as a list (the timeout covers the whole walk)."""
        return self._timed(lambda timeout: list(self.compiled.finditer(text, timeout=timeout)), what)

    def _timed(self, match, what: str):
        start = time.monotonic()
        try:
            return match(max(self.budget[0], 0.001))
        except TimeoutError:
            raise self._error(f"matching took more than {MAX_MATCHING_SECONDS:g} s (the records file's expressions "
                              f"together, stopped on {what}): it backtracks without end, as a repetition inside a "
                              "repetition does ((a+)+ tries every way to split a run of a's); write it so that each "
                              "character can be read only one way") from None
        finally:
            self.budget[0] -= time.monotonic() - start

    def _error(self, message: str) -> ArchiveError:
        return ArchiveError([SourceError(self.file, self.line, f"{self.where}: {message}")])


# A counted repetition, {m}, {m,n}, {m,} or {,n} (as the `regex` engine reads them)
_COUNT = re.compile(r"\{\s*([0-9]*)\s*(?:,\s*([0-9]*)\s*)?\}")


@dataclass(frozen=True)
class Rulesets:
    """Where a game keeps its rulesets, one per step of its history, and how to read them: a list of entries, each
    naming its file (`{KEY}` in `file` is that key of the entry) and the proposal that made it; the list is a JSON
    file in the repository (a website's archive: `list`), or the records file's own `files` (rulesets captured on
    days, as the Internet Archive keeps a dead game's wiki: each `{file, date, title, proposal}`, the proposal
    unknown where it names none). `current`: the file of the rules in force, which stands for the list's last
    ruleset where the archive lacks it."""

    list: str
    file: str
    proposal: str
    date: str
    title: str
    current: str = ""
    files: tuple[dict, ...] = ()

    @property
    def named(self) -> str:
        """The list, as a message names it."""
        return "the records file's rulesets.files" if self.files else self.list


@dataclass(frozen=True)
class ScoreFiles:
    """Where the game keeps each player's score, and how to read it: files matching `files`, each one player's,
    the name and the score found by the regular expressions `name` and `score` (their first group); or one JSON
    file whose `table` is {player: score}. `adopted`: the points the game's rules give a proposal's proposer when
    it is adopted (game.toml's scoring.adopted)."""

    files: str
    name: Expression | None
    score: Expression | None
    table: str
    adopted: int


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
    adopted_by_rulesets: bool = False   # a proposal is adopted where a ruleset names it, else defeated
    rulesets: Rulesets | None = None
    players: tuple[str, str, str, str] | None = None  # a JSON file of players: file, list, the id's key, the name's
    text: str = ""                      # the key of a proposal's text
    scores: ScoreFiles | None = None    # where the game keeps its players' scores
    markdown: tuple[Expression, Expression, Expression] | None = None  # a Markdown archive: the heading's, byline's,
    # ballot's expressions
    folder: str = ""                    # a folder of one file per proposal (proposalfiles.py): `proposer`, `result`
    # and `date` name its files' fields, `results` their words


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
    reason: str = ""                     # why it failed, where the rules give a reason (the keeper's word)
    text: str = ""                       # the proposal's own text, where the record keeps it (the mapping's `text`)
    # A keeper's Markdown archive: what it holds of the proposal under its heading (its text among the keeper's
    # notes, byline and ballots), read for the rules and proposals it names, never shown as its text (`text` is
    # its own words, where the entry shows them apart: `_archived_words`)
    archived: str = ""
    name: str = ""                       # the record's own name for it, where not its number (VPRD)
    source: str = ""                     # the file that records it alone (a proposal's own file), where one does
    ballots_recorded: bool = True        # the record holds its ballots (`votes` empty: nobody voted)


def read_mapping(path: Path) -> Mapping:
    """The keeper's records file; ArchiveError (exit 2) at the line of each value it cannot use."""
    errors = ErrorCollector()
    name = str(path)
    text = read_text(path, name, errors, missing="no such file (--records names the keeper's mapping of the "
                                                 "game's records, docs/guide/import.md)")
    data = read_toml(text, name, errors) if text is not None else None
    errors.raise_if_any()
    lines = locate_keys(text or "")
    for table in data:
        if table not in _TABLES:
            raise ArchiveError([SourceError(name, lines.get(table, 0), f"[{table}]: not a table of the mapping "
                                            f"(tables: {', '.join(_TABLES)})")])
    proposals = _Table(data, "proposals", name, lines)
    scores = _Table(data, "scores", name, lines)
    if proposals.table is None and scores.table is None and data.get("rulesets") is None:
        raise ArchiveError([SourceError(name, 0, "no [proposals] table: it says where the game's decisions are (or "
                                        "[scores], where its players' scores are, or [rulesets], its rulesets)")])
    if proposals.table is None:  # scores or rulesets only: no file of decisions
        proposals.table = {"file": "", "number": "", "proposer": "", "result": ""}
    if "folder" in proposals.table:  # a file per proposal: its fields named only where the usual names miss
        if "file" in proposals.table:
            raise proposals.fail("folder", "names a folder of proposal files, and file a file of proposals: name one")
        proposals.table = {"file": "", "number": "", "proposer": "", "result": "", **proposals.table}
    markdown = None
    budget = [MAX_MATCHING_SECONDS]  # what the file's expressions have left to match in, together
    if "heading" in proposals.table:  # a Markdown archive: read by expressions, not keys
        markdown = tuple(_expression(proposals, key, groups, budget) for key, groups in (
            ("heading", ("number", "result")), ("byline", ()), ("ballot", ("voter", "ballot"))))
        proposals.table = {"number": "", "proposer": "", "result": "", **proposals.table}
    lists = proposals.value("ballot_lists", list, [])
    if any(item not in BALLOTS for item in lists):
        raise proposals.fail("ballot_lists", "must list, for each list of voters, one of 'for', 'against', 'abstain' "
                                             "or '' (no ballot)")
    adoption = proposals.value("adoption", str, "unanimous")
    if adoption not in _METHODS:
        raise proposals.fail("adoption", f"must be one of {', '.join(_METHODS)}")
    rulesets = _Table(data, "rulesets", name, lines)
    players = _Table(data, "players", name, lines)
    adopted = proposals.value("adopted", str, "")
    if adopted not in ("", "rulesets") or adopted and rulesets.table is None:
        raise proposals.fail("adopted", "may only be 'rulesets' (adopted where a [rulesets] entry names it)")
    return Mapping(proposals.value("file", str), proposals.value("list", str, ""), proposals.value("number", str),
                   proposals.value("proposer", str), proposals.value("result", str, "") if adopted else
                   proposals.value("result", str), proposals.value("date", str, ""),
                   proposals.value("votes", str, ""), proposals.words("ballots", BALLOTS), tuple(lists),
                   proposals.words("results", RESULTS), adoption, proposals.value("title", str, ""),
                   bool(adopted),
                   _rulesets(rulesets) if rulesets.table is not None else None,
                   (players.value("file", str), players.value("list", str, ""), players.value("id", str),
                    players.value("name", str)) if players.table is not None else None,
                   proposals.value("text", str, ""), _score_files(scores, budget) if scores.table is not None else None,
                   markdown, proposals.value("folder", str, ""))


_CAPTURE_KEYS = {"file": str, "date": datetime.date, "title": str, "proposal": int}  # an entry of rulesets.files


def _rulesets(rulesets: "_Table") -> Rulesets:
    """The records file's [rulesets]: a list in the repository (`list`, read by the keys named), or its own."""
    files = rulesets.value("files", list, [])
    if not files:
        return Rulesets(rulesets.value("list", str), rulesets.value("file", str), rulesets.value("proposal", str),
                        rulesets.value("date", str, ""), rulesets.value("title", str, ""),
                        rulesets.value("current", str, ""))
    if given := [key for key in rulesets.table if key != "files"]:
        raise rulesets.fail(given[0], "reads a list kept in the repository (rulesets.list); rulesets.files is the "
                                      "list itself: give one or the other")
    for place, entry in enumerate(files):
        if not isinstance(entry, dict) or not isinstance(entry.get("file"), str) or any(
                key not in _CAPTURE_KEYS or not isinstance(value, _CAPTURE_KEYS[key]) or isinstance(value, bool)
                for key, value in entry.items()):
            raise rulesets.fail("files", f"ruleset {place} (from 0) must be a table {{ file = \"PATH\", date = "
                                         "YYYY-MM-DD, title = \"...\", proposal = N }, its file at least")
    return Rulesets("", "{file}", "proposal", "date", "title", files=tuple(files))


def _expression(table: "_Table", key: str, groups: tuple[str, ...], budget: list[float]) -> Expression:
    """A regular expression of the records file, with the named groups it must hold (else its first group)."""
    expression = Expression(table.value(key, str), f"{table.name}.{key}", table.file, table.line(key), budget)
    missing = [group for group in groups if group not in expression.compiled.groupindex]
    if missing or not groups and expression.compiled.groups < 1:
        raise table.fail(key, "must hold " + (", ".join(f"(?P<{group}>...)" for group in missing) if missing else
                                              "a group, (...), around what it reads"))
    return expression


def _score_files(scores: "_Table", budget: list[float]) -> ScoreFiles:
    files, table = scores.value("files", str), scores.value("table", str, "")
    name, score = (_expression(scores, key, (), budget) if scores.table.get(key) or key == "score" and not table else
                   None for key in ("name", "score"))
    adopted = scores.table.get("adopted", 0)
    if not isinstance(adopted, int) or isinstance(adopted, bool):
        raise scores.fail("adopted", "must be a whole number")
    return ScoreFiles(files, name, score, table, adopted)


def score_paths(scores: ScoreFiles, paths: list[str]) -> list[str]:
    """The repository's files (`paths`) that hold the players' scores, in name order."""
    return sorted(path for path in paths if fnmatch.fnmatchcase(path, scores.files))


def read_scores(scores: ScoreFiles, files: list[tuple[str, str]]) -> tuple[dict[str, Fraction], list[str]]:
    """Each player's score (as the record names the player) in `files` (path, text), and the files that hold none
    (a folder's README, say); DecisionsUnreadable naming a JSON file with no table of scores where the mapping
    says, or a score that is not a number."""
    out: dict[str, Fraction] = {}
    left_out: list[str] = []
    for path, content in files:
        if scores.table:
            table = _at(_json(content), scores.table)
            if not isinstance(table, dict):
                raise DecisionsUnreadable(f"{path}: '{scores.table}' holds no table of players' scores")
            for player, value in table.items():
                out[clean_line(str(player))] = _score(value, path, player)
            continue
        score = scores.score.search(content, path)
        named = scores.name.search(content, path) if scores.name else None
        if score is None or scores.name and named is None:
            left_out.append(path)
            continue
        player = clean_line(named.group(1)) if named else path.rpartition("/")[2].rpartition(".")[0]
        out[player] = _score(score.group(1), path, player)
    return out, left_out


def _score(value, path: str, player: str) -> Fraction:
    try:
        if isinstance(value, bool) or not isinstance(value, (int, float, str)) or len(str(value)) > 20:
            raise ValueError
        return Fraction(str(value).strip())
    except (ValueError, ZeroDivisionError):
        raise DecisionsUnreadable(f"{path}: the score of {player}, '{clean_line(str(value))[:40]}', is not a "
                                  "number") from None


_TABLES = {"proposals": ("file", "list", "number", "proposer", "result", "date", "votes", "ballots", "ballot_lists",
                         "results", "adoption", "title", "adopted", "text", "heading", "byline", "ballot", "folder"),
           "rulesets": ("list", "file", "proposal", "date", "title", "current", "files"),
           "players": ("file", "list", "id", "name"),
           "scores": ("files", "name", "score", "table", "adopted")}


class _Table:
    """One table of the records file, each value read with its line for the message when it is wrong."""

    def __init__(self, data: dict, name: str, file: str, lines: dict[str, int]):
        self.table, self.name, self.file, self.lines = data.get(name), name, file, lines
        if self.table is not None and not isinstance(self.table, dict):
            raise self.fail("", "must be a table")
        for key in self.table or {}:
            if key not in _TABLES[name]:
                raise self.fail(key, f"not a key of the mapping (keys: {', '.join(_TABLES[name])})")

    def fail(self, key: str, message: str) -> ArchiveError:
        return ArchiveError([SourceError(self.file, self.line(key), f"{self.name}.{key}: {message}" if key else
                                         f"{self.name}: {message}")])

    def line(self, key: str) -> int:
        """The line of the table's `key` (of the table itself where the key is not written)."""
        return self.lines.get(f"{self.name}.{key}" if key else self.name, self.lines.get(self.name, 0))

    def value(self, key: str, kind: type, default=None):
        value = self.table.get(key, default)
        if value is None:
            raise self.fail(key, "is needed")
        if not isinstance(value, kind):
            raise self.fail(key, f"must be a {'string' if kind is str else 'list'}")
        return value

    def words(self, key: str, allowed: tuple[str, ...]) -> dict[str, str]:
        value = self.table.get(key, {})
        if not isinstance(value, dict) or any(not isinstance(v, str) or v not in allowed for v in value.values()):
            raise self.fail(key, "must be a table of the record's words, each one of "
                                 f"{', '.join(repr(a) for a in allowed)}")
        return {str(k): v for k, v in value.items()}


class DecisionsUnreadable(Exception):
    """The file of decisions cannot be read as the mapping says: the message says where and why."""


def read_decisions(mapping: Mapping, content: str, adopted: dict[int, str] | None = None) -> list[Decision]:
    """The decisions in `content` (the mapping's file), in the file's order; DecisionsUnreadable naming the first
    entry that cannot be read as the mapping says. `adopted`: where a proposal is adopted when a ruleset names it,
    the proposals the rulesets name, each with the ruleset's words."""
    if mapping.markdown:
        return _markdown_decisions(mapping, content)
    out = []
    for place, item in enumerate(read_list(content, mapping.list, "proposals")):
        if not isinstance(item, dict):
            raise DecisionsUnreadable(f"proposal {place} (from 0) is not an object")
        out.append(_decision(mapping, place, item, adopted))
    return out


def ballot_list_counts(mapping: Mapping, content: str) -> Counter[int]:
    """How many lists of voters the file's proposals hold, counted (where the mapping reads lists of voters):
    `ballot_lists` says what each is, by its place, and names as many where it fits the file."""
    if mapping.markdown or not mapping.ballot_lists or not mapping.votes:
        return Counter()
    return Counter(len(item[mapping.votes]) for item in read_list(content, mapping.list, "proposals")
                   if isinstance(item, dict) and isinstance(item.get(mapping.votes), list))


def read_list(content: str, path: str, what: str) -> list:
    """The list at `path` ("a.b"; "" for the top) in a JSON text; DecisionsUnreadable where there is none."""
    items = _at(_json(content), path)
    if not isinstance(items, list):
        raise DecisionsUnreadable(f"'{path or 'the top'}' holds no list of {what}")
    return items


def _json(content: str):
    try:
        return json.loads(content, parse_constant=lambda word: None)
    except (ValueError, RecursionError) as error:
        raise DecisionsUnreadable(f"not JSON: {error}") from None


def read_players(mapping: Mapping, content: str) -> dict[str, str]:
    """A JSON file of players: each one's identifier (as the decisions give it) -> name."""
    _, path, id_key, name_key = mapping.players
    return {clean_line(str(item[id_key])): clean_line(str(item[name_key]))
            for item in read_list(content, path, "players")
            if isinstance(item, dict) and item.get(id_key) is not None and isinstance(item.get(name_key), str)}


def _at(data, path: str):
    for key in [part for part in path.split(".") if part]:
        data = data.get(key) if isinstance(data, dict) else None
    return data


def _decision(mapping: Mapping, place: int, item: dict, adopted: dict[int, str] | None) -> Decision:
    where = f"proposal {place} (from 0)"
    if mapping.number == "index":
        number = place
    else:
        value = item.get(mapping.number)
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 10 ** 12:
            raise DecisionsUnreadable(f"{where}: its '{mapping.number}' is not a number")
        number = value
    if adopted is not None:
        said = adopted.get(number, "named by no ruleset")
        result = "adopted" if number in adopted else "defeated"
    else:
        said = clean_line(str(item.get(mapping.result, "")))
        result = mapping.results.get(said, said if said in RESULTS else "")
    if not result:
        raise DecisionsUnreadable(f"proposal {number}: its result '{said}' is not one the mapping names "
                                  f"(proposals.results)")
    moment, date = moment_of(item.get(mapping.date)) if mapping.date else (0.0, "")
    title = short_title(str(item.get(mapping.title) or ""))[0] if mapping.title else ""
    proposer = item.get(mapping.proposer)
    text = item.get(mapping.text) if mapping.text else None
    return Decision(number, "" if proposer is None else clean_line(str(proposer)), result, said, date, moment,
                    _votes(mapping, item.get(mapping.votes) if mapping.votes else None, number), title,
                    text=text if isinstance(text, str) else "")


# What a proposal's text may state of others, as games' rules let it ("This proposal depends on #36", "Depends on
# proposal 18", "This proposal is incompatible with #6"): it fails if one it depends on fails, or one it is
# incompatible with passes.
_CONDITION = re.compile(r"\b(depends?|incompatible)\s+(?:up)?(?:on|with)\s+(?:proposals?\s*)?#?\s*([0-9]{1,12})\b",
                        re.IGNORECASE)


def stated_conditions(text: str) -> list[tuple[str, int, str]]:
    """What a proposal's text states it depends on or is incompatible with: ("depends" or "incompatible", the
    proposal's number, the words as written), in the text's order."""
    return [("depends" if m.group(1).lower().startswith("depend") else "incompatible", int(m.group(2)),
             clean_line(m.group(0))) for m in _CONDITION.finditer(text[:100_000])]


def archived_number(written: str) -> int | None:
    """The number an archive's heading gives a proposal: its digits, or its capital letters numbered as a rule so
    named is (VPRD: 22161804); None for anything else."""
    return int(written) if written.isdigit() else letters_number(written) if written.isalpha() and \
        written.isupper() else None


def archived_results(mapping: Mapping, content: str) -> dict[int, str]:
    """Each proposal's result as a version of a keeper's Markdown archive says it (the mapping's words; an entry in
    words the mapping does not name, as an earlier version may write them, is left out)."""
    out = {}
    for start in mapping.markdown[0].finditer(content, mapping.file):
        said = clean_line(start.group("result"))
        if (number := archived_number(start.group("number"))) is not None and (
                result := mapping.results.get(said, said if said in RESULTS else "")):
            out[number] = result
    return out


def _markdown_decisions(mapping: Mapping, content: str) -> list[Decision]:
    """The decisions of a Markdown archive: each line the heading expression matches opens one, read up to the
    next; its byline and ballots found in its lines."""
    heading, byline, ballot = mapping.markdown
    starts = heading.finditer(content, mapping.file)
    out = []
    for at, start in enumerate(starts):
        body = content[start.end():starts[at + 1].start() if at + 1 < len(starts) else len(content)]
        written = start.group("number")
        number = archived_number(written)
        if number is None or number >= 10 ** 12:
            raise DecisionsUnreadable(f"'{clean_line(start.group(0))[:60]}': its number '{written}' is neither digits "
                                      "nor capital letters")
        said = clean_line(start.group("result"))
        result = mapping.results.get(said, said if said in RESULTS else "")
        if not result:
            raise DecisionsUnreadable(f"proposal {written}: its result '{said}' is not one the mapping names "
                                      "(proposals.results)")
        proposer = byline.search(body, f"{mapping.file}, proposal {written}")
        votes = []
        casts = ballot.finditer(body, f"{mapping.file}, proposal {written}")
        for cast in casts:
            kind = mapping.ballots.get(clean_line(cast.group("ballot")))
            if kind is None:
                raise DecisionsUnreadable(f"proposal {written}: the ballot '{clean_line(cast.group('ballot'))}' of "
                                          f"{clean_line(cast.group('voter'))} is not one the mapping names "
                                          "(proposals.ballots)")
            if kind:
                votes.append((clean_line(cast.group("voter")), kind))
        title = short_title(clean_line(start.group("title")))[0] if "title" in heading.compiled.groupindex else ""
        out.append(Decision(number, clean_line(proposer.group(1)) if proposer else "", result, said, "", 0.0,
                            tuple(votes), title, archived=body, name="" if written.isdigit() else written,
                            text=_archived_words(body, proposer.end() if proposer else None,
                                                 [cast.start() for cast in casts])))
    return out


# A keeper's field opening a paragraph of an archive: a label of a few words, its value on the same line
# (`Quorum: 2 votes`, `Speaker's consent: given`), not a proposal's own line (`... rule 302 with the text:`).
_KEEPERS_FIELD = re.compile(r"[ \t]{0,3}[A-Z][A-Za-z']*(?:[ \t]+[A-Za-z']+){0,2}[ \t]*:[ \t]+\S")
_QUOTED = re.compile(r"[ \t]{0,3}>")


def _archived_words(body: str, byline_end: int | None, ballots: list[int]) -> str:
    """The proposal's own words in its entry of a keeper's archive, where the entry's structure shows them: the
    paragraphs after its byline's line, up to the keeper's (a line that is a field, `Quorum: 2 votes`, or a ballot);
    of those, through the last quoted one (the rule's text the proposal quotes: what follows is the keeper's note,
    `The speaker consents.`), or the one paragraph where none is quoted. "" where it does not show them (no byline,
    nothing before the keeper's part, several paragraphs none quoted)."""
    if byline_end is None:
        return ""
    words: list[str] = []  # its paragraphs
    at = body.find("\n", byline_end) + 1 or len(body)
    opening = True  # (the next line opens a paragraph)
    for line in body[at:].split("\n"):
        if _KEEPERS_FIELD.match(line) or any(at <= cast <= at + len(line) for cast in ballots):
            break  # (the keeper's part: a field, `Quorum: 2`, or a ballot, whether or not a blank line is above it)
        if not line.strip():
            opening = True
        elif opening:
            words.append(line)
            opening = False
        else:
            words[-1] += f"\n{line}"
        at += len(line) + 1
    quoted = [n for n, paragraph in enumerate(words) if _QUOTED.match(paragraph)]  # (its next lines: lazily so)
    words = words[:quoted[-1] + 1] if quoted else words if len(words) == 1 else []
    return "\n\n".join(paragraph.rstrip() for paragraph in words)  # (a hard break ending it is none)


def moment_of(value) -> tuple[float, str]:
    """A record's time, seconds since 1970 or an ISO date, as (seconds, YYYY-MM-DD); (0, "") when it is neither."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value < 10 ** 11:
        moment = datetime.datetime.fromtimestamp(value, datetime.timezone.utc)
        return float(value), moment.date().isoformat()
    if isinstance(value, datetime.date):  # (a date of TOML: the records file's own list of rulesets)
        value = value.isoformat()
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
