"""Resuming a replay (serve, at each save): the replay of an edited log from the last checkpoint (`Checkpoint`,
the fold's state kept every few hundred entries) before the first entry the edit changed, stopping as soon as
its state after the changed entries is the one the previous replay had there; the rest is the previous
replay's (the same entries from the same state give the same steps). What it gives is what a replay from the
start gives: tests/test_engine.py holds it to that. The fold itself, the game's rules, is engine/replay.py's
(`FoldState.fold`); this module drives it from a checkpoint, through replay.py's public face. A resume takes
the previous replay's checkpoints (`Checkpoints.take`): each replay is resumed from once.
"""
from __future__ import annotations

import dataclasses
from itertools import chain, compress
from operator import attrgetter, is_not

from ..model import Game, Ruleset
from ..model.config import Config
from .replay import (Checkpoint, Checkpoints, Finding, FoldState, Replay, Step, compare_snapshot, finish,
                     keeps_checkpoint, look_alike_players, result_rulings, snapshot_points)
from .rulebook import Rulebook


def resume(game: Game, previous: Replay) -> Replay | None:
    """The replay of `game` from `previous`'s checkpoints, which it takes (Checkpoints.take), what a replay from
    the start gives; None when it must start over (the checkpoints then go before that replay is made): the
    mechanics or the snapshots changed, the initial rules changed more than their texts, the Judges' result
    rulings changed, or entries came or went along with an edit to the initial rules."""
    # (the checkpoints held here alone from now on: they go when this returns None)
    previous = dataclasses.replace(previous, checkpoints=Checkpoints(previous.checkpoints.take()))
    old_game = previous.game
    entries, old_entries = game.log.entries, old_game.log.entries
    if game.config != old_game.config:
        if old_game.config.with_words(game.config) == game.config:
            return resume(game, _redescribed(previous, game.config))
        return None
    if game.snapshots != old_game.snapshots:
        return None
    if len(entries) != len(old_entries):
        return _refolded_from_first_change(game, previous) if game.rules == old_game.rules else None
    changed = [index for index in compress(range(len(entries)), map(is_not, entries, old_entries))  # (in C)
               if entries[index] != old_entries[index]]
    if game.rules != old_game.rules:
        if not changed:
            return _with_initial_texts(game, previous)
        # Both at once (one save of several files, as a checkout makes): the new texts carried through the old
        # log first, then the edited entries resumed from that replay's checkpoints.
        texts_only = _with_initial_texts(dataclasses.replace(game, log=old_game.log), previous)
        return None if texts_only is None else resume(game, texts_only)
    if not changed:
        return dataclasses.replace(previous, game=game)
    return _refolded_from_changes(game, previous, changed)


def _refolded_from_changes(game: Game, previous: Replay, changed: list[int]) -> Replay | None:
    """The replay of `game`, whose log is `previous`'s but for the entries at `changed` (the same number of
    them): the fold again from the last checkpoint before the first, on until its state is the previous one's
    (or differs only in rule texts, which `_texts_followed` carries through the rest). None when the Judges'
    result rulings or the snapshots' places moved (read again from both logs: what an entry holds that moves
    them is theirs to say)."""
    entries, old_entries = game.log.entries, previous.game.log.entries
    rulings, points = result_rulings(game), snapshot_points(game, [])
    if rulings != previous.rulings or points != previous.points:
        return None
    first, last = changed[0], changed[-1]
    state, steps = _state_at(game, previous, first, rulings, points)
    # The previous replay's state after the changed entries, to compare with: only when entries follow them
    # (a change that moves every later entry of its file down, in a log of one file, reaches its end).
    old_state = None
    if last + 1 < len(entries):
        old_state = state.resumed(previous.game)
    # The previous replay's checkpoints before it, and this fold's from there on (as _refolded_from_first_change)
    checkpoints = [c for c in previous.checkpoints if c[0] < first]
    for index in range(first, last + 1):
        if keeps_checkpoint(index, len(entries)):
            checkpoints.append(Checkpoint(index, state.kept()))
        steps.append(state.fold(index, entries[index], rulings, points))
        if old_state is not None:
            old_state.fold(index, old_entries[index], rulings, points)
    before_entries = _before_entries(previous)
    # Where the previous replay's state is known (just after the edited entries, and at its checkpoints), the
    # fold may end: when the state is the same, the rest is the previous replay's; when it differs only in rule
    # texts, the rest is the previous replay's too, with those texts carried through the later changes.
    known = dict(previous.checkpoints)
    for index in range(last + 1, len(entries)):
        old = old_state if index == last + 1 else known.get(index)
        texts = state.text_differences(old) if old is not None else None
        if texts is not None:
            if not texts:
                steps += previous.steps[index:]
                return dataclasses.replace(
                    previous, game=game, steps=tuple(steps), findings=_all_findings(before_entries, steps),
                    checkpoints=Checkpoints(checkpoints + [c for c in previous.checkpoints if c[0] >= index]))
            followed = _texts_followed(game, previous, state.book, texts, index, steps, before_entries, checkpoints,
                                       points)
            if followed is not None:
                return followed
        if keeps_checkpoint(index, len(entries)):
            checkpoints.append(Checkpoint(index, state.kept()))
        steps.append(state.fold(index, entries[index], rulings, points))
    return finish(game, state, steps, before_entries, previous.initial_scores, tuple(checkpoints), rulings, points)


