"""The engine's parts (adoption, turns, the rulebook) and replay on small games built in memory."""
from __future__ import annotations

import copy
import dataclasses
import functools
import json
import re
import sys
import weakref
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import generator.engine as engine_package
from generator.cli import main
from generator.engine import replay_game
from generator.engine.adoption import adopts, describe
from generator.engine.replay import replay
from generator.engine.rulebook import ChangeProblem, Rulebook, replace_once
from generator.engine.turns import TurnTracker, collation_key, ordered
from generator.errors import ErrorCollector
from generator.model import Change, Rule, Source, Votes
from generator.model.config import Numbering
from generator.parse.game import _build_game

# --- adoption -------------------------------------------------------------------------------------------


def votes(for_: int = 0, against: int = 0, abstain: int = 0) -> Votes:
    return Votes(tuple(f"F{i}" for i in range(for_)), tuple(f"A{i}" for i in range(against)),
                 tuple(f"N{i}" for i in range(abstain)))


@pytest.mark.parametrize("method, tally, fraction, adopted", [
    ("unanimous", (3, 0, 0), 0.5, True),
    ("unanimous", (2, 1, 0), 0.5, False),
    ("unanimous", (1, 0, 5), 0.5, True),  # abstentions are not votes against
    ("unanimous", (0, 0, 3), 0.5, False),  # nobody for
    ("unanimous", (0, 0, 0), 0.5, False),
    ("majority", (2, 1, 0), 0.5, True),
    ("majority", (1, 1, 1), 0.5, False),  # a tie is no majority
    ("majority", (1, 0, 9), 0.5, True),
    ("majority", (0, 0, 0), 0.5, False),
    ("fraction", (9, 1, 0), 0.9, True),  # seed 002: nine of ten adopts
    ("fraction", (4, 1, 0), 0.9, False),  # four of five defeats
    ("fraction", (9, 1, 40), 0.9, True),  # abstentions ignored
    ("fraction", (4, 1, 5), 0.9, False),
    ("fraction", (2, 2, 0), 0.5, True),  # "at least" the share
    ("fraction", (2, 1, 0), 2 / 3, True),  # the float 0.666... is read as written, not above 2/3
    ("fraction", (0, 0, 3), 0.5, False),
    ("fraction", (1, 0, 0), 1.0, True),
])
def test_adopts(method, tally, fraction, adopted):
    assert adopts(method, votes(*tally), fraction) is adopted


def test_adopts_unknown_method():
    with pytest.raises(ValueError):
        adopts("plurality", votes(1), 0.5)


def test_describe():
    assert [describe("unanimous", 0.5), describe("majority", 0.5), describe("fraction", 0.9),
            describe("fraction", 2 / 3)] == ["unanimity", "a simple majority", "90% of votes cast",
                                             "66.6667% of votes cast"]


# --- turns ----------------------------------------------------------------------------------------------

def test_orders():
    players = ["carol", "Bob", "alice", "Dave"]
    assert ordered(players, "seating", "") == players
    assert ordered(players, "rotating", "") == players
    assert ordered(players, "none", "") == players
    assert ordered(players, "alphabetical", "") == ["alice", "Bob", "carol", "Dave"]
    assert ordered(["Ann Zed", "Di Young", "Bob Young", "Cy Adams", "Prince"], "surname", "") == \
        ["Cy Adams", "Prince", "Bob Young", "Di Young", "Ann Zed"]


def test_custom_collation():
    collation = "_0123456789abcdefghijklmnopqrstuvwxyz"
    assert ordered(["Ann", "9lives", "_x", "bob", "Zed"], "custom", collation) == ["_x", "9lives", "Ann", "bob", "Zed"]
    assert sorted(["Ann", "9lives", "_x"]) == ["9lives", "Ann", "_x"]  # what code points would give
    # characters the collation does not list come after those it does, by code point
    assert ordered(["a-b", "ab", "a_b", "a\u00e9"], "custom", collation) == ["a_b", "ab", "a-b", "a\u00e9"]
    # shorter first on a common prefix; case-insensitive, with the name itself to break ties
    assert ordered(["abc", "ab", "AB"], "custom", collation) == ["AB", "ab", "abc"]
    assert ordered(["a", "b"], "custom", "ba") == ["b", "a"]
    assert collation_key("ba")("b") < collation_key("ba")("a")


def play(tracker: TurnTracker, *players: str) -> list[str | None]:
    """Take turns by `players`; return who was expected before each."""
    expected = []
    for player in players:
        expected.append(tracker.expected())
        tracker.take_turn(player)
    return expected


def test_seating_circuits():
    t = TurnTracker("seating", "", ["A", "B", "C"])
    assert t.active and t.expected() == "A" and t.circuits == 0
    assert play(t, "A", "B", "C", "A") == ["A", "B", "C", "A"]
    assert (t.circuits, t.turns, t.expected()) == (1, 4, "B")


def test_a_wrong_player_moves_and_play_goes_on_from_them():
    t = TurnTracker("seating", "", ["A", "B", "C", "D"])
    assert play(t, "A", "C", "D", "A", "B") == ["A", "B", "D", "A", "B"]
    assert t.circuits == 1


def test_skipping_to_the_last_seat_completes_the_circuit():
    t = TurnTracker("seating", "", ["A", "B", "C"])
    assert t.take_turn("C") is True
    assert (t.circuits, t.expected()) == (1, "A")


def test_rotating():
    t = TurnTracker("rotating", "", ["A", "B", "C"])
    assert play(t, "A", "B", "C", "B", "C", "A", "C", "A", "B", "A") == \
        ["A", "B", "C", "B", "C", "A", "C", "A", "B", "A"]
    assert t.circuits == 3 and t.order == ["A", "B", "C"]


def test_no_turns():
    t = TurnTracker("none", "", ["A", "B"])
    assert not t.active
    assert not TurnTracker("seating", "", []).active


def test_set_next():
    t = TurnTracker("seating", "", ["A", "B", "C"])
    assert t.set_next("C") and t.expected() == "C"
    assert not t.set_next("Z") and t.expected() == "C"


def test_join_and_leave_keep_who_is_next():
    t = TurnTracker("seating", "", ["A", "B", "C"])
    play(t, "A")
    t.join("E")
    assert t.order == ["A", "B", "C", "E"] and t.expected() == "B"
    t.leave("B")  # the player up next leaves: the one after them is next
    assert t.order == ["A", "C", "E"] and t.expected() == "C"
    play(t, "C", "E")
    assert (t.circuits, t.expected()) == (1, "A")
    t.leave("A")
    assert t.expected() == "C"


def test_join_under_alphabetical_order_sorts_the_newcomer_in():
    t = TurnTracker("alphabetical", "", ["Bob", "Dan"])
    play(t, "Bob")
    t.join("Cat")  # Cat's place comes after Bob, who last moved: Cat plays in this circuit (FORMAT.md 1.2, 4)
    assert t.order == ["Bob", "Cat", "Dan"] and t.expected() == "Cat"


def test_a_newcomer_whose_place_is_behind_the_last_mover_plays_from_the_next_circuit():
    t = TurnTracker("alphabetical", "", ["Bob", "Dan"])
    play(t, "Bob", "Dan")
    t.join("Eve")
    play(t, "Bob")
    t.join("Abe")  # Abe sorts before Bob, who last moved: not in this circuit
    assert t.order == ["Bob", "Dan", "Eve"] and t.expected() == "Dan"
    play(t, "Dan", "Eve")
    assert t.order == ["Abe", "Bob", "Dan", "Eve"] and t.expected() == "Abe"


def test_a_newcomer_between_circuits_is_drawn_into_the_next_under_every_order():
    """fkh/nomic, 2013: a player who joined between circuits and sorts first played first in the next."""
    for order, players, newcomer, first in (("surname", ["Ann Zed", "Cy Young"], "Al Abbott", "Al Abbott"),
                                            ("alphabetical", ["Bob", "Dan"], "Abe", "Abe"),
                                            ("seating", ["Bob", "Dan"], "Abe", "Bob"),
                                            ("rotating", ["Bob", "Dan"], "Abe", "Dan")):
        t = TurnTracker(order, "", list(players))
        play(t, *t.order)
        t.join(newcomer)
        assert t.expected() == first, order


def test_a_newcomer_in_seating_order_plays_at_the_end_of_the_circuit_under_way():
    t = TurnTracker("seating", "", ["Bob", "Dan", "Al"])
    play(t, "Bob")
    t.join("Zoe")
    play(t, "Dan", "Al")
    assert t.expected() == "Zoe"


# --- rulebook -------------------------------------------------------------------------------------------

SRC = Source("g/log.md", 1)


def book() -> Rulebook:
    return Rulebook.from_rules((
        Rule(101, "immutable", "", "All players obey.", Source("g/rules.md", 5)),
        Rule(109, "immutable", "Transmutation", "Unanimity to transmute.", Source("g/rules.md", 8)),
        Rule(203, "mutable", "", "Adopted if the vote is unanimous\namong the eligible voters.", Source("g/rules.md", 12)),
        Rule(204, "mutable", "", "Against-voters score 10 points.", Source("g/rules.md", 15)),
    ))


def rule_of(book: Rulebook, number: int) -> tuple[str, str, str]:
    """(class, title, text) of rule `number` in force."""
    rule = book.current[number]
    return rule.rule_class, rule.title, rule.text


def change(kind: str, rule: int | None = None, **fields) -> Change:
    return Change(kind, SRC, rule=rule, **fields)


NUMBERING = Numbering()
KEEP_NUMBERS = Numbering(amend_renumbers=False, enact_takes_proposal_number=False)


def test_from_rules():
    b = book()
    assert sorted(b.current) == [101, 109, 203, 204]
    assert b.mutable_count() == 2
    assert rule_of(b, 109) == ("immutable", "Transmutation", "Unanimity to transmute.")
    assert b.identity_of(203) == 2 and b.identity_of(999) is None


def test_amend_takes_the_proposal_number():
    b = book()
    assert b.apply(change("amend", 203, text="Majority."), 0, "proposal 301", 301, NUMBERING) == []
    assert 203 not in b.current and rule_of(b, 301) == ("mutable", "", "Majority.")
    assert b.identity_of(301) == 2 and 2 in b.amended
    with pytest.raises(ChangeProblem, match=r"there is no rule 203: it became rule 301 \(proposal 301\)"):
        b.lookup(203)


