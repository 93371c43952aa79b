"""The plan of a site: every page, its template, its context, and what it depends on.

A page's `deps` is a small value that changes exactly when the page's output would; the server compares
them between builds and re-renders only the pages whose inputs moved (one proposal edit does not redraw
every rule page).
"""
from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from ..engine.adoption import describe
from ..engine.replay import Replay, Step
from ..model import Event, Judgment, Proposal
from .charts import score_chart
from .compare_pages import compare_pages
from .history import GameHistory, RuleHistory
from .points import points_pages
from .search import games_page, search_pages
from .markdown import render_markdown, render_prose
from .views import GamePlan, Page, game_view, point_name, revision_view, step_view, version_view

CLASS_ORDER = ("immutable", "mutable")


def _proposal_pages(replay: Replay) -> dict[int, str]:
    pages: dict[int, str] = {}
    used: set[str] = set()
    for step in replay.steps:
        if isinstance(step.entry, Proposal):
            name, n = str(step.entry.number), 2
            while name in used:
                name, n = f"{step.entry.number}-{n}", n + 1
            used.add(name)
            pages[step.index] = name
    return pages


def plan_site(replays: list[Replay], *, site_title: str = "Nomic archives", base_url: str = "") -> list[Page]:
    """Every page of the site. `base_url` (optional) makes sitemap and feed addresses absolute."""
    pages: list[Page] = []
    games = []
    for replay in replays:
        plan = GamePlan(replay, GameHistory(replay), replay.game.slug, _proposal_pages(replay))
        games.append(plan)
        pages.extend(_game_pages(plan))
    summaries = [_game_summary(plan) for plan in games]
    pages.append(Page("index.html", "index.html", {"games": summaries}, deps=json.dumps(summaries, sort_keys=True)))
    pages.append(games_page(games))
    if base_url and not base_url.endswith("/"):
        base_url += "/"
    if base_url:  # a sitemap's <loc>s must be absolute: without the site's address there is none
        sitemap = sorted(p.path for p in pages if p.kind == "html")
        pages.append(Page("sitemap.xml", "sitemap.xml", {"paths": sitemap}, kind="xml", deps=tuple(sitemap)))
    # A host serves 404.html at any missing address, at any depth: its links start from the site's
    # address, or from the host's root without one.
    pages.append(Page("404.html", "404.html", {"root": base_url or "/"}, deps="404"))
    for page in pages:
        page.context.setdefault("site_title", site_title)
        page.context.setdefault("base_url", base_url)
        if page.kind == "xml" or page.path == "404.html":  # the pages that use the site's address
            page.deps = (page.deps, base_url)
    return pages


def _game_summary(plan: GamePlan) -> dict[str, Any]:
    replay, game = plan.replay, plan.replay.game
    return {**game_view(replay),
            "players": list(replay.steps[-1].players if replay.steps else game.config.players),
            "proposals": len(plan.history.proposal_steps), "rules": len(plan.history.in_force()),
            "winner": list(replay.winner), "variant": game.config.variant,
            "first": replay.steps[0].entry.date.isoformat() if replay.steps and replay.steps[0].entry.date else "",
            "last": replay.steps[-1].entry.date.isoformat() if replay.steps and replay.steps[-1].entry.date else ""}


