"""The record's word about a change: a history entry as a game's keepers write it (a rule's `History` line, an
entry of a Rulekeepor's YAML), and the crediting of a commit's rule changes to the entries that commit added.

An import reads the rules before and after each commit and so knows what changed; the record says who did it and
why. The two meet here: a change is credited to the entry its commit added to the same rule's history, of the
same kind of change (an amendment to "Amended(2) by Proposal 329 (Alekosen)"), and the entry gives the proposal,
its authors, its date and the rule's revision. A change no added entry accounts for is the importer's to guess
(its commit's subject, the keeper's corrections file), and says so."""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from .flr import free_text_entry
from .text import clean_line

# Who made a change, as a record names it. `number` is the record's own name for it ("8033", "I", "CFJ 4153").
AGENT_KINDS = ("proposal",        # a proposal: "by Proposal 329"
               "rule",            # a rule acting by itself: "by Rule 2430"
               "temporary-rule",  # a rule made by a player under a rule that lets them: "from Temporary Rule 601"
               "judgment",        # a judge's ruling: "by Judgment I", "CFJ 4153"
               "ratification",    # a document ratified: "by ratification of the SLR"
               "cleaning",        # the keeper's correction of spelling or formatting the rules allow
               "initial",         # the rule was in the initial set
               "keeper",          # the keeper, for no reason the record gives
               "unknown")         # the record does not say

# The change kinds the log writes (archive.Change.kind), and "" for a change it does not (a mutation, an assignment).
CHANGE_KINDS = ("enact", "reenact", "amend", "repeal", "retitle", "transmute", "renumber", "power", "annotate")


@dataclass(frozen=True)
class Source:
    """Where the record says it: a file of the repository, the commit it was read at, its line (0: unknown)."""

    file: str
    commit: str = ""
    line: int = 0


@dataclass(frozen=True)
class Agent:
    kind: str                 # one of AGENT_KINDS
    number: str = ""          # the proposal's or rule's or judgment's name in the record, as written: "329", "I"
    words: str = ""           # how the record names it, for a `By:` line: "Temporary Rule 601"


UNKNOWN = Agent("unknown")


@dataclass(frozen=True)
class HistoryEntry:
    """One change in a rule's history, as the record gives it. Two entries are the same entry when all but their
    source are equal: the same line read at two commits is one entry, not one removed and one added."""

    change: str               # one of CHANGE_KINDS, or "" for a change the log does not write
    agent: Agent = UNKNOWN
    authors: tuple[str, ...] = ()   # the proposal's author first, then its co-authors
    date: str | None = None         # YYYY-MM-DD, where the record gives a day
    revision: int | None = None     # the rule's revision the change made ("Amended(2)": 2)
    said: str = ""                  # the record's words, as written, on one line
    source: Source = field(default=Source(""), compare=False)

    @property
    def proposal(self) -> int | None:
        """The number of the proposal that made the change, when the record names one by a number."""
        return int(self.agent.number) if self.agent.kind == "proposal" and self.agent.number.isdigit() else None


# The first words of a history line, and the change they say (longest first where one starts another).
_LINE_CHANGES = (("infected and amended", "amend"), ("null-amended", "amend"), ("re-enacted", "reenact"),
                 ("reenacted", "reenact"), ("power changed", "power"), ("created", "enact"), ("enacted", "enact"),
                 ("initial", "enact"), ("amended", "amend"), ("repealed", "repeal"), ("retitled", "retitle"),
                 ("renamed", "retitle"), ("transmuted", "transmute"), ("renumbered", "renumber"),
                 ("annotated", "annotate"), ("mutated", ""), ("infected", ""))
