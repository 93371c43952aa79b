"""`nomic-archive synth`: a deterministic synthetic game that exercises what real games do and checks clean."""
from __future__ import annotations

import pytest

from generator.cli import main
from tests.helpers import tree_digest


@pytest.mark.parametrize("options", [
    [],
    ["--players", "2", "--seed", "1"],
    ["--players", "5", "--seed", "7", "--per-file", "40"],
    ["--players", "20", "--seed", "3"],
])
def test_synthetic_games_check_clean(tmp_path, capsys, options):
    game = tmp_path / "game"
    assert main(["synth", str(game), "--proposals", "400", *options]) == 0
    capsys.readouterr()
    assert main(["check", str(game)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == "game: 400 proposals, consistent"


def test_a_synthetic_game_does_what_real_games_do(tmp_path, capsys):
    game = tmp_path / "game"
    assert main(["synth", str(game), "--proposals", "600"]) == 0
    log = (game / "log.md").read_text(encoding="utf-8")
    for phrase in ("by replacing \"", "deleting \"", "to read:\n\n> ", "by appending:", "Enact rule: ",
                   "Repeal rule ", "Transmute rule ", "Renumber rule ", "Retitle rule ", "Result: defeated",
                   "Result: withdrawn", "Votes: for", "; against ", "## Judgment ", "Sets: score ",
                   "Players: +", 'Effect: scoring.turn = "formula"', "Points: ", "Die: "):
        assert phrase in log, phrase
    assert (game / "snapshots" / "midgame.md").read_text(encoding="utf-8").startswith("After: proposal 601\n")
    assert main(["check", str(game), "--format", "json"]) == 0
    assert '"consistent": true' in capsys.readouterr().out


def test_the_same_arguments_give_the_same_files(tmp_path):
    for name in ("a", "b"):
        assert main(["synth", str(tmp_path / name), "--proposals", "150", "--per-file", "50", "--seed", "9"]) == 0
    assert tree_digest(tmp_path / "a") == tree_digest(tmp_path / "b")
    assert sorted(p.name for p in (tmp_path / "a" / "log").iterdir()) == ["0000.md", "0001.md", "0002.md"]
    assert main(["synth", str(tmp_path / "c"), "--proposals", "150", "--per-file", "50", "--seed", "10"]) == 0
    assert tree_digest(tmp_path / "a") != tree_digest(tmp_path / "c")


def test_synth_never_writes_into_a_folder_that_holds_something(tmp_path, capsys):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "notes.md").write_text("my notes", encoding="utf-8")
    assert main(["synth", str(folder), "--proposals", "10"]) == 2
    assert "already exists and is not an empty folder; nothing was written" in capsys.readouterr().err
    assert [p.name for p in folder.iterdir()] == ["notes.md"]
    assert (folder / "notes.md").read_text(encoding="utf-8") == "my notes"


def test_synth_reports_every_bad_option_at_once(tmp_path, capsys):
    assert main(["synth", str(tmp_path / "g"), "--proposals", "0", "--players", "1", "--per-file", "0"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "--per-file: must be at least 1 (got 0)", "--players: must be at least 2 (got 1)",
        "--proposals: must be at least 1 (got 0)"]
    assert not (tmp_path / "g").exists()


def test_a_weighted_synthetic_game_checks_clean(tmp_path, capsys):
    game = tmp_path / "weighted"
    assert main(["synth", str(game), "--proposals", "300", "--weighted"]) == 0
    log = (game / "log.md").read_text(encoding="utf-8")
    assert "Index: " in log and " x" in log and "Result: defeated" in log and "Enact power 1.0 rule" in log
    capsys.readouterr()
    assert main(["check", str(game)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "weighted: 300 proposals, consistent"
