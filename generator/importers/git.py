"""A game kept in git, read as its keepers kept it: each commit on the first-parent line (a merged pull request is
its merge commit) that changes the rules is read for what it did (the rules before and after it) and for what the
record says it was, in this order:

1. the keeper's corrections file (`--corrections`), a line per commit (corrections.py);
2. the rule's own history: the History line the commit added for each change (record.py) names the proposal, its
   authors, or a judgment, a temporary rule, a cleaning;
   the game's own proposal files (proposalfiles.py): the commit that made a proposal's file say it was adopted
   (moved it into `succeeded/`) carried that proposal out, proposed by whom its file names;
3. the game's own words in the commit's subject or its pull request's title: `Proposal 12`, `Proposals 66 + 70`,
   `P49-54`, `384: Title`, `Judgment I`, `Temporary Rule 601`, `Non-rule-change: Typo` (a pull request's own
   number, `#30`, only where the keeper says the game's proposals are its pull requests);
4. a guess, said as one: a commit that changes only the rules' formatting is a cleaning, any other a proposal
   numbered next in sequence, proposed by its pull request's author (`from user/branch`) or its author.

Every reading is written to the game's corrections file, each guess said on standard error and in IMPORT.md.
Ballots are not in git: each proposal records `Result: adopted` (its change was made) and no `Votes:` line, the
format's way of saying the ballots are unknown; nothing is guessed there.

The rules are one file (in any shape the plain-text importer reads) or a folder of one file per rule (the files
directly in it). When the rules move (git records a rename: rules at the root moved to `rules/`) the import follows
them; when they are removed, the game (a round of it) ends there, and IMPORT.md says where a new one begins."""
from __future__ import annotations

import dataclasses
import datetime
import difflib
import itertools
import posixpath
import re
from collections import Counter
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import ArchiveError, ErrorCollector, SourceError
from ..limits import MAX_RULE_CHARS, MAX_TOML_BYTES, MAX_TOML_LINE_CHARS
from ..model.names import shown
from ..parse.source import check_line_lengths
from ..terminal import counted
from .archive import (Change, Entry, ImportedGame, ImportRefused, Problem, Runs, code_span, gaps, log_parts,
                      number_ranges, player_name, problems_section, quote, runs, runs_below, too_large_for, toml_aliases,
                      toml_numbers, toml_players, toml_string)
from .agora_sections import SectionSpan, section_spans
from .corrections import CONVENTION_PULL_REQUESTS, FILE_NAME, Corrections, Line, Proposal, Reading, render
from .decisions import (Decision, DecisionsUnreadable, Mapping, Rulesets, ScoreFiles, archived_number,
                        archived_results, ballot_list_counts, moment_of, read_decisions, read_list, read_players, read_scores,
                        score_paths, stated_conditions)
from .gitread import (BlobReader, BlobTooLarge, Commit, GitError, author_and_subject, check_repository, commit_id,
                      git, is_repository, list_files, log_records, text)
from .proposalfiles import (DECIDED_FIELDS, PROPOSER_FIELDS, RESULT_FIELDS, FiledProposal, ProposalFolder,
                            find_folder, is_proposal_file, is_text_name, name_number, read_folder,
                            read_proposal)
from .record import HistoryEntry, Source, credit, history_entry, plain_words
from .rulesfile import (MARKDOWN_EXTENSIONS, PLAIN_EXTENSIONS, is_rules_text_name, opens_with_front_matter,
                        read_rule_files, read_ruleset, render_ruleset)
from .text import (IMMUTABLE, MUTABLE, ImportedRule, ImportedRuleset, NoRulesFound, RulesetImportError,
                   YamlBeyondBounds, clean_line, escape_markdown, heading_text, roman_value, rule_label, short_title,
                   wrap)

MAX_BATCH = 50                  # "Proposals 12-14" is a batch; "Proposals 1-99999" is not
MAX_LEAP = 1000                 # a rule numbered further above all others is no proposal's (letters read as digits)
_NUMBER = r"[0-9]{1,6}"
_JOINER = r"\s*(?:,|&|\+|\band\b|-|\u2013|\bto\b)\s*"
# "Proposal 12", "Proposals 66 + 70", "Proposals 80 and 81", "Proposals 26, 29-33", "P49-54", "P63 and P65"
_NUMBERS = re.compile(rf"(?:\bprop(?:osal)?s?\.?|\bp(?=[0-9]))\s*(?:no\.?\s*)?#?({_NUMBER}(?:{_JOINER}"
                      rf"(?:prop(?:osal)?\s*|p)?{_NUMBER})*)\b", re.IGNORECASE)
# "384: Subgamification", "(302) Monikers"
_LEADING_NUMBER = re.compile(rf"^\s*(?:({_NUMBER})\s*[:.\u2013\u2014-]|\(({_NUMBER})\)\s*[:.\u2013\u2014-]?)"
                             r"\s+(?=\S)")
# A title in a game's own form for a proposal that names the rule it changes, not a proposal number: "amend(105):",
# "propose(303):", "rule301:" (a commit convention such games write into a rule).
_PROPOSAL_FORM = re.compile(r"^\s*(?:propose|amend|repeal|enact|transmute|rule)\s*\(?\s*[0-9]{1,6}\s*\)?\s*:",
                            re.IGNORECASE)
_BARE_NUMBER = re.compile(rf"^\s*#?({_NUMBER})\s+(?=[^\W\d])")  # "307 Make your vote count", beside a numbered branch
_LEADING_RULE_NUMBER = re.compile(rf"^\s*rule\s+({_NUMBER})\s*:\s+(?=\S)", re.IGNORECASE)  # "Rule 323: Title"
_TYPOS = re.compile(r"\b(?:typos?|spelling|misspell\w*)\b", re.IGNORECASE)  # a message saying it corrects them
_FEW_WORDS = 3  # the words a typo's correction changes in a rule, at most
_NON_RULE_CHANGE = re.compile(r"^\s*(?:\[?\s*)?non[\s-]*rule[\s-]*change\b", re.IGNORECASE)
# "Judgment I", "Judgement 7: Title", "Judgment CFJ 12", "Judgement" alone; not "Judgement changes".
_JUDGMENT = re.compile(r"^\s*judge?ment\b\s*#?\s*([A-Za-z]*\s*[0-9]+|[IVXLCDM]+\b)?\s*(?:$|[:.\u2013\u2014-])",
                       re.IGNORECASE)
_PROPOSALS_FROM = re.compile(r"\bnumbers\s+(?:shall|will)\s+(?:begin|start)\s+(?:with|at)\s+([0-9]{1,12})\b",
                             re.IGNORECASE)  # Suber's rule 108: "The numbers shall begin with 301"
# The keeper's word on the commit before: "Previous Proposal Was Proposal 315", "Last commit should be proposal 12"
_PREVIOUS_WAS = re.compile(rf"^\s*(?:the\s+)?(?:previous|last|prior)\s+(?:commit|proposal|change)\s+(?:was|is|"
                           rf"should\s+(?:have\s+)?be(?:en)?)\s+(?:actually\s+|really\s+)?(?:proposal|prop\.?|p)"
                           rf"\s*#?({_NUMBER})\b", re.IGNORECASE)
_TEMPORARY_RULE = re.compile(r"^\s*temporary\s+rule\s+([0-9]{1,12})\b", re.IGNORECASE)
_FILE_NAMED = re.compile(r"\s*\(\s*[\w./-]+\.[A-Za-z]{1,5}\s*\)\s*$")    # "Proposal 340 (rules-l.md)": which file
_MERGED_PULL_REQUEST = re.compile(r"^Merge pull request #([0-9]{1,12}) from ([^/\s]+)/(\S+)")
_BRANCH_NAMED = re.compile(r"[^/\s]+/[^/\s:]+:\S+")  # GitHub's name for a fork's branch, `kit/game:master`
_ITEM_MARKER = r"[-*+]|[0-9]{1,3}[.)]"  # what opens a list's item in a commit's message
_MESSAGE_ITEM = re.compile(rf"[ \t]*({_ITEM_MARKER})[ \t]+(.*)", re.DOTALL)
_MESSAGE_ITEM_BREAK = re.compile(rf"\n(?=[ \t]*(?:{_ITEM_MARKER})[ \t])")  # where the next item starts
# The subject GitHub's web editor gives a commit that nobody titled ("Update rules.md"): no title of a proposal
_WEB_EDIT_SUBJECT = re.compile(r"(?:Update|Create|Delete) [^\n]+\.[A-Za-z0-9]{1,8}|"
                               r"(?:Update and rename|Rename) [^\n]+ to [^\n]+")
_WEB_EDIT_BRANCH = re.compile(r"(.+)-patch-[0-9]{1,6}")  # "Ann-patch-1": GitHub's branch for a web edit by Ann
_SQUASHED_PULL_REQUEST = re.compile(r"\s*\(#([0-9]{1,12})\)\s*$")                   # "Title (#45)"
_BRANCH_NUMBER = re.compile(rf"^(?:(?:proposal|prop|rule-change|p)[-_]?)?({_NUMBER})(?:[-_]|$)", re.IGNORECASE)
# A commit that records a decision, as a bot writes it ("Gibson#3668 passed proposal #61"), and one that records who
# made a proposal ("Heavpoot#5118 submitted proposal #171").
_DECIDED = re.compile(rf"\b(?:passed|adopted|enacted|accepted|applied)\s+proposal\s*#?({_NUMBER})\b", re.IGNORECASE)
_FAILED_BY = re.compile(rf"^(\S.*?)\s+(?:failed|rejected)\s+proposal\s*#?({_NUMBER})\b", re.IGNORECASE)
_SUBMITTED = re.compile(rf"^(\S.*?)\s+(?:submitted|proposed|made|created)\s+proposal\s*#?({_NUMBER})\b",
                        re.IGNORECASE)
_TURN_BYLINE = re.compile(r"\bturn\s+[0-9]+\s*\(([^()]+)\)\s*$", re.IGNORECASE)  # "Round 1, Turn 11 (Kit)"
# A title naming the turn whose proposal the commit carries out ("Round 1, Turn 11 (Kit)", "Turn 4"): a game that
# numbers its proposals by turn (the first round's; a later round starts its turns again)
_TURN = re.compile(rf"^\s*(?:round\s+([0-9]{{1,6}})\s*[,:;.\u2013\u2014-]?\s*)?turn\s+#?({_NUMBER})\b", re.IGNORECASE)
_BY_TURN = "names its turn: the game numbers its proposals by turn"   # what the record says of such a commit
_TURN_SLIP = "its title names turn"   # the guess that a turn's number is a slip (`_turns_named_twice`)
_DIGITS_SLIP = "its number is written"  # the guess that a number's digits are a slip (`_digits_slipped`)
# A bot's title for the proposal it carries out, naming its proposer's login: "Resolving Proposal for @kit"
_PROPOSAL_FOR = re.compile(r"\bproposal\s+(?:for|by|from)\s+@([A-Za-z0-9][A-Za-z0-9-]{0,38})\b", re.IGNORECASE)
_BYLINE = re.compile(r"^\s*(?:proposed|authored|written)\s+by:?\s+(.+?)\s*$", re.IGNORECASE | re.MULTILINE)
_CO_AUTHORED = re.compile(r"^co-authored-by:[ \t]*([^<>\n]*?)[ \t]*(?:<[^<>\n]*>)?[ \t]*$",  # Ann <a@b.org>
                          re.IGNORECASE | re.MULTILINE)
_BETWEEN = " :.-\u2013\u2014"     # what stands between a number and a title ("Proposal 12: Dice", "384 - Dice")
_MARKUP = re.compile(r"[*_`~#>|\\]+")    # what a change of formatting alone adds or takes away, with white space
_UNDERLINE = re.compile(r"=+|-+")  # what makes the line above it a heading (Markdown's setext headings)


@dataclass
class _Step:
    """One commit (or a run of commits saying the same) that changed the rules, and what it is read as."""

    commit: Commit
    changes: list[Change]
    credited: list[HistoryEntry | None]    # for each change, the History line its commit added for it
    title: str                  # the subject, or a merged pull request's title
    author: str                 # its pull request's author, else its commit's
    author_is: str              # where the author comes from, in words
    branch: str
    formatting: bool            # every change only reformats a rule's text
    message: list[str]
    place: int                  # the commit's place in the first-parent history
    marked: bool = False        # its title is in the game's form for a proposal, which numbers no proposal
    slight: bool = False        # every change amends a rule by a few words (`_slight`)
    cleaned: list[Change] = field(default_factory=list)  # beside its changes, those that only reformat a rule
    ruleset: str = ""           # a website's archived ruleset it is read from (records' [rulesets]), not a commit
    reading: Reading = field(default_factory=lambda: Reading("proposal"))
    said: list[str] = field(default_factory=list)     # what the record says of it (for the corrections file)
    guesses: list[str] = field(default_factory=list)  # what the import guessed, in words
    correction: int = 0         # the corrections file's line that gave its reading
    own: Reading | None = None  # the import's own reading, where a correction gave another
    commits: list[Commit] = field(default_factory=list)  # the later commits of a run that said the same
    again: int | None = None    # it carries out a proposal an earlier commit already carried out
    completes: list[int] = field(default_factory=list)  # proposals an earlier commit began that this one completes
    # Who wrote its pull request's own commits, oldest first, as git names and addresses them.
    branch_commits: list[tuple[str, str]] = field(default_factory=list)
    # The proposals whose own files this commit made say they were adopted (`_match_filed`): (number, file, how).
    filed: list[tuple[int, str, str]] = field(default_factory=list)


@dataclass
class _Walk:
    initial: dict[int, ImportedRule]
    start_commit: str
    start_date: str
    steps: list[_Step]
    unchanged: list[Commit]
    moves: list[str]            # how the rules moved, in words, for IMPORT.md
    ended: str | None           # why the import ended before its last commit (the rules removed), in words
    problems: list[Problem]
    left_out: dict[str, str]
    # Commits that record a decision ("Gibson passed proposal #61"), as (the place of the commit in the history,
    # the proposal's number, the commit): a bot applies a proposal's changes in commits of their own after it.
    decided: list[tuple[int, int, Commit]] = field(default_factory=list)
    # What the reader of the rules took where the record does not say (a class by Suber's numbering): its words ->
    # (the file, the first commit it was read at).
    guessed: dict[str, tuple[str, str]] = field(default_factory=dict)
    guessed_shapes: set[str] = field(default_factory=set)  # each guess of `guessed` with its numbers left out
    remade: dict[str, Commit] = field(default_factory=dict)  # a path the rules left, made again by a later commit
    decision_guesses: list[str] = field(default_factory=list)  # what the import took for the record of decisions
    adopted: dict[int, str] = field(default_factory=dict)  # the proposals archived rulesets name, and their words
    record_names: dict[str, str] = field(default_factory=dict)  # an identifier -> the name the file of players gives
    keys: dict[str, int] = field(default_factory=dict)  # an outline's tags -> the numbers the import gave them
    classes: dict[int, str | None] = field(default_factory=dict)  # each rule's class as last read
    # Commits that say who made a proposal ("Heavpoot#5118 submitted proposal #171"): number -> (name, commit).
    submitted: dict[int, tuple[str, Commit]] = field(default_factory=dict)
    final: dict[int, ImportedRule] = field(default_factory=dict)  # the rules at the last commit read
    # Who wrote the branches a pull request's author merged: login -> {the branch's author -> the merge commit}.
    branch_authors: dict[str, dict[str, Commit]] = field(default_factory=dict)
    shared: set[str] = field(default_factory=set)  # logins whose pull requests' branches are several people's
    # A number the rules file gives two rules -> the number the one that came later is read under, and its line for
    # the corrections file.
    twins: dict[int, int] = field(default_factory=dict)
    twin_lines: list[Line] = field(default_factory=list)
    twin_guessed: dict[str, tuple[str, str]] = field(default_factory=dict)  # as `guessed`
    copied: set[int] = field(default_factory=set)  # numbers the file gives one rule twice, word for word

    def guesses(self) -> list[str]:
        """What the reading of the rules guessed, each as standard error and IMPORT.md say it."""
        return [f"{file} at {commit[:10]}: guessed: {message}"
                for message, (file, commit) in [*self.guessed.items(), *self.twin_guessed.items()]]
    # Commits that say who failed a proposal ("Heavpoot#5118 failed proposal #36"): number -> (name, commit).
    failed_by: dict[int, tuple[str, Commit]] = field(default_factory=dict)
    # The rules after each step from the start by the one who began them (`begun`), before the record says any
    # proposal was submitted or decided (`proposing`): they may be the starting rules' entry (`_begin_after_entry`)
    entering: list[dict[int, ImportedRule]] = field(default_factory=list)
    begun: Commit | None = None
    proposing: Commit | None = None
    entered: str = ""  # how the starting rules were entered over several commits before the first proposal, in words
    later_start: str = ""  # where the game may have begun after its rules did (`_later_start`), in words
    # where the keeper may have set the rules anew (`_new_bases`), in IMPORT.md's words and the terminal's
    new_bases: list[tuple[str, str]] = field(default_factory=list)
    # The topics the rules file arranged its rules under, from each day they changed: (the day, topic -> rules).
    arrangements: list[tuple[str, dict[str, list[int]]]] = field(default_factory=list)
    start_title: str = ""  # the first ruleset's title, where the records file's [rulesets] files gives one
    # The game's proposals kept a file each (proposalfiles.py): the folder, the files read, and what was said of
    # them at their lines (`path:line: words`).
    filed_folder: ProposalFolder | None = None
    filed: list[FiledProposal] = field(default_factory=list)
    filed_said: list[str] = field(default_factory=list)
    filed_unsure: set[int] = field(default_factory=set)  # adopted proposals two commits may have carried out, said
    # The first-parent line as read, each commit with the files it changed (a decision recorded apart from the
    # rules' change is found among them: `_pair_apart`).
    line: list[tuple[Commit, list[str]]] = field(default_factory=list)


def import_git(repo: Path, rules_paths: list[str], *, start: str | None = None, end: str | None = None,
               title: str | None = None, corrections: Corrections | None = None,
               records: Mapping | None = None, by_pull_requests: bool = False,
               link_base: str | None = None) -> ImportedGame:
    """The game in `repo` (see the module's doc); `by_pull_requests`: the game's convention that its proposals are
    its merged pull requests, numbered as they are (also said by a corrections line); `link_base`: where relative
    links in the rules lead (mdtext.absolute_link)."""
    try:
        return _import(repo, [_path(path) for path in rules_paths], start, end, title, corrections, records,
                       by_pull_requests, link_base)
    except GitError as error:
        raise ImportRefused(str(repo), str(error)) from None


def _path(path: str) -> str:
    """A path as git names it inside the repository: "" for the top folder ("." or "/")."""
    path = path.strip().strip("/")
    return "" if path in (".", "") else path.removeprefix("./")


