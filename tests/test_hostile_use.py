"""build, check, serve and the cache under hostile or careless use (issue 52): a cache folder shared with a
keeper's files or written by someone else, a game folder replaced under serve, clients that never finish a
request, links inside the output, a page changed by hand that keeps its size and time."""
from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from generator import cache as cache_module
from generator import serve as serve_module
from generator.cli import main
from generator.files import SITE_MARKER
from tests.helpers import ROOT, copy_games, site_digest, tree_digest
from tests.test_serve import edit, get, text, write_game

# --- The cache removes only what it made -----------------------------------------------------------


def test_a_cache_folder_shared_with_a_keepers_databases_keeps_them(tmp_path, monkeypatch):
    """--cache-dir pointed at a folder of the keeper's own SQLite files (one even named as the cache names its
    own): past the cap, the cache removes its files, never theirs."""
    shared = tmp_path / "databases"
    shared.mkdir()
    keepers = {name: os.urandom(50_000) for name in ("accounts.sqlite", "accounts.sqlite-wal",
                                                     "accounts.sqlite-shm", "0123456789abcdef01234567.sqlite")}
    for name, data in keepers.items():
        (shared / name).write_bytes(data)
        os.utime(shared / name, (1_000, 1_000))  # used long ago: the first to go, were they the cache's
    monkeypatch.setattr(cache_module, "MAX_CACHE_BYTES", 1)
    content = copy_games(tmp_path, "mini")
    for site in ("one", "two"):
        assert main(["build", str(content), "-o", str(tmp_path / site), "--cache-dir", str(shared), "--quiet"]) == 0
    assert {path.name: path.read_bytes() for path in shared.iterdir() if path.is_file()} == keepers
    assert [path.name for path in shared.iterdir() if path.is_dir()] == [cache_module.OWN_FOLDER]


def _checked(content: Path, cache: Path, capsys) -> tuple[int, str]:
    capsys.readouterr()
    return main(["check", str(content), "--cache-dir", str(cache)]), capsys.readouterr().out


@pytest.mark.parametrize("kept", [0.1, 0.5, 0.9, 0.99])
def test_a_cache_file_cut_short_gives_the_site_and_verdict_no_cache_gives(tmp_path, capsys, kept):
    """The cache's file cut short (a copy stopped mid-way, a disk that filled): SQLite reads its first pages
    and finds the rest missing only when a query reaches them. The build and check say what they say with no
    cache, silently; the next run keeps a cache again."""
    content = tmp_path / "content"
    assert main(["synth", str(content / "long"), "--proposals", "600", "--per-file", "200"]) == 0
    cache = tmp_path / "cache"
    assert main(["build", str(content), "-o", str(tmp_path / "site"), "--cache-dir", str(cache), "--quiet"]) == 0
    database, = (cache / cache_module.OWN_FOLDER).glob("*.sqlite")
    assert not Path(f"{database}-wal").exists() or os.path.getsize(f"{database}-wal") == 0
    with open(database, "r+b") as file:
        file.truncate(int(os.path.getsize(database) * kept))
    with open(content / "long" / "log" / "0003.md", "a") as log:
        log.write("\nA line added at the end.\n")
    fresh = [_checked(content, tmp_path / "empty", capsys)]
    assert main(["build", str(content), "-o", str(tmp_path / "fresh"), "--cache-dir", str(tmp_path / "empty"),
                 "--quiet"]) == 0
    capsys.readouterr()
    assert main(["build", str(content), "-o", str(tmp_path / "site"), "--cache-dir", str(cache), "--quiet"]) == 0
    assert capsys.readouterr().err == ""
    assert site_digest(tmp_path / "site") == site_digest(tmp_path / "fresh")
    assert [_checked(content, cache, capsys)] == fresh
    assert main(["build", str(content), "-o", str(tmp_path / "site"), "--cache-dir", str(cache)]) == 0
    assert "(0 written, the rest unchanged)" in capsys.readouterr().err


