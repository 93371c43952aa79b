"""A plain-text Nomic ruleset (a mail, a wiki page, a forum post, a game's rules file in git) to rules.md.

The input is read as plain text, not Markdown, so lines are classified with regular expressions:
class headings ("Immutable Rules"), rule starts ("101.  text", "101" alone, "Rule 101:", and the headings
games kept in git use: "## 101 (IMMUTABLE)", "##101 Immutable - Scope"), other headings (which end a rule),
separators ("*", "-"), list items ("- item") and text. Page furniture before the rules and chatter after them
are dropped; each rule's paragraphs are re-joined and escaped so that Markdown renders exactly the source
text. A folder of one file per rule, each with YAML front matter giving its number, class and status, is
read by `read_rule_files`.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from enum import Enum
from typing import NamedTuple

from ..limits import MAX_FILE_BYTES, MAX_LINE_CHARS, MAX_NESTING, MAX_YAML_ALIASES
from ..model.names import invisible_escaped
from ..parse.source import FENCE, closes_fence

DEFAULT_TITLE = "Initial Set of Rules"
IMMUTABLE = "Immutable Rules"
MUTABLE = "Mutable Rules"

# "Immutable Rules", "## The Mutable Rules:", and as dead games' pages write them: "I. Immutable Rules" (an outline's
# numeral), "Initial Imutable Rules" (a letter short)
_CLASS_HEADING = re.compile(r"(?:#{1,6}\s*)?(?:(?:[IVX]{1,4}|[A-Z])[.)]\s+)?(?:the\s+)?(?:(?:initial|current)\s+)?"
                            r"(im?)?mutable\s+rules\s*:?", re.IGNORECASE)
_CLASS_WORD = re.compile(r"(IM)?MUTABLE(?: RULES)?:?")  # in capitals, alone on its line
_RULESET_HEADING = re.compile(
    r"(?:the\s+)?(?:(?:draft\s+)?initial|starting|current)\s+(?:set\s+of\s+rules|rule\s*set|rules)\s*:?",
    re.IGNORECASE)
_RULE_INLINE = re.compile(r"(?:rule\s+)?([0-9]{1,6})\s*[.:]\s+(\S.*)", re.IGNORECASE)
# (a title in quotes between them: `101/0 "To Play You Must Obey" (Immutable)`; after the class, the keeper's note of
# where the rule came from: `Rule 101. [immutable] (Initial Rule)`, `Rule 201. [mutable] by Storm, last changed ...`)
_RULE_ALONE = re.compile(r"(?:rule\s+)?([0-9]{1,6})(?:/([0-9]{1,6}))?\s*[.:]?\s*(?:[\"\u201c]([^\"\u201c\u201d]{1,200})[\"\u201d]\s*)?"
                         r"([(\[]\s*(?:im)?mutable\s*[)\]])?"
                         r"(?:(?<=[)\]])\s*\(([^()]{1,80})\)|(?<=[)\]])\s+(by\s+\S.{0,150}))?",
                         re.IGNORECASE)
# What starts a rule in a heading or in bold: its number and revision ("101/3"), then the class and the title in
# either order ("(IMMUTABLE)", "Immutable - Scope", ": Title").
# (a number joined to a word, "# 7-nomic", names a thing: no rule)
_RULE_NUMBER = re.compile(r"(?:rule\s+)?([0-9]{1,6})(?:/([0-9]{1,6}))?(?![0-9A-Za-z]|-[A-Za-z])\s*[.:]?\s*(.*)",
                          re.IGNORECASE)
# "Rule xviii.": a rule numbered in Roman numerals (rmetzler/bliki's starting rules, before they were numbered below
# zero): its number their value, the numeral its label
# (closed by a stop or a colon, or alone: `Rule mix up` is words)
_ROMAN_RULE = re.compile(r"rule\s+([ivxlcdm]{1,15}|[IVXLCDM]{1,15})\s*(?:[.:]\s*(.*)|$)", re.IGNORECASE)
# "Rule -216.": a game's rules numbered below zero (its proposals numbered from 1)
_BELOW_ZERO = re.compile(r"rule\s+-([0-9]{1,6})(?![0-9A-Za-z])\s*[.:]?\s*(.*)", re.IGNORECASE)
# Where the numbers of rules numbered below zero end: above every number a rule is read under otherwise (six digits;
# a section's or an era's place, five; letters', eight), so that -N is BELOW_ZERO_END - N, in the game's order.
BELOW_ZERO_END = 10 ** 9
# A heading of a rule numbered within a section or an era (B Nomic's `Rule 1-1: The Game of B`, `Rule 4E83: Title`);
# not a date (`2007-07-19`) nor words (`7-day weeks`).
_PLACED_NUMBER = re.compile(r"(?:rule\s+)?([0-9]{1,2})(-|E)([0-9]{1,3})(?![0-9A-Za-z-])\s*[.:]?\s*(.*)", re.IGNORECASE)
# "- 201. text"; the number may be quoted, as a code span typed with quotes ("* '101.' text")
_ITEM_START = re.compile(r"[-*+][ \t]+(?:rule\s+)?(?:(?P<n>[0-9]{1,6})\s*[.:]"
                         r"|(?P<q>['\u2018])(?P<quoted>[0-9]{1,6})\s*[.:]?(?:(?P=q)|\u2019))[ \t]+(?P<rest>\S.*)",
                         re.IGNORECASE)
_CODE_START = re.compile(r"`\s*(?:rule\s+)?([0-9]{1,6})\s*[.:]?\s*`\s*(.*)", re.IGNORECASE)  # "`2.` Players vote."
_BOLD_START = re.compile(r"([-*+]\s+)?(\*\*|__)\s*(.+?)\s*\2(.*)")
_EMPHASIS = re.compile(r"([*_])(.+)\1")
_BOLD = re.compile(r"(\*\*|__)(.+)\1")
# A rule's class in italics or brackets before its text, after its bold number: "*immutable.*", "(Mutable)"
_CLASS_BEFORE_TEXT = re.compile(r"(?:([*_])\s*(im)?mutable\s*[.:]?\s*\1|[(\[]\s*(im)?mutable\s*[)\]])\s*[.:]?\s+(?=\S)",
                                re.IGNORECASE)
_SUBSECTION_NUMBER = re.compile(r"(?:rule\s+)?[0-9]{1,6}\.[0-9]", re.IGNORECASE)  # "### 2.1 Voting": a part of rule 2
_EMPHASISED_TITLE = re.compile(r"(\*{1,3}|_{1,3})([^*_]+)\1")  # a title in italics or bold, whole
_ANCHOR = re.compile(r"<a\s+(?:name|id)\s*=\s*[\"']([^\"']*)[\"']\s*/?>(?:\s*</a>)?", re.IGNORECASE)
_CLOSING_SEQUENCE = re.compile(r"[ \t]+#+$")
_WORD = re.compile(r"\w")
_UNDERLINE = re.compile(r" {0,3}(={3,}|-{3,})[ \t]*")
_HEADING_CLASS = re.compile(r"[(\[]?\s*(im)?mutable\s*[)\]]?(?=$|[\s\-\u2013\u2014:,.])", re.IGNORECASE)
_HEADING_PUNCTUATION = " \t-\u2013\u2014:,."
_MARKDOWN_HEADING = re.compile(r"#{1,6}(?:\s.*|[0-9A-Z].*)?")  # (`##101`, `#Rules`: a heading; `#channel` not)
_FRONT_MATTER_STATUS_IN_FORCE = {"", "accepted", "adopted", "active", "enacted", "in force", "in effect", "passed"}
_SEPARATOR = re.compile(r"(?:\*\s*)+|-|-{3,}|={3,}")
_EMBED = re.compile(r"\[[A-Za-z]+ #\d+\]")  # a widget placeholder such as "[Poll #910255]", not "[Repealed]"
_LIST_ITEM = re.compile(r"-\s+\S.*")
_SENTENCE_END = re.compile(r"[.!?:][\"'\u201d\u2019)\]]*$")
_TITLE_END = re.compile(r"[.:;!?,][\"'\u201d\u2019)\]]*$")
_CLOSED = re.compile(r"[.!?][\"'\u201d\u2019)\]]*$")  # words ended as a sentence is (not by a colon)
_FIRST_SENTENCE = re.compile(r"(\S.*?)\.\s+(\S.*)")

MAX_TITLE_LINE_WORDS = 10   # "Silly naming rule" is a title, a wrapped sentence is longer
MAX_TITLE_SENTENCE_WORDS = 5  # "Two classes of Rules." opens every Solitaire rule
MIN_REPEATED_WORDS = 4      # shorter lines ("Nomic") repeat by chance, not as page furniture
# A mail's sign-off: a closing word or two, and perhaps a name on the same line (`Cheers, Ann`, `Best regards,`;
# not `Love thy neighbour.`: a name is capitalized)
_SIGN_OFF = re.compile(r"(?:cheers|thanks|thank\s+you|thx|best|best\s+wishes|(?:kind\s+|best\s+|warm\s+)?regards|"
                       r"yours(?:\s+truly)?|sincerely|love|ciao|bye|take\s+care|all\s+the\s+best)\s*[,.!]*"
                       r"(?:\s*-*\s*(?-i:[A-Z])[\w.'-]*(?:\s+(?-i:[A-Z])[\w.'-]*){0,2})?", re.IGNORECASE)
_SIGN_OFF_LINES = 4  # the last lines of words a sign-off may be among (its closing, the name, a nickname)
_NAME_WORDS = 3      # the words of a line after the closing that is a name, not a rule's sentence
WRAPPED_LINE_LENGTH = 40    # lines this long tell whether the text is hard-wrapped
NO_RULES = "no numbered rules found (a rule starts with a line like '101. text' or '101' alone)"


_RULES_MD = re.compile(r"^ {0,3}###[ \t]+\d", re.MULTILINE)  # a rule heading: the text is rules.md already
# What a line of the archive never holds: line breaks, controls, and halves of characters (JSON's "\ud800").
_CONTROL = re.compile(r"[\x00-\x1f\x7f\u2028\u2029\ud800-\udfff]+")
MAX_TITLE_CHARS = MAX_LINE_CHARS // 2  # a title and what its heading or change paragraph says around it fit a line


def clean_line(value: str) -> str:
    """A value for one `Key: value` line or heading: no line breaks or control characters from the source."""
    return " ".join(_CONTROL.sub(" ", value).split())


def one_line(value: str) -> str:
    """A text of several lines on one, as the Rulekeepor's generator joins an annotation's: each line's ends
    trimmed, the lines joined by a space; two spaces within a line (`made.  Then`) kept."""
    lines = _CONTROL.sub(_line_break_or_space, value.replace("\r\n", "\n")).split("\n")
    return " ".join(line.strip() for line in lines).strip()


def _line_break_or_space(m: re.Match) -> str:
    return "".join("\n" if character in "\n\r\u2028\u2029" else " " for character in m.group(0))


def short_title(raw: str, limit: int = MAX_TITLE_CHARS) -> tuple[str, str | None]:
    """A title from a record on one line, and at most `limit` characters long; with what was done to it, if
    anything."""
    title = clean_line(raw)
    if len(title) <= limit:
        return title, None
    return title[:limit - 1] + "\u2026", f"it is {len(title):,} characters long, cut to {limit:,}"


def rule_label(raw: str) -> str:
    """A rule's label as rules.md and the log can hold it: one line (`short_title`'s length), each invisible
    character written as its escape, as a title's."""
    return invisible_escaped(short_title(clean_line(raw))[0])[0]


