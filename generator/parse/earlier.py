"""earlier.md (format 1.4): the proposals a game knows only from its record, from before its log begins. Each is
an entry like a log proposal's, `## Proposal 1234: Title` and a paragraph of keys, then the record's own words;
nothing in it is replayed, so it holds no ballots and no changes.

    ## Proposal 1234: Free the rules
    Proposer: Ann
    Co-authors: Bo, Cy
    Date: 1995-01-12
    Power: 1.0

    What the record says of it, in Markdown."""
from __future__ import annotations

import datetime as dt
import difflib
import re

from ..errors import ErrorCollector
from ..model import RESULTS, EarlierProposal, Source
from ..model.names import invisible_problem
from .log import split_entries, split_names
from .source import NumberTooLarge, read_decimal, read_int, shorten

EARLIER_KEYS = ("proposer", "co-authors", "date", "power", "result", "note")
_HEADING = re.compile(r"^##[ \t]+Proposal[ \t]+#?([^\s:]+)[ \t]*(?::[ \t]*(.*?))?[ \t]*$", re.IGNORECASE)
_KEY = re.compile(r"^([A-Za-z][A-Za-z-]*)[ \t]*:[ \t]*(.*?)[ \t]*$")
_DATE = re.compile(r"^[0-9]{4}(?:-[0-9]{2}(?:-[0-9]{2})?)?$")


def parse_earlier(file: str, text: str, errors: ErrorCollector) -> tuple[EarlierProposal, ...]:
    """Each proposal of earlier.md, by number; every problem at its line."""
    _, chunks = split_entries(text)
    found: dict[int, EarlierProposal] = {}
    for first, chunk in chunks:
        proposal = _read_proposal(file, first, chunk.split("\n"), errors)
        if proposal is None:
            continue
        if (other := found.get(proposal.number)) is not None:
            errors.add(file, proposal.source.line, f"proposal {proposal.number} is recorded twice (first at line "
                       f"{other.source.line}): earlier.md holds each number once")
            continue
        found[proposal.number] = proposal
    return tuple(found[number] for number in sorted(found))


def _read_proposal(file: str, first: int, lines: list[str], errors: ErrorCollector) -> EarlierProposal | None:
    line = first + 1
    heading = _HEADING.match(lines[0])
    if heading is None:
        errors.add(file, line, f"'{shorten(lines[0])}' is not a proposal: earlier.md holds entries headed "
                   "'## Proposal 1234: Title'")
        return None
    try:
        number = read_int(heading.group(1))
    except NumberTooLarge as error:
        errors.add(file, line, f"proposal '{shorten(heading.group(1))}': {error}")
        return None
    except ValueError:
        errors.add(file, line, f"'{shorten(heading.group(1))}' is not a proposal number (write '## Proposal 1234: "
                   "Title')")
        return None
    keys: dict[str, tuple[str, int]] = {}
    notes: list[str] = []
    at = 1
    while at < len(lines) and (key := _KEY.match(lines[at])):
        name, value, where = key.group(1).lower(), key.group(2), first + at + 1
        at += 1
        if name not in EARLIER_KEYS:
            close = difflib.get_close_matches(name, EARLIER_KEYS, n=1, cutoff=0.7)
            errors.add(file, where, f"unknown key '{key.group(1)}' on a proposal of earlier.md"
                       + (f" (did you mean '{close[0].capitalize()}'?)" if close else "")
                       + ": it records the proposer, co-authors, date, power, result and notes; the rest is text")
        elif name == "note":
            notes.append(value)
        elif name in keys:
            errors.add(file, where, f"'{key.group(1)}' appears twice (first at line {keys[name][1]})")
        else:
            keys[name] = (value, where)
    text = "\n".join(lines[at:]).strip("\n")
    proposer = _name(file, keys.get("proposer"), errors)
    coauthors = keys.get("co-authors")
    return EarlierProposal(
        number=number, title=(heading.group(2) or "").strip(), source=Source(file, line), proposer=proposer,
        coauthors=tuple(_name(file, (name, coauthors[1]), errors) for name in split_names(coauthors[0]))
        if coauthors else (),
        date=_date(file, keys.get("date"), errors), power=_power(file, keys.get("power"), errors),
        result=_result(file, keys.get("result"), errors), notes=tuple(notes), text=text)


def _name(file: str, found: tuple[str, int] | None, errors: ErrorCollector) -> str:
    if found is None:
        return ""
    if problem := invisible_problem(found[0]):
        errors.add(file, found[1], problem)
    return found[0]


def _date(file: str, found: tuple[str, int] | None, errors: ErrorCollector) -> str:
    """A date as the record knows it: a day, a month or a year (`1995-01-12`, `1995-01`, `1995`)."""
    if found is None:
        return ""
    value, line = found
    try:
        if _DATE.match(value):
            dt.date.fromisoformat((value + "-01-01")[:10])
            return value
    except ValueError:
        pass
    errors.add(file, line, f"'{shorten(value)}' is not a date like 1995-01-12 (or a month, 1995-01, or a year, 1995)")
    return ""


def _power(file: str, found: tuple[str, int] | None, errors: ErrorCollector) -> str:
    if found is None:
        return ""
    try:
        read_decimal(found[0])
        return found[0]
    except NumberTooLarge as error:
        errors.add(file, found[1], f"power '{shorten(found[0])}': {error}")
    except ValueError:
        errors.add(file, found[1], f"'Power: {shorten(found[0])}' is not a power (write 'Power: 2' or 'Power: 1.5')")
    return ""


def _result(file: str, found: tuple[str, int] | None, errors: ErrorCollector) -> str:
    if found is None:
        return ""
    if found[0].lower() not in RESULTS:
        errors.add(file, found[1], f"'Result: {shorten(found[0])}' is not a result (one of {', '.join(RESULTS)})")
        return ""
    return found[0].lower()