def test_a_cache_folder_shared_by_builds_and_checks_at_once_gives_each_its_own_answer(tmp_path):
    """Two builds of one content folder into two sites, a build of another content folder and a check, at once,
    with one cache folder, kept under a cap so small that each run removes the others' files: each gives what
    it gives alone, and so does each again after."""
    import subprocess
    import sys

    for name, proposals in (("one", "700"), ("two", "500")):
        assert main(["synth", str(tmp_path / name / "game"), "--proposals", proposals, "--per-file", "250"]) == 0
        assert main(["build", str(tmp_path / name), "-o", str(tmp_path / "alone" / name), "--cache-dir",
                     str(tmp_path / f"alone-{name}"), "--quiet"]) == 0
    capped = "import sys; import generator.cache as c; c.MAX_CACHE_BYTES = 1; from generator.cli import main; " \
             "sys.exit(main(sys.argv[1:]))"
    shared = str(tmp_path / "shared")

    def run(*arguments: str) -> subprocess.Popen:
        return subprocess.Popen([sys.executable, "-c", capped, *arguments, "--cache-dir", shared], cwd=ROOT,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    alone = subprocess.run([sys.executable, "-m", "generator", "check", str(tmp_path / "one"), "--cache-dir",
                            str(tmp_path / "alone-one")], cwd=ROOT, capture_output=True, text=True, timeout=300)
    for _ in range(2):
        runs = [run("build", str(tmp_path / "one"), "-o", str(tmp_path / "a" / "site"), "--quiet"),
                run("build", str(tmp_path / "one"), "-o", str(tmp_path / "b" / "site"), "--quiet"),
                run("build", str(tmp_path / "two"), "-o", str(tmp_path / "c" / "site"), "--quiet"),
                run("check", str(tmp_path / "one"))]
        said = [(process.wait(timeout=300), *process.communicate()) for process in runs]
        assert said[:3] == [(0, "", "")] * 3 and said[3] == (alone.returncode, alone.stdout, alone.stderr)
        for site, name in (("a", "one"), ("b", "one"), ("c", "two")):
            assert site_digest(tmp_path / site / "site") == site_digest(tmp_path / "alone" / name)


def test_a_cache_folder_that_is_a_link_to_a_folder_is_used_through_it(tmp_path, capsys):
    """--cache-dir naming a link to a folder (a keeper's ~/.cache moved to another disk): the cache is kept in
    the folder it leads to, and the link stays a link."""
    content = copy_games(tmp_path, "mini")
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "cache").symlink_to(tmp_path / "elsewhere")
    for site in ("one", "two"):
        assert main(["build", str(content), "-o", str(tmp_path / site), "--cache-dir", str(tmp_path / "cache")]) == 0
    assert "(0 written, the rest unchanged)" not in capsys.readouterr().err
    assert main(["build", str(content), "-o", str(tmp_path / "one"), "--cache-dir", str(tmp_path / "cache")]) == 0
    assert "(0 written, the rest unchanged)" in capsys.readouterr().err
    assert (tmp_path / "cache").is_symlink() and (tmp_path / "elsewhere" / cache_module.OWN_FOLDER).is_dir()


@pytest.fixture
def small_disk(tmp_path):
    """A file system of 400 KB of its own (a tmpfs), where the system lets this user mount one."""
    import subprocess

    disk = tmp_path / "disk"
    disk.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=400k", "tmpfs", str(disk)],
                      capture_output=True).returncode != 0:
        pytest.skip("mounting a file system of its own needs rights this user lacks")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)


@pytest.mark.parametrize("how", ["full", "read-only"])
def test_a_cache_on_a_full_or_read_only_disk_says_so_and_the_site_and_verdict_are_right(small_disk, tmp_path, capsys,
                                                                                        how):
    """The cache's disk filled, or mounted read-only, with a cache already there: each build and check gives
    what it gives with no cache, the build's site is whole, and none prints a traceback; what keeps no cache
    says why, once."""
    import subprocess

    content = copy_games(tmp_path, "mini")
    cache = small_disk / "cache"
    assert main(["build", str(content), "-o", str(tmp_path / "site"), "--cache-dir", str(cache), "--quiet"]) == 0
    if how == "full":
        filler = os.open(small_disk / "filler", os.O_WRONLY | os.O_CREAT)
        try:
            while os.write(filler, b"\0" * 4096):
                pass
        except OSError:
            pass
        finally:
            os.close(filler)
    else:
        subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=True)
    (content / "mini" / "log.md").write_text((content / "mini" / "log.md").read_text() + "\nA note.\n")
    assert main(["build", str(content), "-o", str(tmp_path / "fresh"), "--cache-dir", str(tmp_path / "c0"),
                 "--quiet"]) == 0
    fresh = _checked(content, tmp_path / "c0", capsys)
    capsys.readouterr()
    for site in ("site", "site2"):
        assert main(["build", str(content), "-o", str(tmp_path / site), "--cache-dir", str(cache), "--quiet"]) == 0
        said = capsys.readouterr().err
        assert "Traceback" not in said and said.count("\n") <= 1
        assert not said or said.startswith(f"no cache is kept: {cache} cannot hold it (")
        assert site_digest(tmp_path / site) == site_digest(tmp_path / "fresh")
    assert _checked(content, cache, capsys) == fresh


# --- A cache record is data, and only the user's own runs' records count ------------------------------


