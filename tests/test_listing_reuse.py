"""What a game's plan takes from the plan before it (serve's, from save to save: `Memo.last`) against a plan made
from nothing, over random edits: the rules' index (taken whole when the versions are the same, rule by rule when
some changed), the proposals' page names, the log's parts and the listing made from them must be what a plan of
the same replay made alone gives. The edits include those that add and remove pages: entries appended, deleted
and moved, rules enacted, repealed and renumbered, game.toml changed.
"""
from __future__ import annotations

import operator
import random
import re
import shutil
from pathlib import Path

import pytest

from generator.cli import main
from generator.errors import ArchiveError
from generator.pipeline import Pipeline
from generator.site.history import RuleIndex
from tests.test_differential import (delete_entry, game_setting, move_entry, number, result, rules_word,
                                     title, votes, word)

EDITS = 24


def _last_log(game: Path) -> Path:
    return sorted((game / "log").glob("*.md"))[-1]


def _append_proposal(game: Path, changes: str, what: str, *, adopted: bool = True) -> str:
    """A proposal appended to the last log file, making `changes`: adopted (all four players for), or not."""
    path = _last_log(game)
    text = path.read_text(encoding="utf-8").rstrip("\n")
    numbers = [int(n) for log in sorted((game / "log").glob("*.md"))
               for n in re.findall(r"(?m)^## Proposal (\d+)", log.read_text(encoding="utf-8"))]
    date = re.findall(r"(?m)^Date: .*$", text)[-1]
    votes = "Votes: for Alice, Bob, Carol, Dana\nResult: adopted" if adopted else "Votes: none\nResult: defeated"
    path.write_text(f"{text}\n\n## Proposal {max(numbers) + 1}: {what}\nProposer: Alice\n{date}\n{votes}\n\n"
                    f"{changes}\n", encoding="utf-8")
    return what


def append_defeated(rng: random.Random, game: Path) -> str:
    return _append_proposal(game, "Enact rule: Appended\n\n> A rule nobody wanted.", "a defeated proposal",
                            adopted=False)


def delete_last(rng: random.Random, game: Path) -> str:
    path = _last_log(game)
    path.write_text(path.read_text(encoding="utf-8").rsplit("\n## ", 1)[0] + "\n", encoding="utf-8")
    return "the last entry deleted"


def _in_force(game: Path) -> list[int]:
    """The numbers of the mutable rules in force after the last entry (the game must read)."""
    replay = Pipeline(game.parent).replay(game)[0]
    last = {v.identity: v for v in replay.versions}
    return sorted(v.number for v in last.values() if v.end is None and v.rule_class == "mutable")


def enact(rng: random.Random, game: Path) -> str:
    return _append_proposal(game, f"Enact rule: Appended {rng.randrange(1000)}\n\n> A rule enacted by a test.",
                            "a rule enacted")


def repeal(rng: random.Random, game: Path) -> str | None:
    numbers = _in_force(game)
    return _append_proposal(game, f"Repeal rule {rng.choice(numbers)}.", "a rule repealed") if numbers else None


def renumber(rng: random.Random, game: Path) -> str | None:
    numbers = _in_force(game)
    if not numbers:
        return None
    return _append_proposal(game, f"Renumber rule {rng.choice(numbers)} to {max(numbers) + rng.randint(1, 9)}.",
                            "a rule renumbered")


def amend(rng: random.Random, game: Path) -> str | None:
    numbers = _in_force(game)
    if not numbers:
        return None
    return _append_proposal(game, f"Amend rule {rng.choice(numbers)} to read:\n\n> Text of a test {rng.random()}.",
                            "a rule amended")


def rename(rng: random.Random, game: Path) -> str:
    """An event renaming a player (format 1.2): the people and their pages follow the new name."""
    path = _last_log(game)
    text = path.read_text(encoding="utf-8").rstrip("\n")
    date = re.findall(r"(?m)^Date: .*$", text)[-1]
    old = rng.choice(["Alice", "Bob", "Carol"])
    path.write_text(f"{text}\n\n## Event: a rename\n{date}\nPlayers: {old} -> {old}{rng.randrange(100)}\n",
                    encoding="utf-8")
    return f"{old} renamed"


def alias(rng: random.Random, game: Path) -> str | None:
    """A vote under a name no player has, then (at the next call, a save of its own) game.toml's [aliases] giving
    that name to a player: what a person did moves to them though no entry changed."""
    path = game / "game.toml"
    text = path.read_text(encoding="utf-8")
    if not any("Bobby" in log.read_text(encoding="utf-8") for log in (game / "log").glob("*.md")):
        _append_proposal(game, "Enact rule: Aliased\n\n> A rule voted on under another name.", "an alias voting")
        last = _last_log(game)
        last.write_text(last.read_text(encoding="utf-8").replace("for Alice, Bob,", "for Alice, Bobby,"),
                        encoding="utf-8")
        return "a vote by Bobby"
    if "[aliases]" in text:
        return None
    path.write_text(text.rstrip("\n") + '\n\n[aliases]\nBob = ["Bobby"]\n', encoding="utf-8")
    return "Bobby an alias of Bob"


