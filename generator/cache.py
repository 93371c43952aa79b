"""The cache kept between runs: parsed log entries, the search index, what check says of the games and each
site's manifest of the pages it holds, each under a stable digest (sha256) of everything that made it.

It lives outside the site and the content (the user's cache folder as platformdirs names it, `--cache-dir`,
or the environment variable NOMIC_ARCHIVE_CACHE_DIR), in a folder of its own inside it (OWN_FOLDER), one SQLite
file per content folder, and is only ever a cache: deleting it costs one slow build, and one that cannot be read
(corrupt, locked, from another version) is replaced silently. Records no run has used for a few runs are dropped
when the file grows past what one run uses; and the files of its folder together stay under MAX_CACHE_BYTES,
those of the content folders used longest ago removed first. It removes nothing but its own files: a cache
folder may be one a keeper shares with other files.

Whoever can write the cache folder (another user of a shared one, a CI cache restored from another branch) must
not decide what `check` says. So a record is data only (records.py: JSON read into the type its key stands for,
never a pickle), and each is sealed with an HMAC of its key and its bytes under a secret of the user's own, kept
outside the cache folder (`sealing_key`): a record the user's own runs did not write, or one moved under another
key, is a miss, and is made again.
"""
from __future__ import annotations

import functools
import hashlib
import hmac
import os
import re
import secrets
import sqlite3
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import platformdirs

from .parallel import start_beside
from .records import Mismatch, decoded, encoded

CACHE_ENV = "NOMIC_ARCHIVE_CACHE_DIR"
# Bumped whenever what a digest stands for changes (a parser, the page plan, a template's inputs): every
# record of an older layout is then a miss, and the file is started afresh.
LAYOUT = 5
# Records are written in batches: one transaction per batch keeps the write lock short for other processes.
BATCH_BYTES = 8 << 20
# Records unused by this many of the latest runs may be dropped, once the file holds more than
# KEEP_FACTOR times what one run used.
KEEP_RUNS = 6
KEEP_FACTOR = 3
# A record read is marked with the run only when its mark is this many runs old: marking rewrites the whole
# record, and a long log's entries are read by the ten thousand at every run. So a record read within the
# latest KEEP_RUNS - MARK_AGE runs is always kept.
MARK_AGE = 3
# The most the files of one cache folder hold together: past it, the files of the content folders used
# longest ago are removed (the one in use is kept, whatever its size).
MAX_CACHE_BYTES = 512 << 20
_FILE_SUFFIXES = ("", "-wal", "-shm")  # a cache file and SQLite's own files beside it
# The folder the cache makes inside the cache folder, and the names of its files there: the only files it ever
# removes (a cache folder named by --cache-dir may hold a keeper's own databases).
OWN_FOLDER = "nomic-archive-cache"
_OWN_FILE = re.compile(r"[0-9a-f]{24}\.sqlite")
# Left in OWN_FOLDER: backup tools that follow https://bford.info/cachedir/ skip the folder.
_TAG = "CACHEDIR.TAG"
_TAG_TEXT = ("Signature: 8a477f597d28d172789f06886806bc55\n"
             "# This folder is the cache of nomic-archive: deleting it costs only time.\n")


def default_cache_dir() -> Path:
    """NOMIC_ARCHIVE_CACHE_DIR, else the platform's cache folder for this program."""
    configured = os.environ.get(CACHE_ENV)
    if configured:
        return Path(configured)
    return Path(platformdirs.user_cache_dir("nomic-archive", appauthor=False))


def digest(*parts: str | bytes) -> bytes:
    """A stable key for the parts, in order (each length-prefixed, so ("ab", "c") differs from ("a", "bc"))."""
    return digest_all(parts)


def digest_all(parts: Iterable[str | bytes]) -> bytes:
    """digest(*parts) of parts made one at a time, never all held at once (a game's every text)."""
    h = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8", "surrogatepass") if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.digest()[:20]


