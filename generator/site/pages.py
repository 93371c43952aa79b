"""The plan of a site: every page, its template, its context, and what it depends on.

A page's `deps` is a small value that changes exactly when the page's output would; the server compares
them between builds and re-renders only the pages whose inputs moved (one proposal edit does not redraw
every rule page), and a build compares their digests with the site's manifest. `plan_game` plans a whole
game, or, given the entries and rules an edit touched (`Touched`), only the pages they feed.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ..engine.adoption import describe
from ..engine.replay import Replay, Step
from ..model import Event, Judgment, Proposal
from .charts import score_chart
from .compare_pages import compare_pages
from .history import GameHistory, RuleHistory
from .markdown import markdown_to_html, render_markdown
from .views import (LOG_PART, TABLE_PART, GamePlan, Page, game_view, log_anchor, pager, part_name, parts,
                    revision_view, step_facts, step_view, version_view)

CLASS_ORDER = ("immutable", "mutable")
DEFEATED = ("defeated", "withdrawn", "invalid")


@dataclass
class Touched:
    """What an edit changed in a game, as the planner needs it: the steps (by index) whose content or facts
    moved, the rules (by identity) whose versions did, and whether what the lists show of an entry (`listed`:
    label, title, date, result, link) or any score moved. Everything else is as it was."""

    steps: set[int] = field(default_factory=set)
    rules: set[int] = field(default_factory=set)
    listed: bool = False
    scores: bool = False


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


def game_plan(replay: Replay) -> GamePlan:
    return GamePlan(replay, GameHistory(replay), replay.game.slug, _proposal_pages(replay))


def plan_site(replays: list[Replay], *, site_title: str = "Nomic archives", base_url: str = "") -> list[Page]:
    """Every page of the site. `base_url` (optional) makes sitemap and feed addresses absolute."""
    games = [game_plan(replay) for replay in replays]
    pages = [page for plan in games for page in plan_game(plan)]
    return pages + site_pages(games, pages, site_title=site_title, base_url=base_url)


def site_pages(games: list[GamePlan], game_pages: list[Page], *, site_title: str, base_url: str) -> list[Page]:
    """The pages above the games (index, 404, search index, sitemap), and the site's title and address on
    every page of `game_pages` too."""
    summaries = [_game_summary(plan) for plan in games]
    pages = [Page("index.html", "index.html", {"games": summaries}, deps=json.dumps(summaries, sort_keys=True)),
             Page("404.html", "404.html", {}, deps="404")]
    entries = tuple((plan.slug, plan.replay.game.config.title, tuple(_search_key(plan))) for plan in games)
    pages.append(Page("search-index.js", "search-index.js", {}, kind="js", deps=entries,
                      lazy=lambda: {"index": _search_index(games)}))
    sitemap = tuple(sorted(p.path for p in game_pages + pages if p.kind == "html" and not p.stub
                           and p.path != "404.html"))
    pages.append(Page("sitemap.xml", "sitemap.xml", {"paths": sitemap}, kind="xml", deps=sitemap))
    if base_url and not base_url.endswith("/"):
        base_url += "/"
    for page in game_pages + pages:
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


class _Pages(list):
    """A game's pages as they are planned: each with the game's header in its context and deps."""

    def __init__(self, plan: GamePlan):
        super().__init__()
        self.plan = plan
        self.base = {"game": game_view(plan.replay)}
        self.game_key = tuple(sorted(self.base["game"].items()))  # hashable, as fingerprints need

    def add(self, path: str, template: str, context: dict[str, Any], deps: Any, kind: str = "html",
            lazy: Callable[[], dict[str, Any]] | None = None, stub: bool = False, affinity: int | None = None) -> None:
        self.append(Page(f"{self.plan.slug}/{path}", template, {**self.base, **context}, deps=(self.game_key, deps),
                         kind=kind, lazy=lazy, stub=stub, affinity=affinity))


def plan_game(plan: GamePlan, touched: Touched | None = None) -> list[Page]:
    """The pages of one game; with `touched`, only those whose inputs an edit can have moved."""
    pages = _Pages(plan)
    history = plan.history
    position_of = {step.index: position for position, step in enumerate(history.proposal_steps)}
    if touched is None:
        _overview_pages(pages, rules=True)
        for identity in history.rules:
            _rule_page(pages, history.rules[identity])
        _redirect_pages(pages)
        for position in range(len(history.proposal_steps)):
            _proposal_page(pages, position)
        _list_pages(pages, None, None, everything=True)
        pages.extend(compare_pages(plan))
        return pages
    # The steps whose pages show something that moved: the touched ones, those whose revisions changed
    # a touched rule, and (when the listing of a touched one moved) the neighbours that link to it.
    revising = {r.step.index for identity in touched.rules for r in history.revisions_by_rule.get(identity, ())
                if r.step}
    proposals = {position_of[i] for i in touched.steps | revising if i in position_of}
    if touched.listed:
        proposals |= {p + d for p in proposals for d in (-1, 1) if 0 <= p + d < len(position_of)}
    rules = set(touched.rules)
    if touched.listed:  # a rule's history names the entries that changed it
        rules |= {(r.after or r.before).identity for i in touched.steps for r in history.revisions_by_step.get(i, ())}
    _overview_pages(pages, rules=bool(touched.rules) or touched.listed)
    for identity in sorted(rules):
        _rule_page(pages, history.rules[identity])
    for position in sorted(proposals):
        _proposal_page(pages, position)
    log_parts = {i // LOG_PART for i in touched.steps | {i for i in revising if i not in position_of}}
    table_parts = {position_of[i] // TABLE_PART for i in touched.steps if i in position_of} if touched.listed else set()
    _list_pages(pages, log_parts, table_parts, everything=touched.listed or bool(touched.rules),
                scores=touched.scores or touched.listed, scored_steps=touched.steps)
    if touched.listed or touched.rules:
        pages.extend(compare_pages(plan))
    return pages


def _overview_pages(pages: _Pages, *, rules: bool) -> None:
    """The pages that sum up the game; those about its rules only when `rules` (they may have moved)."""
    plan = pages.plan
    history = plan.history
    if rules:
        in_force = history.in_force()
        pages.add("rules/index.html", "rules.html", {"heading": "Rules in force"},
                  tuple(plan.version_key(v) for v in in_force),
                  lazy=lambda: {"classes": [(cls, [version_view(v, "../", plan) for v in in_force
                                                   if v.rule_class == cls]) for cls in CLASS_ORDER]})
        repealed = [_repealed_row(plan, h) for h in history.repealed()]
        pages.add("repealed.html", "repealed.html", {"rules": repealed},
                  json.dumps(repealed, sort_keys=True, default=str))
    overview = _overview(plan)
    pages.add("index.html", "game.html", overview, json.dumps(overview, sort_keys=True, default=str))
    report = _check_context(plan)
    pages.add("check.html", "check.html", report, json.dumps(report, sort_keys=True, default=str))
    players = _players_context(plan)
    pages.add("players.html", "players.html", players, json.dumps(players, sort_keys=True))
    feed = _feed_context(plan)
    pages.add("feed.xml", "feed.xml", feed, json.dumps(feed, sort_keys=True, default=str), kind="xml")


def _rule_page(pages: _Pages, rule_history: RuleHistory) -> None:
    plan = pages.plan
    deps = (tuple((plan.version_key(v), v.start, v.end) for v in rule_history.versions),
            plan.rule_page(rule_history.identity),
            tuple(plan.listed_key(r.step) for r in plan.history.revisions_by_rule[rule_history.identity] if r.step))
    pages.add(plan.rule_page(rule_history.identity), "rule.html", {}, deps,
              lazy=lambda: _rule_context(plan, rule_history), affinity=rule_history.identity)


def _redirect_pages(pages: _Pages) -> None:
    """A small page for each number a rule once had: it sends the reader to the rule's page."""
    history = pages.plan.history
    for number, identity in sorted(history.old_numbers().items()):
        target = history.rules[identity]
        context = {"number": number, "target": f"{history.page_number[identity]}.html", "lineage": target.lineage,
                   "now": target.last.number, "repealed": target.repealed}
        pages.add(f"rules/{number}.html", "redirect.html", context, tuple(sorted(context.items())), stub=True)


