"""Agora's records as a format 1.2 game: the Rulekeepor's repository (AgoraNomic/ruleset: one YAML file per
rule with its history, the index of the rules in force) and the Assessor's (AgoraNomic/assessor: one JSON
file per batch of decisions on its gh-pages branch).

The rules are followed commit by commit along the ruleset's first-parent history, reading only the files each
commit changes: a rule that enters the index is enacted (or re-enacted), one that leaves it is repealed, a new
text is a whole-text amendment, a new name a retitling, a new power a change of power. Each change is credited
to the agent of the history entry the same commit adds (a proposal, a rule, a cleaning, a ratification...);
a change no entry accounts for is the Rulekeepor's correction. Decisions come from the Assessor: ballots with
their strengths, the index, the quorum, the result. Where the two disagree, or one with itself, IMPORT.md says
so with the commit. Player names are written as they are now (the ruleset's name_replacement_data)."""
from __future__ import annotations

import dataclasses
import datetime
import json
import re
import string
from collections import Counter, defaultdict
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

import yaml

from ..limits import MAX_DIGITS, MAX_LINE_CHARS, MAX_NESTING, MAX_RULE_CHARS, MAX_TOML_BYTES
from ..model.names import shown
from ..parse.importer import (MAX_QUOTED_LINE, MAX_TITLE_CHARS, YamlBeyondBounds, clean_line, escape_markdown,
                              heading_text, load_yaml, rule_heading, rule_title, short_title, yaml_problem)
from ..parse.source import read_int, shorten
from .archive import (Change, Entry, ImportedGame, ImportRefused, Problem, Runs, backtick_run, gaps, number_ranges,
                      log_parts, player_name, problems_section, runs, runs_below, too_large_for,
                      toml_players)
from .gitread import FIELD, RECORD, BlobReader, BlobTooLarge, GitError, check_repository, commit_id, git, text

LAYOUTS = (("rules_data/config/index", "rules_data/rules/"), ("config/index", "rules/"))  # 2020-07 on; 2018-07 on
RESULTS = {"ADOPTED": "adopted", "REJECTED": "defeated", "FAILED_QUORUM": "failed-quorum"}
VOTE_GROUPS = (("FOR", "for"), ("AGAINST", "against"), ("PRESENT", "present"))
DEFAULT_STRENGTH = 3            # R2156: a player's voting strength is 3 unless modified
_ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_DECIMAL = re.compile(r"[0-9]{1,3}(?:\.[0-9]{1,3})?")
_BY_RULE = re.compile(r"rule\s+([0-9]+)\b", re.IGNORECASE)  # a By: line that check reads as naming a rule
_HALF_CHARACTER = re.compile("[\ud800-\udfff]")  # a surrogate, which no file can hold
_PROPOSAL_SUBJECT = re.compile(r"^(?:proposal|p)\s*([0-9]{3,5})\b", re.IGNORECASE)


@dataclass(frozen=True)
class _Rule:
    id: int
    name: str
    power: str
    text: str
    history: tuple[str, ...]     # each history entry as canonical JSON: entries compare as wholes
    annotations: tuple[str, ...]


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
                 last: str | None = None) -> ImportedGame:
    for name, repo in (("--ruleset", ruleset), ("--assessor", assessor)):
        if repo is not None:
            try:
                check_repository(repo)
            except GitError as error:
                raise ImportRefused(str(repo), f"{name}: {error}") from None
    low = _proposal_number(first, "--from")
    high = _proposal_number(last, "--to")
    try:
        return _Importer(ruleset, assessor).run(low, high)
    except GitError as error:
        raise ImportRefused(str(ruleset), str(error)) from None


def _proposal_number(value: str | None, option: str) -> int | None:
    if value is None:
        return None
    number = _number(value)
    if number is None:
        raise ImportRefused(option, f"must be a proposal number, such as 8253 (got '{shorten(value)}')")
    return number


