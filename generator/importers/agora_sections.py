"""The sections of Agora's FLR over time, as game.toml's `[[sections]]` write them: from each arrangement the
Rulekeepor's index had (the day it held from, its sections' titles, notes and rules), the fewest section tables,
each with the days it held (`from`, `until`), in an order that is each day's order.

An index changes at every enactment (the new rule added to a section); the rules a report prints are those in
force, so a section that only gained rules is one table holding them all. A table ends where its section is gone,
its note or title changed, a rule it holds moved to another section (the two end), or the order of the sections
changed around it; and where a rule left its section (repealed) and the log does not have it in force either (his
index may be a day off the log, or leave out a rule whose repeal the record struck since): a table holds the rules
the index gave its section on its days, those the log has in force then, and those it gains later (not yet in
force), so that a report of any day prints what it would with tables that kept every rule they held. The tables
that hold at the end are the index as he keeps it.
"""
from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass

Arrangement = list[tuple[str, str, list[int]]]  # (title, note, rules) in the index's order


@dataclass(eq=False)
class SectionSpan:
    """One `[[sections]]` table: a section as it was from `since` (ISO; "" from the start) to the day before
    `until` ("": to the end)."""

    title: str
    note: str
    rules: list[int]
    since: str
    until: str = ""


def section_spans(arrangements: list[tuple[str, Arrangement]], ever: set[int],
                  in_force: Callable[[int, str, str], bool] = lambda rule, since, until: False) -> list[SectionSpan]:
    """The tables for `arrangements` (each (ISO day it holds from, sections), in order of days), holding only
    rules that were ever in force (`ever`); `in_force(rule, since, until)`: whether the log has the rule in force
    on a day from `since` to the day before `until` (ISO, "": from the start, to the end), by default never."""
    order: list[SectionSpan] = []  # every table, in the file's order
    open_: dict[tuple[str, str], SectionSpan] = {}
    holders: dict[int, list[SectionSpan]] = {}  # each rule's tables
    held: list[tuple[str, dict[tuple[str, str], set[int]]]] = []  # each arrangement's day and its sections' rules

    def open_span(key: tuple[str, str], rules: list[int], day: str) -> SectionSpan:
        span = SectionSpan(key[0], key[1], list(rules), day)
        for rule in rules:
            holders.setdefault(rule, []).append(span)
        return span

    for number, (day, sections) in enumerate(arrangements):
        since = "" if number == 0 else day
        current: list[tuple[tuple[str, str], list[int]]] = []
        where: dict[int, tuple[str, str]] = {}
        for title, note, rules in sections:
            key = (title, note)
            if key in dict(current):
                continue  # (a section named twice: the first stands, as the report shows it)
            members = [rule for rule in dict.fromkeys(rules) if rule in ever and rule not in where]
            where.update(dict.fromkeys(members, key))
            current.append((key, members))
        spans: list[SectionSpan] = []
        for key, members in current:
            span = open_.get(key)
            if span is None or not _fits(span, key, members, where, holders):
                if span is not None:
                    span.until = since
                span = open_span(key, members, since)
            else:
                added = [rule for rule in members if rule not in span.rules]
                span.rules = _merged(span.rules, members)
                for rule in added:
                    holders.setdefault(rule, []).append(span)
            spans.append(span)
        for key, span in list(open_.items()):
            if span not in spans:
                span.until = since
        spans = _in_order(spans, order, since, open_span)
        open_ = {(span.title, span.note): span for span in spans}
        held.append((since, {key: set(members) for key, members in current}))
    return [part for span in order for part in _parts(span, held, in_force)]


def _parts(span: SectionSpan, held: list[tuple[str, dict[tuple[str, str], set[int]]]],
           in_force: Callable[[int, str, str], bool]) -> list[SectionSpan]:
    """A table cut where a rule left it: between two changes of the index, the table holds the rules its section
    held or the log has in force then; a part goes on while the next holds every rule it holds (it only gains
    rules: on its days it holds those too, which are not in force then), and ends where one goes. So each day's
    report prints what the whole table gave it."""
    key = (span.title, span.note)
    days = [since for since, _ in held if span.since <= since and (not span.until or since < span.until)]
    parts: list[SectionSpan] = []
    for since, until in zip(days, days[1:] + [span.until]):
        listed = next(sections[key] for day, sections in held if day == since)
        rules = [rule for rule in span.rules if rule in listed or in_force(rule, since, until)]
        if parts and set(parts[-1].rules) <= set(rules):
            parts[-1].rules, parts[-1].until = rules, until
        else:
            parts.append(SectionSpan(span.title, span.note, rules, since, until))
    return parts


def _fits(span: SectionSpan, key: tuple[str, str], members: list[int], where: dict[int, tuple[str, str]],
          holders: dict[int, list[SectionSpan]]) -> bool:
    """Whether a section's open table can hold its rules now too: none of its rules is in another section now,
    none of those it gains was in another table while this one held, and the rules both hold keep their order."""
    if any(where.get(rule, key) != key for rule in span.rules):
        return False
    held = set(span.rules)
    for rule in members:
        if rule not in held and any(other is not span and (not other.until or other.until > span.since)
                                    for other in holders.get(rule, ())):
            return False
    common = held.intersection(members)
    return [rule for rule in span.rules if rule in common] == [rule for rule in members if rule in common]


def _merged(before: list[int], now: list[int]) -> list[int]:
    """Both lists' rules in one list that keeps each one's order (their common rules are in the same order)."""
    out: list[int] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, before, now, autojunk=False).get_opcodes():
        out += before[i1:i2]
        if op != "equal":
            out += [rule for rule in now[j1:j2] if rule not in before]
    return out


def _in_order(spans: list[SectionSpan], order: list[SectionSpan], since: str, open_span) -> list[SectionSpan]:
    """Place the tables of one day's arrangement in the file's order so that those holding on that day come in
    the arrangement's order: a table already placed out of that order ends, and a copy from that day is placed
    instead; a new table goes just before the next one of the arrangement already placed, else last: after the
    tables that ended (the file reads in order of days)."""
    placed = {id(span): at for at, span in enumerate(order)}
    positions = [placed.get(id(span)) for span in spans]
    keep = _increasing([p for p in positions if p is not None])
    out: list[SectionSpan] = []
    for span, position in zip(spans, positions):
        if position is not None and position not in keep:
            span.until = since
            span = open_span((span.title, span.note), span.rules, since)
        out.append(span)
    for at, span in enumerate(out):
        if id(span) in placed:
            continue
        order.insert(next((placed[id(later)] for later in out[at + 1:] if id(later) in placed), len(order)), span)
        placed = {id(item): n for n, item in enumerate(order)}
    return out


def _increasing(positions: list[int]) -> set[int]:
    """The longest increasing run (not necessarily contiguous) of `positions`."""
    best: list[list[int]] = []
    for position in positions:
        chain = max((run for run in best if run[-1] < position), key=len, default=[])
        best.append(chain + [position])
    return set(max(best, key=len, default=[]))
