"""A game's rules as its keepers kept them (issue 50): one rules file, a folder of files (one per rule, or several
rules each, with or without YAML front matter), or a JSON export of the rules, read into rules (number, title,
class or none, text, history, annotations, source line) and what was left out or guessed, each said with its
file and line.

The file's own structure says what a rule is. Each line that may start a rule is written in a style (a heading
of some level, a bold number, a bold list item, a plain `101.` or `101`; `text.py`): the file's rules are the
lines of its commonest style, headings and bold numbers before plain numbers (which numbered lists inside rules
look like), in any order. Where a file numbers no rules but is an outline of headings, each section is a rule,
numbered by its place. What sits in a rule's section and is not its text (a History heading and its lines, notes,
a copyright, a per-rule file's `# Rule` heading) becomes its history, its annotations or nothing. A rule's class
is what its heading, its section or its front matter say, else what the file's own convention shows (only one
class marked), else Suber's numbering where a rule of the game says it applies, else not recorded.
"""
from __future__ import annotations

import dataclasses
import datetime
import json
import posixpath
import re
from collections import Counter

from ..limits import MAX_LINE_CHARS, MAX_RULE_CHARS
from ..parse.source import FENCE, closes_fence
from .archive import number_ranges, runs
from .mdtext import HTML_TAG, html_markdown, rule_markdown
from .record import plain_words
from .text import (ALONE, BELOW_ZERO_END, BOLD, BOLD_ITEM, HEADING_STYLES, IMMUTABLE, INLINE, ITEM, MARKUP_STYLES,
                   MAX_QUOTED_LINE, MUTABLE, ImportedRule, ImportedRuleset, Kind, Layout, Line, NoRulesFound, Note,
                   Rule, RulesetImportError, YamlBeyondBounds, check_rules, classify, clean_line, collect_plain_rules,
                   find_line, heading_class_and_title, heading_text, load_yaml, region_begin, region_end,
                   render_blocks, rule_heading, rule_label, rule_title, short_title, split_title_sentences, text_blocks,
                   title_line, title_words, wrapped_line, yaml_problem)
from .wikitext import is_wikitext, wikitext_markdown

MARKDOWN_EXTENSIONS = (".md", ".markdown", ".mdown", ".mkd")
PLAIN_EXTENSIONS = (".txt", ".text", ".rst")
_TEXT_FILE = re.compile(r"[^./]+|.*\.(?:md|markdown|mdown|mkd|txt|text|rst|wiki|wikitext|mediawiki)",
                        re.IGNORECASE)  # no extension, or text
# A rule file's status that says it is not in force. Any other is read as in force; one that does not say so
# ("Draft": a game's adopted rule may keep its draft's status) is named among the guesses.
_STATUS_NOT_IN_FORCE = {"repealed", "rejected", "failed", "withdrawn", "defeated", "superseded", "obsolete", "deleted",
                        "expired", "inactive", "retired"}
_STATUS_IN_FORCE = {"", "accepted", "adopted", "active", "enacted", "in force", "in effect", "passed", "current"}
# What a heading inside a rule's section names when it is not the rule's text (its words, in lower case, without
# emphasis or a colon).
_FURNITURE = {**dict.fromkeys(("history", "rule history", "change history", "revision history", "changes"), "history"),
              **dict.fromkeys(("annotation", "annotations", "note", "notes", "comment", "comments", "commentary",
                               "original language", "original text", "explanation", "rationale", "references",
                               "judgment", "judgments", "judgement", "judgements", "ruling", "rulings"),
                              "annotation"),
              **dict.fromkeys(("copyright", "license", "licence", "copyright and license"), "dropped"),
              **dict.fromkeys(("rule", "text", "rule text", "the rule"), "text")}
_HISTORY_KEY = re.compile(r"History:\s*(\S.*)", re.IGNORECASE)  # rules.md's own `History:` line
# A line of references to what made the rule: `[[1](https://github.com/o/r/pull/1)] [[6](...)]`.
_REFERENCES = re.compile(r"(?:\[\[[^\[\]]*\]\([^()\s]*\)\]\s*)+")
_REFERENCE = re.compile(r"\[\[([^\[\]]*)\]\(([^()\s]*)\)\]")
# A note of the rule's earlier numbers: `*Previous numbers: 211, 305*`, `*Previous identifiers: 205, 306*`.
_PREVIOUS = re.compile(r"([*_]?)previous\s+(?:numbers?|identifiers?|ids?)\s*:.*\1", re.IGNORECASE)
# All a stub heading holds: a note that the rule is gone (`*Amended, to become rule 322.*`, `*Repealed.*`).
# A rule known by four capital letters (`##PRIV - Private Data`, `##VPRD - Immutable - Voting period`), or by
# fewer and a number (`## UC1 - Title`: a game's constants beside its numbered rules).
# A line that reads as a History line, its History heading missing: the change in emphasis, or a link around it.
_HISTORY_LIKE = re.compile(r"\[?[*_]{1,2}(?:initial|enacted|amended|created|repealed|re-?enacted|retitled|"
                           r"transmuted|renumbered|proposed\s+by)\b[^\n]*", re.IGNORECASE)
_IDENTIFIER = re.compile(r"([A-Z]{4}|[A-Z]{1,3}[0-9]{1,2})(?:\s*[-\u2013\u2014:.]\s*(.*)|\s*)")
_GONE = re.compile(r"[*_]*\s*(?:amended|repealed|renumbered|replaced|merged|superseded|moved)\b.*", re.IGNORECASE)
_LIST_MARK = re.compile(r"(?:[-*+]|[0-9]{1,9}[.)])\s+")
_SUBER_CLASSES = re.compile(r"rules\s+in\s+the\s+100\W?s\s+are\s+immutable\s+and\s+rules\s+in\s+the\s+200\W?s\s+are"
                            r"\s+mutable", re.IGNORECASE)
# An item of a list as a forum post writes one, its marker perhaps against its words (`*Rules are...`; not `**`)
_BULLET = re.compile(r"(?:[-+\u2022]|\*(?!\*))[ \t]*(\S.*)")
_TOC_ITEM = re.compile(r"\s*(?:[-*+]|[0-9]+[.)])\s+\[.*\]\(#[^)]*\)\s*")
_JSON_NUMBER_KEYS = ("id", "number", "rule", "n", "num")
_JSON_TITLE_KEYS = ("title", "summary", "name", "heading")
_JSON_TEXT_KEYS = ("content", "text", "body")
_JSON_CLASS_KEYS = ("class", "type", "mutability", "kind")


def read_ruleset(text: str, *, file: str | None = None, start: str | None = None, stop: str | None = None,
                 markdown: bool | None = None, link_base: str | None = None, twins: bool = False) -> ImportedRuleset:
    """The rules in `text`, one rules file, in the file's order. `file` is its name (its path in a repository, for
    links; its extension says whether it is Markdown, else its rule headings do: `markdown` says so outright);
    `start`/`stop` the text of the lines where the rules begin and end (that line excluded); `link_base` the web
    address relative links resolve against (mdtext.absolute_link). A `.json` file, or text that is JSON, is read
    by `read_rules_json`. Raises RulesetImportError when the file holds no rule, or one it cannot hold: two rules
    of one number, unless `twins` (a history's reader, which knows which of the two is new) takes both."""
    if _is_json(file, text):
        return read_rules_json(text, file=file)
    try:  # (a page's front matter, Jekyll's `title: Rules` between `---` lines: no rule, no heading over them)
        front = front_matter(file or "", text)
    except RulesetImportError:
        front = None  # (not YAML: a rule between two separators, say)
    reading = _Reading(link_base)
    if is_wikitext(file, text):
        text, said = wikitext_markdown(text, link_base)
        markdown = True
        reading.say_once(Note(file, 0, "read as a wiki page's wikitext (MediaWiki's): its headings, lists, bold and "
                                       "italics, links and tables written as Markdown"))
        for line, message, left_out in said:
            (reading.left_out.append if left_out else reading.say_once)(Note(file, line, message))
    reading.read_file(file, text, start=start, stop=stop, markdown=markdown, first_line=front[1] if front else 0)
    return reading.result(file, twins)


