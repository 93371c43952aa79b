"""The data behind "rules as of" and "compare" in the browser, in pieces loaded only when a reader asks.

- `<game>/points/index.js`: the manifest: how many entries, how many per piece, for each piece the range of
  its dates, proposal numbers and judgment numbers, so that a point named in a URL (`312`, `judgment-1`,
  `2005-04-02`) is found by loading one piece or two, and the syntax of points' names (model/points.py), so
  that the browser reads them as `diff` does.
- `<game>/points/N.js`: the entries `N * PER_PIECE` onwards (name, label, title, date, address) and rule
  versions with their rendered text: every piece holds the versions that came into force at one of its
  entries, and every k-th piece (a keyframe, piece 0 the first) also every version in force at its first
  entry. A point's rules are the versions whose span covers it, found in its piece, the keyframe before it
  and the pieces between (at most k files; the manifest says k). A ruleset in every piece would make the
  pieces grow as the square of the log (each holding the whole ruleset of its time, which grows with it),
  and so would keyframes at a fixed interval: k is KEYFRAME, or, where the rules now in force are more than
  KEYFRAME pieces' worth of entries, that many pieces' worth (`keyframe_interval`). The pieces between two
  keyframes then hold about as many versions as a keyframe (an entry seldom brings more than one into
  force), a reader loads at most about twice a keyframe, and the keyframes together grow with the log.
- `<game>/compare/rules/N.js` and `<identity>-M.js`: the comparisons the build drew of each rule's
  versions, each an article as the comparison pages show it: every version against the one before, and the
  first against the last (what start-now.html shows); each version's Markdown blocks, drawn, from which
  the picker draws it added or removed whole as the pages do (a rule added or removed is not worth a
  redline: its blocks, marked); with the texts, for matching rules across numbers as compare.py does
  (`_rules_pieces` says which file). The picker shows these, so its redlines are the static pages' own;
  a pair the build did not draw (a rule changed several times between two points in the middle of its
  life) is shown as its successive changes.
"""
from __future__ import annotations

import hashlib
from typing import Any

from ..diffing.compare import Pair
from ..engine.rulebook import RuleVersion
from ..engine.replay import Step
from ..model import Judgment, Proposal
from ..model.points import HINT, SYNTAX
from ..diffing.redline import redline, split_blocks
from .compare_pages import pair_view
from .history import RuleHistory
from .markdown import render_markdown
from .views import (Listing, GamePlan, Maker, Page, Recent, ScriptJSON, date_attribute,
                    judgment_name, point_name, script_json, step_view, summaries)

PER_PIECE = 100
KEYFRAME = 10  # at least every KEYFRAME-th points piece holds the whole ruleset in force at its first entry
RULES_PER_PIECE = 16  # rules' comparisons per file: fewer files, each small
SHORT_HISTORY = 4  # versions of a rule kept whole in its bucket's file; longer histories go in blocks
# Versions per block of a long history (as static/compare.js reads them): a block of Agora's long texts stays
# under 300 KB.
BLOCK = 16


def _digest(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:12]


def list_points_pages(listing: Listing) -> None:
    """List the pieces: each points piece, their manifest, each bucket of the rules' comparisons and each block of
    a long history's."""
    plan = listing.plan
    for first in range(0, max(len(plan.replay.steps), 1), PER_PIECE):
        listing.add(f"points/{first // PER_PIECE}.js", _points_piece, first)
    listing.add("points/index.js", _manifest)
    # (from the rules' index alone: the plan before's, when its index was the same)
    listing.update(plan.memo.last("rules pieces", (listing.slug, tuple(plan.history.rules.items())), _rules_pieces))


def _rules_pieces(key: tuple[str, tuple[tuple[int, RuleHistory], ...]]) -> dict[str, tuple[Maker, Any]]:
    """The rules' comparisons files listed, and the blocks of each long history."""
    slug, rules = key
    paths: dict[str, tuple[Maker, Any]] = {}
    for bucket, histories in sorted(_buckets_of(dict(rules)).items()):
        paths[f"{slug}/compare/rules/{bucket}.js"] = (_rules_piece, bucket)
        for history in histories:
            if len(history.versions) > SHORT_HISTORY:
                for first in range(0, len(history.versions), BLOCK):
                    paths[f"{slug}/compare/rules/{history.identity}-{first // BLOCK}.js"] = (
                        _rules_block, (history, range(first, min(first + BLOCK, len(history.versions)))))
    return paths


