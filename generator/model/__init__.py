"""The archive as plain data: what the parser produces and the engine replays.

Every item keeps the file and line it came from, so any finding can point a person at the text to fix.
Frozen dataclasses: the model is shared by the engine, the site and the server, and none may change it. One
exception, made by the parser alone: where a log entry stands in its file (see Source).
"""
from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import types
import typing
from dataclasses import dataclass
from fractions import Fraction
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, Literal, Union

if TYPE_CHECKING:  # model/config.py imports nothing from here; named for type checkers only
    from .config import Config

# Format 1.3: "unrecorded" where the game's record gives a rule no class (`## Rules`): no immutability applies.
RuleClass = Literal["immutable", "mutable", "unrecorded"]
# A score, a payment or a setting of one: a whole number, or an exact decimal (format 1.2: `8.8`).
Number = Union[int, Fraction]
# A player's name as the record writes it (perhaps one they played under: game.toml's `[aliases]`). Every field of
# the model that holds one is typed so: `with_names` finds them by their types, and maps them all.
PlayerName = Annotated[str, "a player's name"]


def amount_text(value: Number) -> str:
    """A score as a keeper writes it: `9`, `8.8`, `-2.5` (a fraction with no finite decimal, which no sum of
    decimals makes, to twelve places)."""
    if isinstance(value, int) or value.denominator == 1:
        return str(int(value))
    places = 1
    while (value * 10 ** places).denominator != 1 and places < 12:
        places += 1
    whole, part = divmod(int(abs(value) * 10 ** places), 10 ** places)
    return f"{'-' if value < 0 else ''}{whole}.{part:0{places}d}"


class Amount(Fraction):
    """An exact decimal score (format 1.2) that reads as a keeper writes it, `8.8`, wherever it is shown."""

    def __str__(self) -> str:
        return amount_text(self)

    def __reduce__(self):
        return Amount, (Fraction.__str__(self),)


class WrittenDecimal(Fraction):
    """A rule's power as its record writes it (`2.0` beside `2`, format 1.4): equal to, hashed and computed with as
    the Fraction it is (arithmetic gives plain Fractions); `str` and `written` give it as written, for a report
    that prints a power as its keeper wrote it."""

    __slots__ = ("written",)

    def __new__(cls, value: Fraction, written: str) -> WrittenDecimal:
        made = super().__new__(cls, value.numerator, value.denominator)
        made.written = written
        return made

    def __str__(self) -> str:
        return self.written

    def __reduce__(self):
        return WrittenDecimal, (Fraction(self.numerator, self.denominator), self.written)

    def __copy__(self) -> WrittenDecimal:
        return self

    def __deepcopy__(self, memo) -> WrittenDecimal:
        return self


def as_amount(value: Number) -> Number:
    """A sum of scores as the archive holds it: a whole number where it is one, else an Amount."""
    return int(value) if value.denominator == 1 else Amount(value)

Result = Literal["adopted", "defeated", "withdrawn", "invalid", "failed-quorum"]
RESULTS: tuple[str, ...] = ("adopted", "defeated", "withdrawn", "invalid", "failed-quorum")


class LineAnchor:
    """The line a log entry's text starts on in its file (0-based), shared by every Source inside the entry."""

    __slots__ = ("first",)

    def __init__(self, first: int) -> None:
        self.first = first


class Source:
    """A place in the archive: a file (its path relative to the content folder, as shown to people) and a
    1-based line.

    A Source inside a log entry is held relative to the entry's LineAnchor, which the parser moves when lines
    are added or removed above the entry: the entry stays the same object, so an edit is one entry that
    changed, not every entry below it, and every finding, rule version or message that points into the entry
    follows it. When an edit replaces an entry, the parser also moves the old entry's Sources to the places
    that took them (`follow`), so that what points at them names the lines of the file as it is now."""

    __slots__ = ("file", "_offset", "_anchor", "_follows")

    def __init__(self, file: str, line: int) -> None:
        self.file = file
        self._offset = line
        self._anchor: LineAnchor | None = None
        self._follows: Source | None = None

    @property
    def line(self) -> int:
        place = self._now()
        return place._offset + place._anchor.first if place._anchor is not None else place._offset

    def _now(self) -> Source:
        """The place this one stands at now: itself, or the end of the places it follows."""
        place = self
        while place._follows is not None:
            place = place._follows
        if self._follows is not None:
            self._follows = place  # a place edited again and again is found in one step next time
        return place

    @property
    def anchor(self) -> LineAnchor | None:
        """What this place is held relative to (None: its line is the file's)."""
        return self._now()._anchor

    def anchor_to(self, anchor: LineAnchor) -> None:
        """Hold this place relative to `anchor` (the parser, once, as it reads an entry)."""
        self._offset, self._anchor = self.line - anchor.first, anchor

    def follow(self, other: Source) -> None:
        """Stand where `other` stands from now on, and move with it, and with whatever `other` follows in
        turn (the parser: a place in an entry an edit replaced follows its new place)."""
        self._follows = other

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Source):
            return NotImplemented
        return self.file == other.file and self.line == other.line

    def __hash__(self) -> int:
        return hash((self.file, self.line))

    def __repr__(self) -> str:
        return f"Source({self.file!r}, {self.line})"

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


