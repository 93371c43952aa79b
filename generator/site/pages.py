"""The plan of a site: every page, its template, its context, and what it depends on.

A page's `deps` is a small value that changes exactly when the page's output would: its context as given, and
what its `lazy` part reads; the server compares them between rebuilds and re-renders only the pages whose
inputs moved (one proposal edit does not redraw every rule page), and a build compares their digests with the
site's manifest. `plan_game` plans every page of a game from its plan alone, part by part (`game_parts`); serve
plans a part again only when what it read moved (site/keyed.py).
"""
from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from ..cache import Cache, digest
from ..engine.adoption import describe
from ..engine.replay import Replay, Step
from ..engine.rulebook import RuleVersion
from ..engine.solitaire import SolitaireReplay
from ..engine.turns import ordered
from ..model import Event, Judgment, Proposal, Unrecorded
from ..model.dice import dice_in_words
from ..model.formula import SCORING_NAMES, compile_formula
from ..model.points import page_names
from .charts import score_chart
from .compare_pages import compare_pages
from .history import GameHistory, RuleHistory
from .markdown import demote_headings, entry_html, render_markdown, render_prose
from .points import bucket_of, points_parts
from .search import (SearchIndex, documents_from_entries, games_page, plan_documents, search_pages,
                     stored_search_pages)
from .solitaire_pages import solitaire_site
from .views import (END, ENTRY_LISTS, LOG_PART, OLD_NUMBERS, RECORD, SCORE, SETTINGS, TABLE_PART, GamePages, GamePlan, Page,
                    case_example, date_text, game_view, log_anchor, pager, pager_read, part_name, parts, point_name,
                    power_text, revision_view, rule_read, step_facts, step_view, version_view)

SITE_TITLE = "Nomic archives"
CLASS_ORDER = ("immutable", "mutable")
DEFEATED = ("defeated", "withdrawn", "invalid", "failed-quorum")
FEED_ENTRIES = 50  # the feed's latest proposals (the game's page shows fewer of them)


def game_plan(replay: Replay, earlier: GamePlan | None = None, history: GameHistory | None = None,
              names: dict[int, str] | None = None) -> GamePlan:
    """The plan of a game, made from its replay; `earlier`, a plan of an earlier replay of it, lends what is
    kept by the inputs it was made from: its memo (views.PlanMemo), its search index, which the new one
    patches where its documents are the same (search.SearchIndex.of compares them), and its comparison pages'
    pair views, each taken again only for the same rule versions and redline (compare_pages.comparison_view).
    `history` and `names` (the proposals' page names), when keyed.replan has them already: it plans only a few
    parts, so the memo is then lent whole, not only what this plan uses."""
    whole = history is None
    history = GameHistory(replay) if history is None else history
    if names is None:
        names = page_names((step.index, step.entry.name) for step in history.proposal_steps)
    plan = GamePlan(replay, history, replay.game.slug, proposal_pages=names)
    if earlier is not None:
        plan.memo, plan.search_index, plan.pair_views = earlier.memo, earlier.search_index, earlier.pair_views
        plan.documents_made = earlier.documents_made
        if whole:
            plan.memo.turn()
    return plan


def plan_site(replays: list[Replay | SolitaireReplay], *, site_title: str = SITE_TITLE,
              base_url: str = "", store: Cache | None = None, jobs: int = 1) -> list[Page]:
    """Every page of the site. `base_url` (optional) makes sitemap and feed addresses absolute; `store`, the
    cache a build keeps, lends what an earlier build planned from the same inputs (the search index); `jobs`:
    the cores to plan on (forking: only where no other thread runs)."""
    games: list[GamePlan | SolitaireGame] = []
    pages: list[Page] = []
    for replay in replays:
        if isinstance(replay, SolitaireReplay):  # seed 000 plays turns, not proposals: pages of its own
            game = solitaire_game(replay)
            games.append(game)
            pages.extend(game.pages)
        else:
            plan = game_plan(replay)
            plan.store, plan.jobs = store, jobs
            games.append(plan)
            pages.extend(plan_game(plan))
    return pages + site_pages(games, pages, site_title=site_title, base_url=base_url)


def solitaire_game(replay: SolitaireReplay) -> SolitaireGame:
    """A solitaire game's pages (solitaire_pages.py's, and its search index) and its summary."""
    game_pages, summary, entries = solitaire_site(replay)
    slug, title = replay.game.slug, replay.game.config.title
    pages = game_pages + search_pages(slug, title, documents_from_entries(slug, entries))
    return SolitaireGame(slug, summary, pages)


