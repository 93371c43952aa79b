"""A replay seen rule by rule and entry by entry: the indices every page of a game's site reads.

Built once per game in linear time, so no page has to search the whole history again. The rules' part
(`RuleIndex`) is made from the replay's versions alone, so that a replay whose versions are those of the one
before (an edit that changed no rule) takes the same index.
"""
from __future__ import annotations

import functools
from operator import attrgetter
from dataclasses import dataclass, field

from ..engine.replay import Replay, Step
from ..engine.rulebook import RuleVersion
from ..model import Proposal


@dataclass(frozen=True)
class Revision:
    """One step of a rule's history: the version before (None when created) and after (None when repealed)."""

    before: RuleVersion | None
    after: RuleVersion | None
    index: int | None  # of the entry that made it (its step: GameHistory.step_of); None for the initial set

    @property
    def renumbered(self) -> bool:
        return bool(self.before and self.after and self.before.number != self.after.number)


@dataclass
class RuleHistory:
    identity: int
    versions: list[RuleVersion] = field(default_factory=list)

    @property
    def last(self) -> RuleVersion:
        return self.versions[-1]

    @property
    def repealed(self) -> bool:
        return self.last.end is not None

    @functools.cached_property
    def lineage(self) -> list[int]:
        """The numbers the rule had, in order (read after its history is whole: pages ask for it many times)."""
        numbers: list[int] = []
        for version in self.versions:
            if not numbers or numbers[-1] != version.number:
                numbers.append(version.number)
        return numbers


class RuleIndex:
    """The replay's versions by rule, by the entry that made them and by the number that names each rule's page:
    made from the versions alone. `before`, an index of other versions (the replay before an edit's): a rule
    whose versions are equal to those it had there keeps its history and revisions, which are made from them
    alone."""

    def __init__(self, versions: tuple[RuleVersion, ...], before: RuleIndex | None = None):
        by_rule: dict[int, list[RuleVersion]] = {}
        for version in versions:
            by_rule.setdefault(version.identity, []).append(version)
        kept = before.rules if before is not None else {}
        self.rules: dict[int, RuleHistory] = {}
        self.revisions_by_rule: dict[int, list[Revision]] = {}
        for identity, own in by_rule.items():
            own.sort(key=_start)  # (a replay's are in order of start already: this costs a look)
            history = kept.get(identity)
            if history is not None and history.versions == own:
                self.rules[identity], self.revisions_by_rule[identity] = history, before.revisions_by_rule[identity]
            else:
                self.rules[identity] = history = RuleHistory(identity, own)
                self.revisions_by_rule[identity] = _revisions(history)
        self.revisions_by_step: dict[int, list[Revision]] = {}
        for revisions in self.revisions_by_rule.values():
            for revision in revisions:
                if revision.index is not None:
                    self.revisions_by_step.setdefault(revision.index, []).append(revision)
        for revisions in self.revisions_by_step.values():
            if len(revisions) > 1:
                revisions.sort(key=_revision_number)
        self.page_number = self._page_numbers()
        self.starting_at, self.ending_at = _by_start_and_end(versions)
        self._old_numbers: dict[int, int] | None = None
        self._in_force: list[RuleVersion] | None = None
        self._in_order: list[int] | None = None
        # Each version's place in its rule's history, by (identity, start).
        self.ordinal = {(v.identity, v.start): n for h in self.rules.values() for n, v in enumerate(h.versions)}

    def _page_numbers(self) -> dict[int, str]:
        """The page name of each rule: its present (or last) number; a repealed rule whose number another
        rule took later gets the number and a suffix."""
        pages: dict[int, str] = {}
        taken: set[str] = set()
        for history in sorted(self.rules.values(), key=lambda h: (h.repealed, -(h.last.start))):
            name = str(history.last.number)
            suffix = 2
            while name in taken:
                name, suffix = f"{history.last.number}-{suffix}", suffix + 1
            pages[history.identity] = name
            taken.add(name)
        return pages

    def old_numbers(self) -> dict[int, int]:
        """Every number a rule once had that names no page of its own: number -> the rule's identity."""
        if self._old_numbers is None:
            self._old_numbers = self._find_old_numbers()
        return self._old_numbers

    def _find_old_numbers(self) -> dict[int, int]:
        taken = set(self.page_number.values())
        redirects: dict[int, int] = {}
        for history in self.rules.values():
            for number in history.lineage[:-1]:
                if str(number) not in taken:
                    redirects.setdefault(number, history.identity)
        return redirects

    def starting(self, index: int) -> list[RuleVersion]:
        """The versions that came into force just after entry `index` (-1: the initial set)."""
        return self.starting_at.get(index, [])

    def in_force(self) -> list[RuleVersion]:
        """The rules in force after the last entry, by number: a list of the caller's own, sorted once per history
        (each rebuild's plan asks several times)."""
        if self._in_force is None:
            self._in_force = sorted((h.last for h in self.rules.values() if not h.repealed), key=lambda v: v.number)
        return list(self._in_force)

    def rules_in_order(self) -> list[int]:
        """Every rule's identity: those in force by number, then the repealed by their last number. Sorted once
        per history."""
        if self._in_order is None:
            self._in_order = [identity for identity, _ in sorted(self.rules.items(),
                                                                 key=lambda kv: (kv[1].repealed, kv[1].last.number))]
        return self._in_order

    def repealed(self) -> list[RuleHistory]:
        return sorted((h for h in self.rules.values() if h.repealed), key=lambda h: h.last.end or 0)


