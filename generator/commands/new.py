"""`nomic-archive new NAME`: a game folder from one of the rulesets bundled in the package."""
from __future__ import annotations

import datetime as dt
import json
import os
from fractions import Fraction
from importlib import resources
from pathlib import Path

from ..errors import ArchiveError, ErrorCollector, SourceError
from ..files import occupied_folder_error, write_atomic
from ..model.config import Scoring
from ..model.formula import SCORING_NAMES, compile_formula
from ..model.names import look_alike, looks_like, name_problem, normal
from ..parse.config import parse_config
from . import read_ruleset
from ..workflows import check_workflow_place, package_source, write_workflow

RULESETS = ("suber-1982", "suber-2nd", "livejournal", "solitaire")
KEEPING = """# {title}: how to keep it

For the keepers: nomic-archive does not read this file, and the site does not show it. What it reads is
game.toml, rules.md, log.md (or log/*.md), snapshots/ and drafts/.

- `game.toml`: the title, the players in seating order, and the mechanics (numbering, adoption, scoring).
- `rules.md`: the rules the game starts from.
- `log.md`: what happened, in order, each entry under a level-2 heading (`## ...`). Text above the first entry
  is shown on the game's home page, under "From the keepers": say there who keeps the game and where it is
  played.

{how}
`nomic-archive check {folder}` replays the log and names each discrepancy at its line; `nomic-archive build
{content}` makes the site. docs/format.md, in nomic-archive's source, lists every key, every change and every
kind of entry.
"""

SOLITAIRE_HOW = """One entry per turn, in order: a heading `## Turn N` and one `Action:` line. For example:

```markdown
## Turn 1
Action: transmute 12 to 20
Scores: {player} 10
```

The four actions (rules 7 to 10):

```
transmute 12 to 20                      the greatest immutable rule becomes mutable rule 20
mutate 20: "old words" -> "new words"   up to 4 consecutive words, or two apart:
                                        mutate 20: "a" -> "b" and "c" -> "d"
subsume 22 into 21                      rule 21 appends rule 22's text; rule 22 dies
divide 21 as 23                         rule 23 is a duplicate of rule 21
```

`Date:`, `Scores:` and `Winner:` lines are optional; free text may follow them. `nomic-archive solve
{folder}` prints the shortest win.
"""

PROPOSAL_HOW = """A proposal as log.md records it (copy it there and make it yours):

```markdown
## Proposal 301: Counting the days
Proposer: {first}
Date: {today}
Votes: for {voters}
Result: adopted
{die}Scores: {scores}

Why: the keepers asked for a rule on dates.

Enact rule: Counting the days

> Each turn takes at most one day.
```

The key lines come first, then a blank line, the proposal's text, and each change as a paragraph of its own
(`Amend rule 203 by replacing "unanimous" with "a majority of".`, `Repeal rule 204.`, ...): a change written
otherwise is not read, and `check` says so in a note when an adopted proposal names a rule and changes none.
"""


def keeping(folder: Path, title: str, players: list[str], scoring: Scoring | None) -> str:
    """A new game's README.md: how to keep it, for the keepers only; for a game of proposals, an example proposal
    (a change paragraph, a Scores line true of the game's first turn). `scoring` is None for a solitaire game."""
    if scoring is None:
        how = SOLITAIRE_HOW.format(player=players[0], folder=folder)
    else:
        if scoring.turn == "formula":
            values = {"proposal": 301, "votes_for": len(players), "votes_against": 0, "abstentions": 0,
                      "votes": len(players), "for_fraction": Fraction(1), "die": 0}
            points = compile_formula(scoring.formula, SCORING_NAMES).evaluate_int(values, scoring.rounding)
        else:
            points = 4 if scoring.turn == "die" else 0
        scores = ", ".join(f"{player} {points if position == 0 else 0}" for position, player in enumerate(players))
        how = PROPOSAL_HOW.format(first=players[0], today=dt.date.today().isoformat(), voters=", ".join(players),
                                  scores=scores, die="Die: 4\n" if scoring.turn == "die" else "")
    return KEEPING.format(title=title, how=how, folder=folder, content=folder.parent)


def bundled(name: str, suffix: str) -> str:
    return resources.files("generator").joinpath("rulesets", f"{name}{suffix}").read_text(encoding="utf-8")


