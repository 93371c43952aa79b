"""Rule text and log prose to HTML. Players write it, so raw HTML is off and links are checked."""
from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.token import Token
from markupsafe import Markup

from ..parse.source import new_markdown
from ..diffing.redline import split_blocks

SAFE_SCHEMES = {"http", "https", "mailto"}


def is_safe_link(url: str) -> bool:
    """Web and mail links, and relative links; never javascript:, data:, file: or others."""
    cleaned = "".join(ch for ch in url if ch > " " and ch != "\x7f").strip()
    scheme = urlsplit(cleaned).scheme.lower()
    return scheme in SAFE_SCHEMES if scheme else True


def _renderer() -> MarkdownIt:
    md = new_markdown()
    md.validateLink = is_safe_link
    return md


_MD = _renderer()

# A web address written out in a proposal's or an event's prose: a link, checked as a Markdown link is. It ends
# before white space, a quote or an angle bracket, and leaves a closing punctuation mark to the sentence.
_WEB_ADDRESS = re.compile(r"https?://[^\s<>\"']*[^\s<>\"'.,;:!?)\]}]")


def _link_web_addresses(state) -> None:
    """A core rule of markdown-it: the web addresses in text (not already inside a link) become links."""
    for block in state.tokens:
        if block.type != "inline" or not block.children:
            continue
        children, depth = [], 0
        for token in block.children:
            depth += (token.type == "link_open") - (token.type == "link_close")
            if token.type != "text" or depth or "://" not in token.content:
                children.append(token)
                continue
            text, at = token.content, 0
            for match in _WEB_ADDRESS.finditer(text):
                if not is_safe_link(match.group()):
                    continue
                if match.start() > at:
                    children.append(_text_token(text[at:match.start()]))
                opening = Token("link_open", "a", 1)
                opening.attrSet("href", state.md.normalizeLink(match.group()))
                children += [opening, _text_token(match.group()), Token("link_close", "a", -1)]
                at = match.end()
            if at < len(text):
                children.append(_text_token(text[at:]))
        block.children = children


def _text_token(content: str) -> Token:
    token = Token("text", "", 0)
    token.content = content
    return token


_LINKING = _renderer()
_LINKING.core.ruler.push("web_addresses", _link_web_addresses)


def entry_html(text: str) -> Markup:
    """HTML of a log entry's prose (a proposal's text, an event's or a judgment's): as markdown_to_html, with
    the web addresses it writes out as links."""
    return Markup(_LINKING.render(text)) if "://" in text else markdown_to_html(text)


def markdown_to_html(text: str) -> Markup:
    """HTML of a Markdown text that shows on one page (a proposal's own text): not worth keeping."""
    html = _prose_html(text)
    return Markup(html if html is not None else _MD.render(text))


# Prose in which Markdown finds no markup: paragraphs and tight lists of "- " items, alone or quoted, of lines
# that each start with a letter (after the quote's or the item's mark: no heading, list, code, table or rule
# starts there, nor underlines a heading) and hold letters, digits, spaces and punctuation that no inline rule
# reads (no emphasis, code, link, escape, entity or hard break: no trailing space), and the noncharacters that
# mark a redline's edits (redline.py). Most rule texts and proposals are such prose, and rendering them was a tenth
# of a build: their HTML is their paragraphs, escaped as Markdown escapes text. tests/test_markdown.py holds it
# to markdown-it's.
_PROSE_LINE = "[\ufdd0-\ufdd3]*[^\\W\\d_][\\w ,.;:?!'\"()%/+=$@#^{}~>\ufdd0-\ufdd3-]*(?<! )"
_PROSE_BLOCK = (rf"{_PROSE_LINE}(?:\n{_PROSE_LINE})*|> (?:- )?{_PROSE_LINE}(?:\n(?:> (?:- )?{_PROSE_LINE}|>))*"
                rf"|- {_PROSE_LINE}(?:\n- {_PROSE_LINE})*")
_PROSE = re.compile(rf"\n*(?:(?:{_PROSE_BLOCK})\n\n+)*(?:{_PROSE_BLOCK})\n*")
_PARAGRAPH_BREAK = re.compile(r"\n\n+")
_QUOTE_MARK = re.compile(r"^> ?", re.MULTILINE)

# A block of plain prose: ("p", its text), ("ul", its items' texts) or ("blockquote", the blocks it quotes).
ProseBlock = tuple[str, Any]


def _prose_blocks(text: str) -> list[ProseBlock] | None:
    """The blocks of `text` when it is plain prose (above), else None."""
    if "_" in text or _PROSE.fullmatch(text) is None:  # \w holds the underscore, which emphasizes
        return None
    return _blocks(_PARAGRAPH_BREAK.split(text.strip("\n")))