def rule_title(raw: str) -> tuple[str, str | None]:
    """A rule's title as rules.md and the log can hold it (`short_title`), each invisible character written as its
    escape: a title gets a player's name's rules (model/names.py), so that U+202E cannot turn it round for every
    reader. With what was done to it, if anything."""
    title, why = short_title(raw)
    written, hidden = invisible_escaped(title)
    if not hidden:
        return title, why
    return written, f"the title '{written}' held invisible characters, written as their escapes"


def is_rules_md(text: str) -> bool:
    """Whether `text` is a ruleset in the archive's own format (rules.md, a snapshot) rather than plain text."""
    return _RULES_MD.search(text) is not None


class RulesetImportError(Exception):
    """The text could not be read as a ruleset; `line` (1-based, 0 when unknown) says where, and `file` which
    file, when the ruleset is a folder of files."""

    def __init__(self, message: str, line: int = 0, file: str | None = None):
        super().__init__(message)
        self.line = line
        self.file = file


class NoRulesFound(RulesetImportError):
    """A file in which no line starts a rule, or a folder none of whose files is a rule. Said with how `import
    text` is told where a file's rules are; a git import, which reads the rules at each commit, says `said` of the
    commit (a game's rules file begun empty)."""

    def __init__(self, file: str | None = None, said: str = NO_RULES,
                 hint: str = "; name where they start and stop with --start and --stop"):
        super().__init__(said + hint, 0, file)
        self.said = said


class YamlBeyondBounds(RulesetImportError):
    """A YAML document that would expand past what a file may hold: a YAML bomb, refused whole (never a slip of
    a record to write around)."""


_OPEN_KEY = object()  # a mapping's place for its next key


