"""Long lists cut into parts, a page each (`log.html`, `log-2.html`, ...), and the links between the parts. Below
views.py, so that people.py, which views.py imports, names a player's pages by the same count."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any


def parts(count: int, size: int) -> list[range]:
    """A list of `count` items cut into parts of `size` (one part, maybe empty, when it is short)."""
    return [range(start, min(start + size, count)) for start in range(0, count, size)] or [range(0)]


def part_name(stem: str, part: int, suffix: str = ".html") -> str:
    """`log.html` for the first part of the log, `log-2.html` for the second, ..."""
    return f"{stem}{suffix}" if part == 0 else f"{stem}-{part + 1}{suffix}"


def pager(stem: str, ranges: list[range], current: int, label: Callable[[int], str], *,
          growing: bool = False) -> list[dict[str, Any]]:
    """Links to every part of a list, each named by its first and last item, the current one marked. A list
    `growing` at its end (the entries, in the log's order) names its last part by its first item alone
    ("onwards"), so that an entry added to it leaves every part's pager as it was."""
    if len(ranges) < 2:
        return []
    return [{"url": part_name(stem, part), "current": part == current,
             "label": (f"{label(span[0])} onwards" if growing and part == len(ranges) - 1
                       else f"{label(span[0])} – {label(span[-1])}" if len(span) > 1 else label(span[0]))}
            for part, span in enumerate(ranges)]
