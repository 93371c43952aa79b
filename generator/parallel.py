"""Work split across the cores, the parent doing its part and forked workers the others: fixed shares
(`run_shares`), or items taken in turn, each by whichever is free (`run_in_turn`; `map_shares`, whose workers
send their results while they go on).

Forking shares everything the parent built (the parsed game, the replay, the plan) without pickling it;
only each share's result travels back. Callers fork only where no other thread runs (a thread holding a lock
at the fork would leave it held in the child forever). Where the system cannot fork, all of it is done here,
on one core, in the same order.
"""
from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import pickle
import threading
import traceback
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from queue import Empty
from typing import Any, TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")

# The work of the forked workers: set just before they start, so that nothing but its result is pickled.
_WORK: Callable | None = None
MAP_BLOCK = 100  # items per block in map_shares: a few milliseconds of work, a few hundred KB to send


def can_fork() -> bool:
    return "fork" in multiprocessing.get_all_start_methods()


def available_cores() -> int:
    if not can_fork():
        return 1
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


def run_shares(work: Callable[[int], Result], shares: int) -> list[Result]:
    """[work(0), work(1), ...]: share 0 here, each other share in a forked worker, all at once."""
    global _WORK
    if shares <= 1 or not can_fork():
        return [work(share) for share in range(max(shares, 1))]
    _WORK = work
    try:
        with ProcessPoolExecutor(shares - 1, mp_context=multiprocessing.get_context("fork"),
                                 initializer=_end_with_parent) as pool:
            try:
                futures = [pool.submit(_share, share) for share in range(1, shares)]
                results = [work(0)]
                results += [future.result() for future in futures]
            except BaseException:  # Ctrl-C, SIGTERM: leaving the pool would wait for each worker's whole share
                end_workers()
                raise
    finally:
        _WORK = None
    return results


def run_in_turn(work: Callable[[int], Result], count: int, jobs: int) -> list[Result]:
    """[work(0), ..., work(count - 1)] on `jobs` cores: item 0 here, the others taken in turn, here and in
    forked workers, each taking the next when it is done with one (items of unlike cost end together)."""
    if jobs <= 1 or count <= 1 or not can_fork():
        return [work(item) for item in range(count)]
    next_item = _turns(1)

    def take(share: int) -> dict[int, Result]:
        done = {0: work(0)} if share == 0 else {}
        while (item := next_item()) < count:
            done[item] = work(item)
        return done
    results: dict[int, Result] = {}
    for part in run_shares(take, jobs):
        results.update(part)
    return [results[item] for item in range(count)]


def _turns(first: int) -> Callable[[], int]:
    """first, first + 1, ...: one number a call, in this process and the workers forked after this is made (the
    count is shared memory), each number given once."""
    taken = multiprocessing.get_context("fork").Value("i", first)

    def take() -> int:
        with taken.get_lock():
            number = taken.value
            taken.value += 1
        return number
    return take


class _Done:
    """What start_beside returns where it did the work itself."""

    def join(self, timeout: float | None = None) -> None:
        pass


def start_beside(work: Callable[[], None]) -> multiprocessing.process.BaseProcess | _Done:
    """`work` done by a forked process while this one goes on (its result is not sent back); `join()` waits
    for it. The child ends without running this process's exit handlers (it shares their files). Where the
    system cannot fork, `work` is done here first."""
    if not can_fork():
        work()
        return _Done()
    process = multiprocessing.get_context("fork").Process(target=_ending_with_parent(work), daemon=True)
    process.start()
    return process


def end_workers() -> None:
    """End every worker this process forked and has not joined: the work was stopped (Ctrl-C, SIGTERM), and
    what they make is not wanted."""
    for child in multiprocessing.active_children():
        child.kill()
        child.join()


