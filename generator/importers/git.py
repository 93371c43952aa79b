"""A game kept in git: each commit on the first-parent line (a merged pull request is its merge commit) that
changes the rules becomes a proposal, its changes read from the rules before and after it.

The rules are one file (in any shape the plain-text importer reads) or a folder of one file per rule with
YAML front matter. A proposal's number is the one its subject gives ("Proposal 12", "Prop 12", "#12",
"P12"; "Proposals 12-14" for a batch), else the next; numbers never seen become `## Unrecorded`. Ballots are
not in git: each entry records `Result: adopted` (the change was made) and no `Votes:` line, the format's way
of saying the ballots are unknown; nothing is guessed."""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import ErrorCollector
from ..limits import MAX_RULE_CHARS, MAX_TOML_BYTES, MAX_TOML_LINE_CHARS
from ..model.names import shown
from .rulesfile import read_rule_files, read_ruleset
from .text import (IMMUTABLE, MUTABLE, ImportedRule, RulesetImportError, YamlBeyondBounds, clean_line,
                   escape_markdown, heading_text, render_ruleset, short_title, wrap)
from ..parse.source import check_line_lengths
from .archive import (Change, Entry, ImportedGame, ImportRefused, Problem, Runs, code_span, gaps, number_ranges,
                      log_parts, player_name, problems_section, quote, runs, runs_below, too_large_for,
                      toml_players, toml_string)
from .gitread import (BlobReader, BlobTooLarge, Commit, GitError, author_and_subject, check_repository, commit_date,
                      commit_id, first_parent_commits, list_files)

FIRST_PROPOSAL = 301            # Suber's Initial Set (rule 107) numbers proposals from 301
MAX_BATCH = 50                  # "Proposals 12-14" is a batch; "Proposals 1-99999" is not
_NUMBERS = re.compile(r"\bprop(?:osal)?s?\.?\s*(?:no\.?\s*)?#?\s*([0-9]{1,6}(?:\s*(?:,|&|and|-|\u2013|to)\s*#?[0-9]{1,6})*)",
                      re.IGNORECASE)
_SHORT_NUMBER = re.compile(r"(?<![\w#])(?:#|p)([0-9]{1,6})\b", re.IGNORECASE)
_LEADING_NUMBER = re.compile(r"^\s*(?:implement(?:ed|s)?\s+|merge\s+)?(?:prop(?:osal)?s?\.?|p|#)\s*#?[0-9][0-9,&\-\u2013\s]*"
                             r"(?:and\s+#?[0-9]+\s*)*[:.\-\u2013]?\s*", re.IGNORECASE)


@dataclass
class _Proposal:
    commit: Commit
    proposer: str
    changes: list[Change]
    said: list[int]             # the numbers its subject gives (a batch gives several)
    title: str                  # the subject, or for a merged pull request its title
    message: list[str]          # the rest of the commit's message: paragraphs of Markdown, each a line or wrapped
    numbers: list[int] = field(default_factory=list)  # those it is given (see _number): its own first
    number: int = 0
    note: str | None = None


def import_git(repo: Path, rules_path: str, *, start: str | None = None, end: str | None = None,
               title: str | None = None) -> ImportedGame:
    try:
        return _import(repo, rules_path.strip("/") or ".", start, end, title)
    except GitError as error:
        raise ImportRefused(str(repo), str(error)) from None


