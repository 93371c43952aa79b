"""Word-level redlines of rule text: what an amendment struck out and what it added.

`redline(old, new)` compares two rule texts written in Markdown; `render_html`, `render_ansi`
and `summarize` present the result; `similarity` scores how alike two texts are.

A redline is bounded in time and size, the same on every machine: past MAX_REDLINE_CHARS, or when the
diff needs more than MAX_DIFF_WORK steps, or more distinct words than it has codes for, the rule is shown
rewritten (old text struck, new text added) with a note saying why.

Both texts are first normalized by `split_blocks` (line endings unified, sentinel characters
removed, blocks split at blank lines). The result then reconstructs them exactly:

- in every `BlockDiff`, the equal and deleted segments join to `old`, the equal and inserted
  segments join to `new`;
- the `old` of all blocks but the inserted ones is `split_blocks(old)`, and the `new` of all
  blocks but the deleted ones is `split_blocks(new)`.
"""
from __future__ import annotations

import difflib
import functools
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Literal

from diff_match_patch import diff_match_patch
from markupsafe import Markup, escape

from ..limits import MAX_RULE_CHARS
from ..parse.source import FENCE, closes_fence, markdown
from ..terminal import for_terminal

Op = Literal["equal", "insert", "delete"]
BlockKind = Literal["equal", "changed", "inserted", "deleted"]

# Blocks at least this alike (see `similarity`) are one block edited rather than one removed
# and another added.
PAIR_SIMILARITY = 0.5
# Versions keeping less than this share of the shorter one's words (or, in long blocks, of its
# word pairs) are shown as a rewrite: old struck whole, new inserted whole, rather than confetti.
REWRITE_SHARE = 0.2
# Blocks whose shorter version has at least this many words may be found a rewrite by their
# word pairs, before diffing (see `_too_few_pairs_shared`).
QUICK_REWRITE_WORDS = 20
# `summarize` quotes edits of at most this many words and counts longer ones.
QUOTE_WORDS = 8
# `summarize` lists at most this many changes before "and N more changes".
SUMMARY_ITEMS = 5
# Past these bounds a redline shows the rule rewritten, with a note. Both versions together: two rules at the cap.
MAX_REDLINE_CHARS = 2 * MAX_RULE_CHARS
# Work of diff-match-patch's search over one redline (blocks and words), in diagonals scanned: a few tenths of
# a second of pure Python. An amendment of a few hundred scattered edits stays well within it.
MAX_DIFF_WORK = 300_000
# Block pairs scored to pair a region's paragraphs at their best; larger regions pair nearby paragraphs only.
MAX_PAIR_SCORES = 10_000
# How far ahead, in paragraphs, a paragraph looks for its pair in such a region.
PAIR_WINDOW = 4


@dataclass(frozen=True)
class Segment:
    op: Op
    text: str


@dataclass(frozen=True)
class BlockDiff:
    """One Markdown block: kept as is, edited, or wholly inserted or deleted."""

    kind: BlockKind
    old: str
    new: str
    segments: tuple[Segment, ...]


@dataclass(frozen=True)
class Redline:
    blocks: tuple[BlockDiff, ...]
    note: str = ""  # why the rule is shown rewritten rather than word by word (a bound was passed)

    @property
    def changed(self) -> bool:
        return any(block.kind != "equal" for block in self.blocks)


# --- Words -----------------------------------------------------------------------------------

_COMBINING = "\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe00-\ufe0f\ufe20-\ufe2f"
# Letters and digits of any script, with combining marks and joiners, but not "_", which is
# Markdown emphasis.
_WORD_CHAR = rf"(?:[^\W_]|[{_COMBINING}\u200c\u200d])"
# Hyphens and apostrophes join words ("rule-change", "101-116", "player's"); ".,:" and an en
# dash join digits ("3.5", "1,000", "101–116").
_WORD = rf"{_WORD_CHAR}+(?:(?:[-\u2010\u2011'\u2019]|(?<=\d)[.,:\u2013](?=\d)){_WORD_CHAR}+)*"
# Any other character is a token of its own, keeping emoji sequences (flags, skin tones,
# zero-width-joined families) whole.
_SYMBOL_TAIL = rf"[{_COMBINING}\U0001f3fb-\U0001f3ff\U000e0020-\U000e007f]"
_SYMBOL = rf"[\U0001f1e6-\U0001f1ff]{{2}}|\S{_SYMBOL_TAIL}*(?:\u200d\S{_SYMBOL_TAIL}*)*"
_TOKEN = re.compile(rf"(?P<word>{_WORD})|(?P<space>\s+)|(?P<symbol>{_SYMBOL})")


# The same tokens for text in ASCII (most rule text), where a far simpler pattern finds them.
_ASCII_WORD = r"[A-Za-z0-9]+(?:(?:[-']|(?<=\d)[.,:](?=\d))[A-Za-z0-9]+)*"
_ASCII_WORDS = re.compile(_ASCII_WORD)
_ASCII_TOKENS = re.compile(rf"{_ASCII_WORD}|\s+|\S")


def _tokens(text: str) -> list[str]:
    if text.isascii():
        return _ASCII_TOKENS.findall(text)
    return [match.group() for match in _TOKEN.finditer(text)]


@functools.lru_cache(maxsize=8192)
def _words(text: str) -> tuple[str, ...]:
    """The words of `text`, cached by the text: a redline counts the words of each block several times. Each
    word is interned: thousands of cached texts share a few thousand words."""
    if text.isascii():
        return tuple(map(sys.intern, _ASCII_WORDS.findall(text)))
    return tuple(sys.intern(match.group()) for match in _TOKEN.finditer(text) if match.lastgroup == "word")


