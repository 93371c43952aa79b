"""Rule text and log prose to HTML. Players write it, so raw HTML is off and links are checked."""
from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import urlsplit

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.token import Token
from markupsafe import Markup

from ..parse.source import new_markdown
from ..redline import split_blocks

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


def markdown_to_html(text: str) -> Markup:
    """HTML of a Markdown text that shows on one page (a proposal's own text): not worth keeping."""
    html = _prose_html(text)
    return Markup(html if html is not None else _MD.render(text))


# Prose in which Markdown finds no markup: paragraphs, alone, quoted or as the items of a list ("- "), of lines
# that each start with a letter (after the quote's or the item's mark: no heading, list, code, table or rule
# starts there, nor underlines a heading) and hold letters, digits, spaces and punctuation that no inline rule
# reads (no emphasis, code, link, escape, entity or hard break: no trailing space), and the noncharacters that
# mark a redline's edits (redline.py). Most rule texts and proposals are such prose, and drawing them was a tenth
# of a build: their HTML is their paragraphs, escaped as Markdown escapes text. tests/test_markdown.py holds it
# to markdown-it's.
_PROSE_LINE = "[\ufdd0-\ufdd3]*[^\\W\\d_][\\w ,.;:?!'\"()%/+=$@#^{}~>\ufdd0-\ufdd3-]*(?<! )"
_PROSE_BLOCK = (rf"{_PROSE_LINE}(?:\n{_PROSE_LINE})*|> {_PROSE_LINE}(?:\n(?:> {_PROSE_LINE}|>))*"
                rf"|- {_PROSE_LINE}(?:\n- {_PROSE_LINE})*")
_PROSE = re.compile(rf"\n*(?:(?:{_PROSE_BLOCK})\n\n+)*(?:{_PROSE_BLOCK})\n*")
_PARAGRAPH_BREAK = re.compile(r"\n\n+")
_QUOTE_MARK = re.compile(r"^> ?", re.MULTILINE)


def _prose_blocks(text: str) -> list[tuple[str, list[str]]] | None:
    """The blocks of `text` when it is plain prose (above): each block's kind ("p", "blockquote" or "ul") and its
    paragraphs (a list's items); else None."""
    if "_" in text or _PROSE.fullmatch(text) is None:  # \w holds the underscore, which emphasizes
        return None
    blocks: list[tuple[str, list[str]]] = []
    for block in _PARAGRAPH_BREAK.split(text.strip("\n")):
        if block.startswith(">"):  # its lines without their marks: its own paragraphs, parted by lines of ">"
            blocks.append(("blockquote", _PARAGRAPH_BREAK.split(_QUOTE_MARK.sub("", block).strip("\n"))))
        elif block.startswith("- "):
            if blocks and blocks[-1][0] == "ul":  # a blank line between items: one loose list, drawn by markdown-it
                return None
            blocks.append(("ul", [line[2:] for line in block.split("\n")]))
        else:
            blocks.append(("p", [block]))
    return blocks


def _prose_html(text: str) -> str | None:
    """The HTML of `text` when it is plain prose (above), else None."""
    blocks = _prose_blocks(text)
    return None if blocks is None else _drawn(blocks)


def _drawn(blocks: list[tuple[str, list[str]]]) -> str:
    """The HTML of a plain prose's blocks (_prose_blocks)."""
    html = []
    for kind, paragraphs in blocks:
        if kind == "ul":  # a tight list: its items' paragraphs are not marked
            html.append("<ul>\n" + "".join(f"<li>{escapeHtml(item)}</li>\n" for item in paragraphs) + "</ul>\n")
            continue
        drawn = "".join(f"<p>{escapeHtml(paragraph)}</p>\n" for paragraph in paragraphs)
        html.append(f"<blockquote>\n{drawn}</blockquote>\n" if kind == "blockquote" else drawn)
    return "".join(html)


@lru_cache(maxsize=16384)
def render_markdown(text: str) -> Markup:
    """HTML of a Markdown text; cached by the text itself, since rule versions repeat across pages.

    A text of several blocks is drawn block by block (split_blocks, as a redline draws them) when that is
    the same HTML: then a version drawn after its predecessor draws only the blocks an amendment changed."""
    blocks = split_blocks(text) if "\n" in text and not _JOINED.search(text) else ()
    if len(blocks) > 1:  # a block has no blank line: drawn whole below
        drawn = [render_markdown(block) for block in blocks]
        if not any(_ACROSS_BLOCKS.search(html) for html in drawn):
            return Markup("".join(drawn))
    return markdown_to_html(text)


# Where a text's blocks would not be drawn alone as they are drawn together: a line that only Python finds blank
# (a no-break space), a line ending split_blocks changes, the noncharacters it drops (redline.py), and a link
# reference definition, which every block may cite.
_JOINED = re.compile("[^\\S \t\n]|[\ufdd0-\ufdd3]|\\]:")
# Blocks that run on past a blank line (a loose list, indented or fenced code) and, to be safe, those that hold
# other blocks or rows (quotes, tables): such a text is drawn whole.
_ACROSS_BLOCKS = re.compile("<(?:ul|ol|li|pre|blockquote|table)[ >]")


@lru_cache(maxsize=256)
def render_prose(text: str, top: int) -> Markup:
    """A keeper's prose placed under a page's headings: its headings demoted so that the first level is
    `top` (a preamble's `# Title` becomes an h2 under the page's one h1), their order kept."""
    return demote_headings(markdown_to_html(text), top)


_HEADING_TAG = re.compile(r"<(/?)h([1-6])>")


def demote_headings(html: Markup, top: int) -> Markup:
    """`html` (drawn here) with its headings moved down so that the first level is `top`, none past h6. Raw
    HTML is off, so a heading's tags are the only `<hN>` in it (a player's are escaped)."""
    levels = [int(match[1]) for match in _HEADING_TAG.findall(html)]
    shift = max(0, top - min(levels)) if levels else 0
    if not shift:
        return html
    return Markup(_HEADING_TAG.sub(lambda m: f"<{m[1]}h{min(6, int(m[2]) + shift)}>", html))


@lru_cache(maxsize=65536)
def render_inline(text: str) -> Markup:
    return Markup(_MD.renderInline(text))


def words_and_html(text: str) -> tuple[str, Markup]:
    """The words of a Markdown text without its markup (for search snippets: blocks and lines joined by
    spaces), and markdown_to_html(text), from one parse: a build reads each proposal for both."""
    blocks = _prose_blocks(text)
    if blocks is not None:
        return " ".join(" ".join(p for _, paragraphs in blocks for p in paragraphs).split()), Markup(_drawn(blocks))
    tokens = _MD.parse(text)
    return _plain_words(tokens), Markup(_MD.renderer.render(tokens, _MD.options, {}))


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