def _import(repo: Path, rules_path: str, start: str | None, end: str | None, title: str | None) -> ImportedGame:
    if title is not None and len(f"title = {toml_string(clean_line(title))}") > MAX_TOML_LINE_CHARS:
        raise ImportRefused("--title", f"is {len(title):,} characters long: game.toml, where it is written, holds "
                            f"lines of at most {MAX_TOML_LINE_CHARS:,}")
    check_repository(repo)
    last = commit_id(repo, end or "HEAD")
    first = commit_id(repo, start) if start else None
    commits = first_parent_commits(repo, last, [rules_path], first)
    problems: list[Problem] = []
    rewritten: set[tuple[str | None, str]] = set()
    left_out: dict[str, str] = {}
    with BlobReader(repo) as blobs:
        def rules_at(revision: str) -> dict[int, ImportedRule] | None:
            try:
                read = _read_rules(repo, blobs, revision, rules_path)
            except YamlBeyondBounds as error:
                raise ImportRefused(str(repo), f"{error.file} at commit {revision[:10]}, line {error.line}: {error}") \
                    from None
            except RulesetImportError as error:
                problems.append(Problem(error.file or rules_path, revision, error.line, f"{error}; not read: the next "
                                          "readable commit carries its changes"))
                return None
            if read is None:
                return None
            for note in read.left_out:
                left_out.setdefault(note.message, revision[:10])
            for file, line, what in read.rewritten:
                if (file, what) not in rewritten:  # said once, not at each commit that has it
                    rewritten.add((file, what))
                    problems.append(Problem(file or rules_path, revision, line, what))
            return {rule.number: rule for rule in read.rules}

        if first:
            initial = rules_at(first)
            if initial is None:
                raise ImportRefused(str(repo), f"no rules at {rules_path} in commit {first[:10]} (--from)", problems)
            start_date = commit_date(repo, first)
            start_commit = first
        else:
            initial = None
            while commits and initial is None:
                head = commits.pop(0)
                initial, start_date, start_commit = rules_at(head.id), head.date[:10], head.id
            if initial is None:
                raise ImportRefused(str(repo), f"no readable rules at {rules_path} in the history up to {last[:10]}",
                                    problems)
        proposals: list[_Proposal] = []
        named: set[str] = set()  # authors whose name was said to be written otherwise
        unchanged: list[Commit] = []
        rules = initial
        for commit in commits:
            now = rules_at(commit.id)
            if now is None:
                continue
            changes = _changes(rules, now)
            if not changes:
                unchanged.append(commit)
                continue
            proposer, summary = commit.author, commit.subject
            if len(commit.parents) > 1:  # a merged pull request: its author, and its title (GitHub puts it second)
                proposer, branch_subject = author_and_subject(repo, commit.parents[1])
                summary = (_message_paragraphs(commit.message)[1:2] or [branch_subject])[0]
            name, why = player_name(proposer)
            if why and proposer not in named:
                named.add(proposer)
                problems.append(Problem("", commit.id, 0, f"its author's name '{shown(proposer)}' cannot be "
                                          f"written as it is ({why}): written '{name}'"))
            summary, why = short_title(summary)
            if why:
                problems.append(Problem("", commit.id, 0, f"its subject: {why}"))
            message, why = _message(commit.message, summary)
            if why:
                problems.append(Problem("", commit.id, 0, f"its message: {why}"))
            proposals.append(_Proposal(commit, name, changes, _subject_numbers(commit.subject), summary, message))
            rules = now
    renumbered = _number(proposals)
    entries, unrecorded = _entries(proposals)
    players = list(dict.fromkeys(proposal.proposer for proposal in proposals))
    name = clean_line(title or "") or f"{repo.resolve().name}, imported from git"
    rules_md = render_ruleset(f"The rules at commit {start_commit[:10]} ({start_date})", list(initial.values()))
    if why := too_large_for(rules_md):
        raise ImportRefused(str(repo), f"the rules at commit {start_commit[:10]}, as rules.md, would be a file that "
                            f"{why}", problems)
    logs = log_parts(f"# {heading_text(name + ': the log')}\n\nOne entry per commit that changed "
                     f"{escape_markdown(rules_path)}; see IMPORT.md.\n\n", entries)
    game_toml = _game_toml(name, start_date, players, proposals)
    if why := too_large_for(game_toml, MAX_TOML_BYTES):
        raise ImportRefused(str(repo), f"its {len(players):,} players, listed in game.toml, would make it a file that "
                            f"{why}", problems)
    files = {"game.toml": game_toml, "rules.md": rules_md,
             **({"log.md": logs[0]} if len(logs) == 1 else {f"log/{n:03}.md": log for n, log in enumerate(logs, 1)}),
             "IMPORT.md": _report(repo, rules_path, start_commit, last, proposals, unrecorded, problems, unchanged,
                                  renumbered, left_out)}
    return ImportedGame(files, len(proposals), problems)


def _read_rules(repo: Path, blobs: BlobReader, revision: str, path: str):
    """The rules at `revision`: None when the path is absent there; RulesetImportError when unreadable."""
    kind = blobs.kind(revision, path)
    if kind == "blob":
        content = _read(blobs, revision, path)
        return read_ruleset(content, file=path) if content is not None else None
    if kind == "tree":
        files = [(name, _read(blobs, revision, name)) for name in list_files(repo, revision, path)]
        return read_rule_files([(name, content) for name, content in files if content is not None])
    return None


def _read(blobs: BlobReader, revision: str, path: str) -> str | None:
    """A file of the rules, held to the caps any input is (a file's size, a line's length)."""
    try:
        content = blobs.read(revision, path)
    except BlobTooLarge as error:
        raise RulesetImportError(str(error), file=path) from None
    errors = ErrorCollector()
    if content is not None and not check_line_lengths(content, path, errors):
        raise RulesetImportError(errors.errors[0].message, errors.errors[0].line, path)
    return content


