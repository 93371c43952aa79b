"""`nomic-archive check`: replay every game and report each discrepancy with its file:line."""
from __future__ import annotations

import gc
import json

from ..cache import Cache, open_cache
from ..engine import replay_game
from ..engine.replay import Replay
from ..errors import ArchiveError, SourceError
from ..parallel import available_cores
from ..parse.game import load_content
from ..terminal import one_line

JSON_SCHEMA_VERSION = 1


def check_games(content, *, drafts: bool = False, cache: Cache | None = None, jobs: int = 1,
                previous: Replay | None = None, checkpoints: bool = False) -> list[Replay]:
    """Replays of every game (their drafts parsed too when asked); raises ArchiveError when any input
    cannot be read or applied. `jobs`: cores to parse a long log on (forking: only where no thread runs).
    `previous` and `checkpoints`: an earlier replay of the one game `content` names, to resume from, and
    whether to keep checkpoints to resume this one from (see replay_game)."""
    replays = [replay_game(game, previous=previous, checkpoints=checkpoints)
               for game in load_content(content, drafts=drafts, cache=cache, jobs=jobs)]
    fatal = [SourceError(e.file, e.line, f"{e.entry}: {e.message}" if e.entry else e.message)
             for r in replays for e in r.errors]
    if fatal:
        raise ArchiveError(fatal)
    return replays


def run(args) -> int:
    cache = open_cache(args.cache_dir, args.content)
    gc.disable()  # parsing and replaying make many objects and no cycles: the collector would only slow them
    try:
        replays = check_games(args.content, cache=cache, jobs=available_cores())
    finally:
        cache.close()
        gc.freeze()  # what it made lives to the end: the collector, back on, need not walk it
        gc.enable()
    if args.format == "json":
        print(json.dumps(report_json(replays), indent=2, sort_keys=True))
    else:
        print(report_text(replays))
    return 1 if any(r.findings for r in replays) else 0


def report_json(replays: list[Replay]) -> dict:
    return {
        "version": JSON_SCHEMA_VERSION,
        "games": [{
            "game": r.game.slug,
            "consistent": not r.findings,
            "findings": [f.to_json() for f in r.findings],
            "overrides": [o.to_json() for o in r.overrides],
            "scores": {player: score if isinstance(score, int) else float(score)  # a JSON number: 8.8
                       for player, score in r.final_scores.items()},
            "winner": list(r.winner),
        } for r in replays],
    }


def report_text(replays: list[Replay]) -> str:
    """One line per finding and override (player text in them escaped), then one per game."""
    lines = []
    for r in replays:
        for finding in r.findings:
            lines.append(one_line(str(finding)))
        for override in r.overrides:
            lines.append(one_line(f"{override} [judgment]"))
    for r in replays:
        noun = "turn" if r.game.config.variant == "solitaire" else "proposal"
        count = sum(1 for s in r.steps if s.entry.kind == noun)
        verdict = "consistent" if not r.findings else f"{len(r.findings)} discrepanc{'y' if len(r.findings) == 1 else 'ies'}"
        winner = f", won by {', '.join(r.winner)}" if r.winner else ""
        lines.append(f"{r.game.slug}: {count} {noun}{'' if count == 1 else 's'}, {verdict}{winner}")
    return "\n".join(lines)