def _import(repo: Path, paths: list[str], start: str | None, end: str | None, title: str | None,
            corrections: Corrections | None, records: Mapping | None, by_pull_requests: bool,
            link_base: str | None) -> ImportedGame:
    if title is not None and len(f"title = {toml_string(clean_line(title))}") > MAX_TOML_LINE_CHARS:
        raise ImportRefused("--title", f"is {len(title):,} characters long: game.toml, where it is written, holds "
                            f"lines of at most {MAX_TOML_LINE_CHARS:,}")
    if records and records.rulesets and records.rulesets.files and repo.is_dir() and not is_repository(repo):
        raise GitError("is not a git repository: rulesets captured on days are read from one that holds them; in "
                       "the folder, run git init, git add . and git commit -m \"The captures\" (docs/guide/import.md, "
                       "\"Rulesets captured on days\")")
    check_repository(repo)
    last = commit_id(repo, end or "HEAD")
    named_otherwise = [path for path in paths if path and not is_rules_text_name(path)
                       and not path.lower().endswith(".json")]  # (a folder, or a program's file: `game.py`)
    with BlobReader(repo) as blobs:  # (a game whose rules are a program's code: no rules in words to read)
        if code := next((path for path in named_otherwise if blobs.kind(last, path) == "blob"), None):
            raise ImportRefused(str(repo), f"{code} at commit {last[:10]} is not text (a program's source, a picture, "
                                "data): a game whose rules are code has no rules in words to read; --rules names "
                                "the file or folder that holds them")
    first = commit_id(repo, start) if start else None
    together = frozenset(paths) if len(paths) > 1 else frozenset()  # (the places named, not those found before)
    since = None  # (where the history is read from, where the rules' earlier path was made more than once)
    if paths:  # (where the rules were before they moved: also from a --from before the move)
        paths, since = _earlier_paths(repo, last, paths)
        since = since if first is None else None
    walk = _walk_rulesets(repo, records, last, corrections) if records and records.rulesets else \
        _walk(repo, paths, first, last, corrections, link_base, together, since)
    decisions = _read_decisions(repo, records, last, walk) if records and records.file else \
        _read_proposal_files(repo, records, paths, last, walk) if not (records and records.rulesets) else []
    if records and records.file and records.markdown and not records.rulesets:
        _match_archived(repo, records, decisions, walk)
    # (the line is used either way: a keeper may say both)
    said_by_line = corrections is not None and corrections.convention(CONVENTION_PULL_REQUESTS)
    by_pull_requests = by_pull_requests or said_by_line
    _shared_logins(walk)
    undecided = [step for step in walk.steps if not step.ruleset and not _read_step(step, by_pull_requests)]
    _previous_named(walk.steps, undecided)
    _begin_after_entry(walk, undecided)
    walk.later_start = _later_start(walk)
    _turns_named_twice(walk.steps)
    _digits_slipped(walk.steps)
    _guess(walk, undecided, by_pull_requests, {d.number for d in decisions if d.result == "adopted"}
           if records and records.file and not records.rulesets or any(step.filed for step in walk.steps) else None)
    for step in walk.steps:
        if corrections is not None and (said := corrections.ruleset(step.place) if step.ruleset
                                        else corrections.commit(step.commit.id)):
            _correct(step, said)
    walk.new_bases = _new_bases(walk)
    steps = _runs(walk.steps)
    _number(steps)
    names = _Names(corrections, walk)
    for step in steps:
        names.follow(step)
    for decision in decisions:
        names.learn(decision)
    decided = {decision.number: names.decision(decision) for decision in decisions}
    reasons = _failed_for_a_reason(decided, walk, names)
    kept: list[Line] = []  # the keeper's decision lines, for the new corrections file
    for number, (line, result, reason) in (corrections.decisions.items() if corrections else ()):
        if number in decided:
            said = f"{result}: {reason}" if reason else result
            corrections.use(line, f"proposal {number}: {said} (the record: {decided[number].said})")
            kept.append(Line(f"proposal {number}", said, f"your correction (the record: {decided[number].said})"))
            decided[number] = dataclasses.replace(decided[number], result=result, reason=reason)
            reasons.pop(number, None)
    kept += [Line(f"proposal {number}", f"{decided[number].result}: {decided[number].reason}", f"guessed: {why}")
             for number, why in sorted(reasons.items())]
    walk.decision_guesses += [f"proposal {number}: {decided[number].result}: {decided[number].reason}: guessed: {why}"
                              for number, why in sorted(reasons.items())]
    scores = {names.name(raw): score for raw, score in _read_scores(repo, records.scores, last, walk).items()} \
        if records and records.scores else {}
    kept_scores = [(moment, {names.name(raw): _decimal(score) for raw, score in read.items()})
                   for moment, read in _scores_over_time(repo, records.scores, walk, last)] \
        if records and records.scores else []
    # (the players besides the proposers: those who voted or scored)
    voters_and_scored = [name for decision in decided.values() for name, _ in decision.votes] + list(
        dict.fromkeys([*(name for _, read in kept_scores for name in read), *scores]))
    _credit_authors(steps, decided, set(voters_and_scored), names)
    if corrections is not None:
        for step in steps:
            if step.correction:
                _say_correction(step, corrections)
        last_read = walk.steps[-1].commit.short if walk.steps else walk.start_commit[:10]
        corrections.refuse_unused(f"those that changed the rules after commit {walk.start_commit[:10]} (to "
                                  f"{last_read})", players="the names the import read")
    _unmatched_filed(walk, steps, decided)
    entries, unrecorded, numbers, moments = _entries(steps, decided, walk)
    if kept_scores:  # (the record's scores over time, each where it changed: the end's are claimed below)
        _claim_scores(entries, moments, kept_scores)
    players = list(dict.fromkeys([value for entry in entries for key, value in entry.keys if key == "Proposer"]
                                 + voters_and_scored))
    if scores:  # the record's scores at the end, which check holds to the replay
        last_entry = next(entry for entry in reversed(entries) if not entry.heading.startswith("Unrecorded"))
        last_entry.keys.append(("Scores", ", ".join(f"{player} {_decimal(score)}"
                                                    for player, score in sorted(scores.items()))))
    name = clean_line(title or "") or f"{repo.resolve().name}, imported from git"
    where = " or ".join(code_span(path or ".") for path in paths) or (
        code_span(records.rulesets.list) if records.rulesets.list else records.rulesets.named)
    rules_md = render_ruleset(walk.start_title or f"The rules at commit {walk.start_commit[:10]} ({walk.start_date})",
                              list(walk.initial.values()))
    if why := too_large_for(rules_md):
        raise ImportRefused(str(repo), f"the rules at commit {walk.start_commit[:10]}, as rules.md, would be a file "
                            f"that {why}", walk.problems)
    read = " or ".join(path or "." for path in paths) or (records.rulesets.named if records else "")
    logs = log_parts(f"# {heading_text(name + ': the log')}\n\nOne entry per change of the rules "
                     f"({escape_markdown(read)}); the file `IMPORT.md` in the game's folder, which is not part of the "
                     "site, says how each was read.\n\n", entries)
    game_toml = _game_toml(name, walk.start_date, players, numbers, records.adoption if records and records.file
                           else None, records.scores.adopted if records and records.scores else 0, names.played_as,
                           _sections(walk), "each ruleset the records file lists" if records and records.rulesets
                           else "each commit that changed the rules")
    if why := too_large_for(game_toml, MAX_TOML_BYTES):
        raise ImportRefused(str(repo), f"its {len(players):,} players, listed in game.toml, would make it a file that "
                            f"{why}", walk.problems)
    guessed = walk.guesses()
    guessed += [f"commit {step.commit.short}: {step.reading.words()}: guessed: {'; '.join(step.guesses)}"
                for step in steps if step.guesses and not step.correction] + walk.decision_guesses
    # The lines that changed what the import read (those that say what it reads are counted, not listed).
    used = [f"{corrections.file}:{line}: {what}" for line, what in sorted(corrections.used.items())
            if not what.endswith("(as the import reads it)")] if corrections else []
    if corrections and (confirmed := len(corrections.used) - len(used)):
        used.append(f"{corrections.file}: {counted(confirmed, 'line')} confirmed what the import reads")
    files = {"game.toml": game_toml, "rules.md": rules_md,
             **({"log.md": logs[0]} if len(logs) == 1 else {f"log/{n:03}.md": log for n, log in enumerate(logs, 1)}),
             "IMPORT.md": _report(repo, where, walk, last, steps, unrecorded, guessed, used, records, decided),
             FILE_NAME: render(f"the import of {repo.resolve().name} ({where})",
                               _correction_lines(steps, names, walk, kept, by_pull_requests),
                               _hints(steps, by_pull_requests))}
    return ImportedGame(files, sum(1 for entry in entries if entry.heading.startswith("Proposal ")), walk.problems,
                        said=used + _told(walk, steps))


def _correct(step: _Step, said: tuple[int, Reading]) -> None:
    """The step read as the keeper's corrections line `said` (its line, its reading) says: a commit's line, or a
    website's archived ruleset's (`ruleset N`, which names no commit and no proposer: the decision does). The
    import's own reading is kept beside it and completed as an uncorrected step's is (its names written, the
    decision's proposer, the co-authors of trailers), so that `_say_correction` tells whether the line changed it."""
    step.correction, step.own, step.reading = said[0], step.reading, said[1]


def _say_correction(step: _Step, corrections: Corrections) -> None:
    """The keeper's line of a corrected step said as followed: a correction where the import read otherwise (its
    kind, its numbers, or only a proposer), else a line confirming the import's reading (`own` then None)."""
    if step.own == step.reading:
        step.own = None
    corrections.use(step.correction, f"{_step_named(step)}: {step.reading.words()}" + (
        f" (the import read: {step.own.words()})" if step.own else " (as the import reads it)"))


def _numbers(reading: Reading) -> list[int]:
    return [p.number for p in reading.proposals]


def _step_named(step: _Step) -> str:
    """How the corrections file names a step: `ruleset 3` (its place in a website's list), else `commit ID`."""
    return f"ruleset {step.place}" if step.ruleset else f"commit {step.commit.short}"


def _told(walk: _Walk, steps: list[_Step]) -> list[str]:
    """What standard error says of the guesses: each guess once, with the commits it was made for (IMPORT.md and
    the corrections file list them commit by commit); and what the game's proposal files say that was not taken
    as it stands, at their lines."""
    out = walk.filed_said + walk.guesses() + ([plain_words(walk.later_start)] if walk.later_start else []) + \
        [said for _, said in walk.new_bases]
    if walk.decision_guesses:
        out.append(f"guessed for {counted(len(walk.decision_guesses), 'decision')}: {walk.decision_guesses[0]}"
                   + (" and the like" if len(walk.decision_guesses) > 1 else ""))
    alike: dict[str, list[tuple[_Step, str]]] = {}  # a guess with its numbers as N -> the steps it was made for
    for step in steps:
        if not step.correction:
            for guess in step.guesses:
                alike.setdefault(re.sub(r"[0-9]+", "N", guess), []).append((step, guess))
    for shape, made in alike.items():
        if len(made) == 1:
            step, guess = made[0]
            out.append(f"commit {step.commit.short}: {step.reading.words()}: guessed: {guess}")
            continue
        ids = [step.commit.short for step, _ in made]
        shown_ids = ", ".join(ids[:3]) + (f" and {len(ids) - 3:,} more" if len(ids) > 3 else "")
        out.append(f"guessed for {counted(len(ids), 'commit')} ({shown_ids}): {shape}")
    return out + ([f"each guess is in IMPORT.md and, to correct, in {FILE_NAME}"] if out else [])


# --- where the rules are, commit by commit ----------------------------------------------------------------------

def _earlier_paths(repo: Path, last: str, paths: list[str]) -> tuple[list[str], str | None]:
    """`paths` and, after them, where their rules were before git saw them moved there: the files of `rules/`
    renamed from the top folder make the top folder the rules until then. (The rules are read from the first of
    the paths that holds them.) With the commit the history is read from: where the rules moved from a file made
    more than once before (each round of a game making `rules.md` again, the one moved to `round4/` is that
    round's), the last time it was made; else None, from the start."""
    paths = list(paths)
    made = log_records(repo, ("%H", "%P"), "--first-parent", "--reverse", "--diff-filter=A", last, "--",
                       _pathspec(paths[-1]))[:1]
    since = None
    while made:
        (commit, parents), _ = made[0]
        source = _moved(repo, parents.split()[:1], commit, to=paths[-1])
        if source is None or source in paths:
            break
        paths.append(source)
        made = log_records(repo, ("%H", "%P"), "--first-parent", "--diff-filter=A", parents.split()[0], "--",
                           _pathspec(source))  # (newest first: the last time it was made before it moved)
        since = made[0][0][0] if len(made) > 1 and _pathspec(source) == source else None  # (a file's, not a folder's)
    return paths, since


def _within(file: str, path: str) -> str:
    """A file of the rules named by its place within their path: "" for the rules file itself, `rule101.md` for a
    file of the folder `rules/`."""
    return "" if file == path else file.removeprefix(f"{path}/") if path else file


def _pathspec(path: str) -> str:
    """What `git log -- PATHSPEC` reads as the rules' path: a file (named as text is: `rules.md`, `ruleset.rst`), or
    the files directly in a folder."""
    if not path:
        return ":(glob)*"
    return path if "." in path.rpartition("/")[2] and is_rules_text_name(path) else f":(glob){path}/*"


def _moved(repo: Path, parents: list[str], commit: str, *, to: str | None = None, away: str | None = None
           ) -> str | None:
    """Where git says a commit moved rules: the path the renamed files came from (into `to`), or went to (from
    `away`); None when it moved none. A file is its own path; files of a folder name their folder."""
    if not parents:
        return None
    found: Counter[str] = Counter()
    for status, old, new in _changed_files(repo, parents[0], commit):
        if status.startswith(("R", "C")):
            if to is not None and (new == to or _folder(new) == to):
                found[old if new == to else _folder(old)] += 1
            if away is not None and (old == away or _folder(old) == away):
                found[new if old == away else _folder(new)] += 1
    return found.most_common(1)[0][0] if found else None


def _changed_files(repo: Path, parent: str, commit: str, *pathspec: str) -> list[tuple[str, str, str]]:
    """The files a commit changed from `parent` (within `pathspec`), as git says with renames followed: (its
    status, A M D R C..., the path before, the path after; one path for both where it was not moved)."""
    items = text(git(repo, "diff-tree", "-r", "-M", "-z", "--name-status", "--no-commit-id", parent, commit,
                     *(("--", *pathspec) if pathspec else ()))).split("\0")
    out = []
    at = 0
    while at < len(items) - 1:
        status = items[at]
        if status.startswith(("R", "C")) and at + 2 < len(items):
            out.append((status, items[at + 1], items[at + 2]))
            at += 3
        else:
            out.append((status, items[at + 1], items[at + 1]))
            at += 2
    return out


def _folder(path: str) -> str:
    return path.rpartition("/")[0]


def _touches(changed: list[str], path: str) -> bool:
    return any(name == path or _folder(name) == path for name in changed)


def _walk(repo: Path, paths: list[str], first: str | None, last: str, corrections: Corrections | None,
          link_base: str | None, together: frozenset[str] = frozenset(), since: str | None = None) -> _Walk:
    """The rules at the start and each commit after that changed them, following them where git moved them;
    `together`: the places the keeper named, read as one ruleset where several hold rules at once (a folder for
    each class) and no number is in two of them; `since`: the commit to read the history from (`_earlier_paths`)."""
    span = f"{first}..{last}" if first else last
    records = log_records(repo, ("%H", "%P", "%an", "%cI", "%B"), "--first-parent", "--reverse",
                          "--diff-merges=first-parent", "--name-only", span)
    if since is not None:
        records = records[next((n for n, ((id_, *_), _) in enumerate(records) if id_ == since), 0):]
    records = _pulled(repo, records, paths)
    walk = _Walk({}, "", "", [], [], [], None, [], {})
    rewritten: set[tuple[str, str]] = set()
    paths = list(paths)
    left: list[str] = []  # the paths the rules moved away from
    unbegun: list[Problem] = []  # the rules before the start, held as a title alone: no problem unless none start
    with BlobReader(repo) as blobs:
        def rules_at(revision: str, begun: bool) -> tuple[tuple[dict[int, ImportedRule], str] | None, list[Problem]]:
            """The rules at `revision` and the path that holds them (None where no path holds readable rules), and
            the problems met on the way; before the rules have `begun`, a rules file with no rule in it yet is
            none."""
            problems = []
            reads: list[tuple[dict[int, ImportedRule], str]] = []
            for path in paths:
                if reads and path not in together:
                    continue  # (once the rules are read, only the other places the keeper named are read too)
                try:
                    read = _read_rules(repo, blobs, revision, path, link_base, _markdown(path, paths))
                except YamlBeyondBounds as error:
                    raise ImportRefused(str(repo), f"{error.file} at commit {revision[:10]}, line {error.line}: "
                                        f"{error}") from None
                except RulesetImportError as error:  # (where the rules are, unreadable: not those before)
                    if reads and isinstance(error, NoRulesFound):
                        continue  # (another place named holds none yet: the rules are those read)
                    said = error.said if isinstance(error, NoRulesFound) else str(error)
                    problem = Problem(error.file or path or ".", revision, error.line, f"{said}; {_NEXT_CARRIES}")
                    unread = not begun and isinstance(error, NoRulesFound) and _no_rule_yet(blobs, revision, path,
                                                                                            error)
                    (unbegun if unread else problems).append(problem)
                    return None, problems
                if read is None:
                    continue
                for note in read.left_out:
                    walk.left_out.setdefault(note.message, revision[:10])
                for file, line, what in read.rewritten:
                    # said once, not at each commit that has it, nor again where the rules moved (`rules.md` to
                    # `game1/rules.md`): a file is known by its place within the rules' path
                    if (said := (_within(file or path, path), what)) not in rewritten:
                        rewritten.add(said)
                        problems.append(Problem(file or path, revision, line, what))
                for note in read.guessed:  # (said once: at later commits the same guess names more rules)
                    if re.sub(r"[0-9, ]+", " ", note.message) not in walk.guessed_shapes:
                        walk.guessed_shapes.add(re.sub(r"[0-9, ]+", " ", note.message))
                        walk.guessed[note.message] = (note.file or path, revision)
                rules = _untwinned(read.rules, walk, corrections, (path, revision), current[0] if current else {},
                                   lambda: _highest(repo, blobs, last, paths, link_base))
                reads.append(({rule.number: rule for rule in _as_recorded(rules, walk, corrections)}, path))
            if len(reads) > 1 and sum(len(rules) for rules, _ in reads) == len(set().union(*(r for r, _ in reads))):
                # Rules kept in several places at once (a folder for each class): one ruleset, where no number is
                # in two of them; the same rules in two places are where they were kept before and after.
                return ({number: rule for rules, _ in reads for number, rule in rules.items()}, reads[0][1]), \
                    problems
            return (reads[0] if reads else None), problems

        current: tuple[dict[int, ImportedRule], str] | None = None
        if first:
            current, problems = rules_at(first, False)
            walk.problems += problems
            if current is None:
                raise ImportRefused(str(repo), f"no readable rules at {_named(paths)} in commit {first[:10]} (--from)",
                                    walk.problems + unbegun)
            walk.start_commit = first
            walk.start_date = text(git(repo, "show", "-s", "--format=%cI", "--end-of-options", first)).strip()[:10]
            walk.initial = current[0]
            _arrange(walk, walk.start_date, current[0])
        entering = not first  # whether the commits so far may be the starting rules' entry
        unread: list[Commit] = []  # the commits since the last whose rules could be read
        for place, ((id_, parents, author, date, message), changed) in enumerate(records):
            commit = Commit(id_, tuple(parents.split()), author, date, message)
            walk.line.append((commit, changed))
            if current is not None:  # (a decision before the rules begin is an earlier game's, or round's)
                _note_decision(walk, place, commit)
                if walk.proposing is None and (walk.decided or walk.submitted):
                    walk.proposing, entering = commit, False
            for old in left:  # rules made again where they were before they moved: a new game, or round
                if _touches(changed, old) and blobs.kind(commit.id, old) is not None and old not in walk.remade:
                    walk.remade[old] = commit
            if not any(_touches(changed, path) for path in paths):
                continue
            now, problems = rules_at(commit.id, current is not None)
            if current is None:
                walk.problems += problems
                if now is not None:
                    current, walk.start_commit, walk.start_date = now, commit.id, commit.date[:10]
                    walk.initial, walk.begun = now[0], commit
                    _arrange(walk, walk.start_date, now[0])
                continue
            if now is None and (moved := _moved(repo, list(commit.parents), commit.id, away=current[1])) is not None \
                    and moved not in paths:  # the rules moved: follow them
                paths.insert(0, moved)
                left.append(current[1])
                now, problems = rules_at(commit.id, True)
                if now is not None:
                    walk.moves.append(f"from {code_span(current[1] or '.')} to {code_span(moved)} at commit "
                                      f"{commit.short} ({commit.date[:10]})")
            walk.problems += problems
            if now is None:
                unread.append(commit)
                if current[1] and blobs.kind(commit.id, current[1]) is None:  # removed: the game (a round) ends
                    walk.ended = f"the rules were removed at commit {commit.short} ({commit.date[:10]}, " \
                                 f"{escape_markdown(clean_line(commit.subject))}): the game, or this round of it, " \
                                 "ends there. A rules file made again later starts a new one: import it with " \
                                 "`--from` its first commit."
                    break
                continue
            unread.clear()
            before, after = current[0], now[0]
            current = now
            _arrange(walk, commit.date[:10], after)
            changes, cleaned = _changes(before, after)
            changes += _annotations(before, after)
            if not changes and not cleaned:
                walk.unchanged.append(commit)
                continue
            formatting = not changes
            slight = _slight(before, after, changes)
            changes, cleaned = (cleaned, []) if formatting else (changes, cleaned)
            credited = [_credited(change, before, after, now[1], commit.id, changes) for change in changes]
            title, author, author_is, branch = _title_and_author(repo, commit)
            signed = _branch_commits(repo, commit) if branch else []
            for name, _ in signed:
                walk.branch_authors.setdefault(author, {}).setdefault(name, commit)
            summary, why = short_title(title)
            if why:
                walk.problems.append(Problem("", commit.id, 0, f"its subject: {why}"))
            body, why = _message(commit.message, summary)
            if why:
                walk.problems.append(Problem("", commit.id, 0, f"its message: {why}"))
            walk.steps.append(_Step(commit, changes, credited, summary, author, author_is, branch, formatting, body,
                                    place, cleaned=cleaned, branch_commits=signed, slight=slight))
            if _unclassed(before, after):
                kept = [change.rule for change in changes if change.kind == "transmute"]
                walk.steps[-1].guesses.append(
                    f"the rules file marks no rule's class from it on: {'rule' if len(kept) == 1 else 'rules'} "
                    f"{number_ranges(runs(kept))}, immutable "
                    "before, read as transmuted to mutable by it (the game amends and repeals them since; a line "
                    "`rule N immutable` keeps one so)")
            if entering and walk.begun is not None and commit.author == walk.begun.author:
                walk.entering.append(now[0])
            elif entering:  # (another changed the rules before the first proposal: no entry of starting rules)
                entering = False
                walk.entering.clear()
    if current is None:
        raise ImportRefused(str(repo), f"no readable rules at {_named(paths)} in the history up to {last[:10]}"
                            + _other_places(repo, last, paths), walk.problems + unbegun)
    _unread_to_the_end(walk, unread)
    walk.final = current[0]
    return walk


