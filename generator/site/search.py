"""The search index, in pieces the browser loads only when a reader searches, and only those a query needs.

Per game, under `<game>/search/`:
- `index.js`: the manifest, a few hundred bytes: the first word of each term piece and the number of
  documents and documents per piece;
- `terms-N.js`: a run of the game's words in sorted order, each with the documents that have it in their
  title and in their text, the documents whose rule or proposal number it is, and the rules that had it;
- `docs-N.js`: `DOCS_PER_PIECE` documents (kind, number, title, address, plain text).

A query loads the manifest, the term pieces holding its words (by prefix), then the document pieces of the
dozen best results: what it loads grows with what is asked, not with the archive. `search/games.js` at the
root names the games, for a search widened to all of them. Every piece is a script that files its data
under its own path in `window.NOMIC_DATA` (scripts load from file://, where fetch does not).
"""
from __future__ import annotations

import bisect
import hashlib
import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Callable
from itertools import accumulate, compress, count
from operator import add, is_, is_not
from typing import Any

from markupsafe import Markup

from ..cache import Cache, digest, pickled, unpickled
from ..parallel import map_shares, run_shares
from .markdown import words_and_html
from .views import GamePlan, Page

DOCS_PER_PIECE = 100
TERM_PIECE_POSTINGS = 6000  # postings (document ids) per term piece: some 30 KB
TEXT_CHARS = 2000  # of a document's text kept for the words around a match
_WORD = re.compile(r"[^\W_]+")
# Bumped when the index's pieces change in a way their documents do not show (kept in the cache by them).
SEARCH_LAYOUT = "search-1"
PARALLEL_DOCUMENTS = 1000  # documents per core at least: fewer are read quicker than a fork costs


def normalize(text: str) -> str:
    """Lower case without accents, as templates/static/site.js normalizes a query."""
    if text.isascii():  # nothing to decompose: most of an archive, and far quicker
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return "".join(ch for ch in decomposed if not unicodedata.category(ch).startswith("M"))


def words(text: str) -> list[str]:
    return _WORD.findall(normalize(text))


def plan_documents(plan: GamePlan) -> list[dict[str, Any]]:
    """A game's rules (by their present number, repealed last) and proposals, as the index lists them. A
    document of the same entry or rule version as the last plan's, or made of the same fields and text, is that
    one (GamePlan.memo), the same object: SearchIndex finds what changed by identity first. A proposal's HTML,
    drawn from the same parse, is kept for its pages (GamePlan.body_html)."""
    keys = _document_keys(plan)
    steps, rules = plan.replay.steps, plan.history.rules
    subjects = [rules[which].last if kind == "rule" else steps[which] for kind, which in keys]
    names = (plan.proposal_pages, plan.history.page_number)
    earlier = plan.documents_made
    if (earlier is not None and all(map(is_, earlier[0], names)) and len(earlier[1]) == len(subjects)):
        # The same names (the same objects, lent by keyed.replan): only the documents of new subjects are made
        documents = list(earlier[2])
        for position in compress(range(len(subjects)), map(is_not, subjects, earlier[1])):
            documents[position] = _document_of(plan, keys[position], subjects[position])
    elif earlier is not None:
        # Entries came or went (keyed._replan_tail), or the plan is whole: the proposals that are the same objects
        # as the last plan's, up to the first that is not, keep their documents (and their names: each is named by
        # those before it); the rules' and the rest are looked up again
        ruled, was_ruled = len(rules), earlier[3]
        proposals, were = subjects[ruled:], earlier[1][was_ruled:]
        same = next(compress(count(), map(is_not, proposals, were)), min(len(proposals), len(were)))
        documents = [_document_of(plan, key, subject) for key, subject in zip(keys[:ruled], subjects[:ruled])]
        documents += earlier[2][was_ruled:was_ruled + same]
        documents += [_document_of(plan, key, subject) for key, subject in zip(keys[ruled + same:],
                                                                             subjects[ruled + same:])]
    else:
        documents = [_document_of(plan, key, subject) for key, subject in zip(keys, subjects)]
    plan.documents_made = (names, subjects, documents, len(rules))
    return documents


def _document_of(plan: GamePlan, key: tuple[str, int], subject: Any) -> dict[str, Any]:
    """The document of an entry or of a rule's last version, kept by it and the names and address it shows."""
    kind, which = key
    if kind == "step":
        shown = plan.entry_anchor(subject)
    else:
        shown = (tuple(plan.history.rules[which].lineage), plan.rule_page(which))
    document, html = plan.memo.of("document", subject, lambda: _made_once(plan, key), beside=shown)
    if html is not None:
        plan.body_html[which] = html
    return document


