"""A game's proposals kept a file each, as keepers on GitHub keep them: a folder (`proposals/`) of files named by
their numbers (`318.md`, `proposal-12.md`, `0042-title.md`), each opening with its heading and fields (`* Author:
Gadget`, `* Status: succeeded`, `* Vote closed: 2013-02-03`, or YAML front matter), the proposal's text after, and
the decided ones often moved into a folder named for their result (`proposals/succeeded/`, `failed/`, `withdrawn/`).

The folder and the fields are recognised from what the files show (`find_folder`, `read_proposal`); where the
guess is wrong, the records file names them (`[proposals] folder = "motions"`, `proposer = "Sponsor"`, `result =
"Outcome"`, `date = "Decided"`, `results = { carried = "adopted" }`: decisions.py reads it). Each file is one
proposal: its number (the file's name, else its heading), proposer, result (its folder's name and its Status: where
they disagree, the one that says it was decided, said at the file's line), dates and text. Which commit carried out
an adopted proposal is git's to say (git.py: the commit that changed the rules and made the file say it was
adopted)."""
from __future__ import annotations

import dataclasses
import datetime
import posixpath
import re
from collections import Counter
from dataclasses import dataclass, field

from .decisions import Decision
from .rulesfile import MARKDOWN_EXTENSIONS, PLAIN_EXTENSIONS, front_matter, opens_with_front_matter
from .text import RulesetImportError, clean_line, short_title

# The words keepers write for a proposal's result (in a Status line or as a folder's name), in lower case.
RESULT_WORDS = {
    **dict.fromkeys(("adopted", "passed", "pass", "succeeded", "success", "successful", "accepted", "approved",
                     "enacted", "ratified", "carried", "implemented", "merged"), "adopted"),
    **dict.fromkeys(("defeated", "failed", "fail", "rejected", "declined", "denied", "lost", "vetoed", "not passed",
                     "not adopted"), "defeated"),
    **dict.fromkeys(("withdrawn", "retracted", "cancelled", "canceled", "abandoned", "redacted"), "withdrawn"),
    **dict.fromkeys(("invalid", "void", "illegal"), "invalid"),
    **dict.fromkeys(("undecided", "active", "pending", "open", "voting", "proposed", "draft", "new", "current",
                     "submitted", "in progress", "under vote", "queued"), "undecided"),
}
# The fields of a proposal's file, by what they say: the names keepers give them, in lower case.
PROPOSER_FIELDS = ("author", "authors", "proposer", "proposed by", "submitted by", "submitter", "sponsor", "by")
RESULT_FIELDS = ("status", "result", "outcome", "state", "decision")
DECIDED_FIELDS = ("vote closed", "voting closed", "closed", "decided", "resolved", "passed", "adopted", "enacted",
                  "failed", "rejected", "withdrawn", "date decided", "decision date", "result date", "ended")
SUBMITTED_FIELDS = ("entered", "submitted", "proposed", "created", "opened", "posted", "date")
TITLE_FIELDS = ("title", "name", "summary")
MIN_FILES = 2    # the files, named by numbers and showing a proposal's fields, that make a folder of proposals
MAX_TRIED = 20   # the files of a folder read to find MIN_FILES showing them
# A file's name numbering a proposal: `318.md`, `proposal-12.md`, `prop_7.txt`, `p12.md`, `0042-dice.md`
# (not a day, `2025-10-28-minutes.md`: a blog's post)
_NAME_NUMBER = re.compile(r"(?:proposal|prop|p|rule[\s_-]?change|motion)?[\s_#-]*0*([0-9]{1,6})(?:[\s_.-](?![0-9]).*)?",
                          re.IGNORECASE)  # (`rule-change-301.md` too)
# A field line at the top of a file: `* Author: Gadget`, `**Status:** passed`, `- __Proposer__: Ann`, `Date: ...`
_FIELD = re.compile(r"\s{0,3}(?:[-*+]\s+)?(?:\*\*|__)?([A-Za-z][A-Za-z '()/-]{0,40}?)\s*(?:\*\*|__)?\s*:\s*"
                    r"(?:\*\*|__)?\s*(.*?)\s*$")