class _Payload:
    """What a pickle may carry: a call, made while it is read (here: a file made where the test looks)."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return open, (str(self.marker), "w")


def _forge(cache_dir: Path, how: str, marker: Path, manifest: bytes | None = None) -> int:
    """Every record of the cache files under `cache_dir` replaced as someone who can write the folder but not read
    the user's key would: a pickle that runs code, sealed as a pickle record was (`pickle`); each record's bytes
    moved under another record's key (`moved`); each record's bytes, moved, sealed with a key of their own
    (`foreign`), and the sites' manifests replaced by `manifest` so sealed. How many records were forged."""
    import hashlib
    import pickle
    import sqlite3

    forged = 0
    for file in cache_dir.rglob("*.sqlite"):
        db = sqlite3.connect(file)
        rows = db.execute("SELECT key, value FROM records ORDER BY key").fetchall()
        values = [value for _, value in rows]
        if how == "pickle":
            payload = pickle.dumps(_Payload(marker))
            values = [hashlib.sha256(payload).digest()[:16] + payload] * len(rows)
            db.execute("UPDATE manifests SET value = ?", (values[0],) if values else (b"",))
        else:
            values = values[1:] + values[:1]
        if how == "foreign":
            other = os.urandom(32)
            values = [cache_module._sealed(other, key, value[16:]) for (key, _), value in zip(rows, values)]
            for (site,) in db.execute("SELECT site FROM manifests").fetchall():
                db.execute("UPDATE manifests SET value = ? WHERE site = ?",
                           (cache_module._sealed(other, b"manifest of " + site.encode(), manifest), site))
        db.executemany("UPDATE records SET value = ? WHERE key = ?", [(v, k) for (k, _), v in zip(rows, values)])
        forged += len(rows)
        db.commit()
        db.close()
    return forged


@pytest.mark.parametrize("how", ["pickle", "moved", "foreign"])
def test_a_cache_written_by_someone_else_changes_no_verdict_and_no_page_and_runs_nothing(game, tmp_path, capsys,
                                                                                        how):
    shared, site, marker = tmp_path / "shared-cache", tmp_path / "site", tmp_path / "code-ran"
    content = game.parent
    assert main(["build", str(content), "-o", str(site), "--cache-dir", str(shared), "--quiet"]) == 0
    # The game edited (Ben's score claim now wrong: one discrepancy), and checked: the cache holds its records.
    edit(game / "log.md", "Scores: Ann 3, Ben -5, Cat 2", "Scores: Ann 3, Ben 5, Cat 2")
    assert main(["check", str(content), "--cache-dir", str(shared)]) == 1
    capsys.readouterr()
    fresh = [main(["check", str(content), "--cache-dir", str(tmp_path / "empty")]), capsys.readouterr().out]
    assert fresh[0] == 1 and "Ben" in fresh[1]
    assert main(["build", str(content), "-o", str(tmp_path / "fresh"), "--cache-dir", str(tmp_path / "empty")]) == 0
    assert _forge(shared, how, marker, _claimed_manifest(content, site) if how == "foreign" else None) > 3
    capsys.readouterr()
    assert [main(["check", str(content), "--cache-dir", str(shared)]), capsys.readouterr().out] == fresh
    assert main(["build", str(content), "-o", str(site), "--cache-dir", str(shared), "--quiet"]) == 0
    assert tree_digest(site) == tree_digest(tmp_path / "fresh")
    assert not marker.exists()


def _times(path: Path) -> tuple[int, int, int]:
    status = path.stat()
    return status.st_size, status.st_mtime_ns, status.st_ctime_ns


def _claimed_manifest(content: Path, site: Path) -> bytes:
    """A manifest saying that `site` is, as it stands, what the last build made of `content` as it is now: were
    it believed, the build would draw nothing."""
    from generator.cache import digest, program_digest
    from generator.parse.folders import inputs_digest
    from generator.records import encoded
    from generator.manifest import StoredManifest, stored_manifest, templates_digest

    inputs = digest(program_digest(), templates_digest(None), "", inputs_digest(content))
    files = {path.relative_to(site).as_posix(): (b"\0" * 20, *_times(path))
             for path in site.rglob("*") if path.is_file() and path.name != SITE_MARKER}
    return encoded(stored_manifest(files, (inputs, {"games": 1, "pages": 1, "findings": 0})), StoredManifest)


def test_every_entry_of_the_bundled_games_reads_back_as_parsed_and_nothing_else_reads(tmp_path):
    """The records' codec against the plain parse: every entry of every bundled game (proposals, judgments,
    events, Solitaire's turns, Effect values of each TOML kind) reads back equal, with its places; a record of
    the right syntax and another shape is a Mismatch, never a value."""
    import datetime as dt

    from generator.model import Effect, Source
    from generator.parse.game import load_content
    from generator.parse.log import ParsedEntry
    from generator.records import Mismatch, decoded, encoded

    entries = [entry for game in load_content(ROOT / "content") for entry in game.log.entries]
    assert {type(entry).__name__ for entry in entries} >= {"Proposal", "Judgment", "Event", "Turn"}
    for entry in entries:
        back = decoded(encoded(entry, ParsedEntry), ParsedEntry)
        assert back == entry and type(back) is type(entry) and back.source.line == entry.source.line
    toml = {"s": "x", "n": -3, "f": 0.5, "b": True, "d": dt.date(2001, 2, 3), "t": dt.time(4, 5),
            "at": dt.datetime(2001, 2, 3, 4, 5, tzinfo=dt.timezone.utc), "list": [1, ["a", {"k": False}]]}
    effect = Effect("x.y", toml, Source("g/log.md", 3))
    assert decoded(encoded(effect, Effect), Effect) == effect
    for forged in (b"[1, 2]", b'["x.y", {"s": "x"}, ["g/log.md", 3]]', b'["x.y", ["str", 1], ["g/log.md", 3]]',
                   b'["x.y", ["str", "x"], ["g/log.md", "3"]]', b"\\x80", b"[" * 100_000):
        with pytest.raises(Mismatch):
            decoded(forged, Effect)


