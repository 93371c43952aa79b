"""The rules in force at a point of a game as a plain-text report, the one its players read: the game's own layout
where game.toml's `[report]` gives it (Agora's Full and Short Logical Rulesets, as the Rulekeepor's generator
writes them), else a plain one. `full` adds each rule's history and annotations; `short` is the texts.

Pure: a plan and an entry's index in, text out. The command `ruleset` prints it; the site writes the same text
beside "Rules as of".
"""
from __future__ import annotations

import datetime as dt
import heapq
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from ..engine.adoption import decimal_text
from ..engine.replay import Step, annotation_spans
from ..engine.rulebook import RuleVersion
from ..model import Judgment, Proposal, Unrecorded, WrittenDecimal
from ..model.config import Config, Held, Section
from .views import GamePlan, Recent, changes_making, point_date, renaming

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_MONTH_NAMES = {name.lower(): n for n, name in enumerate(("January", "February", "March", "April", "May", "June",
                                                         "July", "August", "September", "October", "November",
                                                         "December"), 1)}
TEXT_INDENT = "      "  # a rule's text in the keepers' layout, as the FLR indents it
PLAIN_WIDTH = 72
NO_SECTION = "Rules in no section"  # where a rule in force that no [[sections]] table names is listed
# The ISO dates of a history line's end (`, 2017-09-26`, `, around 1994-04-07`, `, between ... and ...`).
_ISO = r"\d{4}-\d{2}-\d{2}"
_LINE_DATE = re.compile(rf"(, (?:around |between )?)({_ISO})((?: and )({_ISO}))?$")
_CALLED = re.compile(r"\(called ([^)]*)\)")
_CASES = re.compile(r"(?:[^:()]*\(called [^)]*\),? ?)+")  # an annotation's cases, up to its finding
_WORD_DATE = re.compile(r"(\d{1,2}) ([A-Za-z]+) (\d{4})")


STILL = -2  # the end of a span that still stands, as the site's pieces write it
_BEFORE_ALL = dt.date.min  # a day before any section's `from`


@dataclass(frozen=True)
class Group:
    """A part of the report: a section (its rules' numbers in its order), the rules no section places (`rest`), or,
    in the plain layout of a game without sections, a class of rules; its heading and its table of contents'
    heading as the report prints them."""

    head: str
    toc: str
    numbers: tuple[int, ...] | None = None
    rule_class: str | None = None
    rest: bool = False


@dataclass(frozen=True)
class ReportLayout:
    """What a game's report is made of that no point changes: its templates, their placeholders in the order they
    are filled, its parts, the words around a rule's history and annotations, the powers' lines, the
    ratifications. `keepers`: the game's `[report]` layout, else the plain one."""

    keepers: bool
    full: str
    short: str
    placeholders: tuple[str, ...]
    title: str  # the plain layout's heading: the game's
    groups: tuple[Group, ...]
    # The groups in the report's order from each day on (ISO; "" from the start), where the sections held for a
    # time: indices into `groups`, the rest (`Group.rest`) last
    arrangements: tuple[tuple[str, tuple[int, ...]], ...]
    # The names the keepers' reports write for names their record gives, from each day on which one began or
    # ended (ISO; "" from the start): `[[report.names]]`, each list as (the record's name, the report's) pairs
    names: tuple[tuple[str, tuple[tuple[str, str], ...]], ...]
    line: str
    toc_line: str  # a table of contents' line before the rule's number (which is right-aligned)
    rule_tail: str
    history_head: str
    history_tail: str
    annotations_head: str
    annotations_tail: str
    always: bool  # the heads are printed for a rule with no history or annotations too
    powers: tuple[str, ...]  # each power's line after its count, in order of power
    powerless: str
    ratifications: tuple[tuple[str, str], ...]  # (ISO date, the header's words) in the order game.toml gives them
    unratified: str
    months: tuple[str, ...]


@dataclass(frozen=True)
class VersionPiece:
    """One rule version as a report prints it: its head and text (`block`, the same in a full and a short report)
    and its table of contents' line after the number; `power` its place in ReportLayout.powers (-1: none)."""

    identity: int
    start: int
    end: int  # STILL: in force at the end
    number: int
    rule_class: str
    power: int
    toc: str
    block: str


