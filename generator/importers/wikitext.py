"""A ruleset kept as a MediaWiki page's wikitext (BlogNomic's, a game's wiki) read as the Markdown the rules file
reader reads: headings, lists, bold and italics, links and tables written in Markdown, line for line, so that
what is said of a line names the wiki page's own line.

Written by hand rather than with a wikitext parser: the converter must stay linear in its input (any repository
or page may be hostile), and mwparserfromhell, measured, takes seconds on a few thousand unclosed tags or table
cells. Templates (`{{...}}`) are text of other pages of the wiki: they are left out, and said.
"""
from __future__ import annotations

import html
import posixpath
import re
from typing import NamedTuple
from urllib.parse import quote

WIKITEXT_EXTENSIONS = (".wiki", ".wikitext", ".mediawiki")
_LIST = re.compile(r"([*#:;]+)\s*(.*)")
# What a line of text is made of, besides plain text: a run of apostrophes (bold, italics), an internal link, an
# external link, an HTML tag, an entity, a kept-aside <nowiki> part. Each alternative stops at its first closing
# character, so a search is linear in the line.
_INLINE = re.compile(r"(?P<quotes>'{2,})|\[\[(?P<link>[^\[\]\n]*)\]\]|\[(?P<url>(?:https?|ftp|mailto):[^\s\[\]<>]+)"
                     r"(?:\s+(?P<label>[^\[\]\n]*))?\]|(?P<tag><\s*(?P<closing>/?)\s*(?P<name>[A-Za-z][A-Za-z0-9]*)"
                     r"[^<>\n]*>)|(?P<entity>&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});)"
                     r"|\uE000(?P<kept>[0-9]+)\uE001")
_NOWIKI = re.compile(r"<(/?)nowiki>", re.IGNORECASE)
# Elements whose text is no rule's: a footnote (shown at the page's foot), the list of them, code.
_ASIDE = re.compile(r"<\s*(/?)\s*(ref|references|script|style)\b[^<>]*?(/?)>", re.IGNORECASE)
_ASIDE_WHAT = {"ref": "a footnote, not the rule's text", "references": "the page's list of footnotes",
               "script": "a script (the site shows no page's code)", "style": "a style sheet"}
_FOOTNOTE_SAID = 60  # the characters of a footnote's text said
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_])")
_EMPHASIS_TAGS = {"b": "**", "strong": "**", "i": "*", "em": "*", "code": "`", "tt": "`"}
_LEFT_NAMESPACES = ("category:", "file:", "image:", "media:")
_TABLE_CELL = re.compile(r"\|\||!!")
_LEFT_OUT_SAID = 50  # things left out said each at its line; then how many more


class Said(NamedTuple):
    """Something the conversion did that the keeper should hear of: the 1-based line, what, and whether it was
    left out (else rewritten)."""
    line: int
    message: str
    left_out: bool


class _Told:
    """What is said of a conversion, bounded however the page is made: each rewriting once, at its first line;
    the first few things left out, then how many more."""

    def __init__(self) -> None:
        self.rewritten: dict[str, int] = {}
        self.left_out: list[Said] = []
        self.more = 0

    def rewrote(self, line: int, message: str) -> None:
        self.rewritten.setdefault(message, line)

    def left(self, line: int, message: str) -> None:
        if len(self.left_out) < _LEFT_OUT_SAID:
            self.left_out.append(Said(line, message, True))
        else:
            self.more += 1

    def said(self) -> list[Said]:
        more = [Said(0, f"{self.more} more things of the wiki (templates, categories, files) besides", True)] \
            if self.more else []
        return self.left_out + more + [Said(line, message, False) for message, line in self.rewritten.items()]


def is_wikitext(file: str | None, text: str) -> bool:
    """A file named as wikitext, or text (no extension, or plain) whose section headings are wikitext's
    (`== Players ==`, two at least) and none Markdown's."""
    name = (file or "").lower()
    if name.endswith(WIKITEXT_EXTENSIONS):
        return True
    if posixpath.splitext(name)[1] not in ("", ".txt", ".text"):
        return False
    headings = 0
    for line in text.split("\n"):
        if line.startswith("#") and line.lstrip("#").startswith(" "):
            return False
        headings += _heading(line) is not None
    return headings >= 2


