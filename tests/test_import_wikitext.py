"""A ruleset kept as a wiki page's wikitext (MediaWiki's: BlogNomic's, a game's wiki), read by `import text`:
each case is a small page of the shape, written here."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from generator.cli import main
from generator.errors import ErrorCollector
from generator.importers.rulesfile import read_ruleset
from generator.importers.wikitext import is_wikitext, wikitext_markdown
from generator.parse.rules import parse_ruleset

# Rules known by their titles, level-2 headings under level-1 parts, as a blog game's wiki keeps them.
TITLED = """\
=Core Rules=

==Ruleset and Gamestate==
This is the '''Ruleset''' for the game; all Players obey it. See [[Gamestate|the gamestate page]].

==Players==
A person may join by a post.
* A Player may leave at any time.
** A Player who left may not join again for a week.

===Idle Players===
An ''idle'' Player is not counted as a Player.

=Dynastic Rules=

==Tokens==
Each Player has some Tokens, tracked on the [[Gamestate]] page.
"""

# Rules numbered in their text, under class headings, with what a wiki page carries besides.
NUMBERED = """\
{{Infobox|name=Test
|players=3}}
<!-- kept by the clerk
     since the start -->
== Immutable Rules ==

101. All players obey the rules in '''effect'''.

== Mutable Rules ==

201. Points are kept at [http://example.org/scores the score page] &mdash; see <nowiki>''this''</nowiki>.

{| class="wikitable"
! Player !! Points
|-
| Ann || 3
|-
| style="color:red" | Bob
| 5
|}

202. The table above is <s>old</s> kept.
[[Category:Rules]]
"""


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main([*args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_page_of_titled_rules_is_read_rule_by_rule_under_its_parts(tmp_path, capsys) -> None:
    page = tmp_path / "Ruleset.wiki"
    page.write_text(TITLED, encoding="utf-8")
    code, out, err = run(capsys, "import", "text", str(page), "-o", str(tmp_path / "rules.md"))
    assert code == 0
    rules = (tmp_path / "rules.md").read_text(encoding="utf-8")
    # the parts are topics, not rules; each titled section is a rule, numbered by its place
    assert "# Core Rules\n" in rules and "# Dynastic Rules\n" in rules
    assert [line for line in rules.split("\n") if line.startswith("### ")] == [
        "### 1. Ruleset and Gamestate", "### 2. Players", "### 3. Idle Players", "### 4. Tokens"]
    assert "This is the **Ruleset** for the game; all Players obey it. See the gamestate page." in rules
    assert "- A Player may leave at any time.\n  - A Player who left may not join again for a week." in rules
    assert "An *idle* Player" in rules
    assert f"{page}: read as a wiki page's wikitext (MediaWiki's)" in err
    assert f"{page}:4: a link to a page of the wiki written as its text (--link-base gives its address)" in err
    assert "2 of its headings, with no text of their own over deeper ones, are topics" in err
    ruleset = parse_ruleset(rules, "rules.md", ErrorCollector())
    assert [rule.title for rule in ruleset.rules] == ["Ruleset and Gamestate", "Players", "Idle Players", "Tokens"]


def test_with_a_link_base_a_link_to_a_page_of_the_wiki_is_a_link(tmp_path, capsys) -> None:
    page = tmp_path / "Ruleset.wiki"
    page.write_text(TITLED, encoding="utf-8")
    code, out, err = run(capsys, "import", "text", str(page), "--link-base", "https://wiki.example.org/index.php?title=")
    assert code == 0
    assert "See [the gamestate page](https://wiki.example.org/index.php?title=Gamestate)." in out
    assert "a link to a page of the wiki written as its text" not in err


def test_numbered_rules_under_class_headings_keep_their_numbers_and_classes_and_lines(tmp_path, capsys) -> None:
    page = tmp_path / "rules.txt"  # (plain text by its name: its headings say it is wikitext)
    page.write_text(NUMBERED, encoding="utf-8")
    code, out, err = run(capsys, "import", "text", str(page))
    assert code == 0
    assert "## Immutable Rules\n\n### 101\nAll players obey the rules in **effect**." in out
    assert "## Mutable Rules\n\n### 201\nPoints are kept at [the score page](http://example.org/scores) — see " \
           "''this''." in out
    assert "| Player | Points |\n| --- | --- |\n| Ann | 3 |\n| Bob | 5 |" in out
    assert "### 202\nThe table above is old kept." in out
    # what was left out or rewritten is said at the page's own lines
    assert f"{page}:1: left out: {{{{Infobox}}}}: a template (text of another page of the wiki)" in err
    assert f"{page}:23: left out: [[Category:Rules]]: a category or a file of the wiki" in err
    assert f"{page}:13: a table written as a Markdown table (its attributes left out)" in err
    assert f"{page}:22: struck text kept as text (the wiki shows it struck through)" in err


def test_a_page_read_inside_import_text_reads_as_the_format_reads_it() -> None:
    read = read_ruleset(NUMBERED, file="Rules.wikitext")
    assert [(rule.number, rule.rule_class) for rule in read.rules] == [
        (101, "Immutable Rules"), (201, "Mutable Rules"), (202, "Mutable Rules")]


@pytest.mark.parametrize("file, text, expected", [
    ("Ruleset.wiki", "no headings at all\n", True),
    ("rules.md", "== A ==\n== B ==\n", False),
    ("rules.txt", "== A ==\ntext\n== B ==\n", True),
    (None, "== A ==\n== B ==\n", True),
    ("rules.txt", "== A ==\ntext\n", False),  # (one such line: a banner of plain text)
    (None, "# Title\n\n== A ==\n== B ==\n", False),  # (a Markdown heading: Markdown)
    (None, "==========\n101. text\n==========\n", False),  # (rules of =: no heading)
    ("rules.rst", "== A ==\n== B ==\n", False),
])
def test_a_page_is_wikitext_by_its_name_or_by_its_headings(file, text, expected) -> None:
    assert is_wikitext(file, text) is expected


def test_apostrophes_toggle_bold_and_italics_and_close_at_the_lines_end() -> None:
    markdown, _ = wikitext_markdown("'''''both''''' and '''bold''' and ''it''\n''left open\nplain 'quoted' *star*")
    assert markdown.split("\n") == ["***both*** and **bold** and *it*", "*left open*",
                                    "plain 'quoted' \\*star\\*"]


def test_comments_templates_and_tables_keep_the_pages_line_count() -> None:
    page = "a\n<!-- one\ntwo -->\nb\n{{T|x\n|{{inner\n}}\n}}\nc\n{|\n|-\n| x\n| y\n|}\nd\n{|\n| open"
    markdown, _ = wikitext_markdown(page)
    lines = markdown.split("\n")
    assert len(lines) == len(page.split("\n"))
    assert [lines[0], lines[3], lines[8], lines[14]] == ["a", "b", "c", "d"]
    assert lines[9:11] == ["| x | y |", "| --- | --- |"]
    assert lines[15] == "| open |"  # (a table never closed: what it held)


def test_a_template_without_arguments_is_named_as_written() -> None:
    """`{{Ruleset header}}`, with no `|`, is said as written: its closing braces were counted in its name."""
    _, said = wikitext_markdown("{{Ruleset header}}\n== One ==\nText.\n{{Tracked|x}}\n")
    assert [(s.line, s.message) for s in said if s.left_out] == [
        (1, "{{Ruleset header}}: a template (text of another page of the wiki)"),
        (4, "{{Tracked}}: a template (text of another page of the wiki)")]


def test_footnotes_scripts_and_html_tags_are_no_rules_text_and_are_said() -> None:
    """A footnote is shown at the page's foot, not in the rule's sentence; a script's or style sheet's text is
    code; any other tag is dropped and its text kept. Each is said, with its line; the lines stay the page's."""
    page = ("==Voting==\nA proposal passes with a majority.<ref name=v>See the talk\npage.</ref> Then it\n"
            "is in force.<ref name=v/> <script>alert(1)</script><div class=x>Boxed</div>\n<references />\n"
            "<ref>never closed")
    markdown, said = wikitext_markdown(page)
    assert markdown.split("\n") == ["## Voting", "A proposal passes with a majority.", " Then it",
                                     "is in force. Boxed", "", "never closed"]
    assert [(line, message) for line, message, _ in said] == [
        (2, "<ref>: a footnote, not the rule's text: See the talk page."),
        (4, "<ref>: a footnote, not the rule's text"),
        (4, "<script>: a script (the site shows no page's code)"),
        (5, "<references>: the page's list of footnotes"),
        (4, "HTML tags left out, their text kept (the site shows no rule's HTML)")]


# Wikitext of the characters its syntax is made of: whatever it is, the Markdown has the page's lines.
_PIECES = st.sampled_from(["'", "''", "'''", "[[", "]]", "|", "{{", "}}", "{|", "|}", "|-", "!!", "<!--", "-->", "=",
                           "==", "*", "#", ":", ";", "<b>", "</b>", "<s>", "<nowiki>", "</nowiki>", "&amp;", "&#", "[",
                           "]", "http://x.org", " ", "a", "\n", "\n\n", "----", "[[Category:x]]", "\\", "`", "<ref>",
                           "</ref>", "<ref name=n/>", "<script>", "</script>", "<div>"])


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, max_size=60).map("".join))
def test_any_wikitext_is_markdown_of_as_many_lines(page) -> None:
    markdown, said = wikitext_markdown(page, "https://wiki.example.org/wiki/")
    assert markdown.count("\n") == page.count("\n")
    assert all(0 <= line <= page.count("\n") + 1 for line, _, _ in said)


