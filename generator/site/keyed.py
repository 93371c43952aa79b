"""serve's plan of a game kept from save to save, and made again only where an edit reached: the keyed walk.

A game's plan is made of parts (pages.game_parts: a proposal's page, a rule's, a part of the log, a points
piece...). While a part is planned, the plan records the keys of what it reads through its views
(GamePlan.reads, views.entry_read and version_read): an entry's step_key, listed_key, score_key, record_key or
points entry, a rule version's version_key. `KeyedPlan` keeps each part's keys.

At the next save, `replan` compares the new replay with the plan's: the entries and rule versions that are not
the same objects (the resumed replay shares the rest), and for those, the values of their keys. The parts that
read a key whose value moved are planned again (found by a scan of every part's keys: a few milliseconds for
12,000 parts, and less memory than an index from key to parts); so are the summary pages and the search index,
which read the whole game. Everything else a part reads is the game's skeleton (the entries' kinds, names and numbers, each
version's span, the game's header and settings, ...): when an edit moves it, `replan` declines and the game is
planned whole (`plan_keyed`). A plan made here is the one made from nothing, page for page:
tests/test_differential.py holds serve to that, comparing the deps of every page too.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import compress
from operator import is_not

from ..engine.replay import Replay, Step
from ..engine.rulebook import RuleVersion
from ..model import Event, Unrecorded
from .pages import DEFEATED, WHOLE_GAME_PARTS, Part, game_parts, game_plan, scored_players, search_part, sitemap_paths
from .points import point_entry
from .views import (LISTED, POINT, RECORD, SCORE, STEP, GamePages, GamePlan, Page, entry_key, entry_read, game_view,
                    names_lines, version_read)


@dataclass
class _Planned:
    """A part as last planned: what makes it, the pages it made (and those of them a sitemap lists), what it read."""

    part: Part
    paths: tuple[str, ...]
    listed: tuple[str, ...]
    reads: tuple[int, ...]


@dataclass
class KeyedPlan:
    plan: GamePlan
    parts: list[_Planned]
    whole: list[int]  # the parts planned again at every save (they read the whole game)
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
    planned, whole = [], []
    for number, part in enumerate(game_parts(plan) + [(search_part, None)]):
        if part[0] in WHOLE_GAME_PARTS:
            whole.append(number)
        planned.append(_plan_part(pages, part))
    lines = {step.index: plan.step_key(step) for step in plan.replay.steps if names_lines(step)}
    return KeyedPlan(plan, planned, whole, lines), pages


def replan(kept: KeyedPlan, replay: Replay) -> tuple[KeyedPlan, list[Page]] | None:
    """The plan of `replay`, an edit of the one `kept` planned, and the pages of the parts planned again. None
    when the edit moved the game's skeleton: plan it whole."""
    old = kept.plan
    changes = _changes(old.replay, replay)
    if changes is None:
        return None
    steps, versions = changes
    history = old.history.patched(replay, steps, [replay.versions[i] for i in versions])
    plan = game_plan(replay, old, history=history)
    moved = _moved_keys(kept, plan, steps, versions)
    todo = set(kept.whole) | {number for number, made in enumerate(kept.parts) if not moved.isdisjoint(made.reads)}
    pages = GamePages(plan)
    parts, same_pages = list(kept.parts), True
    for number in sorted(todo):
        before = parts[number]
        parts[number] = made = _plan_part(pages, before.part)
        same_pages = same_pages and (made.paths, made.listed) == (before.paths, before.listed)
    lines = {i: plan.step_key(plan.replay.steps[i]) for i in sorted(kept.line_keys.keys() | set(steps))
             if names_lines(plan.replay.steps[i])}
    if same_pages:
        return KeyedPlan(plan, parts, kept.whole, lines, kept.paths, kept.sitemap), pages
    return KeyedPlan(plan, parts, kept.whole, lines), pages


def _plan_part(pages: GamePages, part: Part) -> _Planned:
    plan = pages.plan
    plan.reads = set()
    first = len(pages)
    try:
        part[0](pages, part[1])
        made = pages[first:]
        return _Planned(part, tuple(page.path for page in made), tuple(sitemap_paths(made)), tuple(plan.reads))
    finally:
        plan.reads = None


def _changes(old: Replay, new: Replay) -> tuple[list[int], list[int]] | None:
    """The entries and versions of `new` that are not `old`'s own objects, by place; None when the edit moved
    anything beside them that pages read (the skeleton)."""
    if len(new.steps) != len(old.steps) or len(new.versions) != len(old.versions):
        return None
    game, old_game = new.game, old.game
    if (game.config != old_game.config or game.log.preamble != old_game.log.preamble
            or game_view(new) != game_view(old) or new.initial_scores != old.initial_scores
            or _rule_notes(new) != _rule_notes(old) or _annotated(new) != _annotated(old)):
        return None
    steps = list(compress(range(len(new.steps)), map(is_not, new.steps, old.steps)))
    if any(_shape(new.steps[i]) != _shape(old.steps[i]) for i in steps):
        return None
    if steps and (steps[-1] == len(new.steps) - 1 and _ending(new.steps[-1]) != _ending(old.steps[-1])
                  or scored_players(new) != scored_players(old)):
        return None
    versions = list(compress(range(len(new.versions)), map(is_not, new.versions, old.versions)))
    if any(_span(new.versions[i]) != _span(old.versions[i]) for i in versions):
        return None
    return steps, versions


def _shape(step: Step) -> tuple:
    """What of an entry decides which pages there are and where it stands in them: its kind, name and number,
    its label, whether the lists of scores and of defeated proposals hold it; an unrecorded number whole (the
    list of proposals shows it)."""
    entry = step.entry
    return (type(entry), entry.kind, step.label, getattr(entry, "number", None), getattr(entry, "name", None),
            getattr(entry, "case", None), getattr(entry, "decision", None), step.result in DEFEATED,
            bool(step.deltas or step.overrides),
            entry_key(entry) if isinstance(entry, (Unrecorded, Event)) else None)


def _ending(step: Step) -> tuple:
    """What pages read of the last entry beside its keys: the mechanics, players and order it leaves."""
    return step.mechanics, step.players, step.order


def _span(version: RuleVersion) -> tuple:
    return version.identity, version.start, version.end, version.number


def _rule_notes(replay: Replay) -> list:
    return [(rule.number, rule.history, rule.annotations) for rule in replay.game.rules.rules]


def _annotated(replay: Replay) -> list:
    return [(identity, change.text, index) for identity, change, index in replay.annotations]


def _moved_keys(kept: KeyedPlan, plan: GamePlan, steps: list[int], versions: list[int]) -> set[int]:
    """The keys whose values differ between the kept plan and `plan`, of the entries and versions that changed
    (and of the entries whose findings name lines)."""
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
    for index, key in kept.line_keys.items():
        if index not in steps and plan.step_key(plan.replay.steps[index]) != key:
            moved.add(entry_read(STEP, index))
    for place in versions:
        before, after = old.replay.versions[place], plan.replay.versions[place]
        if old.version_key(before) != plan.version_key(after):
            moved.add(version_read(after.identity, after.start))
    return moved

