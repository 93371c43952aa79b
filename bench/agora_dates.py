"""Our Full Logical Ruleset for each date the Rulekeepor published one, against the one he published (or the Short).

The history of the gh-pages branch of AgoraNomic/ruleset holds every FLR he published: `flr-fresh.txt` (from 2019,
the current generator) and `flr.txt` (from 2017, older generators); and every SLR, `slr.txt` (from 2017, compared
with our `--format slr`). For each version (or every Nth), the FLR of
the imported game at the version's day (`ruleset GAME@DATE --format flr`, computed in process from one replay) is
compared line by line with his (`diff`), and each differing line (a `<` or `>` line) is counted under one kind.
The version's day is the one his header gives (`Date of this ruleset: 11 May 2026`: he has republished a ruleset
of an earlier day, and his header's date at times lags his commit), else his commit's (`--by-commit`: always).

    python -m generator import agora --ruleset /tmp/ruleset --assessor /tmp/assessor -o /tmp/me/agora -q
    python -m bench.agora_dates /tmp/me/agora [--every 10] [--since 2024-01-01] [--file flr.txt|slr.txt] [--show KIND]

Kinds, each line taking the first that fits:

- header date / ratification / header figures: the header's `Date of this ruleset:`, `Last SLR ratification:`
  and the other lines before the table of contents;
- powers: the power distribution (it follows from the rules in force and their powers);
- corrected later: a line of a rule the record corrected later, a rule the log holds a `Failed:` change to (or
  a change with `Corrected:`) dated on or before the version's day and corrected after it (IMPORT.md's commit
  that removed it, else within CORRECTED_DAYS): the Rulekeepor then published what the record no longer says; by
  our principle the corrected record stands;
- recorded late: a line of a rule whose record (its rule file on the ruleset's main branch) gained after that day
  a history entry dated on or before it (he recorded a change late: "Add missed event"); our log has it on its
  day;
- placement: a rule printed alike on both sides in another place, and the sections' headings and the table of
  contents' lines of such rules (the FLR's sections at that date);
- only ours / only theirs: a rule in force on one side alone (its every line, and its contents line);
- layout: a rule on both sides that says the same, its lines unwrapped (his generator's wrapping and indenting
  then);
- names as now: a rule on both sides that says the same, its lines unwrapped, once each former name of game.toml's
  `[aliases]` is the current one (a name his list of that day did not replace: `[[report.names]]`);
- layout / names as now (an entry): a history line or annotation the other side's same rule has, unwrapped /
  its names as now;
- edited since: a history line of a rule whose history in the record (its rule file on the main branch) that
  day is not its history now in the entries it had then: the Rulekeepor edited the entries since (a proposal
  number corrected, a power or an event written in); an annotation of a rule that had then an annotation it has
  not now, as written;
- wording since: a history line the other side's same rule has once both are in his generator's words before
  2024-04 (a retitling without its titles, a re-enactment without its power), or a blank line of a rule's text
  (his generator indented them until 2021): his program's words changed;
- head, text, history, annotations: the lines of a rule on both sides that differ there (`Rule N/R (Power=P)`
  and title; text; `History:` lines; `Annotations:` lines);
- other: anything else (a section's note, the end).

Prints one row per version and the totals by kind. Needs git and diff.
"""
from __future__ import annotations

import argparse
import collections
import datetime as dt
import functools
import re
import subprocess
import sys
import tempfile
from pathlib import Path

MIRROR = "/work/.mirror/AgoraNomic+ruleset/repo"
LAG = dt.timedelta(days=60)  # the most his header's day is taken to lag or lead his commit's
CORRECTED_DAYS = 120  # how long after a change he published it before the record's correction (CFJs take weeks)
KINDS = ("header date", "ratification", "header figures", "powers", "corrected later", "recorded late", "placement",
         "only ours", "only theirs", "layout", "names as now", "edited since", "wording since", "head", "text", "history",
         "annotations", "other")
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


_DATED = re.compile(r"^Date of this ruleset: *(\d{1,2} [A-Z][a-z]+ \d{4})\s*$", re.M)


def dated(flr: str) -> dt.date | None:
    """The day an FLR's header says it is of (`Date of this ruleset: 5 Jul 2026`), where it says one."""
    if m := _DATED.search(flr):
        for form in ("%d %b %Y", "%d %B %Y"):
            try:
                return dt.datetime.strptime(m.group(1), form).date()
            except ValueError:
                continue
    return None


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


_REMOVED = re.compile(r"^- rule (\d+)(?::.*, removed| whole)? at commit ([0-9a-f]{7,40})\b", re.M)


