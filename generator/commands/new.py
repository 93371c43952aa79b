"""`nomic-archive new NAME`: a game folder from one of the rulesets bundled in the package."""
from __future__ import annotations

import datetime as dt
import json
import os
from fractions import Fraction
from importlib import resources
from pathlib import Path

from ..errors import ArchiveError, ErrorCollector, SourceError
from ..files import write_atomic
from ..model.config import Scoring
from ..model.formula import SCORING_NAMES, compile_formula
from ..parse.config import parse_config

RULESETS = ("suber-1982", "suber-2nd", "livejournal", "solitaire")
SOLITAIRE_LOG = """# {title}: the log

One entry per turn, in order: a heading `## Turn N` and one `Action:` line. For example:

    ## Turn 1
    Action: transmute 12 to 20
    Scores: {player} 10

The four actions (rules 7 to 10):

    transmute 12 to 20                      the greatest immutable rule becomes mutable rule 20
    mutate 20: "old words" -> "new words"   up to 4 consecutive words, or two apart:
                                            mutate 20: "a" -> "b" and "c" -> "d"
    subsume 22 into 21                      rule 21 appends rule 22's text; rule 22 dies
    divide 21 as 23                         rule 23 is a duplicate of rule 21

`Date:`, `Scores:` and `Winner:` lines are optional; free text may follow them. `nomic-archive check {folder}`
replays every turn and names any illegal action; `nomic-archive solve {folder}` prints the shortest win.
"""


EXAMPLE_LOG = """# {title}: the log

Proposals, judgments and events, in order, each under a level-2 heading. An example, indented so that it is
not read (write yours from the margin, without the indent):

    ## Proposal 301: Counting the days
    Proposer: {first}
    Date: {today}
    Votes: for {voters}
    Result: adopted
{die}    Scores: {scores}

    Why: the keepers asked for a rule on dates.

    Enact rule: Counting the days

    > Each turn takes at most one day.

The key lines come first, then a blank line, the proposal's text, and each change as a paragraph of its own.
docs/format.md lists every key, every change and every kind of entry.
"""


def example_log(title: str, players: list[str], scoring: Scoring) -> str:
    """A new game's log: no entry yet, and an example proposal (a change paragraph, a Scores line true of the
    game's first turn) shown in an indented block, which the log's reader takes for the preamble's text."""
    if scoring.turn == "formula":
        values = {"proposal": 301, "votes_for": len(players), "votes_against": 0, "abstentions": 0,
                  "votes": len(players), "for_fraction": Fraction(1), "die": 0}
        points = compile_formula(scoring.formula, SCORING_NAMES).evaluate_int(values, scoring.rounding)
    else:
        points = 4 if scoring.turn == "die" else 0
    scores = ", ".join(f"{player} {points if position == 0 else 0}" for position, player in enumerate(players))
    return EXAMPLE_LOG.format(title=title, first=players[0], today=dt.date.today().isoformat(),
                              voters=", ".join(players), scores=scores,
                              die="    Die: 4\n" if scoring.turn == "die" else "")


def bundled(name: str, suffix: str) -> str:
    return resources.files("generator").joinpath("rulesets", f"{name}{suffix}").read_text(encoding="utf-8")


def run(args) -> int:
    folder: Path = args.name
    if args.ruleset not in RULESETS:
        raise ArchiveError([SourceError("--ruleset", 0, f"unknown ruleset '{args.ruleset}' "
                                        f"(bundled: {', '.join(RULESETS)})")])
    if os.path.lexists(folder) and (not os.path.isdir(folder) or any(folder.iterdir())):
        raise ArchiveError([SourceError(str(folder), 0, "already exists and is not an empty folder; nothing was "
                                        "written")])
    solitaire = args.ruleset == "solitaire"
    if solitaire and len(args.players) > 1:
        raise ArchiveError([SourceError("--player", 0, f"a solitaire game has one player, not {len(args.players)}; "
                                        "nothing was written")])
    players = args.players or (["Player"] if solitaire else ["Alice", "Bob", "Carol"])
    title = folder.name.replace("-", " ").replace("_", " ").title()
    header = (f"title = {json.dumps(title)}\nstart = {dt.date.today().isoformat()}\n"
              f"players = [{', '.join(json.dumps(p) for p in players)}]    # in seating order\n")
    write_atomic(folder / "game.toml", header + bundled(args.ruleset, ".toml"))
    write_atomic(folder / "rules.md", bundled(args.ruleset, ".md"))
    if solitaire:
        write_atomic(folder / "log.md", SOLITAIRE_LOG.format(title=title, player=players[0], folder=folder))
    else:
        mechanics = parse_config(header + bundled(args.ruleset, ".toml"), "game.toml", ErrorCollector())
        write_atomic(folder / "log.md", example_log(title, players, mechanics.scoring))
    print(f"created {folder} from the {args.ruleset} ruleset; build it with: nomic-archive build {folder.parent}")
    return 0
