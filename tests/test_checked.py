"""What `check` says of games unchanged since a build or a check read them comes from the cache (checked.py): it
must say, byte for byte and in every format, what replaying the games says; after random edits of the kinds a
keeper makes (tests/test_differential.py's), over games of every shape (findings naming other places, judgments
that override, notes, decisions again, Solitaire, fractional scores)."""
from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from generator import replays
from generator.cache import Cache
from generator.checked import CheckedGames, checked_game, stored_checks
from generator.cli import main
from generator.commands.check import report_github, report_json, report_text
from generator.engine import replay_game
from generator.parse.game import load_content
from generator.places import Places
from generator.records import decoded, encoded
from tests.helpers import ROOT
from tests.test_differential import KINDS, _edit, _games_for

CASES = sorted(p.parent for p in (ROOT / "tests" / "cases" / "engine").glob("*/game.toml"))
FORMATS = ("text", "json", "github")


def _check(content: Path, cache: Path, output_format: str, capsys) -> tuple[int, str, str]:
    code = main(["check", str(content), "--format", output_format, "--cache-dir", str(cache), "-q"])
    out, err = capsys.readouterr()
    return code, out, err


def _all_formats(content: Path, cache: Path, capsys) -> list[tuple[int, str, str]]:
    return [_check(content, cache, output_format, capsys) for output_format in FORMATS]


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_what_check_says_of_a_game_reads_back_from_its_record_as_it_was_made(case):
    """Every case game's findings (Cited messages, causes), overrides, notes, counts, scores and winner: the record
    read back prints what the replay's print, in every format."""
    games = load_content(case)
    made = tuple(checked_game(replay_game(game)) for game in games)
    read = decoded(encoded(made, CheckedGames), CheckedGames)
    assert read == made
    places = Places(case.parent)
    for report in (report_text, report_github, report_json):
        assert report(list(read), places) == report(list(made), places), report.__name__


@pytest.mark.parametrize("run", range(2))
def test_check_with_the_cache_says_what_a_replay_says_after_random_edits(run, tmp_path, small_parts, monkeypatch,
                                                                         capsys, synthetic):
    """After each edit: check with the cache a build (or a check) left reads its answer from the cache, replaying
    nothing, and says what check with no cache says; a game that cannot be read is said so (exit 2) either way."""
    rng = random.Random(4000 + run)
    content = tmp_path / "content"
    for name, source in _games_for(4000 + run, synthetic):
        shutil.copytree(source, content / name)
    games = sorted(p.name for p in content.iterdir())
    kept = tmp_path / "kept"
    assert main(["build", str(content), "-o", str(tmp_path / "site"), "--cache-dir", str(kept), "-q"]) in (0, 1)
    capsys.readouterr()
    for step, kind in enumerate(rng.sample(KINDS, len(KINDS))):
        done = _edit(rng, kind, content, games)
        fresh = _all_formats(content, tmp_path / f"empty-{step}", capsys)
        if step % 2:  # a build leaves the answer, or else the first check does
            main(["build", str(content), "-o", str(tmp_path / "site"), "--cache-dir", str(kept), "-q"])
        else:
            _check(content, kept, "text", capsys)
        capsys.readouterr()
        readable = fresh[0][0] != 2
        with monkeypatch.context() as patched:
            if readable:
                patched.setattr(replays, "replay_games", lambda *a, **k: pytest.fail(f"replayed again after {done}"))
            assert _all_formats(content, kept, capsys) == fresh, done
        assert (stored_checks(Cache(kept, content), content)[1] is not None) == readable, done


def test_a_check_that_reads_its_answer_drops_no_record_a_later_edit_needs(game_folder, tmp_path, capsys,
                                                                        monkeypatch):
    """A check of unchanged games, run again and again, marks no record and so drops none (were the cache past
    the size at which it drops what recent runs did not use): the parsed entries an edit then needs are still
    there, and none is parsed again."""
    from generator import cache as cache_module
    from generator.parse import log

    monkeypatch.setattr(cache_module, "KEEP_FACTOR", 0)  # any size is past it

    cache = tmp_path / "cache"
    assert main(["build", str(game_folder), "-o", str(tmp_path / "site"), "--cache-dir", str(cache), "-q"]) == 0
    for _ in range(12):
        _check(game_folder, cache, "text", capsys)
    text = (game_folder / "log.md").read_text(encoding="utf-8")
    (game_folder / "log.md").write_text(text.replace("\n## ", "\nA word more.\n\n## ", 1), encoding="utf-8")
    parsed = []
    original = log._parse_chunk

    def counted(*args, **kwargs):
        parsed.append(args)
        return original(*args, **kwargs)
    log._parse_chunk = counted
    try:
        _check(game_folder, cache, "text", capsys)
    finally:
        log._parse_chunk = original
    assert parsed == []


@pytest.fixture
def game_folder(tmp_path) -> Path:
    folder = tmp_path / "content" / "long"
    assert main(["synth", str(folder), "--proposals", "30", "--seed", "5"]) == 0
    return folder


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("synth") / "long"
    assert main(["synth", str(folder), "--proposals", "40", "--seed", "3", "--per-file", "25"]) == 0
    return folder

