"""The bundled game in Agora's manner (content/bureau-2024) on the site: every format 1.1 feature where a
newcomer meets it."""
from __future__ import annotations

import pytest

from generator.engine.replay import replay
from generator.parse.game import load_game

from tests.helpers import ROOT, site_pages_of


@pytest.fixture(scope="module")
def pages():
    replayed = replay(load_game(ROOT / "content" / "bureau-2024"))
    assert replayed.findings == ()
    return {page.path.removeprefix("bureau-2024/"): page for page in site_pages_of([replayed])
            if page.path.startswith("bureau-2024/")}


def context(pages, path: str) -> dict:
    return pages[path].full_context()


def test_a_game_without_turns_or_points_has_no_scores_page_and_no_order(pages):
    assert "scores.html" not in pages
    assert context(pages, "index.html")["game"]["scores"] is False
    assert context(pages, "players.html")["order"] == []
    assert context(pages, "index.html")["next_player"] is None


def test_a_proposal_lists_its_ballots_and_says_why(pages):
    page = context(pages, "proposals/507.html")
    assert ("Brook", "for", 4) in page["proposal"]["votes"]["ballots"]
    assert page["decision"] == {"for": 13, "against": 5, "ballots": 6, "index": "3.0", "quorum": 5,
                                     "why": "F 13 < 3.0 × A 5", "result": "defeated", "power": None}
    adopted = context(pages, "proposals/502.html")["decision"]
    assert (adopted["why"], adopted["power"]) == ("F 13 ≥ 2.0 × A 5", "2.0")
    assert context(pages, "proposals/504.html")["decision"]["why"] == "4 ballots, quorum 5"
    assert context(pages, "proposals/509.html")["decision"]["power"] == "1.0"  # its Power line


def test_rules_show_their_power_and_its_changes(pages):
    rule = context(pages, "rules/1011.html")
    assert rule["rule"]["power"] == "2.0"
    assert [r["summary"] for r in rule["revisions"]] == [["power 1.0"], ["power 1.0 → 2.0"]]
    enacted = context(pages, "rules/1040.html")["revisions"][0]["summary"]
    assert enacted == ["enacted as rule 1040, power 0.5"]


def test_the_rules_in_force_by_number_or_grouped_by_power_and_never_called_mutable(pages):
    """All of a game of powers' rules are of one class, which no page names."""
    by_number = context(pages, "rules/index.html")
    assert by_number["views"] == [("index.html", "by number", True), ("by-power.html", "grouped by power", False)]
    assert [(title, [r["number"] for r in rules]) for title, _, rules in by_number["groups"]] == [
        ("", [1000, 1001, 1002, 1003, 1010, 1011, 1020, 1030, 1040])]
    grouped = context(pages, "rules/by-power.html")
    assert [(power, [r["number"] for r in rules]) for power, _, rules in grouped["groups"]] == [
        ("Power 3.0", [1000, 1001]), ("Power 2.0", [1002, 1003, 1011]), ("Power 1.0", [1010, 1030]),
        ("Power 0.5", [1020, 1040])]


def test_a_failed_quorum_is_listed_with_the_defeated(pages):
    assert "504" in [row["number"] for row in context(pages, "defeated.html")["rows"]]


def test_the_proposals_are_listed_by_number_though_the_log_holds_them_as_they_took_effect(pages):
    numbers = [row["number"] for row in context(pages, "proposals/index.html")["rows"]]
    assert numbers == sorted(numbers, key=int) and len(numbers) == 9


def test_the_mechanics_in_words(pages):
    mechanics = dict(context(pages, "index.html")["mechanics"])
    assert mechanics["Quorum"] == "5 ballots unless the proposal gives another"
    assert mechanics["Proposals"] == "in the log in the order they took effect, not by number"
    assert mechanics["Rule power"] == ("a proposal changes only rules of at most its power (the least of its index, "
                                       "its Power line and 3.0)")
