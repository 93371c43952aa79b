"""Work split across the cores, the parent doing its part and forked workers the others: fixed shares
(`run_shares`, `map_shares`), or items taken in turn, each by whichever is free (`run_in_turn`).

Forking shares everything the parent built (the parsed game, the replay, the plan) without pickling it;
only each share's result travels back. Callers fork only where no other thread runs (a thread holding a lock
at the fork would leave it held in the child forever).
"""
from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")

# The work of the forked workers: set just before they start, so that nothing but its result is pickled.
_WORK: Callable | None = None


def available_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


def run_shares(work: Callable[[int], Result], shares: int) -> list[Result]:
    """[work(0), work(1), ...]: share 0 here, each other share in a forked worker, all at once."""
    global _WORK
    if shares <= 1:
        return [work(0)]
    _WORK = work
    try:
        with ProcessPoolExecutor(shares - 1, mp_context=multiprocessing.get_context("fork")) as pool:
            futures = [pool.submit(_share, share) for share in range(1, shares)]
            results = [work(0)]
            results += [future.result() for future in futures]
    finally:
        _WORK = None
    return results


def run_in_turn(work: Callable[[int], Result], count: int, jobs: int) -> list[Result]:
    """[work(0), ..., work(count - 1)] on `jobs` cores: item 0 here, the others taken in turn, here and in
    forked workers, each taking the next when it is done with one (items of unlike cost end together)."""
    if jobs <= 1 or count <= 1:
        return [work(item) for item in range(count)]
    taken = multiprocessing.get_context("fork").Value("i", 1)  # the next item: shared, made before the fork

    def take(share: int) -> dict[int, Result]:
        done = {0: work(0)} if share == 0 else {}
        while True:
            with taken.get_lock():
                item = taken.value
                taken.value += 1
            if item >= count:
                return done
            done[item] = work(item)
    results: dict[int, Result] = {}
    for part in run_shares(take, jobs):
        results.update(part)
    return [results[item] for item in range(count)]


def start_beside(work: Callable[[], None]) -> multiprocessing.process.BaseProcess:
    """`work` done by a forked process while this one goes on (its result is not sent back); `join()` waits
    for it. The child ends without running this process's exit handlers (it shares their files)."""
    process = multiprocessing.get_context("fork").Process(target=work, daemon=True)
    process.start()
    return process


def _share(share: int):
    return _WORK(share)


def map_shares(function: Callable[[Item], Result], items: list[Item], jobs: int, least: int) -> list[Result]:
    """[function(item) for item in items], on up to `jobs` cores: one share per `least` items at most, each
    share every jobs-th item (neighbours often cost alike, so the shares stay even)."""
    shares = min(jobs, max(1, len(items) // least))
    if shares <= 1:
        return [function(item) for item in items]
    parts = run_shares(lambda share: [function(item) for item in items[share::shares]], shares)
    results: list = [None] * len(items)
    for share, part in enumerate(parts):
        results[share::shares] = part
    return results
