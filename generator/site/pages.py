"""A site's pages: each game's listing (`list_game`), the maker of each kind of page, and the pages above the
games (`top_pages`).

Listing a game's pages is cheap: a page's context that costs anything is made only when the page is drawn. A
build draws them all, and serve draws the one a browser asks for.
"""
from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import compress
from operator import is_
from typing import Any


from ..cache import Cache
from ..engine.adoption import describe
from ..engine.notes import replay_notes, unread_change
from ..engine.replay import Replay, Step, annotation_spans
from ..engine.rulebook import RuleVersion
from ..engine.solitaire import SolitaireReplay
from ..engine.words import ORDER_WORDS
from ..model import Event, Judgment, Proposal, Unrecorded
from ..model.config import sections_on
from ..model.dice import dice_in_words
from ..model.formula import SCORING_NAMES, compile_formula
from ..model.points import page_names
from ..model.urls import RESERVED
from .charts import score_chart
from .compare_pages import list_compare_pages
from .history import GameHistory, RuleHistory, RuleIndex
from .markdown import demote_headings, entry_html, render_inline, render_markdown, render_prose
from .people import scored_players
from .player_pages import list_player_pages, players_context
from .points import bucket_of, list_points_pages
from .report_pieces import END_FILES, list_report_pages
from .ruleset_text import history_lines, recorded_history
from .search import (documents_from_entries, games_page, plan_documents, search_pieces,
                     stored_search_pieces)
from .solitaire_pages import solitaire_site
from .paging import Pager, part_name, parts
from .views import (PROPOSAL_CITED, TABLE_PART, Listing, GamePlan, Maker, Memo, Page, case_example, date_text,
                    departed, game_view, history_html, keeps_scores, log_anchor, point_name, power_text,
                    proposal_number, revision_anchor, revision_view, step_facts, step_view, version_view)

SITE_TITLE = "Nomic archives"
CLASS_HEADINGS = {"immutable": "Immutable Rules", "mutable": "Mutable Rules",
                  "unrecorded": "Rules of no recorded class"}  # (format 1.3) in this order on the rules' page
DEFEATED = ("defeated", "withdrawn", "invalid", "failed-quorum")
FEED_ENTRIES = 50  # the feed's latest proposals (the game's page shows fewer of them)
EARLIER_BATCH = 100  # earlier.md's pages drawn as one batch (see _earlier_page)


def game_plan(replay: Replay, memo: Memo | None = None) -> GamePlan:
    """The plan of a game, made from its replay; `memo`, what the plans of the game before this one kept (serve's,
    from save to save), each value under what it was made from: the rules' index under the replay's versions
    (the very tuple the replay before had, when an edit changed no rule), the proposals' page names under their
    numbers."""
    memo = memo or Memo()
    # (under the very versions it was made from: the next index follows from it by their identity, so versions
    # equal to them but others, as a replay from the start makes, make one of their own)
    index = memo.last("rule index", replay.versions, lambda versions: RuleIndex(versions, memo.kept("rule index")),
                      same=_same_objects)
    named = memo.each("proposal names", replay.steps, _proposal_name)
    history = GameHistory(replay, index, list(compress(replay.steps, named)))
    names = memo.last("proposal pages", tuple(filter(None, named)), page_names)
    return GamePlan(replay, history, replay.game.slug, proposal_pages=names, memo=memo)


def _same_objects(these: Sequence[Any], those: Sequence[Any]) -> bool:
    return len(these) == len(those) and all(map(is_, these, those))


def site_game(replay: Replay | SolitaireReplay, *, site: dict[str, str], memo: Memo | None = None,
              store: Cache | None = None) -> SiteGame:
    """A game as the site takes it: its listing (a solitaire game's pages are solitaire_pages.py's), each page
    made when asked for, with `site` (its title and address) in its context; its search index's pieces (made
    when asked for: serve makes them only when a reader searches); and what the site's index says of it."""
    if isinstance(replay, SolitaireReplay):  # seed 000 plays turns, not proposals: pages of its own
        made, summary, entries = solitaire_site(replay)
        slug, title = replay.game.slug, replay.game.config.title
        listing = Listing(slug, site)
        for page in made:
            listing.add_made(page)
        return SiteGame(slug, title, listing, lambda: summary,
                        lambda: search_pieces(slug, title, documents_from_entries(slug, entries)),
                        replay.game.former_slugs)
    plan = game_plan(replay, memo)
    plan.store = store
    listing = Listing(plan.slug, {"game": game_view(replay, plan.history), **site}, plan)
    list_game(listing)
    return SiteGame(plan.slug, replay.game.config.title, listing, lambda: _game_summary(plan),
                    lambda: _search_pieces(plan), replay.game.former_slugs)


