"""The keeper's word where the record is not enough: a corrections file, one line per commit, rule or player, which
an import writes with its reading of each (what the record said, or what it guessed and why) and reads back, as
git's mailmap and beets' importer take a person's word over their own guesses.

    commit 5a4532d600 judgment I by Cy                 # guessed: its subject says "Judgment I"
    commit 24b8a85c1e proposal 80 by Ann; proposal 81 by Bo
    commit 0f1b32a6d2 cleaning by Ann                  # the game calls it a non-rule change
    commit 2caeaac6a7 event by temporary rule 601 (Wren)
    ruleset 23 proposal 35 by Ryan                     # a website's archived ruleset, by its place in the list
    rule 117 immutable
    rule 205 class not recorded
    rule 109 twice at a9d55ca277 as 117                # a rule given a number another holds: its own number
    player Jason Cobb = Jason
    proposal 59 invalid: depends on proposal 58
    convention proposals-are-pull-requests

The `proposal` kind corrects a decision the records file gives (`--records`): its result, and for a proposal that failed
for a reason the game's own rules give, that reason (`Result: invalid` and `Reason:` in the log). A `convention`
line says how the game numbers what the import would otherwise guess: `proposals-are-pull-requests`, the game's
proposals are its merged pull requests, each numbered as its pull request is (never assumed without the line).

A line is read up to a `#` that follows a space (a name may hold one: `Sound#6980`). `by` names a proposal's
authors (its proposer first), a judgment's judge, or who made an event's or a cleaning's changes. A line that
names nothing the import read (a commit not among those it read, a rule it never saw, a name no record gives) is
refused, exit 2, at its line: a keeper's word must not be dropped in silence."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import ArchiveError, ErrorCollector, SourceError
from ..model.names import invisible_escaped
from ..parse.source import NumberTooLarge, read_int, read_text
from .archive import player_name
from .text import clean_line

FILE_NAME = "corrections.txt"   # in the imported game's folder, beside IMPORT.md; not part of the site
COMMIT_KINDS = ("proposal", "judgment", "event", "cleaning")
RULE_CLASSES = ("immutable", "mutable", "not recorded")
CONVENTION_PULL_REQUESTS = "proposals-are-pull-requests"   # a merged pull request's number is its proposal's
CONVENTIONS = (CONVENTION_PULL_REQUESTS,)

_COMMENT = re.compile(r"(?:^|\s)#(?:\s.*)?$")
_COMMIT = re.compile(r"commit\s+([0-9a-fA-F]{7,40})\s+(.*)", re.IGNORECASE)
_RULESET = re.compile(r"ruleset\s+([0-9]+)\s+(.*)", re.IGNORECASE)
# What a commit line says the commit was, after its id: each kind's words, and who after `by`.
_READINGS = {kind: re.compile(words + r"(?:\s+by\s+(.+))?", re.IGNORECASE) for kind, words in (
    ("proposal", r"proposal\s+([0-9]+)"), ("judgment", r"judge?ment\s+(.+?)"), ("other", r"(event|cleaning)"))}
_RULE = re.compile(r"rule\s+([0-9]+)\s+(?:class\s+)?(immutable|mutable|not\s+recorded)", re.IGNORECASE)
_TWIN = re.compile(r"rule\s+([0-9]+)\s+twice\s+at\s+([0-9a-fA-F]{7,40})\s+as\s+([0-9]+)", re.IGNORECASE)
_CONVENTION = re.compile(r"convention\s+(\S+)", re.IGNORECASE)
_PLAYER = re.compile(r"player\s+(.+?)\s*=\s*(.+)", re.IGNORECASE)
_DECISION = re.compile(r"proposal\s+([0-9]+)\s+(adopted|defeated|withdrawn|invalid|failed-quorum)(?:\s*:\s*(.+))?",
                       re.IGNORECASE)


@dataclass(frozen=True)
class Proposal:
    number: int
    authors: tuple[str, ...] = ()   # the proposer first, then the co-authors


@dataclass(frozen=True)
class Reading:
    """What a commit did, in the log's terms: the proposals it carried out, or a judgment, or an event, or a cleaning
    (the keeper's correction of spelling or formatting, which is no proposal)."""

    kind: str                               # one of COMMIT_KINDS
    proposals: tuple[Proposal, ...] = ()    # of a "proposal" reading: one or more
    name: str = ""                          # of a judgment: its name in the record ("I", "CFJ 12")
    by: str = ""                            # a judgment's judge; who made an event's or a cleaning's changes

    def words(self) -> str:
        """The reading as a line of the file writes it (after `commit ID `)."""
        if self.kind == "proposal":
            return "; ".join(f"proposal {p.number}" + (f" by {', '.join(p.authors)}" if p.authors else "")
                             for p in self.proposals)
        head = f"judgment {self.name}" if self.kind == "judgment" else self.kind
        return head + (f" by {self.by}" if self.by else "")


@dataclass
class Corrections:
    """A corrections file as read: each line by what it names, with its line number; `used` records the lines an
    import found a use for (those it did not name nothing, and are refused by `refuse_unused`)."""

    file: str
    commits: dict[str, tuple[int, Reading]] = field(default_factory=dict)  # by the id as written, lower case
    rulesets: dict[int, tuple[int, Reading]] = field(default_factory=dict)  # by the place in a website's list
    classes: dict[int, tuple[int, str]] = field(default_factory=dict)
    # A rule the file gives a number another rule holds, from the commit that did: number -> (line, commit, its own).
    twins: dict[int, tuple[int, str, int]] = field(default_factory=dict)
    players: dict[str, tuple[int, str]] = field(default_factory=dict)
    decisions: dict[int, tuple[int, str, str]] = field(default_factory=dict)  # number -> (line, result, reason)
    conventions: dict[str, int] = field(default_factory=dict)  # the game's conventions the file names -> line
    used: dict[int, str] = field(default_factory=dict)  # line -> what the import did with it

    def commit(self, commit_id: str) -> tuple[int, Reading] | None:
        """The keeper's reading of the commit `commit_id` (a full id), with its line; None when no line names it."""
        for written, said in self.commits.items():
            if commit_id.lower().startswith(written):
                return said
        return None

    def ruleset(self, place: int) -> tuple[int, Reading] | None:
        """The keeper's reading of a website's archived ruleset (records' [rulesets]), by its place in the list."""
        return self.rulesets.get(place)

    def rule_class(self, rule: int) -> tuple[int, str] | None:
        return self.classes.get(rule)

    def twin(self, rule: int, commit_id: str) -> tuple[int, int] | None:
        """The number the keeper gives the rule that the rules, from commit `commit_id` on, number `rule` beside
        the rule that held it, with the line; None when no line names it."""
        said = self.twins.get(rule)
        return (said[0], said[2]) if said and commit_id.lower().startswith(said[1]) else None

    def player(self, name: str) -> tuple[int, str] | None:
        return self.players.get(name)

    def convention(self, name: str) -> bool:
        """Whether the file says the game follows the convention `name` (one of CONVENTIONS); the line is used."""
        line = self.conventions.get(name)
        if line is not None:
            self.use(line, f"convention {name}")
        return line is not None

    def use(self, line: int, what: str) -> None:
        self.used.setdefault(line, what)

    def refuse_unused(self, commits: str, rules: str = "any version of the rules read",
                      players: str = "any record read") -> None:
        """ArchiveError (exit 2) for each line the import found no use for: it names nothing that was read.
        `commits`, `rules` and `players` say what was read, for the messages."""
        errors = [SourceError(self.file, line, f"commit {written}: names no commit among {commits}")
                  for written, (line, _) in self.commits.items() if line not in self.used]
        errors += [SourceError(self.file, line, f"ruleset {place}: the records file's list of rulesets names no "
                               f"ruleset {place} after the first") for place, (line, _) in self.rulesets.items()
                   if line not in self.used]
        errors += [SourceError(self.file, line, f"rule {rule}: no rule {rule} is in {rules}")
                   for rule, (line, _) in self.classes.items() if line not in self.used]
        errors += [SourceError(self.file, line, f"rule {rule} twice at {commit}: the rules read do not first number "
                               f"two rules {rule} at that commit") for rule, (line, commit, _) in self.twins.items()
                   if line not in self.used]
        errors += [SourceError(self.file, line, f"player {name}: the name '{name}' is not in {players}")
                   for name, (line, _) in self.players.items() if line not in self.used]
        errors += [SourceError(self.file, line, f"proposal {number}: no decision on proposal {number} is in the "
                               "records file (--records)") for number, (line, _, _) in self.decisions.items()
                   if line not in self.used]
        if errors:
            raise ArchiveError(errors)


def read_corrections(path: Path) -> Corrections:
    """The corrections file at `path`; ArchiveError (exit 2) with every line that cannot be read."""
    errors = ErrorCollector()
    name = str(path)
    text = read_text(path, name, errors, missing="no such file (--corrections names the file an import wrote, "
                                                 f"{FILE_NAME} in the game's folder)")
    errors.raise_if_any()
    corrections = Corrections(name)
    for number, raw in enumerate((text or "").splitlines(), start=1):
        line = clean_line(_COMMENT.sub("", raw))
        if not line:
            continue
        try:
            _read_line(line, number, corrections)
        except ValueError as problem:
            errors.add(name, number, str(problem))
    errors.raise_if_any()
    return corrections


def _read_line(line: str, number: int, corrections: Corrections) -> None:
    if m := _COMMIT.fullmatch(line):
        written = m.group(1).lower()
        if written in corrections.commits:
            raise ValueError(f"commit {written} is named twice (first at line {corrections.commits[written][0]})")
        for other in corrections.commits:
            if other.startswith(written) or written.startswith(other):
                raise ValueError(f"commit {written} and commit {other} (line {corrections.commits[other][0]}) may "
                                 "name one commit: name each once")
        corrections.commits[written] = (number, _reading(m.group(2)))
    elif m := _RULESET.fullmatch(line):
        place = _number(m.group(1))
        if place in corrections.rulesets:
            raise ValueError(f"ruleset {place} is named twice (first at line {corrections.rulesets[place][0]})")
        corrections.rulesets[place] = (number, _reading(m.group(2)))
    elif m := _TWIN.fullmatch(line):
        rule = _number(m.group(1))
        if rule in corrections.twins:
            raise ValueError(f"rule {rule} twice is named twice (first at line {corrections.twins[rule][0]})")
        corrections.twins[rule] = (number, m.group(2).lower(), _number(m.group(3)))
    elif m := _RULE.fullmatch(line):
        rule = _number(m.group(1))
        if rule in corrections.classes:
            raise ValueError(f"rule {rule} is named twice (first at line {corrections.classes[rule][0]})")
        corrections.classes[rule] = (number, " ".join(m.group(2).lower().split()))
    elif m := _DECISION.fullmatch(line):
        proposal = _number(m.group(1))
        if proposal in corrections.decisions:
            raise ValueError(f"proposal {proposal} is named twice (first at line {corrections.decisions[proposal][0]})")
        if m.group(3) and m.group(2).lower() == "adopted":
            raise ValueError("a reason says why a proposal failed; this one is adopted")
        corrections.decisions[proposal] = (number, m.group(2).lower(), clean_line(m.group(3) or ""))
    elif m := _CONVENTION.fullmatch(line):
        name = m.group(1).lower()
        if name not in CONVENTIONS:
            raise ValueError(f"'{name}' is not a convention the import knows ({', '.join(CONVENTIONS)})")
        if name in corrections.conventions:
            raise ValueError(f"convention {name} is named twice (first at line {corrections.conventions[name]})")
        corrections.conventions[name] = number
    elif m := _PLAYER.fullmatch(line):
        recorded, name = m.group(1), _name(m.group(2))
        if recorded in corrections.players:
            raise ValueError(f"player {recorded} is named twice (first at line {corrections.players[recorded][0]})")
        corrections.players[recorded] = (number, name)
    else:
        raise ValueError("not a correction: a line is `commit ID proposal N by NAME`, `commit ID judgment NAME by "
                         "JUDGE`, `commit ID event by WHO`, `commit ID cleaning by WHO` (`ruleset N ...` for a "
                         "website's archived ruleset), `rule N immutable` "
                         "(mutable, class not recorded), `rule N twice at ID as M`, "
                         "`player NAME IN THE RECORD = NAME`, `proposal N invalid: "
                         f"REASON` or `convention NAME` ({', '.join(CONVENTIONS)})")


def _reading(words: str) -> Reading:
    if words.lower().startswith("proposal"):
        proposals = []
        for part in words.split(";"):
            m = _READINGS["proposal"].fullmatch(part.strip())
            if m is None:
                raise ValueError(f"'{part.strip()}' is not `proposal N` or `proposal N by NAME, NAME`")
            authors = tuple(_name(author) for author in (m.group(2) or "").split(",") if author.strip())
            if len(set(authors)) < len(authors):
                raise ValueError(f"'{part.strip()}' names an author twice")
            proposals.append(Proposal(_number(m.group(1)), authors))
        numbers = [p.number for p in proposals]
        if len(set(numbers)) < len(numbers):
            raise ValueError("a proposal is named twice in one commit")
        return Reading("proposal", tuple(proposals))
    if m := _READINGS["judgment"].fullmatch(words):
        if re.match(r"by(\s|$)", m.group(1), re.IGNORECASE):  # (`judgment by Cy`: the name left out)
            raise ValueError("a judgment is named as the record names it: `judgment NAME by JUDGE` (judgment I by Cy)")
        return Reading("judgment", name=m.group(1), by=_name(m.group(2)) if m.group(2) else "")
    if m := _READINGS["other"].fullmatch(words):
        return Reading(m.group(1).lower(), by=m.group(2) or "")
    raise ValueError(f"a commit is read as one of {', '.join(COMMIT_KINDS)}, not '{words}'")


def _number(digits: str) -> int:
    try:
        return read_int(digits)
    except NumberTooLarge as error:
        raise ValueError(str(error)) from None


def _name(raw: str) -> str:
    """A player's name as a correction gives it: refused where the log could not write it as it is."""
    name, why = player_name(raw)
    if why:
        raise ValueError(f"the name '{invisible_escaped(clean_line(raw))[0]}' cannot be a player's name: {why}")
    return name


@dataclass(frozen=True)
class Line:
    """A line the import writes: what it names, its reading, and why (the record's words, or the guess)."""

    names: str      # "commit 5a4532d600", "rule 117", "player Jason Cobb"
    reading: str    # "judgment I by Cy", "immutable", "= Jason"
    why: str        # "guessed: its subject says ...", "the record: ...", "your correction (the import read ...)"


def render(title: str, sections: list[tuple[str, list[Line]]], hints: list[str] = ()) -> str:
    """The corrections file: a header saying how to use it, then each section's lines, a comment after each; then
    `hints`, lines the keeper may take by removing the `# ` before them (a convention the game may follow)."""
    out = [f"# Corrections to {title}: the import's reading of each commit, rule and player it was not told.",
           "# Edit a line to correct it, then import again with --corrections FILE (into a new folder): every line",
           "# is followed, and a line that names nothing the import reads is refused. A `#` after a space starts",
           "# a comment. docs/guide/import.md says what each line may say.", ""]
    for heading, lines in sections:
        if not lines:
            continue
        out.append(f"# {heading}")
        width = min(max(len(f"{line.names} {line.reading}") for line in lines), 60)
        out += [f"{line.names} {line.reading}".ljust(width) + f"  # {clean_line(line.why)}" for line in lines]
        out.append("")
    out += [f"# {hint}" for hint in hints]
    return "\n".join(out).rstrip("\n") + "\n"