def _proposal_page(pages: _Pages, position: int) -> None:
    plan = pages.plan
    proposal_steps = plan.history.proposal_steps
    step = proposal_steps[position]
    previous = proposal_steps[position - 1] if position else None
    following = proposal_steps[position + 1] if position + 1 < len(proposal_steps) else None
    revisions = plan.history.revisions_by_step.get(step.index, ())
    deps = (plan.step_key(step), tuple((plan.version_key(r.before), plan.version_key(r.after)) for r in revisions),
            previous and plan.listed_key(previous), following and plan.listed_key(following))
    pages.add(f"proposals/{plan.proposal_pages[step.index]}.html", "proposal.html", {}, deps,
              lazy=lambda: _proposal_context(plan, step, previous, following),
              affinity=(revisions[0].after or revisions[0].before).identity if revisions else None)


def _list_pages(pages: _Pages, log_parts: set[int] | None, table_parts: set[int] | None, *, everything: bool,
                scores: bool = True, scored_steps: set[int] | None = None) -> None:
    """The pages that list every entry, each long list cut into parts; only the parts named (None: all), and
    the lists of every entry only when `everything` (their listing of some entry moved). Each part's deps are
    what it shows of each step: all of it for the log, its listing elsewhere."""
    plan = pages.plan
    replay, history = plan.replay, plan.history
    steps, proposal_steps = replay.steps, history.proposal_steps

    log_ranges = parts(len(steps), LOG_PART)
    for part, span in enumerate(log_ranges):
        if log_parts is not None and part not in log_parts:
            continue
        chosen = steps[span.start:span.stop]
        navigation = pager("log", log_ranges, part, lambda i: steps[i].label)
        changes = tuple(tuple((plan.version_key(r.before), plan.version_key(r.after))
                              for r in history.revisions_by_step.get(s.index, ())) if not isinstance(s.entry, Proposal)
                        else () for s in chosen)
        pages.add(part_name("log", part), "log.html", {"pager": navigation},
                  (replay.game.log.preamble if part == 0 else None, tuple(plan.step_key(s) for s in chosen), changes,
                   json.dumps(navigation)),
                  lazy=lambda chosen=chosen, first=part == 0: {
                      "entries": [_log_entry(plan, s) for s in chosen],
                      "preamble": render_markdown(replay.game.log.preamble) if first else ""})

    table_ranges = parts(len(proposal_steps), TABLE_PART)
    for part, span in enumerate(table_ranges):
        if table_parts is not None and part not in table_parts:
            continue
        chosen = proposal_steps[span.start:span.stop]
        navigation = pager("index", table_ranges, part, lambda i: str(proposal_steps[i].entry.number))
        pages.add(f"proposals/{part_name('index', part)}", "proposals.html",
                  {"heading": "All proposals", "pager": navigation},
                  (tuple(plan.listed_key(s) for s in chosen), json.dumps(navigation)),
                  lazy=lambda chosen=chosen: {"rows": [_proposal_row(plan, s, "../") for s in chosen]})

    if scores:  # the chart of the whole game, then the table of every entry that changed a score
        scored = [s for s in steps if s.deltas or s.overrides]
        players = sorted({p for s in steps for p in s.scores} | set(replay.initial_scores))
        score_ranges = parts(len(scored), TABLE_PART)
        wanted = None
        if scored_steps is not None:
            positions = {s.index: position for position, s in enumerate(scored)}
            wanted = {0} | {positions[i] // TABLE_PART for i in scored_steps if i in positions}
        for part, span in enumerate(score_ranges):
            if wanted is not None and part not in wanted:
                continue
            chosen = scored[span.start:span.stop]
            navigation = pager("scores", score_ranges, part, lambda i: scored[i].label)
            rows_key = tuple((plan.listed_key(s), tuple(sorted(s.scores.items())),
                              tuple((d.player, d.points) for d in s.deltas)) for s in chosen)
            chart_key = None
            if part == 0:
                chart_key = (tuple(sorted(replay.initial_scores.items())),
                             steps[-1].mechanics.scoring.win if steps else None,
                             tuple((s.index, s.label, tuple(sorted(s.scores.items()))) for s in scored))
            pages.add(part_name("scores", part), "scores.html", {"pager": navigation},
                      (tuple(players), rows_key, chart_key, json.dumps(navigation)),
                      lazy=lambda chosen=chosen, first=part == 0: _scores_context(plan, players, chosen, first))

    if not everything:
        return
    defeated = [s for s in proposal_steps if s.result in DEFEATED]
    pages.add("defeated.html", "defeated.html", {}, tuple(plan.listed_key(s) for s in defeated),
              lazy=lambda: {"rows": [_proposal_row(plan, s, "") for s in defeated]})
    every_listed = tuple(plan.listed_key(s) for s in steps)
    pages.add("as-of.html", "as-of.html", {}, every_listed,
              lazy=lambda: {"entries": [step_view(plan, s, "") for s in steps]})
    versions = tuple((plan.version_key(v), v.start, v.end) for v in replay.versions)
    pages.add("data.js", "data.js", {}, (versions, every_listed), kind="js", lazy=lambda: {"data": _game_data(plan)})


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
        "preamble": str(render_markdown(game.log.preamble)), "recent": recent,
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
    return {"rule": version_view(last, "../", plan), "repealed": rule_history.repealed,
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
                     "extra": entry.extra_turn, "notes": list(entry.notes), "file": entry.source.file},
        "step": step_facts(step),
        "body": markdown_to_html(entry.body),
        "revisions": revisions,
        "previous": step_view(plan, previous, "../") if previous else None,
        "next": step_view(plan, following, "../") if following else None,
        "has_redline": any(r["kind"] in ("changed", "enacted", "repealed") for r in revisions),
    }


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
    view.update({"anchor": log_anchor(step), "facts": step_facts(step), "is_proposal": isinstance(entry, Proposal),
                 "judge": "", "players": [], "body": "", "revisions": []})
    if isinstance(entry, Judgment):
        view["judge"] = entry.judge
        view["body"] = markdown_to_html(entry.body)
    elif isinstance(entry, Event):
        view["body"] = markdown_to_html(entry.body)
        view["players"] = [("+" if c.joins else "-") + c.player for c in entry.players]
    else:
        view["proposer"] = entry.proposer
    if not isinstance(entry, Proposal):  # what a judgment or event changed shows here: it has no page of its own
        view["revisions"] = [revision_view(plan, r, "") for r in plan.history.revisions_by_step.get(step.index, ())]
    return view