def load_yaml(text: str):
    """A YAML document as PyYAML's BaseLoader reads it (every scalar a string, so that "1.10" and a date stay as
    written; tags make nothing), built here from the parser's events so that it is bounded while it is read: at
    most MAX_YAML_ALIASES aliases, MAX_NESTING collections deep (libyaml takes the square of the depth), and
    MAX_FILE_BYTES characters with every alias expanded, as anything that walks it would expand them.

    Raises yaml.YAMLError when it is not one YAML document, YamlBeyondBounds (at its line) past a bound."""
    import yaml  # only the readers of rule files need it

    opened: list[list] = []  # each open collection: [its value, the key awaiting a value, anchor, expanded size]
    anchors: dict[str, tuple[object, int]] = {}
    root, documents, aliases, expanded = None, 0, 0, 0

    def beyond(event, what: str) -> YamlBeyondBounds:
        return YamlBeyondBounds(f"{what} (a YAML bomb?): refused whole", event.start_mark.line + 1)

    def place(value, size: int, event) -> None:
        nonlocal root
        if not opened:
            root = value
            return
        parent = opened[-1]
        parent[3] += size
        if isinstance(parent[0], list):
            parent[0].append(value)
        elif parent[1] is _OPEN_KEY:
            if not isinstance(value, str):
                raise yaml.constructor.ConstructorError("while constructing a mapping", None, "found unhashable key",
                                                        event.start_mark)
            parent[1] = value
        else:
            parent[0][parent[1]] = value
            parent[1] = _OPEN_KEY

    for event in yaml.parse(text, Loader=getattr(yaml, "CBaseLoader", yaml.BaseLoader)):
        if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            if len(opened) == MAX_NESTING:
                raise beyond(event, f"its values nest more than {MAX_NESTING} deep")
            opened.append([[] if isinstance(event, yaml.SequenceStartEvent) else {}, _OPEN_KEY, event.anchor, 1])
            expanded += 1
            continue
        if isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            value, _, anchor, size = opened.pop()
        elif isinstance(event, yaml.ScalarEvent):
            value, anchor, size = event.value, event.anchor, len(event.value) + 1
            expanded += size
        elif isinstance(event, yaml.AliasEvent):
            aliases += 1
            if aliases > MAX_YAML_ALIASES:
                raise beyond(event, f"it holds more than {MAX_YAML_ALIASES} aliases")
            if event.anchor not in anchors:
                held = any(item[2] == event.anchor for item in opened)
                raise beyond(event, f"the alias *{event.anchor} stands inside the value it names") if held else \
                    yaml.composer.ComposerError(None, None, f"found undefined alias {event.anchor!r}", event.start_mark)
            (value, size), anchor = anchors[event.anchor], None
            expanded += size
        else:
            if isinstance(event, yaml.DocumentStartEvent):
                documents += 1
                if documents > 1:
                    raise yaml.composer.ComposerError("expected a single document in the stream", None,
                                                      "but found another document", event.start_mark)
            continue
        if expanded > MAX_FILE_BYTES:
            raise beyond(event, f"its aliases expand it past {MAX_FILE_BYTES:,} characters")
        if anchor is not None:
            anchors[anchor] = (value, size)
        place(value, size, event)
    return root


def yaml_problem(error, first_line: int = 1) -> tuple[int, str]:
    """Where PyYAML found a document unreadable (its line in the file, the document starting on `first_line`; 0
    when unknown) and what it found, in a few words without the source it quotes ("did not find expected ','
    or ']' (while parsing a flow sequence at line 2)")."""
    def line(mark) -> int:
        return mark.line + first_line if mark is not None else 0

    problem = getattr(error, "problem", None) or str(error).split("\n", 1)[0]
    context, mark = getattr(error, "context", None), getattr(error, "context_mark", None)
    if context and mark is not None:
        problem = f"{problem} ({context} at line {line(mark)})"
    elif context:
        problem = f"{context}, {problem}"
    return line(getattr(error, "problem_mark", None)), problem


class Kind(Enum):
    BLANK = "blank"
    SEPARATOR = "separator"
    CLASS_HEADING = "class heading"
    RULE_START = "rule start"
    HEADING = "heading"     # a Markdown heading that is not a numbered rule ("##PRIV - Private Data"): ends a rule
    LIST_ITEM = "list item"
    TEXT = "text"


# How a rule's start is written. A file's rules are all written one way: the way most of its rule starts are, the
# headings and bold numbers (markup) before the plain ones, which numbered lists inside rules also look like.
HEADING_STYLES = tuple(f"h{level}" for level in range(1, 7))  # "## 101/0 (IMMUTABLE)", "# Rule 3: Title", setext
BOLD = "bold"               # "**101** *Title*", "** Rule 1 **", "**Rule 6: Votes**"
BOLD_ITEM = "bold item"     # "* **Rule 19** *(Strength=10)*", "- **Rule 6: Triple Votes**"
CODE = "code"               # "`2.` Players vote.": the number in a code span
INLINE = "inline"           # "101. text", "Rule 101: text"
ALONE = "alone"             # "101", "Rule 101", "Rule 101/0 (IMMUTABLE)" on a line of its own
ITEM = "item"               # "- 201. text", "* 203. text": a list of numbered rules (a wiki's, a forum's)
MARKUP_STYLES = (*HEADING_STYLES, BOLD, BOLD_ITEM, CODE)


@dataclass
class Line:
    index: int              # 0-based line in the input
    kind: Kind
    raw: str                # without trailing whitespace
    number: int | None = None
    rest: str | None = None  # the text after "101." on a rule-start line
    rule_class: str | None = None
    title: str | None = None  # the title a rule's heading gives
    heading: bool = False     # a Markdown heading (ATX or setext), whether or not it starts a rule
    level: int = 0            # a Markdown heading's level ("##" is 2)
    style: str | None = None  # how a rule start is written (one of the styles above)
    revision: int | None = None  # "101/3": the rule's revision
    words: str | None = None  # a heading's words, without its marks, anchor and emphasis
    anchor: str | None = None  # a heading's tag: <a name='glossary'/> (an outline's rules are known by it)
    key: str | None = None    # how the record numbers a rule its number is made from ("1-1", "4E83")
    note: str | None = None   # the keeper's note of where a rule came from, on its start ("Initial Rule")
    starts_block: bool = False  # a numbered line read as text ("1. one to vote with;"): a paragraph of its own

    @property
    def text(self) -> str:
        return self.raw.strip()

    @property
    def content(self) -> str:
        """The rule text on the line: without its "101." when it starts a rule."""
        return self.rest if self.rest is not None else self.text


@dataclass
class Block:
    is_list_item: bool
    text: str               # whitespace collapsed, not yet escaped


@dataclass
class Rule:
    """A rule while it is read: its lines, from its start to the next."""

    number: int
    rule_class: str | None  # IMMUTABLE or MUTABLE; None: not recorded
    lines: list[Line]
    line: int               # 1-based, for messages
    number_alone: bool = False  # "101" on its own line: the next line may be a title
    title: str | None = None
    blocks: list[Block] = field(default_factory=list)
    class_from: str = ""    # where its class was read: "heading" (its own), "section", "front matter", "folder"
    revision: int | None = None
    topic: str | None = None
    key: str | None = None
    place: str | None = None
    label: str | None = None  # the record's own name for it, where its number is made (rules.md's `Label:`)
    note: str | None = None  # the keeper's note on its start, kept as a history line
    file: str | None = None
    text: str = ""          # its text as rules.md holds it, once written
    words: str = ""         # its text's words as read (what a rule of the game says of the others)
    history: list[tuple[int, str]] = field(default_factory=list)
    annotations: list[str] = field(default_factory=list)
    front_matter: dict = field(default_factory=dict)
    position: int = 0       # its place among the items of a JSON file


