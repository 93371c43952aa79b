"""A replay seen rule by rule and entry by entry: the indices every page of a game's site reads.

Built once per game in linear time, so no page has to search the whole history again.
"""
from __future__ import annotations

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

    @property
    def lineage(self) -> list[int]:
        numbers: list[int] = []
        for version in self.versions:
            if not numbers or numbers[-1] != version.number:
                numbers.append(version.number)
        return numbers


class GameHistory:
    def __init__(self, replay: Replay, previous: GameHistory | None = None):
        """`previous`: the history of an earlier replay of the game; when this replay resumed it with the same
        versions (replay's `previous`), or with versions that replace some of them over the same spans (new
        texts), its indices are taken over, only the rules and steps that changed put in."""
        if previous is not None and (replaced := _replaced(previous.replay.versions, replay.versions)) is not None:
            self._take_over(previous, replay, replaced)
            return
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
        self._starting: dict[int, list[RuleVersion]] = {}
        self._ending: dict[int, list[RuleVersion]] = {}
        for version in replay.versions:
            self._starting.setdefault(version.start, []).append(version)
            if version.end is not None:
                self._ending.setdefault(version.end, []).append(version)
        self._cursor, self._live = -2, {}
        self.proposal_steps = [s for s in replay.steps if isinstance(s.entry, Proposal)]
        self._old_numbers: dict[int, int] | None = None
        self._in_force: list[RuleVersion] | None = None
        self._in_order: list[int] | None = None
        # Each version's place in its rule's history, by (identity, start): new texts leave it where it was.
        self.ordinal = {(v.identity, v.start): n for h in self.rules.values() for n, v in enumerate(h.versions)}

    def _take_over(self, previous: GameHistory, replay: Replay, replaced: dict[int, dict[int, RuleVersion]]) -> None:
        """`previous`'s indices, with the versions `replaced` (by identity, then start) and the steps that changed
        put in; what did not change is shared with `previous`, never changed in place."""
        self.__dict__.update(previous.__dict__)
        self.replay = replay
        self._cursor, self._live = -2, {}
        steps = replay.steps
        self.revisions_by_step = dict(previous.revisions_by_step)
        self.revisions_by_rule = dict(previous.revisions_by_rule)
        if replaced:
            self.rules, self._starting, self._ending = dict(self.rules), dict(self._starting), dict(self._ending)
            self._in_force = None
        for identity, by_start in replaced.items():
            was = previous.rules[identity]
            history = self.rules[identity] = RuleHistory(identity, [by_start.get(v.start, v) for v in was.versions])
            self.revisions_by_rule[identity] = revisions = _revisions(history, steps)
            for revision in revisions:
                if revision.step is not None:
                    index = revision.step.index
                    self.revisions_by_step[index] = [revision if (r.after or r.before).identity == identity else r
                                                     for r in self.revisions_by_step[index]]
            for version in by_start.values():
                self._starting[version.start] = [version if v.identity == identity else v
                                                 for v in self._starting[version.start]]
                if version.end is not None:
                    self._ending[version.end] = [version if v.identity == identity else v
                                                 for v in self._ending[version.end]]
        changed = {i for i, (old, new) in enumerate(zip(previous.replay.steps, steps)) if old is not new}
        self.proposal_steps = [steps[s.index] for s in previous.proposal_steps] if changed else previous.proposal_steps
        for index in changed & self.revisions_by_step.keys():
            was = self.revisions_by_step[index]
            moved = {id(r): Revision(r.before, r.after, steps[index]) for r in was}
            self.revisions_by_step[index] = list(moved.values())
            for revision in was:
                identity = (revision.after or revision.before).identity
                self.revisions_by_rule[identity] = [moved.get(id(r), r) for r in self.revisions_by_rule[identity]]

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


def _revisions(history: RuleHistory, steps: tuple[Step, ...]) -> list[Revision]:
    """A rule's revisions, in order: each version from the one before, and its repeal."""
    revisions, before = [], None
    for version in history.versions:
        revisions.append(Revision(before, version, steps[version.start] if version.start >= 0 else None))
        before = version
    if history.repealed:
        revisions.append(Revision(history.last, None, steps[history.last.end]))
    return revisions


def _replaced(old: tuple[RuleVersion, ...], new: tuple[RuleVersion, ...]) -> dict[int, dict[int, RuleVersion]] | None:
    """The versions of `new` that are not `old`'s but stand where they stood (the same rule, number and span:
    another text), by identity and start; None when versions came, went or moved."""
    if old is new:
        return {}
    if len(old) != len(new):
        return None
    replaced: dict[int, dict[int, RuleVersion]] = {}
    for was, now in zip(old, new):
        if was is not now:
            if (was.identity, was.number, was.start, was.end) != (now.identity, now.number, now.start, now.end):
                return None
            replaced.setdefault(now.identity, {})[now.start] = now
    return replaced
