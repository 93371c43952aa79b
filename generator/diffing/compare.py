"""Two rulesets compared rule by rule: which rules stayed, changed, moved, split, merged, came or went.

`compare(old, new)` takes two lists of rules (anything with `number`, `rule_class`, `title`, `text` and `label`:
the parser's `Rule`, the replay's `RuleVersion`) and returns a `Comparison`, a list of `Pair`s in rule
order. Rules are matched in this order, each rule at most once:

1. the same number and the same text, title, class and label: `equal`;
2. the same number and texts at least `MATCH_SIMILARITY` alike: `changed`;
3. the remaining rules by text similarity, greedy best-first, at least `MATCH_SIMILARITY` alike:
   `renumbered` ("rule 203 is now 306", its text possibly changed too);
4. one old rule whose text two new rules cover together (`split`), or two old rules covered by one new
   rule (`merged`), again best-first;
5. the same number still unmatched on both sides: `changed`, a rewrite in place (the keepers' numbering
   says it is the same rule even when no sentence survived);
6. whatever is left: `removed` (old) or `added` (new).

A number alone does not win over the text (step 2 needs similar texts): comparing two games' rulesets,
Suber's rule 203 (adoption) must meet the LiveJournal draft's rule 206 (adoption), not its rule 203
(timing).

`to_json` gives the stable JSON form (schema in its docstring); the command and the site render the rest.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Literal, Protocol

from .redline import Redline, forget_texts as forget_redline_texts, redline, similarity, similarity_bound, similarity_joined, summarize, word_count

PairKind = Literal["equal", "changed", "renumbered", "added", "removed", "split", "merged"]
KINDS: tuple[PairKind, ...] = ("equal", "changed", "renumbered", "split", "merged", "added", "removed")

JSON_SCHEMA_VERSION = 1

# Two rule texts at least this alike (the share of words they have in common, `redline.similarity`) are
# one rule edited. Unrelated rules share function words and the game's vocabulary ("the", "rule",
# "player", "vote"): of the 843 pairs of different rules between Suber's second edition and the
# LiveJournal draft (examples/), nine in ten score below 0.27 and all but two below 0.46 (those two,
# 0.53, pair rule 107 with near-paraphrases that have exact partners of their own, matched first),
# while the edited rules score 0.58 and up. 0.5 lies in that gap, and it is where half of each text
# survives, the line `redline` itself draws between an edited paragraph and a replaced one.
MATCH_SIMILARITY = 0.5
# The two parts of a split (or of a merge) together must be at least this alike to the whole...
GROUP_SIMILARITY = 0.7
# ...and alike by this much more than either part alone, so that a rule merely edited, next to an
# unrelated new rule, is not taken for a split.
GROUP_GAIN = 0.1
# Only rules this alike to the whole are tried as parts of it (a third of a rule scores 0.5, a fifth
# 0.33): prunes the pairs of parts, which grow with the square of the rules left over.
PART_SIMILARITY = 0.3
# How the parts of a split or merge are joined to be redlined against the whole (a blank line: compared with
# the whole, the joined text has the parts' words, as redline.similarity_joined counts them).
PART_SEPARATOR = "\n\n"


class RuleLike(Protocol):
    @property
    def number(self) -> int: ...
    @property
    def rule_class(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def text(self) -> str: ...
    @property
    def label(self) -> str: ...  # format 1.4: the record's own name for it ("" where none)


def change_notes(before: RuleLike, after: RuleLike) -> list[str]:
    """A rule's change of class, title and label in words: what the redline of its text does not show (a
    comparison's pairs, a proposal's revisions and a draft's preview all say it so)."""
    notes = []
    if before.rule_class != after.rule_class:
        notes.append(f"transmuted from {before.rule_class} to {after.rule_class}")
    if before.title != after.title:
        if not before.title:
            notes.append(f'titled "{after.title}"')
        elif not after.title:
            notes.append(f'title "{before.title}" removed')
        else:
            notes.append(f'retitled "{after.title}" (was "{before.title}")')
    if before.label != after.label:
        notes.append(f"labelled {after.label}" + (f" (was {before.label})" if before.label else "") if after.label
                     else f"label {before.label} no longer given")
    return notes


