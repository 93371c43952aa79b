"""The Markdown and TOML of an imported game: entries of the log, change paragraphs, game.toml values. Written to
FORMAT.md (format 1.2) as a keeper would write them by hand."""
from __future__ import annotations

import json
import re
import textwrap
from dataclasses import dataclass, field

from ..limits import MAX_FILE_BYTES, MAX_LOG_BYTES, MAX_TOML_LINE_CHARS
from ..model.names import code_points, invisible_escaped, name_problem, normal
from .text import clean_line, escape_markdown, heading_text, short_title, wrap
from ..parse.source import too_large
from ..terminal import one_line


@dataclass(frozen=True)
class Problem:
    """Something in a record that the import could not take as it stands, and what it wrote instead: where it is
    (a file of the repository, the commit or branch it was read at, its line; "" and 0 when unknown)."""

    file: str
    commit: str
    line: int
    message: str

    def __str__(self) -> str:
        """`rules_data/rules/2125 at a7b36670c1, line 25: not YAML: ...` (`commit a7b36670c1: ...` for what a
        commit itself says), on one line whatever the record holds."""
        where = (f"{self.file} at {self.commit[:10]}" if self.file else f"commit {self.commit[:10]}") if self.commit \
            else self.file
        return one_line(f"{where}{f', line {self.line}' if self.line else ''}: {self.message}")


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
    said: list[str] = field(default_factory=list)  # what the import guessed or was told, a line each (IMPORT.md too)


def problems_section(problems: list[Problem]) -> list[str]:
    """IMPORT.md's list of the problems, each as the import said it on standard error."""
    if not problems:
        return []
    return [f"## Problems in the record ({len(problems)})", "",
            "What could not be read as it stands, and what was written instead:", ""] + \
        [f"- {escape_markdown(str(problem))}" for problem in problems] + [""]


@dataclass
class Change:
    """One change paragraph. `text` is the rule's whole Markdown text (enact, reenact, amend), or the note (annotate)."""

    kind: str               # enact | reenact | amend | repeal | retitle | transmute | renumber | power | annotate
    rule: int
    text: str | None = None
    title: str | None = None
    rule_class: str | None = None  # "immutable"/"mutable": of an enactment, or the target of a transmutation
    power: str | None = None
    failed: bool = False
    after: str | None = None       # prose after the paragraph (why it failed, where it came from)
    new_number: int | None = None  # of a renumbering
    # Format 1.4, the record's word on the change: its history line(s), the rule's revision after it, and what
    # was recorded at the time where the record was corrected since.
    history: tuple[str, ...] = ()
    revision: int | None = None
    corrected: str = ""
    place: int | None = None  # its History: line's place in the rule's history, where the log holds it later
    label: str = ""  # the record's own name for the rule from this change on (`4E83`), where it is a new one


@dataclass
class Entry:
    heading: str            # after "## ": "Proposal 12: Title", "Event: ...", "Unrecorded: 303-305"
    keys: list[tuple[str, str]] = field(default_factory=list)
    changes: list[Change] = field(default_factory=list)
    prose: list[str] = field(default_factory=list)  # Markdown paragraphs after the changes
    year: str = ""          # where the log is split by year, the file it goes in


MAX_NAME_CHARS = MAX_TOML_LINE_CHARS // 4  # game.toml lists each name on a line, where escapes double a character


def player_name(raw) -> tuple[str, str | None]:
    """A player's name from a record as game.toml and a Votes line can hold it (model/names.py), with why it was
    written otherwise, if it was: on one line and in NFC (two spellings of one name are one player); a ',' or
    ';', which part names on a Votes line, as a space; each invisible character as its escape (`Bo\\u200bb`: not
    Bob); a last space before x and digits, which a Votes line reads as a ballot's strength, as '-' (`Dave-x3`)."""
    name, clipped = short_title(str(raw), MAX_NAME_CHARS)
    name, why = normal(name), [clipped] if clipped else []
    if "," in name or ";" in name:
        name = " ".join(name.replace(",", " ").replace(";", " ").split())
        why.append("a ',' or ';' parts names on a Votes line")
    name, hidden = invisible_escaped(name)
    if hidden:
        why.append(f"it holds invisible characters ({code_points(hidden)})")
    if not name:
        return "unknown", "it is empty"
    if name_problem(name):  # what is left: a strength at its end
        head, _, strength = name.rpartition(" ")
        name = f"{head}-{strength}"
        why.append("a space, x and digits at its end read as a ballot's strength")
    return name, "; ".join(why) or None


def backtick_run(text: str) -> int:
    """The longest run of backticks in `text`: a code span or fence around it needs a longer one."""
    return max((len(run) for run in re.findall(r"`+", text)), default=0)


def code_span(text: str) -> str:
    """`text` (one line) as a Markdown code span that shows it as it is, backticks and all."""
    ticks = "`" * (backtick_run(text) + 1)
    padded = text[:1] == "`" or text[-1:] == "`" or (text[:1] == " " and text[-1:] == " " and text.strip())
    return f"{ticks} {text} {ticks}" if padded else f"{ticks}{text}{ticks}"


def quote(text: str) -> str:
    """`text` as a blockquote; a line too long for the log's reader broken where it can be (text.wrap), which the
    reader joins again."""
    lines = [wrap(line) or line for line in text.split("\n")]
    return "\n".join(f"> {line}" if line else ">" for line in "\n".join(lines).split("\n"))