# A byline among the fields, written without a colon: `Proposed by Ann`, `*Submitted by* Bo`
_BYLINE = re.compile(r"\s{0,3}(?:[-*+]\s+)?(?:\*\*|__|\*|_)?((?:proposed|submitted|authored|written)\s+by)(?:\*\*|__|\*|_)?"
                     r"\s+(\S.*?)\s*$", re.IGNORECASE)
# A result written alone on a file's last line, after its text and ballots: `*Passed*`, `**Not passed (2-4)**`
_CLOSING_RESULT = re.compile(r"\s{0,3}[*_]{0,2}\s*([A-Za-z][A-Za-z ]{0,20}?)\s*(?:\([^()\n]{0,40}\))?[.!]?\s*[*_]{0,2}\s*")
# A label alone on the line before a proposal's words: `__Proposal:__`, `**Text:**`, `Proposal text:`
_WORDS_LABEL = re.compile(r"\s{0,3}(?:\*\*|__)?\s*(?:proposal|text|proposal\s+text|full\s+text)\s*:?\s*(?:\*\*|__)?\s*:?\s*",
                          re.IGNORECASE)
# A section after a proposal's text that holds its ballots, not its words: `## Votes`
_BALLOTS_HEADING = re.compile(r"\s{0,3}#{1,6}\s+(?:votes|voting|ballots|results?)\s*:?\s*#*\s*", re.IGNORECASE)
_HEADING = re.compile(r"\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$")
_UNDERLINE = re.compile(r"\s{0,3}(?:=+|-+)\s*$")
# A heading naming a proposal: `Proposal #318`, `# Proposal 12: Dice`, `## 12 - Dice`
_HEADING_NUMBER = re.compile(r"(?:proposal|prop\.?)?\s*#?\s*([0-9]{1,6})\b\s*[:.\u2013\u2014-]?\s*(.*)", re.IGNORECASE)
_ISO_DAY = re.compile(r"([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})")
_WRITTEN_DAY = ("%B %d, %Y", "%b %d, %Y", "%d %B %Y", "%d %b %Y", "%Y/%m/%d", "%m/%d/%Y")


@dataclass(frozen=True)
class ProposalFolder:
    """Where a game keeps its proposals a file each, and the names of the fields that say what (lower case; the
    records file's names replace the usual ones). `named`: the records file named the folder (else it was found)."""

    folder: str
    proposer: tuple[str, ...] = PROPOSER_FIELDS
    result: tuple[str, ...] = RESULT_FIELDS
    date: tuple[str, ...] = DECIDED_FIELDS
    results: dict[str, str] = field(default_factory=dict)  # the record's words -> RESULTS (besides RESULT_WORDS)
    named: bool = False


@dataclass(frozen=True)
class FiledProposal:
    """One proposal's file as read: its decision in the log's words (`result` "" where the file says none), where
    the file says it (its path, and the line of its result), and what could not be taken as it stands (line,
    words)."""

    decision: Decision
    path: str
    line: int
    notes: tuple[tuple[int, str], ...] = ()
    proposer_line: int = 0

    @property
    def number(self) -> int:
        return self.decision.number


def is_text_name(path: str) -> bool:
    return path.lower().endswith(MARKDOWN_EXTENSIONS + PLAIN_EXTENSIONS)


def is_proposal_file(path: str, text: str | None) -> bool:
    """Whether a file may be a proposal's: named as text, or named otherwise and opening with front matter (a
    Jekyll collection's `_proposals/12.proposal`)."""
    return is_text_name(path) or text is not None and opens_with_front_matter(text)


def name_number(path: str) -> int | None:
    """The proposal a file's name numbers (`proposals/succeeded/318.md` is 318), if it numbers one."""
    m = _NAME_NUMBER.fullmatch(posixpath.splitext(posixpath.basename(path))[0])
    return int(m.group(1)) if m else None


