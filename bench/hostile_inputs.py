#!/usr/bin/env python3
"""How fast `check` and `build` answer hostile inputs: refused past the caps, bounded within them.

Usage: hostile_inputs.py [WORD...]   (only the inputs whose label holds one of the words; all without any)

Each input is a small game with one thing made huge. Both commands run as a user runs them (a new process,
start-up included), and so does serve's first build with what its error overlay is sent (SiteBuilder.build_all
and problems: what a keeper waits for before the page answers); printed are the processor time each took (user
+ system: what the input costs, whatever else the machine is doing), the wall time, the exit codes and the first
line of the answer. Inputs
past a cap (docs/format.md lists them) should be refused in well under a second; inputs at the caps are
accepted and show what the bounds cost (the redline's work budget, the linear patterns).
"""
from __future__ import annotations

import random
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAME_TOML = 'title = "Bench"\nplayers = ["Alice", "Bob", "Carol"]\n'
RULES = "# Rules\n\n## Mutable Rules\n\n### 201\nPlayers shall alternate in clockwise order.\n\n### 203\n{text}\n"
LOG = ("# Log\n\n## Proposal 301\nProposer: Alice\nDate: 1982-06-03\nVotes: for Alice, Bob, Carol\n"
       "Result: adopted\nDie: 4\n{keys}\n{body}\n")
WORDS = [f"word{i}" for i in range(3000)]


def prose(characters: int, seed: int = 0) -> str:
    """Words of a rule, wrapped at 72 columns, about `characters` long."""
    rng = random.Random(seed)
    words, size = [], 0
    while size < characters:
        word = rng.choice(WORDS)
        words.append(word)
        size += len(word) + 1
    lines, line = [], ""
    for word in words:
        if len(line) + len(word) > 72:
            lines.append(line)
            line = ""
        line = f"{line} {word}" if line else word
    return "\n".join(lines + [line])


def quoted(text: str) -> str:
    return "\n".join(f"> {line}" for line in text.split("\n"))


def game(folder: Path, *, toml: str = GAME_TOML, rule: str = "A rule-change is adopted if unanimous.",
         keys: str = "", body: str = "") -> None:
    folder.mkdir(parents=True)
    (folder / "game.toml").write_text(toml, encoding="utf-8")
    (folder / "rules.md").write_text(RULES.format(text=rule), encoding="utf-8")
    (folder / "log.md").write_text(LOG.format(keys=keys, body=body), encoding="utf-8")


def every_fourth_word_changed(text: str) -> str:
    words = text.split(" ")
    return " ".join("changed" if i % 4 == 0 else word for i, word in enumerate(words))


def unordered_log(numbers: list[int]) -> str:
    """A log of proposals numbered `numbers`, in the order of resolution (numbering.in_order = false)."""
    return "# Log\n\n" + "".join(f"## Proposal {n}\nProposer: Alice\nDate: 1982-06-03\nVotes: for Alice, Bob, "
                                  "Carol\nResult: adopted\n\n" for n in numbers)


UNORDERED_TOML = GAME_TOML + "\n[numbering]\nin_order = false\n\n[turns]\norder = \"none\"\n\n[scoring]\nturn = \"none\"\n"


def wide_gap(folder: Path) -> None:
    """One proposal numbered 999999999999 (within the 12-digit cap): the numbers between are one finding."""
    game(folder, toml=UNORDERED_TOML)
    (folder / "log.md").write_text(unordered_log([301, 999_999_999_999]), encoding="utf-8")


def error_on_every_line(folder: Path) -> None:
    """A log of 16,000 lines, each an error: check lists them all, serve's overlay the first few hundred."""
    game(folder)
    (folder / "log.md").write_text("# Log\n\n" + "".join(f"## Not an entry {i}\n\n" for i in range(16_000)),
                                   encoding="utf-8")