def _made_once(plan: GamePlan, key: tuple[str, int]) -> tuple[dict[str, Any], Markup | None]:
    fields, prefix, markdown = source = _document_source(plan, key)
    # (kept by a digest of what it is made of: a long game has 10,000, and its texts are long)
    return plan.memo.of("document by text", digest(repr(sorted(fields.items())), prefix, markdown),
                        lambda: _document(source), by_identity=False)


def _document_keys(plan: GamePlan) -> list[tuple[str, int]]:
    """The documents' subjects (("rule", identity) or ("step", index)), in the index's order."""
    history = plan.history
    return [("rule", identity) for identity in history.rules_in_order()] + [("step", step.index)
                                                                            for step in history.proposal_steps]


def _document_source(plan: GamePlan, key: tuple[str, int]) -> tuple[dict[str, Any], str, str]:
    """A document's fields but its text, and its text as the plain words of `markdown` after `prefix`: all it
    is made of, read without parsing any Markdown."""
    kind, which = key
    if kind == "rule":
        rule = plan.history.rules[which]
        last = rule.last
        was = [n for n in rule.lineage if n != last.number]
        return {"kind": "rule", "numbers": [last.number], "old_numbers": was,
                "title": f"Rule {last.number}" + (f": {last.title}" if last.title else "")
                         + (f" (was {', '.join(map(str, was))})" if was else "") + (" (repealed)" if rule.repealed else ""),
                "url": plan.rule_page(which)}, "", last.text
    step = plan.replay.steps[which]
    entry = step.entry
    return {"kind": "proposal", "numbers": [entry.number], "old_numbers": [],
            "title": f"Proposal {entry.name}" + (f": {entry.title}" if entry.title else ""),
            "url": plan.entry_anchor(step)}, f"{entry.proposer}, {step.result or 'no result'}. ", entry.body


def _document(source: tuple[dict[str, Any], str, str]) -> tuple[dict[str, Any], Markup | None]:
    """A document made from what `_document_source` reads (its text is the plain words of the Markdown), and a
    proposal's text drawn from the same parse (its page and the log show it)."""
    fields, prefix, markdown = source
    words, html = words_and_html(markdown)
    return {**fields, "text": prefix + words}, html if fields["kind"] == "proposal" else None


def stored_search_pages(plan: GamePlan, store: Cache, beside: Callable[[], None]) -> list[Page]:
    """A game's index pages as `search_pages` makes them, kept in the cache by a digest of what its documents
    are made of: a build after an edit elsewhere (or none) neither parses every text for its words again nor
    indexes them (seconds at 10,000 proposals). Else their words are read on `plan.jobs` cores, the
    proposals' texts drawn from the same parse (GamePlan.body_html) and the keys the plan keeps of their steps
    and rules computed there too (GamePlan.keys_of), and the documents indexed by a worker
    while this process does `beside` (the rest of the plan), which is otherwise done first."""
    title = plan.replay.game.config.title
    keys = _document_keys(plan)
    sources = [_document_source(plan, key) for key in keys]
    parts: list[str] = [SEARCH_LAYOUT, plan.slug, title]
    for fields, prefix, markdown in sources:
        parts += [repr(sorted(fields.items())), prefix, markdown]
    key = digest(*parts)
    kept = unpickled(store.get(key), list)
    if kept is not None and all(isinstance(item, tuple) and len(item) == 3 and isinstance(item[0], str)
                                for item in kept):
        beside()
        return _stored_pages(kept)
    read = map_shares(lambda position: (_document(sources[position]), plan.keys_of(keys[position])),
                      range(len(keys)), plan.jobs, PARALLEL_DOCUMENTS)
    for item, (_, computed) in zip(keys, read):
        plan.keep_keys(item, computed)
    documents = [document for (document, _), _ in read]
    plan.body_html = {which: html for (kind, which), ((_, html), _) in zip(keys, read) if kind == "step"}

    if plan.jobs > 1 and len(documents) >= PARALLEL_DOCUMENTS:  # the worker sends what the cache keeps
        _, stored = run_shares(lambda share: beside() if share == 0 else _pickled(
            search_pages(plan.slug, title, documents)), 2)
        pages = _stored_pages(unpickled(stored))
    else:
        beside()
        pages = search_pages(plan.slug, title, documents)
        stored = _pickled(pages)
    store.put(key, stored)
    return pages