EDIT_KINDS = [number, word, delete_entry, move_entry, append_defeated, delete_last, result, title, votes, rules_word, game_setting,
              enact, repeal, renumber, amend, rename, alias, alias]


def _listing(site, slug: str) -> dict:
    """A game's listing but its drafts' pages (serve's alone)."""
    return {path: made for path, made in site._games[slug].listing.items() if "/drafts/" not in path}


def _index_view(index: RuleIndex) -> tuple:
    """Everything a rules' index holds, as plain values in their order."""
    return (list(index.rules.items()), list(index.revisions_by_rule.items()), sorted(index.revisions_by_step.items()),
            list(index.page_number.items()), list(index.old_numbers().items()), sorted(index.starting_at.items()),
            sorted(index.ending_at.items()), sorted(index.ordinal.items()), index.classes, index.in_force(), index.rules_in_order(),
            index.repealed())


@pytest.mark.parametrize("seed", [1, 2])
def test_a_plan_made_from_the_plan_before_is_the_plan_made_from_nothing(tmp_path, seed):
    rng = random.Random(seed)
    content = tmp_path / "content"
    game = content / "long"
    assert main(["synth", str(game), "--proposals", "40", "--seed", str(seed), "--per-file", "15"]) == 0
    serving = Pipeline(content, serving=True)
    serving.site(serving.replay())
    carried = partly = followed = people_carried = 0
    trail: list[str] = []
    for step in range(EDITS):
        saved = tmp_path / "saved"
        shutil.rmtree(saved, ignore_errors=True)
        shutil.copytree(game, saved)
        kind = EDIT_KINDS[step % len(EDIT_KINDS)] if step < len(EDIT_KINDS) else rng.choice(EDIT_KINDS)
        trail.append(f"{kind.__name__}: {kind(rng, game)}")
        try:
            fresh_replays = Pipeline(content).replay()
        except ArchiveError:  # an edit that breaks the game: undone
            shutil.rmtree(game)
            shutil.copytree(saved, game)
            trail[-1] += " (undone)"
            continue
        before = serving._memos["long"].kept("rule index")
        people_before = serving._memos["long"].kept("people")
        site = serving.site(serving.replay())
        fresh = Pipeline(content).site(fresh_replays)
        plan, alone = site._games["long"].listing.plan, fresh._games["long"].listing.plan
        where = f"seed {seed}: {'; '.join(trail[-4:])}"
        assert _index_view(plan.history.index) == _index_view(alone.history.index), where
        assert list(plan.proposal_pages.items()) == list(alone.proposal_pages.items()), where
        assert plan.log_parts() == alone.log_parts(), where
        assert _listing(site, "long") == _listing(fresh, "long"), where
        assert (plan.people.records, plan.people.renamed) == (alone.people.records, alone.people.renamed), where
        assert [plan.people.acts(name) for name in plan.people.records] == [alone.people.acts(name) for name in
                                                                          alone.people.records], where
        for path in _listing(site, "long"):  # every page, drawn by both
            assert serving.draw(site.page(path)) == serving.draw(fresh.page(path)), (path, where)
        index = plan.history.index
        # (made of the replay's very versions, even after a replay from the start gave equal ones: the next
        # edit's index follows from it by their identity)
        assert len(index.versions) == len(plan.replay.versions), where
        assert all(map(operator.is_, index.versions, plan.replay.versions)), where
        people_carried += plan.people is people_before
        carried += index is before
        partly += index is not before and any(index.rules[i] is before.rules.get(i) for i in index.rules)
        # (the indices by entry followed from the index before, not made again: their lists are the same objects)
        followed += index is not before and any(index.revisions_by_step.get(at) is revisions
                                                for at, revisions in before.revisions_by_step.items())
    assert people_carried, "the people were made again at every edit"
    assert carried and partly and followed, (f"the index was taken whole {carried} times, rule by rule {partly} "
                                             f"times, followed {followed} times")


def test_listing_a_list_of_many_parts_costs_no_link_between_them(tmp_path, monkeypatch):
    """Each part of a list links to every other: made when listed, the links of a game's parts grew with the
    square of their number (a million, 400 MB of a build's 2 GB, at 100,000 entries). They are made as a page is
    drawn, and drawn the same. Here parts of one entry make 300-part lists."""
    import tracemalloc

    from generator.site import pages, views

    monkeypatch.setattr(pages, "TABLE_PART", 1)
    monkeypatch.setattr(views, "LOG_PART", 1)
    game = tmp_path / "content" / "long"
    assert main(["synth", str(game), "--proposals", "300", "--seed", "3"]) == 0
    pipeline = Pipeline(game.parent)
    site = pipeline.site(pipeline.replay())
    tracemalloc.start()
    try:
        made = site.listed_game_pages()
        listed = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert sum(page.path.startswith("long/log") for page in made) > 300
    assert listed < 5_000_000, listed  # (30 MB of links when made with the pages)
    drawn = pipeline.draw(site.page("long/log-2.html")).decode()
    assert drawn.count('href="log-') > 300 and '<span aria-current="page">' in drawn