class Cited:
    """Words that name places (Sources), spelled out when read, so that they name the lines where the places
    are now (see Source). Compares, hashes and prints as its text."""

    __slots__ = ("parts",)

    def __init__(self, *parts: str | Source) -> None:
        self.parts = parts

    def __str__(self) -> str:
        return "".join(map(str, self.parts))

    def spelled(self, place: Callable[[Source], str]) -> str:
        """The words with each place named by `place` (a command names files from where it runs)."""
        return "".join(part if isinstance(part, str) else place(part) if isinstance(part, Source)
                       else part.spelled(place) for part in self.parts)

    def __eq__(self, other: object) -> bool:
        return str(self) == str(other) if isinstance(other, (str, Cited)) else NotImplemented

    def __hash__(self) -> int:
        return hash(str(self))

    def __repr__(self) -> str:
        return repr(str(self))


@dataclass(frozen=True)
class Rule:
    number: int
    rule_class: RuleClass
    title: str
    text: str  # Markdown source, as written
    source: Source  # the rule's heading
    text_line: int = 0  # the line its text starts on (0: not known)
    power: Fraction | None = None  # format 1.1, with rules.power: its `Power:` line
    # Format 1.2: what the keepers knew of its past without its texts (`History:` lines), and the annotations
    # kept with it (`Annotation:` paragraphs), each with its line; neither is part of its text.
    history: tuple[str, ...] = ()
    annotations: tuple[tuple[str, Source], ...] = ()
    revision: int | None = None  # format 1.2: its `Revision:` line, the keepers' count of its changes so far
    label: str = ""  # format 1.4: its `Label:` line, the record's own name for it (`4E83`, `UC1`)


@dataclass(frozen=True)
class Ruleset:
    title: str
    rules: tuple[Rule, ...]
    source: Source
    # Set on snapshots only: the point in the log the snapshot claims to show.
    after_proposal: int | None = None
    as_of: dt.date | None = None
    # Format 1.3: the topics its level-1 headings group the rules by, each with its rules' numbers in its order.
    topics: tuple[tuple[str, tuple[int, ...]], ...] = ()
    # Format 1.4, a snapshot's `Behind:` line: why the keepers' record at that point lagged what the log says took
    # effect (a backlog, entries corrected since): its differences are one note with this cause, not findings.
    behind: str = ""

    def by_number(self) -> dict[int, Rule]:
        return {rule.number: rule for rule in self.rules}


ChangeKind = Literal["enact", "repeal", "amend", "replace", "append", "transmute", "renumber", "retitle", "power",
                     "reenact", "annotate", "unannotate"]


@dataclass(frozen=True)
class Change:
    """One change paragraph of a proposal, judgment or event."""

    kind: ChangeKind
    source: Source
    rule: int | None = None  # the rule as numbered when the change applies (None: enact without a number)
    # Format 1.4: the label the change names its rule by (`Amend rule 4E83 to read:`), not its number: `rule` is
    # None as parsed, and the replay gives the number of the rule in force that has the label then.
    rule_label: str = ""
    text: str = ""  # amend/enact/append: the quoted Markdown
    title: str = ""  # enact/retitle
    rule_class: RuleClass | None = None  # enact/transmute
    edits: tuple[tuple[str, str], ...] = ()  # replace: (old, new) pairs; a deletion has new ""
    new_number: int | None = None  # renumber
    power: Fraction | None = None  # enact with a power, or a change of power (format 1.1)
    # Format 1.2: recorded as attempted and not taken effect (`Failed: ...`): never applied, its claim checked.
    failed: bool = False
    # Format 1.4, the record's word on the change (a paragraph right after it): the keepers' own history line for it
    # (on a re-enactment the rule's earlier lives first), the rule's revision after it as they count, and what the
    # record said at the time where they later corrected it. `place`: its line's place among the rule's history
    # lines as the keepers order them (0 the first), where the log holds it after lines that follow it there.
    history: tuple[str, ...] = ()
    revision: int | None = None
    corrected: str = ""
    place: int | None = None
    label: str = ""  # the record's own name for the rule from this change on (`Label: 4E83`)