def read_rule_files(files: list[tuple[str, str | None]], *, link_base: str | None = None) -> ImportedRuleset:
    """The rules of a folder: `files` is (path, text) in the order to report them, text None for a file not read
    (a picture, a file that is not text). A file with YAML front matter
    naming a number (`rule`, `number`, `id`) is that rule, its class from `type` or `class` and its title from
    `title`; a `status` that says it is not in force (repealed, rejected) keeps it out. A file without front
    matter holds the rules its headings number (`## 203/1`), or is the rule its name numbers (`rule203.md`). Its
    text is its body, without its furniture (a `# Rule` heading, a `# Copyright` section, a History section).
    A file that is no rule (a README, a template, a picture) is named in `left_out` with why. Raises
    RulesetImportError (naming the file) for unreadable front matter or a number used twice."""
    reading = _Reading(link_base)
    for name, text in files:
        reading.read_rule_file(name, text)
    if not reading.rules:
        raise NoRulesFound(said="no rules found in the folder's files (each a rule with YAML front matter between "
                                "'---' lines, e.g. 'rule: 101', 'type: Immutable', 'status: Accepted'; or named by "
                                "a number, 'rule101.md'; or holding numbered rule headings)", hint="")
    return reading.result(None)


def merged(parts: list[ImportedRuleset]) -> ImportedRuleset:
    """Several files or folders read as one ruleset (`import text A B`, several `--rules` paths): their rules in
    the order given; a number in two of them is an error naming both."""
    seen: dict[int, ImportedRule] = {}
    for part in parts:
        for rule in part.rules:
            if (first := seen.setdefault(rule.number, rule)) is not rule:
                raise RulesetImportError(f"rule {rule.number} is also in {first.file or 'the file before'} (line "
                                         f"{first.line})", rule.line, rule.file)
    return ImportedRuleset([rule for part in parts for rule in part.rules],
                           [note for part in parts for note in part.left_out],
                           [note for part in parts for note in part.rewritten],
                           [note for part in parts for note in part.guessed])


UNRECORDED = "Rules"  # rules.md's section of rules of no recorded class (format 1.3)


def render_ruleset(title: str, rules: list[ImportedRule]) -> str:
    """rules.md of `rules`, in their order: a level-2 heading for each run of one class (`## Rules` for rules of
    no recorded class), and a level-1 heading for each run of one topic; each rule with its revision, its
    history (`History:` lines) and its annotations."""
    out = [f"# {heading_text(clean_line(title))}"]
    topic: object = None
    rule_class: object = ()  # none yet
    labelled: set[str] = set()  # (a label names one rule: a record's slip that gives two one is kept on the first)
    for rule in rules:
        if rule.topic != topic:
            topic, rule_class = rule.topic, ()
            if topic:
                out.append(f"\n# {heading_text(clean_line(topic))}")
        if rule.rule_class != rule_class:
            rule_class = rule.rule_class
            out.append(f"\n## {rule.rule_class or UNRECORDED}")
        label = rule_label(rule.label) if rule.label else ""
        keys = ([f"Label: {label}"] if label and label not in labelled else []) \
            + ([f"Revision: {rule.revision}"] if rule.revision is not None else []) \
            + [f"History: {_history_words(said)}" for _, said in rule.history]
        labelled.add(label)
        out.append(f"\n### {heading_text(rule_heading(rule.number, rule.title))}" + "".join(f"\n{key}" for key in keys))
        if rule.text:
            out.append(("\n" if keys else "") + rule.text)
        for annotation in rule.annotations:
            out.append("\nAnnotation:\n\n" + "\n".join(f"> {line}" if line else ">" for line in annotation.split("\n")))
    return "\n".join(out) + "\n"


def _history_words(said: str) -> str:
    """A history line as a `History:` line shows it (plain words): a line of references as its labels and their
    addresses ("References: 1 (https://github.com/o/r/pull/1)"), any other as record.plain_words reads it."""
    if _REFERENCES.fullmatch(said):
        return "References: " + ", ".join(f"{label} ({address})" for label, address in _REFERENCE.findall(said))
    return plain_words(said)


def is_rules_text_name(name: str) -> bool:
    """Whether a folder's file may hold rules, by its name: text (Markdown, plain, reStructuredText, or no
    extension), not hidden. Any other (a picture, a script, JSON) is left out of a folder of rules unread."""
    base = posixpath.basename(name.replace("\\", "/"))
    return bool(_TEXT_FILE.fullmatch(base)) and not base.startswith(".")


def opens_with_front_matter(text: str) -> bool:
    """Whether a file opens as one with YAML front matter does (`---` alone on its first line): a folder's file so
    opened is text whatever its name says (a Jekyll collection's `_rules/0013.rule`)."""
    return text.lstrip("\ufeff").split("\n", 1)[0].rstrip("\r") == "---"


def _is_json(file: str | None, text: str) -> bool:
    """A file named .json, or unnamed text that is JSON."""
    if file is not None or text.lstrip()[:1] not in ("[", "{"):
        return (file or "").lower().endswith(".json")
    try:
        json.loads(text)
    except json.JSONDecodeError:
        return False
    return True


