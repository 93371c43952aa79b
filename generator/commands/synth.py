"""`nomic-archive synth OUT --proposals N`: a large synthetic game that checks clean, for benchmarks and tests.

The game does what real games do, in proportions a long game shows: most proposals amend a rule in place
(replacing or deleting phrases) or to read anew (a sentence rewritten, one added), some enact titled rules,
append, repeal, transmute, renumber or retitle; about one in eight is defeated and a few are withdrawn; the
adoption method is a majority, so voting against an adopted proposal pays; turns are scored by the die,
and for stretches by a formula an Effect switches on; now and then a judgment sets a score, an event pays
points, a player joins, and one snapshot records the rules halfway. With --weighted, a game of format 1.1
instead: weighted ballots, adoption indices, quorums, rule powers, resolution out of order (Agora's kind).

The generator keeps its own account of the game (the rules' texts, whose turn it is, every score) and
writes each claim from it, so `check` finding nothing is a test of the replay. The same arguments give
the same files, byte for byte. OUT is the game folder; it must be new or empty.
"""
from __future__ import annotations

import datetime as dt
import json
import random
import re
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from ..engine.rulebook import ChangeProblem, replace_once
from ..errors import ArchiveError, SourceError
from ..files import occupied_folder_error, write_atomic

WORDS = tuple("""
rule player vote proposal amend repeal enact score point turn judge mutable immutable change adopted defeated
majority number text game win order precedence quorum ballot keeper record ledger session week month day
card token bank fee fine bonus penalty office officer clerk herald registrar treasurer speaker chamber
council motion debate objection appeal ruling case court verdict evidence witness claim notice message forum
public private secret open closed first last next previous each every any none all some other such same
must may shall should cannot never always only also still then thus hence before after during until unless
whenever wherever within without between among against toward across through upon over under above below
count total share half third quarter double triple single least most more fewer greater lesser equal even
odd prime whole part portion entire complete partial valid invalid void lawful unlawful proper improper
""".split())
TITLE_WORDS = ("Quorum", "Ballots", "Offices", "Treasury", "Fines", "Bonus", "Order of Play", "Appeals",
               "Records", "Deadlines", "Messages", "Tokens", "Debate", "Sessions", "Registrar", "Herald",
               "Clerk", "Cards", "Penalties", "Precedence", "Objections", "Notice", "Forum", "Ledger")
PLAYER_NAMES = ("Alice", "Bob", "Carol", "Dana", "Erik", "Fay", "Gus", "Hana", "Ivo", "Jun", "Kira", "Lev",
                "Mona", "Nils", "Ola", "Pia", "Quin", "Rosa", "Sam", "Tove")
FORMULA = "2 * votes_for - votes_against"
SNAPSHOT_NAME = "midgame.md"
# What one proposal does, by weight (amendments dominate a long game, as in Agora's and Suber's records).
PROPOSAL_KINDS = (("replace", 34), ("read", 16), ("append", 5), ("enact", 17), ("repeal", 8),
                  ("transmute", 3), ("renumber", 3), ("retitle", 3), ("multi", 6), ("prose", 5))
KEEP_MUTABLE = 12  # repeals stop when so few mutable rules are left


@dataclass
class _Rule:
    rule_class: str
    title: str
    text: str


@dataclass
class _Game:
    """The generator's own account of the game, from which every claim in the log is written."""

    rng: random.Random
    players: list[str]
    scores: dict[str, int]
    rules: dict[int, _Rule] = field(default_factory=dict)
    next_player: int = 0  # index into players of whose turn it is (seating order)
    turn: str = "die"  # scoring.turn, switched by Effects
    date: dt.date = dt.date(1990, 1, 1)
    judgments: int = 0
    spare: list[int] = field(default_factory=list)  # numbers no rule holds, below the proposals' (for renumbering)

    def mutable(self) -> list[int]:
        return [n for n, rule in self.rules.items() if rule.rule_class == "mutable"]

    def pick(self, numbers: list[int]) -> int:
        return numbers[self.rng.randrange(len(numbers))]