def folder_result(path: str, folder: ProposalFolder) -> tuple[str, str]:
    """What the sub-folder a file is kept in says of its result: (the result or "", the folder's word)."""
    inner = posixpath.dirname(path)[len(folder.folder):].strip("/") if folder.folder else posixpath.dirname(path)
    for word in reversed(inner.split("/") if inner else []):
        if result := result_of(word, folder):
            return result, word
    return "", ""


def result_of(words: str, folder: ProposalFolder) -> str:
    """The result the record's words say (`succeeded`, `Passed (5-2)`, `Failed.`): the records file's own words
    first, then the usual ones; "" where they name none."""
    said = clean_line(words).strip(" .!*_`")
    for candidate in (said, said.lower(), said.split(" ")[0].lower().strip(".,;:()") if said else ""):
        if candidate in folder.results:
            return folder.results[candidate]
        if candidate in RESULT_WORDS:
            return RESULT_WORDS[candidate]
    return ""


def find_folder(files: list[str], read, outside: list[str]) -> str | None:
    """The folder of a game's proposal files among `files` (the repository's paths at a commit), or None: the
    folder (with the sub-folders named for results, `succeeded/`) whose files named by numbers number the most
    proposals, at least MIN_FILES, and at least MIN_FILES of its first MAX_TRIED show a proposal's fields
    (`read(path)` gives a file's text); never one of `outside` (the rules' paths) or inside one."""
    numbers: dict[str, set[int]] = {}  # each folder's numbers, once MIN_FILES of its files show the fields
    shown: dict[str, int] = {}
    tried: dict[str, int] = {}  # the files read of each folder (a folder of many numbered files, none a proposal's)
    fronted: dict[str, set[str]] = {}  # the endings not text's whose files opened with front matter, by folder
    usual = ProposalFolder("")
    for path in files:
        if (number := name_number(path)) is None:
            continue
        parent = posixpath.dirname(path)
        root = posixpath.dirname(parent) if parent and result_of(posixpath.basename(parent), usual) else parent
        if any(root == place or root.startswith(f"{place}/") or not place for place in outside):
            continue
        if not is_text_name(path):  # (a name of another kind counts once its files showed front matter)
            kind = posixpath.splitext(path)[1].lower()
            if kind not in fronted.setdefault(root, set()):
                if tried.get(root, 0) >= MAX_TRIED or not opens_with_front_matter(read(path) or ""):
                    tried[root] = tried.get(root, 0) + 1
                    continue
                fronted[root].add(kind)
        numbers.setdefault(root, set()).add(number)
        if shown.get(root, 0) < MIN_FILES and tried.get(root, 0) < MAX_TRIED:
            tried[root] = tried.get(root, 0) + 1
            shown[root] = shown.get(root, 0) + _shows_fields(read(path) or "")
    counted = {root: len(found) for root, found in numbers.items() if shown.get(root, 0) >= MIN_FILES}
    found = [root for root, count in counted.items() if count >= MIN_FILES]
    # (the most files, then a folder named for proposals, then the name's order: the same every time)
    return min(found, key=lambda root: (-counted[root], "propos" not in root.lower(), root), default=None)


def _shows_fields(text: str) -> bool:
    """Whether a file opens as a proposal's does: a proposer or a result among the fields at its top."""
    fields, _, _ = _fields(text)
    return any(name in PROPOSER_FIELDS or name in RESULT_FIELDS for name, _, _ in fields)


