"""The ruleset during a replay: rules keyed by number, each with a stable identity that survives
renumbering, and every version of every rule kept with the span of log entries it was in force.
"""
from __future__ import annotations

import copy
import dataclasses
import difflib
from dataclasses import dataclass, field
from fractions import Fraction

from ..limits import MAX_RULE_CHARS
from ..model import Change, Rule, Source

# What `Transmute rule N.` without a class makes of a rule (format 1.3: one of no recorded class needs the class said).
_OTHER_CLASS = {"immutable": "mutable", "mutable": "immutable"}


@dataclass(frozen=True)
class RuleVersion:
    """One text of one rule, in force from after entry `start` until after entry `end` (None: still)."""

    identity: int
    number: int
    rule_class: str
    title: str
    text: str
    start: int  # index of the entry that made this version; -1 for the initial set
    end: int | None
    changes: tuple[Change, ...]  # the change paragraphs that made it from the previous version
    source: Source  # where its text was written
    power: Fraction | None = None  # format 1.1, with rules.power
    label: str = ""  # format 1.4: the record's own name for the rule (`4E83`): rules.md's, or the last change's


@dataclass
class CurrentRule:
    """A rule in force during the fold: its version still open."""

    identity: int
    number: int
    rule_class: str
    title: str
    text: str
    start: int
    changes: list[Change]
    source: Source
    power: Fraction | None = None
    label: str = ""
    # Its version while in force (`Rulebook.finish`), made once: a rule in the book is never changed in place (see
    # Rulebook.__copy__), so that each replay resumed from a checkpoint that shares it gives the same object, and
    # the site's index of the rules (site/history.py) finds it the same without comparing it.
    open_version: RuleVersion | None = field(default=None, init=False, compare=False, repr=False)

    def copy(self) -> CurrentRule:
        """An independent copy (its change paragraphs too, not its open version: the copy is made to be changed),
        made from its fields as they are: copy.copy costs four times as much and dataclasses.replace more, and a
        rule is copied at each change made to it."""
        copied = object.__new__(CurrentRule)
        copied.__dict__.update(self.__dict__)
        copied.changes = list(self.changes)
        copied.open_version = None
        return copied


@dataclass(frozen=True)
class Departure:
    """Why a number no longer names a rule: renumbered (to `now`) or repealed."""

    identity: int
    how: str  # "renumbered" | "repealed"
    entry_label: str
    now: int | None = None


class ChangeProblem(Exception):
    """A change that cannot apply as written; `kind` says whether it is a discrepancy or unreadable input."""

    def __init__(self, kind: str, message: str, *, fatal: bool = False):
        super().__init__(message)
        self.kind = kind
        self.fatal = fatal


