"""Player text on a terminal: nothing in it may drive the terminal or break a message's line.

Rule text, titles and names are written by players. Printed raw, an escape sequence in them could recolour
the screen, move the cursor or clear it, and a bidirectional override could make `file:line` read as
another; a line break inside a message would split `file:line: message` in two. Every command that prints
player text (check, diff, preview --text, the error messages) passes it through here.
"""
from __future__ import annotations

import re

# C0 and C1 controls but tab and line feed, and the bidirectional embeddings, overrides and isolates.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_LINE_BREAK = re.compile(r"\r\n|[\n\r\x0b\x0c\x85\u2028\u2029]")
# A message quoting a whole line of player text stays readable: its middle is cut, its start and its
# hint (how to write it) are kept.
MAX_MESSAGE_CHARS = 1000
_CUT = " \u2026 "


def for_terminal(text: str) -> str:
    """Text that may span lines (a redline, a rule): controls shown as U+FFFD, tabs and line feeds kept."""
    return _CONTROL.sub("\ufffd", text)


def one_line(text: str, *, limit: int = MAX_MESSAGE_CHARS) -> str:
    """A message on one line: line breaks shown as `\\n`, other controls as U+FFFD, at most `limit` characters."""
    text = for_terminal(_LINE_BREAK.sub("\\\\n", text))
    if len(text) <= limit:
        return text
    head = (limit - len(_CUT)) * 2 // 3
    tail = limit - len(_CUT) - head
    return text[:head] + _CUT + text[-tail:]


def counted(number: int, noun: str, plural: str | None = None) -> str:
    """`1 game`, `2,000 pages`, `3 discrepancies`."""
    return f"{number:,} {noun if number == 1 else plural or noun + 's'}"