def _other_places(repo: Path, last: str, paths: list[str]) -> str:
    """Where the rules may be, where no --rules path is in the last commit: its files named so in another case, or
    whose names say rules (a newcomer's `--rules rules.md` for the repository's `RULES.md`)."""
    files = list_files(repo, last, "")
    wanted = [path.strip("/") for path in paths]
    if any(file == path or file.startswith(path + "/") or not path for file in files for path in wanted):
        return ""
    named = {path.casefold() for path in wanted}
    found = []
    for file in files:
        if file.casefold() in named or "rule" in file.rsplit("/", 1)[-1].casefold():
            found.append(file)
        elif "/" in file and "rule" in file.split("/", 1)[0].casefold():  # (a folder of rules: named once)
            found.append(file.split("/", 1)[0] + "/")
    shown = list(dict.fromkeys(found))
    return (f" (it holds {', '.join(shown[:5])}{' and more' if len(shown) > 5 else ''}: --rules names a path as "
            "the repository spells it)") if shown else ""


def _unread_to_the_end(walk: _Walk, unread: list[Commit]) -> None:
    """No commit after `unread[0]` holds rules that can be read: the game is read up to the one before, and
    said so, not that a next readable commit carries their changes."""
    if not unread or walk.ended is not None:  # (removed rules end the game as they say)
        return
    ids = {commit.id for commit in unread}
    walk.problems = [dataclasses.replace(problem, message=problem.message.replace(_NEXT_CARRIES, _NONE_LATER))
                     if problem.commit in ids else problem for problem in walk.problems]
    later = f", nor at the {counted(len(unread) - 1, 'later commit')} that changed them" if len(unread) > 1 else \
        ", the last that changed them"
    walk.ended = f"the rules could not be read at commit {unread[0].short} ({unread[0].date[:10]}, " \
                 f"{escape_markdown(clean_line(unread[0].subject))}){later} (the problems below say why): the " \
                 "game is read up to the commit before it. A commit of your own that mends the file (a number " \
                 "written twice, say) lets the import read on."


_NEXT_CARRIES = "not read: the next readable commit carries its changes"
_NONE_LATER = "not read, nor any later commit's rules: the game is read up to the commit before the first of them"
_PULL = re.compile(r"Merge (?:branch '[^']{1,200}' of \S{1,500}|remote-tracking branch '[^']{1,200}')")


def _pulled(repo: Path, records: list, paths: list[str]) -> list:
    """The first-parent history with each of a keeper's pulls (`Merge branch 'master' of github.com:o/r`: their own
    line first, the game's as GitHub kept it second) preceded by the commits it brought along the game's line (the
    pull requests merged there), where their own side changed no rule: those commits, not the pull, made the
    changes, each read as its own."""
    spliced = []
    for record in records:
        (_, parents, _, _, message), _ = record
        if len(parents.split()) == 2 and _PULL.fullmatch(message.split("\n", 1)[0].strip()):
            ours, theirs = parents.split()
            base = text(git(repo, "merge-base", "--end-of-options", ours, theirs)).strip()
            if base and not text(git(repo, "diff", "--name-only", base, ours, "--",
                                     *(_pathspec(path) for path in paths))).strip():
                spliced += log_records(repo, ("%H", "%P", "%an", "%cI", "%B"), "--first-parent", "--reverse",
                                       "--diff-merges=first-parent", "--name-only", "--end-of-options",
                                       f"{ours}..{theirs}")
        spliced.append(record)
    return spliced


def _branch_commits(repo: Path, merge: Commit) -> list[tuple[str, str]]:
    """Who wrote the own commits of the branch a pull request's commit merged, oldest first, as git names and
    addresses them."""
    span = f"{merge.parents[0]}..{merge.parents[1]}"
    return [(name, email) for (name, email), _ in log_records(repo, ("%an", "%ae"), "--no-merges", "--reverse",
                                                              "--end-of-options", span)]


def _begin_after_entry(walk: _Walk, unread: list[_Step]) -> None:
    """The starting rules entered over several commits (a bot adding a section at a time) by the one who began
    them, every commit that changed the rules before the record says any proposal was submitted or decided (the
    steps `walk.entering` holds), none of which the record reads (all `unread`: no proposal by its title, no
    History line): no proposal made those changes, so the rules after the last of them are the game's starting
    rules (`--from` says otherwise)."""
    begun, proposing, count = walk.begun, walk.proposing, len(walk.entering)
    if not count or begun is None or proposing is None or any(step not in unread for step in walk.steps[:count]):
        return
    last = walk.steps[count - 1].commit
    walk.steps = walk.steps[count:]
    walk.initial, walk.start_commit, walk.start_date = walk.entering[count - 1], last.id, last.date[:10]
    walk.entered = (f"The rules began at commit `{begun.short}` ({begun.date[:10]}), and {escape_markdown(begun.author)}"
                    f" went on entering them over {counted(count, 'more commit')}, to `{last.short}` "
                    f"({last.date[:10]}), before the record says any proposal was submitted or decided (commit "
                    f"`{proposing.short}`, {escape_markdown(clean_line(proposing.subject))}): no proposal made "
                    "those changes, so rules.md holds the rules after the last of them. To read them as changes, "
                    f"import with `--from {begun.short}`.")


def _later_start(walk: _Walk) -> str:
    """Where the game may have begun later than its rules did, in words: every commit that changed the rules was
    its keepers' own (no pull request merged one) until a pull request did, and most commits since have merged
    pull requests (a template its keeper wrote, which others forked and played by pull requests). Said, never
    taken: `--from` takes it, where the keeper knows."""
    first = next((at for at, step in enumerate(walk.steps) if _pull_request(step.commit) is not None), 0)
    before, since = walk.steps[:first], walk.steps[first:]
    merged = sum(1 for step in since if _pull_request(step.commit) is not None)
    if walk.begun is None or len(before) < 2 or merged * 2 <= len(since):
        return ""
    last, opened = before[-1].commit, since[0].commit
    return (f"The rules began at commit `{walk.begun.short}` ({walk.begun.date[:10]}) and {counted(len(before), 'commit')} "
            f"changed them directly, to `{last.short}` ({last.date[:10]}), before a pull request first did at "
            f"`{opened.short}` ({opened.date[:10]}); pull requests made {merged} of the {len(since)} changes since. "
            f"If the game began there, its rules then the starting rules, import it with `--from {last.short}`.")


def _new_bases(walk: _Walk) -> list[tuple[str, str]]:
    """Where the keeper may have set the rules anew (a new semester's, a new round's starting rules), in words: a
    proposal or event (as read, corrections followed) that amends or repeals immutable rules without transmuting
    them, as no change made in play may (Suber's rule 103; check finds it). Said, never taken: `--from` takes it,
    where the keeper knows."""
    classes = {number: rule.rule_class for number, rule in walk.initial.items()}
    out = []
    for step in walk.steps:
        transmuted = {change.rule for change in step.changes if change.kind == "transmute"}
        changed = sorted({change.rule for change in step.changes if change.kind in ("amend", "repeal", "retitle")
                          and classes.get(change.rule) == IMMUTABLE and change.rule not in transmuted})
        if changed and step.reading.kind in ("proposal", "event"):  # (a cleaning may reword any rule)
            them = "rules {} without transmuting them" if len(changed) > 1 else "rule {} without transmuting it"
            said = (f"Commit {{}} ({step.commit.date[:10]}, {{}}) changes immutable "
                    f"{them.format(number_ranges(runs(changed)))}, as no change made in play may: if the keeper set "
                    "the rules anew there (a new round, a semester), import the game from it with {}.")
            title, short = clean_line(step.title), step.commit.short
            out.append((said.format(f"`{short}`", escape_markdown(title), f"`--from {short}`"),
                        said.format(short, title, f"--from {short}")))
        for change in step.changes:
            if change.kind in ("enact", "reenact", "transmute"):
                classes[change.rule] = change.rule_class
            elif change.kind == "renumber" and change.new_number is not None:
                classes[change.new_number] = classes.pop(change.rule, None)
            elif change.kind == "repeal":
                classes.pop(change.rule, None)
    return out


def _no_rule_yet(blobs: BlobReader, revision: str, path: str, error: NoRulesFound) -> bool:
    """Whether rules in which no rule was found are rules not yet begun: a file that holds its title alone
    (headings, and at most a line under them, as GitHub makes a README: `# name`, a description), or a folder
    none of whose files is a rule (a README)."""
    if error.file is None:
        return not path or blobs.kind(revision, path) == "tree"
    if error.file != path or blobs.kind(revision, path) != "blob":
        return False
    lines = [line.strip() for line in (_read(blobs, revision, path) or "").splitlines() if line.strip()]
    said = [line for line, after in zip(lines, lines[1:] + [""])
            if not (line.startswith("#") or _UNDERLINE.fullmatch(line) or _UNDERLINE.fullmatch(after))]
    return len(said) <= 1


def _note_decision(walk: _Walk, place: int, commit: Commit) -> None:
    """What a bot's commit says of a proposal: that it was decided, submitted by someone, failed by someone."""
    if m := _DECIDED.search(commit.subject):
        walk.decided.append((place, int(m.group(1)), commit))
    if m := _SUBMITTED.match(commit.subject):  # (the last: a number deleted is given again, and the file holds that)
        walk.submitted[int(m.group(2))] = (m.group(1), commit)
    if m := _FAILED_BY.match(commit.subject):
        walk.failed_by[int(m.group(2))] = (m.group(1), commit)


def _named(paths: list[str]) -> str:
    return " or ".join(path or "." for path in paths)


def _untwinned(rules: list[ImportedRule], walk: _Walk, corrections: Corrections | None, at: tuple[str, str],
               before: dict[int, ImportedRule], highest: Callable[[], int]) -> list[ImportedRule]:
    """A rules file that numbers two rules alike (a player gave a new rule the number of one in force): the one most
    like the rule read under that number before keeps it, the other is read under the number given it when it came
    (the keeper's, by the corrections line `rule N twice at COMMIT as M`; else the next above every number the rules
    hold, at the end too, `highest`: a guess, said)."""
    by_number: dict[int, list[ImportedRule]] = {}
    for rule in rules:
        by_number.setdefault(rule.number, []).append(rule)
    given: dict[int, int] = {}  # id of a rule -> the number it is read under (0: a copy, not read)
    for number, same in by_number.items():
        if len(same) == 2:
            old = before.get(number)
            kept = max(same, key=lambda rule: _alike(old, rule)) if old is not None else same[0]
            twin = same[1] if kept is same[0] else same[0]
            if (twin.title, twin.text) == (kept.title, kept.text):  # the same rule written twice: read once
                given[id(same[1])] = 0
                _say_copied(walk, number, same[1], at)
                continue
            if number not in walk.twins:
                walk.twins[number] = _twin_number(number, (twin, kept), walk, corrections, at, set(by_number),
                                                  max([highest(), *by_number, *walk.twins.values()]) + 1)
            given[id(twin)] = walk.twins[number]
    return [dataclasses.replace(rule, number=given[id(rule)]) if id(rule) in given else rule for rule in rules
            if given.get(id(rule)) != 0]


def _say_copied(walk: _Walk, number: int, copy: ImportedRule, at: tuple[str, str]) -> None:
    """A problem of the record, said once: the file writes rule `number` twice, word for word (`copy` the second)."""
    if number not in walk.copied:
        walk.copied.add(number)
        walk.problems.append(Problem(copy.file or at[0], at[1], copy.line, f"rule {number} is written twice, word "
                                     "for word: read once"))


def _twin_number(number: int, rules: tuple[ImportedRule, ImportedRule], walk: _Walk,
                 corrections: Corrections | None, at: tuple[str, str], held: set[int], spare: int) -> int:
    """The number a rule the file numbers as another (`rules`: it, then the one that keeps the number) is read
    under: the keeper's, one the rules do not hold (`held`), else `spare` (a guess, said)."""
    (twin, kept), (path, revision) = rules, at
    where = f"rule {number} twice at {revision[:10]}"
    title = f" ('{clean_line(twin.title)}')" if twin.title else ""
    said = corrections.twin(number, revision) if corrections else None
    if said is not None and said[1] in held:
        raise ArchiveError([SourceError(corrections.file, said[0], f"{where} as {said[1]}: the rules at commit "
                                        f"{revision[:10]} hold a rule {said[1]}: give it a number no rule holds")])
    if said is not None:
        corrections.use(said[0], f"{where} as {said[1]} (the import read: as {spare})")
        walk.twin_lines.append(Line(where, f"as {said[1]}", f"your correction (the import read: as {spare})"))
        return said[1]
    lines = sorted((kept.line, twin.line))
    guess = f"rule {number} is written twice (lines {lines[0]} and {lines[1]}): the one new at this commit{title} " \
            f"is read as rule {spare}, a number no rule holds (the corrections line `{where} as N` gives it another)"
    walk.twin_guessed[guess] = (twin.file or path, revision)
    walk.twin_lines.append(Line(where, f"as {spare}", f"guessed: {guess}"))
    return spare


def _highest(repo: Path, blobs: BlobReader, last: str, paths: list[str], link_base: str | None) -> int:
    """The highest number the rules hold at the last commit (0 where they cannot be read there)."""
    numbers = [0]
    for path in paths:
        try:
            read = _read_rules(repo, blobs, last, path, link_base)
        except RulesetImportError:
            continue
        numbers += [rule.number for rule in read.rules] if read is not None else []
    return max(numbers)


def _as_recorded(rules: list[ImportedRule], walk: _Walk, corrections: Corrections | None) -> list[ImportedRule]:
    """The rules read at a commit with the numbers and classes the import keeps across commits: a rule an outline
    identifies by its tag keeps the number it had, whatever its place now (a new tag takes the next number); a
    rule's class is the keeper's where the corrections file gives it."""
    out = []
    for rule in rules:
        if rule.key is not None:
            if rule.key not in walk.keys:
                taken = set(walk.keys.values())
                walk.keys[rule.key] = rule.number if rule.number not in taken else max(taken) + 1
            rule = dataclasses.replace(rule, number=walk.keys[rule.key])
        if corrections is not None and (said := corrections.rule_class(rule.number)):
            rule_class = {"immutable": IMMUTABLE, "mutable": MUTABLE}.get(said[1])
            same = " (as the import reads it)" if rule_class == rule.rule_class else ""
            corrections.use(said[0], f"rule {rule.number} {said[1]}{same}")
            rule = dataclasses.replace(rule, rule_class=rule_class)
        walk.classes[rule.number] = rule.rule_class
        out.append(rule)
    return out


def _markdown(path: str, paths: list[str]) -> bool | None:
    """Whether the rules file at `path` is Markdown, where its name does not say (no extension) but the name git saw
    it renamed to does (`Official-Rules` to `Official-Rules.rst`, the same text): None where the reader decides."""
    name = path.rpartition("/")[2]
    at = paths.index(path)
    if "." in name or at == 0 or "." not in (later := paths[at - 1].rpartition("/")[2]):
        return None
    return True if later.lower().endswith(MARKDOWN_EXTENSIONS) else \
        False if later.lower().endswith(PLAIN_EXTENSIONS) else None


def _read_rules(repo: Path, blobs: BlobReader, revision: str, path: str, link_base: str | None,
                markdown: bool | None = None):
    """The rules at `revision`: None when the path is absent there; RulesetImportError when unreadable. `markdown`:
    whether a file is Markdown, where the reader is not to decide."""
    kind = blobs.kind(revision, path) if path else "tree"
    if kind == "blob":
        content = _read(blobs, revision, path)
        return read_ruleset(content, file=path, link_base=link_base, markdown=markdown, twins=True) \
            if content is not None else None
    if kind == "tree":
        files = [(name, _folder_file(blobs, revision, name)) for name in list_files(repo, revision, path,
                                                                                  recursive=False)]
        return read_rule_files(files, link_base=link_base)
    return None


def _folder_file(blobs: BlobReader, revision: str, name: str) -> str | None:
    """A file of a folder of rules: one named as text, or any other that opens with front matter (a Jekyll
    collection's `0013.rule`); None for any other (a picture), which the folder's reader names as left out."""
    if is_rules_text_name(name):
        return _read(blobs, revision, name)
    try:
        opening = blobs.read(revision, name)
    except BlobTooLarge:
        return None
    return _read(blobs, revision, name) if opening is not None and opens_with_front_matter(opening) else None


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


# --- what a commit did to the rules ----------------------------------------------------------------------------

def _class(rule: ImportedRule) -> str | None:
    """"immutable", "mutable", or None where the record does not say."""
    return "immutable" if rule.rule_class == IMMUTABLE else "mutable" if rule.rule_class == MUTABLE else None


def _formatting(text_: str) -> str:
    """A text's words and punctuation, as they read whatever their markup and white space."""
    return " ".join(_MARKUP.sub("", text_).split())


def _changes(before: dict[int, ImportedRule], after: dict[int, ImportedRule]) -> tuple[list[Change], list[Change]]:
    """What a keeper would write to turn `before` into `after`, rule by rule: the changes, and apart from them
    those that only reformat a rule's text or title (a cleaning, which no rule-change is). A rule that leaves one
    number as another arrives with much the same text is renumbered, not repealed and enacted: its history goes
    on; where rules that stay move up or down (one taken out of the middle of rules numbered by their place), each
    is renumbered, and the rule it displaces repealed or renumbered first (`_shifted_changes`). Where the file
    stops marking classes (`_unclassed`), each immutable rule that stays is transmuted to mutable."""
    unclassed = _unclassed(before, after)
    if shifted := _shifted(before, after):
        return _labelled(before, after, *_shifted_changes(before, after, *shifted, unclassed))
    changes: list[Change] = []
    cleaned: list[Change] = []
    gone = [number for number in before if number not in after]
    new = [number for number in after if number not in before]
    renumbered = _renumbered({n: before[n] for n in gone}, {n: after[n] for n in new})
    for number in sorted(before.keys() | after.keys()):
        old, now = before.get(number), after.get(number)
        if number in renumbered:
            old = before[renumbered[number]]
            changes.append(Change("renumber", old.number, new_number=number))
        elif now is None:
            if number not in renumbered.values():
                changes.append(Change("repeal", number))
            continue
        elif old is None:
            changes.append(Change("enact", number, text=now.text, title=now.title, rule_class=_class(now)))
            continue
        _compare(number, old, now, number in renumbered, changes, cleaned, unclassed)
    return _labelled(before, after, changes, cleaned)