class _Reading:
    """One ruleset being read, from one file or many: the rules so far, and what a keeper should hear of."""

    def __init__(self, link_base: str | None):
        self.link_base = link_base
        self.rules: list[Rule] = []
        self.left_out: list[Note] = []
        self.rewritten: list[Note] = []
        self.guessed: list[Note] = []
        self._said: set[Note] = set()

    def say_once(self, note: Note) -> None:
        """Add a rewriting to those said, unless it was said already."""
        if note not in self._said:
            self._said.add(note)
            self.rewritten.append(note)

    # --- one rules file --------------------------------------------------------------------------------------

    def read_file(self, file: str | None, text: str, *, start: str | None = None, stop: str | None = None,
                  markdown: bool | None = None, first_line: int = 0, single: int | None = None) -> list[Rule]:
        """The rules of one file (its lines after `first_line`, the body after front matter); with `single`, the
        number its front matter or name gives, the whole body is that one rule (its heading, if it has one,
        giving its title and class)."""
        raw_lines, hard_breaks = _source_lines(text)
        lines = classify(raw_lines)
        for line in lines[:first_line]:
            line.kind, line.heading = Kind.BLANK, False
        begin = find_line(lines, start, first_line, "start") if start is not None else first_line
        end = find_line(lines, stop, begin, "stop") if stop is not None else len(lines)
        style = _dominant_style(lines[begin:end])
        if markdown is None:
            markdown = _is_markdown(file, style)
        shape = _Shape(file, raw_lines, hard_breaks, markdown, self)
        if single is not None:
            rules = shape.single(lines[begin:end], single)
        elif style in MARKUP_STYLES:
            rules = shape.markup(lines, begin, end, style, start, stop)
        elif markdown and not _classes_alone(lines[begin:end]) and \
                (outline := shape.outline(lines[begin:end], style)) is not None:
            rules = outline
        elif style is not None:
            rules = shape.plain(lines, start, stop, style)
        elif (listed := shape.listed(lines[begin:end])) is not None:
            rules = listed
        else:
            raise NoRulesFound(file)
        self.rules += rules
        return rules

    # --- a folder -------------------------------------------------------------------------------------------

    def read_rule_file(self, name: str, text: str | None) -> None:
        base = posixpath.basename(name.replace("\\", "/"))
        if base.startswith("."):
            return  # (hidden: a tool's, never a rule)
        if text is None or not is_rules_text_name(base) and not opens_with_front_matter(text):
            self.left_out.append(Note(name, 0, "not a text file of rules"))
            return
        front = front_matter(name, text)
        keys, first_line, key_lines = front if front else ({}, 0, {})
        if keys:
            status = str(keys.get("status") or "").strip().lower()
            number = _front_matter_number(keys)
            if number is None and any(key in keys for key in ("rule", "number", "id")):
                key = next(key for key in ("rule", "number", "id") if key in keys)
                self.left_out.append(Note(name, key_lines.get(key, 2), f"its front matter's rule number "
                                                                       f"'{_shown(str(keys[key]))}' is not a number "
                                                                       "(a template?)"))
                return
            named = f"rule {number}" if number is not None else "it"
            if status in _STATUS_NOT_IN_FORCE:
                self.left_out.append(Note(name, key_lines.get("status", 0), f"{named} has status '{keys['status']}', "
                                                                             "not in force"))
                return
            if status not in _STATUS_IN_FORCE:
                self.guessed.append(Note(name, key_lines.get("status", 0), f"{named} has status '{keys['status']}': "
                                                                            "read as in force, as a file among the "
                                                                            "rules"))
        else:
            number = None
        if number is None and _holds_numbered_rules(text, first_line):
            self._folder_class(name, self.read_file(name, text, first_line=first_line))  # several rules, in headings
            return
        number = number if number is not None else _name_number(base)
        if number is None:
            self.left_out.append(Note(name, 0, "names no rule: no front matter giving a number, no number in its "
                                               "name, no numbered rule heading in it"))
            return
        rules = self.read_file(name, text, first_line=first_line, single=number)
        for rule in rules:
            rule.front_matter = keys
            kind = str(keys.get("type") or keys.get("class") or keys.get("mutability") or "").strip().lower()
            if kind in ("immutable", "mutable"):
                rule.rule_class, rule.class_from = (IMMUTABLE if kind == "immutable" else MUTABLE), "front matter"
            title = str(keys.get("title") or keys.get("name") or "").strip()  # (`name:`, a Jekyll site's)
            if title and title != str(rule.number) and not rule.title:  # (`title: 1`, rule 1's: no title)
                rule.title = title
        self._folder_class(name, rules)

    @staticmethod
    def _folder_class(name: str, rules: list[Rule]) -> None:
        """The class a folder's name gives the rules in it that give none themselves (`immutable_rules/`,
        `mutable_rules/`: games that keep each class in a folder of its own)."""
        words = re.findall(r"[a-z]+", posixpath.basename(posixpath.dirname(name.replace("\\", "/"))).lower())
        rule_class = IMMUTABLE if "immutable" in words else MUTABLE if "mutable" in words else None
        for rule in rules:
            if rule_class and rule.rule_class is None:
                rule.rule_class, rule.class_from = rule_class, "folder"

    # --- the ruleset ----------------------------------------------------------------------------------------

    def result(self, file: str | None, twins: bool = False) -> ImportedRuleset:
        if not self.rules:
            raise NoRulesFound(file)
        first: dict[int, Rule] = {}
        twinned: set[int] = set()
        for rule in self.rules:
            if (earlier := first.setdefault(rule.number, rule)) is rule:
                continue
            if not twins or rule.number in twinned:  # (a third of one number is never taken)
                where = f"{earlier.file}, line {earlier.line}" if earlier.file != rule.file else f"line {earlier.line}"
                raise RulesetImportError(f"rule {rule.number} appears twice (first at {where})", rule.line, rule.file)
            twinned.add(rule.number)
        self._classes()
        return ImportedRuleset([self._imported(rule) for rule in self.rules], self.left_out, self.rewritten,
                               self.guessed)

    def _classes(self) -> None:
        """The class of each rule whose heading, section or front matter gives none: by the file's convention
        when it marks only one class on its rules' headings (the others are then of the other class); by Suber's
        numbering when a rule of the game says that numbering applies; else not recorded (None)."""
        unknown = [rule for rule in self.rules if rule.rule_class is None and rule.key is None]
        if not unknown:
            return
        marked = {rule.rule_class for rule in self.rules if rule.class_from == "heading"}
        if len(marked) == 1 and not any(rule.class_from in ("section", "front matter", "folder")
                                        for rule in self.rules):
            other = MUTABLE if marked == {IMMUTABLE} else IMMUTABLE
            for rule in unknown:
                rule.rule_class = other
            self.guessed.append(Note(unknown[0].file, 0, f"{_numbers(unknown)} read as {other.split()[0].lower()}: "
                                     f"the rules' headings mark only {marked.pop().split()[0].lower()} rules, and "
                                     "these carry no mark"))
            return
        saying = next((rule for rule in self.rules if _SUBER_CLASSES.search(rule.words)), None)
        suber = [rule for rule in unknown if 100 <= rule.number < 300]
        if saying is not None and suber:
            for rule in suber:
                rule.rule_class = IMMUTABLE if rule.number < 200 else MUTABLE
            self.guessed.append(Note(saying.file, saying.line, f"{_numbers(suber)} classed by Suber's numbering "
                                     f"(immutable in the 100s, mutable in the 200s), which rule {saying.number} "
                                     "says applies"))

    def _imported(self, rule: Rule) -> ImportedRule:
        title, why = rule_title(rule.title) if rule.title else (None, None)
        if why:
            self.rewritten.append(Note(rule.file, rule.line, f"rule {rule.number}: {why}"))
        if len(rule.text) > MAX_RULE_CHARS:
            raise RulesetImportError(f"rule {rule.number}'s text is {len(rule.text):,} characters long; a rule's "
                                     f"text may hold at most {MAX_RULE_CHARS:,}", rule.line, rule.file)
        return ImportedRule(rule.number, rule.rule_class, title, rule.text, rule.line, rule.file, rule.revision,
                            tuple(rule.history), tuple(rule.annotations), rule.topic, rule.key,
                            rule.label if rule.label != str(rule.number) else None,  # ("2" in an outline: its number)
                            rule.front_matter)


