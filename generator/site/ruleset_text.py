"""The rules in force at a point of a game as a plain-text report, the one its players read: the game's own layout
where game.toml's `[report]` gives it (Agora's Full and Short Logical Rulesets, as the Rulekeepor's generator
writes them), else a plain one. `full` adds each rule's history and annotations; `short` is the texts.

Pure: a plan and an entry's index in, text out. The command `ruleset` prints it; the site writes the same text
beside "Rules as of".
"""
from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

from ..engine.adoption import decimal_text
from ..engine.replay import annotation_spans
from ..engine.rulebook import RuleVersion
from ..model import Change, Judgment, Proposal, Unrecorded
from ..model.config import Report
from .views import GamePlan

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
_WORD_DATE = re.compile(r"(\d{1,2}) ([A-Za-z]+) (\d{4})")


@dataclass(frozen=True)
class RuleReport:
    """One rule as a report shows it: its version then, revision, and (in a full report) its history and
    annotations, in the record's words."""

    version: RuleVersion
    revision: int | None
    history: tuple[str, ...]
    annotations: tuple[str, ...]


def ruleset_text(plan: GamePlan, index: int, *, full: bool, plain: bool = False, date: dt.date | None = None) -> str:
    """The rules in force just after entry `index` (-1: the initial set) as text: in the game's `[report]`
    layout unless `plain` or the game has none. `date`: the day asked for, where the point was named by one (else
    the last dated entry's, `point_date`)."""
    date = date or point_date(plan, index)
    report = plan.replay.game.config.report
    keepers = report is not None and not plain
    recorded = keepers and any(change.history for entry in plan.replay.game.log.entries
                               if not isinstance(entry, Unrecorded) for change in entry.changes)
    rules = [_rule_report(plan, version, index, full=full, keepers=keepers, recorded=recorded)
             for version in plan.history.rules_at(index)]
    if keepers:
        return _keepers_text(plan, report, rules, index, date, full=full)
    return _plain_text(plan, rules, index, date, full=full)


def point_date(plan: GamePlan, index: int) -> dt.date | None:
    """The date of the rules after entry `index`: that of the last dated entry up to it (the game's start before
    any)."""
    for step in reversed(plan.replay.steps[:index + 1]):
        if step.entry.date is not None:
            return step.entry.date
    return plan.replay.game.config.start


# --- A rule's history and annotations ---------------------------------------------------------------------


def _rule_report(plan: GamePlan, version: RuleVersion, index: int, *, full: bool, keepers: bool,
                 recorded: bool) -> RuleReport:
    revision = plan.revision(version)
    if not full:
        return RuleReport(version, revision, (), ())
    identity = version.identity
    before, kept = plan.rule_notes.get(identity, ((), ()))
    history = [_keepers_date(line) if keepers else line for line in before]
    for revision_step in plan.history.revisions_by_rule[identity]:
        step = plan.history.step_of(revision_step)
        if step is None or step.index > index:
            continue
        history += _change_lines(plan, revision_step.before, revision_step.after, step.entry, keepers=keepers,
                                 recorded=recorded)
    annotations = [span.text for span in annotation_spans(kept, plan.annotations.get(identity, ()))
                   if span.made <= index and (span.removed is None or span.removed > index)]
    if keepers:
        annotations = [_CALLED.sub(lambda m: f"(called {_keepers_dates(m.group(1))})", text, count=1)
                       for text in annotations]
    return RuleReport(version, revision, tuple(history), tuple(annotations))


def _change_lines(plan: GamePlan, before: RuleVersion | None, after: RuleVersion | None, entry, *,
                  keepers: bool, recorded: bool) -> list[str]:
    """What one entry did to one rule, a line per kind of change, in the order its paragraphs made them; in the
    keepers' layout, where the record gives its own lines for the entry's changes (format 1.4's `History:`),
    those lines, and nothing for a change the keepers' history does not name."""
    if recorded:
        return [_keepers_date(line) for change in _changes_to(entry, before, after) for line in change.history]
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


def _changes_to(entry, before: RuleVersion | None, after: RuleVersion | None) -> tuple[Change, ...]:
    """The entry's changes that made `after` (or, for a repeal, that repealed `before`)."""
    if after is not None:
        return after.changes
    return tuple(change for change in entry.changes
                 if change.kind == "repeal" and before is not None and change.rule == before.number)


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