@functools.cache
def program_digest() -> bytes:
    """A digest of this program's own code: what it makes of the same inputs changes when that does."""
    package = Path(__file__).resolve().parent
    parts: list[str | bytes] = [str(LAYOUT)]
    for path in sorted(package.rglob("*.py")):
        parts += [path.relative_to(package).as_posix(), path.read_bytes()]
    return digest(*parts)


# The secret that seals the records, in the user's state folder (never in the cache folder): 32 random bytes,
# made on first use, readable by its owner alone.
KEY_FILE = "cache-key"
_KEY_BYTES = 32
_SEAL = 16  # bytes of a record's HMAC-SHA256 kept before it
_MANIFEST = b"manifest of "  # what a manifest is sealed under, before its site's folder: never a record's key


def key_path() -> Path:
    return Path(platformdirs.user_state_dir("nomic-archive", appauthor=False)) / KEY_FILE


@functools.cache
def sealing_key() -> bytes | None:
    """This user's secret for sealing cache records, made the first time (written whole, then linked into place,
    so that two runs at once read the same one); None where none can be kept or the one there is not the user's
    alone (then no cache is kept: a record nobody can vouch for is worth nothing)."""
    path = key_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        if not os.path.lexists(path):
            handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{KEY_FILE}.")  # mode 0600
            try:
                with os.fdopen(handle, "wb") as file:
                    file.write(secrets.token_bytes(_KEY_BYTES))
                os.link(temporary, path)
            except FileExistsError:
                pass  # another run made it first: that one is read
            finally:
                os.unlink(temporary)
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        with os.fdopen(handle, "rb") as file:
            status = os.fstat(file.fileno())
            key = file.read(_KEY_BYTES + 1)
    except OSError:
        return None
    if hasattr(os, "geteuid") and (status.st_uid != os.geteuid() or status.st_mode & 0o077):
        return None  # others may read or write it: they could seal records of their own
    return key if len(key) == _KEY_BYTES else None


def _seal(key: bytes, name: bytes, data: bytes) -> bytes:
    """A record's seal: the HMAC of the key it is kept under and its bytes."""
    return hmac.digest(key, len(name).to_bytes(4, "little") + name + data, "sha256")[:_SEAL]


def _sealed(secret: bytes, name: bytes, data: bytes) -> bytes:
    return _seal(secret, name, data) + data


def _unsealed(secret: bytes, name: bytes, data: bytes) -> bytes | None:
    """A record's bytes, or None when its seal is not the one this user's runs give it under `name`."""
    if not hmac.compare_digest(_seal(secret, name, data[_SEAL:]), data[:_SEAL]):
        return None
    return data[_SEAL:]


def _value(data: bytes | None, kind: Any) -> Any:
    """The value of type `kind` in a record's bytes; None when there are none, or they hold no such value."""
    if data is None:
        return None
    try:
        return decoded(data, kind)
    except Mismatch:
        return None


