"""`nomic-archive new NAME`: a game folder from one of the rulesets bundled in the package."""
from __future__ import annotations

import datetime as dt
import json
import os
from importlib import resources
from pathlib import Path

from ..errors import ArchiveError, SourceError
from ..files import write_atomic

RULESETS = ("suber-1982", "suber-2nd", "livejournal", "solitaire")


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
    players = args.players or (["Player"] if args.ruleset == "solitaire" else ["Alice", "Bob", "Carol"])
    title = folder.name.replace("-", " ").replace("_", " ").title()
    header = (f"title = {json.dumps(title)}\nstart = {dt.date.today().isoformat()}\n"
              f"players = [{', '.join(json.dumps(p) for p in players)}]    # in seating order\n")
    write_atomic(folder / "game.toml", header + bundled(args.ruleset, ".toml"))
    write_atomic(folder / "rules.md", bundled(args.ruleset, ".md"))
    if args.ruleset != "solitaire":
        write_atomic(folder / "log.md", f"# {title}: the log\n\nProposals, judgments and events, in order. "
                     "Add each as a level-2 heading, e.g.\n\n"
                     "    ## Proposal 301: A week to vote\n    Proposer: Alice\n    Date: "
                     f"{dt.date.today().isoformat()}\n    Votes: for Alice, Bob, Carol\n    Result: adopted\n"
                     "    Die: 4\n")
    print(f"created {folder} from the {args.ruleset} ruleset; build it with: nomic-archive build {folder.parent}")
    return 0
