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

_CONTROL = re.compile(r"[\x00-\x1f\x7f\u2028\u2029]+")


@dataclass(frozen=True)
class ImportedGame:
    files: dict[str, str]   # path in the game folder -> text
    proposals: int          # proposal entries (decisions) in its log


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


def number_ranges(numbers: list[int]) -> str:
    """[8724, 8725, 8726, 8730] -> "8724-8726, 8730", as `## Unrecorded:` takes them."""
    out: list[str] = []
    ordered = sorted(set(numbers))
    start = previous = ordered[0]
    for number in ordered[1:] + [None]:
        if number is not None and number == previous + 1:
            previous = number
            continue
        out.append(str(start) if start == previous else f"{start}-{previous}")
        if number is not None:
            start = previous = number
    return ", ".join(out)


def toml_string(value: str) -> str:
    """A TOML basic string: JSON's escapes are TOML's, for every character a name can hold."""
    return json.dumps(value, ensure_ascii=False)


def check_new_folder(folder: Path) -> None:
    """An importer writes a whole game: into a new or empty folder only, so that nothing a keeper made is replaced."""
    if os.path.lexists(folder) and (not folder.is_dir() or folder.is_symlink() or any(folder.iterdir())):
        raise ArchiveError([SourceError(str(folder), 0, "already exists and is not an empty folder; an import writes "
                                        "a whole game into a new folder; nothing was written")])
