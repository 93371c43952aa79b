"""Comparison pages of a game: the rules now against the initial set (in parts, when long), and a page where
the reader picks any two points (templates/static/compare.js does that in the browser, from points.py's
pieces). What a single entry changed is on that entry's page, so no page repeats it; `comparison_page` draws
the comparison of any two points as start-now.html draws its own, in one page (the picker's tests compare
with it).

Points are named as URLs name them: `start` is the initial set, `301` a proposal, `judgment-7` and
`entry-12` other entries as the log anchors them.
"""
from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from ..diffing.compare import Comparison, Pair, RuleLike, compare, identical
from .paging import Pager, part_name, parts
from .views import (Listing, GamePlan, Page, case_example, game_view, point_name, redline_view,
                    step_view)

START = -1  # the point before the first entry: the initial set
# The rules a part of the comparison of the start with now shows at most (at 10,000 proposals it compares 738
# rules: one page would be 760 KB, a weight for a phone, and serve would draw it whole after every edit to a rule).
COMPARE_PART = 100


def comparison_view(comparison: Comparison, rule_url: Callable[[RuleLike], str] | None = None,
                    shown: Sequence[Pair] | None = None) -> dict[str, Any]:
    """What templates/compare.html shows of a comparison: its differences, or those `shown` (a part of a long
    one), and the whole's tally; `rule_url` links each rule to its page."""
    return {"pairs": [pair_view(pair, rule_url) for pair in (comparison.differences if shown is None else shown)],
            "tally": comparison.tally()}


def pair_view(pair: Pair, rule_url: Callable[[RuleLike], str] | None) -> dict[str, Any]:
    """One pair as templates/_pair.html shows it, on the comparison pages and in the picker's pieces."""
    whole = pair.kind in ("added", "removed")
    shows_text = pair.redline is not None and (pair.redline.changed or whole)
    # Drawn once per pair of texts, with the summary Pair.summary gives when there is one (the same redline's).
    html, summary = redline_view(*pair.texts, "") if shows_text else (None, ())
    return {"kind": pair.kind, "heading": pair.describe(), "title": pair.title, "notes": pair.notes(),
            "summary": [] if whole else list(summary), "links": _links(pair, rule_url),
            "html": html}


def _links(pair: Pair, rule_url: Callable[[RuleLike], str] | None) -> list[tuple[str, str]]:
    """The pages of a pair's rules, each once (a rule's page is named by its latest number)."""
    links: list[tuple[str, str]] = []
    if rule_url is not None:
        for rule in pair.new + pair.old:
            link = (f"Rule {rule.number}", rule_url(rule))
            if link[1] not in (url for _, url in links):
                links.append(link)
    return links


def list_compare_pages(listing: Listing) -> None:
    """List `<game>/compare/start-now.html` (in parts, when long) and `index.html`, where the reader picks any two
    points. What each entry changed is on the entry's own page (a proposal's page, or its place in the log)."""
    for part in range(len(parts(len(_start_now(listing.plan)[2]), COMPARE_PART))):
        listing.add(f"compare/{part_name('start-now', part)}", _start_now_page, part)
    # The picker draws in the browser from the points and compare/rules pieces (points.py).
    listing.add("compare/index.html", _compare_index_page)


def _start_now(plan: GamePlan) -> tuple[list[RuleLike], list[RuleLike], list[int]]:
    """The rules at the start and now, and the numbers where the two differ: each part of their comparison shows
    the pairs standing at COMPARE_PART of these numbers (a pair stands at its first old rule's number, an added
    rule at its own), so the parts are known before comparing."""
    def made() -> tuple[list[RuleLike], list[RuleLike], list[int]]:
        start, now = plan.history.rules_at(START), plan.history.rules_at(len(plan.replay.steps) - 1)
        return start, now, _differing_numbers(start, now)
    return plan.once("start-now", made)


def _start_now_page(listing: Listing, path: str, part: int) -> Page:
    plan = listing.plan
    start, now, numbers = _start_now(plan)
    ranges = parts(len(numbers), COMPARE_PART)
    low = numbers[ranges[part].start] if part else None
    high = numbers[ranges[part].stop] if part + 1 < len(ranges) else None

    def shows(pair: Pair) -> bool:
        return (low is None or pair.first_number >= low) and (high is None or pair.first_number < high)
    comparison = functools.partial(plan.once, "start-now comparison", lambda: compare(start, now, by_identity=True))
    return _comparison_page(plan, listing.new_page, path, START, len(plan.replay.steps) - 1, comparison,
                            Pager("start-now", ranges, part, lambda i: f"Rule {numbers[i]}"), shows)


def _compare_index_page(listing: Listing, path: str, _: Any) -> Page:
    return listing.new_page(path, "compare_index.html", {}, lazy=lambda: {"case_example": case_example(listing.plan)})


def comparison_page(plan: GamePlan, before: int, after: int) -> Page:
    """The comparison of the rules after entry `before` with the rules after `after` (-1: the initial set),
    as compare/start-now.html draws them; named by the two points (the picker shows the same)."""
    def made(path: str, template: str, context: dict[str, Any], **options: Any) -> Page:
        return Page(path, template, {"game": game_view(plan.replay, plan.history), **context}, **options)
    return _comparison_page(plan, made, f"{plan.slug}/compare/{point_name(plan, before)}-{point_name(plan, after)}.html",
                            before, after, lambda: compare(plan.history.rules_at(before), plan.history.rules_at(after),
                                                           by_identity=True))


def _differing_numbers(start: list[RuleLike], now: list[RuleLike]) -> list[int]:
    """The numbers, in order, of the rules of either side that the other does not hold the same under the same
    number: every pair the comparison shows stands at one of them (the rules it counts unchanged at none)."""
    starts, nows = {rule.number: rule for rule in start}, {rule.number: rule for rule in now}
    unchanged = {number for number in starts.keys() & nows.keys() if identical(starts[number], nows[number])}
    return sorted((starts.keys() | nows.keys()) - unchanged)


def _comparison_page(plan: GamePlan, made: Callable[..., Page], path: str, before: int, after: int,
                     comparison: Callable[[], Comparison], navigation: Sequence[dict[str, Any]] = (),
                     shows: Callable[[Pair], bool] | None = None) -> Page:
    """A comparison page, or a part of one (`navigation`: its pager; `shows`: which pairs it shows), `made` as
    its game's pages are."""

    def view() -> dict[str, Any]:
        found = comparison()
        points = [{"label": "at the start of the game", "date": "", "url": "", "title": ""} if index == START
                  else step_view(plan, plan.replay.steps[index], "../") for index in (before, after)]
        return {"before": points[0], "after": points[1], **comparison_view(
            found, lambda version: f"../{plan.rule_page(version.identity)}",
            None if shows is None else [pair for pair in found.differences if shows(pair)])}

    now = before == START and after == len(plan.replay.steps) - 1
    return made(path, "compare.html", {"now": now, "previous": None, "next": None, "pager": list(navigation)},
                lazy=view)