@dataclass(frozen=True)
class RuleNotes:
    """A rule's history lines and annotations as a full report prints them, each with the entry after which it
    is printed (-1: from the start) and, for an annotation, after which it no longer is (STILL: never). A history
    line is given as it reads under each of the layout's `names` lists where they differ: (the first list's index,
    the text) for the lists it reads alike under, in order."""

    history: tuple[tuple[int, tuple[tuple[int, str], ...]], ...]
    annotations: tuple[tuple[int, int, str], ...]


@dataclass(frozen=True)
class PointFigures:
    """What a report says of its point besides its rules: the highest rule number any rule had had (`hr`), the
    highest adopted proposal (`hp`), the date of the last dated entry (ISO, "" before any) and, in the plain
    heading, the point in words."""

    highest: str
    proposal: str
    date: str
    words: str


def ruleset_text(plan: GamePlan, index: int, *, full: bool, plain: bool = False, date: dt.date | None = None) -> str:
    """The rules in force just after entry `index` (-1: the initial set) as text: in the game's `[report]`
    layout unless `plain` or the game has none. `date`: the day asked for, where the point was named by one (else
    the last dated entry's, `point_date`)."""
    layout = report_layout(plan, plain=plain)
    rules = [version_piece(plan, layout, version) for version in plan.history.rules_at(index)]
    notes = {rule.identity: rule_notes(plan, layout, rule.identity) for rule in rules} if full else {}
    return assemble(layout, rules, notes, point_figures(plan, index), index, full=full,
                    asked=date.isoformat() if date else "")


def assemble(layout: ReportLayout, rules: list[VersionPiece], notes: dict[int, RuleNotes], point: PointFigures,
             index: int, *, full: bool, asked: str = "") -> str:
    """The report of the rules `rules` (those in force after entry `index`, by number): the pieces selected and
    joined, nothing worded. static/report.js does the same in the same steps: keep the two alike."""
    date = asked or point.date
    groups = [layout.groups[at] for at in layout.arrangements[held_at(layout.arrangements, date)][1]]
    body, toc = _body_and_toc(layout, groups, rules, notes, index, held_at(layout.names, date), full=full)
    values = _figures(layout, rules, point, date) | {"toc": toc, "ruleset": body, "asked": _asked_day(asked)}
    text = layout.full if full else layout.short
    for name in layout.placeholders:
        if not values[name]:  # (an empty value takes the spaces before it on its line: `Date of this ruleset:`)
            text = re.sub(" *" + re.escape("{" + name + "}"), "", text)
        text = text.replace("{" + name + "}", values[name])
    return text if layout.keepers else text.rstrip("\n") + "\n"


def held_at(by_day: tuple[tuple[str, object], ...], date: str) -> int:
    """Which of the settings held from each day on (the layout's `arrangements`, `names`) held on `date` (ISO;
    the first, without one)."""
    return max((at for at, (since, _) in enumerate(by_day) if since <= date), default=0)


def _body_and_toc(layout: ReportLayout, groups: list[Group], rules: list[VersionPiece], notes: dict[int, RuleNotes],
                  index: int, names_at: int, *, full: bool) -> tuple[str, str]:
    """The rules group by group (with their notes, their history under the layout's names list `names_at`, in a
    full report), and the table of contents of the groups."""
    by_number = {rule.number: rule for rule in rules}
    placed = {number for group in groups if group.numbers is not None for number in group.numbers}
    width = max((len(str(rule.number)) for rule in rules), default=0)
    body, toc = [], []
    for group in groups:
        if group.numbers is not None:
            held = [by_number[number] for number in group.numbers if number in by_number]
        elif group.rest:
            held = [rule for rule in rules if rule.number not in placed]
        else:
            held = [rule for rule in rules if rule.rule_class == group.rule_class]
        if not held:
            continue
        body.append(group.head)
        toc.append(group.toc + "\n".join(layout.toc_line + str(rule.number).rjust(width) + rule.toc for rule in held)
                   + "\n")
        for rule in held:
            body.append(rule.block)
            if full:
                body.append(_notes_text(layout, notes.get(rule.identity), index, names_at))
            body.append(layout.rule_tail)
    return "".join(body), "".join(toc)


