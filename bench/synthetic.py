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




def make_weighted_archive(folder: Path, proposals: int, seed: int = 42) -> Path:
    """A consistent format 1.1 game in Agora's manner (`synthetic.py --weighted N FOLDER`): twelve voters with
    strengths 1 to 15, each proposal at an adoption index of 1.0 to 3.0 with a quorum of five ballots, rules
    with powers amended only by proposals of enough power, batches of ten resolved with one pair swapped
    (the log in order of resolution). Results follow the index exactly, failed quorums included."""
    from fractions import Fraction

    rng = random.Random(seed)
    game = folder / "weighted"
    game.mkdir(parents=True, exist_ok=True)
    voters = [f"voter{i:02}" for i in range(12)]
    strength = {v: rng.randint(1, 15) for v in voters}
    (game / "game.toml").write_text(
        'title = "Synthetic weighted decisions"\nplayers = [' + ", ".join(f'"{v}"' for v in voters) + "]\n"
        "[numbering]\nfirst_proposal = 1001\nin_order = false\namend_renumbers = false\n"
        'enact_takes_proposal_number = false\n[adoption]\nmethod = "index"\nquorum = 5\n'
        '[scoring]\nturn = "none"\ndefeated = 0\nagainst_adopted = 0\n[turns]\norder = "none"\n'
        "[limits]\nmax_mutable = 0\n[rules]\npower = true\npower_cap = 3.0\n")
    powers = {n: rng.choice(("1.0", "1.5", "2.0", "3.0")) for n in range(1000, 1040)}
    rules = ["# Rules", "", "## Mutable Rules", ""]
    rules += [f"### {n}\nPower: {p}\n\n{' '.join(rng.choice(WORDS) for _ in range(60))}.\n" for n, p in powers.items()]
    (game / "rules.md").write_text("\n".join(rules))
    entries = []
    next_rule = 2000
    for i in range(proposals):
        number = 1001 + i
        index = rng.choice(("1.0", "1.5", "2.0", "3.0"))
        ballots = {"for": [], "against": [], "present": []}
        for voter in voters:
            choice = rng.choices(("for", "against", "present", None), weights=(5, 3, 1, 3))[0]
            if choice:
                ballots[choice].append(voter)
        total = {group: sum(strength[v] for v in names) for group, names in ballots.items()}
        count = sum(len(names) for names in ballots.values())
        if count < 5:
            result = "failed-quorum"
        elif total["for"] > total["against"] and total["for"] >= Fraction(index) * total["against"]:
            result = "adopted"
        else:
            result = "defeated"
        votes = "; ".join(f"{group} " + ", ".join(f"{v} x{strength[v]}" for v in names)
                          for group, names in ballots.items() if names)
        fitting = [n for n, p in powers.items() if Fraction(p) <= Fraction(index)]
        if i % 4 == 3:
            change = (f"Enact power 1.0 rule {next_rule}: Rule {next_rule}\n\n"
                      f"> {' '.join(rng.choice(WORDS) for _ in range(40))}.")
            if result == "adopted":
                powers[next_rule] = "1.0"
            next_rule += 1
        else:
            change = (f"Amend rule {rng.choice(fitting)} to read:\n\n"
                      f"> {' '.join(rng.choice(WORDS) for _ in range(60))}.")
        entries.append("\n".join([f"## Proposal {number}: Decision {number}", f"Proposer: {voters[i % 12]}",
                                  f"Date: {2020 + i // 3650}-01-01", f"Index: {index}", f"Votes: {votes or 'none'}",
                                  f"Result: {result}", "", change, ""]))
    for batch in range(0, len(entries) - 1, 10):  # one pair in each batch of ten resolved out of order
        entries[batch], entries[batch + 1] = entries[batch + 1], entries[batch]
    (game / "log.md").write_text("# Synthetic weighted log\n\n" + "\n".join(entries))
    return folder


if __name__ == "__main__":
    if sys.argv[1] == "--weighted":
        make_weighted_archive(Path(sys.argv[3]), int(sys.argv[2]))
    else:
        make_archive(Path(sys.argv[2]), int(sys.argv[1]), per_file=int(sys.argv[3]) if len(sys.argv) > 3 else None)
