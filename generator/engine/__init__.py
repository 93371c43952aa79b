"""The engine: pure replays of a parsed game. `replay_game` picks the one a game's variant calls for."""
from __future__ import annotations

from ..model import Game
from .replay import Replay, replay
from .solitaire import SolitaireReplay, replay_solitaire


def replay_game(game: Game) -> Replay | SolitaireReplay:
    """A standard game's Replay or a solitaire game's SolitaireReplay; both offer what the check reports read
    (game, steps, findings, errors, overrides, final_scores, winner)."""
    return replay_solitaire(game) if game.config.variant == "solitaire" else replay(game)