def _power(power: Fraction | None) -> str:
    """A power as the FLR's history and distribution write it: `3`, `3.1`, `0.5`."""
    text = decimal_text(power) if power is not None else ""
    return text.rstrip("0").rstrip(".") if "." in text else text


def _day(date: dt.date) -> str:
    """A date as the FLR writes it: `05 Jul 2026`."""
    return f"{date.day:02d} {MONTHS[date.month - 1]} {date.year}"


def _keepers_date(line: str) -> str:
    """A `History:` line as rules.md keeps it (ISO dates) with its closing date as the FLR writes it."""
    return _LINE_DATE.sub(lambda m: m.group(1) + _day(dt.date.fromisoformat(m.group(2)))
                          + (f" and {_day(dt.date.fromisoformat(m.group(4)))}" if m.group(4) else ""), line)


def _keepers_dates(text: str) -> str:
    """The dates of an annotation's `(called ...)`, ISO or in words (`7 November 1995`), as the FLR writes them."""
    def iso(m: re.Match) -> str:
        try:
            return _day(dt.date.fromisoformat(m.group(0)))
        except ValueError:
            return m.group(0)

    def words(m: re.Match) -> str:
        month = _MONTH_NAMES.get(m.group(2).lower())
        try:
            return _day(dt.date(int(m.group(3)), month, int(m.group(1)))) if month else m.group(0)
        except ValueError:
            return m.group(0)

    return _WORD_DATE.sub(words, re.sub(_ISO, iso, text))


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
    the text's lines joined by one space, then split at each space (so two spaces keep an empty word)."""
    words = " ".join(line.strip() for line in text.split("\n")).split(" ")
    lines: list[str] = []
    for word in words:
        if not lines:
            lines.append(first + word)
        elif len(lines[-1]) + len(word) + 1 > width:
            lines.append(following + word)
        else:
            lines[-1] += " " + word
    return lines


def _sections(plan: GamePlan, rules: list[RuleReport]) -> list[tuple[str, str, list[RuleReport]]]:
    """The rules by the game's `[[sections]]` (title, note, rules in the section's order); those no section names
    last, by number, under NO_SECTION."""
    by_number = {rule.version.number: rule for rule in rules}
    sections, placed = [], set()
    for section in plan.replay.game.config.sections:
        held = [by_number[n] for n in section.rules if n in by_number]
        placed.update(section.rules)
        if held:
            sections.append((section.title, section.note, held))
    rest = [rule for rule in rules if rule.version.number not in placed]
    if rest:
        sections.append((NO_SECTION, "", rest))
    return sections


def _keepers_text(plan: GamePlan, report: Report, rules: list[RuleReport], index: int, date: dt.date | None, *,
                  full: bool) -> str:
    """Agora's layout, as the Rulekeepor's generator writes it (its report/Readable.kt), into the game's template."""
    width = report.width
    sections = _sections(plan, rules)
    dashes, equals = "-" * width, "=" * width
    body = []
    for title, note, held in sections:
        note_lines = "".join(line + "\n" for line in wrap(note, width, "   ", "   ")) if note else ""
        body.append(f"{equals}\n{title}\n{note_lines}{dashes}\n")
        body += [_keepers_rule(rule, width, full=full) + f"\n{dashes}\n" for rule in held]
    number_width = max((len(str(rule.version.number)) for rule in rules), default=0)
    toc = "".join(f"{title}\n" + "\n".join(f"   * Rule {str(rule.version.number).rjust(number_width)}: "
                                           f"{rule.version.title}" for rule in held) + "\n"
                  for title, _, held in sections)
    template = report.full if full else report.short
    text = template.replace("{header}", report.header.strip())
    figures = _figures(plan, rules, index, date)
    for name, value in (*figures.items(), ("line", dashes), ("toc", toc), ("powers", _powers(rules))):
        text = text.replace("{" + name + "}", value)
    return text.replace("{ruleset}", "".join(body))


