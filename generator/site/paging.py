"""Long lists cut into parts, a page each (`log.html`, `log-2.html`, ...), and the links between the parts. Below
views.py, so that people.py, which views.py imports, names a player's pages by the same count."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import Any

from ..parse.source import shorten

# A part's link names its first and last items in at most this many characters each: an event's title may list a
# hundred rules (Agora's keepers' corrections), which made the log's links a wall of numbers.
PAGER_LABEL = 60


@lru_cache(maxsize=256)
def parts(count: int, size: int) -> tuple[range, ...]:
    """A list of `count` items cut into parts of `size` (one part, maybe empty, when it is short); one tuple for
    every page of the list, which each holds."""
    return tuple(range(start, min(start + size, count)) for start in range(0, count, size)) or (range(0),)


def part_name(stem: str, part: int, suffix: str = ".html") -> str:
    """`log.html` for the first part of the log, `log-2.html` for the second, ..."""
    return f"{stem}{suffix}" if part == 0 else f"{stem}-{part + 1}{suffix}"


class Pager:
    """Links to every part of a list, each named by its first and last item, the current one marked; made as the
    page is drawn, not when it is listed: every part links to every other, and a build lists every page before it
    draws one (the links of a game of 100,000 entries' parts, a million, took 400 MB). A list `growing` at its end
    (the entries, in the log's order) names its last part by its first item alone ("onwards"), so that an entry
    added to it leaves every part's pager as it was."""

    __slots__ = ("stem", "ranges", "current", "label", "growing")

    def __init__(self, stem: str, ranges: tuple[range, ...] | list[range], current: int, label: Callable[[int], str],
                 *, growing: bool = False):
        self.stem, self.ranges, self.current, self.label, self.growing = stem, ranges, current, label, growing

    def __len__(self) -> int:
        return len(self.ranges) if len(self.ranges) > 1 else 0  # one part: no links

    def __iter__(self) -> Iterator[dict[str, Any]]:
        last = len(self.ranges) - 1
        for part, span in enumerate(self.ranges if last else ()):
            first = _short(self.label(span[0]))
            yield {"url": part_name(self.stem, part), "current": part == self.current,
                   "label": (f"{first} onwards" if self.growing and part == last
                             else f"{first} – {_short(self.label(span[-1]))}" if len(span) > 1 else first)}


def _short(label: str) -> str:
    """An item's label in at most PAGER_LABEL characters, a quoted title (`event '...'`) cut inside its quotes."""
    if len(label) <= PAGER_LABEL:
        return label
    quoted = label.endswith("'")
    return shorten(label[:-1] if quoted else label, PAGER_LABEL - quoted) + ("'" if quoted else "")