def test_renumbering_followed_through_a_chain():
    b = book()
    b.apply(change("amend", 203, text="One."), 0, "proposal 301", 301, NUMBERING)
    b.apply(change("append", 301, text="Two."), 1, "proposal 305", 305, NUMBERING)
    b.apply(change("renumber", 305, new_number=220), 2, "judgment 1", None, NUMBERING)
    assert rule_of(b, 220)[2] == "One.\n\nTwo."
    for old in (203, 301, 305):
        with pytest.raises(ChangeProblem) as problem:
            b.lookup(old)
        assert "it became rule 220" in str(problem.value) and not problem.value.fatal


def test_amend_keeps_its_number_when_the_game_says_so():
    b = book()
    b.apply(change("amend", 203, text="Majority."), 0, "proposal 301", 301, KEEP_NUMBERS)
    assert rule_of(b, 203)[2] == "Majority." and 301 not in b.current


def test_changes_outside_a_proposal_do_not_renumber():
    b = book()
    b.apply(change("amend", 203, text="Majority."), 0, "judgment 1", None, NUMBERING)
    assert rule_of(b, 203)[2] == "Majority."


def test_enact():
    b = book()
    b.apply(change("enact", text="Quorum.", title="Quorum", rule_class="mutable"), 0, "proposal 301", 301, NUMBERING)
    assert rule_of(b, 301) == ("mutable", "Quorum", "Quorum.")
    notes = b.apply(change("enact", 350, text="X.", rule_class="immutable"), 1, "proposal 302", 302, NUMBERING)
    assert notes == ["enacts rule 350, but an enacted rule takes the proposal's number, 302"]
    assert rule_of(b, 302)[0] == "immutable"
    b.apply(change("enact", 117, text="Y.", rule_class="mutable"), 2, "proposal 303", 303, KEEP_NUMBERS)
    assert 117 in b.current
    with pytest.raises(ChangeProblem, match="a rule 117 already exists"):
        b.apply(change("enact", 117, text="Z."), 3, "event", None, NUMBERING)
    with pytest.raises(ChangeProblem, match="an enactment outside a proposal must give the new rule's number"):
        b.apply(change("enact", text="Z."), 3, "event", None, NUMBERING)


def test_repeal_and_the_departure_it_leaves():
    b = book()
    assert b.apply(change("repeal", 204), 0, "proposal 301", 301, NUMBERING) == []
    assert 204 not in b.current and 3 in b.amended
    with pytest.raises(ChangeProblem, match=r"there is no rule 204: it was repealed \(proposal 301\)"):
        b.lookup(204)
    with pytest.raises(ChangeProblem, match=r"^there is no rule 999$"):
        b.lookup(999)
    # a number freed by a repeal can be taken again
    b.apply(change("enact", 204, text="New 204."), 1, "event", None, NUMBERING)
    assert b.lookup(204).text == "New 204."


def test_immutable_rules_must_be_transmuted_first():
    b = book()
    assert b.apply(change("amend", 101, text="X."), 0, "proposal 301", 301, NUMBERING) == [
        "rule 101 is immutable: it must be transmuted before it is amended (Suber 103)"]
    assert b.apply(change("repeal", 109), 1, "proposal 302", 302, NUMBERING) == [
        "rule 109 is immutable: it must be transmuted before it is repealed (Suber 103)"]


def test_transmute():
    b = book()
    assert b.apply(change("transmute", 109, rule_class="mutable"), 0, "proposal 301", 301, NUMBERING) == []
    assert rule_of(b, 301) == ("mutable", "Transmutation", "Unanimity to transmute.")
    assert 1 not in b.amended  # a transmutation is no amendment (2nd ed. 203's switch)
    assert b.apply(change("transmute", 204), 1, "proposal 302", 302, NUMBERING) == []  # no target: the other class
    assert rule_of(b, 302)[0] == "immutable"
    assert b.apply(change("transmute", 101, rule_class="immutable"), 2, "proposal 303", 303, NUMBERING) == [
        "rule 101 is already immutable"]


def test_two_changes_to_number_one_proposal():
    b = book()
    b.apply(change("amend", 203, text="X."), 0, "proposal 301", 301, NUMBERING)
    assert b.apply(change("amend", 204, text="Y."), 0, "proposal 301", 301, NUMBERING) == [
        "rule 204 should become rule 301, but a rule 301 already exists; it keeps number 204"]
    assert rule_of(b, 204)[2] == "Y."


def test_retitle_and_renumber_onto_a_taken_number():
    b = book()
    b.apply(change("retitle", 203, title="Adoption"), 0, "proposal 301", 301, NUMBERING)
    assert rule_of(b, 203) == ("mutable", "Adoption", rule_of(b, 203)[2])  # a retitle keeps the number
    assert b.apply(change("renumber", 203, new_number=204), 1, "judgment 1", None, NUMBERING) == [
        "rule 203 should become rule 204, but a rule 204 already exists; it keeps number 203"]


def test_replace_once():
    text = "Adopted if the vote is unanimous\namong the eligible voters."
    assert replace_once(text, "unanimous among", "a majority of", 203) == \
        "Adopted if the vote is a majority of the eligible voters."
    assert replace_once(text, "the eligible ", "", 203) == "Adopted if the vote is unanimous\namong voters."
    assert replace_once("One two three.", "two", "", 1) == "One three."
    assert replace_once("One two", "two", "", 1) == "One"
    with pytest.raises(ChangeProblem, match='"majority" is not in rule 203') as problem:
        replace_once(text, "majority", "x", 203)
    assert problem.value.fatal
    with pytest.raises(ChangeProblem, match='"the" is in rule 203 2 times; quote more words so that it is found once'):
        replace_once(text, "the", "a", 203)


def test_a_phrase_is_not_found_inside_a_longer_word():
    with pytest.raises(ChangeProblem, match='"vote" is not in rule 203'):
        replace_once("Counted among the eligible voters.", "vote", "ballot", 203)
    assert replace_once("Each 10 points; 100 wins.", "10", "20", 204) == "Each 20 points; 100 wins."


def test_versions_keep_spans():
    b = book()
    b.apply(change("amend", 203, text="One."), 0, "proposal 301", 301, NUMBERING)
    b.apply(change("retitle", 301, title="T"), 0, "proposal 301", 301, NUMBERING)  # same entry: one version
    b.apply(change("repeal", 301), 2, "proposal 303", 303, NUMBERING)
    versions = [v for v in b.finish() if v.identity == 2]
    assert [(v.number, v.text, v.start, v.end, [c.kind for c in v.changes]) for v in versions] == [
        (203, "Adopted if the vote is unanimous\namong the eligible voters.", -1, 0, []),
        (301, "One.", 0, 2, ["amend", "retitle"])]


# --- replay ---------------------------------------------------------------------------------------------

RULES = """# Rules

## Immutable Rules

### 101
All players obey.

### 109
Unanimity to transmute.

## Mutable Rules

### 201
Players alternate.

### 203
A rule-change is adopted if the vote is unanimous.

### 204
Against-voters score 10 points.
"""

PLAYERS = 'players = ["Alice", "Bob", "Carol"]\n'


def build(log: str, toml: str = PLAYERS, rules: str = RULES, snapshots: dict[str, str] | None = None):
    texts = {"g/game.toml": toml, "g/rules.md": rules, "g/log.md": log}
    texts.update({f"g/snapshots/{name}": text for name, text in (snapshots or {}).items()})
    return _build_game("g", "g", texts, ErrorCollector())


def prop(number: int, proposer: str, *keys: str, body: str = "", date: str = "1982-06-03") -> str:
    """One proposal entry: heading, key lines, then the body (if any) after a blank line; ends with a blank line."""
    text = "\n".join([f"## Proposal {number}", f"Proposer: {proposer}", f"Date: {date}", *keys]) + "\n"
    return text + (f"\n{body}\n" if body else "") + "\n"


ALL_FOR = "Votes: for Alice, Bob, Carol"


def findings(log: str, toml: str = PLAYERS, **kwargs) -> list[str]:
    return [str(f) for f in replay(build(log, toml, **kwargs)).findings]


def test_a_consistent_game_and_its_steps():
    log = (prop(301, "Alice", ALL_FOR, "Result: adopted", "Die: 4", "Scores: Alice 4, Bob 0, Carol 0",
                body="Amend rule 203 to read:\n\n> Majority.")
           + prop(302, "Bob", "Votes: for Bob; against Alice, Carol", "Result: defeated", "Die: 2",
                  "Scores: Bob -8"))
    r = replay(build(log))
    assert r.findings == () and r.errors == () and r.overrides == ()
    first, second = r.steps
    assert (first.label, first.turn_of, first.expected_player, first.method, first.computed_result, first.result) == \
        ("proposal 301", "Alice", "Alice", "unanimous", "adopted", "adopted")
    assert [(d.player, d.points, d.reason) for d in first.deltas] == [("Alice", 4, "die")]
    assert (first.next_player, first.circuits, first.players) == ("Bob", 0, ("Alice", "Bob", "Carol"))
    assert [(d.player, d.points, d.reason) for d in second.deltas] == [("Bob", -10, "defeated"), ("Bob", 2, "die")]
    assert r.final_scores == {"Alice": 4, "Bob": -8, "Carol": 0}
    assert r.initial_scores == {"Alice": 0, "Bob": 0, "Carol": 0}
    assert [v.number for v in r.rules_at(-1)] == [101, 109, 201, 203, 204]
    assert [v.number for v in r.rules_at(0)] == [101, 109, 201, 204, 301]
    assert r.winner == ()


def test_one_result_slip_is_one_finding_and_the_record_governs():
    log = (prop(301, "Alice", "Votes: for Alice, Bob, Carol", "Result: defeated", "Die: 1", "Scores: Alice -9",
                body="Repeal rule 204.")
           + prop(302, "Bob", ALL_FOR, "Result: adopted", "Die: 1", body="Repeal rule 204."))
    assert findings(log) == ["g/log.md:5: proposal 301: Result says defeated; the votes (3 for, 0 against) give "
                             "adopted under unanimity"]


