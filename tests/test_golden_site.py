"""Golden output: key pages of the bundled games, byte for byte.

After an intended change, regenerate with NOMIC_UPDATE_GOLDEN=1 and read the diff before committing.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from generator.cli import main
from tests.helpers import DATA, ROOT

GOLDEN = DATA / "golden"
KEY_PAGES = [
    "index.html",
    "suber-1982/index.html",
    "suber-1982/rules/index.html",
    "suber-1982/proposals/305.html",
    "suber-1982/check.html",
    "wiki-2005/rules/index.html",
    "wiki-2005/check.html",
    "livejournal-2007/rules/310.html",
    "livejournal-2007/rules/203.html",
    "livejournal-2007/proposals/301.html",
    "solitaire/index.html",
    "solitaire/turns/14.html",
    "solitaire/timeline.html",
]


@pytest.fixture(scope="module")
def bundled_site(tmp_path_factory) -> Path:
    site = tmp_path_factory.mktemp("golden") / "site"
    assert main(["build", str(ROOT / "content"), "-o", str(site)]) == 0
    return site


@pytest.mark.parametrize("page", KEY_PAGES)
def test_key_page_matches_golden(bundled_site, page):
    built = (bundled_site / page).read_text(encoding="utf-8")
    golden = GOLDEN / page
    if os.environ.get("NOMIC_UPDATE_GOLDEN") == "1":
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(built, encoding="utf-8")
    assert built == golden.read_text(encoding="utf-8")


def test_bundled_games_check_clean(capsys):
    assert main(["check", str(ROOT / "content")]) == 0
    assert "discrepanc" not in capsys.readouterr().out
