"""A replay seen player by player: who each name in the record is, the names each person played under, and what
each did (proposals made and co-authored, ballots, judgments, wins), with the address of each person's page.

A name in the record stands for the person game.toml's `[aliases]` gives it to (`Telna` for Telnaior), and a
renamed player (`Players: Jason -> Janet`, format 1.2) for the name they go by now. The people are those the
players page lists: every player ever scored (the replay's scores name them all, each by the person's name).
Made from what each step holds of a person (`Deeds`) when the game's pages are listed (a player's page needs to
know how many parts its ballots take), and under serve taken from the plan before when those are the same.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from itertools import chain
from operator import attrgetter, itemgetter
from typing import NamedTuple

from ..engine.replay import Replay, Step
from ..model import Event, Judgment, Proposal, Votes
from ..model.config import Aliases
from ..model.urls import MAX_SEGMENT_CHARS, url_segment
from .paging import part_name, parts

PEOPLE_FOLDER = "players"


def _renaming(step: Step) -> tuple[tuple[tuple[str, str], ...], tuple[str, ...]] | tuple[()]:
    """The renames an entry makes as written, each (name given up, name taken), and the players then; () for
    none."""
    if not isinstance(step.entry, Event):
        return ()
    changes = tuple((change.player, change.renamed_to) for change in step.entry.players if change.renamed_to)
    return (changes, step.players) if changes else ()


def _renamed(renamings: Iterable[tuple], aliases: Aliases) -> dict[str, str]:
    now: dict[str, str] = {}
    for changes, players in filter(None, renamings):
        for old, new in changes:
            old, new = aliases.of(old), aliases.of(new)
            if new in players:  # (not a stranger's, a finding)
                now.update({before: new for before, after in now.items() if after == old})
                now[old] = new
    return now


def scored_players(replay: Replay) -> list[str]:
    """Every player ever scored, by name: the last step's scores name them all (scores gain players, never
    lose one)."""
    return sorted(set(replay.initial_scores) | set(replay.steps[-1].scores if replay.steps else ()))


@dataclass
class Record:
    """Who one person is: their name, their page's address, the other names they played under, and how many
    ballots they cast (their page shows them in parts)."""

    name: str
    slug: str = ""
    aliases: tuple[str, ...] = ()  # the other names they played under (game.toml's [aliases])
    former: tuple[str, ...] = ()  # the names they went by before a rename
    ballot_count: int = 0


@dataclass
class Acts:
    """What one person did, as step indices into the replay: proposals made and co-authored, ballots (step index,
    how, strength), judgments given, wins."""

    proposed: list[int] = field(default_factory=list)
    coauthored: list[int] = field(default_factory=list)
    ballots: list[tuple[int, str, int]] = field(default_factory=list)
    judged: list[int] = field(default_factory=list)
    wins: list[int] = field(default_factory=list)


class Deeds(NamedTuple):
    """What one step holds that a person's record reads, as the log writes the names."""

    index: int
    proposer: str
    coauthors: tuple[str, ...]
    votes: Votes | None
    voters: tuple[str, ...]
    judge: str
    winner: tuple[str, ...]
    renaming: tuple  # (_renaming)


def deeds(step: Step) -> Deeds:
    entry = step.entry
    proposal = isinstance(entry, Proposal)
    votes = entry.votes if proposal else None
    return Deeds(step.index, entry.proposer if proposal else "", entry.coauthors if proposal else (), votes,
                 votes.voters if votes else (), entry.judge if isinstance(entry, Judgment) else "", step.winner,
                 _renaming(step))


