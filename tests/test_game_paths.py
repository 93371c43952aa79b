"""A game named by any spelling of its path, from inside or outside it, is the same game: `check .` inside a
game folder once read every file as absent and called an unread game consistent."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from tests.helpers import ROOT

SLIPS = ROOT / "content" / "slips-example"


def run(cwd, *args):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "generator", *args], cwd=cwd, env=env, capture_output=True,
                          text=True)


@pytest.fixture
def game(tmp_path):
    folder = tmp_path / "archive" / "slips-example"
    shutil.copytree(SLIPS, folder)
    return folder


@pytest.mark.parametrize("where, spelling", [
    ("game", "."), ("game", "./"), ("game", "../slips-example"), ("parent", "slips-example/."),
    ("parent", "slips-example"), ("parent", "./slips-example/"), ("above", None), ("elsewhere", None),
])
def test_check_gives_one_answer_however_the_game_is_named(game, tmp_path, where, spelling):
    """The same findings, each file named from where check runs (so that `file:line` opens as printed): relative
    to the working directory inside it, in full outside it, as compilers name files."""
    (tmp_path / "elsewhere").mkdir()
    cwd = {"game": game, "parent": game.parent, "above": tmp_path, "elsewhere": tmp_path / "elsewhere"}[where]
    done = run(cwd, "check", spelling or str(game))
    assert done.returncode == 1, done.stderr
    assert done.stdout.splitlines()[-1] == "slips-example: 4 proposals, 2 discrepancies"
    log = {"game": "log.md", "parent": "slips-example/log.md", "above": "archive/slips-example/log.md",
           "elsewhere": f"{game}/log.md"}[where]
    assert f"{log}:38: proposal 303: Scores says Cleo 7" in done.stdout
    assert f"303 was already used at {log}:32" in done.stdout  # a place inside a message too
    assert (cwd / log).resolve() == (game / "log.md").resolve()  # opens as printed


def test_a_game_folder_without_rules_is_unreadable_not_empty(tmp_path):
    folder = tmp_path / "g"
    folder.mkdir()
    shutil.copyfile(SLIPS / "game.toml", folder / "game.toml")
    for args in (["check", "."], ["build", ".", "-o", str(tmp_path / "site")], ["solve", "."],
                 ["diff", ".@start", "."]):
        done = run(folder, *args)
        assert done.returncode == 2, (args, done.stdout, done.stderr)
        assert done.stderr.startswith("rules.md: missing: a game needs game.toml and rules.md"), args
        done = run(tmp_path, *[str(folder) if arg == "." else arg.replace(".@", f"{folder}@") for arg in args])
        assert "g/rules.md: missing: a game needs game.toml and rules.md" in done.stderr, args
    assert not (tmp_path / "site").exists()


def test_build_of_the_current_folder_reads_the_game(game, tmp_path):
    done = run(game, "build", ".", "-o", str(tmp_path / "site"))
    assert done.returncode == 0, done.stderr
    check_page = (tmp_path / "site" / "slips-example" / "check.html").read_text()
    assert "Scores says Cleo 7" in check_page