def sitemap_paths(pages: list[Page]) -> list[str]:
    """The pages of a game that a sitemap lists: its HTML pages, not the stubs of old rule numbers."""
    return [p.path for p in pages if p.kind == "html" and not p.stub]


@dataclass
class SolitaireGame:
    """A solitaire game as the site takes it: its pages (solitaire_pages.py's) and its summary."""

    slug: str
    summary: dict[str, Any]
    pages: list[Page]


def site_pages(games: list[GamePlan | SolitaireGame], game_pages: list[Page], *, site_title: str,
               base_url: str, sitemap: Iterable[str] | None = None) -> list[Page]:
    """The pages above the games (index, 404, the list of games a widened search looks in, the sitemap when
    the site's address is known), and the site's title and address on every page of `game_pages` too.
    `sitemap`: the games' pages it lists, when `game_pages` are not all of them (see `sitemap_paths`)."""
    summaries = [g.summary if isinstance(g, SolitaireGame) else _game_summary(g) for g in games]
    pages = [Page("index.html", "index.html", {"games": summaries}, deps=json.dumps(summaries, sort_keys=True)),
             games_page([(g.slug, g.summary["title"] if isinstance(g, SolitaireGame) else g.replay.game.config.title)
                         for g in games])]
    if base_url and not base_url.endswith("/"):
        base_url += "/"
    if base_url:  # a sitemap's <loc>s must be absolute: without the site's address there is none
        listed = tuple(sorted(sitemap_paths(game_pages) if sitemap is None else sitemap) + ["index.html"])
        pages.append(Page("sitemap.xml", "sitemap.xml", {"paths": listed}, kind="xml", deps=listed))
    # A host serves 404.html at any missing address, at any depth: its links start from the site's
    # address, or from the host's root without one.
    pages.append(Page("404.html", "404.html", {"root": base_url or "/"}, deps="404"))
    for page in game_pages + pages:
        page.context.setdefault("site_title", site_title)
        page.context.setdefault("base_url", base_url)
        if page.kind == "xml" or page.path == "404.html":  # the pages that use the site's address
            page.deps = (page.deps, base_url)
    return pages


def _game_summary(plan: GamePlan) -> dict[str, Any]:
    replay, game = plan.replay, plan.replay.game
    return {**game_view(replay), "findings": len(replay.findings),
            "players": list(replay.steps[-1].players if replay.steps else game.config.players),
            "proposals": len(plan.history.proposal_steps), "rules": len(plan.history.in_force()),
            "winner": list(replay.winner), "variant": game.config.variant,
            "first": replay.steps[0].entry.date.isoformat() if replay.steps and replay.steps[0].entry.date else "",
            "last": replay.steps[-1].entry.date.isoformat() if replay.steps and replay.steps[-1].entry.date else ""}


def plan_game(plan: GamePlan) -> list[Page]:
    """Every page of one game: its parts' (`game_parts`), the search index's last (a build indexes anew on a
    worker while this process plans the rest)."""
    pages = GamePages(plan)

    def plan_the_rest() -> None:
        for maker, argument in game_parts(plan):
            maker(pages, argument)
    pages.extend(_search_pages(plan, beside=plan_the_rest))
    return pages


# A part of a game's plan: a function that adds a few pages for one argument (a proposal's place, a rule, a
# part of a list). serve makes each part again only when what it read moved (site/keyed.py).
Part = tuple[Callable[[GamePages, Any], None], Any]


def game_parts(plan: GamePlan) -> list[Part]:
    """The parts of a game's plan but its search index, in the order its pages are planned."""
    history = plan.history
    return ([(_rules_in_force, None), (_repealed_page, None), (_summary_pages, None), (_players_page, None)]
            + [(_rule_page, identity) for identity in history.rules] + [(_redirect_pages, None)]
            + [(_proposal_page, position) for position in range(len(history.proposal_steps))]
            + [(_log_part, part) for part in range(_parts_of(plan, "log"))]
            + [(_table_part, part) for part in range(_parts_of(plan, "index"))]
            + ([(_scores_part, part) for part in range(_parts_of(plan, "scores"))] if game_view(plan.replay)["scores"]
               else [])
            + [(_defeated_part, part) for part in range(_parts_of(plan, "defeated"))]
            + [(_as_of_page, None), (_compare_pages, None)] + points_parts(plan))