class _Shape:
    """The reading of one file's lines into rules, by the shape its rules are written in."""

    def __init__(self, file: str | None, raw_lines: list[str], hard_breaks: set[int], markdown: bool,
                 reading: _Reading):
        self.file, self.raw_lines, self.hard_breaks, self.markdown = file, raw_lines, hard_breaks, markdown
        self.reading = reading

    def note(self, kind: list[Note], line: int, message: str) -> None:
        kind.append(Note(self.file, line, message))

    # --- rules written as headings or bold numbers ----------------------------------------------------------

    def markup(self, lines: list[Line], begin: int, end: int, style: str, start: str | None,
               stop: str | None) -> list[Rule]:
        """Each line of `style` starts a rule, in whatever order; a heading no deeper than the rules' (any heading,
        where rules are bold numbers) ends the rule before it, unless it names furniture (History); a class
        heading gives the rules under it their class, any other their topic."""
        rule_level = int(style[1]) if style in HEADING_STYLES else 0
        first = next(line.index for line in lines[begin:end]
                     if line.style == style or _as_rule_heading(line, style, [], [])[1] is not None)
        if stop is None:  # chatter after the rules (a footer repeated from the top), never before a rule
            cut = region_end(lines, first, None)
            end = cut if not any(line.style == style for line in lines[cut:end]) else end
        stack: list[tuple[int, Line]] = []  # the headings above the line being read
        title = next((line for line in lines[:first] if line.heading and line.kind is not Kind.BLANK), None)
        if title is not None and any(line.heading and line.level == title.level and line is not title
                                     for line in lines[first:end]):
            title = None  # (a heading of the level of others after it is the first topic, not the file's title)
        rules: list[Rule] = []
        current: Rule | None = None
        current_level = rule_level  # the level of the heading the current rule has (0: none, a bold number)
        orphan: Line | None = None  # a heading that named no rule, whose text is left out
        lettered: list[Rule] = []  # rules the file knows by letters (`UC1`)
        placed: list[Rule] = []  # and by a place in a section or an era (`1-1`, `4E83`)
        below: list[Rule] = []  # and by numbers below zero (`-216`)
        roman: list[Rule] = []  # and by Roman numerals (`xviii`)
        starts = _rule_starts(lines[begin:end], style)
        for line in lines[begin:end]:
            line, identifier = _as_rule_heading(line, style, rules, starts)
            if line.style == style and line.kind is Kind.RULE_START:
                key = identifier.group(1) if identifier else line.key  # (the record's name for it: its label too)
                current = Rule(line.number, line.rule_class or _stack_class(stack), [], line.index + 1,
                               title=line.title, class_from="heading" if line.rule_class else
                               "section" if _stack_class(stack) else "", revision=line.revision,
                               topic=_stack_topic(stack, title),
                               key=key, label=key)
                if current.key:
                    (lettered if identifier else below if current.key.startswith("-") else
                     roman if current.key.isalpha() else placed).append(current)
                if line.rest:
                    current.lines.append(Line(line.index, Kind.TEXT, line.raw, rest=line.rest))
                rules.append(current)
                # (a rule headed among bold numbers, `## 308. An Act`, holds the deeper headings under it)
                current_level = max(rule_level, line.level if line.heading else 0)
                orphan = None
                continue
            if line.heading and line.kind is not Kind.BLANK:
                inside = current is not None and (_furniture(line) is not None
                                                  or current_level and line.level > current_level)
                if inside:
                    current.lines.append(line)
                    continue
                current = None
                level = line.level or 1
                stack = [entry for entry in stack if entry[0] < level] + [(level, line)]
                orphan = line
                continue
            if current is not None:
                current.lines.append(line)
            elif line.index >= first and line.kind not in (Kind.BLANK, Kind.SEPARATOR) and orphan is not None:
                what = "names no numbered rule" if orphan.kind is not Kind.RULE_START else \
                    "is written otherwise than the file's rules"
                self.note(self.reading.left_out, orphan.index + 1, f"'{_shown(orphan.text)}' {what}: it and the "
                          "text under it are left out")
                orphan = None
        self._outside(lines, first, end, len(lines), start, stop)
        for rule in rules:
            if rule.title is None and style in (BOLD, BOLD_ITEM):
                rule.title, rule.lines = _title_over_list(rule.lines)
            self._finish(rule)
            if not self.markdown:
                rule.text = render_blocks(rule.blocks, rule)
        for keyed, how in ((lettered, "rules known by letters are numbered by them, two digits a letter (A = 01)"),
                           (placed, "rules known by a section or an era and a place are numbered by both, the "
                                    "section in thousands"),
                           (below, f"rules numbered below zero are numbered down from {BELOW_ZERO_END:,}, in the "
                                   "game's order, above any other rule's number"),
                           (roman, "rules numbered in Roman numerals are numbered by their value")):
            if keyed:
                self.note(self.reading.guessed, keyed[0].line,
                          f"{how}: " + ", ".join(f"{rule.key} = {rule.number}" for rule in keyed))
        return [rule for rule in rules if not self._stub(rule)]

    def _stub(self, rule: Rule) -> bool:
        """Whether a rule's heading stands for no rule in force: it has no text, or only a note that the rule is
        gone (`*Amended, to become rule 322.*`). Said as left out."""
        words = rule.words.strip()
        if words and not (_GONE.fullmatch(words) and words[0] in "*_" and "\n" not in rule.text):
            return False
        heading = self.raw_lines[rule.line - 1].strip()
        self.note(self.reading.left_out, rule.line, f"'{_shown(heading)}' is a heading with "
                  + (f"only a note, '{_shown(words)}'" if words else "no text") + ": not a rule in force")
        return True

    def _outside(self, lines: list[Line], first: int, end: int, total: int, start: str | None = None,
                 stop: str | None = None) -> None:
        """Say what text stands before the first rule and after the last (an introduction, a player list, a
        footer repeated from the top): not rules, and left out; unless --start or --stop said so."""
        before = [line.index for line in lines[:first] if line.kind in (Kind.TEXT, Kind.LIST_ITEM, Kind.RULE_START)
                  and start is None]
        if before:
            self.note(self.reading.left_out, before[0] + 1, f"{_span(before)}, before the first rule, not a rule")
        after = [line.index for line in lines[end:total] if line.kind not in (Kind.BLANK, Kind.SEPARATOR)
                 and stop is None]
        if after:
            self.note(self.reading.left_out, after[0] + 1, f"{_span(after)}, after the rules, not a rule (a signature "
                      "or a sign-off, or text repeated from before the rules)")

    # --- an outline: sections, no numbers -------------------------------------------------------------------

    def outline(self, lines: list[Line], style: str | None) -> list[Rule] | None:
        """Each section of an outline of headings a rule, numbered from 1 by its place in the file, its tag (the
        heading's anchor) its key and its place in the outline (`2.2.1`) kept; a table of contents left out. None
        when the file is no outline: no tagged section and fewer than two, or plain numbered rules and no tags."""
        headings = [line for line in lines if line.kind in (Kind.HEADING, Kind.CLASS_HEADING)]
        if headings and headings[0].level == 1 and sum(1 for line in headings if line.level == 1) == 1:
            headings = headings[1:]  # the file's title
        tagged = any(line.anchor for line in headings)
        if len(headings) < (1 if tagged else 2) or (style is not None and not tagged):
            return None
        sections = self._outline_sections(lines, headings)
        top = min(heading.level for heading, _ in sections)
        counters: list[int] = []
        rules = []
        groups: list[Line] = []  # the headings above that group the sections under them ("Core Rules")
        for n, (heading, body) in enumerate(sections):
            depth = heading.level - top
            counters = (counters + [0] * (depth + 1))[:depth + 1]
            counters[depth] += 1
            groups = [group for group in groups if group.level < heading.level]
            if n + 1 < len(sections) and sections[n + 1][0].level > heading.level \
                    and all(line.kind is Kind.BLANK for line in body):
                groups.append(heading)  # (a heading with no text of its own, deeper ones under it: no rule)
                continue
            rule_class = heading.rule_class or next((group.rule_class for group in reversed(groups)
                                                     if group.rule_class), None)
            place = ".".join(str(count) for count in counters)
            rule = Rule(len(rules) + 1, rule_class, body, heading.index + 1, title=heading.words,
                        class_from="heading" if rule_class else "", key=heading.anchor, place=place,
                        label=heading.anchor or place,
                        topic=next((group.words for group in reversed(groups) if not group.rule_class), None))
            rules.append(rule)
            self._finish(rule)
        grouping = len(sections) - len(rules)
        self.note(self.reading.guessed, rules[0].line, f"the file numbers no rules: each of its {len(rules)} "
                  f"sections is read as a rule, numbered 1 to {len(rules)} by its place in the file (its tag, else its "
                  "place in the outline, its label)" + (f"; {grouping} of its headings, with no text of their own over "
                                                  "deeper ones, are topics grouping the rules under them"
                                                  if grouping else ""))
        return rules

    def _outline_sections(self, lines: list[Line], headings: list[Line]) -> list[tuple[Line, list[Line]]]:
        """Each heading of an outline with the lines under it, up to the next; a table of contents left out."""
        at = {line.index: n for n, line in enumerate(lines)}
        sections = []
        for n, heading in enumerate(headings):
            stop = at[headings[n + 1].index] if n + 1 < len(headings) else len(lines)
            body = lines[at[heading.index] + 1:stop]
            if body and all(_TOC_ITEM.fullmatch(line.raw) or line.kind is Kind.BLANK for line in body) \
                    and any(line.kind is not Kind.BLANK for line in body):
                self.note(self.reading.left_out, heading.index + 1, f"'{_shown(heading.text)}' is a table of "
                          "contents, not a rule")
                continue
            sections.append((heading, body))
        return sections

    # --- a list under class headings, no numbers ------------------------------------------------------------

    def listed(self, lines: list[Line]) -> list[Rule] | None:
        """Each item of the lists from the first class heading on a rule (a forum post: `#Immutable rules:`, then
        `*Rules can never be altered.`), of the class its heading names (none under another heading, `#New
        rules:`), numbered from 1 by its place in the file, the guess said; an item's text its line and the
        indented lines under it. What stands before the first class heading, or between lists in unindented
        lines, is left out. None when no class heading is followed by items."""
        rules: list[Rule] = []
        begun, rule_class = False, None
        current: Rule | None = None
        between: list[int] = []  # the lines that are neither a heading nor of an item
        for line in lines:
            if line.kind is Kind.CLASS_HEADING or (begun and line.kind is Kind.HEADING):
                begun, rule_class, current = True, line.rule_class, None
            elif not begun or line.kind is Kind.BLANK:
                continue
            elif (item := _BULLET.fullmatch(line.raw)) is not None:
                current = Rule(len(rules) + 1, rule_class, [Line(line.index, Kind.TEXT, item.group(1))],
                               line.index + 1, class_from="section" if rule_class else "")
                rules.append(current)
            elif current is not None and line.raw[:1].isspace():  # (the item's next line, or an item under it)
                last = current.lines[-1]
                current.lines[-1:] = [last, line] if line.kind is Kind.LIST_ITEM else [
                    dataclasses.replace(last, raw=f"{last.raw} {line.text}")]
            else:
                current = None
                between.append(line.index)
        if not rules:
            return None
        layout = Layout.of(lines)
        for rule in rules:
            self._finish(rule, layout)
            if not self.markdown:
                rule.text = render_blocks(rule.blocks, rule)
        first = next(line.index for line in lines if line.kind is Kind.CLASS_HEADING)
        self._outside(lines, first, len(lines), len(lines))
        if between:
            self.note(self.reading.left_out, between[0] + 1, f"{_span(between)}, not in a list of rules, not a rule")
        self.note(self.reading.guessed, rules[0].line, f"the file numbers no rules: each of the {len(rules)} items of "
                  f"its lists under class headings is read as a rule, numbered 1 to {len(rules)} by its place in "
                  "the file")
        return rules

    # --- plain numbers ("101. text") -------------------------------------------------------------------------

    def _numbered_by_markdown(self, region: list[Line], style: str) -> list[Line]:
        """A Markdown list whose every item is written `1.` (Markdown numbers a list's items itself, from the first
        one's number, and a keeper who lets it writes each `1.`, or `0.`): its items at the margin are the rules,
        numbered by their place as the page shows them, a guess said; the items under them their lists. Any other
        region as it is."""
        starts = [n for n, line in enumerate(region) if line.kind is Kind.RULE_START and line.style == style]
        margin = [n for n in starts if not region[n].raw[:1].isspace()]
        if len(margin) < 3 or len({region[n].number for n in starts}) != 1:
            return region
        out = list(region)
        first = region[margin[0]].number  # (a list written `0.` throughout starts at 0)
        for place, (n, following) in enumerate(zip(margin, [*margin[1:], len(region)]), first):
            out[n] = dataclasses.replace(region[n], number=place)
            # (the items under it, dedented as its text's own list: indented, they would be read as code)
            under = range(n + 1, following)
            indent = min((len(region[k].raw) - len(region[k].raw.lstrip()) for k in under if region[k].text),
                         default=0)
            for k in under:
                if region[k].text:
                    out[k] = Line(region[k].index, Kind.LIST_ITEM, region[k].raw[indent:]) if k in starts else \
                        dataclasses.replace(region[k], raw=region[k].raw[indent:])
        self.note(self.reading.guessed, region[margin[0]].index + 1, f"each of its {len(margin)} rules is written "
                  f"'{first}.' (Markdown numbers a list's items itself): numbered {first} to {first + len(margin) - 1} "
                  "by their place, as the page shows them")
        return out

    def plain(self, lines: list[Line], start: str | None, stop: str | None, style: str) -> list[Rule]:
        begin = region_begin(lines, start, style)
        end = region_end(lines, begin, stop)
        region = lines[begin:end]
        if self.markdown:
            region = self._numbered_by_markdown(region, style)
        layout = Layout.of(region)
        rules = collect_plain_rules(region, layout, style, self.reading.left_out, self.file)
        if not rules:
            raise NoRulesFound(self.file)
        for rule in rules:
            if rule.number_alone:  # (a rule whose start notes where it came from is titled on the next line)
                rule.title, rule.lines = title_line(rule.lines, layout, questions=rule.note is not None)
            if rule.note:  # (after the title, which is the line under the number)
                rule.lines.insert(0, Line(rule.line - 1, Kind.TEXT, f"History: {rule.note}"))
        check_rules(rules)
        self._outside(lines, next(rule.line - 1 for rule in rules), end, len(lines), start, stop)
        for rule in rules:
            self._finish(rule, layout)
        if not self.markdown:
            split_title_sentences(rules)
            for rule in rules:
                rule.text = render_blocks(rule.blocks, rule)
        return rules

    # --- one rule, the whole file ---------------------------------------------------------------------------

    def single(self, lines: list[Line], number: int) -> list[Rule]:
        """The file is rule `number`: its text the whole body; a rule heading of its own as its first line
        (`## 203/1 (MUTABLE)`, `Rule 203/1`) gives its title, class and revision, and is not text."""
        heading = next((line for line in lines if line.kind is not Kind.BLANK), None)
        title = self._name_words()
        if heading is not None and heading.kind is not Kind.RULE_START:
            if (said := self._title_line(lines, heading)) is not None:
                title, lines = said, [line for line in lines if line is not heading]
            elif heading.heading and heading.words and not any(line.text for line in lines if line is not heading):
                # (a rule that is its title alone: its words are its text, not a heading over nothing)
                lines = [dataclasses.replace(line, kind=Kind.TEXT, raw=heading.words, heading=False, level=0)
                         if line is heading else line for line in lines]
            heading = None
        if heading is not None and heading.number != number:
            self.note(self.reading.guessed, heading.index + 1, f"its heading numbers rule {heading.number}, its front "
                      f"matter or name {number}: read as rule {number}")
        body = [line for line in lines if line is not heading]
        if heading is not None and heading.rest:
            body.insert(0, Line(heading.index, Kind.TEXT, heading.raw, rest=heading.rest))
        first = heading.index + 1 if heading else next((line.index + 1 for line in lines if line.kind is not Kind.BLANK),
                                                       1)
        rule = Rule(number, heading.rule_class if heading else None, body, first,
                    title=heading.title if heading else title,
                    class_from="heading" if heading and heading.rule_class else "",
                    revision=heading.revision if heading else None)
        self._finish(rule, Layout.of(body))
        if not self.markdown:
            rule.text = render_blocks(rule.blocks, rule)
        return [rule]

    def _title_line(self, lines: list[Line], first: Line) -> str | None:
        """The title a per-rule file's first line gives when it is no numbered rule heading and text follows it: a
        heading above every other heading in the file (`# Title` over `## Definitions`), or a line that says what
        the file's name says after its number (`309_Bribe-Everyone` opening with `Bribe Everyone`); else None."""
        if not any(line.text for line in lines if line is not first and line.kind is not Kind.BLANK):
            return None  # (a rule that is its title alone: that is its text)
        if first.heading and _furniture(first) is None and first.words:
            if all(line.level > first.level for line in lines if line.heading and line is not first
                   and line.kind is not Kind.BLANK):
                return first.words
            return None
        named = self._name_words()
        if first.kind is Kind.TEXT and named and _letters(named) == _letters(first.text):
            return first.text.strip("*_ ")
        return None

    def _name_words(self) -> str | None:
        """The words a per-rule file's name gives after the number it begins with (`101_Abide-by-the-rules.md`:
        "Abide by the rules"), which keepers who name files so give as the rule's title; else None."""
        base = re.sub(r"\.[A-Za-z]{1,4}$", "", posixpath.basename(self.file or ""))
        if not (m := re.fullmatch(r"[^A-Za-z0-9]*[0-9]+[^A-Za-z0-9]+(.*)", base)):
            return None  # (a name that does not begin with the rule's number: no title of the rule's)
        words = " ".join(re.sub(r"[-_]+", " ", m.group(1)).split())
        return words if re.search(r"[A-Za-z]{2}", words) else None

    # --- what a rule's section holds ------------------------------------------------------------------------

    def _finish(self, rule: Rule, layout: Layout | None = None) -> None:
        """Split the rule's lines into its text, its history and its annotations, and write its text: Markdown
        kept in a Markdown file, else escaped blocks (`blocks`, written by the caller once titles are settled)."""
        rule.file = self.file
        text: list[Line] = []
        annotations: list[list[Line]] = []
        mode, mode_level = "text", 0
        comment: list[Line] | None = None  # an HTML comment being read: a note hidden from readers, not text
        for line in rule.lines:
            if self.markdown and comment is None and line.text.startswith("<!--"):
                comment = []
                annotations.append(comment)
            if comment is not None:
                said = line.raw.replace("<!--", "", 1) if not comment else line.raw
                comment.append(dataclasses.replace(line, raw=said.split("-->")[0], rest=None))
                if "-->" in said:
                    comment = None
                continue
            name = _furniture(line)
            if name is not None:
                mode, mode_level = name, line.level if line.heading else 7
                if name == "annotation":
                    annotations.append([])
                continue
            if mode != "text" and line.heading and line.kind is not Kind.BLANK and line.level <= mode_level:
                mode = "text"  # a heading as high as the furniture's own ends it
            if mode == "text":
                if (m := _HISTORY_KEY.fullmatch(line.text)) and line.kind is Kind.TEXT:
                    rule.history.append(self._history_entry(m.group(1), line.index + 1))
                elif line.kind is Kind.TEXT and (_REFERENCES.fullmatch(line.text) or _PREVIOUS.fullmatch(line.text)):
                    rule.history.append(self._history_entry(line.text, line.index + 1))
                else:
                    text.append(line)
            elif mode == "history" and line.kind in (Kind.TEXT, Kind.LIST_ITEM, Kind.RULE_START):
                rule.history.append(self._history_entry(line.text, line.index + 1))
            elif mode == "annotation":
                annotations[-1].append(line)
        # History lines that end the text with no History heading above them (a keeper forgot it) are history
        # too; never the whole text (a stub's note that the rule was amended away is what it says).
        end = len(text)
        while end and (not text[end - 1].text or text[end - 1].kind is Kind.SEPARATOR
                       or _HISTORY_LIKE.fullmatch(text[end - 1].text)):
            end -= 1
        if any(line.text for line in text[:end]):
            rule.history += [self._history_entry(line.text, line.index + 1) for line in text[end:]
                             if line.text and line.kind is not Kind.SEPARATOR]
            rule.history.sort(key=lambda entry: entry[0])
            text = text[:end]
        if self.markdown and (quoted := _only_quote(text)) is not None:
            text = quoted  # a rule written as a blockquote: its text is what is quoted
        rule.words = " ".join(line.content for line in text)
        rule.annotations = [self._markdown(lines, rule) if self.markdown else render_blocks(text_blocks(lines, Layout.of(lines)),
                                                                                      rule)
                            for lines in annotations if any(line.text for line in lines)]
        if self.markdown:
            rule.text = self._markdown(text, rule)
        else:
            rule.blocks = text_blocks(text, layout or Layout.of(text))
            rule.lines = text

    def _markdown(self, lines: list[Line], rule: Rule) -> str:
        while lines and not lines[0].text:
            lines = lines[1:]
        raws = [line.rest if line.kind is Kind.TEXT and line.rest is not None else line.raw for line in lines]
        breaks = {n for n, line in enumerate(lines) if line.index in self.hard_breaks}
        text, said = rule_markdown(raws, breaks, link_base=self.reading.link_base, path=self.file)
        text = _wrapped(text, rule)
        for what in said:
            self.reading.say_once(Note(self.file, lines[0].index + 1, what))
        return text

    def _history_entry(self, text: str, line: int) -> tuple[int, str]:
        """A line of a rule's history as written (a list item's mark aside), with its line; too long a line cut."""
        text = text.strip()
        if mark := _LIST_MARK.match(text):
            text = text[mark.end():]
        said, why = short_title(text, MAX_LINE_CHARS - len("History: "))
        if why:
            self.note(self.reading.rewritten, line, f"a history line: {why}")
        return line, said


