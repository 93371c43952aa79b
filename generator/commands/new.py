"""`nomic-archive new NAME`: a game folder from one of the rulesets bundled in the package."""
from __future__ import annotations

import datetime as dt
import json
import os
from importlib import resources
from pathlib import Path

from ..errors import ArchiveError, SourceError
from ..files import write_atomic
from ..model.names import look_alike, looks_like, name_problem, normal

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


def bundled(name: str, suffix: str) -> str:
    return resources.files("generator").joinpath("rulesets", f"{name}{suffix}").read_text(encoding="utf-8")


def _players(names: list[str]) -> list[str]:
    """The players named with --player, as game.toml's rules for names take them (model/names.py): each in NFC,
    none empty, none a Votes line cannot write (`A, B`, `C; D`, `snail x3`), none with invisible characters,
    none twice, no two that look alike. Else an ArchiveError naming every problem: nothing is written."""
    players = [normal(name) for name in names]
    problems = [problem for name in names if (problem := name_problem(name))]
    seen: set[str] = set()
    for name in players:
        if name in seen and name:
            problems.append(f"player '{name}' is named twice")
        seen.add(name)
    problems += [f"players {name} and {other} look alike ({looks_like(name, other)}): no reader could tell which "
                 "of them voted or scored" for name, other in look_alike([p for p in dict.fromkeys(players) if p])]
    if problems:
        raise ArchiveError([SourceError("--player", 0, f"{problem}; nothing was written") for problem in problems])
    return players


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
    players = _players(args.players) or (["Player"] if solitaire else ["Alice", "Bob", "Carol"])
    title = folder.name.replace("-", " ").replace("_", " ").title()
    header = (f"title = {json.dumps(title)}\nstart = {dt.date.today().isoformat()}\n"
              f"players = [{', '.join(json.dumps(p, ensure_ascii=False) for p in players)}]    # in seating order\n")
    write_atomic(folder / "game.toml", header + bundled(args.ruleset, ".toml"))
    write_atomic(folder / "rules.md", bundled(args.ruleset, ".md"))
    if solitaire:
        write_atomic(folder / "log.md", SOLITAIRE_LOG.format(title=title, player=players[0], folder=folder))
    else:
        write_atomic(folder / "log.md", f"# {title}: the log\n\nProposals, judgments and events, in order. "
                     "Add each as a level-2 heading, e.g.\n\n"
                     "    ## Proposal 301: A week to vote\n    Proposer: Alice\n    Date: "
                     f"{dt.date.today().isoformat()}\n    Votes: for Alice, Bob, Carol\n    Result: adopted\n"
                     "    Die: 4\n")
    print(f"created {folder} from the {args.ruleset} ruleset; build it with: nomic-archive build {folder.parent}")
    return 0