def _end_with_parent() -> None:
    """Called in each forked worker as it starts: end it as soon as the process that forked it ends, however
    that ends. A build killed by SIGKILL (or an out-of-memory kill) cannot end its workers itself, and one left
    running went on drawing into a staging folder nobody would swap in, then waited for ever on a pipe nobody
    read. multiprocessing gives each child the read end of a pipe whose other end only its parent holds (the
    parent's sentinel): the system closes that end when the parent dies, which wakes this thread. (A sibling
    forked later holds the other end too: it ends first, then this one.)"""
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def wait_for_parent() -> None:
        multiprocessing.connection.wait([parent.sentinel])
        os._exit(1)  # no exit handler: they are the parent's, and its files are not ours to finish
    threading.Thread(target=wait_for_parent, name="nomic-parent-watch", daemon=True).start()


def _ending_with_parent(work: Callable[..., None]) -> Callable[..., None]:
    def run(*args) -> None:
        _end_with_parent()
        work(*args)
    return run


def _share(share: int):
    return _WORK(share)


def map_shares(function: Callable[[Item], Result], items: list[Item], jobs: int, least: int) -> list[Result]:
    """[function(item) for item in items], on up to `jobs` cores (one per `least` items at most): this process
    and forked workers take blocks of MAP_BLOCK items in turn, and each worker sends a block's results as soon as
    it has them, which this process reads between blocks of its own. Sending results back (a long log's entries:
    pickled, piped, unpickled) then overlaps the work, all but the last block's, and a worker slower than this
    process (its first writes copy the pages it shares) takes fewer blocks."""
    shares = min(jobs, max(1, len(items) // least))
    if shares <= 1 or not can_fork():
        return [function(item) for item in items]
    context = multiprocessing.get_context("fork")
    blocks = [range(start, min(start + MAP_BLOCK, len(items))) for start in range(0, len(items), MAP_BLOCK)]
    take = _turns(0)

    def done(block: int) -> list[Result]:
        return [function(items[position]) for position in blocks[block]]

    def work(results) -> None:
        try:
            while (block := take()) < len(blocks):
                results.put((block, done(block)))
            results.put(None)
        except BaseException as error:  # noqa: BLE001 - raised again in this process, which would wait forever
            results.put(_Failed(error))

    results: list = [None] * len(items)
    queue = context.Queue()  # a worker's puts go out on a thread of its own, while it takes the next block
    workers = [context.Process(target=_ending_with_parent(work), args=(queue,), daemon=True)
               for _ in range(shares - 1)]
    for worker in workers:
        worker.start()
    running = len(workers)

    def receive(message) -> int:
        """1 when `message` says a worker is done, else 0 (its block put in place)."""
        if isinstance(message, _Failed):
            raise message.error
        if message is None:
            return 1
        block, computed = message
        results[blocks[block].start:blocks[block].stop] = computed
        return 0
    try:
        while (block := take()) < len(blocks):
            results[blocks[block].start:blocks[block].stop] = done(block)
            while running and not queue.empty():
                running -= receive(queue.get())
        while running:
            running -= receive(_next(queue, workers))
    finally:
        for worker in workers:
            if running:
                worker.kill()
            worker.join()
        queue.close()
    return results


def _next(queue, workers: list) -> Any:
    """The next message from the workers; an error when they all ended without sending it (one was killed)."""
    while True:
        try:
            return queue.get(timeout=0.5)
        except Empty:
            if not any(worker.is_alive() for worker in workers) and queue.empty():
                raise RuntimeError("a worker process ended before sending its results") from None


class _Failed:
    """A worker's exception, sent to be raised again in this process, its traceback in the worker as a note."""

    def __init__(self, error: BaseException):
        where = "".join(traceback.format_exception(error))
        try:
            pickle.dumps(error)
        except Exception:  # noqa: BLE001 - an exception that cannot travel: its words do
            error = RuntimeError(f"{type(error).__name__}: {error}")
        error.add_note(f"in a worker process:\n{where}")
        self.error = error
