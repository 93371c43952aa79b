"""`nomic-archive check`: replay every game and report each discrepancy with its file:line."""
from __future__ import annotations

import gc
import json

from ..cache import open_cache
from ..engine.replay import Replay
from ..parallel import available_cores
from ..pipeline import replay_games
from ..terminal import one_line

JSON_SCHEMA_VERSION = 1


def run(args) -> int:
    cache = open_cache(args.cache_dir, args.content)
    gc.disable()  # parsing and replaying make many objects and no cycles: the collector would only slow them
    try:
        replays = replay_games(args.content, cache=cache, jobs=available_cores())
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
            "scores": r.final_scores,
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
