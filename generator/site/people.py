"""A replay seen player by player: who each name in the record is, the names each person played under, and what
each did (proposals made and co-authored, ballots, judgments, wins), with the address of each person's page.

A name in the record stands for the person game.toml's `[aliases]` gives it to (`Telna` for Telnaior), and a
renamed player (`Players: Jason -> Janet`, format 1.2) for the name they go by now. The people are those the
players page lists: every player ever scored (the replay's scores name them all, each by the person's name).
Built once per plan in one walk over the steps, when the game's pages are listed: a player's page needs to know
how many parts its ballots take.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..engine.replay import Replay
from ..model import Event, Judgment, Proposal
from ..model.urls import MAX_SEGMENT_CHARS, url_segment
from .paging import part_name, parts

PEOPLE_FOLDER = "players"


def renames(replay: Replay) -> dict[str, str]:
    """Each name a player gave up (format 1.2, `Players: Jason -> Janet`) -> the name they go by now."""
    now: dict[str, str] = {}
    aliases = replay.game.config.aliases
    for step in replay.steps:
        if isinstance(step.entry, Event):
            for change in step.entry.players:
                old, new = aliases.of(change.player), aliases.of(change.renamed_to)
                if change.renamed_to and new in step.players:  # (not a stranger's, a finding)
                    now.update({before: new for before, after in now.items() if after == old})
                    now[old] = new
    return now


def scored_players(replay: Replay) -> list[str]:
    """Every player ever scored, by name: the last step's scores name them all (scores gain players, never
    lose one)."""
    return sorted(set(replay.initial_scores) | set(replay.steps[-1].scores if replay.steps else ()))


@dataclass
class Record:
    """What one person did, as step indices into the replay: proposals made and co-authored, ballots (step index,
    how, strength), judgments given, wins."""

    name: str
    slug: str = ""
    aliases: tuple[str, ...] = ()  # the other names they played under (game.toml's [aliases])
    former: tuple[str, ...] = ()  # the names they went by before a rename
    proposed: list[int] = field(default_factory=list)
    coauthored: list[int] = field(default_factory=list)
    ballots: list[tuple[int, str, int]] = field(default_factory=list)
    judged: list[int] = field(default_factory=list)
    wins: list[int] = field(default_factory=list)


class People:
    """Every person of a replay, by name, each with their record and their page's address (`players/SLUG.html`)."""

    def __init__(self, replay: Replay, ballots_per_part: int):
        self.ballots_per_part = ballots_per_part  # (a player's page shows their ballots in parts of so many)
        self.renamed = renames(replay)
        self.aliases = replay.game.config.aliases
        self.records: dict[str, Record] = {}
        for name in sorted({self.renamed.get(n, n) for n in scored_players(replay)}, key=lambda n: (n.casefold(), n)):
            former = sorted(old for old, new in self.renamed.items() if new == name)
            self.records[name] = Record(name, aliases=self.aliases.names_of(name), former=tuple(former))
        self._walk(replay)
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

    def _walk(self, replay: Replay) -> None:
        won: tuple[str, ...] = ()
        for step in replay.steps:
            entry, index = step.entry, step.index
            if isinstance(entry, Proposal):
                if (record := self.record(entry.proposer)) is not None:
                    record.proposed.append(index)
                for name in dict.fromkeys(map(self.person, entry.coauthors)):
                    if (record := self.records.get(name)) is not None:
                        record.coauthored.append(index)
                for name, how, strength in entry.votes.ballots() if entry.votes else ():
                    if (record := self.record(name)) is not None:
                        record.ballots.append((index, how, strength))
            elif isinstance(entry, Judgment) and (record := self.record(entry.judge)) is not None:
                record.judged.append(index)
            if step.winner and step.winner != won:  # a win declared
                for name in step.winner:
                    if (record := self.record(name)) is not None:
                        record.wins.append(index)
            won = step.winner

    def ballot_parts(self, record: Record) -> list[range]:
        """A person's ballots in the parts their pages show them in (`players/SLUG.html`, `SLUG-2.html`, ...)."""
        return parts(len(record.ballots), self.ballots_per_part)

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