@dataclass(frozen=True)
class Pair:
    """Rules of the old set matched with rules of the new: none, one or two on either side.

    `redline` turns the old text(s) into the new (parts joined by a blank line); None when equal.
    `similarity` is that of the texts compared; None for a rule added or removed.
    """

    kind: PairKind
    old: tuple[RuleLike, ...]
    new: tuple[RuleLike, ...]
    similarity: float | None
    redline: Redline | None

    @property
    def texts(self) -> tuple[str, str]:
        """The old text and the new, each rule's parts joined as `redline` compared them."""
        return _joined(self.old), _joined(self.new)

    @property
    def first_number(self) -> int:
        """The number the pair stands at in rule order: its first old rule's, else (a rule added) its new one's."""
        return self.old[0].number if self.old else self.new[0].number

    @property
    def title(self) -> str:
        """The rule's title as it now reads, else as it read."""
        return next((rule.title for rule in self.new + self.old if rule.title), "")

    def describe(self) -> str:
        """What happened, in the words the text report and the site use: "rule 203 is now 306"."""
        old = " and ".join(map(_named, self.old))
        new = " and ".join(map(_named, self.new))
        return {
            "equal": f"rule {old} unchanged",
            "changed": f"rule {old} changed",
            "renumbered": f"rule {old} is now {new}",
            "split": f"rule {old} split into {new}",
            "merged": f"rules {old} merged into {new}",
            "added": f"rule {new} added",
            "removed": f"rule {old} removed",
        }[self.kind]

    @property
    def amended(self) -> bool:
        """Whether the text, title or class changed (a renumbered rule may keep all three)."""
        return (bool(self.redline and self.redline.changed) or len(self.old) != len(self.new)
                or any((a.rule_class, a.title, a.label) != (b.rule_class, b.title, b.label)
                       for a, b in zip(self.old, self.new)))

    def notes(self) -> list[str]:
        """Changes of class, title and label, which the redline of the text does not show."""
        return change_notes(self.old[0], self.new[0]) if len(self.old) == 1 == len(self.new) else []

    def summary(self) -> list[str]:
        """The text's changes in plain words (`redline.summarize`); empty when the text is the same."""
        if self.kind in ("added", "removed") or self.redline is None or not self.redline.changed:
            return []
        return summarize(self.redline)


@dataclass(frozen=True)
class Comparison:
    pairs: tuple[Pair, ...]

    @property
    def equal(self) -> bool:
        return all(pair.kind == "equal" for pair in self.pairs)

    @property
    def differences(self) -> tuple[Pair, ...]:
        return tuple(pair for pair in self.pairs if pair.kind != "equal")

    def counts(self) -> dict[str, int]:
        return {kind: sum(1 for pair in self.pairs if pair.kind == kind) for kind in KINDS}

    def tally(self) -> str:
        """One line: "7 changed, 2 renumbered and changed, 13 renumbered, 3 added; 5 unchanged", or "no
        differences". A rule renumbered whose text, title or class changed too is counted as both."""
        counts = self.counts()
        if self.equal:
            return f"no differences ({counts['equal']} rule{'' if counts['equal'] == 1 else 's'})"
        amended = sum(1 for pair in self.pairs if pair.kind == "renumbered" and pair.amended)
        words = {kind: [(counts[kind], kind)] for kind in KINDS}
        words["renumbered"] = [(amended, "renumbered and changed"), (counts["renumbered"] - amended, "renumbered")]
        tally = ", ".join(f"{count} {word}" for kind in KINDS[1:] for count, word in words[kind] if count)
        return f"{tally}; {counts['equal']} unchanged" if counts["equal"] else tally


MAX_PARTS = 8  # candidate parts per rule when looking for splits and merges


