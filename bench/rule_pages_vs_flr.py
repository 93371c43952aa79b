"""Read a built Agora site as an Agoran would, against the Rulekeepor's own FLR and proposal records.

For every rule in force in the FLR, its page (GAME/rules/N.html) is compared with its FLR entry: the revision
shown (Rule N/R), power, title, every history line (its credit, date and order) and the current annotations in
order. Then about fifty proposal pages are compared with rules_data/proposals (title, authors, date). Prints the
count of each class of disagreement and a few examples of each.

    python -m generator import agora --ruleset /tmp/ruleset --assessor /tmp/assessor -o /tmp/me/agora -q
    python -m generator build /tmp/me/agora -o /tmp/me/site -q
    git --git-dir=/work/.mirror/AgoraNomic+ruleset/repo show ci-generated:flr.txt > /tmp/me/flr.txt
    python -m bench.rule_pages_vs_flr /tmp/me/site/agora /tmp/me/flr.txt /tmp/ruleset/rules_data/proposals
"""
from __future__ import annotations

import argparse
import collections
import difflib
import html
import random
import re
import sys
from fractions import Fraction
from html.parser import HTMLParser
from pathlib import Path

_MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()
_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_LONG = re.compile(r"\b(\d{1,2}) (January|February|March|April|May|June|July|August|September|October|November"
                   r"|December) (\d{4})\b")


def same_dates(text: str) -> str:
    """`text` with every date written as the FLR writes it (`06 May 2007`), spaces folded."""
    text = _ISO.sub(lambda m: f"{m[3]} {_MONTHS[int(m[2]) - 1]} {m[1]}", text)
    text = _LONG.sub(lambda m: f"{int(m[1]):02d} {m[2][:3]} {m[3]}", text)
    return " ".join(text.split())


# --- the FLR -------------------------------------------------------------------------------------------------

def flr_entries(text: str) -> dict[int, dict]:
    """Each rule of the FLR: number -> {revision, power, title, history: [line], annotations: [text]}."""
    entries = {}
    for block in re.split(r"\n-{72}\n", text):
        m = re.search(r"^Rule (\d+)/(\d+) \(Power=([^)]*)\)\n(.*)\n", block, re.M)
        if not m:
            continue
        rest = block[m.end():]
        history_part, _, annotation_part = rest.partition("\nAnnotations:\n")
        _, _, history_part = history_part.partition("\nHistory:\n")
        entries[int(m[1])] = {
            "revision": int(m[2]), "power": m[3], "title": m[4].strip(),
            "history": _unwrapped(history_part, "   "),
            "annotations": _unwrapped(annotation_part.split("\n" + "=" * 72)[0], "    "),
        }
    return entries


def _unwrapped(part: str, indent: str) -> list[str]:
    items: list[str] = []
    for line in part.split("\n"):
        if not line.strip():
            continue
        if line.startswith(indent) and items:
            items[-1] += " " + line.strip()
        else:
            items.append(line.strip())
    return [same_dates(item) for item in items]


# --- a rule page ---------------------------------------------------------------------------------------------

