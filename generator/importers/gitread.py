"""Reading a git repository through the `git` command, as ghp-import and most tools do: no library to install,
and whatever git the keeper has reads whatever repository it made.

Everything from the repository is untrusted: revisions given on the command line are verified before use
(`--end-of-options`, so "--output=x" is a name, not an option), file names are read NUL-separated, and blobs are
decoded as UTF-8 with replacement. So is its own configuration (`.git/config` comes with a tarball or a shared
folder): git runs with the settings that would start a program overridden on its command line, which wins over
every config file, and without the caller's GIT_* variables, which could point it at another repository (as
pre-commit runs git)."""
from __future__ import annotations

import os
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..limits import MAX_FILE_BYTES, MAX_GIT_OUTPUT_BYTES
from ..parse.source import not_there, too_large


class GitError(Exception):
    """git could not do what was asked: the message says what, for a person."""


# Settings a repository's config could use to run a program while it is only read, each overridden: a signature
# check (gpg.program through log.showSignature), a filesystem monitor, external diffs and text conversions, a
# pager; and those that would change what is read (renames hide a file's deletion, an encoding its text).
SAFE_CONFIG = ("core.quotepath=off", "core.fsmonitor=false", "core.pager=cat", "log.showSignature=false",
               "gpg.program=false", "gpg.ssh.program=false", "gpg.x509.program=false", "diff.external=",
               "diff.renames=false", "i18n.logOutputEncoding=UTF-8")
# Options of `git log` and `git show` to the same end, whatever a config file says.
SAFE_LOG_OPTIONS = ("--no-show-signature", "--no-ext-diff", "--no-textconv", "--no-renames", "--no-mailmap")


def _environment() -> dict[str, str]:
    env = {name: value for name, value in os.environ.items() if not name.startswith("GIT_")}
    env.update(LC_ALL="C", GIT_TERMINAL_PROMPT="0", GIT_OPTIONAL_LOCKS="0", GIT_CONFIG_NOSYSTEM="1", GIT_PAGER="cat")
    return env


def _command(repo: Path, args: tuple[str, ...]) -> list[str]:
    config = [option for setting in SAFE_CONFIG for option in ("-c", setting)]
    if args and args[0] in ("log", "show"):
        args = (args[0], *SAFE_LOG_OPTIONS, *args[1:])
    return ["git", "--no-pager", "-C", str(repo), *config, *args]


def git(repo: Path, *args: str) -> bytes:
    """The output of `git -C repo ARGS`, read as it comes and at most MAX_GIT_OUTPUT_BYTES of it (a repository's
    messages may be of any size); GitError past that, or with git's own first line of complaint when it fails."""
    with tempfile.TemporaryFile() as complaints:  # (a file, not a pipe: git never waits for it to be read)
        try:
            process = subprocess.Popen(_command(repo, args), stdout=subprocess.PIPE, stderr=complaints,
                                       env=_environment())
        except FileNotFoundError:
            raise GitError("the git command is not installed (the importer reads repositories through it)") from None
        output = bytearray()
        with process:  # (waits for git to end)
            while chunk := process.stdout.read1(1 << 16):
                output += chunk
                if len(output) > MAX_GIT_OUTPUT_BYTES:
                    process.kill()
                    raise GitError(f"git {args[0]} wrote more than {MAX_GIT_OUTPUT_BYTES >> 20} MB, more than an "
                                   "import reads from one git command")
        if process.returncode != 0:
            complaints.seek(0)
            complaint = text(complaints.read(1 << 16)).strip().splitlines()
            raise GitError(complaint[0] if complaint else f"git {args[0]} failed")
    return bytes(output)