@dataclass
class Rulebook:
    current: dict[int, CurrentRule] = field(default_factory=dict)  # by number
    versions: list[RuleVersion] = field(default_factory=list)
    departures: dict[int, Departure] = field(default_factory=dict)
    amended: set[int] = field(default_factory=set)  # identities amended or repealed at least once
    by_identity: dict[int, CurrentRule] = field(default_factory=dict)  # the rules in force
    _next_identity: int = 0
    # The class of a rule enacted without one: mutable, as Suber's rules say; in a game whose rules record no class
    # at all (format 1.3, `## Rules` only), not recorded: the program invents none.
    enacted_class: str = "mutable"

    def __copy__(self) -> "Rulebook":
        """An independent copy (a replay's checkpoint): each field copied as its type copies itself. The rules in
        force are shared: no change alters one in place (`_change` puts a copy in its place first), so that a
        checkpoint costs no copy of 700 rules, nor their memory."""
        twin = object.__new__(Rulebook)
        twin.__dict__ = {name: copy.copy(value) for name, value in self.__dict__.items()}
        return twin

    @classmethod
    def from_rules(cls, rules: tuple[Rule, ...]) -> "Rulebook":
        book = cls()
        if rules and all(rule.rule_class == "unrecorded" for rule in rules):
            book.enacted_class = "unrecorded"
        for rule in rules:
            book._create(rule.number, rule.rule_class, rule.title, rule.text, -1, [], rule.source, rule.power,
                         rule.label)
        return book

    def identity_of(self, number: int) -> int | None:
        rule = self.current.get(number)
        return rule.identity if rule else None

    def labelled(self, label: str) -> list[CurrentRule]:
        """The rules in force that have `label`, by number (a label given twice is the record's slip). Read only
        where a change names a rule by its label: no index to keep for the games that never do."""
        return sorted((rule for rule in self.current.values() if rule.label == label), key=lambda rule: rule.number)

    def number_of(self, identity: int | None) -> int | None:
        """The present number of a rule in force (None: repealed, or no rule)."""
        rule = self.by_identity.get(identity) if identity is not None else None
        return rule.number if rule else None

    def mutable_count(self) -> int:
        return sum(1 for rule in self.current.values() if rule.rule_class == "mutable")

    def text_differences(self, other: Rulebook) -> set[int] | None:
        """The identities of the rules whose texts (and the change paragraphs that made them) tell this book
        from `other`, in the rules in force or in the versions closed, the rest of the two being the same. An
        empty set: the same book. None: they differ otherwise."""
        if (self.current.keys() != other.current.keys() or self.departures != other.departures
                or self.amended != other.amended or self._next_identity != other._next_identity
                or len(self.versions) != len(other.versions)):
            return None
        differing = set()
        for number, rule in self.current.items():
            was = other.current[number]
            if rule is not was and rule != was:
                if dataclasses.replace(rule, text=was.text, changes=was.changes) != was:
                    return None
                differing.add(rule.identity)
        for version, was in zip(self.versions, other.versions):
            if version is not was and version != was:
                if dataclasses.replace(version, text=was.text, changes=was.changes) != was:
                    return None
                differing.add(version.identity)
        return differing

    def follow_texts(self, versions: tuple[RuleVersion, ...], identities: set[int], index: int
                     ) -> list[RuleVersion] | None:
        """The `versions` of a replay whose book, before entry `index`, told from this one only by the texts (and
        the change paragraphs and places that wrote them) of the rules of `identities`, the later changes being
        the same: as that replay made them, but for those rules' texts, this book's carried through the same
        changes, in the same order. None when a later change would not apply to a new text (a phrase no longer
        found once, a text grown past the cap): only a replay says what then follows."""
        closed = {(v.identity, v.start): v for v in self.versions if v.identity in identities}
        texts: dict[int, str] = {}  # identity -> its new text, while it differs from the one the replay had
        followed = []
        for version in versions:
            identity = version.identity
            if identity not in identities:
                followed.append(version)
            elif version.end is not None and version.end < index:  # closed before `index`: this book's
                followed.append(closed[identity, version.start])
            elif version.start < index:  # in force before `index`: this book's, closed where it was
                rule = self.by_identity[identity]
                followed.append(self._freeze(rule, version.end))
                texts[identity] = rule.text
            elif identity in texts:
                try:
                    text = texts[identity]
                    for change in version.changes:
                        text = changed_text(text, change, version.number)
                except ChangeProblem:
                    return None
                if text == version.text:  # an amendment wrote the whole text: from here on, the same
                    del texts[identity]
                    followed.append(version)
                else:
                    texts[identity] = text
                    followed.append(dataclasses.replace(version, text=text))
            else:
                followed.append(version)
        return followed

    def with_versions(self, versions: dict[tuple[int, int], RuleVersion], places: list[int]) -> Rulebook:
        """This book with the texts, change paragraphs and places of `versions` (by identity and start) in place
        of those of its versions, closed or in force, that share their identity and start. `places`: where the
        closed versions of those identities stand in this book's (`closed_places`), so that a long game's
        thousands of others are copied, not looked at. Its departures and amended rules are this book's own
        objects: the result, like a checkpoint, is copied before a fold."""
        current, by_identity = dict(self.current), dict(self.by_identity)
        for identity in {identity for identity, _ in versions}:
            rule = by_identity.get(identity)
            if rule is not None and (version := versions.get((identity, rule.start))) is not None:
                current[rule.number] = by_identity[identity] = dataclasses.replace(
                    rule, text=version.text, changes=list(version.changes), source=version.source)
        closed = list(self.versions)
        for place in places:
            was = closed[place]
            closed[place] = versions.get((was.identity, was.start), was)
        return Rulebook(current, closed, self.departures, self.amended, by_identity, self._next_identity,
                        self.enacted_class)

    def closed_places(self, identities: set[int], start: int = 0) -> list[int]:
        """Where the closed versions of the rules of `identities` stand in this book's, from place `start` on. A
        fold only appends to them, so a later checkpoint's are an earlier one's and more: its places are the
        earlier one's and those found after them."""
        closed = self.versions
        return [place for place in range(start, len(closed)) if closed[place].identity in identities]

    def finish(self) -> tuple[RuleVersion, ...]:
        """Every version, the ones still in force closed with end None, in order of creation."""
        open_versions = [self._freeze(rule, None) for rule in self.current.values()]
        return tuple(sorted(self.versions + open_versions, key=lambda v: (v.start, v.identity)))

    def _create(self, number: int, rule_class: str, title: str, text: str, step: int, changes: list[Change],
                source: Source, power: Fraction | None = None, label: str = "") -> None:
        rule = CurrentRule(self._next_identity, number, rule_class, title, text, step, changes, source, power, label)
        self.current[number] = self.by_identity[rule.identity] = rule
        self.departures.pop(number, None)
        self._next_identity += 1

    def _freeze(self, rule: CurrentRule, end: int | None) -> RuleVersion:
        if end is None and rule.open_version is not None:
            return rule.open_version
        version = RuleVersion(rule.identity, rule.number, rule.rule_class, rule.title, rule.text, rule.start, end,
                              tuple(rule.changes), rule.source, rule.power, rule.label)
        if end is None:
            rule.open_version = version
        return version

    def _begin_change(self, rule: CurrentRule, step: int, change: Change) -> None:
        """Close the version in force before this entry (once per entry) and start a new one."""
        if rule.start != step:
            self.versions.append(self._freeze(rule, step))
            rule.start = step
            rule.changes = []
        rule.changes.append(change)
        rule.source = change.source

    def lookup(self, number: int) -> CurrentRule:
        rule = self.current.get(number)
        if rule is not None:
            return rule
        gone = self.departures.get(number)
        if gone and gone.how == "renumbered":
            raise ChangeProblem("no-such-rule", f"there is no rule {number}: it became rule {self._now(gone)} "
                                f"({gone.entry_label})")
        if gone:
            raise ChangeProblem("no-such-rule", f"there is no rule {number}: it was repealed ({gone.entry_label})")
        raise ChangeProblem("no-such-rule", f"there is no rule {number}")

    def _now(self, gone: Departure) -> int | None:
        """The present number of a renumbered rule, following it through later renumberings."""
        return self.number_of(gone.identity) or gone.now

    def apply(self, change: Change, step: int, entry_label: str, proposal_number: int | None,
              numbering, power_default: Fraction | None = None) -> list[str]:
        """Apply one change; returns notes of discrepancies that did not stop it (e.g. a number already taken).
        `power_default`: the power of an enactment that names none, where rules carry a power.

        Raises ChangeProblem when the change cannot apply at all.
        """
        notes: list[str] = []
        if change.kind == "enact":
            self._enact(change, step, proposal_number, numbering, power_default, notes)
            return notes
        if change.kind == "reenact":
            self._reenact(change, step, proposal_number, numbering, power_default)
            return notes
        assert change.rule is not None
        rule = self.lookup(change.rule)
        if change.kind in ("amend", "replace", "append", "repeal") and rule.rule_class == "immutable":
            notes.append(f"rule {rule.number} is immutable: it must be transmuted before it is "
                         f"{'repealed' if change.kind == 'repeal' else 'amended'} (Suber 103)")
        if change.kind == "repeal":
            self._repeal(rule, step, entry_label)
        else:
            self._change(rule, change, step, entry_label, proposal_number, numbering, notes)
        return notes

    def _enact(self, change: Change, step: int, proposal_number: int | None, numbering,
               power_default: Fraction | None, notes: list[str]) -> None:
        number = change.rule
        if proposal_number is not None and numbering.enact_takes_proposal_number:
            if change.rule is not None and change.rule != proposal_number:
                notes.append(f"enacts rule {change.rule}, but an enacted rule takes the proposal's number, "
                             f"{proposal_number}")
            number = proposal_number
        if number is None:
            raise ChangeProblem("rule-number", "an enactment outside a proposal must give the new rule's number")
        if number in self.current:
            raise ChangeProblem("rule-number", f"cannot enact rule {number}: a rule {number} already exists")
        self._create(number, change.rule_class or self.enacted_class, change.title, change.text, step, [change],
                     change.source, change.power if change.power is not None else power_default, change.label)

    def _repeal(self, rule: CurrentRule, step: int, entry_label: str) -> None:
        self.versions.append(self._freeze(rule, step))
        del self.current[rule.number]
        del self.by_identity[rule.identity]
        self.departures[rule.number] = Departure(rule.identity, "repealed", entry_label)
        self.amended.add(rule.identity)

    def _change(self, rule: CurrentRule, change: Change, step: int, entry_label: str, proposal_number: int | None,
                numbering, notes: list[str]) -> None:
        """A change to a rule in force that keeps it in force: a new version of it, perhaps under a new number."""
        new_text = changed_text(rule.text, change, rule.number)
        rule = self.current[rule.number] = self.by_identity[rule.identity] = rule.copy()  # (see __copy__)
        target = rule.rule_class
        if change.kind == "transmute":
            target = change.rule_class or _OTHER_CLASS.get(rule.rule_class, rule.rule_class)
            if rule.rule_class == "unrecorded" and change.rule_class is None:
                notes.append(f"rule {rule.number}'s class is not recorded: a transmutation of it must say to which "
                             f"class ('Transmute rule {rule.number} to mutable.')")
            elif target == rule.rule_class:
                notes.append(f"rule {rule.number} is already {target}")
        self._begin_change(rule, step, change)
        rule.text, rule.rule_class = new_text, target
        if change.kind == "retitle":
            rule.title = change.title
        if change.kind == "power":
            rule.power = change.power
        if change.label:
            rule.label = change.label
        if change.kind in ("amend", "replace", "append"):
            self.amended.add(rule.identity)
        if change.kind == "renumber":
            self._renumber(rule, change.new_number, entry_label, notes)
        elif (change.kind in ("amend", "replace", "append", "transmute") and proposal_number is not None
              and numbering.amend_renumbers):
            self._renumber(rule, proposal_number, entry_label, notes)

    def _renumber(self, rule: CurrentRule, target: int, entry_label: str, notes: list[str]) -> None:
        """`rule` under number `target`, unless a rule in force has it (a note)."""
        if target == rule.number:
            return
        if target in self.current:
            notes.append(f"rule {rule.number} should become rule {target}, but a rule {target} already exists; it "
                         f"keeps number {rule.number}")
            return
        del self.current[rule.number]
        self.departures[rule.number] = Departure(rule.identity, "renumbered", entry_label, target)
        rule.number = target
        self.current[target] = rule
        self.departures.pop(target, None)

    def _reenact(self, change: Change, step: int, proposal_number: int | None, numbering,
                 power_default: Fraction | None) -> None:
        """A repealed rule back in force (format 1.2, Agora R105), the same rule: its last text, title, power
        and class unless the change gives them; under its old number, or the proposal's where enactments take
        it. A rule the archive never saw is taken as written, and needs its text."""
        number = change.rule
        if number in self.current:
            raise ChangeProblem("reenact", f"rule {number} is in force: only a repealed rule can be reenacted")
        gone = self.departures.get(number)
        if gone is not None and gone.how == "renumbered" and self.number_of(gone.identity) is not None:
            raise ChangeProblem("reenact", f"rule {number} is in force as rule {self._now(gone)}: only a repealed "
                                "rule can be reenacted")
        last = next((v for v in reversed(self.versions) if gone is not None and v.identity == gone.identity), None)
        if last is None and not change.text:
            raise ChangeProblem("reenact", f"rule {number} is not in this archive: reenacting it needs its text as a "
                                "blockquote", fatal=True)
        taken = proposal_number if proposal_number is not None and numbering.enact_takes_proposal_number else number
        if taken in self.current:
            raise ChangeProblem("rule-number", f"cannot reenact rule {number} as rule {taken}: a rule {taken} exists")
        power = change.power if change.power is not None else last.power if last else power_default
        rule = CurrentRule(last.identity if last else self._next_identity, taken,
                           last.rule_class if last else "mutable", change.title or (last.title if last else ""),
                           change.text or last.text, step, [change], change.source, power,
                           change.label or (last.label if last else ""))
        if last is None:
            self._next_identity += 1
        self.current[taken] = self.by_identity[rule.identity] = rule
        self.departures.pop(taken, None)