class People:
    """Every person of a replay, by name, each with their record (who they are, their page's address:
    `players/SLUG.html`) and their acts, made from the replay's deeds, step by step (`deeds`), the players ever
    scored and the game's aliases alone, so that a plan may take the People of the plan before when those are equal.
    The acts are gathered when first read (a page that shows them): listing the pages needs only the records."""

    def __init__(self, steps: tuple[Deeds, ...], scored: list[str], aliases: Aliases, ballots_per_part: int):
        self.ballots_per_part = ballots_per_part  # (a player's page shows their ballots in parts of so many)
        self.renamed = _renamed(map(attrgetter("renaming"), steps), aliases)
        self.aliases = aliases
        self.records: dict[str, Record] = {}
        for name in sorted({self.renamed.get(n, n) for n in scored}, key=lambda n: (n.casefold(), n)):
            former = sorted(old for old, new in self.renamed.items() if new == name)
            self.records[name] = Record(name, aliases=self.aliases.names_of(name), former=tuple(former))
        self._steps = steps
        for name, count in Counter(chain.from_iterable(map(attrgetter("voters"), steps))).items():  # (in C)
            if (record := self.record(name)) is not None:
                record.ballot_count += count
        self._address()

    def person(self, name: str) -> str:
        """The person a name in the record stands for, by the name they go by now."""
        name = self.aliases.of(name)
        return self.renamed.get(name, name)

    def record(self, name: str) -> Record | None:
        """The record of the person `name` (as written anywhere in the log) stands for; None for a stranger."""
        return self.records.get(self.person(name))

    def page(self, name: str) -> str | None:
        """The path of the page of the person `name` stands for, from the game's folder; None for a stranger."""
        record = self.record(name)
        return f"{PEOPLE_FOLDER}/{record.slug}.html" if record else None

    def acts(self, name: str) -> Acts:
        """What the person `name` stands for did (nothing, for a stranger)."""
        return self._acts.get(self.person(name), Acts())

    @cached_property
    def _acts(self) -> dict[str, Acts]:
        acts = {name: Acts() for name in self.records}
        won: tuple[str, ...] = ()
        by_name: dict[str, list[tuple[int, str, int]]] = {}  # the ballots, by the name cast under: far fewer names
        for step in self._steps:
            index = step.index
            if step.proposer and (person := acts.get(self.person(step.proposer))) is not None:
                person.proposed.append(index)
            for name in dict.fromkeys(map(self.person, step.coauthors)):
                if (person := acts.get(name)) is not None:
                    person.coauthored.append(index)
            for names, how, strengths in step.votes.groups() if step.votes else ():
                for name, strength in zip(names, strengths):
                    if (ballots := by_name.get(name)) is None:
                        ballots = by_name[name] = []
                    ballots.append((index, how, strength))
            if step.judge and (person := acts.get(self.person(step.judge))) is not None:
                person.judged.append(index)
            if step.winner and step.winner != won:  # a win declared
                for name in step.winner:
                    if (person := acts.get(self.person(name))) is not None:
                        person.wins.append(index)
            won = step.winner
        for name, ballots in by_name.items():
            if (person := acts.get(self.person(name))) is not None:
                person.ballots += ballots
        for name, record in self.records.items():
            if record.aliases or record.former:  # ballots cast under several names
                acts[name].ballots.sort(key=itemgetter(0))
        return acts

    def ballot_parts(self, record: Record) -> tuple[range, ...]:
        """A person's ballots in the parts their pages show them in (`players/SLUG.html`, `SLUG-2.html`, ...)."""
        return parts(record.ballot_count, self.ballots_per_part)

    def _address(self) -> None:
        """Each person's slug: their name as a URL segment (model/urls.py), `-2`, `-3`... after it where that is
        taken by one sorted before them, or one of its pages' paths is (a ballot part `SLUG-2`); compared without
        regard to case, as a case-insensitive file system would."""
        taken: set[str] = set()
        for record in self.records.values():
            # (room for `-N` and a part's `-N`; a name of no ASCII letter or digit, `☃`, is `player`)
            base = url_segment(record.name, empty="")[:MAX_SEGMENT_CHARS - 10].rstrip(".-")
            if not any(c.isalnum() for c in base):
                base = "player"
            pages = len(self.ballot_parts(record))
            suffix = 1
            while True:
                slug = base if suffix == 1 else f"{base}-{suffix}"
                stems = [part_name(slug, part, suffix="") for part in range(pages)]
                if not any(stem.casefold() in taken for stem in stems):
                    break
                suffix += 1
            record.slug = slug
            taken.update(stem.casefold() for stem in stems)
