"""The log of a Solitaire Nomic game (seed 000): turns, each with one action on one rule."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from . import EntryCommon, Source

ActionKind = Literal["transmute", "mutate", "subsume", "divide"]


@dataclass(frozen=True)
class Action:
    """`transmute 12 to 20`, `mutate 21: "old" -> "new"`, `subsume 22 into 21`, `divide 21 as 23`."""

    kind: ActionKind
    source: Source
    text: str  # the action as written, for people
    rule: int  # the rule acted on: transmuted, mutated, divided, or the one that subsumes
    number: int | None = None  # transmute and divide: the number the rule (or its duplicate) takes
    subsumed: int | None = None  # subsume: the rule whose text is appended, and which dies
    edits: tuple[tuple[str, str], ...] = ()  # mutate: (old words, new words), one pair or two


@dataclass(frozen=True)
class Turn(EntryCommon):
    number: int = 0
    action: Action | None = None

    @property
    def kind(self) -> str:
        return "turn"