class Cache:
    """Values by key for one content folder, each sealed (see the module's docstring) and read with the type
    its key stands for. `Cache(None)` keeps nothing (every get misses), and neither does a cache where this
    user has no sealing key."""

    def __init__(self, folder: Path | None, project: Path | None = None):
        self.path: Path | None = None
        self._db: sqlite3.Connection | None = None
        self.unusable = ""  # why a cache asked for keeps nothing, in words (a command says it: each run is slow)
        self._pending: list[tuple[bytes, bytes, int]] = []
        self._pending_bytes = 0
        self._used: set[bytes] = set()
        self._used_bytes = 0
        self._writers: list = []  # the processes writing records beside this one (put_values)
        if folder is None:
            return
        self._secret = sealing_key()
        if self._secret is None:
            self.unusable = f"no key to seal its records can be kept at {key_path()}, readable by this user alone"
        elif key_path().resolve().is_relative_to(Path(folder).resolve()):  # as open as the records it seals
            self.unusable = f"the key that seals its records, {key_path()}, is inside it"
        else:
            name = digest(str(Path(project or ".").resolve())).hex()[:24]
            self.path = Path(folder) / OWN_FOLDER / f"{name}.sqlite"
            self._db = self._open()
        if self._db is not None:
            _touch(self.path)  # its time of last use, by which the least recently used files are removed

    # --- Opening, and starting afresh when the file cannot be used -----------------------------

    def _open(self) -> sqlite3.Connection | None:
        if self.path.parent.is_symlink():  # it may lead among a keeper's files: nothing is written through it
            self.unusable = f"{self.path.parent} is a symbolic link, and the cache is kept only in a folder of its own"
            return None
        for attempt in range(2):
            try:
                # SQLite follows a link in the file's place (to a keeper's database, say): the link goes, nothing
                # it leads to (a cache's own file is never one)
                for suffix in _FILE_SUFFIXES:
                    if os.path.islink(f"{self.path}{suffix}"):
                        os.unlink(f"{self.path}{suffix}")
                self.path.parent.mkdir(parents=True, exist_ok=True)
                if not os.path.lexists(self.path.parent / _TAG):  # (a link, even to nothing, is not written through)
                    (self.path.parent / _TAG).write_text(_TAG_TEXT, encoding="utf-8")
                db = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=OFF")  # a cache: a crash may lose records, never correctness
                db.executescript(
                    "CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value INTEGER);"
                    "CREATE TABLE IF NOT EXISTS records (key BLOB PRIMARY KEY, value BLOB NOT NULL, "
                    "size INTEGER NOT NULL, run INTEGER NOT NULL);"
                    "CREATE TABLE IF NOT EXISTS manifests (site TEXT PRIMARY KEY, value BLOB NOT NULL);")
                layout = db.execute("SELECT value FROM meta WHERE name = 'layout'").fetchone()
                if layout is not None and layout[0] != LAYOUT:
                    raise sqlite3.DatabaseError("an older layout")
                db.execute("INSERT OR REPLACE INTO meta VALUES ('layout', ?)", (LAYOUT,))
                db.execute("INSERT OR IGNORE INTO meta VALUES ('run', 0)")
                db.execute("UPDATE meta SET value = value + 1 WHERE name = 'run'")
                self.run = db.execute("SELECT value FROM meta WHERE name = 'run'").fetchone()[0]
                return db
            except (sqlite3.Error, OSError) as error:
                if attempt == 0:
                    self._remove_files()
                failed = error
        why = getattr(failed, "strerror", None) or str(failed)
        where = f": {failed.filename}" if getattr(failed, "filename", None) else ""
        self.unusable = f"{self.path.parent.parent} cannot hold it ({why}{where})"
        return None

    def _remove_files(self) -> None:
        _remove_cache_file(self.path)

    def _failed(self) -> None:
        """Something went wrong underneath: carry on without a cache (it is rebuilt next run)."""
        try:
            if self._db is not None:
                self._db.close()
        except sqlite3.Error:
            pass
        self._db = None
        self._pending.clear()

    @property
    def enabled(self) -> bool:
        return self._db is not None

    # --- Records ---------------------------------------------------------------------------------

    def get(self, key: bytes, *, mark: bool = True) -> bytes | None:
        """The bytes kept under `key`. `mark`: False for a record that stands for the run's whole answer (a check
        of games unchanged): a run that reads only such records says nothing of what the next one needs, and,
        like a build with nothing to do, drops nothing (see close)."""
        if self._db is None:
            return None
        try:
            row = self._db.execute("SELECT value FROM records WHERE key = ?", (key,)).fetchone()
        except sqlite3.Error:
            self._failed()
            return None
        if row is None:
            return None
        if mark:
            self._mark(key, len(row[0]))
        return _unsealed(self._secret, key, row[0])

    def get_many(self, keys: list[bytes]) -> dict[bytes, bytes]:
        """The bytes found among `keys`, read in batches."""
        found: dict[bytes, bytes] = {}
        if self._db is None:
            return found
        try:
            for key, value in self._select("key, value", "", keys):
                self._mark(key, len(value))
                if (data := _unsealed(self._secret, key, value)) is not None:
                    found[key] = data
        except sqlite3.Error:
            self._failed()
            return {}
        return found

    def value(self, key: bytes, kind: Any, *, mark: bool = True) -> Any:
        """The value of type `kind` kept under `key`, or None (a miss); `mark` as for `get`."""
        return _value(self.get(key, mark=mark), kind)

    def values(self, keys: list[bytes], kind: Any) -> dict[bytes, Any]:
        """The values of type `kind` found among `keys`."""
        found = {key: _value(data, kind) for key, data in self.get_many(keys).items()}
        return {key: value for key, value in found.items() if value is not None}

    def _select(self, columns: str, condition: str, keys: list[bytes], *values) -> list[tuple]:
        """The rows of the records among `keys` (in batches: SQLite takes so many values at once) that meet
        `condition` with `values`."""
        unique = list(dict.fromkeys(keys))
        rows = []
        for start in range(0, len(unique), 500):
            batch = unique[start:start + 500]
            rows += self._db.execute(f"SELECT {columns} FROM records WHERE {condition}key IN "
                                     f"({','.join('?' * len(batch))})", (*values, *batch)).fetchall()
        return rows

    def _mark(self, key: bytes, size: int) -> None:
        if key not in self._used:
            self._used.add(key)
            self._used_bytes += size

    def put(self, key: bytes, data: bytes) -> None:
        if self._db is None:
            return
        value = _sealed(self._secret, key, data)
        self._pending.append((key, value, len(value)))
        self._pending_bytes += len(value)
        self._mark(key, len(value))
        if self._pending_bytes >= BATCH_BYTES:
            self.flush()

    def put_value(self, key: bytes, value: Any, kind: Any) -> None:
        if self._db is not None:
            self.put(key, encoded(value, kind))

    def put_values(self, records: list[tuple[bytes, Any]], kind: Any, *, beside: bool = False) -> None:
        """Each value, of type `kind`, kept under its key; with `beside`, by a forked process while this one
        goes on (a long log's entries, 0.4 s of encoding at 10,000 proposals, while the other core idles): `close`
        waits for it. Where the forked process fails, the records are missing, which is a miss."""
        if self._db is None:
            return
        if not beside:
            for key, value in records:
                self.put_value(key, value, kind)
            return
        path, run, secret = self.path, self.run, self._secret
        self._writers.append(start_beside(lambda: _write_values(path, run, secret, records, kind)))

    def flush(self) -> None:
        if self._db is None or not self._pending:
            return
        rows = [(key, value, size, self.run) for key, value, size in self._pending]
        self._pending, self._pending_bytes = [], 0
        try:
            with self._transaction():
                self._db.executemany("INSERT OR REPLACE INTO records VALUES (?, ?, ?, ?)", rows)
        except sqlite3.Error:
            self._failed()

    def _transaction(self):
        db = self._db

        class _Transaction:
            def __enter__(self):
                db.execute("BEGIN IMMEDIATE")

            def __exit__(self, kind, error, trace):
                db.execute("COMMIT" if kind is None else "ROLLBACK")
        return _Transaction()

    # --- Manifests: what each site folder holds ----------------------------------------------------

    def manifest(self, site: Path, kind: Any) -> Any:
        """The manifest (of type `kind`) kept for the site folder `site`, or None."""
        if self._db is None:
            return None
        name = str(site.resolve())
        try:
            row = self._db.execute("SELECT value FROM manifests WHERE site = ?", (name,)).fetchone()
        except sqlite3.Error:
            self._failed()
            return None
        return _value(_unsealed(self._secret, _MANIFEST + name.encode(), row[0]), kind) if row else None

    def set_manifest(self, site: Path, value: Any, kind: Any) -> None:
        if self._db is None:
            return
        name = str(site.resolve())
        try:
            self._db.execute("INSERT OR REPLACE INTO manifests VALUES (?, ?)",
                             (name, _sealed(self._secret, _MANIFEST + name.encode(), encoded(value, kind))))
        except sqlite3.Error:
            self._failed()

    # --- Closing: mark what this run used, drop what no recent run did ------------------------------

    def close(self) -> None:
        """Write what is pending, note which records this run used, and drop old ones if the file grew."""
        for writer in self._writers:
            writer.join()
        self._writers.clear()
        if self._db is None:
            return
        self.flush()
        try:
            with self._transaction():
                stale = self._select("key", "run <= ? AND ", list(self._used), self.run - MARK_AGE)
                self._db.executemany("UPDATE records SET run = ? WHERE key = ?", [(self.run, key) for key, in stale])
                # A run that used no record (a build with nothing to do, a check of unchanged games) says nothing
                # of what is still needed; nor does it add up the file's records (a read of every page of it).
                if self._used and self._db.execute("SELECT COALESCE(SUM(size), 0) FROM records").fetchone()[0] \
                        > KEEP_FACTOR * max(self._used_bytes, 1 << 20):
                    self._db.execute("DELETE FROM records WHERE run <= ?", (self.run - KEEP_RUNS,))
        except sqlite3.Error:
            self._failed()
            return
        self._db.close()
        self._db = None
        remove_least_recently_used(self.path.parent, keep=self.path)


