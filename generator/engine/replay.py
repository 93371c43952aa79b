"""Replay: a pure fold over the log, from the parsed game to the state after each entry and the findings.

No I/O and no globals: `check`, the site and the server all call `replay(game)`. Where the log's claims
(Result, Scores, Winner) differ from the computation, the finding records both, and the replay goes on
from the keepers' record where that keeps one slip to one finding (results), and from its own arithmetic
where that does (scores). A Judge's ruling stands above both (Suber 212 and the essay in seed 004).
"""
from __future__ import annotations

import bisect
import copy
import dataclasses
import difflib
import datetime as dt
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from operator import itemgetter
from typing import NamedTuple

from immutables import Map

from ..model import (Change, Cited, Entry, Event, Game, Judgment, Number, Proposal, Rule, Ruleset, Source, Unrecorded,
                     VOTE_WORDS, amount_text, as_amount, with_names)
from ..limits import MAX_DIGITS
from ..model.config import POWER_KEYS, Aliases, Config
from ..model.dice import parse_dice
from ..model.names import look_alike, looks_like, skeleton
from ..model.solitaire import Turn
from ..parse.source import shorten
from ..model.formula import SCORING_NAMES, FormulaError, compile_formula
from ..parse.source import FENCE
from .adoption import Decision, decide, decimal_text, describe
from .rulebook import ChangeProblem, CurrentRule, RuleVersion, Rulebook, changed_text
from .turns import TurnTracker
from .words import ORDER_WORDS, effect_words


class _Placed:
    """Where a finding or an override is: its Source, read when asked (a Source follows its entry)."""

    source: Source

    @property
    def file(self) -> str:
        return self.source.file

    @property
    def line(self) -> int:
        return self.source.line


@dataclass(frozen=True)
class Finding(_Placed):
    """A discrepancy between the log and the replay: what the log says and what the replay computed."""

    kind: str
    source: Source
    message: str | Cited  # Cited where it names another place
    entry: str = ""  # "proposal 305", "judgment 7", "event 'Eve joins'"
    expected: str | None = None  # what the replay computed
    found: str | None = None  # what the log says
    cause: Source | None = None  # the earlier slip this one stems from, where one does
    rule: int | None = None  # the number of the rule a change beyond its power was made to (kind "power")

    def __str__(self) -> str:
        return self.shown(str)

    def shown(self, place: Callable[[Source], str]) -> str:
        """`file:line: entry: message`, each place named by `place` (see Cited.spelled)."""
        return f"{place(self.source)}: {self.described(place)}"

    def described(self, place: Callable[[Source], str]) -> str:
        """`entry: message`: what is wrong, without where."""
        prefix = f"{self.entry}: " if self.entry else ""
        return prefix + (self.message.spelled(place) if isinstance(self.message, Cited) else self.message)

    def to_json(self) -> dict:
        return {"file": self.file, "line": self.line, "kind": self.kind, "entry": self.entry,
                "message": str(self.message), "expected": self.expected, "found": self.found,
                "cause": str(self.cause) if self.cause else None}


@dataclass(frozen=True)
class Override(_Placed):
    """A judgment that set a fact: the report shows what was computed and what the Judge set."""

    source: Source
    judgment: str
    what: str
    computed: str
    set_to: str

    def __str__(self) -> str:
        return self.shown(str)

    def shown(self, place: Callable[[Source], str]) -> str:
        return f"{place(self.source)}: {self.described(place)}"

    def described(self, place: Callable[[Source], str]) -> str:
        return f"{self.judgment} sets {self.what} to {self.set_to} (computed: {self.computed})"

    def to_json(self) -> dict:
        return {"file": self.file, "line": self.line, "judgment": self.judgment, "what": self.what,
                "computed": self.computed, "set": self.set_to}


@dataclass(frozen=True)
class ScoreDelta:
    player: str
    points: Number
    reason: str | Cited  # "die", "formula", "adopted", "defeated", "voted against", "points (rule 316)", ...

    def explain(self) -> str | Cited:
        sign = "+" if self.points >= 0 else "-"
        if self.reason == "die":
            return f"{sign} die {amount_text(abs(self.points))}"
        return Cited(f"{sign} {amount_text(abs(self.points))} ", self.reason)


@dataclass(frozen=True)
class Step:
    """The game just after one log entry."""

    index: int
    entry: Entry
    label: str
    turn_of: str | None  # whose turn the entry used (None: it took no turn)
    expected_player: str | None  # whose turn it was by the order of play
    method: str | None  # adoption method the vote was judged by
    decision: Decision | None  # the vote judged: tallies, what the method asked, the result it gives
    power: Fraction | None  # format 1.1: the power an adopted proposal took effect with, where checked
    computed_result: str | None
    result: str | None  # the result the replay went on with
    deltas: tuple[ScoreDelta, ...]
    scores: dict[str, int]
    players: tuple[str, ...]
    next_player: str | None
    order: tuple[str, ...]  # the order of play the engine follows for the current circuit
    circuits: int
    winner: tuple[str, ...]  # the game's winner once decided
    findings: tuple[Finding, ...]
    overrides: tuple[Override, ...]
    notes: tuple[str, ...]  # what the replay did of its own accord ("adoption becomes majority ...")
    # Format 1.2: each change recorded as failed, with why it could not take effect ("": nothing stopped it)
    failed: tuple[tuple[Change, str], ...] = ()


class ProposalCount(NamedTuple):
    numbers: int  # proposals (a solitaire game's turns), each number once
    again: int  # decisions taken again on a proposal (format 1.2: `Proposal 8188A`)


class Outcome:
    """The scores and the winner after a replay's last step, and its count of proposals, as the check reports
    and the site read them of either variant (Replay, SolitaireReplay): each has `steps` (with `scores` and
    `winner`) and `initial_scores`."""

    @property
    def proposal_count(self) -> ProposalCount:
        again = sum(1 for step in self.steps if isinstance(step.entry, Proposal) and step.entry.decision)
        return ProposalCount(sum(1 for step in self.steps if isinstance(step.entry, (Proposal, Turn))) - again, again)

    @property
    def final_scores(self) -> dict[str, int]:
        return self.steps[-1].scores if self.steps else self.initial_scores

    @property
    def winner(self) -> tuple[str, ...]:
        return self.steps[-1].winner if self.steps else ()


class Checkpoint(NamedTuple):
    """The fold's state just before entry `index`, kept by a replay asked for checkpoints (serve's), for a
    replay of the edited log to resume from (engine/resume.py): every few hundred entries, and after the last."""

    index: int
    state: FoldState


class Checkpoints:
    """A replay's checkpoints, in order of index, which the replay resumed from it takes (`take`): a replay is
    resumed from once, as serve resumes each from the last, and one that must start from nothing lets them go
    before it starts, though the replay they were kept by is still drawn from (serve shows it meanwhile). Taken
    twice, the second finds none: a replay from the start, the same result."""

    __slots__ = ("_kept",)

    def __init__(self, kept: Iterable[Checkpoint] = ()) -> None:
        self._kept = tuple(kept)

    def take(self) -> tuple[Checkpoint, ...]:
        kept, self._kept = self._kept, ()
        return kept

    def __iter__(self) -> Iterator[Checkpoint]:
        return iter(self._kept)

    def __len__(self) -> int:
        return len(self._kept)


@dataclass(frozen=True)
class Replay(Outcome):
    game: Game
    steps: tuple[Step, ...]
    versions: tuple[RuleVersion, ...]
    findings: tuple[Finding, ...]
    errors: tuple[Finding, ...]  # changes that cannot apply as written: the input is unreadable (exit 2)
    overrides: tuple[Override, ...]
    initial_scores: dict[str, int]
    next_proposal: int  # the number the next proposal would take, by the numbering the replay checks
    # The mechanics in force after the last entry (game.toml and the Effects since).
    mechanics: Config
    switch_rule: int | None = None  # the present number of the rule whose amendment stops the switch
    # Format 1.2: each `Annotate rule N:` applied, as (the rule's identity, the change, the entry's index).
    annotations: tuple[tuple[int, Change, int], ...] = ()
    wins: tuple[tuple[int, tuple[str, ...]], ...] = ()  # after_win = "reset": each (entry index, winners), in order
    # (entry index, the fold's state before that entry), where `keeps_checkpoint` says, when asked for: a
    # replay of an edited log resumes from the last one before the edit (see `replay`), and takes them.
    checkpoints: Checkpoints = field(default_factory=Checkpoints, compare=False, repr=False)
    # What the fold was given, read off the game (`result_rulings`, `snapshot_points`): a resume compares the
    # edited game's with them rather than reading the whole log before the edit again.
    rulings: dict[int, tuple[str, str, Source]] = field(default_factory=dict, compare=False, repr=False)
    points: dict[int, list[Ruleset]] = field(default_factory=dict, compare=False, repr=False)

    def rules_at(self, index: int) -> list[RuleVersion]:
        """The rules in force just after entry `index` (-1: the initial set), by number."""
        live = [v for v in self.versions if v.start <= index and (v.end is None or v.end > index)]
        return sorted(live, key=lambda v: v.number)


def entry_label(entry: Entry) -> str:
    if isinstance(entry, Proposal):
        return f"proposal {entry.name}"  # (a draft is replayed under the number it would take)
    if isinstance(entry, Judgment):
        return f"judgment {entry.case or entry.number}"
    if isinstance(entry, Unrecorded):
        return f"unrecorded {entry.numbers_text}"
    return f"event '{entry.title}'" if entry.title else "event"


def _entry_own(factory: Callable[[], object] | None = None, default: object = None):
    """A field of FoldState that belongs to the entry being folded, not carried to the next: each entry starts it
    anew (its default), and neither the state's equality nor a copy of it holds it."""
    if factory is not None:
        return field(default_factory=factory, compare=False, metadata={"entry": True})
    return field(default=default, compare=False, metadata={"entry": True})