def _game_pages(plan: GamePlan) -> list[Page]:
    replay, history, slug = plan.replay, plan.history, plan.slug
    game = replay.game
    base = {"game": game_view(replay)}
    pages: list[Page] = []

    game_key = tuple(sorted(base["game"].items()))  # hashable, as fingerprints need

    def add(path: str, template: str, context: dict[str, Any], deps: Any, kind: str = "html",
            lazy: Callable[[], dict[str, Any]] | None = None) -> None:
        pages.append(Page(f"{slug}/{path}", template, {**base, **context}, deps=(game_key, deps), kind=kind,
                          lazy=lazy))

    in_force = history.in_force()
    by_class = [(cls, [version_view(v, "../", plan) for v in in_force if v.rule_class == cls]) for cls in CLASS_ORDER]
    add("rules/index.html", "rules.html", {"classes": by_class, "heading": "Rules in force"},
        tuple(plan.version_key(v) for v in in_force))

    overview = _overview(plan)
    add("index.html", "game.html", overview, json.dumps(overview, sort_keys=True, default=str))

    for identity, rule_history in history.rules.items():
        history_deps = (tuple((v.number, v.rule_class, v.title, v.text, v.start, v.end) for v in rule_history.versions)
                        + (tuple(plan.step_key(r.step) for r in history.revisions_by_rule[identity] if r.step),))
        add(plan.rule_page(identity), "rule.html", {}, history_deps, lazy=lambda h=rule_history: _rule_context(plan, h))
    for number, identity in sorted(history.old_numbers().items()):
        target = history.rules[identity]
        add(f"rules/{number}.html", "redirect.html",
            {"number": number, "target": f"{history.page_number[identity]}.html", "lineage": target.lineage,
             "now": target.last.number, "repealed": target.repealed}, (number, tuple(target.lineage)))

    steps = replay.steps
    proposal_steps = history.proposal_steps
    for position, step in enumerate(proposal_steps):
        previous = proposal_steps[position - 1] if position else None
        following = proposal_steps[position + 1] if position + 1 < len(proposal_steps) else None
        revisions = history.revisions_by_step.get(step.index, ())
        proposal_deps = (plan.step_key(step), tuple((plan.version_key(r.before), plan.version_key(r.after))
                                                    for r in revisions),
                         previous and plan.listed_key(previous), following and plan.listed_key(following))
        add(f"proposals/{plan.proposal_pages[step.index]}.html", "proposal.html", {}, proposal_deps,
            lazy=lambda s=step, p=previous, f=following: _proposal_context(plan, s, p, f))

    # The pages that list every entry are the costly ones to draw: their contexts are lazy, and their deps
    # are what they show of each step (all of it for the log, its listing for the others).
    every_step = tuple(plan.step_key(s) for s in steps)
    listed = tuple(plan.listed_key(s) for s in proposal_steps)
    add("proposals/index.html", "proposals.html", {"heading": "All proposals"}, listed,
        lazy=lambda: {"rows": [_proposal_row(plan, s, "../") for s in proposal_steps]})
    add("defeated.html", "defeated.html", {}, listed, lazy=lambda: {"rows": [
        _proposal_row(plan, s, "") for s in proposal_steps if s.result in ("defeated", "withdrawn", "invalid")]})
    repealed = [_repealed_row(plan, h) for h in history.repealed()]
    add("repealed.html", "repealed.html", {"rules": repealed}, json.dumps(repealed, sort_keys=True, default=str))
    add("log.html", "log.html", {}, (game.log.preamble, every_step),
        lazy=lambda: {"entries": [_log_entry(plan, s) for s in steps], "preamble": render_prose(game.log.preamble, 2)})
    scores_deps = (tuple(sorted(replay.initial_scores.items())), steps[-1].mechanics.scoring.win if steps else None,
                   tuple((plan.listed_key(s), tuple(sorted(s.scores.items())), s.deltas, s.overrides) for s in steps))
    add("scores.html", "scores.html", {}, scores_deps, lazy=lambda: _scores_context(plan))
    report = _check_context(plan)
    add("check.html", "check.html", report, json.dumps(report, sort_keys=True, default=str))
    players = _players_context(plan)
    add("players.html", "players.html", players, json.dumps(players, sort_keys=True))
    add("as-of.html", "as-of.html", {}, None)
    feed = _feed_context(plan)
    add("feed.xml", "feed.xml", feed, json.dumps(feed, sort_keys=True, default=str), kind="xml")
    pages.extend(compare_pages(plan))
    pages.extend(search_pages(plan, game_key))
    pages.extend(points_pages(plan, game_key))
    return pages


def _overview(plan: GamePlan) -> dict[str, Any]:
    replay = plan.replay
    game = replay.game
    last = replay.steps[-1] if replay.steps else None
    config = last.mechanics if last else game.config
    scores = sorted((last.scores if last else replay.initial_scores).items(), key=lambda kv: (-kv[1], kv[0]))
    recent = [_proposal_row(plan, s, "") for s in plan.history.proposal_steps[-10:]][::-1]
    return {
        "scores": scores, "winner": list(replay.winner), "players": list(last.players if last else game.config.players),
        "next_player": last.next_player if last else None, "circuits": last.circuits if last else 0,
        "preamble": str(render_prose(game.log.preamble, 3)), "recent": recent,
        "counts": {"proposals": len(plan.history.proposal_steps), "rules": len(plan.history.in_force()),
                   "repealed": len(plan.history.repealed()), "findings": len(replay.findings)},
        "mechanics": _mechanics(config), "start": game.config.start.isoformat() if game.config.start else "",
        "variant": game.config.variant,
    }