def _write_values(path: Path, run: int, secret: bytes, records: list[tuple[bytes, Any]], kind: Any) -> None:
    """Cache.put_values's work in the forked process, on a connection of its own (one made before a fork
    must not be used after it)."""
    try:
        db = sqlite3.connect(path, timeout=30, isolation_level=None)
        db.execute("PRAGMA synchronous=OFF")
        rows, size = [], 0
        for position, (key, value) in enumerate(records):
            data = _sealed(secret, key, encoded(value, kind))
            rows.append((key, data, len(data), run))
            size += len(data)
            if size >= BATCH_BYTES or position == len(records) - 1:
                db.execute("BEGIN IMMEDIATE")
                db.executemany("INSERT OR REPLACE INTO records VALUES (?, ?, ?, ?)", rows)
                db.execute("COMMIT")
                rows, size = [], 0
        db.close()
    except BaseException:  # noqa: BLE001 - a cache: what is missing is made again; a Ctrl-C ends it silently
        pass


def _touch(path: Path) -> None:
    try:
        os.utime(path)
    except OSError:
        pass


def _remove_cache_file(path: Path) -> None:
    for suffix in _FILE_SUFFIXES:
        try:
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        except OSError:
            pass


def remove_least_recently_used(folder: Path, *, keep: Path | None = None, limit: int | None = None) -> None:
    """Remove whole cache files of the cache's own `folder` (OWN_FOLDER), those of the content folders used
    longest ago first (a file's modification time: every run that opens it touches it), until its files hold at
    most `limit` bytes (default MAX_CACHE_BYTES); never `keep`, the file in use, nor anything not named as the
    cache names its files. A process still reading a removed file goes on with it, and the next run starts that
    content folder's cache afresh: only time is lost."""
    limit = MAX_CACHE_BYTES if limit is None else limit
    files = []
    for path in Path(folder).glob("*.sqlite"):
        if not _OWN_FILE.fullmatch(path.name) or path.is_symlink():
            continue
        try:
            used = path.stat().st_mtime_ns
        except OSError:
            continue  # removed meanwhile
        size = 0
        for suffix in _FILE_SUFFIXES:
            try:
                size += os.stat(f"{path}{suffix}").st_size
            except OSError:
                pass
        files.append((used, path.name, path, size))
    total = sum(size for *_, size in files)
    for _, _, path, size in sorted(files):
        if total <= limit:
            break
        if path != keep:
            _remove_cache_file(path)
            total -= size


def open_cache(folder: Path | None, project: Path, *, enabled: bool = True) -> Cache:
    """The cache for a content folder: in `folder`, else the default; none when disabled, and none, said
    (`unusable`), where the folder is inside the content folder, among the keeper's files."""
    if not enabled:
        return Cache(None)
    folder = folder or default_cache_dir()
    if Path(folder).resolve().is_relative_to(Path(project).resolve()):
        cache = Cache(None)
        cache.unusable = f"{folder} is inside the content folder {project}, among the keeper's files"
        return cache
    return Cache(folder, project)