def changed_text(text: str, change: Change, number: int) -> str:
    """The text of rule `number` after `change` (the same for a change of its class, title, number or power).

    Raises ChangeProblem (fatal) when the change cannot apply to this text."""
    if change.kind == "amend":
        text = change.text
    elif change.kind == "append":
        text = f"{text.rstrip()}\n\n{change.text}" if text.strip() else change.text
    elif change.kind == "replace":
        for old, new in change.edits:
            text = replace_once(text, old, new, number)
    if too_long := growth_problem(number, text, "change"):
        raise ChangeProblem("rule-length", too_long, fatal=True)
    return text


def growth_problem(number: int, text: str, what: str) -> str | None:
    """Why a change may not leave rule `number` with `text`: it would pass the cap that parsing holds written
    rule text to (appends and edits add up, and a solitaire subsumption doubles a rule); None when it may."""
    if len(text) <= MAX_RULE_CHARS:
        return None
    return (f"this {what} would make rule {number}'s text {len(text):,} characters long; a rule's text may hold at "
            f"most {MAX_RULE_CHARS:,}")


def phrase_spans(text: str, phrase: str) -> list[tuple[int, int]]:
    """Where `phrase` occurs in `text`, its words matching across any run of white space (rule text wraps
    lines anywhere); a phrase that starts or ends with a letter or digit does not match inside a longer word
    ("vote" is not in "voters"). Non-overlapping, left to right: what the regular expression
    `(?<!\\w)word1\\s+word2(?!\\w)` finds, without compiling one for every phrase (a long log quotes
    thousands)."""
    words = phrase.split()
    first, rest = words[0], words[1:]
    bound_start, bound_end = _is_word(first[0]), _is_word(words[-1][-1])
    spans = []
    at = text.find(first)
    while at != -1:
        end = None
        if not (bound_start and at and _is_word(text[at - 1])):
            end = _rest_of_phrase(text, at + len(first), rest)
            if end is not None and bound_end and end < len(text) and _is_word(text[end]):
                end = None
        if end is None:
            at = text.find(first, at + 1)
        else:
            spans.append((at, end))
            at = text.find(first, end)
    return spans