def _labelled(before: dict[int, ImportedRule], after: dict[int, ImportedRule], changes: list[Change],
              cleaned: list[Change]) -> tuple[list[Change], list[Change]]:
    """The changes, the first that leaves each rule in force giving its label where the record names it anew (a
    rule enacted, one renumbered with its place in an outline). A label changed alone goes unsaid: no change
    carries it."""
    out, seen = [], set()
    for change in changes:
        number = change.new_number if change.kind == "renumber" else change.rule
        if change.kind not in ("repeal", "annotate") and number in after and number not in seen:
            seen.add(number)
            was = before.get(change.rule) if change.kind != "enact" else None
            label = rule_label(after[number].label or "")
            if label and label != (rule_label(was.label or "") if was is not None else ""):
                change = dataclasses.replace(change, label=label)
        out.append(change)
    return out, cleaned


def _unclassed(before: dict[int, ImportedRule], after: dict[int, ImportedRule]) -> bool:
    """Whether the rules file stops marking classes: some rule was immutable before, and no rule has a class now
    (a game that did away with immutability and its headings; the format has no class "not recorded" to turn a
    recorded one into, and the game amends and repeals those rules from then on, as mutable ones)."""
    return any(_class(rule) == "immutable" for rule in before.values()) and \
        all(_class(rule) is None for rule in after.values())


def _compare(number: int, old: ImportedRule, now: ImportedRule, renumbered: bool, changes: list[Change],
             cleaned: list[Change], unclassed: bool = False) -> None:
    """The changes that turn `old` into `now`, rule `number` now; those of formatting alone apart in `cleaned`
    (never for a rule `renumbered` by the same commit); an immutable rule where the file stops marking classes
    (`unclassed`) is transmuted to mutable."""
    if _class(old) != _class(now) and (_class(now) is not None or unclassed and _class(old) == "immutable"):
        changes.append(Change("transmute", number, rule_class=_class(now) or "mutable"))
    text_alike, title_alike = _reformatted(old, now) if not renumbered else (False, False)
    if old.text != now.text:
        (cleaned if text_alike else changes).append(Change("amend", number, text=now.text))
    if old.title != now.title:
        (cleaned if title_alike else changes).append(Change("retitle", number, title=now.title or ""))


def _shifted(before: dict[int, ImportedRule], after: dict[int, ImportedRule]
             ) -> tuple[dict[int, int], list[tuple[int, int]], set[int]] | None:
    """Where rules moved onto numbers other rules held: (new number -> old number, the renumberings in an order
    in which each lands on a free number, the numbers repealed); None where no rule arrives where another stood,
    or the moves go round in a cycle (then the plain reading)."""
    displaced = {n for n in before.keys() & after.keys() if before[n] != after[n] and not _alike(before[n], after[n])}
    if not displaced:
        return None
    moved = _renumbered({n: before[n] for n in before.keys() - after.keys() | displaced},
                        {n: after[n] for n in after.keys() - before.keys() | displaced})
    if not moved.keys() & before.keys():
        return None
    repealed = {n for n in before if n not in moved.values() and (n not in after or n in moved)}
    order = _landing_order(moved, set(before) - repealed)
    return (moved, order, repealed) if order is not None else None


def _landing_order(moved: dict[int, int], held: set[int]) -> list[tuple[int, int]] | None:
    """(old, new) for each move of `moved` (new -> old), in an order in which each lands on a number no rule
    holds then (`held`: those held before the first); None for moves that go round in a cycle."""
    pending, order = dict(moved), []
    while pending:
        ready = sorted((old, new) for new, old in pending.items() if new not in held)
        if not ready:
            return None
        for old, new in ready:
            order.append((old, new))
            held = held - {old} | {new}
            del pending[new]
    return order


def _shifted_changes(before: dict[int, ImportedRule], after: dict[int, ImportedRule], moved: dict[int, int],
                     order: list[tuple[int, int]], repealed: set[int], unclassed: bool
                     ) -> tuple[list[Change], list[Change]]:
    changes = [Change("repeal", number) for number in sorted(repealed)]
    changes += [Change("renumber", old, new_number=new) for old, new in order]
    cleaned: list[Change] = []
    for number, now in sorted(after.items()):
        old = before[moved[number]] if number in moved else \
            before.get(number) if number not in moved.values() else None
        if old is None:
            changes.append(Change("enact", number, text=now.text, title=now.title, rule_class=_class(now)))
        else:
            _compare(number, old, now, number in moved, changes, cleaned, unclassed)
    return changes, cleaned


def _reformatted(old: ImportedRule, now: ImportedRule) -> tuple[bool, bool]:
    """Whether the rule's text, and its title, read alike before and after whatever their markup: a heading made
    of the text's first line (or a title put back into the text) moves no word, and changes both."""
    if old.title != now.title and \
            _formatting(f"{old.title or ''} {old.text}") == _formatting(f"{now.title or ''} {now.text}"):
        return True, True
    return _formatting(old.text) == _formatting(now.text), _formatting(old.title or "") == _formatting(now.title or "")


def _slight(before: dict[int, ImportedRule], after: dict[int, ImportedRule], changes: list[Change]) -> bool:
    """Whether every change amends a rule's text by a few words at most (a typo's correction: `involves` to
    `involve`, a range of numbers brought up to date)."""
    def words_changed(old: str, now: str) -> int:
        opcodes = difflib.SequenceMatcher(None, old.split(), now.split(), autojunk=False).get_opcodes()
        return sum(max(i2 - i1, j2 - j1) for op, i1, i2, j1, j2 in opcodes if op != "equal")
    return bool(changes) and all(change.kind == "amend" and change.rule in before and change.rule in after and
                                 words_changed(before[change.rule].text, after[change.rule].text) <= _FEW_WORDS
                                 for change in changes)


def _alike(old: ImportedRule, now: ImportedRule) -> float:
    """How alike two rules read, 0 when they are not one rule: the same title, or words mostly the same."""
    same_title = bool(old.title) and _formatting(old.title or "").lower() == _formatting(now.title or "").lower()
    ratio = difflib.SequenceMatcher(None, old.text.split(), now.text.split(), autojunk=False).ratio()
    return ratio + same_title if same_title or ratio >= 0.75 else 0


def _renumbered(gone: dict[int, ImportedRule], new: dict[int, ImportedRule]) -> dict[int, int]:
    """New number -> old number, for each rule that left a number and took another in one commit: the same
    title, or words mostly the same (each pair at most once, the closest first)."""
    pairs = []
    for old_number, old in gone.items():
        for new_number, now in new.items():
            if likeness := _alike(old, now):
                pairs.append((-likeness, old_number, new_number))
    out: dict[int, int] = {}
    for _, old_number, new_number in sorted(pairs):
        if new_number not in out and old_number not in out.values():
            out[new_number] = old_number
    return out


def _annotations(before: dict[int, ImportedRule], after: dict[int, ImportedRule]) -> list[Change]:
    """The notes (a judgment's ruling, say) a commit added to rules in force before and after it."""
    out = []
    for number, rule in sorted(after.items()):
        old = before.get(number)
        if old is None:
            continue
        out += [Change("annotate", number, text=note) for note in rule.annotations if note not in old.annotations]
    return out


def _history(rule: ImportedRule | None, file: str, commit: str) -> list[HistoryEntry] | None:
    """A rule's History lines as entries; None when the record keeps none for it."""
    if rule is None:
        return None
    return [history_entry(said, Source(rule.file or file, commit, line)) for line, said in rule.history]


def _credited(change: Change, before: dict[int, ImportedRule], after: dict[int, ImportedRule], file: str,
              commit: str, changes: list[Change]) -> HistoryEntry | None:
    """The History line the commit added to the changed rule's history for this change, if any (record.credit)."""
    number = change.new_number if change.kind == "renumber" else change.rule
    rule_changes = [other for other in changes if (other.new_number if other.kind == "renumber" else other.rule)
                    == number]
    history_after = _history(after.get(number), file, commit)
    if history_after is None:
        return None
    old = before.get(change.rule if change.kind == "renumber" else number)
    return credit(rule_changes, _history(old, file, commit), history_after)


def _title_and_author(repo: Path, commit: Commit) -> tuple[str, str, str, str]:
    """A commit's title (a merged pull request's: the paragraph GitHub puts second, else its branch's subject),
    who made it, in words where that comes from, and its branch's name."""
    if len(commit.parents) > 1 and (m := _MERGED_PULL_REQUEST.match(commit.subject)):
        paragraphs = _message_paragraphs(commit.message)  # (GitHub writes the title on one line, the body after)
        title = paragraphs[1].strip().split("\n")[0] if len(paragraphs) > 1 else ""
        if not title or _BRANCH_NAMED.fullmatch(title):  # (a request titled as its branch, `kit/game:master`)
            title = author_and_subject(repo, commit.parents[1])[1]
        owner, branch = m.group(2), m.group(3)
        if (edit := _WEB_EDIT_BRANCH.fullmatch(branch)) and edit.group(1).lower() != owner.lower():
            return title, edit.group(1), f"its pull request's author (from {owner}/{branch}, the branch GitHub " \
                "names for a web edit by its author)", branch
        return title, owner, f"its pull request's author (from {owner}/{branch})", branch
    if len(commit.parents) > 1:
        author, subject = author_and_subject(repo, commit.parents[1])
        return subject, author, "the author of the branch it merged", ""
    return _SQUASHED_PULL_REQUEST.sub("", commit.subject), commit.author, "the commit's author", ""


# --- what the record says each commit was ----------------------------------------------------------------------

_UNNUMBERED = "no record numbers it"   # the guess a numbering pass completes
NEXT = -1                              # the number of a proposal to be numbered in sequence (a game may number from 0)


def _pull_request(commit: Commit) -> int | None:
    """The number of the pull request a commit merged (`Merge pull request #12 from ...`) or squashed (`Title
    (#12)`), if it says one."""
    m = _MERGED_PULL_REQUEST.match(commit.subject) if len(commit.parents) > 1 else \
        _SQUASHED_PULL_REQUEST.search(commit.subject)
    return int(m.group(1)) if m else None


def _read_step(step: _Step, by_pull_requests: bool = False) -> bool:
    """Read the commit as corrections.py writes it, from the record (its History lines, the game's words in its
    title; with the game's convention `by_pull_requests`, its pull request's number is its proposal's). False when
    the record does not say what it is: `_guess` decides, from the game's ways."""
    entries = [entry for entry in step.credited if entry is not None and entry.agent.kind != "initial"]
    author, author_is = _author(step)
    agents = {entry.agent.kind for entry in entries}
    if entries and agents <= {"proposal"} and all(entry.proposal is not None for entry in entries):
        proposals: dict[int, tuple[str, ...]] = {}
        for entry in entries:
            if not proposals.get(entry.proposal):
                proposals[entry.proposal] = entry.authors
        step.said += [f"its History line '{_shown(entry)}'" for entry in dict.fromkeys(entries)]
        step.guesses += [f"proposal {number}'s proposer is {author_is} (its History line names none)"
                         for number, authors in proposals.items() if not authors]
        step.reading = Reading("proposal", tuple(Proposal(number, authors or (author,))
                                                 for number, authors in sorted(proposals.items())))
        return True
    if entries and len(agents) == 1 and agents <= {"judgment", "temporary-rule", "rule", "cleaning"}:
        entry = entries[0]
        step.said.append(f"its History line '{_shown(entry)}'")
        by = ", ".join(entry.authors)
        if entry.agent.kind == "judgment":
            if not by:
                step.guesses.append(f"the judge is {author_is} (the History line names none)")
            step.reading = Reading("judgment", name=entry.agent.number or "?", by=by or author)
        elif entry.agent.kind == "cleaning":
            step.reading = Reading("cleaning", by=by or author)
        else:
            step.reading = Reading("event", by=entry.agent.words.lower() + (f" ({by})" if by else ""))
        return True
    if step.filed:  # (the game's proposal files: the proposer is its file's, `_credit_authors`)
        hows = {how: [(number, posixpath.basename(path)) for number, path, h in step.filed if h == how]
                for _, _, how in step.filed}
        # (a proposal's own file, by its name; an entry of the keeper's archive, by the proposal's number)
        step.said += [f"its proposals' files {', '.join(name for _, name in filed)}, {how}" if filed[0][1] else
                      f"proposal {', '.join(str(number) for number, _ in filed)}: {how}" for how, filed in hows.items()]
        step.reading = Reading("proposal", tuple(Proposal(number, (author,)) for number, _, _ in step.filed))
        return True
    title = step.title
    if by_pull_requests and (number := _pull_request(step.commit)) is not None and not _NON_RULE_CHANGE.match(title):
        step.said.append(f"its pull request #{number}, the game numbering its proposals by their pull requests "
                         f"({CONVENTION_PULL_REQUESTS})")
        _proposals(step, [number], author, author_is)
    elif _NON_RULE_CHANGE.match(title):
        step.said.append(f"its title '{clean_line(title)}' calls it a non-rule change")
        step.reading = Reading("cleaning", by=author)
    elif m := _JUDGMENT.match(title):
        step.said.append(f"its title '{clean_line(title)}'")
        judge = _judge([change for change in step.changes if change.kind == "annotate"])
        if judge is None:
            step.guesses.append(f"the judge is {author_is} (nothing in the record names one)")
        step.reading = Reading("judgment", name=" ".join((m.group(1) or "?").split()), by=judge or author)
    elif m := _TEMPORARY_RULE.match(title):
        step.said.append(f"its title '{clean_line(title)}'")
        step.reading = Reading("event", by=f"temporary rule {m.group(1)}")
    elif _PREVIOUS_WAS.match(title):  # (the commit before is read by `_previous_named`)
        step.said.append(f"its title '{clean_line(title)}' corrects the commit before it")
        step.reading = Reading("cleaning", by=author)
    elif (m := _TURN.match(title)) and m.group(1) in (None, "1"):
        step.said.append(f"its title '{clean_line(title)}' {_BY_TURN}")
        _proposals(step, [int(m.group(2))], author, author_is)
    elif m:  # a later round's turn: a proposal, whose number its turn's (which starts again) is not
        step.marked = True
        step.said.append(f"its title '{clean_line(title)}' names a turn of a later round (its turns start again)")
        return False
    elif numbers := _subject_numbers(title):
        step.said.append(f"its title '{clean_line(title)}'")
        _proposals(step, numbers, author, author_is)
    elif numbers := _branch_numbers(step.branch, step.changes):
        if (m := _BARE_NUMBER.match(title)) and int(m.group(1)) not in numbers:
            # The title the pull request was merged under, not the branch named when it opened (`306-vote-count`
            # merged as "307 Make your vote count"): a game numbering its pull requests' titles so says it there.
            step.said.append(f"its title '{clean_line(title)}' (its branch's name '{step.branch}' says "
                             f"{numbers[0]})")
            numbers = [int(m.group(1))]
        else:
            step.said.append(f"its branch's name '{step.branch}'")
        _proposals(step, numbers, author, author_is)
    else:
        if _PROPOSAL_FORM.match(title) or _PROPOSAL_FOR.search(title):  # a proposal: its number still to guess
            step.marked = True
            step.said.append(f"its title '{clean_line(title)}' is in the game's form for a proposal")
        return False
    return True


def _previous_named(steps: list[_Step], undecided: list[_Step]) -> None:
    """A keeper who gave a commit the wrong number said so in the next (`Previous Proposal Was Proposal 315`, its
    change the rule's number put right): the commit before is that proposal, whatever its own title says."""
    for before, step in itertools.pairwise(steps):
        if (m := _PREVIOUS_WAS.match(step.title)) and before.reading.kind in ("proposal", "event"):
            number = int(m.group(1))
            authors = next((p.authors for p in before.reading.proposals if p.number == number), None) or \
                (_author(before)[0],)
            before.said.append(f"commit {step.commit.short}'s title '{clean_line(step.title)}'")
            before.reading = Reading("proposal", (Proposal(number, authors),))
            if before in undecided:
                undecided.remove(before)


def _turns_named_twice(steps: list[_Step]) -> None:
    """A turn is one player's: where two commits in a row name one turn for two players (`Turn 24 (Kit)`, then
    `Turn 24 (Mo)`), the earlier's number is read as a slip for the turn before, where no commit names that one (a
    guess, said)."""
    claimed = {p.number for step in steps for p in step.reading.proposals}
    by_turn = [step for step in steps if any(_BY_TURN in said for said in step.said)]
    for earlier, later in zip(by_turn, by_turn[1:]):
        (one,), (other,) = earlier.reading.proposals, later.reading.proposals
        if one.number == other.number and one.authors != other.authors and one.number - 1 not in claimed | {0}:
            earlier.guesses.append(f"{_TURN_SLIP} {one.number}, as the next commit's does for "
                                   f"{', '.join(other.authors)}: a turn is one player's: turn {one.number - 1}, "
                                   "which no commit names")
            earlier.reading = Reading("proposal", (Proposal(one.number - 1, one.authors),))
            claimed.add(one.number - 1)


def _digits_slipped(steps: list[_Step]) -> None:
    """A number the record gives below every proposal carried out before it (`234` after 304 to 320) is read as
    a slip of its digits where, in another order, they make the one number among the game's that no commit names
    (324, where 322 to 326 are named by none): a guess, said."""
    claimed = {p.number for step in steps for p in step.reading.proposals}
    numbered = [(step, step.reading.proposals[0].number) for step in steps
                if step.reading.kind == "proposal" and len(step.reading.proposals) == 1 and step.said]
    for at, (step, number) in enumerate(numbered):
        before, after = [n for _, n in numbered[:at]], [n for _, n in numbered[at + 1:]]
        if not before or not after or number >= min(before):
            continue
        low, high = min(before), max(before + after)
        fits = {int("".join(digits)) for digits in itertools.permutations(str(number)) if digits[0] != "0"}
        fits = sorted(n for n in fits if low < n < high and n not in claimed)
        if len(fits) == 1:
            step.guesses.append(f"{_DIGITS_SLIP} {number}, below every proposal carried out before it ("
                                f"{low} on): read as {fits[0]}, its digits in another order, the one number "
                                f"between {low} and {high} that no commit names")
            step.reading = Reading("proposal", (Proposal(fits[0], step.reading.proposals[0].authors),))
            claimed.add(fits[0])


_SHARED = "the author of its branch's commits"


def _shared_logins(walk: _Walk) -> None:
    """A login whose pull requests' branches several people wrote, none under a name that reads as the login, is
    where players push their branches (an organization's repository, or the keeper's), not each pull request's
    author (GitHub names a branch of the repository itself `from OWNER/branch`, whoever opened it): a pull request
    from it whose own commits are one person's is read as that person's, a guess, said; unless they sign with an
    address of the login's own (the owner's request)."""
    by_login: dict[str, list[_Step]] = {}
    for step in walk.steps:
        if (m := _MERGED_PULL_REQUEST.match(step.commit.subject)) and step.branch and step.author == m.group(2):
            by_login.setdefault(step.author, []).append(step)
    for login, steps in by_login.items():
        alone = {name for step in steps if (name := _one_author(step.branch_commits))}
        if len(alone) < 2 or any(name == login or _login_reads_as(login, name)
                                 for step in steps for name, _ in step.branch_commits):
            continue
        walk.shared.add(login)
        for step in steps:
            if (name := _one_author(step.branch_commits)) and not _signed_as(step.branch_commits, login):
                step.author = name
                step.author_is = f"{_SHARED} ({login}'s pull requests come from several people's branches)"


_MANY_REQUESTS = 3  # pull requests whose commits all bear one name, which then names the login's player
_NOREPLY = re.compile(r"(?:[0-9]{1,12}\+)?([^@\s]{1,100})@users\.noreply\.github\.com", re.IGNORECASE)  # GitHub's, for a login


def _signed_as(commits: list[tuple[str, str]], login: str) -> bool:
    """Whether a branch's commits are signed with an address of the login's own (`audiodude@example.org`, GitHub's
    `audiodude@users.noreply.github.com`): the owner's own request, whatever name git gives them."""
    return any(_address_login(email) == login.lower() for _, email in commits)


def _address_login(email: str) -> str:
    """The login an address names, in lower case: GitHub's address for one (`123+kit@users.noreply.github.com`),
    else the name before its `@` (`kit@example.org`)."""
    m = _NOREPLY.fullmatch(email)
    return (m.group(1) if m else email.partition("@")[0]).lower()