# --- JSON ---------------------------------------------------------------------------------------------------

def read_rules_json(text: str, *, file: str | None = None) -> ImportedRuleset:
    """Rules kept as JSON (a website's export, a bot's data): a list of rules; an object holding one under `rules`
    (a list, or an object of rules by tag); or a tree of rules, each with its `subrules`. A rule's number is its
    `id` (`number`, `rule`, `n`), from 0; its title `title` (`summary`, `name`); its text `content` (`text`,
    `body`), Markdown, or HTML written as Markdown; its class `class` (`type`, `mutability`), else not recorded;
    its `history` kept as lines. A tree's root that holds the rules and says nothing (AnthonyW2's "Rules") is no
    rule; a rule's place in the tree is the path of `relid`s (`3.1.2`). Rules with no number (a bot's outline:
    `parent_tag`, `child_tags`) are numbered by their place, their tag their key. A number used twice (a keeper's
    slip) keeps its first rule; the second is left out and said."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as error:
        line = getattr(error, "lineno", 0)
        raise RulesetImportError(f"not JSON: {getattr(error, 'msg', 'nested too deep')}", line, file) from None
    reading = _Reading(None)
    places: dict[int, str] = {}
    if isinstance(data, dict) and isinstance(data.get("subrules"), list):
        found = _tree_order(data, places, reading.left_out, file)
    else:
        found = data.get("rules") if isinstance(data, dict) else data
        if isinstance(found, dict):
            found = _outline_order(found, places)
    if not isinstance(found, list) or not found or not all(isinstance(item, dict) for item in found):
        raise RulesetImportError("no rules found in the JSON (a list of rules, or an object with one under 'rules', "
                                 "each with 'id', 'title' and 'content')", 1, file)
    # A website's rules written in HTML show each line break (as AnthonyW2/Nomic's page does); Markdown does not.
    html_seen = any(HTML_TAG.search(_json_value(item, _JSON_TEXT_KEYS)) for item in found)
    numbered: dict[int, Rule] = {}
    dropped: set[int] = set()  # (the younger of two rules numbered alike, read first)
    for position, item in enumerate(found, start=1):
        number = _json_number(item)
        content = _json_value(item, _JSON_TEXT_KEYS)
        title = _json_value(item, _JSON_TITLE_KEYS).strip() or None
        if number is None and not isinstance(item.get("tag"), str):
            reading.left_out.append(Note(file, 0, f"rule {position} of the JSON ('{_shown(title or '')}') has no "
                                                   "number and no tag"))
            continue
        if number is not None and number in numbered:
            kept, other = numbered[number], (title, places.get(id(item)))
            if _first_time(item) < _first_time(found[kept.position]):  # the elder keeps the number
                dropped.add(id(kept))
                kept, other = None, (kept.title, kept.place)
            reading.left_out.append(Note(file, 0, f"'{_shown(other[0] or '')}'{_at(other[1])} is numbered {number} "
                                                   "as another rule made before it is: left out (a slip of the "
                                                   "record's)"))
            if kept is not None:
                continue
        kind = _json_value(item, _JSON_CLASS_KEYS).strip().lower()
        rule_class = IMMUTABLE if kind == "immutable" else MUTABLE if kind == "mutable" else None
        lines = [line.rstrip() for line in (html_markdown(content) if html_seen else content).split("\n")]
        breaks = set(range(len(lines) - 1)) if html_seen else set()
        rule = Rule(number if number is not None else position, rule_class, [], 0, title=title,
                    class_from="front matter" if rule_class else "", key=item["tag"] if number is None else None,
                    label=item["tag"] if number is None else None, place=places.get(id(item)))
        rule.file, rule.position = file, position - 1
        rule.text = _wrapped(rule_markdown(lines, breaks)[0], rule) if content.strip() else ""
        rule.history = [_json_history(entry) for entry in item.get("history") or [] if isinstance(entry, dict)]
        reading.rules.append(rule)
        if number is not None:
            numbered[number] = rule
    reading.rules = [rule for rule in reading.rules if id(rule) not in dropped]
    if html_seen:
        reading.rewritten.append(Note(file, 0, "HTML in the rules' texts written as Markdown (bold as bold, a line "
                                               "break as a line break, links within the page as their text)"))
    if any(rule.key for rule in reading.rules):
        reading.guessed.append(Note(file, 0, f"the JSON numbers no rules: each is numbered by its place in the "
                                             f"outline, 1 to {len(reading.rules)} (its tag kept)"))
    return reading.result(file)


def _first_time(item: dict) -> float:
    """When a JSON rule was made, by its history's first time (never: later than any)."""
    times = [int(entry["time"]) for entry in item.get("history") or [] if isinstance(entry, dict)
             and str(entry.get("time", "")).isdigit() and len(str(entry["time"])) <= 11]
    return min(times, default=float("inf"))