def test_the_key_that_seals_the_cache_is_the_users_alone(tmp_path, monkeypatch):
    """Made on first use, readable by its owner alone, outside the cache folder; one others may read is not
    used, and then no cache is kept (a record nobody can vouch for is worth nothing)."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    cache_module.sealing_key.cache_clear()
    try:
        key = cache_module.sealing_key()
        path = cache_module.key_path()
        assert key is not None and path.read_bytes() == key and path.stat().st_mode & 0o777 == 0o600
        assert path.is_relative_to(tmp_path / "state")
        cache_module.sealing_key.cache_clear()
        assert cache_module.sealing_key() == key  # the same, run after run
        os.chmod(path, 0o644)
        cache_module.sealing_key.cache_clear()
        assert cache_module.sealing_key() is None
        cache = cache_module.Cache(tmp_path / "cache", tmp_path)
        assert not cache.enabled and not (tmp_path / "cache").exists()
    finally:
        cache_module.sealing_key.cache_clear()


def test_a_cache_that_cannot_be_kept_is_said_once_and_the_build_and_check_go_on(tmp_path, monkeypatch, capsys):
    """--cache-dir naming a file or a folder inside the content, or a key that others may read: the site and the
    verdict are the same as with a cache, and each command says why it keeps none (else every run is slow and
    nothing says why); nothing is written into the content."""
    content = copy_games(tmp_path, "mini")
    assert main(["build", str(content), "-o", str(tmp_path / "site"), "--quiet"]) == 0
    built = tree_digest(tmp_path / "site")
    capsys.readouterr()
    blocked = tmp_path / "a-file"
    blocked.write_text("a keeper's file\n")
    assert main(["build", str(content), "-o", str(tmp_path / "site2"), "--cache-dir", str(blocked), "--quiet"]) == 0
    said = capsys.readouterr().err
    assert said == (f"no cache is kept: {blocked} cannot hold it (Not a directory: {blocked / cache_module.OWN_FOLDER}"
                    "); each build and check starts from nothing (--cache-dir or NOMIC_ARCHIVE_CACHE_DIR names another "
                    "folder)\n")
    assert tree_digest(tmp_path / "site2") == built and blocked.read_text() == "a keeper's file\n"
    assert main(["check", str(content), "--cache-dir", str(blocked)]) == 0
    checked = capsys.readouterr()
    assert checked.err == said and "mini: 4 proposals, consistent" in checked.out
    inside = content / "mini" / "cache"  # (first-hour found a cache folder written into the game's)
    before = sorted(path.name for path in (content / "mini").iterdir())
    assert main(["build", str(content), "-o", str(tmp_path / "site3"), "--cache-dir", str(inside), "--quiet"]) == 0
    assert capsys.readouterr().err.startswith(f"no cache is kept: {inside} is inside the content folder {content}, "
                                              "among the keeper's files; each build")
    assert tree_digest(tmp_path / "site3") == built and not inside.exists()
    assert sorted(path.name for path in (content / "mini").iterdir()) == before
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    cache_module.sealing_key.cache_clear()
    try:
        assert cache_module.sealing_key() is not None
        os.chmod(cache_module.key_path(), 0o644)
        cache_module.sealing_key.cache_clear()
        assert main(["check", str(content), "--cache-dir", str(tmp_path / "cache")]) == 0
        assert capsys.readouterr().err.startswith(f"no cache is kept: no key to seal its records can be kept at "
                                                  f"{cache_module.key_path()}, readable by this user alone; ")
        os.chmod(cache_module.key_path(), 0o600)
        cache_module.sealing_key.cache_clear()
        assert main(["check", str(content), "--cache-dir", str(tmp_path / "state")]) == 0
        assert capsys.readouterr().err.startswith(f"no cache is kept: the key that seals its records, "
                                                  f"{cache_module.key_path()}, is inside it; ")
    finally:
        cache_module.sealing_key.cache_clear()


def test_a_cache_is_never_kept_through_a_link_out_of_its_own_folder(tmp_path, capsys):
    """A cache folder tampered with: its own folder a link into a game (the cache wrote its database and
    CACHEDIR.TAG among the keeper's files), its file a link to a keeper's SQLite database elsewhere (the cache
    added its tables to it, and would drop rows of a `records` table). The link to the file is removed (nothing
    it leads to), the one to the folder left and no cache kept; the site is the same, nothing else changes."""
    import sqlite3

    content = copy_games(tmp_path, "mini")
    cache = tmp_path / "cache"
    assert main(["build", str(content), "-o", str(tmp_path / "site"), "--cache-dir", str(cache), "--quiet"]) == 0
    built = tree_digest(tmp_path / "site")
    own = cache / cache_module.OWN_FOLDER
    database, = own.glob("*.sqlite")
    keepers = tmp_path / "keepers.db"
    with sqlite3.connect(keepers) as db:
        db.execute("CREATE TABLE records (key BLOB, value BLOB, size INTEGER, run INTEGER)")
        db.execute("INSERT INTO records VALUES (x'00', x'01', 1, -5)")
    kept = keepers.read_bytes()
    for suffix in ("", "-wal", "-shm"):
        Path(f"{database}{suffix}").unlink(missing_ok=True)
    database.symlink_to(keepers)
    assert main(["build", str(content), "-o", str(tmp_path / "site2"), "--cache-dir", str(cache), "--quiet"]) == 0
    assert capsys.readouterr().err == ""
    assert keepers.read_bytes() == kept and tree_digest(tmp_path / "site2") == built
    assert not database.is_symlink()  # a cache of its own again

    game = content / "mini"
    before = tree_digest(game)
    shutil.rmtree(own)
    own.symlink_to(game)
    assert main(["build", str(content), "-o", str(tmp_path / "site3"), "--cache-dir", str(cache), "--quiet"]) == 0
    assert capsys.readouterr().err == (f"no cache is kept: {own} is a symbolic link, and the cache is kept only in a "
                                       "folder of its own; each build and check starts from nothing (--cache-dir or "
                                       "NOMIC_ARCHIVE_CACHE_DIR names another folder)\n")
    assert tree_digest(game) == before and tree_digest(tmp_path / "site3") == built and own.is_symlink()


# --- A build stopped ---------------------------------------------------------------------------------


@pytest.mark.parametrize("how", ["SIGINT", "SIGTERM"])
def test_a_build_stopped_while_drawing_leaves_nothing_holding_its_folder(tmp_path, how):
    """Ctrl-C, or a service manager's or CI's SIGTERM, while forked workers draw: the workers went on (or waited
    for ever on a pipe) holding the lock on the site's folder, which they share from the fork, and the next build
    said `waiting for another build writing site` and gave up after 10 minutes. It now builds at once, the site
    whole and the same as a build never stopped; the keeper's files untouched."""
    import signal
    import subprocess
    import sys

    content = tmp_path / "content"
    assert main(["synth", str(content / "long"), "--proposals", "1500", "--per-file", "500"]) == 0
    games = tree_digest(content)
    assert main(["build", str(content), "-o", str(tmp_path / "clean"), "--cache-dir", str(tmp_path / "c0"),
                 "--quiet"]) == 0
    command = [sys.executable, "-m", "generator", "build", str(content), "-o", str(tmp_path / "site"),
               "--cache-dir", str(tmp_path / "cache"), "--jobs", "2"]
    stopped = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(600):  # drawing has begun once the staging folder is there
            if list(tmp_path.glob(".site.building.*")) or stopped.poll() is not None:
                break
            time.sleep(0.05)
        time.sleep(0.5)
        assert stopped.poll() is None, "the build ended before it could be stopped: give it more to draw"
        stopped.send_signal(getattr(signal, how))
        assert stopped.wait(timeout=30) != 0
        assert "Traceback" not in stopped.stderr.read()
        again = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
    finally:
        stopped.kill()
    assert again.returncode == 0 and "waiting for another build" not in again.stderr, again.stderr
    assert site_digest(tmp_path / "site") == site_digest(tmp_path / "clean")
    assert tree_digest(content) == games


def _children(pid: int) -> list[int]:
    """The processes whose parent is `pid` (Linux's /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # ended meanwhile
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def _ended(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] in "ZX"  # a zombie has ended
    except OSError:
        return True


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds the workers in Linux's /proc")
@pytest.mark.parametrize("when", ["reading", "drawing"])
def test_a_build_killed_outright_leaves_no_worker_and_the_next_build_clears_what_it_left(tmp_path, when):
    """SIGKILL (an out-of-memory kill, `kill -9`, a CI runner's timeout) gives a build no chance to end its
    workers: each went on drawing into the staging folder, then waited for ever on a pipe to its dead parent, and
    a worker drawing while the next build cleared the folder made it again, without its marker, to be kept for
    good. Each worker now ends with its parent; the next build removes the staging folder and builds the same
    site, from the cache the killed build was writing (killed while reading the games: its first worker, the
    log's parsers or the cache's writer); a folder named like a staging folder but not the program's is left
    as it is."""
    import signal
    import subprocess
    import sys

    content = tmp_path / "content"
    # Read from one file of more than PARALLEL_ENTRIES entries, the log is parsed by workers and its entries
    # cached by one more, beside the build.
    shape = ["--proposals", "2500"] if when == "reading" else ["--proposals", "1500", "--per-file", "500"]
    assert main(["synth", str(content / "long"), *shape]) == 0
    assert main(["build", str(content), "-o", str(tmp_path / "clean"), "--cache-dir", str(tmp_path / "c0"),
                 "--quiet"]) == 0
    strangers = tmp_path / ".site.building.99999999.notes"  # no such process, no marker: a person's folder
    strangers.mkdir()
    (strangers / "notes.md").write_text("a keeper's notes\n")
    kept = tree_digest(tmp_path / "content"), tree_digest(strangers)
    command = [sys.executable, "-m", "generator", "build", str(content), "-o", str(tmp_path / "site"),
               "--cache-dir", str(tmp_path / "cache"), "--jobs", "2"]
    killed = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    workers = []
    try:
        for _ in range(2000):  # drawing has begun once the staging folder is there, and its worker with it
            workers = _children(killed.pid)
            drawing = len(list(tmp_path.glob(".site.building.*"))) > 1
            if (workers and (drawing or when == "reading")) or killed.poll() is not None:
                break
            time.sleep(0.01)
        assert killed.poll() is None and workers, "the build ended before it could be killed: give it more to draw"
        killed.kill()
        killed.wait(timeout=30)
        deadline = time.monotonic() + 10
        while not all(_ended(worker) for worker in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert all(_ended(worker) for worker in workers), "a worker outlived the build killed"
        if when == "drawing":
            assert len(list(tmp_path.glob(".site.building.*"))) == 2  # the killed build's, and the stranger's
        assert main(["build", str(content), "-o", str(tmp_path / "site"), "--cache-dir", str(tmp_path / "cache"),
                     "--quiet"]) == 0
    finally:
        for worker in workers:
            if not _ended(worker):
                os.kill(worker, signal.SIGKILL)
    assert site_digest(tmp_path / "site") == site_digest(tmp_path / "clean")
    assert sorted(path.name for path in tmp_path.glob(".site*")) == [strangers.name]
    assert (tree_digest(tmp_path / "content"), tree_digest(strangers)) == kept


# --- A write killed mid-way -------------------------------------------------------------------------

# Runs the program's command line (argv after the first two) with each write of the file named argv[1] stopped
# once its temporary file holds half of it, that file's name written to argv[2]: the test kills it there.
_STOPPED_MID_WRITE = """
import os, sys, time
from pathlib import Path
import generator.files as files
making = files._temporary_file
def stopped(path):
    handle, temporary = making(path)
    if path.name == sys.argv[1]:
        os.write(handle, b"half a file")
        Path(sys.argv[2]).write_text(temporary.name)
        time.sleep(600)
    return handle, temporary
files._temporary_file = stopped
from generator.cli import main
sys.exit(main(sys.argv[3:]))
"""


def _killed_mid_write(name: str, arguments: list[str], tmp_path: Path) -> str:
    """The command run and killed outright (SIGKILL) while writing the file `name`: its temporary file's name."""
    import subprocess
    import sys

    told = tmp_path / "temporary-named"
    killed = subprocess.Popen([sys.executable, "-c", _STOPPED_MID_WRITE, name, str(told), *arguments], cwd=ROOT,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while not told.exists() and killed.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert told.exists(), "the command never wrote the file"
    finally:
        killed.kill()
        killed.wait(timeout=30)
    named = told.read_text()
    told.unlink()
    return named


def _look_alikes(folder: Path, name: str) -> dict[str, str]:
    """A keeper's files in `folder` named as the program's temporary files for `name` are, the pattern whole
    (a number of no running process, a nonce, a stamp of the right length) but the stamp not the program's."""
    files = {f".{name}.99999999.0123456789abcdef.{'0' * 32}.tmp": "a keeper's notes\n",
             f".{name}.99999999.0123456789abcdef..tmp": "a keeper's draft\n",
             f".{name}.x1y2z3.tmp": "an editor's backup\n"}
    for file, words in files.items():
        (folder / file).write_text(words)
    return files


def test_a_build_killed_mid_write_leaves_what_the_next_build_removes_and_a_keepers_look_alikes_stay(tmp_path):
    """SIGKILL while the site marker is written into the staging folder (it holds only that temporary file: no
    marker yet, so not provably a site), then while a style sheet is written into the site in place: the next
    build removes both, and builds the site a build from nothing does; a keeper's files named alike stay."""
    content = copy_games(tmp_path, "mini")
    assert main(["build", str(content), "-o", str(tmp_path / "clean"), "--quiet"]) == 0
    site = tmp_path / "site"
    build = ["build", str(content), "-o", str(site), "--quiet"]
    kept = _look_alikes(tmp_path, SITE_MARKER)
    staging_temporary = _killed_mid_write(SITE_MARKER, build, tmp_path)
    staging, = tmp_path.glob(".site.building.*")
    assert [path.name for path in staging.iterdir()] == [staging_temporary]
    assert main(build) == 0
    assert site_digest(site) == site_digest(tmp_path / "clean")
    assert not staging.exists()

    (site / "static" / "style.css").unlink()
    site_temporary = _killed_mid_write("style.css", build, tmp_path)
    assert (site / "static" / site_temporary).read_bytes() == b"half a file"
    assert main(build) == 0
    assert site_digest(site) == site_digest(tmp_path / "clean")
    assert not list(site.rglob("*.tmp"))
    assert {path.name: path.read_text() for path in tmp_path.glob(".*.tmp")} == kept


def test_a_file_write_killed_mid_way_is_cleared_by_the_next_write_and_nothing_named_alike(tmp_path):
    """`ruleset -o rules.txt` killed outright mid-write, in a keeper's folder: the next write of the file
    removes the half-written temporary file, and none of the keeper's files named as such files are."""
    content = copy_games(tmp_path, "mini")
    folder = tmp_path / "notes"
    folder.mkdir()
    kept = _look_alikes(folder, "rules.txt")
    write = ["ruleset", str(content / "mini"), "-o", str(folder / "rules.txt")]
    temporary = _killed_mid_write("rules.txt", write, tmp_path)
    assert (folder / temporary).read_bytes() == b"half a file" and not (folder / "rules.txt").exists()
    assert main(write) == 0
    assert {path.name: path.read_text() for path in folder.iterdir() if path.name != "rules.txt"} == kept
    assert "Rule" in (folder / "rules.txt").read_text()


# --- build never writes through a link --------------------------------------------------------------


def test_a_folder_of_the_site_replaced_by_a_link_outside_is_not_written_through(tmp_path, capsys):
    """A game's folder of the site replaced by a link to a folder outside it: the next build writes nothing
    there, and the site it says it built is whole (the link gone, a folder of the pages in its place)."""
    content = copy_games(tmp_path, "mini")
    site, outside = tmp_path / "site", tmp_path / "elsewhere"
    assert main(["build", str(content), "-o", str(site), "--quiet"]) == 0
    built = tree_digest(site)
    outside.mkdir()
    (outside / "keep.txt").write_text("a keeper's file\n")
    shutil.rmtree(site / "mini")
    (site / "mini").symlink_to(outside)
    assert main(["build", str(content), "-o", str(site), "--quiet"]) == 0
    assert not (site / "mini").is_symlink() and tree_digest(site) == built
    assert sorted(path.name for path in outside.iterdir()) == ["keep.txt"]
    # A page replaced by a link (to a keeper's file outside) is drawn again as a file, the file left alone.
    (site / "mini" / "index.html").unlink()
    (site / "mini" / "index.html").symlink_to(outside / "keep.txt")
    assert main(["build", str(content), "-o", str(site), "--quiet"]) == 0
    assert not (site / "mini" / "index.html").is_symlink() and tree_digest(site) == built
    assert (outside / "keep.txt").read_text() == "a keeper's file\n"


def test_an_output_that_is_a_link_to_the_published_folder_stays_a_link(tmp_path, monkeypatch):
    """`-o site` where site is the keeper's link to the folder they publish: every build writes the site into
    that folder, and the link stays as it was; nothing is made beside either."""
    content = copy_games(tmp_path, "mini")
    published = tmp_path / "www" / "nomic"
    published.parent.mkdir()
    (tmp_path / "site").symlink_to(published)  # to nothing yet: refused, nothing made
    monkeypatch.chdir(tmp_path)
    assert main(["build", "content", "-o", "site", "--quiet"]) == 2
    assert not published.exists()
    published.mkdir()
    for _ in range(2):
        assert main(["build", "content", "-o", "site", "--quiet"]) == 0
        assert os.readlink(tmp_path / "site") == str(published)
        assert (published / SITE_MARKER).is_file() and (published / "mini" / "index.html").is_file()
        assert sorted(path.name for path in tmp_path.iterdir()) == ["content", "site", "www"]
        assert sorted(path.name for path in published.parent.iterdir()) == ["nomic"]
    (content / "mini" / "log.md").write_text((content / "mini" / "log.md").read_text() + "\n")
    assert main(["build", "content", "-o", "site", "--quiet"]) == 0
    assert os.readlink(tmp_path / "site") == str(published)


# --- A page changed by hand is drawn again, whatever its size and time ------------------------------------


@pytest.mark.parametrize("how", ["in place", "renamed over"])
def test_a_page_changed_by_hand_keeping_its_size_and_time_is_drawn_again(tmp_path, capsys, how):
    """As `cp -p` (the bytes written in place, then the time set back) or `rsync -t` (a new file renamed over
    the page, with the page's time) leave it: the next build draws the page again."""
    content = copy_games(tmp_path, "mini")
    site = tmp_path / "site"
    assert main(["build", str(content), "-o", str(site), "--quiet"]) == 0
    built = tree_digest(site)
    page = site / "mini" / "index.html"
    status = page.stat()
    forged = page.read_bytes().replace(b"<title>", b"<title>X", 1)[:status.st_size]
    assert len(forged) == status.st_size and forged != page.read_bytes()
    target = page if how == "in place" else tmp_path / "copy.html"
    target.write_bytes(forged)
    os.utime(target, ns=(status.st_atime_ns, status.st_mtime_ns))
    if how == "renamed over":
        os.replace(target, page)
    assert _times(page)[:2] == (status.st_size, status.st_mtime_ns)
    capsys.readouterr()
    assert main(["build", str(content), "-o", str(site)]) == 0
    assert "(1 written, the rest unchanged)" in capsys.readouterr().err
    assert tree_digest(site) == built
    assert main(["build", str(content), "-o", str(site)]) == 0
    assert "(0 written, the rest unchanged)" in capsys.readouterr().err


# --- serve follows a game folder replaced under it -----------------------------------------------------


def _shows(watcher, client, path: str, words: str, seconds: float = 20) -> bool:
    """Whether, within `seconds` (a bound on waiting, not a measure), an update reloads the open pages with
    `path` showing `words`."""
    import queue

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            event = client.get(timeout=max(0.01, deadline - time.monotonic()))
        except queue.Empty:
            break
        if event[0] == "reload" and words in text(watcher.site, path):
            return True
    return False


@pytest.mark.parametrize("how", ["game removed and made again", "content renamed away and copied back"])
def test_serve_shows_a_folder_replaced_under_it_and_every_save_after(game, tmp_path, how):
    from generator.serve import Watcher

    served = game if how.startswith("game") else game.parent
    watcher = Watcher(served, report=lambda update: None)
    try:
        assert watcher.start().ok
        client = watcher.hub.subscribe()
        assert _event(client)[0] == "site"
        if how.startswith("game"):
            shutil.rmtree(game)
            assert _event(client)[0] == "error"  # the folder holds no game, said
            write_game(game.parent)
        else:
            game.parent.rename(tmp_path / "away")
            shutil.copytree(tmp_path / "away", game.parent)
        edit(game / "rules.md", "clockwise", "counter-clockwise")
        assert _shows(watcher, client, "/tiny/rules/201.html", "counter-clockwise")
        edit(game / "rules.md", "counter-clockwise", "widdershins")  # a save in the folder as it is now
        assert _shows(watcher, client, "/tiny/rules/201.html", "widdershins")
        assert not watcher.site.errors
    finally:
        watcher.close()


def _event(client, seconds: float = 20):
    return client.get(timeout=seconds)


# --- Slow clients do not starve serve -----------------------------------------------------------------


def _slow_clients(server, count: int) -> list:
    """Connections that send the start of a request and never finish it."""
    import socket

    clients = []
    for _ in range(count):
        client = socket.create_connection(server.server_address)
        client.sendall(b"GET /tiny/index.html HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        clients.append(client)
    return clients


def _closed_by_server(client, seconds: float) -> bool:
    """Whether the server closes `client` within `seconds` (a bound on waiting)."""
    client.settimeout(seconds)
    try:
        return client.recv(1) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def _site_server(live, monkeypatch, **settings):
    import threading

    from generator.serve import EventHub, SiteServer

    for name, value in settings.items():
        monkeypatch.setattr(serve_module, name, value, raising=False)
    server = SiteServer(live, EventHub())
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    return server


def test_requests_that_never_finish_are_closed_and_pages_are_still_answered(live, monkeypatch):
    server = _site_server(live, monkeypatch, HEAD_SECONDS=0.5)
    try:
        slow = _slow_clients(server, 40)
        assert get(server, "/tiny/index.html").status == 200  # answered beside them
        assert all(_closed_by_server(client, 20) for client in slow)
        assert get(server, "/tiny/index.html").status == 200
    finally:
        server.shutdown()
        server.server_close()


def test_past_the_bound_the_connection_waiting_longest_makes_room(live, monkeypatch):
    server = _site_server(live, monkeypatch, MAX_CONNECTIONS=4, HEAD_SECONDS=600)
    try:
        slow = _slow_clients(server, 10)
        assert get(server, "/tiny/index.html").status == 200  # a page is answered all the same
        closed = [_closed_by_server(client, 2) for client in slow]
        assert closed == [True] * 7 + [False] * 3  # the oldest made room; three still wait for their request
        for client in slow:
            client.close()
    finally:
        server.shutdown()
        server.server_close()


def test_out_of_files_the_accept_loop_waits_before_trying_again(live, monkeypatch):
    """accept() failing for want of files fails again at once: without a pause, serving spins a core."""
    import errno

    from generator.serve import EventHub, SiteServer

    class Listening:
        def accept(self):
            raise OSError(errno.EMFILE, "Too many open files")

    server = SiteServer(live, EventHub())
    server.server_close()
    waits = []
    monkeypatch.setattr(server, "_closing", type("Closing", (), {"wait": lambda self, s: waits.append(s)})(),
                        raising=False)
    monkeypatch.setattr(server, "socket", Listening())
    with pytest.raises(OSError):
        server.get_request()
    assert waits == [serve_module.ACCEPT_BACKOFF_SECONDS] and waits[0] > 0
