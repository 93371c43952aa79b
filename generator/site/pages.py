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
from ..engine.solitaire import SolitaireReplay
from ..engine.turns import ordered
from ..model.dice import dice_in_words
from ..model.formula import SCORING_NAMES, compile_formula
from ..model import Event, Judgment, Proposal
from .charts import score_chart
from .compare_pages import compare_pages
from .history import GameHistory, RuleHistory
from .markdown import render_markdown, render_prose
from .points import points_pages
from .search import documents_from_entries, games_page, plan_documents, search_pages
from .solitaire_pages import solitaire_site
from .views import GamePlan, Page, game_view, page_names, point_name, power_text, revision_view, step_view, version_view

CLASS_ORDER = ("immutable", "mutable")


def _proposal_pages(replay: Replay) -> dict[int, str]:
    return page_names((step.index, step.entry.number) for step in replay.steps if isinstance(step.entry, Proposal))


def plan_site(replays: list[Replay | SolitaireReplay], *, site_title: str = "Nomic archives", base_url: str = "") -> list[Page]:
    """Every page of the site. `base_url` (optional) makes sitemap and feed addresses absolute."""
    pages: list[Page] = []
    summaries: list[dict[str, Any]] = []
    games: list[tuple[str, str]] = []
    for replay in replays:
        if isinstance(replay, SolitaireReplay):  # seed 000 plays turns, not proposals: pages of its own
            game_pages, summary, entries = solitaire_site(replay)
            documents = documents_from_entries(replay.game.slug, entries)
        else:
            plan = GamePlan(replay, GameHistory(replay), replay.game.slug, _proposal_pages(replay))
            game_pages, summary, documents = _game_pages(plan), _game_summary(plan), plan_documents(plan)
        pages.extend(game_pages)
        summaries.append(summary)
        pages.extend(search_pages(replay.game.slug, replay.game.config.title, documents))
        games.append((replay.game.slug, replay.game.config.title))
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
    in_force_key = tuple(plan.version_key(v) for v in in_force)
    powered = any(v.power is not None for v in in_force)
    # by_power: None where rules have no power (no switch between the two views)
    add("rules/index.html", "rules.html", {"classes": by_class, "heading": "Rules in force",
                                            "by_power": False if powered else None}, in_force_key)
    if powered:  # format 1.1: the same rules grouped by power, the highest first
        powers = sorted({v.power for v in in_force if v.power is not None}, reverse=True)
        by_power = [(power_text(p), [version_view(v, "../", plan) for v in in_force if v.power == p]) for p in powers]
        add("rules/by-power.html", "rules.html", {"classes": by_power, "heading": "Rules in force by power",
                                                   "by_power": True}, in_force_key)

    overview = _overview(plan)
    add("index.html", "game.html", overview, json.dumps(overview, sort_keys=True, default=str))

    for identity, rule_history in history.rules.items():
        history_deps = (tuple((v.number, v.rule_class, v.title, v.text, v.power, v.start, v.end)
                              for v in rule_history.versions)
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
        _proposal_row(plan, s, "") for s in proposal_steps if s.result in ("defeated", "withdrawn", "invalid", "failed-quorum")]})
    repealed = [_repealed_row(plan, h) for h in history.repealed()]
    add("repealed.html", "repealed.html", {"rules": repealed}, json.dumps(repealed, sort_keys=True, default=str))
    add("log.html", "log.html", {}, (game.log.preamble, every_step),
        lazy=lambda: {"entries": [_log_entry(plan, s) for s in steps], "preamble": render_prose(game.log.preamble, 2)})
    if base["game"]["scores"]:  # a game decided by votes alone has no scores page
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
        "mechanics": _mechanics(config, replay), "start": game.config.start.isoformat() if game.config.start else "",
        "variant": game.config.variant,
    }


def _mechanics(config, replay: Replay) -> list[tuple[str, str]]:
    """The mechanics in force at the end of the log, in a player's words (rules by their present number)."""
    adoption = config.adoption
    if adoption.method == "index":
        rows = [("Adoption", f"more strength for than against, and at least the index times it (index "
                             f"{power_text(adoption.index)} unless the proposal gives one)")]
    else:
        rows = [("Adoption", describe(adoption.method, adoption.fraction))]
    if adoption.quorum:
        rows.append(("Quorum", f"{adoption.quorum} ballots unless the proposal gives another"))
    if adoption.then and adoption.then != adoption.method:
        circuits = replay.steps[-1].circuits if replay.steps else 0
        named = adoption.unless_amended
        rule = (f"rule {replay.switch_rule}" if replay.switch_rule is not None
                else f"rule {named} (since repealed)" if named else "")
        if circuits >= adoption.after_circuits:
            rows.append(("Then", f"stays {describe(adoption.method, adoption.fraction)}: {rule} was amended before "
                         f"circuit {adoption.after_circuits} was complete"))
        else:
            rows.append(("Then", f"{describe(adoption.then, adoption.fraction)} after {adoption.after_circuits} complete "
                         f"circuits" + (f", unless {rule} is amended" if rule else "")))
    if adoption.transmutation != adoption.method and any(v.rule_class == "immutable" for v in replay.rules_at(
            len(replay.steps) - 1)):
        rows.append(("Transmuting a rule", describe(adoption.transmutation, adoption.fraction)))
    scoring = config.scoring
    if scoring.turn == "die":
        rows.append(("Each turn", f"{dice_in_words(scoring.die)}, {scoring.die}"))
    elif scoring.turn == "formula":
        rows.append(("Each turn", compile_formula(scoring.formula, SCORING_NAMES).in_words()
                     + (f" ({ROUNDING_WORDS[scoring.rounding]})" if "round(" in scoring.formula else "")))
    if scoring.adopted:
        rows.append(("Adoption pays the proposer", _points(scoring.adopted)))
    if scoring.defeated:
        rows.append(("Defeat", _points(scoring.defeated)))
    if scoring.against_adopted:
        rows.append(("Voting against an adopted proposal", _points(scoring.against_adopted)))
    if scoring.turn != "none" or scoring.adopted or scoring.defeated or scoring.against_adopted:
        rows.append(("Winning score", f"{scoring.win} points"))
    if config.turns.order != "none":
        rows.append(("Order of play", ORDER_WORDS[config.turns.order]))
    if config.limits.max_mutable:
        rows.append(("Mutable rules at most", str(config.limits.max_mutable)))
    if not config.numbering.in_order:
        rows.append(("Proposals", "listed in the order they took effect, not by number"))
    rules = config.rules
    if rules.power:
        limits = [w for w in ("its index" if adoption.method == "index" else "", "its Power line",
                              f"{power_text(rules.power_cap)}" if rules.power_cap is not None else "") if w]
        rows.append(("Rule power", f"a proposal changes only rules of at most its power (the least of "
                     f"{', '.join(limits[:-1]) + ' and ' if len(limits) > 1 else ''}{limits[-1]})"
                     + (f"; from power {power_text(rules.power_exempt)} on, any rule"
                        if rules.power_exempt is not None else "")))
    return rows