@dataclass
class SiteGame:
    slug: str
    title: str
    listing: Listing  # every page but its search index's pieces
    summary: Callable[[], dict[str, Any]]  # what the site's index shows of it
    search_pieces: Callable[[], list[Page]]  # its search index's pieces, made
    former_slugs: tuple[str, ...] = ()  # the addresses sites built before gave it (Game.former_slugs)


def moved_addresses(games: list[SiteGame]) -> dict[str, SiteGame]:
    """Each address a game had on sites built before (its folder's name slugged otherwise) that the site keeps
    working: not one a game has now or the site's own files use, and not one two games had (they were refused as
    one address: no site was built with either)."""
    taken = {game.slug for game in games} | RESERVED
    had = Counter(former for game in games for former in game.former_slugs)
    return {former: game for game in games for former in game.former_slugs if former not in taken and had[former] == 1}


def moved_page(page: Page, former: str, title: str) -> Page | None:
    """A game's `page` at the game's former address `former`: for an HTML page a small page that sends the reader
    on to it (as an old rule number's page does), for a feed or a text report the same file; None for a data
    piece, which only the game's own pages load."""
    path = former + page.path[page.path.index("/"):]
    if page.kind == "js":
        return None
    if page.kind != "html":
        return dataclasses.replace(page, path=path)
    return Page(path, "moved.html", {"target": "../" * page.depth + page.path, "title": title}, stub=True)


def sitemap_paths(pages: list[Page]) -> list[str]:
    """The pages of a game that a sitemap lists: its HTML pages, not the stubs of old rule numbers."""
    return [p.path for p in pages if p.kind == "html" and not p.stub]


def top_pages(games: list[SiteGame], listed_game_pages: Callable[[], list[Page]], *,
              site: dict[str, str], unreadable: Iterable[dict[str, Any]] = ()) -> list[Page]:
    """The pages above the games: the index, 404, the list of games a widened search looks in, and the sitemap
    of `listed_game_pages()` when the site's address is known. `unreadable`: serve's games it cannot read, each
    listed on the index with its problems (`slug`, `title`, `problems`)."""
    pages = [Page("index.html", "index.html", {**site, "unreadable": list(unreadable)},
                  lazy=lambda: {"games": [game.summary() for game in games]}),
             games_page([(game.slug, game.title) for game in games])]
    if site["base_url"]:  # a sitemap's <loc>s must be absolute: without the site's address there is none
        pages.append(Page("sitemap.xml", "sitemap.xml", {**site}, kind="xml",
                          lazy=lambda: {"paths": sorted(sitemap_paths(listed_game_pages())) + ["index.html"]}))
    # A host serves 404.html at any missing address, at any depth: its links start from the site's
    # address, or from the host's root without one.
    pages.append(Page("404.html", "404.html", {"root": site["base_url"] or "/", **site}))
    return pages


def _game_summary(plan: GamePlan) -> dict[str, Any]:
    replay, game = plan.replay, plan.replay.game
    return {**game_view(replay, plan.history), "findings": len(replay.findings),
            "players": list(replay.steps[-1].players if replay.steps else game.config.players),
            "proposals": replay.proposal_count.numbers, "rules": len(plan.history.in_force()),
            "winner": list(replay.winner), "variant": game.config.variant,
            "first": replay.steps[0].entry.date.isoformat() if replay.steps and replay.steps[0].entry.date else "",
            "last": replay.steps[-1].entry.date.isoformat() if replay.steps and replay.steps[-1].entry.date else ""}