def _changes(before: dict[int, ImportedRule], after: dict[int, ImportedRule]) -> list[Change]:
    """Whole-text changes, by rule number: what a keeper would write to turn `before` into `after`."""
    changes: list[Change] = []
    for number in sorted(before.keys() | after.keys()):
        old, new = before.get(number), after.get(number)
        if new is None:
            changes.append(Change("repeal", number))
        elif old is None:
            changes.append(Change("enact", number, text=new.text, title=new.title,
                                  rule_class=_LOG_CLASS.get(new.rule_class, "mutable")))
        else:
            if old.rule_class != new.rule_class and new.rule_class is not None:
                changes.append(Change("transmute", number, rule_class=_LOG_CLASS[new.rule_class]))
            if old.text != new.text:
                changes.append(Change("amend", number, text=new.text))
            if old.title != new.title:
                changes.append(Change("retitle", number, title=new.title or ""))
    return changes


_LOG_CLASS = {IMMUTABLE: "immutable", MUTABLE: "mutable"}  # (a class no longer recorded is no change the log says)


def _subject_numbers(subject: str) -> list[int]:
    if m := _NUMBERS.search(subject):
        numbers: list[int] = []
        for piece in re.split(r"\s*(?:,|&|\band\b)\s*", m.group(1)):
            bounds = [int(n) for n in re.findall(r"[0-9]+", piece)]
            if len(bounds) == 2 and 0 <= bounds[1] - bounds[0] <= MAX_BATCH:
                numbers.extend(range(bounds[0], bounds[1] + 1))
            else:
                numbers.extend(bounds)
        return list(dict.fromkeys(numbers))[:MAX_BATCH]
    if m := _SHORT_NUMBER.search(subject):
        return [int(m.group(1))]
    return []


def _number(proposals: list[_Proposal]) -> list[str]:
    """Give each proposal its number: the one its subject gives, unless an earlier commit took it; else the
    lowest number after those used so far that no subject claims (so a commit without a number does not take
    the number a later commit's subject gives). Returns a line for IMPORT.md for each subject not followed."""
    claimed: set[int] = set()
    for proposal in proposals:
        proposal.numbers = [n for n in proposal.said if n > 0 and n not in claimed]
        claimed.update(proposal.numbers)
    taken = set(claimed)
    notes: list[str] = []
    highest = FIRST_PROPOSAL - 1
    for proposal in proposals:
        if proposal.numbers:
            proposal.number = proposal.numbers[0]
        else:
            proposal.number = highest + 1
            while proposal.number in taken:
                proposal.number += 1
            taken.add(proposal.number)
            proposal.numbers = [proposal.number]
            if proposal.said:
                numbers = ", ".join(str(n) for n in proposal.said)
                proposal.note = (f"The commit's subject says proposal {numbers}, a number an earlier commit "
                                 f"took; numbered {proposal.number}.")
                notes.append(f"commit {proposal.commit.short}: subject says {numbers}, taken earlier; numbered "
                             f"{proposal.number}")
        highest = max(highest, proposal.number)
    return notes


def _entries(proposals: list[_Proposal]) -> tuple[list[Entry], Runs]:
    """The log: proposals in commit order, with `## Unrecorded` for every number no commit accounts for, each
    before the first proposal numbered above it (where the numbering check looks for it)."""
    if not proposals:
        return [], []
    first = min(min(p.numbers) for p in proposals)
    used = {n for p in proposals for n in p.numbers}
    missing = gaps(used, first, max(used))
    entries: list[Entry] = []
    pending = missing
    for proposal in proposals:
        due, pending = runs_below(pending, proposal.number)
        if due:
            entries.append(Entry(f"Unrecorded: {number_ranges(due)}", prose=[
                "No commit on the rules says it made these proposals (see IMPORT.md)."]))
        entries.append(_proposal_entry(proposal))
        if len(proposal.numbers) > 1:
            entries.append(Entry(f"Unrecorded: {number_ranges(runs(proposal.numbers[1:]))}", prose=[
                f"Carried out in the same commit as proposal {proposal.number}: their changes are all in its entry."]))
    return entries, missing