def _scores_context(plan: GamePlan, players: list[str], chosen: list[Step], first: bool) -> dict[str, Any]:
    rows = [{"step": step_view(plan, s, ""), "scores": [s.scores.get(p) for p in players],
             "deltas": [sum(d.points for d in s.deltas if d.player == p) for p in players]} for s in chosen]
    return {"players": players, "rows": rows, "chart": score_chart(plan.replay) if first else None}


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


def _game_data(plan: GamePlan) -> dict[str, Any]:
    """What the as-of and comparison pages need in the browser: every version once, with its span."""
    replay = plan.replay
    return {
        "entries": [[s.label, s.entry.date.isoformat() if s.entry.date else "", plan.entry_anchor(s)] for s in replay.steps],
        "versions": [[v.identity, v.number, v.rule_class, v.title, v.text, str(render_markdown(v.text)), v.start,
                      v.end if v.end is not None else -2, plan.rule_page(v.identity)] for v in replay.versions],
    }


def _feed_context(plan: GamePlan) -> dict[str, Any]:
    steps = plan.history.proposal_steps[-50:][::-1]
    updated = max((s.entry.date for s in plan.replay.steps if s.entry.date), default=None)
    return {"entries": [{**_proposal_row(plan, s, ""), "summary": f"{s.entry.proposer}: {s.result or 'pending'}"}
                        for s in steps],
            "updated": updated.isoformat() if updated else "1970-01-01"}


