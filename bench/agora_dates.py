"""Our Full Logical Ruleset for each date the Rulekeepor published one, against the one he published.

The history of the gh-pages branch of AgoraNomic/ruleset holds every FLR he published: `flr-fresh.txt` (from 2019,
the current generator) and `flr.txt` (from 2017, older generators). For each version (or every Nth), the FLR of
the imported game at the version's date (`ruleset GAME@DATE --format flr`, computed in process from one replay)
is compared line by line with his (`diff`), and each differing line (a `<` or `>` line) is counted under one kind:

    python -m generator import agora --ruleset /tmp/ruleset --assessor /tmp/assessor -o /tmp/me/agora -q
    python -m bench.agora_dates /tmp/me/agora [--every 10] [--file flr.txt] [--show KIND] [--dates]

Kinds, each line taking the first that fits:

- header date / ratification / header figures: the header's `Date of this ruleset:`, `Last SLR ratification:`
  and the other lines before the table of contents;
- powers: the power distribution (it follows from the rules in force and their powers);
- corrected later: a line of a rule the record corrected later, a rule the log holds a `Failed:` change to (or
  a change with `Corrected:`) dated within CORRECTED_DAYS before the version's date (the Rulekeepor then
  published what the record no longer says; by our principle the corrected record stands);
- placement: a rule printed alike on both sides in another place, and the sections' headings and the table of
  contents' lines of such rules (the FLR's sections at that date);
- only ours / only theirs: a rule in force on one side alone (its every line, and its contents line);
- names as now: a rule on both sides that says the same, its lines unwrapped, once each former name of game.toml's
  `[aliases]` is the current one (the import writes names as now; his name replacements came later);
- head, text, history, annotations: the lines of a rule on both sides that differ there (`Rule N/R (Power=P)`
  and title; text; `History:` lines; `Annotations:` lines);
- other: anything else (a section's note, the end).

Prints one row per version and the totals by kind. Needs git and diff.
"""
from __future__ import annotations

import argparse
import collections
import datetime as dt
import re
import subprocess
import sys
import tempfile
from pathlib import Path

MIRROR = "/work/.mirror/AgoraNomic+ruleset/repo"
CORRECTED_DAYS = 120  # how long after a change he published it before the record's correction (CFJs take weeks)
KINDS = ("header date", "ratification", "header figures", "powers", "corrected later", "placement",
         "only ours", "only theirs", "names as now", "head", "text", "history", "annotations", "other")
_RULE_HEAD = re.compile(r"Rule (\d+)/\d+ \(Power=[^)]*\)$")
_TOC_LINE = re.compile(r"   \* Rule +(\d+): ")
_CHANGE = re.compile(r"^(?:Failed|Corrected): ")
_ENTRY_DATE = re.compile(r"^Date: (\d{4}-\d{2}-\d{2})", re.M)
_RULE_NAMED = re.compile(r"\brule (\d+)")


def published(mirror: str, name: str) -> list[tuple[str, dt.date]]:
    """Each version of `name` on gh-pages, oldest first: (commit, the date of its commit, as its author wrote it)."""
    out = subprocess.run(["git", f"--git-dir={mirror}", "log", "gh-pages", "--reverse", "--format=%H %ad",
                          "--date=short", "--", name], capture_output=True, text=True, check=True).stdout
    return [(commit, dt.date.fromisoformat(day)) for commit, day in (line.split() for line in out.splitlines())]


def their_text(mirror: str, commit: str, name: str) -> str:
    return subprocess.run(["git", f"--git-dir={mirror}", "show", f"{commit}:{name}"], capture_output=True,
                          check=True).stdout.decode("utf-8", "replace")


