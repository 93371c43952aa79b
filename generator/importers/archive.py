"""The Markdown and TOML of an imported game: entries of the log, change paragraphs, game.toml values, and the
folder they go to. Written to FORMAT.md (format 1.2) as a keeper would write them by hand."""
from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import ArchiveError, SourceError
from ..parse.importer import escape_heading, escape_markdown
from ..terminal import one_line

_CONTROL = re.compile(r"[\x00-\x1f\x7f\u2028\u2029]+")


@dataclass(frozen=True)
class Problem:
    """Something in a record that the import could not take as it stands, and what it wrote instead: where it is
    (a file of the repository, the commit or branch it was read at, its line; "" and 0 when unknown)."""

    file: str
    commit: str
    line: int
    message: str

    def __str__(self) -> str:
        """`rules_data/rules/2125 at a7b36670c1, line 25: not YAML: ...`, on one line whatever the record holds."""
        where = self.file + (f" at {self.commit[:10]}" if self.commit else "") + (f", line {self.line}" if self.line
                                                                                  else "")
        return one_line(f"{where}: {self.message}")


class ImportRefused(Exception):
    """Nothing usable could be read (a repository of the wrong kind, no rules at all, a YAML bomb): exit 2, at
    `where`, after the problems found on the way."""

    def __init__(self, where: str, message: str, problems: list[Problem] | None = None):
        super().__init__(message)
        self.where = where
        self.problems = problems or []


@dataclass(frozen=True)
class ImportedGame:
    files: dict[str, str]   # path in the game folder -> text
    proposals: int          # proposal entries (decisions) in its log
    problems: list[Problem]  # each also listed in the game's IMPORT.md


def problems_section(problems: list[Problem]) -> list[str]:
    """IMPORT.md's list of the problems, each as the import said it on standard error."""
    if not problems:
        return []
    return [f"## Problems in the record ({len(problems)})", "",
            "What could not be read as it stands, and what was written instead:", ""] + \
        [f"- {escape_markdown(str(problem))}" for problem in problems] + [""]


@dataclass
class Change:
    """One change paragraph. `text` is the rule's whole Markdown text (enact, reenact, amend)."""

    kind: str               # enact | reenact | amend | repeal | retitle | transmute | power
    rule: int
    text: str | None = None
    title: str | None = None
    rule_class: str | None = None  # "immutable"/"mutable": of an enactment, or the target of a transmutation
    power: str | None = None
    failed: bool = False
    after: str | None = None       # prose after the paragraph (why it failed, where it came from)


@dataclass
class Entry:
    heading: str            # after "## ": "Proposal 12: Title", "Event: ...", "Unrecorded: 303-305"
    keys: list[tuple[str, str]] = field(default_factory=list)
    changes: list[Change] = field(default_factory=list)
    prose: list[str] = field(default_factory=list)  # Markdown paragraphs after the changes
    year: str = ""          # where the log is split by year, the file it goes in


def clean_line(value: str) -> str:
    """A value for one `Key: value` line or heading: no line breaks or control characters from the source."""
    return " ".join(_CONTROL.sub(" ", value).split())


def quote(text: str) -> str:
    return "\n".join(f"> {line}" if line else ">" for line in text.split("\n"))


def change_paragraph(change: Change) -> str:
    prefix = "Failed: " if change.failed else ""
    power = f"power {change.power} " if change.power is not None else ""
    if change.kind in ("enact", "reenact"):
        verb = "Enact" if change.kind == "enact" else "Reenact"
        kind = "immutable " if change.rule_class == "immutable" else ""
        title = f": {escape_heading(clean_line(change.title))}" if change.title else ""
        head = f"{prefix}{verb} {kind}{power}rule {change.rule}{title}"
        paragraph = head if change.text is None else f"{head}\n\n{quote(change.text)}"
        if change.kind == "reenact" and change.text is None:
            paragraph += "."
    elif change.kind == "amend":
        paragraph = f"{prefix}Amend rule {change.rule} to read:\n\n{quote(change.text or '')}"
    elif change.kind == "repeal":
        paragraph = f"{prefix}Repeal rule {change.rule}."
    elif change.kind == "retitle":
        paragraph = f"{prefix}Retitle rule {change.rule} to \"{escape_markdown(clean_line(change.title or ''))}\"."
    elif change.kind == "transmute":
        paragraph = f"{prefix}Transmute rule {change.rule} to {change.rule_class}."
    elif change.kind == "power":
        paragraph = f"{prefix}Change the power of rule {change.rule} to {change.power}."
    else:
        raise ValueError(f"no paragraph for a change of kind {change.kind}")
    return paragraph + (f"\n\n{change.after}" if change.after else "")


def render_entry(entry: Entry) -> str:
    lines = [f"## {entry.heading}"] + [f"{key}: {value}" for key, value in entry.keys]
    parts = ["\n".join(lines)] + [change_paragraph(change) for change in entry.changes] + entry.prose
    return "\n\n".join(parts) + "\n"


Runs = list[tuple[int, int]]  # numbers as runs, lowest first: [(8724, 8726), (8730, 8730)]


def runs(numbers) -> Runs:
    """[8724, 8725, 8726, 8730] -> [(8724, 8726), (8730, 8730)]."""
    out: Runs = []
    for number in sorted(set(numbers)):
        if out and number == out[-1][1] + 1:
            out[-1] = (out[-1][0], number)
        else:
            out.append((number, number))
    return out


def gaps(used: set[int], low: int, high: int) -> Runs:
    """The runs of the numbers from `low` to `high` that `used` lacks: in time linear in `used`, however far apart
    its numbers lie (a record's highest may be 10^12)."""
    out: Runs = []
    expected = low
    for number in sorted(n for n in used if low <= n <= high) + [high + 1]:
        if number > expected:
            out.append((expected, number - 1))
        expected = number + 1
    return out


def runs_below(pending: Runs, number: int) -> tuple[Runs, Runs]:
    """`pending` split into its numbers below `number` and the rest."""
    below = [(low, min(high, number - 1)) for low, high in pending if low < number]
    return below, [(max(low, number), high) for low, high in pending if high >= number]


def number_ranges(numbers: Runs) -> str:
    """[(8724, 8726), (8730, 8730)] -> "8724-8726, 8730", as `## Unrecorded:` takes them."""
    return ", ".join(str(low) if low == high else f"{low}-{high}" for low, high in numbers)


def toml_string(value: str) -> str:
    """A TOML basic string: JSON's escapes are TOML's, for every character a name can hold."""
    return json.dumps(value, ensure_ascii=False)


def check_new_folder(folder: Path) -> None:
    """An importer writes a whole game: into a new or empty folder only, so that nothing a keeper made is replaced."""
    if os.path.lexists(folder) and (not folder.is_dir() or folder.is_symlink() or any(folder.iterdir())):
        raise ArchiveError([SourceError(str(folder), 0, "already exists and is not an empty folder; an import writes "
                                        "a whole game into a new folder; nothing was written")])