def compare(old: Sequence[RuleLike], new: Sequence[RuleLike], *, by_identity: bool = False) -> Comparison:
    """Match the rules of `old` with those of `new` (see the module's docstring for the order).

    `by_identity`: both sides are points of one game's replay, whose rule versions carry the identity
    that survives renumbering; the same identity is then the same rule, whatever its text became."""
    new_by_number = {rule.number: rule for rule in new}
    equal = [(rule, new_by_number[rule.number]) for rule in old
             if rule.number in new_by_number and identical(rule, new_by_number[rule.number])]
    equal_old = {id(a) for a, _ in equal}
    equal_new = {id(b) for _, b in equal}
    matcher = _Matcher([rule for rule in old if id(rule) not in equal_old],
                       [rule for rule in new if id(rule) not in equal_new])
    if by_identity:
        matcher.match_same_identities()
    matcher.match_same_numbers()
    matcher.match_by_similarity()
    groups = matcher.match_groups()
    matcher.match_leftover_numbers()
    pairs = [Pair("equal", (a,), (b,), 1.0, None) for a, b in equal]
    pairs += [_pair((a,), (b,), matcher.similarity(a, b)) for a, b in matcher.pairs()]
    pairs += [_pair(parts_old, parts_new, score) for parts_old, parts_new, score in groups]
    pairs += [Pair("removed", (rule,), (), None, redline(rule.text, "")) for rule in matcher.unmatched_old()]
    pairs += [Pair("added", (), (rule,), None, redline("", rule.text)) for rule in matcher.unmatched_new()]
    return Comparison(tuple(sorted(pairs, key=_position)))


def identical(a: RuleLike, b: RuleLike) -> bool:
    """Whether two rules are the same rule under the same number: a pair the comparison counts unchanged."""
    return (a.number, a.rule_class, a.title, a.text, a.label) == (b.number, b.rule_class, b.title, b.text, b.label)


def _named(rule: RuleLike) -> str:
    """A rule's number as a pair's description names it, with its label where the record gives one."""
    return f"{rule.number} ({rule.label})" if rule.label else str(rule.number)


def _joined(rules: tuple[RuleLike, ...]) -> str:
    return PART_SEPARATOR.join(rule.text for rule in rules)


def _pair(old: tuple[RuleLike, ...], new: tuple[RuleLike, ...], score: float) -> Pair:
    if len(old) > 1:
        kind: PairKind = "merged"
    elif len(new) > 1:
        kind = "split"
    else:  # identical rules under one number were set apart as equal at the start
        kind = "changed" if old[0].number == new[0].number else "renumbered"
    return Pair(kind, old, new, score, redline(_joined(old), _joined(new)))


def _position(pair: Pair) -> tuple:
    """Rule order: by the old number where there is one, an added rule at its new number."""
    return pair.first_number, 0 if pair.old else 1, tuple(rule.number for rule in pair.new)