def regions(lines: list[str]) -> list[tuple[str, int | None]]:
    """Each line's part of an FLR: (`header`|`toc`|`powers`|`section`|`head`|`text`|`history`|`annotations`|
    `other`, the rule it belongs to or names)."""
    out: list[tuple[str, int | None]] = []
    part, rule = "header", None
    for at, line in enumerate(lines):
        if line.startswith("Table of Contents:"):
            part, rule = "toc", None
        elif line.startswith("Power Distribution:"):
            part, rule = "powers", None
        elif line.startswith("=" * 20):
            part, rule = "section", None
        elif (m := _RULE_HEAD.match(line)) and part != "header":
            part, rule = "head", int(m.group(1))
            out.append((part, rule))
            continue
        elif part == "head" and at > 0 and _RULE_HEAD.match(lines[at - 1]) is None and not line.strip():
            part = "text"
        elif part in ("text", "history") and line == "History:":
            part = "history"
        elif part in ("text", "history", "annotations") and line == "Annotations:":
            part = "annotations"
        elif line.startswith("-" * 20) and part in ("head", "text", "history", "annotations"):
            out.append((part, rule))
            part, rule = "other", None
            continue
        if part == "toc" and (m := _TOC_LINE.match(line)):
            out.append(("toc", int(m.group(1))))
        else:
            out.append((part, rule))
    return out


def rule_blocks(lines: list[str], parts: list[tuple[str, int | None]]) -> dict[int, tuple[str, ...]]:
    """Each rule's lines (head to its closing line of hyphens)."""
    blocks: dict[int, list[str]] = collections.defaultdict(list)
    for line, (part, rule) in zip(lines, parts):
        if rule is not None and part != "toc":
            blocks[rule].append(line)
    return {rule: tuple(block) for rule, block in blocks.items()}


def differing(ours: str, theirs: str) -> tuple[list[int], list[int]]:
    """The 0-based numbers of the lines `diff` marks `<` in ours and `>` in theirs."""
    with tempfile.TemporaryDirectory() as folder:
        a, b = Path(folder, "ours"), Path(folder, "theirs")
        a.write_text(ours, encoding="utf-8")
        b.write_text(theirs, encoding="utf-8")
        out = subprocess.run(["diff", "--unchanged-line-format=", "--old-line-format=<%dn\n",
                              "--new-line-format=>%dn\n", str(a), str(b)], capture_output=True, text=True).stdout
    left = [int(line[1:]) - 1 for line in out.splitlines() if line.startswith("<")]
    right = [int(line[1:]) - 1 for line in out.splitlines() if line.startswith(">")]
    return left, right


def corrected_rules(folder: Path) -> list[tuple[dt.date, int]]:
    """(the entry's date, rule) of each change the log marks `Failed:` or `Corrected:` (the record corrected it
    later: the Rulekeepor published it first)."""
    out = []
    for path in sorted(Path(folder, "log").glob("*.md")) or [Path(folder, "log.md")]:
        text = path.read_text(encoding="utf-8")
        for entry in re.split(r"^## ", text, flags=re.M)[1:]:
            dated = _ENTRY_DATE.search(entry)
            if dated is None:
                continue
            day = dt.date.fromisoformat(dated.group(1))
            rules = set()
            lines = entry.splitlines()
            for at, line in enumerate(lines):
                if line.startswith("Failed: "):
                    rules.update(int(n) for n in _RULE_NAMED.findall(line))
                elif line.startswith("Corrected: "):  # the change it follows names the rule
                    for earlier in reversed(lines[:at]):
                        if (named := _RULE_NAMED.findall(earlier)) and not earlier.startswith((">", "History:")):
                            rules.add(int(named[0]))
                            break
            out.extend((day, rule) for rule in rules)
    return out


def former_names(folder: Path) -> re.Pattern | None:
    """game.toml's `[aliases]`' former names, each as a whole word: (former, current)."""
    import tomllib
    aliases = tomllib.loads(Path(folder, "game.toml").read_text(encoding="utf-8")).get("aliases", {})
    olds = {old: name for name, former in aliases.items() for old in former}
    return (re.compile(r"(?<![\w.])(" + "|".join(re.escape(old) for old in sorted(olds, key=len, reverse=True))
                       + r")(?!\w)"), olds) if olds else None


