"""The search index: a build's (kept in its cache) as serve's, its words normalized as the browser's are, and its
term pieces cut as a plain walk cuts them."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from generator.cache import open_cache
from generator.pipeline import Pipeline, replay_games
from generator.site import search
from generator.site.search import normalize
from tests.helpers import copy_games


def test_a_builds_search_pieces_made_and_taken_from_its_cache_are_serves(tmp_path, monkeypatch):
    content = copy_games(tmp_path, "mini")
    replays = replay_games(content)

    def pieces(site) -> list:
        return [(p.path, p.context["data"]) for p in site.search_pieces()]
    served = pieces(Pipeline(content, serving=True).site(replays))
    cache = open_cache(tmp_path / "cache", content)
    assert pieces(Pipeline(content).site(replays, store=cache)) == served != []
    cache.close()
    monkeypatch.setattr(search, "search_pieces", lambda *args: [])  # the next are the cache's
    assert pieces(Pipeline(content).site(replays, store=open_cache(tmp_path / "cache", content))) == served


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