def _keepers_rule(rule: RuleReport, width: int, *, full: bool) -> str:
    version = rule.version
    power = f" (Power={_power(version.power)})" if version.power is not None else ""
    text = "\n".join(TEXT_INDENT + line if line.strip() else max(line, TEXT_INDENT, key=len)
                     for line in rule_lines(version.text))
    head = f"Rule {version.number}/{rule.revision if rule.revision is not None else 0}{power}\n{version.title}\n\n"
    out = head + text + "\n"
    if full:
        history = [line for entry in rule.history for line in wrap(entry, width, "", "   ")]
        annotations = [line for entry in rule.annotations for line in wrap(entry, width, "", "    ")]
        out += "\nHistory:\n\n" + "".join(line + "\n" for line in history)
        out += "\nAnnotations:\n" + "".join(line + "\n" for line in annotations)
    return out


def _powers(rules: list[RuleReport]) -> str:
    """How many rules have each power, as the FLR's Power Distribution lists them."""
    counts = Counter(rule.version.power for rule in rules if rule.version.power is not None)
    if not counts:
        return "No rules have power."
    count_width = max(len(str(count)) for count in counts.values())
    return "\n".join(f"{str(count).ljust(count_width)} with Power={_power(power)}"
                     for power, count in sorted(counts.items()))


def _figures(plan: GamePlan, rules: list[RuleReport], index: int, date: dt.date | None) -> dict[str, str]:
    """The header's figures at the point: rules in force (`num`), the highest of them (`her`), the highest rule
    number any rule had had, its last then (`hr`: a number a rule left by renumbering does not count), the highest adopted proposal (`hp`), the last ratification and the date."""
    report = plan.replay.game.config.report
    steps = plan.replay.steps[:index + 1]
    numbers = {version.identity: version.number for version in plan.replay.versions if version.start <= index}
    adopted = [step.entry.number for step in steps if isinstance(step.entry, Proposal) and step.result == "adopted"]
    ratified = [r for r in report.ratifications if date is not None and r.date <= date]
    last = max(ratified, key=lambda r: r.date, default=None)
    ratification = "none recorded" if last is None else _day(last.date) if last.ruleset is None else \
        report.ratification.replace("{date}", _day(last.date)).replace("{ruleset}", _day(last.ruleset))
    return {"num": str(len(rules)), "her": str(max((r.version.number for r in rules), default="")),
            "hr": str(max(numbers.values(), default="")), "hp": str(max(adopted, default="")),
            "ratification": ratification, "date": _day(date) if date else ""}


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


def _plain_text(plan: GamePlan, rules: list[RuleReport], index: int, date: dt.date | None, *, full: bool) -> str:
    """The plain layout: a heading saying the point, then each rule by section (else by class), its text
    indented, and in a full report its history and annotations."""
    game = plan.replay.game
    point = "at the start" if index < 0 else f"after {plan.replay.steps[index].label}"
    heading = f"{game.config.title or game.slug}: the rules {point}" + (f" ({date.isoformat()})" if date else "")
    out = [heading, "=" * len(heading), "", f"{len(rules)} rule{'' if len(rules) == 1 else 's'} in force.", ""]
    if game.config.sections:
        groups = [(title, held) for title, _, held in _sections(plan, rules)]
    else:
        order = {"immutable": "Immutable rules", "mutable": "Mutable rules", "unrecorded": "Rules of no recorded class"}
        groups = [(words, [r for r in rules if r.version.rule_class == rule_class]) for rule_class, words in order.items()]
    for title, held in groups:
        if not held:
            continue
        out += [title, "-" * len(title), ""]
        for rule in held:
            version = rule.version
            facts = [f"power {_power(version.power)}"] if version.power is not None else []
            if rule.revision is not None:
                facts.append(f"revision {rule.revision}")
            out.append(f"Rule {version.number}" + (f": {version.title}" if version.title else "")
                       + (f" ({', '.join(facts)})" if facts else ""))
            out.append("")
            out += _plain_lines(rule_lines(version.text), version.text)
            out.append("")
            if full and rule.history:
                out += ["  History:"] + [f"    {line}" for line in rule.history] + [""]
            if full and rule.annotations:
                out += ["  Annotations:"] + [wrapped for text in rule.annotations
                                             for wrapped in wrap(text, PLAIN_WIDTH, "    ", "      ")] + [""]
    return "\n".join(out).rstrip("\n") + "\n"