RULE_AT_CAP = prose(49_000) + " middle\n" + prose(49_000, seed=1)
CASES: list[tuple[str, Callable[[Path], None]]] = [
    ("1 MB Scores line", lambda f: game(f, keys="Scores: Alice" + " " * 1_000_000 + "4")),
    ("1 MB Note line", lambda f: game(f, keys="Note: " + "a b (c " * 150_000)),
    ("10 MB rule", lambda f: game(f, rule=prose(10_000_000))),
    ("10 MB rule, one replacement", lambda f: game(
        f, rule=prose(10_000_000), body='Amend rule 203 by replacing "word1 " with "one ".')),
    ("100 KB game.toml (comments)", lambda f: game(f, toml=GAME_TOML + "# a comment\n" * 8_600)),
    ("80 KB dotted-key line", lambda f: game(f, toml=GAME_TOML + "a" + ".a" * 40_000 + " = 1\n")),
    ("60 KB game.toml, 3,990-char dotted keys", lambda f: game(
        f, toml=GAME_TOML + "".join(f"k{i:02d}" + ".a" * 1_990 + " = 1\n" for i in range(15)))),
    ("99 KB rule, every 4th word changed", lambda f: game(
        f, rule=RULE_AT_CAP, body="Amend rule 203 to read:\n\n" + quoted(every_fourth_word_changed(RULE_AT_CAP)))),
    ("99 KB rule, one replacement", lambda f: game(
        f, rule=RULE_AT_CAP, body='Amend rule 203 by replacing "middle" with "one".')),
    ("19,000-space Scores line", lambda f: game(f, keys="Scores: Alice" + " " * 19_000 + "4, Bob 0, Carol 0")),
    ("3.9 MB log of prose (near the file cap)", lambda f: game(f, body=prose(3_900_000))),
    ("gap of 10^12 numbers (in_order = false)", wide_gap),
    ("gap of 80,000 numbers (in_order = false)", lambda f: (game(f, toml=UNORDERED_TOML), (f / "log.md").write_text(
        unordered_log([301, 80_302]), encoding="utf-8"))),
    ("log with an error on each of 16,000 lines", error_on_every_line),
]
# serve's first build of a game and what its overlay is sent, in a process of its own.
SERVE = """import sys, tempfile
from pathlib import Path
from generator.serve import SiteBuilder
builder = SiteBuilder(Path(sys.argv[1]), Path(tempfile.mkdtemp()), live_reload="")
result = builder.build_all()
problems = builder.problems(result.errors)
print(f"{len(result.errors)} problems, {len(problems)} shown" if result.errors else "built", file=sys.stderr)
"""


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(arguments: list[str], *, python: list[str] = ["-m", "generator"]) -> tuple[float, float, int, str]:
    """Processor and wall seconds, exit code and first line of the answer of one command."""
    cpu, started = _children_cpu(), time.perf_counter()
    done = subprocess.run([sys.executable, *python, *arguments], cwd=ROOT, capture_output=True, text=True)
    wall, cpu = time.perf_counter() - started, _children_cpu() - cpu
    answer = (done.stderr or done.stdout).strip().splitlines()
    return cpu, wall, done.returncode, answer[0][:80] if answer else ""


def main() -> None:
    print(f"{'input':41} {'check cpu':>9} {'build cpu':>9} {'serve cpu':>9} {'(wall)':>20} {'exit':>5}  first line "
          "of the answer")
    base_cpu, base_wall, _, _ = run(["--version"])
    print(f"{'(start-up alone: --version)':41} {base_cpu:>9.2f} {'':>9} {'':>9} {base_wall:>6.2f}")
    only = sys.argv[1:]  # labels to run (a word of each suffices): all when none
    for label, make in CASES:
        if only and not any(word in label for word in only):
            continue
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp) / "bench"
            make(folder)
            check_cpu, check_wall, check_code, answer = run(["check", str(folder)])
            build_cpu, build_wall, build_code, _ = run(["build", str(folder), "-o", str(Path(tmp) / "site")])
            serve_cpu, serve_wall, _, _ = run([str(folder)], python=["-c", SERVE])
            print(f"{label:41} {check_cpu:>9.2f} {build_cpu:>9.2f} {serve_cpu:>9.2f} {check_wall:>6.2f} "
                  f"{build_wall:>6.2f} {serve_wall:>6.2f} {check_code:>2}/{build_code:<2}  {answer}", flush=True)


if __name__ == "__main__":
    main()
