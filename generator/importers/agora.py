"""Agora's records as a format 1.2 game: the Rulekeepor's repository (AgoraNomic/ruleset: one YAML file per
rule with its history, the index of the rules in force) and the Assessor's (AgoraNomic/assessor: one JSON
file per batch of decisions on its gh-pages branch).

The rules are followed commit by commit along the ruleset's first-parent history from its first commit (2017),
in each layout it has had (LAYOUTS), reading only the files each commit changes: a rule that enters the index is
enacted (or re-enacted), one that leaves it is repealed, a new text is a whole-text amendment, a new name a
retitling, a new power a change of power. Each change is credited to the agent of the history entry the same
commit adds (a proposal, a rule, a cleaning, a ratification...), else to the proposal the commit's subject names;
a change nothing accounts for is the Rulekeepor's correction. Decisions come from the Assessor: ballots with
their strengths, the index, the quorum, the result; a proposal only the Rulekeepor recorded has its changes and
no ballots. Where the two disagree, or one with itself, IMPORT.md says so with the commit, and whether the rules
the log gives at its end are the Rulekeepor's. Player names are written as they are now (the ruleset's
name_replacement_data)."""
from __future__ import annotations

import bisect
import dataclasses
import datetime
import json
import re
import string
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from urllib.parse import quote

import yaml

from ..limits import MAX_DIGITS, MAX_LINE_CHARS, MAX_NESTING, MAX_RULE_CHARS, MAX_TOML_BYTES, MAX_TOML_LINE_CHARS
from ..model.names import shown
from .text import (MAX_QUOTED_LINE, MAX_TITLE_CHARS, YamlBeyondBounds, clean_line, escape_markdown,
                              heading_text, increasing_subsequence, load_yaml, one_line, rule_heading, rule_title,
                              short_title, yaml_problem)
from ..parse.source import read_int, shorten
from .corrections import Corrections
from .archive import (Change, Entry, ImportedGame, ImportRefused, Problem, Runs, backtick_run, gaps, number_ranges,
                      log_parts, player_name, problems_section, runs, runs_below, too_large_for,
                      toml_aliases, toml_numbers, toml_players, toml_string)
from .agora_report import has_templates, report_toml
from .agora_sections import SectionSpan, section_spans
from .flr import (KIND_OF_TYPE, change_type, date_words, free_text_entry, history_lines, proposal_said, proposal_words,
                  revisions, with_titles)
from .gitread import (BlobReader, BlobTooLarge, GitError, check_repository, commit_date, commit_id, git,
                      list_files, log_records, text)


@dataclass(frozen=True)
class _Layout:
    """Where a commit of the ruleset keeps the index of the rules in force and the rule files."""

    index: str
    folder: str
    titled: bool = False  # the index names rules by title; each file says its number (`id:`), whatever its name


LAYOUTS = (_Layout("rules_data/config/index", "rules_data/rules/"),  # 2020-07 on
           _Layout("config/index", "rules/"),                        # 2018-07 on
           _Layout("index", "rules/", titled=True),                  # 2017-10 on, with a Haskell generator
           _Layout("rules/index", "rules/", titled=True))            # 2017-05 on: rules/<Title>, flr.txt beside
NOT_RECORDED = "As proposed: not recorded"  # (format 1.4) neither record holds the proposal's own text
NAME_REPLACEMENTS = "name_replacement_data"  # the Rulekeepor's `old:new` names his reports write for the record's
PROPOSAL_FOLDERS = ("rules_data/proposals/", "proposals/")  # the Rulekeepor's note of each proposal
WALKED = sorted({layout.index for layout in LAYOUTS} | {layout.folder.rstrip("/") for layout in LAYOUTS}
                | {folder.rstrip("/") for folder in PROPOSAL_FOLDERS})
RESULTS = {"ADOPTED": "adopted", "REJECTED": "defeated", "FAILED_QUORUM": "failed-quorum"}
VOTE_GROUPS = (("FOR", "for"), ("AGAINST", "against"), ("PRESENT", "present"))
DEFAULT_STRENGTH = 3            # R2156: a player's voting strength is 3 unless modified
# A history date whose year was mistyped: this far from the days of the proposals numbered beside it, and, with
# their year, this near both (proposals adopted out of their numbers' order are days apart).
MIN_YEAR_SLIP_DAYS = 300
MAX_YEAR_SLIP_NEIGHBOUR_DAYS = 45
# Each log file's preamble, shown on the site, which does not publish IMPORT.md: where to find it, in words (a
# bare "IMPORT.md" would be made a link to a web site of that name).
PREAMBLE = ("Imported by `nomic-archive import agora` from the Rulekeepor's and the Assessor's repositories. How, and "
            "what the records could not give, is told in the file `IMPORT.md` in the game's folder, which is not "
            "part of the site.")
ASSESSOR_FILES = "https://github.com/AgoraNomic/assessor/blob/gh-pages/"
RULESET_COMMITS = "https://github.com/AgoraNomic/ruleset/commit/"
RULESET_FILES = "https://github.com/AgoraNomic/ruleset/blob/"
_ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_DECIMAL = re.compile(r"[0-9]{1,3}(?:\.[0-9]{1,3})?")
_BY_RULE = re.compile(r"rule\s+([0-9]+)\b", re.IGNORECASE)  # a By: line that check reads as naming a rule
_HALF_CHARACTER = re.compile("[\ud800-\udfff]")  # a surrogate, which no file can hold
# A subject that names the proposal its commit applies: "Proposal 8033", "P8033", and in 2017 "Apply 7848 Emergency
# Scam Fix.", "Merge branch '7853-close-ancient-loopholes'", "Effects of proposal 7930."
_PROPOSAL_SUBJECT = re.compile(r"^(?:proposal\s*|(?:apply\s+|merge branch '|effects of proposal\s*|p\s*)(?=[0-9]{3}))"
                               r"([0-9]{1,12})\b", re.IGNORECASE)


@dataclass(frozen=True)
class _Rule:
    id: int
    name: str
    power: str
    text: str
    history: tuple[str, ...]     # each history entry as canonical JSON: entries compare as wholes
    annotations: tuple[str, ...]
    path: str                    # its file
    revision: int | None = None  # the file's own count of its changes (`rev:`, 2017), where it keeps one
    annotated: bool = True       # the file says what annotations the rule has (a list, empty or not)


@dataclass
class _Found:
    """What a commit did to one rule, and who the Rulekeepor says did it."""

    commit: str
    subject: str
    commit_date: str
    rule: int
    path: str                    # the rule's file
    changes: list[Change]
    agent: dict | None
    date: str | None             # the history entry's date, when it is a real day
    # The history entries the commit added to the rule, and its whole history then (canonical JSON): what the
    # record said at the time, which the Rulekeepor may have corrected since (see _credit).
    added: list[dict] = field(default_factory=list)
    history_then: tuple[str, ...] = ()


@dataclass
class _Walk:
    """The ruleset's history as the walk found it."""

    initial: dict[int, _Rule]    # the rules in force when the game starts
    start_commit: str            # the first commit whose changes the log holds
    start_date: str              # the day of the commit before it, whose rules are the initial ones (or of the
    #                              first change, where its history entry dates it earlier)
    found: list[_Found]          # every change after that, in the Rulekeepor's order
    year_ends: dict[str, dict[int, _Rule]]
    final: dict[int, _Rule] = field(default_factory=dict)   # the rules in force at the last commit read
    final_commit: str = ""
    # The index's sections as each commit that changed them left them, from the start on: (the day they hold
    # from, sections).
    arrangements: list[tuple[str, list[tuple[str, str, list[int]]]]] = field(default_factory=list)
    ever: set[int] = field(default_factory=set)  # every rule that has been in the index
    # Proposals whose note a commit adds, its subject naming them: number -> (commit, its date, subject).
    recorded: dict[int, tuple[str, str, str]] = field(default_factory=dict)
    latest: dict[int, _Rule] = field(default_factory=dict)   # each rule as its file was last read


@dataclass
class _Placed:
    """An entry of the log, with where it goes (its date, and on one day the place of its first change among the
    Rulekeepor's) and the changes it writes."""

    date: str
    place: int
    entry: Entry
    items: list[_Found]


@dataclass
class _Decision:
    number: int
    batch: str
    proposal: dict
    resolution: dict
    strengths: dict[str, int]
    quorum: int
    date: str = ""
    letter: str = ""


def import_agora(ruleset: Path, assessor: Path | None, *, first: str | None = None,
                 last: str | None = None, corrections: Corrections | None = None) -> ImportedGame:
    for name, repo in (("--ruleset", ruleset), ("--assessor", assessor)):
        if repo is not None:
            try:
                check_repository(repo)
            except GitError as error:
                raise ImportRefused(str(repo), f"{name}: {error}") from None
    low = _proposal_number(first, "--from")
    high = _proposal_number(last, "--to")
    try:
        game = _Importer(ruleset, assessor, corrections).run(low, high)
    except GitError as error:
        raise ImportRefused(str(ruleset), str(error)) from None
    if corrections is not None:
        corrections.refuse_unused("those of the ruleset", players="the records read")
    return game


def _proposal_number(value: str | None, option: str) -> int | None:
    if value is None:
        return None
    number = _number(value)
    if number is None:
        raise ImportRefused(option, f"must be a proposal number, such as 8253 (got '{shorten(value)}')")
    return number


def _proposal_recorded(subject: str, paths: list[str]) -> int | None:
    """The proposal whose file in a proposals' folder a commit adds or changes, its subject naming it; or None."""
    if (named := _PROPOSAL_SUBJECT.match(subject)) and \
            any(path == f"{folder}{named.group(1)}" for path in paths for folder in PROPOSAL_FOLDERS):
        return int(named.group(1))
    return None


def _within(number: int | None, low: int, high: int | None) -> bool:
    """Whether a proposal's number is from `low` to `high` (no end: None), the proposals an import reads."""
    return number is not None and number >= low and (high is None or number <= high)


def _rule_changes(rule: int, old: _Rule | None, new: _Rule | None, file_new: _Rule | None,
                  ever: set[int]) -> list[Change]:
    """What a commit did to a rule in force before it (`old`) or after it (`new`): repealed, enacted or
    re-enacted, or retitled, its power changed and amended."""
    if new is None:
        return [Change("repeal", rule)]
    if old is None:  # a rule its own history says was repealed, or was re-enacted, comes back (R105)
        returns = rule in ever or any(change_type(json.loads(entry)) in ("reenactment", "repeal")
                                      for entry in (file_new.history if file_new else ()))
        return [Change("reenact" if returns else "enact", rule, text=new.text, title=new.name or None,
                       power=new.power)]
    changes = []
    if old.name != new.name:
        changes.append(Change("retitle", rule, title=new.name))
    if old.power != new.power:
        changes.append(Change("power", rule, power=new.power))
    if old.text != new.text:
        changes.append(Change("amend", rule, text=new.text))
    return changes


