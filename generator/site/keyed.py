"""serve's plan of a game kept from save to save, and made again only where an edit reached: the keyed walk.

A game's plan is made of parts (pages.game_parts: a proposal's page, a rule's, a part of the log, a points
piece...). While a part is planned, the plan records the keys of what it reads through its views
(GamePlan.reads, views.entry_read and version_read): an entry's step_key, listed_key, score_key, record_key or
points entry, a rule version's version_key. `KeyedPlan` keeps each part's keys.

At the next save, `replan` compares the new replay with the plan's: the entries and rule versions that are not
the same objects (the resumed replay shares the rest), and for those, the values of their keys. The parts that
read a key whose value moved are planned again (found by a scan of every part's keys: a few milliseconds for
12,000 parts, and less memory than an index from key to parts); so are the summary pages and the search index,
which read the whole game. Everything else a part reads is the game's skeleton (the kinds, names and numbers of
the entries that changed, each version's span, the game's header, ...): when an edit moves it, `replan`
declines and the game is planned whole (`plan_keyed`). A plan made here is the one made from nothing, page for page:
tests/test_differential.py holds serve to that, comparing the deps of every page too.
"""
from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field
from array import array
from collections.abc import Iterable
from itertools import chain, compress, count
from operator import attrgetter, is_not, itemgetter, not_

from ..engine.replay import Replay, Step
from ..engine.rulebook import RuleVersion
from ..model import Event, Unrecorded
from ..model.points import page_names
from .history import GameHistory
from .pages import (DEFEATED, WHOLE_GAME_PARTS, Part, game_parts, game_plan, list_pagers, scored_players,
                    search_part, sitemap_paths)
from .points import keyframe_interval, point_entry, point_place
from .views import (END, ENTRY_VIEWS, LISTED, OLD_NUMBERS, PLACE, POINT, RECORD, SCORE, SETTINGS, STEP, GamePages,
                    GamePlan, Page, entry_key, entry_read, game_view, names_lines, pager_read, rule_read, version_read)


@dataclass
class _Planned:
    """A part as last planned: what makes it, the pages it made (and those of them a sitemap lists), what it read."""

    part: Part
    paths: tuple[str, ...]
    listed: tuple[str, ...]
    reads: array  # of keys (views.entry_read, version_read, ...)


@dataclass
class KeyedPlan:
    plan: GamePlan
    parts: list[_Planned]
    # What pages show of the entries whose findings name lines: an edit above one moves its lines in place
    # (model.Source), without making it a new object.
    line_keys: dict[int, bytes] = field(default_factory=dict)
    paths: frozenset[str] = frozenset()  # of every page
    sitemap: tuple[str, ...] = ()  # of the pages a sitemap lists

    def __post_init__(self) -> None:
        if not self.paths:
            self.paths = frozenset(path for planned in self.parts for path in planned.paths)
            self.sitemap = tuple(path for planned in self.parts for path in planned.listed)


def plan_keyed(plan: GamePlan) -> tuple[KeyedPlan, list[Page]]:
    """Every page of a game (as pages.plan_game), each part's reads recorded."""
    pages = GamePages(plan)
    planned = [_plan_part(pages, part) for part in _parts(plan)]
    lines = {step.index: plan.step_key(step) for step in plan.replay.steps if names_lines(step)}
    return KeyedPlan(plan, planned, lines), pages


def replan(kept: KeyedPlan, replay: Replay) -> tuple[KeyedPlan, list[Page]] | None:
    """The plan of `replay`, an edit of the one `kept` planned, and the pages of the parts planned again. None
    when the edit moved the game's skeleton: plan it whole."""
    old = kept.plan
    if len(replay.steps) != len(old.replay.steps):
        return _replan_tail(kept, replay)
    changes = _changes(old.replay, replay)
    if changes is None:
        return None
    steps, versions = changes
    if len(steps) > len(replay.steps) // 4:  # (a setting changed: every entry replayed anew)
        history = GameHistory(replay)
    else:
        history = old.history.patched(replay, steps, [replay.versions[i] for i in versions])
    plan = game_plan(replay, old, history=history, names=old.proposal_pages)
    _lend_texts(old, plan, steps)
    lines = _line_keys(kept, plan, steps)
    moved = _moved_keys(kept, plan, steps, versions, lines)
    if _settings(replay) != _settings(old.replay):
        moved.add(SETTINGS)
    return _replanned(kept, plan, moved, lines)


