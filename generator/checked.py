"""What `check` says of each game, as data (`CheckedGame`): made from the game's replay, or read from the cache,
where a build or a check of the very same files left it. A check of games unchanged since then neither parses nor
replays them (as a build with nothing to do draws nothing: build.py), and imports neither the parser nor the
site: at 10,000 proposals, reading the cache's 10,170 parsed entries and replaying them were four fifths of a
check.

The record is kept under a digest of this program and of every file the parser reads (parse/folders.py), and is
the user's own like every record (cache.py): what it holds is what the replay of those files found."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from .cache import Cache, digest, program_digest
from .engine.notes import Note, replay_notes
from .engine.replay import Finding, Override
from .parse.folders import inputs_digest


@dataclass(frozen=True)
class CheckedGame:
    """A game's findings, the judgments that overrode the arithmetic, the notes, and its summary's figures."""

    slug: str
    solitaire: bool
    proposals: int  # each number once (a solitaire game's turns)
    decided_again: int  # format 1.2: decisions taken again on a proposal
    findings: tuple[Finding, ...]
    overrides: tuple[Override, ...]
    notes: tuple[Note, ...]
    scores: dict[str, int | Fraction]
    winner: tuple[str, ...]


CheckedGames = tuple[CheckedGame, ...]


def checked_game(replay) -> CheckedGame:
    """What check says of a game, from its replay (a Replay or a SolitaireReplay)."""
    count, again = replay.proposal_count
    return CheckedGame(replay.game.slug, replay.game.config.variant == "solitaire", count, again,
                       tuple(replay.findings), tuple(replay.overrides), replay_notes(replay),
                       dict(replay.final_scores), tuple(replay.winner))


def checked_key(games: bytes) -> bytes:
    """The cache's key of what check says of the games whose files digest to `games` (inputs_digest)."""
    return digest("checked games", program_digest(), games)


def stored_checks(cache: Cache, content: Path) -> tuple[bytes | None, CheckedGames | None]:
    """The key of what check says of the games of `content` as they are now (None when a file would not be read
    as it stands: then parsing says what), and what the cache keeps under it, if anything."""
    games = inputs_digest(content)
    if games is None:
        return None, None
    key = checked_key(games)
    return key, cache.value(key, CheckedGames, mark=False)


def store_checks(cache: Cache, content: Path, key: bytes | None, replays: Sequence) -> CheckedGames:
    """What check says of each replay, kept under `key` (stored_checks's, taken before the games were read) when
    the files are still the ones it digests: a file changed while they were read is not kept under the digest of
    what was there before."""
    checked = tuple(map(checked_game, replays))
    if key is not None and (now := inputs_digest(content)) is not None and checked_key(now) == key:
        cache.put_value(key, checked, CheckedGames)
    return checked