def _one_author(commits: list[tuple[str, str]]) -> str | None:
    """The one person who wrote a branch's commits, where git says so: one name, or several that one address
    signs, or of which the others are a login of one (`kmarlowe` reading as `Kit Marlowe`, or `KitM` where Kit
    Marlowe signs as `KitM@users.noreply.github.com`); the name most of the commits bear."""
    names = Counter(name for name, _ in commits)
    logins = {m.group(1).lower(): name for name, email in commits if (m := _NOREPLY.fullmatch(email))}
    people = [name for name in names if not any(other != name and (_login_reads_as(name, other) or
                                                                   logins.get(name.lower()) == other)
                                                for other in names)]
    if not people or len(people) > 1 and len({email.lower() for _, email in commits}) > 1:
        return None
    return max(people, key=lambda name: names[name])


def _author(step: _Step) -> tuple[str, str]:
    """Who the record says made the commit's proposal, and where it says so: the message's byline ("Proposed by
    Ann", a turn's player: "Round 1, Turn 11 (Kit)"), its pull request's author, else its commit's author."""
    if byline := _BYLINE.search(step.commit.message) or _TURN_BYLINE.search(step.title):
        return byline.group(1), "its message's byline"
    if byline := _PROPOSAL_FOR.search(step.title):
        return byline.group(1), "its title's login"
    return step.author, step.author_is


def _proposals(step: _Step, numbers: list[int], author: str, author_is: str) -> None:
    if author_is == "the commit's author":
        step.guesses.append(f"the proposer is {author_is} (nothing in the record names one)")
    elif author_is.startswith(_SHARED):
        step.guesses.append(f"the proposer is {author_is}")
    step.reading = Reading("proposal", tuple(Proposal(number, (author,)) for number in numbers))


def _guess(walk: _Walk, undecided: list[_Step], by_pull_requests: bool = False,
           adopted: set[int] | None = None) -> None:
    """What the record does not say, guessed from the game's own ways and said as guesses: a commit that only
    reformats is a cleaning; where the game's proposals are its pull requests (`by_pull_requests`), any other
    commit is the keeper's own; one that makes a new rule numbered as the game numbers its proposals' rules is that
    proposal; once the game writes its proposals' numbers in titles, a commit without one is the keeper's own;
    before, a proposal numbered next in sequence (by `_number`). Where the game's decisions are recorded
    (`adopted`, the numbers of those adopted), a commit is a proposal only as one adopted: one that makes a rule
    numbered as an adopted proposal is; any other is the keeper's own (no number is invented)."""
    steps = walk.steps
    numbered = [step for step in steps if step not in undecided and step.reading.kind == "proposal"]
    own_numbers = _rules_numbered_as_proposals(numbered)
    numbered += [step for step in steps if step.marked]
    highest_initial = max(walk.initial, default=0)
    claimed = {p.number for step in numbered for p in step.reading.proposals}
    placed = set(walk.keys.values())  # an outline's sections, numbered by the import: no proposal's number
    begun = False
    # Suber's numbering gives each new rule its proposal's number: a commit that made new rules which were not
    # read as its number (several at once, say) shows the game numbers its rules otherwise
    numbered_otherwise = False
    # a commit before the first proposal the record numbers, where the rules number proposals from it on, made
    # no proposal: counting back would give numbers the game never gave
    first = next((p.number for step in steps if step in numbered for p in step.reading.proposals[:1]), None)
    from_first = next((rule for rule in walk.initial.values() if (m := _PROPOSALS_FROM.search(rule.text))
                       and int(m.group(1)) == first), None)
    previous = -1  # the place of the last commit that changed the rules
    lowest: int | None = None  # the lowest number of the proposals the commits before carried out
    for at, step in enumerate(steps):
        since, previous = previous, step.place
        begun = begun or step in numbered
        lowest = _lowest(lowest, steps[at - 1]) if at else None
        if step not in undecided:
            continue
        author, author_is = _author(step)
        decided = _decided_before(walk, since, step.place)
        if decided and not step.formatting:
            number, commit = decided[-1]
            step.title = ""  # (its subject is the bot's words for the change, not the proposal's title)
            step.guesses.append(f"no record numbers it: proposal {number}, the last decided before it (commit "
                                f"{commit.short} '{clean_line(commit.subject)}')")
            _proposals(step, [number], author, author_is)
            continue
        made = sorted({change.new_number if change.kind == "renumber" else change.rule for change in step.changes
                       if change.kind in ("enact", "renumber")} - claimed - placed)
        if step.formatting:
            step.guesses.append("it changes the rules' formatting only: a cleaning, not a proposal")
            step.reading = Reading("cleaning", by=author)
        elif step.slight and (m := _TYPOS.search(step.commit.message)):
            step.guesses.append(f"its message says it corrects {m.group(0).lower()}, and it changes a few words of "
                                "each rule it amends: a cleaning, not a proposal")
            step.reading = Reading("cleaning", by=author)
        elif adopted is not None and (recorded := sorted(set(made) & adopted)):
            step.guesses.append(f"no record numbers it: proposal {recorded[0]}, the number of the rule it makes, "
                                "which the record of decisions says was adopted")
            _proposals(step, recorded[:1], author, author_is)
            claimed.add(recorded[0])
        elif adopted is not None:
            step.guesses.append("no record numbers it, and the record of decisions holds the game's proposals: the "
                                "keeper's own change, not a proposal")
            step.reading = Reading("event", by=f"{author}, no proposal")
        elif by_pull_requests:
            step.guesses.append("no pull request merged it, where the game's proposals are its pull requests: the "
                                "keeper's own change, not a proposal")
            step.reading = Reading("event", by=f"{author}, no proposal")
        elif why := _numbered_as_made(made, claimed, lowest, highest_initial, own_numbers, numbered_otherwise):
            step.guesses.append(f"no record numbers it: numbered {made[0]}, the number of the rule it makes, {why}")
            _proposals(step, made, author, author_is)
            claimed.add(made[0])
        elif begun and not step.marked:
            step.guesses.append("no record numbers it, where the game names its proposals in their titles: the "
                                "keeper's own change, not a proposal")
            step.reading = Reading("event", by=f"{author}, no proposal")
        elif from_first is not None and not step.marked:
            step.guesses.append(f"no record numbers it, and it comes before proposal {first}, the first the rules "
                                f"number (rule {from_first.number}): the keeper's own change, not a proposal")
            step.reading = Reading("event", by=f"{author}, no proposal")
        else:
            step.guesses.append(f"{_UNNUMBERED}: numbered next in sequence")
            _proposals(step, [NEXT], author, author_is)
            # (a rule given back a number of the initial rules, a change undone, numbers no new rule)
            numbered_otherwise = numbered_otherwise or bool(set(made) - walk.initial.keys())


def _decided_before(walk: _Walk, since: int, place: int) -> list[tuple[int, Commit]]:
    """The decisions commits record between the step before (at `since`) and the step at `place`, else the last
    before it: a bot applies a decided proposal's changes in commits of its own after it."""
    return [(number, commit) for at, number, commit in walk.decided if since < at < place] or \
        [(number, commit) for at, number, commit in walk.decided if at < place][-1:]


def _lowest(lowest: int | None, step: _Step) -> int | None:
    """The lowest of `lowest` and the numbers of the proposals `step` carried out."""
    numbers = [p.number for p in step.reading.proposals if p.number != NEXT] if step.reading.kind == "proposal" \
        else []
    return min([*numbers, *([lowest] if lowest is not None else [])], default=None)


def _numbered_as_made(made: list[int], claimed: set[int], lowest: int | None, highest_initial: int,
                      own_numbers: bool | None, numbered_otherwise: bool) -> str | None:
    """Why a commit that makes the one new rule `made` is read as the proposal of its number (None where it is
    not): the game's numbered proposals make rules numbered as themselves, or none yet did and the rule stands
    above the initial rules, as Suber's numbering makes them. Never a number far above all the others, nor one
    below every proposal carried out before (`lowest`: a rule a new constitution numbers 112 after proposals
    301 and 302)."""
    if len(made) != 1 or made[0] > max(claimed | {highest_initial}) + MAX_LEAP or \
            lowest is not None and made[0] < lowest:
        return None
    if own_numbers:
        return "as the game's numbered proposals make rules numbered as themselves"
    if own_numbers is None and made[0] > highest_initial and not numbered_otherwise:
        return "above the initial rules', as Suber's numbering makes them"
    return None


def _rules_numbered_as_proposals(steps: list[_Step]) -> bool | None:
    """Whether the game's proposals make rules numbered as themselves (an enacted rule takes the proposal's number,
    Suber's 107, or an amended one, 108), by what its numbered proposals did; None when none made a rule."""
    verdicts = []
    for step in steps:
        numbers = {p.number for p in step.reading.proposals}
        made = {change.new_number if change.kind == "renumber" else change.rule for change in step.changes
                if change.kind in ("enact", "renumber")}
        if made:
            verdicts.append(bool(made & numbers))
    return None if not verdicts else sum(verdicts) * 2 > len(verdicts)


def _credit_authors(steps: list[_Step], decided: dict[int, Decision], others: set[str], names: _Names) -> None:
    """Each proposal's authors as the record credits them: the proposer the record of decisions names, as its entry
    does (not the commit that carried it out); the co-authors its reading names (a History line); and those its
    commits' `Co-authored-by:` trailers name (git's way of crediting them: a squashed pull request gathers its
    commits' there) where they are players of the record (a proposer, or among `others`, who voted or scored): a
    trailer credits the tools that helped write a commit too (`Claude <noreply@anthropic.com>`), who play no part in
    the game; those are said as guessed. A step the keeper corrected keeps the keeper's reading; the import's own
    (`own`) is completed all the same, for `_say_correction`."""
    proposers = {number: decision.proposer for number, decision in decided.items() if decision.proposer}
    players = others | set(proposers.values()) | {
        p.authors[0] if step.correction else proposers.get(p.number, p.authors[0])
        for step in steps for p in step.reading.proposals if p.authors}
    for step in steps:
        if step.correction:  # (a proposal the keeper's line names no author of is credited as the record's)
            step.reading = dataclasses.replace(step.reading, proposals=tuple(
                Proposal(p.number, (proposers[p.number],)) if not p.authors and p.number in proposers else p
                for p in step.reading.proposals))
        reading = step.own if step.correction else step.reading
        if reading is None or reading.kind != "proposal":
            continue
        trailers = dict.fromkeys(names.written.get(match.group(1), match.group(1))
                                 for commit in (step.commit, *step.commits)
                                 for match in _CO_AUTHORED.finditer(commit.message))
        if outside := [name for name in trailers if name not in players]:
            step.guesses.append(f"{', '.join(outside)}, whom its Co-authored-by names, plays no other part in the "
                                "record: no co-author")
        playing = [name for name in trailers if name in players]
        credited = dataclasses.replace(reading, proposals=tuple(Proposal(p.number, tuple(dict.fromkeys((
            *((proposers[p.number],) if p.number in proposers else p.authors[:1]), *p.authors[1:], *playing))))
            for p in reading.proposals))
        if step.correction:
            step.own = credited
        else:
            step.reading = credited
        if proposers.keys() >= {p.number for p in reading.proposals}:
            step.guesses = [guess for guess in step.guesses if not guess.startswith("the proposer is")]
            step.said.append("its decision's proposer")


def _judge(annotated: list[Change]) -> str | None:
    """The judge an annotation names, the way a ruling's note signs it: "... (Cy), Jun 6, 2020"."""
    for change in annotated:
        if m := re.search(r"\(([^()]+)\),?\s*[A-Z][a-z]{2,8}\.?\s+[0-9]{1,2},?\s+[0-9]{4}",
                          plain_words(change.text or "")):
            return m.group(1).strip()
    return None


def _shown(entry: HistoryEntry) -> str:
    where = f" ({entry.source.file}:{entry.source.line})" if entry.source.line else ""
    return f"{entry.said}{where}"


def _subject_numbers(title: str) -> list[int]:
    """The proposal numbers a title gives in the game's own words (never a pull request's `#30`)."""
    if m := _NUMBERS.search(title):
        numbers: list[int] = []
        for piece in re.split(r"\s*(?:,|&|\+|\band\b)\s*", m.group(1)):
            bounds = [int(n) for n in re.findall(r"[0-9]+", piece)]
            if len(bounds) == 2 and 0 <= bounds[1] - bounds[0] <= MAX_BATCH:
                numbers.extend(range(bounds[0], bounds[1] + 1))
            else:
                numbers.extend(bounds)
        return list(dict.fromkeys(numbers))[:MAX_BATCH]
    if m := _LEADING_NUMBER.match(title) or _LEADING_RULE_NUMBER.match(title):
        return [int(next(group for group in m.groups() if group))]
    return []


def _numbered_alike(first: _Step, again: _Step) -> None:
    """Two pull requests of two players that name one proposal (each took the next number at once): the later is
    read as an event by the first's proposal, but may be another proposal, which only the keeper can number; said."""
    requests = [_pull_request(step.commit) for step in (first, again)]
    if None in requests or requests[0] == requests[1] or first.author == again.author:
        return
    again.guesses.append(f"two players' pull requests name proposal {again.again} (#{requests[0]}, then this one, "
                         f"#{requests[1]}): read as an event by the first's; if it is another proposal, which its "
                         "player numbered as the first, a corrections line gives it its own number")


def _branch_numbers(branch: str, changes: list[Change]) -> list[int]:
    """A pull request's branch named for its proposal: `rule-change-301`, `384-subgamification`; not one named
    for a rule its `changes` amend, repeal or renumber (`422`, where a proposal changes rule 422)."""
    m = _BRANCH_NUMBER.match(branch.rpartition("/")[2])
    changed = {change.rule for change in changes if change.kind != "enact"}
    return [int(m.group(1))] if m and int(m.group(1)) not in changed else []


def _runs(steps: list[_Step]) -> list[_Step]:
    """Steps with consecutive commits that say they carry out the same proposals (or the same judgment) joined:
    "Proposal 303" three times over is one proposal. A later commit that says it carries out a proposal an earlier
    one did is its own entry, an event by that proposal; a commit that names it among others ("Proposals 66 +
    70" after "Temp Prop 66") completes it in the others' entry."""
    out: list[_Step] = []
    done: dict[int, _Step] = {}  # each proposal's number, and the step that first carried it out
    for step in steps:
        previous = out[-1] if out else None
        numbers = [p.number for p in step.reading.proposals]
        if previous is not None and step.reading.kind in ("proposal", "judgment") and NEXT not in numbers \
                and _same(previous.reading, step.reading):
            previous.changes += step.changes
            previous.credited += step.credited
            previous.cleaned += step.cleaned
            previous.commits.append(step.commit)
            continue
        if step.reading.kind == "proposal" and NEXT not in numbers and set(numbers) <= done.keys():
            step.again = numbers[0]
            _numbered_alike(done[step.again], step)
        elif step.reading.kind == "proposal" and NEXT not in numbers and done.keys() & set(numbers):
            step.completes = [number for number in numbers if number in done]
            step.reading = Reading("proposal", tuple(p for p in step.reading.proposals if p.number not in done))
        done.update((number, step) for number in numbers if number != NEXT and number not in done)
        out.append(step)
    return out


def _same(one: Reading, other: Reading) -> bool:
    if one.kind != other.kind:
        return False
    if one.kind == "judgment":
        return one.name == other.name
    return [p.number for p in one.proposals] == [p.number for p in other.proposals]


def _number(steps: list[_Step]) -> None:
    """Number each proposal no record numbers: next in sequence after the proposal before it, skipping the numbers
    the record gives later commits; before any, counting back from the first number the record gives (from 1
    where it gives none). A corrected step's own reading is numbered too, in the sequence the import gives with
    no correction, so that the keeper's line saying that number confirms it rather than correcting `proposal -1`."""
    for step, (reading, number) in zip(steps, _in_sequence(steps, [step.own or step.reading for step in steps])):
        if step.own is not None:
            step.own = reading
            _say_number(step, number)
    for step, (reading, number) in zip(steps, _in_sequence(steps, [step.reading for step in steps])):
        _say_number(step, number)
        step.reading = reading


def _say_number(step: _Step, number: int | None) -> None:
    if number is not None:
        step.guesses = [f"{_UNNUMBERED}: numbered {number}, next in sequence"
                        if guess.startswith(_UNNUMBERED) else guess for guess in step.guesses]


def _in_sequence(steps: list[_Step], readings: list[Reading]) -> list[tuple[Reading, int | None]]:
    """Each step's reading with its NEXT proposals numbered (see _number), and the last number given it, if any."""
    claimed = {p.number for reading in readings for p in reading.proposals if p.number != NEXT}
    first_claimed = next((i for i, reading in enumerate(readings) for p in reading.proposals if p.number != NEXT),
                         len(readings))
    unnumbered_before = sum(1 for reading in readings[:first_claimed] if reading.kind == "proposal")
    previous = max(0, min(claimed) - unnumbered_before - 1) if claimed else 0
    out: list[tuple[Reading, int | None]] = []
    for step, reading in zip(steps, readings):
        if reading.kind != "proposal" or step.again is not None:
            out.append((reading, None))
            continue
        proposals, given = [], None
        for proposal in reading.proposals:
            if proposal.number == NEXT:
                given = previous + 1
                while given in claimed:
                    given += 1
                claimed.add(given)
                proposal = Proposal(given, proposal.authors)
            proposals.append(proposal)
            previous = max(previous, proposal.number)
        out.append((Reading("proposal", tuple(proposals)), given))
    return out


