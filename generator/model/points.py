"""Points of a game: the one way their names are read, by the site's addresses and pickers (static/points.js,
which takes `SYNTAX` from the points manifest, site/points.py) and by `diff GAME@…` (commands/diff.py).

A point is a moment of the log, the rules standing just after an entry (-1: the initial set), and its name
means one thing wherever it is written:

- `start`: the initial set; `now`: after the last entry.
- a proposal's page name: `312`, the first proposal numbered 312; `312-2`, the second that reused it (the
  pages are named so, `page_names`). `proposal 312` is read as `312`. In a solitaire game, a turn's.
- `judgment-N`: the first judgment numbered N (as the log's anchor `#judgment-N` is); `judgment-cfj-4153`: the
  first judgment named by its case, `CFJ 4153` (format 1.2; its anchor too); `entry-N`: the log's N-th entry,
  whatever it is.
- a date, `2005-04-02`: after the last entry dated on or before it (none: the initial set).
"""
from __future__ import annotations

import datetime as dt
import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from ..limits import MAX_DIGITS

# Each kind of name but `start` and `now`, as a regular expression that Python and JavaScript read alike
# (ASCII digits spelt out: `\d` is every script's digits in Python).
SYNTAX = {
    "proposal": r"^([0-9]+)([a-z]?)(?:-([0-9]+))?$",
    "judgment": r"^judgment-([0-9]+)$",
    "case": r"^judgment-([a-z]+-([0-9]+))$",
    "entry": r"^entry-([0-9]+)$",
    "date": r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$",
}
_SYNTAX = {kind: re.compile(pattern) for kind, pattern in SYNTAX.items()}
HINT = ("a point is start, now, a proposal number (312; 312-2 for the second proposal numbered 312; 8221A for a "
        "decision taken again on proposal 8221), "
        "judgment-N (judgment-cfj-4153 for one named by its case), entry-N (the log's N-th entry) or a date "
        "(2005-04-02)")


@dataclass(frozen=True)
class Point:
    """A point's name, read: its kind and what it counts."""

    kind: str  # start, now, proposal, judgment, case, entry, date
    number: int = 0  # the proposal's, the judgment's, the entry's (from 1)
    use: int = 1  # of a proposal number used more than once: which use (1: the first)
    day: dt.date | None = None
    case: str = ""  # of a judgment named by its case: the case as its name writes it (`cfj-4153`)
    decision: str = ""  # of a proposal: the letter of a decision taken again on it (format 1.2, `8221A`)

    @property
    def name(self) -> str:
        """The name as pages write it: `312` for the first use, `312-2` for the second, `8221A` for a decision
        taken again."""
        if self.kind == "proposal":
            return page_name(f"{self.number}{self.decision}", self.use)
        if self.kind in ("judgment", "entry"):
            return f"{self.kind}-{self.number}"
        if self.kind == "case":
            return f"judgment-{self.case}"
        return self.day.isoformat() if self.day else self.kind


class PointError(ValueError):
    """A name that is no point (the message says what a point is), or a point the log does not have
    (`in_log`)."""

    def __init__(self, message: str, *, in_log: bool = False):
        super().__init__(message)
        self.in_log = in_log


def read_point(text: str) -> Point:
    """A point's name read (see the module's docstring); raises PointError when it is none."""
    name = re.sub(r"^proposal\s+", "", text.strip().lower())
    if name in ("start", "now"):
        return Point(name)
    for kind, pattern in _SYNTAX.items():
        if m := pattern.match(name):
            break
    else:
        raise PointError(f"no such point; {HINT}")
    if kind == "date":
        try:
            return Point("date", day=dt.date.fromisoformat(name))
        except ValueError:
            raise PointError("no such date (a date is written 2005-04-02)") from None
    decision = m.group(2).upper() if kind == "proposal" else ""
    numbers = [g for g in m.groups() if g and not g.isalpha()]
    if kind == "case":
        case, numbers = numbers[0], numbers[1:]
    if any(len(g.lstrip("0")) > MAX_DIGITS for g in numbers):
        raise PointError(f"number too large (at most {MAX_DIGITS} digits)")
    if kind == "case":
        return Point("case", case=case)
    number, use = int(numbers[0]), int(numbers[1]) if len(numbers) > 1 else 1
    if use < 1 or (kind == "entry" and number < 1):
        raise PointError(f"no such point; {HINT}")
    return Point(kind, number, use, decision=decision)