# The words that open a group of a `Votes:` line (`present` means what `abstain` means).
VOTE_WORDS = ("for", "against", "abstain", "present")


@dataclass(frozen=True)
class Votes:
    for_: tuple[PlayerName, ...] = ()
    against: tuple[PlayerName, ...] = ()
    abstain: tuple[PlayerName, ...] = ()
    # Format 1.1: each ballot's strength (`Alice x3`), parallel to the names; empty: every ballot is 1.
    strengths: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]] | None = None
    present: bool = False  # the third group was written `present` (it means what `abstain` means)
    # Format 1.2, a `Tally:` line: the counts for, against and abstaining, the names not recorded.
    counts: tuple[int, int, int] | None = None

    @property
    def voters(self) -> tuple[str, ...]:
        return self.for_ + self.against + self.abstain

    @property
    def weighted(self) -> bool:
        return self.strengths is not None and any(s != 1 for group in self.strengths for s in group)

    def _group(self, position: int, names: tuple[str, ...]) -> tuple[int, ...]:
        return self.strengths[position] if self.strengths is not None else (1,) * len(names)

    @property
    def for_strengths(self) -> tuple[int, ...]:
        return self._group(0, self.for_)

    @property
    def against_strengths(self) -> tuple[int, ...]:
        return self._group(1, self.against)

    @property
    def abstain_strengths(self) -> tuple[int, ...]:
        return self._group(2, self.abstain)

    @property
    def strength_for(self) -> int:
        return self.counts[0] if self.counts else sum(self.for_strengths)

    @property
    def strength_against(self) -> int:
        return self.counts[1] if self.counts else sum(self.against_strengths)

    @property
    def strength_abstain(self) -> int:
        return self.counts[2] if self.counts else sum(self.abstain_strengths)

    @property
    def ballot_count(self) -> int:
        return sum(self.counts) if self.counts else len(self.voters)

    @property
    def cast(self) -> bool:
        """Whether any ballot is recorded (by name or counted)."""
        return self.ballot_count > 0

    def groups(self) -> tuple[tuple[tuple[str, ...], str, tuple[int, ...]], ...]:
        """(names, how, their strengths) for the ballots for, against and abstaining, in that order."""
        return ((self.for_, "for", self.for_strengths), (self.against, "against", self.against_strengths),
                (self.abstain, "present" if self.present else "abstain", self.abstain_strengths))

    def ballots(self) -> list[tuple[str, str, int]]:
        """(name, how, strength) for every ballot, in the order written."""
        return [(name, how, strength) for names, how, strengths in self.groups()
                for name, strength in zip(names, strengths)]


@dataclass(frozen=True)
class PointAward:
    player: PlayerName
    points: Number
    reason: str
    source: Source


@dataclass(frozen=True)
class Effect:
    key: str  # dotted, e.g. "adoption.method"
    value: object
    source: Source


@dataclass(frozen=True)
class Claim:
    """Something the keepers recorded that the engine recomputes (Result, Scores, Winner)."""

    source: Source


@dataclass(frozen=True)
class ScoresClaim(Claim):
    scores: tuple[tuple[PlayerName, Number], ...]


@dataclass(frozen=True)
class WinnerClaim(Claim):
    players: tuple[PlayerName, ...]


@dataclass(frozen=True)
class ResultClaim(Claim):
    result: Result
    # Format 1.3: why a proposal failed, as the game's own rules give it (`Reason: depends on proposal 58`), and
    # where it is written; "" when the record gives none.
    reason: str = ""
    reason_source: Source | None = None


@dataclass(frozen=True)
class DieRoll:
    total: int
    source: Source


@dataclass(frozen=True)
class EntryCommon:
    """What proposals, judgments and events share."""

    title: str
    date: dt.date | None
    source: Source  # the entry's heading
    body: str  # the free Markdown after the key lines, change paragraphs included
    notes: tuple[str, ...] = ()
    changes: tuple[Change, ...] = ()
    effects: tuple[Effect, ...] = ()
    points: tuple[PointAward, ...] = ()
    scores: ScoresClaim | None = None
    winner: WinnerClaim | None = None
    month_only: bool = False  # format 1.2: `Date: 2019-07`, held as the month's first day
    by: str = ""  # format 1.2, on a judgment or an event: who made its changes (`By: rule 2650`)
    by_source: Source | None = None


