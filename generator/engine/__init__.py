"""The engine: pure replays of a parsed game. `replay_game` picks the one a game's variant calls for."""
from __future__ import annotations

from ..model import Game
from .replay import Replay, replay
from .resume import resume
from .solitaire import SolitaireReplay, replay_solitaire


def replay_game(game: Game, *, previous: Replay | SolitaireReplay | None = None,
                checkpoints: bool = False) -> Replay | SolitaireReplay:
    """A standard game's Replay or a solitaire game's SolitaireReplay; both offer what the check reports read
    (game, steps, findings, errors, overrides, final_scores, winner). A standard game's replay keeps
    `checkpoints` when asked, and resumes from `previous` (an earlier replay of the same game) when it has them,
    taking them (as serve does: engine/resume.py)."""
    if game.config.variant == "solitaire":
        return replay_solitaire(game)
    if isinstance(previous, Replay) and previous.checkpoints:
        resumed = resume(game, previous)
        if resumed is not None:
            return resumed
    return replay(game, checkpoints=checkpoints)
