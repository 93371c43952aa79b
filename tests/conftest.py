"""Fixtures shared by the test modules: a cache folder of the tests' own, a small game, its SiteBuilder, and a
server of its site."""
from __future__ import annotations

import signal
import threading
from pathlib import Path

import pytest

from generator.cache import CACHE_ENV
from generator.serve import EventHub, SiteBuilder, SiteServer
from tests.test_serve import write_game


def pytest_configure(config):
    """Ctrl-C as a terminal sends it, for the `serve` processes the tests stop with SIGINT: a shell starts a
    background job (`pytest &` in a script) with SIGINT ignored, which every process it starts would inherit
    (and a Python started so never turns SIGINT into KeyboardInterrupt)."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(autouse=True, scope="session")
def _cache_folder(tmp_path_factory):
    """Every test runs with its own cache folder (NOMIC_ARCHIVE_CACHE_DIR), never the user's."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(CACHE_ENV, str(tmp_path_factory.mktemp("cache")))
        yield


@pytest.fixture
def game(tmp_path) -> Path:
    return write_game(tmp_path / "content")


@pytest.fixture
def builder(game, tmp_path) -> SiteBuilder:
    builder = SiteBuilder(game.parent, tmp_path / "site")
    first = builder.build_all()
    assert first.ok, first.errors
    return builder


@pytest.fixture
def server(builder):
    hub = EventHub()
    server = SiteServer(builder.out, hub)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield server
    hub.close()
    server.shutdown()
    server.server_close()