def text(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def check_repository(repo: Path) -> None:
    if not repo.is_dir():
        raise GitError(not_there(str(repo), "no such folder", "clone the repository (git clone ADDRESS) and name "
                                 "the clone"))
    if not is_repository(repo):
        raise GitError("is not a git repository (clone the game's repository and name the clone)")


def is_repository(repo: Path) -> bool:
    """Whether the folder `repo` is in a git repository."""
    try:
        git(repo, "rev-parse", "--git-dir")
    except GitError:
        return False
    return True


def commit_id(repo: Path, revision: str) -> str:
    """The full id of the commit `revision` names (a branch, a tag, an id); GitError when it names none."""
    try:
        return text(git(repo, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{revision}^{{commit}}")).strip()
    except GitError:
        raise GitError(f"'{revision}' names no commit in this repository") from None


def commit_date(repo: Path, revision: str) -> str:
    """The day the commit `revision` was made (its committer's date), YYYY-MM-DD."""
    return text(git(repo, "show", "-s", "--format=%cI", "--end-of-options", revision)).strip()[:10]


@dataclass(frozen=True)
class Commit:
    id: str
    parents: tuple[str, ...]
    author: str
    date: str               # the committer's date, ISO 8601: when the change reached the record
    message: str

    @property
    def short(self) -> str:
        return self.id[:10]

    @property
    def subject(self) -> str:
        return self.message.strip().split("\n", 1)[0].strip()


def log_records(repo: Path, placeholders: tuple[str, ...], *args: str) -> list[tuple[list[str], list[str]]]:
    """`git log ARGS`, each commit as the values of `placeholders` ("%H", "%cI", "%B"...) and the files it changes
    (with --name-only among ARGS). All is read NUL-separated (-z), the one character no message, name or path
    holds: any other separator may be in a message, and without -z a path holding a quote is written C-quoted.
    GitError when the output is not so formed.

    Each commit is written as a NUL, each value after a NUL, a NUL, and then, if it changes files, a line feed
    and each path followed by a NUL: a value may be empty, a path never is."""
    items = text(git(repo, "log", "-z", "--format=%x00" + "%x00".join(placeholders), *args)).split("\0")
    records = []
    at = 0
    while at < len(items) - 1:  # (the last item is what follows the last NUL: nothing)
        if items[at] or at + len(placeholders) + 1 >= len(items):
            raise GitError("git log wrote what cannot be read as commits")
        values = items[at + 1:at + len(placeholders) + 1]
        at += len(placeholders) + 1
        paths = []
        while items[at]:  # up to the NUL that starts the next commit, or the end
            paths.append(items[at] if paths else items[at].removeprefix("\n"))
            at += 1
        records.append((values, paths))
    return records


def first_parent_commits(repo: Path, end: str, paths: list[str], start: str | None = None) -> list[Commit]:
    """The commits on the first-parent line up to `end` (after `start`) that change `paths`, oldest first.

    A merged pull request is its merge commit, compared with the branch it was merged into."""
    span = f"{start}..{end}" if start else end
    records = log_records(repo, ("%H", "%P", "%an", "%cI", "%B"), "--first-parent", "--reverse", span, "--", *paths)
    return [Commit(id_, tuple(parents.split()), author, date, message)
            for (id_, parents, author, date, message), _ in records]


def author_and_subject(repo: Path, revision: str) -> tuple[str, str]:
    (author, subject), _ = log_records(repo, ("%an", "%s"), "-1", "--end-of-options", revision)[0]
    return author, subject


def list_files(repo: Path, revision: str, folder: str, *, recursive: bool = True) -> list[str]:
    """Paths of the files (blobs, not links) under `folder` at `revision` (directly in it, unless `recursive`; ""
    is the top folder), in git's order; [] when absent."""
    where = ["--", folder.rstrip("/") + "/"] if folder.strip("/") else []
    raw = git(repo, "ls-tree", *(["-r"] if recursive else []), "-z", "--full-tree", revision, *where)
    names = []
    for item in raw.split(b"\0"):
        if not item:
            continue
        meta, _, name = item.partition(b"\t")
        if meta.split()[1] == b"blob" and not meta.startswith(b"120000"):
            names.append(text(name))
    return names


class BlobTooLarge(Exception):
    """A file of the repository past the cap on what is read (MAX_FILE_BYTES): the message says its size."""


class BlobReader:
    """Many files' texts through one `git cat-file --batch`: thousands of revisions of a rule read in seconds.
    A file is read only within the cap on any input (limits.MAX_FILE_BYTES), so that a 40 MB rules file or a
    JSON file of a million ballots is refused, never held.

    git answers "missing" both for a path that is absent and for an object it cannot read (a damaged clone):
    the folder that holds the path tells them apart, and a file it lists that git cannot read is a GitError,
    never a file that is not there."""

    def __init__(self, repo: Path):
        self._process = subprocess.Popen(_command(repo, ("cat-file", "--batch")), stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=_environment())

    def _ask(self, name: str, limit: int) -> tuple[str, str, int, bytes | None] | None:
        """git's answer for the object `name` (REVISION:PATH): its id, its type, its size and its bytes (None past
        `limit`: they are read and let go); None when git says it is missing."""
        assert self._process.stdin and self._process.stdout
        self._process.stdin.write(f"{name}\n".encode("utf-8"))
        self._process.stdin.flush()
        answer = self._process.stdout.readline().decode("utf-8", "replace").rstrip("\n")
        header = answer.split()
        # "<id> <type> <size>", or "<what was asked> missing", which may hold spaces ("rules/Acting on Behalf")
        if answer.endswith(" missing") or len(header) != 3 or not header[2].isdigit():
            return None
        object_id, kind, size = header[0], header[1], int(header[2])
        if size <= limit:
            return object_id, kind, size, self._process.stdout.read(size + 1)[:-1]
        left = size + 1  # its bytes and the line feed after them, read and let go to reach the next answer
        while left and (chunk := self._process.stdout.read(min(left, 1 << 20))):
            left -= len(chunk)
        return object_id, kind, size, None

    def read(self, revision: str, path: str) -> str | None:
        """The text of `path` at `revision`, or None when it is absent, not a file (or its name cannot be asked
        for); raises BlobTooLarge past the cap, GitError when git cannot read it."""
        if "\n" in path:
            return None
        answer = self._ask(f"{revision}:{path}", MAX_FILE_BYTES)
        if answer is None:
            if self.kind(revision, path) is not None:
                raise GitError(_unreadable(path, revision))
            return None
        _, kind, size, data = answer
        if kind != "blob":
            return None
        if data is None:
            raise BlobTooLarge(too_large(size, MAX_FILE_BYTES, path))
        return text(data)

    def kind(self, revision: str, path: str) -> str | None:
        """"blob" (a file or a link), "tree" (a folder) or None (absent, or a submodule) for `path` at `revision`, as
        the folder that holds it lists it (the file itself is not read); GitError when git cannot read a folder
        on the way."""
        folder, _, name = path.rpartition("/")
        answer = self._ask(f"{revision}:{folder}", MAX_GIT_OUTPUT_BYTES)
        if answer is None:
            if folder and self.kind(revision, folder) != "tree":
                return None
            raise GitError(_unreadable(folder or "the top folder", revision))
        object_id, kind, _, listing = answer
        if kind != "tree":  # (a file where the path has a folder)
            return None
        if listing is None:
            raise GitError(f"{folder or 'the top folder'} at commit {revision[:10]} lists more than an import reads")
        return _listed_kind(listing, name.encode("utf-8"), len(object_id) // 2)

    def present(self, revision: str, path: str) -> bool:
        """Whether `path` is a file at `revision`, whatever its size (its folder says: it is not read)."""
        return self.kind(revision, path) == "blob"

    def close(self) -> None:
        if self._process.stdin:
            self._process.stdin.close()
        self._process.wait()

    def __enter__(self) -> BlobReader:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _unreadable(path: str, revision: str) -> str:
    return f"git cannot read {path} at commit {revision[:10]}: the repository is damaged (git fsck says how)"


def _listed_kind(listing: bytes, name: bytes, id_bytes: int) -> str | None:
    """What a tree object lists under `name` (bytes: a name need not be UTF-8): "blob" (a file or a link), "tree"
    (a folder) or None (nothing, or a submodule, "160000"). Each entry is "MODE NAME", a NUL and its object's id
    (`id_bytes` long)."""
    if b" " + name + b"\0" not in listing:  # (what most asks come to, found without reading each entry)
        return None
    at = 0
    while (space := listing.find(b" ", at)) >= 0 and (end := listing.find(b"\0", space)) >= 0:
        if listing[space + 1:end] == name:
            mode = listing[at:space]
            return "tree" if mode == b"40000" else "blob" if mode.startswith((b"100", b"120")) else None
        at = end + 1 + id_bytes
    return None