class _Names:
    """Each player's name as the log writes it: the keeper's word (`player Jason Cobb = Jason`), else a guess from
    the record (who submitted a proposal, for a bot's numeric identifiers), else the name as the record gives it,
    written as the log can hold it (each one written otherwise said once, at the first commit that gives it)."""

    def __init__(self, corrections: Corrections | None, walk: _Walk):
        self.corrections, self.walk = corrections, walk
        self.written: dict[str, str] = {}       # a name as the record gives it -> as the log writes it
        self.why: dict[str, str] = {}           # -> why, for the corrections file
        self.guessed: dict[str, tuple[str, str]] = {}  # an identifier -> the name a commit gives it, and why
        self.played_as: dict[str, set[str]] = {}  # a name the keeper's word wrote -> the names the record gave
        self._logins(walk)
        self._addresses(walk)

    def _addresses(self, walk: _Walk) -> None:
        """Guess that a name git gives commits signed with GitHub's address for a login
        (`KitM@users.noreply.github.com`), or an address named as it (`kitm@example.org`), is the player another
        name of the record gives as that login (`KitM`, a pull request's author or the login a bot's title names):
        one person under two names, written as the login (as `_logins` writes them)."""
        authors = {author.lower(): author for step in walk.steps for author in (step.author, _author(step)[0])}
        for step in walk.steps:
            for name, email in step.branch_commits:
                login = authors.get(_address_login(email))
                if login and login.lower() != name.lower() and name not in self.guessed:
                    whose = "GitHub's address for" if _NOREPLY.fullmatch(email) else "an address named as"
                    self.guessed[name] = (player_name(login)[0], f"guessed: {name} signs commits as {email}, "
                                          f"{whose} {login} (commit {step.commit.short} merged one)")

    def _logins(self, walk: _Walk) -> None:
        """Guess that a name git gives commits is the login a pull request gives its author, where every commit of
        the branches that login merged is by that one name, none of another login's is, and the two read alike
        (`Jo Bloggs` and `JoBloggs` or `jbloggs`), or the login's pull requests are several (`_MANY_REQUESTS`): the
        player's commits outside pull requests then bear one name."""
        people = {login: authors for login, authors in walk.branch_authors.items() if login not in walk.shared}
        requests = Counter(step.author for step in walk.steps if step.branch)  # each login's pull requests read
        logins_of: dict[str, list[str]] = {}
        for login, authors in people.items():
            for name in authors:
                logins_of.setdefault(name, []).append(login)
        for login, authors in people.items():
            [(name, commit)] = authors.items() if len(authors) == 1 else [("", None)]
            # (a name that reads otherwise is one person's still, where all of several requests' commits bear it)
            alike = _login_reads_as(login, name)
            if commit is None or name == login or logins_of[name] != [login] or name in people \
                    or not alike and requests[login] < _MANY_REQUESTS:
                continue
            self.guessed[name] = (player_name(login)[0], f"guessed: the commits of {login}'s pull requests (as "
                                  f"commit {commit.short} merged) are by {name}"
                                  + ("" if alike else f", all {requests[login]} of them"))

    def name(self, raw: str, commit: str = "") -> str:
        if raw in self.written:
            return self.written[raw]
        name, why, problem = self._read(raw)
        said = self.corrections.player(raw) if self.corrections else None
        if problem and said is None:
            self.walk.problems.append(Problem("", commit, 0, f"the name '{shown(raw)}' cannot be written as it is "
                                              f"({problem}): written '{name}'"))
        if said is not None:
            self._use(raw, said)
            if said[1] != name:
                self.played_as.setdefault(said[1], set()).add(name)  # game.toml's [aliases]
                name, why = said[1], f"your correction (the import read: {name})"
        self.written[raw], self.why[raw] = name, why
        return name

    def _read(self, raw: str) -> tuple[str, str, str]:
        """The name the record gives `raw`, as the log can write it; why; and what kept it from being written as
        it is ("" where nothing did)."""
        if raw in self.walk.record_names:
            return player_name(self.walk.record_names[raw])[0], "the record: its file of players", ""
        if raw in self.guessed:
            return *self.guessed[raw], ""
        name, problem = player_name(raw)
        if not problem and raw.isdigit():  # (no person is named so: Discord's identifiers have 17-19 digits)
            return name, "a bot's identifier for a player no record names (no commit says who submitted a " \
                "proposal under it, and the files name no one by it): write the player's name", ""
        return name, f"written so: {problem}" if problem else \
            "as the record writes it; two names of one person: write one as the other", problem or ""

    def peek(self, raw: str) -> str:
        """How the log writes `raw`, without taking it among the names it writes (for the import's own reading of a
        step the keeper corrected, which the log does not write)."""
        if raw in self.written:
            return self.written[raw]
        said = self.corrections.player(raw) if self.corrections else None
        return said[1] if said is not None else self._read(raw)[0]

    def _use(self, raw: str, said: tuple[int, str]) -> None:
        read = self.walk.record_names.get(raw) or self.guessed.get(raw, (raw, ""))[0]  # the import's own reading
        same = " (as the import reads it)" if said[1] == player_name(read)[0] else ""
        self.corrections.use(said[0], f"player {raw} written {said[1]}{same}")

    def follow(self, step: _Step) -> None:
        """The step's reading with the names written (and the import's own beside a keeper's line, `peek`ed)."""
        names = [author for entry in step.credited if entry is not None for author in entry.authors]
        for raw in [step.author, _author(step)[0], *names]:  # (a line may name any, that a correction replaced)
            if self.corrections and (said := self.corrections.player(raw)):
                self._use(raw, said)
        step.reading = self._written(step.reading, lambda raw: self.name(raw, step.commit.id))
        if step.own is not None:
            step.own = self._written(step.own, self.peek)

    @staticmethod
    def _written(reading: Reading, name: Callable[[str], str]) -> Reading:
        return Reading(reading.kind, tuple(Proposal(p.number, tuple(name(a) for a in p.authors))
                                           for p in reading.proposals), reading.name,
                       name(reading.by) if reading.kind in ("judgment", "cleaning") else reading.by)

    def learn(self, decision: Decision) -> None:
        """Guess the name of a decision's proposer, where the file gives an identifier, from the commit that says
        who submitted it."""
        submitted = self.walk.submitted.get(decision.number)
        if submitted and decision.proposer and decision.proposer not in self.guessed and \
                not (self.corrections and self.corrections.player(decision.proposer)):
            name, commit = submitted
            self.guessed[decision.proposer] = (player_name(name)[0], f"guessed: commit {commit.short} "
                                               f"'{clean_line(commit.subject)}'")

    def decision(self, decision: Decision) -> Decision:
        """A decision of the file of decisions with its names written (after `learn` has seen them all); where the
        file names no proposer, the one the commit that submitted it names (a guess)."""
        proposer = self.name(decision.proposer) if decision.proposer else ""
        if not proposer and (submitted := self.walk.submitted.get(decision.number)):
            name, commit = submitted
            proposer = self.name(name, commit.id)
            self.walk.decision_guesses.append(f"proposal {decision.number}: its proposer {proposer}: guessed from "
                                              f"commit {commit.short} '{clean_line(commit.subject)}' (the record of "
                                              "decisions names none)")
        return dataclasses.replace(decision, proposer=proposer,
                                   votes=tuple((self.name(voter), ballot) for voter, ballot in decision.votes))

    def lines(self) -> list[Line]:
        return [Line(f"player {raw}", f"= {name}", self.why[raw]) for raw, name in sorted(self.written.items())]


def _login_reads_as(login: str, name: str) -> bool:
    """Whether a login reads as a person's name: the same letters (`JoBloggs`), the name's first letters
    (`jobl`, at least four), or its first initial and last word (`jbloggs`)."""
    letters, words = re.sub(r"[^a-z]", "", login.lower()), re.findall(r"[a-z]+", name.lower())
    whole = "".join(words)
    return bool(words) and (letters == whole or len(letters) >= 4 and whole.startswith(letters)
                            or len(words) > 1 and letters == words[0][0] + words[-1])


# --- the log -----------------------------------------------------------------------------------------------------

def _failed_for_a_reason(decided: dict[int, Decision], walk: _Walk, names: _Names) -> dict[int, str]:
    """Decisions the record says failed though most of their ballots favour them, where the record says why as the game's
    rules let it (a guess, each said, for the keeper's corrections file): its text states it depends on a proposal
    that failed, or is incompatible with one adopted (or with itself): `Result: invalid` and that `Reason:`, which
    check verifies; else its own author failed it (a bot's "Kit failed proposal #36"): `Result: withdrawn`. Changes
    `decided`; returns each changed proposal's number with why, in words."""
    guessed: dict[int, str] = {}
    for number, decision in decided.items():
        if decision.result != "defeated" or not _ballots_favour(decision):
            continue
        for kind, other, words in stated_conditions(decision.text or decision.archived):
            holds = other in decided and (decided[other].result == "adopted") == (kind == "incompatible") \
                or kind == "incompatible" and other == number
            if holds and other != number or holds and kind == "incompatible":
                reason = f"{'depends on' if kind == 'depends' else 'incompatible with'} proposal {other}"
                decided[number] = dataclasses.replace(decision, result="invalid", reason=reason)
                guessed[number] = (f"its text says '{words}', and proposal {other} " + (
                    "is itself" if other == number else f"was {decided[other].result}") +
                    f"; most of its ballots favour it, the record says it {decision.said}")
                break
        else:
            failer = walk.failed_by.get(number)
            if failer and decision.proposer and names.name(failer[0], failer[1].id) == decision.proposer:
                decided[number] = dataclasses.replace(decision, result="withdrawn", reason="its author failed it")
                guessed[number] = (f"commit {failer[1].short} '{clean_line(failer[1].subject)}': its author failed it; "
                                   f"most of its ballots favour it, the record says it {decision.said}")
    return guessed


def _ballots_favour(decision: Decision) -> bool:
    """Whether more of a decision's recorded ballots are for it than against it: a failure they do not explain is
    one the record may say why of (whether they adopt it under the game's method is check's to say)."""
    kinds = [ballot for _, ballot in decision.votes]
    return kinds.count("for") > kinds.count("against")


def _file_text(repo: Path, blobs: BlobReader, last: str, path: str, what: str, walk: _Walk) -> str:
    """A file the records file names, read at the last commit; the import is refused without it."""
    try:
        content = blobs.read(last, path)
    except BlobTooLarge as error:
        raise ImportRefused(str(repo), str(error), walk.problems) from None
    if content is None:
        raise ImportRefused(str(repo), f"no file {path} at commit {last[:10]} (the records file's {what})",
                            walk.problems)
    return content


def _read_decisions(repo: Path, records: Mapping, last: str, walk: _Walk) -> list[Decision]:
    """The decisions in the keeper's file of proposals, read at the last commit the import reads; and the names
    its file of players gives the identifiers it uses."""
    with BlobReader(repo) as blobs:
        content = _file_text(repo, blobs, last, records.file, "proposals.file", walk)
        players = _file_text(repo, blobs, last, records.players[0], "players.file", walk) if records.players else None
    try:
        if players is not None:
            walk.record_names = read_players(records, players)
        named = ", ".join(kind or "no ballot" for kind in records.ballot_lists)
        if unlike := sorted(n for n in ballot_list_counts(records, content) if n != len(records.ballot_lists)):
            walk.problems.append(Problem(records.file, last, 0, (
                f"its proposals hold {' or '.join(str(n) for n in unlike)} lists of voters where the records file's "
                f"proposals.ballot_lists names {len(records.ballot_lists)} ({named}): each list is read as the kind "
                "named at its place, and a list beyond them is not read; say in ballot_lists what each of the "
                "file's lists is (the game's rules, its website's vote icons)")))
        return read_decisions(records, content, walk.adopted if records.adopted_by_rulesets else None)
    except DecisionsUnreadable as error:
        raise ImportRefused(f"{repo}", f"{records.file} at commit {last[:10]}: {error}", walk.problems) from None


def _match_archived(repo: Path, records: Mapping, decisions: list[Decision], walk: _Walk) -> None:
    """A keeper's Markdown archive of proposals, as it grew: the commit that wrote a proposal's entry as adopted
    and changed the rules carried it out (`step.filed`; of several entries written at once, those the record ties
    to its change); one that changed no rule, the change next to it (`_pair_apart`). Read at each commit on the
    first-parent line that changed the archive; where its expressions' time runs out on the way, the pairing stops
    there, and that is said."""
    content = ""
    texts = {decision.number: decision.text or decision.archived for decision in decisions}
    stepped = {step.commit.id: step for step in walk.steps}
    apart: list[tuple[int, Commit, list[tuple[int, str, str, str]]]] = []
    before: dict[int, str] = {}  # each proposal's result as the archive last said it
    how = f"its entry in {records.file} written as adopted"
    with BlobReader(repo) as blobs:
        for place, (commit, changed) in enumerate(walk.line):
            if records.file not in changed:
                continue
            try:
                content = blobs.read(commit.id, records.file) or ""
                now = archived_results(records, content)
            except (BlobTooLarge, ArchiveError) as error:
                walk.problems.append(Problem(records.file, commit.id, 0, f"not read as it grew from here on ({error}): "
                                             "the commits that carried out its later decisions are not paired"))
                break
            written = sorted((number, result) for number, result in now.items() if before.get(number) != result)
            before = now
            if step := stepped.get(commit.id):  # (an archive written up at once: the entries tied to its change)
                adopted = [number for number, result in written if result == "adopted"]
                step.filed += [(number, "", f"{how} by this commit") for number in adopted
                               if len(adopted) == 1 or _ties(step, number, texts.get(number, ""))]
            elif written and commit.parents:  # (a decision of any result: no change of the rules is paired across it)
                apart.append((place, commit, [(number, "", result, how) for number, result in written]))
        try:
            places = {number: f"{records.file}:{content.count(chr(10), 0, m.start()) + 1}" for m in
                      records.markdown[0].finditer(content, records.file)
                      if (number := archived_number(m.group("number"))) is not None}  # (as last read)
        except ArchiveError:
            places = {}
    _pair_apart(walk, apart, texts, places)


def _unmatched_filed(walk: _Walk, steps: list[_Step], decided: dict[int, Decision]) -> None:
    """Each proposal its own file says was adopted that no commit carried out, said at the file's line."""
    carried = {p.number for step in steps if step.reading.kind == "proposal" for p in step.reading.proposals}
    for filed in walk.filed:
        if filed.number not in carried | walk.filed_unsure and decided[filed.number].result == "adopted":
            walk.filed_said.append(f"{filed.path}:{filed.line}: proposal {filed.number} {filed.decision.said}, and "
                                   "no commit that changed the rules made its file say so: its entry holds no change "
                                   "(it changed no rule, or a commit that does not say so carried it out: a "
                                   f"corrections line `commit ID proposal {filed.number}` names it)")


def _read_proposal_files(repo: Path, records: Mapping | None, paths: list[str], last: str, walk: _Walk
                         ) -> list[Decision]:
    """The decisions the game's own proposal files record (proposalfiles.py), read at the last commit: the folder
    the records file names (`[proposals] folder`, with its fields' names), else the one found beside the rules;
    each adopted proposal matched to the commit that carried it out (`_match_filed`). A proposal whose file names no
    result is adopted where a commit added it with the rules' change, else undecided. [] where the game keeps none;
    the import is refused where the records file names a folder that holds no proposal's file."""
    files = list_files(repo, last, "")
    with BlobReader(repo) as blobs:
        if records and records.folder:  # (each field the records file names, else the usual names)
            folder = ProposalFolder(records.folder.strip("/"),
                                    (records.proposer.lower(),) if records.proposer else PROPOSER_FIELDS,
                                    (records.result.lower(),) if records.result else RESULT_FIELDS,
                                    (records.date.lower(),) if records.date else DECIDED_FIELDS,
                                    results=records.results, named=True)
        elif found := find_folder(files, lambda path: _proposal_text(blobs, last, path, walk), paths):
            folder = ProposalFolder(found)
        else:
            return []
        inside = [path for path in files if (not folder.folder or path.startswith(f"{folder.folder}/")) and (
            is_text_name(path) or name_number(path) is not None)]  # (a numbered file of another kind: read, to see)
        filed, said = read_folder([(path, content) for path in inside
                                   if is_proposal_file(path, content := _proposal_text(blobs, last, path, walk))],
                                  folder)
        if not filed and folder.named:
            raise ImportRefused(str(repo), f"the records file's proposals.folder: no file in {folder.folder}/ at "
                                f"commit {last[:10]} numbers a proposal", walk.problems)
        walk.filed_folder, walk.filed = folder, filed
        walk.filed_said += [f"{path}:{line}: {words}" if line else f"{path}: {words}" for path, line, words in said]
        _match_filed(repo, blobs, walk, folder)
    carried = {number for step in walk.steps for number, _, _ in step.filed}
    return [dataclasses.replace(one.decision, result="adopted" if one.number in carried else "undecided")
            if not one.decision.result else one.decision for one in filed]


def _proposal_text(blobs: BlobReader, revision: str, path: str, walk: _Walk) -> str | None:
    """A proposal's file at a commit; None (and said, where it is too large to read) where there is none."""
    try:
        return blobs.read(revision, path)
    except BlobTooLarge as error:
        walk.filed_said.append(f"{path}: left out: {error}")
        return None


def _match_filed(repo: Path, blobs: BlobReader, walk: _Walk, folder: ProposalFolder) -> None:
    """Each commit that changed the rules and made a proposal's own file say it was adopted (moved into
    `succeeded/`, its Status made `passed`, or added beside the rules' change where its file names no result)
    carried that proposal out: `step.filed`. A keeper who records the decision in a commit of its own carried it
    out in the commit that changed the rules next to it (`_pair_apart`)."""
    stepped = {step.commit.id for step in walk.steps}
    apart: list[tuple[int, Commit, list[tuple[int, str, str, str]]]] = []  # decisions in commits changing no rule
    prefix = f"{folder.folder}/" if folder.folder else ""
    for place, (commit, changed) in enumerate(walk.line):
        if commit.parents and commit.id not in stepped and any(path.startswith(prefix) for path in changed) and \
                (decided := _decided_by(repo, blobs, walk, folder, commit)):
            apart.append((place, commit, decided))
    for step in walk.steps:
        if step.ruleset or not step.commit.parents:
            continue
        for number, path, result, how in _decided_by(repo, blobs, walk, folder, step.commit):
            if result in ("adopted", ""):
                step.filed.append((number, path, f"{how} by this commit"))
        step.filed.sort()
    _pair_apart(walk, apart, {filed.number: filed.decision.text for filed in walk.filed},
                {filed.number: f"{filed.path}:{filed.line}" for filed in walk.filed})


def _decided_by(repo: Path, blobs: BlobReader, walk: _Walk, folder: ProposalFolder, commit: Commit
                ) -> list[tuple[int, str, str, str]]:
    """The proposals whose own files a commit made say they were decided, each (number, its file, the result, how
    the file came to say it), and those it added naming no result (result "")."""
    parent = commit.parents[0]
    out = []
    for status, old, new in _changed_files(repo, parent, commit.id, folder.folder or "."):
        if status.startswith("D") or (number := name_number(new)) is None or not is_proposal_file(
                new, content := _proposal_text(blobs, commit.id, new, walk)):
            continue
        now = read_proposal(new, content or "", folder)
        before = read_proposal(old, _proposal_text(blobs, parent, old, walk) or "", folder) \
            if not status.startswith("A") else None
        result = now.decision.result if now else ""
        if result not in ("", "undecided") and (before is None or before.decision.result != result):
            how = f"moved to {posixpath.dirname(new)}/" if old != new and posixpath.dirname(old) != \
                posixpath.dirname(new) else f"added to {posixpath.dirname(new) or '.'}/" if before is None \
                else f"'{now.decision.said}' written in it"
            out.append((number, new, result, how))
        elif not result and status.startswith("A"):
            out.append((number, new, "", f"added to {posixpath.dirname(new) or '.'}/ with the rules' change "
                                         "(naming no result)"))
    return out


def _pair_apart(walk: _Walk, apart: list[tuple[int, Commit, list[tuple[int, str, str, str]]]], texts: dict[int, str],
                places: dict[int, str]) -> None:
    """The proposals a commit that changed no rule made their files say were adopted (`apart`: each such commit's
    place, the commit, its decisions), each carried out by the commit that changed the rules right after or right
    before it, with no other decision between (a keeper who marks the decision and then makes the change, or the
    other way round). Where both may be, the one the record ties to it: its text names a rule that one changes, the
    rule it enacts is numbered as the proposal, or the rule's new text names the proposal. A commit no record ties to
    it, the only one there, is a guess, said (not where one commit decided several: each goes where it is tied, if
    anywhere); where two are, or two such decisions claim one commit, none is read as carrying it out, and that is
    said where the record keeps the proposal (`texts`: each proposal's words;
    `places`: its file and line there)."""
    # the first-parent line's decisions and changes of the rules, in order: (place, step or None, the commit)
    events = sorted([(place, None, commit) for place, commit, _ in apart] +
                    [(step.place, step, step.commit) for step in walk.steps if not step.ruleset and not step.formatting],
                    key=lambda event: event[0])
    claims: dict[int, list[tuple[int, Commit, list[tuple[int, str, str]], bool]]] = {}  # step's index -> claims
    for place, commit, decided in apart:
        adopted = [(number, path, how) for number, path, result, how in decided if result == "adopted"]
        if not adopted:
            continue
        at = next(n for n, event in enumerate(events) if event[0] == place and event[1] is None)
        near = [n for n in (at - 1, at + 1) if 0 <= n < len(events) and events[n][1] is not None
                and _free(events[n][1], {number for number, _, _ in adopted})]
        tied = [n for n in near if any(_ties(events[n][1], number, texts.get(number, "")) for number, _, _ in adopted)]
        if len(adopted) > 1:  # (several decided at once, as a keeper writing up an archive: each where tied only)
            for n in tied:
                claims.setdefault(n, []).append((place, commit, [one for one in adopted if _ties(
                    events[n][1], one[0], texts.get(one[0], ""))], True))
            continue
        chosen = tied if len(tied) == 1 else near if len(near) == 1 and not tied else []
        if chosen:
            claims.setdefault(chosen[0], []).append((place, commit, adopted, bool(tied)))
        elif near:
            for number, _, _ in adopted:
                walk.filed_unsure.add(number)
                walk.filed_said.append(
                    f"{places.get(number, '')}: proposal {number} was decided by commit {commit.short}, which "
                    f"changed no rule; the commits that changed the rules just before and after it, "
                    f"{' and '.join(events[n][2].short for n in near)}, with no other decision between, "
                    f"{'both' if len(tied) > 1 else 'neither'} tied to it by the record: neither is read as carrying "
                    f"it out (a corrections line `commit ID proposal {number}` names the one that did)")
    for n, claimed in claims.items():
        step = events[n][1]
        if len(claimed) > 1 and sum(tied for *_, tied in claimed) != 1:
            for _, commit, adopted, _ in claimed:
                for number, _, _ in adopted:
                    walk.filed_unsure.add(number)
                    walk.filed_said.append(
                        f"{places.get(number, '')}: proposal {number} was decided by commit {commit.short}, "
                        f"which changed no rule, and so were others beside commit {step.commit.short}, the one that "
                        "changed the rules between them: it is not read as carrying out any of them (a corrections "
                        f"line `commit {step.commit.short} proposal {number}` says it did)")
            continue
        place, commit, adopted, tied = next(claim for claim in claimed if claim[3] or len(claimed) == 1)
        when = "before" if place < step.place else "after"
        step.filed += [(number, path, f"{how} by commit {commit.short}, the decision just {when} this one")
                       for number, path, how in adopted]
        if not tied:
            step.guesses.append(f"it carries out proposal{'s' if len(adopted) > 1 else ''} "
                                f"{', '.join(str(number) for number, _, _ in adopted)}, decided by commit "
                                f"{commit.short} just {when} it (nothing in the record ties them, and no other "
                                "decision came between)")


