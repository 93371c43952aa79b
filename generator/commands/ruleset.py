"""`nomic-archive ruleset GAME[@POINT]`: the rules in force at a point of a game as the text report its players
read (exit 0; 2 when the game or the point cannot be read, or the -o file cannot be written).

In the game's own layout where game.toml's `[report]` gives one (Agora's FLR and SLR), else a plain one; POINT is
named as the site and `diff` name points (model/points.py): `312`, `8221A`, `judgment-7`, `2005-04-02`, `start`,
`now` (the default).
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

from ..errors import ArchiveError, SourceError
from ..files import refuse_to_replace, write_atomic
from ..model.points import read_point
from ..parse.folders import is_game
from ..replays import replay_games
from . import game_point

SHORT_FORMATS = ("short", "slr")  # `slr` and `flr`: Agora's names for the short and the full report


def run(args) -> int:
    if args.output:
        refuse_to_replace(args.output, "ruleset", force=args.force)
    spec = args.game
    folder, point = Path(spec), None
    if not os.path.lexists(spec) and "@" in spec:
        game, point = spec.rsplit("@", 1)
        folder = Path(game)
    if not os.path.isdir(folder):
        raise ArchiveError([SourceError(str(folder), 0, "no such game folder" if not os.path.lexists(folder)
                                        else "not a game folder (a game is a folder with game.toml)")])
    if not is_game(folder):
        raise ArchiveError([SourceError(str(folder), 0, "not a game folder (a game is a folder with game.toml)")])
    replay = replay_games(folder)[0]  # raises for unreadable files and changes that cannot apply
    if replay.game.config.variant == "solitaire":
        raise ArchiveError([SourceError(spec, 0, "a Solitaire Nomic game has no ruleset report; its turns' pages "
                                        "show its rules")])
    index = len(replay.steps) - 1 if point is None else game_point(replay.game, point, spec, folder)
    # The site's modules load only here: the report is drawn from the plan the site's pages read.
    from ..site.pages import game_plan
    from ..site.ruleset_text import ruleset_text

    day = read_point(point).day if point is not None else None  # a date asked for is the report's date
    text = ruleset_text(game_plan(replay), index, full=args.format not in SHORT_FORMATS, plain=args.plain, date=day)
    if args.output:
        write_atomic(args.output, text)
    else:
        sys.stdout.write(text)
    return 0
