"""Format 1.2 on the site: each construct where a reader meets it (FORMAT.md, Version 1.2), built from the case
folders that test the engine."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from generator.cli import main
from tests.helpers import broken_links

CASES = Path(__file__).resolve().parent / "cases" / "engine"
GAMES = ("v12-decision-again", "v12-unrecorded", "v12-failed-change", "v12-rules-history", "v12-rename",
         "v12-after-win-reset", "v12-month-dates", "v12-award-by-effect-and-die", "v12-decimal-score",
         "v12-judgment-by-case")


def built_site(tmp_path_factory, games: tuple[str, ...]) -> Path:
    """The site of the engine's case folders `games`, built together."""
    content = tmp_path_factory.mktemp("content")
    for name in games:
        shutil.copytree(CASES / name, content / name)
    out = tmp_path_factory.mktemp("site") / "site"
    assert main(["build", str(content), "-o", str(out)]) == 0
    return out


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    return built_site(tmp_path_factory, GAMES)


def text(site: Path, page: str) -> str:
    """A page's words, tags taken out and white space made single."""
    return " ".join(re.sub(r"<[^>]+>", " ", (site / page).read_text(encoding="utf-8")).split())


def test_a_proposal_page_lists_every_decision_taken_on_it(site):
    for page in ("301.html", "301A.html"):
        assert ("Decisions taken on proposal 301: 301 (failed-quorum, 2019-01-02 ); 301A (adopted, 2019-01-09 )."
                in text(site, f"v12-decision-again/proposals/{page}"))
    assert "<h1>Proposal 301A</h1>" in (site / "v12-decision-again/proposals/301A.html").read_text()


def test_unrecorded_numbers_are_listed_on_the_proposals_page(site):
    page = text(site, "v12-unrecorded/proposals/index.html")
    assert "Numbers not recorded" in page and "303-305 (2019-01-04)" in page
    assert "Unrecorded 303-305" in text(site, "v12-unrecorded/log.html")


def test_a_failed_change_is_struck_through_with_why(site):
    html = (site / "v12-failed-change/proposals/301.html").read_text()
    assert ('<del>Amend rule 2608 by replacing &#34;each week&#34; with &#34;each day&#34;.</del> <span class="why">'
            "It did not take effect: power 1.0 is not enough.</span>") in html
    assert "Recorded as failed, though the replay finds nothing that stopped it." in text(
        site, "v12-failed-change/proposals/302.html")


def test_a_rule_page_has_its_annotations_and_its_history_before_the_archive(site):
    page = text(site, "v12-rules-history/rules/2166.html")
    assert ("Annotations Kept with the rule when this archive begins: CFJ 1234 found that an asset cannot be owned "
            "by nobody. Made since: CFJ 4153: an asset's owner may change. Annotated by proposal 301 , 2019-01-02 .") \
        in page
    assert ("Before this archive Created by Proposal 4444 (Murphy), 2003-01-01 Amended(3) by Proposal 5453 "
            "(Murphy), 2008-03-01 History") in page


def test_a_rule_with_a_power_is_not_called_mutable(site):
    page = text(site, "v12-failed-change/rules/2608.html")
    assert "Power 2.0." in page and "Mutable." not in page


def test_a_renamed_player_reads_with_the_former_name_and_each_player_has_a_record(site):
    page = text(site, "v12-rename/players.html")
    assert ("Player Proposed Adopted Defeated Ballots cast Wins Score Status Ann 1 1 0 3 0 0 playing "
            "Cy 1 1 0 3 0 0 playing Janet (formerly Jason) 1 1 0 3 0 10 playing") in page


def test_an_event_keeps_its_title_as_written_and_its_web_addresses_are_links(site):
    html = (site / "v12-rename/log.html").read_text()
    assert "Event &#39;Jason takes a new name&#39;" in html and "takes a new name&#39;: " not in html
    assert '<a href="https://forum.example/jason-janet">https://forum.example/jason-janet</a>.' in html
    assert "Jason → Janet" in text(site, "v12-rename/log.html")


def test_the_home_of_a_game_that_goes_on_lists_each_win(site):
    assert ("Wins The game goes on after a win, every score set back to 0. Ann at proposal 302 , 2019-01-03 "
            "Bob at proposal 305 , 2019-01-06") in text(site, "v12-after-win-reset/index.html")


def test_a_month_reads_as_a_month(site):
    html = (site / "v12-month-dates/log.html").read_text()
    assert '<time datetime="2019-07">July 2019</time>' in html


def test_effects_read_in_words_and_decimals_as_decimals(site):
    page = text(site, "v12-award-by-effect-and-die/log.html")
    assert "from now on the proposer gains a throw of the die when a proposal is adopted" in page
    assert "scoring.awards" not in page
    assert "Gina +2.25 (points (rule 202))" in text(site, "v12-decimal-score/log.html")


def test_a_judgment_named_by_its_case_has_its_anchor_and_point_named_so(site):
    """`## Judgment CFJ 4153` once stopped every build (the points manifest read a number from its name): its
    anchor and point are named by the case, and the manifest lists the numbers of numbered judgments alone, by
    which the pickers look `judgment-N` up, and the names of those named by their case."""
    log = (site / "v12-judgment-by-case/log.html").read_text(encoding="utf-8")
    assert 'id="judgment-cfj-4153"' in log and 'id="judgment-cfj-4154"' in log
    assert "It may, since proposal 301. A ruling kept for the record." in text(site, "v12-judgment-by-case/log.html")
    manifest = (site / "v12-judgment-by-case/points/index.js").read_text(encoding="utf-8")
    assert ('"pieces":[["2019-01-02","2019-01-05",[301,302],null,["judgment-cfj-4153","judgment-cfj-4154"]]]'
            in manifest)
    assert '"judgment-cfj-4153"' in (site / "v12-judgment-by-case/points/0.js").read_text(encoding="utf-8")
    # The points form's hint gives the game's own such point as an example (a game without one does not)
    for page in ("as-of.html", "compare/index.html"):
        assert ("judgment-cfj-4153 for one named by its case"
                in text(site, f"v12-judgment-by-case/{page}")), page
    assert "named by its case" not in text(site, "v12-decimal-score/as-of.html")


def test_no_link_is_broken(site):
    assert broken_links(site) == []


def test_solitaire_home_and_turns_pages_have_one_h1_each(tmp_path):
    out = tmp_path / "site"
    assert main(["build", str(Path(__file__).resolve().parent.parent / "content" / "solitaire"), "-o", str(out)]) == 0
    for page in ("solitaire/index.html", "solitaire/turns/index.html"):
        assert (out / page).read_text(encoding="utf-8").count("<h1") == 1, page


def test_a_tally_shows_as_counts(tmp_path):
    out = tmp_path / "site"
    assert main(["build", str(CASES / "v12-tally"), "-o", str(out)]) == 0
    assert "Tally 4 for, 1 against, 0 abstaining (counted; the voters are not recorded)" in text(
        out, "v12-tally/proposals/302.html")