def list_game(listing: Listing) -> None:
    """List every page of one game but its search index's: each path with the function that makes its page."""
    plan = listing.plan
    history = plan.history
    for view in _rule_views(plan):
        listing.add(f"rules/{RULE_VIEWS[view][0]}", _rules_in_force, view)
    listing.add("repealed.html", _repealed_page)
    listing.add("index.html", _overview_page)
    listing.add("check.html", _check_page)
    listing.add("feed.xml", _feed_page)
    listing.add("players.html", _players_page)
    list_player_pages(listing)
    # The longest parts of the listing, each made from what it lists alone: the plan before's, when that was the
    # same (the rules' index of the same versions, the same page names)
    index = history.index
    listing.update(plan.memo.last("rule paths", (plan.slug, tuple(index.rules), index.page_number,
                                                 index.old_numbers()), _rule_paths))
    listing.update(plan.memo.last("proposal paths", (plan.slug, plan.proposal_pages), _proposal_paths))
    earlier = plan.earlier()  # format 1.4: known from the record only
    for position, proposal in enumerate(earlier):
        listing.add(f"proposals/{proposal.number}.html", _earlier_page, position)
    for part in range(len(parts(len(earlier), TABLE_PART)) if earlier else 0):
        listing.add("proposals/" + part_name("earlier", part), _earlier_list_page, part)
    for stem, path in (("log", ""), ("index", "proposals/"), ("scores", ""), ("defeated", "")):
        if stem != "scores" or listing.base["game"]["scores"]:  # (a game decided by votes alone has no scores page)
            for part in range(_parts_of(plan, stem)):
                listing.add(path + part_name(stem, part), _list_page, (stem, part))
    listing.add("as-of.html", _as_of_page)
    list_compare_pages(listing)
    list_points_pages(listing)
    list_report_pages(listing)


def _rule_paths(key: tuple[str, tuple[int, ...], dict[int, str], dict[int, int]]) -> dict[str, tuple[Maker, int]]:
    """The rules' pages (each rule's identity, in order, and its page's name) and the pages of their old numbers,
    listed."""
    slug, identities, page_number, old_numbers = key
    paths = {f"{slug}/rules/{page_number[identity]}.html": (_rule_page, identity) for identity in identities}
    for number, identity in sorted(old_numbers.items()):
        paths[f"{slug}/rules/{number}.html"] = (_redirect_page, identity)
    return paths


def _proposal_paths(key: tuple[str, dict[int, str]]) -> dict[str, tuple[Maker, int]]:
    """The proposals' pages listed, each with its place among the proposals (their page names in log order)."""
    slug, names = key
    return {f"{slug}/proposals/{name}.html": (_proposal_page, position) for position, name in enumerate(names.values())}


def _parts_of(plan: GamePlan, stem: str) -> int:
    return len(_entry_list(plan, stem)[1])


def _search_pieces(plan: GamePlan) -> list[Page]:
    """The search index's pieces, a build's kept in the cache it keeps (search.stored_search_pieces)."""
    if plan.store is not None:
        return stored_search_pieces(plan, plan.store)
    return search_pieces(plan.slug, plan.replay.game.config.title, plan_documents(plan))


# The ways to read the rules in force: by number (in their classes, where a game has two), grouped by power
# (format 1.1), by the sections of the ruleset its keepers arrange (format 1.2).
RULE_VIEWS = {"number": ("index.html", "by number"), "power": ("by-power.html", "grouped by power"),
              "section": ("by-section.html", "by section")}


def _rule_views(plan: GamePlan) -> list[str]:
    config = plan.replay.game.config
    return (["number"] + (["power"] if any(v.power is not None for v in plan.history.in_force()) else [])
            + (["section"] if sections_on(config.sections) else []))


def _rules_in_force(listing: Listing, path: str, view: str) -> Page:
    """The rules in force, read one way of `RULE_VIEWS`: each group with its heading and note (none where there
    is one group, as in a game whose rules are all of one class)."""
    plan = listing.plan
    in_force = plan.history.in_force()
    views = _rule_views(plan)

    def shown(versions: list) -> list[dict[str, Any]]:
        return [version_view(v, "../", plan) for v in versions]

    def groups() -> dict[str, Any]:
        if view == "power":
            made = [(f"Power {power_text(p)}", "", shown([v for v in in_force if v.power == p]))
                    for p in sorted({v.power for v in in_force if v.power is not None}, reverse=True)]
        elif view == "section":
            by_number = {v.number: v for v in in_force}
            sections = sections_on(plan.replay.game.config.sections)  # the end's
            made = [(section.title, render_prose(section.note, 3) if section.note else "",  # under its h2
                     shown([by_number[n] for n in section.rules if n in by_number])) for section in sections]
            placed = {n for section in sections for n in section.rules}
            made.append(("Other rules", "", shown([v for v in in_force if v.number not in placed])))
        elif listing.base["game"]["classes"]:
            made = [(CLASS_HEADINGS[cls], "", shown([v for v in in_force if v.rule_class == cls]))
                    for cls in CLASS_HEADINGS]
        else:
            made = [("", "", shown(in_force))]
        return {"groups": [group for group in made if group[2]]}
    return listing.new_page(path, "rules.html", {
        "heading": "Rules in force" + (f" {RULE_VIEWS[view][1]}" if view != "number" else ""), "view": view,
        "views": [(RULE_VIEWS[other][0], RULE_VIEWS[other][1], other == view) for other in views] if len(views) > 1
        else []}, lazy=groups)