def _search_key(plan: GamePlan) -> Iterable:
    """What the search index shows of a game (see `_search_index`)."""
    for identity, rule_history in plan.history.rules.items():
        yield identity, rule_history.last.number, rule_history.last.title, rule_history.last.text, \
            rule_history.repealed, plan.rule_page(identity)
    for step in plan.history.proposal_steps:
        yield step.entry.number, step.entry.title, step.entry.proposer, step.result, step.entry.body, \
            plan.entry_anchor(step)


def _search_index(games: list[GamePlan]) -> list[dict[str, str]]:
    index = []
    for plan in games:
        title = plan.replay.game.config.title
        for identity, rule_history in sorted(plan.history.rules.items(), key=lambda kv: kv[1].last.number):
            last = rule_history.last
            index.append({"t": f"Rule {last.number}" + (f": {last.title}" if last.title else "")
                          + (" (repealed)" if rule_history.repealed else ""),
                          "g": title, "u": f"{plan.slug}/{plan.rule_page(identity)}", "x": " ".join(last.text.split())[:600]})
        for step in plan.history.proposal_steps:
            entry = step.entry
            index.append({"t": f"Proposal {entry.number}" + (f": {entry.title}" if entry.title else ""),
                          "g": title, "u": f"{plan.slug}/{plan.entry_anchor(step)}",
                          "x": f"{entry.proposer} {step.result or ''} " + " ".join(entry.body.split())[:400]})
    return index