def _figures(layout: ReportLayout, rules: list[VersionPiece], point: PointFigures, date: str) -> dict[str, str]:
    """What the layout's placeholders but the table of contents and the rules stand for, at `date`."""
    counts = Counter(rule.power for rule in rules if rule.power >= 0)
    count_width = max((len(str(count)) for count in counts.values()), default=0)
    last = None
    for ratified in layout.ratifications:
        if date and ratified[0] <= date and (last is None or ratified[0] > last[0]):
            last = ratified
    heading = f"{layout.title}: the rules {point.words}" + (f" ({date})" if date else "")
    return {"num": str(len(rules)), "her": str(max((rule.number for rule in rules), default="")),
            "hr": point.highest, "hp": point.proposal,
            "ratification": layout.unratified if last is None else last[1],
            "date": _iso_day(layout, date) if date else "", "line": layout.line,
            "powers": "\n".join(str(counts[power]).ljust(count_width) + layout.powers[power]
                                 for power in sorted(counts)) or layout.powerless,
            "heading": heading, "underline": "=" * len(heading),
            "counted": f"{len(rules)} rule{'' if len(rules) == 1 else 's'}"}


def _notes_text(layout: ReportLayout, notes: RuleNotes | None, index: int, names_at: int) -> str:
    history = [next(text for first, text in reversed(texts) if first <= names_at)
               for made, texts in notes.history if made <= index] if notes else []
    annotations = [text for made, removed, text in notes.annotations
                   if made <= index and (removed == STILL or removed > index)] if notes else []
    out = ""
    if history or layout.always:
        out += layout.history_head + "".join(history) + layout.history_tail
    if annotations or layout.always:
        out += layout.annotations_head + "".join(annotations) + layout.annotations_tail
    return out


def _asked_day(iso: str) -> str:
    """The day a report was asked for as the keepers date a ruleset they publish (`5 Jul 2026`); "" for none."""
    return _header_day(dt.date.fromisoformat(iso)) if iso else ""


def _iso_day(layout: ReportLayout, iso: str) -> str:
    """An ISO date as the keepers' report writes it (`_day`), from the layout's month names."""
    return f"{iso[8:10]} {layout.months[int(iso[5:7]) - 1]} {int(iso[:4])}"


# --- The pieces -----------------------------------------------------------------------------------------------


def report_layout(plan: GamePlan, *, plain: bool = False) -> ReportLayout:
    """The game's report layout (its `[report]`'s unless `plain` or it has none), made once per plan."""
    return plan.once(f"report layout {plain}", lambda: _layout(plan, plain))