def _at(place: str | None) -> str:
    return f" (at {place})" if place else ""


def _tree_order(root: dict, places: dict[int, str], left_out: list[Note], file: str | None) -> list[dict]:
    """A tree of rules (each with its `subrules`) in the order a reader meets them, each one's place the path of
    its `relid`s (else its position among its siblings); a root that holds rules and has no text is no rule."""
    order: list[dict] = []
    bare_root = not _json_value(root, _JSON_TEXT_KEYS).strip()
    if bare_root:
        left_out.append(Note(file, 0, f"the tree's root ('{_shown(_json_value(root, _JSON_TITLE_KEYS))}') holds the "
                                      "rules and says nothing itself: not a rule"))
    stack: list[tuple[dict, str]] = [(root, "")]
    while stack:  # (depth first, without recursion: a hostile file may nest as deep as it likes)
        item, place = stack.pop()
        if item is not root or not bare_root:
            order.append(item)
            if place:
                places[id(item)] = place
        children = [child for child in item.get("subrules") or [] if isinstance(child, dict)]
        for position, child in reversed(list(enumerate(children, start=1))):
            relid = child.get("relid")
            step = str(relid) if isinstance(relid, int) and not isinstance(relid, bool) else str(position)
            stack.append((child, f"{place}.{step}" if place else step))
    return order