ORDER_WORDS = {"seating": "as the players sit", "alphabetical": "alphabetical", "surname": "by surname",
               "custom": "by the game's collation of names", "rotating": "as the players sit, each circuit starting "
               "one seat later"}
ROUNDING_WORDS = {"half-up": "halves rounded up", "half-even": "halves rounded to even", "down": "rounded toward zero",
                  "floor": "rounded down", "ceiling": "rounded up"}


def _points(points: int) -> str:
    return f"{points:+d} point{'' if abs(points) == 1 else 's'}"


def _rule_context(plan: GamePlan, rule_history: RuleHistory) -> dict[str, Any]:
    revisions = [revision_view(plan, r, "../") for r in plan.history.revisions_by_rule[rule_history.identity]]
    last = rule_history.last
    repealed_by = step_view(plan, plan.replay.steps[last.end], "../") if rule_history.repealed else None
    return {"rule": version_view(last, "../", plan), "repealed": rule_history.repealed, "repealed_by": repealed_by,
            "lineage": rule_history.lineage, "revisions": revisions,
            "original": version_view(rule_history.versions[0], "../", plan),
            "has_redline": any(r["kind"] != "initial" for r in revisions)}


def _votes_view(entry: Proposal) -> dict[str, Any] | None:
    if entry.votes is None:
        return None
    votes = entry.votes
    return {"for": list(votes.for_), "against": list(votes.against), "abstain": list(votes.abstain),
            "present": votes.present, "ballots": votes.ballots() if votes.strengths is not None else []}


def _decision_view(step: Step) -> dict[str, Any] | None:
    """What a proposal's page shows of its vote under format 1.1: F, A, the ballots, the index and the quorum."""
    decision = step.decision
    if decision is None or not (decision.weighted or decision.method == "index" or decision.quorum):
        return None
    return {"for": decision.for_, "against": decision.against, "ballots": decision.ballots,
            "index": power_text(decision.index), "quorum": decision.quorum, "why": decision.why(),
            "result": decision.result, "power": power_text(step.power)}


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
        "decision": _decision_view(step),
        "body": render_markdown(entry.body),
        "revisions": revisions,
        "previous": step_view(plan, previous, "../") if previous else None,
        "next": step_view(plan, following, "../") if following else None,
        "has_redline": any(r["kind"] in ("changed", "enacted", "repealed") for r in revisions),
        "points": (point_name(plan, step.index - 1), point_name(plan, step.index)),
    }


def _step_facts(step: Step) -> dict[str, Any]:
    return {"result": step.result, "computed": step.computed_result, "method": step.method,
            "why": step.decision.why() if step.decision else None,
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
    """The verification report: each finding links to its entry's page (or log anchor), and one that stems
    from an earlier slip links to that slip's entry."""
    replay = plan.replay
    proposals = len(plan.history.proposal_steps)
    url_of = {id(f): plan.entry_anchor(s) for s in replay.steps for f in s.findings}
    url_at = {f"{f.file}:{f.line}": url_of[id(f)] for f in replay.findings if id(f) in url_of}
    return {"findings": [{"kind": f.kind, "where": f"{f.file}:{f.line}", "entry": f.entry, "message": f.message,
                          "expected": f.expected, "found": f.found, "url": url_of.get(id(f)), "cause": f.cause,
                          "cause_url": url_at.get(f.cause or "")} for f in replay.findings],
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
    # The order the engine follows at the end of the log (none: a game without turns).
    order = list(last.order) if last else ordered(list(replay.game.config.players), replay.game.config.turns.order,
                                                  replay.game.config.turns.collation)
    return {"players": [stats[n] for n in names], "order": order if replay.game.config.turns.order != "none" or last
            else []}


def _feed_context(plan: GamePlan) -> dict[str, Any]:
    steps = plan.history.proposal_steps[-50:][::-1]
    updated = max((s.entry.date for s in plan.replay.steps if s.entry.date), default=None)
    return {"entries": [{**_proposal_row(plan, s, ""), "summary": f"{s.entry.proposer}: {s.result or 'pending'}"}
                        for s in steps],
            "updated": updated.isoformat() if updated else "1970-01-01"}