def _replan_tail(kept: KeyedPlan, replay: Replay) -> tuple[KeyedPlan, list[Page]] | None:
    """`replan` for a log with more or fewer entries (an entry appended, the last deleted): the entries from the
    first that is not the same on are new, their keys all moved, and so has END; the parts of the new plan
    that the last plan had are planned again where their keys moved, the others made."""
    old = kept.plan
    new_steps, old_steps = replay.steps, old.replay.steps
    first = next((i for i, (new, was) in enumerate(zip(new_steps, old_steps)) if new is not was),
                 min(len(new_steps), len(old_steps)))
    if not _same_setting(old.replay, replay):
        return None
    history = old.history.resumed(replay, first)
    # The proposals before `first` keep their page names (page_names names each by those before it); the rest
    # are named after them
    named = {index: name for index, name in old.proposal_pages.items() if index < first}
    following = history.proposal_steps[bisect_left(history.proposal_steps, first, key=attrgetter("index")):]
    plan = game_plan(replay, old, history=history, names=named | page_names(
        ((step.index, step.entry.name) for step in following), set(named.values())))
    _lend_texts(old, plan, range(first, len(old_steps)))
    was = old.history
    if (_decided(plan, first) != _decided(old, first)
            or keyframe_interval(len(history.in_force())) != keyframe_interval(len(was.in_force()))):
        return None
    moved = {entry_read(view, index) for index in range(first, max(len(new_steps), len(old_steps)))
             for view in ENTRY_VIEWS}
    # A rule renumbered or back (its page takes its new number): what links to its page reads its versions
    renamed = {identity for identity, name in was.page_number.items()
               if history.page_number.get(identity, name) != name}
    for identity in renamed:
        moved.add(rule_read(identity))
        moved |= {version_read(identity, v.start)
                  for v in history.rules[identity].versions + was.rules[identity].versions}
    if renamed or history.old_numbers() != was.old_numbers():
        moved.add(OLD_NUMBERS)
    lines = _line_keys(kept, plan, range(first, len(new_steps)))
    moved |= _lines_moved(kept, lines)
    moved |= {END, SETTINGS}
    pagers, old_pagers = list_pagers(plan), list_pagers(old)
    moved |= {pager_read(stem) for stem in pagers if pagers[stem] != old_pagers[stem]}
    versions, old_versions = _by_start(replay), _by_start(old.replay)
    for place in versions.keys() | old_versions.keys():
        version, before = versions.get(place), old_versions.get(place)
        if version is not before and (version is None or before is None or _span(version) != _span(before)
                                      or plan.version_key(version) != old.version_key(before)):
            moved |= {version_read(*place), rule_read(place[0])}
    return _replanned(kept, plan, moved, lines, _parts(plan))


def _lend_texts(old: GamePlan, plan: GamePlan, changed: Iterable[int]) -> None:
    """The proposals' texts the last plan drew (GamePlan.body_html), for the entries that are the same objects (a
    part of the log drawn again shows 200 of them); `changed`: the places whose steps may not be the same."""
    steps, old_steps = plan.replay.steps, old.replay.steps
    texts = dict(old.body_html)
    for index in changed:
        if index in texts and (index >= len(steps) or steps[index].entry is not old_steps[index].entry):
            del texts[index]
    plan.body_html = texts


def _line_keys(kept: KeyedPlan, plan: GamePlan, changed: Iterable[int]) -> dict[int, bytes]:
    """KeyedPlan.line_keys of `plan`, whose entries at `changed` may not be the kept plan's."""
    steps = plan.replay.steps
    return {index: plan.step_key(steps[index]) for index in sorted(kept.line_keys.keys() | set(changed))
            if index < len(steps) and names_lines(steps[index])}


def _lines_moved(kept: KeyedPlan, lines: dict[int, bytes]) -> set[int]:
    """The keys of the entries whose findings name lines that an edit above them moved."""
    return {entry_read(STEP, index) for index, key in kept.line_keys.items() if lines.get(index, key) != key}


def _parts(plan: GamePlan) -> list[Part]:
    return game_parts(plan) + [(search_part, None)]


def _replanned(kept: KeyedPlan, plan: GamePlan, moved: set[int], lines: dict[int, bytes],
               planned: list[Part] | None = None) -> tuple[KeyedPlan, list[Page]]:
    """The parts of `planned` (the kept plan's, when None): those the kept plan had, taken as they were unless
    they read a moved key or the whole game; the others made. `lines`: the new plan's KeyedPlan.line_keys."""
    pages = GamePages(plan)
    if planned is None:
        made_parts = list(kept.parts)
        # (the parts to plan again, found in C: a save scans 12,000 parts' keys)
        stale = compress(count(), map(not_, map(moved.isdisjoint, map(attrgetter("reads"), made_parts))))
        whole = compress(count(), map(WHOLE_GAME_PARTS.__contains__, map(itemgetter(0), map(attrgetter("part"),
                                                                                               made_parts))))
        same_pages = True
        for position in sorted(set(stale).union(whole)):
            before = made_parts[position]
            made_parts[position] = made = _plan_part(pages, before.part)
            same_pages = same_pages and (made.paths, made.listed) == (before.paths, before.listed)
    else:
        kept_parts = {made.part: made for made in kept.parts}
        # (the same pages when every part is one the kept plan had, each making the pages it made)
        made_parts, same_pages = [], len(planned) == len(kept.parts)
        for part in planned:
            before = kept_parts.get(part)
            if before is None or part[0] in WHOLE_GAME_PARTS or not moved.isdisjoint(before.reads):
                made = _plan_part(pages, part)
                same_pages = (same_pages and before is not None
                              and (made.paths, made.listed) == (before.paths, before.listed))
            else:
                made = before
            made_parts.append(made)
    # What the memo kept of the entries and versions this replay replaced is never asked for again
    alive = set(map(id, plan.replay.steps)) | set(map(id, plan.replay.versions))
    plan.memo.forget(made for made in chain(kept.plan.replay.steps, kept.plan.replay.versions) if id(made) not in alive)
    if same_pages:
        return KeyedPlan(plan, made_parts, lines, kept.paths, kept.sitemap), pages
    return KeyedPlan(plan, made_parts, lines), pages