@dataclass
class FoldState:
    """What the fold carries from one entry to the next: every field but the game and those of the entry being
    folded (`_entry_own`). Two states are equal when what they carry is (the dataclass's equality), and a copy
    copies each carried field as its type copies itself (`copy.copy`: a Rulebook and a TurnTracker copy what they
    change): a field added here is carried, compared and copied with no list to name it in."""

    game: Game = field(compare=False)  # (None in a checkpoint: set again when the fold resumes)
    config: Config
    book: Rulebook
    turns: TurnTracker
    scores: dict[str, int]
    players: list[str]
    # The numbers the next proposal may take: the true count, and after a slip also the number that
    # continues from what the keepers wrote (FORMAT.md: one slip is one finding).
    next_numbers: tuple[int, ...]
    switch_identity: int | None = None  # the rule (by identity) whose amendment stops the switch
    # The first proposal of each number, and the last decision on each (`decisions`): persistent maps, which a
    # checkpoint shares instead of copying (10,000 numbers in each, 34 checkpoints: 13 MB as dicts).
    seen_numbers: Map[int, Source] = field(default_factory=Map)
    # Format 1.1, numbering.in_order = false: (number, step index, source) of each proposal numbered so.
    unordered: list[tuple[int, int, Source]] = field(default_factory=list)
    winner: tuple[str, ...] = ()
    ended_at: str = ""
    switched: bool = False
    overlooked_win: bool = False  # the replay found a win the log did not record, and play went on
    last_date: dt.date | None = None
    strangers: set[str] = field(default_factory=set)  # names reported as not in the game
    stranger_turn: bool = False  # a stranger moved last: the turn they took may or may not count
    # player -> (the log's score minus the replay's, where the log first differed): after a score slip the
    # next Scores may continue from either, and the replay follows whichever it does.
    score_slips: dict[str, tuple[int, Source]] = field(default_factory=dict)
    # Format 1.2: numbers declared unrecorded; the last decision on each proposal number, (result, where);
    # whether whose turn it is was lost (after unrecorded numbers); old names -> (new name, where renamed);
    # whether the last date was a month; the annotations made.
    unrecorded: list[tuple[int, int, Unrecorded]] = field(default_factory=list)  # (first, last, where): sorted, disjoint
    decisions: Map[int, tuple[str | None, Source]] = field(default_factory=Map)
    turn_unknown: bool = False
    renamed: dict[str, tuple[str, Source]] = field(default_factory=dict)
    last_month_only: bool = False
    annotations: list[tuple[int, Change, int]] = field(default_factory=list)
    wins: list[tuple[int, tuple[str, ...]]] = field(default_factory=list)  # (entry index, winners): after_win = "reset"
    next_rule: int | None = None  # numbering.next_rule as enactments move it on
    findings: list[Finding] = field(default_factory=list)
    errors: list[Finding] = field(default_factory=list)
    overrides: list[Override] = field(default_factory=list)
    # The entry's own (see Step): the players whose recorded Scores the replay follows at this entry (an award
    # to voters by side a Tally cannot assign), its notes, its score changes, its changes recorded as failed,
    # its label and its heading.
    follow_recorded: set[str] = _entry_own(set)
    notes: list[str] = _entry_own(list)
    deltas: list[ScoreDelta] = _entry_own(list)
    failed: list[tuple[Change, str]] = _entry_own(list)
    # (position among the entry's changes, the change) for each that named its rule by a label, with the number
    # of the rule that had it: the step's entry holds these in their places (the pages look rules up by number).
    resolved: list[tuple[int, Change]] = _entry_own(list)
    label: str = _entry_own(default="")
    source: Source | None = _entry_own()

    def find(self, kind: str, source: Source, message: str | Cited, expected: object = None, found: object = None,
             cause: Source | None = None, rule: int | None = None) -> None:
        self.findings.append(Finding(kind, source, message, self.label, None if expected is None else str(expected),
                                     None if found is None else str(found), cause, rule))

    def add(self, player: str, points: Number, reason: str | Cited) -> None:
        if points:
            self.scores[player] = as_amount(self.scores.get(player, 0) + points)  # exact: fractions, never floats
            self.deltas.append(ScoreDelta(player, as_amount(points), reason))

    def begin(self, entry: Entry) -> None:
        """The state about to fold `entry`: the entry's own fields started anew."""
        for name, fresh in _ENTRY_OWN:
            setattr(self, name, fresh())
        self.label, self.source = entry_label(entry), entry.source

    def copy(self) -> FoldState:
        """An independent copy, to resume the fold from (a checkpoint): what it carries copied as each type copies
        itself, the entry's own started anew, the game shared."""
        copied = copy.copy(self)
        for name in _CARRIED:
            value = getattr(self, name)
            setattr(copied, name, value if type(value) is Map else copy.copy(value))  # (copy.copy would rebuild it)
        for name, fresh in _ENTRY_OWN:
            setattr(copied, name, fresh())
        return copied

    def fold(self, index: int, entry: Entry, rulings: dict, points: dict[int, list[Ruleset]]) -> Step:
        """One step of the fold: the game just after `entry` (entry `index` of the game's log), this state moved
        on to it. `rulings` and `points`: the game's `result_rulings` and `snapshot_points`."""
        return _fold_entry(self, index, entry, rulings, points)

    def kept(self) -> FoldState:
        """A copy to keep in a checkpoint, without the game (a checkpoint must not keep an old game alive)."""
        kept = self.copy()
        kept.game = None
        return kept

    def resumed(self, game: Game) -> FoldState:
        """A copy of a checkpoint's state to fold `game`'s entries from."""
        state = self.copy()
        state.game = game
        return state

    def text_differences(self, other: FoldState) -> set[int] | None:
        """The rules, by identity, whose texts alone tell this state from `other` (Rulebook.text_differences;
        none: the fold goes on from both alike); None when anything else they carry differs."""
        if any(getattr(self, name) != getattr(other, name) for name in _CARRIED if name != "book"):
            return None
        return self.book.text_differences(other.book)


# Read off the fields' declarations above (the dataclass's equality reads the same): what the fold carries, and
# the entry's own with how each starts.
_CARRIED = tuple(f.name for f in dataclasses.fields(FoldState) if f.compare)
_ENTRY_OWN = tuple((f.name, f.default_factory if f.default_factory is not dataclasses.MISSING
                    else (lambda default=f.default: default)) for f in dataclasses.fields(FoldState)
                   if f.metadata.get("entry"))


# Checkpoints for resuming a replay: about this many over the log (and at least this far apart).
CHECKPOINTS = 32
CHECKPOINT_MIN_SPACING = 128
# A failed proposal's `Reason:` that names the proposal it depended on, or one it was incompatible with (1.3).
_DEPENDS = re.compile(r"\bdepend(?:s|ed|ing)?\s+on\s+proposal\s+#?([0-9]{1,12})\b", re.IGNORECASE)
_INCOMPATIBLE = re.compile(r"\bincompatible\s+with\s+proposal\s+#?([0-9]{1,12})\b", re.IGNORECASE)
# An event's `By:` that names a rule: by its number, or (format 1.4) its label (a run of characters up to a space,
# a comma or a bracket, not ending in a full stop).
_BY_RULE = re.compile(r"rule\s+([^\s,;()]*[^\s,;().])", re.IGNORECASE)
# An event's `By:` that names the keepers' cleaning (format 1.2 extension): no rule-change.
_CLEANING = re.compile(r"\s*cleaning\b", re.IGNORECASE)


def replay(game: Game, *, checkpoints: bool = False) -> Replay:
    """The replay of a game: the fold over its entries. With `checkpoints`, the fold's state is kept every few
    hundred entries (`Checkpoint`), for a later replay of the edited log to resume from (engine/resume.py)."""
    state = initial_state(game)
    look_alike_players(game, state.findings)
    initial_scores = dict(state.scores)
    rulings, points = result_rulings(game), snapshot_points(game, state.findings)
    for snapshot in points.get(-1, []):
        compare_snapshot(state.findings, state.book.current, snapshot)
    before_entries = list(state.findings)  # snapshots before the first entry, or standing nowhere
    entries = game.log.entries
    kept: list[Checkpoint] = []
    steps: list[Step] = []
    for index, entry in enumerate(entries):
        if checkpoints and keeps_checkpoint(index, len(entries)):
            kept.append(Checkpoint(index, state.kept()))
        steps.append(state.fold(index, entry, rulings, points))
    return finish(game, state, steps, before_entries, initial_scores, tuple(kept), rulings, points)


def initial_state(game: Game) -> FoldState:
    config = game.config
    players = list(config.players)
    state = FoldState(game=game, config=config, book=Rulebook.from_rules(game.rules.rules),
                   turns=TurnTracker(config.turns.order, config.turns.collation, list(players)),
                   scores={p: 0 for p in players}, players=players,
                   next_numbers=(config.numbering.first_proposal,), next_rule=config.numbering.next_rule)
    state.switch_identity = _switch_identity(state)
    return state


