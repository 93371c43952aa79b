"""The data behind "rules as of" and "compare" in the browser, in pieces loaded only when a reader asks.

- `<game>/points/index.js`: the manifest: how many entries, how many per piece, and for each piece the
  range of its dates, proposal numbers and judgment numbers, so that a point named in a URL (`312`,
  `judgment-1`, `2005-04-02`) is found by loading one piece or two.
- `<game>/points/N.js`: the entries `N * PER_PIECE` onwards (name, label, title, date, address) and every
  rule version in force at one of them, with its rendered text. A point's rules are the versions whose
  span covers it; a piece holds one ruleset and the changes made within it, not the archive.
- `<game>/compare/rules/N.js`: the rules whose identity // RULES_PER_PIECE is N, each with its versions'
  texts and the comparisons the build drew of them, each
  an article as the comparison pages show it: every version against the next, the first against the
  last (what start-now.html shows), and each version added and removed whole. The compare picker shows
  these, so its redlines are the static pages' own; a pair the build did not draw (a rule changed several
  times between two points in the middle of its life) is shown as its successive changes.
"""
from __future__ import annotations

import hashlib
from typing import Any

from ..compare import Pair
from ..engine.rulebook import RuleVersion
from ..model import Proposal
from ..redline import redline, split_blocks
from .compare_pages import pair_view
from .history import RuleHistory
from .markdown import render_markdown
from .views import GamePlan, Page, point_name, step_view

PER_PIECE = 500
RULES_PER_PIECE = 16  # rules' comparisons per file: fewer files, each small


def _digest(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:12]


def points_pages(plan: GamePlan, game_key: Any) -> list[Page]:
    replay = plan.replay
    steps = replay.steps
    folder = f"{plan.slug}/points"
    ordinal = {id(v): n for h in plan.history.rules.values() for n, v in enumerate(h.versions)}
    starting: dict[int, list[RuleVersion]] = {}
    for version in replay.versions:
        starting.setdefault(version.start, []).append(version)
    pages, summary = [], []
    for first in range(0, max(len(steps), 1), PER_PIECE):
        last = min(first + PER_PIECE, len(steps)) - 1
        low = -1 if first == 0 else first  # the first piece holds the start too
        entries = [_entry(plan, step.index) for step in steps[first:last + 1]]
        live = plan.history.rules_at(low) + [v for i in range(low + 1, last + 1) for v in starting.get(i, ())]
        versions = [_version(plan, v, ordinal[id(v)]) for v in sorted(live, key=lambda v: (v.start, v.identity))]
        dates = [e[3] for e in entries if e[3]]
        proposals = [step.entry.number for step in steps[first:last + 1] if isinstance(step.entry, Proposal)]
        judgments = [int(e[0].split("-")[1]) for e in entries if e[0].startswith("judgment-")]
        summary.append([min(dates, default=""), max(dates, default=""), _span(proposals), _span(judgments)])
        data = {"first": first, "entries": entries, "versions": versions}
        pages.append(Page(f"{folder}/{first // PER_PIECE}.js", "data-piece.js",
                          {"key": f"{folder}/{first // PER_PIECE}.js", "data": data}, kind="js",
                          deps=repr(data)))
    manifest = {"count": len(steps), "per": PER_PIECE, "pieces": summary}
    pages.append(Page(f"{folder}/index.js", "data-piece.js", {"key": f"{folder}/index.js", "data": manifest},
                      kind="js", deps=repr(manifest)))
    buckets: dict[int, list[RuleHistory]] = {}
    for identity, history in sorted(plan.history.rules.items()):
        buckets.setdefault(identity // RULES_PER_PIECE, []).append(history)
    for bucket, histories in sorted(buckets.items()):
        pages.append(_rules_piece(plan, bucket, histories, game_key))
    return pages


def _span(numbers: list[int]) -> list[int] | None:
    return [min(numbers), max(numbers)] if numbers else None


def _entry(plan: GamePlan, index: int) -> list[str]:
    view = step_view(plan, plan.replay.steps[index], "")
    return [point_name(plan, index), view["label"], view["title"], view["date"], view["url"]]


def _version(plan: GamePlan, version: RuleVersion, ordinal: int) -> list[Any]:
    """[identity, ordinal, number, class, title, start, end (-2: still), page, html, digest of the text,
    digest of its blocks (what a redline compares)]."""
    return [version.identity, ordinal, version.number, version.rule_class, version.title, version.start,
            -2 if version.end is None else version.end, f"{plan.history.page_number[version.identity]}.html",
            str(render_markdown(version.text)), _digest(version.text), _digest("\n\n".join(split_blocks(version.text)))]


def _rules_piece(plan: GamePlan, bucket: int, histories: list[RuleHistory], game_key: Any) -> Page:
    path = f"{plan.slug}/compare/rules/{bucket}.js"

    def rule_url(version) -> str:
        return f"../{plan.rule_page(version.identity)}"

    def articles() -> dict[str, Any]:
        drawn: list[tuple[str, dict[str, Any]]] = []
        texts = {}
        for history in histories:
            versions, identity = history.versions, history.identity
            texts[str(identity)] = [v.text for v in versions]
            pairs = [(n - 1, n) for n in range(1, len(versions))]
            if len(versions) > 2:
                pairs.append((0, len(versions) - 1))
            for old, new in pairs:
                a, b = versions[old], versions[new]
                kind = "changed" if a.number == b.number else "renumbered"
                pair = Pair(kind, (a,), (b,), None, redline(a.text, b.text))
                drawn.append((f"{identity}:{old}-{new}", pair_view(pair, rule_url)))
            for n, version in enumerate(versions):
                added = Pair("added", (), (version,), None, redline("", version.text))
                removed = Pair("removed", (version,), (), None, redline(version.text, ""))
                drawn.append((f"{identity}:added-{n}", pair_view(added, rule_url)))
                drawn.append((f"{identity}:removed-{n}", pair_view(removed, rule_url)))
        return {"articles": drawn, "texts": texts}

    deps = (game_key, tuple(plan.version_key(v) for history in histories for v in history.versions))
    return Page(path, "compare-piece.js", {"key": path}, deps=deps, kind="js", lazy=articles)