def _free(step: _Step, numbers: set[int]) -> bool:
    """Whether nothing of the record says a commit carried out a proposal other than `numbers`: no proposal's file
    it decided, no History line naming a proposal, no other proposal its title names."""
    return not step.filed and not any(entry is not None and entry.proposal is not None for entry in step.credited) \
        and not set(_subject_numbers(step.title)) - numbers


def _ties(step: _Step, number: int, text: str) -> bool:
    """Whether the record ties a commit's changes to a proposal: the proposal's text names a rule it changes, a rule
    it enacts or renumbers is numbered as the proposal (Suber's numbering), or a rule's new text names the
    proposal."""
    for change in step.changes:
        rule = change.new_number if change.kind == "renumber" else change.rule
        if change.kind in ("enact", "renumber") and rule == number or re.search(
                rf"\brules?\s*#?\s*{rule}(?![0-9])", text[:100_000], re.IGNORECASE) or change.text and re.search(
                rf"\bprop(?:osal)?\s*#?\s*{number}(?![0-9])", change.text, re.IGNORECASE):
            return True
    return False


def _read_scores(repo: Path, scores: ScoreFiles, last: str, walk: _Walk) -> dict[str, Fraction]:
    """Each player's score in the files the records file's [scores] names, read at the last commit (as the record
    names each player); the import is refused where they cannot be read, or no file matches."""
    paths = score_paths(scores, list_files(repo, last, ""))
    if not paths:
        raise ImportRefused(str(repo), f"no file matches {scores.files} at commit {last[:10]} (the records file's "
                            "scores.files)", walk.problems)
    with BlobReader(repo) as blobs:
        files = [(path, _file_text(repo, blobs, last, path, "scores.files", walk)) for path in paths]
    try:
        read, left_out = read_scores(scores, files)
    except DecisionsUnreadable as error:
        raise ImportRefused(str(repo), f"at commit {last[:10]}: {error}", walk.problems) from None
    walk.problems += [Problem(path, last, 0, "holds no player's name and score where the records file's scores.name "
                              "and scores.score find them: not read") for path in left_out]
    return read


def _scores_over_time(repo: Path, scores: ScoreFiles, walk: _Walk, last: str) -> list[tuple[float, dict[str, Fraction]]]:
    """The players' scores as the record kept them over time: at each commit on the first-parent line after the
    start (and before the last, whose scores `_read_scores` reads) that changed a file [scores] names, its moment
    and the scores then (as the record names each player). A commit at which they cannot be read is a problem of
    the record, and not compared."""
    records = log_records(repo, ("%H", "%cI"), "--first-parent", "--name-only", f"{walk.start_commit}..{last}")
    start = log_records(repo, ("%H", "%cI"), "-1", walk.start_commit)[0][0]
    out = []
    with BlobReader(repo) as blobs:
        # (oldest first, from the start's, the last commit's left to the end)
        for (commit, date), changed in [(start, None), *reversed(records[1:])]:
            if changed is not None and not score_paths(scores, changed):
                continue
            try:
                files = [(path, blobs.read(commit, path) or "") for path in score_paths(scores, list_files(repo, commit,
                                                                                                         ""))]
                read, _ = read_scores(scores, files)
            except (DecisionsUnreadable, BlobTooLarge) as error:
                walk.problems.append(Problem("", commit, 0, f"the scores ({scores.files}) cannot be read: {error}; not "
                                             "compared there"))
                continue
            out.append((datetime.datetime.fromisoformat(date).timestamp(), read))
    return out


def _claim_scores(entries: list[Entry], moments: dict[int, float], kept: list[tuple[float, dict[str, str]]]) -> None:
    """A `Scores:` line on each entry after which the record's scores (`kept`, by their moments, names written)
    changed: the scores as they stood before the next entry, which check holds to the replay there. (The last
    entry's are the end's, claimed apart.)"""
    timed = [(moments[id(entry)], entry) for entry in entries
             if id(entry) in moments and not entry.heading.startswith("Unrecorded")]
    # (the scores before the first entry are the start's: an entry claims them where they changed since)
    claimed = next((scores for moment, scores in reversed(kept) if timed and moment < timed[0][0]), None)
    for (_, entry), (following, _) in zip(timed, timed[1:]):
        now = next((scores for moment, scores in reversed(kept) if moment < following), None)
        if now is not None and now != claimed:
            entry.keys.append(("Scores", ", ".join(f"{player} {score}" for player, score in sorted(now.items()))))
            claimed = now


def _decimal(score: Fraction) -> str:
    """A score as the log writes it: whole, or a decimal the record gave (31.7)."""
    if score.denominator == 1:
        return str(score.numerator)
    return str(Decimal(score.numerator) / Decimal(score.denominator))


def _walk_rulesets(repo: Path, records: Mapping, last: str, corrections: Corrections | None) -> _Walk:
    """A game a website keeps as one archived ruleset per adopted proposal (the records file's [rulesets]): each
    ruleset after the first is a step, the proposal its entry names (or the keeper's corrections line `ruleset N
    proposal M`, where the record says otherwise elsewhere), its changes what it changed."""
    sets = records.rulesets
    walk = _Walk({}, last, "", [], [], [], None, [], {})
    with BlobReader(repo) as blobs:
        try:
            entries = list(sets.files) or read_list(_file_text(repo, blobs, last, sets.list, "rulesets.list", walk),
                                                    "", "rulesets")
        except DecisionsUnreadable as error:
            raise ImportRefused(str(repo), f"{sets.list} at commit {last[:10]}: {error}") from None
        before: dict[int, ImportedRule] | None = None
        for place, entry in enumerate(entries):
            if not isinstance(entry, dict):
                raise ImportRefused(str(repo), f"{sets.list} at commit {last[:10]}: ruleset {place} (from 0) is not "
                                    "an object")
            path = re.sub(r"\{([A-Za-z_][A-Za-z0-9_]*)\}", lambda m: clean_line(str(entry.get(m.group(1), ""))),
                          sets.file)
            path, read = _archived_ruleset(repo, blobs, last, walk, sets, path, place == len(entries) - 1,
                                           before is None)
            if read is None:
                continue
            rules = {rule.number: rule for rule in read.rules}
            moment, date = moment_of(entry.get(sets.date)) if sets.date else (0.0, "")
            title = short_title(str(entry.get(sets.title) or ""))[0] if sets.title else ""
            if before is None:  # (undated by the list: the game starts on the day of the commit read)
                # (the keeper's title for a capture; a website's list titles the proposal that made a ruleset)
                walk.initial, walk.start_title = rules, title if sets.files else ""
                walk.start_date = date or text(git(repo, "show", "-s", "--format=%cI", "--end-of-options",
                                                   last)).strip()[:10]
                before = rules
                _arrange(walk, walk.start_date, rules)
                continue
            _arrange(walk, date or walk.start_date, rules)
            step = _ruleset_step(_changes(before, rules), place, path, moment, title, entry.get(sets.proposal), last,
                                 "proposals not in the record" if sets.files else "the keeper, no proposal")
            before = rules
            # (the keeper's line is followed with the commits' lines (`_correct`); which proposals it adopts is
            # wanted now, to read the decisions by)
            said = corrections.ruleset(place) if corrections is not None else None
            adopts = _numbers(said[1]) if said else _numbers(step.reading)
            for number in adopts:
                walk.adopted[number] = f"adopted: ruleset {place} ({path}) names it" + (
                    " (your correction)" if adopts != _numbers(step.reading) else "")
            walk.steps.append(step)
    return walk


def _archived_ruleset(repo: Path, blobs: BlobReader, last: str, walk: _Walk, sets: Rulesets, path: str,
                      last_one: bool, first: bool) -> tuple[str, ImportedRuleset | None]:
    """The ruleset a website archived at `path` (the records file's [rulesets]), and where it was read; None, said
    as a problem, where it is unreadable or missing (the first is refused: the game starts there). The list's
    `last_one` the archive lacks is read from the rules in force (rulesets.current), where the keeper names them."""
    then = "the game ends at the ruleset before it" if last_one else "the next readable ruleset carries its changes"
    try:
        content = blobs.read(last, path)
        if content is None and last_one and sets.current:  # (archived later: the rules in force stand for it)
            path, content = sets.current, blobs.read(last, sets.current)
        read = read_ruleset(content, file=path) if content is not None else None
    except (RulesetImportError, BlobTooLarge) as error:
        if first:
            raise ImportRefused(str(repo), f"{path} at commit {last[:10]}: {error}") from None
        walk.problems.append(Problem(path, last, getattr(error, "line", 0), f"{error}; not read: {then}"))
        return path, None
    if read is None:  # (the list names a ruleset the archive lacks)
        if first:
            raise ImportRefused(str(repo), f"no file {path} at commit {last[:10]} (the first ruleset the records "
                                "file's list of rulesets names)", walk.problems)
        walk.problems.append(Problem(path, last, 0, f"{sets.named} names this ruleset, which is not in the "
                                     f"repository: {then}"))
    return path, read


def _ruleset_step(changed: tuple[list[Change], list[Change]], place: int, path: str, moment: float, title: str,
                  proposal: object, last: str, unnamed: str) -> _Step:
    """The step an archived ruleset is: its changes (and those of formatting alone), by the proposal its entry in
    the list names, else an event by `unnamed` (a website's archive: the keeper; rulesets captured on days: the
    proposals between them, which the record does not hold)."""
    changes = changed[0] + changed[1]
    commit = Commit(last, (), "", datetime.datetime.fromtimestamp(moment, datetime.timezone.utc).isoformat(), title)
    step = _Step(commit, changes, [None] * len(changes), title, "", "", "", False, [], place, ruleset=path)
    if isinstance(proposal, int) and not isinstance(proposal, bool):
        step.said.append(f"ruleset {place} names proposal {proposal}")
        step.reading = Reading("proposal", (Proposal(proposal),))  # (its proposer: the decision's)
    else:
        step.said.append(f"ruleset {place} names no proposal")
        step.reading = Reading("event", by=unnamed)
    return step


def _entries(steps: list[_Step], decided: dict[int, Decision], walk: _Walk
             ) -> tuple[list[Entry], Runs, list[int], dict[int, float]]:
    """The log: an entry per step in commit order, and each decision the file of decisions records that no commit
    carried out (most that were not adopted) among them by its time; `## Unrecorded` for every number neither
    accounts for (in a game kept in git, a proposal that failed is never merged), each before the first proposal
    numbered above it (where the numbering check looks for it). With the proposal numbers in the log's order, and
    the moment of each entry of a step or a decision (by the entry's id)."""
    moments: dict[int, float] = {}
    carried = {p.number for step in steps if step.again is None for p in step.reading.proposals}

    def moment(decision: Decision) -> float:
        """When a decision was taken, or, where the record does not date it, just before the first commit that
        carried out a proposal numbered above it (after every commit, for one above them all)."""
        if decision.moment or decision.name:
            return decision.moment or float("inf")
        return next((datetime.datetime.fromisoformat(step.commit.date).timestamp() - 1 for step in steps
                     if any(p.number > decision.number for p in step.reading.proposals)), float("inf"))

    alone = sorted((decision for number, decision in decided.items() if number not in carried),
                   key=lambda decision: (moment(decision), decision.number))
    # (a number the record writes in letters, VPRD, is a name: it leaves no gap in the numbers)
    used = (carried | {decision.number for decision in alone}) - {d.number for d in decided.values() if d.name}
    missing = gaps(used, min(used), max(used)) if used else []
    entries: list[Entry] = []
    order: list[int] = []
    pending = missing
    judgments = 0
    last_date = ""  # (a decision the record does not date takes the day of the entry above it, or the game's start)

    def unrecorded_below(number: int) -> list[Entry]:
        """The entry for the numbers not yet written below `number`, if any."""
        nonlocal pending
        due, pending = runs_below(pending, number)
        return [Entry(f"Unrecorded: {number_ranges(due)}", prose=[
            "Neither a commit on the rules nor the record of decisions says what became of these proposals: in a "
            "game kept in git, a proposal that failed is never merged (see IMPORT.md)."])] if due else []

    def unrecorded(numbers: list[int]) -> None:
        entries.extend(unrecorded_below(min(numbers)))

    def decision_alone(decision: Decision) -> None:
        unrecorded([decision.number])
        # (a decision's day is UTC's, a commit's its keeper's: never before the entry above it)
        date = max(decision.date, last_date) if decision.date else last_date or walk.start_date
        if decision.result == "undecided" or not decision.proposer:
            entries.append(_undecided(decision))
        elif decision.name:
            entries.append(_lettered(decision, date, [], []))
        else:
            keys = [("Proposer", decision.proposer), ("Date", date), *_ballots(decision)]
            entries.append(Entry(f"Proposal {decision.number}" + (f": {decision.title}" if decision.title else ""),
                                 keys, prose=[f"{_record_says(decision)} {escape_markdown(decision.said)}.",
                                              *_as_proposed(decision, walk)]))
        moments[id(entries[-1])] = moment(decision)
        order.append(decision.number)

    for step in steps:
        step_moment = datetime.datetime.fromisoformat(step.commit.date).timestamp()
        while alone and moment(alone[0]) <= step_moment:
            decision_alone(alone.pop(0))
        numbers = [p.number for p in step.reading.proposals]
        if numbers and step.again is None:
            unrecorded(numbers)
            order += numbers
        if step.reading.kind == "judgment":
            judgments += 1
        made = _step_entries(step, judgments, decided, walk, unrecorded_below)
        entries += made
        moments.update((id(entry), step_moment) for entry in made)
        last_date = next(value for key, value in made[-1].keys if key == "Date")
    for decision in alone:
        decision_alone(decision)
    return entries, missing, order, moments


def _undecided(decision: Decision) -> Entry:
    """A decision the log cannot write as a proposal: one still voted on when the record was last read, or one
    whose proposer no record names (the format writes a proposal with its proposer, and none is made up). Its
    number is Unrecorded, saying what the record holds."""
    if decision.result != "undecided":
        said = f"{decision.said}, with no proposer (votes: {_votes_said(decision)})"
    elif decision.source and not decision.said:  # (a proposal's file that names no result)
        said = "no result"
    else:
        said = f"{decision.said}, still being voted on at the last commit read" if decision.source else \
            "still being voted on at the last commit read"
    return Entry(f"Unrecorded: {decision.number}", prose=[f"{_record_says(decision)} {escape_markdown(said)}."])


def _as_proposed(decision: Decision | None, walk: _Walk) -> list[str]:
    """The proposal's own words where its record keeps them (its own file, the record's `text` field), as the
    paragraphs of `As proposed:` and a blockquote (format 1.2: shown as the proposal's text, never read as a
    change); none where the record keeps no text, or one longer than a rule's text may be (a problem, said)."""
    text = decision.text.strip("\n") if decision else ""
    if len(text) > MAX_RULE_CHARS:
        walk.problems.append(Problem(decision.source, "", 0, f"proposal {decision.number}: its text, of "
                                     f"{len(text):,} characters, is left out (a text as proposed may hold at most "
                                     f"{MAX_RULE_CHARS:,})"))
        return []
    return ["As proposed:", quote(text)] if text.strip() else []


def _record_says(decision: Decision) -> str:
    """The words that open what the log quotes of a decision's record: the file of decisions, or its own file."""
    return f"Its file {code_span(decision.source)} says:" if decision.source else "The record of decisions says:"


def _votes_said(decision: Decision) -> str:
    return next((value for key, value in _ballots(decision) if key == "Votes"), "not recorded")


def _ballots(decision: Decision) -> list[tuple[str, str]]:
    """The keys a decision of the record gives a proposal: its ballots (`Votes: none` where nobody voted) and its
    result."""
    groups = {kind: [voter for voter, ballot in decision.votes if ballot == kind] for kind in ("for", "against",
                                                                                               "abstain")}
    votes = "; ".join(f"{kind} {', '.join(voters)}" for kind, voters in groups.items() if voters) or "none"
    return [("Votes", votes)] * decision.ballots_recorded + [("Result", decision.result)] + (
        [("Reason", decision.reason)] if decision.reason else [])


def _lettered(decision: Decision, date: str, changes: list[Change], prose: list[str], title: str = "") -> Entry:
    """A proposal the record names by letters (VPRD), not in the game's numbering: an event by it, its decision
    in a note (the log numbers its proposals; the letters' number would leave millions unaccounted for)."""
    votes = _votes_said(decision)
    return Entry(f"Event: proposal {decision.name}" + (f": {decision.title or title}" if title or decision.title
                                                        else ""),
                 [("Date", date), ("By", f"proposal {decision.name}" + (f" ({decision.proposer})" if
                                                                         decision.proposer else "")),
                  ("Note", f"The record names this proposal by letters, outside the game's numbering; its decision: "
                           f"{clean_line(decision.said)} (votes: {votes}).")], changes, prose)


def _step_entries(step: _Step, judgments: int, decided: dict[int, Decision], walk: _Walk,
                  unrecorded_below: Callable[[int], list[Entry]]) -> list[Entry]:
    """The step's entries; `unrecorded_below(N)` the Unrecorded entry due before proposal N, where a commit carries
    out proposals with a gap between them ("Proposals 26, 29"), the numbering check reading them in order."""
    commit, reading = step.commit, step.reading
    date = (step.commits[-1] if step.commits else commit).date[:10]
    title = clean_line(_strip_numbers(step.title))
    if reading.kind == "proposal" and (m := _BARE_NUMBER.match(title)) and int(m.group(1)) in _numbers(reading):
        title = title[m.end():]  # ("307 Make your vote count": proposal 307's title is its words)
    titled = "" if _WEB_EDIT_SUBJECT.fullmatch(title) else title  # (an event is headed by its subject all the same)
    prose = _provenance(step)
    if step.cleaned and reading.kind == "cleaning":
        step.changes, step.cleaned = step.changes + step.cleaned, []
    if step.cleaned:  # (its changes of formatting alone, apart: a cleaning, which no rule-change is)
        cleaning = Entry(f"Event: {title or 'a change'} (formatting)", [("Date", date), ("By", f"cleaning "
                         f"({_player(step.author)})")], step.cleaned, [f"The formatting {step.commit.short} changed "
                         "beside its other changes."])
        step.cleaned = []
        return [cleaning] + _step_entries(step, judgments, decided, walk, unrecorded_below)
    if reading.kind == "proposal" and step.again is None and any(
            decided[p.number].result == "undecided" or not decided[p.number].proposer
            for p in reading.proposals if p.number in decided):
        # (a decision no proposal entry can hold: its number Unrecorded, its changes an event by it)
        numbers = [p.number for p in reading.proposals]
        return [_undecided(decided[number]) if number in decided else Entry(f"Unrecorded: {number}")
                for number in numbers] + [Entry(f"Event: {title or 'a change'}", [("Date", date), ("By", "proposal "
                                                + ", ".join(str(number) for number in numbers))], step.changes, prose)]
    if reading.kind == "proposal" and step.again is None:
        shares = _shares(step, decided)
        out = []
        for proposal in reading.proposals:
            out += unrecorded_below(proposal.number)
            decision = decided.get(proposal.number)
            # (a proposal its own file records is titled as the file titles it, never by the commit's subject)
            called = decision.title if decision and decision.title else titled if len(reading.proposals) == 1 \
                and not (decision and decision.source) else ""
            heading = f"Proposal {proposal.number}" + (f": {called}" if called else "")
            # (the reading names the decision's proposer already, unless the keeper's corrections line named another)
            proposer = (proposal.authors or ((decision.proposer,) if decision and decision.proposer
                                             else ("unknown",)))[0]
            keys = [("Proposer", proposer)]
            if proposal.authors[1:]:
                keys.append(("Co-authors", ", ".join(proposal.authors[1:])))
            keys += [("Date", date), *(_ballots(decision) if decision else [("Result", "adopted")])]
            changes = shares.get(proposal.number, [])
            if decision and decision.name:
                out.append(_lettered(decision, date, changes, prose, title))
                continue
            if decision and decision.result != "adopted":  # the rules changed all the same: an event, beside it
                walk.problems.append(Problem("", commit.id, 0, f"the record of decisions says proposal "
                                             f"{proposal.number} {decision.said}, yet this commit carries it out: "
                                             "its changes are an event by it"))
                out.append(Entry(f"Event: {title or 'a change'}", [("Date", date), ("By", f"proposal "
                                 f"{proposal.number}"), ("Note", f"The record of decisions says proposal "
                                 f"{proposal.number} {clean_line(decision.said)}; this commit made its changes.")],
                                 changes, prose))
                out.append(Entry(heading, keys, [], [f"{_record_says(decision)} {escape_markdown(decision.said)}.",
                                                     *_as_proposed(decision, walk)]))
                continue
            if not changes and proposal is reading.proposals[0]:  # (each change went to the proposal naming it)
                keys.append(("Note", "It changed no rule: the changes made with it are the other proposals' "
                                     "carried out with it."))
            elif not changes:
                keys.append(("Note", f"Carried out in the same commit as proposal {reading.proposals[0].number}, "
                                     "whose entry holds the commit's changes the record does not credit to it."))
            if step.completes and proposal is reading.proposals[0]:
                named = ", ".join(str(number) for number in step.completes)
                keys.append(("Note", f"The same commit completes proposal {named}, which an earlier commit began; "
                                     "which of its changes belong to which proposal is not recorded."))
            out.append(Entry(heading, keys, changes, prose + _as_proposed(decision, walk)))
        return out
    if reading.kind == "judgment":
        number, case = _judgment_number(reading.name, judgments)
        heading = f"Judgment {case or number}" + (f": {titled}" if titled else "")
        keys = [("Judge", reading.by or _player(step.author)), ("Date", date)]
        if not case and str(number) != reading.name:
            keys.append(("Note", f"The record names it Judgment {reading.name}."))
        return [Entry(heading, keys, step.changes, prose)]
    if step.again is not None:
        by = f"proposal {step.again}"
    elif reading.kind == "cleaning":
        by = f"cleaning ({reading.by})" if reading.by else "cleaning"
    else:
        by = reading.by or "the keeper"
    return [Entry(f"Event: {title or 'a change'}", [("Date", date), ("By", by)], step.changes, prose)]