class _Importer:
    def __init__(self, ruleset: Path, assessor: Path | None, corrections: Corrections | None = None):
        self.ruleset = ruleset
        self.corrections = corrections
        self._spelling: dict[str, str] = {}  # a name as written -> the spelling of the player it is (_one_spelling)
        # The names as the records wrote them that the import writes as another's (game.toml's [aliases]): by the
        # name written instead, each with its spellings, former names and the names the corrections made theirs
        self.played_as: dict[str, set[str]] = defaultdict(set)
        self.head = commit_id(ruleset, "HEAD")  # where the Rulekeepor's notes and corrected entries are read
        self.assessor = assessor
        self.notes: dict[str, list[str]] = defaultdict(list)   # IMPORT.md sections: what the records hold
        self.problems: list[Problem] = []  # what could not be read as it stands (from the start of the game on)
        self.assessor_tip = ""  # the commit the Assessor's files are read at
        self._named: set[str] = set()  # names said to be written otherwise
        self._unindexed: set[str] = set()  # titles the index lists that no rule file holds, once said
        self.names_over_time = self._names_over_time()
        self.renames = self._renames()
        # History lines keep the record's names where game.toml's [report] names them by day ([[report.names]])
        self.names_by_day = has_templates(ruleset, self.head)
        self._full_names = self._full_names_of_renamed()
        self._former_names = self._former_names_pattern()
        self.unchanging: list[int] = []   # adopted proposals that changed no rule (most change the gamestate)
        self._final: dict[int, list[dict]] | None = None
        self.earlier_count = 0  # the proposals earlier.md holds
        self.proposal_notes: dict[int | str, tuple[str, dict]] = {}  # by number, or by name where it has none
        # What the FLR's lines of 2017 say of a proposal (its title, its authors): (file, commit, as a note holds it)
        self._said_of_proposals: dict[int, tuple[str, str, dict]] = {}
        self.start_date = ""  # the day the game starts (the walk's)
        self.unauthored: dict[int, str] = {}  # proposals no record names an author for -> what the records say
        self._annotations_now: dict[int, dict[str, str]] = {}  # each rule's annotations as the log has them, by key
        self.end = (0, 0, "")  # rules in force after the log equal to the Rulekeepor's, of how many, at which commit

    # --- names ---------------------------------------------------------------------------------------------

    def _names_over_time(self) -> list[tuple[str, str, datetime.date, datetime.date | None]]:
        """What the Rulekeepor's reports wrote for a name the record gives, from his name_replacement_data in each
        of its versions up to the head: (the record's name, the report's, the day of the version that first
        gave it, the day of the one that no longer did, None at the head). His generator reads the file when he
        publishes, so a report of a day names players as that day's version does ([[report.names]])."""
        versions = [line.split() for line in text(git(self.ruleset, "log", "--first-parent", "--reverse",
                                                      "--format=%H %cs", self.head, "--", NAME_REPLACEMENTS)
                                                  ).splitlines()]
        spans: list[tuple[str, str, datetime.date, datetime.date | None]] = []
        held: dict[str, tuple[str, datetime.date]] = {}  # the record's name -> (the report's, since)
        with BlobReader(self.ruleset) as blobs:
            for commit, day in versions:
                try:
                    data = blobs.read(commit, NAME_REPLACEMENTS) or ""
                except BlobTooLarge as error:
                    self.problems.append(Problem(NAME_REPLACEMENTS, commit, 0, f"{error}: not read, so players "
                                                 "are named as the records name them"))
                    data = ""
                pairs = {}
                for number, line in enumerate(data.splitlines(), start=1):
                    old, sep, new = line.partition(":")
                    if sep and old.strip() and new.strip():
                        where = Problem(NAME_REPLACEMENTS, commit, number, "")
                        pairs[self.name(old, where, renamed=False)] = self.name(new, where, renamed=False)
                since = datetime.date.fromisoformat(day)
                for old, (new, first) in list(held.items()):
                    if pairs.get(old) != new:
                        del held[old]
                        spans += [(old, new, first, since)] if first < since else []
                held.update({old: (new, since) for old, new in pairs.items() if old not in held})
        return sorted(spans + [(old, new, since, None) for old, (new, since) in held.items()],
                      key=lambda span: (span[2], span[0]))

    def _renames(self) -> dict[str, str]:
        """Old name -> the name the player has now, from the Rulekeepor's name_replacement_data at the head."""
        pairs = {old: new for old, new, _, until in self.names_over_time if until is None}
        resolved = {}
        for old in pairs:
            name, seen = old, set()
            while name in pairs and name not in seen:
                seen.add(name)
                name = pairs[name]
            resolved[old] = name
        return resolved

    def _full_names_of_renamed(self) -> dict[str, str]:
        """A committer's full name whose first word is a former name ("Jason Cobb", when Jason is now Janet) -> the
        name the player has now: the Rulekeepor's subjects and early history entries name players so."""
        authors = text(git(self.ruleset, "log", "--format=%an", self.head)).splitlines()
        return {author: self.renames[first] for author in set(authors)
                if len(parts := author.split()) > 1 and (first := parts[0]) in self.renames}

    def name(self, raw, where: Problem | None = None, *, renamed: bool = True, one_spelling: bool = True) -> str:
        """A player's name as the game writes it (`player_name`), as the player is named now unless `renamed` is
        false. A name that must be written otherwise is a problem `where` it is first read."""
        name, why = player_name(raw)
        if why and where is not None and str(raw) not in self._named:
            self._named.add(str(raw))
            self.problems.append(dataclasses.replace(where, message=(f"{where.message}: " if where.message else "")
                                                     + f"the name '{shown(str(raw))}' cannot be written as it is "
                                                     f"({why}): written '{name}'"))
        if not renamed:
            return name
        written = name
        played = name in self.renames or name not in self._full_names  # (a committer's full name is not)
        name = self.renames.get(name) or self._full_names.get(name, name)
        if self.corrections is not None and (said := self.corrections.player(name)) is not None:
            self.corrections.use(said[0], f"player {name}")
            name = said[1]
        if played and written != name:
            self.played_as[name].add(written)
        return self._spelling.get(name, name) if one_spelling else name

    def as_written(self, raw) -> str:
        """A name as a History line gives it: as the record writes it where game.toml's [report] names it by the
        day ([[report.names]]; else as the player is named now), unless the corrections file names the player
        otherwise."""
        now = self.name(raw, one_spelling=False)
        written = self.name(raw, renamed=False)
        renamed = self.renames.get(written) or self._full_names.get(written, written)
        return written if self.names_by_day and now == renamed else now

    def _one_spelling(self, decisions: list[_Decision]) -> None:
        """One spelling for each player the records write several ways that differ only in case or accents (Grok
        and grok, Ørjan and Oerjan): the current name where name_replacement_data gives one, else the most written
        (then the first in order). Ballots' strengths are named so too. IMPORT.md lists each."""
        written: Counter[str] = Counter()
        for decision in decisions:
            written.update(self._voters(decision))
            written.update(self.name(name) for name in [decision.proposal.get("author")]
                           + _list(decision.proposal.get("coauthors")) if _named(name))
        written.update(self.name(name) for _, note in self.proposal_notes.values()
                       for name in [note.get("author")] + _list(note.get("coauthors")) if _named(name))
        groups: dict[str, list[str]] = defaultdict(list)
        for name in sorted(written):
            groups[_folded_name(name)].append(name)
        current = set(self.renames.values())
        for names in groups.values():
            if len(names) > 1:
                one = min(names, key=lambda name: (name not in current, -written[name], name))
                self._spelling.update({name: one for name in names if name != one})
                for name in names:
                    if name != one:
                        self.played_as[one] |= self.played_as.pop(name, set()) | {name}
                self.notes["Names written several ways, one player (case and accents aside)"].append(
                    f"{', '.join(name for name in names if name != one)} -> {one}")
        for decision in decisions:
            decision.strengths = {self._spelling.get(name, name): strength
                                  for name, strength in decision.strengths.items()}

    def _former_names_pattern(self) -> re.Pattern | None:
        """Every former name, longest first, as a whole word; None when no player was renamed."""
        olds = sorted(list(self._full_names) + list(self.renames), key=len, reverse=True)
        if not olds:
            return None
        return re.compile(r"(?<![\w.])(?:" + "|".join(re.escape(old) for old in olds) + r")(?![\w])")

    def current_names(self, words: str) -> str:
        """Prose of the Rulekeepor's (a commit's subject, a line of his history) with each player named as now:
        "Jason Cobb cleans Rule 105" -> "Janet cleans Rule 105"."""
        if self._former_names is None:
            return words
        return self._former_names.sub(lambda m: self._full_names.get(m.group(0)) or self.renames[m.group(0)], words)

    # --- the Rulekeepor's repository -------------------------------------------------------------------

    def _yaml(self, content: str, path: str, commit: str):
        """A file's YAML, every value a string (dates as written: 2023-05-32 is in the record); yaml.YAMLError
        when it is not YAML, and a refusal of the whole import for a YAML bomb."""
        try:
            return load_yaml(content)
        except YamlBeyondBounds as error:
            raise ImportRefused(f"{path} at {commit[:10]}, line {error.line}", str(error)) from None

    def walk(self, low: int | None, high: int | None) -> _Walk:
        """The rules before the first change by a proposal numbered `low` or more (by any proposal, without
        `low`), every change after that up to proposal `high`, and what the walk saw on the way (_Walk)."""
        commits = log_records(self.ruleset, ("%H", "%cI", "%s"), "--first-parent", "--reverse",
                              "--diff-merges=first-parent", "--name-only", self.head, "--", *WALKED)
        files: dict[str, _Rule] = {}  # path -> the rule in it
        index: list[int | str] = []
        sections: list[tuple[str, str, list[int | str]]] = []
        layout: _Layout | None = None
        in_force: dict[int, _Rule] = {}
        numbered: dict[int, _Rule] = {}  # every rule file, by number
        walk: _Walk | None = None
        found: list[_Found] = []
        year_ends: dict[str, dict[int, _Rule]] = {}
        recorded: dict[int, tuple[str, str, str]] = {}
        ever: set[int] = set()      # every rule that has been in force: one that comes back is re-enacted
        commit = previous_date = ""
        with BlobReader(self.ruleset) as blobs:
            for (commit, date, subject), paths in commits:
                new_layout = next((lay for lay in LAYOUTS if blobs.present(commit, lay.index)), None)
                if new_layout is None:
                    continue
                noting = walk is not None
                if new_layout != layout:  # a new layout: read everything again
                    layout = new_layout
                    paths = [layout.index] + list_files(self.ruleset, commit, layout.folder)
                    files = {}
                if layout.index in paths:
                    listed = self._read_index(blobs, commit, layout, noting)
                    index, sections = listed if listed is not None else (index, sections)
                self._read_rule_files(blobs, commit, paths, files, layout, noting)
                was_in_force, was_numbered = in_force, numbered
                numbered = {rule.id: rule for rule in files.values()}
                in_force = self._in_force(index, files, numbered, layout, commit, noting)
                changes = self._changes(commit, date, subject, was_in_force, in_force, was_numbered, numbered, ever,
                                        noting) + self._annotated(commit, date, subject, was_in_force, in_force,
                                                                  noting)
                ever.update(in_force)
                if walk is None:  # the game starts at the first change by a proposal in range, rules before it
                    opening = [item for item in changes if (self._proposal_of(item) or -1) >= (low or 0)]
                    if was_in_force and opening:  # (the game starts on the day before, or with its first change)
                        start = min([previous_date] + [item.date for item in opening if item.date])
                        walk = _Walk(was_in_force, commit, start, found, year_ends)
                    else:
                        previous_date = date[:10]
                        continue
                if high is not None and any((self._proposal_of(item) or 0) > high for item in changes):
                    break
                if found and found[-1].commit_date[:4] != date[:4]:
                    year_ends.setdefault(found[-1].commit_date[:4], was_in_force)
                found.extend(changes)
                if (number := _proposal_recorded(subject, paths)) is not None:
                    recorded.setdefault(number, (commit, date[:10], subject))
                walk.latest.update(numbered)
                walk.final, walk.final_commit = in_force, commit
                if layout.index in paths or not walk.arrangements:
                    self._arrange(walk, date[:10], changes, self._numbered_sections(sections, files, numbered, layout))
        if layout is None:
            raise ImportRefused(str(self.ruleset), "--ruleset: is not a clone of AgoraNomic/ruleset (no commit holds "
                                f"the Rulekeepor's index of rules, {' or '.join(lay.index for lay in LAYOUTS)})")
        if walk is None:
            raise ImportRefused(str(self.ruleset), "no change by a proposal in the range was found in the "
                                "ruleset's history", self.problems)
        walk.recorded = recorded
        walk.ever = ever
        return walk

    def _read_rule_files(self, blobs: BlobReader, commit: str, paths: list[str], files: dict[str, _Rule],
                         layout: _Layout, noting: bool) -> None:
        """`files` (path -> the rule in it) as `commit` left the rule files of `paths` it changed."""
        for path in paths:
            if path == layout.index or not path.startswith(layout.folder) or \
                    not layout.titled and _number(path[len(layout.folder):]) is None:
                continue
            read = self._read_rule(blobs, commit, path, files.get(path), noting, layout)
            if read is not None:
                files[path] = read
            elif path in files and not blobs.present(commit, path):
                del files[path]

    @staticmethod
    def _arrange(walk: _Walk, day: str, changes: list[_Found],
                 sections: list[tuple[str, str, list[int]]]) -> None:
        """Keep the sections a commit left, from the day of the earliest change it records (the day it was made,
        where the Rulekeepor recorded it later; never before the sections before these), else its own day. A
        section without a title is none (the report could not name it): its rules are in the next that lists them."""
        sections = [section for section in sections if rule_title(section[0])[0]]
        if walk.arrangements and walk.arrangements[-1][1] == sections:
            return
        since = min([day] + [item.date for item in changes if item.date])
        if walk.arrangements:
            since = max(since, walk.arrangements[-1][0])
            if walk.arrangements[-1][0] == since:
                walk.arrangements.pop()
        else:
            since = walk.start_date
        walk.arrangements.append((since, sections))

    def _text(self, blobs: BlobReader, commit: str, path: str, noting: bool) -> str | None:
        """A file's text; None when it is absent, or past the cap on a file read (a problem, from the start on)."""
        try:
            return blobs.read(commit, path)
        except BlobTooLarge as error:
            if noting:
                self.problems.append(Problem(path, commit, 0, f"{error}: not read"))
            return None

    def _read_index(self, blobs: BlobReader, commit: str, layout: _Layout, noting: bool
                    ) -> tuple[list[int | str], list[tuple[str, str, list[int | str]]]] | None:
        """The rules the index lists, by number or (in a titled layout) by title, and its sections (name, note,
        rules); None when it cannot be read (a problem, from the start on): the rules in force are then those
        of the index before. Until 2018 the index maps each section's name to its rules."""
        path = layout.index
        content = self._text(blobs, commit, path, noting)
        if content is None:
            return None
        try:
            data = self._yaml(content, path, commit)
        except yaml.YAMLError as error:
            if noting:
                line, problem = yaml_problem(error)
                self.problems.append(Problem(path, commit, line, f"not YAML: {problem}; read as the index before it"))
            return None
        if isinstance(data, dict):
            groups = [(key, {"rules": value}) for key, value in data.items()]
        else:
            groups = [(section.get("name"), section) for section in _list(data) if isinstance(section, dict)]
        listed: dict[int | str, None] = {}  # (in order, once each)
        sections = []
        for name, section in groups:
            members: list[int | str] = []
            for rule in _list(section.get("rules")):
                if (number := _number(rule)) is not None:
                    members.append(number)
                elif layout.titled and isinstance(rule, str) and rule.strip():
                    members.append(rule.strip())
                elif noting:
                    self.problems.append(Problem(path, commit, 0, f"lists {_shown(rule)}, not a rule number (at most "
                                                 f"{MAX_DIGITS} digits): left out"))
            listed.update(dict.fromkeys(members))
            note = section.get("note")
            sections.append((clean_line(str(name or "")), note.strip() if isinstance(note, str) else "", members))
        return list(listed), sections

    def _in_force(self, index: list[int | str], files: dict[str, _Rule], numbered: dict[int, _Rule],
                  layout: _Layout, commit: str, noting: bool) -> dict[int, _Rule]:
        """The rules the index lists, by number: a title is the rule file's name, or the name of its file."""
        named: dict[str, _Rule] = {}
        if layout.titled:
            for path, rule in files.items():
                named.setdefault(rule.name, rule)
            for path, rule in files.items():
                named.setdefault(path.rsplit("/", 1)[-1], rule)
        out = {}
        for listed in index:
            rule = numbered.get(listed) if isinstance(listed, int) else named.get(rule_title(listed)[0])
            if rule is not None:
                out[rule.id] = rule
            elif isinstance(listed, str) and noting and listed not in self._unindexed:
                self._unindexed.add(listed)
                self.notes["Titles the index listed that no rule file holds (not in force: their files removed on "
                           "repeal before the index was fixed)"].append(f"{listed}, at commit {commit[:10]}")
        return out

    def _numbered_sections(self, sections: list[tuple[str, str, list[int | str]]], files: dict[str, _Rule],
                           numbered: dict[int, _Rule], layout: _Layout) -> list[tuple[str, str, list[int]]]:
        return [(name, note, list(self._in_force(members, files, numbered, layout, "", False)))
                for name, note, members in sections]

    def _read_rule(self, blobs: BlobReader, commit: str, path: str, before: _Rule | None, noting: bool,
                   layout: _Layout) -> _Rule | None:
        """The rule in the file at `path` (`before`, its version before this commit, if any); None when absent,
        commented out or unreadable (a problem, from the start on): a rule that cannot be read stays as it was.
        In a titled layout, a file that names no rule number (`id:`) is not a rule (the index, keywords)."""
        content = self._text(blobs, commit, path, noting)
        if content is None:
            return None

        def problem(line: int, message: str) -> None:
            if noting:
                self.problems.append(Problem(path, commit, line, message))

        try:
            data = self._yaml(content, path, commit)
        except yaml.YAMLError as error:
            line, what = yaml_problem(error)
            problem(line, f"not YAML: {what}; the rule is read as it was before")
            return None
        if layout.titled:
            if not isinstance(data, dict) or (rule := _number(data.get("id"))) is None:
                return None
        else:
            rule = int(path.rsplit("/", 1)[-1])  # (its name is a number: see walk)
            if not isinstance(data, dict):
                if noting:
                    self.notes["Commented out whole (read as absent)"].append(f"rule {rule} at commit {commit[:10]}")
                return None
        if not isinstance(data.get("text"), str):
            problem(0, "no text: the rule is read as it was before")
            return None
        name = data.get("name")
        if not isinstance(name, str):
            name = before.name if before else path.rsplit("/", 1)[-1] if layout.titled else ""
            problem(0, f"no name: it keeps its name '{name}'" if before else "no name: read as untitled")
        power = data.get("power")
        if not isinstance(power, str) or not _DECIMAL.fullmatch(power.strip()):
            said = "no power" if power is None else "its power is not a decimal such as 2.0"
            power = before.power if before else "1.0"
            problem(0, f"{said}: it keeps its power {power}" if before else f"{said}: read as 1.0 (R105's)")
        text = _rule_text(data["text"])
        longest = max(len(line) for line in text.split("\n"))
        if len(text) > MAX_RULE_CHARS or longest > MAX_QUOTED_LINE:
            problem(0, f"its text is {len(text):,} characters long, a line of it {longest:,}; a rule's text may hold "
                       f"at most {MAX_RULE_CHARS:,}, a line {MAX_QUOTED_LINE:,} (quoted in the log): the rule is read "
                       "as it was before")
            return None
        history = tuple(json.dumps(entry if isinstance(entry, dict) else free_text_entry(entry), sort_keys=True)
                        for entry in _list(data.get("history")) if isinstance(entry, (dict, str)))
        for line in _list(data.get("history")):
            if isinstance(line, str) and (said := proposal_said(line)) and said[1]:
                self._said_of_proposals.setdefault(said[0], (path, commit, said[1]))
        annotations = tuple(_annotation(item) for item in _list(data.get("annotations", data.get("cfjs")))
                            if isinstance(item, dict))
        for line in [clean_line(json.loads(entry).get("line") or "") for entry in history] + list(annotations):
            if len(line) > MAX_TITLE_CHARS:
                problem(0, f"a history entry or an annotation of {len(line):,} characters is cut to "
                           f"{MAX_TITLE_CHARS:,}")
        name, why = rule_title(name)
        if why:
            problem(0, why)
        revision = _number(data.get("rev"), least=0)
        return _Rule(rule, name, power.strip(), text, history, tuple(note for note in annotations if note), path,
                     revision, "annotations" in data or "cfjs" in data)

    def _changes(self, commit: str, date: str, subject: str, before: dict[int, _Rule], after: dict[int, _Rule],
                 files_before: dict[int, _Rule], files_after: dict[int, _Rule], ever: set[int],
                 noting: bool) -> list[_Found]:
        """What a commit did to each rule (in force `before` and `after` it; the files of every rule numbered, in
        force or not, `files_before` and `files_after`), each with the history entry that records it."""
        found = []
        for rule in sorted(before.keys() | after.keys()):
            old, new = before.get(rule), after.get(rule)
            if old is new:  # (a file the commit did not change)
                continue
            file_old, file_new = files_before.get(rule), files_after.get(rule)
            if changes := _rule_changes(rule, old, new, file_new, ever):
                found.append(self._recorded_change(commit, date, subject, rule, changes, (new or old or file_new
                                                                                         or file_old).path,
                                                   file_old, file_new, noting))
        return found

    def _recorded_change(self, commit: str, date: str, subject: str, rule: int, changes: list[Change], path: str,
                         file_old: _Rule | None, file_new: _Rule | None, noting: bool) -> _Found:
        """A commit's `changes` to a rule, with the history entry its file gained that records them (its agent, its
        day), and what the commit took from the rule's history said."""
        history_before, history_after = file_old.history if file_old else (), file_new.history if file_new else ()
        kept = set(history_before) & set(history_after)
        added = [json.loads(entry) for entry in history_after if entry not in kept]
        removed = [json.loads(entry) for entry in history_before if entry not in kept]
        # A file new to the commit brings the rule's whole history: only its last entry can be this change.
        entry = _matching_entry(added[-1:], changes, strict=True) if file_old is None else \
            _matching_entry(added, changes)
        if entry is not None:
            entry = self.final_entry(rule, entry)
        agent = entry.get("agent") if entry else None
        # An entry corrected (its date, its agent's name) is not one removed.
        removed = [item for item in removed if item.get("line") is None and not any(_corrects(new, item)
                                                                                    for new in added)]
        if removed and noting:
            said = dict(zip(file_old.history, self.history([json.loads(item) for item in file_old.history])))
            self.notes["Changes the Rulekeepor later removed from a rule's history"].extend(
                f"rule {rule}: {said[_canonical(item)]}, removed at commit {commit[:10]} ({subject})"
                for item in removed)
        entry_date = entry.get("date") if entry else None
        valid = _valid_date(entry_date)
        if entry is not None and entry_date is not None and valid is None and noting and not entry.get("line"):
            self.problems.append(Problem(path, commit, 0, f"the history entry's date {json.dumps(entry_date)} "
                                         "is not a day: dated by the commit"))
        return _Found(commit, subject, date, rule, path, changes, agent if isinstance(agent, dict) else None, valid,
                      (added[-1:] if file_old is None else added), history_after)

    def _annotated(self, commit: str, date: str, subject: str, before: dict[int, _Rule], after: dict[int, _Rule],
                   noting: bool) -> list[_Found]:
        """The annotations a commit adds to, or takes from, rules in force before and after it: an `Annotate` change
        for each new one, an `Unannotate` for each gone (a rewording is both). An annotation is the same whatever its
        call date is written as (2017's "20 June 2007" is now 2007-06-20): each is written as its rule's last file
        has it (_latest_annotations), so that those in force at the end are the FLR's."""
        found = []
        for rule, new in after.items():
            old = before.get(rule)
            if old is new or not new.annotated:  # (a file that says nothing of them takes none away)
                continue
            has = {_annotation_key(note): note for note in new.annotations}
            had = self._annotations_now.get(rule)
            if had is None:
                had = {_annotation_key(note): note for note in old.annotations} if old is not None else {}
            self._annotations_now[rule] = has
            if old is None:
                continue
            changes = _annotation_changes(rule, had, has)
            if changes:
                found.append(_Found(commit, subject, date, rule, new.path, changes, ANNOTATOR, None))
        return found

    def _latest_annotations(self, found: list[_Found], initial: dict[int, _Rule], latest: dict[int, _Rule]) -> None:
        """Each annotation written as the Rulekeepor last wrote it (the same finding, its call date written as
        now): as the rule's last file read has it, else as it was when he took it away."""
        texts: dict[int, dict[str, str]] = defaultdict(dict)
        for item in found:
            for change in item.changes:
                if change.kind in ("annotate", "unannotate"):
                    texts[change.rule][_annotation_key(change.text)] = change.text
        for number, rule in latest.items():
            texts[number].update({_annotation_key(note): note for note in rule.annotations})
        for item in found:
            for change in item.changes:
                if change.kind in ("annotate", "unannotate"):
                    change.text = texts.get(change.rule, {}).get(_annotation_key(change.text), change.text)
        for number, rule in list(initial.items()):
            now = texts.get(number, {})
            initial[number] = dataclasses.replace(rule, annotations=tuple(now.get(_annotation_key(note), note)
                                                                          for note in rule.annotations))

    def final_entry(self, rule: int, entry: dict) -> dict:
        """The history entry as the Rulekeepor has it now: later commits fix its date ("Fix date in R649 history")
        or its agent's name ("Jason Cobb", now Jason, whom name_replacement_data calls Janet). It is the entry at
        HEAD of the same rule and change with the same agent, else with the same date, where one alone is so."""
        if self._final is None:
            self._final = self._read_final()
        same = [item for item in self._final.get(rule, []) if change_type(item) == change_type(entry)]
        for key in ("agent", "date"):
            matches = [item for item in same if _canonical(item.get(key)) == _canonical(entry.get(key))]
            if len(matches) == 1:
                return {**entry, "date": matches[0].get("date"), "agent": matches[0].get("agent")}
        return entry

    def _read_final(self) -> dict[int, list[dict]]:
        """Each rule's history entries at HEAD (and its power as written there, in `self._final_powers`)."""
        out: dict[int, list[dict]] = {}
        self._final_powers: dict[int, str] = {}
        for layout in LAYOUTS:
            try:
                names = text(git(self.ruleset, "ls-tree", "-z", "--name-only", self.head, layout.folder)).split("\0")
            except GitError:
                continue
            names = [name for name in names if name]
            with BlobReader(self.ruleset) as blobs:
                for name in names:
                    if (rule := _number(name.rsplit("/", 1)[-1])) is None:
                        continue
                    try:
                        data = self._yaml(self._text(blobs, self.head, name, True) or "", name, self.head)
                    except yaml.YAMLError:
                        continue
                    history = _list(data.get("history")) if isinstance(data, dict) else []
                    out[rule] = [entry for entry in history if isinstance(entry, dict)]
                    if power := _decimal(data.get("power") if isinstance(data, dict) else None):
                        self._final_powers[rule] = power
            if names:
                break
        return out

    # --- the record as the Rulekeepor keeps it now -----------------------------------------------------------

    def _split(self, history: list[dict]) -> int:
        """Where a rule's history (as kept now) enters this archive: its first entry dated from the game's start on
        (those before are its History: before the archive)."""
        return next((index for index, entry in enumerate(history)
                     if (day := _valid_date(entry.get("date"))) and day >= self.start_date), len(history))

    def _credit(self, found: list[_Found], initial: dict[int, _Rule]) -> list[_Found]:
        """Every change credited from the rule's history as the Rulekeepor keeps it now: each change of a commit
        matched to an entry of it (the one the commit added, as he has corrected it since; else the first entry
        left of its kind dated by the commit), and given that entry's agent and date. A change whose entry he
        later struck is recorded as failed, what was recorded then kept as `corrected`; a change no entry
        accounts for (a rewrap, a correction of his text) is his, counts no revision, and is left out where it
        only undoes a change he struck. An entry no commit's change shows (a ratification that left the text as
        it was) becomes a change of its own. A rule without a history now (one repealed before 2020) keeps what
        its commits said. `self.credited` maps each change (by id) to its rule's history and the entry's place."""
        if self._final is None:
            self._final = self._read_final()
        self.credited: dict[int, tuple[list[dict], int]] = {}
        self._unseen_changes: set[int] = set()  # (by id: see _unseen)
        by_rule: dict[int, list[_Found]] = defaultdict(list)
        for item in found:
            if item.agent is not ANNOTATOR:
                by_rule[item.rule].append(item)
        replaced: dict[int, list[_Found]] = {}
        made: list[tuple[_Found, _Found | None]] = []  # (an entry no change showed, the item it goes before)
        named = {number for entries in self._final.values() for entry in entries
                 if isinstance(entry.get("agent"), dict) and (number := _number(entry["agent"].get("proposal")))}
        for rule, items in by_rule.items():
            if rule not in self._final:
                self._struck_whole(rule, items, named)
                continue
            history = self._final[rule]
            split = self._split(history)
            items = self._renamed_not_repealed(items, history, replaced)
            matched, used = self._matched_entries(history, split, items)
            start = initial.get(rule)  # the rule as the log replays it so far (failed changes left out)
            view: dict | None = {"in force": True, "text": start.text, "title": start.name, "power": start.power} \
                if start is not None else None
            for item in items:
                replaced[id(item)], view = self._credited_pieces(item, history, matched, view)
            pieces_of_rule = [piece for item in items for piece in replaced[id(item)]]
            for index in range(split, len(history)):
                if index not in used and (piece := self._unseen(rule, history, index, items)) is not None:
                    # (before the first change of the rule that comes after it in the rule's history)
                    later = next((other for other in pieces_of_rule if any(
                        self.credited.get(id(change), (None, -1))[1] > index for change in other.changes)), None)
                    made.append((piece, later))
        out: list[_Found] = []
        before: dict[int, list[_Found]] = defaultdict(list)
        for piece, later in made:
            before[id(later) if later is not None else 0].append(piece)
        for item in found:
            for piece in replaced.get(id(item), [item]):
                out += before.get(id(piece), [])
                out.append(piece)
        return out + before.get(0, [])

    def _matched_entries(self, history: list[dict], split: int, items: list[_Found]
                         ) -> tuple[dict[int, tuple[int | None, dict | None]], set[int]]:
        """Each change of a rule's commits (by id) matched to the entry of the rule's `history` that records it (its
        place), or to the entry its commit added that the Rulekeepor struck since; the entries the commits added
        first, then by date for the changes whose commits added none. And the places taken."""
        used: set[int] = set()
        matched: dict[int, tuple[int | None, dict | None]] = {}
        for item in items:
            for change in item.changes:
                matched[id(change)] = found_entry = self._said_entry(history, split, used, item, change)
                if found_entry[0] is not None:
                    used.add(found_entry[0])
        reached = split - 1  # (a change never takes an entry before one an earlier commit's change took)
        for item in items:
            for change in item.changes:
                if matched[id(change)] == (None, None):
                    matched[id(change)] = self._dated_entry(history, reached + 1, used, item, change), None
                    if matched[id(change)][0] is not None:
                        used.add(matched[id(change)][0])
            reached = max([reached] + [index for change in item.changes
                                       if (index := matched[id(change)][0]) is not None])
        return matched, used

    def _credited_pieces(self, item: _Found, history: list[dict], matched: dict[int, tuple[int | None, dict | None]],
                         view: dict | None) -> tuple[list[_Found], dict | None]:
        """A commit's changes to a rule, in pieces of one agent and day each as the entries they are matched to say
        (a change struck since: failed; a change no entry accounts for: the Rulekeepor's own), and the rule as
        the log replays it after them (`view` before)."""
        pieces: dict[tuple, list[Change]] = {}
        for change in item.changes:
            index, struck = matched[id(change)]
            if index is not None:
                entry = history[index]
                kind = KIND_OF_TYPE.get(change_type(entry))
                if {change.kind, kind} == {"enact", "reenact"}:
                    change.kind = kind
                self.credited[id(change)] = (history, index)
                change.corrected = self._recorded_then(item, entry, change)
                key = ("entry", _canonical(entry.get("agent")), _valid_date(entry.get("date")))
            elif struck is not None:
                change.failed = True
                change.corrected = f"recorded at commit {item.commit[:10]} ({item.commit_date[:10]}) as " \
                                   f"'{self._words_then(item, struck)}'; the Rulekeepor later took it out of " \
                                   "the rule's history"
                key = ("struck", _canonical(item.agent), item.date)
            else:
                key = ("none", "", None)
            pieces.setdefault(key, []).append(change)
        out: list[_Found] = []
        for (how, agent, date), changes in pieces.items():
            # (in the order of the rule's history: "Retitled", then "Amended(8)", as the FLR lists them)
            changes.sort(key=lambda change: matched[id(change)][0] if matched[id(change)][0] is not None
                         else len(history))
            after = _replayed(view, changes)
            if how == "none" and after == view:
                self.notes["Changes left out: each only undoes a change the Rulekeepor later struck"].append(
                    f"rule {item.rule} at commit {item.commit[:10]} ({item.subject})")
                continue
            view = after
            piece = dataclasses.replace(item, changes=changes)
            if how == "entry":
                piece.agent, piece.date = json.loads(agent), date
            elif how == "none":
                piece.agent, piece.date = dict(UNRECORDED_CHANGE), None
            out.append(piece)
        return out, view

    @staticmethod
    def _renamed_not_repealed(items: list[_Found], history: list[dict], replaced: dict[int, list[_Found]]
                              ) -> list[_Found]:
        """A rule whose file the 2017 layouts renamed with its title is read as repealed and enacted again on one day;
        where neither the commits nor the history say so, it is the rule amended and retitled."""
        days = {_valid_date(entry.get("date")) for entry in history
                if KIND_OF_TYPE.get(change_type(entry)) in ("repeal", "enact", "reenact")}
        out: list[_Found] = []
        for item in items:
            last = out[-1] if out else None
            if last is not None and [change.kind for change in last.changes] == ["repeal"] and \
                    [change.kind for change in item.changes] in (["reenact"], ["enact"]) and \
                    last.commit_date[:10] == item.commit_date[:10] and item.commit_date[:10] not in days and \
                    not any(KIND_OF_TYPE.get(change_type(entry)) in ("repeal", "enact", "reenact")
                            for entry in last.added + item.added):
                came = item.changes[0]
                replaced[id(last)] = []
                item.changes = [Change("amend", item.rule, text=came.text), Change("retitle", item.rule,
                                                                                  title=came.title)]
                out[-1] = item
                continue
            out.append(item)
        return out

    def _said_entry(self, history: list[dict], split: int, used: set[int], item: _Found,
                    change: Change) -> tuple[int | None, dict | None]:
        """The place in the rule's history now of the entry the commit added for one of its changes, as the
        Rulekeepor has corrected it since (the same agent, else the same date); where he struck it, None and that
        entry as recorded then; (None, None) where the commit added none."""
        kinds = _kinds(change)
        free = [index for index in range(split, len(history))
                if index not in used and KIND_OF_TYPE.get(change_type(history[index])) in kinds]
        said = [entry for entry in item.added if KIND_OF_TYPE.get(change_type(entry)) in kinds
                and not ((day := _valid_date(entry.get("date"))) and day < self.start_date)]
        for entry in said:
            for same in ([index for index in free if _who(history[index]) == _who(entry)],
                         [index for index in free if entry.get("date") is not None and
                          _canonical(history[index].get("date")) == _canonical(entry.get("date"))]):
                if same:
                    return same[0], None
        # What he added then (structured, from the game's start on) that no entry of the history he keeps now
        # gives, by that agent and of that kind, he struck.
        struck = next((entry for entry in said if "line" not in entry and not any(
            _who(other) == _who(entry) for other in history if KIND_OF_TYPE.get(change_type(other)) in kinds)), None)
        return None, struck

    @staticmethod
    def _dated_entry(history: list[dict], split: int, used: set[int], item: _Found, change: Change) -> int | None:
        """For a change whose commit added no entry: the first entry of its kind left in the rule's history, dated
        no later than the commit."""
        kinds = _kinds(change)
        return next((index for index in range(split, len(history)) if index not in used
                     and KIND_OF_TYPE.get(change_type(history[index])) in kinds
                     and (_valid_date(history[index].get("date")) or "9999") <= item.commit_date[:10]), None)

    def _recorded_then(self, item: _Found, entry: dict, change: Change) -> str:
        """What the commit recorded of a change, where the Rulekeepor corrected it since (its date, its agent):
        "" where it is as he keeps it now, or where the commit recorded nothing."""
        said = [then for then in item.added if KIND_OF_TYPE.get(change_type(then)) in _kinds(change)
                and "line" not in then]
        then = next((then for then in said if _who(then) == _who(entry)), None) or \
            next((then for then in said if _canonical(then.get("date")) == _canonical(entry.get("date"))), None)
        if then is None or (_who(then) == _who(entry) and _valid_date(then.get("date")) == _valid_date(entry.get("date"))):
            return ""
        return f"recorded at commit {item.commit[:10]} ({item.commit_date[:10]}) as '{self._words_then(item, then)}'"

    def _words_then(self, item: _Found, entry: dict) -> str:
        """A history entry in the FLR's words as the rule's history read when the commit added it."""
        history = [json.loads(line) for line in item.history_then]
        lines = self.history(history)
        canonical = _canonical(entry)
        return next((line for said, line in zip(item.history_then, lines) if _canonical(json.loads(said)) == canonical),
                    self.history([entry])[0])

    def _struck_whole(self, rule: int, items: list[_Found], named: set[int]) -> None:
        """A rule his record no longer holds, enacted by a proposal no rule's history names now (`named`) and taken
        out by a commit of his that records no repeal: he struck it whole (2017's rule 2942, whose enactment by
        P7850 no history gives now). Every change to it is recorded failed, with what was recorded then."""
        enacted, removed = items[0], items[-1]
        proposal = self._proposal_of(enacted)
        if not (any(change.kind == "enact" for change in enacted.changes) and proposal is not None
                and proposal not in named and removed.agent is None and not _PROPOSAL_SUBJECT.match(removed.subject)
                and any(change.kind == "repeal" for change in removed.changes)):
            return
        self.notes["Rules the Rulekeepor took out of his record whole (each change to them failed)"].append(
            f"rule {rule}, enacted by proposal {proposal} at commit {enacted.commit[:10]}, taken out at commit "
            f"{removed.commit[:10]} ({removed.subject})")
        for item in items:
            for change in item.changes:
                change.failed = True
                change.corrected = f"recorded at commit {item.commit[:10]} ({item.commit_date[:10]}); the " \
                                   f"Rulekeepor later took rule {rule} out of his record (no rule's history now " \
                                   f"names proposal {proposal}, which enacted it)"

    def _unseen(self, rule: int, history: list[dict], index: int, items: list[_Found]) -> _Found | None:
        """A change the rule's history gives that no commit shows (a ratification that left the text as it was, a
        change of power the Rulekeepor recorded later), dated from the game's start to the last commit read: an
        amendment to the same text, or the change of power; None for any other (IMPORT.md lists it)."""
        entry = history[index]
        day = _valid_date(entry.get("date"))
        kind = change_type(entry)
        if day is None or day < self.start_date or not items or day > self.last_commit_date:
            return None
        change = None
        title = (entry.get("change") or {}).get("new-title") or (entry.get("change") or {}).get("new-name")
        if kind in ("amendment", "null-amendment"):
            change = Change("amend", rule, text=None)  # (its text is the rule's then: see _record_revisions)
        elif kind == "retitling" and isinstance(title, str) and title.strip():
            change = Change("retitle", rule, title=rule_title(title)[0])
        elif kind == "power-change" and (power := _decimal((entry.get("change") or {}).get("new-power"))):
            # As the entry writes it; a power the rule has at HEAD as its file writes it (`3` where the entry has
            # `3.0`), which is how the FLR's heading shows it.
            head = self._final_powers.get(rule)
            change = Change("power", rule, power=head if head and Decimal(head) == Decimal(power) else power)
        if change is None:
            self.notes["Changes the rules' histories give that no commit shows (not in the log)"].append(
                f"rule {rule}: {self.history(history)[index]}")
            return None
        self.credited[id(change)] = (history, index)
        self._unseen_changes.add(id(change))
        agent = entry.get("agent") if isinstance(entry.get("agent"), dict) else None
        return _Found("", "", day + "T00:00:00", rule, items[0].path, [change], agent, day)

    def _record_revisions(self, entries: list[Entry], initial: dict[int, _Rule]) -> None:
        """Each credited change given, in the log's order, its history line in the FLR's words (a re-enactment of a
        rule the archive has not held before, the rule's earlier lives first) and the rule's revision after it as
        the Rulekeepor's generator counts (its history up to the latest entry the log has reached); a change no
        entry accounts for keeps the revision the rule had. An amendment to the same text (_unseen) is given it."""
        reached: dict[int, int] = {}
        revision: dict[int, int] = {}
        text = {number: rule.text for number, rule in initial.items()}
        in_force = set(initial)
        words: dict[int, list[str]] = {}
        for entry in entries:
            if entry.heading.startswith("Proposal ") and dict(entry.keys).get("Result") != "adopted":
                continue
            unknown = []
            for change in entry.changes:
                if id(change) in self._unseen_changes and (change.rule not in in_force or change.kind == "amend"
                                                           and change.rule not in text):
                    unknown.append(change)  # (no commit shows it, and the rule is not in force here)
                    history, index = self.credited[id(change)]
                    self.notes["Changes the rules' histories give that no commit shows, to a rule not in force "
                               "then (not in the log)"].append(f"rule {change.rule}: {self.history(history)[index]}")
                    continue
                if change.kind in ("annotate", "unannotate"):
                    continue
                if change.kind == "amend" and change.text is None:
                    change.text = text[change.rule]
                credited = self.credited.get(id(change))
                if credited is not None and not change.failed:
                    history, index = credited
                    key = id(history)
                    if key not in words:
                        words[key] = self.history(history)
                    lives = []
                    if change.kind == "reenact" and change.rule not in initial and change.rule not in reached:
                        lives = words[key][:index]
                    change.history = tuple(lives + [words[key][index]])
                    if index < reached.get(change.rule, -1):  # (recorded after changes his history puts after it)
                        change.place = index
                    reached[change.rule] = max(reached.get(change.rule, -1), index)
                    revision[change.rule] = revisions(history[:reached[change.rule] + 1])[1]
                    change.revision = revision[change.rule]
                elif change.rule in revision or (self._final.get(change.rule) and change.rule in initial
                                                 and change.rule in self._revision_before):
                    change.revision = revision.get(change.rule, self._revision_before.get(change.rule))
                if change.kind in ("enact", "reenact", "amend") and change.text is not None and not change.failed:
                    text[change.rule] = change.text
                if not change.failed and change.kind in ("enact", "reenact"):
                    in_force.add(change.rule)
                elif not change.failed and change.kind == "repeal":
                    in_force.discard(change.rule)
            entry.changes = [change for change in entry.changes if change not in unknown]

    def _proposal_of(self, item: _Found) -> int | None:
        if (number := _number((item.agent or {}).get("proposal"))) is not None:
            return number
        if item.agent is None and (m := _PROPOSAL_SUBJECT.match(item.subject)):
            return int(m.group(1))
        return None

    def read_proposal_notes(self) -> None:
        """The Rulekeepor's note of each proposal (title, author, power), read at HEAD: its file's path and YAML."""
        for layout in PROPOSAL_FOLDERS:
            names = [name for name in text(git(self.ruleset, "ls-tree", "-z", "--name-only", self.head, layout)
                                           ).split("\0") if name]
            # (a proposal of the 1990s the record names by its title, "A Separation of Powers", or as "01-003")
            numbered = {_number(name.rsplit("/", 1)[-1]) or clean_line(name.rsplit("/", 1)[-1]): name
                        for name in names}
            with BlobReader(self.ruleset) as blobs:
                for number, name in numbered.items():
                    try:
                        data = self._yaml(self._text(blobs, self.head, name, True) or "", name, self.head)
                    except yaml.YAMLError as error:
                        line, problem = yaml_problem(error)
                        self.problems.append(Problem(name, self.head, line, f"not YAML: {problem}; the proposal's "
                                                     "title, author and power are not read"))
                        continue
                    if isinstance(data, dict):
                        if "title" not in data and isinstance(data.get("name"), str):  # (8166's note says `name:`)
                            data["title"] = data["name"]
                        self.proposal_notes[number] = (name, data)
            if names:
                break

    # --- a rule's history, in the FLR's words --------------------------------------------------------------

    def cause(self, agent: dict) -> str:
        """Who made a change, as the FLR names them: P4833 'Title' (Maud), R2430, cleaning (Janet)..."""
        kind, value = next(iter(agent.items()))
        if kind == "proposal":
            number = clean_line(str(value))
            note = self.proposal_notes.get(_number(number) or number, ("", {}))[1]
            return proposal_words(number, note, self.as_written)
        if kind == "rule":
            return f"R{clean_line(str(value))}"
        if kind == "said":  # (as a line of the FLR of 2017 says it)
            return self.current_names(clean_line(str(value)))
        detail = value if isinstance(value, dict) else {}
        person = next((self.as_written(detail[key]) for key in ("by", "person", "engineer", "magister")
                       if isinstance(detail.get(key), str)), None)
        if kind == "convergence" and detail:
            return f"a convergence caused by {self.cause(detail)}"
        if kind in ("cleaning", "refiling") and person:
            return f"{kind} ({person})"
        if kind == "ratification" and detail.get("document"):
            return f"{clean_line(str(detail['document']))} ratification"
        if kind == "decree" and isinstance(value, str):
            return f"decree given by {self.as_written(value)}"
        if kind == "person" and isinstance(value, str):
            return self.as_written(value)
        if kind == "tournament_init" and person:
            return f"initiation of {clean_line(str(detail.get('name', '')))} by {person}"
        if kind == "tournament_change" and person:
            return f"{person} as part of {clean_line(str(detail.get('name', '')))}"
        if kind == "tournament_end" and person:
            return f"{person} after end of {clean_line(str(detail.get('name', '')))}"
        if kind == "rulebending" and person:
            return f"Rulebending Form demonstrated by {person}"
        if kind == "experiment" and person:
            return f"Experiment #{clean_line(str(detail.get('id', '')))} under Mad Engineer {person}"
        if detail:
            return f"{kind} (" + ", ".join(f"{key} {clean_line(str(inner))}" for key, inner in detail.items()) + ")"
        return clean_line(f"{kind} {value}")

    def history(self, entries: list[dict]) -> list[str]:
        """History entries as History: lines, in the FLR's words, titles and authors of proposals included."""
        notes = {number: note for number, (_, note) in self.proposal_notes.items()}
        return [with_titles(line, notes, self.as_written) if entry.get("line") else line
                for entry, line in zip(entries, history_lines(entries, self.cause))]

    # --- the Assessor's repository ---------------------------------------------------------------------

    def decisions(self) -> list[_Decision]:
        if self.assessor is None:
            return []
        tip = ""
        for branch in ("gh-pages", "origin/gh-pages"):
            try:
                tip = commit_id(self.assessor, branch)
                break
            except GitError:
                continue
        names = [item for item in text(git(self.assessor, "ls-tree", "-z", "--name-only", tip, "json/")
                                       ).split("\0") if item] if tip else []
        if not names:
            raise ImportRefused(str(self.assessor), "--assessor: is not a clone of AgoraNomic/assessor (its gh-pages "
                                "branch holds the Assessor's decisions in json/; this one "
                                + ("has no such folder)" if tip else "has no gh-pages branch)"))
        self.assessor_tip = tip
        first_seen: dict[str, str] = {}
        for (date,), added in log_records(self.assessor, ("%cI",), "--reverse", "--diff-filter=A", "--name-only", tip,
                                          "--", "json"):
            for name in added:
                first_seen.setdefault(name, date[:10])
        decisions = []
        with BlobReader(self.assessor) as blobs:
            for name in sorted(names):
                try:
                    batch = _load_json(blobs.read(tip, name) or "")
                except BlobTooLarge as error:
                    self.problems.append(Problem(name, tip, 0, f"{error}: none of its decisions is read"))
                    continue
                except json.JSONDecodeError as error:
                    self.problems.append(Problem(name, tip, error.lineno, f"not JSON: {error.msg}; none of its "
                                                 "decisions is read"))
                    continue
                except ValueError as error:
                    self.problems.append(Problem(name, tip, 0, f"not JSON: {error}; none of its decisions is read"))
                    continue
                date = first_seen.get(name)
                if date is None:  # (a merge's own changes are not in the log)
                    date = commit_date(self.assessor, tip)
                    self.problems.append(Problem(name, tip, 0, "no commit of gh-pages adds it (it came in a merge): "
                                                 "dated by its changes, else as the batch after it, else by the last "
                                                 f"commit ({date})"))
                decisions.extend(self._batch(name, tip, batch, date))
        if not decisions:
            raise ImportRefused(str(self.assessor), f"--assessor: no decision could be read from the "
                                f"{len(names)} files of json/ on {branch}", self.problems)
        return decisions

    def _batch(self, name: str, tip: str, batch, date: str) -> list[_Decision]:
        """The decisions of one of the Assessor's files; each part of it that cannot be read is a problem."""
        def problem(message: str) -> None:
            self.problems.append(Problem(name, tip, 0, message))

        if not isinstance(batch, dict) or not isinstance(batch.get("resolutions"), list):
            problem("holds no list of resolutions: none of its decisions is read")
            return []
        listed = batch.get("proposals", [])
        if not isinstance(listed, list):
            problem("its proposals are not a list: its decisions are written without their titles, authors and texts")
            listed = []
        proposals = {number: p for p in listed if isinstance(p, dict) and (number := _whole(p.get("number"), 1))}
        quorum = _whole(batch.get("quorum", 0))
        if quorum is None:
            problem(f"its quorum {_shown(batch.get('quorum'))} is not a whole number of ballots (of at most "
                    f"{MAX_DIGITS} digits): its decisions are written without a Quorum")
        out = []
        for item in batch["resolutions"]:
            if not isinstance(item, dict) or not isinstance(item.get("resolution"), dict):
                problem(f"a resolution that is not an object with a resolution ({_shown(item)}): left out")
                continue
            number = _whole(item.get("proposal"), least=1)
            if number is None:
                problem(f"a resolution of proposal {_shown(item.get('proposal'))}, not a proposal number (a whole "
                        f"number from 1, of at most {MAX_DIGITS} digits): left out")
                continue
            resolution = dict(item["resolution"])
            if resolution.get("result") not in RESULTS:
                problem(f"proposal {number}: its result {_shown(resolution.get('result'))} is none of "
                        f"{', '.join(RESULTS)}: written without a Result (check computes it)")
            votes = resolution.get("votes", [])
            if not isinstance(votes, list):
                problem(f"proposal {number}: its votes are not a list: written with no ballots")
                votes = []
            resolution["votes"] = [v for v in votes if isinstance(v, dict) and _named(v.get("voter"))
                                   and v.get("vote") in ("FOR", "AGAINST", "PRESENT")]
            if len(resolution["votes"]) != len(votes):
                left = len(votes) - len(resolution["votes"])
                problem(f"proposal {number}: {left} ballot{'s' if left != 1 else ''} without a voter or a FOR, AGAINST "
                        "or PRESENT vote, left out")
            where = Problem(name, tip, 0, f"proposal {number}")
            proposal = proposals.get(number, {})
            for raw in [v["voter"] for v in resolution["votes"]] + [proposal.get("author")] \
                    + _list(proposal.get("coauthors")):
                if not _named(raw):
                    continue
                self.name(raw, where)
            strengths = {}
            for entry in (s for s in _list(item.get("strengths")) if isinstance(s, dict)):
                strength = _whole(entry.get("final"))
                if strength is None:
                    problem(f"proposal {number}: the strength {_shown(entry.get('final'))} of "
                            f"{_shown(entry.get('person'))} is not a whole number of 0 or more (of at most "
                            f"{MAX_DIGITS} digits): the default is written")
                elif _named(entry.get("person")):
                    strengths[self.name(entry["person"], where)] = strength
            out.append(_Decision(number, name.removeprefix("json/"), proposals.get(number) or {},
                                 resolution, strengths, quorum or 0, date))
        return out

    # --- the game ------------------------------------------------------------------------------------

    def run(self, low: int | None, high: int | None) -> ImportedGame:
        try:
            decisions = self.decisions()
        except GitError as error:  # (the caller names the ruleset)
            raise ImportRefused(str(self.assessor), f"--assessor: {error}") from None
        self.read_proposal_notes()
        walk = self.walk(low, high)
        self.start_date = walk.start_date
        self.last_commit_date = walk.found[-1].commit_date[:10] if walk.found else walk.start_date
        found = self._credit(walk.found, walk.initial)
        self._latest_annotations(walk.found, walk.initial, walk.latest)
        for number, (path, commit, note) in self._said_of_proposals.items():  # for proposals the notes lack
            self.proposal_notes.setdefault(number, (f"{path} at {commit[:10]}", note))
        self._one_spelling(decisions)
        if low is None:  # from the first commit: every proposal it applies, but those it credits with old changes
            low = min((number for item in found if (number := self._proposal_of(item)) is not None
                       and (item.date or item.commit_date[:10]) >= walk.start_date), default=1)
        decisions = [d for d in decisions if _within(d.number, low, high)]
        self._mistyped_years(found)
        entries = self._entries(walk, found, decisions, low, high)
        used = {_entry_number(placed.entry) for placed in entries if placed.entry.heading.startswith("Proposal ")}
        missing = gaps(used, low, max(used | set(self.unauthored), default=low))
        log_entries = self._place_unrecorded(entries, missing)
        before = self._history_before(walk, log_entries)
        self._revision_before = {number: revision for number, (_, revision) in before.items() if revision is not None}
        self._record_revisions(log_entries, walk.initial)
        self._compare_the_end(walk, log_entries)
        first = min(used, default=low)
        files = self._game_files(walk, decisions, log_entries, first, before)
        files.update(self._log_files(log_entries))
        files.update(self._snapshots(walk, log_entries, found))
        logged = set(used) | set(self.unauthored) | {n for low_, high_ in missing for n in range(low_, high_ + 1)}
        if earlier := self._earlier_md(logged, first):
            files["earlier.md"] = earlier
        files["IMPORT.md"] = self._report(walk, decisions, log_entries, missing)
        count = sum(1 for entry in log_entries if entry.heading.startswith("Proposal "))
        return ImportedGame(files, count, self.problems)

    def _entries(self, walk: _Walk, found: list[_Found], decisions: list[_Decision], low: int, high: int | None
                 ) -> list[_Placed]:
        """The log's entries, in the Rulekeepor's order: each decided proposal from `low` to `high` with its
        changes, those he applied with no decision the Assessor's record holds, those he recorded adopted changing
        no rule, and the events (what one commit did by one agent on one day)."""
        by_proposal: dict[int, list[_Found]] = defaultdict(list)
        events: list[_Found] = []
        for item in found:
            number = self._proposal_of(item)
            if _within(number, low, high):
                by_proposal[number].append(item)
                if item.date is not None and item.date < walk.start_date:
                    self.problems.append(Problem(item.path, item.commit, 0, f"proposal {number}: the history entry's "
                                                 f"date {item.date} is before the game begins ({walk.start_date}): dated by "
                                                 "the commit"))
                    item.date = None
            else:
                events.append(item)
        position = {id(item): index for index, item in enumerate(found)}
        entries: list[_Placed] = []
        decided = self._decision_entries(decisions, by_proposal, events, entries, position)
        for number in sorted(set(by_proposal) - decided):
            if _named(self.proposal_notes.get(number, ("", {}))[1].get("author")):
                entries.append(self._undecided_entry(number, by_proposal[number], position))
            else:
                self._unauthored(number, by_proposal[number], events, "The Rulekeepor applied it (its changes are "
                                 "the events of its commits), and no record names its author.")
        for number, (commit, date, _) in sorted(walk.recorded.items()):
            if not _within(number, low, high) or number in by_proposal or number in decided \
                    or number in self.unauthored:
                continue
            if _named(self.proposal_notes.get(number, ("", {}))[1].get("author")):
                self.unchanging.append(number)
                entries.append(self._undecided_entry(number, [], position, (commit, date)))
            else:
                self._unauthored(number, [], events, f"The Rulekeepor recorded it adopted, changing no rule (commit "
                                 f"{commit[:10]}), and no record names its author.")
        # One event for what one commit did by one agent on one day ("Rule 2670 repeals Rules 2668-2674"):
        # its `By:` is checked once, before any of its changes.
        groups: dict[tuple, list[_Found]] = {}
        for item in sorted(events, key=lambda item: position[id(item)]):
            key = (item.commit, _canonical(item.agent), item.date)
            groups.setdefault(key, []).append(item)
        for group in groups.values():
            entries.append(self._event_entry(group, position))
        return self._in_the_rulekeepors_order(entries, position)

    def _game_files(self, walk: _Walk, decisions: list[_Decision], log_entries: list[Entry], first: int,
                    before: dict[int, tuple[list[str], int | None]]) -> dict[str, str]:
        """game.toml and rules.md: the players, the numbering, the sections over time; the rules before the first
        proposal the log holds."""
        players = sorted({name for entry in log_entries for key, value in entry.keys if key == "Proposer"
                          for name in [value]}
                         | {name for entry in log_entries for key, value in entry.keys if key == "Co-authors"
                            for name in value.split(", ")}
                         | {voter for d in decisions for voter in self._voters(d)},
                         key=lambda name: (name.casefold(), name))  # (Ørjan before ørjan, every time)
        # The highest rule in force when the game begins: a number the Rulekeepor gave once and took back (2942,
        # for 2492, in 2017) would make every later enactment a finding; one taken before and repealed, a number
        # used twice that goes unseen, is a slip check misses rather than one it invents.
        highest = max(walk.initial, default=0)
        if highest == MAX_NUMBER:
            self.problems.append(Problem(LAYOUTS[0].index, walk.start_commit, 0, f"the highest rule id, {highest}, "
                                         "leaves no number for the next rule: written without numbering.next_rule"))
        next_rule = highest + 1 if highest < MAX_NUMBER and not self._numbered_out_of_turn(log_entries, highest) \
            else None
        opening = next((_entry_number(entry) for entry in log_entries if entry.heading.startswith("Proposal ")), first)
        title = f"Agora's rules before proposal {opening}"
        rules_md = self._ruleset_md(title, walk.initial, history=before)
        if why := too_large_for(rules_md):
            raise ImportRefused(str(self.ruleset), f"the rules before proposal {opening}, as rules.md, would be a file "
                                f"that {why}", self.problems)
        spans = section_spans(walk.arrangements, walk.ever, _in_force_on(walk.initial, log_entries))
        game_toml = self._game_toml(walk.start_date, players, first, next_rule, spans)
        if why := too_large_for(game_toml, MAX_TOML_BYTES):
            raise ImportRefused(str(self.ruleset), f"the records name {len(players):,} players, whom game.toml lists: "
                                f"it would be a file that {why}", self.problems)
        return {"game.toml": game_toml, "rules.md": rules_md}

    @staticmethod
    def _log_files(log_entries: list[Entry]) -> dict[str, str]:
        """The log, a file a year (each cut in parts where it is long)."""
        by_year: dict[str, list[Entry]] = defaultdict(list)
        for entry in log_entries:
            by_year[entry.year].append(entry)
        files: dict[str, str] = {}
        for year, items in sorted(by_year.items()):
            logs = log_parts(f"# Agora, {year}\n\n{PREAMBLE}\n\n", items)
            files.update({f"log/{year}.md": logs[0]} if len(logs) == 1 else
                         {f"log/{year}-{n:03}.md": log for n, log in enumerate(logs, 1)})
        return files

    def _snapshots(self, walk: _Walk, log_entries: list[Entry], found: list[_Found]) -> dict[str, str]:
        """The Rulekeepor's rules at the end of each year the log holds but its last, as snapshots."""
        last_year = max((entry.year for entry in log_entries), default="")
        files: dict[str, str] = {}
        for year, state in sorted(walk.year_ends.items()):
            if year < last_year and year >= walk.start_date[:4]:
                snapshot = self._ruleset_md(f"The Rulekeepor's rules at the end of {year}", state,
                                            snapshot_date=f"{year}-12-31",
                                            behind=self._behind(year, state, walk, log_entries, found))
                if why := too_large_for(snapshot):
                    self.problems.append(Problem(str(self.ruleset), "", 0, f"the rules at the end of {year}, as a "
                                                 f"snapshot, would be a file that {why}: no snapshot of {year}"))
                else:
                    files[f"snapshots/{year}-12-31.md"] = snapshot
        return files

    def _behind(self, year: str, state: dict[int, _Rule], walk: _Walk, entries: list[Entry],
                found: list[_Found]) -> str:
        """Why the Rulekeepor's rules at the end of `year` are not what the log says took effect by then, where
        every rule in which they differ has a cause in the record: a change of the year he committed in a later
        one (a backlog), or an entry of the year he corrected or struck later. "" where they agree, or where a
        difference has no such cause (check then reports it)."""
        end = f"{year}-12-31"
        ours, his = _rules_after(walk.initial, entries, end), _as_compared(state)
        differ = {number for number in ours.keys() | his.keys() if ours.get(number) != his.get(number)}
        if not differ:
            return ""
        late = [item for item in found if (item.date or "9999") <= end < item.commit_date[:10] and item.rule in differ]
        corrected = [item for item in found if item.commit_date[:10] <= end and item.rule in differ
                     and any(change.failed and change.corrected for change in item.changes)]
        if not differ <= {item.rule for item in late + corrected}:
            return ""
        days = sorted({item.commit_date[:10] for item in walk.found})
        gaps = [(a, b) for a, b in zip(days, days[1:]) if a <= end < b]
        a, b = max(gaps, key=lambda gap: datetime.date.fromisoformat(gap[1]) - datetime.date.fromisoformat(gap[0]),
                   default=("", ""))
        said = []
        if late:
            said.append(f"{len(late)} change{'s' if len(late) != 1 else ''} of {year} the Rulekeepor committed after "
                        "the year's end" + (f" (nothing was committed from {a} to {b})"
                                            if a and (datetime.date.fromisoformat(b) -
                                                      datetime.date.fromisoformat(a)).days > 30 else ""))
        if corrected:
            said.append(f"{len(corrected)} change{'s' if len(corrected) != 1 else ''} he recorded by then and "
                        "struck from the rules' histories later")
        return "; ".join(said) + "."

    def _numbered_out_of_turn(self, entries: list[Entry], highest: int) -> bool:
        """Whether the log's enactments, after the highest rule before it, are not in increasing order (the
        Rulekeepor's rule 2942 of 2017, for 2492): numbering.next_rule would then make each later enactment a
        finding. Those out of the longest increasing run are listed."""
        enacted = [(change.rule, entry) for entry in entries for change in entry.changes
                   if change.kind == "enact" and not change.failed]
        below = [number for number, _ in enacted if number <= highest]
        late = [f"{len(below)} enactments numbered below {highest}, a rule in force when the game began (rules "
                f"{number_ranges(runs(below))})"] if below else []
        enacted = [(number, entry) for number, entry in enacted if number > highest]
        in_turn = increasing_subsequence([number for number, _ in enacted])
        late += [f"rule {number}, enacted by {entry.heading.split(':')[0].lower()} of {dict(entry.keys).get('Date')}"
                 for position, (number, entry) in enumerate(enacted) if position not in in_turn]
        if late:
            self.notes["Rules numbered out of turn (so game.toml has no numbering.next_rule)"].extend(late)
        return bool(late)

    def _in_the_rulekeepors_order(self, entries: list[_Placed], position: dict[int, int]) -> list[_Placed]:
        """The entries by date, and on one day in the order the Rulekeepor made their changes (an enactment before
        its same-day repeal); each rule's changes in the order he made them. A change he recorded after later
        changes to the same rule (an amendment by proposal 9254 of 2025-11-20, recorded in 2026-04 with a
        judgement that proposal 9300 had failed), placed by its date, would be undone by those made after it and
        before he recorded it: it is written where he recorded it, as an event (his whole-text record of a rule
        after it holds them all)."""
        moved: set[int] = set()
        for _ in range(len(position) + 1):
            entries.sort(key=lambda placed: (placed.date, placed.place))
            late = self._first_late_change(entries, position, moved)
            if late is None:
                return entries
            holder = next(placed for placed in entries if any(item is late for item in placed.items))
            holder.items.remove(late)
            holder.entry.changes = [change for item in holder.items for change in item.changes]
            if not holder.items and holder.entry.heading.startswith("Event:"):
                entries.remove(holder)
            elif holder.entry.heading.startswith("Proposal "):
                holder.entry.prose.append(f"Its change to rule {late.rule} is the event of {late.commit_date[:10]} "
                                          "where the Rulekeepor recorded it, after later changes to the rule.")
            moved.add(id(late))
            entries.append(self._event_entry([late], position, late=True))
        return entries

    @staticmethod
    def _first_late_change(entries: list[_Placed], position: dict[int, int], moved: set[int]) -> _Found | None:
        """The first change that, in the log's order, comes before a change to its rule that the Rulekeepor made
        before it (of the two, the one not yet written where he recorded it)."""
        latest: dict[int, _Found] = {}  # each rule's change the Rulekeepor made last, of those read so far
        for placed in entries:
            for item in placed.items:
                if item.agent is ANNOTATOR:  # (a note on the rule, whatever its text)
                    continue
                before = latest.get(item.rule)
                if before is not None and position[id(item)] < position[id(before)]:
                    if id(before) not in moved:
                        return before
                    if id(item) not in moved:
                        return item
                if before is None or position[id(item)] > position[id(before)]:
                    latest[item.rule] = item
        return None

    def _compare_the_end(self, walk: _Walk, entries: list[Entry]) -> None:
        """The rules in force after the log's last entry, held against the Rulekeepor's at the last commit read:
        each rule that differs is a problem (a change the import lost, or one the record contradicts)."""
        rules = _rules_after(walk.initial, entries)
        final = _as_compared(walk.final)
        commit = walk.final_commit
        differ = []
        for number in sorted(rules.keys() | final.keys()):
            ours, theirs = rules.get(number), final.get(number)
            if ours == theirs:
                continue
            differ.append(number)
            if ours is None or theirs is None:
                said = "is in force in the Rulekeepor's ruleset, not after the log" if ours is None else \
                    "is in force after the log, not in the Rulekeepor's ruleset"
            else:
                said = "differs in its " + ", ".join(what for what, a, b in zip(("title", "power", "text"), ours,
                                                                                theirs) if a != b) \
                    + " from the Rulekeepor's ruleset"
            self.problems.append(Problem("", commit, 0, f"rule {number}, after the log's last entry, {said}"))
        self.end = (len(final) - sum(1 for number in differ if number in final), len(final), commit)

    def _voters(self, decision: _Decision) -> list[str]:
        return [self.name(vote.get("voter", "")) for vote in decision.resolution.get("votes") or []
                if isinstance(vote, dict)]

    def _decision_entries(self, decisions: list[_Decision], by_proposal: dict[int, list[_Found]],
                          events: list[_Found], entries: list, position: dict[int, int]) -> set[int]:
        """Entries for the Assessor's decisions, each dated by the day the record gives its changes, else by its
        batch's day (see _batch_days)."""
        batches: dict[str, list[_Decision]] = defaultdict(list)
        for decision in decisions:
            batches[decision.batch].append(decision)
        # Batches in the order of their names, which is the Assessor's ("8188-8195", "8188A-8195A", "8196-...").
        names = sorted(batches, key=_batch_order)
        order = {name: position for position, name in enumerate(names)}
        decisions.sort(key=lambda d: (order[d.batch], d.number))
        # The changes a proposal made, by the decision that made them: its last adoption (see below).
        changer = {d.number: d for d in decisions if d.resolution.get("result") == "ADOPTED"}
        own = {id(d): day for number, d in changer.items() if (day := _recorded_day(by_proposal.get(number, [])))}
        days = self._batch_days(names, batches, changer, by_proposal, own)
        for d in decisions:
            d.date = own.get(id(d)) or days[d.batch]
        seen: dict[int, list[_Decision]] = defaultdict(list)
        kept = []
        for decision in decisions:
            earlier = seen[decision.number]
            if len(earlier) > len(string.ascii_uppercase):
                self.problems.append(Problem(f"json/{decision.batch}", self.assessor_tip, 0, f"proposal "
                                             f"{decision.number}: decided a {len(earlier) + 1}th time, and the format "
                                             "letters a decision taken again A to Z: left out"))
                continue
            decision.letter = string.ascii_uppercase[len(earlier) - 1] if earlier else ""
            earlier.append(decision)
            kept.append(decision)
        decisions[:] = kept  # (the caller counts what was written)
        decided: set[int] = set()
        made: list[tuple[_Decision, str, list[_Found]]] = []
        for decision in decisions:
            result = RESULTS.get(str(decision.resolution.get("result")), "")
            if not _named(decision.proposal.get("author")):
                self._unauthored(decision.number, by_proposal.pop(decision.number, []), events,
                                 f"The Assessor resolved it {decision.resolution.get('result') or 'with no result'} "
                                 f"({decision.batch}), with the ballots {self._votes(decision)}, naming no author.")
                decided.add(decision.number)
                continue
            same = seen[decision.number]
            adopted = [d for d in same if RESULTS.get(str(d.resolution.get("result"))) == "adopted"]
            takes_changes = decision is (adopted[-1] if adopted else same[-1])
            changes = by_proposal.get(decision.number, []) if takes_changes else []
            if changes and result != "adopted":
                self.notes["The two records disagree"].append(
                    f"proposal {decision.number}: the Assessor has it {decision.resolution.get('result')} "
                    f"({decision.batch}); the Rulekeepor applied its changes at commit {changes[0].commit[:10]}: "
                    "written as an event")
                events.extend(changes)
                changes = []
            if result == "adopted" and not changes and takes_changes:
                self.unchanging.append(decision.number)
            decided.add(decision.number)
            made.append((decision, result, changes))
        place = -1  # decisions keep the Assessor's order among themselves (8188 before 8188A)
        for decision, result, changes in made:
            if changes:
                place = max(place, min(position[id(item)] for item in changes))
            entries.append(_Placed(decision.date, place, self._decision_entry(decision, result, changes),
                                   list(changes)))
        return decided

    @staticmethod
    def _batch_days(names: list[str], batches: dict[str, list[_Decision]], changer: dict[int, _Decision],
                    by_proposal: dict[int, list[_Found]], own: dict[int, str]) -> dict[str, str]:
        """Each batch's day, for its decisions that changed no rule (the Assessor's files give no day): the day
        most of its adopted proposals have in the record (the first of equals; one proposal's slip of a day
        moves no other); else the first day it recorded a change the record struck since; else when its file
        was first committed, unless a later batch has a decision dated earlier (the first commit of the JSON
        brought 2019's batches at once)."""
        out: dict[str, str] = {}
        following = ""  # the first day of a decision of a later batch
        for name in reversed(names):
            changing = [d for d in batches[name] if changer.get(d.number) is d]
            days = Counter(own[id(d)] for d in changing if id(d) in own)
            struck = [item.date for d in changing for item in by_proposal.get(d.number, []) if item.date]
            first_committed = batches[name][0].date  # (never empty: see decisions)
            out[name] = min(days, key=lambda day: (-days[day], day)) if days else min(struck) if struck \
                else min(first_committed, following) if following else first_committed
            if days or struck:
                following = min(days or struck)
        return out

    def _decision_entry(self, decision: _Decision, result: str, found: list[_Found]) -> Entry:
        proposal = decision.proposal
        where = Problem(f"json/{decision.batch}", self.assessor_tip, 0, f"proposal {decision.number}")
        title = self._title(proposal.get("title"), where)
        heading = f"Proposal {decision.number}{decision.letter}" + (f": {title}" if title else "")
        keys = [("Proposer", self.name(proposal["author"]))]  # (named: see the caller)
        coauthors = [self.name(name) for name in _list(proposal.get("coauthors")) if _named(name)]
        if coauthors:
            keys.append(("Co-authors", ", ".join(coauthors)))
        keys.append(("Date", decision.date))
        decision_ai = self._index(proposal.get("decision_ai"), where)
        proposal_ai = _decimal(proposal.get("proposal_ai"))
        if decision_ai:
            keys.append(("Index", decision_ai))
        if proposal_ai and decision_ai and Decimal(proposal_ai) < Decimal(decision_ai):
            keys.append(("Power", proposal_ai))
        if decision.quorum:
            keys.append(("Quorum", str(decision.quorum)))
        keys.append(("Votes", self._votes(decision)))
        if result:
            keys.append(("Result", result))
        changes = [change for item in found for change in item.changes]
        prose = [_sources(decision.batch, [item.commit for item in found])]
        conditional = self._resolved_ballots(decision)
        if conditional:
            prose.append("Ballots the Assessor resolved: " + "; ".join(conditional) + ".")
        if proposal.get("text"):
            text = _fenced(str(proposal["text"]))
            longest = max(len(line) for line in text.split("\n"))
            if len(text) <= MAX_RULE_CHARS and longest <= MAX_LINE_CHARS:
                prose += ["As proposed:", text]  # (its own words; the changes above are what the Rulekeepor did)
            else:
                self.problems.append(dataclasses.replace(where, message=f"{where.message}: its text, of "
                                                         f"{len(text):,} characters and a line of {longest:,}, is "
                                                         f"left out (a line may hold at most {MAX_LINE_CHARS:,})"))
        else:
            prose.append(NOT_RECORDED)
        return Entry(heading, keys, changes, prose, year=decision.date[:4])

    def _votes(self, decision: _Decision) -> str:
        votes = [v for v in decision.resolution.get("votes") or [] if isinstance(v, dict)]
        default = self._default_strength(decision, votes)
        groups = []
        for kind, word in VOTE_GROUPS:
            names = [self.name(v.get("voter", "")) for v in votes if v.get("vote") == kind]
            if names:
                groups.append(f"{word} " + ", ".join(f"{name} x{decision.strengths.get(name, default)}"
                                                     for name in names))
        return "; ".join(groups) or "none"

    def _default_strength(self, decision: _Decision, votes: list[dict]) -> int:
        """The strength of the voters the batch does not list: what F and A leave for them (R2156's 3 by default)."""
        for kind, total_key in (("FOR", "strength_for"), ("AGAINST", "strength_against")):
            names = [self.name(v.get("voter", "")) for v in votes if v.get("vote") == kind]
            unlisted = [name for name in names if name not in decision.strengths]
            total = _whole(decision.resolution.get(total_key))
            if unlisted and total is not None:
                rest = total - sum(decision.strengths[name] for name in names if name in decision.strengths)
                if rest >= 0 and rest % len(unlisted) == 0:
                    return rest // len(unlisted)
                self.problems.append(Problem(f"json/{decision.batch}", self.assessor_tip, 0, f"proposal "
                                             f"{decision.number}: {total_key} {total} cannot be shared among "
                                             f"{len(unlisted)} ballots of default strength: written with strength "
                                             f"{DEFAULT_STRENGTH}"))
                return DEFAULT_STRENGTH
        return DEFAULT_STRENGTH

    def _resolved_ballots(self, decision: _Decision) -> list[str]:
        out = []
        for vote in decision.resolution.get("votes") or []:
            kinds = sorted({c.get("kind") for c in _list(vote.get("comments")) if isinstance(c, dict)
                            and c.get("kind") in ("conditional", "endorsement", "author_endorsement",
                                                  "endorsement_default")})
            if kinds:
                out.append(f"{self.name(vote.get('voter', ''))} ({', '.join(k.replace('_', ' ') for k in kinds)})")
        return out

    def _title(self, value, where: Problem) -> str:
        """A proposal's title (or an event's subject) for its heading; a problem `where` when it must be cut."""
        title, why = short_title(str(value or ""))
        if why:
            self.problems.append(dataclasses.replace(where, message=f"{where.message}: {why}"))
        return title

    def _index(self, value, where: Problem) -> str | None:
        """An adoption index as `Index:` takes it, a decimal above 0; else None, and a problem `where` when the
        record gives one."""
        index = _decimal(value)
        if index is not None and Decimal(index) > 0:
            return index
        if value is not None:
            self.problems.append(dataclasses.replace(where, message=f"{where.message}: its adoption index "
                                                     f"{_shown(value)} is not a decimal above 0: written without an "
                                                     "Index (1.0 applies)"))
        return None

    def _unauthored(self, number: int, found: list[_Found], events: list[_Found], said: str) -> None:
        """A proposal no record names an author for: the format writes a proposal with its proposer, and none may
        be made up, so its number is unrecorded, saying what the records hold, and its changes are events."""
        self.unauthored[number] = said
        events.extend(found)
        self.notes["Proposals no record names an author for (unrecorded numbers; their changes are events)"].append(
            f"{number}: {said}")

    def _undecided_entry(self, number: int, found: list[_Found], position: dict[int, int],
                         recorded: tuple[str, str] | None = None) -> _Placed:
        """A proposal the Assessor's record lacks, as the Rulekeepor applied it (`found`), or as a commit of his
        recorded it changing no rule (`recorded`: the commit and its date): adopted, with no ballots."""
        date = _recorded_day(found) or min((item.date for item in found if item.date),
                                           default=found[0].commit_date[:10] if found else recorded[1] if recorded
                                           else "")
        path, note = self.proposal_notes.get(number, ("", {}))
        where = Problem(path, self.head, 0, f"proposal {number}")
        title = self._title(note.get("title"), where)
        keys = [("Proposer", self.name(note["author"], where))]  # (named: see the caller)
        coauthors = [self.name(name, where) for name in _list(note.get("coauthors")) if _named(name)]
        if coauthors:
            keys.append(("Co-authors", ", ".join(coauthors)))
        keys.append(("Date", date))
        power = self._index(note.get("power"), where)
        if power:  # the power it took effect with (R106); no ballots, and no index to count them by
            keys.append(("Power", power))
        applied = "applied it" if found else "recorded it adopted, changing no rule"
        keys += [("Result", "adopted"), ("Note", f"The Assessor's record has no decision on it; the Rulekeepor "
                                                 f"{applied}.")]
        heading = f"Proposal {number}" + (f": {title}" if title else "")
        changes = [change for item in found for change in item.changes]
        commits = [item.commit for item in found] + ([recorded[0]] if recorded else [])
        self.notes["Applied by the Rulekeepor, not in the Assessor's record"].append(str(number))
        place = min((position[id(item)] for item in found), default=len(position))
        # (neither record keeps the text of a proposal only the Rulekeepor recorded: said, not shown as its text)
        prose = [_sources(None, commits), NOT_RECORDED]
        return _Placed(date, place, Entry(heading, keys, changes, prose, year=date[:4]), list(found))

    def _event_entry(self, group: list[_Found], position: dict[int, int], *, late: bool = False) -> _Placed:
        """What one commit did by one agent on one day. A change recorded `late` (see _in_the_rulekeepors_order)
        is dated by its commit and says when its history entry dates it."""
        first = group[0]
        agent = first.agent or ({"proposal": str(number)} if (number := self._proposal_of(first)) else None)
        # A history entry dated before the game (a change of 1997 the Rulekeepor recorded in 2018) is dated by
        # its commit, which the log's order needs.
        early = first.date is not None and first.date < self.start_date
        date = first.commit_date[:10] if late or early or not first.date else first.date
        where = Problem(first.path, first.commit, 0, "its history entry's agent")
        by = self._title(self._by(agent), where)
        if (named := _BY_RULE.match(by)) and _number(named.group(1)) is None:  # quoted, it names no rule to check
            self.problems.append(dataclasses.replace(where, message=f"{where.message}: a rule numbered past "
                                                     f"{MAX_DIGITS} digits: written in quotes"))
            by = f"'{by}'"
        if all(change.failed for item in group for change in item.changes):  # (struck since: no rule acted)
            by = f"as first recorded, {by}"
        keys = [("Date", date), ("By", by)]
        # Named by who made it, as the rule's history says: a commit's subject is at most a note.
        rules = sorted({item.rule for item in group})
        heading = "Event: " + (by[0].upper() + by[1:] if by else "A change") + \
            f": rule{'s' if len(rules) > 1 else ''} {number_ranges(runs(rules))}"
        if agent is None or agent == UNRECORDED_CHANGE:
            self.notes["Changes no history entry accounts for (the Rulekeepor's rewraps and corrections)"].extend(
                f"rule {item.rule} at commit {item.commit[:10]} ({item.subject})" for item in group)
        prose = [_sources(None, [first.commit] if first.commit else [])]
        if first.subject:
            prose.append(escape_markdown(f"The Rulekeepor's commit: \u201c{self.current_names(first.subject)}\u201d."))
        if early and not late:
            prose.append(f"The Rulekeepor's history dates this change {first.date}, before this archive begins; "
                         "it is dated here by his commit.")
        if late:
            dated = f" of {first.date}" if first.date else ""
            prose.append(f"The Rulekeepor's history gives this change{dated}; he recorded it here, "
                         f"after later changes to rule {first.rule}, and his text of the rule here holds them all.")
            self.notes["Changes recorded after later changes to their rule (written where the Rulekeepor recorded "
                       "them, as events)"].append(f"rule {first.rule}: by {by}{dated}, recorded at commit "
                                                  f"{first.commit[:10]} ({first.commit_date[:10]}, {first.subject})")
        changes = [change for item in group for change in item.changes]
        return _Placed(date, position[id(first)], Entry(heading, keys, changes, prose, year=date[:4]), list(group))

    def _by(self, agent: dict | None) -> str:
        """`By:` text for who made an event's changes: "rule 2650" (which check reads as naming a rule),
        "cleaning (Janet)", "proposal 9254 'Title' (ais523)"..."""
        if not agent:
            return "the Rulekeepor's correction (no history entry)"
        kind, value = next(iter(agent.items()))
        if kind == "rule" and (number := _number(value)) is not None:
            return f"rule {number}"
        cause = self.current_names(self.cause(agent))  # (the record's names, as its History line gives them)
        return f"proposal {cause[1:]}" if kind == "proposal" else cause

    def _place_unrecorded(self, entries: list[_Placed], missing: Runs) -> list[Entry]:
        """The entries in order, with `## Unrecorded` for the numbers neither record has, each before the
        first proposal numbered above it (where the numbering check looks), the last ones at the end."""
        out: list[Entry] = []
        pending = missing
        for placed in entries:
            entry = placed.entry
            if entry.heading.startswith("Proposal "):
                due, pending = runs_below(pending, _entry_number(entry))
                if due:
                    out.append(self._unrecorded(due, placed.date[:4]))
            out.append(entry)
        if pending:
            out.append(self._unrecorded(pending, entries[-1].date[:4] if entries else ""))
        return out

    def _unrecorded(self, due: Runs, year: str) -> Entry:
        notes = self.proposal_notes
        titled = [f"{n}: {clean_line(str(notes[n][1].get('title')))}" for n in sorted(k for k in notes if isinstance(k, int))
                  if notes[n][1].get("title") and any(low <= n <= high for low, high in due)]
        unauthored = [(n, said) for n, said in sorted(self.unauthored.items())
                      if any(low <= n <= high for low, high in due)]
        prose = ["Neither record holds a decision on these numbers"
                 + (" that can be written with its proposer." if unauthored else ".")]
        prose += [escape_markdown(f"Proposal {n}: {said}") for n, said in unauthored]
        if titled:
            prose.append("The Rulekeepor's notes name " + "; ".join(escape_markdown(t) for t in titled) + ".")
        return Entry(f"Unrecorded: {number_ranges(due)}", [], [], prose, year=year)

    def _history_before(self, walk: _Walk, entries: list[Entry]) -> dict[int, tuple[list[str], int | None]]:
        """Each rule's history before the archive, as History: lines, and its revision then: from its history as
        the Rulekeepor keeps it now (structured since 2017-11; the lines of the FLR before, for a rule repealed
        by then), up to the first entry the log holds (by a proposal the log holds, or dated from the start on)."""
        if self._final is None:
            self._final = self._read_final()
        in_log: dict[int, set[int]] = defaultdict(set)  # rule -> the proposals of the log that changed it
        for entry in entries:
            if entry.heading.startswith("Proposal "):
                for change in entry.changes:
                    in_log[change.rule].add(_entry_number(entry))
        out = {}
        for number, rule in walk.initial.items():
            latest = walk.latest.get(number)
            if self._final.get(number):
                history = self._final[number]
            elif latest is not None and any("line" not in json.loads(entry) for entry in latest.history):
                history = [json.loads(entry) for entry in latest.history]
            else:
                history = [json.loads(entry) for entry in rule.history]
            kept = []
            if self._final.get(number):  # (as _credit reads it)
                kept = history[:self._split(history)]
            else:
                for entry in history:
                    day = _valid_date(entry.get("date"))
                    if day and day >= walk.start_date or _number((entry.get("agent") or {}).get("proposal")) in \
                            in_log[number]:
                        break
                    kept.append(entry)
            counted = revisions(kept)[1] if kept else None
            out[number] = self.history(kept), rule.revision if all("line" in entry for entry in kept) and \
                rule.revision is not None else counted
        return out

    def _ruleset_md(self, title: str, rules: dict[int, _Rule], *,
                    history: dict[int, tuple[list[str], int | None]] | None = None,
                    snapshot_date: str | None = None, behind: str = "") -> str:
        """A ruleset as rules.md (with each rule's `history` before the archive, and its annotations) or as a
        snapshot."""
        out = [f"Date: {snapshot_date}" + (f"\nBehind: {behind}" if behind else "") + "\n"] if snapshot_date else []
        out += [f"# {heading_text(title)}", "", "## Mutable Rules"]
        for number in sorted(rules):
            rule = rules[number]
            heading = f"### {heading_text(rule_heading(number, rule.name or None))}"
            out += ["", heading, f"Power: {rule.power}"]
            if history is not None:
                lines, revision = history.get(number, ([], None))
                out += [f"Revision: {revision}"] if revision is not None else []
                out += [f"History: {short_title(line)[0]}" for line in lines]
            out += ["", rule.text]
            if history is not None:
                for note in rule.annotations:  # (as kept: two spaces within a line too; a long one quoted)
                    out += ["", f"Annotation: {note}" if len(note) <= MAX_TITLE_CHARS else f"Annotation:\n\n> {note}"]
        return "\n".join(out) + "\n"

    def _game_toml(self, start: str, players: list[str], first: int, next_rule: int | None,
                   sections: list[SectionSpan]) -> str:
        return "\n".join([
            'title = "Agora"',
            'description = "The longest-running Nomic (since 1993), imported from the Rulekeepor\'s and the '
            'Assessor\'s repositories by nomic-archive import agora."',
            f"start = {start}",
            toml_players(players),
            "",
            "# Proposals are numbered when distributed and resolved in batches: the log is in order of effect.",
            "[numbering]",
            f"first_proposal = {first}",
            "in_order = false",
            "amend_renumbers = false              # R2141: a rule keeps its id for life",
            "enact_takes_proposal_number = false",
            f"next_rule = {next_rule}" if next_rule else "",
            "",
            "# R955: adopted when F > A and F >= AI x A; the quorum is per batch.",
            "[adoption]",
            'method = "index"',
            "index = 1.0",
            "",
            "[scoring]",
            'turn = "none"',
            "defeated = 0",
            "against_adopted = 0",
            "",
            "[turns]",
            'order = "none"',
            "",
            "[limits]",
            "max_mutable = 0",
            "",
            "# R106: a proposal's power is at most 4; R2140 (power 3) bounds what lower powers may change.",
            "[rules]",
            "power = true",
            "power_default = 1.0",
            "power_cap = 4.0",
            "power_exempt = 3.0",
            "",
            *toml_aliases(self.played_as, players),
            *self._sections_toml(sections),
            *report_toml(self.ruleset, self.head, self.names_over_time)]).rstrip("\n") + "\n"

    def _sections_toml(self, sections: list[SectionSpan]) -> list[str]:
        """The FLR's sections (its index's), each with its note, as `[[sections]]`: each rule in the first that
        lists it, a note's paragraphs as Markdown that shows them as written; a section as it was for a time with
        its `from` and `until` (the days the index so arranged the rules)."""
        out = ["# The sections of the Full Logical Ruleset (the Rulekeepor's index), each with its note; those of",
               "# earlier arrangements with the days they held (from, until the day before)."] if sections else []
        said: set[str] = set()

        def problem(message: str) -> None:
            if message not in said:
                said.add(message)
                self.problems.append(Problem(LAYOUTS[0].index, self.head, 0, message))

        for span in sections:
            title, why = rule_title(span.title)
            if not title:
                continue
            if why:
                problem(f"the section '{shown(span.title)}': {why}")
            paragraphs = [escape_markdown(clean_line(part)) for part in re.split(r"\n\s*\n", span.note)
                          if part.strip()]
            text = "\n\n".join(paragraphs)
            longest = MAX_TOML_LINE_CHARS // 4 - len('note = ""')  # on one line, each character at most 4 escaped
            if len(text) > longest:
                problem(f"the note of the section '{title}' is {len(text):,} characters long, cut to {longest:,}")
                text = text[:longest - 1] + "\u2026"
            out += ["[[sections]]", f"title = {toml_string(title)}"] + ([f"note = {toml_string(text)}"] if text else [])
            out += [f"{key} = {day}" for key, day in (("from", span.since), ("until", span.until)) if day]
            out += [toml_numbers("rules", span.rules), ""]
        return out

    def _mistyped_years(self, found: list[_Found]) -> None:
        """A proposal's history date whose year was mistyped (`2018-01-15` for 2019's, in January; `2010-02-22` for
        2019-02-22), read as the proposals numbered beside it say: a date most of a year or more from the days of
        both (the nearest numbered below and above it) that, with either one's year, falls within weeks of both,
        and not after its commit. Said as a problem of the record. Proposals adopted out of their numbers' order
        are days apart, never most of a year, so no other date is touched."""
        days: dict[int, str] = {}
        for item in found:
            if (number := self._proposal_of(item)) is not None and item.date:
                days[number] = min(item.date, days.get(number, item.date))
        numbers = sorted(days)
        for item in found:
            number = self._proposal_of(item)
            place = bisect.bisect_left(numbers, number) if number is not None and item.date else 0
            if not 0 < place < len(numbers) - 1:
                continue
            beside = (numbers[place - 1], numbers[place + 1])
            if any(_days_apart(item.date, days[other]) < MIN_YEAR_SLIP_DAYS for other in beside):
                continue
            # (with another year, 29 February may be no day)
            read = sorted({day for other in beside if (day := _valid_date(f"{days[other][:4]}{item.date[4:]}"))
                           and day <= item.commit_date
                           and all(_days_apart(day, days[near]) <= MAX_YEAR_SLIP_NEIGHBOUR_DAYS for near in beside)})
            if read:
                self.problems.append(Problem(item.path, item.commit, 0, f"proposal {number}: the history entry's date "
                                             f"{item.date} is out of step with proposals {beside[0]} "
                                             f"({days[beside[0]]}) and {beside[1]} ({days[beside[1]]}): read as "
                                             f"{read[0]}, its year mistyped"))
                item.date = read[0]

    def _earlier_md(self, logged: set[int], first: int) -> str:
        """earlier.md (format 1.4): each proposal the Rulekeepor's notes hold (rules_data/proposals) numbered below
        the log's first and not in the log, as his note gives it (title, author, co-authors, power, a date where
        it has one, else the date of the earliest history entry crediting it) and a link to the note."""
        dated: dict[int, str] = {}
        for history in (self._final or {}).values():
            for entry in history:
                number = _number((entry.get("agent") or {}).get("proposal")) \
                    if isinstance(entry.get("agent"), dict) else None
                if number is not None and (day := _valid_date(entry.get("date"))):
                    dated[number] = min(dated.get(number, day), day)
        out, left = [], []
        for key, (path, note) in sorted(self.proposal_notes.items(), key=lambda item: str(item[0]).zfill(20)):
            if not path.startswith(PROPOSAL_FOLDERS):
                continue  # (a note made of the FLR's lines of 2017, not one of his)
            if not isinstance(key, int):
                left.append(f"{clean_line(str(key))} ({path}): the format numbers proposals")
                continue
            if key in logged or key >= first:
                continue
            where = Problem(path, self.head, 0, f"proposal {key}")
            title = self._title(note.get("title"), where)
            lines = [f"## Proposal {key}" + (f": {title}" if title else "")]
            if _named(note.get("author")):
                lines.append(f"Proposer: {self.name(note['author'], where)}")
            coauthors = [self.name(name, where) for name in _list(note.get("coauthors")) if _named(name)]
            if coauthors:
                lines.append(f"Co-authors: {', '.join(coauthors)}")
            if date := _valid_date(note.get("date")) or _valid_date(note.get("adopted")) or dated.get(key):
                lines.append(f"Date: {date}")
            if power := _decimal(note.get("power")):
                lines.append(f"Power: {power}")
            said = [f"chamber {clean_line(str(note['chamber']))}" if isinstance(note.get("chamber"), str) else "",
                    "disinterested" if str(note.get("disinterested")).lower() == "true" else ""]
            if any(said):
                lines.append("Note: The Rulekeepor's note says: " + "; ".join(filter(None, said)) + ".")
            lines += ["", f"The Rulekeepor's note: [{path}]({RULESET_FILES}{self.head}/{quote(path)}).", ""]
            out.append("\n".join(lines))
        if left:
            self.notes["Proposals the Rulekeepor's notes name, not numbered (not in earlier.md)"] += left
        self.earlier_count = len(out)
        if not out:
            return ""
        return ("# Agora's proposals before the log\n\nEach proposal the Rulekeepor's notes (`rules_data/proposals`) "
                "hold, from before the log begins: known from his note only.\n\n" + "\n".join(out))

    def _report(self, walk: _Walk, decisions: list[_Decision], entries: list[Entry], missing: Runs) -> str:
        proposals = [e for e in entries if e.heading.startswith("Proposal ")]
        ballots = sum(len(d.resolution.get("votes") or []) for d in decisions if d.number not in self.unauthored)
        kinds = Counter(change.kind for e in entries for change in e.changes)
        results = Counter(key_value for e in proposals for key, key_value in e.keys if key == "Result")
        read = (f"and the Assessor's (AgoraNomic/assessor, its gh-pages branch at `{self.assessor_tip[:10]}`)"
                if self.assessor else "(no --assessor: the proposals the Rulekeepor applied have no ballots)")
        same, of, commit = self.end
        late = Counter(item.date[:4] for item in walk.found if item.date and walk.start_date[:4] <= item.date[:4]
                       < item.commit_date[:4])
        out = ["# How this game was imported", "",
               f"`nomic-archive import agora` read the Rulekeepor's repository (AgoraNomic/ruleset, at "
               f"`{self.head[:10]}`) {read}.", "",
               f"- rules.md: the rules in force just before ruleset commit `{walk.start_commit[:10]}` (as of "
               f"{walk.start_date}), "
               "with each rule's earlier history as `History:` lines in the words of the Full Logical Ruleset, its "
               "revision and its annotations.",
               f"- The end: {same} of the {of} rules in force in the Rulekeepor's ruleset at `{commit[:10]}` are the "
               "rules in force after the log's last entry, title, power and text"
               + (" (each that differs is a problem below)." if same != of else "."),
               f"- Decisions: {len(proposals)} proposal entries ("
               + ", ".join(f"{n} {r}" for r, n in sorted(results.items())) + f"), {ballots} ballots, "
               f"{sum(1 for e in proposals if re.match(r'Proposal [0-9]+[A-Z]', e.heading))} decided again.",
               "- Rule changes: " + ", ".join(f"{n} {k}" for k, n in sorted(kinds.items())) + ".",
               f"- Events (changes by rules, cleanings, ratifications, corrections): "
               f"{sum(1 for e in entries if e.heading.startswith('Event:'))}.",
               f"- Unrecorded numbers: {number_ranges(missing) if missing else 'none'}.",
               "- Snapshots: the rules as the Rulekeepor's repository held them at the end of each year "
               "(snapshots/YEAR-12-31.md). Where he recorded a change after the day it took effect (a power change "
               "or a correction written in a later year), `check` reports that year's snapshot as differing from "
               "the replay: a slip of the record at that date, kept as he wrote it. Changes of a year he recorded "
               "in a later one: " + (", ".join(f"{year}: {count}" for year, count in sorted(late.items())) or "none")
               + ".",
               f"- Adopted, changing no rule: {number_ranges(runs(self.unchanging)) if self.unchanging else 'none'}.",
               f"- earlier.md: {self.earlier_count} proposals numbered below the log's first that the Rulekeepor's "
               "notes (rules_data/proposals) hold, each with his note's title, authors, power and date (where the "
               "note has none, the date of the earliest history entry crediting it).",
               "- Players are named as they are now: " + (", ".join(f"{old} -> {new}" for old, new in
                                                                   sorted(self.renames.items())) or "no renames") + "."
               + (" History lines keep the names the record gives; a report of a day names players as his list of "
                  f"that day did (game.toml's {len(self.names_over_time)} [[report.names]])."
                  if self.names_by_day and self.names_over_time else ""),
               ""]
        out += problems_section(self.problems)
        for heading, items in sorted(self.notes.items()):
            out += [f"## {heading} ({len(items)})", ""] + [f"- {escape_markdown(item)}" for item in items] + [""]
        return "\n".join(out)