def _parts_of(plan: GamePlan, stem: str) -> int:
    entries, size, _ = _entry_list(plan, stem)
    return len(parts(len(entries), size))


def search_part(pages: GamePages, _: Any) -> None:
    """The search index's pages (serve indexes anew at every save, patching the last index)."""
    pages.extend(_search_pages(pages.plan))


def _search_pages(plan: GamePlan, beside: Callable[[], None] = lambda: None) -> list[Page]:
    """The search index's pages, and `beside` done first or (a build indexing anew) while a worker indexes."""
    if plan.store is not None:
        return stored_search_pages(plan, plan.store, beside)
    beside()
    plan.search_index = SearchIndex.of(plan.slug, plan.replay.game.config.title, plan_documents(plan),
                                       plan.search_index)
    return plan.search_index.pages


def _rules_in_force(pages: GamePages, _: Any) -> None:
    """The rules in force, by class, and (format 1.1) by power."""
    plan = pages.plan
    plan.read(END)  # (a rule enacted at the end is in force)
    in_force = plan.history.in_force()
    in_force_key = tuple(plan.version_key(v) for v in in_force)
    powered = any(v.power is not None for v in in_force)
    # by_power: None where rules have no power (no switch between the two views)
    pages.add("rules/index.html", "rules.html", {"heading": "Rules in force", "by_power": False if powered else None},
              in_force_key, lazy=lambda: {"classes": [(cls, [version_view(v, "../", plan) for v in in_force
                                                              if v.rule_class == cls]) for cls in CLASS_ORDER]})
    if powered:  # format 1.1: the same rules grouped by power, the highest first
        powers = sorted({v.power for v in in_force if v.power is not None}, reverse=True)
        pages.add("rules/by-power.html", "rules.html", {"heading": "Rules in force by power", "by_power": True},
                  in_force_key, lazy=lambda: {"classes": [
                      (power_text(p), [version_view(v, "../", plan) for v in in_force if v.power == p])
                      for p in powers]})


def _repealed_page(pages: GamePages, _: Any) -> None:
    plan = pages.plan
    plan.read(END)  # (a rule repealed at the end is listed)
    repealed = plan.history.repealed()
    # What each row shows: the rule's last version (number, title, page), its numbers, the entry that
    # repealed it (as lists show it); the rows themselves are made only when the page is drawn.
    pages.add("repealed.html", "repealed.html", {},
              tuple((plan.version_key(h.last), tuple(h.lineage), plan.listed_key(plan.replay.steps[h.last.end]))
                    for h in repealed),
              lazy=lambda: {"rules": [_repealed_row(plan, h) for h in repealed]})


def _summary_pages(pages: GamePages, _: Any) -> None:
    """The pages that sum up the whole game: its page and feed (the latest proposals) and the verification
    report. What they show is given whole in their context: serve makes them at every save."""
    plan = pages.plan
    pages.add("index.html", "game.html", _overview(plan))
    pages.add("check.html", "check.html", _check_context(plan))
    pages.add("feed.xml", "feed.xml", _feed_context(plan), kind="xml")


def _players_page(pages: GamePages, _: Any) -> None:
    pages.plan.read(END)
    pages.plan.read(SETTINGS)
    pages.add("players.html", "players.html", _players_context(pages.plan))


def _rule_page(pages: GamePages, identity: int) -> None:
    plan = pages.plan
    rule_history = plan.history.rules[identity]
    annotations = plan.annotations.get(identity, ())
    plan.read(rule_read(identity))
    deps = (tuple((plan.version_key(v), v.start, v.end) for v in rule_history.versions),
            plan.rule_page(identity),
            tuple(plan.listed_key(r.step) for r in plan.history.revisions_by_rule[identity] if r.step),
            plan.rule_notes.get(identity),
            tuple((change.text, plan.listed_key(plan.replay.steps[index])) for change, index in annotations))
    pages.add(plan.rule_page(identity), "rule.html", {}, deps,
              lazy=lambda: _rule_context(plan, rule_history), affinity=bucket_of(identity))


