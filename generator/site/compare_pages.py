"""Comparison pages of a game: what each rule-changing entry did to the whole ruleset, start against now,
and a page where the reader picks any two points (templates/static/compare.js does that in the browser).

Page names are the entries' own: `compare/301-302.html` is the rules after proposal 301 against the rules
after proposal 302; `start` is the initial set, `judgment-7` and `entry-12` name other entries as the log
page anchors them.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from ..compare import Comparison, Pair, RuleLike, compare
from ..redline import render_html
from .markdown import render_markdown
from .views import GamePlan, Page, game_view, point_name, step_view

START = -1  # the point before the first entry: the initial set


def comparison_view(comparison: Comparison, rule_url: Callable[[RuleLike], str] | None = None) -> dict[str, Any]:
    """What templates/compare.html shows of a comparison; `rule_url` links each rule to its page."""
    return {"pairs": [pair_view(pair, rule_url) for pair in comparison.differences], "tally": comparison.tally()}


def pair_view(pair: Pair, rule_url: Callable[[RuleLike], str] | None) -> dict[str, Any]:
    """One pair as templates/_pair.html shows it, on the comparison pages and in the picker's pieces."""
    links: list[tuple[str, str]] = []
    if rule_url is not None:
        for rule in pair.new + pair.old:  # a rule's page is named by its latest number
            link = (f"Rule {rule.number}", rule_url(rule))
            if link[1] not in (url for _, url in links):
                links.append(link)
    shows_text = pair.redline is not None and (pair.redline.changed or pair.kind in ("added", "removed"))
    return {"kind": pair.kind, "heading": pair.describe(), "title": pair.title, "notes": pair.notes(),
            "summary": pair.summary(), "links": links,
            "html": render_html(pair.redline, render_markdown=render_markdown) if shows_text else None}


def compare_pages(plan: GamePlan) -> list[Page]:
    """`<game>/compare/<from>-<to>.html` for each entry that changed rules, `start-now.html` and `index.html`."""
    replay, history = plan.replay, plan.history
    changing = sorted(history.revisions_by_step)  # indices of entries that changed some rule
    last = len(replay.steps) - 1
    spans = [(index - 1, index) for index in changing]
    names = [f"{point_name(plan, before)}-{point_name(plan, after)}" for before, after in spans]
    views = _PointViews(plan)
    pages = []
    # Between two adjacent points only the rules revised at the later one differ; every other rule is an
    # equal pair. So those revisions and the number of rules are all an adjacent page depends on.
    rule_count = sum(1 for version in replay.versions if version.start == START)
    for position, ((before, after), name) in enumerate(zip(spans, names)):
        revisions = history.revisions_by_step[after]
        rule_count += sum(r.before is None for r in revisions) - sum(r.after is None for r in revisions)
        pager = {"previous": _neighbour(views, spans, names, position - 1),
                 "next": _neighbour(views, spans, names, position + 1)}
        inputs = (rule_count, [(plan.version_key(r.before), plan.version_key(r.after)) for r in revisions])
        pages.append(_comparison_page(plan, views, name, before, after, inputs, pager=pager, now=False))
    start_now = [[plan.version_key(v) for v in history.rules_at(point)] for point in (START, last)]
    pages.append(_comparison_page(plan, views, "start-now", START, last, start_now,
                                  pager={"previous": None, "next": None}, now=True))

    def index() -> dict[str, Any]:
        return {"spans": [{"name": f"{name}.html", "before": views[before], "after": views[after]}
                          for (before, after), name in zip(spans, names)]}

    # The index lists every entry: drawn only when a step it shows moved.
    pages.append(_page(plan, "index", "compare_index.html", {}, lazy=index,
                       inputs=[[plan.listed_key(step) for step in replay.steps], names]))
    return pages


class _PointViews(dict):
    """The view of each point, made once: a point shows on its pages, its neighbours' and the index."""

    def __init__(self, plan: GamePlan):
        super().__init__()
        self.plan = plan

    def __missing__(self, index: int) -> dict[str, Any]:
        if index == START:
            view = {"label": "at the start of the game", "date": "", "url": "", "title": ""}
        else:
            view = step_view(self.plan, self.plan.replay.steps[index], "../")
        self[index] = view
        return view


def _neighbour(views: _PointViews, spans: list[tuple[int, int]], names: list[str], position: int) -> dict | None:
    if not 0 <= position < len(spans):
        return None
    return {"url": f"{names[position]}.html", "label": views[spans[position][1]]["label"]}


def _comparison_page(plan: GamePlan, views: _PointViews, name: str, before: int, after: int, inputs: Any, *,
                     pager: dict, now: bool) -> Page:
    """A comparison page; `inputs` is what the comparison depends on, so that it is drawn only when they move."""

    def comparison() -> dict[str, Any]:
        found = compare(plan.history.rules_at(before), plan.history.rules_at(after), by_identity=True)
        return comparison_view(found, lambda version: f"../{plan.rule_page(version.identity)}")

    context = {"before": views[before], "after": views[after], "now": now, **pager}
    return _page(plan, name, "compare.html", context, inputs=inputs, lazy=comparison)


def _page(plan: GamePlan, name: str, template: str, context: dict[str, Any], *, inputs: Any = None,
          lazy: Callable[[], dict[str, Any]] | None = None) -> Page:
    context = {"game": game_view(plan.replay), **context}
    # The context and the lazy part's inputs are all the page shows, so they are what it depends on.
    deps = json.dumps([context, inputs], sort_keys=True, default=str)
    return Page(f"{plan.slug}/compare/{name}.html", template, context, deps=deps, lazy=lazy)
