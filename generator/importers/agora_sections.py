"""The sections of Agora's FLR over time, as game.toml's `[[sections]]` write them: from each arrangement the
Rulekeepor's index had (the day it held from, its sections' titles, notes and rules), the fewest section tables,
each with the days it held (`from`, `until`), in an order that is each day's order.

An index changes at every enactment (the new rule added to a section); the rules a report prints are those in
force, so a section that only gained or lost rules is one table holding them all. A table ends where its section
is gone, its note or title changed, a rule it holds moved to another section (the two end), or the order of the
sections changed around it.
"""
from __future__ import annotations

import difflib
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


def section_spans(arrangements: list[tuple[str, Arrangement]], ever: set[int]) -> list[SectionSpan]:
    """The tables for `arrangements` (each (ISO day it holds from, sections), in order of days), holding only
    rules that were ever in force (`ever`): a table that holds at the end keeps the rules it held before, which
    a report of the end does not print (they are not in force)."""
    order: list[SectionSpan] = []  # every table, in the file's order
    open_: dict[tuple[str, str], SectionSpan] = {}
    holders: dict[int, list[SectionSpan]] = {}  # each rule's tables

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
    return order


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
    instead; a new table goes just after the one before it in the arrangement (the first, before the next one
    placed, else last)."""
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
        if at:
            where = order.index(out[at - 1]) + 1
        else:  # before the next one placed, else after all (the file reads in order of days)
            where = next((placed[id(later)] for later in out if id(later) in placed), len(order))
        order.insert(where, span)
        placed = {id(item): n for n, item in enumerate(order)}
    return out


def _increasing(positions: list[int]) -> set[int]:
    """The longest increasing run (not necessarily contiguous) of `positions`."""
    best: list[list[int]] = []
    for position in positions:
        chain = max((run for run in best if run[-1] < position), key=len, default=[])
        best.append(chain + [position])
    return set(max(best, key=len, default=[]))