@functools.lru_cache(maxsize=8192)
def _word_bag(text: str) -> Counter[str]:
    """Cached by text: matching compares each rule with many others. Callers must not change it."""
    return Counter(map(sys.intern, map(str.casefold, _words(text))))


def _dice(a: Counter[str], b: Counter[str]) -> float:
    total = a.total() + b.total()
    if not total:
        return 1.0
    shared = a.keys() & b.keys()  # (all in C: a third quicker than a loop over the smaller bag, or a & b)
    return 2 * sum(map(min, map(a.__getitem__, shared), map(b.__getitem__, shared))) / total


def word_count(text: str) -> int:
    return len(_words(text))


def similarity_bound(words_a: int, words_b: int) -> float:
    """The most the similarity of two texts of these numbers of words can be: a quick test before comparing."""
    shorter, longer = (words_a, words_b) if words_a <= words_b else (words_b, words_a)
    return 2 * shorter / (shorter + longer) if longer else 1.0


@functools.lru_cache(maxsize=65536)
def similarity(a: str, b: str) -> float:
    """Share of words the texts have in common, from 0 (none) to 1 (the same words). Cached by the texts:
    serve compares the rules of the start with those of now again after an edit that changed one of them.

    Words are compared case-insensitively, in any order, counted with repetition (the Dice
    coefficient). Two texts without words count as alike.
    """
    return _dice(_word_bag(a), _word_bag(b))


@functools.lru_cache(maxsize=65536)
def similarity_joined(text: str, first: str, second: str) -> float:
    """similarity(text, first and second joined by a blank line), from the words of each part: a blank line
    holds no word and ends the one before it, so the joined text's words are the parts'. Cached by the three
    texts: comparing rulesets tries thousands of pairs of parts, and joining and hashing each pair cost
    more than the rest of the comparison."""
    return _dice(_word_bag(text), Counter(chain(_word_bag(first).elements(), _word_bag(second).elements())))


# --- Blocks ----------------------------------------------------------------------------------

# Noncharacters: Unicode reserves them for a program's internal use, so they are removed from
# player text and mark edits while Markdown is rendered.
_DEL_OPEN, _DEL_CLOSE, _INS_OPEN, _INS_CLOSE = "\ufdd0", "\ufdd1", "\ufdd2", "\ufdd3"
_SENTINELS = re.compile("([\ufdd0-\ufdd3])")


def forget_texts() -> None:
    """Forget the redlines, words and likenesses kept by their texts (a build, once the pages that share them are
    drawn: see site/views.forget_batch)."""
    for memo in (redline, _words, _word_bag, similarity, similarity_joined):
        memo.cache_clear()


def split_blocks(text: str) -> list[str]:
    """The Markdown blocks of `text` (runs of lines between blank lines, a fenced block whole, its blank lines
    included: text kept verbatim stays one block), as `redline` compares them.

    Line endings become "\\n" and sentinel characters are removed; lines are otherwise kept
    verbatim, since indentation and trailing spaces mean something in Markdown.
    """
    text = _SENTINELS.sub("", text).replace("\r\n", "\n").replace("\r", "\n")
    blocks: list[str] = []
    lines: list[str] = []
    fence = ""  # the open fence's marker, while inside a fenced block
    for line in text.split("\n"):
        if fence:
            lines.append(line)
            if closes_fence(line, fence):
                fence = ""
        elif line.strip():
            if opening := FENCE.match(line):
                fence = opening.group(1)
            lines.append(line)
        elif lines:
            blocks.append("\n".join(lines))
            lines = []
    while lines and not lines[-1].strip():  # (an unclosed fence runs to the end)
        lines.pop()
    if lines:
        blocks.append("\n".join(lines))
    return blocks


@functools.lru_cache(maxsize=2048)
def redline(old: str, new: str) -> Redline:
    """The redline turning `old` into `new`: blocks aligned first, then words inside them.

    Cached by the texts (a Redline is immutable): a rule's revision shows on its page, its proposal's page,
    comparison pages and every rebuild of `serve`."""
    old_blocks, new_blocks = split_blocks(old), split_blocks(new)
    if len(old) + len(new) > MAX_REDLINE_CHARS:
        return _rewritten(old_blocks, new_blocks, f"shown whole: the two versions together are longer than "
                          f"{MAX_REDLINE_CHARS:,} characters, more than a redline compares")
    if not old_blocks or not new_blocks:  # a text added or removed whole: nothing to align
        return _rewritten(old_blocks, new_blocks)
    try:
        blocks = tuple(_align_blocks(old_blocks, new_blocks, _DiffBudget(MAX_DIFF_WORK)))
    except _Unbounded as bound:
        return _rewritten(old_blocks, new_blocks, str(bound))
    old_words = [word for block in old_blocks for word in _words(block)]
    new_words = [word for block in new_blocks for word in _words(block)]
    kept = sum(_kept_count(block.segments) for block in blocks)
    if _too_little_kept(kept, old_words, new_words):
        return _rewritten(old_blocks, new_blocks)
    return Redline(blocks)


def _rewritten(old_blocks: list[str], new_blocks: list[str], note: str = "") -> Redline:
    return Redline(tuple(map(_deleted, old_blocks)) + tuple(map(_inserted, new_blocks)), note)


def _kept_count(segments: Iterable[Segment]) -> int:
    return sum(len(_words(s.text)) for s in segments if s.op == "equal")