def _outline_order(rules: dict, places: dict[int, str]) -> list[dict]:
    """Rules kept by tag, each naming its parent and children: in the outline's order (depth first from the top:
    the rules whose parent is no rule of the file, or is a root without text, which is no rule), each one's place
    in the outline (`2.2.1`); any a walk from the top does not reach follows."""
    items = {tag: item for tag, item in rules.items() if isinstance(item, dict)}
    roots = {tag for tag, item in items.items() if item.get("parent_tag") in (None, "")
             and not _json_value(item, _JSON_TEXT_KEYS)}
    tops = [tag for tag, item in items.items() if tag not in roots
            and (item.get("parent_tag") not in items or item.get("parent_tag") in roots)]
    for root in roots:  # a root names its children in their order
        named = [child for child in items[root].get("child_tags") or [] if child in tops]
        tops = named + [tag for tag in tops if tag not in named]
    order: list[dict] = []
    seen: set[str] = set(roots) | set(tops)
    stack = [(tag, str(position)) for position, tag in reversed(list(enumerate(tops, start=1)))]
    while stack:  # (depth first, without recursion: a hostile file may chain tags as deep as it likes)
        tag, place = stack.pop()
        order.append(items[tag])
        places[id(items[tag])] = place
        children = [child for child in items[tag].get("child_tags") or [] if isinstance(child, str)
                    and child in items and child not in seen]
        seen.update(children)
        stack += [(child, f"{place}.{position}") for position, child in reversed(list(enumerate(children, start=1)))]
    return order + [item for tag, item in items.items() if tag not in seen]


def _json_number(item: dict) -> int | None:
    for key in _JSON_NUMBER_KEYS:
        value = item.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 10**6:
            return value
        if isinstance(value, str) and value.strip().isdigit() and len(value.strip()) <= 6:
            return int(value)
    return None


def _json_value(item: dict, keys: tuple[str, ...]) -> str:
    return next((item[key] for key in keys if isinstance(item.get(key), str)), "")


def _json_history(entry: dict) -> tuple[int, str]:
    """A history entry of a JSON rule ({"player": 4, "proposition": 35, "time": 1675642921}) as a history line in
    the words record.history_entry reads: "Amended by Proposal 35 (player 4), 2023-02-05"; -1 is the initial rules.
    (The player is the record's index of a player, which the record's players list names.)"""
    said = {key: value for key, value in entry.items() if isinstance(value, (str, int)) and not isinstance(value, bool)}
    proposal = next((said[key] for key in ("proposal", "proposition", "prop") if key in said), None)
    author = next((said[key] for key in ("player", "author", "by") if key in said), None)
    proposal, author = (None if value in (-1, "-1", "") else value for value in (proposal, author))
    time = said.get("time")
    time = int(time) if isinstance(time, str) and time.isdigit() and len(time) <= 11 else time
    date = datetime.datetime.fromtimestamp(time, datetime.timezone.utc).date().isoformat() \
        if isinstance(time, int) and 0 <= time < 10**11 else None
    if proposal is not None:
        words = f"Changed by Proposal {proposal}" + (f" (player {author})" if author is not None else "")
    else:
        words = f"Changed by player {author}" if author is not None else "Initial rule"
    words += f", {date}" if date else ""
    return 0, clean_line(words)


# --- small readers ------------------------------------------------------------------------------------------

def _source_lines(text: str) -> tuple[list[str], set[int]]:
    """The lines of a file without trailing white space, and which of them ended in a hard line break."""
    raw = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return [line.rstrip() for line in raw], {n for n, line in enumerate(raw)
                                             if line.endswith("  ") or line.rstrip().endswith("\\")}


def _dominant_style(lines: list[Line]) -> str | None:
    """How the file writes its rules' starts: the markup style of most lines (a heading of one level, a bold
    number), where one is used more than once or no plain numbers are; else the plain style of most lines (on a
    tie, the one saying its rules' classes more, then the first used); None when no line may start a rule."""
    counts = Counter(line.style for line in lines if line.kind is Kind.RULE_START)
    first = {}
    for line in lines:
        if line.kind is Kind.RULE_START:
            first.setdefault(line.style, line.index)
    markup = sorted((style for style in counts if style in MARKUP_STYLES), key=lambda s: (-counts[s], first[s]))
    # (on a tie, the style whose lines say their rules' class: `Rule 101. [immutable]` over a note's `1. ...`)
    classed = Counter(line.style for line in lines if line.kind is Kind.RULE_START and line.rule_class)
    plain = sorted((style for style in (INLINE, ALONE, ITEM) if counts[style]),
                   key=lambda s: (-counts[s], -classed[s], first[s]))
    if markup and (counts[markup[0]] > 1 or not plain):
        return markup[0]
    return plain[0] if plain else None


def _wrapped(text: str, rule: Rule) -> str:
    """Markdown with each line longer than a line of the log may be broken (text.wrap); a fenced block's lines and
    a table's are as written (one too long refuses the rule, as a paragraph with no space does)."""
    out: list[str] = []
    fence = None
    for line in text.split("\n"):
        verbatim = fence is not None or bool(FENCE.match(line)) or line.startswith("|")
        if fence is not None:
            fence = None if closes_fence(line, fence) else fence
        elif m := FENCE.match(line):
            fence = m.group(1)
        out.append(wrapped_line(line, rule) if not verbatim or len(line) > MAX_QUOTED_LINE else line)
    return "\n".join(out)


def _is_markdown(file: str | None, style: str | None) -> bool:
    name = (file or "").lower()
    if name.endswith(MARKDOWN_EXTENSIONS):
        return True
    if name.endswith(PLAIN_EXTENSIONS):
        return False
    return style in MARKUP_STYLES


def _furniture(line: Line) -> str | None:
    """What a line that heads part of a rule's section names when it is not the rule's text: "history",
    "annotation", "dropped" (a copyright), "text" (a per-rule file's `# Rule`); None for anything else. Headings,
    and a line that is only `History`, in bold or italics or with a colon, head such parts."""
    if line.heading and line.kind is not Kind.BLANK:
        words = line.words or ""
    elif line.kind is Kind.TEXT:
        words = line.text
        if _FURNITURE.get(words.strip("*_: \t").lower()) != "history":
            return None
    else:
        return None
    return _FURNITURE.get(words.strip("*_: \t").lower())


