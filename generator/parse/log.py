"""The log (log.md or log/*.md): level-2 headings to proposals, judgments and events.

Each entry is a heading, one paragraph of `Key: value` lines, then free Markdown in which change
paragraphs ("Amend rule 203 to read:" and a blockquote) are recognised. Every value keeps its line.
"""
from __future__ import annotations

import bisect
import dataclasses
import datetime as dt
import difflib
import functools
import pickle
import re
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from fractions import Fraction
from itertools import accumulate, islice
from operator import itemgetter
from typing import Any, NamedTuple, Union

from markdown_it import MarkdownIt
from markdown_it.token import Token

from ..cache import Cache, digest, program_digest
from ..errors import ErrorCollector, SourceError
from ..limits import MAX_GAME_ENTRIES, MAX_RULE_CHARS
from ..model import (RESULTS, Change, DieRoll, Effect, Entry, Event, Judgment, PlayerChange, PointAward, Proposal,
                     LineAnchor, ResultClaim, ScoresClaim, Setting, Source, Unrecorded, VOTE_WORDS, Votes,
                     WinnerClaim)
from ..model.config import AWARDS_PREFIX, NOT_BY_EFFECT, SETTINGS
from ..model.names import invisible_problem, label_problem, name_problem
from ..model.solitaire import Turn
from ..parallel import map_shares
from .config import parse_effect_value
from .source import (KEY_LINE, Keys, NumberTooLarge, day_written_otherwise, markdown, new_markdown, read_amount,
                     read_decimal, read_int, read_key_number, read_keys, read_number, read_written_decimal, shorten,
                     slice_lines, unquote)

PROPOSAL_HEADING = re.compile(r"^Proposal\s+#?(\S+?)(?:\s*[:.\u2013\u2014-]\s*(.*))?$", re.IGNORECASE)
_JUDGMENT = re.compile(r"^Judge?ment\s+#?(\S+?)(?:\s*[:.\u2013\u2014-]\s*(.*))?$", re.IGNORECASE)
_EVENT = re.compile(r"^Event(?:\s*[:.\u2013\u2014-]\s*(.*))?$", re.IGNORECASE)
# Format 1.2: a judgment named by its case (`Judgment CFJ 4153: Title`), numbers never recorded, a decision
# taken again (`Proposal 8188A`).
_JUDGMENT_CASE = re.compile(r"^Judge?ment\s+([A-Za-z]+\s+[0-9]+)(?:\s*[:.\u2013\u2014-]\s*(.*))?$", re.IGNORECASE)
_UNRECORDED = re.compile(r"^Unrecorded\s*:\s*(.*)$", re.IGNORECASE)
_DECISION_AGAIN = re.compile(r"^([0-9]+)([A-Z])$")
_MONTH = re.compile(r"^([0-9]{4})-([0-9]{2})$")

PROPOSAL_KEYS = ("proposer", "co-authors", "date", "votes", "tally", "result", "reason", "die", "points", "scores",
                 "winner", "effect", "note", "turn", "index", "quorum", "power")
JUDGMENT_KEYS = ("judge", "date", "by", "sets", "points", "scores", "winner", "effect", "note")
EVENT_KEYS = ("date", "by", "players", "points", "scores", "winner", "effect", "note", "turn", "die")
UNRECORDED_KEYS = ("date", "note")
REPEATABLE = {"points", "effect", "note", "sets", "players"}

_CHANGE_START = re.compile(r"^(enact|repeal|amend|transmute|renumber|retitle)\s+(?:(?:im)?mutable\s+)?rules?\b",
                           re.IGNORECASE)
# Format 1.2: a paragraph that starts with one of these words is a change (or an error), never prose.
_NEW_CHANGE_START = re.compile(r"^(?:reenact|annotate|unannotate)\s", re.IGNORECASE)
_FAILED = re.compile(r"^failed\s*:\s*", re.IGNORECASE)
# The rule a change to a rule in force names: its number, or (format 1.4) its label, `4E83`, `UC1`, `2.1` (no space,
# quote or colon, not ending in the sentence's full stop); tried as a number first.
_RULE_NAMED = r"([0-9]+|[^\s\"\u201c\u201d:]*[^\s\"\u201c\u201d:.])"
_REENACT = re.compile(r"^reenact\s+(?:power\s+(\S+)\s+)?rule\s+([0-9]+)(?:\s*:(.*)|\s*\.?)$", re.IGNORECASE)
_ANNOTATE = re.compile(r"^(un)?annotate\s+rule\s+" + _RULE_NAMED + r"\s*:?$", re.IGNORECASE)
# Format 1.4: the record's word on the change above (its own paragraph, right after the change or its quoted text).
_NOT_RECORDED = re.compile(r"^as proposed:\s*not recorded\.?$")  # (lowered) format 1.4: no record holds its text
_RECORD_LINE = re.compile(r"^(history|revision|corrected|place|label)\s*:\s*(.*)$", re.IGNORECASE)
# Every pattern that reads a line runs in time linear in it: rule numbers are ASCII digits (read_int caps
# them), and no lazy part is followed by optional white space before the end (that backtracks: a 40 KB line
# took 20 s); a title is read greedily and stripped.
# `power P` (format 1.1) reaches here only where rules carry a power: elsewhere it is an error before.
_ENACT = re.compile(r"^enact\s+(?:(immutable|mutable)\s+)?(?:power\s+(\S+)\s+)?rule(?:\s+([0-9]+))?\s*(?::(.*))?$",
                    re.IGNORECASE)
_REPEAL = re.compile(r"^repeal\s+rule\s+" + _RULE_NAMED + r"\s*\.?$", re.IGNORECASE)
_AMEND_READ = re.compile(r"^amend\s+rule\s+" + _RULE_NAMED + r"\s+to\s+read\s*:?$", re.IGNORECASE)
_AMEND_APPEND = re.compile(r"^amend\s+rule\s+" + _RULE_NAMED + r"\s+by\s+appending\s*:?$", re.IGNORECASE)
_AMEND_EDIT = re.compile(r"^amend\s+rule\s+" + _RULE_NAMED + r"\s+by\s+(?=replacing|deleting)(.*)$",
                         re.IGNORECASE | re.DOTALL)
_TRANSMUTE = re.compile(r"^transmute\s+rule\s+" + _RULE_NAMED + r"(?:\s+to\s+(immutable|mutable))?\s*\.?$",
                        re.IGNORECASE)
_RENUMBER = re.compile(r"^renumber\s+rule\s+" + _RULE_NAMED + r"\s+(?:to|as)\s+([0-9]+)\s*\.?$", re.IGNORECASE)
_RETITLE = re.compile(r"^retitle\s+rule\s+" + _RULE_NAMED + r"\s+(?:to|as)\s+[\"\u201c](.*)[\"\u201d]\s*\.?$",
                      re.IGNORECASE)
# Format 1.1, with rules.power: an enactment with a power, and a change of a rule's power.
_POWER_CHANGE_START = re.compile(r"^(?:enact\s+(?:(?:im)?mutable\s+)?power\s+[0-9]|change\s+the\s+power\s+of\s+rule\b)",
                                 re.IGNORECASE)
# With rules.power, any enactment that names a power is read as one, so that a bad power is an error.
_POWER_CHANGE_START_LOOSE = re.compile(r"^(?:enact\s+(?:(?:im)?mutable\s+)?power\s|change\s+the\s+power\s+of\s+rule\b)",
                                       re.IGNORECASE)
_SET_POWER = re.compile(r"^change\s+the\s+power\s+of\s+rule\s+" + _RULE_NAMED + r"\s+to\s+(\S+?)\s*\.?$",
                        re.IGNORECASE)
_QUOTED = re.compile(r"\s*(?:\"([^\"]*)\"|\u201c([^\u201d]*)\u201d)")
_EDIT_VERB = re.compile(r"(replacing|deleting)\s+", re.IGNORECASE)
_EDIT_WITH = re.compile(r"with\s*", re.IGNORECASE)
_EDIT_SEPARATOR = re.compile(r"(?:,\s*and|,|and)\s*", re.IGNORECASE)
_SPACES = re.compile(r"\s*")

CHANGE_EXAMPLES = ('Amend rule 203 to read:', 'Amend rule 203 by replacing "x" with "y".',
                   'Amend rule 203 by deleting "x".', 'Amend rule 203 by appending:', 'Repeal rule 204.',
                   'Enact rule: Title', 'Transmute rule 109 to mutable.', 'Renumber rule 305 to 220.',
                   'Retitle rule 203 to "Quorum".', 'Reenact rule 2531.', 'Annotate rule 2166:',
                   'Unannotate rule 2166:')


# Reads one entry: (file, lines, tokens, index of its heading token, the heading, its blocks, the line after
# it, errors) -> the entry, or None when its heading is not one.
EntryReader = Callable[[str, list[str], list[Token], int, Token, list[tuple[int, Token]], int, ErrorCollector],
                       Any]


def parse_log(files: list[tuple[str, str]], errors: ErrorCollector, *, power: bool = False,
              read_entry: EntryReader | None = None, cache: Cache | None = None,
              jobs: int = 1, parser: LogParser | None = None) -> tuple[str, list[Entry]]:
    """Entries from each (file, text) in order; the first file's text before any entry is the preamble.
    `power`: the game's rules carry a power (format 1.1), so `Change the power of rule N to P.` is a change.
    `read_entry` reads one entry of another kind of log (a solitaire game's turns) with the same headings,
    key paragraphs and bodies; by default, proposals, judgments and events. With a cache, entries parsed by
    an earlier run are read from it (see `LogParser.parse_log_file`); with `jobs` > 1, a long file's entries
    are parsed on that many cores; `parser`, one that parsed these files before and remembers their parses."""
    dialect = Dialect(power, read_entry)
    parser = parser or LogParser(remembers=False)
    preamble = ""
    entries: list[Entry] = []
    for position, (file, text) in enumerate(files):
        room = MAX_GAME_ENTRIES - len(entries)
        # (a file the parser holds as it is was parsed within the cap: its entries are counted below, at no cost)
        known = parser.files.get((file, dialect), ("",))[0] == text
        if not known and (past := _past_the_cap(text, room)) is not None:
            errors.add(file, past, _too_many_entries())
            break
        file_preamble, file_entries, file_errors = parser.parse_log_file(file, text, dialect, cache, jobs=jobs)
        if len(file_entries) > room:
            errors.add(file, file_entries[room].source.line, _too_many_entries())
            break
        errors.extend(file_errors)
        if position == 0:
            preamble = file_preamble
        entries.extend(file_entries)
    return preamble, entries


class Dialect(NamedTuple):
    """How a log's entries read: with rules' powers (format 1.1) or not, and by which reader (None: proposals,
    judgments and events)."""

    power: bool = False
    read_entry: EntryReader | None = None

    @property
    def name(self) -> str:
        reader = self.read_entry
        return f"{self.power}:{reader.__module__}.{reader.__qualname__}" if reader else f"{self.power}"


