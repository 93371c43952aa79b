"""The shortest win of a Solitaire Nomic game: a bounded A* search over canonical positions, then the answer
played out rule by rule through the replay's own `play`, so that the log it becomes checks clean.

A canonical position keeps only what decides the win: how many immutable rules remain (they are transmuted
greatest first, so the rest are the lowest), the Objective's life span (0 while it is immutable), and the
multiset of the other mutable rules' spans. Numbers and words do not matter (a mutation only passes a turn),
so rules with equal spans are interchangeable. The search is pruned by life spans (a position where the
Objective died is never made) and by what can still be removed (an admissible lower bound on the turns left:
every immutable rule but the Objective must be transmuted, one a turn, and every other rule must either run
out its span in time or take a turn of its own to be subsumed).
"""
from __future__ import annotations

import dataclasses
import heapq
import random
from collections.abc import Iterator
from dataclasses import dataclass

from ..model import Game, Rule, Ruleset, Source
from ..model.config import Solitaire
from ..model.solitaire import Action
from .solitaire import (FIRST_MUTABLE_NUMBER, LIFE_SPAN, Played, Position, Setup, divided_span, initial_position,
                        locate_edits, must_divide, play, subsumer_span)

Other = tuple[int, bool]  # a mutable rule other than the Objective: its span, and whether it may not be divided
State = tuple[int, int, tuple[Other, ...]]  # immutable rules left, the Objective's span (0: immutable), the others
# A move: ("transmute",), ("mutate",), ("subsume", subsumer, subsumed), ("divide", rule), each rule named
# "objective" or by its span at the start of the turn and whether it may be divided.
Move = tuple
OBJECTIVE = "objective"
UNREACHABLE = 10 ** 6


@dataclass(frozen=True)
class Answer:
    """What a search found: the moves of the shortest win (None if none was found), and why not."""

    moves: tuple[Move, ...] | None
    states: int  # positions taken from the queue and expanded
    complete: bool  # False: the state bound stopped the search before it could decide
    reason: str = ""  # why no win exists, when a rule of the game alone decides it


