"""The search index, in pieces the browser loads only when a reader searches, and only those a query needs.

Per game, under `<game>/search/`:
- `index.js`: the manifest, a few hundred bytes: the first word of each term piece and the number of
  documents and documents per piece;
- `terms-N.js`: a run of the game's words in sorted order, each with the documents that have it in their
  title and in their text, the documents whose rule or proposal number it is, and the rules that had it;
- `docs-N.js`: `DOCS_PER_PIECE` documents (kind, number, title, address, plain text).

A query loads the manifest, the term pieces holding its words (by prefix), then the document pieces of the
dozen best results: what it loads grows with what is asked, not with the archive. `search-games.js` at the
root names the games, for a search widened to all of them (a file, not a folder `search/`, which a keeper's game
folder may be named). Every piece is a script that files its data
under its own path in `window.NOMIC_DATA` (scripts load from file://, where fetch does not).
"""
from __future__ import annotations

import bisect
import re
import unicodedata
from collections import defaultdict
from itertools import accumulate, chain
from operator import add
from typing import Any


from ..cache import Cache, digest, digest_all, program_digest
from ..records import JsonValue
from .markdown import plain_words
from .views import GamePlan, Page

DOCS_PER_PIECE = 100
TERM_PIECE_POSTINGS = 6000  # postings (document ids) per term piece: some 30 KB
TEXT_CHARS = 2000  # of a document's text kept for the words around a match
_WORD = re.compile(r"[^\W_]+")


def normalize(text: str) -> str:
    """Lower case without accents, as templates/static/site.js normalizes a query."""
    if text.isascii():  # nothing to decompose: most of an archive, and far quicker
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return "".join(ch for ch in decomposed if not unicodedata.category(ch).startswith("M"))


def words(text: str) -> list[str]:
    return _WORD.findall(normalize(text))


def plan_documents(plan: GamePlan) -> list[dict[str, Any]]:
    """A game's rules (by their present number, repealed last) and proposals, as the index lists them, each kept
    (GamePlan.memo) by what it is made of: after an edit, serve reads again only the texts that changed."""
    plan.memo.turn()  # what the documents listed last time did not use goes
    documents = []
    for key in _document_keys(plan):
        source = _document_source(plan, key)
        documents.append(plan.memo.of("document", digest(repr(sorted(source[0].items())), *source[1:]),
                                      lambda: _document(source)))
    return documents


def _document_keys(plan: GamePlan) -> list[tuple[str, int | str]]:
    """The documents' subjects (("rule", identity), ("step", index), ("earlier", its place in plan.earlier()) or
    ("player", name)), in the index's order."""
    history = plan.history
    return ([("rule", identity) for identity in history.rules_in_order()]
            + [("step", step.index) for step in history.proposal_steps]
            + [("earlier", position) for position in range(len(plan.earlier()))]
            + [("player", name) for name in plan.people.records])


def _document_source(plan: GamePlan, key: tuple[str, int]) -> tuple[dict[str, Any], str, str]:
    """A document's fields but its text, and its text as the plain words of `markdown` after `prefix`: all it
    is made of, read without parsing any Markdown."""
    kind, which = key
    if kind == "rule":
        rule = plan.history.rules[which]
        last = rule.last
        was = [n for n in rule.lineage if n != last.number]
        return {"kind": "rule", "numbers": [last.number], "old_numbers": was,
                "title": f"Rule {last.number}" + (f" ({last.label})" if last.label else "")
                         + (f": {last.title}" if last.title else "")
                         + (f" (was {', '.join(map(str, was))})" if was else "") + (" (repealed)" if rule.repealed else ""),
                "url": plan.rule_page(which)}, "", last.text
    if kind == "earlier":  # format 1.4: known from the record only
        proposal = plan.earlier()[which]
        return {"kind": "proposal", "numbers": [proposal.number], "old_numbers": [],
                "title": f"Proposal {proposal.number}" + (f": {proposal.title}" if proposal.title else ""),
                "url": f"proposals/{proposal.number}.html"}, \
            f"{proposal.proposer or 'no proposer recorded'}, known from the record only. ", proposal.text
    if kind == "player":  # found by any name they played under
        record = plan.people.records[which]
        also = record.aliases + record.former
        return {"kind": "player", "numbers": [], "old_numbers": [],
                "title": f"Player {record.name}" + (f" (also {', '.join(also)})" if also else ""),
                "url": plan.people.page(record.name)}, (f"{len(plan.people.acts(which).proposed)} proposals, {record.ballot_count} "
                                                        "ballots."), ""
    step = plan.replay.steps[which]
    entry = step.entry
    return {"kind": "proposal", "numbers": [entry.number], "old_numbers": [],
            "title": f"Proposal {entry.name}" + (f": {entry.title}" if entry.title else ""),
            "url": plan.entry_anchor(step)}, f"{entry.proposer}, {step.result or 'no result'}. ", \
        entry.body + (f"\n\n{entry.proposed}" if entry.proposed else "")


