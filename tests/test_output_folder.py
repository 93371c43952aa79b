"""`build -o` never loses a keeper's files: every dangerous output folder is refused before anything is
written, a previous site is replaced only when it carries the build's marker, and the site's modes follow
the umask."""
from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from generator.cli import main
from generator.files import SITE_MARKER
from tests.helpers import ROOT, copy_games, tree_digest


@pytest.fixture
def keeper(tmp_path):
    """A keeper's folder: the archive, a notes file beside it, and notes inside it."""
    content = copy_games(tmp_path, "mini")
    (tmp_path / "NOTES.txt").write_text("the keeper's own notes\n")
    (content / "README.txt").write_text("about these games\n")
    return tmp_path


def _everything(folder: Path) -> dict[str, str]:
    return tree_digest(folder)


@pytest.mark.parametrize("output, why", [
    ("content", "is the content folder"),
    ("content/mini", "lies inside the content folder"),
    ("content/out", "lies inside the content folder"),
    (".", "holds the content folder"),
    ("NOTES.txt", "is a file, not a folder"),
])
def test_a_dangerous_output_is_refused_and_nothing_changes(keeper, capsys, monkeypatch, output, why):
    monkeypatch.chdir(keeper)
    before = _everything(keeper)
    assert main(["build", "content", "-o", output]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{output}: {why}") and err.rstrip().endswith("nothing was written"), err
    assert err.count("\n") == 1
    assert _everything(keeper) == before
    assert sorted(p.name for p in keeper.iterdir()) == ["NOTES.txt", "content"]


def test_building_one_game_into_itself_is_refused(keeper, capsys, monkeypatch):
    monkeypatch.chdir(keeper)
    before = _everything(keeper)
    assert main(["build", "content/mini", "-o", "content/mini"]) == 2
    assert "is the content folder" in capsys.readouterr().err
    assert main(["build", "content/mini", "-o", "content/mini/site"]) == 2
    assert "lies inside the content folder" in capsys.readouterr().err
    assert _everything(keeper) == before


def test_a_folder_holding_a_game_is_refused(keeper, capsys, monkeypatch):
    monkeypatch.chdir(keeper)
    other = keeper / "other-archive"
    (other / "game").mkdir(parents=True)
    (other / "game" / "game.toml").write_text('title = "Another game"\n')
    before = _everything(keeper)
    assert main(["build", "content", "-o", "other-archive"]) == 2
    assert "holds a game" in capsys.readouterr().err
    assert _everything(keeper) == before


def test_a_folder_that_is_not_a_site_is_never_replaced(keeper, capsys, monkeypatch):
    monkeypatch.chdir(keeper)
    photos = keeper / "photos"
    photos.mkdir()
    (photos / "holiday.jpg").write_bytes(b"\xff\xd8 a keeper's photo")
    before = _everything(keeper)
    assert main(["build", "content", "-o", "photos"]) == 2
    err = capsys.readouterr().err
    assert f"has no {SITE_MARKER} file" in err and "empty or remove this one yourself" in err
    assert _everything(keeper) == before


def test_an_empty_folder_and_a_previous_site_are_replaced(keeper, capsys, monkeypatch):
    monkeypatch.chdir(keeper)
    (keeper / "site").mkdir()
    assert main(["build", "content", "-o", "site"]) == 0
    assert (keeper / "site" / SITE_MARKER).is_file()
    (keeper / "content" / "mini" / "log.md").write_text((keeper / "content" / "mini" / "log.md").read_text() + "\n")
    assert main(["build", "content", "-o", "site"]) == 0
    assert (keeper / "site" / SITE_MARKER).is_file()
    assert sorted(p.name for p in keeper.iterdir()) == ["NOTES.txt", "content", "site"]


def test_a_symlink_to_the_archive_is_seen_through(keeper, capsys, monkeypatch):
    monkeypatch.chdir(keeper)
    (keeper / "published").symlink_to(keeper / "content")
    before = _everything(keeper / "content")
    assert main(["build", "content", "-o", "published"]) == 2
    assert "is the content folder" in capsys.readouterr().err
    assert _everything(keeper / "content") == before


def test_serve_writes_no_site_and_takes_no_output_folder(keeper, capsys, monkeypatch):
    """serve draws each page when it is asked for, in memory: a folder named for it is refused before anything
    runs."""
    monkeypatch.chdir(keeper)
    before = _everything(keeper)
    with pytest.raises(SystemExit) as exited:
        main(["serve", "content", "-o", "content", "--port", "0"])
    assert exited.value.code == 2 and "unrecognized arguments: -o content" in capsys.readouterr().err
    assert _everything(keeper) == before


@pytest.mark.parametrize("mask", [0o022, 0o002, 0o077])
def test_the_site_modes_follow_the_umask(tmp_path, mask):
    content = copy_games(tmp_path, "mini")
    site = tmp_path / "site"
    # In a child process: the umask is the process's, and the build reads it once.
    code = f"import os, sys; os.umask({mask}); from generator.cli import main; sys.exit(main(['build', " \
           f"{str(content)!r}, '-o', {str(site)!r}]))"
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, capture_output=True)
    folders = [site] + [p for p in site.rglob("*") if p.is_dir()]
    files = [p for p in site.rglob("*") if p.is_file()]
    assert {stat.S_IMODE(p.stat().st_mode) for p in folders} == {0o777 & ~mask}
    assert {stat.S_IMODE(p.stat().st_mode) for p in files} == {0o666 & ~mask}
    assert len(files) > 20


