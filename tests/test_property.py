"""Property: a random game that is consistent by construction checks clean, and corrupting exactly one
recorded fact (a score, a proposal number, a result) gives exactly one finding, at exactly that file:line.

The generator keeps its own books, independent of the engine: who moves (seating order), whether each vote
adopts under the method (unanimity or a simple majority), the running scores (die, -10 for a defeat, +10
to each against-voter of an adopted proposal once adoption is not unanimous), and the ruleset with Suber's
renumbering (an amended or enacted rule takes the proposal's number). The final ruleset is written as a
snapshot, so the rule tracking is checked too. The win is set out of reach: these games never end.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from generator.engine.replay import replay
from generator.errors import ErrorCollector
from generator.parse.game import _build_game

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve"]
WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"]
INITIAL = {101: ("immutable", "All players must always abide by all the rules."),
           102: ("immutable", "Initially rules in the 100's are immutable."),
           201: ("mutable", "Players shall alternate in clockwise order."),
           202: ("mutable", "One turn consists of a proposal and a throw of one die."),
           203: ("mutable", "A rule-change is adopted if the vote is unanimous."),
           204: ("mutable", "Against-voters of a winning proposal score 10 points."),
           205: ("mutable", "The winner is the first to reach the winning score.")}
FIRST = 301
LOG = "g/log.md"


@dataclass
class Plan:
    """The random choices; everything else follows from them."""

    players: list[str]
    method: str
    ballots: list[dict[str, str]]  # per proposal: player -> "for" | "against" | "abstain"
    dice: list[int]
    changes: list[tuple[str, int, list[str]]]  # per proposal: kind (none/amend/enact/repeal), target pick, words
    scores_on: list[bool]  # whether a proposal records a Scores line


@dataclass
class Rendered:
    texts: dict[str, str]
    heading_lines: list[int] = field(default_factory=list)
    result_lines: list[int] = field(default_factory=list)
    scores_lines: list[int | None] = field(default_factory=list)
    results: list[str] = field(default_factory=list)  # as recorded
    changes_rule: list[bool] = field(default_factory=list)  # whether the proposal has a change paragraph
    scores: list[dict[str, int] | None] = field(default_factory=list)  # as recorded


@st.composite
def plans(draw) -> Plan:
    count = draw(st.integers(3, 5))
    players = NAMES[:count]
    method = draw(st.sampled_from(["unanimous", "majority"]))
    n = draw(st.integers(5, 30))
    vote = st.sampled_from(["for", "for", "for", "against", "abstain"])
    ballots = [{p: draw(vote) for p in players} for _ in range(n)]
    dice = draw(st.lists(st.integers(1, 6), min_size=n, max_size=n))
    change = st.tuples(st.sampled_from(["none", "amend", "enact", "repeal"]), st.integers(0, 100),
                       st.lists(st.sampled_from(WORDS), min_size=1, max_size=4))
    changes = draw(st.lists(change, min_size=n, max_size=n))
    scores_on = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    scores_on[-1] = True
    return Plan(players, method, ballots, dice, changes, scores_on)


def adopts(method: str, ballot: dict[str, str]) -> bool:
    cast_for = sum(v == "for" for v in ballot.values())
    cast_against = sum(v == "against" for v in ballot.values())
    if method == "unanimous":
        return cast_for > 0 and cast_against == 0
    return cast_for > cast_against


def render(plan: Plan, *, flip: int | None = None, number_of: dict[int, int] | None = None,
           score_delta: tuple[int, str, int] | None = None) -> Rendered:
    """The game's files. `flip`: record the other result on that proposal (the keepers then score by their
    record); `number_of`: write another number on a proposal; `score_delta`: misrecord one score."""
    number_of = number_of or {}
    toml = (f'title = "Random"\nstart = 1990-01-01\nplayers = [{", ".join(f"{chr(34)}{p}{chr(34)}" for p in plan.players)}]\n'
            f'\n[adoption]\nmethod = "{plan.method}"\n\n[scoring]\nwin = 100000\n\n[limits]\nmax_mutable = 0\n')
    rules_text = "# Initial Set\n\n## Immutable Rules\n\n" + "".join(
        f"### {n}\n{text}\n\n" for n, (cls, text) in INITIAL.items() if cls == "immutable")
    rules_text += "## Mutable Rules\n\n" + "".join(
        f"### {n}\n{text}\n\n" for n, (cls, text) in INITIAL.items() if cls == "mutable")
    rules = dict(INITIAL)
    scores = {p: 0 for p in plan.players}
    lines = ["# The log", ""]
    out = Rendered(texts={})
    day = dt.date(1990, 1, 2)
    for i, ballot in enumerate(plan.ballots):
        number = FIRST + i
        proposer = plan.players[i % len(plan.players)]
        adopted = adopts(plan.method, ballot)
        if flip == i:
            adopted = not adopted
        kind, pick, words = plan.changes[i]
        mutable = sorted(n for n, (cls, _) in rules.items() if cls == "mutable")
        if kind in ("amend", "repeal") and not mutable:
            kind = "none"
        body: list[str] = []
        text = f"Rule of proposal {number}: {' '.join(words)}."
        if kind == "amend":
            target = mutable[pick % len(mutable)]
            body = [f"Amend rule {target} to read:", "", f"> {text}"]
            if adopted:
                del rules[target]
                rules[number] = ("mutable", text)
        elif kind == "enact":
            body = ["Enact rule:", "", f"> {text}"]
            if adopted:
                rules[number] = ("mutable", text)
        elif kind == "repeal":
            target = mutable[pick % len(mutable)]
            body = [f"Repeal rule {target}."]
            if adopted:
                del rules[target]
        # the keepers' arithmetic, by the recorded result
        if adopted:
            if plan.method != "unanimous":
                for player, v in ballot.items():
                    if v == "against":
                        scores[player] += 10
        else:
            scores[proposer] -= 10
        scores[proposer] += plan.dice[i]
        groups = [f"{g} {', '.join(p for p, v in ballot.items() if v == g)}" for g in ("for", "against", "abstain")
                  if any(v == g for v in ballot.values())]
        out.heading_lines.append(len(lines) + 1)
        lines.append(f"## Proposal {number_of.get(i, number)}")
        lines += [f"Proposer: {proposer}", f"Date: {day + dt.timedelta(days=i)}", f"Votes: {'; '.join(groups)}"]
        out.result_lines.append(len(lines) + 1)
        lines.append(f"Result: {'adopted' if adopted else 'defeated'}")
        lines.append(f"Die: {plan.dice[i]}")
        if plan.scores_on[i]:
            recorded = dict(scores)
            if score_delta and score_delta[0] == i:
                recorded[score_delta[1]] += score_delta[2]
            out.scores_lines.append(len(lines) + 1)
            lines.append("Scores: " + ", ".join(f"{p} {recorded[p]}" for p in plan.players))
            out.scores.append(recorded)
        else:
            out.scores_lines.append(None)
            out.scores.append(None)
        out.results.append("adopted" if adopted else "defeated")
        out.changes_rule.append(bool(body))
        lines.append("")
        if body:
            lines += body + [""]
    last_day = day + dt.timedelta(days=len(plan.ballots))
    snapshot = f"Date: {last_day}\n\n# After the last proposal\n\n"
    for cls, heading in (("immutable", "Immutable Rules"), ("mutable", "Mutable Rules")):
        snapshot += f"## {heading}\n\n" + "".join(f"### {n}\n{text}\n\n" for n, (c, text) in sorted(rules.items())
                                                  if c == cls)
    out.texts = {"g/game.toml": toml, "g/rules.md": rules_text, LOG: "\n".join(lines) + "\n",
                 "g/snapshots/final.md": snapshot}
    return out


def check(rendered: Rendered):
    game = _build_game("g", "g", dict(rendered.texts), ErrorCollector())
    result = replay(game)
    assert result.errors == ()
    return result


def where(finding) -> tuple[str, int]:
    return finding.file, finding.line


SETTINGS = settings(max_examples=75, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(plans())
def test_a_consistent_game_checks_clean(plan):
    rendered = render(plan)
    result = check(rendered)
    assert result.findings == ()
    assert result.final_scores == rendered.scores[-1]
    assert [s.result for s in result.steps] == rendered.results


@SETTINGS
@given(plans(), st.data())
def test_one_wrong_score_is_one_finding(plan, data):
    rendered = render(plan)
    recorded = [i for i, line in enumerate(rendered.scores_lines) if line is not None]
    i = data.draw(st.sampled_from(recorded))
    player = data.draw(st.sampled_from(plan.players))
    delta = data.draw(st.integers(-20, 20).filter(bool))
    result = check(render(plan, score_delta=(i, player, delta)))
    assert [where(f) for f in result.findings] == [(LOG, rendered.scores_lines[i])]
    assert result.findings[0].kind == "score"


@SETTINGS
@given(plans(), st.data())
def test_one_repeated_proposal_number_is_one_finding(plan, data):
    rendered = render(plan)
    candidates = [i for i in range(1, len(plan.ballots)) if not rendered.changes_rule[i]]
    assume(candidates)
    i = data.draw(st.sampled_from(candidates))
    result = check(render(plan, number_of={i: FIRST + i - 1}))
    assert [where(f) for f in result.findings] == [(LOG, rendered.heading_lines[i])]
    assert result.findings[0].kind == "proposal-number"


@SETTINGS
@given(plans(), st.data())
def test_one_flipped_result_is_one_finding(plan, data):
    rendered = render(plan)
    candidates = [i for i in range(len(plan.ballots)) if not rendered.changes_rule[i]]
    assume(candidates)
    i = data.draw(st.sampled_from(candidates))
    flipped = render(plan, flip=i)
    result = check(flipped)
    assert [where(f) for f in result.findings] == [(LOG, rendered.result_lines[i])]
    assert result.findings[0].kind == "result"
    # the replay goes on from the keepers' record, so their later Scores (kept by that record) agree
    assert result.steps[i].result == flipped.results[i] != rendered.results[i]
    assert result.final_scores == flipped.scores[-1]


def _with_explicit_v11_defaults(rendered: Rendered) -> dict[str, str]:
    """The same archive with format 1.1's syntax written out at values that change nothing: every ballot
    `x1`, and the new keys at their defaults (quorum 0, in order, rules without power)."""
    texts = dict(rendered.texts)
    texts["g/game.toml"] = texts["g/game.toml"].replace(
        "[adoption]\n", "[numbering]\nin_order = true\n\n[adoption]\nquorum = 0\nindex = 1.0\n") + "\n[rules]\npower = false\n"
    log = []
    for line in texts[LOG].split("\n"):
        if line.startswith("Votes: "):
            groups = []
            for group in line.removeprefix("Votes: ").split("; "):
                word, _, names = group.partition(" ")
                groups.append(f"{word} " + ", ".join(f"{name} x1" for name in names.split(", ")))
            line = "Votes: " + "; ".join(groups)
        log.append(line)
    texts[LOG] = "\n".join(log)
    return texts


@SETTINGS
@given(plans(), st.data())
def test_a_v1_archive_means_the_same_with_v11_syntax_at_its_defaults(plan, data):
    """Format 1.1, section 6.5: an archive without 1.1 syntax keeps its meaning; writing that syntax at its
    neutral values gives the same results, scores, decisions and findings, slips included."""
    i = data.draw(st.integers(0, len(plan.ballots) - 1))
    rendered = render(plan, flip=i) if data.draw(st.booleans()) else render(plan)
    v1 = check(rendered)
    v11 = replay(_build_game("g", "g", _with_explicit_v11_defaults(rendered), ErrorCollector()))
    assert v11.errors == ()
    assert [str(f) for f in v11.findings] == [str(f) for f in v1.findings]
    assert [(s.result, s.computed_result, s.scores, s.decision and s.decision.why()) for s in v11.steps] == \
        [(s.result, s.computed_result, s.scores, s.decision and s.decision.why()) for s in v1.steps]