def _repealed_page(listing: Listing, path: str, _: Any) -> Page:
    plan = listing.plan
    return listing.new_page(path, "repealed.html", {},
                            lazy=lambda: {"rules": [_repealed_row(plan, h) for h in plan.history.repealed()]})


# The pages that sum up the whole game: its page and feed (the latest proposals) and the verification report.

def _overview_page(listing: Listing, path: str, _: Any) -> Page:
    return listing.new_page(path, "game.html", {}, lazy=lambda: _overview(listing.plan))


def _check_page(listing: Listing, path: str, _: Any) -> Page:
    return listing.new_page(path, "check.html", {}, lazy=lambda: _check_context(listing.plan))


def _feed_page(listing: Listing, path: str, _: Any) -> Page:
    return listing.new_page(path, "feed.xml", {}, kind="xml", lazy=lambda: _feed_context(listing.plan))


def _players_page(listing: Listing, path: str, _: Any) -> Page:
    return listing.new_page(path, "players.html", {}, lazy=lambda: players_context(listing.plan))


def _as_of_page(listing: Listing, path: str, _: Any) -> Page:
    return listing.new_page(path, "as-of.html", {}, lazy=lambda: {"case_example": case_example(listing.plan),
                                                                   "report_files": dict(END_FILES)})


def _rule_page(listing: Listing, path: str, identity: int) -> Page:
    plan = listing.plan
    return listing.new_page(path, "rule.html", {}, lazy=lambda: _rule_context(plan, plan.history.rules[identity]),
                            affinity=bucket_of(identity))


def _redirect_page(listing: Listing, path: str, identity: int) -> Page:
    """A small page for a number a rule once had: it sends the reader to the rule's page. The pages of one
    rule's old numbers say the same (the numbers are in its lineage, and whether the rule was repealed), so
    they are one file (see draw_all)."""
    history = listing.plan.history
    target = history.rules[identity]
    context = {"target": f"{history.page_number[identity]}.html", "lineage": target.lineage,
               "now": target.last.number, "repealed": target.repealed}
    return listing.new_page(path, "redirect.html", context, stub=True, affinity=bucket_of(identity))


def _proposal_page(listing: Listing, path: str, position: int) -> Page:
    plan = listing.plan
    proposal_steps = plan.history.proposal_steps
    step = proposal_steps[position]
    previous = proposal_steps[position - 1] if position else None
    following = proposal_steps[position + 1] if position + 1 < len(proposal_steps) else None
    revisions = plan.history.revisions_by_step.get(step.index, ())
    points = (point_name(plan, step.index - 1), point_name(plan, step.index))
    affinity = bucket_of((revisions[0].after or revisions[0].before).identity) if revisions else None
    return listing.new_page(path, "proposal.html", {"points": points},
                            lazy=lambda: _proposal_context(plan, step, previous, following), affinity=affinity)