def _document(source: tuple[dict[str, Any], str, str]) -> dict[str, Any]:
    """A document made from what `_document_source` reads: its text is the plain words of the Markdown."""
    fields, prefix, markdown = source
    return {**fields, "text": prefix + plain_words(markdown)}


def stored_search_pieces(plan: GamePlan, store: Cache) -> list[Page]:
    """A game's index pieces as `search_pieces` makes them, kept in the cache by a digest of what its documents
    are made of: a build after an edit elsewhere (or none) neither parses every text for its words again nor
    indexes them (seconds at 10,000 proposals).

    Each piece is a record of its own, and the list of their paths one more, written last (a run stopped before
    it leaves a miss): kept as one record, the index was encoded, sealed and handed to SQLite whole, a copy of
    it each time (some 300 MB at 100,000 entries, the build's peak)."""
    title = plan.replay.game.config.title
    sources = [_document_source(plan, key) for key in _document_keys(plan)]
    key = digest_all(chain((program_digest(), plan.slug, title), chain.from_iterable(  # (another version's: a miss)
        (repr(sorted(fields.items())), prefix, markdown) for fields, prefix, markdown in sources)))
    paths = store.value(key, list[str])
    if paths is not None:
        kept = store.values([digest(key, path) for path in paths], JsonValue)
        if len(kept) == len(paths):
            return [_data_page(path, kept[digest(key, path)]) for path in paths]
    pieces = search_pieces(plan.slug, title, list(map(_document, sources)))
    for piece in pieces:
        store.put_value(digest(key, piece.path), piece.context["data"], JsonValue)
    store.put_value(key, [piece.path for piece in pieces], list[str])
    store.flush()  # its bytes (7 MB at 10,000 proposals) written now, not held until the build ends
    return pieces


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


def search_pieces(slug: str, title: str, documents: list[dict[str, Any]]) -> list[Page]:
    """The pieces of one game's index as pages (kind "js"): its term pieces, its document pieces, its manifest."""
    postings: dict[str, tuple[list[int], ...]] = defaultdict(lambda: ([], [], [], []))
    for doc_id, doc in enumerate(documents):
        for word, slot in _postings_of(doc):
            postings[word][slot].append(doc_id)
    words = sorted(postings)
    runs = _runs([sum(map(len, postings[word])) for word in words])
    folder = f"{slug}/search"
    pages = [_data_page(f"{folder}/terms-{n}.js", {word: list(postings[word]) for word in words[start:stop]})
             for n, (start, stop) in enumerate(runs)]
    pages += [_data_page(f"{folder}/docs-{n}.js", [[d["kind"], d["title"], d["url"], d["text"][:TEXT_CHARS]]
                                                  for d in documents[start:start + DOCS_PER_PIECE]])
              for n, start in enumerate(range(0, max(len(documents), 1), DOCS_PER_PIECE))]
    manifest = {"terms": [words[start] if stop > start else "" for start, stop in runs],
                "documents": len(documents), "per": DOCS_PER_PIECE, "title": title}
    return pages + [_data_page(f"{folder}/index.js", manifest)]


def _runs(counts: list[int]) -> list[tuple[int, int]]:
    """The words (by their postings' `counts`, in order) cut into the term pieces' runs, (start, stop) each: a
    run takes words while it holds at most TERM_PIECE_POSTINGS postings and a word each, a word alone at least;
    one run, maybe empty, when there are none. Found by bisection over the running totals."""
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
    return _data_page("search-games.js", [list(game) for game in games])


def _data_page(path: str, data: Any) -> Page:
    """A script that files `data` under its own path: templates/data-piece.js."""
    return Page(path, "data-piece.js", {"key": path, "data": data}, kind="js")
