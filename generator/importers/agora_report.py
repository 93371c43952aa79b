"""game.toml's `[report]` of an imported Agora: the Rulekeepor's own templates of the Full and Short Logical
Rulesets and their header (rules_data/config/), so that `nomic-archive ruleset` writes them as his generator does,
and each ratification of the ruleset his header has named, read from the header's history.

His header names the last ratification in words he edits by hand ("Last SLR ratification: 12 Oct 2025 ruleset on
11 May 2026"); here those words become `{ratification}`, filled at any point from `[[report.ratifications]]`. Its
"Date of this ruleset:", which he fills when he publishes one, becomes `{asked}`: the day a report is asked for.
"""
from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

from .archive import toml_string
from .gitread import BlobReader, git, text

CONFIG = "rules_data/config"
HEADERS = (f"{CONFIG}/header", "config/header")  # where the header has been kept
# "Last SLR ratification: 19 Jun 2023 ruleset on 31 Dec 2023" (since 2024-11); before, "Date of last SLR
# ratification: 8 May 2019", whose one date was at times the ruleset's (2023-12-31: "19 June 2023").
_RATIFICATION_LINE = re.compile(r"^(.*\bratification:[ \t]*)(.*?)[ \t]*$", re.IGNORECASE | re.MULTILINE)
# "Date of this ruleset:", which he fills when he publishes: the day a report is asked for (`{asked}`).
_DATE_LINE = re.compile(r"^(Date of this ruleset:)[ \t]*$", re.IGNORECASE | re.MULTILINE)
_BOTH = re.compile(r"(.+?) ruleset on (.+)", re.IGNORECASE)


def has_templates(repo: Path, head: str) -> bool:
    """Whether the repository holds the templates of his reports at `head` (not its layouts before 2020), so that
    game.toml has a `[report]`, and its `[[report.names]]`, to write."""
    with BlobReader(repo) as blobs:
        return all(blobs.read(head, f"{CONFIG}/{name}") is not None for name in ("flr_format", "slr_format"))


def report_toml(repo: Path, head: str, names: list[tuple[str, str, dt.date, dt.date | None]]) -> list[str]:
    """The lines of `[report]` from the templates at `head`, and `names` (the record's name, the report's, from,
    until) as `[[report.names]]`; none when the repository has no such templates (`has_templates`)."""
    with BlobReader(repo) as blobs:
        full, short, header = (blobs.read(head, f"{CONFIG}/{name}") for name in ("flr_format", "slr_format", "header"))
    if full is None or short is None:
        return []
    header = _RATIFICATION_LINE.sub(lambda m: m.group(1) + "{ratification}", header or "", count=1)
    header = _DATE_LINE.sub(lambda m: m.group(1) + " {asked}", header, count=1)
    out = ["", "# The Rulekeepor's reports (rules_data/config/): `nomic-archive ruleset` lays out the rules in force",
           "# at any point as his generator does, and names the last ratification his header had named by then.",
           "[report]", f"full = {_multiline(full)}", f"short = {_multiline(short)}", f"header = {_multiline(header)}"]
    for date, ruleset in ratifications(repo, head):
        out += ["", "[[report.ratifications]]", f"date = {date.isoformat()}"]
        out += [f"ruleset = {ruleset.isoformat()}"] if ruleset else []
    for at, (record, report, since, until) in enumerate(names):
        out += ["", "# The names his reports wrote for names the record gives (name_replacement_data), each from the "
                "day", "# his list first gave it to the day it no longer did: the report of a day names players as "
                "that day's."] if at == 0 else [""]
        out += ["[[report.names]]", f"name = {toml_string(record)}", f"as = {toml_string(report)}",
                f"from = {since.isoformat()}"] + ([f"until = {until.isoformat()}"] if until else [])
    return out


def ratifications(repo: Path, head: str) -> list[tuple[dt.date, dt.date | None]]:
    """Each ratification (its date, and the date of the ruleset ratified where the header said it) the header has
    named in any of its versions up to `head`, by date. A lone date that is either date of a ratification said
    in full is that one."""
    commits = text(git(repo, "log", "--format=%H", head, "--", *HEADERS)).split()
    said: set[tuple[dt.date, dt.date | None]] = set()
    with BlobReader(repo) as blobs:
        for commit in commits:
            for path in HEADERS:
                if (header := blobs.read(commit, path)) and (m := _RATIFICATION_LINE.search(header)):
                    said.add(_read(m.group(2)))
                    break
    said.discard((None, None))
    full = {(date, ruleset) for date, ruleset in said if ruleset}
    known = {day for pair in full for day in pair}
    lone = {(date, None) for date, ruleset in said if not ruleset and date not in known}
    return sorted(full | lone)


def _read(words: str) -> tuple[dt.date | None, dt.date | None]:
    """`12 Oct 2025 ruleset on 11 May 2026` as (11 May 2026, 12 Oct 2025); `8 May 2019` as (that day, None)."""
    if m := _BOTH.fullmatch(words):
        ruleset, date = _day(m.group(1)), _day(m.group(2))
        return (date, ruleset) if date else (None, None)
    return _day(words), None


def _day(words: str) -> dt.date | None:
    for form in ("%d %b %Y", "%d %B %Y", "%Y-%m-%d"):
        try:
            return dt.datetime.strptime(words.strip(), form).date()
        except ValueError:
            continue
    return None


def _multiline(value: str) -> str:
    """A TOML string that reads as the file does: a literal multi-line string (its first line break is TOML's), or
    a basic string where the text holds what a literal one cannot."""
    if "'''" in value or any(ord(c) < 32 and c not in "\n\t" for c in value):
        return toml_string(value)
    return f"'''\n{value}'''"