def _redirect_pages(pages: GamePages, _: Any) -> None:
    """A small page for each number a rule once had: it sends the reader to the rule's page. The pages of one
    rule's old numbers say the same (the numbers are in its lineage, and whether the rule was repealed), so
    they are one file (see render_all)."""
    history = pages.plan.history
    pages.plan.read(OLD_NUMBERS)
    for number, identity in sorted(history.old_numbers().items()):
        target = history.rules[identity]
        context = {"target": f"{history.page_number[identity]}.html", "lineage": target.lineage,
                   "now": target.last.number, "repealed": target.repealed}
        pages.add(f"rules/{number}.html", "redirect.html", context, stub=True, affinity=bucket_of(identity))


def _proposal_page(pages: GamePages, position: int) -> None:
    plan = pages.plan
    proposal_steps = plan.history.proposal_steps
    step = proposal_steps[position]
    previous = proposal_steps[position - 1] if position else None
    following = proposal_steps[position + 1] if position + 1 < len(proposal_steps) else None
    revisions = plan.history.revisions_by_step.get(step.index, ())
    decisions = plan.decisions.get(step.entry.number, ())
    deps = (plan.step_key(step), tuple((plan.version_key(r.before), plan.version_key(r.after)) for r in revisions),
            previous and plan.listed_key(previous), following and plan.listed_key(following),
            tuple(plan.listed_key(other) for other in decisions))
    if following is None:
        plan.read(END)
    pages.add(f"proposals/{plan.proposal_pages[step.index]}.html", "proposal.html",
              {"points": (point_name(plan, step.index - 1), point_name(plan, step.index))}, deps,
              lazy=lambda: _proposal_context(plan, step, previous, following),
              affinity=bucket_of((revisions[0].after or revisions[0].before).identity) if revisions else None)


# The pages that list every entry, each long list cut into parts. Each part's deps are what it shows of each
# step: all of it for the log, its listing elsewhere.

def _log_part(pages: GamePages, part: int) -> None:
    plan = pages.plan
    replay, history = plan.replay, plan.history
    chosen, navigation = _list_part(plan, "log", part)
    changes = tuple(tuple((plan.version_key(r.before), plan.version_key(r.after))
                          for r in history.revisions_by_step.get(s.index, ())) if not isinstance(s.entry, Proposal)
                    else () for s in chosen)
    pages.add(part_name("log", part), "log.html", {"pager": navigation},
              (replay.game.log.preamble if part == 0 else None, tuple(plan.step_key(s) for s in chosen), changes),
              lazy=lambda: {"entries": [_log_entry(plan, s) for s in chosen],
                            "preamble": render_prose(replay.game.log.preamble, 2) if part == 0 else ""})


def _table_part(pages: GamePages, part: int) -> None:
    plan = pages.plan
    chosen, navigation = _list_part(plan, "index", part)
    # Numbers used of which the record holds nothing (format 1.2), listed on the first part
    unrecorded = []
    if part == 0:
        plan.read(END)
        unrecorded = [{"numbers": s.entry.numbers_text, "date": date_text(s.entry), "url": f"../{plan.entry_anchor(s)}"}
                      for s in plan.replay.steps if isinstance(s.entry, Unrecorded)]
    pages.add(f"proposals/{part_name('index', part)}", "proposals.html",
              {"heading": "All proposals", "pager": navigation, "unrecorded": unrecorded},
              tuple(plan.listed_key(s) for s in chosen),
              lazy=lambda: {"rows": [_proposal_row(plan, s, "../") for s in chosen]})


def _scores_part(pages: GamePages, part: int) -> None:
    """A part of the table of every entry that changed a score, the first with the chart (a game decided by
    votes alone has no scores page)."""
    plan = pages.plan
    players = scored_players(plan.replay)
    chosen, navigation = _list_part(plan, "scores", part)
    rows_key = tuple((plan.listed_key(s), plan.score_key(s)) for s in chosen)
    chart_key = None
    if part == 0:
        plan.read(END)
        plan.read(SETTINGS)  # (the winning score)
        steps, scored = plan.replay.steps, _entry_list(plan, "scores")[0]
        # (charts.score_chart: the entries that paid points, and the last entry)
        plan.read_entries(SCORE, [step.index for step in scored])
        chart_key = (tuple(sorted(plan.replay.initial_scores.items())),
                     plan.replay.mechanics.scoring.win if steps else None,
                     tuple(plan.summaries("chart", scored, lambda _, run: digest(repr(
                         [(s.index, s.label, plan.score_key(s)) for s in run])))),
                     steps and (steps[-1].index, steps[-1].label, plan.score_key(steps[-1])))
    pages.add(part_name("scores", part), "scores.html", {"pager": navigation}, (tuple(players), rows_key, chart_key),
              lazy=lambda: _scores_context(plan, players, chosen, part == 0))