def _redescribed(previous: Replay, config: Config) -> Replay:
    """`previous` as the replay of its game under `config`, which differs from its own only in its words
    (Config.with_words): the same steps, the mechanics and checkpoints given the new words."""
    return dataclasses.replace(
        previous, game=dataclasses.replace(previous.game, config=config),
        mechanics=previous.mechanics.with_words(config),
        checkpoints=Checkpoints(Checkpoint(index, dataclasses.replace(state, config=state.config.with_words(config)))
                                for index, state in previous.checkpoints))


def _state_at(game: Game, previous: Replay, first: int, rulings: dict, points: dict) -> tuple[FoldState, list[Step]]:
    """The fold's state just before entry `first` of `game`, whose entries before it are `previous`'s, from the
    last checkpoint before it, and the steps so far (the previous replay's: the same entries from the same
    state give the same steps)."""
    start, kept = max((c for c in previous.checkpoints if c[0] <= first), key=lambda c: c[0])
    state = kept.resumed(game)
    steps = list(previous.steps[:start])
    for index in range(start, first):
        state.fold(index, game.log.entries[index], rulings, points)
        steps.append(previous.steps[index])
    return state, steps


def _refolded_from_first_change(game: Game, previous: Replay) -> Replay | None:
    """The replay of `game`, whose log has more or fewer entries than `previous`'s (an entry appended, the last
    one deleted): the fold again from the last checkpoint before the first entry that is not the same, to the
    end (entries after an insertion stand at new places: none of their steps is the previous one's). None when
    the Judges' result rulings or the snapshots' places moved."""
    entries, old_entries = game.log.entries, previous.game.log.entries
    # (an entry parsed again may be equal to the one before: the one above a deleted last entry, whose end moved)
    first = next((i for i, (new, old) in enumerate(zip(entries, old_entries)) if new is not old and new != old),
                 min(len(entries), len(old_entries)))
    rulings, points = result_rulings(game), snapshot_points(game, [])
    if rulings != previous.rulings or points != previous.points:
        return None
    # From the first entry that moved: after the last entry deleted, the previous replay's checkpoint before it is
    # the state at this log's end, and nothing is folded (this replay then lacks the checkpoint before its own last
    # but one entry that a replay from the start keeps, and after a second deletion the one before its last too;
    # the fold keeps them again when it next passes there).
    state, steps = _state_at(game, previous, first, rulings, points)
    # The previous replay's checkpoints before it, where this log keeps one, and this fold's from there on
    checkpoints = [c for c in previous.checkpoints if c[0] < first and keeps_checkpoint(c[0], len(entries))]
    for index in range(first, len(entries)):
        if keeps_checkpoint(index, len(entries)):
            checkpoints.append(Checkpoint(index, state.kept()))
        steps.append(state.fold(index, entries[index], rulings, points))
    return finish(game, state, steps, _before_entries(previous), previous.initial_scores, tuple(checkpoints), rulings,
                  points)


# Rule texts that differ from the previous replay's, all else being the same (below): nothing in the fold reads
# a rule's text but the changes to that rule, which write its next text from it, and the snapshots, which
# compare it. Numbers, classes, titles and powers decide everything else. So the rest of the fold is the
# previous one's with the new texts carried through the same changes, and the snapshots compared again.