def _fold_entry(state: FoldState, index: int, recorded: Entry, rulings: dict, points: dict[int, list[Ruleset]]
                ) -> Step:
    """One step of the fold: the game just after `recorded`, `state` moved on to it. The fold reads the entry with
    each name played under as the person's (game.toml's `[aliases]`); the step keeps the entry as recorded."""
    entry = as_people(recorded, state.config.aliases)
    state.begin(entry)
    findings_before, overrides_before = len(state.findings), len(state.overrides)
    _check_date(state, entry)
    if state.winner and not isinstance(entry, Judgment):
        state.find("after-end", entry.source, f"the game already ended ({state.ended_at}: won by "
                   f"{', '.join(state.winner)}); nothing may follow")
    expected_player = state.turns.expected() if state.turns.active else None
    outcome = (_proposal(state, index, entry, rulings) if isinstance(entry, Proposal)
               else _judgment(state, index, entry) if isinstance(entry, Judgment)
               else _unrecorded(state, entry) if isinstance(entry, Unrecorded)
               else _event(state, index, entry))
    newly_won = _check_win(state, entry)
    _check_claims(state, entry, newly_won, index == len(state.game.log.entries) - 1)
    reset = bool(newly_won) and state.winner == newly_won and state.config.scoring.after_win == "reset"
    if reset:  # format 1.2: the win recorded, every score 0, and play goes on (this entry's Scores were checked)
        state.wins.append((index, newly_won))
        for player, score in list(state.scores.items()):
            state.add(player, -score, "reset after the win")
        state.winner, state.ended_at = (), ""
    _maybe_switch(state)
    state.turns.follow(state.config.turns.order, state.config.turns.collation)
    for snapshot in points.get(index, []):
        compare_snapshot(state.findings, state.book.current, snapshot)
    if state.resolved:
        changes = list(recorded.changes)
        for position, change in state.resolved:
            changes[position] = change
        recorded = dataclasses.replace(recorded, changes=tuple(changes))
    return Step(index=index, entry=recorded, label=state.label, turn_of=outcome.turn_of,
                expected_player=expected_player if outcome.turn_of else None, method=outcome.method,
                decision=outcome.decision, power=outcome.power,
                computed_result=outcome.computed, result=outcome.result, deltas=tuple(state.deltas),
                scores=dict(state.scores), players=tuple(state.players),
                next_player=state.turns.expected() if state.turns.active else None,
                order=tuple(state.turns.order) if state.turns.active else (),
                circuits=state.turns.circuits, winner=newly_won if reset else state.winner,
                findings=tuple(state.findings[findings_before:]),
                overrides=tuple(state.overrides[overrides_before:]), notes=tuple(state.notes),
                failed=tuple(state.failed))


def as_people(entry: Entry, aliases: Aliases) -> Entry:
    """`entry` with each name in it that is an alias (game.toml's `[aliases]`) written as the person's name: the
    entry itself when it names no alias (every entry of a game without aliases). The names are the fields the
    model types PlayerName."""
    return with_names(entry, aliases.of) if aliases.people else entry


def finish(game: Game, state: FoldState, steps: list[Step], before_entries: list[Finding],
            initial_scores: dict[str, int], checkpoints: tuple[Checkpoint, ...], rulings: dict,
            points: dict[int, list[Ruleset]]) -> Replay:
    if checkpoints:  # and one at the end, where an entry appended resumes
        checkpoints += (Checkpoint(len(steps), state.kept()),)
    _missing_numbers(state, steps)
    findings = before_entries + [f for step in steps for f in step.findings]
    # A replay that numbered proposals in resolution order adds findings at the end, after the fold: it is
    # not resumed (engine/resume.py), so it keeps no checkpoints.
    return Replay(game=game, steps=tuple(steps), versions=state.book.finish(), findings=tuple(findings),
                  errors=tuple(state.errors), overrides=tuple(state.overrides), initial_scores=initial_scores,
                  next_proposal=max(state.next_numbers), mechanics=state.config,
                  switch_rule=state.book.number_of(state.switch_identity),
                  annotations=tuple(state.annotations), wins=tuple(state.wins),
                  checkpoints=Checkpoints(checkpoints if not state.unordered else ()), rulings=rulings, points=points)


def keeps_checkpoint(index: int, entries: int) -> bool:
    """Whether a fold over `entries` entries keeps its state just before entry `index`: every few hundred
    entries, and before each of the last two, which a keeper edits most: the last entry deleted then folds
    nothing, even just after another deletion (an entry appended, then undone)."""
    return index % _checkpoint_spacing(entries) == 0 or index >= entries - 2


