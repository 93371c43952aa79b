"""A rule's text kept in a Markdown file (a game's README, rules.md, one file per rule), as rules.md holds it: the
keeper's Markdown kept (emphasis, lists, quotes, code, tables, links), each paragraph and list item on one line
with its white space made single, so that re-wrapping a file changes no rule's text; headings inside a rule
written at level 4 or deeper (levels 1 to 3 are rules.md's own); a relative link made absolute to the web address
the file is read from, or its text when none is known (it would be broken on the site, where a rule's text is
shown on pages at several depths); inline HTML tags (`<sup>`, `<b>`), which the site shows as written, read as
their Markdown or dropped; and a paragraph that would read as a line of rules.md's own (`History:`,
`Annotation:`) escaped.
"""
from __future__ import annotations

import html
import posixpath
import re
from urllib.parse import urlsplit

from ..parse.source import FENCE, closes_fence
from .text import WRAP_INDENT

RULES_MD_DEPTH = 3        # rules.md's headings: the ruleset, a class, a rule
_ATX = re.compile(r" {0,3}(#{1,6})(?:[ \t]+|$)(.*?)(?:[ \t]+#+)?[ \t]*$")
_UNDERLINE = re.compile(r" {0,3}(=+|-+)[ \t]*$")
_BREAK = re.compile(r" {0,3}(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$")
_ITEM = re.compile(r"( *)([-*+]|[0-9]{1,9}[.)])(?:[ \t]+(.*)|$)")
_QUOTE = re.compile(r" {0,3}> ?(.*)")
_TABLE_ROW = re.compile(r" {0,3}\|")
# rules.md's keys at a line's start
_OWN_LINE = re.compile(r"(History|Annotation|Revision|Power|Label):", re.IGNORECASE)
# An inline link or image: [text](target "title"); a target in <...> or without spaces.
# An HTML tag a rule's text may carry (a website's rules, a README's `<sup>`); its attributes end at the next `<`,
# so that a search is linear in the text.
HTML_TAG = re.compile(r"<\s*(/?)\s*(a|b|strong|i|em|u|s|br|span|p|div|sup|sub|code)\b([^<>]*)>", re.IGNORECASE)
# <sup> and <sub> text that Unicode has raised and lowered characters for.
_RAISED = {"sup": ("0123456789+-=()ni", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱ"), "sub": ("0123456789+-=()", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎")}
_HREF = re.compile(r"""href\s*=\s*["']([^"']*)["']""", re.IGNORECASE)
_LINK = re.compile(r"(!?)\[((?:[^\[\]\\]|\\.)*)\]\(\s*(<[^>\n]*>|[^\s()]*)(?:\s+(\"[^\"]*\"|'[^']*'))?\s*\)")


def rule_markdown(lines: list[str], hard_breaks: set[int] = frozenset(), *, link_base: str | None = None,
                  path: str | None = None) -> tuple[str, list[str]]:
    """The text of `lines` (a rule's, without its heading) as rules.md holds it, and what was done to it that a
    keeper should hear of (relative links written as their text). `hard_breaks` are the indices of lines that
    ended in a hard line break (two spaces or a backslash) before their trailing white space was taken off;
    `link_base` and `path` say where relative links lead (see `absolute_link`)."""
    said: list[str] = []
    text = "\n\n".join(block for block in _blocks(lines, hard_breaks) if block)
    return _links(text, link_base, path, said), said


def html_markdown(content: str, *, entities: bool = True, line_break: str = "\n") -> str:
    """Text holding HTML tags as Markdown: bold and italics kept, a link to a web address kept, one within the
    page (`#rule-8`) its text, a line break as `line_break`, other tags dropped; entities read where `entities`
    (a website's HTML: Markdown reads its own)."""
    read = html.unescape if entities else str
    out = []
    position = 0
    links: list[str | None] = []
    raised: dict[str, int] = {}  # an open <sup> or <sub>: where its text starts in `out`
    for m in HTML_TAG.finditer(content):
        out.append(read(content[position:m.start()]))
        closing, tag = m.group(1), m.group(2).lower()
        if tag in _RAISED and not closing:
            raised[tag] = len(out)
        elif tag in _RAISED and tag in raised:  # (digits and signs in their own characters: H₂O, a note's ¹)
            written, (plain, raised_as) = "".join(out[raised[tag]:]), _RAISED[tag]
            out[raised.pop(tag):] = [written.translate(str.maketrans(plain, raised_as)) if set(written) <= set(plain)
                                     else written]
        elif tag in ("b", "strong"):
            out.append("**")
        elif tag in ("i", "em"):
            out.append("*")
        elif tag == "br":
            out.append(line_break)
        elif tag == "a" and not closing:
            href = _HREF.search(m.group(3))
            target = href.group(1) if href and href.group(1).startswith(("http://", "https://")) else None
            links.append(target)
            out.append("[" if target else "")
        elif tag == "a" and links:
            target = links.pop()
            out.append(f"]({target})" if target else "")
        position = m.end()
    out.append(read(content[position:]))
    return "".join(out)


