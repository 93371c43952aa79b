"""bench/feature_costs.py builds a game without a feature's work: the site it draws must lack that feature and
nothing else, or the benchmark would be measuring something other than what it names."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from generator.cli import main
from tests.helpers import ROOT

SCRIPT = ROOT / "bench" / "feature_costs.py"
_LEGEND = re.compile(r'<aside class="legend".*?</aside>', re.DOTALL)


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("synth") / "game"
    assert main(["synth", str(folder), "--proposals", "150"]) == 0
    return folder


def build_without(game: Path, out: Path, features: str) -> Path:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NOMIC_ARCHIVE_CACHE_DIR": str(out / "cache")}
    done = subprocess.run([sys.executable, str(SCRIPT), "--child", features, "build", str(game), "-o",
                           str(out / "site")], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return out / "site" / "game"


def edits_shown(site: Path) -> int:
    """The <ins> and <del> of the proposals' pages, the legend's example left out."""
    return sum(len(re.findall(r"<(?:ins|del)\b", _LEGEND.sub("", page.read_text(encoding="utf-8"))))
               for page in (site / "proposals").glob("*.html"))


def test_each_feature_taken_out_is_missing_from_the_site_and_the_rest_is_there(game, tmp_path):
    whole = build_without(game, tmp_path / "whole", "")
    assert edits_shown(whole) > 100
    assert any((whole / "compare" / "rules").glob("*.js")) and (whole / "points" / "index.js").is_file()
    assert any((whole / "search").glob("*.js"))
    pages = {p.relative_to(whole).as_posix() for p in whole.rglob("*.html")}

    no_redlines = build_without(game, tmp_path / "redlines", "redlines")
    assert edits_shown(no_redlines) == 0
    assert {p.relative_to(no_redlines).as_posix() for p in no_redlines.rglob("*.html")} == pages

    no_pieces = build_without(game, tmp_path / "pieces", "pieces")
    assert not (no_pieces / "compare" / "rules").exists() and not (no_pieces / "points").exists()
    assert edits_shown(no_pieces) == edits_shown(whole)

    no_search = build_without(game, tmp_path / "search", "search")
    assert not (no_search / "search").exists()
    assert (no_search / "proposals" / "index.html").read_bytes() == (whole / "proposals" / "index.html").read_bytes()


def test_a_function_it_replaces_that_is_gone_stops_it_by_name():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", "import sys; sys.path.insert(0, 'bench'); import feature_costs; "
                           "from generator.site import pages; del pages.list_points_pages; "
                           "feature_costs.take_out(('pieces',))"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 1
    assert "generator.site.pages.list_points_pages is gone" in done.stderr