# Where an entry may start: a level-2 heading at the start of a line (setext headings and headings
# indented by one to three spaces are rare; a file holding one is parsed whole), and the fence lines
# of top-level code blocks, inside which nothing starts. Each pattern starts with a newline: the regular
# expression engine then looks for its first characters as a string, many times faster than for `^`.
_HEADING_LINE = re.compile(r"\n##(?=[ \t\n]|$)")
_FENCE_LINE = re.compile(r"\n {0,3}(`{3,}|~{3,})([^\n]*)")
# The most entries a LogParser remembers (the oldest used forgotten first), and how many more than twice those of
# the files' last cuts it lets gather before it forgets those (LogParser._bound).
_ENTRY_CACHE_SIZE = 200_000
_SPARE_ENTRIES = 1000


def _too_many_entries() -> str:
    return (f"the log's entry number {MAX_GAME_ENTRIES + 1:,} starts here; a game's log may hold at most "
            f"{MAX_GAME_ENTRIES:,} entries (room for 50,000 proposals with their judgments and events): split the "
            "game into rounds, a game folder each")


def _past_the_cap(text: str, room: int) -> int | None:
    """The line (from 1) where the text's entry past `room` more starts, None where they fit: counted first by the
    headings alone (a parse takes memory by the entry: a game's cap must hold before it), then, where those are past
    it, as the log is cut (a heading in a code block starts no entry)."""
    headings = _HEADING_LINE.finditer("\n" + text)
    if sum(1 for _ in islice(headings, room + 1)) <= room:
        return None
    _, chunks = split_entries(text)
    return chunks[room][0] + 1 if len(chunks) > room else None


def split_entries(text: str) -> tuple[str, list[tuple[int, str]]]:
    """The text before the first entry, and each entry's text with the (0-based) line it starts on."""
    preamble, chunks, _ = _split(text)
    return preamble, chunks


def _split(text: str) -> tuple[str, list[tuple[int, str]], bool]:
    """split_entries(text), and whether a code block is still open at its end."""
    lined = "\n" + text  # every line, the first included, after a newline; positions are one on
    marks = sorted([(m.start(), None, "") for m in _HEADING_LINE.finditer(lined)]
                   + [(m.start(), m.group(1), m.group(2)) for m in _FENCE_LINE.finditer(lined)])
    starts: list[tuple[int, int]] = []  # (offset in text, line) of each heading
    fence: tuple[str, int] | None = None  # the open fence's character and length
    line = last = 0
    for at, marker, rest in marks:
        if marker is None:
            if fence is None:
                line += text.count("\n", last, at)
                last = at
                starts.append((at, line))
        elif fence is None:
            if not (marker[0] == "`" and "`" in rest):  # a backtick fence's info has no backtick
                fence = (marker[0], len(marker))
        elif marker[0] == fence[0] and len(marker) >= fence[1] and not rest.strip():
            fence = None
    if not starts:
        return text, [], fence is not None
    ends = [offset for offset, _ in starts[1:]] + [len(text)]
    chunks = [(first, text[offset:end]) for (offset, first), end in zip(starts, ends)]
    return text[:starts[0][0]], chunks, fence is not None


# What a record of one parsed entry holds: anything else under an entry's key is a miss.
ParsedEntry = Union[Entry, Turn]
# Where an entry of a file's record is: (its key in the cache, its first line), or the entry itself.
Place = tuple[bytes, int] | None
# A file's record (see _file_record): its preamble, its errors, and where each of its entries is.
FileRecord = tuple[str, tuple[SourceError, ...], list[Union[tuple[bytes, int], ParsedEntry]]]


class LogParser:
    """Parses log files entry by entry, remembering for its next parse of the same files (serve, at each save)
    each entry's parse by its text, each file's last text and parse, and each file's last cut into entries, so
    that a save re-parses only the entries it changed. One is owned by whoever parses again (serve's
    pipeline); a build or a check parses once with a new one (the cache keeps parses between runs).
    `remembers`: False for one that parses once and is dropped (`parse_log`'s own, a build's): it keeps neither
    texts nor parses (at 10,000 proposals, the log and its 10,000 cut texts: 10 MB a build would hold to its
    end), and a file read whole from the cache is not cut into entries again (a twentieth of a check)."""

    def __init__(self, *, remembers: bool = True) -> None:
        self.remembers = remembers
        # The parses of single entries, by (file, text, dialect, whether it ends the file: the file's end is the
        # end of its last entry): an entry moved by an edit above it is not parsed again.
        self.entries: OrderedDict[tuple[str, str, Dialect, bool], Entry] = OrderedDict()
        # The last parse of each log file, by (file, dialect): the same text again is the same parse.
        self.files: dict[tuple[str, Dialect], tuple[str, tuple]] = {}
        # Each text of a log file's last parse, with its first line and the entry it gave (None: none, or one
        # with errors), by (file, dialect).
        self.last_parse: dict[tuple[str, Dialect], list[tuple[int, str, Entry | None]]] = {}

    def forget(self, files: Iterable[str]) -> None:
        """The files of a game that went, or that its log no longer has: their last texts, cuts and parses, and the
        entries of their texts."""
        gone = set(files)
        if not gone:  # (serve asks at every save; 10,000 entries need not be looked at for nothing)
            return
        for key in [key for key in self.files if key[0] in gone]:
            del self.files[key]
            self.last_parse.pop(key, None)
        for key in [key for key in self.entries if key[0] in gone]:
            del self.entries[key]

    def _bound(self) -> None:
        """The entries remembered kept to those of each file's last cut and as many again (the texts an edit
        replaced, which an undo brings back): beyond that, the others are forgotten, so that serve's memo does not
        grow with its saves (a save of a 10,000-entry log adds one entry)."""
        live = sum(map(len, self.last_parse.values()))
        if len(self.entries) <= 2 * live + _SPARE_ENTRIES:
            return
        keep = {(file, chunk, dialect, position == len(cut) - 1) for (file, dialect), cut in self.last_parse.items()
                for position, (_, chunk, entry) in enumerate(cut) if entry is not None}
        for key in [key for key in self.entries if key not in keep]:
            del self.entries[key]

    def parse_log_file(self, file: str, text: str, dialect: Dialect = Dialect(), cache: Cache | None = None, *,
                       jobs: int = 1) -> tuple[str, tuple[Entry, ...], tuple[SourceError, ...]]:
        """One log file, entry by entry: each entry's parse is kept (in memory, and in `cache` between runs)
        by its text, and moved to its line, so a save re-parses only the entries it changed. A file whose cut
        into entries the Markdown parser would not confirm (a setext heading, an unusual fence) is parsed whole.
        An unchanged file comes from the cache in one piece."""
        last = self.files.get((file, dialect))
        if last is not None and last[0] == text:  # serve reads every log file at each save; one changed
            return last[1]
        whole_key = digest(program_digest(), dialect.name, "file", file, text) if cache else b""
        if cache and (stored := _read_file_record(cache, whole_key)) is not None:
            parsed = stored
            if self.remembers:
                self._keep_entries(file, dialect, text, parsed)
        elif cache is None and (edited := self._parse_edit(file, text, dialect)) is not None:
            parsed = edited
        else:
            parsed, places = self._parse_entries(file, text, dialect, cache, jobs)
            if cache:
                cache.put_value(whole_key, _file_record(parsed, places), FileRecord)
        if self.remembers:
            self.files[(file, dialect)] = (text, parsed)
            self._bound()
        return parsed

    def _parse_edit(self, file: str, text: str, dialect: Dialect) -> tuple[str, tuple[Entry, ...], tuple[SourceError, ...]] | None:
        """The parse of a file whose last parse was clean (each text an entry, no error), after an edit of a few of
        its entries (serve, at a save): the texts between the first and the last the edit changed are cut again and
        each parsed or taken as it was (moved to its line), the others are the last parse's, those after them moved
        (model.Source): as `_parse_entries` would have them, without its passes over every entry (a tenth of an
        edit's time in a log of 10,000 entries in one file). None when that does not hold."""
        last, old = self.last_parse.get((file, dialect)), self.files.get((file, dialect))
        if not last or old is None:
            return None
        old_preamble, old_entries, old_errors = old[1]
        region = None if old_errors or len(old_entries) != len(last) else _edited_region(last, old[0], text)
        if region is None:
            return None
        _, before, middle, after, moved = region
        count = before + len(middle) + len(last) - after
        if count == before:  # the file's last texts removed: the one now last, not parsed as the last, is read again
            if not before:
                return None
            before -= 1
            middle = [last[before][:2]]
        unused = {id(entry): entry for entry in old_entries[before:after]}  # the entries a text between may keep
        between = []
        for position, (first, chunk) in enumerate(middle, before):
            key = (file, chunk, dialect, position == count - 1)
            entry = self.entries.get(key)
            if entry is not None and unused.pop(id(entry), None) is entry:  # a text the edit left as it was
                entry.source.anchor.first = first
            else:
                entry, errors, whole = _parse_chunk(file, chunk, first, dialect, last=position == count - 1)
                if entry is None or errors or not whole:
                    return None
                # Parsed as the entry that stood here was (the last entry, an entry now appended after it): that
                # one, so that the replay resumes after it
                was = old_entries[position] if position < after else None
                if was is not None and id(was) in unused and was == entry:
                    entry = unused.pop(id(was))
                    self._forget((file, last[position][1], dialect, position == len(last) - 1), entry)
                self._remember(key, entry)
            between.append(entry)
        if after - before == len(between):  # each replaced entry's places follow the new one's (_follow_edited_entries)
            for position, (_, old_chunk, was), now in zip(range(before, after), last[before:after], between):
                if id(was) in unused:
                    self._forget((file, old_chunk, dialect, position == len(last) - 1), was)
                    _follow(was, now)
        following = old_entries[after:]
        if moved:
            for entry in following:
                entry.source.anchor.first += moved
        self.last_parse[(file, dialect)] = (last[:before] + [(first, chunk, entry) for (first, chunk), entry in zip(middle, between)]
                                        + [(first + moved, chunk, entry) for first, chunk, entry in last[after:]])
        return old_preamble, old_entries[:before] + tuple(between) + following, ()

    def _keep_entries(self, file: str, dialect: Dialect, text: str, parsed: tuple[str, tuple[Entry, ...], tuple]) -> None:
        """The entries of a file's parse read whole from the cache, kept as `_parse_entries` keeps those it parses,
        so that the next edit of the file parses only the entries it changed."""
        _, entries, errors = parsed
        _, chunks = split_entries(text)
        at_line = {entry.source.line: entry for entry in entries if entry.source.anchor is not None}
        if errors or len(at_line) != len(chunks):
            self.last_parse.pop((file, dialect), None)
            return
        self.last_parse[(file, dialect)] = [(first, chunk, at_line.get(first + 1)) for first, chunk in chunks]
        for position, (_, chunk, entry) in enumerate(self.last_parse[(file, dialect)]):
            self._remember((file, chunk, dialect, position == len(chunks) - 1), entry)

    def _parse_entries(self, file: str, text: str, dialect: Dialect, cache: Cache | None, jobs: int
                       ) -> tuple[tuple[str, tuple[Entry, ...], tuple[SourceError, ...]], list[Place]]:
        """The file's parse, and where the cache keeps each of its entries (see `_file_record`)."""
        preamble_text, chunks, known = self._cut(file, dialect, text)
        if not _preamble_confirmed(preamble_text, entries_follow=bool(chunks)):
            return self._parsed_whole(file, text, dialect)
        placed: set[int] = set()  # the entries placed in this parse, by id: a text written twice is two entries
        missing: list[int] = []
        found: list[tuple[Entry | None, tuple[SourceError, ...]] | None] = []
        keys = [(file, chunk, dialect, position == len(chunks) - 1) for position, (_, chunk) in enumerate(chunks)]
        # Each entry's key in the cache, once (serve keeps no cache: it need not digest 10,000 entries at each save)
        stored_keys = list(map(_entry_key, keys)) if cache else []
        for position, (first, _) in enumerate(chunks):
            kept = known.get(position)
            if kept is None and (kept := self.entries.get(keys[position])) is not None:
                self.entries.move_to_end(keys[position])
            if kept is not None:
                found.append((_place(kept, first, placed), ()))
            else:
                found.append(None)
                missing.append(position)
        stored = cache.values([stored_keys[p] for p in missing], ParsedEntry) if missing and cache else {}
        for position in missing:
            if stored_keys and stored_keys[position] in stored:
                found[position] = (_place(stored[stored_keys[position]], chunks[position][0], placed), ())
                self._remember(keys[position], found[position][0])
        fresh = [p for p in missing if not stored_keys or stored_keys[p] not in stored]
        records = []
        for position, (entry, entry_errors, whole) in zip(fresh, _parse_chunks(file, chunks, fresh, dialect, jobs)):
            if not whole:
                return self._parsed_whole(file, text, dialect)
            found[position] = (entry, entry_errors)
            if not entry_errors and entry is not None:  # messages name lines, so only clean parses are moved
                self._remember(keys[position], entry)
                if cache:
                    records.append((stored_keys[position], entry))
        if records:
            cache.put_values(records, ParsedEntry, beside=jobs > 1 and len(records) >= PARALLEL_ENTRIES)
        self._follow_edited_entries(file, dialect, chunks, found, placed)
        entries: list[Entry] = []
        places: list[Place] = []
        errors: list[SourceError] = []
        for position, (entry, entry_errors) in enumerate(found):
            if entry is not None:
                entries.append(entry)
                places.append((stored_keys[position], chunks[position][0]) if cache and not entry_errors else None)
            errors.extend(entry_errors)
        preamble_lines = preamble_text.split("\n")
        preamble = slice_lines(preamble_lines, 0, len(preamble_lines))
        if "#" in preamble_text:
            found_there = ErrorCollector()
            _misleveled_headings(file, preamble_lines, [(i, t) for i, t in enumerate(_block_markdown().parse(
                preamble_text)) if t.level == 0 and t.nesting >= 0 and t.map is not None], len(preamble_lines),
                found_there)
            errors[:0] = found_there.errors
        return (preamble, tuple(entries), tuple(errors)), places

    def _parsed_whole(self, file: str, text: str, dialect: Dialect
                      ) -> tuple[tuple[str, tuple[Entry, ...], tuple[SourceError, ...]], list[Place]]:
        """The file parsed in one piece, as `_parse_entries` gives it: no entry of it is kept alone."""
        self.last_parse.pop((file, dialect), None)
        parsed = _parse_whole(file, text, dialect)
        return parsed, [None] * len(parsed[1])

    def _cut(self, file: str, dialect: Dialect, text: str) -> tuple[str, list[tuple[int, str]], dict[int, Entry]]:
        """split_entries(text), and the entries of the file's last parse that an edit left as they were (by their
        position in this cut): where the last parse's texts still begin and end the file, only the text between
        them is cut again (`_edited_region`)."""
        last, old = self.last_parse.get((file, dialect)), self.files.get((file, dialect))
        region = _edited_region(last, old[0], text) if last and old is not None else None
        if region is None:
            return *split_entries(text), {}
        preamble, before, middle, after, moved = region
        chunks = ([(first, chunk) for first, chunk, _ in last[:before]] + middle
                  + [(first + moved, chunk) for first, chunk, _ in last[after:]])
        # (An entry parsed as the file's last is known only where it still is the last, and the reverse.)
        known = {position: entry for position, (_, _, entry) in enumerate(last[:before])
                 if entry is not None and (position == len(last) - 1) == (position == len(chunks) - 1)}
        shift = before + len(middle) - after
        known.update((position + shift, entry) for position, (_, _, entry) in enumerate(last[after:], after)
                     if entry is not None and (position == len(last) - 1) == (position + shift == len(chunks) - 1))
        return preamble, chunks, known

    def _follow_edited_entries(self, file: str, dialect: Dialect, chunks: list[tuple[int, str]],
                               found: list[tuple[Entry | None, tuple[SourceError, ...]] | None], placed: set[int]) -> None:
        """Where an edit replaced an entry (the file cut into as many entries as before, this one's text changed),
        the old entry's places move to the new one's (model.Source.follow): what the last replay found of
        the old entry (a rule version, a finding naming its line) names the lines of the file as it is now, and
        the replay can tell that nothing but the text it edited changed. The old entry is forgotten: its places
        are not its own any more."""
        if not self.remembers:
            return
        last = self.last_parse.get((file, dialect))
        self.last_parse[(file, dialect)] = [(first, chunk, None if item is None or item[1] else item[0])
                                        for (first, chunk), item in zip(chunks, found)]
        if last is None or len(last) != len(chunks):
            return
        for position, ((_, old_chunk, old), item) in enumerate(zip(last, found)):
            new = item[0] if item else None
            if old is None or new is None or old is new or id(old) in placed or item[1]:
                continue
            self._forget((file, old_chunk, dialect, position == len(last) - 1), old)
            _follow(old, new)

    def _forget(self, key: tuple[str, str, Dialect, bool], entry: Entry) -> None:
        """An entry an edit replaced no longer kept by its text: its places are not its own any more."""
        if self.entries.get(key) is entry:
            del self.entries[key]

    def _remember(self, key: tuple[str, str, Dialect, bool], entry: Entry) -> None:
        if not self.remembers:
            return
        self.entries[key] = entry
        if len(self.entries) > _ENTRY_CACHE_SIZE:
            self.entries.popitem(last=False)