def _pickled(pages: list[Page]) -> bytes:
    return pickled([(p.path, p.deps, p.context["data"]) for p in pages])


def _stored_pages(kept: list[tuple[str, Any, Any]]) -> list[Page]:
    return [Page(path, "data-piece.js", {"key": path, "data": data}, kind="js", deps=deps) for path, deps, data in kept]


_NUMBERED = re.compile(r"(?:Rule|Turn|Proposal) (\d+)")


def documents_from_entries(slug: str, entries: list[dict[str, str]]) -> list[dict[str, Any]]:
    """Documents from entries as a game of another kind lists them (solitaire_pages: title, address from
    the site's root, text); the number its title opens with ("Rule 12", "Turn 3") ranks first."""
    documents = []
    for entry in entries:
        number = _NUMBERED.match(entry["t"])
        documents.append({"kind": entry["t"].split(" ", 1)[0].lower(), "title": entry["t"], "old_numbers": [],
                          "numbers": [int(number.group(1))] if number else [],
                          "url": entry["u"].removeprefix(f"{slug}/"), "text": entry["x"]})
    return documents


def search_pages(slug: str, title: str, documents: list[dict[str, Any]]) -> list[Page]:
    """The pieces of one game's index as pages (kind "js"), each with what it shows as its deps."""
    return SearchIndex.of(slug, title, documents).pages


class SearchIndex:
    """A game's index and its pieces' pages, kept from one plan to the next (serve): an edit that changed a
    few documents moves their words' postings and redraws the pieces holding them, instead of indexing
    every document again (seconds at 10,000 proposals). The pieces are those a whole indexing makes."""

    def __init__(self, slug: str, title: str) -> None:
        self.slug, self.title = slug, title
        self.documents: list[dict[str, Any]] = []
        # word -> documents having it in their title, in their text, as their number, as an old number;
        # each list sorted, and replaced (never changed in place) when a document moves it.
        self.postings: dict[str, tuple[list[int], ...]] = {}
        self.sizes: dict[str, int] = {}  # postings per word
        self.words: list[str] = []  # sorted
        self.term_pages: list[tuple[tuple[str, ...], tuple, Page]] = []  # words, their postings, the page
        self.doc_pages: list[tuple[tuple, Page]] = []  # documents, the page
        self.pages: list[Page] = []

    @classmethod
    def of(cls, slug: str, title: str, documents: list[dict[str, Any]],
           previous: "SearchIndex | None" = None) -> "SearchIndex":
        index = cls(slug, title)
        old = previous.documents if previous is not None and (previous.slug, previous.title) == (slug, title) else None
        moved = None
        if old is not None:
            moved = [i for i in range(min(len(old), len(documents))) if old[i] is not documents[i]
                     and old[i] != documents[i]] + list(range(min(len(old), len(documents)),
                                                              max(len(old), len(documents))))
        if moved is None or len(moved) > len(documents) // 4 + 1:
            index._index_all(documents)
            index._lay_out(None)
        else:
            index._patch(previous, documents, moved)
            index._lay_out(previous)
        return index

    def _index_all(self, documents: list[dict[str, Any]]) -> None:
        self.documents = list(documents)
        postings: dict[str, tuple[list[int], ...]] = defaultdict(lambda: ([], [], [], []))
        for doc_id, doc in enumerate(documents):
            for word, slot in _postings_of(doc):
                postings[word][slot].append(doc_id)
        self.postings = dict(postings)
        self.sizes = {word: sum(map(len, listed)) for word, listed in self.postings.items()}
        self.words = sorted(self.postings)

    def _patch(self, previous: "SearchIndex", documents: list[dict[str, Any]], moved: list[int]) -> None:
        self.documents = list(documents)
        postings, sizes, old = dict(previous.postings), dict(previous.sizes), previous.documents
        copied: set[str] = set()
        for doc_id in moved:
            # Only the postings a document leaves or joins move: most of an edited text's words stay.
            gone = Counter(_postings_of(old[doc_id]) if doc_id < len(old) else [])
            come = Counter(_postings_of(documents[doc_id]) if doc_id < len(documents) else [])
            for (word, slot), times in (gone - come).items():
                if word not in copied:
                    postings[word] = tuple(map(list, postings[word]))
                    copied.add(word)
                for _ in range(times):
                    postings[word][slot].remove(doc_id)
            for (word, slot), times in (come - gone).items():
                if word not in copied:
                    postings[word] = tuple(map(list, postings.get(word, ([], [], [], []))))
                    copied.add(word)
                for _ in range(times):
                    bisect.insort(postings[word][slot], doc_id)
        words = previous.words
        for word in copied:
            sizes[word] = sum(map(len, postings[word]))
            if not sizes[word]:
                del postings[word], sizes[word]
        if any((word in postings) != (word in previous.postings) for word in copied):
            words = sorted(postings)
        self.postings, self.sizes, self.words = postings, sizes, words

    def _lay_out(self, previous: "SearchIndex | None") -> None:
        """The pieces' pages, the ones whose content did not move taken from `previous`."""
        runs = _runs(list(map(self.sizes.__getitem__, self.words)))
        folder = f"{self.slug}/search"
        old_terms = previous.term_pages if previous is not None else []
        for n, (start, stop) in enumerate(runs):
            run = self.words[start:stop]
            run_words, listed = tuple(run), tuple(map(self.postings.__getitem__, run))
            # (Postings are replaced, never changed in place: the same lists, or equal ones, show the same.)
            if n < len(old_terms) and old_terms[n][0] == run_words and old_terms[n][1] == listed:
                page = old_terms[n][2]
            else:
                page = _data_page(f"{folder}/terms-{n}.js", {word: list(item) for word, item in zip(run, listed)})
            self.term_pages.append((run_words, listed, page))
        old_docs = previous.doc_pages if previous is not None else []
        for n, start in enumerate(range(0, max(len(self.documents), 1), DOCS_PER_PIECE)):
            chosen = tuple(self.documents[start:start + DOCS_PER_PIECE])
            if n < len(old_docs) and old_docs[n][0] == chosen:
                page = old_docs[n][1]
            else:
                page = _data_page(f"{folder}/docs-{n}.js", [[d["kind"], d["title"], d["url"], d["text"][:TEXT_CHARS]]
                                                            for d in chosen])
            self.doc_pages.append((chosen, page))
        manifest = {"terms": [self.words[start] if stop > start else "" for start, stop in runs],
                    "documents": len(self.documents),
                    "per": DOCS_PER_PIECE, "title": self.title}
        self.pages = ([page for _, _, page in self.term_pages] + [page for _, page in self.doc_pages]
                      + [_data_page(f"{folder}/index.js", manifest)])