def _players(names: list[str], *, solitaire: bool) -> list[str]:
    """The players named with --player, as game.toml's rules for names take them (model/names.py): at least one
    (a game's players are the keeper's to name: none is made up), each in NFC, none empty, none a Votes line
    cannot write (`A, B`, `C; D`, `snail x3`), none with invisible characters, none twice, no two that look alike.
    Else an ArchiveError naming every problem: nothing is written."""
    if not names:
        raise ArchiveError([SourceError("--player", 0, "name its player: --player NAME; nothing was written"
                                        if solitaire else "name each player, in seating order: --player Ann "
                                        "--player Bob ...; nothing was written")])
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
    ruleset = args.ruleset or "suber-1982"
    if ruleset not in RULESETS:
        raise ArchiveError([SourceError("--ruleset", 0, f"unknown ruleset '{ruleset}' "
                                        f"(bundled: {', '.join(RULESETS)})")])
    solitaire = ruleset == "solitaire"
    if solitaire and len(args.players) > 1:
        raise ArchiveError([SourceError("--player", 0, f"a solitaire game has one player, not {len(args.players)}; "
                                        "nothing was written")])
    imported = _imported_rules(folder)  # the rules.md that `import -o FOLDER/rules.md` left, kept as it is
    if solitaire and (args.rules or imported):
        raise ArchiveError([SourceError("--rules" if args.rules else str(folder / "rules.md"), 0, "a solitaire "
                                        "game plays Solitaire Nomic's own rules; choose another --ruleset, or start "
                                        "it in a new folder without --rules; nothing was written")])
    if imported and args.rules:
        raise ArchiveError([SourceError(str(folder / "rules.md"), 0, "exists, and new does not replace it (it may "
                                        "be a keeper's only copy): leave --rules out to start the game from it, or "
                                        "name a new folder; nothing was written")])
    if not imported and (error := occupied_folder_error(folder, "new writes a game into a new or empty folder, or "
                                                       "one holding only the rules.md it starts from")):
        raise ArchiveError([error])
    rules = read_ruleset(args.rules) if args.rules else None  # before anything is written: it may not read
    if args.github:
        check_workflow_place(folder.parent)
        source = package_source(args.package)
    elif args.package is not None:
        raise ArchiveError([SourceError("--package", 0, "names what the GitHub workflow installs: add --github to "
                                        "write one; nothing was written")])
    players = _players(args.players, solitaire=solitaire)
    title = game_title(folder.name)
    header = (f"title = {json.dumps(title)}\nstart = {dt.date.today().isoformat()}\n"
              f"players = [{', '.join(json.dumps(p, ensure_ascii=False) for p in players)}]    # in seating order\n")
    write_atomic(folder / "game.toml", header + bundled(ruleset, ".toml"))
    if not imported:
        write_atomic(folder / "rules.md", rules if rules is not None else bundled(ruleset, ".md"))
    # The log starts empty: what stands above its first entry is published, and is the keepers' to write.
    write_atomic(folder / "log.md", "")
    scoring = None if solitaire else parse_config(header + bundled(ruleset, ".toml"), "game.toml",
                                                  ErrorCollector()).scoring
    write_atomic(folder / "README.md", keeping(folder, title, players, scoring))
    if imported or rules is not None:
        source = "its rules.md" if imported else f"the rules of {args.rules}"
        print(f"created {folder} from {source}, with the mechanics of the {ruleset} ruleset in game.toml (numbering, "
              "adoption, scoring: make them match the rules, see docs/format.md); its README.md says how to keep "
              f"it; check it with: nomic-archive check {folder}")
    else:
        print(f"created {folder} from the {ruleset} ruleset; its README.md says how to keep it; build it with: "
              f"nomic-archive build {folder.parent}")
    if args.github:
        write_workflow(folder.parent, source)
    return 0


def game_title(name: str) -> str:
    """A folder's name as a title: `my-game` is "My Game", `g-suber-2nd` "G Suber 2nd" (a word that starts with
    a digit, or a capital inside a word, is left as written)."""
    words = name.replace("-", " ").replace("_", " ").split()
    return " ".join(word[:1].upper() + word[1:] for word in words)


def _imported_rules(folder: Path) -> bool:
    """Whether `folder` holds a rules.md and nothing else (what `import -o FOLDER/rules.md` leaves)."""
    try:
        return os.path.isdir(folder) and [entry.name for entry in folder.iterdir()] == ["rules.md"] \
            and (folder / "rules.md").is_file()
    except OSError:
        return False