def _file_record(parsed: tuple[str, tuple[Entry, ...], tuple[SourceError, ...]], places: list[Place]) -> FileRecord:
    """A file's parse as the cache keeps it: the entries the cache holds each by its key and first line (the
    file whole in one record would cost as much again as the entries' own), the others whole."""
    preamble, entries, errors = parsed
    return preamble, errors, [place or entry for entry, place in zip(entries, places)]


def _read_file_record(cache: Cache, key: bytes) -> tuple[str, tuple[Entry, ...], tuple[SourceError, ...]] | None:
    """The parse `_file_record` kept under `key`, or None (a miss) when it or an entry it names is not there."""
    record = cache.value(key, FileRecord)
    if record is None:
        return None
    preamble, errors, items = record
    stored = cache.values([item[0] for item in items if type(item) is tuple], ParsedEntry)
    entries = []
    placed: set[int] = set()
    for item in items:
        if type(item) is tuple:
            entry = stored.get(item[0])
            if entry is None:
                return None
            item = _place(entry, item[1], placed)
        entries.append(item)
    return preamble, tuple(entries), errors


def _edited_region(last: list[tuple[int, str, Entry | None]], old_text: str, text: str
                   ) -> tuple[str, int, list[tuple[int, str]], int, int] | None:
    """Where `text` differs from `old_text`, whose cut is `last`: (the preamble, how many of the last texts
    still begin the file, the texts between cut again with their first lines, the position in `last` of the
    first of those that still end it, how many lines those moved); None when the preamble changed or the
    text between cannot be cut alone (the file is cut whole). A long log in one file is cut at each save in
    the time its edit takes."""
    starts = [0, *accumulate(map(len, map(itemgetter(1), last)))]  # of each text after the preamble, and the end
    preamble_length = len(old_text) - starts[-1]
    if text[:preamble_length] != old_text[:preamble_length]:
        return None
    # The texts that still begin the file (those inside the text the two share at their start), and where they end
    shared = _shared_start(old_text, text)
    before = bisect.bisect_right(starts, shared - preamble_length) - 1
    if before == len(last):  # a code block may be open at the end of the last: it is cut again with what follows
        before -= 1
    start = preamble_length + starts[before]
    # The same at its end, after those (no text counted twice): the first of the texts inside the text the two
    # share at their end, and where it starts in `text`.
    outside = len(old_text) - preamble_length - _shared_end(old_text, text, min(len(old_text), len(text)) - start)
    after = max(before, bisect.bisect_left(starts, outside, 0, len(last)))
    end = len(text) - (starts[-1] - starts[after])
    # The text between is cut alone: it must start with a heading and end with a line's end (an edit may have
    # run a text on past its end, or joined a heading to it: it is cut again with that text), and leave no code
    # block open over the texts after it.
    while True:
        if end and end < len(text) and text[end - 1] != "\n":
            end += len(last[after][1])
            after += 1
            continue
        lead, middle, fence_open = _split(text[start:end])
        if not lead and not fence_open:
            break
        if lead and before:
            before -= 1
            start -= len(last[before][1])
        else:
            return None
    line = last[before][0]  # the texts before it and their lines are as they were (not counted again: megabytes)
    moved = line + text.count("\n", start, end) - last[after][0] if after < len(last) else 0
    return (old_text[:preamble_length], before, [(line + first, chunk) for first, chunk in middle], after,
            moved)


# What two texts share at their start or end is found by comparing stretches that double in length, then halve:
# comparisons in C of megabytes, where comparing the entries of a long log one by one took milliseconds.
_FIRST_STRETCH = 4096


def _shared_start(a: str, b: str) -> int:
    """The length of the longest text that both `a` and `b` begin with."""
    return _shared_length(lambda low, high: a.startswith(b[low:high], low), min(len(a), len(b)))


def _shared_end(a: str, b: str, limit: int) -> int:
    """The length of the longest text, at most `limit` long, that both `a` and `b` end with."""
    return _shared_length(lambda low, high: a.endswith(b[len(b) - high:len(b) - low], 0, len(a) - low),
                          min(len(a), len(b), limit))


def _shared_length(shared: Callable[[int, int], bool], limit: int) -> int:
    """The longest length, at most `limit`, whose every stretch [low, high) is `shared` (the stretches of the
    first `low` characters being shared already)."""
    low, size = 0, _FIRST_STRETCH
    while low < limit:
        high = min(low + size, limit)
        if shared(low, high):
            low, size = high, size * 2
            continue
        while high - low > 1:  # the first `low` are shared, and the two differ within [low, high)
            middle = (low + high) // 2
            if shared(low, middle):
                low = middle
            else:
                high = middle
        return low
    return limit


def _place(entry: Entry, first: int, placed: set[int]) -> Entry:
    """A kept entry at line `first` of its file: the same object, moved there (see model.Source); a copy when
    this parse placed it already (the same text written twice)."""
    if id(entry) in placed:
        entry = pickle.loads(pickle.dumps(entry, pickle.HIGHEST_PROTOCOL))
    placed.add(id(entry))
    anchor = entry.source.anchor
    if anchor is not None:
        anchor.first = first
    return entry


def _follow(old: Entry, new: Entry) -> None:
    """The places of an entry an edit replaced follow the new entry's (model.Source.follow)."""
    old_places, new_places = list(_sources_in(old)), list(_sources_in(new))
    if len(old_places) == len(new_places):
        for was, now in zip(old_places, new_places):
            was.follow(now)