def _plan_part(pages: GamePages, part: Part) -> _Planned:
    plan = pages.plan
    plan.reads = set()
    first = len(pages)
    try:
        part[0](pages, part[1])
        made = pages[first:]
        return _Planned(part, tuple(page.path for page in made), tuple(sitemap_paths(made)),
                        array("q", sorted(plan.reads)))
    finally:
        plan.reads = None


def _changes(old: Replay, new: Replay) -> tuple[list[int], list[int]] | None:
    """The entries and versions of `new` that are not `old`'s own objects, by place; None when the edit moved
    anything beside them that pages read (the skeleton)."""
    if len(new.versions) != len(old.versions) or not _same_setting(old, new):
        return None
    steps = list(compress(range(len(new.steps)), map(is_not, new.steps, old.steps)))
    if any(_shape(new.steps[i]) != _shape(old.steps[i]) for i in steps):
        return None
    if steps and scored_players(new) != scored_players(old):
        return None
    versions = list(compress(range(len(new.versions)), map(is_not, new.versions, old.versions)))
    if any(_span(new.versions[i]) != _span(old.versions[i]) for i in versions):
        return None
    return steps, versions


def _same_setting(old: Replay, new: Replay) -> bool:
    """Whether what the parts read of the game beside its entries, rules and settings is the same: its header, the
    log's preamble, the initial scores, the notes rules.md keeps and the annotations entries made."""
    game, old_game = new.game, old.game
    return (game.log.preamble == old_game.log.preamble
            and game_view(new) == game_view(old) and new.initial_scores == old.initial_scores
            and _rule_notes(new) == _rule_notes(old) and _annotated(new) == _annotated(old))


def _decided(plan: GamePlan, first: int) -> dict[int, list[int]]:
    """The places of the decisions of each number decided more than once (format 1.2), where one stands before
    entry `first`."""
    places = {number: [step.index for step in steps] for number, steps in plan.decisions.items()}
    return {number: indices for number, indices in places.items() if indices[0] < first}


def _by_start(replay: Replay) -> dict[tuple[int, int], RuleVersion]:
    return {(version.identity, version.start): version for version in replay.versions}


def _shape(step: Step) -> tuple:
    """What of an entry decides which pages there are and where it stands in them: its kind, name and number,
    its label, whether the lists of scores and of defeated proposals hold it; an unrecorded number whole (the
    list of proposals shows it)."""
    entry = step.entry
    return (type(entry), entry.kind, step.label, getattr(entry, "number", None), getattr(entry, "name", None),
            getattr(entry, "case", None), getattr(entry, "decision", None), step.result in DEFEATED,
            bool(step.deltas or step.overrides),
            entry_key(entry) if isinstance(entry, (Unrecorded, Event)) else None)


def _settings(replay: Replay) -> tuple:
    """The value of SETTINGS: game.toml, and the mechanics, players and order of play the last entry leaves."""
    last = replay.steps[-1] if replay.steps else None
    return replay.game.config, replay.mechanics, last and (last.players, last.order)


def _span(version: RuleVersion) -> tuple:
    return version.identity, version.start, version.end, version.number


def _rule_notes(replay: Replay) -> list:
    return [(rule.number, rule.history, rule.annotations) for rule in replay.game.rules.rules]


def _annotated(replay: Replay) -> list:
    return [(identity, change.text, index) for identity, change, index in replay.annotations]


def _moved_keys(kept: KeyedPlan, plan: GamePlan, steps: list[int], versions: list[int],
                lines: dict[int, bytes]) -> set[int]:
    """The keys whose values differ between the kept plan and `plan`, of the entries and versions that changed
    (and of the entries whose findings name lines: `lines`, the new plan's)."""
    old = kept.plan
    moved: set[int] = set()
    for index in steps:
        before, after = old.replay.steps[index], plan.replay.steps[index]
        for kind, view in ((STEP, GamePlan.step_key), (LISTED, GamePlan.listed_key),
                           (SCORE, GamePlan.score_key), (RECORD, GamePlan.record_key)):
            if view(old, before) != view(plan, after):
                moved.add(entry_read(kind, index))
        if point_entry(old, index) != point_entry(plan, index):
            moved.add(entry_read(POINT, index))
        if point_place(old, index) != point_place(plan, index):
            moved.add(entry_read(PLACE, index))
    moved |= _lines_moved(kept, lines)
    for place in versions:
        before, after = old.replay.versions[place], plan.replay.versions[place]
        if old.version_key(before) != plan.version_key(after):
            moved.add(version_read(after.identity, after.start))
    return moved

