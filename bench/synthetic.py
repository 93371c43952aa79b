#!/usr/bin/env python3
"""Write a large, consistent synthetic game: `synthetic.py N FOLDER [PER_FILE]` (N proposals, default
mechanics; with PER_FILE the log is split into log/NNNN.md files of that many proposals, as large
archives are kept by year or by month).

Every proposal is adopted unanimously by three players and amends a rule `to read:` (so the rule takes
the proposal's number), every fifth enacts a rule instead and every seventh repeals the rule enacted five
proposals before; scores are the dice. The game's win is set out of reach so it never ends.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

WORDS = ("rule player vote proposal amend repeal enact score point turn judge mutable immutable change "
         "adopted defeated unanimous majority number text game win order precedence").split()
PLAYERS = ("Alice", "Bob", "Carol")


def make_archive(folder: Path, proposals: int, seed: int = 42, per_file: int | None = None) -> Path:
    rng = random.Random(seed)
    game = folder / "synthetic"
    game.mkdir(parents=True, exist_ok=True)
    (game / "game.toml").write_text('title = "Synthetic"\nplayers = ["Alice", "Bob", "Carol"]\n'
                                    "[scoring]\nwin = 1000000000\n[limits]\nmax_mutable = 0\n")
    rules = ["# Initial Set", "", "## Immutable Rules", ""]
    rules += [f"### {n}\n{' '.join(rng.choice(WORDS) for _ in range(40))}.\n" for n in range(101, 117)]
    rules += ["## Mutable Rules", ""]
    mutable = list(range(201, 214))
    rules += [f"### {n}\n{' '.join(rng.choice(WORDS) for _ in range(80))}.\n" for n in mutable]
    (game / "rules.md").write_text("\n".join(rules))
    scores = dict.fromkeys(PLAYERS, 0)
    enacted: dict[int, int] = {}
    log = ["# Synthetic log", ""]
    parts: list[list[str]] = []
    for i in range(proposals):
        if per_file and i % per_file == 0 and i:
            parts.append(log)
            log = []
        number = 301 + i
        proposer = PLAYERS[i % 3]
        die = rng.randint(1, 6)
        scores[proposer] += die
        if i % 7 == 6 and (i - 5) in enacted and enacted[i - 5] in mutable:
            target = enacted.pop(i - 5)
            mutable.remove(target)
            change = f"Repeal rule {target}."
        elif i % 5 == 4:
            mutable.append(number)
            enacted[i] = number
            change = f"Enact rule: Rule of {number}\n\n> {' '.join(rng.choice(WORDS) for _ in range(60))}."
        else:
            target = rng.choice(mutable)
            mutable[mutable.index(target)] = number
            change = f"Amend rule {target} to read:\n\n> {' '.join(rng.choice(WORDS) for _ in range(80))}."
        log += [f"## Proposal {number}: Change {number}", f"Proposer: {proposer}", "Date: 2020-01-01",
                "Votes: for Alice, Bob, Carol", "Result: adopted", f"Die: {die}",
                "Scores: " + ", ".join(f"{p} {s}" for p, s in scores.items()), "", change, ""]
    if per_file:
        (game / "log").mkdir(exist_ok=True)
        for position, part in enumerate(parts + [log]):
            (game / "log" / f"{position:04}.md").write_text("\n".join(part))
    else:
        (game / "log.md").write_text("\n".join(log))
    return folder


if __name__ == "__main__":
    make_archive(Path(sys.argv[2]), int(sys.argv[1]), per_file=int(sys.argv[3]) if len(sys.argv) > 3 else None)