MAX_NUMBER = 10 ** MAX_DIGITS - 1  # the greatest number an archive holds


class _Digits(str):
    """An integer of the record with more digits than a number may hold (MAX_DIGITS), kept as it is written."""


def _load_json(text: str):
    """JSON with each integer of more than MAX_DIGITS digits kept as its text, never made a number (one proposal
    numbered 10^12 would have the numbers up to it listed), and values nested at most MAX_NESTING deep (what
    walks them, as str() does, need not go deeper); ValueError when it is not such JSON."""
    try:
        data = json.loads(text, parse_int=lambda digits: int(digits) if len(digits.lstrip("-0")) <= MAX_DIGITS
                          else _Digits(digits))
    except RecursionError:  # json's own bound on nesting
        raise ValueError("its values nest too deep") from None
    opened = [(data, 1)]
    while opened:
        value, depth = opened.pop()
        if isinstance(value, (dict, list)):
            if depth > MAX_NESTING:
                raise ValueError(f"its values nest more than {MAX_NESTING} deep")
            opened.extend((item, depth + 1) for item in (value.values() if isinstance(value, dict) else value))
    return data


def _whole(value, least: int = 0) -> int | None:
    """A JSON value as the format reads a number: a whole number from `least` up to MAX_NUMBER (`true` is none)."""
    return value if type(value) is int and least <= value <= MAX_NUMBER else None