class RulePage(HTMLParser):
    """What a reader finds on a rule page: h1, the meta line, current annotations, record lines in page order."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.h1 = self.meta = ""
        self.listed_whole = False  # the page lists every history line (its section record-history links some)
        self.annotations: list[str] = []
        self.history: list[str] = []   # the record's lines as the page lists them (before-archive or all)
        self.revision_lines: list[str] = []   # each revision's record lines, in the revisions' order
        self.revisions_without_record: list[str] = []   # headings of revisions that show no record line
        # each revision's record lines with the revision its span says it is ("Revision 3, in force ...")
        self.revision_spans: list[tuple[list[str], str, bool]] = []
        self._stack: list[tuple[str, set[str]]] = []
        self._into: str | None = None
        self._buffer: list[str] = []
        self._heading = ""
        self._revision_records = 0
        self._in_revision = False

    def _classes(self, attrs) -> set[str]:
        return set((dict(attrs).get("class") or "").split())

    def handle_starttag(self, tag, attrs):
        classes = self._classes(attrs)
        if tag in ("br", "meta", "link", "img", "input", "hr"):
            if tag == "br" and self._into == "record":
                self._flush()
                self._start("record")
            return
        self._stack.append((tag, classes))
        if tag == "a" and "to-change" in classes:
            self.listed_whole = True
        if self._into:
            return
        if tag == "h1":
            self._start("h1")
        elif tag == "p" and "meta" in classes and not self.meta and "annotations" not in self._sections():
            self._start("meta")
        elif tag == "div" and "annotation" in classes and "removed" not in classes:
            self._start("annotation")
        elif tag == "li" and self._sections() & {"before-archive", "record-history"}:
            self._start("before")
        elif tag == "article" and "revision" in classes:
            self._in_revision, self._revision_records, self._heading, self._span = True, 0, "", ""
            self._late = False  # the page says the change was recorded after later ones
        elif tag == "h3" and self._in_revision:
            self._start("heading")
        elif tag == "p" and "late" in classes and self._in_revision:
            self._late = True
        elif tag == "p" and "record" in classes and "corrected" not in classes:
            self._start("record")
        elif tag == "p" and "span" in classes and self._in_revision:
            self._start("span")

    def _sections(self) -> set[str]:
        return {c for tag, classes in self._stack if tag == "section" for c in classes}

    def _start(self, what):
        self._into, self._buffer, self._depth = what, [], len(self._stack)

    def handle_endtag(self, tag):
        if self._into and len(self._stack) == self._depth:
            self._flush()
        if tag == "article" and self._in_revision:
            if self._revision_records:
                self.revision_spans.append((self.revision_lines[-self._revision_records:], self._span, self._late))
            if not self._revision_records:
                self.revisions_without_record.append(self._heading)
            self._in_revision = False
        if self._stack:
            self._stack.pop()

    def _flush(self):
        text = " ".join("".join(self._buffer).split())
        what, self._into = self._into, None
        if what == "h1":
            self.h1 = text
        elif what == "meta":
            self.meta = text
        elif what == "annotation":
            # the meta line after an annotation made since the archive began is not its text
            self.annotations.append(same_dates(re.sub(r" Annotated by .*$", "", text)))
        elif what == "before":
            self.history.append(same_dates(text.removesuffix(" ↓")))
        elif what == "heading":
            self._heading = text
        elif what == "span":
            self._span = text
        elif what == "record" and text:
            self.revision_lines.append(same_dates(text))
            self._revision_records += 1

    def handle_data(self, data):
        if self._into:
            self._buffer.append(data)


def _credit_and_date(line: str) -> tuple[str, str]:
    m = re.match(r"^(.*), (\d{2} \w{3} \d{4})$", line)
    return (m[1], m[2]) if m else (line, "")


def compare_rules(site: Path, flr: dict[int, dict], problems: dict[str, list[str]], shown: collections.Counter):
    for number, entry in sorted(flr.items()):
        path = site / "rules" / f"{number}.html"
        if not path.exists():
            problems["no page"].append(str(number))
            continue
        page = RulePage()
        page.feed(path.read_text(encoding="utf-8"))
        m = re.match(r"Rule (\d+)/(\d+): revision \d+\. (?:Power ([^.]+(?:\.\d+)?)\.)?", page.meta)
        if not m or int(m[2]) != entry["revision"]:
            problems["revision"].append(f"{number}: page {m and m[2]!r}, FLR {entry['revision']}")
        if not m or not m[3] or Fraction(m[3]) != Fraction(entry["power"]):
            problems["power"].append(f"{number}: page {m and m[3]!r}, FLR {entry['power']!r}")
        elif m[3] != entry["power"]:
            shown["powers written otherwise than the FLR (same value)"] += 1
        title = page.h1.split(": ", 1)[1] if ": " in page.h1 else ""
        if same_dates(title) != same_dates(entry["title"]):
            problems["title"].append(f"{number}: page {title!r}, FLR {entry['title']!r}")
        # a page that lists the history whole is read from that list; one that lists only what came before the
        # archive, from that list then its revisions' record lines
        listed = page.history if page.listed_whole else page.history + page.revision_lines
        _compare_lines(number, listed, entry["history"], "history", problems)
        if page.listed_whole and collections.Counter(page.revision_lines) - collections.Counter(page.history):
            problems["revision's record line not in the page's list"].append(str(number))
        _compare_lines(number, page.annotations, entry["annotations"], "annotation", problems)
        for lines, span, late in page.revision_spans:
            counted = [m[1] for line in lines for m in [re.search(r"\((\d+)\)", line.split(" by ")[0])] if m]
            said = re.match(r"Revision (\d+),", span)
            if late:
                shown["changes said to be recorded late"] += 1
            elif counted and (not said or said[1] != counted[-1]):
                problems["a change's revision against its record line"].append(f"{number}: {span[:40]!r} {lines}")
        shown["revisions with no record line"] += len(page.revisions_without_record)
        shown["rules compared"] += 1
        shown["history lines compared"] += len(entry["history"])
        shown["annotations compared"] += len(entry["annotations"])


def _compare_lines(number: int, page: list[str], flr: list[str], what: str, problems):
    if page == flr:
        return
    if sorted(page) == sorted(flr):
        first = next(i for i, (a, b) in enumerate(zip(page, flr)) if a != b)
        problems[f"{what} order"].append(f"{number}: at {first}: page {page[first]!r}, FLR {flr[first]!r}")
        return
    matcher = difflib.SequenceMatcher(a=page, b=flr, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            continue
        ours, theirs = page[i1:i2], flr[j1:j2]
        for a, b in zip(ours, theirs):
            (credit_a, date_a), (credit_b, date_b) = _credit_and_date(a), _credit_and_date(b)
            kind = "date" if credit_a == credit_b else "credit" if date_a == date_b else "credit and date"
            if what == "annotation":
                kind = "text"
            problems[f"{what} {kind}"].append(f"{number}: page {a!r}\n      FLR  {b!r}")
        for a in ours[len(theirs):]:
            problems[f"{what} extra on page"].append(f"{number}: {a!r}")
        for b in theirs[len(ours):]:
            problems[f"{what} missing from page"].append(f"{number}: {b!r}")


# --- proposal pages ------------------------------------------------------------------------------------------

class ProposalPage(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.h1 = ""
        self.facts: dict[str, str] = {}
        self._into: str | None = None
        self._term = ""
        self._buffer: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in ("h1", "dt", "dd") and self._into is None:
            self._into, self._buffer = tag, []

    def handle_endtag(self, tag):
        if tag == self._into:
            text = " ".join("".join(self._buffer).split())
            if tag == "h1":
                self.h1 = text
            elif tag == "dt":
                self._term = text
            else:
                self.facts[self._term] = text
            self._into = None

    def handle_data(self, data):
        if self._into:
            self._buffer.append(data)


def _yaml_record(path: Path) -> dict:
    """The few keys of a proposal record (flat YAML: scalars and one list of co-authors)."""
    record: dict = {}
    key = None
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("- ") and key:
            record.setdefault(key, []).append(_scalar(line[2:]))
        elif ":" in line and not line.startswith(" "):
            key, _, value = line.partition(":")
            value = value.strip()
            if value:
                record[key] = _scalar(value)
    return record


def _scalar(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        value = value[1:-1].replace("''", "'") if value[0] == "'" else value[1:-1].replace('\\"', '"')
    return value


def flr_credits(flr: dict[int, dict]) -> dict[str, tuple[str, list[str]]]:
    """The FLR's words for each proposal its history lines name: number -> (title, authors)."""
    credits = {}
    for entry in flr.values():
        for line in entry["history"]:
            for m in re.finditer(r"\bP(\d+) '(.*?)'(?: \[[^]]*\])? \(([^)]*)\)", line):
                credits[m[1]] = (m[2], [a.strip() for a in m[3].split(",")])
    return credits