def corrections(folder: Path, mirror: str) -> list[tuple[dt.date, dt.date, int]]:
    """(from, until, rule): the days on which the Rulekeepor published a change the record corrected later,
    from the change's day up to his correction's commit, where IMPORT.md names it (a change he removed from the
    rule's history, a rule commented out whole), else for CORRECTED_DAYS."""
    removed: dict[int, list[dt.date]] = collections.defaultdict(list)
    for rule, commit in _REMOVED.findall(Path(folder, "IMPORT.md").read_text(encoding="utf-8")):
        day = subprocess.run(["git", f"--git-dir={mirror}", "log", "-1", "--format=%ad", "--date=short", commit],
                             capture_output=True, text=True).stdout.strip()
        if day:
            removed[int(rule)].append(dt.date.fromisoformat(day))
    out = []
    for made, rule in corrected_rules(folder):
        until = min((day for day in removed.get(rule, ()) if day > made),
                    default=made + dt.timedelta(days=CORRECTED_DAYS))
        out.append((made, until, rule))
    return out


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


def note_entries(lines: list[str], parts: list[tuple[str, int | None]]
                 ) -> tuple[dict[int, str], dict[tuple[int, str], list[str]]]:
    """Each history line's and annotation's entry, unwrapped (by the number of each of its lines), and each rule's
    entries of each part."""
    of_line: dict[int, str] = {}
    of_rule: dict[tuple[int, str], list[str]] = collections.defaultdict(list)
    run: list[int] = []

    def close() -> None:
        if run:
            text = " ".join(" ".join(lines[n].split()) for n in run)
            of_line.update(dict.fromkeys(run, text))
            part, rule = parts[run[0]]
            of_rule[(rule, part)].append(text)
            run.clear()

    for n, (line, (part, rule)) in enumerate(zip(lines, parts)):
        if part not in ("history", "annotations") or not line.strip() or line in ("History:", "Annotations:"):
            close()
        elif line.startswith("   ") and run:
            run.append(n)
        else:
            close()
            run.append(n)
    close()
    return of_line, of_rule


_NEWER_WORDING = re.compile(r"^(Retitled)(?: from '.*?')?(?: to '.*?')?(?= by )|^(Re-enacted\(\d+\)) at Power=[\d.]+")


def older_wording(entry: str) -> str:
    """A history entry as his generator wrote it before 2024-04 (e49e364d, 2ef8ceb0): a retitling without its
    titles, a re-enactment without its power."""
    return _NEWER_WORDING.sub(lambda m: m.group(1) or m.group(2), entry)


class RecordThen:
    """Whether the record's history of a rule, as it was on a day, is its history now in the entries it had then
    (the Rulekeepor's rule files on the ruleset's main branch: rules_data/rules/N, before 2020-07 config/rules/N)."""

    FOLDERS = ("rules_data/rules/", "config/rules/", "rules/")

    def __init__(self, mirror: str):
        from generator.importers.gitread import BlobReader
        self.mirror = mirror
        self.blobs = BlobReader(Path(mirror))
        self.head = self._commit(None)
        self.histories: dict[tuple[str, int], list | None] = {}

    def _git(self, *args: str) -> str:
        return subprocess.run(["git", f"--git-dir={self.mirror}", *args], capture_output=True, text=True).stdout

    @functools.lru_cache(maxsize=None)
    def _commit(self, day: dt.date | None) -> str:
        return self._git("rev-list", "-1", *([f"--before={day + dt.timedelta(days=1)}T00:00"] if day else []),
                         "main").strip()

    def _history(self, commit: str, rule: int, key: str = "history") -> list | None:
        if (commit, rule) not in self.histories:
            import yaml
            found = None
            for folder in self.FOLDERS:
                text = self.blobs.read(commit, f"{folder}{rule}")
                if text:
                    loader = getattr(yaml, "CBaseLoader", yaml.BaseLoader)  # every value a string: it has 2023-05-32
                    try:
                        found = yaml.load(text, Loader=loader) or {}
                    except yaml.YAMLError:
                        found = None
                    break
            self.histories[(commit, rule)] = found if isinstance(found, dict) else None
        read = self.histories[(commit, rule)]
        return None if read is None else read.get(key)

    def annotations_edited(self, day: dt.date, rule: int) -> bool:
        """Whether an annotation the rule's file had that day is not one it has now, as written (he rewrote it,
        or took it away)."""
        commit = self._commit(day)
        then, now = (self._history(commit, rule, "annotations"), self._history(self.head, rule, "annotations")) \
            if commit else (None, None)
        return isinstance(then, list) and isinstance(now, list) and any(item not in now for item in then)

    def since(self, day: dt.date, rule: int) -> str | None:
        """`edited` where the rule's history entries of that day are not its first ones now, `late` where it has
        gained since an entry dated on or before that day (he recorded it late), else None."""
        commit = self._commit(day)
        then, now = (self._history(commit, rule), self._history(self.head, rule)) if commit else (None, None)
        if then is None or now is None:
            return None
        if now[:len(then)] != then:
            return "edited"
        if any(isinstance(entry, dict) and str(entry.get("date", "9999")) <= day.isoformat()
               for entry in now[len(then):]):
            return "late"
        return None