def _number(value, least: int = 1) -> int | None:
    """A number the record writes as text (a rule id, a file's name, a history entry's proposal): ASCII digits, at
    most MAX_DIGITS of them, from `least` up; None for anything else ("\u00b2", "12a", 10^12, a list)."""
    try:
        number = read_int(value) if isinstance(value, str) else None
    except ValueError:
        return None
    return number if number is not None and number >= least else None


def _shown(value) -> str:
    """A value of the record quoted in a problem: as JSON, on one line, shortened."""
    if isinstance(value, _Digits):
        return shorten(value)
    return shorten(clean_line(json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else f"'{value}'"))


def _corrects(entry: dict, old: dict) -> bool:
    """Whether a history entry is `old` with its date or its agent corrected."""
    return change_type(entry) == change_type(old) and (_canonical(entry.get("agent")) == _canonical(old.get("agent"))
                                                       or _canonical(entry.get("date")) == _canonical(old.get("date")))


# Who made a change the Rulekeepor records without a history entry: a rewrap, a correction of his own text.
UNRECORDED_CHANGE = {"said": "the Rulekeepor, with no history entry"}


def _who(entry: dict) -> str:
    """Who a history entry says made the change, as compared across the Rulekeepor's corrections: a proposal or
    rule by its number, a ratification by its document, anyone else (a cleaning, whose person's name he may
    have corrected since) by what they did."""
    agent = entry.get("agent")
    if not isinstance(agent, dict) or not agent:
        return ""
    kind, value = next(iter(agent.items()))
    if kind in ("proposal", "rule"):
        return f"{kind} {_number(str(value)) or clean_line(str(value))}"
    if kind == "ratification":
        return f"{kind} {_canonical(value)}"
    return str(kind)