def _defeated_part(pages: GamePages, part: int) -> None:
    plan = pages.plan
    chosen, navigation = _list_part(plan, "defeated", part)
    pages.add(part_name("defeated", part), "defeated.html", {"pager": navigation},
              tuple(plan.listed_key(s) for s in chosen),
              lazy=lambda: {"rows": [_proposal_row(plan, s, "") for s in chosen]})


def _entry_list(plan: GamePlan, stem: str) -> tuple[Sequence[Step], int, Callable[[int], str]]:
    """A list of entries whose pages (named by `stem`) show it in parts: its entries, how many a part shows, and
    how the pager names the entry at a place."""
    if stem == "log":
        entries, size = plan.replay.steps, LOG_PART
    elif stem == "index":
        entries, size = plan.history.proposal_steps, TABLE_PART
    elif stem == "scores":  # the entries that changed a score (or whose scores a Judge set)
        entries = plan.once("scored", lambda: [s for s in plan.replay.steps if s.deltas or s.overrides])
        size = TABLE_PART
    else:
        entries, size = plan.once("defeated", lambda: [s for s in plan.history.proposal_steps
                                                       if s.result in DEFEATED]), TABLE_PART
    if stem in ("log", "scores"):
        return entries, size, lambda i: entries[i].label
    return entries, size, lambda i: str(entries[i].entry.name)


def _list_part(plan: GamePlan, stem: str, part: int) -> tuple[Sequence[Step], list[dict[str, Any]]]:
    """The entries a part of a list shows, and its pager. A list grows at its end: every part reads the labels of
    the list's parts, and the last part where the log ends."""
    entries, size, label = _entry_list(plan, stem)
    ranges = parts(len(entries), size)
    plan.read(pager_read(stem))
    if part == len(ranges) - 1:
        plan.read(END)
    return entries[ranges[part].start:ranges[part].stop], pager(stem, ranges, part, label, growing=True)


def list_pagers(plan: GamePlan) -> dict[str, tuple[str, ...]]:
    """What the pager of each list of entries shows, by its pages' stem: the parts, each named by its entries."""
    pagers = {}
    for stem in ENTRY_LISTS:
        entries, size, label = _entry_list(plan, stem)
        pagers[stem] = tuple(p["label"] for p in pager(stem, parts(len(entries), size), -1, label, growing=True))
    return pagers


def _as_of_page(pages: GamePages, _: Any) -> None:
    # (it draws in the browser from the points pieces)
    pages.add("as-of.html", "as-of.html", {"case_example": case_example(pages.plan)})


def _compare_pages(pages: GamePages, _: Any) -> None:
    pages.plan.read(END)  # (they compare with the rules now)
    pages.extend(compare_pages(pages.plan))


# The parts that read the whole game (sums over every entry, the latest entries): serve plans them at every save.
WHOLE_GAME_PARTS = frozenset({_summary_pages, search_part})


def _overview(plan: GamePlan) -> dict[str, Any]:
    replay = plan.replay
    game = replay.game
    last = replay.steps[-1] if replay.steps else None
    config = replay.mechanics
    scores = sorted((last.scores if last else replay.initial_scores).items(), key=lambda kv: (-kv[1], kv[0]))
    recent = [_proposal_row(plan, s, "") for s in plan.history.proposal_steps[-10:]][::-1]
    return {
        "scores": scores, "winner": list(replay.winner), "players": list(last.players if last else game.config.players),
        # a game that goes on after a win (format 1.2, after_win = "reset"): each win
        "wins": [{**step_view(plan, replay.steps[index], ""), "winners": list(winners)} for index, winners in replay.wins],
        "next_player": last.next_player if last else None, "circuits": last.circuits if last else 0,
        "preamble": str(render_prose(game.log.preamble, 3)), "recent": recent,
        "counts": {"proposals": len(plan.history.proposal_steps), "rules": len(plan.history.in_force()),
                   "repealed": len(plan.history.repealed()), "findings": len(replay.findings)},
        "mechanics": _mechanics(config, replay, plan.history.in_force()), "start": game.config.start.isoformat() if game.config.start else "",
        "variant": game.config.variant,
    }