def _with_initial_texts(game: Game, previous: Replay) -> Replay | None:
    """The replay of `game`, whose initial rules differ from `previous`'s only in their texts (or places), the
    log being the same; None when it must start over."""
    rules, old_rules = game.rules.rules, previous.game.rules.rules
    if len(rules) != len(old_rules) or any((r.number, r.rule_class, r.title, r.power, r.label)
                                           != (o.number, o.rule_class, o.title, o.power, o.label)
                                           for r, o in zip(rules, old_rules)):
        return None
    book = Rulebook.from_rules(rules)
    differing = {book.identity_of(rule.number) for rule, old in zip(rules, old_rules) if rule != old}
    before_entries: list[Finding] = []
    look_alike_players(game, before_entries)
    points = snapshot_points(game, before_entries)
    for snapshot in points.get(-1, []):
        compare_snapshot(before_entries, book.current, snapshot)
    return _texts_followed(game, previous, book, differing, 0, [], before_entries, [], points)


def _texts_followed(game: Game, previous: Replay, book: Rulebook, identities: set[int], index: int,
                    steps: list[Step], before_entries: list[Finding], checkpoints: list[Checkpoint],
                    points: dict[int, list[Ruleset]]) -> Replay | None:
    """The replay of `game`, whose fold reached entry `index` with `book`, the state being the one `previous`
    had there but for the texts of the rules of `identities`: `steps` and `checkpoints` as far as that, the rest
    of them `previous`'s, the versions with the new texts (Rulebook.follow_texts), the snapshots after `index`
    compared again. None when a new text changes more than texts (or the previous replay stopped at a change
    it could not apply: with the new text, it might)."""
    versions = None if previous.errors else book.follow_texts(previous.versions, identities, index)
    if versions is None:
        return None
    steps = steps + list(previous.steps[index:])
    # The first point after which a finding differs from the previous replay's (-1: before the first entry).
    findings_moved = -1 if before_entries != _before_entries(previous) else None
    for point, snapshots in sorted(points.items()):
        if point >= index:
            in_force = {v.number: v for v in versions if v.start <= point and (v.end is None or v.end > point)}
            step = steps[point]
            compared = [f for f in step.findings if f.kind != "snapshot"]
            for snapshot in snapshots:
                compare_snapshot(compared, in_force, snapshot)
            if tuple(compared) != step.findings:
                steps[point] = dataclasses.replace(step, findings=tuple(compared))
                findings_moved = point if findings_moved is None else findings_moved
    # The previous checkpoints after `index` hold the old texts (and, past a snapshot compared again, the old
    # findings): they take the new ones.
    new_versions = {(v.identity, v.start): v for v in versions if v.identity in identities}
    found, counted = list(before_entries), 0  # the findings before the checkpoint, counted so far to step `counted`
    places: list[int] = []  # of the rules of `identities` in the checkpoints' closed versions (Rulebook.closed_places)
    scanned = 0  # the closed versions that `places` has looked at
    for at, kept in previous.checkpoints:
        if at >= index:
            findings = kept.findings
            if findings_moved is not None and findings_moved < at:
                found += [f for step in steps[counted:at] for f in step.findings]
                counted, findings = at, list(found)
            places += kept.book.closed_places(identities, scanned)
            scanned = len(kept.book.versions)
            checkpoints.append(Checkpoint(at, dataclasses.replace(kept, book=kept.book.with_versions(new_versions, places),
                                                        findings=findings)))
    return dataclasses.replace(previous, game=game, steps=tuple(steps), versions=tuple(versions),
                               findings=_all_findings(before_entries, steps), checkpoints=Checkpoints(checkpoints))


def _before_entries(replay: Replay) -> list[Finding]:
    """The findings of a replay that no entry made (snapshots before the first entry, or standing nowhere)."""
    return list(replay.findings[:len(replay.findings) - sum(map(len, map(_findings, replay.steps)))])


def _all_findings(before_entries: list[Finding], steps: list[Step]) -> tuple[Finding, ...]:
    return tuple(chain(before_entries, chain.from_iterable(map(_findings, steps))))  # (in C: 10,000 steps)


_findings = attrgetter("findings")
