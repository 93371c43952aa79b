"""Which folders are games and which files of a game the parser reads, and a digest of them all: what a build
with nothing to do reads before it stops (see manifest.py), so this module imports nothing that parses."""
from __future__ import annotations

import os
from pathlib import Path

from ..cache import digest
from ..errors import ErrorCollector, SourceError
from ..limits import MAX_GAME_BYTES, MAX_LOG_BYTES
from .source import read_bytes

EARLIER_FILE = "earlier.md"  # format 1.4: the proposals a game knows only from its record (parse/earlier.py)


def not_a_folder(content: Path) -> SourceError | None:
    """What is wrong with the folder a command was named, where it is none: not there, or a file (`check
    game/log.md`: a command reads a game's folder, or a folder of games)."""
    if os.path.isdir(content):  # not Path.is_dir(): it raises for a name too long to be a file's
        return None
    if not os.path.lexists(content):
        return SourceError(str(content), 0, "no such folder" + _did_you_mean(content))
    return SourceError(str(content), 0, "is a file, not a folder: name a game's folder (the one holding game.toml) "
                       "or a folder of games")


def _did_you_mean(missing: Path) -> str:
    """A folder beside `missing` named much like it (`content/our-gmae`: content/our-game), as a hint."""
    import difflib

    parent = missing.parent
    try:
        names = [entry.name for entry in os.scandir(parent) if entry.is_dir() and not entry.name.startswith(".")]
    except OSError:  # the folder above is missing too, or cannot be read
        return ""
    close = difflib.get_close_matches(missing.name, names, n=1, cutoff=0.7)
    return f" (did you mean {parent / close[0]}?)" if close else ""


def is_game(folder: Path) -> bool:
    """A folder with a game.toml (whatever that is: one that is not a file is reported when read)."""
    return os.path.lexists(folder / "game.toml")


def game_folders(content: Path) -> list[Path]:
    """The games a path names: itself when it is a game, else its sub-folders that are games, by name. A hidden
    sub-folder (a name starting with ".") is none: an import killed mid-way leaves its game half-written in
    `.NAME.building.PID.*` for the next one to remove.

    Absolute, so that every game has a name and a parent folder: `Path(".").name` is empty and its parent is
    itself, which would name a game's files `log.md` where they are looked up as `./log.md`."""
    content = Path(os.path.abspath(content))
    if is_game(content):
        return [content]
    return sorted((p for p in content.iterdir() if not p.name.startswith(".") and p.is_dir() and is_game(p)),
                  key=lambda p: p.name)


def input_files(folder: Path, *, drafts: bool = False) -> list[Path]:
    """Every file of a game that the parser reads, in reading order; drafts only when asked for.

    Whatever stands where a file is read (a folder named log.md, a FIFO in log/) is listed, to be reported."""
    files = [folder / "game.toml", folder / "rules.md"]
    if os.path.lexists(folder / "log.md"):
        files.append(folder / "log.md")
    if os.path.lexists(folder / EARLIER_FILE):  # format 1.4
        files.append(folder / EARLIER_FILE)
    for sub in ("log", "snapshots") + (("drafts",) if drafts else ()):
        files += sorted((folder / sub).glob("*.md")) if (folder / sub).is_dir() else []
    return files


def inputs_digest(content: Path) -> bytes | None:
    """A digest of every file the parser reads under `content` (drafts aside), by name and bytes: the same
    digest, the same games. None when something there would not be read as it stands (a FIFO, a link out of
    the folder, a missing file): parsing says what."""
    errors = ErrorCollector()
    parts: list[str | bytes] = []
    try:
        folders = game_folders(content)
    except OSError:
        return None
    for folder in folders:
        read = 0
        for path in input_files(folder):
            data = read_bytes(path, path.name, errors, root=folder.parent, limit=MAX_LOG_BYTES)
            read += len(data or b"")
            if data is None or read > MAX_GAME_BYTES:
                return None
            parts += [path.relative_to(folder.parent).as_posix(), data]
    return digest(*parts) if folders else None


def names_root(content: Path) -> Path:
    """The folder that the names of a content folder's files are relative to, in errors, findings and on the
    site: the content folder, or the folder holding the one game it is."""
    content = Path(os.path.abspath(content))
    return content.parent if is_game(content) else content