def _too_little_kept(kept: int, old_words: Sequence[str], new_words: Sequence[str]) -> bool:
    """Whether keeping `kept` words is less than a fifth of the shorter version: a rewrite."""
    return kept < REWRITE_SHARE * min(len(old_words), len(new_words))


def _words_shared(old_words: Sequence[str], new_words: Sequence[str]) -> int:
    """The most words a diff of the two can keep (each kept word is in both, as often): when even that is too
    little, the diff, the costliest part of a redline, is not run."""
    return (Counter(old_words) & Counter(new_words)).total()


def _too_few_pairs_shared(old_words: Sequence[str], new_words: Sequence[str]) -> bool:
    """Whether the versions share less than a fifth of the shorter one's word pairs (neighbours).

    Decided before diffing, which costs the most on unrelated texts; words kept apart from their
    neighbours would read as confetti anyway. Short texts are cheap to diff, and one new word
    breaks most of their pairs, so for them the diff alone decides.
    """
    shorter = min(len(old_words), len(new_words))
    if shorter < QUICK_REWRITE_WORDS:
        return False
    old_pairs = Counter(zip(old_words, old_words[1:]))
    new_pairs = Counter(zip(new_words, new_words[1:]))
    return (old_pairs & new_pairs).total() < REWRITE_SHARE * (shorter - 1)


def _equal(text: str) -> BlockDiff:
    return BlockDiff("equal", text, text, (Segment("equal", text),))


def _inserted(text: str) -> BlockDiff:
    return BlockDiff("inserted", "", text, (Segment("insert", text),))


def _deleted(text: str) -> BlockDiff:
    return BlockDiff("deleted", text, "", (Segment("delete", text),))


def _align_blocks(old_blocks: list[str], new_blocks: list[str], budget: _DiffBudget) -> Iterator[BlockDiff]:
    # Identical blocks anchor the alignment, so an edit never smears into its neighbours.
    for tag, i1, i2, j1, j2 in _block_opcodes(old_blocks, new_blocks, budget):
        if tag == "equal":
            yield from (_equal(text) for text in old_blocks[i1:i2])
        else:
            yield from _align_region(old_blocks[i1:i2], new_blocks[j1:j2], budget)


def _block_opcodes(old_blocks: list[str], new_blocks: list[str],
                   budget: _DiffBudget) -> list[tuple[str, int, int, int, int]]:
    """Runs of equal blocks and the regions between them, as difflib's opcodes. difflib's matcher, whose
    longest-match-first choice reads well, takes the square of the number of blocks (minutes for a few
    thousand paragraphs): past MAX_PAIR_SCORES the blocks are diffed as words are, one code each, within
    the budget."""
    if len(old_blocks) * len(new_blocks) <= MAX_PAIR_SCORES:
        return difflib.SequenceMatcher(None, old_blocks, new_blocks, autojunk=False).get_opcodes()
    old_codes, new_codes = _encoded(old_blocks, new_blocks)
    opcodes: list[tuple[str, int, int, int, int]] = []
    i = j = 0
    for op, run in _diff_codes(old_codes, new_codes, budget):
        di = len(run) if op != diff_match_patch.DIFF_INSERT else 0
        dj = len(run) if op != diff_match_patch.DIFF_DELETE else 0
        tag = "equal" if op == diff_match_patch.DIFF_EQUAL else "replace"
        if opcodes and tag == "replace" and opcodes[-1][0] == "replace":  # one region between two equal runs
            opcodes[-1] = ("replace", opcodes[-1][1], i + di, opcodes[-1][3], j + dj)
        else:
            opcodes.append((tag, i, i + di, j, j + dj))
        i, j = i + di, j + dj
    return opcodes


def _align_region(old_blocks: list[str], new_blocks: list[str], budget: _DiffBudget) -> Iterator[BlockDiff]:
    """Blocks between two anchors: edited pairs diffed word by word, the rest whole."""
    if not old_blocks or not new_blocks or len(old_blocks) == len(new_blocks) == 1:
        # Nothing to pair, or one block each, which `_unpaired` diffs whether paired or not (most regions: an
        # amendment to one paragraph): their words are not counted to score them.
        yield from _unpaired(old_blocks, new_blocks, budget)
        return
    old_at = new_at = 0
    for old_index, new_index in _pair_blocks(old_blocks, new_blocks) + [(len(old_blocks), len(new_blocks))]:
        yield from _unpaired(old_blocks[old_at:old_index], new_blocks[new_at:new_index], budget)
        if old_index < len(old_blocks):
            yield from _diff_pair(old_blocks[old_index], new_blocks[new_index], budget)
        old_at, new_at = old_index + 1, new_index + 1


def _unpaired(old_blocks: list[str], new_blocks: list[str], budget: _DiffBudget) -> Iterator[BlockDiff]:
    """Blocks left between two pairs, or a whole region with nothing to pair. One old and one new in the same
    place are an edit of each other (a rewritten paragraph); `_diff_pair` still shows them whole when they keep
    too little."""
    if len(old_blocks) == 1 and len(new_blocks) == 1:
        yield from _diff_pair(old_blocks[0], new_blocks[0], budget)
        return
    yield from (_deleted(text) for text in old_blocks)
    yield from (_inserted(text) for text in new_blocks)


