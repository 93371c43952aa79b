"""A Solitaire Nomic log: `## Turn N` entries, each with one `Action:` line.

The headings, key paragraphs, bodies, dates and claims are read as the standard log reads them (parse/log.py);
this module reads the turn heading and the action.
"""
from __future__ import annotations

import re

from markdown_it.token import Token

from ..errors import ErrorCollector
from ..model import Source
from ..model.solitaire import Action, Turn
from .log import _read_date, _read_keys, _read_scores, _read_winner, entry_body
from .source import NumberTooLarge, read_int, shorten

_TURN = re.compile(r"^Turn\s+#?(\S+?)(?:\s*[:.\u2013\u2014-]\s*(.*))?$", re.IGNORECASE)
TURN_KEYS = ("action", "date", "scores", "winner", "note")

_NUMBER = r"(?:rule\s+)?([0-9]+)"  # ASCII digits (\d would take other scripts' digits too), read by read_int
_TRANSMUTE = re.compile(rf"^transmute\s+{_NUMBER}\s+(?:to|as)\s+{_NUMBER}\s*\.?$", re.IGNORECASE)
_SUBSUME = re.compile(rf"^subsume\s+{_NUMBER}\s+into\s+{_NUMBER}\s*\.?$", re.IGNORECASE)
_DIVIDE = re.compile(rf"^divide\s+{_NUMBER}\s+as\s+{_NUMBER}\s*\.?$", re.IGNORECASE)
_MUTATE = re.compile(rf"^mutate\s+{_NUMBER}\s*:\s*(.*)$", re.IGNORECASE)
_QUOTED = r"(?:\"([^\"]*)\"|\u201c([^\u201d]*)\u201d)"
_EDIT = re.compile(rf"\s*{_QUOTED}\s*(?:->|\u2192)\s*{_QUOTED}\s*")
_SEPARATOR = re.compile(r"(?:,|;|and\b)\s*", re.IGNORECASE)

ACTION_EXAMPLES = ("transmute 12 to 20", 'mutate 21: "old words" -> "new words"', "subsume 22 into 21",
                   "divide 21 as 23")


def read_turn(file: str, lines: list[str], tokens: list[Token], index: int, heading: Token,
              blocks: list[tuple[int, Token]], end_line: int, errors: ErrorCollector) -> Turn | None:
    """One `## Turn N` entry (parse/log.py's EntryReader)."""
    heading_text = tokens[index + 1].content.strip()
    line = heading.map[0] + 1
    source = Source(file, line)
    m = _TURN.match(heading_text)
    if m is None:
        errors.add(file, line, f"'## {heading_text}' is not a turn: the headings of a solitaire log are "
                   "'## Turn 1', '## Turn 2', ...")
        return None
    number: int | None = None
    try:
        number = read_int(m.group(1))
    except NumberTooLarge as error:
        errors.add(file, line, f"turn number '{shorten(m.group(1))}': {error}")
    except ValueError:  # '²' passes isdigit() but not int()
        errors.add(file, line, f"turn number '{shorten(m.group(1))}' is not a positive whole number")
    if number is not None and number < 1:
        errors.add(file, line, f"turn number '{m.group(1)}' is not a positive whole number")
    keys = _read_keys(file, tokens, blocks, TURN_KEYS, "turn", errors)
    body, _ = entry_body(lines, heading, keys, end_line)
    written = keys.one("action")
    action = None
    if written is None or not written[0]:
        errors.add(file, line, f"turn {m.group(1)} has no Action (write e.g. 'Action: {ACTION_EXAMPLES[0]}')")
    else:
        action = read_action(written[0], Source(file, written[1]), errors)
    return Turn(title=(m.group(2) or "").strip(), number=number or 0, action=action,
                date=_read_date(file, keys, "turn", source, errors, draft=True)[0],  # a turn's Date is optional
                source=source, body=body, notes=tuple(value for value, _ in keys.all("note")),
                scores=_read_scores(file, keys, errors), winner=_read_winner(file, keys, errors))


def read_action(text: str, source: Source, errors: ErrorCollector) -> Action | None:
    """The `Action:` value; every malformed action is an error at its line."""
    text = text.strip()
    try:
        return _read_action(text, source, errors)
    except NumberTooLarge as error:
        errors.add(source.file, source.line, f"'Action: {shorten(text)}': {error}")
        return None


def _read_action(text: str, source: Source, errors: ErrorCollector) -> Action | None:
    """Raises NumberTooLarge for a rule number past the cap."""
    if m := _TRANSMUTE.match(text):
        return Action("transmute", source, text, rule=read_int(m.group(1)), number=read_int(m.group(2)))
    if m := _SUBSUME.match(text):
        return Action("subsume", source, text, rule=read_int(m.group(2)), subsumed=read_int(m.group(1)))
    if m := _DIVIDE.match(text):
        return Action("divide", source, text, rule=read_int(m.group(1)), number=read_int(m.group(2)))
    if m := _MUTATE.match(text):
        edits = _read_edits(m.group(2))
        if edits is None:
            errors.add(source.file, source.line, f"cannot read the words of '{text}' (write "
                       f"'{ACTION_EXAMPLES[1]}', or two pairs: '\"a\" -> \"b\" and \"c\" -> \"d\"')")
            return None
        if any(not old.strip() for old, _ in edits):
            errors.add(source.file, source.line, "a mutation must quote the words it replaces (to insert words, "
                       "quote a neighbour: '\"rules\" -> \"rules and\"')")
            return None
        return Action("mutate", source, text, rule=read_int(m.group(1)), edits=edits)
    errors.add(source.file, source.line, f"cannot read the action '{text}'; an action reads like "
               + ", ".join(f"'{example}'" for example in ACTION_EXAMPLES))
    return None


def _read_edits(text: str) -> tuple[tuple[str, str], ...] | None:
    edits: list[tuple[str, str]] = []
    text = text.rstrip()
    text = text[:-1] if text.endswith(".") else text  # a full stop after the last quote
    position = 0
    while True:
        m = _EDIT.match(text, position)
        if m is None:
            return None
        old = m.group(1) if m.group(1) is not None else m.group(2)
        new = m.group(3) if m.group(3) is not None else m.group(4)
        edits.append((old, new))
        position = m.end()
        if position == len(text):
            return tuple(edits)
        separator = _SEPARATOR.match(text, position)
        if separator is None:
            return None
        position = separator.end()
