"""Every game of a content folder read and replayed: where check, diff, preview and ruleset stop, and where a
site's walk starts (pipeline.py). It imports nothing of the site or Jinja: `check` never draws."""
from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from .cache import Cache
from .engine import replay_game
from .engine.replay import Replay
from .engine.solitaire import SolitaireReplay
from .errors import ArchiveError, SourceError
from .parse.folders import names_root
from .parse.game import load_content
from .parse.log import LogParser
from .progress import NO_PROGRESS, Progress
from .terminal import counted

GameReplay = Replay | SolitaireReplay


def replay_games(content: Path, *, drafts: bool = False, cache: Cache | None = None, jobs: int = 1,
                 previous: Mapping[str, GameReplay] | None = None, checkpoints: bool = False,
                 parser: LogParser | None = None, progress: Progress = NO_PROGRESS) -> list[GameReplay]:
    """Replays of every game (their drafts parsed too when asked); raises ArchiveError when any input
    cannot be read or applied. `jobs`: cores to parse a long log on (forking: only where no thread runs).
    `previous` and `checkpoints`: earlier replays of the games, by slug, to resume from, and whether to keep
    checkpoints to resume these from (see replay_game); `parser`, one that parsed the logs before and remembers
    their entries; `progress`: told of its REPLAY_STEPS (progress.py)."""
    progress.step("reading the games")
    games = load_content(content, drafts=drafts, cache=cache, jobs=jobs, parser=parser)
    progress.step(f"replaying {counted(len(games), 'game')}")
    replays = [replay_game(game, previous=(previous or {}).get(game.slug), checkpoints=checkpoints) for game in games]
    fatal = [SourceError(e.file, e.line, f"{e.entry}: {e.message}" if e.entry else e.message)
             for r in replays for e in r.errors]
    if fatal:
        raise ArchiveError(fatal, root=str(names_root(content)))
    return replays
