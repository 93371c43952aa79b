"""Solitaire Nomic (seed 000): the replay of a solitaire log, turn by turn, and the mechanics the solver shares.

A pure fold like engine/replay.py: the rules after every turn, each mutable one with its life span; each
illegal action a finding that names the clause it breaks; then the replay follows the record wherever the
action can apply (it cannot when the rule does not exist, when a number is taken, or when a rule would be
left without a number). The engine replays the mechanics of the initial ruleset and does not read the words
of rules: a mutation that would change what a rule means is recorded, not interpreted (the Judge's domain,
seed 004). Where the seed is ambiguous, game.toml's [solitaire] section chooses (model/config.py).
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

from ..errors import SourceError
from ..model import Game, Source
from ..model.config import Solitaire
from ..model.solitaire import Action, Turn
from ..parse.source import NumberTooLarge, read_int, shorten
from .replay import Finding, Outcome
from .rulebook import growth_problem

LIFE_SPAN = 8  # rule 3: 8 turns from creation or transmutation, and never more
FIRST_MUTABLE_NUMBER = 20  # rule 1
POINTS_PER_ACTION = 10  # rule 100
MAX_REPLACED, MAX_APART, MAX_INSERTED = 4, 2, 8  # rule 8

# The clauses the mechanics come from, found in the initial ruleset by title (a shuffled ruleset moves them),
# with the number each has in seed 000, said when a ruleset lacks the title.
CLAUSES = {"two classes of rules": 1, "objective": 2, "life span": 3, "actions": 6, "transmutation": 7,
           "mutation": 8, "subsumption": 9, "division": 10, "rule numbers": 12, "scoring": 100}
ACTION_CLAUSE = {"transmute": "transmutation", "mutate": "mutation", "subsume": "subsumption", "divide": "division"}

_NUMBER_HEAD = re.compile(r"([0-9]+)\.(?:[ \t]+|\n|$)")  # ASCII digits, read by read_int
_TITLE = re.compile(r"([^\n]*?)\.(?:[ \t]+|\n|$)")
_WORDS = {"spaces": re.compile(r"\S+"), "letters": re.compile(r"[^\W_]+(?:['\u2019-][^\W_]+)*")}


@dataclass(frozen=True)
class LiveRule:
    """A rule in play. Its text starts with its number (rule 12); `body` is what follows the number."""

    identity: int  # stable: the initial rules by their place in rules.md, then each duplicate in turn
    number: int
    rule_class: str  # "immutable" | "mutable"
    body: str  # "Title. Text" when the rule has a title
    span: int | None  # turns left to live; None for an immutable rule
    titled: bool  # the body starts with a title sentence
    first_mutable: bool  # one of the mutable rules the game began with (100 and 101)

    @property
    def mutable(self) -> bool:
        return self.rule_class == "mutable"

    @property
    def full_text(self) -> str:
        return f"{self.number}. {self.body}"

    def _split(self) -> tuple[str, str]:
        m = _TITLE.match(self.body) if self.titled else None
        return (m.group(1), self.body[m.end():]) if m else ("", self.body)

    @property
    def title(self) -> str:
        return self._split()[0]

    @property
    def text(self) -> str:
        return self._split()[1]

    label = ""  # (Solitaire's record names a rule by its number alone: compare's RuleLike)


@dataclass(frozen=True)
class Death:
    rule: LiveRule  # as it was when it died
    cause: str  # "life span" or "subsumed into rule 21"


@dataclass(frozen=True)
class Setup:
    """What a game fixes before its first turn: the options, the player, and where each clause is."""

    options: Solitaire
    player: str
    clauses: dict[str, tuple[int, int]]  # clause title -> (identity, number in the initial ruleset)
    objective: int  # the identity of the Objective rule

    def cite(self, clause: str) -> str:
        found = self.clauses.get(clause)
        return f"rule {found[1]}" if found else clause.capitalize()

    def available(self, rules: dict[int, LiveRule], kind: str) -> bool:
        """Rule 6: an action is a rule change described in the immutable rules. Under actions = "fixed" the
        initial ruleset's actions stay; under "immutable", only while the rule describing one is immutable."""
        if self.options.actions == "fixed":
            return True
        found = self.clauses.get(ACTION_CLAUSE[kind])
        return found is not None and found[0] in rules and not rules[found[0]].mutable


