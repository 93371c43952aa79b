"""What a build leaves for the next: the manifest of its site (each file's digest, size and times) and the digest
of the inputs it was made from (the games' files, the templates, the options, this program), kept in the cache;
and from them, whether a build has anything to do (`unchanged_site`).

It imports nothing that parses, replays or draws (no model, engine, site or Jinja beyond what the cache's
records need): a build with nothing to do reads the games' files, the templates and the site's file times, and
stops without importing the rest of the program, which costs more than the check (see build.py)."""
from __future__ import annotations

import os
from array import array
from pathlib import Path
from typing import Any

from .cache import Cache, digest
from .errors import ErrorCollector
from .files import SITE_MARKER
from .parse.source import read_bytes

# How a keeper's templates are named in errors and tracebacks: as the content folder holds them.
OVERRIDES = "_templates"

# What the manifest says of a file of the site: the digest of its bytes, its size, its modification time and its
# change time (ctime: which no copy can set, as `cp -p` and `rsync -t` set the modification time).
Known = tuple[bytes, int, int, int]


def package_templates() -> Path:
    """templates/ inside an installed wheel, else at the root of a source checkout."""
    installed = Path(__file__).resolve().parent / "templates"
    return installed if installed.is_dir() else Path(__file__).resolve().parents[1] / "templates"


def overrides_folder(content: Path) -> Path | None:
    """Where a content folder's keeper keeps templates of their own (none for a lone game)."""
    return content / OVERRIDES if content.is_dir() else None


def templates_digest(overrides: Path | None) -> bytes:
    """A digest of every template and static file (a keeper's overrides included). A keeper's file is read as
    every input is (see render.OverrideLoader): one that cannot be is an ArchiveError."""
    parts: list[bytes | str] = []
    folder = package_templates()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        parts += [path.relative_to(folder).as_posix(), path.read_bytes()]
    parts.append("|")
    if overrides is not None:
        errors = ErrorCollector()
        for name, path in override_files(overrides):
            parts += [name, read_bytes(path, name, errors, root=overrides.parent) or b""]
        errors.raise_if_any()
    parts.append("|")
    return digest(*parts)


def override_files(overrides: Path) -> list[tuple[str, Path]]:
    """Whatever stands in a keeper's templates folder but folders (files, links, FIFOs: each is reported when
    read), by its name in errors. Folders linked from it are read where they stay inside the content folder
    (once each); one leading out is listed itself, and refused when read."""
    if not os.path.isdir(overrides):
        return []
    root = Path(os.path.realpath(overrides.parent))
    found, seen = [], set()
    for folder, folders, files in os.walk(overrides, followlinks=True):
        real = os.path.realpath(folder)
        relative = Path(folder).relative_to(overrides).as_posix()
        name = OVERRIDES if relative == "." else f"{OVERRIDES}/{relative}"
        if real in seen or not Path(real).is_relative_to(root):
            folders.clear()
            if real not in seen:
                found.append((name, Path(folder)))
            continue
        seen.add(real)
        found += [(f"{name}/{file}", Path(folder, file)) for file in files]
    return sorted(found)


def unchanged_site(cache: Cache, output: Path, inputs: bytes) -> Any:
    """What the last build into `output` said of its site, when it was made from the same `inputs` and every
    file in it is as that build left it (none added, removed or touched): then there is nothing to do, not
    even to parse. Else None."""
    record = read_record(cache, output)
    if record is None or record[1] is None or record[1][0] != inputs:
        return None
    known = record[0]
    present, links = site_files(output)
    present.pop(SITE_MARKER, None)
    if links or present.keys() != known.keys() or any(present[path] != entry[1:] for path, entry in known.items()):
        return None
    return record[1][1]


def site_files(site: Path) -> tuple[dict[str, tuple[int, int, int]], bool]:
    """Every file in the site (symbolic links included, not followed) with its size, modification time and change
    time, and whether any of them is a symbolic link (a build makes none)."""
    files: dict[str, tuple[int, int, int]] = {}
    links = False
    folders = [(site, "")]
    while folders:
        folder, prefix = folders.pop()
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    folders.append((Path(entry.path), f"{prefix}{entry.name}/"))
                else:
                    stat = entry.stat(follow_symlinks=False)
                    files[prefix + entry.name] = (stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns)
                    links = links or entry.is_symlink()
    return files, links


# A manifest as the cache keeps it, in columns: (MANIFEST_FORMAT, the paths, their digests end to end, their
# sizes, modification times and change times as 64-bit integers in this machine's order, (inputs digest, what
# the build said of the site) or None). Read back in a few milliseconds at 18,000 pages: a row for each page,
# or numbers in JSON, took four times as long.
MANIFEST_FORMAT = 5
StoredManifest = tuple[int, tuple[str, ...], bytes, bytes, tuple[bytes, dict[str, int]] | None]
_DIGEST_BYTES = len(digest())


def stored_manifest(entries: dict[str, Known], inputs: tuple[bytes, Any] | None) -> tuple:
    """A site's manifest (what it holds, by path) as the cache keeps it (StoredManifest)."""
    rows = list(entries.values())
    numbers = array("q", [number for row in rows for number in row[1:]])
    return MANIFEST_FORMAT, tuple(entries), b"".join(row[0] for row in rows), numbers.tobytes(), inputs


def write_manifest(cache: Cache, output: Path, entries: dict[str, Known], inputs: tuple[bytes, Any] | None) -> None:
    cache.set_manifest(output, stored_manifest(entries, inputs), StoredManifest)


def read_record(cache: Cache, output: Path) -> tuple[dict[str, Known], Any] | None:
    """The manifest of the site at `output` and the inputs it was made from; None when there is none that can
    be used (damaged, from another version, or the folder is no site a build made): build it all again."""
    if not (output / SITE_MARKER).is_file():
        return None
    record = cache.manifest(output, StoredManifest)
    if record is None or record[0] != MANIFEST_FORMAT:
        return None
    _, paths, digests, packed, inputs = record
    numbers = array("q")
    if len(packed) != 3 * numbers.itemsize * len(paths) or len(digests) != _DIGEST_BYTES * len(paths):
        return None
    numbers.frombytes(packed)
    return {path: (digests[_DIGEST_BYTES * position:_DIGEST_BYTES * (position + 1)], size, mtime, ctime)
            for position, (path, size, mtime, ctime) in enumerate(zip(paths, numbers[0::3], numbers[1::3],
                                                                      numbers[2::3]))}, inputs


def read_manifest(cache: Cache, output: Path) -> dict[str, Known] | None:
    record = read_record(cache, output)
    return record[0] if record is not None else None
