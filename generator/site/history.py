"""A replay seen rule by rule and entry by entry: the indices every page of a game's site reads.

Built once per game in linear time, so no page has to search the whole history again.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field

from ..engine.replay import Replay, Step
from ..engine.rulebook import RuleVersion
from ..model import Proposal


@dataclass(frozen=True)
class Revision:
    """One step of a rule's history: the version before (None when created) and after (None when repealed)."""

    before: RuleVersion | None
    after: RuleVersion | None
    step: Step | None  # None for the initial set

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


class GameHistory:
    def __init__(self, replay: Replay):
        self.replay = replay
        self.rules: dict[int, RuleHistory] = {}
        for version in replay.versions:
            self.rules.setdefault(version.identity, RuleHistory(version.identity)).versions.append(version)
        for history in self.rules.values():
            history.versions.sort(key=lambda v: v.start)
        self.revisions_by_step: dict[int, list[Revision]] = {}
        self.revisions_by_rule: dict[int, list[Revision]] = {}
        for history in self.rules.values():
            self.revisions_by_rule[history.identity] = revisions = _revisions(history, replay.steps)
            for revision in revisions:
                if revision.step is not None:
                    self.revisions_by_step.setdefault(revision.step.index, []).append(revision)
        for revisions in self.revisions_by_step.values():
            revisions.sort(key=lambda r: (r.after or r.before).number)
        self.page_number = self._page_numbers()
        self._starting, self._ending = _by_start_and_end(replay.versions)
        self._cursor, self._live = -2, {}
        self.proposal_steps = _proposal_steps(replay.steps)
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
        return self._starting.get(index, [])

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
            for version in self._ending.get(self._cursor, ()):
                self._live.pop(version.identity, None)
            for version in self._starting.get(self._cursor, ()):
                if version.end is None or version.end > self._cursor:
                    self._live[version.identity] = version
        return sorted(self._live.values(), key=lambda v: v.number)

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


def _revisions(history: RuleHistory, steps: tuple[Step, ...]) -> list[Revision]:
    """A rule's revisions, in order: each version from the one before, and each repeal (one followed by a
    re-enactment too: the rule was out of force between them)."""
    revisions, before = [], None
    for version in history.versions:
        if before is not None and before.end is not None and before.end != version.start:
            revisions.append(Revision(before, None, steps[before.end]))
        revisions.append(Revision(before, version, steps[version.start] if version.start >= 0 else None))
        before = version
    if history.repealed:
        revisions.append(Revision(history.last, None, steps[history.last.end]))
    return revisions