def _is_word(char: str) -> bool:
    return char.isalnum() or char == "_"  # the regular expression's \w


def _rest_of_phrase(text: str, at: int, words: list[str]) -> int | None:
    """The end of `words` in `text` from `at`, each after a run of white space; None if they are not there."""
    for word in words:
        if at >= len(text) or not text[at].isspace():
            return None
        while at < len(text) and text[at].isspace():
            at += 1
        if not text.startswith(word, at):
            return None
        at += len(word)
    return at


# The longest rule text searched for the words a phrase not found was meant to be (a slip of a keeper's hand).
_MEANT_SEARCHED = 20_000


def _phrase_meant(text: str, phrase: str) -> str:
    """` (did you mean "..."?)`: the run of as many words in `text` most like `phrase`, when one is close; else
    nothing."""
    words, count = text.split(), len(phrase.split())
    if not count or len(text) > _MEANT_SEARCHED:
        return ""
    runs = {" ".join(words[at:at + count]).strip(".,;:!?\"'()") for at in range(len(words) - count + 1)}
    meant = difflib.get_close_matches(" ".join(phrase.split()), runs, n=1, cutoff=0.8)
    return f' (did you mean "{meant[0]}"?)' if meant else ""


def replace_once(text: str, old: str, new: str, number: int) -> str:
    spans = phrase_spans(text, old)
    if not spans:
        raise ChangeProblem("phrase", f'"{old}" is not in rule {number}{_phrase_meant(text, old)}', fatal=True)
    if len(spans) > 1:
        raise ChangeProblem("phrase", f'"{old}" is in rule {number} {len(spans)} times; quote more words '
                            "so that it is found once", fatal=True)
    start, end = spans[0]
    if new:
        return text[:start] + new + text[end:]
    # A deletion also takes one space next to the phrase, so no double space is left behind.
    if end < len(text) and text[end] == " ":
        end += 1
    elif start > 0 and text[start - 1] == " ":
        start -= 1
    return text[:start] + text[end:]
