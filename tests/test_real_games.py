"""bench/real_games.py imports each real game of its list from a clone, at the commit its figures were taken at,
and says which figure moved: the measure of the importers on records nobody shaped for this program."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.helpers import ROOT, git_commit

RULES = "# Rules\n\n## 101. Obey\n\nAll players must obey the rules.\n\n## 201. Quorum\n\nHalf the players vote.\n"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bench.real_games", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)


def listed(tmp_path: Path, figures: str) -> tuple[Path, Path]:
    """A clones folder with one game (two proposals, the second past the commit its figures are taken at) and a
    list naming it, and one whose clone is missing."""
    repo = tmp_path / "clones" / "ann+game"
    git_commit(repo, "Initial rules", {"rules.md": RULES}, date="2020-06-01T10:00:00")
    taken = git_commit(repo, "Proposal 301: a higher quorum",
                       {"rules.md": RULES.replace("Half the", "Two thirds of the")}, date="2020-06-03T10:00:00")
    git_commit(repo, "Proposal 302: more", {"rules.md": RULES.replace("Half the", "All the")},
               date="2020-06-05T10:00:00")
    games = tmp_path / "games.toml"
    games.write_text(f'[game."ann/game"]\nrepository = "ann/game"\ncommit = "{taken}"\nargs = ["--rules", "rules.md"]\n'
                     f"figures = {{ {figures} }}\n\n"
                     '[game."bo/gone"]\nrepository = "bo/gone"\ncommit = "0000000"\n', encoding="utf-8")
    return tmp_path / "clones", games


def test_each_game_is_read_at_its_commit_and_its_figures_compared(tmp_path) -> None:
    clones, games = listed(tmp_path, "proposals = 1, exit = 0, lines = 2, findings = 0, notes = 0")
    done = run(str(clones), "--games", str(games), "--keep", str(tmp_path / "kept"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ann/game: proposals 1, exit 0, lines 2, findings 0, notes 0\n" in done.stdout
    assert f"bo/gone: skipped, no clone of bo/gone in {clones}" in done.stdout
    assert done.stdout.endswith("1 games read, 1 skipped; every figure as recorded\n")
    kept = tmp_path / "kept"
    assert "## Proposal 301" in (kept / "ann+game" / "log.md").read_text(encoding="utf-8")
    assert "Proposal 302" not in (kept / "ann+game" / "log.md").read_text(encoding="utf-8")  # (past --to)
    again = run(str(clones), "--games", str(games), "--only", "ANN", "--keep", str(tmp_path / "again"),
                "--compare", str(kept))
    assert "against the earlier run: the same" in again.stdout and "bo/gone" not in again.stdout


def test_a_figure_that_moved_is_shown_and_fails_the_run(tmp_path) -> None:
    clones, games = listed(tmp_path, "proposals = 2, exit = 0, lines = 2, findings = 0, notes = 0")
    done = run(str(clones), "--games", str(games))
    assert done.returncode == 1
    assert "ann/game: proposals 2 -> 1, exit 0," in done.stdout
    assert done.stdout.endswith("figures differ from those recorded\n")


def test_a_kept_folder_is_never_written_into_and_an_unknown_name_is_said(tmp_path) -> None:
    clones, games = listed(tmp_path, "proposals = 1")
    keeper = tmp_path / "mine"
    keeper.mkdir()
    (keeper / "notes.txt").write_text("my notes\n", encoding="utf-8")
    done = run(str(clones), "--games", str(games), "--keep", str(keeper))
    assert done.returncode == 2 and f"{keeper}: not empty: --keep needs a new or empty folder" in done.stderr
    assert [p.name for p in keeper.iterdir()] == ["notes.txt"]
    done = run(str(clones), "--games", str(games), "--only", "nobody")
    assert done.returncode == 2 and f"no game's name in {games} holds 'nobody'" in done.stderr


def test_the_list_reads_and_names_each_game_once() -> None:
    import tomllib
    games = tomllib.loads((ROOT / "bench" / "real_games.toml").read_text(encoding="utf-8"))["game"]
    assert len(games) >= 29
    for name, game in games.items():
        assert set(game["figures"]) == {"proposals", "exit", "lines", "findings", "notes"}, name
        assert "repository" in game or {"ruleset", "assessor"} <= game.keys(), name
        assert "records" not in game or tomllib.loads(game["records"]), name  # (a records file's text)
