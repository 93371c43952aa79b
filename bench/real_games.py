"""Real games, imported and checked as a keeper would: what the importers read of records nobody shaped for this
program, game by game, against the figures recorded in real_games.toml.

Each game there names its repository, the commit its figures were taken at (read with `--to`, so that the figures
stay true as the game goes on) and the arguments its record needs (a records file is written from the game's own
`records` text). A clone of each is looked for in CLONES as `OWNER+NAME` (a clone's work tree, or the `repo`
folder of a mirror made by the tool library's `fetch`); a game without one is skipped, and said so:

    git clone https://github.com/Quonauts/Quonauts-9 CLONES/Quonauts+Quonauts-9
    python -m bench.real_games CLONES [--only TEXT] [--keep DIR] [--compare DIR] [--games FILE]

One row a game: the proposals imported, the import's exit code and the lines it said (its guesses and the
record's problems, each a line of standard error), check's findings and notes; a figure that differs from the recorded one is shown as `recorded -> now`. Exit 1 when any differs.
`--keep DIR` keeps each imported game and what the import and check said (DIR/NAME, NAME.said, NAME.check: a new
or empty folder); `--compare OLD` then names each game whose files or check report differ from OLD's, a folder an
earlier run kept (another version of the program, say). Agora's entry reads its two repositories the same way
(`import agora`, about 10 s).
"""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = Path(__file__).with_name("real_games.toml")
FIGURES = ("proposals", "exit", "lines", "findings", "notes")  # (see the docstring)


@dataclass
class Outcome:
    name: str
    figures: dict[str, int] | None  # None: no clone
    missing: str = ""
    elsewhere: list[str] = field(default_factory=list)  # clones not at the commits the figures were taken at


def clone_of(clones: Path, repository: str) -> Path | None:
    folder = clones / repository.replace("/", "+")
    for candidate in (folder, folder / "repo"):
        if (candidate / ".git").exists() or (candidate / "HEAD").is_file():
            return candidate
    return None


def folder_name(name: str) -> str:
    """A game's name as a folder's ("AnthonyW2/Nomic" -> "AnthonyW2+Nomic")."""
    return re.sub(r"[^\w.+-]+", "-", name.replace("/", "+")).strip("-")