def differing_lines(ours: str, theirs: str, corrected: set[int], former=None, edited=None, annotated=None
                    ) -> list[tuple[str, int, str, str]]:
    """Each differing line as (`<` ours or `>` theirs, its 1-based number, the line, its kind); `edited(rule)`:
    whether the record's history of the rule was `edited` since, or recorded `late` (RecordThen.since);
    `annotated(rule)`: whether an annotation it had then is not one it has now."""
    a, b = ours.split("\n"), theirs.split("\n")
    pa, pb = regions(a), regions(b)
    blocks_a, blocks_b = rule_blocks(a, pa), rule_blocks(b, pb)
    left, right = differing(ours, theirs)
    entries_a, entries_b = note_entries(a, pa), note_entries(b, pb)

    def renamed(text: str) -> str:
        return former[0].sub(lambda m: former[1][m.group(1)], text) if former else text

    def entry_kind(n: int, part: str, rule: int, mine, other) -> str:
        """A history line's or annotation's kind, by its entry: the other side has it with names as now, or
        (history) in his generator's older words."""
        entry = mine[0].get(n)
        if entry is None:
            return part
        if entry in other[1].get((rule, part), ()):
            return "layout"
        others = [renamed(text) for text in other[1].get((rule, part), ())]
        if renamed(entry) in others:
            return "names as now"
        if part == "history" and edited is not None and edited(rule) == "edited":
            return "edited since"
        if part == "annotations" and annotated is not None and annotated(rule):
            return "edited since"
        if part == "history" and older_wording(renamed(entry)) in {older_wording(text) for text in others}:
            return "wording since"
        return part

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
        late = edited is not None and edited(rule) == "late"
        if rule not in other:
            return "recorded late" if late else only
        if mine[rule] == other[rule]:
            return "placement"
        if same_but_names(mine[rule], other[rule], None):
            return "layout"
        if same_but_names(mine[rule], other[rule], former):
            return "names as now"
        if late:
            return "recorded late"
        return "head" if part == "toc" else part

    out = []
    for mark, lines, parts, numbers, mine, other, only, notes in (
            ("<", a, pa, left, blocks_a, blocks_b, "only ours", (entries_a, entries_b)),
            (">", b, pb, right, blocks_b, blocks_a, "only theirs", (entries_b, entries_a))):
        for n in numbers:
            part, rule = parts[n]
            made = kind(lines[n], part, rule, mine, other, only)
            if made == "text" and not lines[n].strip():
                made = "wording since"  # (a blank line of a text: his older generator indented it)
            if made in ("history", "annotations"):
                made = entry_kind(n, part, rule, *notes)
            out.append((mark, n + 1, lines[n], made))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", help="the folder `import agora` wrote")
    parser.add_argument("--mirror", default=MIRROR, help="a clone (bare or not) of AgoraNomic/ruleset")
    parser.add_argument("--file", default="flr-fresh.txt", choices=("flr-fresh.txt", "flr.txt", "slr.txt"))
    parser.add_argument("--every", type=int, default=1, help="every Nth version, the newest always")
    parser.add_argument("--since", type=dt.date.fromisoformat, help="only versions from this date")
    parser.add_argument("--by-commit", action="store_true",
                        help="ours at the day of his commit, not at the day his header says (`Date of this ruleset:`)")
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
    corrected_days = corrections(Path(args.game), args.mirror)
    former = former_names(Path(args.game))
    record = RecordThen(args.mirror)
    versions = [v for v in published(args.mirror, args.file) if args.since is None or v[1] >= args.since]
    versions = versions[::-1][::args.every][::-1]
    totals: collections.Counter = collections.Counter()
    print(f"{'date':10} {'lines':>6}  " + "  ".join(f"{k}" for k in KINDS))
    for commit, committed in versions:
        theirs = their_text(args.mirror, commit, args.file)
        day = dated(theirs)  # (a header's day far from the commit's is a slip: `18 Oct 2925`)
        day = committed if args.by_commit or day is None or abs(day - committed) > LAG else day
        if day < replay.game.config.start:
            continue
        index = point_index(read_point(day.isoformat()), entries)
        ours = ruleset_text(plan, index, full=args.file != "slr.txt", date=day)
        corrected = {rule for made, until, rule in corrected_days if made <= day < until}
        lines = differing_lines(ours, theirs, corrected, former, lambda rule: record.since(day, rule),
                                lambda rule: record.annotations_edited(day, rule))
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