def _points_piece(listing: Listing, path: str, first: int) -> Page:
    """The points piece of the entries `first` onwards."""
    plan = listing.plan

    def data() -> dict[str, Any]:
        ordinal = plan.history.ordinal
        entries = [point_entry(plan, index) for index in piece_entries(plan, first)]
        return {"data": _piece_json(first, entries, [_version(plan, v, ordinal[v.identity, v.start])
                                                     for v in piece_versions(plan, first)])}
    return listing.new_page(path, "data-piece.js", {"key": path}, kind="js", lazy=data)


def piece_entries(plan: GamePlan, first: int) -> range:
    """The entries of the points piece of the entries `first` onwards."""
    return range(first, min(first + PER_PIECE, len(plan.replay.steps)))


def piece_versions(plan: GamePlan, first: int) -> list[RuleVersion]:
    """The versions the points piece of the entries `first` onwards holds (a keyframe: also those in force at its
    first entry; the first piece holds the start too), by start: what the report's piece of the same entries
    holds too (report_pieces.py)."""
    history = plan.history
    keyframe = keyframe_interval(len(history.in_force()))
    last = piece_entries(plan, first).stop - 1
    low = -1 if first == 0 else first
    # A keyframe holds the rules in force just after entry `low`, the others what came into force there.
    held, since = (history.rules_at(low), low + 1) if first % (PER_PIECE * keyframe) == 0 else ([], first)
    return sorted(held + [v for i in range(since, last + 1) for v in history.starting(i)],
                  key=lambda v: (v.start, v.identity))


def _buckets(plan: GamePlan) -> dict[int, list[RuleHistory]]:
    """The rules of each comparisons file, by bucket."""
    return plan.once("buckets", lambda: _buckets_of(plan.history.rules))


def _buckets_of(rules: dict[int, RuleHistory]) -> dict[int, list[RuleHistory]]:
    buckets: dict[int, list[RuleHistory]] = {}
    for identity, rule in sorted(rules.items()):
        buckets.setdefault(bucket_of(identity), []).append(rule)
    return buckets


def bucket_of(identity: int) -> int:
    """The rules' comparisons file that holds a rule's; also the affinity of the rule's pages (Page.affinity):
    one worker draws the rule's page, its proposals' and its bucket, each redline computed once."""
    return identity // RULES_PER_PIECE