def _blocks(lines: list[str], hard_breaks) -> list[str]:
    """Each block of `lines` as one string (its lines joined by newlines)."""
    blocks: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
        elif fence := FENCE.match(line):
            end = next((j for j in range(i + 1, len(lines)) if closes_fence(lines[j], fence.group(1))), None)
            # (one never closed runs to the rule's end, as CommonMark reads it, and is closed there: in rules.md
            # it would run on into the rules after)
            blocks.append("\n".join(lines[i:end + 1] if end is not None else [*lines[i:], fence.group(1)]))
            i = end + 1 if end is not None else len(lines)
        elif _TABLE_ROW.match(line):
            end = _run(lines, i, lambda text: bool(_TABLE_ROW.match(text)))
            blocks.append("\n".join(part.strip() for part in lines[i:end]))
            i = end
        elif heading := _ATX.fullmatch(line):
            blocks.append(_heading(len(heading.group(1)), heading.group(2)))
            i += 1
        elif _BREAK.fullmatch(line):
            i += 1  # a rule of dashes between paragraphs is layout, not text
        elif _QUOTE.match(line):
            end = _run(lines, i, lambda text: bool(text.strip()))
            inner = [m.group(1) if (m := _QUOTE.match(part)) else part for part in lines[i:end]]
            quoted = "\n\n".join(_blocks(inner, {n - i for n in hard_breaks if i <= n < end}))
            blocks.append("\n".join(f"> {part}" if part else ">" for part in quoted.split("\n")))
            i = end
        elif _ITEM.fullmatch(line):
            i = _list(lines, i, hard_breaks, blocks)
        else:
            end = _paragraph_end(lines, i)
            if end < len(lines) and _UNDERLINE.fullmatch(lines[end]):  # a setext heading
                blocks.append(_heading(1 if "=" in lines[end] else 2, " ".join(lines[i:end])))
                i = end + 1
                continue
            text = _joined(lines, i, end, hard_breaks)
            blocks.append("\\" + text if _OWN_LINE.match(text) else text)
            i = end
    return blocks


def _list(lines: list[str], i: int, hard_breaks, blocks: list[str]) -> int:
    """A list: each item on one line (its lines joined), nested items kept at their indentation, a paragraph
    continuing an item after a blank line kept under it. Appends the list as one block; returns where it ends."""
    out: list[str] = []
    while i < len(lines):
        item = _ITEM.fullmatch(lines[i])
        if item is None and not lines[i].strip():
            following = next((j for j in range(i, len(lines)) if lines[j].strip()), None)
            if following is None or not (_ITEM.fullmatch(lines[following]) or lines[following].startswith("  ")):
                break
            out.append("")  # a loose list, or a paragraph of the item before
            i = following
        elif item is None:  # an item's paragraph after a blank line
            end = _paragraph_end(lines, i, in_item=True)
            if end == i:  # a block of its own (a quote, a fence, a heading, a table) ends the list
                break
            indent = len(lines[i]) - len(lines[i].lstrip())
            out.append(" " * min(indent, 4) + _joined(lines, i, end, hard_breaks))
            i = end
        else:
            end = _paragraph_end(lines, i + 1, in_item=True)
            first = " ".join((item.group(3) or "").split())
            rest = _joined(lines, i + 1, end, hard_breaks)
            joiner = ("\\\n" + WRAP_INDENT) if i in hard_breaks else " "
            out.append(f"{item.group(1)}{item.group(2)} {first}{joiner if first and rest else ''}{rest}".rstrip())
            i = end
    while out and not out[-1]:
        out.pop()
    blocks.append("\n".join(out))
    return i


def _interrupts(line: str) -> bool:
    """Whether a line starts a list item even right after a paragraph's line (CommonMark: a bullet, or `1.`, with
    text)."""
    item = _ITEM.fullmatch(line)
    return bool(item and item.group(3) and (item.group(2) in "-*+" or item.group(2)[:-1] == "1"))


def _paragraph_end(lines: list[str], i: int, in_item: bool = False) -> int:
    """Where the paragraph (or list item's text) starting at `i` ends: a blank line, or a line that starts a block
    of its own (in a list, any item starts one)."""
    j = i
    while j < len(lines):
        line = lines[j]
        if not line.strip() or FENCE.match(line) or _ATX.fullmatch(line) or _QUOTE.match(line) \
                or _BREAK.fullmatch(line) or _TABLE_ROW.match(line):
            break
        if j > i and (_UNDERLINE.fullmatch(line) and not in_item or _interrupts(line)):
            break
        if in_item and _ITEM.fullmatch(line):
            break
        j += 1
    return j