def _recorded_day(items: list[_Found]) -> str | None:
    """The first day the record gives these changes now: of those it keeps (a change it struck since keeps the
    day it was first recorded with, which the record no longer says)."""
    return min((item.date for item in items if item.date and not all(change.failed for change in item.changes)),
               default=None)


def _kinds(change: Change) -> set[str]:
    """The kinds of history entry that may record a change: an enactment and a re-enactment are told apart by
    the record, not by the commit."""
    return {"enact", "reenact"} if change.kind in ("enact", "reenact") else {change.kind}


def _replayed(rule: dict | None, changes: list[Change]) -> dict | None:
    """A rule (in force or not, text, title, power) after changes to it (those failed left out), as the log
    replays them: None before anything is known of it."""
    state = dict(rule) if rule is not None else {}
    for change in changes:
        if change.failed or change.kind in ("annotate", "unannotate") or \
                change.kind not in ("enact", "reenact") and not state.get("in force"):
            continue  # (a change to a rule not in force changes nothing)
        if change.kind == "repeal":
            state["in force"] = False
            continue
        state["in force"] = True
        if change.text is not None and change.kind in ("enact", "reenact", "amend"):
            state["text"] = change.text
        if change.title is not None and change.kind in ("enact", "reenact", "retitle"):
            state["title"] = change.title
        if change.power is not None:
            state["power"] = change.power
    return state


