"""Fixtures shared by the test modules: a cache folder of the tests' own, a small game, serve's site of it, a
server of that site, and long lists in small parts."""
from __future__ import annotations

import signal
import threading
from pathlib import Path

import pytest

from generator.cache import CACHE_ENV, sealing_key
from generator.serve import EventHub, LiveSite, SiteServer
from generator.site import compare_pages, pages, points, views
from tests.test_serve import write_game


def pytest_configure(config):
    """Ctrl-C as a terminal sends it, for the `serve` processes the tests stop with SIGINT: a shell starts a
    background job (`pytest &` in a script) with SIGINT ignored, which every process it starts would inherit
    (and a Python started so never turns SIGINT into KeyboardInterrupt)."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(autouse=True, scope="session")
def _cache_folder(tmp_path_factory):
    """Every test runs with its own cache folder (NOMIC_ARCHIVE_CACHE_DIR) and its own key that seals the
    records (in the state folder, XDG_STATE_HOME), never the user's."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(CACHE_ENV, str(tmp_path_factory.mktemp("cache")))
        patch.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("state")))
        sealing_key.cache_clear()
        yield


@pytest.fixture
def game(tmp_path) -> Path:
    return write_game(tmp_path / "content")


@pytest.fixture
def live(game) -> LiveSite:
    live = LiveSite(game.parent)
    first = live.update()
    assert first.ok, first.errors
    return live


@pytest.fixture
def server(live):
    hub = EventHub()
    server = SiteServer(live, hub)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield server
    hub.close()
    server.shutdown()
    server.server_close()


@pytest.fixture
def small_parts(monkeypatch):
    """Parts of at most 40 log entries and 6,000 characters of their texts, 10 table rows, points pieces of 16
    entries with a keyframe every third, rules' comparisons in buckets of 4, and the comparison of the start
    with now in parts of 4 rules, so that a game of 120 proposals has several of each (its 13 defeated proposals
    two parts)."""
    monkeypatch.setattr(views, "LOG_PART", 40)
    monkeypatch.setattr(views, "LOG_PART_CHARS", 6_000)
    for module in (pages, views):
        monkeypatch.setattr(module, "TABLE_PART", 10)
    monkeypatch.setattr(points, "PER_PIECE", 16)
    monkeypatch.setattr(points, "KEYFRAME", 3)
    monkeypatch.setattr(points, "RULES_PER_PIECE", 4)
    monkeypatch.setattr(compare_pages, "COMPARE_PART", 4)