@dataclass(frozen=True)
class Proposal(EntryCommon):
    number: int = 0
    decision: str = ""  # format 1.2: the letter of a decision taken again (`## Proposal 8188A`)
    proposer: PlayerName = ""
    proposer_source: Source | None = None
    coauthors: tuple[PlayerName, ...] = ()  # format 1.2: its `Co-authors:` line
    # Format 1.2: the proposal's own text as submitted (Markdown, after a paragraph `As proposed:`), where its
    # change paragraphs are what the record says it did; not part of `body`.
    proposed: str = ""
    proposed_unrecorded: bool = False  # format 1.4: `As proposed: not recorded`, no record holds its own text
    votes: Votes | None = None  # None: no Votes line at all; Votes() with nothing: "Votes: none"
    votes_source: Source | None = None
    result: ResultClaim | None = None
    die: DieRoll | None = None
    extra_turn: bool = False
    # Format 1.1: the decision's adoption index, quorum and the power it takes effect with, each with its line.
    index: Fraction | None = None
    quorum: int | None = None
    power: Fraction | None = None
    decision_sources: tuple[tuple[str, Source], ...] = ()  # ("index" | "quorum" | "power", where written)

    @property
    def kind(self) -> str:
        return "proposal"

    @property
    def name(self) -> str:
        """`8188` or, for a decision taken again, `8188A`."""
        return f"{self.number}{self.decision}"

    def source_of(self, key: str) -> Source:
        return next((source for name, source in self.decision_sources if name == key), self.source)


@dataclass(frozen=True)
class Setting:
    """A judgment's `Sets:` line: score, result or next-player."""

    what: Literal["score", "result", "next-player"]
    source: Source
    player: PlayerName = ""
    value: Number = 0
    proposal: int = 0
    result: Result | None = None


@dataclass(frozen=True)
class Judgment(EntryCommon):
    number: int = 0
    case: str = ""  # format 1.2: a judgment named by its case (`CFJ 4153`) has no number
    judge: PlayerName = ""
    settings: tuple[Setting, ...] = ()

    @property
    def kind(self) -> str:
        return "judgment"


@dataclass(frozen=True)
class PlayerChange:
    player: PlayerName
    joins: bool
    source: Source
    renamed_to: PlayerName = ""  # format 1.2, `Players: Jason -> Janet`: neither joins nor leaves, but is renamed


@dataclass(frozen=True)
class Event(EntryCommon):
    players: tuple[PlayerChange, ...] = ()
    turn_of: PlayerName | None = None
    turn_source: Source | None = None
    die: DieRoll | None = None

    @property
    def kind(self) -> str:
        return "event"


@dataclass(frozen=True)
class Unrecorded(EntryCommon):
    """Format 1.2, `## Unrecorded: 8724-8804`: proposal numbers used of which the record holds nothing."""

    ranges: tuple[tuple[int, int], ...] = ()  # (first, last) of each number or run, as written

    @property
    def kind(self) -> str:
        return "unrecorded"

    @property
    def numbers_text(self) -> str:
        return ", ".join(str(first) if first == last else f"{first}-{last}" for first, last in self.ranges)


Entry = Union[Proposal, Judgment, Event, Unrecorded]


@dataclass(frozen=True)
class Log:
    preamble: str
    entries: tuple[Entry, ...]
    files: tuple[str, ...]


@dataclass(frozen=True)
class EarlierProposal:
    """Format 1.4: a proposal known only from the record (earlier.md), from before the log begins: what the
    record says of it, never replayed. `date` is as written (`1995-01-12`, `1995-01` or `1995`), `power` too."""

    number: int
    title: str
    source: Source
    proposer: PlayerName = ""
    coauthors: tuple[PlayerName, ...] = ()
    date: str = ""
    power: str = ""
    result: str = ""
    notes: tuple[str, ...] = ()
    text: str = ""  # the record's own words of it (Markdown)


@dataclass(frozen=True)
class UnreadableDraft:
    """A draft serve cannot read (half-written, or a link out of the content folder): its page says why, each
    problem as `file:line: message`, while every other page is served."""

    file: str
    problems: tuple[str, ...]


@dataclass(frozen=True)
class Game:
    slug: str  # the folder's name as an address on the site (model/urls.py url_segment)
    config: Config
    rules: Ruleset
    log: Log
    snapshots: tuple[Ruleset, ...] = ()
    drafts: tuple[Proposal, ...] = ()
    unreadable_drafts: tuple[UnreadableDraft, ...] = ()  # serve's: drafts it cannot read, each page saying why
    players_source: Source | None = None  # the `players` line of game.toml, where findings about them stand
    earlier: tuple[EarlierProposal, ...] = ()  # format 1.4: earlier.md, by number
    former_slugs: tuple[str, ...] = ()  # the addresses sites built before gave the folder (urls.former_url_segments)

    @property
    def parsed_files(self) -> tuple[str, ...]:
        """The files read entry by entry (a LogParser remembers their parses): the log's, and earlier.md."""
        return self.log.files + tuple(proposal.source.file for proposal in self.earlier[:1])