_REVISION = re.compile(r"^[A-Za-z-]+(?:\s+[A-Za-z-]+)*?\s*\(\s*([0-9]{1,6})\s*\)")
# Who made it: "by Proposal 329", "from Temporary Rule 601", "by Judgment I", "via Rule 2430", "by cleaning"
_AGENT = re.compile(r"\b(?:by|from|via|under|per)\s+(?P<what>(?:temporary\s+rule|proposal|prop\.?|rule|judge?ments?|"
                    r"cfj|ratification(?:\s+of)?|cleaning)\b|p(?=[0-9]))\s*#?\s*(?P<number>[0-9]{1,12}[A-Za-z]?\b|"
                    r"[IVXLCDM]+\b|[A-Z][0-9]*\b)?(?P<people>\s*\((?P<names>[^()]*)\))?", re.IGNORECASE)
_AGENT_KIND = {"temporary rule": "temporary-rule", "proposal": "proposal", "p": "proposal", "prop": "proposal",
               "prop.": "proposal", "rule": "rule", "judgment": "judgment", "judgement": "judgment",
               "judgments": "judgment", "judgements": "judgment", "cfj": "judgment", "ratification": "ratification",
               "ratification of": "ratification", "cleaning": "cleaning"}
# A parenthesis that names no person: a round and turn ("R1T3"), a date, "disi.".
_NOT_A_NAME = re.compile(r"(?:R[0-9]+T[0-9]+|[0-9][0-9 ,./-]*|disi\.?)", re.IGNORECASE)
_MARKUP = re.compile(r"[*_`]+")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")


def plain_words(line: str) -> str:
    """A line of Markdown as its words: a link as its text, emphasis marks gone (`[*Enacted by ...*](url)` is
    `Enacted by ...`), on one line."""
    return clean_line(_MARKUP.sub("", _LINK.sub(r"\1", line)))


def history_entry(line: str, source: Source) -> HistoryEntry:
    """A history line as the record writes it ("Amended (1) by Proposal 329 (Alekosen), Jul 27, 2020 (R5T2)",
    "Created from Temporary Rule 601 (Fenris Wolf), Aug 14, 2020", "Initial immutable Rule 101") as an entry:
    what changed, who did it and who wrote it, the day and the revision, where the line gives them."""
    words = plain_words(line)
    lowered = words.lower()
    change = next((kind for start, kind in _LINE_CHANGES if lowered.startswith(start)), "")
    revision = int(m.group(1)) if (m := _REVISION.match(words)) else None
    agent, authors = UNKNOWN, ()
    if lowered.startswith("initial"):
        agent = Agent("initial")
    elif m := _AGENT.search(words):
        kind = _AGENT_KIND[" ".join(m.group("what").lower().split())]
        number = m.group("number") or ""
        agent = Agent(kind, number, clean_line(words[m.start("what"):m.end("number") if number else m.end("what")]))
        names = [name.strip() for name in re.split(r"[,;]|\band\b", m.group("names") or "") if name.strip()]
        authors = tuple(name for name in names if not _NOT_A_NAME.fullmatch(name))
    return HistoryEntry(change, agent, authors, free_text_entry(words)["date"], revision, words, source)


Entry = TypeVar("Entry")


def added_entries(before: Sequence[Entry], after: Sequence[Entry]) -> list[Entry]:
    """The entries of `after` that `before` lacks, counted as a multiset (a history may say the same words
    twice) and compared by equality (entries need not be hashable: Agora's are dicts of its YAML)."""
    left = list(before)
    added = []
    for entry in after:
        if entry in left:
            left.remove(entry)
        else:
            added.append(entry)
    return added


def credit(changes: Sequence, before: Sequence[Entry] | None, after: Sequence[Entry],
           kind: Callable[[Entry], str] = lambda entry: entry.change) -> Entry | None:
    """The history entry a commit added for `changes` (one rule's changes in one commit, archive.Change), given
    the rule's history before the commit and after it: an added entry of the same kind of change as one of
    them (`kind` reads it), else the first added.

    `before` is None when the record held no history of the rule before the commit (its file, or its section,
    is new): the whole history then arrives at once, and only its last entry, of a kind of the changes, can be
    this commit's."""
    kinds = {change.kind for change in changes}
    if before is None:
        last = list(after)[-1:]
        return last[0] if last and kind(last[0]) in kinds else None
    added = added_entries(before, after)
    return next((entry for entry in added if kind(entry) in kinds), added[0] if added else None)
