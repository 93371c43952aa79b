"""rules.md and snapshots: Markdown headings to a Ruleset, each rule with its file and line."""
from __future__ import annotations

import datetime as dt
import difflib
import functools
import re
from fractions import Fraction

from ..errors import ErrorCollector, SourceError
from ..limits import MAX_RULE_CHARS
from ..model import Rule, RuleClass, Ruleset, Source
from ..model.names import invisible_problem, label_problem
from .source import (FENCE, NumberTooLarge, closes_fence, markdown, read_int, read_written_decimal, shorten, slice_lines,
                     unquote)

_RULE_HEADING = re.compile(r"^(\S+?)(?:\s*[.:]\s*(.*)|\s+(.*))?$")
_SNAPSHOT_AFTER = re.compile(r"^After:\s*proposal\s+(\S+)\s*$", re.IGNORECASE)
_SNAPSHOT_DATE = re.compile(r"^Date:\s*(\S+)\s*$", re.IGNORECASE)
_SNAPSHOT_BEHIND = re.compile(r"^Behind:\s*(.*)$", re.IGNORECASE)


def heading_class(text: str) -> RuleClass | None:
    lowered = text.lower()
    if "immutable" in lowered:
        return "immutable"
    if "mutable" in lowered:
        return "mutable"
    return None


def misspelt_class(text: str) -> str | None:
    """The class a level-2 heading seems to mean by a word spelt close to it ("Imutable"), or None: such a heading
    is an error, where one that names no class at all starts rules of no recorded class (format 1.3)."""
    for word in re.findall(r"[a-z]+", text.lower()):
        if close := difflib.get_close_matches(word, ("immutable", "mutable"), n=1, cutoff=0.8):
            return close[0]
    return None


def parse_rule_heading(text: str) -> tuple[int | None, str]:
    """`101`, `102. Initial status`, `103: Title` -> (number, title); number None when it is not a whole number
    (format 1.3: 0 is one). Raises NumberTooLarge for a number past the cap."""
    m = _RULE_HEADING.match(text.strip())
    if not m:
        return None, ""
    head = m.group(1).rstrip(".:")
    title = (m.group(2) or m.group(3) or "").strip()
    try:
        number = read_int(head)
    except NumberTooLarge:
        raise
    except ValueError:
        return None, title
    return (number, title) if number >= 0 else (None, title)


_POWER_LINE = re.compile(r"^Power:(.*)$", re.IGNORECASE)  # the value stripped after: a lazy one backtracks
_HISTORY_LINE = re.compile(r"^History:(.*)$", re.IGNORECASE)
_REVISION_LINE = re.compile(r"^Revision:(.*)$", re.IGNORECASE)
_ANNOTATION = re.compile(r"^Annotation:(.*)$", re.IGNORECASE)
_LABEL_LINE = re.compile(r"^Label:(.*)$", re.IGNORECASE)


def _read_label(lines: list[str], first: int, end: int, number: int, file: str,
                errors: ErrorCollector) -> tuple[str, int]:
    """The `Label: 4E83` line that may open a rule's body, before all others: the record's own name for the
    rule, shown beside its number; and where the rest starts."""
    at = _first_text_line(lines, first, end)
    if at >= end or not (m := _LABEL_LINE.match(lines[at])):
        return "", first
    label = m.group(1).strip()
    if problem := label_problem(label):
        errors.add(file, at + 1, f"rule {number}: {problem}")
        return "", at + 1
    return label, at + 1


def _read_revision(lines: list[str], first: int, end: int, number: int, file: str,
                   errors: ErrorCollector) -> tuple[int | None, int]:
    """The `Revision: 12` line (format 1.2) that may open a rule's body, after its power; and where the rest
    starts."""
    at = next((i for i in range(first, end) if lines[i].strip()), first)
    if at >= end or not (m := _REVISION_LINE.match(lines[at])):
        return None, first
    value = m.group(1).strip()
    try:
        return read_int(value), at + 1
    except NumberTooLarge as error:
        errors.add(file, at + 1, f"rule {number}'s revision '{shorten(value)}': {error}")
    except ValueError:
        errors.add(file, at + 1, f"rule {number}'s revision '{shorten(value)}' must be a whole number, like "
                   "'Revision: 12'")
    return None, at + 1


