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


def test_bundled_games_check_clean_but_the_example_of_slips(capsys):
    for game in sorted(p for p in (ROOT / "content").iterdir() if (p / "game.toml").is_file()):
        assert main(["check", str(game)]) == (1 if game.name == "slips-example" else 0), game.name
        out = capsys.readouterr().out
        assert ("discrepanc" in out) == (game.name == "slips-example"), out


def test_the_guide_shows_the_slips_as_check_prints_them(capsys, monkeypatch):
    """The guide's sample of `check` (docs/guide/verify.md) is the bundled example's output, exactly."""
    monkeypatch.chdir(ROOT)
    assert main(["check", "content/slips-example"]) == 1
    printed = capsys.readouterr().out
    guide = (ROOT / "docs" / "guide" / "verify.md").read_text(encoding="utf-8")
    shown = guide.split("    $ nomic-archive check content/slips-example ", 1)[1].split("\n", 1)[1].split("\n\n", 1)[0]
    assert printed == "\n".join(line.removeprefix("    ") for line in shown.split("\n")) + "\n"