def synthesize(folder: Path, proposals: int, *, players: int = 3, seed: int = 42,
               per_file: int | None = None) -> Path:
    """Write the game into `folder` (new or empty). Returns the folder."""
    rng = random.Random(seed)
    names = list(PLAYER_NAMES[:players])
    game = _Game(rng, names, dict.fromkeys(names, 0))
    title = f"A synthetic game of {proposals:,} proposals"
    files: dict[str, str] = {
        "game.toml": (f"title = {json.dumps(title)}\n"
                      f"description = \"Written by nomic-archive synth (seed {seed}): every claim in it holds.\"\n"
                      f"start = {game.date.isoformat()}\nplayers = [{', '.join(json.dumps(p) for p in names)}]\n\n"
                      f"[adoption]\nmethod = \"majority\"\n\n[scoring]\nformula = {json.dumps(FORMULA)}\n"
                      "win = 1000000000\n\n[limits]\nmax_mutable = 0\n"),
        "rules.md": _initial_rules(game),
    }
    game.spare = [n for n in range(299, 116, -1) if n not in game.rules]
    parts: list[list[str]] = [[f"# {title}: the log", "",
                               "Generated by `nomic-archive synth`; each entry is consistent with the rules.", ""]]
    joiner = PLAYER_NAMES[players] if players < len(PLAYER_NAMES) else None
    for position in range(proposals):
        number = 301 + position
        if per_file and position and position % per_file == 0:
            parts.append([])
        log = parts[-1]
        if position and position % 97 == 0:
            log += _judgment(game)
        if joiner and position == proposals // 3:
            log += _join(game, joiner)
            joiner = None
        if position and position % 151 == 0:
            log += _bonus(game)
        log += _proposal(game, number)
        if position == proposals // 2:
            files[f"snapshots/{SNAPSHOT_NAME}"] = _snapshot(game, number)
    if per_file:
        for index, part in enumerate(parts):
            files[f"log/{index:04}.md"] = "\n".join(part)
    else:
        files["log.md"] = "\n".join(parts[0])
    for name, text in files.items():
        write_atomic(folder / name, text)
    return folder


# --- Text ----------------------------------------------------------------------------------------


# A paragraph of a log entry that starts with one of these and "rule" is a change paragraph.
CHANGE_VERBS = frozenset({"enact", "repeal", "amend", "transmute", "renumber", "retitle"})


def _sentence(rng: random.Random, low: int = 6, high: int = 14) -> str:
    words = [WORDS[rng.randrange(len(WORDS))] for _ in range(rng.randint(low, high))]
    if words[0] in CHANGE_VERBS:
        words[0] = "thus"
    return words[0].capitalize() + " " + " ".join(words[1:]) + "."


def _paragraph(rng: random.Random) -> str:
    if rng.random() < 0.12:  # a list, as rules often hold
        items = [_sentence(rng, 3, 7)[:-1].lower() for _ in range(rng.randint(2, 4))]
        return _sentence(rng, 4, 8)[:-1] + ":\n\n" + "\n".join(f"- {item};" for item in items)
    return " ".join(_sentence(rng) for _ in range(rng.randint(2, 4)))


def _rule_text(rng: random.Random) -> str:
    return "\n\n".join(_paragraph(rng) for _ in range(rng.randint(1, 3)))


def _title(rng: random.Random) -> str:
    return TITLE_WORDS[rng.randrange(len(TITLE_WORDS))]


def _quote(text: str) -> str:
    return "\n".join(f"> {line}" if line else ">" for line in text.split("\n"))


_PLAIN_WORDS = re.compile(r"\b[a-z]+(?: [a-z]+)+\b")


def _phrase(rng: random.Random, text: str, number: int) -> str | None:
    """A run of two to four lower-case words that occurs once in `text`, or None."""
    runs = _PLAIN_WORDS.findall(text)
    for _ in range(12):
        words = runs[rng.randrange(len(runs))].split() if runs else []
        if len(words) < 2:
            continue
        size = min(len(words), rng.randint(2, 4))
        start = rng.randrange(len(words) - size + 1)
        phrase = " ".join(words[start:start + size])
        try:
            replace_once(text, phrase, "", number)
        except ChangeProblem:
            continue
        return phrase
    return None