def _layout(plan: GamePlan, plain: bool) -> ReportLayout:
    config = plan.replay.game.config
    report = None if plain else config.report
    powers = _power_ranks(plan)
    ratifications = tuple((r.date.isoformat(), _header_day(r.date) if r.ruleset is None else
                           report.ratification.replace("{date}", _header_day(r.date))
                           .replace("{ruleset}", _header_day(r.ruleset)))
                          for r in report.ratifications) if report else ()
    common = dict(arrangements=_arrangements(config.sections), names=_name_lists(config),
                  powers=tuple(f" with Power={_power(power, as_written=False)}" for power in powers), powerless="No rules have power.",
                  ratifications=ratifications, unratified="none recorded", months=MONTHS)
    if report is not None:
        width = report.width
        dashes, equals = "-" * width, "=" * width
        groups = []
        for title, note, numbers in _parts(plan):
            note_lines = "".join(line + "\n" for line in wrap(note, width, "   ", "   ")) if note else ""
            groups.append(Group(f"{equals}\n{title}\n{note_lines}{dashes}\n", f"{title}\n", numbers,
                                rest=numbers is None))
        return ReportLayout(
            True, report.full.replace("{header}", report.header.strip()),
            report.short.replace("{header}", report.header.strip()),
            ("num", "her", "hr", "hp", "ratification", "date", "asked", "line", "toc", "powers", "ruleset"), "",
            tuple(groups), line=dashes, toc_line="   * Rule ", rule_tail=f"\n{dashes}\n",
            history_head="\nHistory:\n\n", history_tail="", annotations_head="\nAnnotations:\n",
            annotations_tail="", always=True, **common)
    if config.sections:
        groups = [Group(f"{title}\n{'-' * len(title)}\n\n", "", numbers, rest=numbers is None)
                  for title, _, numbers in _parts(plan)]
    else:
        order = {"immutable": "Immutable rules", "mutable": "Mutable rules", "unrecorded": "Rules of no recorded class"}
        groups = [Group(f"{words}\n{'-' * len(words)}\n\n", "", rule_class=rule_class)
                  for rule_class, words in order.items()]
        common["arrangements"] = (("", tuple(range(len(groups)))),)
    template = "{heading}\n{underline}\n\n{counted} in force.\n\n{ruleset}"
    return ReportLayout(
        False, template, template, ("heading", "underline", "counted", "ruleset"),
        config.title or plan.replay.game.slug, tuple(groups), line="", toc_line="", rule_tail="",
        history_head="  History:\n", history_tail="\n", annotations_head="  Annotations:\n",
        annotations_tail="\n", always=False, **common)


def _parts(plan: GamePlan) -> list[tuple[str, str, tuple[int, ...] | None]]:
    """The game's `[[sections]]` (title, note, numbers in the section's order), then those no section names
    (numbers None) under NO_SECTION."""
    return [(section.title, section.note, tuple(section.rules)) for section in plan.replay.game.config.sections] \
        + [(NO_SECTION, "", None)]


def _arrangements(sections: tuple[Section, ...]) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """The sections that held from each day on which some section began or ended to the next (ISO; "" from the
    start), as indices into `_parts`, the rest's (the last) after them; one arrangement where no section held
    for a time only."""
    rest = len(sections)
    return tuple((since, tuple(at for at, section in enumerate(sections) if section.holds_on(day)) + (rest,))
                 for since, day in _changes(sections))


def _name_lists(config: Config) -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
    """`[[report.names]]` as the lists of names that held from each day on which one began or ended to the next
    (ISO; "" from the start): a game's report names each as its record does where it has none. A game without a
    `[report]` takes the names of none."""
    names = config.report.names if config.report else ()
    return tuple((since, tuple((name.record, name.report) for name in names if name.holds_on(day)))
                 for since, day in _changes(names))


def _changes(held: tuple[Held, ...]) -> list[tuple[str, dt.date]]:
    """Each day on which something `held` began or ended, the start first: (ISO, "" for the start; the day)."""
    days = sorted({day for item in held for day in (item.since, item.until) if day is not None})
    return [("", _BEFORE_ALL)] + [(day.isoformat(), day) for day in days]




def _power_ranks(plan: GamePlan) -> dict[Fraction, int]:
    """Each power any version of the game has, by its place in order of power."""
    def make() -> dict[Fraction, int]:
        powers = sorted({version.power for version in plan.replay.versions if version.power is not None})
        return {power: rank for rank, power in enumerate(powers)}
    return plan.once("report powers", make)


def version_piece(plan: GamePlan, layout: ReportLayout, version: RuleVersion) -> VersionPiece:
    """A version as the layout prints it, made once per plan while recently used (a version long in force is in
    many of the site's keyframes)."""
    kept = plan.once("report versions", lambda: Recent(_piece_characters))
    return kept.get((layout.keepers, version.identity, version.start), lambda: _version_piece(plan, layout, version))


def _piece_characters(piece: VersionPiece) -> int:
    return len(piece.block) + len(piece.toc)