def same_but_names(mine: tuple[str, ...], other: tuple[str, ...], former) -> bool:
    """Whether two printings of a rule say the same, lines unwrapped, once each former name is the current one."""
    def unwrapped(block: tuple[str, ...]) -> str:
        text = " ".join(" ".join(block).split())
        return former[0].sub(lambda m: former[1][m.group(1)], text) if former else text
    return unwrapped(mine) == unwrapped(other)


def differing_lines(ours: str, theirs: str, corrected: set[int], former=None) -> list[tuple[str, int, str, str]]:
    """Each differing line as (`<` ours or `>` theirs, its 1-based number, the line, its kind)."""
    a, b = ours.split("\n"), theirs.split("\n")
    pa, pb = regions(a), regions(b)
    blocks_a, blocks_b = rule_blocks(a, pa), rule_blocks(b, pb)
    left, right = differing(ours, theirs)

    def kind(line: str, part: str, rule: int | None, mine: dict, other: dict, only: str) -> str:
        if part == "header":
            return "header date" if line.startswith("Date of this ruleset") else \
                "ratification" if line.startswith("Last SLR ratification") else "header figures"
        if part == "powers":
            return "powers"
        if rule is None:
            return "placement" if part == "section" else "other"
        if rule in corrected:
            return "corrected later"
        if rule not in other:
            return only
        if mine[rule] == other[rule]:
            return "placement"
        if same_but_names(mine[rule], other[rule], former):
            return "names as now"
        return "head" if part == "toc" else part

    out = []
    for mark, lines, parts, numbers, mine, other, only in (
            ("<", a, pa, left, blocks_a, blocks_b, "only ours"), (">", b, pb, right, blocks_b, blocks_a, "only theirs")):
        for n in numbers:
            part, rule = parts[n]
            out.append((mark, n + 1, lines[n], kind(lines[n], part, rule, mine, other, only)))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", help="the folder `import agora` wrote")
    parser.add_argument("--mirror", default=MIRROR, help="a clone (bare or not) of AgoraNomic/ruleset")
    parser.add_argument("--file", default="flr-fresh.txt", choices=("flr-fresh.txt", "flr.txt"))
    parser.add_argument("--every", type=int, default=1, help="every Nth version, the newest always")
    parser.add_argument("--since", type=dt.date.fromisoformat, help="only versions from this date")
    parser.add_argument("--show", help="print the differing lines of this kind (with the version's date)")
    args = parser.parse_args(argv)

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from generator.model.points import point_index, read_point
    from generator.replays import replay_games
    from generator.site.pages import game_plan
    from generator.site.ruleset_text import ruleset_text

    replay = replay_games(Path(args.game))[0]
    plan = game_plan(replay)
    entries = replay.game.log.entries
    corrections = corrected_rules(Path(args.game))
    former = former_names(Path(args.game))
    versions = [v for v in published(args.mirror, args.file) if args.since is None or v[1] >= args.since]
    versions = versions[::-1][::args.every][::-1]
    totals: collections.Counter = collections.Counter()
    print(f"{'date':10} {'lines':>6}  " + "  ".join(f"{k}" for k in KINDS))
    for commit, day in versions:
        if day < replay.game.config.start:
            continue
        index = point_index(read_point(day.isoformat()), entries)
        ours = ruleset_text(plan, index, full=True, date=day)
        theirs = their_text(args.mirror, commit, args.file)
        corrected = {rule for made, rule in corrections if dt.timedelta(0) <= day - made
                     <= dt.timedelta(days=CORRECTED_DAYS)}
        lines = differing_lines(ours, theirs, corrected, former)
        counts = collections.Counter(kind for _, _, _, kind in lines)
        totals.update(counts)
        print(f"{day} {sum(counts.values()):6}  " + "  ".join(f"{counts[k]:>{len(k)}}" for k in KINDS))
        for mark, n, line, kind in lines:
            if kind == args.show:
                print(f"    {mark}{n}: {line}")
    print(f"{'total':10} {sum(totals.values()):6}  " + "  ".join(f"{totals[k]:>{len(k)}}" for k in KINDS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