def git_head(clone: Path) -> str:
    return subprocess.run(["git", "-C", str(clone), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "generator", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=1800)


def import_game(name: str, game: dict, clones: Path, out: Path, scratch: Path) -> Outcome:
    """Import one game into `out` and check it; its figures, or None when a repository it reads has no clone."""
    repositories = [game["repository"]] if "repository" in game else [game["ruleset"], game["assessor"]]
    elsewhere: list[str] = []
    found = {repository: clone_of(clones, repository) for repository in repositories}
    if missing := [repository for repository, clone in found.items() if clone is None]:
        return Outcome(name, None, ", ".join(missing))
    if "repository" in game:
        args = ["import", "git", str(found[game["repository"]]), "--to", game["commit"], *game.get("args", [])]
        if "records" in game:
            records = scratch / f"{name}.records.toml"
            records.write_text(game["records"], encoding="utf-8")
            args += ["--records", str(records)]
    else:  # (import agora reads each repository at its HEAD: the figures hold at the commits recorded)
        args = ["import", "agora", "--ruleset", str(found[game["ruleset"]]), "--assessor",
                str(found[game["assessor"]]), *game.get("args", [])]
        elsewhere = [f"{repository} is at {head[:10]}, not {commit[:10]}" for repository, commit in
                     zip((game["ruleset"], game["assessor"]), game["commits"])
                     if (head := git_head(found[repository])) != commit]
    imported = run(*args, "-o", str(out), "-q")
    said = imported.stdout + imported.stderr + f"exit {imported.returncode}\n"
    (out.parent / f"{name}.said").write_text(said, encoding="utf-8")
    if imported.returncode == 2:
        return Outcome(name, {"exit": 2}, elsewhere=elsewhere)
    checked = run("check", str(out), "--format", "json")
    (out.parent / f"{name}.check").write_text(run("check", str(out)).stdout.replace(str(out.parent), "GAMES"),
                                              encoding="utf-8")
    report = json.loads(checked.stdout)["games"][0]
    lines = sum(1 for line in imported.stderr.splitlines() if line.strip())
    return Outcome(name, {"proposals": counted_proposals(out), "exit": imported.returncode, "lines": lines,
                          "findings": len(report["findings"]), "notes": len(report["notes"])},
                   elsewhere=elsewhere)


def counted_proposals(game: Path) -> int:
    """The proposal entries the import wrote (headings `## Proposal N`), every log file of the game."""
    logs = [game / "log.md"] if (game / "log.md").is_file() else sorted((game / "log").glob("*.md"))
    return sum(line.startswith("## Proposal ") for log in logs for line in log.read_text(encoding="utf-8").splitlines())


def differing(old: Path, new: Path, name: str) -> list[str]:
    """What differs between two runs' copies of a game: files, and the check report."""
    def files(folder: Path) -> dict[str, bytes]:
        return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()} \
            if folder.is_dir() else {}
    if not (old / name).is_dir():
        return ["not in the earlier run"]
    before, after = files(old / name), files(new / name)
    said = [path for path in sorted(before.keys() | after.keys()) if before.get(path) != after.get(path)]
    report = [(folder / f"{name}.check").read_text(encoding="utf-8") if (folder / f"{name}.check").is_file() else ""
              for folder in (old, new)]
    return said + (["the check report"] if report[0] != report[1] else [])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("clones", type=Path, help="a folder of clones, each named OWNER+NAME")
    parser.add_argument("--games", type=Path, default=GAMES, help="the list of games (default: real_games.toml)")
    parser.add_argument("--only", default="", help="the games whose name holds this text")
    parser.add_argument("--keep", type=Path, help="keep the imported games here (a new or empty folder)")
    parser.add_argument("--compare", type=Path, help="a folder an earlier run kept: name what differs from it")
    args = parser.parse_args()
    games = tomllib.loads(args.games.read_text(encoding="utf-8"))["game"]
    if args.keep is not None and args.keep.exists() and any(args.keep.iterdir()):
        return print(f"{args.keep}: not empty: --keep needs a new or empty folder", file=sys.stderr) or 2
    games = {name: game for name, game in games.items() if args.only.casefold() in name.casefold()}
    if not games:
        return print(f"no game's name in {args.games} holds '{args.only}'", file=sys.stderr) or 2
    with tempfile.TemporaryDirectory(prefix="real-games-") as scratch:
        kept = args.keep or Path(scratch) / "games"
        kept.mkdir(parents=True, exist_ok=True)
        outcomes, drifted = [], False
        for name, game in games.items():
            outcome = import_game(folder_name(name), game, args.clones, kept / folder_name(name), Path(scratch))
            outcomes.append(outcome)
            if outcome.figures is None:
                print(f"{name}: skipped, no clone of {outcome.missing} in {args.clones}")
                continue
            recorded = game.get("figures", {})
            shown = []
            for figure in FIGURES:
                now, was = outcome.figures.get(figure), recorded.get(figure)
                drifted |= now != was
                shown.append(f"{figure} {now}" if now == was else f"{figure} {was} -> {now}")
            line = f"{name}: " + ", ".join(shown) + "".join(f" ({note})" for note in outcome.elsewhere)
            if args.compare is not None:
                line += "; against the earlier run: " + (", ".join(differing(args.compare, kept, folder_name(name)))
                                                         or "the same")
            print(line, flush=True)
        print(f"{sum(o.figures is not None for o in outcomes)} games read, "
              f"{sum(o.figures is None for o in outcomes)} skipped; "
              + ("figures differ from those recorded" if drifted else "every figure as recorded"))
        return 1 if drifted else 0


if __name__ == "__main__":
    sys.exit(main())