def test_scores_follow_the_computation():
    log = (prop(301, "Alice", ALL_FOR, "Result: adopted", "Die: 4", "Scores: Alice 5")
           + prop(302, "Bob", ALL_FOR, "Result: adopted", "Die: 2", "Scores: Alice 4, Bob 2"))
    assert findings(log) == ["g/log.md:7: proposal 301: Scores says Alice 5; replay gives 4 = 0 + die 4"]


def test_result_without_votes_is_kept_and_nothing_recorded_is_a_finding():
    log = (prop(301, "Alice", "Result: defeated", "Die: 1", "Scores: Alice -9")
           + prop(302, "Bob", "Die: 1"))
    assert findings(log) == ["g/log.md:8: proposal 302: no Result and no Votes: the replay cannot tell whether it "
                             "was adopted"]


def test_withdrawn_scores_neither_way():
    log = prop(301, "Alice", "Votes: none", "Result: withdrawn", "Die: 3", "Scores: Alice 3", body="Repeal rule 204.")
    r = replay(build(log))
    assert r.findings == () and 204 in {v.number for v in r.rules_at(0)}


def test_voters_checked():
    log = prop(301, "Alice", "Votes: for Alice, Bob, Alice; against Zed", "Result: defeated", "Die: 1")
    assert findings(log) == [
        "g/log.md:4: proposal 301: Alice voted twice (each player has exactly one vote)",
        "g/log.md:4: proposal 301: voter: Zed is not a player in the game (players: Alice, Bob, Carol)"]


def test_scores_naming_a_stranger():
    log = prop(301, "Alice", ALL_FOR, "Result: adopted", "Die: 1", "Scores: Alice 1, Zed 0")
    assert findings(log) == ["g/log.md:7: proposal 301: Scores names Zed, who is not a player"]


def test_own_effects_govern_own_score_and_win():
    toml = PLAYERS + "[scoring]\nwin = 100\n"
    log = prop(301, "Alice", ALL_FOR, "Result: adopted", "Die: 5", "Effect: scoring.adopted = 10",
               "Effect: scoring.win = 15", "Scores: Alice 15", "Winner: Alice")
    r = replay(build(log, toml))
    assert r.findings == ()
    assert r.mechanics.scoring.win == 15
    assert r.steps[0].notes == ("an adopted proposal pays its proposer 10 points", "the winning score becomes 15")
    assert r.winner == ("Alice",)


def test_a_vote_that_ends_the_game_has_no_die():
    toml = PLAYERS + "[adoption]\nmethod = \"majority\"\n[scoring]\nwin = 10\n"
    log = prop(301, "Alice", "Votes: for Alice, Bob; against Carol", "Result: adopted", "Die: 3", "Winner: Carol")
    assert findings(log, toml) == ["g/log.md:6: proposal 301: the vote ended the game, so no die is thrown"]
    assert replay(build(log, toml)).final_scores == {"Alice": 0, "Bob": 0, "Carol": 10}


def test_a_shared_win():
    toml = PLAYERS + "[scoring]\nwin = 10\n"
    log = (prop(301, "Alice", ALL_FOR, "Result: adopted", "Die: 4", "Points: Bob +5")
           + prop(302, "Bob", ALL_FOR, "Result: adopted", "Die: 4", "Points: Alice +6", "Points: Bob +1",
                  "Points: Carol +9", "Winner: Bob, Alice"))
    r = replay(build(log, toml))
    assert r.findings == () and r.winner == ("Alice", "Bob")
    assert r.steps[0].winner == ()


def test_after_the_end_only_judgments():
    toml = PLAYERS + "[scoring]\nwin = 5\n"
    log = (prop(301, "Alice", ALL_FOR, "Result: adopted", "Die: 5", "Winner: Alice")
           + "## Judgment 1\nJudge: Bob\nDate: 1982-06-04\n\n"
           + prop(302, "Bob", ALL_FOR, "Result: adopted", "Die: 1", date="1982-06-05"))
    assert findings(log, toml) == ["g/log.md:13: proposal 302: the game already ended (proposal 301: won by Alice); "
                                   "nothing may follow"]


def test_winner_claimed_too_early():
    log = prop(301, "Alice", ALL_FOR, "Result: adopted", "Die: 5", "Winner: Alice")
    assert findings(log) == ["g/log.md:7: proposal 301: Winner says Alice; replay finds no winner yet (the win is 100 "
                             "points; best is Alice with 5)"]


def test_die_ranges():
    toml = PLAYERS + '[scoring]\ndie = "2d6"\n'
    log = (prop(301, "Alice", ALL_FOR, "Result: adopted", "Die: 12")
           + prop(302, "Bob", ALL_FOR, "Result: adopted", "Die: 1")
           + prop(303, "Carol", ALL_FOR, "Result: adopted", "Turn: extra"))
    assert findings(log, toml) == ["g/log.md:13: proposal 302: Die 1 is outside 2d6 (2..12)"]


@pytest.mark.parametrize("rounding, points", [("half-up", 7), ("half-even", 6), ("down", 6), ("ceiling", 7)])
def test_formula_and_rounding(rounding, points):
    toml = ('players = ["Ann", "Ben", "Cat", "Dan"]\nnumbering.first_proposal = 304\n'
            f'[adoption]\nmethod = "fraction"\nfraction = 0.5\n[scoring]\nturn = "formula"\nrounding = "{rounding}"\n')
    log = prop(304, "Ann", "Votes: for Ann, Ben; against Cat, Dan; abstain Ann", "Result: adopted")
    r = replay(build(log, toml))
    assert [(d.player, d.points, d.reason) for d in r.steps[0].deltas if d.player == "Ann"] == [("Ann", points, "formula")]


def test_formula_without_votes_scores_nothing_for_the_fraction():
    toml = PLAYERS + '[scoring]\nturn = "formula"\nformula = "proposal - 300 + votes"\n'
    r = replay(build(prop(301, "Alice", "Result: adopted"), toml))
    assert r.findings == () and r.final_scores["Alice"] == 1


def test_formula_points_repeat_with_their_votes_and_so_does_an_error():
    """The points are kept by the values the formula reads: the same votes score the same every time, and a
    formula that cannot be computed is a finding on each turn that reaches it, not only the first."""
    toml = (PLAYERS + '[adoption]\nmethod = "majority"\n'
            '[scoring]\nturn = "formula"\nformula = "10 * votes_for / votes_against"\n')
    log = (prop(301, "Alice", "Votes: for Alice, Bob; against Carol", "Result: adopted")
           + prop(302, "Bob", "Votes: for Alice, Bob; against Carol", "Result: adopted")
           + prop(303, "Carol", ALL_FOR, "Result: adopted")
           + prop(304, "Alice", ALL_FOR, "Result: adopted"))
    r = replay(build(log, toml))
    turns = [[(d.player, d.points) for d in s.deltas if d.reason == "formula"] for s in r.steps]
    assert turns == [[("Alice", 20)], [("Bob", 20)], [], []]
    assert [(f.line, f.message) for f in r.findings] == [(13, "scoring.formula cannot be computed: division by zero"),
                                                          (19, "scoring.formula cannot be computed: division by zero")]


def test_turn_none_scores_nothing_and_needs_no_die():
    toml = PLAYERS + '[scoring]\nturn = "none"\n[turns]\norder = "none"\n'
    log = prop(301, "Carol", ALL_FOR, "Result: adopted") + prop(302, "Carol", ALL_FOR, "Result: adopted")
    r = replay(build(log, toml))
    assert r.findings == () and r.final_scores["Carol"] == 0 and r.steps[0].next_player is None


def test_switch_to_majority_after_two_circuits_and_its_note():
    toml = ('players = ["Alice", "Bob"]\n[adoption]\nthen = "majority"\nafter_circuits = 2\nunless_amended = 203\n')
    moves = ["Alice", "Bob", "Alice", "Bob", "Alice"]
    log = "".join(prop(301 + i, who, "Votes: for Alice, Bob", "Result: adopted", "Die: 1") for i, who in enumerate(moves))
    r = replay(build(log, toml))
    assert [s.method for s in r.steps] == ["unanimous"] * 4 + ["majority"]
    assert r.mechanics.adoption.method == "majority"
    assert r.steps[3].notes == ("after 2 complete circuits, adoption becomes majority",)
    assert r.steps[3].circuits == 2


def test_no_switch_when_the_rule_was_amended_even_renumbered():
    toml = ('players = ["Alice", "Bob"]\n[adoption]\nthen = "majority"\nafter_circuits = 1\nunless_amended = 203\n')
    log = (prop(301, "Alice", "Votes: for Alice, Bob", "Result: adopted", "Die: 1",
                body='Amend rule 203 by replacing "unanimous" with "unanimous, in writing".')
           + prop(302, "Bob", "Votes: for Alice, Bob", "Result: adopted", "Die: 1")
           + prop(303, "Alice", "Votes: for Alice; against Bob", "Result: defeated", "Die: 1"))
    r = replay(build(log, toml))
    assert r.findings == ()
    assert r.steps[1].notes == ("rule 301 (numbered 203 when named) was amended before the end of circuit 1: "
                                "adoption stays unanimous",)
    assert r.steps[2].method == "unanimous"


def test_transmutation_is_judged_by_its_own_method():
    toml = PLAYERS + '[adoption]\nmethod = "majority"\n'
    log = (prop(301, "Alice", "Votes: for Alice, Bob; against Carol", "Result: defeated", "Die: 1",
                body="Transmute rule 109 to mutable.\n\nRepeal rule 204.")
           + prop(302, "Bob", "Votes: for Alice, Bob; against Carol", "Result: adopted", "Die: 1",
                  body="Repeal rule 204."))
    r = replay(build(log, toml))
    assert r.findings == ()
    assert [s.method for s in r.steps] == ["unanimous", "majority"]