def _mechanics(config, replay: Replay, in_force: list[RuleVersion]) -> list[tuple[str, str]]:
    """The mechanics in force at the end of the log, in a player's words (rules by their present number;
    `in_force`: the rules in force then)."""
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
    if adoption.transmutation != adoption.method and any(v.rule_class == "immutable" for v in in_force):
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
    before, kept = plan.rule_notes.get(rule_history.identity, ((), ()))
    annotations = [{"html": render_markdown(text), "by": None} for text in kept]
    annotations += [{"html": render_markdown(change.text), "by": step_view(plan, plan.replay.steps[index], "../")}
                    for change, index in plan.annotations.get(rule_history.identity, ())]
    return {"rule": version_view(last, "../", plan), "repealed": rule_history.repealed, "repealed_by": repealed_by,
            "lineage": rule_history.lineage, "revisions": revisions, "before": list(before),
            "annotations": annotations,
            "original": version_view(rule_history.versions[0], "../", plan),
            "has_redline": any(r["kind"] != "initial" for r in revisions)}


def _votes_view(entry: Proposal) -> dict[str, Any] | None:
    if entry.votes is None:
        return None
    votes = entry.votes
    return {"for": list(votes.for_), "against": list(votes.against), "abstain": list(votes.abstain),
            "present": votes.present, "ballots": votes.ballots() if votes.strengths is not None else [],
            "tally": votes.counts and (f"{votes.counts[0]} for, {votes.counts[1]} against, {votes.counts[2]} "
                                       + ("present" if votes.present else "abstaining"))}


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
        "proposal": {"number": entry.name, "title": entry.title, "proposer": entry.proposer,
                     "date": entry.date.isoformat() if entry.date else "", "votes": _votes_view(entry),
                     "recorded": entry.result.result if entry.result else None, "die": entry.die.total if entry.die else None,
                     "extra": entry.extra_turn, "notes": list(entry.notes), "file": entry.source.file},
        "step": step_facts(step),
        "decision": _decision_view(step),
        "body": _body_html(plan, step),
        "revisions": revisions,
        "previous": step_view(plan, previous, "../") if previous else None,
        "next": step_view(plan, following, "../") if following else None,
        "decisions": [{**step_view(plan, other, "../"), "name": other.entry.name, "this": other is step}
                      for other in plan.decisions.get(entry.number, ())],
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
    elif isinstance(entry, Event):
        view["players"] = [f"{c.player} → {c.renamed_to}" if c.renamed_to else ("+" if c.joins else "-") + c.player
                           for c in entry.players]
    elif isinstance(entry, Proposal):  # its text with the keeper's commentary, as events and judgments show theirs
        view["proposer"] = entry.proposer
    view["by"] = getattr(entry, "by", "")
    view["body"] = demote_headings(_body_html(plan, step), 3)
    if not isinstance(entry, Proposal):  # what a judgment or event changed shows here: it has no page of its own
        view["revisions"] = [revision_view(plan, r, "") for r in plan.history.revisions_by_step.get(step.index, ())]
    return view


def _body_html(plan: GamePlan, step: Step) -> Markup:
    html = plan.body_html.get(step.index)
    return html if html is not None else entry_html(step.entry.body)


def _scores_context(plan: GamePlan, players: list[str], chosen: list[Step], first: bool) -> dict[str, Any]:
    rows = [{"step": step_view(plan, s, ""), "scores": [s.scores.get(p) for p in players],
             "deltas": [sum(d.points for d in s.deltas if d.player == p) for p in players]} for s in chosen]
    return {"players": players, "rows": rows, "chart": score_chart(plan.replay, plan.summaries) if first else None}


def _check_context(plan: GamePlan) -> dict[str, Any]:
    """The verification report: each finding links to its entry's page (or log anchor), and one that stems
    from an earlier slip links to that slip's entry."""
    replay = plan.replay
    proposals = len(plan.history.proposal_steps)
    url_of = {id(f): plan.entry_anchor(s) for s in replay.steps for f in s.findings}
    url_at = {f"{f.file}:{f.line}": url_of[id(f)] for f in replay.findings if id(f) in url_of}
    return {"findings": [{"kind": f.kind, "where": f"{f.file}:{f.line}", "entry": f.entry, "message": f.message,
                          "expected": f.expected, "found": f.found, "url": url_of.get(id(f)),
                          "cause": f.cause and str(f.cause), "cause_url": url_at.get(str(f.cause))}
                         for f in replay.findings],
            "overrides": [{"judgment": o.judgment, "what": o.what, "computed": o.computed, "set": o.set_to,
                           "where": f"{o.file}:{o.line}"} for o in replay.overrides],
            "proposals": proposals, "entries": len(replay.steps), "winner": list(replay.winner),
            "snapshots": [s.source.file for s in replay.game.snapshots]}