def _folded_name(name: str) -> str:
    """A name as compared for spellings of one player: case, accents and the letters written two ways (ø, oe) aside."""
    folded = name.casefold()
    for letter, pair in (("ø", "oe"), ("æ", "ae"), ("å", "aa"), ("ß", "ss")):
        folded = folded.replace(letter, pair)
    return "".join(c for c in unicodedata.normalize("NFKD", folded) if not unicodedata.combining(c))


def _taking_effect(entries: list[Entry], until: str = "9999") -> Iterator[tuple[str, Change]]:
    """Each change of the rules the log's entries dated up to `until` make, as check replays them, with its day."""
    for entry in entries:
        day = dict(entry.keys).get("Date") or ""
        if entry.heading.startswith("Proposal ") and dict(entry.keys).get("Result") != "adopted" or \
                entry.heading.startswith("Unrecorded") or day > until:
            continue
        for change in entry.changes:
            if not change.failed and change.kind not in ("annotate", "unannotate"):
                yield day, change


def _in_force_on(initial: dict[int, _Rule], entries: list[Entry]) -> Callable[[int, str, str], bool]:
    """Whether the log has a rule in force, as check replays it, after the entries of some day from `since` to
    the day before `until` (ISO; "": from the start, to the end)."""
    days: dict[int, list[str]] = defaultdict(list)  # each rule's days of enactment and repeal, in turn
    states: dict[int, list[bool]] = defaultdict(list)
    for day, change in _taking_effect(entries):
        if change.kind in ("enact", "reenact", "repeal"):
            days[change.rule].append(day)
            states[change.rule].append(change.kind != "repeal")

    def in_force(rule: int, since: str, until: str) -> bool:
        on, now = days.get(rule, []), states.get(rule, [])
        first = bisect.bisect_right(on, since)
        last = bisect.bisect_left(on, until) if until else len(on)
        # in force after `since`, or after a later day's last change before `until`
        return (now[first - 1] if first else rule in initial) or any(
            now[at] for at in range(first, last) if at + 1 == len(on) or on[at + 1] != on[at])
    return in_force


