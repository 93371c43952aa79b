"""Pages say what the engine knows, in a player's words: the order of play it follows, the mechanics in force
(rules by their present number), each result with its arithmetic, and findings linked to their entries."""
from __future__ import annotations

from generator.engine.replay import replay
from generator.errors import ErrorCollector
from generator.parse.game import _build_game, load_game

from tests.helpers import ROOT, site_pages_of

RULES = """## Immutable Rules

### 101
Obey the rules.

## Mutable Rules

### 201
Players alternate.

### 203
A rule-change is adopted if the vote is unanimous.
"""


def page_context(replayed, path: str) -> dict:
    page = next(p for p in site_pages_of([replayed]) if p.path == path)
    return page.full_context()


def game(log: str, toml: str) -> object:
    return replay(_build_game("g", "g", {"g/game.toml": toml, "g/rules.md": RULES, "g/log.md": log},
                              ErrorCollector()))


def test_the_players_page_shows_the_order_the_engine_follows():
    replayed = replay(load_game(ROOT / "content" / "livejournal-2007"))
    assert page_context(replayed, "livejournal-2007/players.html")["order"] == ["_quasar", "9th_wave", "mike_k",
                                                                                "packbat"]


def test_a_game_without_turns_shows_no_order():
    replayed = game("", 'players = ["Ann", "Bob"]\n[turns]\norder = "none"\n')
    assert page_context(replayed, "g/players.html")["order"] == []


def test_the_mechanics_name_the_switch_rule_by_its_present_number_and_the_turn_in_words():
    toml = ('players = ["Ann", "Bob"]\n[adoption]\nthen = "majority"\nafter_circuits = 2\nunless_amended = 203\n'
            '[scoring]\nturn = "formula"\nformula = "round((proposal - 291) * for_fraction)"\n')
    log = "## Event: The Rulekeepor renumbers\nDate: 1982-06-01\n\nRenumber rule 203 to 313.\n"
    mechanics = dict(page_context(game(log, toml), "g/index.html")["mechanics"])
    assert mechanics["Then"] == "a simple majority after 2 complete circuits, unless rule 313 is amended"
    assert mechanics["Each turn"] == ("proposal number minus 291, times the share of votes for, rounded "
                                      "(halves rounded up)")
    mechanics = dict(page_context(game("", 'players = ["Ann"]\n[scoring]\ndie = "2d6"\n'), "g/index.html")["mechanics"])
    assert mechanics["Each turn"] == "two dice, 2d6"


def test_a_result_gives_its_arithmetic():
    replayed = replay(load_game(ROOT / "content" / "livejournal-2007"))
    step = page_context(replayed, "livejournal-2007/proposals/301.html")["step"]
    assert (step["result"], step["why"]) == ("adopted", "5 for, 0 against (90% needed)")


def test_findings_link_to_their_entry_and_to_the_slip_they_stem_from():
    log = ("## Proposal 301\nProposer: Ann\nDate: 1982-06-01\nVotes: for Ann, Bob\nResult: adopted\nDie: 4\n"
           "Scores: Ann 5\n\n## Proposal 302\nProposer: Bob\nDate: 1982-06-02\nVotes: for Ann, Bob\n"
           "Result: adopted\nDie: 1\nScores: Ann 9\n")
    findings = page_context(game(log, 'players = ["Ann", "Bob"]\n'), "g/check.html")["findings"]
    assert [(f["url"], f["cause"], f["cause_url"]) for f in findings] == [
        ("proposals/301.html", None, None), ("proposals/302.html", "g/log.md:7", "proposals/301.html")]