def scored_players(replay: Replay) -> list[str]:
    """Every player ever scored, by name: the last step's scores name them all (scores gain players, never
    lose one)."""
    return sorted(set(replay.initial_scores) | set(replay.steps[-1].scores if replay.steps else ()))


def renames(replay: Replay) -> dict[str, str]:
    """Each name a player gave up (format 1.2, `Players: Jason -> Janet`) -> the name they go by now."""
    now: dict[str, str] = {}
    for step in replay.steps:
        if isinstance(step.entry, Event):
            for change in step.entry.players:
                if change.renamed_to and change.renamed_to in step.players:  # (not a stranger's, a finding)
                    now.update({old: change.renamed_to for old, new in now.items() if new == change.player})
                    now[change.player] = change.renamed_to
    return now


def _players_context(plan: GamePlan) -> dict[str, Any]:
    """Each player's record (proposals made, adopted and defeated, ballots cast, wins, score), by name without
    regard to case; a renamed player under the name they go by now."""
    replay = plan.replay
    last = replay.steps[-1] if replay.steps else None
    current = renames(replay)
    names = sorted({current.get(name, name) for name in scored_players(replay)}, key=lambda n: (n.casefold(), n))
    stats = {name: {"name": name, "formerly": sorted(old for old, new in current.items() if new == name),
                    "proposed": 0, "adopted": 0, "defeated": 0, "ballots": 0, "wins": 0, "score": 0, "playing": False}
             for name in names}
    plan.read_entries(RECORD, range(len(replay.steps)))
    won: tuple[str, ...] = ()
    for counts, first_winner, winners, last_winner in plan.summaries("records", replay.steps,
                                                                      lambda _, run: _records(plan, run)):
        for count, by_name in zip(("proposed", "adopted", "defeated", "ballots"), counts):
            for name, times in by_name.items():
                if (stat := stats.get(current.get(name, name))) is not None:
                    stat[count] += times
        for winner in ([first_winner] if first_winner and first_winner != won else []) + winners:
            for name in winner:
                if (stat := stats.get(current.get(name, name))) is not None:
                    stat["wins"] += 1
        won = last_winner
    if last:
        plan.score_key(last)
    for name in names:
        stats[name]["score"] = str((last.scores if last else replay.initial_scores).get(name, 0))
        stats[name]["playing"] = name in (last.players if last else replay.game.config.players)
    # The order the engine follows at the end of the log (none: a game without turns).
    order = list(last.order) if last else ordered(list(replay.game.config.players), replay.game.config.turns.order,
                                                  replay.game.config.turns.collation)
    return {"players": [stats[n] for n in names], "order": order if replay.game.config.turns.order != "none" or last
            else []}


def _records(plan: GamePlan, run: tuple[Step, ...]) -> tuple[tuple[Counter, ...], tuple, list[tuple], tuple]:
    """What the players page counts of a run of entries, by name as written: the proposals each player made,
    adopted and defeated and the ballots each cast; who had won after its first entry (a win declared unless the
    run before ends with the same), the winners declared after its other entries, and who had won after its last."""
    proposed, adopted, defeated, ballots = Counter(), Counter(), Counter(), Counter()
    records = list(map(plan.record_key, run))
    for proposer, result, voters, _ in records:
        if proposer is not None:
            proposed[proposer] += 1
            if result in ("adopted", "defeated"):
                (adopted if result == "adopted" else defeated)[proposer] += 1
        ballots.update(voters)
    winners = [record[3] for record in records]
    declared = [winner for before, winner in zip(winners, winners[1:]) if winner and winner != before]
    return (proposed, adopted, defeated, ballots), winners[0], declared, winners[-1]


def _feed_context(plan: GamePlan) -> dict[str, Any]:
    steps = plan.history.proposal_steps[-FEED_ENTRIES:][::-1]
    updated = plan.latest_date()
    return {"entries": [{**_proposal_row(plan, s, ""), "summary": f"{s.entry.proposer}: {s.result or 'pending'}"}
                        for s in steps],
            "updated": updated.isoformat() if updated else "1970-01-01"}