def _earlier_page(listing: Listing, path: str, position: int) -> Page:
    """Format 1.4: a proposal known only from the record (earlier.md): what the record says of it, and the rules
    whose history lines name it."""
    plan = listing.plan
    earlier = plan.earlier()
    proposal = earlier[position]

    def context() -> dict[str, Any]:
        def neighbour(other) -> dict[str, Any]:
            return {"url": f"{other.number}.html", "label": f"proposal {other.number}"}
        return {"previous": neighbour(earlier[position - 1]) if position else None,
                "next": neighbour(earlier[position + 1]) if position + 1 < len(earlier) else None,
                "list": part_name("earlier", position // TABLE_PART),
                "notes": [render_inline(note) for note in proposal.notes],
                "proposer": plan.person_view(proposal.proposer, "../") if proposal.proposer else None,
                "coauthors": [plan.person_view(name, "../") for name in proposal.coauthors],
                "text": demote_headings(render_markdown(proposal.text), 3) if proposal.text else "",
                "rules": [{"number": (last := plan.history.rules[identity].last).number, "title": last.title,
                           "url": f"../{plan.rule_page(identity)}",
                           "repealed": plan.history.rules[identity].repealed,
                           "lines": [history_html(plan, line, "../") for line in lines]}
                          for identity, lines in _rules_naming(plan, proposal.number)]}
    # (batches of their own, drawn by whichever process is free: not with the game's lists, which this process
    # draws while it makes the search index)
    return listing.new_page(path, "earlier_proposal.html", {"proposal": proposal}, lazy=context,
                            affinity=-1 - position // EARLIER_BATCH)


def _earlier_list_page(listing: Listing, path: str, part: int) -> Page:
    """Format 1.4: the proposals known only from the record, by number, in parts."""
    earlier = listing.plan.earlier()
    ranges = parts(len(earlier), TABLE_PART)
    chosen = earlier[ranges[part].start:ranges[part].stop]
    return listing.new_page(path, "earlier.html", {
        "pager": Pager("earlier", ranges, part, lambda i: str(earlier[i].number)), "count": len(earlier),
        "rows": [{"number": p.number, "title": p.title, "proposer": p.proposer, "date": p.date,
                  "url": f"{p.number}.html"} for p in chosen]})


def _list_page(listing: Listing, path: str, which: tuple[str, int]) -> Page:
    """A part of a list of entries: the log, the table of proposals, the scores (the first part with the chart),
    the defeated proposals."""
    plan = listing.plan
    stem, part = which
    entries, ranges, label = _entry_list(plan, stem)
    chosen = entries[ranges[part].start:ranges[part].stop]
    context = {"pager": Pager(stem, ranges, part, label, growing=True)}
    if stem == "log":
        return listing.new_page(path, "log.html", context, lazy=lambda: {
            "entries": [_log_entry(plan, s) for s in chosen],
            "preamble": render_prose(plan.replay.game.log.preamble, 2) if part == 0 else ""})
    if stem == "scores":
        return listing.new_page(path, "scores.html", context,
                                lazy=lambda: _scores_context(plan, scored_players(plan.replay), chosen, part == 0))
    if stem == "defeated":
        return listing.new_page(path, "defeated.html", context,
                                lazy=lambda: {"rows": [_proposal_row(plan, s, "") for s in chosen],
                                              "proposals": plan.replay.proposal_count.numbers})

    def rows() -> dict[str, Any]:
        # Numbers used of which the record holds nothing (format 1.2), listed on the first part
        unrecorded = [{"numbers": s.entry.numbers_text, "date": date_text(s.entry), "url": f"../{plan.entry_anchor(s)}"}
                      for s in plan.replay.steps if isinstance(s.entry, Unrecorded)] if part == 0 else []
        return {"rows": [_proposal_row(plan, s, "../") for s in chosen], "unrecorded": unrecorded,
                "earlier": len(plan.earlier()) if part == 0 else 0}
    return listing.new_page(path, "proposals.html", {**context, "heading": "All proposals"}, lazy=rows)


def _by_number(plan: GamePlan) -> list[Step]:
    """The proposals' steps by number, each decision taken again after the one before it (`8188`, `8188A`)."""
    return plan.once("by number", lambda: list(map(plan.history.proposal_steps.__getitem__, _number_places(plan))))


def _number_places(plan: GamePlan) -> list[int]:
    """The proposals' places among them (`history.proposal_steps`), by number."""
    numbered = tuple(filter(None, plan.memo.each("proposal numbers", plan.replay.steps, proposal_number)))
    return plan.memo.last("by number", numbered, _number_order)


def _scored(step: Step) -> bool:
    return bool(step.deltas or step.overrides)


def _defeated(step: Step) -> bool:
    return step.result in DEFEATED


def _proposal_name(step: Step) -> tuple[int, str] | None:
    return (step.index, step.entry.name) if isinstance(step.entry, Proposal) else None




def _number_order(numbered: tuple[tuple[int, str], ...]) -> list[int]:
    """The places of the proposals, each (number, decision), in order of number and decision."""
    return sorted(range(len(numbered)), key=numbered.__getitem__)


def _entry_list(plan: GamePlan, stem: str) -> tuple[Sequence[Step], list[range], Callable[[int], str]]:
    """A list of entries whose pages (named by `stem`) show it in parts: its entries, the places each part shows,
    and how the pager names the entry at a place."""
    if stem == "log":
        entries, ranges = plan.replay.steps, plan.log_parts()
    elif stem == "index":  # by number (a log in order of resolution, format 1.1, holds them otherwise)
        entries = _by_number(plan)
    elif stem == "scores":  # the entries that changed a score (or whose scores a Judge set)
        entries = plan.once("scored", lambda: list(compress(plan.replay.steps,
                                                            plan.memo.each("scored", plan.replay.steps, _scored))))
    else:
        def defeated() -> list[Step]:
            steps = plan.replay.steps
            # (each proposal's flag, by its place among the proposals: no step read again)
            flags = tuple(compress(plan.memo.each("defeated", steps, _defeated),
                                   plan.memo.each("proposal names", steps, _proposal_name)))
            places = _number_places(plan)
            return list(map(plan.history.proposal_steps.__getitem__, compress(places, map(flags.__getitem__, places))))
        entries = plan.once("defeated", defeated)
    if stem != "log":
        ranges = parts(len(entries), TABLE_PART)
    if stem in ("log", "scores"):
        return entries, ranges, lambda i: entries[i].label
    return entries, ranges, lambda i: str(entries[i].entry.name)


def _overview(plan: GamePlan) -> dict[str, Any]:
    replay = plan.replay
    game = replay.game
    last = replay.steps[-1] if replay.steps else None
    config = replay.mechanics
    scores = sorted((last.scores if last else replay.initial_scores).items(), key=lambda kv: (-kv[1], kv[0]))
    recent = [_proposal_row(plan, s, "") for s in plan.history.proposal_steps[-10:]][::-1]
    return {
        "scores": scores, "winner": list(replay.winner), "players": list(last.players if last else game.config.players),
        "left": departed(last) if last else [],  # players scored who have left the game
        # a game that goes on after a win (format 1.2, after_win = "reset"): each win
        "wins": [{**step_view(plan, replay.steps[index], ""), "winners": list(winners)} for index, winners in replay.wins],
        "next_player": last.next_player if last else None, "circuits": last.circuits if last else 0,
        "preamble": str(render_prose(game.log.preamble, 3)), "recent": recent,
        "counts": {"proposals": replay.proposal_count, "rules": len(plan.history.in_force()),
                   "repealed": len(plan.history.repealed()), "findings": len(replay.findings)},
        "mechanics": _mechanics(config, replay, plan.history.in_force()), "start": game.config.start.isoformat() if game.config.start else "",
        "variant": game.config.variant,
    }


def _mechanics(config, replay: Replay, in_force: list[RuleVersion]) -> list[tuple[str, str]]:
    """The mechanics in force at the end of the log, in a player's words (rules by their present number;
    `in_force`: the rules in force then)."""
    rows = _adoption_rows(config.adoption, replay, in_force)
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
        rows.append(("Proposals", "in the log in the order they took effect, not by number"))
    rules = config.rules
    if rules.power:
        limits = [w for w in ("its index" if config.adoption.method == "index" else "", "its Power line",
                              f"{power_text(rules.power_cap)}" if rules.power_cap is not None else "") if w]
        rows.append(("Rule power", f"a proposal changes only rules of at most its power (the least of "
                     f"{', '.join(limits[:-1]) + ' and ' if len(limits) > 1 else ''}{limits[-1]})"
                     + (f"; from power {power_text(rules.power_exempt)} on, any rule"
                        if rules.power_exempt is not None else "")))
    return rows


def _adoption_rows(adoption, replay: Replay, in_force: list[RuleVersion]) -> list[tuple[str, str]]:
    """How proposals are adopted, in a player's words: the method, the quorum, the switch after some circuits,
    and the method of transmuting a rule where any is immutable."""
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
    return rows


ROUNDING_WORDS = {"half-up": "halves rounded up", "half-even": "halves rounded to even", "down": "rounded toward zero",
                  "floor": "rounded down", "ceiling": "rounded up"}


def _points(points: int) -> str:
    return f"{points:+d} point{'' if abs(points) == 1 else 's'}"


def _rule_context(plan: GamePlan, rule_history: RuleHistory) -> dict[str, Any]:
    revisions = [revision_view(plan, r, "../") for r in plan.history.revisions_by_rule[rule_history.identity]]
    last = rule_history.last
    repealed_by = step_view(plan, plan.replay.steps[last.end], "../") if rule_history.repealed else None
    before, kept = plan.rule_notes.get(rule_history.identity, ((), ()))

    def by(index: int | None):
        return step_view(plan, plan.replay.steps[index], "../") if index is not None and index >= 0 else None

    # format 1.4: one taken away is shown removed where it stood
    annotations = [{"html": render_markdown(span.text), "by": by(span.made), "removed_by": by(span.removed)}
                   for span in annotation_spans(kept, plan.annotations.get(rule_history.identity, ()))]
    return {"rule": version_view(last, "../", plan), "repealed": rule_history.repealed, "repealed_by": repealed_by,
            "lineage": rule_history.lineage, "revisions": revisions, "record": _record_lines(plan, rule_history, before),
            "labels": list(dict.fromkeys(version.label for version in rule_history.versions if version.label)),
            "annotations": annotations,
            "original": version_view(rule_history.versions[0], "../", plan),
            "has_redline": any(r["kind"] != "initial" for r in revisions)}


def _rules_naming(plan: GamePlan, number: int) -> list[tuple[int, list[str]]]:
    """The rules (by identity, in number order) whose history lines, as the record keeps them (the rule page's
    and the report's list, `history_lines`), name proposal `number` as an agent, with those lines."""
    def made() -> dict[int, list[tuple[int, list[str]]]]:
        found: dict[int, dict[int, list[str]]] = {}
        for identity in plan.history.rules:
            for _, line in history_lines(plan, identity, keepers=True, recorded=True, dates=str):
                for m in PROPOSAL_CITED.finditer(line):
                    lines = found.setdefault(int(m.group(2)), {}).setdefault(identity, [])
                    if line not in lines:
                        lines.append(line)
        return {n: sorted(rules.items(), key=lambda item: plan.history.rules[item[0]].last.number)
                for n, rules in found.items()}
    return plan.once("rules naming proposals", made).get(number, [])


def _record_lines(plan: GamePlan, rule_history: RuleHistory, before: tuple[str, ...]) -> list[dict[str, Any]]:
    """The rule's history as its record keeps it (format 1.4): every line, in the record's order (the report's
    own list), each made in the archive linked to its revision below; else rules.md's lines from before it."""
    if not recorded_history(plan):
        return [{"text": history_html(plan, line, "../"), "anchor": None} for line in before]
    return [{"text": history_html(plan, line, "../"),
             "anchor": revision_anchor(plan, plan.replay.steps[index]) if index >= 0 else None}
            for index, line in history_lines(plan, rule_history.identity, keepers=True, recorded=True, dates=str)]


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
        "proposal": {"number": entry.name, "title": entry.title, "proposer": plan.person_view(entry.proposer, "../"),
                     "date": entry.date.isoformat() if entry.date else "", "votes": _votes_view(entry),
                     "recorded": entry.result.result if entry.result else None, "die": entry.die.total if entry.die else None,
                     "extra": entry.extra_turn, "notes": [render_inline(note) for note in entry.notes],
                     "coauthors": [plan.person_view(name, "../") for name in entry.coauthors],
                     "file": entry.source.file,
                     "unrecorded": entry.proposed_unrecorded},
        "step": step_facts(step),
        "decision": _decision_view(step),
        "body": demote_headings(entry_html(entry.body), 3),  # under the page's h2, as is the text as proposed
        "proposed": demote_headings(entry_html(entry.proposed), 3) if entry.proposed else None,
        "revisions": revisions,
        "previous": step_view(plan, previous, "../") if previous else None,
        "next": step_view(plan, following, "../") if following else None,
        "decisions": [{**step_view(plan, other, "../"), "name": other.entry.name, "this": other is step}
                      for other in plan.decisions.get(entry.number, ())],
        "has_redline": any(r["kind"] in ("changed", "enacted", "repealed") for r in revisions),
        "unread": note.message if (note := unread_change(step)) else None,
    }


def _proposal_row(plan: GamePlan, step: Step, from_dir: str) -> dict[str, Any]:
    entry: Proposal = step.entry  # type: ignore[assignment]
    return {"number": entry.name, "title": entry.title, "proposer": entry.proposer,
            "date": entry.date.isoformat() if entry.date else "", "result": step.result or "",
            "url": f"{from_dir}{plan.entry_anchor(step)}", "findings": len(step.findings)}


def _repealed_row(plan: GamePlan, history: RuleHistory) -> dict[str, Any]:
    last = history.last
    step = plan.replay.steps[last.end]
    return {"number": last.number, "title": last.title, "label": last.label,
            "url": plan.rule_page(history.identity), "lineage": history.lineage, "by": step_view(plan, step, "")}


def _log_entry(plan: GamePlan, step: Step) -> dict[str, Any]:
    entry = step.entry
    view = step_view(plan, step, "")
    view.update({"anchor": log_anchor(step), "facts": step_facts(step), "is_proposal": isinstance(entry, Proposal),
                 "judge": "", "players": [], "body": "", "revisions": []})
    if isinstance(entry, Judgment):
        view["judge"] = plan.person_view(entry.judge, "")
    elif isinstance(entry, Event):
        view["players"] = [f"{c.player} → {c.renamed_to}" if c.renamed_to else ("+" if c.joins else "-") + c.player
                           for c in entry.players]
    elif isinstance(entry, Proposal):  # its text with the keeper's commentary, as events and judgments show theirs
        view["proposer"] = plan.person_view(entry.proposer, "")
    view["by"] = getattr(entry, "by", "")
    view["body"] = demote_headings(entry_html(entry.body), 3)
    if not isinstance(entry, Proposal):  # what a judgment or event changed shows here: it has no page of its own
        view["revisions"] = [revision_view(plan, r, "") for r in plan.history.revisions_by_step.get(step.index, ())]
    return view


def _scores_context(plan: GamePlan, players: list[str], chosen: list[Step], first: bool) -> dict[str, Any]:
    rows = [{"step": step_view(plan, s, ""), "scores": [s.scores.get(p) for p in players],
             "deltas": [sum(d.points for d in s.deltas if d.player == p) for p in players]} for s in chosen]
    left = departed(plan.replay.steps[-1]) if plan.replay.steps else []  # players who have left the game by now
    return {"players": players, "rows": rows, "chart": score_chart(plan.replay) if first else None, "left": left}


def _check_context(plan: GamePlan) -> dict[str, Any]:
    """The verification report: what was checked in this game, and each finding with a link to the entry it is
    about (a snapshot's, to the rules as of it at the rule), one that stems from an earlier slip linked to
    that slip's entry."""
    replay, config = plan.replay, plan.replay.game.config
    located = {id(f): step for step in replay.steps for f in step.findings}

    def url(finding) -> str | None:
        step = located.get(id(finding))
        if step is None:
            return None
        if finding.kind == "snapshot":
            return f"as-of.html?at={point_name(plan, step.index)}" + (f"#rule-{finding.rule}" if finding.rule else "")
        return plan.entry_anchor(step)
    linked = [(f, url(f)) for f in replay.findings]
    url_at = {f"{f.file}:{f.line}": link for f, link in linked}
    scored = keeps_scores(replay)
    checked = (["proposal and rule numbering", "each result under the adoption method in force"]
               + ["every score"] * scored + ["the order of play"] * (config.turns.order != "none")
               + ["the cap on mutable rules"] * bool(config.limits.max_mutable)
               + ["each change against the power of the rules it changed"] * config.rules.power
               + ["the winner"] * (scored or any(step.entry.winner for step in replay.steps))
               + [f"the snapshots ({', '.join(s.source.file for s in replay.game.snapshots)})"]
               * bool(replay.game.snapshots))
    return {"findings": [{"kind": f.kind, "where": f"{f.file}:{f.line}", "entry": f.entry, "message": f.message,
                          "expected": f.expected, "found": f.found, "url": link,
                          "cause": f.cause and str(f.cause), "cause_url": url_at.get(str(f.cause))}
                         for f, link in linked],
            "overrides": [{"judgment": o.judgment, "what": o.what, "computed": o.computed, "set": o.set_to,
                           "url": plan.entry_anchor(step)} for step in replay.steps for o in step.overrides],
            "notes": [{"entry": n.entry, "message": n.message, "url": plan.entry_anchor(replay.steps[n.index])}
                      for n in replay_notes(replay)],
            "proposals": replay.proposal_count, "entries": len(replay.steps),
            "checked": ", ".join(checked[:-1]) + " and " + checked[-1]}


def _feed_context(plan: GamePlan) -> dict[str, Any]:
    steps = plan.history.proposal_steps[-FEED_ENTRIES:][::-1]
    updated = plan.latest_date()
    # (named as the game's first address: a feed reader takes an id that changes for a new feed, and every entry
    # in it for a new one)
    feed_id = f"urn:nomic-archive:{(plan.replay.game.former_slugs or (plan.slug,))[0]}"
    return {"feed_id": feed_id,
            "entries": [{**_proposal_row(plan, s, ""), "summary": f"{s.entry.proposer}: {s.result or 'pending'}"}
                        for s in steps],
            "updated": updated.isoformat() if updated else "1970-01-01"}