def test_judgment_overrides_and_result_rulings_apply_where_the_proposal_stands():
    log = (prop(301, "Alice", "Votes: for Alice, Bob; against Carol", "Result: adopted", "Die: 1",
                body="Repeal rule 204.")
           + "## Judgment 1: Late vote\nJudge: Bob\nDate: 1982-06-05\nSets: result 301 adopted\n"
           + "Sets: next-player Carol\nSets: next-player Zed\nSets: score Zed 5\n\n")
    r = replay(build(log))
    assert [str(o) for o in r.overrides] == [
        "g/log.md:13: judgment 1 sets the result of proposal 301 to adopted (computed: defeated)",
        "g/log.md:14: judgment 1 sets the next player to Carol (computed: Bob)"]
    assert r.steps[0].result == "adopted" and 204 not in {v.number for v in r.rules_at(0)}
    assert [str(f) for f in r.findings] == [
        "g/log.md:15: judgment 1: Sets: next-player Zed, who is not in the order of play",
        "g/log.md:16: judgment 1: Sets: score: Zed is not a player in the game (players: Alice, Bob, Carol)"]


def test_changes_in_judgments_and_events_apply_at_once_without_renumbering():
    log = ("## Judgment 1\nJudge: Bob\nDate: 1982-06-01\n\nAmend rule 203 to read:\n\n> Majority.\n\n"
           "## Event: rule 204 lapses\nDate: 1982-06-02\n\nRepeal rule 204.\n\nEnact rule 205: Quorum\n\n> Two.\n\n"
           "## Event: a keeper's slip\nDate: 1982-06-03\n\nEnact rule: Nameless\n\n> No number.\n")
    r = replay(build(log))
    assert {v.number: v.text for v in r.rules_at(1)}[203] == "Majority."
    assert 204 not in {v.number for v in r.rules_at(1)} and 205 in {v.number for v in r.rules_at(1)}
    assert [str(f) for f in r.findings] == ["g/log.md:21: event 'a keeper's slip': an enactment outside a proposal "
                                            "must give the new rule's number"]


def test_fatal_change_problems_are_errors_not_findings():
    r = replay(build(prop(301, "Alice", ALL_FOR, "Result: adopted", "Die: 1",
                          body='Amend rule 203 by replacing "majority" with "x".')))
    assert r.findings == ()
    assert [str(e) for e in r.errors] == ['g/log.md:8: proposal 301: "majority" is not in rule 203']


def test_a_bad_effect_value_is_an_error():
    r = replay(build(prop(301, "Alice", ALL_FOR, "Result: adopted", "Die: 1", 'Effect: turns.order = "spiral"')))
    assert [e.kind for e in r.errors] == ["effect"]


def test_event_turn_and_players():
    log = (prop(301, "Alice", ALL_FOR, "Result: adopted", "Die: 1")
           + "## Event: Bob holds\nDate: 1982-06-04\nTurn: Bob\nDie: 6\n\n"
           + "## Event: changes\nDate: 1982-06-05\nPlayers: +Dave, -Alice, +Bob, -Zed\n\n"
           + prop(302, "Carol", "Votes: for Bob, Carol, Dave", "Result: adopted", "Die: 2", date="1982-06-06"))
    r = replay(build(log))
    assert [str(f) for f in r.findings] == [
        "g/log.md:15: event 'changes': Bob joins but is already playing",
        "g/log.md:15: event 'changes': leaving: Zed is not a player in the game (players: Bob, Carol, Dave)"]
    assert r.steps[1].turn_of == "Bob" and r.steps[1].scores["Bob"] == 6
    assert r.steps[2].players == ("Bob", "Carol", "Dave")
    assert r.steps[3].next_player == "Dave"


def test_extra_turn_takes_no_turn():
    log = (prop(301, "Alice", ALL_FOR, "Result: adopted", "Die: 1")
           + prop(302, "Alice", ALL_FOR, "Result: adopted", "Turn: extra")
           + prop(303, "Bob", ALL_FOR, "Result: adopted", "Die: 1"))
    r = replay(build(log))
    assert r.findings == () and r.steps[1].turn_of is None and r.steps[1].expected_player is None


def test_numbering():
    log = "".join(prop(n, who, ALL_FOR, "Result: adopted", "Die: 1") for n, who in
                  [(301, "Alice"), (303, "Bob"), (304, "Carol"), (304, "Alice"), (306, "Bob")])
    assert [f.split(": ", 2)[2] for f in findings(log)] == [
        "numbered 303, but the next proposal is 302",
        "numbered 304, but the next proposal is 305; 304 was already used at g/log.md:15"]
    toml = PLAYERS + "[numbering]\nfirst_proposal = 1\n"
    assert findings(prop(1, "Alice", ALL_FOR, "Result: adopted", "Die: 1"), toml) == []


def test_snapshot_after_a_missing_proposal():
    snap = "After: proposal 399\n\n## Mutable Rules\n\n### 201\nPlayers alternate.\n"
    assert findings(prop(301, "Alice", ALL_FOR, "Result: adopted", "Die: 1"), snapshots={"s.md": snap}) == [
        "g/snapshots/s.md:1: the snapshot stands after proposal 399, which is not in the log"]


def test_snapshot_by_date_before_the_first_entry_and_class_difference():
    snap = RULES.replace("### 109\n", "").replace("Unanimity to transmute.\n", "").replace(
        "## Mutable Rules\n", "## Mutable Rules\n\n### 109\nUnanimity to transmute.\n")
    snap = "Date: 1982-05-01\n\n" + snap
    assert findings(prop(301, "Alice", ALL_FOR, "Result: adopted", "Die: 1"), snapshots={"s.md": snap}) == [
        "g/snapshots/s.md:13: snapshot on 1982-05-01: rule 109 is mutable in the snapshot, immutable in the replay"]


def test_a_renumbered_rule_missing_from_a_snapshot_is_pointed_at():
    snap = "After: proposal 301\n\n" + RULES.replace("### 203\nA rule-change is adopted if the vote is unanimous.",
                                                     "### 203\nA rule-change is adopted by majority.")
    log = prop(301, "Alice", ALL_FOR, "Result: adopted", "Die: 1",
               body="Amend rule 203 to read:\n\n> A rule-change is adopted by majority.")
    assert findings(log, snapshots={"s.md": snap}) == [
        "g/snapshots/s.md:18: snapshot after proposal 301: rule 203 is in the snapshot but not in the replay; the "
        "same text is rule 301 in the replay",
        "g/snapshots/s.md:1: snapshot after proposal 301: rule 301 is in force in the replay but missing from the "
        "snapshot"]


# --- one slip, one finding ------------------------------------------------------------------------------

def _game(*entries: tuple) -> str:
    """Proposals in seating order (Alice, Bob, Carol, ...) from (number, keys...) tuples."""
    return "".join(prop(number, proposer, *keys, date=f"1982-06-{day + 1:02}")
                   for day, (number, proposer, *keys) in enumerate(entries))


def _adopted(number: int, proposer: str, die: int, *more: str, votes: str = ALL_FOR) -> tuple:
    return (number, proposer, votes, "Result: adopted", f"Die: {die}", *more)


ONE_SLIP = {
    "a reused number": (_game(_adopted(301, "Alice", 1), _adopted(302, "Bob", 1), _adopted(302, "Carol", 1),
                              _adopted(303, "Alice", 1), _adopted(304, "Bob", 1), _adopted(305, "Carol", 1)),
                        "proposal-number"),
    "a skipped number, the keepers going on from it": (
        _game(_adopted(301, "Alice", 1), _adopted(303, "Bob", 1), _adopted(304, "Carol", 1), _adopted(305, "Alice", 1)),
        "proposal-number"),
    "a skipped number, the keepers going back to the count": (
        _game(_adopted(301, "Alice", 1), _adopted(303, "Bob", 1), _adopted(303, "Carol", 1), _adopted(304, "Alice", 1)),
        "proposal-number"),
    "a wrong result": (_game((301, "Alice", ALL_FOR, "Result: defeated", "Die: 1", "Scores: Alice -9"),
                             _adopted(302, "Bob", 1, "Scores: Alice -9, Bob 1")), "result"),
    "the wrong player moving": (_game(_adopted(301, "Alice", 1), _adopted(302, "Carol", 1), _adopted(303, "Alice", 1),
                                      _adopted(304, "Bob", 1), _adopted(305, "Carol", 1)), "turn"),
    "a wrong score the keepers carry on": (
        _game(_adopted(301, "Alice", 4, "Scores: Alice 5"), _adopted(302, "Bob", 2, "Scores: Alice 5, Bob 2"),
              _adopted(303, "Carol", 1, "Scores: Alice 5, Bob 2, Carol 1"), _adopted(304, "Alice", 3, "Scores: Alice 8")),
        "score"),
    "a wrong score the keepers correct": (
        _game(_adopted(301, "Alice", 4, "Scores: Alice 5"), _adopted(302, "Bob", 2, "Scores: Alice 4, Bob 2"),
              _adopted(303, "Carol", 1, "Scores: Alice 4, Bob 2, Carol 1")), "score"),
    "a win the log does not record, and play going on": (
        _game(_adopted(301, "Alice", 6), _adopted(302, "Bob", 1), _adopted(303, "Carol", 1),
              _adopted(304, "Alice", 1, "Scores: Alice 7")), "winner", PLAYERS + "[scoring]\nwin = 5\n"),
    "a stranger proposing": (_game(_adopted(301, "Alice", 1), _adopted(302, "Bbo", 1, votes="Votes: for Alice, Bbo, Carol"),
                                   _adopted(303, "Carol", 1), _adopted(304, "Alice", 1), _adopted(305, "Bbo", 1)),
                             "player"),
    "a die outside its range": (_game(_adopted(301, "Alice", 7), _adopted(302, "Bob", 1, "Scores: Alice 7, Bob 1")),
                                "die"),
}


@pytest.mark.parametrize("log, kind, toml", [(case + (PLAYERS,))[:3] for case in ONE_SLIP.values()],
                         ids=ONE_SLIP.keys())
def test_one_slip_is_one_finding(log, kind, toml):
    found = replay(build(log, toml)).findings
    assert [f.kind for f in found] == [kind], [str(f) for f in found]


