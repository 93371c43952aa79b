"""A page per player (players/SLUG.html): the names they played under (game.toml's [aliases]), their proposals
with results, those they co-authored, their ballots (in parts), their score; the players page, proposal pages,
the log and rule histories linking to it; slugs safe and distinct for any name; the search index and sitemap."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from generator.cli import main
from tests.helpers import broken_links

CASES = Path(__file__).resolve().parent / "cases" / "engine"
RULES = "# Rules\n\n## Mutable Rules\n\n### 201\nBe kind.\n"


def text(site: Path, page: str) -> str:
    """A page's main words, tags taken out and white space made single."""
    html = (site / page).read_text(encoding="utf-8")
    html = html[html.index("<main"):html.index("</main>")]
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def build(tmp_path: Path, content: Path, *options: str) -> Path:
    out = tmp_path / "site"
    assert main(["build", str(content), "-o", str(out), *options]) in (0, 1)
    return out


def write_game(folder: Path, toml: str, log: str) -> None:
    folder.mkdir(parents=True)
    (folder / "game.toml").write_text(toml, encoding="utf-8")
    (folder / "rules.md").write_text(RULES, encoding="utf-8")
    (folder / "log.md").write_text(log, encoding="utf-8")


def test_each_person_has_a_page_with_the_names_they_played_under(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(CASES / "aliases", content / "aliases")
    site = build(tmp_path, content)
    players = text(site, "aliases/players.html")
    # One row a person, their aliases beside their name, every ballot and score theirs
    assert ("Alice 2 2 0 5 0 3 playing Bob (also Bobby Tables, bob) 2 2 0 5 0 15 playing "
            "Carol (also Caz) 1 1 0 6 0 3 playing") in players
    html = (site / "aliases/players.html").read_text()
    assert '<a href="players/Carol.html">Carol</a>' in html
    carol = text(site, "aliases/players/Carol.html")
    assert carol.startswith("All players Carol Also played as Caz. 1 proposal (1 adopted, 0 defeated), 6 ballots.")
    assert "Proposals No. Title Date Result 303 1990-01-04 adopted" in carol
    assert "Score Entry Date Change Score proposal 303 1990-01-04 +3 3" in carol
    assert "Ballots No. Title Date Ballot Result 301 1990-01-02 for adopted" in carol
    bob = text(site, "aliases/players/Bob.html")
    assert "proposal 302 1990-01-03 +6 6 proposal 303 1990-01-04 +8 14" in bob  # points paid to Bobby Tables
    # The record's name is kept where it is written, linked to the person's page
    proposal = (site / "aliases/proposals/303.html").read_text()
    assert '<dt>Proposer</dt><dd><a href="../players/Carol.html">Caz</a> (Carol)</dd>' in proposal
    assert '<a href="players/Bob.html">Bobby Tables</a> (Bob) · adopted' in (site / "aliases/log.html").read_text()
    assert broken_links(site) == []


def test_proposers_co_authors_and_judges_link_to_their_pages_from_rule_histories(tmp_path):
    content = tmp_path / "content"
    write_game(content / "g", 'title = "G"\nplayers = ["Ann", "Bo"]\n\n[scoring]\nturn = "none"\n\n'
               '[turns]\norder = "none"\n\n[numbering]\namend_renumbers = false\n\n[aliases]\nAnn = ["Annie"]\n',
               "# Log\n\n## Proposal 301: Kinder\nProposer: Annie\nCo-authors: Bo, Zed\nDate: 2020-01-01\n"
               "Votes: for Ann, Bo\nResult: adopted\n\nAmend rule 201 by appending:\n\n> Always.\n\n"
               "## Judgment 1: Is it kind?\nJudge: Bo\nDate: 2020-01-02\n\nAmend rule 201 by deleting \"Always.\"\n")
    site = build(tmp_path, content)
    rule = (site / "g/rules/201.html").read_text()
    assert ('<p class="authors">By <a href="../players/Ann.html">Annie</a> (Ann) (co-authors '
            '<a href="../players/Bo.html">Bo</a>, Zed)</p>') in rule  # Zed, no player, has no page
    assert '<p class="authors">Judge <a href="../players/Bo.html">Bo</a></p>' in rule
    assert '<p class="meta">Judge: <a href="players/Bo.html">Bo</a></p>' in (site / "g/log.html").read_text()
    bo = text(site, "g/players/Bo.html")
    assert "Co-authored No. Title Date Result Proposer 301 Kinder 2020-01-01 adopted Annie (Ann)" in bo
    assert "Judgments Judgment 1 : Is it kind? ( 2020-01-02 )" in bo
    assert "Score" not in bo  # a game that keeps no scores shows none
    ann = (site / "g/players/Ann.html").read_text()
    assert '<td><a href="../players/Bo.html">Bo</a>, Zed</td>' in ann
    assert broken_links(site) == []


def test_slugs_are_plain_segments_distinct_for_any_name_without_regard_to_case(tmp_path, small_parts):
    names = ["G.", "G", "g", "Ørjan", "☃", "Ann Lee", "x" * 120]
    ballots = ", ".join(names)
    log = "# Log\n\n" + "".join(f"## Proposal {301 + n}\nProposer: G\nDate: 2020-01-01\nVotes: for {ballots}\n"
                                 f"Result: adopted\n\n" for n in range(12))  # 12 ballots each: two parts of 10
    content = tmp_path / "content"
    write_game(content / "g", f'title = "G"\nplayers = {json.dumps(names, ensure_ascii=False)}\n\n'
               '[scoring]\nturn = "none"\n\n[turns]\norder = "none"\n', log)
    site = build(tmp_path, content)
    pages = sorted(p.name for p in (site / "g/players").iterdir())
    # In order without regard to case, each with its ballots' second part: G (G, G-2), g (g-3, g-3-2: g-2 would be
    # G-2 on a case-blind disk), G. (G-4, G-4-2); Ørjan (Orjan) and ☃ (player) as plain segments; a long name cut
    assert pages == sorted(["G.html", "G-2.html", "g-3.html", "g-3-2.html", "G-4.html", "G-4-2.html", "Orjan.html",
                            "Orjan-2.html", "player.html", "player-2.html", "Ann-Lee.html", "Ann-Lee-2.html",
                            "x" * 90 + ".html", "x" * 90 + "-2.html"])
    assert len({page.casefold() for page in pages}) == len(pages)
    html = (site / "g/players.html").read_text()
    assert '<a href="players/G-4.html">G.</a>' in html and '<a href="players/player.html">☃</a>' in html
    second = text(site, "g/players/Orjan-2.html")
    assert second.startswith("All players Ørjan Ørjan: ballots Ballots 301 – 310 311 – 312 No. Title Date Ballot "
                             "Result 311 2020-01-01 for adopted 312")
    assert broken_links(site) == []


def test_a_players_ballot_parts_are_the_pages_their_address_keeps_room_for(tmp_path, small_parts):
    # H votes 10 times (one full part), h 11 times (two parts), Z never: h's part after the first is h-2-2.html
    log = "# Log\n\n" + "".join(f"## Proposal {301 + n}\nProposer: H\nDate: 2020-01-01\nVotes: for "
                                 f"{'H, h' if n < 10 else 'h'}\nResult: adopted\n\n" for n in range(11))
    content = tmp_path / "content"
    write_game(content / "g", 'title = "G"\nplayers = ["H", "h", "Z"]\n\n[scoring]\nturn = "none"\n\n'
               '[turns]\norder = "none"\n', log)
    site = build(tmp_path, content)
    assert sorted(p.name for p in (site / "g/players").iterdir()) == ["H.html", "Z.html", "h-2-2.html", "h-2.html"]
    assert "Ballot Result 311 2020-01-01 for adopted" in text(site, "g/players/h-2-2.html")
    assert "Ballot Result 301 2020-01-01 for" in text(site, "g/players/h-2.html")
    assert "Ballots 301 – 310" not in text(site, "g/players/H.html")  # one part: no pager


def test_the_search_index_and_the_sitemap_hold_the_players_pages(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(CASES / "aliases", content / "aliases")
    site = build(tmp_path, content, "--base-url", "https://example.org/nomic/")
    assert "<loc>https://example.org/nomic/aliases/players/Carol.html</loc>" in (site / "sitemap.xml").read_text()
    documents = "".join(p.read_text() for p in (site / "aliases/search").glob("docs-*.js"))
    assert '"Player Carol (also Caz)","players/Carol.html"' in documents
    terms = "".join(p.read_text() for p in (site / "aliases/search").glob("terms-*.js"))
    assert '"caz"' in terms