def _pair_blocks(old_blocks: list[str], new_blocks: list[str]) -> list[tuple[int, int]]:
    """Pairs of similar blocks, in order: with the largest total similarity when the region is small, else
    each paragraph paired with the nearest similar one a few ahead (linear in the region's size)."""
    old_bags = [_word_bag(text) for text in old_blocks]
    new_bags = [_word_bag(text) for text in new_blocks]
    if len(old_bags) * len(new_bags) > MAX_PAIR_SCORES:
        return _nearby_pairs(old_bags, new_bags)
    scores = [[_dice(a, b) for b in new_bags] for a in old_bags]
    n, m = len(old_blocks), len(new_blocks)
    # best[i][j]: the largest total similarity pairing old_blocks[i:] with new_blocks[j:].
    best = [[0.0] * (m + 1) for _ in range(n + 1)]
    for i in reversed(range(n)):
        for j in reversed(range(m)):
            best[i][j] = max(best[i + 1][j], best[i][j + 1])
            if scores[i][j] >= PAIR_SIMILARITY:
                best[i][j] = max(best[i][j], best[i + 1][j + 1] + scores[i][j])
    pairs: list[tuple[int, int]] = []
    i = j = 0
    while i < n and j < m:
        if scores[i][j] >= PAIR_SIMILARITY and best[i][j] == best[i + 1][j + 1] + scores[i][j]:
            pairs.append((i, j))
            i, j = i + 1, j + 1
        elif best[i][j] == best[i + 1][j]:
            i += 1
        else:
            j += 1
    return pairs


def _nearby_pairs(old_bags: list[Counter[str]], new_bags: list[Counter[str]]) -> list[tuple[int, int]]:
    """Pairs found walking both regions in order, each paragraph compared with the next PAIR_WINDOW of the
    other side only: the nearest similar pair is taken (the more similar on a tie), and what it skips is
    left unpaired."""
    pairs: list[tuple[int, int]] = []
    i = j = 0
    while i < len(old_bags) and j < len(new_bags):
        best: tuple[int, float, int, int] | None = None  # (distance, -similarity, i, j)
        for old_index in range(i, min(i + PAIR_WINDOW, len(old_bags))):
            for new_index in range(j, min(j + PAIR_WINDOW, len(new_bags))):
                score = _dice(old_bags[old_index], new_bags[new_index])
                candidate = (old_index - i + new_index - j, -score, old_index, new_index)
                if score >= PAIR_SIMILARITY and (best is None or candidate < best):
                    best = candidate
        if best is None:
            i, j = i + 1, j + 1
        else:
            pairs.append((best[2], best[3]))
            i, j = best[2] + 1, best[3] + 1
    return pairs


def _diff_pair(old: str, new: str, budget: _DiffBudget) -> list[BlockDiff]:
    """Two paired blocks diffed word by word, or shown whole if they keep too little in common."""
    old_words, new_words = _words(old), _words(new)
    if not _too_few_pairs_shared(old_words, new_words) and not _too_little_kept(
            _words_shared(old_words, new_words), old_words, new_words):
        segments = _diff_words(old, new, budget)
        if not _too_little_kept(_kept_count(segments), old_words, new_words):
            return [BlockDiff("changed", old, new, segments)]
    return [_deleted(old), _inserted(new)]


# --- Words inside a block ----------------------------------------------------------------------

# Planes 15 and 16 are private use (65,534 characters each) and hold no surrogates.
_PRIVATE_USE_PLANES = (0xF0000, 0x100000)
_PRIVATE_USE_PLANE_SIZE = 0xFFFE


class _Unbounded(Exception):
    """A redline past one of its bounds; the message is the note saying which."""


class _DiffBudget:
    """Stands in for diff-match-patch's deadline, to bound its work the same way on every machine.

    The library asks `time.time() > deadline` once per step of its search, and Python answers a float
    compared with another object by asking the object (`__lt__`). Step d of a search scans 2(d + 1)
    diagonals, and the budget is charged so; a search also sets up arrays as long as its texts, charged when
    it starts (`_BoundedDiff.diff_bisect`). Past the budget it raises _Unbounded, and the redline is shown
    whole: a deadline in seconds would make the same texts diff differently on a slower machine."""

    def __init__(self, work: int):
        self.left = work
        self.step = 0

    def charge(self, work: int) -> None:
        self.left -= work
        if self.left < 0:
            raise _Unbounded("shown whole: the versions differ in too many places to compare word by word")

    def start_search(self, size: int) -> None:
        self.step = 0
        self.charge(size)

    def __lt__(self, now: float) -> bool:
        self.step += 1
        self.charge(2 * self.step)
        return False  # the deadline is never reached: the budget raises instead


class _BoundedDiff(diff_match_patch):
    def __init__(self) -> None:
        super().__init__()
        self.Diff_Timeout = 0  # no shortcut that depends on the clock (the half-match heuristic)

    def diff_bisect(self, text1: str, text2: str, deadline: _DiffBudget) -> list[tuple[int, str]]:
        deadline.start_search(len(text1) + len(text2))
        return super().diff_bisect(text1, text2, deadline)


def _diff_codes(old_codes: str, new_codes: str, budget: _DiffBudget) -> list[tuple[int, str]]:
    """diff-match-patch over strings of codes, within `budget`."""
    return _BoundedDiff().diff_main(old_codes, new_codes, False, budget)  # type: ignore[arg-type]


