"""Fixtures shared by the test modules: a small game, its SiteBuilder, and a server of its site."""
from __future__ import annotations

import threading
from pathlib import Path

import pytest

from generator.serve import EventHub, SiteBuilder, SiteServer
from tests.test_serve import write_game


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