def _mechanics(config) -> list[tuple[str, str]]:
    adoption = config.adoption
    rows = [("Adoption", describe(adoption.method, adoption.fraction))]
    if adoption.then:
        rows.append(("Then", f"{describe(adoption.then, adoption.fraction)} after {adoption.after_circuits} complete "
                     f"circuits" + (f", unless rule {adoption.unless_amended} is amended" if adoption.unless_amended else "")))
    scoring = config.scoring
    turn = {"die": f"throw {scoring.die}", "formula": f"formula {scoring.formula}", "none": "no points"}[scoring.turn]
    rows += [("Each turn", turn), ("Defeat", f"{scoring.defeated:+d} points"),
             ("Voting against an adopted proposal", f"{scoring.against_adopted:+d} points"),
             ("Winning score", str(scoring.win)), ("Order of play", config.turns.order),
             ("Mutable rules at most", str(config.limits.max_mutable) if config.limits.max_mutable else "no cap")]
    return rows


def _rule_context(plan: GamePlan, rule_history: RuleHistory) -> dict[str, Any]:
    revisions = [revision_view(plan, r, "../") for r in plan.history.revisions_by_rule[rule_history.identity]]
    last = rule_history.last
    repealed_by = step_view(plan, plan.replay.steps[last.end], "../") if rule_history.repealed else None
    return {"rule": version_view(last, "../", plan), "repealed": rule_history.repealed, "repealed_by": repealed_by,
            "lineage": rule_history.lineage, "revisions": revisions,
            "original": version_view(rule_history.versions[0], "../", plan),
            "has_redline": any(r["kind"] != "initial" for r in revisions)}


def _votes_view(entry: Proposal) -> dict[str, list[str]] | None:
    if entry.votes is None:
        return None
    return {"for": list(entry.votes.for_), "against": list(entry.votes.against), "abstain": list(entry.votes.abstain)}


def _proposal_context(plan: GamePlan, step: Step, previous: Step | None, following: Step | None) -> dict[str, Any]:
    entry: Proposal = step.entry  # type: ignore[assignment]
    revisions = [revision_view(plan, r, "../") for r in plan.history.revisions_by_step.get(step.index, ())]
    return {
        "proposal": {"number": entry.number, "title": entry.title, "proposer": entry.proposer,
                     "date": entry.date.isoformat() if entry.date else "", "votes": _votes_view(entry),
                     "recorded": entry.result.result if entry.result else None, "die": entry.die.total if entry.die else None,
                     "extra": entry.extra_turn, "notes": list(entry.notes),
                     "source": str(entry.source)},
        "step": _step_facts(step),
        "body": render_markdown(entry.body),
        "revisions": revisions,
        "previous": step_view(plan, previous, "../") if previous else None,
        "next": step_view(plan, following, "../") if following else None,
        "has_redline": any(r["kind"] in ("changed", "enacted", "repealed") for r in revisions),
        "points": (point_name(plan, step.index - 1), point_name(plan, step.index)),
    }


def _step_facts(step: Step) -> dict[str, Any]:
    return {"result": step.result, "computed": step.computed_result, "method": step.method,
            "deltas": [(d.player, d.points, d.reason) for d in step.deltas],
            "scores": sorted(step.scores.items(), key=lambda kv: (-kv[1], kv[0])),
            "findings": [{"kind": f.kind, "where": f"{f.file}:{f.line}", "message": f.message} for f in step.findings],
            "overrides": [{"what": o.what, "computed": o.computed, "set": o.set_to, "where": f"{o.file}:{o.line}"}
                          for o in step.overrides],
            "notes": list(step.notes), "winner": list(step.winner), "turn_of": step.turn_of,
            "expected_player": step.expected_player}


