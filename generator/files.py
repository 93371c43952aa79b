"""Writing without ever leaving a half-written file or site behind, and without touching a keeper's files.

A keeper's archive is the one copy of a game's history: an output folder is checked before anything is
written (`check_site_folder`), a site is replaced only when it carries the marker a build leaves in it,
and every file and folder made gets the modes the umask allows, as any other program's would.
"""
from __future__ import annotations

import glob
import hmac
import os
import re
import secrets
import shutil
import signal
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

from .errors import ArchiveError, SourceError

# Left in the root of every site a build writes: proof that the folder is ours to replace.
SITE_MARKER = ".nomic-archive-site"
SITE_MARKER_TEXT = ("This folder is a site built by nomic-archive (https://pypi.org/project/nomic-archive/).\n"
                    "The next build replaces the whole folder. Keep nothing else here.\n")


@lru_cache(maxsize=1)
def umask() -> int:
    """The process's umask (read once: reading it means setting it, briefly)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def file_mode() -> int:
    return 0o666 & ~umask()


def folder_mode() -> int:
    return 0o777 & ~umask()


# How long a build waits for another writing the same site before it gives up (exit 2).
LOCK_WAIT_SECONDS = 600
# The site locks this process holds. A forked worker shares each (a lock is the open file's, not the process's):
# one left running when the build was stopped, or waiting for ever on a pipe to it, held the site's folder, and
# the next build waited 10 minutes and gave up. Each child closes its copies as it starts.
_HELD_LOCKS: set[int] = set()


def _close_held_locks() -> None:
    for handle in _HELD_LOCKS:
        os.close(handle)
    _HELD_LOCKS.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_close_held_locks)


@contextmanager
def site_lock(output: Path, waiting: Callable[[], None] = lambda: None) -> Iterator[None]:
    """Hold the site folder `output` for one build: a second build into it (a cron job and a keeper, two CI
    jobs) waits until the first is done, calling `waiting` once, or gives up after LOCK_WAIT_SECONDS (exit 2).

    The folder that holds the site is what is locked (flock on the folder itself: the site folder is swapped
    whole, and a lock file would be left in a keeper's folder), so builds into two sites side by side take
    turns too; where the system has no flock, builds are not serialized."""
    try:
        import fcntl
    except ImportError:  # not a POSIX system
        yield
        return
    holder = output.absolute().parent
    with writing(holder):
        holder.mkdir(parents=True, exist_ok=True)
        handle = os.open(holder, os.O_RDONLY)
    _HELD_LOCKS.add(handle)
    try:
        deadline = None
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if deadline is None:
                    deadline = time.monotonic() + LOCK_WAIT_SECONDS
                    waiting()
                elif time.monotonic() > deadline:
                    raise ArchiveError([SourceError(str(output), 0, "another build has been writing this folder "
                                                    f"for over {LOCK_WAIT_SECONDS} s; nothing was written")]) from None
                time.sleep(0.05)
        yield
    finally:
        _HELD_LOCKS.discard(handle)
        os.close(handle)  # closing releases the lock


@contextmanager
def writing(path: Path) -> Iterator[None]:
    """What the system refuses while writing `path` (a read-only folder, a full disk, a file where a folder
    must be) becomes `path: cannot write: reason`, exit 2, not a traceback. An OSError no system call raised (it
    has no errno: a TimeoutError of the program's own) is no such failure, and is not named one."""
    try:
        yield
    except OSError as error:
        if error.errno is None:
            raise
        reason = error.strerror or str(error)
        raise ArchiveError([SourceError(str(path), 0, f"cannot write: {reason}")]) from None


def refuse_to_replace(output: Path, command: str, *, force: bool) -> None:
    """The `-o FILE` of a command that writes one file, checked before any work: a file already there may be a
    keeper's only copy of something, so it is replaced only when `--force` says so. Raises ArchiveError (exit 2)."""
    if os.path.lexists(output) and not force:  # lexists: a link, even to nothing, is not replaced either
        raise ArchiveError([SourceError(str(output), 0, f"exists, and {command} does not replace a file (it may be "
                                        "a keeper's only copy): choose another name, or add --force to replace it; "
                                        "nothing was written")])


def occupied_folder_error(folder: Path, hint: str = "") -> SourceError | None:
    """The error for a command that writes a whole folder (a game), checked before any work, when `folder` is
    neither new nor an empty folder: nothing a keeper made there is replaced, and a link, even to an empty folder,
    is not written through. `hint`, in parentheses after it, says what the command wants instead."""
    if os.path.lexists(folder) and (folder.is_symlink() or not folder.is_dir() or any(folder.iterdir())):
        return SourceError(str(folder), 0, "already exists and is not an empty folder; nothing was written"
                           + (f" ({hint})" if hint else ""))
    return None


def write_atomic(path: Path, data: str | bytes) -> None:
    """Write to a temporary file beside `path`, then rename it into place (mode as the umask allows). What a
    write of `path` killed mid-way left (a stamped temporary file: _TEMPORARY) is removed first."""
    with writing(path):
        path.parent.mkdir(parents=True, exist_ok=True)
        remove_temporaries(path.parent, path.name)
        handle, temporary = _temporary_file(path)
        try:
            with os.fdopen(handle, "wb") as file:
                file.write(data.encode("utf-8") if isinstance(data, str) else data)
            os.replace(temporary, path)
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise


# A temporary file is named `.NAME.PID.NONCE.STAMP.tmp`, STAMP an HMAC of the rest under this user's secret
# (cache.sealing_key, kept outside any keeper's folder): one so named whose process has ended is provably what
# this program left when killed mid-write (SIGKILL, a power cut), and is removed; a keeper's file named alike
# cannot carry the stamp, and is never touched. Where no secret can be kept, the stamp is left empty: nothing
# is proved, and nothing is removed.
_TEMPORARY = re.compile(r"\.(?P<name>.+)\.(?P<pid>[0-9]+)\.(?P<nonce>[0-9a-f]{16})\.(?P<stamp>[0-9a-f]{32})?\.tmp")


def _temporary_stamp(name: str, pid: str, nonce: str) -> str | None:
    from .cache import sealing_key  # (the cache's secret, made on first use)

    key = sealing_key()
    if key is None:
        return None
    return hmac.new(key, f"temporary file .{name}.{pid}.{nonce}".encode(), "sha256").hexdigest()[:32]


def _temporary_file(path: Path) -> tuple[int, Path]:
    """A new temporary file beside `path`, open for writing, and its path."""
    pid = str(os.getpid())
    while True:
        nonce = secrets.token_hex(8)
        temporary = path.parent / f".{path.name}.{pid}.{nonce}.{_temporary_stamp(path.name, pid, nonce) or ''}.tmp"
        try:  # (made as any file: its mode is what the umask allows)
            return os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0),
                           0o666), temporary
        except FileExistsError:
            continue