@pytest.mark.parametrize("dates", [
    ["1982-06-01", "2982-06-08", "1982-06-15", "1982-06-22"],  # a typo too late: found at the entry after it
    ["1982-06-01", "1982-06-08", "1982-05-15", "1982-06-22"],  # one entry dated too early
])
def test_one_date_out_of_place_is_one_finding(dates):
    log = "".join(prop(301 + i, who, ALL_FOR, "Result: adopted", "Die: 1", date=date)
                  for i, (who, date) in enumerate(zip(["Alice", "Bob", "Carol", "Alice"], dates)))
    assert [(f.kind, f.entry) for f in replay(build(log)).findings] == [("date", "proposal 303")]


def test_a_second_score_slip_names_the_first():
    log = _game(_adopted(301, "Alice", 4, "Scores: Alice 5"), _adopted(302, "Bob", 2, "Scores: Alice 9"))
    first, second = replay(build(log)).findings
    assert (str(second.cause), second.message) == (
        "g/log.md:7", "Scores says Alice 9; replay gives 4 (unchanged) (the log's figure has differed since g/log.md:7)")


def test_a_score_kept_as_the_votes_give_after_a_wrong_result_names_the_result():
    """The keepers wrote `adopted` where the votes defeat the proposal, and scored it as defeated: the replay
    follows the Result, so the Scores line differs too, and says that it stems from the Result."""
    log = _game((301, "Alice", "Votes: for Alice, Bob; against Carol", "Result: adopted", "Die: 1",
                 "Scores: Alice -9"))
    result, score = replay(build(log)).findings
    assert (result.kind, score.kind, str(score.cause)) == ("result", "score", str(result.source))
    assert score.message == (f"Scores says Alice -9; replay gives 1 = 0 + die 1 (the replay follows the Result at "
                             f"{result.source}, which the votes do not give)")


def test_the_replay_follows_a_score_the_keepers_carried_on():
    log = _game(_adopted(301, "Alice", 4, "Scores: Alice 5"), _adopted(302, "Bob", 2, "Scores: Alice 5, Bob 2"))
    r = replay(build(log))
    assert r.final_scores["Alice"] == 5
    assert [(d.player, d.points, d.reason) for d in r.steps[1].deltas] == [
        ("Bob", 2, "die"), ("Alice", 1, "as the log has it since g/log.md:7")]


def test_an_order_adopted_mid_circuit_waits_for_the_next():
    log = _game(_adopted(301, "Alice", 1, 'Effect: turns.order = "rotating"'), _adopted(302, "Bob", 1),
                _adopted(303, "Carol", 1), _adopted(304, "Bob", 1))
    r = replay(build(log))
    assert r.findings == ()
    assert [s.order for s in r.steps] == [("Alice", "Bob", "Carol")] * 2 + [("Bob", "Carol", "Alice")] * 2


def test_an_effect_on_the_switch_rule_names_the_rule_numbered_so_then():
    toml = PLAYERS + '[adoption]\nthen = "majority"\nafter_circuits = 5\n'
    log = (prop(301, "Alice", ALL_FOR, "Result: adopted", "Die: 1", body="Amend rule 203 to read:\n\n> Unanimity.")
           + prop(302, "Bob", ALL_FOR, "Result: adopted", "Die: 1", "Effect: adoption.unless_amended = 301"))
    r = replay(build(log, toml))
    assert r.findings == () and r.switch_rule == 301


# --- format 1.1: weighted ballots, index, quorum ---------------------------------------------------------

def weighted(for_: tuple[int, ...] = (), against: tuple[int, ...] = (), present: tuple[int, ...] = ()) -> Votes:
    names = lambda prefix, group: tuple(f"{prefix}{i}" for i in range(len(group)))  # noqa: E731
    return Votes(names("F", for_), names("A", against), names("P", present), (for_, against, present), True)


@pytest.mark.parametrize("index, tally, quorum, result, why", [
    ("1.5", ((6, 5, 6, 6), (6, 5, 6), ()), 0, "defeated", "F 23 < 1.5 × A 17"),
    ("3.0", ((6, 6), (5, 4), ()), 0, "defeated", "F 12 < 3.0 × A 9"),
    ("2.0", ((6, 6), (6,), ()), 0, "adopted", "F 12 ≥ 2.0 × A 6"),  # F = I × A exactly
    ("1.7", ((17,), (10,), ()), 0, "adopted", "F 17 ≥ 1.7 × A 10"),  # 1.7 is seventeen tenths, not a float
    ("1.7", ((16,), (10,), ()), 0, "defeated", "F 16 < 1.7 × A 10"),
    ("1.0", ((6,), (6,), ()), 0, "defeated", "F 6 ≤ A 6"),  # F = A
    ("0.5", ((6,), (6,), ()), 0, "defeated", "F 6 ≤ A 6"),  # F > A is needed whatever the index
    ("3.0", ((1,), (), ()), 0, "adopted", "F 1 ≥ 3.0 × A 0"),  # A = 0
    ("1.0", ((), (), (3, 3)), 0, "defeated", "F 0 ≤ A 0"),  # F = A = 0, all PRESENT
    ("1.0", ((5,), (0,), (2,)), 3, "adopted", "F 5 ≥ 1.0 × A 0"),  # strength 0 counts toward the quorum
    ("1.0", ((5,), (0,), ()), 3, "failed-quorum", "2 ballots, quorum 3"),
])
def test_decide_by_index_exactly(index, tally, quorum, result, why):
    from fractions import Fraction

    from generator.engine.adoption import decide
    decision = decide("index", weighted(*tally), index=Fraction(index), quorum=quorum)
    assert (decision.result, decision.why()) == (result, why)


@pytest.mark.parametrize("method, tally, adopted", [
    ("majority", ((3,), (2, 0), ()), True),
    ("majority", ((2,), (2,), ()), False),
    ("unanimous", ((3, 0), (0,), ()), True),  # a strength-0 ballot against does not stop unanimity
    ("unanimous", ((0,), (), ()), False),  # nor does a strength-0 ballot for make it
    ("fraction", ((9,), (1,), (40,)), True),
])
def test_v1_methods_weigh_strengths(method, tally, adopted):
    from generator.engine.adoption import decide
    assert (decide(method, weighted(*tally), 0.9 if method == "fraction" else 0.5).result == "adopted") is adopted


def _phrase_regex(phrase: str):
    """The rule a quoted phrase follows, as a regular expression: its words across any white space, and
    not inside a longer word."""
    import re

    words = phrase.split()
    start = r"(?<!\w)" if re.match(r"\w", words[0]) else ""
    end = r"(?!\w)" if re.search(r"\w$", words[-1]) else ""
    return re.compile(start + r"\s+".join(re.escape(word) for word in words) + end)


PHRASE_TEXT = "a-b  c_d\n\te é1 ü vote voters ,.; \u00a0x\u2003y"


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=PHRASE_TEXT, max_size=40), st.text(alphabet=PHRASE_TEXT, min_size=1, max_size=8))
def test_phrases_are_found_where_the_regular_expression_finds_them(text, phrase):
    from generator.engine.rulebook import phrase_spans

    assume(phrase.strip())
    assert phrase_spans(text, phrase) == [m.span() for m in _phrase_regex(phrase).finditer(text)]


# --- Resuming a replay from a checkpoint (serve) ----------------------------------------------------------


def _synthetic_log(tmp_path, proposals: int = 240, per_file: int | None = None):
    """A synthetic game's folder, and a loader of it that remembers the entries it parsed, as serve's does."""
    from generator.cli import main
    from generator.parse.game import load_game
    from generator.parse.log import LogParser

    folder = tmp_path / "game"
    args = ["synth", str(folder), "--proposals", str(proposals)] + (["--per-file", str(per_file)] if per_file else [])
    assert main(args) == 0
    return folder, functools.partial(load_game, parser=LogParser())


# Edits of each kind, as (old, new) in the middle proposal's text: prose only (the fold converges at once),
# a vote that flips the result (every later score moves), an amendment's text (later versions move), lines
# added (every later entry of the file moves down), and a Judge's ruling (the replay starts over).
RESUME_EDITS = [
    ("Votes: ", "Note: edited.\nVotes: "),
    ("Result: adopted", "Result: defeated"),
    ("\n\n> ", "\n\n> Newly, "),
    ("Proposer: ", "Note: one line more\nProposer: "),
    ("Sets: score ", "Sets: result 301 adopted\nSets: score "),
]