def _proposal_entry(proposal: _Proposal) -> Entry:
    commit = proposal.commit
    title = clean_line(_LEADING_NUMBER.sub("", proposal.title))
    heading = f"Proposal {proposal.number}" + (f": {title}" if title else "")
    keys = [("Proposer", proposal.proposer), ("Date", commit.date[:10]), ("Result", "adopted")]
    if proposal.note:
        keys.append(("Note", proposal.note))
    # The message is quoted, never prose of the entry: a paragraph such as "Repeal rule 202." would be a change,
    # and the changes are what the rules file did.
    prose = [f"Commit `{commit.id[:10]}`" + (", whose message says:" if proposal.message else ".")]
    return Entry(heading, keys, proposal.changes, prose + ([quote("\n\n".join(proposal.message))]
                                                           if proposal.message else []))


def _message(message: str, title: str) -> tuple[list[str], str | None]:
    """The paragraphs of a commit's message after its subject (and the title taken from it), as Markdown that
    shows them as written, each a line or wrapped; with what was cut, if anything: a paragraph with no place to
    break it, and what passes a rule's length in all."""
    out, why, length = [], [], 0
    for paragraph in _message_paragraphs(message)[1:]:
        if clean_line(paragraph) == title:
            continue
        text = escape_markdown(paragraph)
        if length + len(text) > MAX_RULE_CHARS:
            why.append(f"what passes {MAX_RULE_CHARS:,} characters is left out")
            break
        if (wrapped := wrap(text)) is None:
            text, cut = short_title(text)
            why.append(f"a paragraph with no place to break it: {cut}")
            wrapped = text
        out.append(wrapped)
        length += len(text)
    return out, "; ".join(why) or None


def _message_paragraphs(message: str) -> list[str]:
    return [paragraph for paragraph in re.split(r"\n\s*\n", message.strip()) if paragraph.strip()]


def _game_toml(name: str, start: str, players: list[str], proposals: list[_Proposal]) -> str:
    numbers = [p.number for p in proposals]
    in_order = numbers == sorted(numbers)
    first = min((n for p in proposals for n in p.numbers), default=FIRST_PROPOSAL)
    lines = [f"title = {toml_string(name)}",
             "description = \"Imported from git by nomic-archive: each commit that changed the rules is a proposal; "
             "the ballots were not recorded there.\"",
             f"start = {start}",
             toml_players(players),
             "",
             "# Rules keep their numbers: an enactment takes the number the commit gave it.",
             "[numbering]",
             f"first_proposal = {first}",
             "amend_renumbers = false",
             "enact_takes_proposal_number = false"]
    if not in_order:
        lines.append("in_order = false  # the commits made some proposals after higher-numbered ones")
    lines += ["", "# No ballots, dice or turns in the record: nothing to score or to check turns against.",
              "[scoring]", "turn = \"none\"", "defeated = 0", "against_adopted = 0", "",
              "[turns]", "order = \"none\"", "", "[limits]", "max_mutable = 0", ""]
    return "\n".join(lines)


def _report(repo: Path, rules_path: str, start: str, end: str, proposals: list[_Proposal], unrecorded: Runs,
            problems: list[Problem], unchanged: list[Commit], renumbered: list[str], left_out: dict[str, str]) -> str:
    kinds = Counter(change.kind for p in proposals for change in p.changes)
    from_subject = sum(1 for p in proposals if p.note is None and p.said)
    out = ["# How this game was imported", "",
           f"`nomic-archive import git` read {code_span(rules_path)} in the repository "
           f"{escape_markdown(repo.resolve().name)}, "
           f"first-parent history from commit `{start[:10]}` (the rules in rules.md) to `{end[:10]}`.", "",
           f"- Proposals: {len(proposals)}, one per commit that changed a rule ({from_subject} numbered as their "
           f"subject says, the others in sequence).",
           "- Rule changes: " + (", ".join(f"{count} {kind}" for kind, count in sorted(kinds.items())) or "none") + ".",
           f"- Unrecorded numbers: {number_ranges(unrecorded) if unrecorded else 'none'}.",
           "- Ballots: not recorded in git. Each proposal is written with `Result: adopted` (its change was made) and "
           "no `Votes:` line, which the format reads as a result without known ballots; nothing is guessed.",
           f"- Commits that changed the rules' file but no rule (formatting, notes): {len(unchanged)}.", ""]
    out += problems_section(problems)
    sections = [("Numbered otherwise than the subject says", [escape_markdown(item) for item in renumbered]),
                ("Left out of the rules (headings that name no numbered rule, rule files not in force)",
                 [f"{code_span(heading)} (first at commit {commit})" for heading, commit in left_out.items()])]
    for heading, items in sections:
        if items:
            out += [f"## {heading}", ""] + [f"- {item}" for item in items] + [""]
    return "\n".join(out)