def wikitext_markdown(text: str, link_base: str | None = None) -> tuple[str, list[Said]]:
    """The wikitext `text` as Markdown with the same lines, and what was left out or rewritten. `link_base` is the
    address a page of the wiki is at, its name appended (`https://wiki.example.org/index.php?title=`): with it an
    internal link is a link, without it its text."""
    told = _Told()
    text = _without_spans(text, "<!--", "-->", None, told)
    text = _without_spans(text, "{{", "}}", "a template (text of another page of the wiki)", told)
    text = _without_asides(text, told)
    kept: list[str] = []  # the text of each <nowiki> part, written in the lines as \uE000N\uE001
    out: list[str] = []
    table: list[tuple[int, str]] | None = None  # the lines of a table being read, with their numbers
    for number, line in enumerate(text.split("\n"), 1):
        line = _kept_aside(line, kept)
        if table is None and line.lstrip().startswith("{|"):
            table = []
            told.rewrote(number, "a table written as a Markdown table (its attributes left out)")
        elif table is None:
            out.append(_line(line.rstrip(), number, link_base, kept, told))
        elif line.lstrip().startswith("|}"):
            out += _table(table, lambda at, cell: _inline(cell, at, link_base, kept, told), len(table) + 2)
            table = None
        else:
            table.append((number, line.strip()))
    if table is not None:  # (a table never closed: what it held, as the wiki shows it)
        out += _table(table, lambda at, cell: _inline(cell, at, link_base, kept, told), len(table) + 1)
    return "\n".join(out), told.said()


def _kept_aside(line: str, kept: list[str]) -> str:
    """The line with each `<nowiki>...</nowiki>` part (on one line) kept aside in `kept`, as written: each opening
    paired with the next closing, in one pass."""
    out: list[str] = []
    position = 0
    opening = None
    for match in _NOWIKI.finditer(line):
        if not match.group(1) and opening is None:
            opening = match
        elif match.group(1) and opening is not None:
            out.append(line[position:opening.start()])
            kept.append(_escaped(line[opening.end():match.start()]))
            out.append(f"\uE000{len(kept) - 1}\uE001")
            position, opening = match.end(), None
    return "".join(out) + line[position:] if out else line


def _line(line: str, number: int, link_base: str | None, kept: list[str], told: _Told) -> str:
    """One line of wikitext outside a table as Markdown."""
    if heading := _heading(line):
        return "#" * heading[0] + " " + _inline(heading[1], number, link_base, kept, told)
    if re.fullmatch(r"-{4,}\s*", line):
        return "***"
    if (item := _LIST.fullmatch(line)) and line[:1] in "*#:;":
        marks, content = item.groups()
        content = _inline(content, number, link_base, kept, told)
        if set(marks) == {":"}:  # (an indented paragraph: talk's reply, a rule's aside)
            return content
        if marks[-1] == ";":
            return f"**{content}**"
        indent = "".join("   " if mark == "#" else "  " for mark in marks[:-1])
        return indent + ("1. " if marks[-1] == "#" else "- ") + content
    return _inline(line, number, link_base, kept, told)


def _heading(line: str) -> tuple[int, str] | None:
    """A section heading's level and title (`== Players ==`: 2, "Players"), as MediaWiki reads one: as many equals
    signs each side (the fewer, six at most); not a line of equals signs alone (plain text's rule). Counted, not
    matched with a pattern, which a line of spaces would make take the square of its length."""
    line = line.rstrip()
    level = min(len(line) - len(line.lstrip("=")), len(line) - len(line.rstrip("=")), 6)
    title = line[level:len(line) - level].strip() if level and len(line) > 2 * level else ""
    return (level, title) if title.strip("= ") else None


def _table(lines: list[tuple[int, str]], cell_text, taken: int) -> list[str]:
    """A table's lines (`|-` a new row, `|` and `!` cells, `||` and `!!` between cells on a line, `|+` a caption)
    as a Markdown table, its first row the header, then blank lines to make up the `taken` lines of the source."""
    rows: list[list[str]] = [[]]
    for number, line in lines:
        if line.startswith("|-"):
            rows.append([])
        elif line.startswith(("|", "!")) and not line.startswith("|+"):
            for cell in _TABLE_CELL.split(line[1:]):
                attributes, bar, content = cell.partition("|")
                if bar and "[[" not in attributes and "=" in attributes:  # (`style="..." | content`)
                    cell = content
                rows[-1].append(cell_text(number, cell.strip()).replace("|", "\\|"))
        elif line and not line.startswith("|+") and rows[-1]:  # (a cell's text continued on the next line)
            rows[-1][-1] += " " + cell_text(number, line).replace("|", "\\|")
    rows = [row for row in rows if row]
    if not rows:
        return [""] * taken
    width = max(len(row) for row in rows)
    table = ["| " + " | ".join(row + [""] * (width - len(row))) + " |" for row in rows]
    table.insert(1, "|" + " --- |" * width)
    return table + [""] * (taken - len(table))


