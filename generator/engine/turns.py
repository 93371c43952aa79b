"""Whose turn it is: the order of play and the count of complete circuits.

A slip in the log (the wrong player moving) is one finding: play goes on from the player who moved.
A change to the order or the collation (an adopted `Effect:`) takes hold from the next circuit, and the
count of circuits goes on (FORMAT.md, "Mechanics").
"""
from __future__ import annotations

from dataclasses import dataclass, field


def surname(name: str) -> str:
    return name.split()[-1] if name.split() else name


def collation_key(collation: str):
    """Sort names by a collation string (case-insensitive); characters it does not list come after, by code point."""
    rank = {char: position for position, char in enumerate(collation.lower())}
    beyond = len(rank)

    def key(name: str) -> tuple:
        return tuple(rank.get(char, beyond + ord(char)) for char in name.lower()), name

    return key


def ordered(players: list[str], order: str, collation: str) -> list[str]:
    """The order of play for one circuit (rotation aside)."""
    if order == "alphabetical":
        return sorted(players, key=lambda name: (name.casefold(), name))
    if order == "surname":
        return sorted(players, key=lambda name: (surname(name).casefold(), name.casefold(), name))
    if order == "custom":
        return sorted(players, key=collation_key(collation))
    return list(players)  # seating, rotating, none


@dataclass
class TurnTracker:
    order_kind: str
    collation: str
    seating: list[str]
    position: int = 0  # index in the current circuit's order of the player expected next
    circuits: int = 0  # complete circuits so far
    turns: int = 0
    _order: list[str] = field(default_factory=list)
    # An order or collation adopted mid-circuit, waiting for the circuit to complete.
    pending: tuple[str, str] | None = None

    def __post_init__(self) -> None:
        self._order = self._circuit_order()

    def __copy__(self) -> "TurnTracker":
        """An independent copy (a replay's checkpoint): its lists copied, the rest is immutable."""
        twin = object.__new__(TurnTracker)
        twin.__dict__ = {name: list(value) if type(value) is list else value for name, value in self.__dict__.items()}
        return twin

    def _circuit_order(self) -> list[str]:
        base = ordered(self.seating, self.order_kind, self.collation)
        if self.order_kind == "rotating" and base:
            shift = self.circuits % len(base)
            base = base[shift:] + base[:shift]
        return base

    @property
    def active(self) -> bool:
        return self.order_kind != "none" and bool(self._order)

    @property
    def order(self) -> list[str]:
        return list(self._order)

    def expected(self) -> str | None:
        if not self._order:
            return None
        return self._order[self.position % len(self._order)]

    def follow(self, order_kind: str, collation: str) -> None:
        """The order and collation in force now: they govern from the next circuit, or at once when no
        circuit is under way (no turns yet in this one, or no order of play at all)."""
        if (order_kind, collation) == (self.order_kind, self.collation):
            self.pending = None
            return
        if self.position == 0 or not self.active:
            self.pending = None
            self.order_kind, self.collation = order_kind, collation
            self._order = self._circuit_order()
            self.position = 0
        else:
            self.pending = (order_kind, collation)

    def take_turn(self, player: str) -> bool:
        """Record a turn by `player`; True when a circuit completed with it."""
        self.turns += 1
        if player in self._order:
            self.position = self._order.index(player) + 1
        else:
            self.position += 1
        if self.position >= len(self._order):
            self.circuits += 1
            self.position = 0
            if self.pending:
                (self.order_kind, self.collation), self.pending = self.pending, None
            self._order = self._circuit_order()
            return True
        return False

    def set_next(self, player: str) -> bool:
        if player not in self._order:
            return False
        self.position = self._order.index(player)
        return True

    def join(self, player: str) -> None:
        """FORMAT.md 1.2, section 4: between circuits (no turn yet in this one) the order is drawn afresh with
        the newcomer in it; during a circuit they play in it if their place comes after the player who last
        moved, else from the next circuit."""
        self.seating = self.seating + [player]
        drawn = self._circuit_order()
        if self.position == 0 or not self._order:
            self._order, self.position = drawn, 0
            return
        last_mover = self._order[self.position - 1]
        if last_mover in drawn and drawn.index(player) > drawn.index(last_mover):
            later = drawn[drawn.index(player) + 1:]
            place = next((at for at in range(self.position, len(self._order)) if self._order[at] in later),
                         len(self._order))
            self._order.insert(place, player)

    def rename(self, old: str, new: str) -> None:
        """The same player under a new name (format 1.2): their place in this circuit is kept."""
        self.seating = [new if name == old else name for name in self.seating]
        self._order = [new if name == old else name for name in self._order]

    def leave(self, player: str) -> None:
        self._reorder(lambda seating: [p for p in seating if p != player])

    def _reorder(self, change) -> None:
        """Change who plays, keeping the same player (or the one after a leaver) up next."""
        upcoming = self._order[self.position:] if self._order else []
        self.seating = change(self.seating)
        self._order = self._circuit_order()
        for name in upcoming:
            if name in self._order:
                self.position = self._order.index(name)
                return
        self.position = len(self._order)
        if self._order and self.position >= len(self._order):
            self.position = 0
