"""A replay seen rule by rule and entry by entry: the indices every page of a game's site reads.

Built once per game in linear time, so no page has to search the whole history again. The rules' part
(`RuleIndex`) is made from the replay's versions alone, so that a replay whose versions are those of the one
before (an edit that changed no rule) takes the same index.
"""
from __future__ import annotations

import functools
from collections import Counter
from itertools import compress
from operator import attrgetter, is_not, not_
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any

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
    made from the versions alone. `before`, the index of other versions (the replay before an edit's): a rule
    whose versions are equal to those it had there keeps its history and revisions, which are made from them
    alone; where few rules differ, the rest is `before`'s with those rules' parts made again, and no other
    version is read (reading a field of 8,000 versions scattered in memory costs milliseconds). A replay's
    versions are in order of start and identity (`Rulebook.finish`), and the indices list them so."""

    def __init__(self, versions: tuple[RuleVersion, ...], before: RuleIndex | None = None):
        self.versions = versions
        self._old_numbers: dict[int, int] | None = None
        # Each rule's versions, the very objects of `versions` (those `rules` holds may be equal ones, kept)
        self.by_rule: dict[int, list[RuleVersion]]
        differing = _differing_rules(before, versions) if before is not None else None
        if differing is not None and sum(own != before.rules[identity].versions if identity in before.rules else True
                                         for identity, own in differing.items()) <= max(len(before.rules) // 4, 1):
            self._follow(before, differing)
        else:
            self._make(before)
        self._in_force: list[RuleVersion] | None = None
        self._in_order: list[int] | None = None

    @property
    def classes(self) -> set[str]:
        """The classes of every version."""
        return {rule_class for rule_class, count in self.class_count.items() if count}

    def _make(self, before: RuleIndex | None) -> None:
        self.by_rule = {}
        for version in self.versions:
            self.by_rule.setdefault(version.identity, []).append(version)
        kept = before.rules if before is not None else {}
        self.rules: dict[int, RuleHistory] = {}
        self.revisions_by_rule: dict[int, list[Revision]] = {}
        for identity, own in self.by_rule.items():
            own.sort(key=_start)  # (a replay's are in order of start already: this costs a look)
            history = kept.get(identity)
            if history is not None and history.versions == own:
                self.rules[identity], self.revisions_by_rule[identity] = history, before.revisions_by_rule[identity]
            else:
                self.rules[identity] = history = RuleHistory(identity, list(own))
                self.revisions_by_rule[identity] = _revisions(history)
        self.revisions_by_step: dict[int, list[Revision]] = {}
        for revisions in self.revisions_by_rule.values():
            for revision in revisions:
                if revision.index is not None:
                    self.revisions_by_step.setdefault(revision.index, []).append(revision)
        for revisions in self.revisions_by_step.values():
            if len(revisions) > 1:
                revisions.sort(key=_revision_number)
        self.starting_at, self.ending_at = _by_start_and_end(self.versions)
        # Each version's place in its rule's history, by (identity, start).
        self.ordinal = {(v.identity, v.start): n for h in self.rules.values() for n, v in enumerate(h.versions)}
        self.class_count = Counter(map(_rule_class, self.versions))
        self.page_number = self._page_numbers()

    def _follow(self, before: RuleIndex, differing: dict[int, list[RuleVersion]]) -> None:
        """`before`'s indices, with the rules of `differing` (each with its versions now; none: gone) made again
        where their versions are not equal to those `before` holds."""
        self.by_rule = {**before.by_rule, **differing}
        for identity, own in differing.items():
            if not own:
                del self.by_rule[identity]
        was = {identity: before.rules[identity] for identity, own in differing.items()
               if identity in before.rules and before.rules[identity].versions != own}
        made = {identity: RuleHistory(identity, list(own)) for identity, own in differing.items()
                if own and (identity not in before.rules or identity in was)}
        changed = was.keys() | made.keys()
        reordered = any(identity not in was or identity not in made
                        or was[identity].versions[0].start != made[identity].versions[0].start for identity in changed)
        if reordered:  # rules came, went or start elsewhere: in order of their first versions, as `versions` has them
            order = sorted(self.by_rule, key=lambda identity: (self.by_rule[identity][0].start, identity))
        else:
            order = list(before.rules)
        self._follow_rules(before, was, made, order)
        self._follow_versions(before, was, made)
        self._follow_names(before, was, made, reordered)

    def _follow_rules(self, before: RuleIndex, was: dict[int, RuleHistory], made: dict[int, RuleHistory],
                      order: list[int]) -> None:
        """Each rule's history and revisions, and the revisions by entry: `made`'s where given, else `before`'s."""
        new_revisions = {identity: _revisions(history) for identity, history in made.items()}
        self.rules = {identity: made[identity] if identity in made else before.rules[identity] for identity in order}
        self.revisions_by_rule = {identity: new_revisions[identity] if identity in made
                                  else before.revisions_by_rule[identity] for identity in order}
        rank = {identity: place for place, identity in enumerate(order)}
        self.revisions_by_step = _patched(
            before.revisions_by_step, was.keys() | made.keys(),
            [r for identity in was for r in before.revisions_by_rule[identity] if r.index is not None],
            [r for revisions in new_revisions.values() for r in revisions if r.index is not None],
            _revision_rule, _index, lambda r: (_revision_number(r), rank[_revision_rule(r)]))

    def _follow_versions(self, before: RuleIndex, was: dict[int, RuleHistory], made: dict[int, RuleHistory]) -> None:
        """The versions by start and end, their places in their rules and the count of each class: `before`'s, with
        the versions of `was` taken out and those of `made` put in."""
        changed = was.keys() | made.keys()
        old_versions = [v for history in was.values() for v in history.versions]
        new_versions = [v for history in made.values() for v in history.versions]
        self.starting_at = _patched(before.starting_at, changed, old_versions, new_versions, _identity, _start,
                                    _start_and_identity)
        self.ending_at = _patched(before.ending_at, changed, [v for v in old_versions if v.end is not None],
                                  [v for v in new_versions if v.end is not None], _identity, _end, _start_and_identity)
        self.ordinal = dict(before.ordinal)
        for version in old_versions:
            del self.ordinal[version.identity, version.start]
        for history in made.values():
            for n, version in enumerate(history.versions):
                self.ordinal[version.identity, version.start] = n
        self.class_count = before.class_count - Counter(map(_rule_class, old_versions)) \
            + Counter(map(_rule_class, new_versions)) if changed else before.class_count

    def _follow_names(self, before: RuleIndex, was: dict[int, RuleHistory], made: dict[int, RuleHistory],
                      reordered: bool) -> None:
        """The pages' names: a page's name is a rule's last number, unless another rule took it, so they are made
        again when a rule came, went, or its last version moved or took another number."""
        changed = was.keys() | made.keys()
        if any(identity not in was or identity not in made or _named(was[identity]) != _named(made[identity])
               for identity in changed):
            self.page_number = self._page_numbers()
        else:
            self.page_number = before.page_number
            # and the old numbers too, where no rule took another number (nor moved: the first to have one takes it)
            if not reordered and all(was[identity].lineage == made[identity].lineage for identity in changed):
                self._old_numbers = before._old_numbers

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
    proposals' steps (given, or found)."""

    def __init__(self, replay: Replay, rules: RuleIndex | None = None, proposal_steps: list[Step] | None = None):
        self.replay = replay
        self._cursor, self._live = -2, {}  # (rules_at's sweep: of this history, as the index is shared)
        self.index = rules if rules is not None else RuleIndex(replay.versions)
        self.rules, self.page_number, self.ordinal = self.index.rules, self.index.page_number, self.index.ordinal
        self.revisions_by_step, self.revisions_by_rule = self.index.revisions_by_step, self.index.revisions_by_rule
        self.old_numbers, self.starting, self.in_force = self.index.old_numbers, self.index.starting, self.index.in_force
        self.rules_in_order, self.repealed = self.index.rules_in_order, self.index.repealed
        self.proposal_steps = _proposal_steps(replay.steps) if proposal_steps is None else proposal_steps

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


_start, _end, _identity, _rule_class, _index = (attrgetter(name) for name in ("start", "end", "identity", "rule_class",
                                                                              "index"))
_start_and_identity = attrgetter("start", "identity")


def _revision_rule(revision: Revision) -> int:
    return (revision.after or revision.before).identity


def _differing_rules(before: RuleIndex, versions: tuple[RuleVersion, ...]) -> dict[int, list[RuleVersion]]:
    """The rules of the versions of `versions` that are not the very objects `before` was made from, and of
    those of `before` that are not in `versions`, each with its versions now, in order of start (none: the rule
    is gone). No other version is read."""
    old = before.versions
    if len(versions) == len(old):
        places = list(compress(range(len(versions)), map(is_not, versions, old)))
        added, removed = [versions[place] for place in places], [old[place] for place in places]
    else:
        known, kept = set(map(id, old)), set(map(id, versions))
        added = list(compress(versions, map(not_, map(known.__contains__, map(id, versions)))))
        removed = list(compress(old, map(not_, map(kept.__contains__, map(id, old)))))
    gone = set(map(id, removed))
    own = {version.identity: [v for v in before.by_rule.get(version.identity, ()) if id(v) not in gone]
           for version in added + removed}
    for version in added:
        own[version.identity].append(version)
    for versions_of in own.values():
        versions_of.sort(key=_start)
    return own


def _named(history: RuleHistory) -> tuple:
    """What a rule's page name is made of (RuleIndex._page_numbers)."""
    return history.repealed, history.last.start, history.last.number


def _patched(lists: dict[int, list], rules: Collection[int], old: list, new: list, rule: Callable[[Any], int],
             key: Callable[[Any], int], order: Callable[[Any], Any]) -> dict[int, list]:
    """`lists` (items by `key`, each list in `order`), with the items of `rules` there (`old`) replaced by `new`."""
    patched = dict(lists)
    for at in {key(item) for item in old} | {key(item) for item in new}:
        items = [item for item in lists.get(at, ()) if rule(item) not in rules] + [item for item in new if key(item) == at]
        if items:
            patched[at] = sorted(items, key=order)
        else:
            patched.pop(at, None)
    return patched


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