def _rules_after(initial: dict[int, _Rule], entries: list[Entry], until: str = "9999") -> dict[int, tuple[str, str, str]]:
    """The rules in force (title, power, text) after the log's entries dated up to `until`, as check replays them."""
    rules = {number: (rule.name, rule.power, rule.text) for number, rule in initial.items()}
    last: dict[int, tuple[str, str, str]] = dict(rules)  # what a re-enactment without a text brings back
    for _, change in _taking_effect(entries, until):
        name, power, text = rules.get(change.rule) or last.get(change.rule) or ("", "", "")
        if change.kind == "repeal":
            rules.pop(change.rule, None)
            continue
        if change.kind in ("enact", "reenact", "amend"):
            text = change.text if change.text is not None else text
        if change.kind in ("enact", "reenact", "retitle"):
            name = change.title if change.title is not None or change.kind == "retitle" else name
        if change.kind in ("enact", "reenact", "power") and change.power is not None:
            power = change.power
        rules[change.rule] = last[change.rule] = (name or "", power, text)
    return {number: (name, _power_compared(power), text) for number, (name, power, text) in rules.items()}


def _as_compared(rules: dict[int, _Rule]) -> dict[int, tuple[str, str, str]]:
    return {number: (rule.name, _power_compared(rule.power), rule.text) for number, rule in rules.items()}