# --- Entries -------------------------------------------------------------------------------------


def _initial_rules(game: _Game) -> str:
    rng = game.rng
    lines = ["# Initial Set of Rules", "", "## Immutable Rules", ""]
    for number in range(101, 117):
        game.rules[number] = _Rule("immutable", _title(rng) if rng.random() < 0.5 else "", _rule_text(rng))
        lines += _rule_lines(number, game.rules[number])
    lines += ["## Mutable Rules", ""]
    for number in range(201, 214):
        game.rules[number] = _Rule("mutable", _title(rng) if rng.random() < 0.5 else "", _rule_text(rng))
        lines += _rule_lines(number, game.rules[number])
    return "\n".join(lines)


def _rule_lines(number: int, rule: _Rule) -> list[str]:
    return [f"### {number}" + (f". {rule.title}" if rule.title else ""), rule.text, ""]


def _advance_date(game: _Game) -> str:
    game.date += dt.timedelta(days=game.rng.choice((0, 1, 1, 1, 2, 3)))
    return game.date.isoformat()


def _scores_line(game: _Game) -> str:
    return "Scores: " + ", ".join(f"{player} {game.scores[player]}" for player in game.players)


def _proposal(game: _Game, number: int) -> list[str]:
    rng = game.rng
    proposer = game.players[game.next_player]
    game.next_player = (game.next_player + 1) % len(game.players)
    kinds, weights = zip(*PROPOSAL_KINDS)
    kind = rng.choices(kinds, weights)[0]
    changes, effects, title = _changes(game, kind, number)
    roll = rng.random()
    unanimous = kind == "transmute"  # transmutations are adopted by unanimity (Suber 103)
    if roll < 0.03 and not unanimous:
        result, votes = "withdrawn", "none"
        for_, against = [], []
    else:
        adopted = unanimous or roll >= 0.15
        for_, against = _ballots(game, proposer, adopted, unanimous)
        result = "adopted" if adopted else "defeated"
        votes = "; ".join(part for part in (f"for {', '.join(for_)}" if for_ else "",
                                            f"against {', '.join(against)}" if against else "") if part)
    keys = [f"## Proposal {number}: {title}", f"Proposer: {proposer}", f"Date: {_advance_date(game)}",
            f"Votes: {votes}", f"Result: {result}"]
    if result == "adopted":
        for change in changes:
            change.apply(game)
        keys += [f"Effect: {effect}" for effect in effects]
        if effects:
            game.turn = "formula" if "formula" in effects[0] else "die"
        for voter in against:
            game.scores[voter] += 10
    elif result == "defeated":
        game.scores[proposer] -= 10
    if game.turn == "die":
        die = rng.randint(1, 6)
        game.scores[proposer] += die
        keys.append(f"Die: {die}")
    else:
        game.scores[proposer] += 2 * len(for_) - len(against)
    keys.append(_scores_line(game))
    body = [_sentence(rng)] if rng.random() < 0.6 else []
    for change in changes:
        body.append(change.text)
    return keys + [""] + [part for paragraph in body for part in (paragraph, "")]