def keyframe_interval(rules_in_force: int) -> int:
    """Every how many points pieces a keyframe comes (see the module's docstring)."""
    return max(KEYFRAME, -(-rules_in_force // PER_PIECE))


def _manifest(listing: Listing, path: str, _: Any) -> Page:
    """How many entries, how many per piece, and each piece's range of dates, proposal and judgment numbers."""
    plan = listing.plan

    def data() -> dict[str, Any]:
        steps = plan.replay.steps
        pieces = summaries(steps, lambda _, run: _piece_ranges(run), size=PER_PIECE) or [_piece_ranges(())]
        # How the pickers read a point's name, and what they say of a name that is none: as `diff GAME@…` does
        # (model/points.py)
        return {"data": {"count": len(steps), "per": PER_PIECE, "pieces": pieces, "syntax": SYNTAX, "hint": HINT,
                         "keyframe": keyframe_interval(len(plan.history.in_force()))}}
    return listing.new_page(path, "data-piece.js", {"key": path}, kind="js", lazy=data)


def _piece_ranges(steps: tuple[Step, ...]) -> list:
    """What the manifest says of a piece's entries: their first and last date, proposal and judgment numbers,
    and the names of the judgments named by their case (`judgment-cfj-4153`, format 1.2: no range holds them),
    when it has any."""
    dates = [date for date in (date_attribute(step.entry) for step in steps) if date]
    proposals = [step.entry.number for step in steps if isinstance(step.entry, Proposal)]
    judgments = [step.entry for step in steps if isinstance(step.entry, Judgment)]
    cases = sorted({judgment_name(entry) for entry in judgments if entry.case})
    ranges = [min(dates, default=""), max(dates, default=""), _span(proposals),
              _span([entry.number for entry in judgments if not entry.case])]
    return ranges + [cases] if cases else ranges


def _span(numbers: list[int]) -> list[int] | None:
    return [min(numbers), max(numbers)] if numbers else None


def point_entry(plan: GamePlan, index: int) -> list[str]:
    """What a points piece lists of an entry: its point's name, label, title, date and address."""
    view = step_view(plan, plan.replay.steps[index], "")
    return [point_name(plan, index), view["label"], view["title"], view["date"], view["url"]]


def _piece_json(first: int, entries: list[list[str]], versions: list[ScriptJSON]) -> ScriptJSON:
    """A points piece's data, {"first", "entries", "versions"}, as script_json encodes it: joined from its
    versions' encoded once (a keyframe holds hundreds, and an edit to a rule long in force redraws them all)."""
    return ScriptJSON(f'{{"entries":{script_json(entries)},"first":{first},"versions":[{",".join(versions)}]}}')


def _version(plan: GamePlan, version: RuleVersion, ordinal: int) -> ScriptJSON:
    """[identity, ordinal, number, class, title, start, end (-2: still), page, html, digest of the text,
    digest of its blocks (what a redline compares), how many versions the rule has, its label], encoded (script_json);
    made once per plan while recently used (a version in force long is in many keyframes)."""
    def make() -> ScriptJSON:
        page, count = plan.history.page_number[version.identity], len(plan.history.rules[version.identity].versions)
        return script_json([
            version.identity, ordinal, version.number, version.rule_class, version.title, version.start,
            -2 if version.end is None else version.end, f"{page}.html", render_markdown(version.text),
            _digest(version.text), _digest("\n\n".join(split_blocks(version.text))), count, version.label])
    return plan.once("point versions", lambda: Recent(len)).get((version.identity, version.start), make)


# A version's entry in the rules' comparisons (its text, its blocks drawn, the article of the change that made it)
# lives in its bucket's file when its rule has at most SHORT_HISTORY versions, else in the file of the block of
# BLOCK versions that holds it; the bucket also holds each rule's first and last texts and the article of the first
# against the last, all that comparing with the start or with now needs. A rule's comparisons are its page's
# redlines again (redline_view keeps them): drawn by the worker that drew its page (see draw_all).

def _rules_piece(listing: Listing, path: str, bucket: int) -> Page:
    """The bucket's file."""
    plan = listing.plan

    def bucket_context() -> dict[str, Any]:
        rules = {}
        for history in _buckets(plan)[bucket]:
            versions = history.versions
            if len(versions) <= SHORT_HISTORY:
                rules[history.identity] = {"entries": {n: _entry(plan, history, n) for n in range(len(versions))}}
                if len(versions) > 2:
                    rules[history.identity]["whole"] = _changed(plan, versions[0], versions[-1])
            else:
                rules[history.identity] = {"ends": {0: versions[0].text, len(versions) - 1: versions[-1].text},
                                           "whole": _changed(plan, versions[0], versions[-1])}
        return {"rules": rules}
    return listing.new_page(path, "compare-piece.js", {"key": path}, kind="js", lazy=bucket_context, affinity=bucket)


def _rules_block(listing: Listing, path: str, block: tuple[RuleHistory, range]) -> Page:
    """The file of a block of versions of a rule with a long history."""
    history, numbers = block
    return listing.new_page(path, "compare-piece.js", {"key": path}, kind="js", affinity=bucket_of(history.identity),
                            lazy=lambda: {"rules": {history.identity: {
                                "entries": {n: _entry(listing.plan, history, n) for n in numbers}}}})


def _entry(plan: GamePlan, history: RuleHistory, n: int) -> dict[str, Any]:
    version = history.versions[n]
    made: dict[str, Any] = {"text": version.text,
                            "blocks": [str(render_markdown(block)) for block in split_blocks(version.text)]}
    if n:
        made["into"] = _changed(plan, history.versions[n - 1], version)
    return made


def _changed(plan: GamePlan, before: RuleVersion, after: RuleVersion) -> dict[str, Any]:
    kind = "changed" if before.number == after.number else "renumbered"
    return pair_view(Pair(kind, (before,), (after,), None, redline(before.text, after.text)),
                     lambda version: f"../{plan.rule_page(version.identity)}")