def case_name(case: str) -> str:
    """A judgment's case (`CFJ 4153`) as its point and anchor name it: `cfj-4153`."""
    return "-".join(case.lower().split())


def page_name(number: int | str, use: int = 1) -> str:
    return str(number) if use == 1 else f"{number}-{use}"


def page_names(numbered: Iterable[tuple[int, int]], taken: Collection[str] = ()) -> dict[int, str]:
    """A page name for each (step index, entry number): the number, and `-2`, `-3`... after a number the log
    used before (305, 305-2, ...); `taken`: the names of the proposals before these (the log's first part, named
    before)."""
    names: dict[int, str] = {}
    uses: dict[int, int] = {}
    for index, number in numbered:
        use = uses.get(number)
        if use is None:
            use = 0
            while taken and page_name(number, use + 1) in taken:  # (most lists have none taken: 10,000 strs less)
                use += 1
        uses[number] = use = use + 1
        names[index] = page_name(number, use)
    return names


def point_index(point: Point, entries: Sequence, *, kind: str = "proposal") -> int:
    """The entry after which `point` stands (-1: the initial set), among `entries` (each with `kind`, `number`
    and `date`); `kind`: what a bare number counts (a solitaire game's are turns). Raises PointError when the
    log has no such entry."""
    if point.kind == "start":
        return -1
    if point.kind == "now":
        return len(entries) - 1
    if point.kind == "entry":
        if point.number > len(entries):
            raise PointError(f"{point.name} is not in the log (it has {len(entries)} entries)", in_log=True)
        return point.number - 1
    if point.kind == "date":
        dated = [i for i, entry in enumerate(entries) if entry.date is not None and entry.date <= point.day]
        return dated[-1] if dated else -1
    if point.kind == "case":
        return _case_index(point, entries)
    return _numbered_index(point, entries, kind if point.kind == "proposal" else "judgment")


def _case_index(point: Point, entries: Sequence) -> int:
    """The judgment named by its case (`judgment-cfj-4153`)."""
    found = [i for i, entry in enumerate(entries)
             if entry.kind == "judgment" and case_name(getattr(entry, "case", "")) == point.case]
    if found:
        return found[0]
    raise PointError(f"judgment {point.case.upper().replace('-', ' ')} is not in the log (no judgment is named "
                     f"by that case)", in_log=True)


def _numbered_index(point: Point, entries: Sequence, wanted: str) -> int:
    """The entry of kind `wanted` with the point's number, decision (`8221A`) and use (`301-2`)."""
    # (a judgment named by its case has no number: `judgment-cfj-4153` names it)
    numbered = [(i, entry) for i, entry in enumerate(entries)
                if entry.kind == wanted and not getattr(entry, "case", "")]
    found = [i for i, entry in numbered
             if entry.number == point.number and getattr(entry, "decision", "") == point.decision]
    if len(found) >= point.use:
        return found[point.use - 1]
    if found:
        named = f"{point.number}{point.decision}"
        names = ", ".join(page_name(named, use) for use in range(1, len(found) + 1))
        raise PointError(f"{wanted} {point.name} is not in the log (it has {len(found)} {wanted}"
                         f"{'s' if len(found) > 1 else ''} numbered {named}: {names})", in_log=True)
    if point.decision and any(entry.number == point.number for _, entry in numbered):
        raise PointError(f"{wanted} {point.name} is not in the log (no decision {point.decision} was taken again on "
                         f"{wanted} {point.number})", in_log=True)
    numbers = [entry.number for _, entry in numbered]
    where = f"its {wanted}s run from {min(numbers)} to {max(numbers)}" if numbers else f"it has no {wanted}s"
    raise PointError(f"{wanted} {point.number} is not in the log ({where})", in_log=True)
