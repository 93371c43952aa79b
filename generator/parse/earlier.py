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
import re

from markdown_it.token import Token

from ..errors import ErrorCollector
from ..model import EarlierProposal, Source
from ..model.names import invisible_problem
from .log import POWER_MUST_BE, PROPOSAL_HEADING, LogParser, entry_body, parse_log, read_result_value, split_names
from .source import day_written_otherwise, read_decimal, read_key_number, read_keys, read_number, shorten

EARLIER_KEYS = ("proposer", "co-authors", "date", "power", "result", "note")
# How an unknown key's message names the entry it is on.
_KIND = "proposal of earlier.md, which records the proposer, co-authors, date, power, result and notes"
_DATE = re.compile(r"^[0-9]{4}(?:-[0-9]{2}(?:-[0-9]{2})?)?$")


def parse_earlier(file: str, text: str, errors: ErrorCollector, parser: LogParser | None = None
                  ) -> tuple[EarlierProposal, ...]:
    """Each proposal of earlier.md, by number; every problem at its line. Its entries are cut, and their headings,
    key paragraphs and bodies read, as the log's (parse_log); `parser`, as parse_log's."""
    _, proposals = parse_log([(file, text)], errors, read_entry=read_earlier_proposal, parser=parser)
    found: dict[int, EarlierProposal] = {}
    for proposal in proposals:
        if (other := found.get(proposal.number)) is not None:
            errors.add(file, proposal.source.line, f"proposal {proposal.number} is recorded twice (first at line "
                       f"{other.source.line}): earlier.md holds each number once")
            continue
        found[proposal.number] = proposal
    return tuple(found[number] for number in sorted(found))


def read_earlier_proposal(file: str, lines: list[str], tokens: list[Token], index: int, heading: Token,
                          blocks: list[tuple[int, Token]], end_line: int, errors: ErrorCollector
                          ) -> EarlierProposal | None:
    """One `## Proposal 1234: Title` entry of earlier.md (parse/log.py's EntryReader)."""
    text, line = tokens[index + 1].content.strip(), heading.map[0] + 1
    heading_match = PROPOSAL_HEADING.match(text)
    if heading_match is None:
        errors.add(file, line, f"'## {shorten(text)}' is not a proposal: earlier.md holds entries headed "
                   "'## Proposal 1234: Title'")
        return None
    number = read_number(file, line, heading_match.group(1), "proposal", errors)
    keys = read_keys(file, tokens, blocks, EARLIER_KEYS, _KIND, errors, repeatable=("note",))
    if number is None:
        return None
    body, _ = entry_body(lines, heading, keys, end_line)
    coauthors = keys.one("co-authors")
    power = keys.one("power")
    result = keys.one("result")
    return EarlierProposal(
        number=number, title=(heading_match.group(2) or "").strip(), source=Source(file, line),
        proposer=_name(file, keys.one("proposer"), errors),
        coauthors=tuple(_name(file, (name, coauthors[1]), errors) for name in split_names(coauthors[0]))
        if coauthors else (),
        date=_date(file, keys.one("date"), errors),
        power=power[0] if power and read_key_number(file, power, "power", read_decimal, POWER_MUST_BE, errors)
        is not None else "",
        result=(result and read_result_value(file, result, errors)) or "",
        notes=tuple(value for value, _ in keys.all("note")), text=body)


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
    errors.add(file, line, f"'{shorten(value)}' is not a date like 1995-01-12 (or a month, 1995-01, or a year, 1995)"
               f"{day_written_otherwise(value)}")
    return ""

