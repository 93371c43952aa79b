"""Markdown drawn in one pass for several uses is what each use would draw alone."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from markupsafe import Markup

from generator.site.markdown import (_MD, _plain_words, _prose_html, markdown_to_html, plain_words, render_markdown,
                                     render_prose)

LINES = ["# Title", "## Part", "###### Deep", "Setext", "===", "---", "text <h1>raw</h1> and `<h2>`", "```",
         "<h3>", "> # quoted heading", "- item", "  ## in a list", "    # indented code", "", "", "plain words",
         "[a](javascript:alert(1))", "| a | b |", "|---|---|", "| 1 | 2 |"]
texts = st.lists(st.sampled_from(LINES), max_size=12).map("\n".join)


def _demoted_by_tokens(text: str, top: int) -> Markup:
    """What render_prose drew before it moved the HTML's tags: the heading tokens' tags moved."""
    tokens = _MD.parse(text)
    levels = [int(t.tag[1]) for t in tokens if t.type in ("heading_open", "heading_close")]
    shift = max(0, top - min(levels)) if levels else 0
    for token in tokens:
        if token.type in ("heading_open", "heading_close"):
            token.tag = f"h{min(6, int(token.tag[1]) + shift)}"
    return Markup(_MD.renderer.render(tokens, _MD.options, {}))


@settings(max_examples=300, deadline=None)
@given(text=texts, top=st.integers(1, 6))
def test_prose_headings_are_demoted_as_their_tokens_would_be(text, top):
    assert render_prose(text, top) == _demoted_by_tokens(text, top)


@settings(max_examples=300, deadline=None)
@given(text=texts)
def test_the_dialect_without_its_raw_html_rules_reads_as_with_them(text):
    """new_markdown leaves out the rules that look for raw HTML, which answer no with raw HTML off: the same
    blocks, and the same HTML (raw HTML escaped), whatever markdown-it-py does inside them."""
    from markdown_it import MarkdownIt

    from generator.parse.source import new_markdown

    full = MarkdownIt("commonmark", {"html": False}).enable("table")
    assert new_markdown().render(text + " <b>x</b> <!-- y -->") == full.render(text + " <b>x</b> <!-- y -->")
    assert [(t.type, t.map) for t in new_markdown().parse(text)] == [(t.type, t.map) for t in full.parse(text)]


@settings(max_examples=200, deadline=None)
@given(text=texts)
def test_the_words_of_plain_prose_are_the_words_markdown_it_finds(text):
    assert plain_words(text) == _plain_words(_MD.parse(text))


def test_the_words_are_the_text_without_its_markup():
    words = plain_words("# Fines\n\nA *fine* of `10` points,\nthen:\n\n- one\n- two\n\n    code here\n")
    assert words == "Fines A fine of 10 points, then: one two code here"


def test_a_players_heading_tags_stay_escaped_when_headings_move():
    html = render_prose("# Top\n\nSee <h1>this</h1>.", 3)
    assert "<h3>Top</h3>" in html and "&lt;h1&gt;this&lt;/h1&gt;" in html


BLOCK_LINES = [line for line in LINES if line] + [
    "para one", "para *two*", "1. first", "2) second", "* star", "\ttabbed", "   three spaces", "[ref]: https://x.org",
    "see [ref]", "~~~", "> quote", "lazy", "***", "Title\r", "x\ufdd0y", "<!-- c -->", "  - nested", "- [ ] task"]
SEPARATORS = ["\n\n", "\n\n\n", "\n \n", "\n\t\n", "\n\u00a0\n", "\r\n\r\n", "\n"]
blocks = st.lists(st.sampled_from(BLOCK_LINES), min_size=1, max_size=3).map("\n".join)
block_texts = st.lists(st.tuples(blocks, st.sampled_from(SEPARATORS)), min_size=1, max_size=5).map(
    lambda parts: "".join(block + separator for block, separator in parts))


@settings(max_examples=1000, deadline=None)
@given(text=block_texts)
def test_a_text_drawn_block_by_block_is_the_text_drawn_whole(text):
    render_markdown.cache_clear()
    assert render_markdown(text) == markdown_to_html(text)


# Lines close to plain prose: a start that is a letter or might begin a block, then characters that are plain
# or might be markup (emphasis, code, links, entities, escapes, a hard break's trailing spaces, Unicode spaces).
LINE_STARTS = ["A", "z", "é", "Ω", "1", "1.", "2)", "#", ">", "> A", "> z", ">A", ">  A", "> > A", "> - A", "-",
               "- A", "- z", "-A", "-  A", "- - A", "- > A", "  - A", "+ A", "* A", "+", "*", "=", "|", " ", "    ",
               "\t", "[", "<", "_", "\ufdd2A", "\ufdd0 ", "\ufdd0-", "\ufdd1"]
LINE_CHARACTERS = list("abc XYZ é½²9,.;:?!'\"()%/+=$@#^{}~>-") + ["_", "*", "`", "[", "]", "<", "&", "\\", "|",
                                                               "  ", "\t", "\u00a0", "\u2003", "\ufdd0", "\ufdd1", "\ufdd2", "\ufdd3", "www.x.org", "&copy;", "&#35;"]
prose_lines = st.tuples(st.sampled_from(LINE_STARTS), st.lists(st.sampled_from(LINE_CHARACTERS), max_size=12)).map(
    lambda parts: parts[0] + "".join(parts[1]))
prose = st.lists(st.tuples(prose_lines, st.sampled_from(["\n", "\n\n", "\n\n\n", "\n \n"])), min_size=1,
                 max_size=4).map(lambda parts: "\n" * (len(parts) % 2) + "".join(line + end for line, end in parts))


# Quotes, lists and paragraphs packed close: what a proposal quoting a rule's text looks like, and its near misses.
QUOTE_LINES = ["> Each of:", "> - one;", "> - two", ">", "> Then.", "> > deep", ">  - far", "A line.", "- item", "b"]
quoted = st.lists(st.lists(st.sampled_from(QUOTE_LINES), min_size=1, max_size=5).map("\n".join), min_size=1,
                  max_size=3).map("\n\n".join)


@settings(max_examples=3000, deadline=None)
@given(text=st.one_of(prose, quoted))
def test_prose_drawn_without_markdown_it_is_what_markdown_it_draws(text):
    """Plain prose is drawn without parsing it (_prose_html); whatever takes that way is what markdown-it draws,
    words and HTML."""
    tokens = _MD.parse(text)
    assert markdown_to_html(text) == _MD.renderer.render(tokens, _MD.options, {})
    assert plain_words(text) == _plain_words(tokens)


def test_rule_texts_and_proposals_in_plain_words_are_drawn_without_parsing():
    assert _prose_html('All players must abide by all the rules then in effect, in the form in which they are then in '
                       'effect.\nThe rules in the Initial Set are in effect (see "Rule 101").\n\nA second paragraph: '
                       '2nd of 3, 50% > 1/3!') == (
        '<p>All players must abide by all the rules then in effect, in the form in which they are then in effect.\n'
        'The rules in the Initial Set are in effect (see &quot;Rule 101&quot;).</p>\n'
        '<p>A second paragraph: 2nd of 3, 50% &gt; 1/3!</p>\n')
    assert _prose_html("Enact rule: Notice\n\n> Upon a vote,\n> the clerk counts.\n>\n> Then he tells.\n") == (
        "<p>Enact rule: Notice</p>\n<blockquote>\n<p>Upon a vote,\nthe clerk counts.</p>\n<p>Then he tells.</p>\n"
        "</blockquote>\n")
    assert _prose_html("Each of:\n\n- one;\n- two.\n\nThen \ufdd0old\ufdd1\ufdd2new\ufdd3.") == (
        "<p>Each of:</p>\n<ul>\n<li>one;</li>\n<li>two.</li>\n</ul>\n<p>Then \ufdd0old\ufdd1\ufdd2new\ufdd3.</p>\n")
    assert _prose_html("Amend rule 7 to read:\n\n> Each of:\n>\n> - one;\n> - two.\n>\n> Then.") == (
        "<p>Amend rule 7 to read:</p>\n<blockquote>\n<p>Each of:</p>\n<ul>\n<li>one;</li>\n<li>two.</li>\n</ul>\n"
        "<p>Then.</p>\n</blockquote>\n")
    assert _prose_html("- a loose\n\n- list") is None and _prose_html("> Each of:\n> - one") is None
    assert _prose_html("A *fine*") is None and _prose_html("+ a list") is None and _prose_html("") is None
    assert _prose_html("A paragraph\n> and a quote that interrupts it") is None