@dataclass(frozen=True)
class Puzzle:
    """A game as the search sees it."""

    options: Solitaire
    start: State
    objective_rank: int  # the Objective's place among the immutable rules, lowest first (0: it is mutable)
    ranks: dict[str, int]  # each action's clause's rank among the immutable rules (absent: not immutable)

    @classmethod
    def of(cls, setup: Setup, position: Position) -> Puzzle:
        immutable = [rule for rule in position.rules if not rule.mutable]  # by number
        rank = {rule.identity: place for place, rule in enumerate(immutable, start=1)}
        ranks = {kind: rank[setup.clauses[clause][0]] for kind, clause in
                 (("transmute", "transmutation"), ("mutate", "mutation"), ("subsume", "subsumption"),
                  ("divide", "division")) if clause in setup.clauses and setup.clauses[clause][0] in rank}
        return cls(setup.options, canonical(setup, position), rank.get(setup.objective, 0), ranks)

    def available(self, kind: str, left: int) -> bool:
        """Rule 6 under solitaire.actions: with "immutable", while the action's rule is still immutable."""
        return self.options.actions == "fixed" or self.ranks.get(kind, UNREACHABLE) <= left

    def to_transmute(self, left: int) -> list[int]:
        """The ranks still to transmute, in the order they must go: all but an Objective that is the lowest."""
        return [rank for rank in range(left, 0, -1) if not (rank == 1 and self.objective_rank == 1)]

    def won(self, state: State) -> bool:
        left, _, others = state
        return not others and not self.to_transmute(left)

    def dead_end(self, left: int) -> str:
        """Why no win can follow from a position with `left` immutable rules, when the rules alone decide it.

        Under solitaire.actions = "immutable" (rule 6 read literally) an action lasts while its rule is
        immutable. The last rule transmuted (never the Objective) must then leave, by subsumption or by
        running out its span over the turns after, and each of those turns needs an action whose rule is
        immutable, below the last one transmuted: none is, since only the Objective can stand below it."""
        needed = self.to_transmute(left)
        if not needed or self.options.actions != "immutable":
            return ""
        if self.ranks.get("transmute", UNREACHABLE) > needed[-1]:
            return ("under solitaire.actions = \"immutable\" transmutation ends once the Transmutation rule is "
                    "transmuted, and the immutable rules below it can then never be (rules 6 and 7)")
        return ("under solitaire.actions = \"immutable\" the last rule transmuted can never leave: once it is "
                "mutable no action's rule is immutable, so no action can subsume it or let its span run out "
                "(rules 6 and 7)")

    def lower_bound(self, state: State) -> int:
        """Turns still needed at least (admissible: life gained by subsuming or division only adds turns)."""
        if self.won(state):
            return 0
        left, _, others = state
        if self.dead_end(left):
            return UNREACHABLE
        needed = self.to_transmute(left)
        turns = 1
        while True:
            # Every other rule whose span outlasts `turns`, and every rule still to transmute that could not
            # die in time even if transmuted at the earliest, must be subsumed, each on a turn of its own.
            subsumed = sum(1 for span, _ in others if span > turns)
            subsumed += sum(1 for order, rank in enumerate(needed, start=1)
                            if rank != self.objective_rank and order + LIFE_SPAN > turns)
            if turns >= len(needed) + subsumed:
                return turns
            turns += 1

    def successors(self, state: State) -> Iterator[tuple[Move, State]]:
        """Every legal move and the canonical position it leads to, in a fixed order."""
        left, objective, others = state
        before = self.options.tick == "before"
        started = {other: other for other in others}  # each rule as the move names it: its span at the start
        if before:  # spans run down first; a rule at its last turn dies before the action
            others = tuple((span - 1, locked) for span, locked in others if span > 1)
            started = {(span, locked): (span + 1, locked) for span, locked in others}
            if objective:
                objective -= 1
                if not objective:
                    return
        objective_start = objective + 1 if before and objective else objective
        mutable = len(others) + (1 if objective else 0)
        forced = must_divide(mutable) and self.available("divide", left)
        if not forced:
            if left and self.available("transmute", left):
                if left == self.objective_rank:
                    yield ("transmute",), self._after(left - 1, LIFE_SPAN, others, [], fresh_objective=True)
                else:
                    yield ("transmute",), self._after(left - 1, objective, others, [(LIFE_SPAN, False)])
            if mutable and self.available("mutate", left):
                yield ("mutate",), self._after(left, objective, others, [])
            if self.available("subsume", left):
                yield from self._subsumptions(left, objective, objective_start, others, started)
        if self.available("divide", left):
            if objective:
                span = divided_span(objective)
                yield ("divide", OBJECTIVE), self._after(left, span, others, [(span, False)], fresh_objective=True)
            for other in sorted(set(others)):
                if not other[1]:
                    span = divided_span(other[0])
                    yield ("divide", started[other]), self._after(left, objective, _without(others, other),
                                                                  [(span, False), (span, False)])

    def _subsumptions(self, left: int, objective: int, objective_start: int, others: tuple[Other, ...],
                      started: dict[Other, Other]) -> Iterator[tuple[Move, State]]:
        kinds = sorted(set(others))
        if objective:
            for taken in kinds:
                yield (("subsume", OBJECTIVE, started[taken]),
                       self._after(left, subsumer_span(objective, taken[0], self.options), _without(others, taken), []))
        for subsumer in kinds:
            for taken in kinds:
                rest = _without(others, subsumer)
                if taken not in rest:
                    continue
                grown = (subsumer_span(subsumer[0], taken[0], self.options), subsumer[1])
                yield (("subsume", started[subsumer], started[taken]),
                       self._after(left, objective, _without(rest, taken) + (grown,), []))

    def _after(self, left: int, objective: int, others: tuple[Other, ...], fresh: list[Other], *,
               fresh_objective: bool = False) -> State | None:
        """The canonical position after a move: with tick = "after", the spans the move did not set run down."""
        if self.options.tick == "after":
            others = tuple((span - 1, locked) for span, locked in others if span > 1)
            if objective and not fresh_objective:
                objective -= 1
                if not objective:
                    return None  # the Objective died: no win can follow
        return left, objective, tuple(sorted(others + tuple(fresh)))


def _without(others: tuple[Other, ...], one: Other) -> tuple[Other, ...]:
    position = others.index(one)
    return others[:position] + others[position + 1:]


def canonical(setup: Setup, position: Position) -> State:
    left = sum(1 for rule in position.rules if not rule.mutable)
    objective = next((rule.span or 0 for rule in position.rules if rule.identity == setup.objective), 0)
    others = tuple(sorted((rule.span or 0, rule.first_mutable and not setup.options.divide_initial)
                          for rule in position.rules if rule.mutable and rule.identity != setup.objective))
    return left, objective, others


def search(puzzle: Puzzle, *, max_moves: int, max_states: int) -> Answer:
    """A* over canonical positions with `lower_bound` as its heuristic: the first win taken from the queue is a
    shortest one. Bounded: no sequence longer than `max_moves`, no more than `max_states` positions expanded."""
    start = puzzle.start
    reason = puzzle.dead_end(start[0])
    if reason:
        return Answer(None, 0, True, reason)
    best = {start: 0}
    came_from: dict[State, tuple[State, Move]] = {}
    order = 0
    queue = [(puzzle.lower_bound(start), 0, order, start)]
    expanded = 0
    while queue:
        _, negative_depth, _, state = heapq.heappop(queue)
        depth = -negative_depth
        if best[state] < depth:
            continue  # reached again by a shorter way since it was queued
        if puzzle.won(state):
            moves = []
            while state in came_from:
                state, move = came_from[state]
                moves.append(move)
            return Answer(tuple(reversed(moves)), expanded, True)
        if expanded >= max_states:
            return Answer(None, expanded, False)
        expanded += 1
        for move, following in puzzle.successors(state):
            if following is None or best.get(following, UNREACHABLE) <= depth + 1:
                continue
            estimate = depth + 1 + puzzle.lower_bound(following)
            if estimate > max_moves:
                continue
            best[following] = depth + 1
            came_from[following] = (state, move)
            order += 1
            heapq.heappush(queue, (estimate, -(depth + 1), order, following))
    return Answer(None, expanded, True)