def _runs(counts: list[int]) -> list[tuple[int, int]]:
    """The words (by their postings' `counts`, in order) cut into the term pieces' runs, (start, stop) each: a
    run takes words while it holds at most TERM_PIECE_POSTINGS postings and a word each, a word alone at least;
    one run, maybe empty, when there are none. Found by bisection over the running totals (serve lays the pieces
    out again at each save; a loop over 10,000 words cost more than the rest)."""
    # ends[k]: the postings and words of words 0 to k, but word k itself (a run from word 0 holds this with word k)
    ends = list(map(add, accumulate(counts), range(len(counts))))
    runs, start = [], 0
    while start < len(counts):
        before = ends[start - 1] + 1 if start else 0  # what the runs before this one hold
        stop = max(start + 1, bisect.bisect_right(ends, TERM_PIECE_POSTINGS + before, start + 1))
        runs.append((start, stop))
        start = stop
    return runs or [(0, 0)]


def _postings_of(doc: dict[str, Any]) -> list[tuple[str, int]]:
    """Where a document goes in the postings: (word, slot), as often as it goes there."""
    title_words = set(words(doc["title"]))
    found = [(word, 0) for word in title_words] + [(word, 1) for word in set(words(doc["text"])) - title_words]
    found += [(str(number), 2) for number in doc["numbers"]]  # exact numbers rank first: rule or proposal N
    return found + [(str(number), 3) for number in doc["old_numbers"]]  # then the rule that was N


def games_page(games: list[tuple[str, str]]) -> Page:
    """The games (slug, title) a search widened to all of them looks in."""
    return _data_page("search/games.js", [list(game) for game in games])


def _data_page(path: str, data: Any) -> Page:
    """A script that files `data` under its own path: templates/data-piece.js; its deps, a digest of the
    data (a piece holds thousands of postings: hashed once, not at every rebuild)."""
    return Page(path, "data-piece.js", {"key": path, "data": data}, kind="js",
                deps=hashlib.sha1(repr(data).encode("utf-8")).hexdigest())