class Note(NamedTuple):
    """Something a reader of a rules file should hear of: a file (None: the one read), a 1-based line (0: the
    file as a whole), and what."""

    file: str | None
    line: int
    message: str


@dataclass(frozen=True)
class ImportedRule:
    """One rule as read: its text is Markdown, rules.md's, that renders as the source shows it."""

    number: int
    rule_class: str | None  # IMMUTABLE or MUTABLE; None when the record gives it no class
    title: str | None       # as written, not escaped
    text: str
    line: int               # 1-based line of its start in its file
    file: str | None = None  # the file it is in, when a folder or several files are read
    revision: int | None = None  # "## 101/3": the keepers' count of its changes
    # What its section says of its past (a `History` heading's lines, `History:` lines), each line as written
    # (record.history_entry reads it) with its 1-based line in its file (0: the record gives none, as JSON).
    history: tuple[tuple[int, str], ...] = ()
    annotations: tuple[str, ...] = ()  # notes kept with it, not its text (Markdown)
    topic: str | None = None  # the heading that groups it, not naming a class ("Voting")
    key: str | None = None  # its identity where the file numbers no rules (an outline's tag, "glossary")
    # The record's own name for it where its number is made (`4E83`, `UC1`, a tag, an outline's `2.2.1`): the
    # site shows it beside the number (rules.md's `Label:`).
    label: str | None = None
    front_matter: dict = field(default_factory=dict)  # its file's front matter, keys in lower case


@dataclass(frozen=True)
class ImportedRuleset:
    rules: list[ImportedRule]  # in the order the file (or folder) holds them
    left_out: list[Note] = field(default_factory=list)  # what was not read as a rule, and why
    rewritten: list[Note] = field(default_factory=list)  # what was written otherwise than it reads (a title cut)
    guessed: list[Note] = field(default_factory=list)  # what the record does not say and the reader took for it


def classify(raw_lines: list[str]) -> list[Line]:
    """Each line's kind. A fenced block (closed) is text whatever its lines look like; a line of words underlined
    with `===` or `---` is a heading (setext), its underline blank."""
    lines: list[Line] = []
    fence: str | None = None
    underlined = False
    # For each fence character, the longest run of it that closes a fence at or after each line.
    closable = {char: [0] * (len(raw_lines) + 1) for char in "`~"}
    for index in range(len(raw_lines) - 1, -1, -1):
        for char, longest in closable.items():
            longest[index] = longest[index + 1]
        if (m := FENCE.match(raw_lines[index])) and not raw_lines[index][m.end():].strip():
            longest = closable[m.group(1)[0]]
            longest[index] = max(longest[index], len(m.group(1)))
    for index, raw in enumerate(raw_lines):
        if underlined:
            lines.append(Line(index, Kind.BLANK, raw))
            underlined = False
            continue
        if fence is not None:
            fence = None if closes_fence(raw, fence) else fence
            lines.append(Line(index, Kind.TEXT, raw))
            continue
        if (m := FENCE.match(raw)) and closable[m.group(1)[0]][index + 1] >= len(m.group(1)):
            fence = m.group(1)  # (one never closed is no fence: plain text may start a line with ```)
            lines.append(Line(index, Kind.TEXT, raw))
            continue
        line = _classify(index, raw)
        following = raw_lines[index + 1] if index + 1 < len(raw_lines) else ""
        if (line.kind in (Kind.TEXT, Kind.RULE_START, Kind.CLASS_HEADING) and not line.heading
                and line.style != BOLD_ITEM and not raw.startswith("    ") and _WORD.search(raw)
                and (m := _UNDERLINE.fullmatch(following))):
            line = _classify_heading(index, raw, 1 if m.group(1)[0] == "=" else 2, line.text)
            underlined = True
        lines.append(line)
    return lines


def _classify(index: int, raw: str) -> Line:
    stripped = raw.strip()
    if not stripped:
        return Line(index, Kind.BLANK, raw)
    if _SEPARATOR.fullmatch(stripped):
        return Line(index, Kind.SEPARATOR, raw)
    if m := _CLASS_WORD.fullmatch(stripped):  # "IMMUTABLE" alone, as a mailed ruleset heads its classes
        return Line(index, Kind.CLASS_HEADING, raw, rule_class=IMMUTABLE if m.group(1) else MUTABLE, words=stripped)
    if m := _CLASS_HEADING.fullmatch(stripped):
        level = _heading_level(stripped)
        return Line(index, Kind.CLASS_HEADING, raw, rule_class=IMMUTABLE if m.group(1) else MUTABLE,
                    heading=level > 0, level=level, words=stripped.lstrip("#").strip())
    if _MARKDOWN_HEADING.fullmatch(stripped):
        level = _heading_level(stripped)
        return _classify_heading(index, raw, level, _CLOSING_SEQUENCE.sub("", stripped[level:]).strip())
    if m := _BOLD_START.fullmatch(stripped):
        if inner := _RULE_NUMBER.fullmatch(m.group(3)):
            rule_class, title = heading_class_and_title(inner.group(3))
            rest = m.group(4).strip()
            words = inner.group(3).strip()
            if m.group(1) and raw[:1] in "-*+" and rule_class is None and _is_sentence(words):
                # "- **101. All players must...**": a numbered list of rules, a rule's whole text in bold
                return Line(index, Kind.RULE_START, raw, number=int(inner.group(1)), rest=f"{words} {rest}".strip(),
                            style=ITEM)
            if emphasised := _EMPHASIS.fullmatch(rest):  # "**101** *Title*": the title, in italics
                rule_class, title, rest = rule_class or heading_class_and_title(emphasised.group(2))[0], \
                    title or heading_class_and_title(emphasised.group(2))[1], ""
            elif rule_class is None and (marked := _CLASS_BEFORE_TEXT.match(rest)):  # "**101.** *immutable.* Text"
                rule_class, rest = IMMUTABLE if marked.group(2) or marked.group(3) else MUTABLE, rest[marked.end():]
            return Line(index, Kind.RULE_START, raw, number=int(inner.group(1)), rest=rest or None,
                        rule_class=rule_class, title=title, style=BOLD_ITEM if m.group(1) else BOLD,
                        revision=_revision(inner.group(2)))
    if m := _CODE_START.fullmatch(stripped):
        return Line(index, Kind.RULE_START, raw, number=int(m.group(1)), rest=m.group(2).strip() or None, style=CODE)
    if (m := _RULE_ALONE.fullmatch(stripped.lstrip("*"))) and m.group(4) and not m.group(3):
        # its class in brackets after its number, and a note of where it came from: the title on the next line
        # (the asterisks some lists put before a rule say its class again: `**Rule 102. [immutable]`)
        return _alone(index, raw, m)
    if m := _RULE_INLINE.fullmatch(stripped):
        if bold := _BOLD.fullmatch(m.group(2)):  # "101: **Victory Condition**": its title
            return Line(index, Kind.RULE_START, raw, number=int(m.group(1)), title=bold.group(2).strip(), style=INLINE)
        return Line(index, Kind.RULE_START, raw, number=int(m.group(1)), rest=m.group(2), style=INLINE)
    if m := _RULE_ALONE.fullmatch(stripped):
        return _alone(index, raw, m)
    if m := _ITEM_START.fullmatch(raw):  # (at the line's start: an item under another is a rule's list)
        return Line(index, Kind.RULE_START, raw, number=int(m.group("n") or m.group("quoted")), rest=m.group("rest"),
                    style=ITEM)
    if _LIST_ITEM.fullmatch(stripped):
        return Line(index, Kind.LIST_ITEM, raw)
    return Line(index, Kind.TEXT, raw)