def _version_piece(plan: GamePlan, layout: ReportLayout, version: RuleVersion) -> VersionPiece:
    revision = plan.revision(version)
    called = f" ({version.label})" if version.label else ""
    if layout.keepers:
        power = f" (Power={_power(version.power)})" if version.power is not None else ""
        text = "\n".join(TEXT_INDENT + line if line.strip() else max(line, TEXT_INDENT, key=len)
                         for line in rule_lines(version.text))
        block = f"Rule {version.number}/{revision if revision is not None else 0}{power}\n{version.title}\n\n" \
            + text + "\n"
    else:
        facts = [f"power {_power(version.power)}"] if version.power is not None else []
        if revision is not None:
            facts.append(f"revision {revision}")
        head = f"Rule {version.number}{called}" + (f": {version.title}" if version.title else "") \
            + (f" ({', '.join(facts)})" if facts else "")
        block = head + "\n\n" + "".join(line + "\n" for line in _plain_lines(rule_lines(version.text), version.text)) \
            + "\n"
    return VersionPiece(version.identity, version.start, STILL if version.end is None else version.end,
                        version.number, version.rule_class,
                        _power_ranks(plan)[version.power] if version.power is not None else -1,
                        f"{called}: {version.title}", block)


def rule_notes(plan: GamePlan, layout: ReportLayout, identity: int) -> RuleNotes:
    """A rule's history lines and annotations over the whole game, as the layout prints them; made once per plan
    while recently used (the site's notes and its end's report ask for the same)."""
    kept = plan.once("report notes", lambda: Recent(_notes_characters))
    return kept.get((layout.keepers, identity), lambda: _rule_notes(plan, layout, identity))


def _notes_characters(notes: RuleNotes) -> int:
    return sum(len(text) for _, texts in notes.history for _, text in texts) + \
        sum(len(text) for _, _, text in notes.annotations)


def _rule_notes(plan: GamePlan, layout: ReportLayout, identity: int) -> RuleNotes:
    keepers = layout.keepers
    kept = plan.rule_notes.get(identity, ((), ()))[1]
    history = history_lines(plan, identity, keepers=keepers, recorded=keepers and recorded_history(plan))
    annotations = [(span.made, STILL if span.removed is None else span.removed, span.text)
                   for span in annotation_spans(kept, plan.annotations.get(identity, ()))]
    renamers = plan.once(f"renamers {keepers}", lambda: [renaming(pairs) for _, pairs in layout.names])
    if keepers:
        annotations = [(made, removed, _keepers_called(text)) for made, removed, text in annotations]
        width = plan.replay.game.config.report.width
        return RuleNotes(tuple((made, _as_named(renamers, text, lambda text: "".join(
                                   line + "\n" for line in wrap(text, width, "", "   ")))) for made, text in history),
                         tuple((made, removed, "".join(line + "\n" for line in wrap(text, width, "", "    ")))
                               for made, removed, text in annotations))
    return RuleNotes(tuple((made, _as_named(renamers, text, lambda text: f"    {text}\n")) for made, text in history),
                     tuple((made, removed, "".join(line + "\n" for line in wrap(text, PLAIN_WIDTH, "    ", "      ")))
                           for made, removed, text in annotations))


def _as_named(renamers: list[Callable[[str], str]], line: str, lay_out: Callable[[str], str]
              ) -> tuple[tuple[int, str], ...]:
    """A history line laid out under each of the layout's names lists (`renamers`, one for each), as RuleNotes
    gives it: (the first list's index, the text) for each run of lists it reads alike under."""
    runs: list[tuple[int, str]] = []
    last = None
    for at, renamed in enumerate(renamers):
        if (named := renamed(line)) != last:
            runs.append((at, lay_out(named)))
            last = named
    return tuple(runs)


def recorded_history(plan: GamePlan) -> bool:
    """Whether the log gives the record's own history lines for its changes (format 1.4's `History:`)."""
    return plan.once("report recorded", lambda: any(plan.memo.each("recorded history", plan.replay.steps, _recorded)))


def _recorded(step: Step) -> bool:
    entry = step.entry
    return not isinstance(entry, Unrecorded) and any(change.history for change in entry.changes)