class _Importer:
    def __init__(self, ruleset: Path, assessor: Path | None):
        self.ruleset = ruleset
        self.head = commit_id(ruleset, "HEAD")  # where the Rulekeepor's notes and corrected dates are read
        self.assessor = assessor
        self.notes: dict[str, list[str]] = defaultdict(list)   # IMPORT.md sections: what the records hold
        self.problems: list[Problem] = []  # what could not be read as it stands (from the start of the game on)
        self.assessor_tip = ""  # the commit the Assessor's files are read at
        self._named: set[str] = set()  # names said to be written otherwise
        self.renames: dict[str, str] = {}
        self.renames = self._renames()
        self.unchanging: list[int] = []   # adopted proposals that changed no rule (most change the gamestate)
        self._final_dates: dict[tuple, list] | None = None
        self._named: set[str] = set()  # names said to be written otherwise

    # --- names ---------------------------------------------------------------------------------------------

    def _renames(self) -> dict[str, str]:
        """Old name -> the name the player has now, from the Rulekeepor's name_replacement_data."""
        try:
            data = text(git(self.ruleset, "show", f"{self.head}:name_replacement_data"))
        except GitError:
            return {}
        pairs = {}
        for number, line in enumerate(data.splitlines(), start=1):
            old, sep, new = line.partition(":")
            if sep and old.strip() and new.strip():
                where = Problem("name_replacement_data", self.head, number, "")
                pairs[self.name(old, where, renamed=False)] = self.name(new, where, renamed=False)
        resolved = {}
        for old in pairs:
            name, seen = old, set()
            while name in pairs and name not in seen:
                seen.add(name)
                name = pairs[name]
            resolved[old] = name
        return resolved

    def name(self, raw, where: Problem | None = None, *, renamed: bool = True) -> str:
        """A player's name as the game writes it (`player_name`), as the player is named now unless `renamed` is
        false. A name that must be written otherwise is a problem `where` it is first read."""
        name, why = player_name(raw)
        if why and where is not None and str(raw) not in self._named:
            self._named.add(str(raw))
            self.problems.append(dataclasses.replace(where, message=(f"{where.message}: " if where.message else "")
                                                     + f"the name '{shown(str(raw))}' cannot be written as it is "
                                                     f"({why}): written '{name}'"))
        return self.renames.get(name, name) if renamed else name

    # --- the Rulekeepor's repository -------------------------------------------------------------------

    def _yaml(self, content: str, path: str, commit: str):
        """A file's YAML, every value a string (dates as written: 2023-05-32 is in the record); yaml.YAMLError
        when it is not YAML, and a refusal of the whole import for a YAML bomb."""
        try:
            return load_yaml(content)
        except YamlBeyondBounds as error:
            raise ImportRefused(f"{path} at {commit[:10]}, line {error.line}", str(error)) from None

    def walk(self, low: int | None, high: int | None):
        """(rules before the first change by a proposal numbered `low` or more, their commit, their date,
        every change after that, the Rulekeepor's rulesets at each year's end, the highest rule id seen)."""
        raw = text(git(self.ruleset, "log", "--first-parent", "--reverse", "--diff-merges=first-parent",
                       f"--format={RECORD}%H{FIELD}%cI{FIELD}%s", "--name-only", self.head, "--",
                       "config/index", "rules", "rules_data/config/index", "rules_data/rules"))
        rules: dict[int, _Rule] = {}
        index: list[int] = []
        layout = None
        initial = None
        found: list[_Found] = []
        year_ends: dict[str, dict[int, _Rule]] = {}
        highest = 0
        ever: set[int] = set()      # every rule that has been in the index: one that comes back is re-enacted
        skipped_old_layout = 0
        with BlobReader(self.ruleset) as blobs:
            for record in raw.split(RECORD)[1:]:
                head, _, names = record.partition("\n")
                commit, date, subject = head.split(FIELD, 2)
                paths = [name for name in names.split("\n") if name]
                new_layout = next((lay for lay in LAYOUTS if blobs.present(commit, lay[0])), None)
                if new_layout is None:
                    skipped_old_layout += 1
                    continue
                if new_layout != layout:  # a new layout: read everything again
                    layout = new_layout
                    paths = [layout[0]] + [f"{layout[1]}{rule}" for rule in index]
                index_path, folder = layout
                before_rules, before_index = dict(rules), list(index)
                if index_path in paths:
                    listed = self._read_index(blobs, commit, index_path, initial is not None)
                    index = index if listed is None else listed
                for path in paths:
                    if path.startswith(folder) and (rule := _number(path[len(folder):])) is not None:
                        read = self._read_rule(blobs, commit, path, rules.get(rule), initial is not None)
                        if read is not None:
                            rules[rule] = read
                        elif rule in rules and not blobs.present(commit, path):
                            del rules[rule]
                for rule in set(index) - set(before_index):
                    if rule not in rules:
                        read = self._read_rule(blobs, commit, f"{folder}{rule}", None, initial is not None)
                        if read is not None:
                            rules[rule] = read
                year = date[:4]
                in_force = {rule: rules[rule] for rule in index if rule in rules}
                was_in_force = {rule: before_rules[rule] for rule in before_index if rule in before_rules}
                changes = self._changes(commit, date, subject, was_in_force, in_force, before_rules, rules, ever,
                                        folder, initial is not None)
                ever.update(index)
                if initial is None:  # the game starts at the first change by a proposal in range, rules before it
                    if was_in_force and any((self._proposal_of(item) or -1) >= (low or 0) for item in changes):
                        initial = (was_in_force, commit, date[:10])
                    else:  # the highest id before the game: not one the first imported proposal enacts
                        highest = max([highest] + index)
                        continue
                if high is not None and any((self._proposal_of(item) or 0) > high for item in changes):
                    break
                if found and found[-1].commit_date[:4] != year:
                    year_ends.setdefault(found[-1].commit_date[:4], was_in_force)
                found.extend(changes)
        if skipped_old_layout:
            self.notes["Not read"].append(f"{skipped_old_layout} commits from before the index of rules "
                                          "(2018-07-31): their layouts (rules/<Title>) are not read.")
        if layout is None:
            raise ImportRefused(str(self.ruleset), "--ruleset: is not a clone of AgoraNomic/ruleset (no commit holds "
                                f"the Rulekeepor's index of rules, {' or '.join(index for index, _ in LAYOUTS)})")
        if initial is None:
            raise ImportRefused(str(self.ruleset), "no change by a proposal in the range was found in the "
                                "ruleset's history", self.problems)
        return initial, found, year_ends, highest

    def _text(self, blobs: BlobReader, commit: str, path: str, noting: bool) -> str | None:
        """A file's text; None when it is absent, or past the cap on a file read (a problem, from the start on)."""
        try:
            return blobs.read(commit, path)
        except BlobTooLarge as error:
            if noting:
                self.problems.append(Problem(path, commit, 0, f"{error}: not read"))
            return None

    def _read_index(self, blobs: BlobReader, commit: str, path: str, noting: bool) -> list[int] | None:
        """The rules the index lists; None when it cannot be read (a problem, from the start on): the rules in
        force are then those of the index before."""
        content = self._text(blobs, commit, path, noting)
        if content is None:
            return None
        try:
            sections = self._yaml(content, path, commit)
        except yaml.YAMLError as error:
            if noting:
                line, problem = yaml_problem(error)
                self.problems.append(Problem(path, commit, line, f"not YAML: {problem}; read as the index before it"))
            return None
        ids: dict[int, None] = {}  # (in order, once each)
        for section in sections if isinstance(sections, list) else []:
            for rule in (section.get("rules") or []) if isinstance(section, dict) else []:
                if (number := _number(rule)) is not None:
                    ids[number] = None
                elif noting:
                    self.problems.append(Problem(path, commit, 0, f"lists {_shown(rule)}, not a rule number (at most "
                                                 f"{MAX_DIGITS} digits): left out"))
        return list(ids)

    def _read_rule(self, blobs: BlobReader, commit: str, path: str, before: _Rule | None,
                   noting: bool) -> _Rule | None:
        """The rule in the file at `path` (`before`, its version before this commit, if any); None when absent,
        commented out or unreadable (a problem, from the start on): a rule that cannot be read stays as it was."""
        content = self._text(blobs, commit, path, noting)
        if content is None:
            return None
        rule = int(path.rsplit("/", 1)[-1])  # (its name is a number: see walk)

        def problem(line: int, message: str) -> None:
            if noting:
                self.problems.append(Problem(path, commit, line, message))

        try:
            data = self._yaml(content, path, commit)
        except yaml.YAMLError as error:
            line, what = yaml_problem(error)
            problem(line, f"not YAML: {what}; the rule is read as it was before")
            return None
        if not isinstance(data, dict):
            if noting:
                self.notes["Commented out whole (read as absent)"].append(f"rule {rule} at commit {commit[:10]}")
            return None
        if not isinstance(data.get("text"), str):
            problem(0, "no text: the rule is read as it was before")
            return None
        name = data.get("name")
        if not isinstance(name, str):
            name = before.name if before else ""
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
        history = tuple(json.dumps(entry, sort_keys=True) for entry in _list(data.get("history"))
                        if isinstance(entry, dict))
        annotations = tuple(_annotation(item) for item in _list(data.get("annotations")) if isinstance(item, dict))
        for line in [_history_line(json.loads(entry)) for entry in history] + list(annotations):
            if len(line) > MAX_TITLE_CHARS:
                problem(0, f"a history entry or an annotation of {len(line):,} characters is cut to "
                           f"{MAX_TITLE_CHARS:,}")
        name, why = rule_title(name)
        if why:
            problem(0, why)
        return _Rule(rule, name, power.strip(), text, history, tuple(note for note in annotations if note))

    def _changes(self, commit: str, date: str, subject: str, before: dict[int, _Rule], after: dict[int, _Rule],
                 files_before: dict[int, _Rule], files_after: dict[int, _Rule], ever: set[int], folder: str,
                 noting: bool) -> list[_Found]:
        found = []
        for rule in sorted(before.keys() | after.keys()):
            old, new = before.get(rule), after.get(rule)
            file_old, file_new = files_before.get(rule), files_after.get(rule)
            added = [json.loads(entry) for entry in (file_new.history if file_new else ())
                     if entry not in (file_old.history if file_old else ())]
            removed = [json.loads(entry) for entry in (file_old.history if file_old else ())
                       if entry not in (file_new.history if file_new else ())]
            changes: list[Change] = []
            if new is None:
                changes.append(Change("repeal", rule))
            elif old is None:
                kind = "reenact" if rule in ever or any(_change_type(entry) == "reenactment" for entry in added) \
                    else "enact"
                changes.append(Change(kind, rule, text=new.text, title=new.name or None, power=new.power))
            else:
                if old.name != new.name:
                    changes.append(Change("retitle", rule, title=new.name))
                if old.power != new.power:
                    changes.append(Change("power", rule, power=new.power))
                if old.text != new.text:
                    changes.append(Change("amend", rule, text=new.text))
            if not changes:
                continue
            entry = _matching_entry(added, changes)
            agent = entry.get("agent") if entry else None
            if removed and not added and noting:
                self.notes["Changes the Rulekeepor later removed from a rule's history"].extend(
                    f"rule {rule}: {_describe_entry(item)}, removed at commit {commit[:10]} ({subject})"
                    for item in removed)
            entry_date = self.final_date(rule, entry) if entry else None
            valid = _valid_date(entry_date)
            if entry is not None and entry_date is not None and valid is None and noting:
                self.problems.append(Problem(f"{folder}{rule}", commit, 0, f"the history entry's date "
                                             f"{json.dumps(entry_date)} is not a day: dated by the commit"))
            found.append(_Found(commit, subject, date, rule, f"{folder}{rule}", changes,
                                agent if isinstance(agent, dict) else None, valid))
        return found

    def final_date(self, rule: int, entry: dict):
        """The entry's date as the Rulekeepor has it now: later commits fix dates ("Fix date in R649 history")."""
        if self._final_dates is None:
            self._final_dates = self._read_final_dates()
        dates = self._final_dates.get((rule, _change_type(entry), json.dumps(entry.get("agent"), sort_keys=True)))
        return dates[0] if dates and len(dates) == 1 else entry.get("date")

    def _read_final_dates(self) -> dict[tuple, list]:
        out: dict[tuple, list] = defaultdict(list)
        for index_path, folder in LAYOUTS:
            try:
                names = text(git(self.ruleset, "ls-tree", "--name-only", self.head, folder)).split()
            except GitError:
                continue
            with BlobReader(self.ruleset) as blobs:
                for name in names:
                    rule = _number(name.rsplit("/", 1)[-1])
                    try:
                        data = self._yaml(self._text(blobs, self.head, name, True) or "", name, self.head) \
                            if rule else None
                    except yaml.YAMLError:
                        continue
                    for entry in _list(data.get("history")) if isinstance(data, dict) else []:
                        if isinstance(entry, dict):
                            key = (rule, _change_type(entry), json.dumps(entry.get("agent"), sort_keys=True))
                            out[key].append(entry.get("date"))
            if names:
                break
        return out

    def _proposal_of(self, item: _Found) -> int | None:
        if (number := _number((item.agent or {}).get("proposal"))) is not None:
            return number
        if item.agent is None and (m := _PROPOSAL_SUBJECT.match(item.subject)):
            return int(m.group(1))
        return None

    def proposal_files(self) -> dict[int, tuple[str, dict]]:
        """The Rulekeepor's note of each proposal (title, author, power), for numbers the Assessor lacks: the
        file's path and its YAML."""
        out: dict[int, tuple[str, dict]] = {}
        for layout in ("rules_data/proposals/", "proposals/"):
            names = [name for name in text(git(self.ruleset, "ls-tree", "-z", "--name-only", self.head, layout)
                                           ).split("\0") if name]
            numbered = {number: name for name in names if (number := _number(name.rsplit("/", 1)[-1]))}
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
                        out[number] = (name, data)
            if names:
                break
        return out

    # --- the Assessor's repository ---------------------------------------------------------------------

    def decisions(self) -> list[_Decision]:
        if self.assessor is None:
            return []
        branch = next((ref for ref in ("gh-pages", "origin/gh-pages") if _has_ref(self.assessor, ref)), None)
        names = [item for item in text(git(self.assessor, "ls-tree", "-z", "--name-only", branch, "json/")
                                       ).split("\0") if item] if branch else []
        if not names:
            raise ImportRefused(str(self.assessor), "--assessor: is not a clone of AgoraNomic/assessor (its gh-pages "
                                "branch holds the Assessor's decisions in json/; this one "
                                + ("has no such folder)" if branch else "has no gh-pages branch)"))
        tip = self.assessor_tip = commit_id(self.assessor, branch)
        added = text(git(self.assessor, "log", "--reverse", "--diff-filter=A", f"--format={RECORD}%cI",
                         "--name-only", tip, "--", "json"))
        first_seen: dict[str, str] = {}
        for record in added.split(RECORD)[1:]:
            date, _, added_names = record.partition("\n")
            for name in added_names.split("\n"):
                if name:
                    first_seen.setdefault(name, date.strip()[:10])
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
                decisions.extend(self._batch(name, tip, batch, first_seen.get(name, "")))
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
            resolution["votes"] = [v for v in votes if isinstance(v, dict) and isinstance(v.get("voter"), str)
                                   and v.get("vote") in ("FOR", "AGAINST", "PRESENT")]
            if len(resolution["votes"]) != len(votes):
                left = len(votes) - len(resolution["votes"])
                problem(f"proposal {number}: {left} ballot{'s' if left != 1 else ''} without a voter or a FOR, AGAINST "
                        "or PRESENT vote, left out")
            where = Problem(name, tip, 0, f"proposal {number}")
            proposal = proposals.get(number, {})
            for raw in [v["voter"] for v in resolution["votes"]] + [proposal.get("author") or "unknown"] \
                    + [raw for raw in _list(proposal.get("coauthors")) if isinstance(raw, str)]:
                self.name(raw, where)
            strengths = {}
            for entry in (s for s in _list(item.get("strengths")) if isinstance(s, dict)):
                strength = _whole(entry.get("final"))
                if strength is None:
                    problem(f"proposal {number}: the strength {_shown(entry.get('final'))} of "
                            f"{_shown(entry.get('person'))} is not a whole number of 0 or more (of at most "
                            f"{MAX_DIGITS} digits): the default is written")
                else:
                    strengths[self.name(entry.get("person", ""), where)] = strength
            out.append(_Decision(number, name.removeprefix("json/"), proposals.get(number) or {},
                                 resolution, strengths, quorum or 0, date))
        return out

    # --- the game ------------------------------------------------------------------------------------

    def run(self, low: int | None, high: int | None) -> ImportedGame:
        decisions = self.decisions()
        numbers = [d.number for d in decisions]
        if low is None:
            low = min(numbers) if numbers else None
        (rules, start_commit, start_date), found, year_ends, highest = self.walk(low, high)
        low = low or min((self._proposal_of(item) or 10 ** 6 for item in found), default=1)
        decisions = [d for d in decisions if d.number >= low and (high is None or d.number <= high)]
        notes_by_number = self.proposal_files()
        by_proposal: dict[int, list[_Found]] = defaultdict(list)
        events: list[_Found] = []
        for item in found:
            number = self._proposal_of(item)
            if number is not None and number >= low and (high is None or number <= high):
                by_proposal[number].append(item)
            else:
                events.append(item)
        # (date, place, entry): on one day, entries go in the order the Rulekeepor made their changes (an
        # enactment before its same-day repeal).
        position = {id(item): index for index, item in enumerate(found)}
        entries: list[tuple[str, int, Entry]] = []
        decided = self._decision_entries(decisions, by_proposal, events, entries, position)
        for number in sorted(set(by_proposal) - decided):
            entries.append(self._undecided_entry(number, by_proposal[number], notes_by_number.get(number),
                                                 position))
        # One event for what one commit did by one agent on one day ("Rule 2670 repeals Rules 2668-2674"):
        # its `By:` is checked once, before any of its changes.
        groups: dict[tuple, list[_Found]] = {}
        for item in sorted(events, key=lambda item: position[id(item)]):
            key = (item.commit, json.dumps(item.agent, sort_keys=True), item.date)
            groups.setdefault(key, []).append(item)
        for group in groups.values():
            entries.append(self._event_entry(group, position))
        entries.sort(key=lambda entry: (entry[0], entry[1]))
        used = {_entry_number(e) for _, _, e in entries if e.heading.startswith("Proposal ")}
        top = max(used, default=low)
        missing = gaps(used, low, top)
        log_entries = self._place_unrecorded(entries, missing, notes_by_number)
        players = sorted({key_value for entry in log_entries for key, value in entry.keys if key == "Proposer"
                          for key_value in [value]} | {voter for d in decisions for voter in self._voters(d)},
                         key=str.casefold)
        if highest == MAX_NUMBER:
            self.problems.append(Problem(LAYOUTS[0][0], start_commit, 0, f"the highest rule id, {highest}, leaves no "
                                         "number for the next rule: written without numbering.next_rule"))
        rules_md = _ruleset_md(f"Agora's rules before proposal {low}", rules, history=True)
        if why := too_large_for(rules_md):
            raise ImportRefused(str(self.ruleset), f"the rules before proposal {low}, as rules.md, would be a file "
                                f"that {why}", self.problems)
        game_toml = self._game_toml(start_date, players, low, highest + 1 if highest < MAX_NUMBER else None)
        if why := too_large_for(game_toml, MAX_TOML_BYTES):
            raise ImportRefused(str(self.ruleset), f"the records name {len(players):,} players, whom game.toml lists: "
                                f"it would be a file that {why}", self.problems)
        files = {"game.toml": game_toml, "rules.md": rules_md}
        by_year: dict[str, list[Entry]] = defaultdict(list)
        for entry in log_entries:
            by_year[entry.year].append(entry)
        for year, items in sorted(by_year.items()):
            logs = log_parts(f"# Agora, {year}\n\nImported by `nomic-archive import agora`; see IMPORT.md.\n\n", items)
            files.update({f"log/{year}.md": logs[0]} if len(logs) == 1 else
                         {f"log/{year}-{n:03}.md": log for n, log in enumerate(logs, 1)})
        last_year = max(by_year, default="")
        for year, state in sorted(year_ends.items()):
            if year < last_year and year >= start_date[:4]:
                snapshot = _ruleset_md(f"The Rulekeepor's rules at the end of {year}", state, history=False,
                                       snapshot_date=f"{year}-12-31")
                if why := too_large_for(snapshot):
                    self.problems.append(Problem(str(self.ruleset), "", 0, f"the rules at the end of {year}, as a "
                                                 f"snapshot, would be a file that {why}: no snapshot of {year}"))
                else:
                    files[f"snapshots/{year}-12-31.md"] = snapshot
        files["IMPORT.md"] = self._report(start_commit, start_date, decisions, log_entries, missing)
        count = sum(1 for entry in log_entries if entry.heading.startswith("Proposal "))
        return ImportedGame(files, count, self.problems)

    def _voters(self, decision: _Decision) -> list[str]:
        return [self.name(vote.get("voter", "")) for vote in decision.resolution.get("votes") or []
                if isinstance(vote, dict)]

    def _decision_entries(self, decisions: list[_Decision], by_proposal: dict[int, list[_Found]],
                          events: list[_Found], entries: list, position: dict[int, int]) -> set[int]:
        """Entries for the Assessor's decisions, each dated by its changes, else its batch's first commit."""
        batches: dict[str, list[_Decision]] = defaultdict(list)
        for decision in decisions:
            batches[decision.batch].append(decision)
        # Batches in the order of their names, which is the Assessor's ("8188-8195", "8188A-8195A", "8196-...").
        # A batch is dated by its adopted changes; one without is dated by when its file was first committed,
        # unless a later batch is dated earlier (the first commit of the JSON brought 2019's batches at once).
        names = sorted(batches, key=_batch_order)
        dated = {}
        for name in names:
            members = batches[name]
            dates = sorted(item.date for d in members for item in by_proposal.get(d.number, [])
                           if item.date and d.resolution.get("result") == "ADOPTED")
            if dates:
                dated[name] = dates[0]
        following = ""
        for name in reversed(names):
            date = dated.get(name) or min(filter(None, (batches[name][0].date, following)))
            following = dated.get(name, following)
            for d in batches[name]:
                d.date = date
        order = {name: position for position, name in enumerate(names)}
        decisions.sort(key=lambda d: (order[d.batch], d.number))
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
            entries.append((decision.date, place, self._decision_entry(decision, result, changes)))
        return decided

    def _decision_entry(self, decision: _Decision, result: str, found: list[_Found]) -> Entry:
        proposal = decision.proposal
        where = Problem(f"json/{decision.batch}", self.assessor_tip, 0, f"proposal {decision.number}")
        title = self._title(proposal.get("title"), where)
        heading = f"Proposal {decision.number}{decision.letter}" + (f": {title}" if title else "")
        keys = [("Proposer", self.name(proposal.get("author") or "unknown")), ("Date", decision.date)]
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
        coauthors = [self.name(name) for name in _list(proposal.get("coauthors")) if isinstance(name, str)]
        if coauthors:
            keys.append(("Note", "Co-authors: " + ", ".join(coauthors)))
        changes = [change for item in found for change in item.changes]
        prose = [f"Assessor: {decision.batch}." + (" Rulekeepor: " + ", ".join(sorted({f"`{i.commit[:10]}`" for i in found}))
                                                   + "." if found else "")]
        conditional = self._resolved_ballots(decision)
        if conditional:
            prose.append("Ballots the Assessor resolved: " + "; ".join(conditional) + ".")
        if proposal.get("text"):
            text = _fenced(str(proposal["text"]))
            longest = max(len(line) for line in text.split("\n"))
            if len(text) <= MAX_RULE_CHARS and longest <= MAX_LINE_CHARS:
                prose.append(text)
            else:
                self.problems.append(dataclasses.replace(where, message=f"{where.message}: its text, of "
                                                         f"{len(text):,} characters and a line of {longest:,}, is "
                                                         f"left out (a line may hold at most {MAX_LINE_CHARS:,})"))
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

    def _undecided_entry(self, number: int, found: list[_Found], noted: tuple[str, dict] | None,
                         position: dict[int, int]) -> tuple[str, int, Entry]:
        date = min((item.date for item in found if item.date), default=found[0].commit_date[:10])
        path, note = noted or ("", {})
        where = Problem(path, self.head, 0, f"proposal {number}")
        title = self._title(note.get("title"), where)
        keys = [("Proposer", self.name(note.get("author") or "unknown", where)), ("Date", date)]
        power = self._index(note.get("power"), where)
        if power:  # its adoption index, and so its power (R106); no ballots to check against it
            keys.append(("Index", power))
        keys += [("Result", "adopted"), ("Note", "The Assessor's record has no decision on it; the Rulekeepor "
                                                 "applied it.")]
        heading = f"Proposal {number}" + (f": {title}" if title else "")
        changes = [change for item in found for change in item.changes]
        prose = ["Rulekeepor: " + ", ".join(sorted({f"`{i.commit[:10]}`" for i in found})) + "."]
        self.notes["Applied by the Rulekeepor, not in the Assessor's record"].append(str(number))
        return date, min(position[id(item)] for item in found), Entry(heading, keys, changes, prose, year=date[:4])

    def _event_entry(self, group: list[_Found], position: dict[int, int]) -> tuple[str, int, Entry]:
        first = group[0]
        date = first.date or first.commit_date[:10]
        where = Problem(first.path, first.commit, 0, "its history entry's agent")
        by = self._title(_agent_text(first.agent, self, where), where)
        if (named := _BY_RULE.match(by)) and _number(named.group(1)) is None:  # quoted, it names no rule to check
            self.problems.append(dataclasses.replace(where, message=f"{where.message}: a rule numbered past "
                                                     f"{MAX_DIGITS} digits: written in quotes"))
            by = f"'{by}'"
        keys = [("Date", date), ("By", by)]
        subject = self._title(first.subject, Problem("", first.commit, 0, "its subject"))
        heading = f"Event: {subject}" if subject else "Event: a change"
        if first.agent is None:
            self.notes["Changes no history entry accounts for (the Rulekeepor's corrections)"].extend(
                f"rule {item.rule} at commit {item.commit[:10]} ({item.subject})" for item in group)
        changes = [change for item in group for change in item.changes]
        return date, position[id(first)], Entry(heading, keys, changes, [f"Rulekeepor: `{first.commit[:10]}`."],
                                                year=date[:4])

    def _place_unrecorded(self, entries: list, missing: Runs, notes: dict[int, tuple[str, dict]]) -> list[Entry]:
        """The entries in order, with `## Unrecorded` for the numbers neither record has, each before the
        first proposal numbered above it (where the numbering check looks)."""
        out: list[Entry] = []
        pending = missing
        for date, _, entry in entries:
            if entry.heading.startswith("Proposal "):
                due, pending = runs_below(pending, _entry_number(entry))
                if due:
                    titled = [f"{n}: {clean_line(str(notes[n][1].get('title')))}" for n in sorted(notes)
                              if notes[n][1].get("title") and any(low <= n <= high for low, high in due)]
                    prose = ["Neither record holds a decision on these numbers."]
                    if titled:
                        prose.append("The Rulekeepor's notes name " + "; ".join(escape_markdown(t) for t in titled)
                                     + ".")
                    out.append(Entry(f"Unrecorded: {number_ranges(due)}", [], [], prose, year=date[:4]))
            out.append(entry)
        return out

    def _game_toml(self, start: str, players: list[str], first: int, next_rule: int | None) -> str:
        return "\n".join([
            'title = "Agora"',
            'description = "The longest-running Nomic (since 1993), imported from the Rulekeepor\'s and the '
            'Assessor\'s repositories by nomic-archive import agora; see IMPORT.md."',
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
            ""])

    def _report(self, start_commit: str, start_date: str, decisions: list[_Decision], entries: list[Entry],
                missing: Runs) -> str:
        proposals = [e for e in entries if e.heading.startswith("Proposal ")]
        ballots = sum(len(d.resolution.get("votes") or []) for d in decisions)
        kinds = Counter(change.kind for e in entries for change in e.changes)
        results = Counter(key_value for e in proposals for key, key_value in e.keys if key == "Result")
        read = (f"and the Assessor's (AgoraNomic/assessor, its gh-pages branch at `{self.assessor_tip[:10]}`)"
                if self.assessor else "(no --assessor: the proposals the Rulekeepor applied have no ballots)")
        out = ["# How this game was imported", "",
               f"`nomic-archive import agora` read the Rulekeepor's repository (AgoraNomic/ruleset, at "
               f"`{self.head[:10]}`) {read}.", "",
               f"- rules.md: the rules just before ruleset commit `{start_commit[:10]}` ({start_date}), with each rule's "
               "earlier history as `History:` lines and its annotations.",
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
               "the replay: a slip of the record at that date, kept as he wrote it.",
               f"- Adopted, changing no rule: {number_ranges(runs(self.unchanging)) if self.unchanging else 'none'}.",
               "- Players are named as they are now: " + (", ".join(f"{old} -> {new}" for old, new in
                                                                   sorted(self.renames.items())) or "no renames") + ".",
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


def _has_ref(repo: Path, ref: str) -> bool:
    try:
        git(repo, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}")
        return True
    except GitError:
        return False


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


def _change_type(entry: dict) -> str:
    change = entry.get("change")
    return str(change.get("type")) if isinstance(change, dict) else ""


_KIND_OF_TYPE = {"amendment": "amend", "enactment": "enact", "reenactment": "reenact", "repeal": "repeal",
                 "retitling": "retitle", "power-change": "power"}


def _matching_entry(added: list[dict], changes: list[Change]) -> dict | None:
    """The history entry the commit added for these changes: one of the same kind, else the first added."""
    kinds = {change.kind for change in changes}
    for entry in added:
        if _KIND_OF_TYPE.get(_change_type(entry)) in kinds:
            return entry
    return added[0] if added else None


def _describe_entry(entry: dict) -> str:
    agent = entry.get("agent")
    who = _agent_text(agent if isinstance(agent, dict) else None, None)
    return f"{_change_type(entry) or 'change'} by {who}, {json.dumps(entry.get('date'))}"


def _agent_text(agent: dict | None, importer: _Importer | None, where: Problem | None = None) -> str:
    """`By:` text: "rule 2650", "cleaning (Falsifian)", "ratification of SLR", "proposal 8030"..."""
    if not agent:
        return "the Rulekeepor's correction (no history entry)"
    kind, value = next(iter(agent.items()))
    if kind == "rule" and (number := _number(value)) is not None:
        return f"rule {number}"
    if kind == "proposal":
        return f"proposal {clean_line(str(value))}"
    if isinstance(value, dict):
        detail = ", ".join(f"{key} {clean_line(str(inner))}" if not isinstance(inner, dict) else
                           f"{key} {_agent_text(inner, importer, where)}" for key, inner in value.items())
        if kind == "cleaning" and "by" in value:
            name = importer.name(value["by"], where) if importer else clean_line(str(value["by"]))
            return f"cleaning ({name})"
        return f"{kind} ({detail})" if detail else kind
    return f"{kind} {clean_line(str(value))}".strip()


def _annotation(item: dict) -> str:
    cfjs = [c for c in _list(item.get("cfjs")) if isinstance(c, dict)]
    cases = ", ".join(f"CFJ {c.get('id')}" + (f" (called {c.get('called')})" if c.get("called") else "")
                      for c in cfjs)
    body = str(item.get("text") or "")
    return clean_line(f"{cases}: {body}" if cases else body)


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


def _ruleset_md(title: str, rules: dict[int, _Rule], *, history: bool, snapshot_date: str | None = None) -> str:
    out = [f"Date: {snapshot_date}\n"] if snapshot_date else []
    out += [f"# {heading_text(title)}", "", "## Mutable Rules"]
    for rule in sorted(rules):
        item = rules[rule]
        heading = f"### {heading_text(rule_heading(rule, item.name or None))}"
        out += ["", heading, f"Power: {item.power}"]
        if history:
            out += [f"History: {short_title(_history_line(json.loads(entry)))[0]}" for entry in item.history]
        out += ["", item.text]
        if history:
            for note in item.annotations:
                out += ["", f"Annotation: {short_title(note)[0]}"]
    return "\n".join(out) + "\n"


def _history_line(entry: dict) -> str:
    date = entry.get("date")
    if isinstance(date, dict):
        date = " ".join(f"{key} {value}" for key, value in date.items())
    agent = entry.get("agent")
    return clean_line(f"{_change_type(entry) or 'change'} by "
                      f"{_agent_text(agent if isinstance(agent, dict) else None, None)}, {date}")