class _Matcher:
    """The one-to-one matching of steps 2, 3 and 5, and the groups of step 4."""

    def __init__(self, old: list[RuleLike], new: list[RuleLike]):
        self.old = sorted(old, key=lambda rule: rule.number)
        self.new = sorted(new, key=lambda rule: rule.number)
        self.partner_of_old: dict[int, RuleLike] = {}  # id(old rule) -> new rule
        self.partner_of_new: dict[int, RuleLike] = {}  # id(new rule) -> old rule
        self.grouped: set[int] = set()  # ids of rules in a split or merge

    def similarity(self, a: RuleLike, b: RuleLike) -> float:
        return similarity(a.text, b.text)  # cached by the texts (redline.similarity)

    def _link(self, a: RuleLike, b: RuleLike) -> None:
        self.partner_of_old[id(a)] = b
        self.partner_of_new[id(b)] = a

    def _unlink_old(self, a: RuleLike) -> None:
        b = self.partner_of_old.pop(id(a), None)
        if b is not None:
            del self.partner_of_new[id(b)]

    def _unlink_new(self, b: RuleLike) -> None:
        a = self.partner_of_new.pop(id(b), None)
        if a is not None:
            del self.partner_of_old[id(a)]

    def _free(self, rule: RuleLike, partners: dict[int, RuleLike]) -> bool:
        return id(rule) not in partners and id(rule) not in self.grouped

    def unmatched_old(self) -> list[RuleLike]:
        return [a for a in self.old if self._free(a, self.partner_of_old)]

    def unmatched_new(self) -> list[RuleLike]:
        return [b for b in self.new if self._free(b, self.partner_of_new)]

    def pairs(self) -> list[tuple[RuleLike, RuleLike]]:
        return [(a, self.partner_of_old[id(a)]) for a in self.old if id(a) in self.partner_of_old]

    def match_same_identities(self) -> None:
        by_identity = {b.identity: b for b in self.new}  # type: ignore[attr-defined]
        for a in self.old:
            b = by_identity.get(a.identity)  # type: ignore[attr-defined]
            if b is not None:
                self._link(a, b)

    def match_same_numbers(self) -> None:
        by_number = {b.number: b for b in self.unmatched_new()}
        for a in self.unmatched_old():
            b = by_number.get(a.number)
            if b is not None and self.similarity(a, b) >= MATCH_SIMILARITY:
                self._link(a, b)

    def match_by_similarity(self) -> None:
        new = self.unmatched_new()
        texts = _Texts(b.text for b in new)
        candidates = [(score, a, new[position]) for a in self.unmatched_old()
                      for position, score in _alike(a.text, texts, MATCH_SIMILARITY)]
        # Best first; ties go to the lowest numbers, so the result never depends on input order.
        for _, a, b in sorted(candidates, key=lambda c: (-c[0], c[1].number, c[2].number)):
            if self._free(a, self.partner_of_old) and self._free(b, self.partner_of_new):
                self._link(a, b)

    def match_groups(self) -> list[tuple[tuple[RuleLike, ...], tuple[RuleLike, ...], float]]:
        """Splits and merges, best first; returns (old rules, new rules, similarity) for each."""
        candidates = [(score, (whole,), parts) for whole, parts, score in
                      self._group_candidates(self.old, self.unmatched_new(), self.partner_of_old, self.similarity)]
        candidates += [(score, parts, (whole,)) for whole, parts, score in
                       self._group_candidates(self.new, self.unmatched_old(), self.partner_of_new,
                                              lambda whole, part: self.similarity(part, whole))]
        groups = []
        for score, old, new in sorted(candidates, key=lambda c: (-c[0], [r.number for r in c[1] + c[2]])):
            if self._take_group(old, new):
                groups.append((old, new, score))
        return groups

    def _group_candidates(self, wholes: list[RuleLike], free: list[RuleLike], partners: dict[int, RuleLike],
                          alike: Callable[[RuleLike, RuleLike], float]) -> Iterator[tuple]:
        """(whole, two parts, similarity) for each whole that two rules cover: its partner or free rules."""
        texts = _Texts(part.text for part in free)
        for whole in wholes:
            # The likeliest parts only (best first, ties to the lowest number: `free` is in number order): pairs of
            # parts grow with the square of their number.
            parts = [free[position] for position, _ in _alike(whole.text, texts, PART_SIMILARITY)[:MAX_PARTS]]
            if id(whole) in partners:
                parts = sorted(parts + [partners[id(whole)]], key=lambda rule: rule.number)
            words = word_count(whole.text)
            for first, second in combinations(parts, 2):
                least = max(GROUP_SIMILARITY, max(alike(whole, first), alike(whole, second)) + GROUP_GAIN)
                # Two parts as long as the whole, each, cannot make it: most pairs are let go on their lengths.
                if similarity_bound(words, word_count(first.text) + word_count(second.text)) < least:
                    continue
                score = similarity_joined(whole.text, first.text, second.text)  # that of the two joined
                if score >= least:
                    yield whole, (first, second), score

    def _take_group(self, old: tuple[RuleLike, ...], new: tuple[RuleLike, ...]) -> bool:
        if any(id(rule) in self.grouped for rule in old + new):
            return False
        whole, parts, partners = ((old[0], new, self.partner_of_new) if len(old) == 1
                                  else (new[0], old, self.partner_of_old))
        # A part must still be unmatched, or be the rule the whole alone was matched with (steps 2 and 3).
        if any(id(part) in partners and partners[id(part)] is not whole for part in parts):
            return False
        for rule in old:
            self._unlink_old(rule)  # the whole's partner, when not a part, is free again
        for rule in new:
            self._unlink_new(rule)
        self.grouped.update(id(rule) for rule in old + new)
        return True

    def match_leftover_numbers(self) -> None:
        by_number = {b.number: b for b in self.unmatched_new()}
        for a in self.unmatched_old():
            if a.number in by_number:
                self._link(a, by_number[a.number])