def _run(lines: list[str], i: int, keeps) -> int:
    j = i
    while j < len(lines) and keeps(lines[j]):
        j += 1
    return j


def _joined(lines: list[str], start: int, end: int, hard_breaks) -> str:
    """Lines `start` to `end` as one paragraph: single spaces, a hard line break kept as a backslash at the end of
    a line, the next indented so that it continues the paragraph."""
    out = ""
    for n in range(start, end):
        words = " ".join(lines[n].split())
        if not words:
            continue
        if out:
            out += ("\\\n" + WRAP_INDENT) if n - 1 in hard_breaks else " "
        out += words
    return out


def _heading(level: int, text: str) -> str:
    """A heading inside a rule, at least as deep as level 4 (rules.md's own are 1 to 3)."""
    return "#" * max(level, RULES_MD_DEPTH + 1) + " " + " ".join(text.split())


def absolute_link(target: str, link_base: str | None, path: str | None) -> str | None:
    """Where a link of a rule leads, as an absolute web address: itself when it has a scheme (`https:`, `mailto:`);
    else resolved against `link_base`, the web address of the repository's root as GitHub shows its files
    (`https://github.com/OWNER/REPO/blob/REF/`), from the folder of `path` (the file's path in the repository;
    a target starting with `/` from the root, as GitHub reads it). None when it cannot be known: no base, a link
    to a place in the page (`#rule-8`), or one that climbs out of the repository."""
    if urlsplit(target).scheme:
        return target
    if not link_base or not target or target.startswith(("#", "//")):
        return None
    folder = posixpath.dirname(path or "")
    joined = posixpath.normpath(target.lstrip("/") if target.startswith("/") else posixpath.join(folder, target))
    if joined == ".." or joined.startswith("../"):
        return None
    return link_base.rstrip("/") + "/" + ("" if joined == "." else joined) + ("/" if target.endswith("/") else "")


def _links(text: str, link_base: str | None, path: str | None, said: list[str]) -> str:
    """Each inline link and image whose target is relative made absolute (`absolute_link`), or its text when no
    address can be known; code is left as written."""
    left: list[str] = []

    def link(match: re.Match[str]) -> str:
        image, words, target, title = match.group(1), match.group(2), match.group(3).strip("<>"), match.group(4)
        address = absolute_link(target, link_base, path)
        if address == target:
            return match.group(0)
        if address is None:
            left.append(target)
            return words
        return f"{image}[{words}]({address}{' ' + title if title else ''})"

    pieces = re.split(r"(`+[^`]*`+)", text)  # code spans, whose brackets are no links and tags no HTML
    tags = sorted({f"<{m.group(2).lower()}>" for index, piece in enumerate(pieces) if not index % 2
                   for m in HTML_TAG.finditer(piece)})
    text = "".join(piece if index % 2 else _LINK.sub(link, _without_tags(piece)) for index, piece in enumerate(pieces))
    if tags:
        said.append(f"HTML tags ({', '.join(tags)}) written as their Markdown or dropped (the site shows HTML as "
                    "written)")
    if left:
        said.append("links written as their text: " + ", ".join(f"{target or '()'} ({_unlinked(target, link_base)})"
                                                               for target in dict.fromkeys(left)))
    return text


def _without_tags(text: str) -> str:
    """Text outside code with its HTML tags as Markdown (`html_markdown`), line by line (a paragraph is one): a
    line break a hard one (several, or at either end of a paragraph, no more than one or none), in a table's row
    a space; the spaces around a tag made single."""
    if not HTML_TAG.search(text):
        return text
    lines = []
    for line in text.split("\n"):
        converted = html_markdown(line, entities=False, line_break=" " if _TABLE_ROW.match(line) else "\uE000")
        if "\uE000" in converted:
            indent = converted[:len(converted) - len(converted.lstrip())]
            converted = indent + ("\\\n" + WRAP_INDENT).join(
                part for part in (piece.strip() for piece in converted.split("\uE000")) if part)
        lines.append(re.sub(r"(?<=\S) {2,}", " ", converted))
    return "\n".join(lines)


def _unlinked(target: str, link_base: str | None) -> str:
    """Why a link of a rule leads nowhere the archive can show (`absolute_link` gave none)."""
    if not target:
        return "an empty link"
    if target.startswith("#"):
        return "a place in the rules file, which the archive's pages do not keep"
    if link_base and not target.startswith("//"):
        return "outside the repository"
    return "no web address is known for the file: --link-base gives one"
