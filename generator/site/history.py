"""A replay seen rule by rule and entry by entry: the indices every page of a game's site reads.

Built once per game in linear time, so no page has to search the whole history again.
"""
from __future__ import annotations

import copy
import functools
from bisect import bisect_left
from dataclasses import dataclass, field
from operator import attrgetter

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

    def patched(self, replay: Replay, steps: list[int], versions: list[RuleVersion]) -> GameHistory:
        """The history of `replay`, which differs from this history's replay only in the entries at `steps` and
        the `versions` (new objects with the same spans and numbers, site/keyed.py checks): the rest shared."""
        proposals = list(self.proposal_steps)  # (an edit keeps each entry's kind: keyed._shape)
        for index in steps:
            at = bisect_left(proposals, index, key=attrgetter("index"))
            if at < len(proposals) and proposals[at].index == index:
                proposals[at] = replay.steps[index]
        history = self._copy(replay, proposals)
        history._starting, history._ending = dict(self._starting), dict(self._ending)
        new = {(v.identity, v.start): v for v in versions}
        for table, place in ((history._starting, "start"), (history._ending, "end")):
            for version in versions:
                at = getattr(version, place)
                if at is not None:
                    table[at] = [new.get((v.identity, v.start), v) for v in table[at]]
        # The rules whose revisions hold a changed version or entry: their revisions are made again
        touched = {identity for identity, _ in new}
        for index in steps:
            touched.update((r.after or r.before).identity for r in self.revisions_by_step.get(index, ()))
        history._remake({identity: [new.get((v.identity, v.start), v) for v in self.rules[identity].versions]
                         for identity in touched}, self)
        return history

    def resumed(self, replay: Replay, first: int) -> GameHistory:
        """The history of `replay`, a replay resumed at entry `first` of this history's (an entry added or removed
        at or after it, site/keyed.py): its entries before `first` are this replay's, and so are the versions that
        came out the same (engine/resume.py). The rules with a version that came or went, or a revision at or
        after `first`, are made again; the rest shared."""
        before = self.proposal_steps[:bisect_left(self.proposal_steps, first, key=attrgetter("index"))]
        history = self._copy(replay, before + _proposal_steps(replay.steps[first:]))
        kept, now = set(map(id, self.replay.versions)), set(map(id, replay.versions))
        touched = ({v.identity for v in replay.versions if id(v) not in kept}
                   | {v.identity for v in self.replay.versions if id(v) not in now})
        for index in range(first, len(self.replay.steps)):
            touched.update((r.after or r.before).identity for r in self.revisions_by_step.get(index, ()))
        remade: dict[int, list[RuleVersion]] = {identity: [] for identity in touched}
        for version in replay.versions:
            if version.identity in touched:
                remade[version.identity].append(version)
        for versions in remade.values():
            versions.sort(key=lambda v: v.start)
        history._remake(remade, self, list(dict.fromkeys(v.identity for v in replay.versions)))
        history._old_numbers = history._in_order = None
        history._starting, history._ending = _by_start_and_end(replay.versions)
        history.page_number = history._page_numbers()
        return history

    def _copy(self, replay: Replay, proposal_steps: list[Step]) -> GameHistory:
        """This history, to be patched into `replay`'s (whose proposals' steps are `proposal_steps`): its tables
        copied, what it derived from them reset."""
        history = copy.copy(self)
        history.replay = replay
        history.rules, history.revisions_by_rule = dict(self.rules), dict(self.revisions_by_rule)
        history.revisions_by_step, history.ordinal = dict(self.revisions_by_step), dict(self.ordinal)
        history._cursor, history._live, history._in_force = -2, {}, None
        history.proposal_steps = proposal_steps
        return history

    def _remake(self, rules: dict[int, list[RuleVersion]], was: GameHistory, order: list[int] | None = None) -> None:
        """Make the histories and revisions of `rules` (identity -> its versions, none: gone) again, in place of
        those of `was`, the history this one was copied from; `order`: every rule's identity, as __init__ meets
        them (when rules came or went)."""
        made: dict[int, list[Revision]] = {}  # the rules' revisions, by the entry that made them
        for identity, versions in rules.items():
            for version in was.rules[identity].versions if identity in was.rules else ():
                del self.ordinal[version.identity, version.start]
            if not versions:
                del self.rules[identity], self.revisions_by_rule[identity]
                continue
            rule = self.rules[identity] = RuleHistory(identity, versions)
            self.ordinal.update(((v.identity, v.start), n) for n, v in enumerate(versions))
            self.revisions_by_rule[identity] = revisions = _revisions(rule, self.replay.steps)
            for revision in revisions:
                if revision.step is not None:
                    made.setdefault(revision.step.index, []).append(revision)
        if order is not None:
            self.rules = {identity: self.rules[identity] for identity in order}
            self.revisions_by_rule = {identity: self.revisions_by_rule[identity] for identity in order}
        # The entries whose revisions change: in the order __init__ gives, by number, then as the rules came
        place = {identity: n for n, identity in enumerate(self.rules)}
        for index in {r.step.index for identity in rules if identity in was.rules
                      for r in was.revisions_by_rule[identity] if r.step is not None} | made.keys():
            revisions = [r for r in self.revisions_by_step.get(index, ()) if (r.after or r.before).identity not in rules]
            revisions += made.get(index, ())
            if revisions:
                self.revisions_by_step[index] = sorted(
                    revisions, key=lambda r: ((r.after or r.before).number, place[(r.after or r.before).identity]))
            else:
                self.revisions_by_step.pop(index, None)

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
        per history, and kept by a history that takes over new texts (the same numbers and spans)."""
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
    """A rule's revisions, in order: each version from the one before, and its repeal."""
    revisions, before = [], None
    for version in history.versions:
        revisions.append(Revision(before, version, steps[version.start] if version.start >= 0 else None))
        before = version
    if history.repealed:
        revisions.append(Revision(history.last, None, steps[history.last.end]))
    return revisions