def _fields(text: str) -> tuple[list[tuple[str, str, int]], list[str], int]:
    """The fields at a file's top, each (its name in lower case, its value, its 1-based line): its front matter's,
    or the lines `Name: value` among its first headings; with the headings' texts and the 0-based line where its
    text begins."""
    lines = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    fields: list[tuple[str, str, int]] = []
    headings: list[str] = []
    at = 0
    try:
        front = front_matter("", text)
    except RulesetImportError:
        front = None
    if front is not None:
        keys, at, key_lines = front
        # (every value a string, or a list of them: the reader of front matter makes nothing else of a scalar)
        fields += [(_field_name(str(key)), short_title(", ".join(map(str, value)) if isinstance(value, list)
                                                            else str(value))[0], key_lines.get(key, 1))
                   for key, value in keys.items() if isinstance(value, (str, list))]
    while at < len(lines):
        line = lines[at]
        if not line.strip():
            at += 1
        elif (m := _HEADING.fullmatch(line)) or at + 1 < len(lines) and _UNDERLINE.fullmatch(lines[at + 1]) and \
                lines[at + 1].strip() and not _FIELD.fullmatch(line):
            headings.append(m.group(1) if m else line.strip())
            at += 1 if m else 2
        elif (m := _FIELD.fullmatch(line) or _BYLINE.fullmatch(line)) and m.group(2):
            fields.append((_field_name(m.group(1)), short_title(m.group(2))[0], at + 1))
            at += 1
        else:
            break
    return fields, headings, at


def _field_name(name: str) -> str:
    """A field's name as the usual names are written: lower case, words apart (`proposed-by`, `Vote_closed`)."""
    return " ".join(name.lower().replace("-", " ").replace("_", " ").split())


def read_proposal(path: str, text: str, folder: ProposalFolder) -> FiledProposal | None:
    """The proposal a file records (None where its name and heading number none), with what it could not take as
    it stands. Its result: its sub-folder's and its result field's; where one says it was decided and the other
    not (a Status left at `voting` in `succeeded/`), the decided one; where they name two results, the folder's
    (where the keeper moved it), each said."""
    fields, headings, body = _fields(text)
    notes: list[tuple[int, str]] = []
    number = name_number(path)
    heading_number = next(((int(m.group(1)), m.group(2)) for heading in headings
                           if (m := _HEADING_NUMBER.fullmatch(clean_line(heading).strip("*_ ")))), None)
    if number is None and heading_number is None:
        return None
    if number is None:
        number = heading_number[0]
    elif heading_number is not None and heading_number[0] != number:
        notes.append((1, f"its heading numbers it {heading_number[0]}, its name {number}: read as {number}, "
                         "as its name says"))

    def value(names: tuple[str, ...]) -> tuple[str, int]:
        return next(((said, line) for name in names for key, said, line in fields if key == name), ("", 0))

    proposer, proposer_line = value(folder.proposer)
    said, result_line = value(folder.result)
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    end, closing = _text_end(lines, body, folder)
    if not said and closing:
        said, result_line = closing
    from_field = result_of(said, folder) if said else ""
    from_folder, word = folder_result(path, folder)
    if said and not from_field:
        notes.append((result_line, f"its result '{said}' is not one the import knows: read as undecided (the "
                                   "records file's proposals.results names it)"))
    result, line = from_folder or from_field, result_line or 1
    if from_folder and from_field and from_folder != from_field:
        if from_field == "undecided" or from_folder != "undecided":
            notes.append((result_line, f"it says '{said}', its folder {word}/: read as {from_folder}, as its folder"))
        else:
            result = from_field
            notes.append((result_line, f"it says '{said}', its folder {word}/ (not yet moved?): read as {result}"))
    said_words = said if result == from_field and said else f"{word}/" if word else said
    decided, decided_line = value(folder.date)
    submitted, _ = value(SUBMITTED_FIELDS)
    day = ""
    for written, at in ((decided, decided_line), (submitted, 0)):
        if written and not day:
            day = _day(written)
            if not day and at:
                notes.append((at, f"'{written}' is not a day the import reads (YYYY-MM-DD)"))
    title = value(TITLE_FIELDS)[0] or (heading_number[1] if heading_number else "")
    # (for ordering: a day's decision after every commit of that day, whose keeper's day may be UTC's day before)
    moment = datetime.datetime.fromisoformat(day).replace(tzinfo=datetime.timezone.utc).timestamp() + 86399 \
        if day else 0.0
    return FiledProposal(Decision(number, proposer, result, said_words, day, moment, (), short_title(title)[0],
                                  text=_own_words(lines[body:end]), source=path, ballots_recorded=False),
                         path, line, tuple(notes), proposer_line)


