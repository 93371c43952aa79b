"""The commands, one module each (imported only when used), and what several of them share."""
from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import ArchiveError, ErrorCollector, SourceError
from ..files import holds_games
from ..parse.folders import names_root
from ..parse.source import read_text

if TYPE_CHECKING:
    from ..model import Game

DEFAULT_CONTENT = "content"


def content_folder(named: Path | None, command: str) -> Path:
    """The content folder a command reads: the one named (load_content says what is wrong with it), else
    content/ in the working directory, which must be there."""
    if named is not None:
        return named
    if not os.path.isdir(DEFAULT_CONTENT):
        here = Path.cwd()
        if holds_games(here):  # run from inside the content folder, or a game's: the usual first slip
            what, up, named = ("a game's folder", "two folders up", f"../.. && nomic-archive {command} "
                               f"{here.parent.name}/{here.name}") if (here / "game.toml").is_file() else \
                ("a folder of games", "the folder above it", f".. && nomic-archive {command} {here.name}")
            raise ArchiveError([SourceError(DEFAULT_CONTENT, 0, f"looked for the content folder in {here}, which is "
                                            f"{what} itself; run the command from {up}: cd {named}")])
        found, start = ("found a file", "") if os.path.lexists(DEFAULT_CONTENT) else \
            ("there is none", "; or start a game here: nomic-archive new content/GAME --player NAME")
        raise ArchiveError([SourceError(DEFAULT_CONTENT, 0, f"looked for the content folder in {os.getcwd()}, and "
                                        f"{found}; name another folder: nomic-archive {command} FOLDER{start}")])
    return Path(DEFAULT_CONTENT)


def say_cache_unusable(unusable: str) -> None:
    """Say why no cache is kept, where one was asked for (Cache.unusable): the run is right without it, but every
    build and check would start from nothing, and nothing else would tell the keeper why."""
    if unusable:
        print(f"no cache is kept: {unusable}; each build and check starts from nothing (--cache-dir or "
              "NOMIC_ARCHIVE_CACHE_DIR names another folder)", file=sys.stderr)


def read_ruleset(path: Path) -> str:
    """A ruleset file as rules.md: rules.md (or a snapshot) as it is, plain text as `import` reads it, what that
    left out and guessed said as `import text` says it. Raises ArchiveError (exit 2) when it cannot be read as
    either."""
    # Imported here: the importers are a fifth of the start of the commands that never read a ruleset file (a
    # build with nothing to do).
    from ..importers.rulesfile import read_ruleset as read_rules, render_ruleset
    from ..importers.text import DEFAULT_TITLE, RulesetImportError, is_rules_md

    errors = ErrorCollector()
    text = read_text(path, str(path), errors)
    errors.raise_if_any()
    if is_rules_md(text):
        return text
    try:
        read = read_rules(text, file=str(path))
    except RulesetImportError as error:
        raise ArchiveError([SourceError(str(path), error.line, str(error))]) from None
    say_import_notes(read, str(path))
    return render_ruleset(DEFAULT_TITLE, read.rules)


def say_import_notes(read, where: str) -> None:
    """What an import of a ruleset (an ImportedRuleset) left out, guessed and wrote otherwise than it reads, each
    at its file and line, on stderr: the keeper's to confirm."""
    for kind, notes in (("left out: ", read.left_out), ("guessed: ", read.guessed), ("", read.rewritten)):
        for note in notes:
            print(SourceError(note.file or where, note.line, kind + note.message), file=sys.stderr)


def game_point(game: Game, point: str, spec: str, folder: Path) -> int:
    """The log entry after which `point` stands (-1: the initial set), read as the site reads it (model/points.py);
    raises ArchiveError (exit 2) naming `spec` for a name that is no point, the log for a point it lacks."""
    from ..model.points import PointError, point_index, read_point  # (here: what build imports first stays small)

    kind = "turn" if game.config.variant == "solitaire" else "proposal"  # GAME@16: after turn 16
    try:
        return point_index(read_point(point), game.log.entries, kind=kind)
    except PointError as error:
        if not error.in_log:
            raise ArchiveError([SourceError(spec, 0, str(error))]) from None
        files, prefix = game.log.files, Path(game.rules.source.file).parent.as_posix()
        log_file = files[0] if len(files) == 1 else f"{prefix}/log" if files else f"{prefix}/log.md"
        raise ArchiveError([SourceError(log_file, 0, str(error))], root=str(names_root(folder))) from None