def test_what_is_said_stays_bounded_however_many_things_are_left_out() -> None:
    page = "\n".join(f"{{{{T{n}}}}} [[Category:C{n}]]" for n in range(5000))
    markdown, said = wikitext_markdown(page)
    left_out = [message for _, message, left in said if left]
    assert len(left_out) == 51 and left_out[-1].startswith("9950 more things of the wiki")
    assert markdown.count("\n") == 4999


def test_a_rule_whose_text_is_a_list_under_its_bold_number_takes_the_words_after_it_as_its_title() -> None:
    """A wiki game writes `* '''Rule 1.''' Voting` and the rule's sentences as the items under it: "Voting" is
    the title, the items its text; a rule whose words after the number are a sentence keeps them as text."""
    page = ("* '''Rule 0.''' What the game is\n** This is a game of rules.\n** It begins at midnight.\n\n"
            "* '''Rule 1.''' Voting\n** A vote lasts three days.\n*** A majority adopts.\n\n"
            "* '''Rule 2.''' Every player may vote once.\n")
    read = read_ruleset(page, file="Rules.wiki")
    assert [(rule.number, rule.title) for rule in read.rules] == [(0, "What the game is"), (1, "Voting"), (2, None)]
    assert read.rules[1].text.split("\n")[0].strip() == "- A vote lasts three days."
    assert "Every player may vote once." in read.rules[2].text