def change_paragraph(change: Change) -> str:
    prefix = "Failed: " if change.failed else ""
    power = f"power {change.power} " if change.power is not None else ""
    if change.kind in ("enact", "reenact"):
        verb = "Enact" if change.kind == "enact" else "Reenact"
        kind = "immutable " if change.rule_class == "immutable" else ""
        title = f": {change.title}" if change.title else ""  # as written: the reader takes it so
        head = f"{prefix}{verb} {kind}{power}rule {change.rule}{title}"
        paragraph = head if change.text is None else f"{head}\n\n{quote(change.text)}"
        if change.kind == "reenact" and change.text is None:
            paragraph += "."
    elif change.kind == "amend":
        paragraph = f"{prefix}Amend rule {change.rule} to read:\n\n{quote(change.text or '')}"
    elif change.kind == "repeal":
        paragraph = f"{prefix}Repeal rule {change.rule}."
    elif change.kind == "retitle":
        paragraph = f"{prefix}Retitle rule {change.rule} to \"{change.title or ''}\"."
    elif change.kind == "transmute":
        paragraph = f"{prefix}Transmute rule {change.rule} to {change.rule_class}."
    elif change.kind == "renumber":
        paragraph = f"{prefix}Renumber rule {change.rule} to {change.new_number}."
    elif change.kind == "power":
        paragraph = f"{prefix}Change the power of rule {change.rule} to {change.power}."
    elif change.kind in ("annotate", "unannotate"):
        verb = "Annotate" if change.kind == "annotate" else "Unannotate"
        paragraph = f"{prefix}{verb} rule {change.rule}:\n\n{quote(change.text or '')}"
    else:
        raise ValueError(f"no paragraph for a change of kind {change.kind}")
    record = [f"History: {line}" for line in change.history] + \
        ([f"Revision: {change.revision}"] if change.revision is not None else []) + \
        ([f"Corrected: {change.corrected}"] if change.corrected else []) + \
        ([f"Place: {change.place}"] if change.place is not None else []) + \
        ([f"Label: {change.label}"] if change.label else [])
    return paragraph + ("\n\n" + "\n".join(record) if record else "") + (f"\n\n{change.after}" if change.after else "")


def render_entry(entry: Entry) -> str:
    lines = [f"## {heading_text(entry.heading)}"] + [_key_line(key, value) for key, value in entry.keys]
    parts = ["\n".join(lines)] + [change_paragraph(change) for change in entry.changes] + entry.prose
    return "\n\n".join(parts) + "\n"


def log_parts(header: str, entries: list[Entry]) -> list[str]:
    """The log's text for `entries`, in as many files as it takes for none to pass MAX_LOG_BYTES (a long game's
    whole-text amendments can), each opened by `header`: read in name order, they are one log."""
    parts: list[list[str]] = [[]]
    size = len(header.encode("utf-8"))
    for entry in entries:
        text = render_entry(entry)
        grown = len(text.encode("utf-8")) + 1  # and the blank line between entries
        if parts[-1] and size + grown > MAX_LOG_BYTES:
            parts.append([])
            size = len(header.encode("utf-8"))
        parts[-1].append(text)
        size += grown
    return [header + "\n".join(part) for part in parts]


def too_large_for(text: str, limit: int = MAX_FILE_BYTES) -> str | None:
    """Why `text` cannot be a file that the reader holds to `limit` (a ruleset or a snapshot, by default), or None."""
    size = len(text.encode("utf-8"))
    return too_large(size, limit, "") if size > limit else None


def _key_line(key: str, value: str) -> str:
    """`Key: value`, broken into lines the reader joins where it is longer than a line may be (a Votes line of
    thousands of ballots). Every value is made of words far shorter than a line (names, titles are capped)."""
    line = wrap(f"{key}: {clean_line(value)}")
    if line is None:
        raise ValueError(f"the {key} line has no place to break it")
    return line


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


def toml_numbers(key: str, numbers: list[int]) -> str:
    """`key = [...]` of game.toml, its numbers wrapped as a person would write them: the sections of Agora's index
    hold 1,500 rules over its history, and a number a line cost a sixth of game.toml's cap."""
    listed = ", ".join(map(str, numbers))
    if len(key) + len(listed) <= 95:
        return f"{key} = [{listed}]"
    return f"{key} = [\n" + "".join(f"  {line}\n" for line in textwrap.wrap(listed, 98)) + "]"


def toml_aliases(played_as: dict[str, set[str]], players: list[str]) -> list[str]:
    """game.toml's `[aliases]`: each player's other names in the record, those the import wrote as the player's
    (`played_as`), as git's .mailmap keeps them; none that is a player's own name, or another's alias too."""
    named = set(players)
    claimed: dict[str, int] = {}
    for aliases in played_as.values():
        for alias in aliases:
            claimed[alias] = claimed.get(alias, 0) + 1
    lines = [f"{toml_string(player)} = [{', '.join(toml_string(a) for a in aliases)}]"
             for player in sorted(named & set(played_as), key=lambda n: (n.casefold(), n))
             if (aliases := sorted((a for a in played_as[player] if a not in named and claimed[a] == 1 and a != player),
                                   key=lambda n: (n.casefold(), n)))]
    return ["# The other names each player went by in the record, written here as the player's (as git's .mailmap).",
            "[aliases]", *lines, ""] if lines else []


def toml_players(players: list[str]) -> str:
    """game.toml's `players`, a name a line: a long game's names would pass the length of one of its lines."""
    return "players = [\n" + "".join(f"  {toml_string(player)},\n" for player in players) + "]" if players \
        else "players = []"
