"""The players' pages: the players page (one row per person, each linked to their page) and each person's page
(`players/SLUG.html`): the names they played under, their proposals with results, those they co-authored, their
judgments, their wins, their score over the game where it keeps scores, and their ballots, in parts of
views.TABLE_PART (`players/SLUG-2.html`, ...) so that a player of thousands of ballots gets pages of a few dozen KB.
"""
from __future__ import annotations

from typing import Any

from ..engine.turns import ordered
from ..model import Event, Proposal, amount_text, as_amount
from .people import PEOPLE_FOLDER, Record
from .paging import Pager, part_name
from .views import GamePlan, Listing, Page, keeps_scores, step_view


def list_player_pages(listing: Listing) -> None:
    """List each person's page, and the further parts of their ballots."""
    people = listing.plan.people
    for record in people.records.values():
        for part in range(len(people.ballot_parts(record))):
            listing.add(f"{PEOPLE_FOLDER}/{part_name(record.slug, part)}", player_page, (record.name, part))


def player_page(listing: Listing, path: str, which: tuple[str, int]) -> Page:
    plan = listing.plan
    name, part = which
    record, ballots_cast = plan.people.records[name], plan.people.acts(name).ballots
    ranges = plan.people.ballot_parts(record)
    steps = plan.replay.steps
    context = {"player": {"name": name, "aliases": list(record.aliases), "former": list(record.former),
                          "url": f"{record.slug}.html"}, "part": part,
               "pager": Pager(record.slug, ranges, part,
                              lambda i: steps[ballots_cast[i][0]].entry.name)}

    def ballots() -> dict[str, Any]:
        rows = [{"step": step_view(plan, steps[index], "../"), "name": steps[index].entry.name, "how": how,
                 "strength": strength}
                for index, how, strength in ballots_cast[ranges[part].start:ranges[part].stop]]
        return {"ballots": rows, "ballot_count": record.ballot_count,
                "weighted": any(strength != 1 for _, _, strength in ballots_cast),
                **(_player_context(plan, record) if part == 0 else {})}
    return listing.new_page(path, "player.html", context, lazy=ballots)


def _player_context(plan: GamePlan, record: Record) -> dict[str, Any]:
    """All of a person's page but their ballots."""
    steps = plan.replay.steps
    acts = plan.people.acts(record.name)

    def rows(indices: list[int], others: Any) -> list[dict[str, Any]]:
        """Proposals, each with the others who wrote it (`others(entry)`: names), linked to their pages."""
        return [{**step_view(plan, steps[index], "../"), "name": steps[index].entry.name,
                 "others": [plan.person_view(n, "../") for n in others(steps[index].entry)]} for index in indices]
    proposed = rows(acts.proposed, lambda entry: entry.coauthors)
    coauthored = rows(acts.coauthored, lambda entry: (entry.proposer,))
    return {"tables": [(heading, column, table, any(row["others"] for row in table)) for heading, column, table in
                       (("Proposals", "Co-authors", proposed), ("Co-authored", "Proposer", coauthored)) if table],
            "proposed": len(proposed), "coauthored": len(coauthored),
            "judged": [step_view(plan, steps[index], "../") for index in acts.judged],
            "wins": [step_view(plan, steps[index], "../") for index in acts.wins],
            "tally": {result: sum(1 for row in proposed if row["result"] == result)
                      for result in ("adopted", "defeated")},
            "scores": _score_history(plan, record.name) if keeps_scores(plan.replay) else None}


def _score_history(plan: GamePlan, name: str) -> list[dict[str, Any]]:
    """Each entry that changed the person's score: by how much, and the score after it."""
    history = []
    for step in plan.replay.steps:
        change = sum(delta.points for delta in step.deltas if delta.player == name)
        if change:
            history.append({"step": step_view(plan, step, "../"), "change": as_amount(change),
                            "score": amount_text(step.scores.get(name, 0))})
    return history


def players_context(plan: GamePlan) -> dict[str, Any]:
    """Each person's record in a row (proposals made, co-authored, adopted and defeated, ballots cast, wins, score),
    by name without regard to case, each linked to their page; a renamed player under the name they go by now, an
    alias under the person's. Only what the record knows: no wins where the game keeps no score and records no
    winner, no status where it keeps no order of play and records nobody joining or leaving."""
    replay = plan.replay
    config = replay.game.config
    last = replay.steps[-1] if replay.steps else None
    people = plan.people
    steps = replay.steps
    rows = []
    for record in people.records.values():
        acts = people.acts(record.name)
        results = [steps[index].result for index in acts.proposed]
        rows.append({"name": record.name, "url": f"{PEOPLE_FOLDER}/{record.slug}.html",
                     "aliases": list(record.aliases), "former": list(record.former),
                     "proposed": len(acts.proposed), "coauthored": len(acts.coauthored),
                     "adopted": results.count("adopted"), "defeated": results.count("defeated"),
                     "ballots": record.ballot_count, "wins": len(acts.wins),
                     "score": amount_text((last.scores if last else replay.initial_scores).get(record.name, 0)),
                     "playing": record.name in (last.players if last else config.players)})
    members_recorded = any(change.renamed_to is None or not change.renamed_to
                           for step in steps if isinstance(step.entry, Event) for change in step.entry.players)
    # The order the engine follows at the end of the log (none: a game without turns).
    order = list(last.order) if last else ordered(list(config.players), config.turns.order, config.turns.collation)
    return {"players": rows, "order": order if config.turns.order != "none" or last else [],
            "coauthors": any(isinstance(step.entry, Proposal) and step.entry.coauthors for step in steps),
            "wins": keeps_scores(replay) or any(step.entry.winner for step in steps),
            "status": config.turns.order != "none" or members_recorded}