def _checkpoint_spacing(entries: int) -> int:
    return max(CHECKPOINT_MIN_SPACING, -(-entries // CHECKPOINTS))




@dataclass(frozen=True)
class _Outcome:
    turn_of: str | None = None
    method: str | None = None
    decision: Decision | None = None
    power: Fraction | None = None
    computed: str | None = None
    result: str | None = None


def result_rulings(game: Game) -> dict[int, tuple[str, str, Source]]:
    """Judgments' `Sets: result N X`: the Judge's result governs proposal N wherever the ruling stands."""
    rulings = {}
    for entry in game.log.entries:
        if isinstance(entry, Judgment):
            for setting in entry.settings:
                if setting.what == "result" and setting.result:
                    rulings[setting.proposal] = (setting.result, entry_label(entry), setting.source)
    return rulings


def _date_text(date: dt.date, month_only: bool) -> str:
    return date.strftime("%Y-%m") if month_only else str(date)


def _check_date(state: FoldState, entry: Entry) -> None:
    if entry.date is None:
        return
    # A month (format 1.2) is never backwards against a day in it, nor that day against it.
    by_month = entry.month_only or state.last_month_only
    if state.last_date and ((entry.date.year, entry.date.month) < (state.last_date.year, state.last_date.month)
                            if by_month else entry.date < state.last_date):
        last = _date_text(state.last_date, state.last_month_only)
        state.find("date", entry.source, f"dated {_date_text(entry.date, entry.month_only)}, before the entry above "
                   f"it ({last})", expected=f"{last} or later", found=_date_text(entry.date, entry.month_only))
    # The next entry is compared with this one as written: one date out of place is one finding, whether it
    # is this one (too early) or the one above it (too late).
    state.last_date, state.last_month_only = entry.date, entry.month_only


def _check_player(state: FoldState, name: str, source: Source, role: str) -> bool:
    """Whether `name` plays; a stranger is reported once (the first time the log names them)."""
    if name in state.players:
        return True
    if name in state.renamed and name not in state.strangers:
        state.strangers.add(name)
        new_name, where = state.renamed[name]
        state.find("player", source, Cited(f"{role}: {name} is called {new_name} since ", where), expected=new_name,
                   found=name)
    elif name not in state.strangers:
        state.strangers.add(name)
        state.find("player", source, f"{role}: {name} is not a player in the game"
                   f" (players: {', '.join(state.players) or 'none'}){_looks_like_player(state, name)}"
                   f"{_players_joined(state, name)}{_vote_word_joined(state, name, role)}", found=name)
    return False


def _players_joined(state: FoldState, name: str) -> str:
    """`: a Votes line separates names with commas ('Ann, Bob')` where `name` is players joined by `and` or `&`
    (`for Ann and Bob`); else nothing."""
    parts = [part.strip() for part in re.split(r"\s+(?:and|&)\s+|\s*,\s*", name) if part.strip()]
    return f": a line of names separates them with commas ('{', '.join(parts)}')" \
        if len(parts) > 1 and all(part in state.players for part in parts) else ""


def _vote_word_joined(state: FoldState, name: str, role: str) -> str:
    """`: 'against' starts a group of its own, after a ';' ('...; against Bob')` where a voter's name is a player's
    with a vote's word, or a slip of one, before or after it (`Bob against`, `agianst Bob`); else nothing."""
    if role != "voter" or " " not in name:
        return ""
    first, rest = name.split(" ", 1)
    before, last = name.rsplit(" ", 1)
    for word, player in ((first, rest), (last, before)):
        meant = difflib.get_close_matches(word.lower(), VOTE_WORDS, n=1, cutoff=0.7)
        if meant and player in state.players:
            return f": '{meant[0]}' starts a group of its own, after a ';' ('...; {meant[0]} {player}')"
    return ""


def _looks_like_player(state: FoldState, name: str) -> str:
    """` (\u0410nn looks like Ann)` when a name that is no player's looks like a player's; else nothing."""
    key = skeleton(name)
    alike = next((player for player in state.players if skeleton(player) == key), None)
    return f" ({looks_like(name, alike)})" if alike is not None else ""


def look_alike_players(game: Game, findings: list[Finding]) -> None:
    """Players in game.toml whose names look alike (model/names.py): a finding naming both, at its line."""
    for name, other in look_alike(game.config.players):
        findings.append(Finding("player", game.players_source or game.rules.source, f"players {name} and {other} "
                                f"look alike ({looks_like(name, other)}): no reader can tell which of them voted "
                                "or scored; rename one", found=name))


def _take_turn(state: FoldState, player: str, source: Source, known: bool = True) -> None:
    """A turn taken by `player`. A stranger (already reported) takes no turn, but the player after them may
    be the one who was due or the one after (the record may have counted the stranger's turn as theirs),
    so that one slip stays one finding."""
    if not state.turns.active:
        return
    if state.turn_unknown and known:  # after unrecorded numbers the mover is taken as due (format 1.2)
        state.turn_unknown = False
        state.turns.set_next(player)
    expected = state.turns.expected()
    if not known:
        state.stranger_turn = True
        return
    if state.stranger_turn and expected is not None and player != expected:
        following = copy.deepcopy(state.turns)
        following.take_turn(expected)
        if following.expected() == player:
            state.turns = following
            expected = player
    state.stranger_turn = False
    if expected is not None and player != expected:
        state.find("turn", source, f"it was {expected}'s turn, not {player}'s "
                   f"({ORDER_WORDS.get(state.turns.order_kind, '')})", expected=expected, found=player)
    state.turns.take_turn(player)


def _proposal(state: FoldState, index: int, proposal: Proposal, rulings: dict) -> _Outcome:
    """A proposal: its number, its proposer's turn, its decision (the votes, or a Judge's ruling), what adopting it
    does, and the points it pays."""
    _check_proposal_number(state, index, proposal)
    _check_decision_keys(state, proposal)
    proposer_source = proposal.proposer_source or proposal.source
    known = _check_player(state, proposal.proposer, proposer_source, "proposer")
    turn_of = None
    if not proposal.extra_turn and not proposal.decision:  # a decision taken again is no new turn
        turn_of = proposal.proposer
        _take_turn(state, proposal.proposer, proposer_source, known)
    decided = _decided(state, index, proposal, rulings)
    votes, result, power = proposal.votes, decided.result, None
    if result == "adopted":
        power = _adopt(state, index, proposal, known)
    elif result in ("defeated", "failed-quorum") and known:  # a failed quorum counts as a defeat
        state.add(proposal.proposer, state.config.scoring.defeated, "defeated")
    if result != "adopted":
        state.failed.extend((change, f"the proposal was {result or 'not adopted'}") for change in proposal.changes
                            if change.failed)
    if known:
        _pay_awards(state, proposal, votes, result)
    vote_ended_game = bool(_winners(state))
    if known and not proposal.decision:
        _turn_score(state, proposal, votes, vote_ended_game)
    _award_points(state, proposal)
    state.decisions = state.decisions.set(proposal.number, (result, proposal.source))
    # (one _Outcome made, not two copies by dataclasses.replace: a tenth of a check's replay at 10,000 proposals)
    return _Outcome(turn_of=turn_of, method=decided.method, decision=decided.decision, power=power,
                    computed=decided.computed, result=result)


def _check_proposal_number(state: FoldState, index: int, proposal: Proposal) -> None:
    """A proposal's number by the numbering in force; a decision taken again (format 1.2), not counted by it, needs
    an earlier decision that did not adopt it."""
    number = proposal.number
    earlier = state.decisions.get(number)
    if proposal.decision:
        if earlier is None:
            state.find("proposal-number", proposal.source, f"{proposal.name} is a decision taken again, but no "
                       f"earlier decision on proposal {number} is in the log", expected=f"proposal {number} above",
                       found="none")
        elif earlier[0] == "adopted":
            state.find("result", proposal.result.source if proposal.result else proposal.source,
                       Cited(f"proposal {number} was already adopted at ", earlier[1]), found=proposal.name)
    elif state.config.numbering.in_order:
        _check_number(state, proposal)
    else:
        _check_number_unordered(state, index, proposal)


def _decided(state: FoldState, index: int, proposal: Proposal, rulings: dict) -> _Outcome:
    """The decision on a proposal: the method it is judged by, the vote judged, the result computed and the one the
    replay goes on with (the log's, or a Judge's ruling above both)."""
    config, votes, number = state.config, proposal.votes, proposal.number
    method = config.adoption.transmutation if any(c.kind == "transmute" for c in proposal.changes) \
        else config.adoption.method
    computed = decision = None
    if votes is not None and proposal.votes_source is not None:
        _check_votes(state, proposal)
        if votes.cast:
            decision = decide(method, votes, config.adoption.fraction, index=_index_of(config, proposal),
                              quorum=proposal.quorum if proposal.quorum is not None else config.adoption.quorum)
            computed = decision.result
    recorded = proposal.result.result if proposal.result else None
    result = recorded or computed
    ruling = rulings.get(number)
    if ruling:
        result_set, judgment, source = ruling
        state.overrides.append(Override(source, judgment, f"the result of proposal {number}",
                                        computed or recorded or "unrecorded", result_set))
        result = result_set
    elif decision and recorded in ("adopted", "defeated", "failed-quorum") and computed != recorded:
        state.find("result", proposal.result.source, f"Result says {recorded}; {_gives(decision)}",
                   expected=computed, found=recorded)
    if proposal.result and proposal.result.reason:
        _check_reason(state, proposal.result, number)
    if result is None:
        state.find("result", proposal.source, "no Result and no Votes: the replay cannot tell whether it was adopted")
    return _Outcome(method=method if votes and votes.cast else None, decision=decision, computed=computed,
                    result=result)


def _adopt(state: FoldState, index: int, proposal: Proposal, known: bool) -> Fraction | None:
    """An adopted proposal takes effect: its Effects, then its changes (with the power it takes effect with,
    which it gives back), the cap on mutable rules, and the points for adopting and for voting against."""
    for effect in proposal.effects:
        _apply_effect(state, effect)
    config, votes = state.config, proposal.votes
    cap = config.limits.max_mutable
    # Counting walks every rule: only where there is a cap (without one, 10,000 proposals made it quadratic).
    mutable_before = state.book.mutable_count() if cap else 0
    power = _power_of(config, proposal)
    _apply_changes(state, index, proposal.changes, proposal.number, power)
    mutable_after = state.book.mutable_count() if cap else 0
    # Only the adoption that raises the count past the cap breaks it: one breach, one finding.
    if cap and mutable_after > cap and mutable_after > mutable_before:
        state.find("mutable-cap", proposal.source, f"adopting it leaves {mutable_after} mutable "
                   f"rules; at most {cap} are allowed", expected=f"at most {cap}", found=mutable_after)
    if known:
        state.add(proposal.proposer, config.scoring.adopted, "adopted")
    # Suber 204: the bonus exists once the game's adoption is not unanimous (under unanimity an adopted
    # proposal with a vote against is a result slip, already reported).
    if config.adoption.method != "unanimous":
        for voter in (votes.against if votes else ()):
            if voter in state.players:
                state.add(voter, config.scoring.against_adopted, "voted against")
        if votes and votes.counts and votes.counts[1] and config.scoring.against_adopted:
            _follow_recorded(state, state.players)
    return power


def _check_reason(state: FoldState, claim, number: int) -> None:
    """A proposal (`number`) that failed because it depended on another (format 1.3, `Reason: depends on proposal
    58`): that one must have been decided before it, and not adopted; or because it was incompatible with another
    (`Reason: incompatible with proposal 6`): that one must have been adopted before it, unless it is this proposal
    itself (which then can never pass). Any other reason is the game's own, shown, not checked."""
    if (m := _INCOMPATIBLE.search(claim.reason)) and int(m.group(1)) != number:
        other = int(m.group(1))
        earlier = state.decisions.get(other)
        if earlier is None or earlier[0] != "adopted":
            state.find("result", claim.reason_source, f"Reason says it is incompatible with proposal {other}, "
                       + ("which has no decision before it" if earlier is None else f"but proposal {other} was "
                          f"{earlier[0] or 'not decided'}"), expected=f"proposal {other} adopted before it", found=claim.reason)
    if m := _DEPENDS.search(claim.reason):
        number = int(m.group(1))
        earlier = state.decisions.get(number)
        if earlier is None:
            state.find("result", claim.reason_source, f"Reason says it depends on proposal {number}, which has no "
                       "decision before it", expected="a decision on it before", found=claim.reason)
        elif earlier[0] == "adopted":
            state.find("result", claim.reason_source, f"Reason says it depends on proposal {number}, but proposal "
                       f"{number} was adopted", expected=f"proposal {number} not adopted", found=claim.reason)


def _pay_awards(state: FoldState, proposal: Proposal, votes, result: str | None) -> None:
    """The award tables (format 1.2), in name order, after the v1 payments. An award by the die, where turns
    throw none, needs a `Die:` exactly on the entries that pay it."""
    scoring = state.config.scoring
    by_die = scoring.turn == "none" and any(_uses_die(award.points) for award in scoring.awards)
    thrown = False
    for award in scoring.awards:
        if not (award.when == result or award.when == "resolved" and result in ("adopted", "defeated")):
            continue
        if award.to in ("for", "against", "voters") and votes is not None and votes.counts:
            _follow_recorded(state, state.players)  # a Tally names no voters
            continue
        recipients = {"proposer": (proposal.proposer,), "for": votes.for_ if votes else (),
                      "against": votes.against if votes else (), "voters": votes.voters if votes else (),
                      "all": tuple(state.players),
                      "others": tuple(p for p in state.players if p != proposal.proposer)}[award.to]
        if by_die and _uses_die(award.points):
            thrown = True
            if proposal.die is None:
                state.find("die", proposal.source, f"no Die recorded: award '{award.name}' pays the die",
                           expected=f"a throw of {scoring.die}", found="none")
                continue
            dice = parse_dice(scoring.die)
            if not dice.contains(proposal.die.total):
                state.find("die", proposal.die.source, f"Die {proposal.die.total} is outside {dice} "
                           f"({dice.minimum}..{dice.maximum})", expected=f"{dice.minimum}..{dice.maximum}",
                           found=proposal.die.total)
        values = _formula_values(proposal, votes)
        try:
            used = tuple((name, values[name]) for name in sorted(_compiled(award.points).names_used) if name in values)
            points = _formula_points(award.points, scoring.rounding, used)
        except FormulaError as error:
            state.find("formula", proposal.source, f"award '{award.name}' cannot be computed: {error}")
            continue
        for player in recipients:
            if player in state.players:
                state.add(player, points, f"award {award.name}")
    if by_die and not thrown and proposal.die is not None:
        state.find("die", proposal.die.source, "no award paid by the die here, so no die is thrown",
                   found=proposal.die.total)


def _uses_die(formula: str) -> bool:
    return "die" in _compiled(formula).names_used


def _follow_recorded(state: FoldState, players) -> None:
    """Points this entry paid to voters a Tally does not name (format 1.2): the replay takes these players'
    scores from the entry's Scores line, without a finding; with none there, it goes on without the points."""
    state.follow_recorded.update(players)


def _unrecorded(state: FoldState, entry: Unrecorded) -> _Outcome:
    """Numbers used of which the record holds nothing (format 1.2): they count as used, and whose turn it is
    next is not known."""
    for first, last in entry.ranges:
        _declare_unrecorded(state.unrecorded, first, last, entry)
    lowest, highest = min(first for first, _ in entry.ranges), max(last for _, last in entry.ranges)
    if state.config.numbering.in_order and lowest > max(state.next_numbers):  # a gap before them stays a gap
        shown = " or ".join(str(n) for n in state.next_numbers)
        state.find("proposal-number", entry.source, f"the unrecorded numbers start at {lowest}, but the next "
                   f"proposal is {shown}", expected=shown, found=lowest)
    if highest >= min(state.next_numbers):
        state.next_numbers = (highest + 1,)
    state.turn_unknown = True
    return _Outcome()


def _declare_unrecorded(runs: list[tuple[int, int, Unrecorded]], first: int, last: int, entry: Unrecorded) -> None:
    """Add the run first..last to `runs` (sorted by first, disjoint: each number found by bisection, however many
    runs a long or hostile log declares), merged with those it overlaps, which keep their entry."""
    end = bisect.bisect_right(runs, last + 1, key=itemgetter(0))  # the runs that start at or next to `last`
    start = end
    while start > 0 and runs[start - 1][1] >= first - 1:
        start -= 1
    if start < end:
        first, last, entry = min(first, runs[start][0]), max(last, runs[end - 1][1]), runs[start][2]
    runs[start:end] = [(first, last, entry)]


def _declared_unrecorded(state: FoldState, number: int) -> Unrecorded | None:
    """The entry that declared `number` unrecorded, or None."""
    at = bisect.bisect_right(state.unrecorded, number, key=itemgetter(0)) - 1
    return state.unrecorded[at][2] if at >= 0 and state.unrecorded[at][1] >= number else None


def _check_number_unordered(state: FoldState, index: int, proposal: Proposal) -> None:
    """Numbering in the order of resolution (format 1.1, section 4): a number used twice, or below the first,
    is a finding here; the numbers missing below the highest are found after the last entry."""
    number, first = proposal.number, state.config.numbering.first_proposal
    repeat = state.seen_numbers.get(number)
    unrecorded = _declared_unrecorded(state, number)
    if unrecorded is not None:
        state.find("proposal-number", proposal.source, Cited(f"numbered {number}, which is declared unrecorded at ",
                                                             unrecorded.source), expected="a number not used before",
                   found=number)
    elif repeat:
        state.find("proposal-number", proposal.source, Cited(f"numbered {number}, which ", repeat, " already used"),
                   expected="a number not used before", found=number)
    elif number < first:
        state.find("proposal-number", proposal.source, f"numbered {number}, below the first proposal, {first}",
                   expected=f"{first} or more", found=number)
    state.unordered.append((number, index, proposal.source))
    if number not in state.seen_numbers:
        state.seen_numbers = state.seen_numbers.set(number, proposal.source)
    state.next_numbers = (max(max(state.next_numbers), number + 1),)


def _missing_numbers(state: FoldState, steps: list[Step]) -> None:
    """The numbers from first_proposal to the highest used that no proposal took: one finding for each run of
    them (`proposals 302 to 999999999998 are missing`), at the first entry (in the log's order) numbered above
    it. Runs, not numbers: time and memory go with the proposals, whatever the width of a gap."""
    if not state.unordered:
        return
    first = state.config.numbering.first_proposal
    highest = max(state.seen_numbers)  # in either order: a log may change its numbering mid-game
    gaps, after = [], first - 1
    for number in sorted(n for n in state.seen_numbers if n >= first):
        if number > after + 1:
            gaps += _undeclared(state, after + 1, number - 1)
        after = number
    # The first entry numbered above each run: walk the runs downward keeping the earliest position (every
    # number of a run has the same entries above it, as no entry is numbered inside it).
    by_number = sorted(state.unordered, key=lambda item: -item[0])
    earliest: tuple[int, Source] | None = None
    position = 0
    found: dict[int, list[Finding]] = {}
    for low, high in reversed(gaps):
        while position < len(by_number) and by_number[position][0] > high:
            _, where, source = by_number[position]
            if earliest is None or where < earliest[0]:
                earliest = (where, source)
            position += 1
        # (None: only proposals numbered in order stand above it; it is told at the first numbered so.)
        where, source = earliest or min(state.unordered, key=lambda item: item[1])[1:]
        missing = f"proposal {low} is missing" if low == high else f"proposals {low} to {high} are missing"
        finding = Finding("proposal-number", source, f"{missing}: every number from {first} to {highest} must "
                          "appear", steps[where].label, expected=str(low) if low == high else f"{low} to {high}",
                          found="none")
        found.setdefault(where, []).insert(0, finding)  # each step's, the lowest first
    for where, findings in found.items():
        steps[where] = dataclasses.replace(steps[where], findings=steps[where].findings + tuple(findings))


def _undeclared(state: FoldState, low: int, high: int) -> list[tuple[int, int]]:
    """The runs of the numbers from `low` to `high` that no `## Unrecorded` entry declared (format 1.2)."""
    runs = []
    for start, end, _ in state.unrecorded[max(bisect.bisect_right(state.unrecorded, low, key=itemgetter(0)) - 1, 0):]:
        if start > high:
            break
        if end >= low:
            if start > low:
                runs.append((low, start - 1))
            low = end + 1
    return runs + [(low, high)] if low <= high else runs


def _index_of(config: Config, proposal: Proposal):
    """The adoption index of a decision (format 1.1): its `Index:` line, else adoption.index."""
    return proposal.index if proposal.index is not None else config.adoption.index


def _check_decision_keys(state: FoldState, proposal: Proposal) -> None:
    """`Index:` needs the index method in force, `Power:` needs rules with powers: else the archive cannot be
    read as written (exit 2)."""
    config = state.config
    if proposal.index is not None and config.adoption.method != "index":
        source = proposal.source_of("index")
        state.errors.append(Finding("index", source, f"'Index:' needs adoption.method = \"index\" "
                                    f"(the method in force is {config.adoption.method})", state.label))
    if proposal.power is not None and not config.rules.power:
        source = proposal.source_of("power")
        state.errors.append(Finding("power", source, "'Power:' needs rules.power = true in "
                                    "game.toml", state.label))


def _power_of(config: Config, proposal: Proposal):
    """The power an adopted proposal takes effect with (format 1.1, section 5): the least of its index (under
    the index method), its `Power:` line and rules.power_cap; None when it is not checked. A proposal whose
    ballots nobody recorded (no Votes or Tally line) and whose index is not written has no index to bound it:
    adoption.index is the default for counting votes, and as a power it would invent findings the record
    never supports (format 1.2)."""
    rules = config.rules
    if not rules.power:
        return None
    indexed = config.adoption.method == "index" and (proposal.index is not None or proposal.votes is not None)
    candidates = [p for p in (_index_of(config, proposal) if indexed else None,
                              proposal.power, rules.power_cap) if p is not None]
    if not candidates:
        return None
    power = min(candidates)
    return None if rules.power_exempt is not None and power >= rules.power_exempt else power


def _check_number(state: FoldState, proposal: Proposal) -> None:
    """Numbering in the order of the log (FORMAT.md): after a proposal written N where E was expected, the
    next may be N+1 or E+1, and the count follows whichever it is."""
    number = proposal.number
    candidates = state.next_numbers
    unrecorded = _declared_unrecorded(state, number)
    if unrecorded is not None:
        state.find("proposal-number", proposal.source, Cited(f"numbered {number}, which is declared unrecorded at ",
                                                             unrecorded.source), expected="a number not used before",
                   found=number)
    elif number in candidates:
        state.next_numbers = (number + 1,)
    else:
        repeat = state.seen_numbers.get(number)
        why = Cited(f"; {number} was already used at ", repeat) if repeat else ""
        shown = " or ".join(str(n) for n in candidates)
        state.find("proposal-number", proposal.source, Cited(f"numbered {number}, but the next proposal is {shown}", why),
                   expected=shown, found=number)
        state.next_numbers = (candidates[0] + 1, number + 1) if number != candidates[0] else (number + 1,)
    if number not in state.seen_numbers:
        state.seen_numbers = state.seen_numbers.set(number, proposal.source)


def _gives(decision: Decision) -> str:
    """`the votes (3 for, 0 against) give adopted under unanimity` (v1's words); `F 12, A 9 at index 3.0 give
    defeated`; `8 ballots, quorum 9, give failed-quorum`."""
    if decision.result == "failed-quorum":
        return f"{decision.ballots} ballots, quorum {decision.quorum}, give failed-quorum"
    if decision.method == "index":
        return f"{decision.tally()} at index {decimal_text(decision.index)} give {decision.result}"
    under = describe(decision.method, float(decision.fraction or 0))
    if decision.weighted:
        return f"{decision.tally()} give {decision.result} under {under}"
    return f"the votes ({decision.tally()}) give {decision.result} under {under}"


def _check_votes(state: FoldState, proposal: Proposal) -> None:
    seen: set[str] = set()
    for voter in proposal.votes.voters:
        if voter in seen:
            state.find("votes", proposal.votes_source, f"{voter} voted twice (each player has exactly one vote)",
                       found=voter)
        seen.add(voter)
        _check_player(state, voter, proposal.votes_source, "voter")


def _turn_score(state: FoldState, proposal: Proposal, votes, vote_ended_game: bool) -> None:
    scoring = state.config.scoring
    if scoring.turn == "die":
        die = proposal.die
        if die is None:
            if not proposal.extra_turn and not vote_ended_game:
                state.find("die", proposal.source, f"no Die recorded for this turn: write the throw of {scoring.die} "
                           "among its key lines, as 'Die: 4'", expected=f"a throw of {scoring.die}", found="none")
            return
        if vote_ended_game:
            state.find("die", die.source, "the vote ended the game, so no die is thrown", found=die.total)
            return
        _add_die(state, proposal.proposer, die)
    elif scoring.turn == "formula":
        values = _formula_values(proposal, votes)
        try:
            used = tuple((name, values[name]) for name in sorted(_compiled(scoring.formula).names_used)
                         if name in values)  # one missing is the evaluation's error to report
            points = _formula_points(scoring.formula, scoring.rounding, used)
        except FormulaError as error:
            state.find("formula", proposal.source, f"scoring.formula cannot be computed: {error}")
            return
        state.add(proposal.proposer, points, "formula")


@lru_cache(maxsize=64)
def _compiled(formula: str):
    return compile_formula(formula, SCORING_NAMES)


@lru_cache(maxsize=4096)
def _formula_points(formula: str, rounding: str, used: tuple[tuple[str, object], ...]) -> int:
    """A turn's points by the formula, from the values of the names it uses: a fifth of a long game's replay
    went to evaluating in exact fractions what a few votes and dice make again and again."""
    return _compiled(formula).evaluate_int(dict(used), rounding)


def _add_die(state: FoldState, player: str, die) -> None:
    dice = parse_dice(state.config.scoring.die)
    if not dice.contains(die.total):
        state.find("die", die.source, f"Die {die.total} is outside {dice} ({dice.minimum}..{dice.maximum})",
                   expected=f"{dice.minimum}..{dice.maximum}", found=die.total)
    state.add(player, die.total, "die")


def _formula_values(proposal: Proposal, votes) -> dict[str, object]:
    counts = votes.counts if votes and votes.counts else None
    cast_for = counts[0] if counts else len(votes.for_) if votes else 0
    cast_against = counts[1] if counts else len(votes.against) if votes else 0
    cast = cast_for + cast_against
    return {"proposal": proposal.number, "votes_for": cast_for, "votes_against": cast_against,
            "abstentions": counts[2] if counts else len(votes.abstain) if votes else 0, "votes": cast,
            "for_fraction": Fraction(cast_for, cast) if cast else Fraction(0),
            "die": proposal.die.total if proposal.die else 0}


def _apply_effect(state: FoldState, effect) -> None:
    """An adopted setting takes hold at once, everywhere the engine reads it (the turn order from the next
    circuit: the tracker follows the config after each entry)."""
    try:
        if effect.key in POWER_KEYS and not state.config.rules.power:
            raise ValueError(f"{effect.key} means something only with rules.power = true")
        state.config = state.config.with_value(effect.key, effect.value)
    except ValueError as error:
        state.errors.append(Finding("effect", effect.source, str(error), state.label))
        return
    state.notes.append(effect_words(effect.key, state.config))
    if effect.key == "numbering.first_proposal":  # the numbering starts again from the value
        state.next_numbers = (state.config.numbering.first_proposal,)
    elif effect.key == "adoption.unless_amended":  # names the rule numbered so now
        state.switch_identity = _switch_identity(state)
    elif effect.key == "adoption.then":  # a new switch, to be made when its circuits are complete
        state.switched = False
    elif effect.key == "numbering.next_rule":
        state.next_rule = state.config.numbering.next_rule


def _apply_changes(state: FoldState, index: int, changes: tuple[Change, ...], proposal_number: int | None,
                   power=None, *, cleaning: bool = False) -> None:
    """Apply change paragraphs in order. `power`: the power the proposal takes effect with, where checked: a
    change beyond it is a finding, and is applied all the same (the replay follows the record). A `cleaning` (an
    event `By: cleaning`: the keepers' correction of spelling or formatting) is no rule-change: an immutable rule
    may take it (Suber 103 governs rule-changes)."""
    rules = state.config.rules
    for position, change in enumerate(changes):
        if change.rule_label:
            change = _labelled_rule(state, change)
            if change.rule is None:
                continue
            state.resolved.append((position, change))
        if change.failed:
            _check_failed(state, change, power, proposal_number)
            continue
        if change.kind in ("annotate", "unannotate"):
            identity = state.book.identity_of(change.rule)
            verb = "Annotate" if change.kind == "annotate" else "Unannotate"
            if identity is None:
                state.find("no-such-rule", change.source, f"{verb} rule {change.rule}: there is no rule "
                           f"{change.rule} in force")
            elif change.kind == "unannotate" and " ".join(change.text.split()) not in _annotations_of(state, identity):
                state.find("no-such-rule", change.source, f"Unannotate rule {change.rule}: rule {change.rule} has no "
                           f"such annotation (\"{shorten(change.text)}\")")
            else:
                state.annotations.append((identity, change, index))
            continue
        if power is not None:
            _check_power(state, change, power, proposal_number)
        _check_next_rule(state, change, proposal_number)
        try:
            for note in state.book.apply(change, index, state.label, proposal_number, state.config.numbering,
                                         rules.power_default if rules.power else None):
                kind = "immutable" if "immutable" in note else "rule-number"
                if not (cleaning and kind == "immutable"):
                    state.find(kind, change.source, note)
        except ChangeProblem as problem:
            target = state.errors if problem.fatal else state.findings
            target.append(Finding(problem.kind, change.source, str(problem), state.label))
            continue
        if change.label and len(alike := state.book.labelled(change.label)) > 1:
            state.find("label", change.source, f"{_rules_named(alike)} both have the label '{change.label}' now: "
                       "a label names one rule in force")


def _labelled_rule(state: FoldState, change: Change) -> Change:
    """`change`, which names its rule by a label, with the number of the rule in force that has it. Where no
    rule or more than one has it, `change` as it is (no number), and a finding; for a change recorded as failed,
    that is why it failed."""
    label = change.rule_label
    found = state.book.labelled(label)
    if len(found) == 1:
        return dataclasses.replace(change, rule=found[0].number)
    why = f"{_rules_named(found)} both have the label '{label}'" if found else \
        f"no rule in force has the label '{label}'{_label_left(state.book, label)}"
    if change.failed:
        state.failed.append((change, why))
    else:
        state.find("no-such-rule", change.source, f"rule {label}: {why}" + ("; name the rule by its number" if found
                                                                          else ""))
    return change


def _label_left(book: Rulebook, label: str) -> str:
    """Where a label no rule in force has went: the rule that last had it repealed, or known by another."""
    had = next((version for version in reversed(book.versions) if version.label == label), None)
    if had is None:
        return ""
    now = book.by_identity.get(had.identity)
    if now is None:
        gone = book.departures.get(had.number)
        return f" (rule {had.number}, which had it, was repealed" + (
            f" by {gone.entry_label})" if gone and gone.identity == had.identity else ")")
    return f" (rule {now.number} had it, and is labelled '{now.label}' now)" if now.label else \
        f" (rule {now.number} had it, and has none now)"


def _rules_named(rules: list) -> str:
    return "rules " + ", ".join(str(rule.number) for rule in rules[:-1]) + f" and {rules[-1].number}"


@dataclass
class AnnotationSpan:
    """One annotation of a rule over the log: its text, the entry that made it (-1: rules.md gave it) and the one
    that took it away (format 1.4's Unannotate; None while it stands)."""
    text: str
    made: int
    removed: int | None = None


def annotation_spans(given: Sequence[str], changes: Iterable[tuple[Change, int]]) -> list[AnnotationSpan]:
    """A rule's annotations as `changes` (Annotate and Unannotate, each with its entry's index, in log order) make
    and remove them, starting from those rules.md `given`: an Unannotate takes away the first one still standing
    with its words, white space aside (the replay admits one only where such a one stands). An entry that removes
    some and adds some rewords them: its first Annotate takes the place of the first one it removed, and so on
    (listed right after it); the rest go last, but one with a `Place:` (format 1.4), which stands that many places
    after the first of those then standing."""
    spans = [AnnotationSpan(text, -1) for text in given]
    vacated: list[AnnotationSpan] = []  # those the current entry removed and no Annotate of it has replaced
    for change, index in changes:
        if vacated and vacated[0].removed != index:
            vacated.clear()
        if change.kind == "annotate":
            made = AnnotationSpan(change.text, index)
            standing = [place for place, span in enumerate(spans) if span.removed is None]
            if change.place is not None and change.place < len(standing):
                spans.insert(standing[change.place], made)
            elif vacated:
                old = vacated.pop(0)
                spans.insert(next(place for place, span in enumerate(spans) if span is old) + 1, made)
            else:
                spans.append(made)
        else:
            words = change.text.split()
            removed = next((span for span in spans if span.removed is None and span.text.split() == words), None)
            if removed is not None:
                removed.removed = index
                vacated.append(removed)
    return spans


def _annotations_of(state: FoldState, identity: int) -> list[str]:
    """A rule's annotations now (format 1.4), white space folded: those rules.md gives it (an initial rule's identity
    is its place in rules.md), and those entries added since, less those they removed."""
    rules = state.game.rules.rules
    given = [text for text, _ in rules[identity].annotations] if identity < len(rules) else []
    changes = [(change, index) for noted, change, index in state.annotations if noted == identity]
    return [" ".join(span.text.split()) for span in annotation_spans(given, changes) if span.removed is None]


def _check_next_rule(state: FoldState, change: Change, proposal_number: int | None) -> None:
    """numbering.next_rule (format 1.2): an enactment that names its number names at least it, and moves it on;
    a rule reenacted from before the archive must have been numbered below it."""
    next_rule, number = state.next_rule, change.rule
    if next_rule is None or number is None:
        return
    if change.kind == "enact" and not (proposal_number is not None
                                       and state.config.numbering.enact_takes_proposal_number):
        if number < next_rule:
            state.find("rule-number", change.source, f"enacts rule {number}, but every number below {next_rule} "
                       "has been used (numbering.next_rule)", expected=f"{next_rule} or more", found=number)
        state.next_rule = max(next_rule, number + 1)
    elif (change.kind == "reenact" and number >= next_rule and number not in state.book.current
          and number not in state.book.departures):
        state.find("rule-number", change.source, f"reenacts rule {number}, but no rule {number} was ever numbered "
                   f"(numbering.next_rule is {next_rule})", expected=f"below {next_rule}", found=number)


def _check_failed(state: FoldState, change: Change, power, proposal_number: int | None) -> None:
    """A change recorded as failed (format 1.2) is never applied; the claim is checked: a finding when nothing
    stops it (the rule is in force, each phrase found once, not immutable, and in a proposal, the power enough).
    In a judgment or an event no power governs: only the rule and the phrases are checked."""
    why = _why_it_fails(state, change, power, proposal_number)
    if why is None and change.corrected:  # format 1.4: the keepers' later record says it failed (a note, not a slip)
        why = f"the record was corrected: {change.corrected}"
    state.failed.append((change, why or ""))
    if why is not None:
        return
    what = f"the change to rule {change.rule}" if change.rule is not None else "the enactment"
    if power is not None:
        why = f"power {decimal_text(power)} permits it"
    elif proposal_number is not None:
        why = "the proposal was adopted and nothing stops it"
    else:
        why = "nothing stops it"
    state.find("failed-change", change.source, f"{what} is recorded as failed, but {why}",
               expected="applied", found="failed")


def _why_it_fails(state: FoldState, change: Change, power, proposal_number: int | None) -> str | None:
    """Why a change could not take effect now, in words; None when it could."""
    book = state.book
    if change.kind == "enact":
        enacted = change.power if change.power is not None else state.config.rules.power_default
        taken = proposal_number if proposal_number is not None and state.config.numbering.enact_takes_proposal_number \
            else change.rule
        if taken is not None and taken in book.current:
            return f"rule {taken} exists"
        return f"power {decimal_text(enacted)} is above {decimal_text(power)}" if power is not None and enacted > power \
            else None
    if change.kind == "reenact":
        return f"rule {change.rule} is in force" if change.rule in book.current else None
    rule = book.current.get(change.rule)
    if rule is None:
        return f"there is no rule {change.rule}"
    if (proposal_number is not None and rule.rule_class == "immutable"  # (no vote governs an event)
            and change.kind in ("amend", "replace", "append", "repeal")):
        return f"rule {rule.number} is immutable"
    if power is not None and rule.power is not None and (rule.power > power or change.kind == "power"
                                                         and change.power > power):
        return f"power {decimal_text(power)} is not enough"
    try:
        changed_text(rule.text, change, rule.number)
    except ChangeProblem as problem:
        return str(problem)
    return None


def _check_power(state: FoldState, change: Change, power, proposal_number: int | None) -> None:
    shown = decimal_text(power)
    label = f"proposal {proposal_number}"
    if change.kind == "enact":
        enacted = change.power if change.power is not None else state.config.rules.power_default
        if enacted > power:
            number = proposal_number if state.config.numbering.enact_takes_proposal_number else change.rule
            state.find("power", state.source, f"{label} enacts {f'rule {number}' if number else 'a rule'} "
                       f"(power {decimal_text(enacted)}) with power {shown}",
                       expected=f"power {decimal_text(enacted)} or more", found=f"power {shown}", rule=number)
        return
    rule = state.book.current.get(change.rule) if change.rule is not None else None
    if rule is None or rule.power is None:
        return  # a missing rule is its own finding when the change applies
    if rule.power > power:
        state.find("power", state.source, f"{label} changes rule {rule.number} (power {decimal_text(rule.power)}) "
                   f"with power {shown}", expected=f"power {decimal_text(rule.power)} or more",
                   found=f"power {shown}", rule=rule.number)
    elif change.kind == "power" and change.power > power:
        state.find("power", state.source, f"{label} sets the power of rule {rule.number} to "
                   f"{decimal_text(change.power)} with power {shown}",
                   expected=f"power {decimal_text(change.power)} or more", found=f"power {shown}", rule=rule.number)


def _judgment(state: FoldState, index: int, judgment: Judgment) -> _Outcome:
    for setting in judgment.settings:
        if setting.what == "score":
            if _check_player(state, setting.player, setting.source, "Sets: score"):
                computed = state.scores.get(setting.player, 0)
                state.overrides.append(Override(setting.source, state.label, f"{setting.player}'s score",
                                                amount_text(computed), amount_text(setting.value)))
                state.add(setting.player, setting.value - computed, f"set by {state.label}")
                state.score_slips.pop(setting.player, None)
        elif setting.what == "next-player":
            computed = state.turns.expected() or "nobody"
            if state.turns.set_next(setting.player):
                state.overrides.append(Override(setting.source, state.label,
                                                "the next player", computed, setting.player))
            else:
                state.find("player", setting.source, f"Sets: next-player {setting.player}, who is not in the order "
                           "of play", found=setting.player)
    _common_effects(state, index, judgment)
    return _Outcome()


def _rename(state: FoldState, old: str, new: str, source: Source) -> None:
    """`Players: Jason -> Janet` (format 1.2): the same player under a new name; score, turn and history go on."""
    if new in state.players or new == old:
        state.errors.append(Finding("player", source, f"{old} cannot be renamed {new}: {new} is a name in use",
                                    state.label))
        return
    if not _check_player(state, old, source, "renamed"):
        return
    state.players[state.players.index(old)] = new
    state.scores = {new if name == old else name: score for name, score in state.scores.items()}
    if old in state.score_slips:
        state.score_slips[new] = state.score_slips.pop(old)
    state.turns.rename(old, new)
    state.strangers.discard(new)
    state.renamed[old] = (new, source)


def _event(state: FoldState, index: int, event: Event) -> _Outcome:
    for change in event.players:
        if change.renamed_to:
            _rename(state, change.player, change.renamed_to, change.source)
        elif change.joins:
            if change.player in state.players:
                state.find("player", change.source, f"{change.player} joins but is already playing")
                continue
            key = skeleton(change.player)
            for other in (player for player in state.players if skeleton(player) == key):
                state.find("player", change.source, f"{change.player} joins, and looks like {other}, who plays "
                           f"({looks_like(change.player, other)}): no reader can tell which of them voted or scored; "
                           "rename one", found=change.player)
            state.players.append(change.player)
            state.strangers.discard(change.player)
            state.scores.setdefault(change.player, 0)
            state.turns.join(change.player)
        elif _check_player(state, change.player, change.source, "leaving"):
            state.players.remove(change.player)
            state.turns.leave(change.player)
    turn_of = None
    if event.turn_of:
        turn_of = event.turn_of
        known = _check_player(state, event.turn_of, event.turn_source, "Turn")
        _take_turn(state, event.turn_of, event.turn_source, known)
        if known and event.die and state.config.scoring.turn == "die":
            _add_die(state, event.turn_of, event.die)
    _common_effects(state, index, event)
    _award_points(state, event)
    return _Outcome(turn_of=turn_of)


def _common_effects(state: FoldState, index: int, entry: Judgment | Event) -> None:
    """Effects and change paragraphs in a judgment or an event apply at once, without renumbering."""
    if entry.by and (named := _BY_RULE.match(entry.by)):
        number = named.group(1)
        if number.isascii() and number.isdigit():
            if len(number) > MAX_DIGITS or int(number) not in state.book.current:  # (no rule has a longer number)
                state.find("by", entry.by_source, f"By: {entry.by}, but no rule {number} is in force",
                           expected="a rule in force", found=entry.by)
        elif not state.book.labelled(number):  # (format 1.4: a rule named by its label, `By: rule 4E83`)
            state.find("by", entry.by_source, f"By: {entry.by}, but no rule in force has the label '{number}'",
                       expected="a rule in force", found=entry.by)
    for effect in entry.effects:
        _apply_effect(state, effect)
    _apply_changes(state, index, entry.changes, None, cleaning=isinstance(entry, Event) and _CLEANING.match(entry.by)
                   is not None)
    if isinstance(entry, Judgment):
        _award_points(state, entry)


def _award_points(state: FoldState, entry: Entry) -> None:
    """`Points:` lines: points a rule paid, to players in the game."""
    for award in entry.points:
        if _check_player(state, award.player, award.source, "Points"):
            state.add(award.player, award.points, f"points ({award.reason})" if award.reason else "points")


def _winners(state: FoldState) -> tuple[str, ...]:
    if state.winner or state.overlooked_win:
        return ()
    win = state.config.scoring.win
    reached = {p: s for p, s in state.scores.items() if s >= win and p in state.players}
    if not reached:
        return ()
    best = max(reached.values())
    return tuple(sorted(p for p, s in reached.items() if s == best))


def _check_win(state: FoldState, entry: Entry) -> tuple[str, ...]:
    newly = _winners(state)
    if newly:
        state.winner = newly
        state.ended_at = state.label
    return newly


def _check_claims(state: FoldState, entry: Entry, newly_won: tuple[str, ...], last: bool) -> None:
    if entry.scores:
        for player, claimed in entry.scores.scores:
            if player in state.follow_recorded and player in state.scores:
                state.add(player, claimed - state.scores[player], "as recorded (the Tally names no voters)")
                continue
            if player in state.renamed and player not in state.scores:
                _check_player(state, player, entry.scores.source, "Scores")
                continue
            if player not in state.scores:
                if player not in state.strangers:
                    state.strangers.add(player)
                    state.find("scores", entry.scores.source, f"Scores names {player}, who is not a player"
                               f"{_looks_like_player(state, player)}",
                               found=player)
                continue
            _check_score(state, entry.scores.source, player, claimed)
    claimed_winner = tuple(sorted(entry.winner.players)) if entry.winner else None
    if claimed_winner is not None and state.overlooked_win and _reached_win(state, claimed_winner):
        # After a win the log did not record, the record decides when the game ends.
        state.winner, state.ended_at = claimed_winner, state.label
    elif claimed_winner is not None and claimed_winner != newly_won:
        if newly_won:
            computed = ", ".join(newly_won)
        elif state.winner:
            computed = f"no new winner ({', '.join(state.winner)} won at {state.ended_at})"
        else:
            best = max(state.scores.items(), key=lambda item: (item[1], item[0]), default=("nobody", 0))
            computed = (f"no winner yet (the win is {state.config.scoring.win} points; best is {best[0]} with "
                        f"{amount_text(best[1])})")
        state.find("winner", entry.winner.source, f"Winner says {', '.join(claimed_winner)}; replay finds {computed}",
                   expected=", ".join(newly_won) or "none", found=", ".join(claimed_winner))
    elif claimed_winner is None and newly_won:
        scores = ", ".join(f"{p} {amount_text(state.scores[p])}" for p in newly_won)
        state.find("winner", entry.source, f"the replay finds that {', '.join(newly_won)} won here ({scores}; the "
                   f"win is {state.config.scoring.win}), but the log records no Winner",
                   expected=", ".join(newly_won), found="none")
        if not last:  # play went on: the replay follows the record
            state.winner, state.ended_at, state.overlooked_win = (), "", True


def _reached_win(state: FoldState, players: tuple[str, ...]) -> bool:
    return all(p in state.players and state.scores.get(p, 0) >= state.config.scoring.win for p in players)


def _check_score(state: FoldState, source: Source, player: str, claimed: Number) -> None:
    """One Scores item. After a slip the log may go on from its own figure or from the replay's: the replay
    follows whichever it does, so one slip is one finding."""
    computed = state.scores[player]
    slip = state.score_slips.pop(player, None)
    if claimed == computed:
        return
    if slip and claimed == computed + slip[0]:
        state.add(player, slip[0], Cited("as the log has it since ", slip[1]))
        return
    result = None if slip else _result_slip(state)
    since = Cited(" (the log's figure has differed since ", slip[1], ")") if slip else \
        Cited(" (the replay follows the Result at ", result, ", which the votes do not give)") if result else ""
    state.find("score", source, Cited(f"Scores says {player} {amount_text(claimed)}; replay gives ",
                                      _explain(state, player, computed), since),
               expected=amount_text(computed), found=amount_text(claimed), cause=slip[1] if slip else result)
    state.score_slips[player] = (claimed - computed, slip[1] if slip else source)


def _result_slip(state: FoldState) -> Source | None:
    """Where this entry's Result was found a slip: the replay followed it, so a Scores line kept as the votes'
    result would give stems from it."""
    for finding in reversed(state.findings):
        if finding.entry != state.label:
            return None
        if finding.kind == "result":
            return finding.source
    return None


def _explain(state: FoldState, player: str, computed: Number) -> str | Cited:
    own = [d for d in state.deltas if d.player == player]
    if not own:
        return f"{amount_text(computed)} (unchanged)"
    before = computed - sum(d.points for d in own)
    return Cited(f"{amount_text(computed)} = {amount_text(before)}", *(part for d in own for part in (" ", d.explain())))


def _switch_identity(state: FoldState) -> int | None:
    number = state.config.adoption.unless_amended
    return state.book.identity_of(number) if number else None


def _maybe_switch(state: FoldState) -> None:
    """The automatic change of adoption method after enough complete circuits (2nd ed. rule 203)."""
    adoption = state.config.adoption
    if state.switched or adoption.then is None or state.turns.circuits < adoption.after_circuits:
        return
    state.switched = True
    if state.switch_identity is not None and state.switch_identity in state.book.amended:
        now = state.book.number_of(state.switch_identity)
        named = (f"rule {adoption.unless_amended} (since repealed)" if now is None else f"rule {now}"
                 + (f" (numbered {adoption.unless_amended} when named)" if now != adoption.unless_amended else ""))
        state.notes.append(f"{named} was amended before the end of circuit "
                           f"{adoption.after_circuits}: adoption stays {adoption.method}")
        return
    state.config = state.config.with_value("adoption.method", adoption.then)
    state.notes.append(f"after {adoption.after_circuits} complete circuits, adoption becomes {adoption.then}")


def snapshot_points(game: Game, findings: list[Finding], *, behind: bool = False) -> dict[int, list[Ruleset]]:
    """The entry after which each snapshot must equal the replay (-1: before the first entry); a snapshot
    that stands nowhere is a finding, added to `findings`. Those a `Behind:` line marks (format 1.4) are left to
    engine/notes.py, or are the only ones with `behind`."""
    points: dict[int, list[Ruleset]] = {}
    entries = game.log.entries
    for snapshot in game.snapshots:
        if bool(snapshot.behind) != behind:
            continue
        if snapshot.after_proposal is not None:
            where = next((i for i, e in enumerate(entries) if isinstance(e, Proposal)
                          and e.number == snapshot.after_proposal), None)
            if where is None:
                findings.append(Finding("snapshot", snapshot.source,
                                        f"the snapshot stands after proposal {snapshot.after_proposal}, "
                                        "which is not in the log"))
                continue
        else:
            where = -1
            for i, entry in enumerate(entries):
                if entry.date is not None and entry.date <= snapshot.as_of:
                    where = i
        points.setdefault(where, []).append(snapshot)
    return points


def _normal(text: str) -> str:
    return " ".join(text.split())


def _same_text(a: str, b: str) -> bool:
    """Rule texts compared as Markdown reads them (white space aside), or character for character where a
    fenced block holds text that is not Markdown (format 1.2)."""
    if FENCE.search(a) or FENCE.search(b):
        return a.strip("\n") == b.strip("\n")
    return _normal(a) == _normal(b)


def compare_snapshot(findings: list[Finding], in_force: dict[int, RuleVersion | CurrentRule],
                      snapshot: Ruleset) -> None:
    """The differences between `snapshot` and the rules in force in the replay (by number), added to `findings`."""
    replayed = dict(sorted(in_force.items()))
    recorded = snapshot.by_number()
    where = f"after proposal {snapshot.after_proposal}" if snapshot.after_proposal else f"on {snapshot.as_of}"
    label = f"snapshot {where}"

    def differs(number: int, source: Source, message: str, expected: str, found: str) -> None:
        findings.append(Finding("snapshot", source, message, label, expected, found, rule=number))
    for number, rule in recorded.items():
        source = rule.source
        if number not in replayed:
            twin = next((n for n, now in replayed.items() if _normal(now.text) == _normal(rule.text)), None)
            hint = f"; the same text is rule {twin} in the replay" if twin else ""
            differs(number, source, f"rule {number} is in the snapshot but not in the replay{hint}", "absent",
                    f"rule {number}")
            continue
        now = replayed[number]
        rule_class, title, text, power = now.rule_class, now.title, now.text, now.power
        if rule.power is not None and power is not None and rule.power != power:
            differs(number, source, f"rule {number} has power {decimal_text(rule.power)} in the snapshot, "
                    f"{decimal_text(power)} in the replay", decimal_text(power), decimal_text(rule.power))
        if rule.rule_class != rule_class:
            differs(number, source, f"rule {number} is {rule.rule_class} in the snapshot, {rule_class} in the replay",
                    rule_class, rule.rule_class)
        if rule.title and rule.title != title:
            differs(number, source, f"rule {number} is titled \"{rule.title}\" in the snapshot, \"{title}\" in the "
                    "replay", title, rule.title)
        if not _same_text(rule.text, text):
            if FENCE.search(rule.text) or FENCE.search(text):  # verbatim: the first line that differs
                ours, theirs = text.strip("\n").split("\n"), rule.text.strip("\n").split("\n")
                at = next((i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b), min(len(ours), len(theirs)))
                shown = [lines[at] if at < len(lines) else "(end)" for lines in (theirs, ours)]
                differs(number, Source(source.file, (rule.text_line or source.line) + at),
                        f"rule {number}'s verbatim text differs: its line {at + 1} reads \"{shown[0]}\" in the "
                        f"snapshot, \"{shown[1]}\" in the replay", shown[1], shown[0])
                continue
            word, difference = _first_difference(text, rule.text)
            differs(number, Source(source.file, _line_of_word(rule, word)), f"rule {number}'s text differs: "
                    f"{difference}", _normal(text)[:200], _normal(rule.text)[:200])
    for number in replayed:
        if number not in recorded:
            differs(number, snapshot.source, f"rule {number} is in force in the replay but missing from the snapshot",
                    f"rule {number}", "absent")


def _first_difference(replayed: str, recorded: str) -> tuple[int, str]:
    """The index of the first word that differs, and the difference in words."""
    a, b = replayed.split(), recorded.split()
    i = 0
    while i < min(len(a), len(b)) and a[i] == b[i]:
        i += 1
    shown_a = " ".join(a[i:i + 6]) or "(end)"
    shown_b = " ".join(b[i:i + 6]) or "(end)"
    return i, f"at word {i + 1} the snapshot reads \"{shown_b}\", the replay \"{shown_a}\""


def _line_of_word(rule: Rule, word: int) -> int:
    """The line of the snapshot that holds the rule's `word`-th word (its last line past the end)."""
    if not rule.text_line:
        return rule.source.line
    starts = [match.start() for match in re.finditer(r"\S+", rule.text)]
    offset = starts[min(word, len(starts) - 1)] if starts else 0
    return rule.text_line + rule.text.count("\n", 0, offset)