# --- Playing the answer out -----------------------------------------------------------------------

@dataclass(frozen=True)
class PlayedTurn:
    action: Action
    played: Played


def play_out(game: Game, moves: tuple[Move, ...]) -> list[PlayedTurn]:
    """The moves as actions on the game's rules, each played through the replay's `play`: the lowest-numbered
    rule that fits each move, the lowest free number of 20 or more, and a mutation that renumbers a rule
    (it changes no clause) where a turn must pass. Raises AssertionError if the replay disagrees with the
    search, which would be a bug in one of them."""
    setup, position, problems = initial_position(game)
    assert not problems, problems
    turns = []
    used = {rule.number for rule in position.rules}  # a number is not given twice, though the rules allow it
    for move in moves:
        action = _action(setup, position, move, used)
        used |= {rule.number for rule in play(setup, position, action).position.rules}
        played = play(setup, position, action)
        assert played.applied and not played.violations and not played.problems, (move, played)
        turns.append(PlayedTurn(action, played))
        position = played.position
    return turns


def _action(setup: Setup, position: Position, move: Move, used: set[int]) -> Action:
    source = Source("solve", 0)

    def pick(named, besides: int | None = None) -> int:
        """The lowest-numbered rule the move names (rules with equal spans are alike to the search)."""
        if named == OBJECTIVE:
            return next(rule.number for rule in position.rules if rule.identity == setup.objective)
        span, locked = named
        return next(rule.number for rule in position.rules if rule.mutable and rule.identity != setup.objective
                    and rule.number != besides and rule.span == span
                    and (rule.first_mutable and not setup.options.divide_initial) == locked)

    free = next(n for n in range(FIRST_MUTABLE_NUMBER, FIRST_MUTABLE_NUMBER + len(used) + 1) if n not in used)
    kind = move[0]
    if kind == "transmute":
        rule = max(r.number for r in position.rules if not r.mutable)
        return Action("transmute", source, f"transmute {rule} to {free}", rule=rule, number=free)
    if kind == "subsume":
        into = pick(move[1])
        subsumed = pick(move[2], besides=into)
        return Action("subsume", source, f"subsume {subsumed} into {into}", rule=into, subsumed=subsumed)
    if kind == "divide":
        rule = pick(move[1])
        return Action("divide", source, f"divide {rule} as {free}", rule=rule, number=free)
    return _renumbering(setup, position, free)


def _renumbering(setup: Setup, position: Position, number: int) -> Action:
    """A mutation that passes the turn: a rule's number (rule 8 lets it be mutated) to a free one; the
    Objective last, so that the published log keeps its number steady."""
    words = setup.options.words
    last = 1 if setup.options.tick == "before" else 0  # a rule at its last turn dies before the action
    candidates = sorted((rule for rule in position.rules if rule.mutable and (rule.span or 0) > last),
                        key=lambda rule: (rule.identity == setup.objective, rule.number))
    for rule in candidates:
        old, new = (f"{rule.number}.", f"{number}.") if words == "spaces" else (str(rule.number), str(number))
        if not isinstance(locate_edits(rule.full_text, ((old, new),), words, ""), str):
            return Action("mutate", Source("solve", 0), f'mutate {rule.number}: "{old}" -> "{new}"', rule=rule.number,
                          edits=((old, new),))
    raise AssertionError("no rule's number can be quoted once")


# --- The seed's "additional challenge" ----------------------------------------------------------------

def shuffle_immutable(ruleset: Ruleset, seed: str) -> tuple[Ruleset, dict[int, int]]:
    """The ruleset with its immutable rules' numbers dealt at random (the same for the same seed, on every
    machine: Python's Random seeded by a string hashes it with SHA-512), and the map from old to new."""
    numbers = sorted(rule.number for rule in ruleset.rules if rule.rule_class == "immutable")
    dealt = list(numbers)
    random.Random(seed).shuffle(dealt)
    mapping = dict(zip(numbers, dealt))
    rules: list[Rule] = [dataclasses.replace(rule, number=mapping.get(rule.number, rule.number))
                         if rule.rule_class == "immutable" else rule for rule in ruleset.rules]
    rules.sort(key=lambda rule: (rule.rule_class != "immutable", rule.number))
    return dataclasses.replace(ruleset, rules=tuple(rules)), mapping