def _encoded(old_tokens: Sequence[str], new_tokens: Sequence[str]) -> tuple[str, str]:
    """Both sequences as strings of one character per token, for diff-match-patch to compare: each distinct
    token a private-use character of its own, in the order tokens first appear."""
    codes: dict[str, str] = {}
    distinct = 0
    for token in dict.fromkeys(chain(old_tokens, new_tokens)):
        if token.isspace():
            # Runs of whitespace compare by kind only, so re-spacing does not disturb the word diff,
            # and diff-match-patch still sees spaces and line breaks when it places edits at
            # natural boundaries.
            codes[token] = "\n" if "\n" in token else " "
            continue
        plane, offset = divmod(distinct, _PRIVATE_USE_PLANE_SIZE)
        if plane >= len(_PRIVATE_USE_PLANES):
            raise _Unbounded(f"shown whole: the versions hold more than {distinct:,} distinct words, more "
                             "than a redline tells apart")
        codes[token] = chr(_PRIVATE_USE_PLANES[plane] + offset)
        distinct += 1
    code = codes.__getitem__
    return "".join(map(code, old_tokens)), "".join(map(code, new_tokens))


def _diff_words(old: str, new: str, budget: _DiffBudget) -> tuple[Segment, ...]:
    old_tokens, new_tokens = _tokens(old), _tokens(new)
    old_codes, new_codes = _encoded(old_tokens, new_tokens)
    diffs = _one_stretch_replaced(old_codes, new_codes)
    if diffs is None:
        diffs = _diff_codes(old_codes, new_codes, budget)
        diff_match_patch().diff_cleanupSemantic(diffs)
    return _canonical(_rewrapped(_canonical(_decode(diffs, old_tokens, new_tokens))))


def _rewrapped(segments: Iterable[Segment]) -> Iterator[Segment]:
    """`segments`, each change whose two sides hold the same words and symbols, apart in spacing and line breaks
    only (lines wrapped anew, which the semantic cleanup folds into the words beside them), made of those words
    kept and each differing run of spacing changed: no change of words, so nothing is marked."""
    for run in _runs(segments):
        if isinstance(run, str):
            yield Segment("equal", run)
            continue
        old, new = _spaced(run.deleted), _spaced(run.inserted)
        if [token for token, _ in old] != [token for token, _ in new]:
            yield from (Segment(op, text) for op, text in (("delete", run.deleted), ("insert", run.inserted)) if text)
            continue
        for (token, old_space), (_, new_space) in zip(old, new):
            pieces = [("equal", token)] + ([("equal", old_space)] if old_space == new_space else
                                           [("delete", old_space), ("insert", new_space)])
            yield from (Segment(op, text) for op, text in pieces if text)


def _spaced(text: str) -> list[tuple[str, str]]:
    """`text` as its words and symbols, each with the spacing after it; the spacing before the first, after ""."""
    spaced = [("", "")]
    for token in _tokens(text):
        if token.isspace():
            spaced[-1] = (spaced[-1][0], spaced[-1][1] + token)
        else:
            spaced.append((token, ""))
    return spaced


_SPACING_CODES = frozenset(" \n")  # what `_encoded` makes of whitespace


def _one_stretch_replaced(old_codes: str, new_codes: str) -> list[tuple[int, str]] | None:
    """The diff of two texts that differ in one stretch whose two versions share no word (most amendments that
    replace a phrase), as diff-match-patch and its semantic cleanup give it, without their search: the common
    start and end kept, the stretch deleted and inserted whole. None for any other pair of texts.

    In such a stretch only a space or a line break can match, one code between two edits, and the cleanup folds
    each back into the edits; nor can the deletion end as the insertion begins (an overlap it would keep). Nor
    may a stretch hold the whole common start or end: the diff could then slide an edit across it and keep a
    longer equality there than one code (`- ——` to ` —`: the diff deletes `-` and the last `—`)."""
    search = diff_match_patch()
    start = search.diff_commonPrefix(old_codes, new_codes)
    end = search.diff_commonSuffix(old_codes[start:], new_codes[start:])
    old_stretch, new_stretch = old_codes[start:len(old_codes) - end], new_codes[start:len(new_codes) - end]
    if (not old_stretch or not new_stretch or old_stretch[-1] == new_stretch[0] or new_stretch[-1] == old_stretch[0]
            or not set(old_stretch).isdisjoint(set(new_stretch) - _SPACING_CODES)):
        return None
    common_start, common_end = old_codes[:start], old_codes[len(old_codes) - end:]
    if any(common and common in stretch
           for common in (common_start, common_end) for stretch in (old_stretch, new_stretch)):
        return None
    diffs = [(diff_match_patch.DIFF_EQUAL, common_start)] if start else []
    diffs += [(diff_match_patch.DIFF_DELETE, old_stretch), (diff_match_patch.DIFF_INSERT, new_stretch)]
    if end:
        diffs.append((diff_match_patch.DIFF_EQUAL, common_end))
    return diffs


def _decode(
    diffs: list[tuple[int, str]], old_tokens: list[str], new_tokens: list[str]
) -> Iterator[Segment]:
    old_at = new_at = 0
    for op, codes in diffs:
        size = len(codes)
        if op == diff_match_patch.DIFF_EQUAL:
            same: list[str] = []  # joined once: adding token by token would copy the run again each time
            for old_token, new_token in zip(
                old_tokens[old_at : old_at + size], new_tokens[new_at : new_at + size]
            ):
                if old_token == new_token:
                    same.append(old_token)
                    continue
                if same:
                    yield Segment("equal", "".join(same))
                    same = []
                # whitespace of the same kind but not the same run
                yield Segment("delete", old_token)
                yield Segment("insert", new_token)
            if same:
                yield Segment("equal", "".join(same))
            old_at += size
            new_at += size
        elif op == diff_match_patch.DIFF_DELETE:
            yield Segment("delete", "".join(old_tokens[old_at : old_at + size]))
            old_at += size
        else:
            yield Segment("insert", "".join(new_tokens[new_at : new_at + size]))
            new_at += size