def _as_rule_heading(line: Line, style: str, rules: list[Rule], starts: list[tuple[int, int]]
                     ) -> tuple[Line, re.Match | None]:
    """A heading read as the start of a rule in the file's `style` where it is one written otherwise: known by
    letters (`##TIDE - Title`, where the game gave up numbers: the match given back), or its level slipped
    (`_slipped`)."""
    identifier = _IDENTIFIER.fullmatch(line.words or "") if line.kind is Kind.HEADING and style in HEADING_STYLES \
        and line.level == int(style[1]) else None
    if identifier:
        kind, title = heading_class_and_title(identifier.group(2) or "")
        return dataclasses.replace(line, kind=Kind.RULE_START, style=style, number=letters_number(
            identifier.group(1)), rule_class=kind, title=title), identifier
    if _slipped(line, style, rules, starts):
        return dataclasses.replace(line, style=style), None
    return line, None


def _classes_alone(lines: list[Line]) -> bool:
    """Whether a file's headings are class headings alone (its title aside): a list under each, not an outline."""
    headings = [line for line in lines if line.heading and line.kind is not Kind.BLANK]
    return any(line.kind is Kind.CLASS_HEADING for line in headings) and all(
        line.kind is Kind.CLASS_HEADING or line.level == 1 and line is headings[0] for line in headings)


def _title_over_list(lines: list[Line]) -> tuple[str | None, list[Line]]:
    """The title of a rule whose text is a list under its number (a wiki's `* **Rule 1.** Voting`, the rule's
    sentences the items under it): the few words after the number, with no closing punctuation."""
    content = [line for line in lines if line.kind is not Kind.BLANK]
    if len(content) < 2 or content[0].rest is None or content[1].kind is not Kind.LIST_ITEM:
        return None, lines
    words = content[0].rest.strip()
    if not title_words(words):
        return None, lines
    return clean_line(words), [line for line in lines if line is not content[0]]


def _rule_starts(lines: list[Line], style: str) -> list[tuple[int, int]]:
    """The lines that start a rule in `style`, and the rules' numbers."""
    return [(line.index, line.number) for line in lines
            if line.style == style and line.kind is Kind.RULE_START and line.number is not None]


def _slipped(line: Line, style: str, rules: list[Rule], starts: list[tuple[int, int]]) -> bool:
    """Whether a heading that starts a rule in another style than the file's rules, `style` (`#210 Title` after
    `##209 Title`, before `##211 Title`), is one of them, its heading a level off: its number falls between the
    rule before it and the next in the file's style (`starts`: their lines and numbers)."""
    if line.kind is not Kind.RULE_START or line.style == style or not line.heading or line.number is None \
            or not rules or line.number <= rules[-1].number:
        return False
    after = next((number for index, number in starts if index > line.index), None)
    return after is None or line.number < after


def _stack_class(stack: list[tuple[int, Line]]) -> str | None:
    return next((line.rule_class for _, line in reversed(stack) if line.kind is Kind.CLASS_HEADING), None)


def _stack_topic(stack: list[tuple[int, Line]], title: Line | None) -> str | None:
    """The heading above a rule that names no class (`# Voting`), the file's title aside."""
    return next((line.words for _, line in reversed(stack) if line.kind is Kind.HEADING and line is not title
                 and line.words), None)


def letters_number(letters: str) -> int:
    """A rule's number for an identifier of capital letters, the same wherever it is read: each letter's place in
    the alphabet in two digits (TIDE = 20090405), above any number a game writes; letters and a number (UC1)
    after 99, which no letter gives, the number in two digits (UC1 = 99210301)."""
    word = letters.rstrip("0123456789")
    number = "".join(f"{ord(letter) - ord('A') + 1:02}" for letter in word)
    return int(f"99{number}{int(letters[len(word):]):02}" if word != letters else number)


def _only_quote(lines: list[Line]) -> list[Line] | None:
    """A rule's text written as a blockquote (it opens with one, and most of its lines are quoted) without that
    quote: each quoted line without its first `>`, what follows the quote (a footnote) as it is. None for any other
    text."""
    written = [line for line in lines if line.text and line.kind is not Kind.SEPARATOR]
    quoted = [line for line in written if line.text.startswith(">")]
    if not written or not written[0].text.startswith(">") or len(quoted) * 2 < len(written):
        return None
    return [dataclasses.replace(line, raw=re.sub(r"^\s*> ?", "", line.raw), rest=None,
                                kind=Kind.TEXT if line.text.strip(">").strip() else Kind.BLANK)
            if line.text.startswith(">") else line for line in lines]


def _span(indices: list[int]) -> str:
    """0-based line indices as a person counts them: "line 4", "lines 4-17"."""
    return f"line {indices[0] + 1}" if indices[0] == indices[-1] else f"lines {indices[0] + 1}-{indices[-1] + 1}"


def _numbers(rules: list[Rule]) -> str:
    """Rules' numbers as a person reads them: "rule 201", "rules 201-219, 303, 305-309"."""
    numbers = [rule.number for rule in rules]
    return f"rule {numbers[0]}" if len(numbers) == 1 else f"rules {number_ranges(runs(numbers))}"


def _letters(text: str) -> str:
    """A text's letters and digits alone, in lower case: a file's name and a line compared as they read."""
    return re.sub(r"[^a-z0-9]", "", text.lower())


def _shown(text: str, limit: int = 60) -> str:
    return short_title(text, limit)[0]


# A key of front matter's top-level mapping, at the start of its line: `status: passed`, `"Proposed by": Ann`
_FRONT_KEY = re.compile(r"""(?:"([^"\n]*)"|'([^'\n]*)'|([^\s#'"?:\-\[\]{}][^:#\n]*?))\s*:(?:\s|$)""")


def front_matter(name: str, text: str) -> tuple[dict, int, dict[str, int]] | None:
    """(keys in lower case, the 0-based line after the front matter, each top-level key's 1-based line, where its
    line opens with it), or None without front matter."""
    import yaml  # only the rule-file reader needs it

    lines = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if not lines or lines[0].strip() != "---":
        return None
    end = next((i for i in range(1, len(lines)) if lines[i].strip() in ("---", "...")), None)
    if end is None:
        return None
    try:
        keys = load_yaml("\n".join(lines[1:end]))
    except YamlBeyondBounds as error:  # its line is the front matter's, which starts on the file's second
        raise YamlBeyondBounds(f"front matter: {error}", error.line + 1, file=name) from None
    except yaml.YAMLError as error:
        line, problem = yaml_problem(error, first_line=2)
        raise RulesetImportError(f"its front matter is not YAML: {problem}", line, file=name) from None
    if not isinstance(keys, dict):
        return None
    lines_of = {}
    for at in range(1, end):
        if m := _FRONT_KEY.match(lines[at]):
            lines_of.setdefault(next(group for group in m.groups() if group is not None).strip().lower(), at + 1)
    return {str(key).strip().lower(): value for key, value in keys.items()}, end + 1, lines_of


def _front_matter_number(keys: dict) -> int | None:
    for key in ("rule", "number", "id"):
        value = keys.get(key)
        if isinstance(value, str) and (m := re.fullmatch(r"\s*(?:rule\s*)?([0-9]{1,6})\s*", value, re.I)):
            return int(m.group(1))
    return None


def _name_number(base: str) -> int | None:
    m = re.search(r"(?<![0-9])([0-9]{1,6})(?![0-9])", base)
    return int(m.group(1)) if m else None


def _holds_numbered_rules(text: str, first_line: int) -> bool:
    """Whether a file's body numbers rules in headings or bold (then those are its rules, whatever its name)."""
    lines = classify(_source_lines(text)[0])[first_line:]
    return _dominant_style(lines) in MARKUP_STYLES and sum(1 for line in lines if line.kind is Kind.RULE_START
                                                           and line.style in MARKUP_STYLES) > 1
