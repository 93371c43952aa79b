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
from .views import (GamePlan, Page, case_example, game_view, pager, part_name, parts, point_name, redline_view,
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


def compare_pages(plan: GamePlan) -> list[Page]:
    """`<game>/compare/start-now.html` and `index.html`, where the reader picks any two points. What each
    entry changed is on the entry's own page (a proposal's page, or its place in the log)."""
    replay, history = plan.replay, plan.history
    last = len(replay.steps) - 1
    pages: list[Page] = []
    start, now = history.rules_at(START), history.rules_at(last)
    # Each part shows the pairs standing at COMPARE_PART of the numbers where the two sides differ (a pair stands
    # at its first old rule's number, an added rule at its own), so the parts are known before comparing.
    numbers = _differing_numbers(start, now)
    ranges = parts(len(numbers), COMPARE_PART)
    comparison = functools.cache(lambda: compare(start, now, by_identity=True))  # (once for every part)
    for part, span in enumerate(ranges):
        low = numbers[span.start] if part else None
        high = numbers[span.stop] if part + 1 < len(ranges) else None

        def shows(pair: Pair, low: int | None = low, high: int | None = high) -> bool:
            return (low is None or pair.first_number >= low) and (high is None or pair.first_number < high)
        pages.append(_comparison_page(plan, part_name("start-now", part, ""), START, last, comparison,
                                      pager("start-now", ranges, part, lambda i: f"Rule {numbers[i]}"), shows))

    # The picker draws in the browser from the points and compare/rules pieces (points.py).
    pages.append(_page(plan, "index", "compare_index.html", {}, lambda: {"case_example": case_example(plan)}))
    return pages


def comparison_page(plan: GamePlan, before: int, after: int) -> Page:
    """The comparison of the rules after entry `before` with the rules after `after` (-1: the initial set),
    as compare/start-now.html draws them; named by the two points (the picker shows the same)."""
    return _comparison_page(plan, f"{point_name(plan, before)}-{point_name(plan, after)}",
                            before, after, lambda: compare(plan.history.rules_at(before),
                                                                 plan.history.rules_at(after), by_identity=True))


def _differing_numbers(start: list[RuleLike], now: list[RuleLike]) -> list[int]:
    """The numbers, in order, of the rules of either side that the other does not hold the same under the same
    number: every pair the comparison shows stands at one of them (the rules it counts unchanged at none)."""
    starts, nows = {rule.number: rule for rule in start}, {rule.number: rule for rule in now}
    unchanged = {number for number in starts.keys() & nows.keys() if identical(starts[number], nows[number])}
    return sorted((starts.keys() | nows.keys()) - unchanged)


def _comparison_page(plan: GamePlan, name: str, before: int, after: int, comparison: Callable[[], Comparison],
                     navigation: Sequence[dict[str, Any]] = (), shows: Callable[[Pair], bool] | None = None) -> Page:
    """A comparison page, or a part of one (`navigation`: its pager; `shows`: which pairs it shows)."""

    def view() -> dict[str, Any]:
        found = comparison()
        points = [{"label": "at the start of the game", "date": "", "url": "", "title": ""} if index == START
                  else step_view(plan, plan.replay.steps[index], "../") for index in (before, after)]
        return {"before": points[0], "after": points[1], **comparison_view(
            found, lambda version: f"../{plan.rule_page(version.identity)}",
            None if shows is None else [pair for pair in found.differences if shows(pair)])}

    now = before == START and after == len(plan.replay.steps) - 1
    return _page(plan, name, "compare.html", {"now": now, "previous": None, "next": None, "pager": list(navigation)},
                 view)


def _page(plan: GamePlan, name: str, template: str, context: dict[str, Any],
          lazy: Callable[[], dict[str, Any]]) -> Page:
    return Page(f"{plan.slug}/compare/{name}.html", template, {"game": game_view(plan.replay), **context}, lazy=lazy)