@dataclass(frozen=True)
class _Change:
    """A maximal run of edits between two equal stretches."""

    deleted: str
    inserted: str

    @property
    def is_blank(self) -> bool:
        return not self.deleted.strip() and not self.inserted.strip()


def _runs(segments: Iterable[Segment]) -> Iterator[str | _Change]:
    """Equal text and changes, in order; deletions and insertions between equals form one change."""
    deleted = inserted = ""
    for segment in segments:
        if segment.op == "equal":
            if deleted or inserted:
                yield _Change(deleted, inserted)
                deleted = inserted = ""
            yield segment.text
        elif segment.op == "delete":
            deleted += segment.text
        else:
            inserted += segment.text
    if deleted or inserted:
        yield _Change(deleted, inserted)


def _canonical(segments: Iterable[Segment]) -> tuple[Segment, ...]:
    """Merge neighbours of the same kind, with each change's deletion before its insertion."""
    runs: list[str | _Change] = []
    for run in _runs(segments):
        last = runs[-1] if runs else None
        before_last = runs[-2] if len(runs) >= 2 else None
        if isinstance(run, str) and isinstance(last, str):
            runs[-1] = last + run
            continue
        if (
            isinstance(run, _Change)
            and isinstance(last, str)
            and last.isspace()
            and isinstance(before_last, _Change)
        ):
            # Whitespace between two edits joins them: "one week" -> "an interval" reads as
            # one deletion and one insertion.
            del runs[-2:]
            run = _Change(
                before_last.deleted + last + run.deleted, before_last.inserted + last + run.inserted
            )
        runs.append(run)
    result: list[Segment] = []
    for run in runs:
        if isinstance(run, str):
            result.append(Segment("equal", run))
            continue
        if run.deleted:
            result.append(Segment("delete", run.deleted))
        if run.inserted:
            result.append(Segment("insert", run.inserted))
    return tuple(result)


# --- HTML --------------------------------------------------------------------------------------

_LABELS = {"del": "deleted", "ins": "inserted"}
# Block syntax opening a line (indentation, quote, list and heading markers): kept outside an
# edit's markup so that the line keeps its structure.
_LINE_PREFIX = re.compile(r"(?:[ \t]*(?:>[ \t]?|(?:[-+*]|\d{1,9}[.)]|#{1,6})(?:[ \t]+|\Z)))*[ \t]*")
# Where edits are cut before rendering: at line breaks (list items, table rows, quote lines),
# and if that is not enough, at table cell borders too.
_EDIT_BOUNDARIES = (re.compile(r"(\n)"), re.compile(r"(\n|\|)"))
_HTML_TAG = re.compile(r"(<[^>]*>)")
_TAG_NAME = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9-]*)")
_VOID_ELEMENTS = frozenset(
    "area base br col embed hr img input link meta source track wbr".split()
)
_BLANK_LINE = re.compile(r"\n[^\S\n]*(?=\n)")


def _line_prefix_length(line: str) -> int:
    match = _LINE_PREFIX.match(line)
    return match.end() if match else 0


def _render_commonmark(source: str) -> str:
    return markdown().render(source)


def render_html(
    rl: Redline,
    *,
    cite: str | None = None,
    render_markdown: Callable[[str], str] | None = None,
) -> Markup:
    """The redline as HTML: each block rendered from Markdown, edits marked with <del>/<ins>.

    `cite` (the URL of the amending proposal) goes on every <del> and <ins>. `render_markdown`
    must escape all text and attribute values (`<`, `>`, `&`, `"`) and produce well-formed
    HTML; the default is CommonMark with tables and raw HTML shown as text.
    """
    render = render_markdown or _render_commonmark
    cite_attr = Markup(f' cite="{escape(cite)}"') if cite is not None else Markup()
    parts: list[Markup] = [Markup('<p class="redline-note">{}</p>\n').format(_sentence(rl.note))] if rl.note else []
    for block in rl.blocks:
        if block.kind == "equal":
            parts.append(Markup(render(block.new)))
        elif block.kind == "inserted":
            parts.append(_whole_block("ins", render(block.new), cite_attr))
        elif block.kind == "deleted":
            parts.append(_whole_block("del", render(block.old), cite_attr))
        else:
            parts.append(_render_changed(block, render, cite_attr))
    return Markup('<div class="redline">\n' + "".join(parts) + "</div>\n")


@functools.lru_cache(maxsize=256)
def _edit_open(tag: str, cite_attr: Markup, *, block: bool = False) -> Markup:
    # `tag` is "del" or "ins" and `cite_attr` is escaped already: plain concatenation is safe (and far
    # quicker than Markup.format, which a long redline calls for every edit).
    css_class = ' class="block"' if block else ""
    return Markup(f'<{tag}{css_class}{cite_attr}><span class="visually-hidden">{_LABELS[tag]}: </span>')


def _whole_block(tag: str, html: str, cite_attr: Markup) -> Markup:
    # <ins>/<del> may wrap flow content when their parent (the redline <div>) allows it. `html` is the
    # rendering of Markdown, which escapes everything.
    return Markup(f"{_edit_open(tag, cite_attr, block=True)}\n{html}</{tag}>\n")