def _power_compared(power: str) -> str:
    return str(Decimal(power).normalize()) if _decimal(power) else power  # (a power of 3 is one of 3.0)


def _sources(batch: str | None, commits: list[str]) -> str:
    """Where an entry comes from, as links: the Assessor's report of its batch and the Rulekeepor's commits."""
    said = []
    if batch is not None:
        words = re.sub(r"([\\\[\]`*_<&])", r"\\\1", clean_line(batch))  # (its brackets cannot end the words)
        said.append(f"Assessor: [{words}]({ASSESSOR_FILES}{quote(batch, safe='')}).")
    if commits:
        said.append("Rulekeepor: " + ", ".join(f"[{commit[:10]}]({RULESET_COMMITS}{commit})"
                                               for commit in sorted(set(commits))) + ".")
    return " ".join(said)


ANNOTATOR = {"said": "the Rulekeepor, annotating"}  # who records a finding on a rule: no history entry says




def _annotation_changes(rule: int, had: dict[str, str], has: dict[str, str]) -> list[Change]:
    """The Unannotate and Annotate changes that make a rule's annotations `had` into `has` (each by its key, in its
    file's order), written so that the replay keeps the file's order: one that takes the place of one removed (a
    rewording: the same place between those kept) right after its removal, which it replaces (engine
    annotation_spans); new ones then, last or, where the file puts one before others, at its `Place:`; the removals
    no new one replaces last of all."""
    def between_kept(notes: dict[str, str], other: dict[str, str]) -> list[list[str]]:
        runs: list[list[str]] = [[]]
        for key in notes:
            if key in other:
                runs.append([])
            else:
                runs[-1].append(key)
        return runs

    paired, added, removed = [], [], []
    standing = list(had)  # (the replay's order as it reads these changes: the removals no new one replaces last)
    order = list(has)
    for gone, new in zip(between_kept(had, has), between_kept(has, had)):
        for old, key in zip(gone, new):
            paired += [Change("unannotate", rule, text=had[old]), Change("annotate", rule, text=has[key])]
            standing[standing.index(old)] = key
        for key in new[len(gone):]:
            follows = next((standing.index(later) for later in order[order.index(key) + 1:] if later in standing),
                           None)
            added.append(Change("annotate", rule, text=has[key], place=follows))
            standing.insert(len(standing) if follows is None else follows, key)
        removed += [Change("unannotate", rule, text=had[old]) for old in gone[len(new):]]
    return paired + added + removed


def _annotation_key(note: str) -> str:
    return " ".join(re.sub(r"\s*\(called [^)]*\)", "", note).casefold().split())


def _named(person) -> bool:
    """Whether a record names a person (an author, a voter): a name is never made up for one it leaves blank."""
    return isinstance(person, str) and bool(clean_line(person))


def _days_apart(one: str, other: str) -> int:
    """The days between two ISO days."""
    return abs((datetime.date.fromisoformat(one) - datetime.date.fromisoformat(other)).days)


def _canonical(value) -> str:
    """A value of the record as one string, whatever order its keys come in: values compare as wholes."""
    return json.dumps(value, sort_keys=True)


def _list(value) -> list:
    """A JSON or YAML value that should be a list: anything else is read as an empty one."""
    return value if isinstance(value, list) else []


def _batch_order(name: str) -> tuple[int, str, str]:
    """The Assessor's order: by the number a file's name starts with, compared as digits (a name may start with
    more digits than a number can hold)."""
    digits = re.match(r"0*([0-9]*)", name).group(1)
    return (len(digits), digits, name)


def _entry_number(entry: Entry) -> int:
    return int(re.match(r"Proposal ([0-9]+)", entry.heading).group(1))


def _decimal(value) -> str | None:
    value = str(value or "").strip()
    return value if _DECIMAL.fullmatch(value) else None


def _valid_date(value) -> str | None:
    if isinstance(value, str) and _ISO_DATE.fullmatch(value.strip()):
        try:
            return datetime.date.fromisoformat(value.strip()).isoformat()
        except ValueError:
            return None
    return None


def _matching_entry(added: list[dict], changes: list[Change], *, strict: bool = False) -> dict | None:
    """The history entry the commit added for these changes: one of the same kind, else (unless `strict`) the
    first added."""
    kinds = {change.kind for change in changes}
    for entry in added:
        if KIND_OF_TYPE.get(change_type(entry)) in kinds:
            return entry
    return added[0] if added and not strict else None


def _annotation(item: dict) -> str:
    """An annotation as the FLR gives it: "CFJ 708 (called between 1994-10-01 and 1994-10-31): finding"."""
    cfjs = [c for c in _list(item.get("cfjs")) if isinstance(c, dict)]
    cases = ", ".join(f"CFJ {clean_line(str(c.get('id')))}"
                      + (f" (called {called})" if (called := date_words(c.get("called"))) else "") for c in cfjs)
    body = item.get("text")
    if isinstance(body, dict):  # (2017: `text: {text: ...}`)
        body = body.get("text")
    body = one_line(str(body or ""))
    return f"{cases}: {body}" if cases else body


def _rule_text(text: str) -> str:
    body = text.rstrip("\n")
    return _fenced(body) if body else "```\n```"


def _fenced(body: str) -> str:
    """Agora's texts are plain text, hard-wrapped, with lists drawn in characters: a fenced block keeps them
    character for character (format 1.2, verbatim text). The fence is longer than any run of backticks in it.
    A carriage return is a line break, as the reader takes it (left in, a line after it would leave the quote a
    rule's text is in), and half a character (JSON's "\\ud800") no character."""
    body = _HALF_CHARACTER.sub("\ufffd", body.replace("\r\n", "\n").replace("\r", "\n"))
    fence = "`" * max(3, backtick_run(body) + 1)
    return f"{fence}\n{body}\n{fence}"