def _blocks(parts: list[str]) -> list[ProseBlock] | None:
    """The blocks of prose parted by blank lines (at the top, or in a quote: its lines without their marks)."""
    blocks: list[ProseBlock] = []
    for part in parts:
        lines = part.split("\n")
        if part.startswith(">"):  # the pattern lets no quote into a quote
            quoted = _blocks(_PARAGRAPH_BREAK.split(_QUOTE_MARK.sub("", part).strip("\n")))
            if quoted is None:
                return None
            blocks.append(("blockquote", quoted))
        elif part.startswith("- "):
            # Two lists parted by a blank line are one loose list; a line without the mark goes on the item.
            if blocks and blocks[-1][0] == "ul" or not all(line.startswith("- ") for line in lines):
                return None
            blocks.append(("ul", [line[2:] for line in lines]))
        elif any(line.startswith("- ") for line in lines):  # a list breaking into a quoted paragraph
            return None
        else:
            blocks.append(("p", part))
    return blocks


def _prose_html(text: str) -> str | None:
    """The HTML of `text` when it is plain prose (above), else None."""
    blocks = _prose_blocks(text)
    return None if blocks is None else _prose_html_of(blocks)


def _prose_html_of(blocks: list[ProseBlock]) -> str:
    """The HTML of plain prose's blocks (_prose_blocks); a list is tight: its items' paragraphs are not marked."""
    return "".join(f"<p>{escapeHtml(content)}</p>\n" if kind == "p"
                   else "<ul>\n" + "".join(f"<li>{escapeHtml(item)}</li>\n" for item in content) + "</ul>\n"
                   if kind == "ul" else f"<blockquote>\n{_prose_html_of(content)}</blockquote>\n"
                   for kind, content in blocks)


def _prose_words(blocks: list[ProseBlock]) -> Iterator[str]:
    """The texts of plain prose's blocks, in order."""
    for kind, content in blocks:
        if kind == "p":
            yield content
        else:
            yield from content if kind == "ul" else _prose_words(content)


@lru_cache(maxsize=16384)
def render_markdown(text: str) -> Markup:
    """HTML of a Markdown text; cached by the text itself, since rule versions repeat across pages.

    A text of several blocks is rendered block by block (split_blocks, as a redline splits them) when that is
    the same HTML: then a version rendered after its predecessor renders only the blocks an amendment changed."""
    blocks = split_blocks(text) if "\n" in text and not _JOINED.search(text) else ()
    if len(blocks) > 1:  # a block has no blank line: rendered whole below
        rendered = [render_markdown(block) for block in blocks]
        if not any(_ACROSS_BLOCKS.search(html) for html in rendered):
            return Markup("".join(rendered))
    return markdown_to_html(text)


# Where a text's blocks would not be rendered alone as they are rendered together: a line that only Python finds blank
# (a no-break space), a line ending split_blocks changes, the noncharacters it drops (redline.py), and a link
# reference definition, which every block may cite.
_JOINED = re.compile("[^\\S \t\n]|[\ufdd0-\ufdd3]|\\]:")
# Blocks that run on past a blank line (a loose list, indented or fenced code) and, to be safe, those that hold
# other blocks or rows (quotes, tables): such a text is rendered whole.
_ACROSS_BLOCKS = re.compile("<(?:ul|ol|li|pre|blockquote|table)[ >]")


@lru_cache(maxsize=256)
def render_prose(text: str, top: int) -> Markup:
    """A keeper's prose placed under a page's headings: its headings demoted so that the first level is
    `top` (a preamble's `# Title` becomes an h2 under the page's one h1), their order kept."""
    return demote_headings(markdown_to_html(text), top)


_HEADING_TAG = re.compile(r"<(/?)h([1-6])>")


def demote_headings(html: Markup, top: int) -> Markup:
    """`html` (rendered here) with its headings moved down so that the first level is `top`, none past h6. Raw
    HTML is off, so a heading's tags are the only `<hN>` in it (a player's are escaped)."""
    levels = [int(match[1]) for match in _HEADING_TAG.findall(html)]
    shift = max(0, top - min(levels)) if levels else 0
    if not shift:
        return html
    return Markup(_HEADING_TAG.sub(lambda m: f"<{m[1]}h{min(6, int(m[2]) + shift)}>", html))


@lru_cache(maxsize=65536)
def render_inline(text: str) -> Markup:
    return Markup(_MD.renderInline(text))


def plain_words(text: str) -> str:
    """The words of a Markdown text without its markup (for search snippets: blocks and lines joined by
    spaces)."""
    blocks = _prose_blocks(text)
    if blocks is not None:
        return " ".join(" ".join(_prose_words(blocks)).split())
    return _plain_words(_MD.parse(text))


def _plain_words(tokens: list[Token]) -> str:
    parts: list[str] = []
    for token in tokens:
        for child in token.children or ():
            if child.type in ("text", "code_inline"):
                parts.append(child.content)
            elif child.type in ("softbreak", "hardbreak"):
                parts.append(" ")
        if token.type in ("paragraph_close", "heading_close", "list_item_close", "code_block", "fence",
                          "th_close", "td_close"):
            parts.append(token.content if token.type in ("code_block", "fence") else " ")
    return " ".join("".join(parts).split())