def history_lines(plan: GamePlan, identity: int, *, keepers: bool, recorded: bool,
                  dates: Callable[[str], str] | None = None) -> list[tuple[int, str]]:
    """A rule's history lines in the order its keepers list them, each with the entry after which it stands (-1:
    from the start): rules.md's lines, then each revision's (the record's own where `recorded`), a change the log
    holds after later ones where the record's `Place:` puts it. `dates` rewrites a line's date (default: as the
    keepers write it in their layout, else as given); the rule page and the report both read this list."""
    if dates is None:
        dates = _keepers_date if keepers else str
    before = plan.rule_notes.get(identity, ((), ()))[0]
    history = [(-1, dates(line)) for line in before]
    for revision_step in plan.history.revisions_by_rule[identity]:
        step = plan.history.step_of(revision_step)
        if step is not None:
            lines = [(step.index, line) for line in _change_lines(
                plan, revision_step.before, revision_step.after, step.entry, keepers=keepers, recorded=recorded,
                dates=dates)]
            place = next((change.place for change in changes_making(step.entry, revision_step.before,
                                                                    revision_step.after) if change.place is not None),
                         None) if recorded else None
            at = len(history) if place is None else min(place, len(history))
            history[at:at] = lines
    return history


def point_figures(plan: GamePlan, index: int) -> PointFigures:
    """The figures of the point after entry `index`, computed for it alone (the site's `every_point_figures`
    computes them all in one pass; a test holds the two equal)."""
    steps = plan.replay.steps[:index + 1]
    numbers = {version.identity: version.number for version in plan.replay.versions if version.start <= index}
    adopted = [step.entry.number for step in steps if isinstance(step.entry, Proposal) and step.result == "adopted"]
    date = point_date(plan, index)
    return PointFigures(str(max(numbers.values(), default="")), str(max(adopted, default="")),
                        date.isoformat() if date else "", _point_words(plan, index))


def every_point_figures(plan: GamePlan) -> list[PointFigures]:
    """The figures of every point, the start's first, in one pass over the log (as `point_figures` gives each)."""
    steps = plan.replay.steps
    starting: dict[int, list[RuleVersion]] = {}
    for version in plan.replay.versions:
        starting.setdefault(version.start, []).append(version)
    numbers: dict[int, int] = {}  # each rule's last number so far
    held: Counter[int] = Counter()  # how many rules last had each number
    highest: list[int] = []  # a heap of those numbers, negated; one no rule holds now is dropped when on top
    adopted, date, out = None, plan.replay.game.config.start, []
    for index in range(-1, len(steps)):
        if index >= 0:
            entry = steps[index].entry
            date = entry.date or date
            if isinstance(entry, Proposal) and steps[index].result == "adopted":
                adopted = entry.number if adopted is None else max(adopted, entry.number)
        for version in starting.get(index, ()):
            if version.identity in numbers:
                held[numbers[version.identity]] -= 1
            numbers[version.identity] = version.number
            held[version.number] += 1
            heapq.heappush(highest, -version.number)
        while highest and held[-highest[0]] <= 0:
            heapq.heappop(highest)
        out.append(PointFigures(str(-highest[0]) if highest else "", "" if adopted is None else str(adopted),
                                date.isoformat() if date else "", _point_words(plan, index)))
    return out


def _point_words(plan: GamePlan, index: int) -> str:
    return "at the start" if index < 0 else f"after {plan.replay.steps[index].label}"


# --- A rule's history and annotations ---------------------------------------------------------------------


def _change_lines(plan: GamePlan, before: RuleVersion | None, after: RuleVersion | None, entry, *,
                  keepers: bool, recorded: bool, dates: Callable[[str], str] = str) -> list[str]:
    """What one entry did to one rule, a line per kind of change, in the order its paragraphs made them; in the
    keepers' layout, where the record gives its own lines for the entry's changes (format 1.4's `History:`),
    those lines, and nothing for a change the keepers' history does not name."""
    if recorded:
        return [dates(line) for change in changes_making(entry, before, after) for line in change.history]
    if after is None:
        kinds = ["repeal"]
    else:
        kinds = []
        for change in after.changes:
            kind = "amend" if change.kind in ("replace", "append") else change.kind
            if kind != "annotate" and kind not in kinds:
                kinds.append(kind)
        if before is not None and before.number != after.number and "renumber" not in kinds:
            kinds.append("renumber")  # as an amendment renumbers under amend_renumbers (Suber 107)
    cause, date = _cause(entry, keepers=keepers), entry.date
    lines = []
    for kind in kinds:
        words = _effect(kind, before, after, plan, keepers=keepers)
        if cause:
            words += f" by {cause}"
        if date is not None:
            words += f", {_day(date) if keepers else date.isoformat()}"
        lines.append(words)
    return lines