def _shares(step: _Step, decided: dict[int, Decision]) -> dict[int, list[Change]]:
    """The step's changes by proposal: each to the proposal its History line credits it to; else to the one that
    the rule it enacts or renumbers is numbered as (Suber's numbering), and its later changes in the step with it;
    else to the one whose recorded text names the rule (`This proposal deletes rule 204`); the rest to the first."""
    numbers = [p.number for p in step.reading.proposals]
    out: dict[int, list[Change]] = {number: [] for number in numbers}
    made: dict[int, int] = {}  # a rule the step enacted or renumbered as a proposal of it -> that proposal
    for change, entry in zip(step.changes, step.credited):
        if entry is not None and entry.proposal in out and (step.own is None or _numbers(step.own) == numbers):
            number = entry.proposal
        else:
            rule = change.new_number if change.kind == "renumber" else change.rule
            if change.kind in ("enact", "renumber") and rule in out:
                made[rule] = rule
            number = made[rule] if rule in made else _text_names(rule, numbers, decided)
        out[number].append(change)
    return out


def _text_names(rule: int, numbers: list[int], decided: dict[int, Decision]) -> int:
    """The one proposal of `numbers` whose recorded text names the rule, else the first."""
    named = [number for number in numbers if number in decided and re.search(
        rf"\brules?\s*#?\s*{rule}(?![0-9])", (decided[number].text or decided[number].archived)[:100_000],
        re.IGNORECASE)]
    return named[0] if len(named) == 1 else numbers[0]


def _judgment_number(name: str, count: int) -> tuple[int, str]:
    """A judgment's number and case as the log writes them: "7" is 7, "I" is 1 (Roman), "CFJ 12" is a case."""
    name = " ".join(name.split())
    if name.isdigit():
        return int(name), ""
    if re.fullmatch(r"[A-Za-z]+ [0-9]+", name):
        return 0, name
    return roman_value(name) or count, ""


def _provenance(step: _Step) -> list[str]:
    if step.ruleset:
        return [f"The ruleset {code_span(step.ruleset)}" + (f", whose summary says: {escape_markdown(step.title)}"
                                                             if step.title else ".")]
    commits = [step.commit] + step.commits
    ids = ", ".join(f"`{c.id[:10]}`" for c in commits)
    out = [f"Commit{'s' if len(commits) > 1 else ''} {ids}" + (", whose message says:" if step.message else ".")]
    # The message is quoted, never prose of the entry: a paragraph such as "Repeal rule 202." would be a change,
    # and the changes are what the rules file did.
    return out + ([quote("\n\n".join(step.message))] if step.message else [])


def _strip_numbers(title: str) -> str:
    """A title without the words that name its entry ("Proposal 12: Dice" is "Dice", "Temp Prop 66" is "Temp",
    "Rule 304: Tea" is "Tea", "Judgment II" is ""; "Previous Proposal Was Proposal 315", naming another's, whole)."""
    if _PREVIOUS_WAS.match(title):
        return title.strip(_BETWEEN)
    for pattern in (_JUDGMENT, _NON_RULE_CHANGE, _LEADING_NUMBER, _LEADING_RULE_NUMBER, _FILE_NAMED):
        title = pattern.sub("", title, count=1)  # (in this order: "319: Non-rule-change PRs" keeps its words)
    if m := _NUMBERS.search(title):
        title = title[:m.start()].rstrip() + " " + title[m.end():].lstrip(_BETWEEN)
    return title.strip(_BETWEEN)


def _player(raw: str) -> str:
    return player_name(raw)[0]


def _message(message: str, title: str) -> tuple[list[str], str | None]:
    """The paragraphs of a commit's message after its subject (and the title taken from it), as Markdown that
    shows them as written, each a line or wrapped; with what was cut, if anything: a paragraph with no place to
    break it, and what passes a rule's length in all."""
    out, why, length = [], [], 0
    for paragraph in _message_paragraphs(message)[1:]:
        if clean_line(paragraph) == title:
            continue
        text_ = _message_markdown(paragraph)
        if length + len(text_) > MAX_RULE_CHARS:
            why.append(f"what passes {MAX_RULE_CHARS:,} characters is left out")
            break
        wrapped = [wrap(line) for line in text_.split("\n")]
        if None in wrapped:
            text_, cut = short_title(text_)
            why.append(f"a paragraph with no place to break it: {cut}")
            wrapped = [text_]
        out.append("\n".join(wrapped))
        length += len(text_)
    return out, "; ".join(why) or None


def _message_markdown(paragraph: str) -> str:
    """A paragraph of a commit's message as Markdown that shows it as written: a list (`- Fix the quorum` on each
    line, `1.` numbered) keeps an item a line, each item's own lines joined; any other paragraph is one line."""
    items = _MESSAGE_ITEM_BREAK.split(paragraph)
    if not all(_MESSAGE_ITEM.match(item) for item in items):
        return escape_markdown(paragraph)
    return "\n".join(f"{m.group(1)} {escape_markdown(m.group(2))}" for m in map(_MESSAGE_ITEM.match, items))


def _message_paragraphs(message: str) -> list[str]:
    return [paragraph for paragraph in re.split(r"\n\s*\n", message.strip()) if paragraph.strip()]


def _topics(rules: dict[int, ImportedRule]) -> dict[str, list[int]]:
    """The topics the last rules file read arranges its rules under (`# Voting`), each with its rules in the file's
    order: game.toml's sections, so that a rule enacted after the start stands under its own (rules.md's topics
    are the start's)."""
    topics: dict[str, list[int]] = {}
    for number, rule in rules.items():
        if rule.topic:
            topics.setdefault(rule.topic, []).append(number)
    return topics


def _arrange(walk: _Walk, day: str, rules: dict[int, ImportedRule]) -> None:
    """Keep the rules' topics on `day`, where they changed (the last of a day's stands for it)."""
    topics = _topics(rules)
    if walk.arrangements and walk.arrangements[-1][0] == day:
        walk.arrangements.pop()
    if not walk.arrangements or walk.arrangements[-1][1] != topics:
        walk.arrangements.append((day, topics))


def _sections(walk: _Walk) -> list[SectionSpan]:
    """game.toml's sections: the topics the rules file arranged its rules under, over time (from the game's start:
    rules a bot entered before it are the starting rules), each table with the days it held where they changed;
    those without `until` the last file's, so that a rule enacted after the start stands under its own topic."""
    started = [at for at, (day, _) in enumerate(walk.arrangements) if day <= walk.start_date]
    arrangements = walk.arrangements[started[-1] if started else 0:]
    ever = {rule for _, topics in arrangements for rules in topics.values() for rule in rules}
    return section_spans([(day, [(topic, "", rules) for topic, rules in topics.items()])
                          for day, topics in arrangements], ever, lambda rule, since, until: True)


def _game_toml(name: str, start: str, players: list[str], numbers: list[int], adoption: str | None,
               adopted: int = 0, played_as: dict[str, set[str]] | None = None,
               sections: list[SectionSpan] | None = None, entries: str = "each commit that changed the rules") -> str:
    lines = [f"title = {toml_string(name)}",
             f"description = \"Imported from git by nomic-archive: {entries} is an entry"
             + ("; the ballots are the record of decisions'.\"" if adoption else
                "; the ballots were not recorded there.\""),
             f"start = {start}",
             toml_players(players),
             "",
             "# Rules keep their numbers: an enactment takes the number the commit gave it.",
             "[numbering]",
             f"first_proposal = {min(numbers, default=1)}",
             "amend_renumbers = false",
             "enact_takes_proposal_number = false"]
    if numbers != sorted(numbers):
        lines.append("in_order = false  # the commits made some proposals after higher-numbered ones")
    if adoption:
        lines += ["", "[adoption]", f"method = {toml_string(adoption)}"]
    lines += ["", "# No dice or turns in the record: nothing to score or to check turns against.",
              "[scoring]", "turn = \"none\"", "defeated = 0", "against_adopted = 0"]
    if adopted:
        lines.append(f"adopted = {adopted}  # the records file's: points to a proposal's proposer on adoption")
    lines += ["",
              "[turns]", "order = \"none\"", "", "[limits]", "max_mutable = 0", ""]
    tables = [line for span in sections or [] for line in (
        "[[sections]]", f"title = {toml_string(span.title)}", toml_numbers("rules", span.rules),
        *([f"from = {span.since}"] if span.since else []), *([f"until = {span.until}"] if span.until else []), "")]
    if tables:
        tables.insert(0, "# The topics the last rules file arranges the rules under." if all(
            not span.since and not span.until for span in sections or []) else "# The topics the rules file "
            "arranges the rules under: a table with from or until as they were for a time, those without until the "
            "last file's.")
    return "\n".join(lines + toml_aliases(played_as or {}, players) + tables)


# --- what the import says of itself ------------------------------------------------------------------------------

def _hints(steps: list[_Step], by_pull_requests: bool) -> list[str]:
    """Conventions the game may follow, for the keeper to take by a line of the corrections file: where commits
    merged pull requests, that the game's proposals are its pull requests (a pull request's number is never taken
    for a proposal's without the keeper's word)."""
    merged = sum(1 for step in steps for commit in [step.commit, *step.commits] if _pull_request(commit) is not None)
    if by_pull_requests or not merged:
        return []
    return [f"{counted(merged, 'commit')} merged pull requests, whose numbers were not taken for proposals'. If the "
            "game's proposals are",
            "its pull requests, each numbered as its pull request is, import again with --proposals-are-pull-requests",
            "and without the commit lines above (each says a commit's reading over any convention): every other",
            "commit is then the keeper's own, and the new file says `convention proposals-are-pull-requests`."]


def _correction_lines(steps: list[_Step], names: _Names, walk: _Walk, decisions: list[Line],
                      by_pull_requests: bool = False) -> list[tuple[str, list[Line]]]:
    commits = []
    for step in steps:
        ids = "".join(f", then {c.short}" for c in step.commits)
        if step.own is not None:
            why = f"your correction (the import read: {step.own.words()})"
        elif step.guesses:
            why = "guessed: " + "; ".join(step.guesses) + (f" (the record: {'; '.join(step.said)})" if step.said
                                                           else "")
        else:
            why = "the record: " + "; ".join(step.said)
        if step.correction and step.own is None:
            why = f"as your line says; {why}"
        if step.again is not None:
            why += f"; proposal {step.again} was carried out by an earlier commit: this one is an event by it"
        commits.append(Line(_step_named(step), step.reading.words(), why + ids))
    rules = []
    if walk.guessed:  # the reader took some rules' classes where the record does not say: each rule's is the keeper's
        words = {IMMUTABLE: "immutable", MUTABLE: "mutable", None: "class not recorded"}
        rules = [Line(f"rule {number}", words.get(rule_class, "class not recorded"), "as read; the reader of the rules "
                      "guessed some classes (IMPORT.md says which)")
                 for number, rule_class in sorted(walk.classes.items())]
    rules += walk.twin_lines
    conventions = [Line("convention", CONVENTION_PULL_REQUESTS, "a merged pull request's number is its proposal's "
                        "(--proposals-are-pull-requests, or this line)")] if by_pull_requests else []
    return [("The game's conventions", conventions), ("Commits that changed the rules", commits), ("Rules", rules),
            ("Players", names.lines()), ("Decisions", decisions)]


def _unnamed(decided: dict[int, Decision]) -> list[str]:
    """IMPORT.md's line on the players the record of decisions knows only by a bot's identifiers."""
    ids = sorted({name for decision in decided.values() for name in (decision.proposer, *(v for v, _ in decision.votes))
                  if name.isdigit()})
    return [f"- Players known only by a bot's identifiers, whom no record names: {len(ids)} "
            f"({', '.join(ids[:3])}{' and more' if len(ids) > 3 else ''}); a line `player {ids[0]} = NAME` of "
            f"`{FILE_NAME}` names one."] if ids else []


def _ballots_said(records: Mapping | None, decided: dict[int, Decision], walk: _Walk) -> str:
    if walk.filed:
        folder = walk.filed_folder
        results = Counter(decided[filed.number].result for filed in walk.filed)
        return (f"- Decisions: {len(walk.filed)} in the game's own proposal files, a file each in "
                f"{code_span(folder.folder + '/' if folder.folder else '.')} (" + ", ".join(
                    f"{count} {result}" for result, count in sorted(results.items())) + "): each proposal's number, "
                "proposer, result and day as its file says them (its name, its fields, the folder it was moved to), "
                + ("the folder the records file names" if folder.named else "the folder found by its files (named by "
                   "their numbers, opening with an author or a status; the records file's `[proposals] folder` names "
                   "another, and its `proposer`, `result`, `date` and `results` their fields and words)") +
                "; an adopted one carried out by the commit that changed the rules and made its file say so. Their "
                "ballots are not in them: no `Votes:` line, each result as recorded.")
    if records is None or not records.file:
        return ("- Ballots: not recorded in git. Each proposal is written with `Result: adopted` (its change was made) "
                "and no `Votes:` line, which the format reads as a result without known ballots; nothing is guessed.")
    results = Counter(decision.result for decision in decided.values())
    no_proposer = sum(1 for decision in decided.values() if not decision.proposer)
    return (f"- Decisions: {len(decided)} in {code_span(records.file)} (" + ", ".join(
        f"{count} {result}" for result, count in sorted(results.items())) + "), each with its ballots and result as "
        f"recorded, checked by `check` under `{records.adoption}`; {no_proposer} with no proposer and those still "
        "undecided are Unrecorded numbers saying what the record holds. A proposal that failed for a reason the "
        "game's rules give, not by its ballots, is `Result: invalid` with `Reason:` (docs/format.md): write it in "
        f"{FILE_NAME} as `proposal N invalid: depends on proposal M`.")


def _report(repo: Path, where: str, walk: _Walk, end: str, steps: list[_Step], unrecorded: Runs,
            guessed: list[str], used: list[str], records: Mapping | None, decided: dict[int, Decision]) -> str:
    kinds = Counter(change.kind for step in steps for change in step.changes)
    readings = Counter(step.reading.kind if step.again is None else "again" for step in steps)
    proposals = sum(len(step.reading.proposals) for step in steps if step.again is None)
    numbered = sum(1 for step in steps if step.reading.kind == "proposal" and not any(
        guess.startswith((_UNNUMBERED, _TURN_SLIP, _DIGITS_SLIP)) for guess in step.guesses))
    by_turn = [step for step in steps if any(_BY_TURN in said for said in step.said)]
    proposed = sum(1 for step in steps if step.reading.kind == "proposal" and not any(
        "proposer is" in guess for guess in step.guesses))
    out = ["# How this game was imported", "",
           f"`nomic-archive import git` read the rulesets {where} names, in the repository "
           f"{escape_markdown(repo.resolve().name)} at commit `{end[:10]}`." if records and records.rulesets else
           f"`nomic-archive import git` read {where} in the repository {escape_markdown(repo.resolve().name)}, "
           f"first-parent history from commit `{walk.start_commit[:10]}` (the rules in rules.md) to `{end[:10]}`.",
           "",
           f"- Proposals: {len(decided) - sum(1 for d in decided.values() if d.result == 'undecided') or proposals}; "
           f"{proposals} carried out in {readings['proposal']} commits ({numbered} of them numbered by the record, "
           f"{proposed} with a proposer the record names: its History lines, "
           + ("its proposals' own files, " if walk.filed else "") + "the game's own words in titles).",
           *([f"- Turns: the game numbers its proposals by turn, as the titles of "
              f"{counted(len(by_turn), 'commit')} name it (`{escape_markdown(clean_line(by_turn[0].title))}`): each is numbered so (a number guessed "
              "otherwise is said below); a turn no commit carries out is an Unrecorded number (its proposal "
              "failed, or the turn had none)."] if by_turn else []),
           f"- Judgments: {readings['judgment']}; events (a temporary rule, a rule acting, changes of proposals the "
           f"record does not hold): {readings['event']}; "
           f"cleanings (no proposal: formatting, what the game calls non-rule changes): {readings['cleaning']}; "
           f"later commits carrying out a proposal again: {readings['again']}.",
           "- Rule changes: " + (", ".join(f"{count} {kind}" for kind, count in sorted(kinds.items())) or "none") + ".",
           f"- Unrecorded numbers (no record holds them): {number_ranges(unrecorded) if unrecorded else 'none'}.",
           _ballots_said(records, decided, walk),
           *_unnamed(decided),
           f"- Commits that changed the rules' files but no rule: {len(walk.unchanged)}.", ""]
    if walk.moves:
        out += ["The rules moved " + "; then ".join(walk.moves) + ".", ""]
    if walk.entered:
        out += [walk.entered, ""]
    if walk.later_start:
        out += [walk.later_start, ""]
    for said, _ in walk.new_bases:
        out += [said, ""]
    if walk.ended:
        out += [f"The import ends early: {walk.ended}", ""]
    for path, commit in walk.remade.items():
        out += [f"A new {code_span(path)} was made at commit `{commit.short}` ({commit.date[:10]}, "
                f"{escape_markdown(clean_line(commit.subject))}) after the rules moved away from it: a new game, or "
                f"round? Import it with `--rules {path} --from {commit.short}`.", ""]
    out += ["## What was guessed, and how to correct it", "",
            f"`{FILE_NAME}`, beside this file, holds a line for each commit and each player: what the import read "
            "and why. Edit a line to correct a guess (the proposal's number, its proposer, whether it is a proposal, "
            "a judgment, an event or a cleaning; two names of one person), then import again into a new folder with "
            f"`--corrections {FILE_NAME}`: every line is followed, and one that names nothing is refused.", ""]
    out += [f"- {escape_markdown(line)}" for line in guessed] or ["Nothing: every reading is the record's."]
    out.append("")
    if used:
        out += ["## Corrections followed", ""] + [f"- {escape_markdown(line)}" for line in used] + [""]
    if walk.filed_said:
        out += ["## The proposal files: what was not taken as it stands", ""]
        out += [f"- {escape_markdown(said)}" for said in walk.filed_said] + [""]
    out += problems_section(walk.problems)
    if walk.left_out:
        out += ["## Left out of the rules (headings that name no numbered rule, rule files not in force)", ""]
        out += [f"- {code_span(heading)} (first at commit {commit})" for heading, commit in walk.left_out.items()]
        out.append("")
    return "\n".join(out) + "\n"
