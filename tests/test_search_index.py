"""The search index kept between plans (serve): patched after an edit, it is the index made afresh."""
from __future__ import annotations

from pathlib import Path
from unittest.mock import patch

from hypothesis import given, settings
from hypothesis import strategies as st

from generator.cache import open_cache
from generator.pipeline import replay_games
from generator.site import search
from generator.site.pages import plan_site
from generator.site.search import SearchIndex, normalize
from tests.helpers import copy_games

WORDS = ["rule", "vote", "Vote", "points", "café", "naïve", "judge", "203", "301", "dice"]


def _document(kind: str, number: int, title: list[str], text: list[str], old: list[int]) -> dict:
    return {"kind": kind, "numbers": [number], "old_numbers": old, "title": " ".join(title),
            "url": f"{kind}s/{number}.html", "text": " ".join(text)}


documents = st.lists(st.builds(_document, st.sampled_from(["rule", "proposal"]), st.integers(100, 400),
                               st.lists(st.sampled_from(WORDS), max_size=3), st.lists(st.sampled_from(WORDS),
                                                                                      max_size=8),
                               st.lists(st.integers(100, 400), max_size=2)), max_size=30)


def _shown(index: SearchIndex) -> list[tuple[str, str, object]]:
    return [(page.path, page.deps, page.context["data"]) for page in index.pages]


one = documents.filter(bool).map(lambda found: found[0])
edits = st.lists(st.tuples(st.sampled_from(["replace", "insert", "remove", "append"]), st.integers(0, 40), one),
                 max_size=6)


@settings(max_examples=200, deadline=None)
@given(first=documents, changes=edits, postings_per_piece=st.integers(1, 40))
def test_an_index_patched_after_edits_is_the_index_made_afresh(first, changes, postings_per_piece):
    # Small pieces, so that edits move words from one piece to the next.
    with patch.object(search, "TERM_PIECE_POSTINGS", postings_per_piece), patch.object(search, "DOCS_PER_PIECE", 4):
        _edit_and_compare(first, changes)


def _edit_and_compare(first, changes) -> None:
    index = SearchIndex.of("g", "G", first)
    current = list(first)
    for op, position, document in changes:
        at = position % len(current) if current else 0
        if op == "replace" and current:
            current[at] = document
        elif op == "remove" and current:
            del current[at]
        elif op == "insert":
            current.insert(at, document)
        else:
            current.append(document)
        index = SearchIndex.of("g", "G", list(current), index)
        assert _shown(index) == _shown(SearchIndex.of("g", "G", list(current)))


def test_a_build_reads_the_documents_on_several_cores_as_on_one(tmp_path):
    """A build (with its cache) reads the documents' words in forked shares: the same pieces as in one."""
    replays = replay_games(copy_games(tmp_path, "mini"))

    def pieces(jobs: int, cache: Path) -> list:
        return [(p.path, p.deps, p.context["data"]) for p in plan_site(replays, store=open_cache(cache, tmp_path),
                                                                       jobs=jobs) if "/search/" in p.path]
    with patch.object(search, "PARALLEL_DOCUMENTS", 1):
        assert pieces(2, tmp_path / "two") == pieces(1, tmp_path / "one") != []


def test_the_keys_a_build_computes_with_the_documents_are_the_plans_own(tmp_path):
    """Where a build reads the documents (on several cores), it computes the keys the plan keeps of their steps
    and rules (GamePlan.keys_of): every page's key is the one a plan that computed them itself gives. (But the
    parts of the comparison of the start with now, which depend on what they show where the plan compares, as
    serve's does, and on every rule where a build's draws: compare_pages.)"""
    games = copy_games(tmp_path, "mini")

    def keys(jobs: int, cache: Path | None) -> dict[str, bytes]:
        store = open_cache(cache, tmp_path) if cache else None
        return {p.path: p.key(b"") for p in plan_site(replay_games(games), store=store, jobs=jobs)
                if p.template != "compare.html"}
    with patch.object(search, "PARALLEL_DOCUMENTS", 1):
        assert keys(2, tmp_path / "two") == keys(1, None)


def test_ascii_is_normalized_as_any_text():
    import unicodedata

    for text in ("Rule 203", "VOTE", "x-y_z", ""):
        slow = "".join(ch for ch in unicodedata.normalize("NFKD", text.lower())
                       if not unicodedata.category(ch).startswith("M"))
        assert normalize(text) == slow
    assert normalize("Café") == "cafe"


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([0, 1, 2, 50, 700, search.TERM_PIECE_POSTINGS - 1, search.TERM_PIECE_POSTINGS,
                                 search.TERM_PIECE_POSTINGS + 1, 3 * search.TERM_PIECE_POSTINGS]), max_size=300))
def test_the_term_pieces_are_cut_as_a_word_by_word_walk_cuts_them(counts):
    """The runs found by bisection (search._runs) are those of the plain walk: a word joins the run unless the
    run holds something and would pass the cap with the word's postings; each word counts one more."""
    runs, size = [[]], 0
    for word, count in enumerate(counts):
        if size and size + count > search.TERM_PIECE_POSTINGS:
            runs.append([])
            size = 0
        runs[-1].append(word)
        size += count + 1
    assert search._runs(counts) == [(run[0], run[-1] + 1) if run else (0, 0) for run in runs]