def _own_words(lines: list[str]) -> str:
    """A proposal's words, from the lines after its file's fields: without a label alone on the first of them
    (`__Proposal:__`), nor the braces alone on their lines that set the words apart (a mailing list's way, `{` ...
    `}`; what follows them, a keeper's note, is kept after the words)."""
    filled = [n for n, line in enumerate(lines) if line.strip()]
    if filled and _WORDS_LABEL.fullmatch(lines[filled[0]]):
        filled = filled[1:]
    words = lines[filled[0]:] if filled else []
    if words and words[0].strip() == "{" and (closed := [n for n, line in enumerate(words) if line.strip() == "}"]):
        held, after = "\n".join(words[1:closed[-1]]).strip("\n"), "\n".join(words[closed[-1] + 1:]).strip("\n")
        return "\n\n".join(part for part in (held, after) if part)
    return "\n".join(words).strip("\n")


def _text_end(lines: list[str], body: int, folder: ProposalFolder) -> tuple[int, tuple[str, int] | None]:
    """Where a proposal's own words end in its file's `lines` (those from `body` on): at a section of its ballots
    (`## Votes`), or at its result written alone on its last line (`*Passed*`); and that result with its 1-based
    line, where the file closes so."""
    last = next((at for at in range(len(lines) - 1, body - 1, -1) if lines[at].strip()), None)
    closing = None
    if last is not None and (m := _CLOSING_RESULT.fullmatch(lines[last])) and result_of(m.group(1), folder) and \
            m.group(1).lower() in (*RESULT_WORDS, *folder.results):
        closing = (m.group(1), last + 1)
    end = next((at for at in range(body, len(lines)) if _BALLOTS_HEADING.fullmatch(lines[at])),
               last if closing else len(lines))
    return end, closing


def _day(written: str) -> str:
    """A record's day as YYYY-MM-DD, "" where it is none the import reads."""
    if m := _ISO_DAY.search(written):
        try:
            return datetime.date(int(m.group(1)), int(m.group(2)), int(m.group(3))).isoformat()
        except ValueError:
            return ""
    for form in _WRITTEN_DAY:
        try:
            return datetime.datetime.strptime(written.strip(), form).date().isoformat()
        except ValueError:
            continue
    return ""


def read_folder(files: list[tuple[str, str]], folder: ProposalFolder
                ) -> tuple[list[FiledProposal], list[tuple[str, int, str]]]:
    """The proposals of a folder's files (path, text), in number order, and what was left out or not taken as it
    stands, each (path, line, words): a file that numbers none; a second file numbering a proposal another does
    (the first by path is read); a proposer written in another case than more files write them (`renning` where
    others write `Renning`: one player, a guess)."""
    read: dict[int, FiledProposal] = {}
    said: list[tuple[str, int, str]] = []
    for path, text in sorted(files):
        filed = read_proposal(path, text, folder)
        if filed is None:
            said.append((path, 0, "left out: neither its name nor its heading numbers a proposal"))
        elif filed.number in read:
            said.append((path, 1, f"left out: proposal {filed.number} again ({read[filed.number].path} is read)"))
        else:
            read[filed.number] = filed
            said += [(path, line, words) for line, words in filed.notes]
    written = Counter(filed.decision.proposer for filed in read.values() if filed.decision.proposer)
    for number, filed in read.items():
        if not filed.decision.proposer:
            continue  # (a file naming nobody: nothing to write otherwise)
        alike = [name for name in written if name.casefold() == filed.decision.proposer.casefold()]
        if (usual := max(alike, key=lambda name: (written[name], name))) != filed.decision.proposer and \
                written[usual] > written[filed.decision.proposer]:
            said.append((filed.path, filed.proposer_line, f"its author '{filed.decision.proposer}' read as {usual}, "
                                                          f"as {written[usual]} other files write the name (a guess)"))
            read[number] = dataclasses.replace(filed, decision=dataclasses.replace(filed.decision, proposer=usual))
    return [read[number] for number in sorted(read)], said