def remove_temporaries(folder: Path, name: str | None = None) -> None:
    """Remove the temporary files of writes of `name` (of any file: None) in `folder` that were killed mid-way:
    those this user's runs of the program made (the stamp holds) whose process has ended."""
    try:
        candidates = list(folder.glob(f".{glob.escape(name) if name else '*'}.*.tmp"))
    except OSError:
        return
    for path in candidates:
        if is_own_temporary(path):
            path.unlink(missing_ok=True)


def is_own_temporary(path: Path) -> bool:
    """Whether `path` is a temporary file this user's run of the program left when killed mid-write."""
    found = _TEMPORARY.fullmatch(path.name)
    if found is None or not found["stamp"] or path.is_symlink() or not path.is_file():
        return False
    stamp = _temporary_stamp(found["name"], found["pid"], found["nonce"])
    return stamp is not None and hmac.compare_digest(stamp, found["stamp"]) and \
        (not _running(int(found["pid"])) or _before_boot(path))


def _real(path: Path) -> Path:
    return Path(os.path.realpath(path))


def _is_game(folder: Path) -> bool:
    return (folder / "game.toml").is_file()


def holds_games(folder: Path) -> bool:
    """A game, or a folder with a game among its sub-folders (a content folder)."""
    if _is_game(folder):
        return True
    try:
        return any(child.is_dir() and _is_game(child) for child in folder.iterdir())
    except OSError:
        return False


def check_site_folder(output: Path, content: Path | None) -> None:
    """Refuse, before anything is written, an output folder whose replacement could lose a keeper's files.

    Refused: the content folder itself, a folder that holds it or any game, a folder inside it, an existing
    file, an existing folder that is neither empty nor a site this program built (it has SITE_MARKER), and a
    place whose folder is a file or cannot take new files.
    Raises ArchiveError (exit 2) saying how to proceed."""
    try:
        _check_site_folder(output, content)
    except OSError as error:  # a name the file system refuses to look up (too long, a loop)
        raise ArchiveError([SourceError(str(output), 0, f"cannot be used: {error.strerror}; nothing was written")]) \
            from None