def _read_history(lines: list[str], first: int, end: int, number: int, file: str,
                  errors: ErrorCollector) -> tuple[tuple[str, ...], int]:
    """The `History:` lines (format 1.2) that open a rule's body, after its power and revision; and where its
    text starts. A `Revision:` line right after them is out of order (it would be taken for text): an error."""
    history = []
    at = first
    while at < end and (not lines[at].strip() or (m := _HISTORY_LINE.match(lines[at]))):
        if lines[at].strip():
            history.append(m.group(1).strip())
        at += 1
    if history and at < end and _REVISION_LINE.match(lines[at]):
        errors.add(file, at + 1, f"rule {number}'s 'Revision:' line comes after its 'History:' lines: write it "
                   "before them (the order is 'Power:', 'Revision:', then 'History:')")
    return (tuple(history), at) if history else ((), first)


def _split_annotations(lines: list[str], first: int, end: int, file: str
                       ) -> tuple[int, tuple[tuple[str, Source], ...]]:
    """Where a rule's text ends, and the `Annotation:` paragraphs after it (format 1.2): each to the next blank
    line, or the blockquote after a bare `Annotation:`. Not inside a fenced block."""
    fence = None
    for at in range(first, end):
        line = lines[at]
        if fence:
            fence = None if closes_fence(line, fence) else fence
        elif m := FENCE.match(line):
            fence = m.group(1)
        elif _ANNOTATION.match(line) and (at == first or not lines[at - 1].strip()):
            return at, _annotations(lines, at, end, file)
    return end, ()


def _annotations(lines: list[str], at: int, end: int, file: str) -> tuple[tuple[str, Source], ...]:
    found = []
    while at < end:
        m = _ANNOTATION.match(lines[at])
        if not m:
            at += 1
            continue
        start, text, at = at, [m.group(1).strip()], at + 1
        while at < end and lines[at].strip() and not _ANNOTATION.match(lines[at]):
            text.append(lines[at])
            at += 1
        if not text[0] and len(text) == 1:  # a bare `Annotation:`: the blockquote after it
            while at < end and not lines[at].strip():
                at += 1
            quoted = at
            while at < end and lines[at].startswith(">"):
                at += 1
            text = [unquote(lines[quoted:at])]
        found.append(("\n".join(part for part in text if part).strip(), Source(file, start + 1)))
    return tuple(item for item in found if item[0])


def _read_power_line(lines: list[str], first: int, end: int, number: int, file: str, heading_line: int,
                     errors: ErrorCollector) -> tuple[Fraction | None, int]:
    """The `Power: 1.5` line that opens a rule's body (format 1.1); returns the power and where the text starts."""
    m = _POWER_LINE.match(lines[first]) if first < end else None
    if not m:
        errors.add(file, heading_line, f"rule {number} has no power: with rules.power = true its first line must be "
                   "'Power: 1.0' (any decimal)")
        return None, first
    value = m.group(1).strip()
    try:
        return read_written_decimal(value), first + 1
    except NumberTooLarge as error:
        errors.add(file, first + 1, f"rule {number}'s power '{shorten(value)}': {error}")
    except ValueError:
        errors.add(file, first + 1, f"rule {number}'s power '{shorten(value)}' must be a decimal, like 'Power: 1.5'")
    return None, first + 1


def parse_ruleset(text: str, file: str, errors: ErrorCollector, *, snapshot: bool = False,
                  power: bool = False) -> Ruleset:
    """`power` (format 1.1, rules.power): each rule's body starts with a `Power:` line, which is not text.
    Cached by the text (a Ruleset is immutable): `serve` re-reads a game's rules and snapshots at every save."""
    ruleset, found = _parse_ruleset(text, file, snapshot, power)
    errors.extend(list(found))
    return ruleset


@functools.lru_cache(maxsize=64)
def _parse_ruleset(text: str, file: str, snapshot: bool, power: bool) -> tuple[Ruleset, tuple[SourceError, ...]]:
    errors = ErrorCollector()
    return _read_ruleset(text, file, errors, snapshot=snapshot, power=power), tuple(errors.errors)