@pytest.mark.parametrize("old, new", RESUME_EDITS)
@pytest.mark.parametrize("per_file", [None, 60])
def test_a_replay_resumed_from_a_checkpoint_is_the_replay_from_the_start(tmp_path, monkeypatch, old, new, per_file):
    engine = sys.modules["generator.engine.replay"]  # the module (the package's `replay` is the function)
    monkeypatch.setattr(engine, "CHECKPOINT_MIN_SPACING", 16)
    folder, load_game = _synthetic_log(tmp_path, per_file=per_file)
    previous = replay(load_game(folder), checkpoints=True)
    assert len(previous.checkpoints) > 4
    log = sorted(folder.glob("log/*.md"))[1] if per_file else folder / "log.md"
    text = log.read_text(encoding="utf-8")
    middle = text.index("## Proposal", len(text) // 2)
    at = text.index(old, middle)
    log.write_text(text[:at] + new + text[at + len(old):], encoding="utf-8")
    game = load_game(folder)
    resumed, fresh = replay_game(game, previous=previous, checkpoints=True), replay(game)
    assert resumed == fresh and (resumed.rulings, resumed.points) == (fresh.rulings, fresh.points)
    again = replay_game(load_game(folder), previous=resumed, checkpoints=True)  # from the resumed one's checkpoints
    assert again == fresh and (again.rulings, again.points) == (fresh.rulings, fresh.points)
    log.write_text(text, encoding="utf-8")
    assert replay_game(load_game(folder), previous=resumed, checkpoints=True) == replay(load_game(folder))



@pytest.mark.parametrize("edit", ["the last entry's prose", "an entry appended"])
def test_a_replay_resumed_to_the_end_is_the_replay_from_the_start(tmp_path, edit):
    folder, load_game = _synthetic_log(tmp_path)
    previous = replay(load_game(folder), checkpoints=True)
    log = folder / "log.md"
    text = log.read_text(encoding="utf-8")
    if edit == "an entry appended":
        text += "\n## Proposal 999: Late\nProposer: Alice\nDate: 2999-12-31\nVotes: none\nResult: defeated\n\nA word.\n"
    else:
        last = text.rindex("## Proposal")
        text = text[:last] + re.sub(r"\n\n([A-Z][^\n]*\.)\n", r"\n\n\1 Edited.\n", text[last:], count=1)
    log.write_text(text, encoding="utf-8")
    game = load_game(folder)
    assert replay_game(game, previous=previous, checkpoints=True) == replay(game)


@pytest.mark.parametrize("setting", ["win = 1000000000", 'formula = "2 * votes_for'])
def test_a_setting_changed_replays_from_the_start(tmp_path, setting):
    """A setting in game.toml may reach every entry, so the fold starts over."""
    folder, load_game = _synthetic_log(tmp_path)
    previous = replay(load_game(folder), checkpoints=True)
    toml = folder / "game.toml"
    text = toml.read_text(encoding="utf-8")
    assert setting in text
    toml.write_text(text.replace(setting, setting.replace("1", "9").replace("2 *", "3 *")), encoding="utf-8")
    game = load_game(folder)
    resumed = replay_game(game, previous=previous, checkpoints=True)
    assert resumed == replay(game) and resumed.mechanics == game.config


def test_a_games_title_and_description_changed_replay_no_entry_and_the_next_edit_resumes_as_before(tmp_path,
                                                                                                   monkeypatch):
    """The fold never reads a game's own words: a new title or description takes the previous replay whole, its
    mechanics and checkpoints given the new words, so that a later edit resumed from a checkpoint is still the
    replay from the start."""
    engine, folder, load_game, previous, folded = _replayed_with_checkpoints(tmp_path, monkeypatch)
    toml = folder / "game.toml"
    text = toml.read_text(encoding="utf-8")
    toml.write_text(re.sub(r'(?m)^title = "[^"]*"', 'title = "Renamed"', text, count=1)
                    + 'description = "A game renamed."\n' * ("description =" not in text), encoding="utf-8")
    game = load_game(folder)
    resumed = replay_game(game, previous=previous, checkpoints=True)
    assert folded == [] and resumed.steps is previous.steps
    assert resumed == replay(game) and resumed.mechanics == replay(game).mechanics
    assert (resumed.mechanics.title, resumed.mechanics.description) == ("Renamed", game.config.description)
    log = folder / "log.md"
    text = log.read_text(encoding="utf-8")
    last = text.rindex("## Proposal")
    log.write_text(text[:last] + re.sub(r"\n\n([A-Z][^\n]*\.)\n", r"\n\n\1 Edited.\n", text[last:], count=1),
                   encoding="utf-8")
    game = load_game(folder)
    folded.clear()
    again = replay_game(game, previous=resumed, checkpoints=True)
    assert 0 < len(folded) < 40
    assert again == replay(game) and again.mechanics == replay(game).mechanics


@pytest.mark.parametrize("field", ["number", "date"])
def test_an_edit_to_what_places_a_snapshot_is_replayed_as_from_the_start(tmp_path, monkeypatch, field):
    """The proposal a snapshot stands after renumbered, or the date of the last entry a dated snapshot stands
    after moved past it: the resumed replay reads the old log's snapshot points again (it skips that for edits
    that cannot move them) and is the replay from the start."""
    engine = sys.modules["generator.engine.replay"]
    monkeypatch.setattr(engine, "CHECKPOINT_MIN_SPACING", 16)
    folder, load_game = _synthetic_log(tmp_path)
    log, (snapshot_file,) = folder / "log.md", list((folder / "snapshots").glob("*.md"))
    text = log.read_text(encoding="utf-8")
    number = load_game(folder).snapshots[0].after_proposal
    heading = text.index(f"## Proposal {number}:")
    date_at = text.index("Date: ", heading) + len("Date: ")
    if field == "date":  # the snapshot placed by that proposal's date instead
        snapshot = snapshot_file.read_text(encoding="utf-8")
        snapshot_file.write_text(snapshot.replace(f"After: proposal {number}", f"Date: {text[date_at:date_at + 10]}"),
                                 encoding="utf-8")
    previous = replay(load_game(folder), checkpoints=True)
    if field == "number":
        edited = text[:heading] + f"## Proposal {number + 9000}:" + text[heading + len(f"## Proposal {number}:"):]
    else:
        edited = text[:date_at] + "2099-01-01" + text[date_at + 10:]
    log.write_text(edited, encoding="utf-8")
    game = load_game(folder)
    assert replay_game(game, previous=previous, checkpoints=True) == replay(game)


def _replayed_with_checkpoints(tmp_path, monkeypatch):
    """The replay module, a synthetic game of 240 proposals, and its replay with a checkpoint every 16 entries;
    `folded`, the entries the fold goes through from then on."""
    engine = sys.modules["generator.engine.replay"]  # the module (the package's `replay` is the function)
    monkeypatch.setattr(engine, "CHECKPOINT_MIN_SPACING", 16)
    folder, load_game = _synthetic_log(tmp_path)
    previous = replay(load_game(folder), checkpoints=True)
    folded = []
    real = engine.FoldState.fold
    monkeypatch.setattr(engine.FoldState, "fold", lambda state, index, *rest: folded.append(index) or real(state, index, *rest))
    return engine, folder, load_game, previous, folded


def _newly(text: str, version) -> str:
    """The log with "Newly, " opening the text that `version`'s one amendment wrote."""
    lines = text.split("\n")
    quoted = version.changes[0].source.line + 1  # 0-based: the blockquote two lines below "Amend rule N to read:"
    assert lines[quoted].startswith("> ")
    lines[quoted] = "> Newly, " + lines[quoted][2:]
    return "\n".join(lines)


def test_a_rule_text_no_later_entry_names_is_replayed_alone(tmp_path, monkeypatch):
    """An amendment's new text edited, of a rule no later entry changes: the replay folds the edited entry and
    takes the rest from the previous one, with the new text in the versions; and the same again once undone."""
    engine, folder, load_game, previous, folded = _replayed_with_checkpoints(tmp_path, monkeypatch)
    log = folder / "log.md"
    text = log.read_text(encoding="utf-8")
    # The last text of a rule, written whole by one amendment in the middle of the log; no later change names it.
    version = next(v for v in previous.versions if v.end is None and 100 < v.start < 200 and len(v.changes) == 1
                   and v.changes[0].kind == "amend" and not any(
                       v.number in (c.rule, c.new_number) for e in previous.game.log.entries[v.start + 1:]
                       for c in e.changes))
    for edited in (_newly(text, version), text):
        log.write_text(edited, encoding="utf-8")
        folded.clear()
        resumed = replay_game(load_game(folder), previous=previous, checkpoints=True)
        assert len(set(folded)) <= 17 and len(previous.steps) > 100  # from a checkpoint to the edited entry
        assert resumed == replay(load_game(folder))
        assert [v.text.startswith("Newly, ") for v in resumed.versions if v.identity == version.identity
                and v.end is None] == [edited is not text]
        previous = resumed


def _kept_states(replayed):
    """What a replay's checkpoints hold that a later replay reads: the rules, their versions, the findings."""
    return [(index, state.book, state.findings) for index, state in replayed.checkpoints]


def _amended_later_by_phrases(previous):
    """A version written whole by one amendment in the first half of the log, of a rule later entries change by
    phrases (under whatever number it then has)."""
    return next(v for v in previous.versions if 60 < v.start < 120 and len(v.changes) == 1
                and v.changes[0].kind == "amend" and any(
                    later.identity == v.identity and later.start > v.start + 20
                    and any(c.kind == "replace" for c in later.changes) for later in previous.versions))


def test_a_rule_text_amended_again_later_is_carried_through_the_later_changes(tmp_path, monkeypatch):
    """An amendment's text edited, of a rule later entries change by phrases: the fold goes through the edited
    entry only; the later versions are the previous replay's with the new text carried through the same
    phrases, the snapshot is compared again, and the checkpoints hold the new texts (a later edit resumes from
    them). All of it is what a replay from the start gives; and the same once the edit is undone."""
    engine, folder, load_game, previous, folded = _replayed_with_checkpoints(tmp_path, monkeypatch)
    log = folder / "log.md"
    text = log.read_text(encoding="utf-8")
    version = _amended_later_by_phrases(previous)
    spacing = engine._checkpoint_spacing(len(previous.steps))
    for edited in (_newly(text, version), text):
        log.write_text(edited, encoding="utf-8")
        folded.clear()
        resumed = replay_game(load_game(folder), previous=previous, checkpoints=True)
        assert folded and max(folded) == version.start and len(set(folded)) <= spacing + 1
        fresh = replay(load_game(folder), checkpoints=True)
        assert resumed == fresh and _kept_states(resumed) == _kept_states(fresh)
        later = [v for v in resumed.versions if v.identity == version.identity and v.start > version.start]
        assert len(later) > 1 and all(v.text.startswith("Newly, ") == (edited is not text) for v in later
                                      if not any(c.kind == "amend" for c in v.changes))
        previous = resumed


def test_a_rule_text_a_later_phrase_is_no_longer_found_in_is_replayed_to_the_end(tmp_path, monkeypatch):
    """An amendment's text edited so that a later change's phrase is not in it: only a replay says what follows
    (the change cannot apply), and the resumed replay is the one from the start."""
    engine, folder, load_game, previous, folded = _replayed_with_checkpoints(tmp_path, monkeypatch)
    log = folder / "log.md"
    version = _amended_later_by_phrases(previous)
    lines = log.read_text(encoding="utf-8").split("\n")
    quoted = version.changes[0].source.line + 1  # 0-based: the blockquote's first line
    end = next(i for i in range(quoted, len(lines)) if not lines[i].startswith(">"))
    lines[quoted:end] = ["> Nothing a later phrase quotes."]
    log.write_text("\n".join(lines), encoding="utf-8")
    folded.clear()
    resumed = replay_game(load_game(folder), previous=previous, checkpoints=True)
    fresh = replay(load_game(folder))
    assert resumed == fresh and fresh.errors and max(folded) == len(fresh.steps) - 1


def test_an_initial_rule_text_is_carried_through_the_log_without_replaying_it(tmp_path, monkeypatch):
    """A word added to a rule of rules.md that later entries amend: no entry is folded again; the versions carry
    the new text, the snapshot halfway through the log is compared again (and now differs from the replay),
    the checkpoints hold the new texts; all of it as a replay from the start gives, and again once undone."""
    engine, folder, load_game, previous, folded = _replayed_with_checkpoints(tmp_path, monkeypatch)
    rules = folder / "rules.md"
    text = rules.read_text(encoding="utf-8")
    snapshot = previous.game.snapshots[0]
    at = next(i for i, e in enumerate(previous.game.log.entries) if getattr(e, "number", None) == snapshot.after_proposal)
    # An initial rule still in force, with its first text, where the snapshot stands.
    version = next(v for v in previous.rules_at(at) if v.start == -1)
    first_line = version.text.split("\n")[0]
    assert text.count(first_line) == 1
    for edited in (text.replace(first_line, "Newly " + first_line), text):
        rules.write_text(edited, encoding="utf-8")
        folded.clear()
        resumed = replay_game(load_game(folder), previous=previous, checkpoints=True)
        assert folded == []
        fresh = replay(load_game(folder), checkpoints=True)
        assert resumed == fresh and _kept_states(resumed) == _kept_states(fresh)
        differs = [f for f in resumed.findings if f.kind == "snapshot" and f"rule {version.number}'s text" in str(f)]
        assert len(differs) == (edited is not text)
        previous = resumed


def test_rules_and_log_saved_at_once_resume_from_the_edited_entry(tmp_path, monkeypatch):
    """A word added to a rule of rules.md and a vote flipped halfway through the log in one save (a checkout): the
    new text is carried through the log, and the fold resumes from the checkpoint before the flipped vote, not
    from the start; all of it as a replay from the start gives, and again once both are undone."""
    engine, folder, load_game, previous, folded = _replayed_with_checkpoints(tmp_path, monkeypatch)
    rules, log = folder / "rules.md", folder / "log.md"
    rules_text, log_text = rules.read_text(encoding="utf-8"), log.read_text(encoding="utf-8")
    first_line = next(v for v in previous.versions if v.start == -1).text.split("\n")[0]
    at = log_text.index("Result: adopted", log_text.index("## Proposal", len(log_text) // 2))
    for rules_edit, log_edit in ((rules_text.replace(first_line, "Newly " + first_line, 1),
                                  log_text[:at] + "Result: defeated" + log_text[at + len("Result: adopted"):]),
                                 (rules_text, log_text)):
        rules.write_text(rules_edit, encoding="utf-8")
        log.write_text(log_edit, encoding="utf-8")
        folded.clear()
        resumed = replay_game(load_game(folder), previous=previous, checkpoints=True)
        assert folded and min(folded) > len(previous.steps) // 4  # from a checkpoint near the flipped vote
        fresh = replay(load_game(folder), checkpoints=True)
        assert resumed == fresh and _kept_states(resumed) == _kept_states(fresh)
        previous = resumed


@pytest.mark.parametrize("old, new", [("\n", ", edited\n"),  # its title: no line more
                                      ("\nProposer: ", "\nNote: two lines more,\nNote: above the later entries.\nProposer: ")])
def test_a_replay_resumes_only_from_the_entry_that_changed(tmp_path, monkeypatch, old, new):
    engine = sys.modules["generator.engine.replay"]  # the module (the package's `replay` is the function)
    monkeypatch.setattr(engine, "CHECKPOINT_MIN_SPACING", 16)
    folder, load_game = _synthetic_log(tmp_path)
    previous = replay(load_game(folder), checkpoints=True)
    text = (folder / "log.md").read_text(encoding="utf-8")
    at = text.index("## Proposal", len(text) // 2)
    (folder / "log.md").write_text(text[:at] + text[at:].replace(old, new, 1), encoding="utf-8")
    fresh = replay(load_game(folder))
    folded = []
    real = engine.FoldState.fold
    monkeypatch.setattr(engine.FoldState, "fold", lambda state, index, *rest: folded.append(index) or real(state, index, *rest))
    resumed = replay_game(load_game(folder), previous=previous, checkpoints=True)
    assert resumed == fresh
    assert len(set(folded)) <= 17  # from the checkpoint before the edit to the edited entry
    kept = [i for i, (a, b) in enumerate(zip(resumed.steps, previous.steps)) if a is b]
    assert len(kept) > len(previous.steps) - 40  # the other steps are the previous replay's own


# --- exact decimals (format 1.2) -------------------------------------------------------------------------


def _decimal_game(tmp_path, log: str):
    game = tmp_path / "dec"
    game.mkdir()
    (game / "game.toml").write_text('title = "dec"\nstart = 2019-01-01\nplayers = ["Ann", "Bob"]\n\n'
                                    '[turns]\norder = "none"\n\n[scoring]\nturn = "none"\n')
    (game / "rules.md").write_text("# Rules\n\n## Mutable Rules\n\n### 201\nPlay.\n")
    (game / "log.md").write_text("# Log\n\n" + log)
    return game


def _event(day: int, *lines: str) -> str:
    return f"## Event: Day {day}\nDate: 2019-01-{day:02}\n" + "\n".join(lines) + "\n\n"


def test_decimal_points_add_up_exactly_where_floats_would_not(tmp_path, capsys):
    """0.1 + 0.2 is 0.3, and ten times 0.1 is 1: a float would give 0.30000000000000004 and 0.9999999999999999."""
    log = _event(1, "Points: Ann +0.1", "Points: Ann +0.2", "Scores: Ann 0.3, Bob 0")
    log += _event(2, *["Points: Bob +0.1"] * 10, "Scores: Ann 0.3, Bob 1")
    log += _event(3, "Points: Ann -0.3", "Points: Bob -2.5", "Scores: Ann 0, Bob -1.5")
    assert main(["check", str(_decimal_game(tmp_path, log)), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)["games"][0]
    assert report["scores"] == {"Ann": 0, "Bob": -1.5} and report["findings"] == []


def test_a_decimal_one_step_off_is_a_score_finding_with_both_figures(tmp_path, capsys, monkeypatch):
    log = _event(1, "Points: Ann +8.75", "Scores: Ann 8.8, Bob 0")
    game = _decimal_game(tmp_path, log)
    monkeypatch.chdir(tmp_path)  # files are named from the working directory
    assert main(["check", game.name]) == 1
    assert capsys.readouterr().out.splitlines()[0] == (
        "dec/log.md:6: event 'Day 1': Scores says Ann 8.8; replay gives 8.75 = 0 + 8.75 points")


def test_a_judgment_sets_a_decimal_score_exactly(tmp_path, capsys):
    log = _event(1, "Points: Ann +1.5")
    log += "## Judgment 1\nJudge: Bob\nDate: 2019-01-02\nSets: score Ann 2.25\n\n"
    log += _event(3, "Points: Ann +0.75", "Scores: Ann 3, Bob 0")
    assert main(["check", str(_decimal_game(tmp_path, log)), "--format", "json"]) == 0
    overrides = json.loads(capsys.readouterr().out)["games"][0]["overrides"]
    assert [(o["computed"], o["set"]) for o in overrides] == [("1.5", "2.25")]


def test_more_than_twelve_decimal_places_is_unreadable(tmp_path, capsys):
    log = _event(1, "Points: Ann +0.0000000000001")
    assert main(["check", str(_decimal_game(tmp_path, log))]) == 2
    assert "number too precise (at most 12 digits after the point)" in capsys.readouterr().err


def test_decimals_reach_the_win_exactly_at_the_boundary(tmp_path, capsys):
    """99.9 + 0.1 is the winning score 100 (a float sum, 99.99999999999999, would miss it); 99.99 is not."""
    log = _event(1, "Points: Bob +99.99", "Points: Ann +99.9", "Scores: Ann 99.9, Bob 99.99")
    log += _event(2, "Points: Ann +0.1", "Scores: Ann 100, Bob 99.99", "Winner: Ann")
    assert main(["check", str(_decimal_game(tmp_path, log)), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)["games"][0]
    assert (report["winner"], report["findings"]) == (["Ann"], [])


def test_every_effect_reads_in_words_never_as_a_setting():
    """Each Effect case's notes say what changed as a player would ("from now on a majority adopts")."""
    from pathlib import Path

    from generator.parse.game import load_game

    cases = Path(__file__).resolve().parent / "cases" / "engine"
    seen = set()
    for case in sorted(cases.glob("effect-*")) + [cases / "v12-award-by-effect-and-die"]:
        for step in replay(load_game(case)).steps:
            for note in step.notes:
                assert " becomes \"" not in note and "." not in note.split(" ")[0] and " is now " not in note, note
                seen.add(note)
    assert {"from now on a majority adopts", "the winning score becomes 5",
            "from now on the proposer gains a throw of the die when a proposal is adopted",
            "the award 'luck' pays nothing from now on"} <= seen


def test_many_unrecorded_runs_are_looked_up_by_bisection(tmp_path, capsys, monkeypatch):
    """A hostile log of 100,000 unrecorded runs and a thousand proposals numbered inside them: each proposal is
    one finding, naming the entry that declared its number (its time is bench/hostile_inputs.py's business)."""
    entries = [f"## Unrecorded: {', '.join(str(100_000 + 40 * block + 2 * i) for i in range(20))}\n"
               for block in range(5000)]  # twenty runs an entry
    entries += [f"## Proposal {100_000 + 2 * k}\nProposer: Ann\nDate: 2019-01-02\nVotes: none\nResult: withdrawn\n"
                for k in range(1000)]
    game = _decimal_game(tmp_path, "\n".join(entries))
    monkeypatch.chdir(tmp_path)  # files are named from the working directory
    assert main(["check", game.name]) == 1
    declared = [line for line in capsys.readouterr().out.splitlines() if "which is declared unrecorded" in line]
    assert len(declared) == 1000 and declared[0].endswith("numbered 100000, which is declared unrecorded at "
                                                          "dec/log.md:3")


def test_an_edit_to_the_last_entry_folds_that_entry_alone(tmp_path, monkeypatch):
    """The fold keeps its state before the last entry too, the entry a keeper edits most: an edit there folds it
    alone, and gives the replay from the start."""
    engine, folder, load_game, previous, folded = _replayed_with_checkpoints(tmp_path, monkeypatch)
    log = folder / "log.md"
    log.write_text(log.read_text(encoding="utf-8").rstrip("\n") + "\n\nA word added at the end.\n", encoding="utf-8")
    folded.clear()
    resumed = replay_game(load_game(folder), previous=previous, checkpoints=True)
    assert folded == [len(previous.steps) - 1]
    fresh = replay(load_game(folder), checkpoints=True)
    assert resumed == fresh and _kept_states(resumed) == _kept_states(fresh)


@pytest.mark.parametrize("edit", ["append", "delete last", "delete last twice", "delete middle"])
def test_entries_added_or_removed_resume_from_the_checkpoint_before_the_first_that_moved(tmp_path, monkeypatch,
                                                                                         edit):
    """A proposal appended, the last entry deleted (once, or again just after), or one in the middle deleted: the
    fold starts again from the checkpoint before the first entry that is not the same (for an entry appended, the
    one after the last entry; for the last deleted, the one before it, which holds the state at the new end:
    nothing is folded), or from the start where a snapshot's place moved, and gives the replay from the start. Its
    checkpoints are that replay's (after the last entry deleted, but the one before the new last but one entry,
    which the fold keeps again when it next passes there), and a later edit resumes from them in turn."""
    engine, folder, load_game, previous, folded = _replayed_with_checkpoints(tmp_path, monkeypatch)
    log = folder / "log.md"
    text = log.read_text(encoding="utf-8")
    chunks = re.split(r"(?m)^(?=## )", text)
    resumed = previous
    for deletion in range(2 if edit == "delete last twice" else 1):
        if edit == "append":
            number = max(map(int, re.findall(r"(?m)^## Proposal (\d+)", text))) + 1
            chunks.append(f"## Proposal {number}: Appended\nProposer: Alice\nDate: 2999-12-31\nVotes: none\n"
                          f"Result: defeated\n\nEnact rule: Appended\n\n> A rule nobody wanted.\n")
        else:
            del chunks[len(chunks) // 2 if edit == "delete middle" else -1]
        log.write_text("".join(chunks).rstrip("\n") + "\n", encoding="utf-8")
        folded.clear()
        resumed = replay_game(load_game(folder), previous=resumed, checkpoints=True)
        refolded = len(folded)
        fresh = replay(load_game(folder), checkpoints=True)
        assert resumed == fresh and (resumed.rulings, resumed.points) == (fresh.rulings, fresh.points)
        if edit.startswith("delete last"):
            assert refolded == 0
            # Those before the last two entries, which the previous replay kept (after one deletion: before the
            # last), where no regular one (every 16 entries here) stands
            lacking = {index for index, _ in fresh.checkpoints} - {index for index, _ in resumed.checkpoints}
            assert lacking <= {len(fresh.steps) - 2, len(fresh.steps) - 1} - set(range(0, len(fresh.steps), 16))
            assert len(lacking) <= deletion + 1
            assert _kept_states(resumed) == [kept for kept in _kept_states(fresh) if kept[0] not in lacking]
        else:
            assert _kept_states(resumed) == _kept_states(fresh)
    if edit == "append":  # from the checkpoint after the last entry: the new entry alone
        assert folded[:refolded] == [len(chunks) - 2]
    if edit.startswith("delete last"):  # the new last entry edited: from the checkpoint before it, if kept
        shortened = log.read_text(encoding="utf-8")
        log.write_text(shortened.rstrip("\n") + "\n\nA word added at the end.\n", encoding="utf-8")
        folded.clear()
        edited = replay_game(load_game(folder), previous=resumed, checkpoints=True)
        refolded = list(folded)
        again = replay(load_game(folder), checkpoints=True)
        last = len(again.steps) - 1
        assert edited == again and (refolded == [last] if last not in lacking else refolded[-1] == last)
        assert _kept_states(edited) == [kept for kept in _kept_states(again) if kept[0] not in lacking - {last}]
        resumed = replay_game(load_game(folder), previous=edited, checkpoints=True)
    log.write_text(text, encoding="utf-8")  # and back, from the resumed replay's checkpoints
    assert replay_game(load_game(folder), previous=resumed, checkpoints=True) == replay(load_game(folder))


def test_a_replay_from_the_start_lets_the_last_replays_checkpoints_go_before_it_starts(tmp_path, monkeypatch):
    """serve resumes each replay from the last one. One that must start from nothing (a setting of the mechanics
    changed) takes the last one's checkpoints and lets them go before it starts, though that replay is still
    alive (serve draws its pages meanwhile): a long game's checkpoints are never held twice. The result is the
    replay from the start's, and a replay resumed again from one whose checkpoints were taken starts over."""
    engine, folder, load_game, previous, folded = _replayed_with_checkpoints(tmp_path, monkeypatch)
    kept = [weakref.ref(state) for _, state in previous.checkpoints]
    alive = []
    real = engine_package.replay
    monkeypatch.setattr(engine_package, "replay", lambda game, **options: alive.append(
        sum(ref() is not None for ref in kept)) or real(game, **options))
    settings = folder / "game.toml"
    text = settings.read_text(encoding="utf-8")
    win = re.search(r"(?m)^win = .*$", text).group(0)
    settings.write_text(text.replace(win, win + "0", 1), encoding="utf-8")
    started_over = replay_game(load_game(folder), previous=previous, checkpoints=True)
    assert alive == [0] and len(previous.checkpoints) == 0 and previous.steps
    assert started_over == replay(load_game(folder)) and len(started_over.checkpoints) > 4
    settings.write_text(text, encoding="utf-8")  # from `previous` again: its checkpoints are gone, so from nothing
    assert replay_game(load_game(folder), previous=previous, checkpoints=True) == replay(load_game(folder))
    assert alive == [0, 0]


# --- The fold's state: one value, compared and copied by its type -------------------------------------------


def _mutable_parts(value, found: dict, seen: set, path: str) -> None:
    """Every mutable object (list, dict, set, a dataclass not frozen) reachable from `value` through containers and
    dataclasses' fields, by id, with the path to it."""
    if id(value) in seen or isinstance(value, (str, int, float, bool, type(None))):
        return
    seen.add(id(value))
    if isinstance(value, (list, dict, set)) or (dataclasses.is_dataclass(value) and not isinstance(value, type)
                                                and not value.__dataclass_params__.frozen):
        found.setdefault(id(value), path)
    items = (value.items() if isinstance(value, dict)
             else enumerate(value) if isinstance(value, (list, tuple, set, frozenset))
             else vars(value).items() if dataclasses.is_dataclass(value) and not isinstance(value, type) else ())
    for key, item in items:
        if key != "game":  # (shared: a game is immutable and each state names its own)
            _mutable_parts(item, found, seen, f"{path}.{key}")


def test_a_copy_of_the_folds_state_shares_nothing_the_fold_changes(tmp_path, monkeypatch):
    """FoldState.copy copies each field as its type copies itself (a Rulebook and a TurnTracker theirs): whatever
    field the state, the book or the tracker gains, no mutable part of a checkpoint is one the fold goes on
    changing (but the rules in force, which the book shares: a change puts a copy in a rule's place), the copy is
    equal to the state (its type's equality: the fields it carries), and the fold going on leaves it as it was."""
    engine = sys.modules["generator.engine.replay"]  # the module (the package's `replay` is the function)
    folder, load_game = _synthetic_log(tmp_path, proposals=120)
    game = load_game(folder)
    state = engine.initial_state(game)
    rulings, points = engine.result_rulings(game), engine.snapshot_points(game, [])
    for index, entry in enumerate(game.log.entries[:100]):
        state.fold(index, entry, rulings, points)
    copied = state.copy()
    assert copied == state and copied.text_differences(state) == set()
    original, twin = {}, {}
    _mutable_parts(state, original, set(), "state")
    _mutable_parts(copied, twin, set(), "copy")
    shared = [original[i] for i in original.keys() & twin.keys()]
    assert len(original) > 50 and shared and all(re.fullmatch(r"state\.book\.(current|by_identity)\.\d+(\.changes)?", path)
                                                 for path in shared), shared
    as_copied = copy.deepcopy(copied)
    for index, entry in enumerate(game.log.entries[100:], 100):  # changing rules the copy shares
        state.fold(index, entry, rulings, points)
    assert copied == as_copied and copied.book.current == as_copied.book.current and state != copied
    copied.scores[next(iter(copied.scores))] += 1  # and what it carries is what it compares
    assert copied != as_copied and copied.text_differences(as_copied) is None


def test_what_the_fold_carries_is_what_a_state_compares_and_each_entry_starts_its_own_anew():
    engine = sys.modules["generator.engine.replay"]

    fields = dataclasses.fields(engine.FoldState)
    own = {f.name for f in fields if f.metadata.get("entry")}
    assert own == {"follow_recorded", "notes", "deltas", "failed", "resolved", "label", "source"}
    assert set(engine._CARRIED) == {f.name for f in fields} - own - {"game"}
    assert all(not f.compare for f in fields if f.name in own or f.name == "game")


@pytest.mark.parametrize("case", sorted(p for p in (Path(__file__).parent / "cases" / "engine").iterdir()
                                        if (p / "game.toml").is_file()), ids=lambda p: p.name)
def test_the_fold_reads_none_of_a_games_words(case):
    """Config.with_words: the settings declared `words` (the title, the description, the sections) are never read
    by the fold, so that a change to them takes the last replay whole (engine/resume.py): each case replayed with
    other words gives the same steps, versions and findings."""
    from generator.model.config import WORDS_SETTINGS, Section
    from generator.parse.game import load_game

    game = load_game(case)
    other = dataclasses.replace(game.config, title="Other", description="Other words.",
                                sections=(Section("Other", "A note.", (101,)),))
    assert {"title", "description", "sections"} <= set(WORDS_SETTINGS)
    assert game.config.with_words(other) == other and other.with_words(game.config) == game.config
    plain, reworded = replay(game), replay(dataclasses.replace(game, config=other))
    assert (plain.steps, plain.versions, plain.findings, plain.errors) == (
        reworded.steps, reworded.versions, reworded.findings, reworded.errors)
    assert reworded.mechanics == plain.mechanics.with_words(other)