def test_the_builds_own_files_are_readable_by_others_under_the_usual_umask(tmp_path):
    content = copy_games(tmp_path, "mini")
    code = f"import os, sys; os.umask(0o022); from generator.cli import main; sys.exit(main(['build', " \
           f"{str(content)!r}, '-o', {str(tmp_path / 'site')!r}]))"
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, capture_output=True)
    index = tmp_path / "site" / "index.html"
    assert os.stat(index).st_mode & stat.S_IROTH and os.stat(tmp_path / "site").st_mode & stat.S_IXOTH


def test_two_builds_into_one_folder_at_once_leave_one_complete_site(tmp_path):
    """A cron job and a keeper (or two CI jobs) building into one folder: the second waits for the first, and
    the folder holds one whole site, the one a build from nothing gives."""
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content" / "suber-1982", content / "suber-1982")
    shutil.copytree(ROOT / "content" / "slips-example", content / "slips-example")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    site = tmp_path / "site"
    runs = [subprocess.Popen([sys.executable, "-m", "generator", "build", str(content), "-o", str(site),
                              "--cache-dir", str(tmp_path / f"cache-{n}")], env=env, stderr=subprocess.PIPE, text=True)
            for n in range(2)]
    errors = [run.communicate(timeout=300)[1] for run in runs]
    assert [run.returncode for run in runs] == [0, 0], errors
    assert any("waiting for another build writing" in err for err in errors), errors
    fresh = tmp_path / "fresh"
    subprocess.run([sys.executable, "-m", "generator", "build", str(content), "-o", str(fresh), "--cache-dir",
                    str(tmp_path / "cache-fresh")], env=env, check=True, capture_output=True)
    assert tree_digest(site) == tree_digest(fresh)


def test_only_a_system_calls_failure_is_called_one_to_write(tmp_path):
    """`cannot write` names what the system refused; a TimeoutError of the program's own (a page past its
    deadline, which is an OSError) was called one, and a keeper sent to look at their disk."""
    import errno

    from generator.errors import ArchiveError
    from generator.files import writing

    with pytest.raises(ArchiveError, match="cannot write: Permission denied"):
        with writing(tmp_path):
            raise PermissionError(errno.EACCES, "Permission denied")
    with pytest.raises(TimeoutError):
        with writing(tmp_path):
            raise TimeoutError("drawing the page took over 10 s, too long for a template")