class _Texts(tuple):
    """The texts a rule is compared with, hashed once: each of hundreds of rules looks them up in `_alike`'s cache."""

    def __init__(self, texts):
        self._hash = tuple.__hash__(self)

    def __hash__(self) -> int:
        return self._hash


def forget_texts() -> None:
    """Forget the likenesses kept by their texts, and the redlines' (redline.forget_texts)."""
    _alike.cache_clear()
    forget_redline_texts()


@lru_cache(maxsize=16384)
def _alike(text: str, others: _Texts, least: float) -> tuple[tuple[int, float], ...]:
    """(position, similarity) of each of `others` at least `least` alike with `text`, the most alike first (ties
    in the order of `others`). Cached by the texts: serve compares the rules of the start with those of now again
    after an edit that changed one or two of them."""
    words = word_count(text)
    found = [(position, score) for position, other in enumerate(others)
             if similarity_bound(words, word_count(other)) >= least and (score := similarity(text, other)) >= least]
    return tuple(sorted(found, key=lambda found: -found[1]))


# --- JSON --------------------------------------------------------------------------------------


def to_json(comparison: Comparison, *, old: str, new: str) -> dict:
    """The comparison as JSON-ready data; `old` and `new` name the two sides (as given on the command line).

    Schema, version 1 (fields are only ever added; a change in meaning gets a new version)::

        {
          "version": 1,
          "old": "content/game@301",          # the sides as named by the caller
          "new": "content/game",
          "equal": false,                      # true when every pair is "equal"
          "counts": {"equal": 27, "changed": 1, "renumbered": 1, "split": 0, "merged": 0,
                     "added": 1, "removed": 0},
          "pairs": [                           # in rule order (old number, else new number)
            {
              "kind": "renumbered",            # equal|changed|renumbered|split|merged|added|removed
              "description": "rule 203 is now 306",
              "old": [{"number": 203, "class": "mutable", "title": "", "text": "..."}],
              "new": [{"number": 306, "class": "mutable", "title": "", "text": "..."}],
                                               # 0, 1 or 2 rules a side: split has 2 new, merged 2 old
              "similarity": 0.914,             # share of words in common, 3 decimals; null if added/removed
              "notes": ["transmuted from immutable to mutable"],   # class and title changes
              "summary": ["replaced \\"one week\\" with \\"interval\\""],  # the text's changes in words
              "redline": [                     # null for "equal"; the old text(s) to the new, by paragraph
                {"kind": "changed",            # equal|changed|inserted|deleted
                 "segments": [["equal", "Each vote lasts "], ["delete", "one week"],
                              ["insert", "interval"], ["equal", "."]]}
              ]
            }
          ]
        }

    Joining a redline's "equal" and "delete" segments gives the old text's paragraphs, "equal" and
    "insert" the new; the parts of a split or merge are joined by a blank line.
    """
    return {
        "version": JSON_SCHEMA_VERSION,
        "old": old,
        "new": new,
        "equal": comparison.equal,
        "counts": comparison.counts(),
        "pairs": [_pair_json(pair) for pair in comparison.pairs],
    }


def _rule_json(rule: RuleLike) -> dict:
    return {"number": rule.number, "class": rule.rule_class, "title": rule.title, "text": rule.text}


def _pair_json(pair: Pair) -> dict:
    return {
        "kind": pair.kind,
        "description": pair.describe(),
        "old": [_rule_json(rule) for rule in pair.old],
        "new": [_rule_json(rule) for rule in pair.new],
        "similarity": None if pair.similarity is None else round(pair.similarity, 3),
        "notes": pair.notes(),
        "summary": pair.summary(),
        "redline": None if pair.redline is None else [
            {"kind": block.kind, "segments": [[segment.op, segment.text] for segment in block.segments]}
            for block in pair.redline.blocks],
    }