def _inline(text: str, number: int, link_base: str | None, kept: list[str], told: _Told) -> str:
    """A line's text as Markdown: plain text escaped, bold and italics as `**` and `*` (MediaWiki's way: toggled
    by runs of apostrophes, closed at the line's end), links and entities read, tags dropped but for emphasis."""
    out: list[str] = []
    bold = italic = False
    position = 0
    for match in _INLINE.finditer(text):
        out.append(_escaped(text[position:match.start()]))
        position = match.end()
        if quotes := match.group("quotes"):
            run = len(quotes)
            extra = run - 5 if run > 5 else 1 if run == 4 else 0
            out.append("'" * extra)
            if run - extra in (3, 5):
                out.append("**")
                bold = not bold
            if run - extra in (2, 5):
                out.append("*")
                italic = not italic
        elif (link := match.group("link")) is not None:
            out.append(_internal_link(link, number, link_base, told))
        elif url := match.group("url"):
            label = match.group("label")
            out.append(f"[{_escaped(label.strip())}]({url})" if label and label.strip() else f"<{url}>")
        elif match.group("tag"):
            name = match.group("name").lower()
            if name in _EMPHASIS_TAGS:
                out.append(_EMPHASIS_TAGS[name])
            elif name == "br":
                out.append(" ")
            elif name in ("s", "strike", "del"):
                told.rewrote(number, "struck text kept as text (the wiki shows it struck through)")
            else:
                told.rewrote(number, "HTML tags left out, their text kept (the site shows no rule's HTML)")
        elif entity := match.group("entity"):
            out.append(_escaped(html.unescape(entity)))
        else:
            out.append(kept[int(match.group("kept"))])
    out.append(_escaped(text[position:]))
    return "".join(out) + ("*" if italic else "") + ("**" if bold else "")


def _internal_link(link: str, number: int, link_base: str | None, told: _Told) -> str:
    """`[[Page]]`, `[[Page|text]]` as Markdown: a link to the page under `link_base`, else its text; a category,
    a file or a picture left out."""
    target, _, label = link.partition("|")
    target = target.strip()
    if target.lower().startswith(_LEFT_NAMESPACES):
        told.left(number, f"[[{target}]]: a category or a file of the wiki")
        return ""
    shown = _escaped(label.strip() or target.lstrip(":"))
    if link_base and target and not target.startswith("#"):
        return f"[{shown}]({link_base}{quote(target.lstrip(':').replace(' ', '_'), safe='/:#')})"
    if not link_base:
        told.rewrote(number, "a link to a page of the wiki written as its text (--link-base gives its address)")
    return shown


def _without_spans(text: str, opening: str, closing: str, what: str | None, told: _Told) -> str:
    """`text` with each span from `opening` to its `closing` (nested ones counted) taken out, its lines kept as
    blank ones; where `what` names them, each name said as left out once, at its first line. Linear: one pass over
    the two markers."""
    out: list[str] = []
    depth = 0
    position = start = counted = 0
    line = 1  # (the line `counted` is on)
    names: dict[str, int] = {}
    marker = re.compile(re.escape(opening) + "|" + re.escape(closing))
    for match in marker.finditer(text):
        if match.group() == opening:
            if depth == 0:
                out.append(text[position:match.start()])
                start = match.start()
            depth += 1 if what else 1 - depth  # (comments do not nest)
        elif depth:
            depth -= 1
            if depth == 0:
                span = text[start:match.end()]
                out.append("\n" * span.count("\n"))
                position = match.end()
                if what:
                    line += text.count("\n", counted, start)
                    counted = start
                    names.setdefault(span[len(opening):-len(closing)].split("|", 1)[0].split("\n", 1)[0].strip()[:60], line)
    out.append(text[position:] if depth == 0 else text[start:])
    for name, line in names.items():
        told.left(line, f"{opening}{name}{closing}: {what}")
    return "".join(out)


def _without_asides(text: str, told: _Told) -> str:
    """`text` with each footnote (`<ref>...</ref>`), list of footnotes, script or style sheet taken out, its lines
    kept as blank ones, each said as left out at its line (a footnote with its text). One pass over the tags: an
    element never closed is left as written, its tags then dropped as any other."""
    out: list[str] = []
    position = counted = 0
    line = 1  # (the line `counted` is on)
    opened = None
    for match in _ASIDE.finditer(text):
        closing, name, alone = match.group(1), match.group(2).lower(), match.group(3)
        if opened is None and not closing:
            start, opened = match.start(), None if alone else match
            if not alone:
                continue
        elif opened is None or not closing or name != opened.group(2).lower():
            continue
        else:
            start, opened = opened.start(), None
        line += text.count("\n", counted, start)
        counted = start
        out.append(text[position:start] + "\n" * text.count("\n", start, match.end()))
        inner = " ".join(text[start:match.start()].split(">", 1)[-1].split()) if not alone else ""
        shown = inner[:_FOOTNOTE_SAID] + ("..." if len(inner) > _FOOTNOTE_SAID else "")
        told.left(line, f"<{name}>: {_ASIDE_WHAT[name]}" + (f": {shown}" if name == "ref" and shown else ""))
        position = match.end()
    out.append(text[position:])
    return "".join(out)


def _escaped(text: str) -> str:
    """Plain text of the wiki as Markdown shows it as written."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text)
