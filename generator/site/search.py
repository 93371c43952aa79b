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

import re
import unicodedata
from collections import defaultdict
from typing import Any

from .markdown import plain_text
from .views import GamePlan, Page

DOCS_PER_PIECE = 100
TERM_PIECE_POSTINGS = 6000  # postings (document ids) per term piece: some 30 KB
TEXT_CHARS = 2000  # of a document's text kept for the words around a match
_WORD = re.compile(r"[^\W_]+")


def normalize(text: str) -> str:
    """Lower case without accents, as templates/static/site.js normalizes a query."""
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return "".join(ch for ch in decomposed if not unicodedata.category(ch).startswith("M"))


def words(text: str) -> list[str]:
    return _WORD.findall(normalize(text))


def plan_documents(plan: GamePlan) -> list[dict[str, Any]]:
    """A game's rules (by their present number, repealed last) and proposals, as the index lists them."""
    history = plan.history
    documents = []
    for identity, rule in sorted(history.rules.items(), key=lambda kv: (kv[1].repealed, kv[1].last.number)):
        last = rule.last
        was = [n for n in rule.lineage if n != last.number]
        documents.append({
            "kind": "rule", "numbers": [last.number], "old_numbers": was,
            "title": f"Rule {last.number}" + (f": {last.title}" if last.title else "")
                     + (f" (was {', '.join(map(str, was))})" if was else "") + (" (repealed)" if rule.repealed else ""),
            "url": plan.rule_page(identity), "text": plain_text(last.text)})
    for step in history.proposal_steps:
        entry = step.entry
        documents.append({
            "kind": "proposal", "numbers": [entry.number], "old_numbers": [],
            "title": f"Proposal {entry.number}" + (f": {entry.title}" if entry.title else ""),
            "url": plan.entry_anchor(step),
            "text": f"{entry.proposer}, {step.result or 'no result'}. {plain_text(entry.body)}"})
    return documents


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
    postings: dict[str, tuple[list[int], ...]] = defaultdict(lambda: ([], [], [], []))
    for doc_id, doc in enumerate(documents):
        title_words = set(words(doc["title"]))
        for word in title_words:
            postings[word][0].append(doc_id)
        for word in set(words(doc["text"])) - title_words:
            postings[word][1].append(doc_id)
        for number in doc["numbers"]:  # exact numbers rank first: this document is rule or proposal N
            postings[str(number)][2].append(doc_id)
        for number in doc["old_numbers"]:  # then the rule that was N
            postings[str(number)][3].append(doc_id)
    pieces: list[dict[str, list]] = [{}]
    size = 0
    for word in sorted(postings):
        listed = postings[word]
        if size and size + sum(map(len, listed)) > TERM_PIECE_POSTINGS:
            pieces.append({})
            size = 0
        pieces[-1][word] = list(listed)
        size += sum(map(len, listed)) + 1
    folder = f"{slug}/search"
    pages = []
    for n, piece in enumerate(pieces):
        pages.append(_data_page(f"{folder}/terms-{n}.js", piece))
    for n in range(0, max(len(documents), 1), DOCS_PER_PIECE):
        docs = [[d["kind"], d["title"], d["url"], d["text"][:TEXT_CHARS]] for d in documents[n:n + DOCS_PER_PIECE]]
        pages.append(_data_page(f"{folder}/docs-{n // DOCS_PER_PIECE}.js", docs))
    manifest = {"terms": [next(iter(piece), "") for piece in pieces], "documents": len(documents),
                "per": DOCS_PER_PIECE, "title": title}
    pages.append(_data_page(f"{folder}/index.js", manifest))
    return pages


def games_page(games: list[tuple[str, str]]) -> Page:
    """The games (slug, title) a search widened to all of them looks in."""
    return _data_page("search/games.js", [list(game) for game in games])


def _data_page(path: str, data: Any) -> Page:
    """A script that files `data` under its own path: templates/data-piece.js; its deps are the data
    made hashable (a fingerprint hashes it), cheaper than its repr."""
    return Page(path, "data-piece.js", {"key": path, "data": data}, deps=_frozen(data), kind="js")


def _frozen(value: Any) -> Any:
    if isinstance(value, dict):
        return tuple((key, _frozen(item)) for key, item in value.items())
    if isinstance(value, list):
        return tuple(_frozen(item) for item in value)
    return value