def _render_changed(block: BlockDiff, render: Callable[[str], str], cite_attr: Markup) -> Markup:
    for boundary in _EDIT_BOUNDARIES:
        source, edits = _marked_source(block.segments, boundary, verbatim=bool(FENCE.search(block.new)))
        html = _replace_sentinels(render(source), edits, cite_attr)
        if html is not None:
            return html
    # An edit cut through inline syntax (a link, emphasis): show the block as a rewrite.
    return _whole_block("del", render(block.old), cite_attr) + _whole_block(
        "ins", render(block.new), cite_attr
    )


def _marked_source(segments: Iterable[Segment], boundary: re.Pattern[str], *,
                   verbatim: bool = False) -> tuple[str, int]:
    """Markdown of the old and new text together, each edit between sentinels; and their number (`verbatim`: of
    a fenced block).

    Edits are cut at `boundary`, so that markup never spans a line break: an edit spanning one
    could otherwise merge list items, rows or quote lines without unbalancing any HTML.
    """
    parts: list[str] = []
    edits = 0

    def at_line_start() -> bool:
        return not parts or parts[-1].endswith("\n")

    def emit(text: str) -> None:
        if text:  # so that parts[-1] is the text just before
            parts.append(text)

    # Sentinels in the text itself would be taken for edits (`redline` removes them already).
    for run in _runs(Segment(s.op, _SENTINELS.sub("", s.text)) for s in segments):
        if isinstance(run, str):
            emit(run)
            continue
        if run.is_blank:  # only spacing changed: nothing to mark
            emit(run.inserted)
            continue
        for text, opener, closer in (
            (run.deleted, _DEL_OPEN, _DEL_CLOSE),
            (run.inserted, _INS_OPEN, _INS_CLOSE),
        ):
            for index, piece in enumerate(boundary.split(text)):
                if index % 2 or not piece.strip():  # a boundary, or spacing
                    emit(piece)
                    continue
                # Surrounding spaces stay unmarked, and so does block syntax opening a line (but in a fenced
                # block, where a list marker is text): the rendering follows the new text's structure. A
                # deleted marker alone is marked, so that it joins its line to the one before, as in the new text.
                start = len(piece) - len(piece.lstrip())
                end = len(piece.rstrip())
                prefix = _line_prefix_length(piece) if at_line_start() and not verbatim else 0
                if prefix < end or opener == _INS_OPEN:
                    start = max(start, prefix)
                if start >= end:  # an inserted marker alone, as when a list is renumbered
                    emit(piece)
                    continue
                emit(piece[:start])
                parts.append(opener + piece[start:end] + closer)
                emit(piece[end:])
                edits += 1
    # Old and new line breaks side by side may leave a blank line, which would end the block (but a fenced
    # block's, whose blank lines are its text's).
    source = "".join(parts)
    return (source if verbatim else _BLANK_LINE.sub("", source)), edits


def _replace_sentinels(html: str, edits: int, cite_attr: Markup) -> Markup | None:
    """`html` with sentinels turned into <del>/<ins>, or None if that would not nest properly."""
    out: list[str] = []
    open_tags: list[str] = []
    open_sentinel: str | None = None
    depth_at_open = 0
    closed = 0
    for index, piece in enumerate(_HTML_TAG.split(html)):
        if index % 2:  # a tag
            if _SENTINELS.search(piece):  # landed in an attribute
                return None
            match = _TAG_NAME.match(piece)
            if match:
                name = match.group(2).lower()
                if match.group(1):
                    if not open_tags or open_tags[-1] != name:
                        return None
                    if open_sentinel is not None and len(open_tags) <= depth_at_open:
                        return None  # the edit would close an element opened before it
                    open_tags.pop()
                elif name not in _VOID_ELEMENTS and not piece.endswith("/>"):
                    open_tags.append(name)
            out.append(piece)
            continue
        for part in _SENTINELS.split(piece):
            if part in (_DEL_OPEN, _INS_OPEN):
                if open_sentinel is not None:
                    return None
                open_sentinel, depth_at_open = part, len(open_tags)
                out.append(_edit_open("del" if part == _DEL_OPEN else "ins", cite_attr))
            elif part in (_DEL_CLOSE, _INS_CLOSE):
                expected = _DEL_CLOSE if open_sentinel == _DEL_OPEN else _INS_CLOSE
                if open_sentinel is None or part != expected or len(open_tags) != depth_at_open:
                    return None
                open_sentinel = None
                closed += 1
                out.append("</del>" if part == _DEL_CLOSE else "</ins>")
            else:
                out.append(part)
    if open_sentinel is not None or closed != edits:  # some sentinel was dropped or moved
        return None
    return Markup("".join(out))


# --- Terminal ----------------------------------------------------------------------------------

# The site's convention, and the seeds': added text red and underlined, removed text struck through.
_ANSI_DELETE, _ANSI_INSERT, _ANSI_RESET = "\x1b[9m", "\x1b[31;4m", "\x1b[0m"


def render_ansi(rl: Redline, *, color: bool) -> str:
    """The redline for a terminal: insertions red and underlined, deletions struck through (as on
    the site); without color, wdiff style: `[-deleted-]` and `{+inserted+}`. Blocks are separated
    by a blank line. Print `ansi_key` with it."""

    clean = for_terminal  # player text must not drive the terminal; tabs and line breaks are kept

    def mark(text: str, op: Op) -> str:
        if not color:
            return f"[-{clean(text)}-]" if op == "delete" else f"{{+{clean(text)}+}}"
        code = _ANSI_DELETE if op == "delete" else _ANSI_INSERT
        # Styled line by line: pagers such as `less -R` reset styles at each line break.
        lines = clean(text).split("\n")
        return "\n".join(f"{code}{line}{_ANSI_RESET}" if line else line for line in lines)

    blocks: list[str] = []
    for block in rl.blocks:
        parts: list[str] = []
        for run in _runs(block.segments):
            if isinstance(run, str):
                parts.append(clean(run))
            elif run.is_blank:
                parts.append(clean(run.inserted))
            else:
                if run.deleted:
                    parts.append(mark(run.deleted, "delete"))
                if run.inserted:
                    parts.append(mark(run.inserted, "insert"))
        blocks.append("".join(parts))
    return "\n\n".join(([_sentence(rl.note)] if rl.note else []) + blocks)


