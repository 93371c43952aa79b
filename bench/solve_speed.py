#!/usr/bin/env python3
"""The solver on the bundled Solitaire Nomic game: states expanded and time, for the plain ruleset and shuffled
ones, under each reading of the seed, and (for comparison) without the lower bound that prunes the search.

Usage: solve_speed.py [SEED ...] [--compare] [--max-states N]   (default: seeds 1 to 8)

With --compare, each search runs again without the bound: breadth-first (every position nearer the start is
expanded first), capped at --max-states (default 200,000) expanded positions, marked ">" when it stops there.
"""
from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from generator.engine.solitaire import initial_position  # noqa: E402
from generator.engine.solve import Puzzle, search, shuffle_immutable  # noqa: E402
from generator.parse.game import load_game  # noqa: E402

READINGS = {"default": {}, "tick before": {"solitaire.tick": "before"},
            "no subsumer cap": {"solitaire.subsumer_cap": False},
            "100/101 undivided": {"solitaire.divide_initial": False}}


class Unbounded(Puzzle):
    """The same search with no estimate of the turns left: breadth-first."""

    def lower_bound(self, state) -> int:
        return 0


def measure(puzzle: Puzzle, max_states: int) -> tuple[str, int, bool, float]:
    started = time.perf_counter()
    answer = search(puzzle, max_moves=60, max_states=max_states)
    seconds = time.perf_counter() - started
    turns = str(len(answer.moves)) if answer.moves else ("none" if answer.complete else "?")
    return turns, answer.states, answer.complete, seconds


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("seeds", nargs="*", default=[str(n) for n in range(1, 9)])
    parser.add_argument("--compare", action="store_true", help="also search without the bound (slow)")
    parser.add_argument("--max-states", type=int, default=200_000)
    args = parser.parse_args()
    game = load_game(HERE.parent / "content" / "solitaire")
    print(f"{'ruleset':<10} {'reading':<18} {'Objective':>9} {'turns':>5} {'states':>8} {'seconds':>8}"
          + (f" {'unbounded states':>17} {'seconds':>8}" if args.compare else ""))
    for seed in [None, *args.seeds]:
        rules, mapping = shuffle_immutable(game.rules, seed) if seed else (game.rules, {})
        for reading, options in READINGS.items() if seed is None else [("default", {})]:
            config = game.config
            for key, value in options.items():
                config = config.with_value(key, value)
            setup, position, _ = initial_position(dataclasses.replace(game, rules=rules, config=config))
            puzzle = Puzzle.of(setup, position)
            turns, states, _, seconds = measure(puzzle, args.max_states)
            name = "plain" if seed is None else f"shuffle {seed}"
            line = f"{name:<10} {reading:<18} {mapping.get(2, 2):>9} {turns:>5} {states:>8} {seconds:>8.3f}"
            if args.compare:
                plain = Unbounded(puzzle.options, puzzle.start, puzzle.objective_rank, puzzle.ranks)
                _, wide, complete, wide_seconds = measure(plain, args.max_states)
                line += f" {('' if complete else '>') + str(wide):>17} {wide_seconds:>8.2f}"
            print(line, flush=True)


if __name__ == "__main__":
    main()