def _read_ruleset(text: str, file: str, errors: ErrorCollector, *, snapshot: bool, power: bool) -> Ruleset:
    reader = _RulesetReader(text.split("\n"), file, errors, power)
    tokens = markdown().parse(text)
    for index, token in enumerate(tokens):
        if token.level != 0 or token.map is None:
            continue
        if token.type == "heading_open":
            reader.heading(token.tag, tokens[index + 1].content.strip(), token.map)
        elif snapshot and not reader.seen_heading and token.type == "paragraph_open":
            reader.snapshot_lines(tokens[index + 1].content, token.map[0])
    return reader.ruleset(snapshot)


class _RulesetReader:
    """rules.md (or a snapshot) read heading by heading: the title, the class sections, the topics (format 1.3),
    each rule closed (its body read) when the next heading or the end comes, and a snapshot's header lines."""

    def __init__(self, lines: list[str], file: str, errors: ErrorCollector, power: bool):
        self.lines, self.file, self.errors, self.power = lines, file, errors, power
        self.title = ""
        self.after_proposal: int | None = None
        self.as_of: dt.date | None = None
        self.behind = ""
        self.current_class: RuleClass | None = None
        self.rules: list[Rule] = []
        self.first_seen: dict[int, int] = {}
        self.labelled: dict[str, tuple[int, int]] = {}  # each label's rule and its heading's line
        self.open_rule: tuple[int, str, RuleClass, int] | None = None  # number, title, class, heading line (0-based)
        self.seen_heading = False
        self.titled = False  # the first level-1 heading is the title; a later one is a topic (format 1.3)
        self.topic: str | None = None
        self.topic_of: dict[int, str] = {}  # a rule's topic, where one is over it

    def heading(self, tag: str, text: str, lines: list[int]) -> None:
        line = lines[0]
        if tag == "h1" and not self.seen_heading and not self.titled:
            self.title, self.titled = text, True
            return
        self.seen_heading = True
        if tag == "h1":  # format 1.3: a topic, grouping the rules under it; it ends the rule before it
            self.close(line)
            self.topic = text
        elif tag == "h2":
            self.close(line)
            self.current_class = self._section_class(text, line)
        elif tag == "h3":
            self.close(line)
            self._open_rule(text, line, lines[1] - 1)

    def _section_class(self, text: str, line: int) -> RuleClass | None:
        """The class of the rules under a level-2 heading: 'unrecorded' when it names none (format 1.3); None
        when it seems to misspell one (an error, and each rule under it is outside a class section)."""
        found = heading_class(text)
        if found is None and (meant := misspelt_class(text)):
            self.errors.add(self.file, line + 1, f"section '{text}': did you mean '{meant}'? (a level-2 heading says "
                            "'Immutable' or 'Mutable', or names no class for rules of no recorded class, as "
                            "'## Rules')")
            return None
        return found or "unrecorded"

    def _open_rule(self, text: str, line: int, last_heading_line: int) -> None:
        """A level-3 heading: the rule it starts (read when closed), unless the heading is wrong."""
        file, errors = self.file, self.errors
        try:
            number, rule_title = parse_rule_heading(text)
        except NumberTooLarge as error:
            errors.add(file, line + 1, f"rule heading '{shorten(text)}': {error}")
            return
        if number is None:
            errors.add(file, line + 1, f"rule heading '{text}' does not start with a whole number")
            return
        if self.current_class is None:
            errors.add(file, line + 1, f"rule {number} is outside a class section "
                       "(put it under '## Immutable Rules', '## Mutable Rules', or '## Rules' when its "
                       "class is not recorded)")
            return
        if number in self.first_seen:
            errors.add(file, line + 1, f"rule {number} appears twice (first at line {self.first_seen[number]})")
            return
        if problem := invisible_problem(rule_title, "title"):  # U+202E would turn it round on every page
            errors.add(file, line + 1, f"rule {number}: {problem}")
        self.first_seen[number] = line + 1
        if self.topic is not None:
            self.topic_of[number] = self.topic
        self.open_rule = (number, rule_title, self.current_class, last_heading_line)

    def close(self, end: int) -> None:
        """The open rule, if any, read from its heading to `end`: label, power, revision, history, text,
        annotations."""
        if self.open_rule is None:
            return
        lines, file, errors = self.lines, self.file, self.errors
        number, rule_title, rule_class, start = self.open_rule
        self.open_rule = None
        label, body_start = _read_label(lines, start + 1, end, number, file, errors)
        if label and (other := self.labelled.setdefault(label, (number, start + 1))) != (number, start + 1):
            errors.add(file, body_start, f"rule {number}'s label '{label}' is rule {other[0]}'s too (line {other[1]}): "
                       "a label names one rule")
        rule_power = None
        if self.power:
            text_start = _first_text_line(lines, body_start, end)
            rule_power, body_start = _read_power_line(lines, text_start, end, number, file, start + 1, errors)
        revision, body_start = _read_revision(lines, body_start, end, number, file, errors)
        history, body_start = _read_history(lines, body_start, end, number, file, errors)
        text_start = _first_text_line(lines, body_start, end)
        if (rule_power is not None or revision is not None or history) and text_start < end \
                and _LABEL_LINE.match(lines[text_start]):  # (it would be taken for text)
            errors.add(file, text_start + 1, f"rule {number}'s 'Label:' line comes after its other lines: write it "
                       "first (the order is 'Label:', 'Power:', 'Revision:', then 'History:')")
        end, annotations = _split_annotations(lines, body_start, end, file)
        text = slice_lines(lines, body_start, end)
        if len(text) > MAX_RULE_CHARS:
            errors.add(file, start + 1, f"rule {number}'s text is {len(text):,} characters long; a rule's text "
                       f"may hold at most {MAX_RULE_CHARS:,}")
            return
        self.rules.append(Rule(number, rule_class, rule_title, text, Source(file, start + 1),
                               text_line=text_start + 1, power=rule_power, history=history,
                               annotations=annotations, revision=revision, label=label))

    def snapshot_lines(self, paragraph: str, first: int) -> None:
        """A paragraph before a snapshot's first heading: its `After:`, `Date:` and `Behind:` lines."""
        file, errors = self.file, self.errors
        for offset, raw in enumerate(paragraph.split("\n")):
            line_number = first + offset + 1
            if m := _SNAPSHOT_AFTER.match(raw.strip()):
                try:
                    self.after_proposal = read_int(m.group(1))
                except NumberTooLarge as error:
                    errors.add(file, line_number, f"'After: proposal {shorten(m.group(1))}': {error}")
                except ValueError:
                    errors.add(file, line_number, f"'After: proposal {shorten(m.group(1))}' needs a proposal number")
            elif m := _SNAPSHOT_BEHIND.match(raw.strip()):
                self.behind = m.group(1).strip()
                if not self.behind:
                    errors.add(file, line_number, "'Behind:' is empty: it says why the record here lagged what "
                               "the log says took effect")
            elif m := _SNAPSHOT_DATE.match(raw.strip()):
                try:
                    self.as_of = dt.date.fromisoformat(m.group(1))
                except ValueError:
                    errors.add(file, line_number, f"'{m.group(1)}' is not a date like 2005-04-02")

    def ruleset(self, snapshot: bool) -> Ruleset:
        """The rules read, the last closed at the end of the file; the problems of the whole file reported."""
        file, errors = self.file, self.errors
        self.close(len(self.lines))
        if snapshot and self.after_proposal is None and self.as_of is None:
            errors.add(file, 1, "a snapshot must say where it stands: a line 'After: proposal 312' or "
                       "'Date: 2005-04-02' before its first heading")
        if not self.rules and not errors.errors:
            errors.add(file, 1, "no rules found (a rule is a level-3 heading '### 101' under '## Immutable Rules' "
                       "or '## Mutable Rules')")
        topics: dict[str, list[int]] = {}  # each topic's rules, by number, in the file's order
        for rule in self.rules:
            if rule.number in self.topic_of:
                topics.setdefault(self.topic_of[rule.number], []).append(rule.number)
        return Ruleset(title=self.title, rules=tuple(self.rules), source=Source(file, 1),
                       after_proposal=self.after_proposal, as_of=self.as_of, behind=self.behind,
                       topics=tuple((name, tuple(numbers)) for name, numbers in topics.items()))


def _first_text_line(lines: list[str], first: int, end: int) -> int:
    """The first line from `first` on, before `end`, that is not blank (`first` when there is none)."""
    return next((i for i in range(first, end) if lines[i].strip()), first)