def _anchored(entry: Entry, first: int) -> Entry:
    """A freshly parsed entry with its places held relative to line `first`, where its text starts."""
    anchor = LineAnchor(first)
    for source in _sources_in(entry):
        source.anchor_to(anchor)
    return entry


# Fewer entries than this are parsed faster in one process than the fork and the pickling back cost.
PARALLEL_ENTRIES = 2000


def _parse_chunks(file: str, chunks: list[tuple[int, str]], positions: list[int], dialect: Dialect, jobs: int
                  ) -> list[tuple[Entry | None, tuple[SourceError, ...], bool]]:
    """The parse of each chunk at `positions`, in order; on `jobs` cores when there are many."""
    last = len(chunks) - 1
    return map_shares(lambda p: _parse_chunk(file, chunks[p][1], chunks[p][0], dialect, last=p == last),
                      positions, jobs, PARALLEL_ENTRIES // 2)


def _entry_key(key: tuple[str, str, Dialect, bool]) -> bytes:
    """The cache's key of an entry's parse, from its key in memory (see LogParser.entries), under this program's
    code: a parse kept by another version of the parser is never read as this one's."""
    file, chunk, dialect, last = key
    return digest(program_digest(), dialect.name, file, chunk, "last" if last else "")


def _preamble_confirmed(preamble: str, *, entries_follow: bool) -> bool:
    """Whether Markdown finds no entry in `preamble` (no level-2 heading), and, when `entries_follow`, would
    end it where the first entry starts (no code block still open at its end: a fence inside a list item, which
    the list's end closes, is not one)."""
    lines = preamble.count("\n") + (0 if preamble.endswith("\n") else 1) + 1  # the entry's heading, after it
    return not any(t.type == "heading_open" and t.tag == "h2" and t.level == 0
                   or entries_follow and t.type == "fence" and t.level == 0 and t.map[1] >= lines
                   for t in _block_markdown().parse(preamble + "\n"))


def _parse_chunk(file: str, chunk: str, first: int, dialect: Dialect, *, last: bool
                 ) -> tuple[Entry | None, tuple[SourceError, ...], bool]:
    """One entry's text, starting at line `first` (0-based) of its file. The third value is False when the
    Markdown parser would not have cut the file here: a second level-2 heading in the text (setext), or a
    code fence still open at its end."""
    lines = _OffsetLines(chunk.split("\n"), first)
    text = chunk if last else chunk + "\n"
    tokens = _plain_entry_tokens(text) or _block_markdown().parse(text)
    line_max = chunk.count("\n") + (0 if chunk.endswith("\n") else 1) + (0 if last else 1)
    blocks = []
    for i, token in enumerate(tokens):
        if token.map is None:
            continue
        if token.type == "fence" and not last and token.map[1] >= line_max:
            return None, (), False
        token.map = [token.map[0] + first, token.map[1] + first]
        if token.level == 0 and token.nesting >= 0:
            blocks.append((i, token))
    headings = [b for b in blocks if b[1].type == "heading_open" and b[1].tag == "h2"]
    if len(headings) != 1 or blocks[0] is not headings[0]:
        return None, (), False
    errors = ErrorCollector()
    index, heading = blocks[0]
    end_line = first + list.__len__(lines) - (0 if last else 1)  # the next entry's heading, or the file's end
    if dialect.read_entry is not None:
        entry = dialect.read_entry(file, lines, tokens, index, heading, blocks[1:], end_line, errors)
    else:
        entry = _parse_entry(file, lines, tokens, index, heading, blocks[1:], end_line, errors, power=dialect.power)
    return entry and _anchored(entry, first), tuple(errors.errors), True


class _OffsetLines(list):
    """A part of a file's lines, indexed by the file's line numbers (0-based)."""

    def __init__(self, lines: list[str], offset: int):
        super().__init__(lines)
        self.offset = offset

    def __getitem__(self, index):
        if isinstance(index, slice):
            return list.__getitem__(self, slice(index.start - self.offset, index.stop - self.offset))
        return list.__getitem__(self, index - self.offset)

    def __len__(self) -> int:
        return list.__len__(self) + self.offset


# Values that hold no place: passed over (looked up by type, the quickest test there is).
_PLAIN = frozenset({str, int, bool, float, type(None), Fraction, dt.date})


def _sources_in(value) -> Iterator[Source]:
    """Every Source a parsed item holds, in the order of its fields."""
    kind = type(value)
    if kind is Source:
        yield value
    elif kind is tuple:
        for item in value:
            if type(item) not in _PLAIN:
                yield from _sources_in(item)
    elif dataclasses.is_dataclass(kind):
        for item in value.__dict__.values():
            if type(item) not in _PLAIN:
                yield from _sources_in(item)


# An entry of plain blocks (most are): its heading, then paragraphs and tight lists of "- " items, alone or in a
# quote ("> ", blocks parted by lines of ">"), parted by blank lines, each line starting with a letter after its
# mark, so that no other block starts or goes on there (and none ending in a space, which Markdown strips). Its
# tokens are the ones markdown-it's block parser gives (tests/test_parse.py holds them to it), written out
# here: parsing is half the time of reading a long log, and this a fraction of it.
_PLAIN_LINE = re.compile(r"[^\W\d_][^\n\r\x00]*(?<!\s)")
_PLAIN_HEADING = re.compile(r"## ([^\W\d_][^\n\r\x00]*(?<![\s#]))")


def _plain_entry_tokens(text: str) -> list[Token] | None:
    """markdown-it's block tokens of an entry of plain blocks (above), or None when it is not one."""
    lines = text.split("\n")
    count = len(lines) - 1 if text.endswith("\n") else len(lines)  # the lines markdown-it counts
    heading = _PLAIN_HEADING.fullmatch(lines[0])
    if heading is None:
        return None
    tokens = [Token("heading_open", "h2", 1, map=[0, 1], markup="##", block=True),
              Token("inline", "", 0, map=[0, 1], level=1, content=heading[1], children=[], block=True),
              Token("heading_close", "h2", -1, markup="##", block=True)]
    return tokens if _plain_blocks(lines, 1, count, 0, tokens) else None


def _plain_blocks(lines: list[str], start: int, count: int, level: int, tokens: list[Token]) -> bool:
    """Adds to `tokens` those of the plain blocks of lines[start:count], at `level` (0, or 1 in a quote, whose
    lines come without their marks); False when they are not plain."""
    after_list = False
    while start < count:
        if not lines[start]:
            start += 1
            continue
        end = start
        while end < count and lines[end]:
            end += 1
        block = lines[start:end]
        if block[0].startswith("> ") and not level:  # (no quote in a quote)
            if block[-1].rstrip() == ">" or not all(line == ">" or line.startswith("> ") for line in block):
                return False  # (a quote closing on blank lines may run on past them)
            tokens.append(Token("blockquote_open", "blockquote", 1, map=[start, end], markup=">", block=True))
            quoted = [""] * start + [line[2:] for line in block]  # its lines of ">" are its blank lines
            if not _plain_blocks(quoted, start, end, 1, tokens):
                return False
            tokens.append(Token("blockquote_close", "blockquote", -1, markup=">", block=True))
            after_list = False
        elif block[0].startswith("- "):
            if after_list or not all(line.startswith("- ") and _PLAIN_LINE.fullmatch(line, 2) for line in block):
                return False  # two lists parted by blank lines are one loose list
            last = end  # the list, and its last item, run on over the blank lines after it
            while last < count and not lines[last]:
                last += 1
            tokens.append(Token("bullet_list_open", "ul", 1, map=[start, last], level=level, markup="-", block=True))
            for line in range(start, end):
                tokens.append(Token("list_item_open", "li", 1, map=[line, line + 1 if line + 1 < end else last],
                                    level=level + 1, markup="-", block=True))
                tokens += _paragraph([lines[line][2:]], line, line + 1, level + 2, hidden=True)
                tokens.append(Token("list_item_close", "li", -1, level=level + 1, markup="-", block=True))
            tokens.append(Token("bullet_list_close", "ul", -1, level=level, markup="-", block=True))
            after_list = True
        else:
            if not all(_PLAIN_LINE.fullmatch(line) for line in block):
                return False
            tokens += _paragraph(block, start, end, level)
            after_list = False
        start = end
    return True


def _paragraph(lines: list[str], start: int, end: int, level: int, hidden: bool = False) -> list[Token]:
    return [Token("paragraph_open", "p", 1, map=[start, end], level=level, block=True, hidden=hidden),
            Token("inline", "", 0, map=[start, end], level=level + 1, content="\n".join(lines), children=[],
                  block=True),
            Token("paragraph_close", "p", -1, level=level, block=True, hidden=hidden)]


@functools.cache
def _block_markdown() -> MarkdownIt:
    """The archive dialect (parse/source.py) without inline parsing: the log reads blocks and their text."""
    return new_markdown().disable(["inline", "text_join"])


@functools.lru_cache(maxsize=64)
def _parse_whole(file: str, text: str, dialect: Dialect = Dialect()
                 ) -> tuple[str, tuple[Entry, ...], tuple[SourceError, ...]]:
    """A log file parsed in one piece, cached by its text (entries are immutable)."""
    errors = ErrorCollector()
    preamble, entries = _parse_file(file, text, errors, power=dialect.power, read_entry=dialect.read_entry)
    return preamble, tuple(entries), tuple(errors.errors)


def _parse_file(file: str, text: str, errors: ErrorCollector, *, draft: bool = False,
                power: bool = False, read_entry: EntryReader | None = None) -> tuple[str, list[Entry]]:
    lines = text.split("\n")
    tokens = markdown().parse(text)
    blocks = [(i, t) for i, t in enumerate(tokens) if t.level == 0 and t.nesting >= 0 and t.map is not None]
    first_heading = next((t for _, t in blocks if t.type == "heading_open" and t.tag == "h2"), None)
    first_line = first_heading.map[0] if first_heading else len(lines)
    preamble = slice_lines(lines, 0, first_line)
    _misleveled_headings(file, lines, [block for block in blocks if block[1].map[0] < first_line], first_line, errors)
    entries: list[Entry] = []
    # Blocks are in document order: each entry takes the run of blocks up to the next heading (linear).
    heading_positions = [position for position, (_, t) in enumerate(blocks) if t.type == "heading_open" and t.tag == "h2"]
    for number, position in enumerate(heading_positions):
        index, heading = blocks[position]
        following = heading_positions[number + 1] if number + 1 < len(heading_positions) else len(blocks)
        end_line = blocks[following][1].map[0] if following < len(blocks) else len(lines)
        if read_entry is not None:
            entry = read_entry(file, lines, tokens, index, heading, blocks[position + 1:following], end_line, errors)
        else:
            entry = _parse_entry(file, lines, tokens, index, heading, blocks[position + 1:following], end_line,
                                 errors, draft=draft, power=power)
        if entry is not None:
            entries.append(entry)
    return preamble, entries


def parse_draft(file: str, text: str, errors: ErrorCollector, *, power: bool = False) -> Proposal | None:
    """A drafted proposal (drafts/*.md): one entry in the log's format, its number optional."""
    _, entries = _parse_file(file, text, errors, draft=True, power=power)
    proposals = [e for e in entries if isinstance(e, Proposal)]
    if not proposals:
        errors.add(file, 1, "a draft must hold one '## Proposal: Title' entry")
        return None
    for extra in entries[1:]:  # never read and dropped in silence
        errors.add(file, extra.source.line, f"a draft holds one proposal, and this is a second entry (after the one "
                   f"at line {entries[0].source.line}): give it a draft of its own")
    return proposals[0]


class _Heading(NamedTuple):
    """What an entry's heading says: its kind, its place, and what the kind's pattern read of it (None: a draft's
    heading, `## Proposal: Title`, which names no number)."""

    kind: "_EntryKind"
    file: str
    line: int
    text: str
    match: re.Match | None

    @property
    def source(self) -> Source:
        return Source(self.file, self.line)


class _EntryKind(NamedTuple):
    """A kind of log entry: its name, the headings that start one, its keys, and its reader (the heading, its keys,
    the fields every kind has, the text `As proposed:` gives, the errors) -> the entry, or None."""

    name: str
    patterns: tuple[re.Pattern, ...]
    keys: tuple[str, ...]
    read: Callable[[_Heading, "Keys", dict, str, ErrorCollector], Entry | None]


def _parse_entry(file: str, lines: list[str], tokens: list[Token], index: int, heading: Token,
                 blocks: list[tuple[int, Token]], end_line: int, errors: ErrorCollector, *,
                 draft: bool = False, power: bool = False) -> Entry | None:
    """One entry: its heading names its kind (ENTRY_KINDS), whose reader makes it of the key paragraph and the
    fields every kind has (the date, the body, the changes, the claims)."""
    head = _read_heading(file, tokens[index + 1].content.strip(), heading.map[0] + 1, draft, errors)
    if head is None:
        return None
    _misleveled_headings(file, lines, blocks, end_line, errors)
    keys = _read_keys(file, tokens, blocks, head.kind.keys, head.kind.name, errors)
    body, body_start = entry_body(lines, heading, keys, end_line)
    body_blocks = [(i, t) for i, t in blocks if t.map[0] >= body_start]
    proposed: str | None = ""  # None: `As proposed: not recorded`
    if head.kind.name == "proposal" and (found := _as_proposed(file, lines, tokens, body_blocks, errors)) is not None:
        proposed, (first, last) = found
        body = "\n\n".join(part for part in (slice_lines(lines, body_start, first), slice_lines(lines, last, end_line))
                             if part)
        body_blocks = [(i, t) for i, t in body_blocks if not first <= t.map[0] < last]
    changes = _read_changes(file, lines, tokens, body_blocks, errors, power)
    date, month_only = _read_date(file, keys, head.kind.name, head.source, errors,
                                  draft=draft or head.kind.name == "unrecorded")
    by = keys.one("by")
    common = dict(
        date=date, month_only=month_only, by=by[0] if by else "", by_source=Source(file, by[1]) if by else None,
        source=head.source, body=body,
        notes=tuple(value for value, _ in keys.all("note")),
        changes=tuple(changes),
        effects=tuple(_read_effects(file, keys, errors)),
        points=tuple(_read_points(file, keys, errors)),
        scores=_read_scores(file, keys, errors),
        winner=_read_winner(file, keys, errors),
    )
    return head.kind.read(head, keys, common, proposed, errors)


def _read_heading(file: str, text: str, line: int, draft: bool, errors: ErrorCollector) -> _Heading | None:
    """The kind of entry a heading starts, or None with an error when it starts none."""
    for kind in ENTRY_KINDS:
        for pattern in kind.patterns:
            if m := pattern.match(text):
                return _Heading(kind, file, line, text, m)
    if draft and text.lower().startswith("proposal"):
        return _Heading(ENTRY_KINDS[0], file, line, text, None)
    if unnumbered := _UNNUMBERED_PROPOSAL.match(text):  # a draft moved into the log as it was
        errors.add(file, line, f"'## {text}' has no number: a proposal in the log is numbered, as '## Proposal N: "
                   f"{unnumbered.group(1) or 'Title'}' (only a draft's number may be left out)")
        return None
    errors.add(file, line, f"'## {text}' is not an entry: a log heading starts with "
               "'Proposal 301', 'Judgment 7', 'Event:' or 'Unrecorded:'")
    return None


_UNNUMBERED_PROPOSAL = re.compile(r"proposal\s*:\s*(.*)", re.IGNORECASE)
# An entry's heading as a newcomer may write it: at level 1 or 3 (Markdown reads a heading of the text above or
# of the entry before), or with no space after its marks (a paragraph): no entry starts there, and what follows
# is read as text. Told when key lines follow it, as they follow an entry's heading.
_ENTRY_LIKE_HEADING = re.compile(r" {0,3}(#{1,6})(\s*)((?:proposal\s+#?\w|judgment\s+\w|event\s*:|unrecorded\s*:).*)",
                                 re.IGNORECASE)
_KEY_LINE_START = re.compile(r"\s*[A-Za-z][A-Za-z ]*:")


def _misleveled_headings(file: str, lines: Sequence[str], blocks: list[tuple[int, Token]], end_line: int,
                         errors: ErrorCollector) -> None:
    """An error for each block of `blocks` (level-0 tokens, each mapped to `lines`) that starts with an entry's
    heading Markdown does not read as one, key lines after it (up to `end_line`)."""
    for _, token in blocks:
        if token.type not in ("heading_open", "paragraph_open"):
            continue
        line = token.map[0]
        found = _ENTRY_LIKE_HEADING.fullmatch(lines[line].rstrip())
        if found is None or (found[1] == "##" and found[2]):
            continue
        following = next((lines[at] for at in range(line + 1, end_line) if lines[at].strip()), "")
        if not _KEY_LINE_START.match(following):
            continue
        written, heading = lines[line].strip(), found[3].strip()
        why = f"is a level-{len(found[1])} heading" if found[2] else f"is no heading (no space after '{found[1]}')"
        errors.add(file, line + 1, f"'{written}' {why}, so no entry starts there and what follows is read as "
                   f"text: an entry's heading is level 2, '## {heading}'")


def _read_proposal(head: _Heading, keys: Keys, common: dict, proposed: str, errors: ErrorCollector) -> Proposal:
    file, line, m = head.file, head.line, head.match
    decision = _DECISION_AGAIN.match(m.group(1)) if m else None
    number = read_number(file, line, decision.group(1) if decision else m.group(1) if m else None, "proposal",
                         errors)
    title = (m.group(2) or "").strip() if m else head.text.partition(":")[2].strip()
    proposer = keys.one("proposer")
    if proposer is None or not proposer[0]:
        errors.add(file, line, f"proposal {number or ''} has no Proposer".replace("  ", " "))
    else:
        _check_name(file, proposer[1], proposer[0], errors)
    votes, votes_source = _read_ballots(file, keys, errors)
    result = _read_result(file, keys, errors)
    turn = keys.one("turn")
    if turn and turn[0].lower() != "extra":
        errors.add(file, turn[1], f"'Turn: {turn[0]}' on a proposal: the only value is 'extra' "
                   "(a proposal that takes no turn of its own)")
    if result and result.result != "adopted" and common["effects"]:
        errors.add(file, common["effects"][0].source.line,
                   f"an Effect on a {result.result} proposal: only an adopted proposal changes the mechanics")
    coauthors = keys.one("co-authors")
    return Proposal(title=title, number=number or 0, decision=decision.group(2) if decision else "",
                    **_read_decision_keys(file, keys, errors),
                    proposer=proposer[0] if proposer else "",
                    proposer_source=Source(file, proposer[1]) if proposer else None,
                    coauthors=tuple(_check_name(file, coauthors[1], name, errors)
                                    for name in split_names(coauthors[0])) if coauthors else (),
                    proposed=proposed or "", proposed_unrecorded=proposed is None,
                    votes=votes, votes_source=votes_source, result=result, die=_read_die(file, keys, errors),
                    extra_turn=bool(turn and turn[0].lower() == "extra"), **common)


def _read_ballots(file: str, keys: Keys, errors: ErrorCollector) -> tuple[Votes | None, Source | None]:
    """A proposal's `Votes:` (by name) or `Tally:` (counts, format 1.2), and its place: one of them, never both."""
    votes, votes_source = _read_votes(file, keys, errors)
    if (tally := keys.one("tally")) is None:
        return votes, votes_source
    if votes is not None:
        errors.add(file, tally[1], f"'Tally:' and 'Votes:' (line {votes_source.line}) on one proposal: record "
                   "the ballots once, by name (Votes) or as counts (Tally)")
        return votes, votes_source
    return _read_tally(file, tally, errors), Source(file, tally[1])


def _read_judgment(head: _Heading, keys: Keys, common: dict, proposed: str, errors: ErrorCollector) -> Judgment:
    file, m = head.file, head.match
    case = " ".join(m.group(1).split()) if m.re is _JUDGMENT_CASE else ""
    number = None if case else read_number(file, head.line, m.group(1), "judgment", errors)
    judge = keys.one("judge")
    if judge is None or not judge[0]:
        errors.add(file, head.line, f"judgment {case or number} has no Judge")
    else:
        _check_name(file, judge[1], judge[0], errors)
    return Judgment(title=(m.group(2) or "").strip(), number=number or 0, case=case, judge=judge[0] if judge else "",
                    settings=tuple(_read_settings(file, keys, errors)), **common)


def _read_event(head: _Heading, keys: Keys, common: dict, proposed: str, errors: ErrorCollector) -> Event:
    file = head.file
    turn = keys.one("turn")
    if turn:
        _check_name(file, turn[1], turn[0], errors)
    die = keys.one("die")
    if die and not turn:
        errors.add(file, die[1], "a Die on an event counts only for a turn: add 'Turn: Name' (the player whose "
                   "turn it was)")
    return Event(title=(head.match.group(1) or "").strip(), players=tuple(_read_players(file, keys, errors)),
                 turn_of=turn[0] if turn else None, turn_source=Source(file, turn[1]) if turn else None,
                 die=_read_die(file, keys, errors), **common)


def _read_unrecorded(head: _Heading, keys: Keys, common: dict, proposed: str, errors: ErrorCollector
                     ) -> Unrecorded | None:
    ranges = _read_ranges(head.file, head.line, head.match.group(1), errors)
    return Unrecorded(title="", ranges=ranges, **common) if ranges else None


# The kinds of entry, in the order their headings are tried. A new key of a kind: its name in the kind's keys,
# read in its reader (or, for every kind, in `_parse_entry`'s common fields), and the model's field.
ENTRY_KINDS = (
    _EntryKind("proposal", (PROPOSAL_HEADING,), PROPOSAL_KEYS, _read_proposal),
    _EntryKind("unrecorded", (_UNRECORDED,), UNRECORDED_KEYS, _read_unrecorded),
    _EntryKind("judgment", (_JUDGMENT_CASE, _JUDGMENT), JUDGMENT_KEYS, _read_judgment),
    _EntryKind("event", (_EVENT,), EVENT_KEYS, _read_event),
)


def _as_proposed(file: str, lines: list[str], tokens: list[Token], blocks: list[tuple[int, Token]],
                 errors: ErrorCollector) -> tuple[str | None, tuple[int, int]] | None:
    """A proposal's own text, after a paragraph that is `As proposed:` (format 1.2): the blockquote's text, or the
    fenced block as written (verbatim), and the lines (0-based, end excluded) of the paragraph and the text. None
    as the text: the paragraph is `As proposed: not recorded` (format 1.4), no record holds it."""
    found = None
    for position, (index, token) in enumerate(blocks):
        said = tokens[index + 1].content.strip().lower() if token.type == "paragraph_open" else ""
        if said != "as proposed:" and not _NOT_RECORDED.match(said):
            continue
        following, quoted = _block_after(lines, blocks, position)
        if found is not None:
            errors.add(file, token.map[0] + 1, f"a second 'As proposed:' (the first is at line {found[1][0] + 1}): a "
                       "proposal has one text as proposed")
        elif said != "as proposed:":
            found = None, (token.map[0], token.map[1])
        elif quoted is None and (following is None or following.type != "fence"):
            errors.add(file, token.map[0] + 1, "'As proposed:' must be followed by the proposal's text, as a blockquote "
                       "(lines starting with '>') or a fenced block")
        else:
            text = quoted if quoted is not None else "\n".join(lines[following.map[0]:following.map[1]])
            found = text, (token.map[0], following.map[1])
    return found


def _block_after(lines: list[str], blocks: list[tuple[int, Token]], position: int) -> tuple[Token | None, str | None]:
    """The block after blocks[position] (None at the end), and its text unquoted when it is a blockquote (the
    text a change paragraph or `As proposed:` gives)."""
    following = blocks[position + 1][1] if position + 1 < len(blocks) else None
    if following is None or following.type != "blockquote_open":
        return following, None
    return following, unquote(lines[following.map[0]:following.map[1]])


def entry_body(lines: list[str], heading: Token, keys: Keys, end_line: int) -> tuple[str, int]:
    """The free Markdown after an entry's key paragraph: its text and its first line (0-based)."""
    body_start = keys.end_line if keys.end_line else heading.map[1]
    return slice_lines(lines, body_start, end_line), body_start


def _read_keys(file: str, tokens: list[Token], blocks: list[tuple[int, Token]], allowed: tuple[str, ...],
               kind: str, errors: ErrorCollector) -> Keys:
    """A log entry's key paragraph (source.read_keys), which no change paragraph may continue."""
    return read_keys(file, tokens, blocks, allowed, kind, errors, repeatable=REPEATABLE, refuse=_change_in_keys)


def _change_in_keys(line: str) -> str | None:
    if _CHANGE_START.match(line) or _NEW_CHANGE_START.match(line):
        return (f"'{shorten(line)}' would be read as part of the key lines above it, and no change made: put a "
                "blank line before a change paragraph")
    if key := _KEY_WITHOUT_COLON.match(line):
        return (f"'{shorten(line)}' would be read as part of the key line above it: a key line has a colon after "
                f"its key, '{key[1]}: {line[key.end():].strip()}'")
    return None


# A key line written with a dash or an equals sign for its colon ('Votes - for Ann'): no key line to Markdown's
# reader, so it would go on the value of the line above.
_KEY_WITHOUT_COLON = re.compile("(%s)\\s*[-=\u2013\u2014]\\s*" % "|".join(sorted(
    {key for keys in (PROPOSAL_KEYS, JUDGMENT_KEYS, EVENT_KEYS, UNRECORDED_KEYS) for key in keys}, key=len,
    reverse=True)), re.IGNORECASE)


def _read_date(file: str, keys: Keys, kind: str, source: Source, errors: ErrorCollector, *,
               draft: bool = False) -> tuple[dt.date | None, bool]:
    """The entry's date, and whether only its month is known (format 1.2: `Date: 2019-07`, held as the 1st)."""
    found = keys.one("date")
    if found is None:
        if not draft:  # a draft is not dated until it is proposed
            errors.add(file, source.line, f"this {kind} has no Date (write 'Date: 1982-06-03')")
        return None, False
    try:
        if month := _MONTH.match(found[0]):
            return dt.date(int(month.group(1)), int(month.group(2)), 1), True
        return dt.date.fromisoformat(found[0]), False
    except ValueError:
        errors.add(file, found[1], f"'{found[0]}' is not a date like 1982-06-03{day_written_otherwise(found[0])}")
        return None, False


def _read_ranges(file: str, line: int, text: str, errors: ErrorCollector) -> tuple[tuple[int, int], ...]:
    """`8724-8804`, `8724`, `8724, 8730-8732` -> ((8724, 8804),) ...; () with an error when unreadable."""
    ranges = []
    for item in split_names(text) or [""]:
        first, dash, last = item.partition("-")
        try:
            low = read_int(first.strip())
            high = read_int(last.strip()) if dash else low
        except NumberTooLarge as error:
            errors.add(file, line, f"unrecorded number '{shorten(item)}': {error}")
            return ()
        except ValueError:
            errors.add(file, line, f"cannot read the unrecorded numbers '{shorten(item)}' (write 'Unrecorded: "
                       "8724-8804' or 'Unrecorded: 8724, 8730-8732')")
            return ()
        if high < low:
            errors.add(file, line, f"the run '{shorten(item)}' ends below its start (write the lower number first)")
            return ()
        ranges.append((low, high))
    return tuple(ranges)


def split_names(text: str) -> list[str]:
    return [name.strip() for name in text.split(",") if name.strip()]


def _check_name(file: str, line: int, name: str, errors: ErrorCollector) -> str:
    """A name as the log writes it; one holding invisible characters is an error at its line (model/names.py)."""
    if problem := invisible_problem(name):
        errors.add(file, line, problem)
    return name


def _read_tally(file: str, found: tuple[str, int], errors: ErrorCollector) -> Votes | None:
    """`Tally: 4 for, 1 against, 0 abstain` (format 1.2): ballots counted, their names not recorded."""
    text, line = found
    counts: dict[str, int] = {}
    for part in split_names(text):
        number, _, word = part.partition(" ")
        word = word.strip().lower()
        try:
            count = read_int(number)
        except NumberTooLarge as error:
            errors.add(file, line, f"the count in '{shorten(part)}': {error}")
            return None
        except ValueError:
            count = None
        if count is None or word not in VOTE_WORDS or word in counts:
            errors.add(file, line, f"cannot read '{shorten(part)}' in 'Tally: {shorten(text)}' (write 'Tally: 4 for, "
                       "1 against, 0 abstain', each group once)")
            return None
        counts[word] = count
    if "abstain" in counts and "present" in counts:
        errors.add(file, line, "'abstain' and 'present' mean the same: write one of them in a Tally line, not both")
        return None
    return Votes(counts=(counts.get("for", 0), counts.get("against", 0), counts.get("abstain", counts.get("present", 0))),
                 present="present" in counts)


# Words a newcomer writes for a vote, and the one a Votes line takes.
_VOTE_WORDS_MEANT = {"yes": "for", "aye": "for", "yea": "for", "pro": "for", "no": "against", "nay": "against",
                     "con": "against", "abstains": "abstain", "abstained": "abstain", "abstaining": "abstain"}


def _read_votes(file: str, keys: Keys, errors: ErrorCollector) -> tuple[Votes | None, Source | None]:
    found = keys.one("votes")
    if found is None:
        return None, None
    text, line = found
    source = Source(file, line)
    if text.lower() in ("none", "-", ""):
        return Votes(), source
    groups: dict[str, list[str]] = {word: [] for word in VOTE_WORDS}
    strengths: dict[str, list[int]] = {word: [] for word in groups}
    for part in text.split(";"):
        part = part.strip()
        if not part:
            continue
        word, _, names = part.partition(" ")
        word = word.rstrip(":").lower()
        if word not in groups:
            meant = _VOTE_WORDS_MEANT.get(word) or next(iter(difflib.get_close_matches(word, groups, 1, 0.6)), None)
            errors.add(file, line, f"votes group '{part}' must start with 'for', 'against', 'abstain' or 'present'"
                       + (f" (did you mean '{meant} {names.strip()}'?)" if meant and names.strip() else
                          ": each group is the word, then the names, groups apart by ';': "
                          "'Votes: for Ann, Bob; against Cat'"))
            continue
        listed = split_names(names.lstrip(":"))
        if not listed:
            errors.add(file, line, f"votes group '{word}' names nobody")
        for name in listed:
            voter, strength = _read_ballot(file, line, _check_name(file, line, name, errors), errors)
            groups[word].append(voter)
            strengths[word].append(strength)
    if groups["abstain"] and groups["present"]:
        errors.add(file, line, "'abstain' and 'present' mean the same: write one of them in a Votes line, not both")
    present = bool(groups["present"])
    third = "present" if present else "abstain"
    weighted = any(s != 1 for group in strengths.values() for s in group)
    return Votes(tuple(groups["for"]), tuple(groups["against"]), tuple(groups[third]),
                 (tuple(strengths["for"]), tuple(strengths["against"]), tuple(strengths[third])) if weighted else None,
                 present), source


# Anything like a strength after the name (`x6`, `x1.5`, `x-2`), so that a malformed one is an error.
_STRENGTH = re.compile(r"^(.*\S) [x\u00d7]([-+]?[0-9][^ ]*)$")


def _read_ballot(file: str, line: int, text: str, errors: ErrorCollector) -> tuple[str, int]:
    """`snail x6` (or `snail ×6`) -> ("snail", 6); a name without a strength has strength 1 (format 1.1)."""
    if not (m := _STRENGTH.match(text)):
        return text, 1
    try:
        return m.group(1), read_int(m.group(2))
    except NumberTooLarge as error:
        errors.add(file, line, f"the strength in '{shorten(text)}': {error}")
    except ValueError:
        errors.add(file, line, f"the strength in '{text}' must be a whole number of 0 or more, like '{m.group(1)} x3' "
                   "(a name that itself ends in a space, x and digits cannot be written)")
    return m.group(1), 0


def _read_decision_keys(file: str, keys: Keys, errors: ErrorCollector) -> dict:
    """`Index:`, `Quorum:` and `Power:` on a proposal (format 1.1); whether each is allowed depends on the
    mechanics in force at the entry, which the engine checks."""
    found: dict = {}
    sources = []
    for key, read, what in (("index", _read_index, "a decimal more than 0, like 'Index: 1.5'"),
                            ("power", read_decimal, POWER_MUST_BE),
                            ("quorum", read_int, "a whole number of ballots, like 'Quorum: 5'")):
        if (value := keys.one(key)) and (number := read_key_number(file, value, key, read, what, errors)) is not None:
            found[key] = number
            sources.append((key, Source(file, value[1])))
    found["decision_sources"] = tuple(sources)
    return found


# What a `Power:` key must be (a proposal's in the log, earlier.md's).
POWER_MUST_BE = "a decimal of 0 or more, like 'Power: 1.0'"


def _read_index(text: str) -> Fraction:
    if (index := read_decimal(text)) <= 0:
        raise ValueError("an index is more than 0")
    return index


def _read_result(file: str, keys: Keys, errors: ErrorCollector) -> ResultClaim | None:
    found = keys.one("result")
    if found is None:
        if (reason := keys.one("reason")) is not None:
            errors.add(file, reason[1], "a Reason needs the Result it explains (format 1.3: `Result: invalid`)")
        return None
    value = read_result_value(file, found, errors)
    if value is None:
        return None
    reason = keys.one("reason")
    if reason is not None and value == "adopted":
        errors.add(file, reason[1], "a Reason says why a proposal failed (format 1.3); this one is adopted")
    return ResultClaim(Source(file, found[1]), value, reason[0] if reason else "",  # type: ignore[arg-type]
                       Source(file, reason[1]) if reason else None)


def read_result_value(file: str, found: tuple[str, int], errors: ErrorCollector) -> str | None:
    """A `Result:` value, one of RESULTS (`Adopted.` and `failed quorum` as written by hand too); None with an
    error at its line when it is none."""
    value = " ".join(found[0].lower().rstrip(".").split()).replace("failed quorum", "failed-quorum")
    if value not in RESULTS:
        errors.add(file, found[1], f"result '{found[0]}' must be adopted, defeated, withdrawn, invalid or failed-quorum")
        return None
    return value


def _read_die(file: str, keys: Keys, errors: ErrorCollector) -> DieRoll | None:
    found = keys.one("die")
    if found is None:
        return None
    text = found[0].strip()
    try:
        if text.startswith("+"):
            raise ValueError("a die total has no plus sign")
        return DieRoll(read_int(text, signed=True), Source(file, found[1]))
    except NumberTooLarge as error:
        errors.add(file, found[1], f"Die '{shorten(text)}': {error}")
    except ValueError:
        errors.add(file, found[1], f"Die '{shorten(text)}' must be the total thrown, a whole number")
    return None


# An amount after white space, possessive and looked for left to right: each character is read once.
_AMOUNT = re.compile(r"(?<=\s)([+-])\s*+([0-9]++(?:\.[0-9]++)?+)\s*+(?=\(|$)")


def _split_points(text: str) -> tuple[str, str, str] | None:
    """`Bob +5 (rule 316)` -> ("Bob", "+5", "rule 316"): the first amount after the name that only a reason in
    parentheses follows; None when there is none."""
    text = text.strip()
    for m in _AMOUNT.finditer(text):
        if m.end() == len(text) or text.endswith(")"):
            reason = text[m.end() + 1:-1] if m.end() < len(text) else ""
            return text[:m.start()].strip(), m.group(1) + m.group(2), reason.strip()
    return None


def _read_points(file: str, keys: Keys, errors: ErrorCollector) -> list[PointAward]:
    awards = []
    for text, line in keys.all("points"):
        parts = _split_points(text)
        if parts is None:
            errors.add(file, line, f"cannot read 'Points: {shorten(text)}' (write 'Points: Bob +5 (rule 316)')")
            continue
        name, amount, reason = parts
        _check_name(file, line, name, errors)
        try:
            awards.append(PointAward(name, read_amount(amount), reason, Source(file, line)))
        except NumberTooLarge as error:
            errors.add(file, line, f"Points for {shorten(name)}: {error}")
        except ValueError:
            errors.add(file, line, f"cannot read 'Points: {shorten(text)}' (write 'Points: Bob +5 (rule 316)')")
    return awards


def _read_scores(file: str, keys: Keys, errors: ErrorCollector) -> ScoresClaim | None:
    found = keys.one("scores")
    if found is None:
        return None
    text, line = found
    scores = []
    for item in split_names(text):
        name_and_number = item.rsplit(None, 1)  # not a pattern: a lazy name before spaces backtracks
        try:
            if len(name_and_number) < 2 or name_and_number[1].startswith("+"):
                raise ValueError("not a score")
            scores.append((_check_name(file, line, name_and_number[0], errors), read_amount(name_and_number[1])))
        except NumberTooLarge as error:
            errors.add(file, line, f"score '{shorten(item)}': {error}")
        except ValueError:
            errors.add(file, line, f"cannot read score '{shorten(item)}' (write 'Scores: Alice 4, Bob -10')")
    return ScoresClaim(Source(file, line), tuple(scores))


def _read_winner(file: str, keys: Keys, errors: ErrorCollector) -> WinnerClaim | None:
    found = keys.one("winner")
    if found is None:
        return None
    return WinnerClaim(Source(file, found[1]), tuple(_check_name(file, found[1], name, errors)
                                                     for name in split_names(found[0])))


def _read_effects(file: str, keys: Keys, errors: ErrorCollector) -> list[Effect]:
    effects = []
    for text, line in keys.all("effect"):
        key, equals, value_text = text.partition("=")
        key = key.strip()
        if not equals or not key:
            errors.add(file, line, f"cannot read 'Effect: {text}' (write 'Effect: scoring.win = 200')")
            continue
        if key in NOT_BY_EFFECT:  # first: `sections` is no setting, yet an Effect on it is told why
            errors.add(file, line, f"Effect: {key} cannot be changed by an Effect: {NOT_BY_EFFECT[key]}")
            continue
        if key not in SETTINGS and not key.startswith(AWARDS_PREFIX):
            close = difflib.get_close_matches(key, SETTINGS, n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            errors.add(file, line, f"Effect names unknown setting '{key}'{hint}")
            continue
        try:
            effects.append(Effect(key, parse_effect_value(value_text.strip()), Source(file, line)))
        except ValueError as error:
            errors.add(file, line, f"Effect {key}: {error}")
    return effects


def _read_settings(file: str, keys: Keys, errors: ErrorCollector) -> list[Setting]:
    settings = []
    for text, line in keys.all("sets"):
        source = Source(file, line)
        words = text.split()
        what = words[0].lower() if words else ""
        try:
            if what == "score" and len(words) >= 3 and words[-1][:1] != "+":
                settings.append(Setting("score", source, player=_check_name(file, line, " ".join(words[1:-1]), errors),
                                        value=read_amount(words[-1])))
            elif what == "result" and len(words) == 3 and words[2].lower() in RESULTS:
                settings.append(Setting("result", source, proposal=read_int(words[1]),
                                        result=words[2].lower()))  # type: ignore[arg-type]
            elif what == "next-player" and len(words) >= 2:
                settings.append(Setting("next-player", source, player=_check_name(file, line, " ".join(words[1:]),
                                                                                   errors)))
            else:
                raise ValueError("not a setting")
        except NumberTooLarge as error:
            errors.add(file, line, f"'Sets: {shorten(text)}': {error}")
        except ValueError:
            errors.add(file, line, f"cannot read 'Sets: {shorten(text)}' (write 'Sets: score Bob 45', "
                       "'Sets: result 305 adopted' or 'Sets: next-player Carol')")
    return settings


def _read_players(file: str, keys: Keys, errors: ErrorCollector) -> list[PlayerChange]:
    changes = []
    for text, line in keys.all("players"):
        for item in split_names(text):
            old, arrow, new = item.partition("->")
            if arrow and old.strip() and new.strip() and "->" not in new:
                # A new name must be one a Votes line can write; the old is any name (the replay says when it
                # is no player's).
                if problem := invisible_problem(old.strip()) or name_problem(new.strip()):
                    errors.add(file, line, problem)
                changes.append(PlayerChange(old.strip(), False, Source(file, line), renamed_to=new.strip()))
            elif item[0] in "+-" and item[1:].strip() and not arrow:
                name = item[1:].strip()
                # One who joins must have a name a Votes line can write; one who leaves is any name.
                if problem := name_problem(name) if item[0] == "+" else invisible_problem(name):
                    errors.add(file, line, problem)
                changes.append(PlayerChange(name, item[0] == "+", Source(file, line)))
            else:
                errors.add(file, line, f"'Players: {shorten(item)}' must be '+Name' (joins), '-Name' (leaves) or "
                           "'Old -> New' (renamed)")
    return changes


def _read_changes(file: str, lines: list[str], tokens: list[Token], blocks: list[tuple[int, Token]],
                  errors: ErrorCollector, power: bool = False) -> list[Change]:
    changes = []
    records: set[int] = set()  # the positions of record paragraphs read with their change (format 1.4)
    for position, (index, token) in enumerate(blocks):
        if token.type != "paragraph_open":
            continue
        if _is_record(tokens[index + 1].content):
            if position not in records:
                errors.add(file, token.map[0] + 1, f"'{shorten(tokens[index + 1].content.split(chr(10))[0])}' is the "
                           "record of a change: write it in a paragraph right after the change it records (after "
                           "the change's quoted text, if it has one)")
            continue
        text = " ".join(part.strip() for part in tokens[index + 1].content.split("\n"))
        failed = _FAILED.match(text)
        if failed:  # format 1.2: a change recorded as attempted and not taken effect
            text = text[failed.end():]
        power_change = (_POWER_CHANGE_START if not power else _POWER_CHANGE_START_LOOSE).match(text)
        if power_change and not power:
            if text.lower().startswith("enact"):  # never prose: it would silently enact nothing
                errors.add(file, token.map[0] + 1, f"'{shorten(text)}' gives a power, but the game's rules have "
                           "none: set [rules] power = true in game.toml")
            continue
        if not _CHANGE_START.match(text) and not power_change and not _NEW_CHANGE_START.match(text):
            if failed:
                errors.add(file, token.map[0] + 1, f"'Failed: {shorten(text)}' is not a change: a 'Failed:' paragraph "
                           "records a change, like 'Failed: Amend rule 2608 by replacing \"x\" with \"y\".'")
            continue
        source = Source(file, token.map[0] + 1)
        following, quoted = _block_after(lines, blocks, position)
        if quoted is not None and len(quoted) > MAX_RULE_CHARS:
            errors.add(file, following.map[0] + 1, f"the quoted text is {len(quoted):,} characters long; a "
                       f"rule's text may hold at most {MAX_RULE_CHARS:,}")
            continue
        try:
            change = _read_change(text, quoted, source, errors, power)
        except NumberTooLarge as error:
            errors.add(file, source.line, f"'{shorten(text)}': rule {error}")
            continue
        if change is not None and change.title and (problem := invisible_problem(change.title, "title")):
            errors.add(file, source.line, problem)  # a rule's title gets a name's rules (model/names.py)
            continue
        if change is None:
            continue
        after = position + (2 if following is not None and following.type in ("blockquote_open", "fence")
                            and quoted is not None else 1)
        if after < len(blocks) and blocks[after][1].type == "paragraph_open" and \
                _is_record(tokens[blocks[after][0] + 1].content):
            records.add(after)
            record = _read_record(file, blocks[after][1].map[0] + 1, tokens[blocks[after][0] + 1].content, change,
                                  errors)
            if record is None:
                continue
            change = dataclasses.replace(change, **record)
        changes.append(dataclasses.replace(change, failed=True) if failed else change)
    return changes


def _is_record(paragraph: str) -> bool:
    return _RECORD_LINE.match(paragraph.split("\n", 1)[0]) is not None


_UNLABELLED = {"repeal": "a repeal", "annotate": "an annotation"}  # changes after which a rule has no new name


def _read_record(file: str, first: int, content: str, change: Change, errors: ErrorCollector) -> dict | None:
    """A change's record (format 1.4): its `History:` lines (the keepers' own line for the change; on a
    re-enactment, the lines before it are the rule's earlier lives), its `Revision:` (the rule's revision after it,
    as the keepers count), `Corrected:` (what the record said at the time, since corrected), `Place:` (where its
    line stands among the rule's history lines as the keepers order them) and `Label:` (the record's own name for
    the rule from the change on). A line that names no key continues the value above it. None, with an error at
    the line, when it cannot be read."""
    read: list[tuple[str, str, int]] = []
    ok = True
    for offset, line in enumerate(content.split("\n")):
        if m := _RECORD_LINE.match(line.strip()):
            read.append((m.group(1).lower(), m.group(2).strip(), first + offset))
        elif line.strip() and read and not KEY_LINE.match(line.strip()):
            key, value, at = read[-1]
            read[-1] = (key, f"{value} {line.strip()}", at)
        elif line.strip():
            errors.add(file, first + offset, f"'{shorten(line.strip())}' in a change's record: each line is "
                       "'History: ...', 'Revision: N', 'Corrected: ...', 'Place: N' or 'Label: ...'")
            ok = False
    history, numbers, words = [], {}, {}
    lines = [at for key, _, at in read if key == "history"]
    for key, value, at in read:
        if not value:
            errors.add(file, at, f"'{key.capitalize()}:' is empty: it says what the record holds of the change")
            ok = False
        elif key == "history":
            history.append(value)
        elif key in numbers or key in words:
            errors.add(file, at, f"a second '{key.capitalize()}:' for one change (a change has one {key})")
            ok = False
        elif key == "label" and (problem := label_problem(value) or (
                f"'Label:' after {_UNLABELLED[change.kind]}: a label names the rule from a change that leaves it in "
                "force" if change.kind in _UNLABELLED else None)):
            errors.add(file, at, problem)
            ok = False
        elif key in ("revision", "place"):
            try:
                numbers[key] = read_int(value)
            except NumberTooLarge as error:
                errors.add(file, at, f"'{key.capitalize()}: {shorten(value)}': {error}")
                ok = False
            except ValueError:
                meaning = "the rule's revision after the change as its keepers count (like 'Revision: 12')" \
                    if key == "revision" else "its line's place among the rule's history lines, 0 the first " \
                    "(like 'Place: 3')"
                errors.add(file, at, f"'{key.capitalize()}: {shorten(value)}' must be a whole number, {meaning}")
                ok = False
        else:
            words[key] = value
    if len(history) > 1 and change.kind != "reenact":
        errors.add(file, lines[1], f"{len(history)} 'History:' lines for one {change.kind} change: only a "
                   "re-enactment carries the rule's earlier lives before its own line")
        ok = False
    if "place" in numbers and not history and change.kind != "annotate":
        errors.add(file, next(at for key, _, at in read if key == "place"), "'Place:' without a 'History:' line: it "
                   "says where that line stands among the rule's history lines (or a new annotation among its "
                   "annotations)")
        ok = False
    return dict(history=tuple(history), revision=numbers.get("revision"), corrected=words.get("corrected", ""),
                place=numbers.get("place"), label=words.get("label", "")) if ok else None


class _ChangeText(NamedTuple):
    """A change paragraph being read: its text (joined into one line), the blockquote after it (None: none), its
    place, where errors go, and whether the game's rules carry a power."""

    text: str
    quoted: str | None
    source: Source
    errors: ErrorCollector
    power: bool

    def error(self, message: str) -> None:
        self.errors.add(self.source.file, self.source.line, message)

    def has_quote(self, what: str, may_be_empty: bool = False) -> bool:
        """Whether a blockquote follows; else an error saying it must give `what`. (1.3: a rule with no text of its
        own, a heading over the rules under it, is enacted or amended by an empty blockquote, a lone `>`: written
        so, not forgotten.)"""
        if self.quoted is None or not self.quoted.strip() and not may_be_empty:
            self.error(f"'{shorten(self.text, 200)}' must be followed by {what} as a blockquote (lines starting "
                       "with '>')")
            return False
        return True

    @staticmethod
    def rule(written: str) -> dict:
        """The rule a change to a rule in force names (_RULE_NAMED), as the Change's fields: its number, or
        its label (format 1.4: the replay finds the rule that has it)."""
        return {"rule": read_int(written)} if written.isascii() and written.isdigit() else {"rule_label": written}

    def read_power(self, written: str, example: str) -> Fraction | None:
        """The power the paragraph gives (format 1.1); None, with an error naming the line, when unreadable."""
        try:
            return read_written_decimal(written)
        except NumberTooLarge as error:
            self.error(f"the power in '{shorten(self.text)}': {error}")
        except ValueError:
            self.error(f"the power in '{shorten(self.text)}' must be a decimal, like '{example}'")
        return None


# "rule 4E83", "rule UC1", "rule 1-12": a label where an enactment gives a number (digits, then a letter or "-")
_LABELLED_RULE = re.compile(r"\brule\s+((?:\d+[A-Za-z-]|[A-Za-z]+\d)(?:[\w.-]*[\w-])?)", re.IGNORECASE)


def _read_change(text: str, quoted: str | None, source: Source, errors: ErrorCollector,
                 power: bool = False) -> Change | None:
    """One change paragraph, by the first of CHANGE_READERS whose pattern it matches; raises NumberTooLarge for a
    rule number past the cap."""
    paragraph = _ChangeText(text, quoted, source, errors, power)
    for pattern, read in CHANGE_READERS:
        if m := pattern.match(text):
            change = read(paragraph, m)
            if change is not None and change.rule_label and (problem := label_problem(change.rule_label)):
                paragraph.error(f"the rule this change names: {problem}")  # (the problem shows the label safely)
                return None
            return change
    if text.lower().startswith(("enact", "reenact")) and (labelled := _LABELLED_RULE.search(text)):
        paragraph.error(f"change '{shorten(text)}' names rule '{shorten(labelled.group(1))}' by a label: an "
                        "enactment or a re-enactment names a rule by its number (a 'Label:' line after it gives its "
                        "label)")
    elif not re.search(r"\brules?\s+\d+", text, re.IGNORECASE) and not text.lower().startswith("enact"):
        paragraph.error(f"change '{shorten(text)}' names no rule (write e.g. 'Repeal rule 204.')")
    else:
        paragraph.error(f"cannot read the change '{shorten(text)}'; a change reads like "
                        + "; ".join(f"'{example}'" for example in CHANGE_EXAMPLES[:5]))
    return None


def _read_set_power(c: _ChangeText, m: re.Match) -> Change | None:
    power = c.read_power(m.group(2), "Change the power of rule 2692 to 2.0.")
    return Change("power", c.source, **c.rule(m.group(1)), power=power) if power is not None else None


def _read_enact(c: _ChangeText, m: re.Match) -> Change | None:
    if not c.has_quote("the new rule's text", may_be_empty=True):
        return None
    power = c.read_power(m.group(2), "Enact power 1.5 rule 2699: Title") if m.group(2) else None
    if m.group(2) and power is None:
        return None
    return Change("enact", c.source, rule=read_int(m.group(3)) if m.group(3) else None, text=c.quoted or "",
                  title=(m.group(4) or "").strip().strip("\"\u201c\u201d"),
                  # (no class given: the game's, Rulebook.enacted_class)
                  rule_class=m.group(1).lower() if m.group(1) else None, power=power)  # type: ignore[arg-type]


def _unreadable_power_change(c: _ChangeText, m: re.Match) -> None:
    c.error(f"cannot read the change '{shorten(c.text)}'; write 'Enact power 1.5 rule 2699: Title' or 'Change the "
            "power of rule 2692 to 2.0.'")


def _read_reenact(c: _ChangeText, m: re.Match) -> Change | None:
    if m.group(1) and not c.power:
        c.error(f"'{shorten(c.text)}' gives a power, but the game's rules have none: set [rules] power = true in "
                "game.toml")
        return None
    given = c.read_power(m.group(1), "Reenact power 2.0 rule 2531.") if m.group(1) else None
    if m.group(1) and given is None:
        return None
    return Change("reenact", c.source, rule=read_int(m.group(2)), text=c.quoted or "",
                  title=(m.group(3) or "").strip().rstrip(".").strip().strip("\"\u201c\u201d"), power=given)


def _quoting(kind: str, what: str, may_be_empty: bool = False) -> Callable[[_ChangeText, re.Match], Change | None]:
    """The reader of a change to rule N whose blockquote gives `what` (`may_be_empty`: a lone `>`, no text)."""
    def read(c: _ChangeText, m: re.Match) -> Change | None:
        if not c.has_quote(what, may_be_empty):
            return None
        return Change(kind, c.source, **c.rule(m.group(1)), text=c.quoted or "")
    return read


def _read_replace(c: _ChangeText, m: re.Match) -> Change | None:
    edits = _read_edits(m.group(2))
    if edits is None:
        c.error(f"cannot read the edits in '{shorten(c.text, 200)}' (write 'by replacing \"x\" with \"y\" and \"z\" "
                "with \"w\".' or 'by deleting \"x\".')")
        return None
    if any(not old.strip() for old, _ in edits):
        c.error("a phrase to replace or delete is empty")
        return None
    return Change("replace", c.source, **c.rule(m.group(1)), edits=tuple(edits))


# Each change's pattern and reader, tried in order (a power change before the enactment it looks like).
CHANGE_READERS: tuple[tuple[re.Pattern, Callable[[_ChangeText, re.Match], Change | None]], ...] = (
    (_SET_POWER, _read_set_power),
    (_ENACT, _read_enact),
    (_POWER_CHANGE_START_LOOSE, _unreadable_power_change),
    (_REPEAL, lambda c, m: Change("repeal", c.source, **c.rule(m.group(1)))),
    (_REENACT, _read_reenact),
    (_ANNOTATE, lambda c, m: Change("unannotate" if m.group(1) else "annotate", c.source, **c.rule(m.group(2)),
                                    text=c.quoted or "") if c.has_quote("the annotation") else None),
    (_AMEND_READ, _quoting("amend", "the new text", may_be_empty=True)),
    (_AMEND_APPEND, _quoting("append", "the text to append")),
    (_AMEND_EDIT, _read_replace),
    (_TRANSMUTE, lambda c, m: Change("transmute", c.source, **c.rule(m.group(1)),
                                     rule_class=m.group(2).lower() if m.group(2) else None)),
    (_RENUMBER, lambda c, m: Change("renumber", c.source, **c.rule(m.group(1)), new_number=read_int(m.group(2)))),
    (_RETITLE, lambda c, m: Change("retitle", c.source, **c.rule(m.group(1)), title=m.group(2))),
)


def _read_edits(text: str) -> list[tuple[str, str]] | None:
    """`replacing "a" with "b" and deleting "c".` -> [("a", "b"), ("c", "")]; None when it cannot be read."""
    edits: list[tuple[str, str]] = []
    text = text.strip().rstrip(".").strip()
    at, mode = 0, "replacing"  # read from a position, never by slicing off the rest (that costs the square)
    while at < len(text):
        if verb := _EDIT_VERB.match(text, at):
            mode, at = verb.group(1).lower(), verb.end()
        old = _QUOTED.match(text, at)
        if not old:
            return None
        at = _SPACES.match(text, old.end()).end()
        old_text = old.group(1) if old.group(1) is not None else old.group(2)
        if mode == "replacing":
            with_word = _EDIT_WITH.match(text, at)
            new = _QUOTED.match(text, with_word.end()) if with_word else None
            if not new:
                return None
            at = _SPACES.match(text, new.end()).end()
            edits.append((old_text, new.group(1) if new.group(1) is not None else new.group(2)))
        else:
            edits.append((old_text, ""))
        if separator := _EDIT_SEPARATOR.match(text, at):
            at = separator.end()
        elif at < len(text):
            return None
    return edits or None