def _ballots(game: _Game, proposer: str, adopted: bool, unanimous: bool) -> tuple[list[str], list[str]]:
    rng = game.rng
    others = [p for p in game.players if p != proposer]
    if unanimous:
        return [proposer] + others, []
    if adopted:  # a majority for: up to a third of the others against
        against = rng.sample(others, rng.randint(0, len(game.players) // 3)) if rng.random() < 0.4 else []
    else:  # at least as many against as for
        against = rng.sample(others, max(1, (len(game.players) + 1) // 2))
    return [p for p in game.players if p not in against], [p for p in game.players if p in against]


@dataclass
class _Change:
    """A change paragraph, its text as written, and what it does to the generator's account."""

    text: str
    apply: object  # callable(_Game) -> None


def _changes(game: _Game, kind: str, number: int) -> tuple[list[_Change], list[str], str]:
    rng = game.rng
    mutable = game.mutable()
    if kind == "prose" or (kind == "repeal" and len(mutable) <= KEEP_MUTABLE):
        effects = []
        if rng.random() < 0.3:  # switch how turns are scored
            effects = ['scoring.turn = "formula"' if game.turn == "die" else 'scoring.turn = "die"']
        return [], effects, "A statement of intent" if not effects else "How turns score"
    if kind == "multi":
        first = game.pick(mutable)
        second = game.pick([n for n in mutable if n != first] or [first])
        if second == first:
            return _changes(game, "replace", number)
        # Both amendments renumber to this proposal's number: only the first takes it, so the second
        # rule is retitled instead (a retitle keeps its number).
        edit = _replace(game, first, number)
        if edit is None:
            return _changes(game, "enact", number)
        return [edit, _retitle(game, second)], [], f"Tidy rules {first} and {second}"
    if kind == "replace":
        target = game.pick(mutable)
        edit = _replace(game, target, number)
        return ([edit], [], f"Rewording rule {target}") if edit else _changes(game, "read", number)
    if kind == "read":
        target = game.pick(mutable)
        paragraphs = game.rules[target].text.split("\n\n")
        paragraphs[rng.randrange(len(paragraphs))] = _paragraph(rng)
        if rng.random() < 0.4:
            paragraphs.append(_paragraph(rng))
        new_text = "\n\n".join(paragraphs)
        return [_Change(f"Amend rule {target} to read:\n\n{_quote(new_text)}",
                        lambda g: _renumbered(g, target, number, text=new_text))], [], f"Revising rule {target}"
    if kind == "append":
        target = game.pick(mutable)
        added = _paragraph(rng)
        new_text = game.rules[target].text.rstrip() + "\n\n" + added
        return [_Change(f"Amend rule {target} by appending:\n\n{_quote(added)}",
                        lambda g: _renumbered(g, target, number, text=new_text))], [], f"Adding to rule {target}"
    if kind == "enact":
        rule_title = _title(rng)
        text = _rule_text(rng)
        rule_class = "immutable" if rng.random() < 0.05 else "mutable"
        written = "Enact immutable rule" if rule_class == "immutable" else "Enact rule"

        def enact(g: _Game) -> None:
            g.rules[number] = _Rule(rule_class, rule_title, text)
        return [_Change(f"{written}: {rule_title}\n\n{_quote(text)}", enact)], [], f"Rule of {rule_title}"
    if kind == "repeal":
        target = game.pick(mutable)

        def repeal(g: _Game) -> None:
            del g.rules[target]
            g.spare.append(target) if target < 300 else None
        return [_Change(f"Repeal rule {target}.", repeal)], [], f"Repeal of rule {target}"
    if kind == "transmute":
        target = game.pick(list(game.rules))
        to = "mutable" if game.rules[target].rule_class == "immutable" else "immutable"
        return [_Change(f"Transmute rule {target} to {to}.",
                        lambda g: _renumbered(g, target, number, rule_class=to))], [], f"Transmuting rule {target}"
    if kind == "renumber":
        if not game.spare:
            return _changes(game, "retitle", number)
        target = game.pick(mutable)
        to = game.spare[-1]

        def renumber(g: _Game) -> None:
            g.spare.remove(to)
            g.rules[to] = g.rules.pop(target)
            if target < 300:
                g.spare.append(target)
        return [_Change(f"Renumber rule {target} to {to}.", renumber)], [], f"Renumbering rule {target}"
    return [_retitle(game, game.pick(mutable))], [], "A new title"


def _replace(game: _Game, target: int, number: int) -> _Change | None:
    rng = game.rng
    text = game.rules[target].text
    edits: list[tuple[str, str]] = []
    for _ in range(rng.choice((1, 1, 1, 2))):
        phrase = _phrase(rng, text, target)
        if phrase is None:
            break
        new = "" if rng.random() < 0.15 else " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 3)))
        text = replace_once(text, phrase, new, target)
        edits.append((phrase, new))
    if not edits:
        return None
    # Each edit names its verb: a verb carries over to the edits after it in the format.
    written = " and ".join(f'deleting "{old}"' if not new else f'replacing "{old}" with "{new}"' for old, new in edits)
    return _Change(f"Amend rule {target} by {written}.", lambda g: _renumbered(g, target, number, text=text))


def _retitle(game: _Game, target: int) -> _Change:
    title = _title(game.rng)

    def retitle(g: _Game) -> None:
        g.rules[target].title = title
    return _Change(f'Retitle rule {target} to "{title}".', retitle)


def _renumbered(game: _Game, target: int, number: int, *, text: str | None = None, rule_class: str | None = None) -> None:
    """An amended or transmuted rule takes the proposal's number (Suber 1982's numbering)."""
    rule = game.rules.pop(target)
    if text is not None:
        rule.text = text
    if rule_class is not None:
        rule.rule_class = rule_class
    game.rules[number] = rule
    if target < 300:
        game.spare.append(target)


def _judgment(game: _Game) -> list[str]:
    rng = game.rng
    game.judgments += 1
    player = game.players[rng.randrange(len(game.players))]
    judge = game.players[rng.randrange(len(game.players))]
    game.scores[player] += rng.choice((-5, -3, 3, 5))
    return [f"## Judgment {game.judgments}: Whether {player} scored rightly", f"Judge: {judge}",
            f"Date: {_advance_date(game)}", f"Sets: score {player} {game.scores[player]}", "",
            _sentence(rng), ""]


def _join(game: _Game, player: str) -> list[str]:
    # Seating order: the newcomer sits last, and whoever was next stays next.
    upcoming = game.players[game.next_player]
    game.players.append(player)
    game.scores[player] = 0
    game.next_player = game.players.index(upcoming)
    return [f"## Event: {player} joins", f"Date: {_advance_date(game)}", f"Players: +{player}", "",
            f"{player} joins the game and sits last in the order of play.", ""]


def _bonus(game: _Game) -> list[str]:
    rng = game.rng
    player = game.players[rng.randrange(len(game.players))]
    rule = game.pick(list(game.rules))
    game.scores[player] += 5
    return [f"## Event: A bonus for {player}", f"Date: {_advance_date(game)}", f"Points: {player} +5 (rule {rule})",
            _scores_line(game), ""]


def _snapshot(game: _Game, number: int) -> str:
    lines = [f"After: proposal {number}", "", "# The rules halfway", ""]
    for rule_class, heading in (("immutable", "## Immutable Rules"), ("mutable", "## Mutable Rules")):
        lines += [heading, ""]
        for rule_number in sorted(n for n, rule in game.rules.items() if rule.rule_class == rule_class):
            lines += _rule_lines(rule_number, game.rules[rule_number])
    return "\n".join(lines)


# --- Weighted decisions (format 1.1) ---------------------------------------------------------------


def synthesize_weighted(folder: Path, proposals: int, *, seed: int = 42) -> Path:
    """A consistent format 1.1 game in Agora's manner: twelve voters with strengths 1 to 15, each proposal at an
    adoption index of 1.0 to 3.0 with a quorum of five ballots, rules with powers amended only by proposals of
    enough power, batches of ten resolved with one pair swapped (the log in order of resolution). Results
    follow the index exactly, failed quorums included."""
    rng = random.Random(seed)
    voters = [f"voter{i:02}" for i in range(12)]
    strength = {v: rng.randint(1, 15) for v in voters}
    files = {"game.toml": (
        'title = "Synthetic weighted decisions"\nplayers = [' + ", ".join(f'"{v}"' for v in voters) + "]\n"
        "[numbering]\nfirst_proposal = 1001\nin_order = false\namend_renumbers = false\n"
        'enact_takes_proposal_number = false\n[adoption]\nmethod = "index"\nquorum = 5\n'
        '[scoring]\nturn = "none"\ndefeated = 0\nagainst_adopted = 0\n[turns]\norder = "none"\n'
        "[limits]\nmax_mutable = 0\n[rules]\npower = true\npower_cap = 3.0\n")}
    powers = {n: rng.choice(("1.0", "1.5", "2.0", "3.0")) for n in range(1000, 1040)}
    rules = ["# Rules", "", "## Mutable Rules", ""]
    rules += [f"### {n}\nPower: {p}\n\n{_words(rng, 60)}.\n" for n, p in powers.items()]
    files["rules.md"] = "\n".join(rules)
    entries = []
    next_rule = 2000
    for i in range(proposals):
        number = 1001 + i
        index = rng.choice(("1.0", "1.5", "2.0", "3.0"))
        ballots: dict[str, list[str]] = {"for": [], "against": [], "present": []}
        for voter in voters:
            choice = rng.choices(("for", "against", "present", None), weights=(5, 3, 1, 3))[0]
            if choice:
                ballots[choice].append(voter)
        total = {group: sum(strength[v] for v in names) for group, names in ballots.items()}
        count = sum(len(names) for names in ballots.values())
        if count < 5:
            result = "failed-quorum"
        elif total["for"] > total["against"] and total["for"] >= Fraction(index) * total["against"]:
            result = "adopted"
        else:
            result = "defeated"
        votes = "; ".join(f"{group} " + ", ".join(f"{v} x{strength[v]}" for v in names)
                          for group, names in ballots.items() if names)
        fitting = [n for n, p in powers.items() if Fraction(p) <= Fraction(index)]
        if i % 4 == 3:
            change = f"Enact power 1.0 rule {next_rule}: Rule {next_rule}\n\n> {_words(rng, 40)}."
            if result == "adopted":
                powers[next_rule] = "1.0"
            next_rule += 1
        else:
            change = f"Amend rule {rng.choice(fitting)} to read:\n\n> {_words(rng, 60)}."
        entries.append("\n".join([f"## Proposal {number}: Decision {number}", f"Proposer: {voters[i % 12]}",
                                  f"Date: {2020 + i // 3650}-01-01", f"Index: {index}", f"Votes: {votes or 'none'}",
                                  f"Result: {result}", "", change, ""]))
    for batch in range(0, len(entries) - 1, 10):  # one pair in each batch of ten resolved out of order
        entries[batch], entries[batch + 1] = entries[batch + 1], entries[batch]
    files["log.md"] = "# Synthetic weighted log\n\n" + "\n".join(entries)
    for name, text in files.items():
        write_atomic(folder / name, text)
    return folder


def _words(rng: random.Random, count: int) -> str:
    return " ".join(WORDS[rng.randrange(len(WORDS))] for _ in range(count))


# --- The command ---------------------------------------------------------------------------------


def run(args) -> int:
    folder: Path = args.out
    problems = [error] if (error := occupied_folder_error(folder)) else []
    for name, value, least in (("--proposals", args.proposals, 1), ("--players", args.players, 2),
                               ("--per-file", args.per_file, 1)):
        if value is not None and value < least:
            problems.append(SourceError(name, 0, f"must be at least {least} (got {value})"))
    if args.players > len(PLAYER_NAMES):
        problems.append(SourceError("--players", 0, f"at most {len(PLAYER_NAMES)} (got {args.players})"))
    if args.weighted and args.per_file:
        problems.append(SourceError("--per-file", 0, "a --weighted game keeps its log in one file"))
    if problems:
        raise ArchiveError(problems)
    if args.weighted:
        synthesize_weighted(folder, args.proposals, seed=args.seed)
    else:
        synthesize(folder, args.proposals, players=args.players, seed=args.seed, per_file=args.per_file)
    print(f"wrote a synthetic game of {args.proposals} proposals into {folder}; "
          f"check it with: nomic-archive check {folder}")
    return 0
