"""Tests for generator.diffing.redline.

Case files in tests/data/redline/*.txt hold sections, each opened by a line `=== name`:
`old` and `new` (the two rule texts), `redline` (the expected wdiff-style rendering, i.e.
`render_ansi(..., color=False)`, which shows every segment) and `summary` (one item a line).
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from diff_match_patch import diff_match_patch
from hypothesis import example, given, settings
from hypothesis import strategies as st

from generator.diffing.redline import (
    MAX_DIFF_WORK,
    _DiffBudget,
    _diff_words,
    _kept_count,
    _words,
    _words_shared,
    ansi_key,
    BlockDiff,
    Redline,
    Segment,
    redline,
    render_ansi,
    render_html,
    similarity,
    similarity_joined,
    split_blocks,
    summarize,
)
from generator.diffing.compare import PART_SEPARATOR

CASES = sorted((Path(__file__).parent / "data" / "redline").glob("*.txt"))
SENTINELS = re.compile("[\ufdd0-\ufdd3]")


def read_case(path: Path) -> dict[str, str]:
    text = path.read_text(encoding="utf-8")
    return dict(re.findall(r"^=== (\w+)\n(.*?)(?=^=== |\Z)", text, re.M | re.S))


def segments(old: str, new: str) -> list[tuple[str, str]]:
    """The segments of a one-block redline, as (op, text) pairs."""
    (block,) = redline(old, new).blocks
    return [(s.op, s.text) for s in block.segments]


def assert_reconstructs(rl: Redline, old: str, new: str) -> None:
    """Equal+delete segments give the old block, equal+insert the new one; blocks give the texts."""
    for block in rl.blocks:
        assert all(s.text for s in block.segments)
        assert "".join(s.text for s in block.segments if s.op != "insert") == block.old
        assert "".join(s.text for s in block.segments if s.op != "delete") == block.new
        ops = [s.op for s in block.segments]
        if block.kind == "equal":
            assert ops == ["equal"]
        elif block.kind == "inserted":
            assert ops == ["insert"]
        elif block.kind == "deleted":
            assert ops == ["delete"]
        else:
            assert block.old != block.new and set(ops) != {"equal"}
        # Canonical: no two neighbours of one kind, and each change deletes before it inserts.
        for before, after in zip(ops, ops[1:]):
            assert before != after and (before, after) != ("insert", "delete")
    assert [b.old for b in rl.blocks if b.kind != "inserted"] == split_blocks(old)
    assert [b.new for b in rl.blocks if b.kind != "deleted"] == split_blocks(new)


class WellFormed(HTMLParser):
    """Fails on unbalanced or unexpected tags: player text must never become markup."""

    VOID = {"br", "hr", "img"}
    ALLOWED = VOID | set(
        "div p ul ol li blockquote pre code em strong a h1 h2 h3 h4 h5 h6 "
        "table thead tbody tr th td del ins span".split()
    )

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        assert tag in self.ALLOWED, tag
        assert all(not name.startswith("on") for name, _ in attrs)
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        assert tag in self.VOID, tag
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        assert self.stack and self.stack[-1] == tag, (self.stack, tag)
        self.stack.pop()


def assert_well_formed(html: str) -> None:
    parser = WellFormed()
    parser.feed(html)
    parser.close()
    assert parser.stack == []
    assert not SENTINELS.search(html)


# --- Case files ---------------------------------------------------------------------------------


@pytest.mark.parametrize("path", CASES, ids=[path.stem for path in CASES])
def test_case_file(path: Path) -> None:
    case = read_case(path)
    rl = redline(case["old"], case["new"])
    assert render_ansi(rl, color=False) == case["redline"].rstrip("\n")
    assert summarize(rl) == case["summary"].splitlines()
    assert_reconstructs(rl, case["old"], case["new"])
    assert_well_formed(render_html(rl, cite="https://example.org/proposals/301"))


def test_case_files_are_present() -> None:
    assert len(CASES) >= 20


# --- Diffing ------------------------------------------------------------------------------------


def test_word_swap() -> None:
    assert segments("Votes must be unanimous.", "Votes must be a majority.") == [
        ("equal", "Votes must be "),
        ("delete", "unanimous"),
        ("insert", "a majority"),
        ("equal", "."),
    ]


def test_numbers_are_swapped_whole() -> None:
    assert segments("See Rule 301 now.", "See Rule 310 now.") == [
        ("equal", "See Rule "),
        ("delete", "301"),
        ("insert", "310"),
        ("equal", " now."),
    ]


def test_whitespace_between_edits_joins_them() -> None:
    assert segments("It lasts one week.", "It lasts an interval.") == [
        ("equal", "It lasts "),
        ("delete", "one week"),
        ("insert", "an interval"),
        ("equal", "."),
    ]


def test_whitespace_left_between_edits_by_diff_match_patch_joins_them() -> None:
    # diff-match-patch alone gives: delete "-", equal "  ", insert "*\n".
    assert segments("-  players vote.", "  *\nplayers vote.") == [
        ("delete", "-  "),
        ("insert", "  *\n"),
        ("equal", "players vote."),
    ]


def test_deletion_and_insertion_at_the_edges() -> None:
    assert segments("Sadly, players vote.", "players vote.") == [
        ("delete", "Sadly, "),
        ("equal", "players vote."),
    ]
    assert segments("players vote", "players vote twice") == [
        ("equal", "players vote"),
        ("insert", " twice"),
    ]


@pytest.mark.parametrize(
    ("old_word", "new_word"),
    [
        ("délai", "delai"),
        ("de\u0301lai", "delai"),  # a combining accent stays in its word
        ("\U0001f468\u200d\U0001f469\u200d\U0001f467", "\U0001f468\u200d\U0001f469\u200d\U0001f466"),
        ("\U0001f44d\U0001f3fd", "\U0001f44d\U0001f3ff"),  # skin tones
        ("rule-change", "rule-changes"),
        ("101-116", "101-117"),
        ("player's", "judge's"),
    ],
)
def test_words_are_swapped_whole(old_word: str, new_word: str) -> None:
    diff = segments(f"Only {old_word} here", f"Only {new_word} here")
    assert ("delete", old_word) in diff
    assert ("insert", new_word) in diff


def test_spacing_changes_do_not_disturb_the_word_diff() -> None:
    assert segments("a b\nc d", "a b c e") == [
        ("equal", "a b"),
        ("delete", "\n"),
        ("insert", " "),
        ("equal", "c "),
        ("delete", "d"),
        ("insert", "e"),
    ]


def test_identical_texts_do_not_change() -> None:
    rl = redline("Rule one.\n\nRule two.", "Rule one.\r\n\r\n\r\nRule two.\n")
    assert not rl.changed
    assert [b.kind for b in rl.blocks] == ["equal", "equal"]
    assert summarize(rl) == ["no change to the text"]


def test_empty_texts() -> None:
    assert redline("", "") == Redline(())
    assert not redline("", "  \n\n").changed
    assert [b.kind for b in redline("", "New.\n\nRule.").blocks] == ["inserted", "inserted"]
    assert [b.kind for b in redline("Old rule.", "").blocks] == ["deleted"]


def test_edited_paragraph_keeps_neighbours_equal() -> None:
    old = "Alpha stays.\n\nThe judge rules on disputes.\n\nOmega stays."
    new = "Alpha stays.\n\nThe judge quickly rules on disputes.\n\nOmega stays."
    rl = redline(old, new)
    assert [b.kind for b in rl.blocks] == ["equal", "changed", "equal"]


def test_inserted_paragraph_is_whole_and_neighbours_stay_equal() -> None:
    old = "Alpha stays.\n\nOmega stays."
    new = "Alpha stays.\n\nOmega is the last letter.\n\nOmega stays."
    rl = redline(old, new)
    assert rl.blocks[1] == BlockDiff(
        "inserted", "", "Omega is the last letter.", (Segment("insert", "Omega is the last letter."),)
    )
    assert [b.kind for b in rl.blocks] == ["equal", "inserted", "equal"]


def test_similar_paragraphs_are_paired_among_several() -> None:
    old = "One rule about voting on proposals.\n\nAnother rule about scoring points."
    new = (
        "A brand new rule on the judge.\n\n"
        "One rule about voting on proposals twice.\n\n"
        "Another rule about scoring more points."
    )
    rl = redline(old, new)
    assert [b.kind for b in rl.blocks] == ["inserted", "changed", "changed"]


def test_a_fifth_of_words_kept_is_the_rewrite_threshold() -> None:
    # One word kept of five is a fifth: still an edit. One of six is less: a rewrite.
    kept = redline("alpha beta gamma delta epsilon", "alpha one two three four")
    assert [b.kind for b in kept.blocks] == ["changed"]
    rewritten = redline("alpha beta gamma delta epsilon zeta", "alpha one two three four five")
    assert [b.kind for b in rewritten.blocks] == ["deleted", "inserted"]
    assert summarize(rewritten) == ["rewrote the rule"]


def test_long_unrelated_blocks_are_a_rewrite_without_diffing(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_diff(*args: object) -> None:
        raise AssertionError("diffed")

    monkeypatch.setattr(diff_match_patch, "diff_main", no_diff)
    words = "rule player vote proposal judge score turn game".split()
    old = " ".join(words[n % 8] for n in range(40))
    new = " ".join(words[n * 3 % 8] for n in range(40))
    assert [b.kind for b in redline(old, new).blocks] == ["deleted", "inserted"]


def test_long_block_with_every_other_word_changed_is_a_rewrite() -> None:
    old = " ".join(f"w{n}" for n in range(24))
    new = " ".join(f"w{n}" if n % 2 else f"x{n}" for n in range(24))
    assert [b.kind for b in redline(old, new).blocks] == ["deleted", "inserted"]
    # Short texts are left to the diff: one changed word breaks most of their word pairs.
    assert [b.kind for b in redline("Rule 5 applies", "Rule 6 applies").blocks] == ["changed"]


def test_long_block_with_a_few_changes_is_diffed() -> None:
    old = " ".join(f"w{n}" for n in range(40))
    new = old.replace("w7 ", "x7 ").replace("w23 ", "").replace("w31", "w31 y z")
    assert summarize(redline(old, new)) == [
        'replaced "w7" with "x7"',
        'deleted "w23"',
        'inserted "y z"',
    ]


def test_short_kept_rule_with_long_addition_is_not_a_rewrite() -> None:
    rl = redline("Players vote.", "Players vote.\n\n" + "More words follow here. " * 20)
    assert [b.kind for b in rl.blocks] == ["equal", "inserted"]
    assert summarize(rl) == ["appended a paragraph"]


def test_sentinel_characters_are_removed_from_input() -> None:
    rl = redline("a\ufdd0b c", "a\ufdd3b d")
    assert rl.blocks[0].old == "ab c"
    assert_well_formed(render_html(rl))


def test_redline_is_deterministic() -> None:
    old = "The quick brown fox jumps over the lazy dog.\n\n- one\n- two"
    new = "A quick red fox leaps over the lazy dogs.\n\n- one\n- three\n- two"
    assert redline(old, new) == redline(old, new)
    assert render_html(redline(old, new)) == render_html(redline(old, new))


def test_redline_does_not_depend_on_hash_seed() -> None:
    script = (
        "from generator.diffing.redline import redline, render_ansi\n"
        "print(render_ansi(redline('one two three four five six seven', "
        "'one three two four six five seven eight'), color=False))\n"
    )
    outputs = {
        subprocess.run(
            [sys.executable, "-c", script],
            capture_output=True,
            text=True,
            check=True,
            cwd=Path(__file__).parent.parent,
            env={**os.environ, "PYTHONHASHSEED": seed},
        ).stdout
        for seed in ("1", "2", "3")
    }
    assert len(outputs) == 1


# --- HTML ---------------------------------------------------------------------------------------


def test_render_html_marks_edits_with_cite_and_hidden_labels() -> None:
    html = render_html(
        redline("Votes must be unanimous.", "Votes must be a majority."),
        cite="https://example.org/p?id=1&x=\"2\"",
    )
    cite = 'cite="https://example.org/p?id=1&amp;x=&#34;2&#34;"'
    assert html == (
        '<div class="redline">\n<p>Votes must be '
        f'<del {cite}><span class="visually-hidden">deleted: </span>unanimous</del>'
        f'<ins {cite}><span class="visually-hidden">inserted: </span>a majority</ins>'
        ".</p>\n</div>\n"
    )


def test_render_html_without_cite() -> None:
    html = render_html(redline("a b c", "a x c"))
    assert "<del><span" in html and "cite" not in html


def test_render_html_whole_blocks() -> None:
    html = render_html(redline("Kept.\n\nGone away.", "Kept.\n\nBrand *new*."), cite="u")
    assert '<del class="block" cite="u"><span class="visually-hidden">deleted: </span>\n<p>Gone away.</p>\n</del>' in html
    assert '<ins class="block" cite="u"><span class="visually-hidden">inserted: </span>\n<p>Brand <em>new</em>.</p>\n</ins>' in html
    assert_well_formed(html)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("<script>alert(1)</script> rules.", "<img src=x onerror=alert(1)> rules."),
        ('Vote <b onclick="x()">now</b>.', 'Vote <script src="//evil"></script> later.'),
        ("[click](javascript:alert(1)) here", "[click](javascript:alert(2)) here"),
    ],
)
def test_render_html_escapes_hostile_text(old: str, new: str) -> None:
    html = render_html(redline(old, new), cite='"><script>alert(3)</script>')
    assert "<script" not in html and "<img" not in html and "<b " not in html
    assert "javascript:" not in re.sub(r">[^<]*<", "><", html)  # only in text, never in a link
    assert_well_formed(html)


def test_render_html_escapes_unchanged_and_whole_blocks_too() -> None:
    html = render_html(redline("<script>a()</script>", "<script>a()</script>\n\n<img src=x onerror=y>"))
    assert "&lt;script&gt;" in html and "&lt;img src=x onerror=y&gt;" in html
    assert_well_formed(html)


def test_render_html_list_item_inserted_keeps_the_list() -> None:
    html = render_html(redline("- apples\n- pears", "- apples\n- figs\n- pears"))
    assert html.count("<ul>") == 1
    assert '<li><ins><span class="visually-hidden">inserted: </span>figs</ins></li>' in html
    assert_well_formed(html)


def test_render_html_edit_across_list_items_is_cut_per_line() -> None:
    html = render_html(redline("- apples\n- pears\n- plums", "- apples\n- figs\n- kiwis\n- plums"))
    assert html.count("<ul>") == 1 and html.count("<li>") == 4
    assert (
        '<li><del><span class="visually-hidden">deleted: </span>pears</del>'
        '<ins><span class="visually-hidden">inserted: </span>figs</ins></li>'
    ) in html
    assert '<li><ins><span class="visually-hidden">inserted: </span>kiwis</ins></li>' in html
    assert_well_formed(html)


def test_render_html_renumbered_list_follows_the_new_text() -> None:
    html = render_html(redline("1. first\n2. second", "1. first\n2. middle\n3. second"))
    assert html.count("<li>") == 3
    assert '<li><ins><span class="visually-hidden">inserted: </span>middle</ins></li>' in html


def test_render_html_deleted_list_marker_joins_the_lines() -> None:
    html = render_html(redline("- a\n- b", "- a b"))
    assert html.count("<li>") == 1
    assert '<del><span class="visually-hidden">deleted: </span>-</del> b</li>' in html


def test_render_html_table_row_inserted() -> None:
    table = "| a | b |\n|---|---|\n| 1 | 2 |"
    html = render_html(redline(table, table + "\n| 3 | 4 |"))
    assert '<td><ins><span class="visually-hidden">inserted: </span>3</ins></td>' in html
    assert_well_formed(html)


def test_render_html_falls_back_to_whole_block_when_inline_syntax_is_cut() -> None:
    # The edit lies in a link target, then across emphasis: neither can hold <del>/<ins>.
    for old, new in [
        ("See [the rules](https://a.example/rules) today.", "See [the rules](https://b.example/rules) today."),
        ("the *old rule* now", "the *new* rule now"),
    ]:
        html = render_html(redline(old, new))
        assert '<del class="block">' in html and '<ins class="block">' in html
        assert_well_formed(html)


def test_render_html_uses_the_given_markdown_renderer() -> None:
    def render(source: str) -> str:
        return f"<p>{source.replace('&', '&amp;').replace('<', '&lt;')}</p>"

    html = render_html(redline("a b <c>", "a d <c>"), render_markdown=render)
    assert html == (
        '<div class="redline">\n<p>a <del><span class="visually-hidden">deleted: </span>b</del>'
        '<ins><span class="visually-hidden">inserted: </span>d</ins> &lt;c></p></div>\n'
    )


# --- Terminal -----------------------------------------------------------------------------------


def test_render_ansi_with_and_without_color() -> None:
    rl = redline("Votes must be unanimous.\n\nOld.", "Votes must be a majority.")
    assert render_ansi(rl, color=False) == "Votes must be [-unanimous-]{+a majority+}.\n\n[-Old.-]"
    assert render_ansi(rl, color=True) == (
        "Votes must be \x1b[9munanimous\x1b[0m\x1b[31;4ma majority\x1b[0m.\n\n\x1b[9mOld.\x1b[0m"
    )


def test_render_ansi_styles_each_line_and_neutralizes_control_characters() -> None:
    rl = redline("- a", "- a\n- b\x1b[2J")
    assert render_ansi(rl, color=True) == "- a\n\x1b[31;4m- b\ufffd[2J\x1b[0m"


# --- Summary ------------------------------------------------------------------------------------


def test_summary_counts_long_phrases() -> None:
    old = "Players vote."
    new = "Players vote on every proposal that the judge has declared valid this very turn."
    assert summarize(redline(old, new)) == ["inserted 12 words"]


def test_summary_lists_at_most_five_changes() -> None:
    old = " ".join(f"w{n}" for n in range(40))
    new = " ".join(f"x{n}" if n % 5 == 0 else f"w{n}" for n in range(40))
    summary = summarize(redline(old, new))
    assert summary[:2] == ['replaced "w0" with "x0"', 'replaced "w5" with "x5"']
    assert summary[5:] == ["and 3 more changes"]


def test_summary_says_a_repeated_edit_once_with_its_count() -> None:
    old = "Vote for one week. Wait one week. Then one week more, then a day."
    new = "Vote for one interval. Wait one interval. Then one interval more, then one interval."
    assert summarize(redline(old, new)) == ['replaced "week" with "interval" 3 times',
                                            'replaced "a day" with "one interval"']
    assert summarize(redline("A rule is short. Every player votes on it. The judge decides.",
                             "A rule is very short. Every player votes on it. The judge decides very.")) == [
        'inserted "very" twice']


def test_summary_paragraph_counts() -> None:
    assert summarize(redline("A one.\n\nB two.\n\nC three.", "C three.")) == ["removed 2 paragraphs"]
    assert summarize(redline("Keep me.", "New first.\n\nKeep me.")) == ["added a paragraph"]
    assert summarize(redline("Keep me.", "Keep me.\n\nOne more.\n\nTwo more.")) == [
        "appended 2 paragraphs"
    ]


# --- similarity ---------------------------------------------------------------------------------


def test_similarity() -> None:
    assert similarity("The judge rules.", "the JUDGE rules") == 1.0
    assert similarity("alpha beta", "gamma delta") == 0.0
    assert similarity("a b c d", "a b x y") == 0.5
    assert similarity("", "") == 1.0
    assert similarity("", "word") == 0.0


# --- Properties ---------------------------------------------------------------------------------

PIECES = st.sampled_from(
    [
        "rule", "Rule", "player", "vote", "301", "101-116", "délai", "e\u0301", "—", "🎲",
        "\u200d", " ", "  ", "\n", "\n\n", "\r\n", "\t", ".", ",", "- ", "* ", "1. ", "> ",
        "# ", "|", "_", "*", "`", "[", "](", ")", "<script>", "<b>", "&amp;", "\\", "\x1b",
        "\ufdd0", "\ufdd3", "\U000f0000",
    ]
)
TEXTS = st.lists(PIECES, max_size=40).map("".join)


@st.composite
def edited_pairs(draw: st.DrawFn) -> tuple[str, str]:
    old = draw(st.lists(PIECES, max_size=40))
    new = list(old)
    for _ in range(draw(st.integers(0, 6))):
        at = draw(st.integers(0, len(new)))
        if new and draw(st.booleans()):
            del new[min(at, len(new) - 1)]
        else:
            new.insert(at, draw(PIECES))
    return "".join(old), "".join(new)


TEXT_PAIRS = st.one_of(edited_pairs(), st.tuples(TEXTS, TEXTS))


# Pieces that join the words beside them (a hyphen, an apostrophe, a combining accent, a digit's point).
JOINING_TEXTS = st.lists(st.one_of(PIECES, st.sampled_from(["-", "'", "\u0301", "3", ":", "é"])), max_size=30).map("".join)


@settings(max_examples=300, deadline=None)
@given(TEXTS, JOINING_TEXTS, JOINING_TEXTS)
def test_similarity_with_two_parts_is_that_with_the_parts_joined(text: str, first: str, second: str) -> None:
    """What lets a comparison of rulesets score a split or a merge without joining the parts (compare.py)."""
    assert similarity_joined(text, first, second) == similarity(text, first + PART_SEPARATOR + second)


@settings(max_examples=300, deadline=None)
@given(TEXT_PAIRS)
def test_segments_reconstruct_both_texts(pair: tuple[str, str]) -> None:
    old, new = pair
    assert_reconstructs(redline(old, new), old, new)


@settings(max_examples=300, deadline=None)
@given(TEXT_PAIRS)
def test_a_diff_keeps_no_more_words_than_the_texts_share(pair: tuple[str, str]) -> None:
    """What lets a pair of blocks that share too few words be shown whole without diffing them."""
    old, new = (SENTINELS.sub("", text) for text in pair)
    kept = _kept_count(_diff_words(old, new, _DiffBudget(MAX_DIFF_WORK)))
    assert kept <= _words_shared(_words(old), _words(new))


@st.composite
def phrase_replaced_pairs(draw: st.DrawFn) -> tuple[str, str]:
    """A text and the text with one stretch replaced: the amendment the word diff's shortcut takes
    (`_one_stretch_replaced`), often with words, spaces and line breaks in common with what it replaces."""
    head, stretch, tail = (draw(st.lists(PIECES, max_size=size)) for size in (12, 8, 12))
    return "".join(head + stretch + tail), "".join(head + draw(st.lists(PIECES, max_size=8)) + tail)


@settings(max_examples=500, deadline=None)
@given(st.one_of(phrase_replaced_pairs(), TEXT_PAIRS))
@example(("- ——", " —"))  # the stretch holds the common end: the diff slides the deletion across it
def test_the_one_stretch_shortcut_gives_what_the_diff_and_its_cleanup_give(pair: tuple[str, str]) -> None:
    from generator.diffing import redline as module

    old_tokens, new_tokens = (module._tokens(SENTINELS.sub("", text)) for text in pair)
    old_codes, new_codes = module._encoded(old_tokens, new_tokens)
    quick = module._one_stretch_replaced(old_codes, new_codes)
    if quick is not None:
        searched = module._diff_codes(old_codes, new_codes, _DiffBudget(MAX_DIFF_WORK))
        diff_match_patch().diff_cleanupSemantic(searched)
        assert quick == searched


def test_a_phrase_replaced_is_one_deletion_and_one_insertion_without_a_search(monkeypatch):
    from generator.diffing import redline as module

    monkeypatch.setattr(module, "_diff_codes", None)  # the search is not run
    segments = _diff_words("Votes last one full week, then close.", "Votes last an interval, then close.",
                           _DiffBudget(MAX_DIFF_WORK))
    assert segments == (Segment("equal", "Votes last "), Segment("delete", "one full week"),
                        Segment("insert", "an interval"), Segment("equal", ", then close."))


@settings(max_examples=200, deadline=None)
@given(TEXT_PAIRS)
def test_renderings_are_safe_and_total(pair: tuple[str, str]) -> None:
    rl = redline(*pair)
    assert_well_formed(render_html(rl, cite="https://example.org/?a=<b>"))
    assert "\x1b" not in render_ansi(rl, color=False)
    summary = summarize(rl)
    assert 1 <= len(summary) <= 6 and all(isinstance(item, str) for item in summary)


@given(TEXTS, TEXTS)
def test_similarity_is_symmetric_and_bounded(a: str, b: str) -> None:
    assert similarity(a, b) == similarity(b, a)
    assert 0.0 <= similarity(a, b) <= 1.0
    assert similarity(a, a) == 1.0


def test_lone_rewritten_paragraph_between_edited_ones_is_diffed_word_by_word():
    # Seed 002's rule 203: the middle paragraph shares only its opening words, yet it is the same
    # paragraph edited, and the seed marks it word by word.
    old = ("Votes last one week.\n\nAn interval is defined as the period from Monday to the following Thursday, "
           "or from Friday to the following Sunday.\n\nPlayers are notified one week before.")
    new = "Votes last interval.\n\nAn interval is defined as being four days.\n\nPlayers are notified interval before."
    blocks = redline(old, new).blocks
    assert [b.kind for b in blocks] == ["changed", "changed", "changed"]
    edits = [(s.op, s.text) for s in blocks[1].segments if s.op != "equal"]
    assert edits == [("delete", "the period from Monday to the following Thursday, or from Friday to the "
                      "following Sunday"), ("insert", "being four days")]


@settings(max_examples=300)
@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=80))
def test_ascii_text_splits_into_the_same_tokens_by_the_quick_pattern(text: str) -> None:
    from generator.diffing import redline as module

    assert module._tokens(text) == [m.group() for m in module._TOKEN.finditer(text)]
    assert module._words(text) == tuple(m.group() for m in module._TOKEN.finditer(text) if m.lastgroup == "word")


def test_the_terminal_follows_the_sites_convention_and_says_so_in_a_key():
    """Added text red and underlined, removed text struck through, as on the site and in the seeds."""
    rl = redline("Votes must be unanimous.", "Votes must be a majority.")
    coloured = render_ansi(rl, color=True)
    assert "\x1b[31;4ma majority\x1b[0m" in coloured and "\x1b[9munanimous\x1b[0m" in coloured
    assert ansi_key(color=True) == ("Key: \x1b[31;4madded text is red and underlined\x1b[0m; "
                                    "\x1b[9mremoved text is struck through\x1b[0m")
    assert ansi_key(color=False) == "Key: {+added text+} [-removed text-]"


def test_a_fenced_block_after_prose_keeps_its_blank_lines_and_its_info_string_lines():
    # A fence may interrupt a paragraph, so the prose and the fenced text are one block; the text inside the
    # fence is verbatim all the same, and a "```python" line inside it is its text, not its end.
    old = "Intro:\n```\nline a\n\nline b\n```python\nline z\n```"
    new = "Intro:\n```\nline a\n\nline c\n```python\nline z\n```"
    assert split_blocks(new) == [new]
    html = render_html(redline(old, new))
    assert html.count("<pre>") == 1
    assert "line a\n\nline " in html and "```python\nline z" in html