def _check_site_folder(output: Path, content: Path | None) -> None:
    name = str(output)
    out = _real(output)

    def refuse(message: str) -> None:
        raise ArchiveError([SourceError(name, 0, message + "; nothing was written")])

    if content is not None:
        archive = _real(content)
        if out == archive:
            refuse(f"is the content folder ({content}): building there would replace the archive with its "
                   "site; choose another output folder, e.g. -o site")
        if archive.is_relative_to(out):
            refuse(f"holds the content folder ({content}): building there would replace the archive with its "
                   "site; choose a folder beside it, e.g. -o site")
        if out.is_relative_to(archive):
            refuse(f"lies inside the content folder ({content}): the site would be mixed with the archive; "
                   "choose a folder outside it, e.g. -o site")
    if output.is_symlink() and not out.exists():
        refuse("is a symbolic link to nothing; name a real folder")
    # The site is made beside the output folder and renamed into place: its folder must take new entries.
    existing = next(folder for folder in out.parents if folder.exists())
    if not existing.is_dir():
        refuse(f"cannot be written: {existing} is a file, not a folder")
    if not os.access(existing, os.W_OK | os.X_OK):
        refuse(f"cannot be written: {existing} does not let you add files to it")
    if out.exists() and not out.is_dir():
        refuse("is a file, not a folder; choose a folder for the site")
    if out.is_dir():
        if holds_games(out):
            refuse("holds a game (a folder with game.toml): building there would replace it")
        if not (out / SITE_MARKER).is_file() and _has_entries(out):
            refuse(f"exists and is not a site built by nomic-archive (it has no {SITE_MARKER} file), so it is "
                   "not replaced; choose another output folder, or empty or remove this one yourself")


def site_folder(output: Path) -> Path:
    """The folder a site is written as: `output`, or, where `output` is a symbolic link (a keeper's link to the
    folder they publish), the folder it leads to, so that the site is swapped in there and the link stays a link
    (checked first by check_site_folder: a link to nothing is refused)."""
    return Path(os.path.realpath(output)) if output.is_symlink() else output


def _has_entries(folder: Path) -> bool:
    with os.scandir(folder) as entries:
        return any(True for _ in entries)


def new_staging_folder(target: Path) -> Path:
    """A folder beside `target` (same file system, so the final swap is a rename), marked as a site from the
    start: if a crash leaves it behind, the next build knows it for its own (see remove_leftovers)."""
    with writing(target):
        target.parent.mkdir(parents=True, exist_ok=True)
        remove_leftovers(target)
        staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.building.{os.getpid()}.", dir=target.parent))
        os.chmod(staging, folder_mode())  # mkdtemp makes 0700: a web server could not enter the site
    mark_site(staging)
    return staging


def mark_site(folder: Path) -> None:
    write_atomic(folder / SITE_MARKER, SITE_MARKER_TEXT)


def remove_leftovers(target: Path) -> None:
    """Remove what a build killed mid-way left beside `target`: its staging folder, or the previous site it
    had moved aside (`.NAME.old.PID.*/site`, when the kill came between the two renames of the swap).

    Only folders of a process that has ended (a build running beside this one keeps its own), or made before
    the system last started (the power lost mid-build: its number may be another process's now), and only
    when they carry the site marker or are empty but for the temporary file of a write killed (the marker's
    own): never anything a person made."""
    for kind in ("building", "old"):
        for folder in target.parent.glob(f".{target.name}.{kind}.*.*"):
            pid = folder.name.removeprefix(f".{target.name}.{kind}.").split(".")[0]
            if folder.is_symlink() or not folder.is_dir() or not pid.isdecimal() or \
                    (_running(int(pid)) and not _before_boot(folder)):
                continue
            site = folder / "site" if kind == "old" else folder
            remove_temporaries(folder, SITE_MARKER)
            if (site / SITE_MARKER).is_file() or not _has_entries(folder):
                shutil.rmtree(folder, ignore_errors=True)


def _before_boot(folder: Path) -> bool:
    """Whether `folder` was last changed before the system started: then whatever made it has ended. (False
    where the system does not say when it started.)"""
    try:
        booted = time.time() - time.clock_gettime(time.CLOCK_BOOTTIME)
        return folder.stat().st_mtime < booted - 1  # (a second's slack: the two clocks are read apart)
    except (AttributeError, OSError):  # no CLOCK_BOOTTIME here (not Linux), or the folder went meanwhile
        return False


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)  # no signal sent: only asks whether the process exists
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True  # another user's process, or no way to tell: leave its folder alone
    return True


@contextmanager
def _signals_held():
    """Hold Ctrl-C and SIGTERM back for a moment, so that a swap is not cut between its two renames."""
    held = {signal.SIGINT, signal.SIGTERM}
    try:
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    except (AttributeError, ValueError, OSError):  # not on this platform, or not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def swap_in(staging: Path, target: Path) -> None:
    """Replace `target` with the completed `staging` folder; the old one is removed only after the swap.

    The caller has checked `target` with check_site_folder: it is absent, empty or a previous site."""
    with writing(target):
        if not target.exists():
            os.replace(staging, target)
            return
        retired = Path(tempfile.mkdtemp(prefix=f".{target.name}.old.{os.getpid()}.", dir=target.parent))
        with _signals_held():
            os.replace(target, retired / "site")
            try:
                os.replace(staging, target)
            except BaseException:
                os.replace(retired / "site", target)  # put the previous site back
                raise
    shutil.rmtree(retired, ignore_errors=True)