def _classify_heading(index: int, raw: str, level: int, words: str) -> Line:
    """A heading (`level` 1 to 6) whose text is `words`: a rule's start when it begins with a number, a class
    heading when it names one, else a heading (its anchor, if it has one, kept)."""
    anchor = None
    if m := _ANCHOR.match(words):
        anchor, words = m.group(1), words[m.end():].strip()
    words = _EMPHASIS.fullmatch(words).group(2).strip() if _EMPHASIS.fullmatch(words) else words
    if m := _CLASS_HEADING.fullmatch(words):
        return Line(index, Kind.CLASS_HEADING, raw, rule_class=IMMUTABLE if m.group(1) else MUTABLE, heading=True,
                    level=level, words=words)
    if m := _PLACED_NUMBER.fullmatch(words):
        rule_class, title = heading_class_and_title(m.group(4))
        key = f"{int(m.group(1))}{m.group(2).upper()}{int(m.group(3))}"
        return Line(index, Kind.RULE_START, raw, number=placed_number(int(m.group(1)), int(m.group(3))),
                    rule_class=rule_class, title=title, heading=True, level=level, style=f"h{level}", words=words,
                    key=key)
    if m := _BELOW_ZERO.fullmatch(words):  # (read otherwise, the numbered lists inside such rules were taken for rules)
        rule_class, title = heading_class_and_title(m.group(2))
        return Line(index, Kind.RULE_START, raw, number=below_zero_number(int(m.group(1))), rule_class=rule_class,
                    title=title, heading=True, level=level, style=f"h{level}", words=words, key=f"-{m.group(1)}")
    if (m := _ROMAN_RULE.fullmatch(words)) and (value := roman_value(m.group(1))):
        rule_class, title = heading_class_and_title(m.group(2) or "")
        return Line(index, Kind.RULE_START, raw, number=value, rule_class=rule_class, title=title, heading=True,
                    level=level, style=f"h{level}", words=words, key=m.group(1))
    if (m := _RULE_NUMBER.fullmatch(words)) and not _SUBSECTION_NUMBER.match(words):
        rule_class, title = heading_class_and_title(m.group(3))
        return Line(index, Kind.RULE_START, raw, number=int(m.group(1)), rule_class=rule_class, title=title,
                    heading=True, level=level, style=f"h{level}", revision=_revision(m.group(2)), words=words)
    return Line(index, Kind.HEADING, raw, heading=True, level=level, words=words, anchor=anchor)


def _alone(index: int, raw: str, m: re.Match) -> Line:
    """The start of a rule written alone on its line (`_RULE_ALONE`'s match): its number, revision, title in quotes,
    class, and note of where it came from."""
    return Line(index, Kind.RULE_START, raw, number=int(m.group(1)), revision=_revision(m.group(2)),
                title=_collapse(m.group(3)) if m.group(3) else None,
                rule_class=heading_class_and_title(m.group(4) or "")[0], style=ALONE,
                note=_collapse(m.group(5) or m.group(6) or "") or None)


_ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
_ROMAN_NUMERAL = re.compile(r"M{0,3}(CM|CD|D?C{0,3})(XC|XL|L?X{0,3})(IX|IV|V?I{0,3})")  # as written canonically


def roman_value(letters: str) -> int | None:
    """The number a Roman numeral writes (`xviii`, `XVIII`: 18, in one case), None where the letters write none."""
    if not letters or letters not in (letters.upper(), letters.lower()) or \
            not _ROMAN_NUMERAL.fullmatch(letters.upper()):
        return None
    values = [_ROMAN[c] for c in letters.upper()]
    return sum(-v if i + 1 < len(values) and v < values[i + 1] else v for i, v in enumerate(values))


def below_zero_number(below: int) -> int:
    """The number of a rule the record numbers -`below` (`Rule -216`): BELOW_ZERO_END - 216, the same wherever the
    rule is read, sorted as the game's numbers are, and no number another rule can be read under."""
    return BELOW_ZERO_END - below


def placed_number(section: int, place: int) -> int:
    """A rule's number for its place in a section or an era (`1-1`, `4E83`): the section in thousands (1001,
    4083), the same wherever the rule is read, as the game's own numbers sort."""
    return section * 1000 + place


def _is_sentence(words: str) -> bool:
    """Whether words in a title's place are a sentence of the rule's text: too long for a title, or ended as a
    sentence is (not by a colon: `**Rule 22: Redistribution of wealth:**` is a title)."""
    return len(words.split()) > MAX_TITLE_LINE_WORDS or bool(_CLOSED.search(words))


def title_words(words: str, questions: bool = False) -> bool:
    """Whether words may be a rule's title: a few, without closing punctuation (with `questions`, a question may
    be one: `What is a proposal?`)."""
    closed = _TITLE_END.search(words) and not (questions and words.endswith("?"))
    return len(words.split()) <= MAX_TITLE_LINE_WORDS and not closed


def _revision(text: str | None) -> int | None:
    return int(text) if text else None


def find_line(lines: list[Line], needle: str, after: int, option: str) -> int:
    """The index of the first line from `after` holding `needle` (the text of --start or --stop, `option`)."""
    for line in lines[after:]:
        if needle in line.raw:
            return line.index
    where = " after the start of the rules" if option == "stop" else ""
    raise RulesetImportError(f"{option} text '{needle}' not found{where}")


def region_begin(lines: list[Line], start: str | None, style: str = INLINE) -> int:
    """The first line of the rules: `start`, else the first class heading, else after "Initial Ruleset", else the
    first line of the plain `style` the file's rules are written in ("101. text" or "101" alone)."""
    if start is not None:
        return find_line(lines, start, 0, "start")
    for line in lines:
        if line.kind is Kind.CLASS_HEADING or (line.kind is Kind.RULE_START and line.heading):
            return line.index
    for line in lines:
        if _RULESET_HEADING.fullmatch(line.text):
            return line.index + 1
    for wanted in (style, INLINE if style == ALONE else ALONE):
        for line in lines:
            if line.kind is Kind.RULE_START and line.style == wanted:
                above = next((other for other in reversed(lines[:line.index]) if other.kind is not Kind.BLANK), None)
                # (from a heading right over it, its topic: `## Players`, not a file's title `# Rules`)
                return above.index if above and above.kind is Kind.HEADING and above.level > 1 else line.index
    raise NoRulesFound()