def compare_proposals(site: Path, records: Path, sample: int, problems, shown, credits, seed: int = 51):
    pages = {p.stem: p for p in (site / "proposals").glob("*.html") if p.stem.isdigit()}
    numbers = sorted(n for n in pages if (records / n).exists())
    for number in random.Random(seed).sample(numbers, min(sample, len(numbers))):
        record = _yaml_record(records / number)
        page = ProposalPage()
        page.feed(pages[number].read_text(encoding="utf-8"))
        shown["proposal pages compared"] += 1
        title = page.h1.split(": ", 1)[1].removesuffix(" from the record") if ": " in page.h1 else ""
        if "title" in record and html.unescape(title) != record["title"] and not (
                number in credits and credits[number][0] != record["title"]):
            problems["proposal title"].append(f"{number}: page {title!r}, record {record['title']!r}")
        authors = [record.get("author", "not recorded")] + record.get("coauthors", [])
        shown_authors = [page.facts.get("Proposer", "")] + [
            a.strip() for a in re.split(r",| and ", page.facts.get("Co-authors", "")) if a.strip()]
        if [a.casefold() for a in authors] != [a.casefold() for a in shown_authors]:
            kind = "proposal authors as the FLR names them (the record file names them otherwise)" \
                if number in credits and credits[number][1] == shown_authors else "proposal authors"
            problems[kind].append(f"{number}: page {shown_authors}, record {authors}")
        if "date" in record:
            shown_date = same_dates(page.facts.get("Date", ""))
            if shown_date != same_dates(str(record["date"])):
                problems["proposal date"].append(f"{number}: page {shown_date!r}, record {record['date']!r}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site", type=Path, help="the game's folder of the built site (…/site/agora)")
    parser.add_argument("flr", type=Path, help="the Rulekeepor's flr.txt")
    parser.add_argument("proposals", type=Path, help="rules_data/proposals of the ruleset repository")
    parser.add_argument("--sample", type=int, default=50)
    parser.add_argument("--examples", type=int, default=3)
    args = parser.parse_args(argv)
    problems: dict[str, list[str]] = collections.defaultdict(list)
    shown: collections.Counter = collections.Counter()
    flr = flr_entries(args.flr.read_text(encoding="utf-8"))
    compare_rules(args.site, flr, problems, shown)
    compare_proposals(args.site, args.proposals, args.sample, problems, shown, flr_credits(flr))
    for what, count in shown.items():
        print(f"{what}: {count}")
    print(f"disagreements: {sum(len(v) for v in problems.values())}")
    for kind, cases in sorted(problems.items()):
        print(f"  {kind}: {len(cases)}")
        for case in cases[:args.examples]:
            print(f"    {case}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