def _effect(kind: str, before: RuleVersion | None, after: RuleVersion | None, plan: GamePlan, *,
            keepers: bool) -> str:
    """A change in the keepers' words (Agora's: `Amended(12)`, `Power changed from 2 to 3`), or in plain ones."""
    revision = plan.revision(after) if after is not None and keepers else None
    counted = f"({revision})" if revision is not None else ""  # the revision it makes, in the keepers' layout
    if kind == "amend":
        return f"Amended{counted}"
    if kind == "reenact":
        amended = before is not None and after is not None and before.text != after.text
        return f"Re-enacted{counted}" + (" and amended" if amended else "")
    if kind == "power":
        was = f" from {_power(before.power)}" if before is not None and before.power is not None else ""
        return f"Power changed{was} to {_power(after.power)}"
    if kind == "transmute":
        return f"Transmuted to {after.rule_class}"
    if kind == "renumber" and not keepers and before is not None:
        return f"Renumbered from {before.number}"
    return {"enact": "Enacted", "repeal": "Repealed", "retitle": "Retitled", "renumber": "Renumbered"}[kind]


def _cause(entry, *, keepers: bool) -> str:
    """Who made a change: a proposal with its title and authors (Agora's `P7889 'Agora Protection Act' (Aris)`),
    or what an event's `By:` names (`R2430` for `rule 2430` in Agora's words)."""
    if isinstance(entry, Proposal):
        authors = ", ".join(name for name in (entry.proposer, *entry.coauthors) if name)
        name = f"P{entry.number}" if keepers else f"proposal {entry.name}"  # the FLR's P8241 for 8241A too
        return name + (f" '{entry.title}'" if entry.title else "") + (f" ({authors})" if authors else "")
    if isinstance(entry, Judgment):
        return entry.case or f"judgment {entry.number}"
    by = entry.by
    if keepers:
        if m := re.fullmatch(r"rule (\d+)", by):
            return f"R{m.group(1)}"
        if m := re.fullmatch(r"ratification of (.+)", by):
            return f"{m.group(1)} ratification"
        if m := re.fullmatch(r"proposal (\d+[A-Z]?)(.*)", by):
            return f"P{m.group(1)}{m.group(2)}"
    return by


def _power(power: Fraction | None, *, as_written: bool = True) -> str:
    """A power as the FLR writes it: as its record wrote it (`2.0`, a WrittenDecimal) unless not `as_written`, else
    without trailing zeros (`3`, `3.1`, `0.5`, as its distribution counts them)."""
    if as_written and isinstance(power, WrittenDecimal):
        return power.written
    text = decimal_text(power) if power is not None else ""
    return text.rstrip("0").rstrip(".") if "." in text else text


def _day(date: dt.date) -> str:
    """A date as the FLR writes it: `05 Jul 2026`."""
    return f"{date.day:02d} {MONTHS[date.month - 1]} {date.year}"


def _header_day(date: dt.date) -> str:
    """A date as the keepers' header writes one by hand (a ratification's, the ruleset's own): `3 May 2025`."""
    return f"{date.day} {MONTHS[date.month - 1]} {date.year}"


def _keepers_date(line: str) -> str:
    """A `History:` line as rules.md keeps it (ISO dates) with its closing date as the FLR writes it; a date that
    is no day (the record's `2023-05-32`) as written."""
    return _LINE_DATE.sub(lambda m: m.group(1) + _iso_as_day(m.group(2))
                          + (f" and {_iso_as_day(m.group(4))}" if m.group(4) else ""), line)