def region_end(lines: list[Line], begin: int, stop: str | None) -> int:
    """Where trailing chatter starts: `stop`, a signature, a widget, furniture repeated from before the rules, or a
    mail's sign-off after the last rule (`Cheers,` and a name)."""
    end = find_line(lines, stop, begin, "stop") if stop is not None else len(lines)
    seen_before = {_collapse(line.text) for line in lines[:begin] if len(line.text.split()) >= MIN_REPEATED_WORDS}
    for line in lines[begin:end]:
        if (line.raw == "--" or _EMBED.fullmatch(line.text)
                or _collapse(line.text) in seen_before):
            return line.index
    return _sign_off(lines, begin, end) if stop is None else end


def _sign_off(lines: list[Line], begin: int, end: int) -> int:
    """Where a sign-off starts among the last lines before `end` (`Cheers,` / `Ann`, `Thanks! -- Bo`): a closing
    word opening a paragraph, only a name or two after it; else `end`. A rule's own sentence (`Thanks are due to
    the Judge.`) is longer than that."""
    words = [line for line in lines[begin:end] if line.kind is not Kind.BLANK]
    tail = words[-_SIGN_OFF_LINES:]
    for at, line in enumerate(tail):
        before = lines[line.index - 1] if line.index > begin else None
        if _SIGN_OFF.fullmatch(line.text.strip()) and (before is None or before.kind is Kind.BLANK) \
                and all(len(rest.text.split()) <= _NAME_WORDS for rest in tail[at + 1:]):
            return line.index
    return end


