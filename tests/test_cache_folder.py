"""The cache folder: where platformdirs puts it, and all its files kept under a cap, those of the content
folders used longest ago removed first. Deleting any of it costs only time."""
from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import platformdirs

from generator import cache as cache_module
from generator.cache import CACHE_ENV, OWN_FOLDER, Cache, default_cache_dir, remove_least_recently_used
from generator.cli import main
from tests.helpers import copy_games, tree_digest


def test_the_default_folder_is_the_users_cache_folder_as_platformdirs_names_it(monkeypatch, tmp_path):
    monkeypatch.delenv(CACHE_ENV, raising=False)
    assert default_cache_dir() == Path(platformdirs.user_cache_dir("nomic-archive", appauthor=False))
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "mine"))
    assert default_cache_dir() == tmp_path / "mine"


def _cache_file(folder: Path, project: str, size: int, used: int) -> Path:
    """A cache of `size` bytes or so for the content folder `project`, last used at `used` (seconds)."""
    cache = Cache(folder, Path(project))
    cache.put(project.encode(), os.urandom(size))
    cache.flush()
    cache._db.close()  # as a run that ended without removing anything
    os.utime(cache.path, (used, used))
    return cache.path


def _sizes(path: Path) -> int:
    files = [f"{path}{suffix}" for suffix in ("", "-wal", "-shm")]
    return sum(os.path.getsize(file) for file in files if os.path.exists(file))


def test_the_least_recently_used_files_go_first_until_the_folder_is_under_the_cap(tmp_path):
    folder = tmp_path / "cache"
    files = {name: _cache_file(folder, f"/games/{name}", 200_000, used)
             for name, used in (("old", 1_000), ("older", 500), ("new", 3_000), ("newer", 4_000))}
    total = sum(_sizes(path) for path in files.values())
    # Room for a bit more than three: the least recently used one goes.
    remove_least_recently_used(folder / OWN_FOLDER, limit=total - _sizes(files["older"]) + 1)
    assert sorted(p.name for p in (folder / OWN_FOLDER).glob("*.sqlite")) == sorted(files[n].name for n in ("old", "new", "newer"))
    assert not any(Path(f"{files['older']}{suffix}").exists() for suffix in ("", "-wal", "-shm"))
    # Room for one: the file in use stays, whatever its age and size, and only the newest besides it fits.
    remove_least_recently_used(folder / OWN_FOLDER, keep=files["old"], limit=_sizes(files["old"]) + _sizes(files["newer"]))
    assert sorted(p.name for p in (folder / OWN_FOLDER).glob("*.sqlite")) == sorted([files["old"].name, files["newer"].name])
    remove_least_recently_used(folder / OWN_FOLDER, keep=files["old"], limit=0)
    assert [p.name for p in (folder / OWN_FOLDER).glob("*.sqlite")] == [files["old"].name]


def test_under_the_cap_nothing_is_removed(tmp_path):
    folder = tmp_path / "cache"
    paths = [_cache_file(folder, f"/games/{n}", 10_000, 1_000 + n) for n in range(3)]
    remove_least_recently_used(folder / OWN_FOLDER, limit=10 << 20)
    assert all(path.exists() for path in paths)


def test_a_build_marks_its_file_used_and_removes_the_least_recently_used_past_the_cap(tmp_path, monkeypatch, capsys):
    folder = tmp_path / "cache"
    stale = _cache_file(folder, "/games/long-gone", 300_000, 1_000)
    recently = int(time.time()) - 60
    kept = _cache_file(folder, "/games/recent", 10_000, recently)
    monkeypatch.setattr(cache_module, "MAX_CACHE_BYTES", 200_000)
    content = copy_games(tmp_path, "mini")
    assert main(["build", str(content), "-o", str(tmp_path / "site"), "--cache-dir", str(folder), "--quiet"]) == 0
    names = {p.name for p in (folder / OWN_FOLDER).glob("*.sqlite")}
    assert stale.name not in names and kept.name in names and len(names) == 2  # the build's own file is there
    built = next(folder / OWN_FOLDER / name for name in names if name != kept.name)
    assert built.stat().st_mtime > recently  # marked used now: the newest
    # Deleting the cache costs only time: the next build makes the same site.
    site = tree_digest(tmp_path / "site")
    shutil.rmtree(folder)
    assert main(["build", str(content), "-o", str(tmp_path / "other"), "--cache-dir", str(folder), "--quiet"]) == 0
    assert tree_digest(tmp_path / "other") == site