def _iso_as_day(text: str) -> str:
    try:
        return _day(dt.date.fromisoformat(text))
    except ValueError:
        return text


def _keepers_called(annotation: str) -> str:
    """An annotation with the dates of the `(called ...)` of its cases (`CFJ 1 (called 1999-01-02), CFJ 2 (called
    ...): finding`) as the FLR writes them; its finding as it is."""
    cases = _CASES.match(annotation)
    end = cases.end() if cases else 0
    return _CALLED.sub(lambda m: f"(called {_keepers_dates(m.group(1))})", annotation[:end]) + annotation[end:]


def _keepers_dates(text: str) -> str:
    """The dates of an annotation's `(called ...)`, ISO or in words (`7 November 1995`), as the FLR writes them."""
    def words(m: re.Match) -> str:
        month = _MONTH_NAMES.get(m.group(2).lower())
        try:
            return _day(dt.date(int(m.group(3)), month, int(m.group(1)))) if month else m.group(0)
        except ValueError:
            return m.group(0)

    return _WORD_DATE.sub(words, re.sub(_ISO, lambda m: _iso_as_day(m.group(0)), text))


# --- Layouts --------------------------------------------------------------------------------------------------


def rule_lines(text: str) -> list[str]:
    """A rule's text as plain lines: what its one fenced block holds (as Agora's rules are kept), else its
    Markdown as written; without the blank lines at its end."""
    lines = text.split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    opening = re.fullmatch(r"(`{3,}|~{3,})[\w-]*", lines[0]) if lines else None
    if opening and len(lines) >= 2 and re.fullmatch(re.escape(opening.group(1)) + "+", lines[-1].strip()) \
            and not any(line.startswith(opening.group(1)) for line in lines[1:-1]):
        lines = lines[1:-1]
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


def wrap(text: str, width: int, first: str = "", following: str = "") -> list[str]:
    """Words to lines of at most `width` characters (a longer word alone), as the Rulekeepor's generator wraps:
    the text's lines joined by one space, then split at each space (so two spaces keep an empty word), each line
    taking words while the next fits. A line so filled is the longest run of the text that fits and ends before a
    space or at the end (or its first word, where none fits): found by a regular expression, not word by word."""
    joined = " ".join(line.strip() for line in text.split("\n"))
    lines: list[str] = []
    start, prefix = 0, first
    while True:
        word_end = joined.find(" ", start)
        fits = _fitting(max(width - len(prefix), 0)).match(joined, start)
        end = max(fits.end() if fits else start, len(joined) if word_end < 0 else word_end)
        lines.append(prefix + joined[start:end])
        if end >= len(joined):
            return lines
        start, prefix = end + 1, following


@lru_cache(maxsize=None)
def _fitting(characters: int) -> re.Pattern[str]:
    return re.compile(f".{{0,{characters}}}(?= |\\Z)")


_BLOCK_LINE = re.compile(r"\s|[-*+>#|]|\d+[.)]\s")  # a line Markdown reads as more than prose: kept as its own


def _plain_lines(lines: list[str], text: str) -> list[str]:
    """A rule's text indented by four spaces, each paragraph of prose wrapped at PLAIN_WIDTH (Markdown's soft line
    breaks are no breaks); lists, quotes, tables and indented lines keep their lines, the long ones wrapped under
    their own indent; a text kept character for character (a fenced block) as it is."""
    if text.lstrip().startswith(("```", "~~~")):
        return ["    " + line if line.strip() else "" for line in lines]
    out: list[str] = []
    paragraph: list[str] = []

    def flush() -> None:
        if paragraph:
            out.extend(wrap(" ".join(paragraph), PLAIN_WIDTH, "    ", "    "))
            paragraph.clear()

    for line in lines:
        if not line.strip():
            flush()
            out.append("")
        elif _BLOCK_LINE.match(line):
            flush()
            indent = "    " + line[:len(line) - len(line.lstrip())]
            out.extend(wrap(line.strip(), PLAIN_WIDTH, indent, indent + "  "))
        else:
            paragraph.append(line.strip())
    flush()
    return out