NameMap = Callable[[Any, Callable[[str], str]], Any]  # (a value, what each name becomes) -> the value so named
_NAME_MAPS: dict[type, NameMap | None] = {}


def with_names(value: Any, of: Callable[[str], str]) -> Any:
    """`value` (an entry, or any dataclass of the model) with each PlayerName in it, however deep in its fields
    and tuples, replaced by `of(name)`: the very same object where `of` gives every name back itself (the same
    str), so that a caller can tell by identity that nothing was renamed."""
    name_map = _class_name_map(type(value))
    return value if name_map is None else name_map(value, of)


def _class_name_map(kind: type) -> NameMap | None:
    """How `with_names` maps a `kind`, made once from its fields' types: None when no field can hold a name."""
    if kind in _NAME_MAPS:
        return _NAME_MAPS[kind]
    hints = typing.get_type_hints(kind, include_extras=True)
    named = tuple((field.name, name_map) for field in dataclasses.fields(kind)
                  if (name_map := _name_map(hints[field.name])) is not None)
    plain = not hasattr(kind, "__post_init__") and not any(
        isinstance(attribute, functools.cached_property) for base in kind.__mro__ for attribute in vars(base).values())

    def renamed(value: Any, of: Callable[[str], str]) -> Any:
        changed = None
        for name, name_map in named:
            held = getattr(value, name)
            mapped = name_map(held, of)
            if mapped is not held:
                changed = changed or {}
                changed[name] = mapped
        if changed is None:
            return value
        if not plain:
            return dataclasses.replace(value, **changed)
        # As dataclasses.replace, without its __init__ (which took half the time of renaming a log; records.py
        # reads a dataclass back so too): the fields are the value's own, a name for a name.
        made = object.__new__(kind)
        made.__dict__.update(value.__dict__, **changed)
        return made
    _NAME_MAPS[kind] = renamed if named else None
    return _NAME_MAPS[kind]


def _name_map(hint: Any) -> NameMap | None:
    """How `with_names` maps a value of type `hint`: None when it cannot hold a name."""
    if hint == PlayerName:
        return _name
    origin, arguments = typing.get_origin(hint), typing.get_args(hint)
    if origin in (Union, types.UnionType):
        maps = [name_map for member in arguments if (name_map := _name_map(member)) is not None]
        if len(maps) > 1:
            raise TypeError(f"{hint}: a union with more than one member that holds names")
        if not maps:
            return None
        member_map = maps[0]
        return (lambda value, of: value if value is None else member_map(value, of)) \
            if type(None) in arguments else member_map
    if origin is tuple and arguments[-1:] == (Ellipsis,):
        return _each(arguments[0])
    if origin is tuple:
        return _fixed(arguments)
    if dataclasses.is_dataclass(hint):  # by the value's own class, which may be a subclass of `hint`
        return with_names if _class_name_map(hint) is not None else None
    return None


def _name(name: str, of: Callable[[str], str]) -> str:
    return of(name)


def _names(names: tuple[str, ...], of: Callable[[str], str]) -> tuple[str, ...]:
    """A tuple of names (a Votes group), mapped at once."""
    mapped = tuple(map(of, names))
    return names if mapped == names else mapped


def _each(item: Any) -> NameMap | None:
    """A tuple of any length of `item`s."""
    item_map = _name_map(item)
    if item_map is None:
        return None
    if item_map is _name:
        return _names

    def renamed(values: tuple, of: Callable[[str], str]) -> tuple:
        mapped = tuple(item_map(value, of) for value in values)
        return values if all(new is old for new, old in zip(mapped, values)) else mapped
    return renamed


def _fixed(items: tuple) -> NameMap | None:
    """A tuple of so many values, each of its own type (a score: (name, points))."""
    maps = [(position, name_map) for position, item in enumerate(items) if (name_map := _name_map(item)) is not None]
    if not maps:
        return None

    def renamed(values: tuple, of: Callable[[str], str]) -> tuple:
        mapped = list(values)
        for position, name_map in maps:
            mapped[position] = name_map(values[position], of)
        return values if all(new is old for new, old in zip(mapped, values)) else tuple(mapped)
    return renamed