@dataclass(frozen=True)
class Layout:
    """How the text marks paragraphs: one per line, or hard-wrapped with blank lines between, or hard-wrapped
    with nothing between (then a line ending a sentence well short of the margin ends a paragraph)."""

    wrapped: bool
    blank_separated: bool
    width: int              # the right margin of wrapped text

    @classmethod
    def of(cls, region: list[Line]) -> Layout:
        # Hard-wrapped text breaks most long lines mid-sentence; one paragraph per line ends them with a full stop.
        long_lines = [line.text for line in region if line.kind in (Kind.TEXT, Kind.RULE_START, Kind.LIST_ITEM)
                      and len(line.text) >= WRAPPED_LINE_LENGTH]
        open_ended = sum(1 for text in long_lines if not _SENTENCE_END.search(text))
        # The margin is where most long lines end, not the longest line (a table, an address runs past it).
        lengths = sorted(len(line.raw) for line in region if line.kind in (Kind.TEXT, Kind.RULE_START, Kind.LIST_ITEM))
        return cls(wrapped=open_ended * 2 > len(long_lines),
                   blank_separated=any(line.kind is Kind.BLANK for line in region),
                   width=lengths[(len(lengths) * 19) // 20] if lengths else 0)

    def fits(self, line: str, next_line: str) -> bool:
        """Would the next line's first word have fitted on this line? Then the break was not a wrap."""
        return len(line) + 1 + len(next_line.split()[0]) <= self.width

    def continues(self, previous: Line, line: Line) -> bool:
        """Does `line` continue the paragraph (or list item) of the line before it?"""
        if not self.wrapped:
            return False
        if self.blank_separated:
            return True
        return not (_SENTENCE_END.search(previous.text) and self.fits(previous.raw, line.text))

    def may_start_rule(self, previous: Line | None) -> bool:
        """In wrapped text a line starting with a number may just continue a sentence ("301, and each...")."""
        if not self.wrapped or previous is None or previous.kind in (Kind.BLANK, Kind.SEPARATOR, Kind.CLASS_HEADING):
            return True
        return bool(_SENTENCE_END.search(previous.text))


def increasing_subsequence(numbers: list[int]) -> set[int]:
    """Positions of the longest strictly increasing run of rule numbers, the tightest one on a tie.

    The best run ending at each position extends the best one (longest, then starting at the highest number,
    then the earliest) that ends before it at a smaller number. A Fenwick tree of maxima over the numbers'
    ranks finds that one in log time, so a text of many thousand numbered lines stays quick."""
    ranks = {value: rank for rank, value in enumerate(sorted(set(numbers)), start=1)}
    tree: list[tuple[int, int, int] | None] = [None] * (len(ranks) + 1)  # (length, first number, -position)
    best: list[tuple[int, int]] = []  # (length, first number - last number) of the run ending at each position
    previous: list[int] = []
    for i, number in enumerate(numbers):
        found: tuple[int, int, int] | None = None
        rank = ranks[number] - 1  # runs ending at a smaller number
        while rank > 0:
            if tree[rank] is not None and (found is None or tree[rank] > found):
                found = tree[rank]
            rank -= rank & -rank
        length, first, before = (found[0] + 1, found[1], -found[2]) if found else (1, number, -1)
        best.append((length, first - number))
        previous.append(before)
        entry = (length, first, -i)
        rank = ranks[number]
        while rank < len(tree):
            if tree[rank] is None or entry > tree[rank]:
                tree[rank] = entry
            rank += rank & -rank
    chosen: set[int] = set()
    position = max(range(len(numbers)), key=best.__getitem__, default=-1)
    while position >= 0:
        chosen.add(position)
        position = previous[position]
    return chosen


def collect_plain_rules(region: list[Line], layout: Layout, style: str, left_out: list[Note],
                        file: str | None) -> list[Rule]:
    """The rules in `region`, a text whose rules start with plain numbers in `style` ("101. text", or "101" alone
    with "101. text" too when that is the commoner): in each class section, the longest run of such lines
    numbered in increasing order (a number out of order is far more often a wrapped line or a list item than a
    rule), each other one named in `left_out` as read for text."""
    # ("1. item" lists inside "Rule 101/0" rules)
    styles = (INLINE, ALONE) if style == INLINE else (ITEM,) if style == ITEM else (ALONE,)
    sections: list[tuple[str | None, list[Line]]] = [(None, [])]
    for line in region:
        if line.kind is Kind.CLASS_HEADING:
            sections.append((line.rule_class, []))
        else:
            sections[-1][1].append(line)
    has_headings = len(sections) > 1
    uses_separators = any(line.kind is Kind.SEPARATOR for line in region)
    rules: list[Rule] = []
    for rule_class, lines in sections:
        candidates = [i for i, line in enumerate(lines) if line.kind is Kind.RULE_START
                      and line.style in styles and layout.may_start_rule(lines[i - 1] if i else None)]
        accepted = {candidates[k] for k in increasing_subsequence([lines[i].number for i in candidates])}
        # A heading right over a rule (`## Voting`, then `201. ...`) is the topic of the rules under it, not text
        # of the rule before; one over text is that rule's own. The one such heading of its level is the file's
        # title (`## Rules`), no topic.
        following = [next((j for j in range(i + 1, len(lines)) if lines[j].kind is not Kind.BLANK), None)
                     if line.kind is Kind.HEADING else None for i, line in enumerate(lines)]
        levels = Counter(line.level for i, line in enumerate(lines) if following[i] in accepted)
        preamble: list[Line] = []
        current: Rule | None = None
        topic: str | None = None
        for i, line in enumerate(lines):
            if following[i] in accepted:
                current, topic = None, line.words if levels[line.level] > 1 else None
                continue
            if i in accepted:
                # The rule's first line keeps its full width, which tells wrapped lines from paragraph ends.
                body = [Line(line.index, Kind.TEXT, line.raw, rest=line.rest)] if line.rest is not None else []
                current = Rule(line.number, line.rule_class or rule_class, body, line.index + 1,
                               number_alone=line.rest is None and line.title is None, title=line.title,
                               class_from="heading" if line.rule_class else "section" if rule_class else "",
                               revision=line.revision, topic=topic, note=line.note)
                rules.append(current)
                continue
            if i in candidates and current is not None:
                left_out.append(Note(file, line.index + 1, f"'{_shown(line.text)}' is read as text of rule "
                                     f"{current.number}, not as a rule: its number is out of order"))
            if line.style == ITEM and i not in candidates:  # ("- 1. item", a list of a rule's text)
                line = Line(line.index, Kind.LIST_ITEM, line.raw)
            if line.kind in (Kind.RULE_START, Kind.HEADING):  # a number out of sequence, a heading: text
                previous = lines[i - 1] if i else None
                line = Line(line.index, Kind.TEXT, line.raw, starts_block=line.kind is Kind.RULE_START and (
                    layout.may_start_rule(previous) or previous.kind is Kind.RULE_START))
            (current.lines if current else preamble).append(line)
        if not has_headings and uses_separators:
            rules[:0] = _unnumbered_rules(preamble, numbered=rules)
    return rules


def _shown(text: str, limit: int = 60) -> str:
    """A line of the source quoted in a message: on one line, and cut when long."""
    return short_title(text, limit)[0]


def heading_class_and_title(rest: str) -> tuple[str | None, str | None]:
    """"(IMMUTABLE)" -> (immutable, None); "Immutable - Scope" -> (immutable, "Scope"); "- Scope" -> (None, "Scope")."""
    rest = rest.strip(_HEADING_PUNCTUATION)
    rule_class = None
    if m := _HEADING_CLASS.match(rest):
        rule_class = IMMUTABLE if m.group(1) else MUTABLE
        rest = rest[m.end():].strip(_HEADING_PUNCTUATION)
    elif m := re.search(r"\s*[(\[]\s*(im)?mutable\s*[)\]]$", rest, re.IGNORECASE):  # "Scope (Immutable)"
        rule_class = IMMUTABLE if m.group(1) else MUTABLE
        rest = rest[:m.start()].strip(_HEADING_PUNCTUATION)
    if m := _EMPHASISED_TITLE.fullmatch(rest):  # "#### 101: **Victory Condition**": the emphasis is no part of it
        rest = m.group(2)
    return rule_class, _collapse(rest) or None


def _heading_level(stripped: str) -> int:
    return len(stripped) - len(stripped.lstrip("#"))


def _unnumbered_rules(preamble: list[Line], numbered: list[Rule]) -> list[Rule]:
    """Solitaire Nomic: its immutable rules are unnumbered paragraphs after "-" lines; number them 1, 2, 3...

    Its own rules give immutable rules numbers under 20 and mutable ones 20 or more, so the numbered rules
    that follow are mutable. Text before the first separator is an introduction, not a rule.
    """
    chunks: list[list[Line]] = [[]]
    for line in preamble:
        if line.kind is Kind.SEPARATOR:
            chunks.append([])
        else:
            chunks[-1].append(line)
    chunks = [chunk for chunk in chunks[1:] if any(line.kind is not Kind.BLANK for line in chunk)]
    if chunks:
        for rule in numbered:
            rule.rule_class, rule.class_from = MUTABLE, "section"
    return [Rule(number, IMMUTABLE, chunk, chunk[0].index + 1, class_from="section")
            for number, chunk in enumerate(chunks, start=1)]


def check_rules(rules: list[Rule]) -> None:
    first_line: dict[int, int] = {}
    for rule in rules:
        if rule.number in first_line:
            raise RulesetImportError(f"rule {rule.number} appears twice (first at line {first_line[rule.number]})",
                                     rule.line)
        first_line[rule.number] = rule.line
        if not any(line.kind in (Kind.TEXT, Kind.LIST_ITEM) for line in rule.lines):
            raise RulesetImportError(f"rule {rule.number} has no text", rule.line)


def title_line(lines: list[Line], layout: Layout, questions: bool = False) -> tuple[str | None, list[Line]]:
    """A short first line without closing punctuation, followed by more text, is the rule's title: right under
    the number, or a paragraph of its own (a blank line between the number and a wrapped paragraph says that
    paragraph is text). `History:` lines under the number, the rule's record of its past, are passed over. With
    `questions`, a short question is a title too (`What is a proposal?`, where the record titles every rule so)."""
    head = 0
    while head < len(lines) and (lines[head].kind is Kind.BLANK or lines[head].text.lower().startswith("history:")):
        head += 1
    history = [line for line in lines[:head] if line.kind is not Kind.BLANK]
    rest = lines[head:] if history else lines
    content = [i for i, line in enumerate(rest) if line.kind is not Kind.BLANK]
    if len(content) < 2 or rest[content[0]].kind is not Kind.TEXT or rest[content[1]].kind is Kind.SEPARATOR:
        return None, lines
    if content[0] > 0 and content[1] == content[0] + 1:
        return None, lines
    first, following = rest[content[0]], rest[content[1]]
    if not title_words(first.text, questions):
        return None, lines
    if layout.wrapped and not layout.fits(first.raw, following.text):  # a wrapped line would have taken that word
        return None, lines
    return _collapse(first.text), history + rest[content[0] + 1:]


def text_blocks(lines: list[Line], layout: Layout) -> list[Block]:
    """Paragraphs and list items, each on one line, whitespace collapsed."""
    pieces: list[tuple[bool, list[str]]] = []  # each block's lines, joined once (joining per line costs the square)
    previous: Line | None = None
    for line in lines:
        if line.kind in (Kind.BLANK, Kind.SEPARATOR):
            previous = None
            continue
        if line.kind is Kind.LIST_ITEM:
            pieces.append((True, [line.text[1:]]))
        elif previous is not None and not line.starts_block and layout.continues(previous, line):
            pieces[-1][1].append(line.content)
        else:
            pieces.append((False, [line.content]))
        previous = line
    return [Block(is_list_item, _collapse(" ".join(parts))) for is_list_item, parts in pieces]


def split_title_sentences(rules: list[Rule]) -> None:
    """When every untitled rule opens with a sentence of a few words ("Scoring. The player..."), that is its title.

    A document-wide decision: one rule opening with a long sentence shows the text has no such titles.
    """
    untitled = [rule for rule in rules if rule.title is None]
    splits = []
    for rule in untitled:
        first = rule.blocks[0]
        m = None if first.is_list_item else _FIRST_SENTENCE.fullmatch(first.text)
        if m is None or len(m.group(1).split()) > MAX_TITLE_SENTENCE_WORDS:
            return
        splits.append(m)
    for rule, m in zip(untitled, splits):
        rule.title = m.group(1)
        rule.blocks[0].text = m.group(2)


_CLOSING_HASHES = re.compile(r"(?:^|[ \t])#+$")  # what a heading's reader takes for its closing sequence


def heading_text(text: str) -> str:
    """A heading's text (one line), such that its reader gives it back as it is: one that ends in what the reader
    takes for a closing sequence (`Rules #`) gets one of its own, which the reader drops instead (`Rules # #`)."""
    return f"{text} #" if _CLOSING_HASHES.search(text) else text


def rule_heading(number: int, title: str | None) -> str:
    """The text of a rule's level-3 heading in rules.md: "101" or "101. Title". The title is as written: rules.md's
    reader takes a heading's text as it stands, so an escape would show (`New \\<b>rule\\</b>`)."""
    return f"{number}. {title}" if title else str(number)


def render_blocks(blocks: list[Block], rule: Rule) -> str:
    out: list[str] = []
    previous: Block | None = None
    for block in blocks:
        if previous is not None and not (previous.is_list_item and block.is_list_item):
            out.append("")  # a blank line between blocks, none between the items of one list
        out.append(wrapped_line(f"- {_escape_block(block.text)}" if block.is_list_item else _escape_block(block.text),
                                rule))
        previous = block
    return "\n".join(out)


def wrapped_line(line: str, rule: Rule) -> str:
    """A line of `rule`'s text as `wrap` breaks it; RulesetImportError when it cannot."""
    wrapped = wrap(line)
    if wrapped is None:
        raise RulesetImportError(f"rule {rule.number} has a paragraph of {len(line):,} characters with no space "
                                 f"to break it at within {MAX_QUOTED_LINE:,} (a line may hold at most "
                                 f"{MAX_LINE_CHARS:,}, quoted in the log)", rule.line, rule.file)
    return wrapped


# Where a line of a paragraph may be broken: not before words that, starting a line of a key paragraph of the
# log, would be read as a change (parse/log.py), nor after a backslash (which would make a hard line break).
_CHANGE_AHEAD = re.compile(r"(?:enact|repeal|amend|transmute|renumber|retitle)\s+(?:(?:im)?mutable\s+)?rules?\b|"
                           r"(?:reenact|annotate)\s", re.IGNORECASE)
WRAP_WIDTH = 100
MAX_QUOTED_LINE = MAX_LINE_CHARS - len("> ")  # a rule's text is quoted in the log, a line of it one longer there
WRAP_INDENT = " " * 8  # deep enough that no continuation starts a block, in a list item or a quote too


def wrap(line: str) -> str | None:
    """A paragraph's (or a key's) one line, as it is when it fits MAX_QUOTED_LINE, else broken into lines of about
    WRAP_WIDTH characters, each after the first indented by WRAP_INDENT: a line so indented always continues its
    paragraph (it starts no list, heading, quote, fence, table or code), and its reader joins the lines with
    single spaces, as the line was. None when it has no place to break it often enough."""
    if len(line) <= MAX_QUOTED_LINE:
        return line
    words = line.split(" ")
    lines, current = [], words[0]
    for at, word in enumerate(words[1:], start=1):
        if len(current) >= WRAP_WIDTH and word and not current.endswith("\\") \
                and not _CHANGE_AHEAD.match(" ".join(words[at:at + 4])):
            lines.append(current)
            current = WRAP_INDENT + word
        else:
            current += " " + word
    lines.append(current)
    return "\n".join(lines) if all(len(part) <= MAX_QUOTED_LINE for part in lines) else None


def _collapse(text: str) -> str:
    return " ".join(text.split())


# Escapes, each only where Markdown would otherwise read the character as syntax.
_INLINE_ESCAPES = [
    (re.compile(r"\\(?=[!-/:-@\[-`{-~])"), r"\\\\"),        # a backslash before punctuation escapes it
    (re.compile(r"`"), r"\\`"),                               # code spans
    (re.compile(r"<(?=[A-Za-z/!?])"), r"\\<"),                # autolinks and HTML
    (re.compile(r"&(?=#\d+;|#[xX][0-9a-fA-F]+;|[A-Za-z][A-Za-z0-9]*;)"), r"\\&"),  # entities
    # (links and link definitions: see _escape_link_openings)
]
_DELIMITER_RUN = re.compile(r"\*+|_+")
_BLOCK_ESCAPES = [
    (re.compile(r"^(?=#{1,6}(?:\s|$)|>|[-+*](?:\s|$)|-(?:\s*-){2,}\s*$|~{3,})"), "\\\\"),  # headings, quotes, lists, rules, fences
    (re.compile(r"^(\d{1,9})(?=[.)](?:\s|$))"), r"\1\\"),    # "1. " would start an ordered list
]


def _escape_delimiter_run(m: re.Match[str]) -> str:
    """Emphasis needs a "*" or "_" run that is not spaced out on both sides ("5 * 3"), and for "_" not
    inside a word (snake_case)."""
    text, run = m.string, m.group()
    before = text[m.start() - 1] if m.start() else " "
    after = text[m.end()] if m.end() < len(text) else " "
    if before.isspace() and after.isspace():
        return run
    if run[0] == "_" and before.isalnum() and after.isalnum():
        return run
    return "".join("\\" + char for char in run)


def _escape_link_openings(text: str) -> str:
    """A backslash before each "[" whose next "]" is followed by "(", "[" or ":" (a link or link definition).

    In one pass from the end, remembering whether the nearest "]" opens a link's target: a lookahead from
    every "[" would read to the next "]" each time, the square of a line of brackets."""
    out: list[str] = []
    closes_link = False  # whether the nearest "]" after this point is followed by one of "([:"
    for index in range(len(text) - 1, -1, -1):
        char = text[index]
        if char == "]":
            closes_link = text[index + 1:index + 2] in ("(", "[", ":")
        out.append(char)
        if char == "[" and closes_link:
            out.append("\\")  # before it, once the text is turned back round
    return "".join(reversed(out))


def _escape_inline(text: str) -> str:
    for pattern, replacement in _INLINE_ESCAPES:
        text = pattern.sub(replacement, text)
    return _DELIMITER_RUN.sub(_escape_delimiter_run, _escape_link_openings(text))


def escape_markdown(text: str) -> str:
    """One paragraph of plain text as Markdown that renders as itself (line breaks become spaces)."""
    return _escape_block(_collapse(text))


def _escape_block(text: str) -> str:
    text = _escape_inline(text)
    for pattern, replacement in _BLOCK_ESCAPES:
        text = pattern.sub(replacement, text)
    return text