class GameHistory:
    """A replay's indices: its rules' (`RuleIndex`, taken as it is from a replay of the same versions) and its
    proposals' steps."""

    def __init__(self, replay: Replay, rules: RuleIndex | None = None):
        self.replay = replay
        self._cursor, self._live = -2, {}  # (rules_at's sweep: of this history, as the index is shared)
        self.index = rules if rules is not None else RuleIndex(replay.versions)
        self.rules, self.page_number, self.ordinal = self.index.rules, self.index.page_number, self.index.ordinal
        self.revisions_by_step, self.revisions_by_rule = self.index.revisions_by_step, self.index.revisions_by_rule
        self.old_numbers, self.starting, self.in_force = self.index.old_numbers, self.index.starting, self.index.in_force
        self.rules_in_order, self.repealed = self.index.rules_in_order, self.index.repealed
        self.proposal_steps = _proposal_steps(replay.steps)

    def rules_at(self, index: int) -> list[RuleVersion]:
        """The rules in force just after entry `index` (-1: the initial set), by number.

        A cursor sweeps forward from the last call, so pages asking in log order cost linear time in all
        (Replay.rules_at scans every version, fine once but quadratic per entry). After the last entry: the rules
        in force, without a sweep."""
        if index >= len(self.replay.steps) - 1:
            return self.in_force()
        if index < self._cursor:
            self._cursor, self._live = -2, {}
        while self._cursor < index:
            self._cursor += 1
            for version in self.index.ending_at.get(self._cursor, ()):
                self._live.pop(version.identity, None)
            for version in self.index.starting_at.get(self._cursor, ()):
                if version.end is None or version.end > self._cursor:
                    self._live[version.identity] = version
        return sorted(self._live.values(), key=lambda v: v.number)

    def step_of(self, revision: Revision) -> Step | None:
        """The step of the entry that made `revision` (None: the initial set)."""
        return None if revision.index is None else self.replay.steps[revision.index]


_start = attrgetter("start")


def _revision_number(revision: Revision) -> int:
    return (revision.after or revision.before).number


def _proposal_steps(steps: tuple[Step, ...]) -> list[Step]:
    return [step for step in steps if isinstance(step.entry, Proposal)]


def _by_start_and_end(versions: list[RuleVersion]) -> tuple[dict[int, list[RuleVersion]], dict[int, list[RuleVersion]]]:
    """The versions that came into force just after each entry, and those that left."""
    starting: dict[int, list[RuleVersion]] = {}
    ending: dict[int, list[RuleVersion]] = {}
    for version in versions:
        starting.setdefault(version.start, []).append(version)
        if version.end is not None:
            ending.setdefault(version.end, []).append(version)
    return starting, ending


def _revisions(history: RuleHistory) -> list[Revision]:
    """A rule's revisions, in order: each version from the one before, and each repeal (one followed by a
    re-enactment too: the rule was out of force between them)."""
    revisions, before = [], None
    for version in history.versions:
        if before is not None and before.end is not None and before.end != version.start:
            revisions.append(Revision(before, None, before.end))
        revisions.append(Revision(before, version, version.start if version.start >= 0 else None))
        before = version
    if history.repealed:
        revisions.append(Revision(history.last, None, history.last.end))
    return revisions