@dataclass(frozen=True)
class Position:
    """The game between two turns."""

    rules: tuple[LiveRule, ...]  # by number
    next_identity: int
    score: int = 0

    def number(self, number: int) -> LiveRule | None:
        return next((rule for rule in self.rules if rule.number == number), None)


@dataclass(frozen=True)
class Played:
    """One action played on a position."""

    position: Position
    applied: bool
    forced: bool  # fewer than 2 mutable rules stood, so the action had to be a division
    points: int
    violations: tuple[tuple[str, str], ...]  # (finding kind, message naming the clause broken)
    problems: tuple[str, ...]  # the action cannot apply as written (a phrase not in the text): unreadable
    deaths: tuple[Death, ...]
    born: tuple[int, ...]  # identities made or transmuted by the action


# --- The mechanics both the replay and the solver use ------------------------------------------------

def subsumer_span(span: int, subsumed: int, options: Solitaire) -> int:
    """Rule 9: the subsumer gains half (rounded down) of the other's remaining span; rule 3 caps it at 8."""
    gained = span + subsumed // 2
    return min(gained, LIFE_SPAN) if options.subsumer_cap else gained


def divided_span(span: int) -> int:
    """Rule 10: both rules get half the span before dividing, plus 4; rule 3: never above 8."""
    return min(span // 2 + 4, LIFE_SPAN)


def must_divide(mutable_rules: int) -> bool:
    """Rule 6: with fewer than 2 mutable rules, the next action must be a division."""
    return mutable_rules < 2


def is_won(setup: Setup, position: Position) -> bool:
    """Rule 2: the goal is achieved when every rule except the Objective is gone."""
    return len(position.rules) == 1 and position.rules[0].identity == setup.objective


# --- Setting up and playing ----------------------------------------------------------------------

def initial_position(game: Game) -> tuple[Setup, Position, list[SourceError]]:
    """The setup and the position before the first turn, and any problem that makes the game unplayable."""
    problems = []
    rules = []
    clauses: dict[str, tuple[int, int]] = {}
    for identity, rule in enumerate(game.rules.rules):
        text = rule.text.strip()
        title = rule.title.strip().rstrip(".")
        mutable = rule.rule_class == "mutable"
        rules.append(LiveRule(identity, rule.number, rule.rule_class, f"{title}. {text}" if title else text,
                              LIFE_SPAN if mutable else None, bool(title), mutable))
        if title.casefold() in CLAUSES:
            clauses.setdefault(title.casefold(), (identity, rule.number))
    if "objective" not in clauses:
        problems.append(SourceError(game.rules.source.file, 0, "a solitaire game needs the Objective rule (seed "
                                    "000's rule 2: '### 2. Objective')"))
    players = game.config.players
    if len(players) > 1:
        problems.append(SourceError(f"{game.slug}/game.toml", 0,
                                    f"a solitaire game has one player, not {len(players)}"))
    setup = Setup(game.config.solitaire, players[0] if players else "Player", clauses,
                  clauses.get("objective", (-1, 0))[0])
    return setup, Position(tuple(sorted(rules, key=lambda r: r.number)), len(rules)), problems


class _Turn:
    """The working state of one action: a mutable copy of the rules, and what the action did."""

    def __init__(self, setup: Setup, position: Position):
        self.setup = setup
        self.rules = {rule.identity: rule for rule in position.rules}
        self.next_identity = position.next_identity
        self.violations: list[tuple[str, str]] = []
        self.problems: list[str] = []
        self.deaths: list[Death] = []
        self.born: list[int] = []

    def rule(self, number: int) -> LiveRule | None:
        return next((rule for rule in self.rules.values() if rule.number == number), None)

    def taken(self, number: int, other_than: int | None = None) -> bool:
        return any(rule.number == number and rule.identity != other_than for rule in self.rules.values())

    def illegal(self, clause: str, message: str, kind: str = "action") -> None:
        self.violations.append((kind, f"{self.setup.cite(clause)}: {message}"))

    def run_down(self) -> None:
        """Each mutable rule whose span this action did not set loses a turn; at 0 it dies (rules 3 and 5)."""
        for identity, rule in list(self.rules.items()):
            if rule.span is None or identity in self.born:
                continue
            if rule.span <= 1:
                del self.rules[identity]
                self.deaths.append(Death(dataclasses.replace(rule, span=0), "life span"))
            else:
                self.rules[identity] = dataclasses.replace(rule, span=rule.span - 1)

    def new_number(self, clause: str, number: int, *, mutable: bool) -> bool:
        """Whether a rule may take `number` as the record says; a number below 20 is reported but followed."""
        if number < 1:
            self.illegal("rule numbers", f"rule numbers are integers greater than 0, not {number}")
            return False
        if self.taken(number):
            self.illegal(clause, f"{number} is the number of an existing rule")
            return False
        if mutable and number < FIRST_MUTABLE_NUMBER:
            self.illegal("two classes of rules", f"a mutable rule's number is {FIRST_MUTABLE_NUMBER} or greater, "
                         f"not {number}")
        return True

    def transmute(self, action: Action, rule: LiveRule) -> bool:
        if rule.mutable:
            self.illegal("transmutation", f"rule {rule.number} is mutable already; only an immutable rule is "
                         "transmuted")
            return False
        greatest = max(r.number for r in self.rules.values() if not r.mutable)
        if rule.number != greatest:
            self.illegal("transmutation", f"{rule.number} is not the greatest immutable rule; {greatest} is")
        assert action.number is not None
        if not self.new_number("transmutation", action.number, mutable=True):
            return False
        self.rules[rule.identity] = dataclasses.replace(rule, number=action.number, rule_class="mutable",
                                                        span=LIFE_SPAN)
        self.born.append(rule.identity)
        return True

    def mutate(self, action: Action, rule: LiveRule) -> bool:
        if not rule.mutable:
            self.illegal("two classes of rules", f"immutable rules are not subject to mutation, and rule "
                         f"{rule.number} is immutable")
        mode = self.setup.options.words
        old_text = rule.full_text
        found = locate_edits(old_text, action.edits, mode, f"rule {rule.number}")
        if isinstance(found, str):
            self.problems.append(found)
            return False
        for message in mutation_limits(action.edits, mode):
            self.illegal("mutation", message)
        new_text = old_text
        for (start, end), (_, new) in sorted(zip(found, action.edits), reverse=True):
            new_text = new_text[:start] + new + new_text[end:]
        head = _NUMBER_HEAD.match(new_text)
        if head is None:
            self.illegal("rule numbers", "a rule starts with its number and a full stop; this mutation would "
                         f"leave \"{' '.join(new_text.split()[:3])}\"")
            return False
        try:
            number = read_int(head.group(1))
        except NumberTooLarge as error:
            self.illegal("rule numbers", f"this mutation would renumber rule {rule.number} as "
                         f"{shorten(head.group(1))}: {error}")
            return False
        if too_long := growth_problem(rule.number, new_text, "mutation"):
            self.problems.append(too_long)
            return False
        if number != rule.number and not self.new_number("mutation", number, mutable=rule.mutable):
            return False
        self.rules[rule.identity] = dataclasses.replace(rule, number=number, body=new_text[head.end():])
        return True

    def subsume(self, action: Action, rule: LiveRule) -> bool:
        assert action.subsumed is not None
        other = self.rule(action.subsumed)
        if other is None:
            self.violations.append(("no-such-rule", f"there is no rule {action.subsumed}"))
            return False
        if other.identity == rule.identity:
            self.illegal("subsumption", "a rule cannot subsume itself")
            return False
        for each in (rule, other):
            if not each.mutable:
                self.illegal("subsumption", f"rule {each.number} is immutable; subsumption is between mutable rules")
        span = rule.span
        if span is not None:
            span = subsumer_span(span, other.span or 0, self.setup.options)
        subsumer = dataclasses.replace(rule, body=f"{rule.body}\n\n{other.full_text}", span=span)
        if too_long := growth_problem(rule.number, subsumer.full_text, "subsumption"):
            self.problems.append(too_long)
            return False
        self.rules[rule.identity] = subsumer
        del self.rules[other.identity]
        self.deaths.append(Death(other, f"subsumed into rule {rule.number}"))
        return True

    def divide(self, action: Action, rule: LiveRule) -> bool:
        if not rule.mutable:
            self.illegal("two classes of rules", f"immutable rules are not subject to division, and rule "
                         f"{rule.number} is immutable")
        elif rule.first_mutable and not self.setup.options.divide_initial:
            self.illegal("division", f"rule {rule.number} is one of the mutable rules the game began with, which "
                         "this game does not divide (solitaire.divide_initial = false)")
        assert action.number is not None
        if not self.new_number("division", action.number, mutable=rule.mutable):
            return False
        span = divided_span(rule.span) if rule.span is not None else None
        duplicate = LiveRule(self.next_identity, action.number, rule.rule_class, rule.body, span, rule.titled, False)
        self.next_identity += 1
        self.rules[rule.identity] = dataclasses.replace(rule, span=span)
        self.rules[duplicate.identity] = duplicate
        self.born += [rule.identity, duplicate.identity]
        return True


def play(setup: Setup, position: Position, action: Action) -> Played:
    """One turn: life spans run down (before or after the action, by solitaire.tick), rule 6's forced
    division, the action checked clause by clause and applied as recorded where it can be, rule 100's
    points. Pure: the position given is not changed."""
    turn = _Turn(setup, position)
    if setup.options.tick == "before":
        turn.run_down()
    mutable = sum(1 for rule in turn.rules.values() if rule.mutable)
    forced = must_divide(mutable) and setup.available(turn.rules, "divide")
    if forced and action.kind != "divide":
        turn.illegal("actions", f"fewer than 2 mutable rules remain ({mutable}), so this action must be a division",
                     kind="forced-division")
    clause = ACTION_CLAUSE[action.kind]
    if not setup.available(turn.rules, action.kind):
        turn.illegal("actions", f"{clause} is no longer described in the immutable rules "
                     f"({setup.cite(clause)} is no longer immutable; solitaire.actions = \"immutable\")")
    scoring = setup.clauses.get("scoring")
    scores = scoring is not None and scoring[0] in turn.rules  # rule 100 stands when the action is performed
    rule = turn.rule(action.rule)
    if rule is None:
        turn.violations.append(("no-such-rule", f"there is no rule {action.rule}"))
        applied = False
    else:
        applied = getattr(turn, action.kind)(action, rule)
    if setup.options.tick == "after":
        turn.run_down()
    points = POINTS_PER_ACTION if applied and scores else 0
    after = Position(tuple(sorted(turn.rules.values(), key=lambda r: r.number)), turn.next_identity,
                     position.score + points)
    return Played(after, applied, forced, points, tuple(turn.violations), tuple(turn.problems),
                  tuple(turn.deaths), tuple(turn.born))


# --- Words (rule 8) ----------------------------------------------------------------------------

def words(text: str, mode: str) -> list[str]:
    return _WORDS[mode].findall(text)


def locate_edits(text: str, edits: tuple[tuple[str, str], ...], mode: str, name: str) -> list[tuple[int, int]] | str:
    """Where each quoted phrase stands in the text of the rule `name`: once, on word boundaries, white space
    folded. A string says why one cannot be placed."""
    spans = []
    bounds = [(m.start(), m.end()) for m in _WORDS[mode].finditer(text)]
    for old, _ in edits:
        pattern = re.compile(r"\s+".join(re.escape(piece) for piece in old.split()))
        found = [(m.start(), m.end()) for m in pattern.finditer(text)
                 if not any(start < m.start() < end or start < m.end() < end for start, end in bounds)]
        if not found:
            return f"\"{old}\" is not in {name} (as whole words)"
        if len(found) > 1:
            return f"\"{old}\" appears {len(found)} times in {name}; quote more words around the one meant"
        spans.append(found[0])
    ordered = sorted(spans)
    if any(a[1] > b[0] for a, b in zip(ordered, ordered[1:])):
        return f"the quoted phrases overlap in {name}"
    return spans


def changed_words(old: str, new: str, mode: str) -> tuple[list[str], list[str]]:
    """The words a replacement really changes: the quoted words less those it keeps at either end."""
    before, after = words(old, mode), words(new, mode)
    while before and after and before[0] == after[0]:
        before, after = before[1:], after[1:]
    while before and after and before[-1] == after[-1]:
        before, after = before[:-1], after[:-1]
    return before, after


def mutation_limits(edits: tuple[tuple[str, str], ...], mode: str) -> list[str]:
    """Rule 8: up to 4 consecutive words, or 2 non-consecutive words, replaced with 0 to 8 words."""
    changes = [changed_words(old, new, mode) for old, new in edits]
    problems = []
    if all(old == new for old, new in edits):
        return ["the mutation changes nothing"]
    if len(edits) > MAX_APART:
        problems.append(f"a mutation changes words in one place, or {MAX_APART} words apart; this one changes "
                        f"{len(edits)} places")
    elif len(edits) == 1 and len(changes[0][0]) > MAX_REPLACED:
        problems.append(f"a mutation replaces up to {MAX_REPLACED} consecutive words; this one replaces "
                        f"{len(changes[0][0])} (\"{' '.join(changes[0][0])}\")")
    elif len(edits) == MAX_APART:
        wide = [before for before, _ in changes if len(before) > 1]
        if wide:
            problems.append(f"a mutation of {MAX_APART} non-consecutive words replaces one word in each place; this "
                            f"one replaces {len(wide[0])} (\"{' '.join(wide[0])}\")")
    inserted = sum(len(after) for _, after in changes)
    if inserted > MAX_INSERTED:
        problems.append(f"a mutation puts at most {MAX_INSERTED} words in place of those it replaces; this one "
                        f"puts {inserted}")
    return problems


# --- The replay ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class TurnStep:
    """The game just after one turn."""

    index: int
    entry: Turn
    label: str
    before: tuple[LiveRule, ...]  # the rules when the turn began
    rules: tuple[LiveRule, ...]  # the rules after it, by number
    applied: bool
    forced: bool
    points: int
    scores: dict[str, int]
    deaths: tuple[Death, ...]
    born: tuple[int, ...]
    winner: tuple[str, ...]  # the game's winner once decided
    findings: tuple[Finding, ...]


@dataclass(frozen=True)
class SolitaireReplay(Outcome):
    """A solitaire game replayed; offers what the check reports read of a standard replay."""

    game: Game
    setup: Setup
    initial: Position
    steps: tuple[TurnStep, ...]
    findings: tuple[Finding, ...]
    errors: tuple[Finding, ...]  # actions that cannot apply as written: the input is unreadable (exit 2)
    won_at: int | None  # the turn that won the game
    overrides: tuple = ()  # a solitaire log has no judgments

    @property
    def initial_scores(self) -> dict[str, int]:
        return {self.setup.player: 0}

    @property
    def rules(self) -> tuple[LiveRule, ...]:
        return self.steps[-1].rules if self.steps else self.initial.rules

    @property
    def winning_step(self) -> TurnStep | None:
        return next((step for step in self.steps if step.winner), None)

    @property
    def next_turn(self) -> int:
        return self.steps[-1].entry.number + 1 if self.steps else 1

    def rules_at(self, index: int) -> tuple[LiveRule, ...]:
        """The rules just after turn `index` (-1: at the start), by number, as `diff` compares them."""
        return self.steps[index].rules if index >= 0 else self.initial.rules

    @property
    def division_due(self) -> bool:
        """Whether the next action must be a division (rule 6), as the rules stand now."""
        rules = {rule.identity: rule for rule in self.rules}
        return must_divide(sum(1 for r in rules.values() if r.mutable)) and self.setup.available(rules, "divide")


def replay_solitaire(game: Game) -> SolitaireReplay:
    setup, position, problems = initial_position(game)
    initial = position
    steps: list[TurnStep] = []
    findings: list[Finding] = []
    errors = [Finding("unplayable", Source(problem.file, problem.line), problem.message) for problem in problems]
    if errors:
        return SolitaireReplay(game, setup, initial, (), (), tuple(errors), None)
    numbers: dict[int, int] = {rule.number: rule.identity for rule in position.rules}  # the last rule to bear each
    expected, won_at, last_date = 1, None, None
    for index, turn in enumerate(game.log.entries):
        assert isinstance(turn, Turn) and turn.action is not None  # the parser reported every other case
        label = f"turn {turn.number}"
        found: list[Finding] = []

        def finding(kind: str, source: Source, message: str, expected_value: str | None = None,
                    found_value: str | None = None) -> None:
            found.append(Finding(kind, source, message, label, expected_value, found_value))

        if turn.number != expected:
            finding("turn", turn.source, f"expected turn {expected} here" + (
                f", after turn {steps[-1].entry.number}" if steps else ""), str(expected), str(turn.number))
        expected = turn.number + 1
        if won_at is not None:
            finding("after-end", turn.source, f"the game was won at turn {won_at}; no turn follows a win")
        if turn.date and last_date and turn.date < last_date:
            finding("date", turn.source, f"dated {turn.date}, before the turn above it ({last_date})")
        last_date = turn.date or last_date
        before = position.rules
        played = play(setup, position, turn.action)
        where = turn.action.source
        for kind, message in played.violations:
            if kind == "no-such-rule":
                message += _whereabouts(int(message.rsplit(" ", 1)[1]), numbers, position, steps)
            finding(kind, where, message)
        errors += [Finding("action", where, problem, label) for problem in played.problems]
        position = played.position
        numbers.update({rule.number: rule.identity for rule in position.rules})
        if won_at is None and is_won(setup, position):
            won_at = turn.number
        winner = (setup.player,) if won_at is not None else ()
        _check_claims(turn, setup, position, played, won_at, finding)
        findings += found
        steps.append(TurnStep(index, turn, label, before, position.rules, played.applied, played.forced,
                              played.points, {setup.player: position.score}, played.deaths, played.born, winner,
                              tuple(found)))
    return SolitaireReplay(game, setup, initial, tuple(steps), tuple(findings), tuple(errors), won_at)


def _whereabouts(number: int, numbers: dict[int, int], position: Position, steps: list[TurnStep]) -> str:
    """Where the rule that last bore a number went, so that a stale number is easy to correct."""
    identity = numbers.get(number)
    if identity is None:
        return ""
    now = next((rule for rule in position.rules if rule.identity == identity), None)
    if now is not None:
        return f" (rule {number} is rule {now.number} now)"
    for step in reversed(steps):
        for death in step.deaths:
            if death.rule.identity == identity:
                return f" (rule {death.rule.number} died at {step.label}: {death.cause})"
    return ""


def _check_claims(turn: Turn, setup: Setup, position: Position, played: Played, won_at: int | None,
                  finding) -> None:
    """Scores: and Winner: are claims, checked against the replay; the replay keeps its own arithmetic."""
    if turn.scores is not None:
        for name, value in turn.scores.scores:
            if name != setup.player:
                finding("score", turn.scores.source, f"Scores names {name}; the player is {setup.player}",
                        None, name)
            elif value != position.score:
                why = "rule 100" if played.points else "no points: the action was not applied" if not played.applied \
                    else "no points: the Scoring rule is gone"
                finding("score", turn.scores.source, f"Scores says {name} {value}; replay gives {position.score} "
                        f"= {position.score - played.points} + {played.points} ({why})", str(position.score), str(value))
    won_now = won_at == turn.number
    if turn.winner is not None:
        claimed = ", ".join(turn.winner.players)
        if won_at is None:
            others = [rule.number for rule in position.rules if rule.identity != setup.objective]
            why = (f"{_rules_phrase(others)} besides the Objective" if len(others) < len(position.rules)
                   else "the Objective is gone")
            finding("winner", turn.winner.source, f"Winner says {claimed}; the game is not won: {why}", "",
                    claimed)
        elif won_now and tuple(turn.winner.players) != (setup.player,):
            finding("winner", turn.winner.source, f"Winner says {claimed}; the winner is {setup.player}",
                    setup.player, claimed)
    elif won_now:
        finding("winner", turn.source, f"only the Objective (rule {position.rules[0].number}) remains: "
                f"{setup.player} wins, but the turn records no Winner", setup.player, "")


def _rules_phrase(numbers: list[int]) -> str:
    if len(numbers) == 1:
        return f"rule {numbers[0]} remains"
    shown = ", ".join(str(n) for n in numbers[:6])
    more = f" and {len(numbers) - 6} more" if len(numbers) > 6 else ""
    return f"rules {shown}{more} remain"