def _sentence(phrase: str) -> str:
    return phrase[:1].upper() + phrase[1:] + "."


def ansi_key(*, color: bool) -> str:
    """The line that says how `render_ansi` marks changes, in its own marks."""
    if not color:
        return "Key: {+added text+} [-removed text-]"
    return (f"Key: {_ANSI_INSERT}added text is red and underlined{_ANSI_RESET}; "
            f"{_ANSI_DELETE}removed text is struck through{_ANSI_RESET}")


# --- Summary -----------------------------------------------------------------------------------

# From the first mark of a run only, never backtracking: a run of dots must not be read once per dot.
_SENTENCE_END = re.compile(r"(?<![.!?\u2026])[.!?\u2026]++[\"')\]\u2019\u201d]*+(?=\s|$)")


def summarize(rl: Redline) -> list[str]:
    """The changes in plain words, in text order, e.g. `replaced "unanimous" with "a majority"`."""
    if not rl.changed:
        return ["no change to the text"]
    if rl.note:
        return [rl.note]
    if {block.kind for block in rl.blocks} == {"deleted", "inserted"}:
        return ["rewrote the rule"]
    items: list[str] = []
    deleted = inserted = 0
    for block in rl.blocks:
        if block.kind == "deleted":
            deleted += 1
        elif block.kind == "inserted":
            inserted += 1
        else:
            if deleted or inserted:
                items.append(_describe_blocks(deleted, inserted, appended=False))
                deleted = inserted = 0
            if block.kind == "changed":
                items.extend(_describe_edits(block.segments))
    if deleted or inserted:
        # Paragraphs added after everything kept were appended.
        appended = len(rl.blocks) > deleted + inserted
        items.append(_describe_blocks(deleted, inserted, appended=appended))
    if not items:
        return ["changed only spacing and line breaks"]
    # The same edit made in several places is said once ("one week" -> "interval" three times in seed 002).
    repeats = Counter(items)
    items = [item + _times(repeats[item]) for item in dict.fromkeys(items)]
    if len(items) > SUMMARY_ITEMS:
        more = len(items) - SUMMARY_ITEMS
        items = items[:SUMMARY_ITEMS] + [f"and {more} more change{'s' if more > 1 else ''}"]
    return items


def _times(number: int) -> str:
    return "" if number == 1 else " twice" if number == 2 else f" {number} times"


def _count(number: int, noun: str) -> str:
    return f"a {noun}" if number == 1 else f"{number} {noun}s"


def _describe_blocks(deleted: int, inserted: int, *, appended: bool) -> str:
    if deleted and inserted:
        if deleted == inserted:
            return f"replaced {_count(deleted, 'paragraph')}"
        return f"replaced {_count(deleted, 'paragraph')} with {_count(inserted, 'paragraph')}"
    if inserted:
        return f"{'appended' if appended else 'added'} {_count(inserted, 'paragraph')}"
    return f"removed {_count(deleted, 'paragraph')}"


def _describe_edits(segments: Iterable[Segment]) -> Iterator[str]:
    runs = list(_runs(segments))
    for index, run in enumerate(runs):
        if isinstance(run, str) or run.is_blank:
            continue
        before = runs[index - 1] if index else ""  # changes alternate with equal text
        line_start = isinstance(before, str) and (not before or before.endswith("\n"))
        deleted = _phrase(run.deleted, line_start=line_start)
        inserted = _phrase(run.inserted, line_start=line_start)
        if not run.inserted.strip():
            yield f"deleted {deleted}"
        elif run.deleted.strip():
            yield f"replaced {deleted} with {inserted}"
        elif (
            index == len(runs) - 1
            and isinstance(before, str)
            and (sentences := _appended_sentences(before, run.inserted))
        ):
            yield f"appended {_count(sentences, 'sentence')}"
        else:
            yield f"inserted {inserted}"


def _appended_sentences(before: str, inserted: str) -> int:
    """How many whole sentences `inserted` adds after the sentence ending `before`, or 0."""
    if not inserted[0].isspace() or not _sentences(before):
        return 0
    return _sentences(inserted)


def _sentences(text: str) -> int:
    """How many sentences `text` holds, if it ends with a full one; else 0."""
    text = text.strip()
    ends = list(_SENTENCE_END.finditer(text))
    return len(ends) if ends and ends[-1].end() == len(text) else 0


def _phrase(text: str, *, line_start: bool) -> str:
    """`text` quoted, without the list or quote markers opening its lines; or its word count."""
    words = len(_words(text))
    if words > QUOTE_WORDS:
        return f"{words} words"
    lines = text.split("\n")
    plain = [
        line[_line_prefix_length(line) :] if index or line_start else line
        for index, line in enumerate(lines)
    ]
    # A marker alone (a list split in two) is quoted as it is.
    return '"' + " ".join((" ".join(plain).split() or text.split())) + '"'