def _proposal_row(plan: GamePlan, step: Step, from_dir: str) -> dict[str, Any]:
    entry: Proposal = step.entry  # type: ignore[assignment]
    return {"number": entry.number, "title": entry.title, "proposer": entry.proposer,
            "date": entry.date.isoformat() if entry.date else "", "result": step.result or "",
            "url": f"{from_dir}{plan.entry_anchor(step)}", "findings": len(step.findings)}


def _repealed_row(plan: GamePlan, history: RuleHistory) -> dict[str, Any]:
    last = history.last
    step = plan.replay.steps[last.end]
    return {"number": last.number, "title": last.title, "url": plan.rule_page(history.identity),
            "lineage": history.lineage, "by": step_view(plan, step, "")}


def _log_entry(plan: GamePlan, step: Step) -> dict[str, Any]:
    entry = step.entry
    view = step_view(plan, step, "")
    view.update({"anchor": (f"judgment-{entry.number}" if isinstance(entry, Judgment) else f"entry-{step.index + 1}"),
                 "facts": _step_facts(step), "is_proposal": isinstance(entry, Proposal), "judge": "",
                 "players": [], "body": ""})
    if isinstance(entry, Judgment):
        view["judge"] = entry.judge
        view["body"] = render_prose(entry.body, 3)
    elif isinstance(entry, Event):
        view["body"] = render_prose(entry.body, 3)
        view["players"] = [("+" if c.joins else "-") + c.player for c in entry.players]
    else:  # a proposal: its text with the keeper's commentary, as events and judgments show theirs
        view["proposer"] = entry.proposer
        view["body"] = render_prose(entry.body, 3)
    return view


def _scores_context(plan: GamePlan) -> dict[str, Any]:
    replay = plan.replay
    players = sorted({p for s in replay.steps for p in s.scores} | set(replay.initial_scores))
    rows = [{"step": step_view(plan, s, ""), "scores": [s.scores.get(p) for p in players],
             "deltas": [sum(d.points for d in s.deltas if d.player == p) for p in players]}
            for s in replay.steps if s.deltas or s.overrides]
    return {"players": players, "rows": rows, "chart": score_chart(replay)}


def _check_context(plan: GamePlan) -> dict[str, Any]:
    replay = plan.replay
    proposals = len(plan.history.proposal_steps)
    return {"findings": [{"kind": f.kind, "where": f"{f.file}:{f.line}", "entry": f.entry, "message": f.message,
                          "expected": f.expected, "found": f.found} for f in replay.findings],
            "overrides": [{"judgment": o.judgment, "what": o.what, "computed": o.computed, "set": o.set_to,
                           "where": f"{o.file}:{o.line}"} for o in replay.overrides],
            "proposals": proposals, "entries": len(replay.steps), "winner": list(replay.winner),
            "snapshots": [s.source.file for s in replay.game.snapshots]}


def _players_context(plan: GamePlan) -> dict[str, Any]:
    replay = plan.replay
    last = replay.steps[-1] if replay.steps else None
    names = sorted({p for s in replay.steps for p in s.scores} | set(replay.initial_scores))
    stats = {name: {"name": name, "proposed": 0, "adopted": 0, "defeated": 0, "score": 0, "playing": False}
             for name in names}
    for step in plan.history.proposal_steps:
        stat = stats.get(step.entry.proposer)
        if stat:
            stat["proposed"] += 1
            if step.result in ("adopted", "defeated"):
                stat[step.result] += 1
    for name in names:
        stats[name]["score"] = (last.scores if last else replay.initial_scores).get(name, 0)
        stats[name]["playing"] = name in (last.players if last else replay.game.config.players)
    order = list(last.players) if last else list(replay.game.config.players)
    return {"players": [stats[n] for n in names], "order": order}


def _feed_context(plan: GamePlan) -> dict[str, Any]:
    steps = plan.history.proposal_steps[-50:][::-1]
    updated = max((s.entry.date for s in plan.replay.steps if s.entry.date), default=None)
    return {"entries": [{**_proposal_row(plan, s, ""), "summary": f"{s.entry.proposer}: {s.result or 'pending'}"}
                        for s in steps],
            "updated": updated.isoformat() if updated else "1970-01-01"}
