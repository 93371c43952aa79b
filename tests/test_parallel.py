"""parallel.map_shares: the same list as a loop, on forked workers that send their results as they go."""
from __future__ import annotations

import os
import threading
import time

import pytest

from generator import parallel


@pytest.fixture(autouse=True)
def small_blocks(monkeypatch):
    monkeypatch.setattr(parallel, "MAP_BLOCK", 3)  # many blocks, taken in turn by both processes


def slowly(n: int) -> int:
    """An item that takes long enough for the worker to start before this process has taken every block."""
    time.sleep(0.001)
    return n


def test_map_shares_gives_every_result_in_order_whoever_computed_it():
    parent = os.getpid()
    results = parallel.map_shares(lambda n: (slowly(n) * n, os.getpid() == parent), list(range(500)), jobs=2, least=10)
    assert [square for square, _ in results] == [n * n for n in range(500)]
    here = [mine for _, mine in results]
    assert any(here) and not all(here), "both this process and the worker took blocks"


def test_map_shares_on_one_core_or_few_items_forks_nothing():
    parent = os.getpid()
    assert parallel.map_shares(lambda n: os.getpid() == parent, list(range(50)), jobs=1, least=10) == [True] * 50
    assert parallel.map_shares(lambda n: os.getpid() == parent, list(range(15)), jobs=2, least=10) == [True] * 15


def test_an_error_in_a_worker_is_raised_here():
    parent = os.getpid()

    def fails_in_the_worker(n: int) -> int:
        if os.getpid() != parent:
            raise ValueError(f"item {n} is bad")
        return slowly(n)
    with pytest.raises(ValueError, match=r"item \d+ is bad") as raised:
        parallel.map_shares(fails_in_the_worker, list(range(500)), jobs=2, least=10)
    assert "in a worker process" in raised.value.__notes__[0] and "fails_in_the_worker" in raised.value.__notes__[0]


def test_an_error_that_cannot_be_pickled_still_says_what_it_was():
    parent = os.getpid()

    class Unpicklable(Exception):
        def __init__(self):
            super().__init__("the lock it holds")
            self.lock = threading.Lock()

    def fails_in_the_worker(n: int) -> int:
        if os.getpid() != parent:
            raise Unpicklable()
        return slowly(n)
    with pytest.raises(RuntimeError, match="Unpicklable: the lock it holds"):
        parallel.map_shares(fails_in_the_worker, list(range(500)), jobs=2, least=10)


def test_a_worker_that_dies_is_an_error_not_a_wait_forever():
    parent = os.getpid()

    def dies_in_the_worker(n: int) -> int:
        if os.getpid() != parent:
            os._exit(3)
        return slowly(n)
    with pytest.raises(RuntimeError, match="ended before sending its results"):
        parallel.map_shares(dies_in_the_worker, list(range(500)), jobs=2, least=10)


def test_where_the_system_cannot_fork_everything_is_done_here_and_the_site_is_the_same(tmp_path, monkeypatch):
    """A system without fork (Windows, or a Python made without it) builds on one core: the same site, the
    same check, whatever --jobs says."""
    from generator import parallel
    from generator.cli import main
    from tests.helpers import tree_digest

    game = tmp_path / "content" / "long"
    assert main(["synth", str(game), "--proposals", "600", "--seed", "2"]) == 0
    assert main(["build", str(game.parent), "-o", str(tmp_path / "forked"), "--jobs", "2",
                 "--cache-dir", str(tmp_path / "cache-forked")]) == 0
    monkeypatch.setattr(parallel, "can_fork", lambda: False)
    monkeypatch.setattr(parallel.multiprocessing, "get_context", lambda *args: pytest.fail("forked"))
    assert parallel.available_cores() == 1
    for run in range(2):  # from nothing, then with the cache the first run wrote (beside, where it can fork)
        assert main(["build", str(game.parent), "-o", str(tmp_path / f"here-{run}"), "--jobs", "2",
                     "--cache-dir", str(tmp_path / "cache-here")]) == 0
        assert tree_digest(tmp_path / f"here-{run}") == tree_digest(tmp_path / "forked")
    assert main(["check", str(game), "--cache-dir", str(tmp_path / "cache-here")]) == 0
