"""Format 1.4: proposals known only from the record (earlier.md), from before the log begins: a page each, a list of
them, and the numbers of the rules' history lines linked to them (or to the log's pages for the log's own). The
case folders tests/cases/engine/v14-earlier (check's note where a title differs) and tests/cases/parse/
v14-bad-earlier (each bad record at its line, exit 2) hold check's exact report."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

from generator.cli import main
from tests.helpers import built_case, page_words as _words

CASE = Path(__file__).resolve().parent / "cases" / "engine" / "v14-earlier"


def _built(tmp_path: Path) -> Path:
    return built_case(tmp_path, CASE)


def test_each_earlier_proposal_has_a_page_saying_it_is_known_from_the_record_only(tmp_path):
    site = _built(tmp_path)
    page = (site / "proposals" / "10.html").read_text(encoding="utf-8")
    words = _words(page)
    assert "Proposal 10: Coins" in words and "Known from the record only" in words
    assert "Proposer Ann Co-authors Bob , Cy Date 2025-01 Power 1.0" in words
    assert '<dt>Co-authors</dt><dd><a href="../players/Bob.html">Bob</a>, Cy</dd>' in page  # (Cy never played)
    assert "<p>Make coins <em>spendable</em>.</p>" in page  # the record's words, as Markdown
    assert "The record names it in two rules' histories." in words
    # the rules whose history lines name it, linked, with those lines
    assert '<a href="../rules/201.html">Rule 201: Spending</a>' in page
    assert '<a href="../rules/202.html">Rule 202: Saving</a>' in page
    assert "Enacted by P10 'Coins' (Ann), 2025-01-01" in words
    untitled = _words((site / "proposals" / "99.html").read_text(encoding="utf-8"))
    assert "Proposer not recorded" in untitled and "Date not recorded" in untitled
    assert "The record's words The record holds nothing more of it." in untitled
    assert "Rule 201: Spending : Amended(2) by Proposal 99 (Dee), 2025-03-01" in untitled
    # `P12 #1` is one of two proposals its record numbered alike, not proposal 12
    assert "No rule's history in this archive names it." in _words((site / "proposals" / "12.html").read_text("utf-8"))
    saving = (site / "rules" / "202.html").read_text(encoding="utf-8")
    assert "Amended(1) by P12 #1 &#39;Twin&#39;" in saving
    # a number the log says is unrecorded links to that entry, which says what the record holds
    assert 'Amended(2) by <a href="../log.html#entry-1">P7</a> (Eve)' in saving


def test_a_number_the_log_holds_keeps_the_logs_page(tmp_path):
    site = _built(tmp_path)
    page = _words((site / "proposals" / "11.html").read_text(encoding="utf-8"))
    assert "Proposal 11: More coins" in page and "Known from the record only" not in page
    listed = (site / "proposals" / "earlier.html").read_text(encoding="utf-8")
    assert re.findall(r'<td class="num"><a href="(\d+)\.html">', listed) == ["10", "12", "99"]
    assert "3 proposals known from the record only" in _words(listed)
    index = (site / "proposals" / "index.html").read_text(encoding="utf-8")
    assert '<a href="earlier.html">3 proposals from before the log begins</a>' in index


def test_history_lines_link_each_proposal_to_its_page_and_stay_escaped(tmp_path):
    page = (_built(tmp_path) / "rules" / "201.html").read_text(encoding="utf-8")
    before = page[page.index('class="record-history"'):page.index('class="history"')]
    assert 'Enacted by <a href="../proposals/10.html">P10</a> &#39;Coins&#39; (Ann)' in before
    # a number the log holds links to the log's page; the title's markup is text
    assert 'by <a href="../proposals/11.html">P11</a> &#39;More &lt;coins&gt;&#39; (Bob, Cy), 2025-02' in before
    assert 'by <a href="../proposals/99.html">Proposal 99</a> (Dee)' in before
    record = re.search(r'<p class="record">(.*?)</p>', page).group(1)
    assert record == ('Amended(3) by <a href="../proposals/11.html">P11</a> &#39;More coins&#39; (Bob), '
                      '2026-01-10')


def test_a_number_with_no_page_is_left_as_text(tmp_path):
    game = tmp_path / "v14-earlier"
    shutil.copytree(CASE, game)
    (game / "expected.txt").unlink()
    (game / "earlier.md").unlink()
    assert main(["build", str(game), "-o", str(tmp_path / "site")]) == 0
    page = (tmp_path / "site" / "v14-earlier" / "rules" / "201.html").read_text(encoding="utf-8")
    assert "Enacted by P10 &#39;Coins&#39;" in page and "proposals/10.html" not in page
    assert not (tmp_path / "site" / "v14-earlier" / "proposals" / "earlier.html").exists()


def test_what_serve_answers_after_each_edit_of_earlier_md_is_the_site_a_build_gives(tmp_path):
    from generator.serve import LiveSite
    from tests.helpers import served_tree, site_digest

    content = tmp_path / "content"
    game = content / "v14-earlier"
    shutil.copytree(CASE, game)
    (game / "expected.txt").unlink()
    live = LiveSite(content, live_reload="")
    assert live.update().ok
    earlier = game / "earlier.md"
    text = earlier.read_text(encoding="utf-8")
    for step, new in enumerate([text.replace("## Proposal 10: Coins", "## Proposal 10: Pennies"),
                                text + "\n## Proposal 13: Late find\nProposer: Eve\n", None]):
        if new is None:
            earlier.unlink()
        else:
            earlier.write_text(new, encoding="utf-8")
        assert live.update([earlier]).ok
        built = tmp_path / f"built-{step}"
        assert main(["build", str(content), "-o", str(built), "--quiet"]) == 0
        assert served_tree(live, built) == site_digest(built), f"after edit {step}"
    assert not (built / "v14-earlier" / "proposals" / "10.html").exists()


def test_the_search_index_finds_an_earlier_proposal_by_its_title(tmp_path):
    docs = (_built(tmp_path) / "search" / "docs-0.js").read_text(encoding="utf-8")
    assert '["proposal","Proposal 10: Coins","proposals/10.html","Ann, known from the record only. Make coins ' \
        'spendable."]' in docs


def test_a_build_after_an_edit_of_earlier_md_alone_draws_it_again(tmp_path):
    site = _built(tmp_path)
    game = tmp_path / "content" / "v14-earlier"
    earlier = game / "earlier.md"
    earlier.write_text(earlier.read_text(encoding="utf-8").replace("## Proposal 10: Coins", "## Proposal 10: Pennies"),
                       encoding="utf-8")
    assert main(["build", str(game), "-o", str(tmp_path / "site")]) == 0
    assert "Proposal 10: Pennies" in (site / "proposals" / "10.html").read_text(encoding="utf-8")


# --- Reading earlier.md: its entries and key paragraphs are read as the log's --------------------------------

def _earlier(text: str, parser=None) -> tuple[tuple, list[str]]:
    from generator.errors import ErrorCollector
    from generator.parse.earlier import parse_earlier

    errors = ErrorCollector()
    proposals = parse_earlier("g/earlier.md", text, errors, parser)
    return proposals, [str(error) for error in errors.errors]


def _log_errors(text: str) -> list[str]:
    from generator.errors import ErrorCollector
    from generator.parse.log import parse_log

    errors = ErrorCollector()
    parse_log([("g/log.md", text)], errors)
    return [str(error) for error in errors.errors]


def test_a_key_paragraph_is_read_as_the_logs_after_a_blank_line_and_with_wrapped_values():
    proposals, errors = _earlier("# Earlier\n\n## Proposal 5 - Dashes\n\nProposer: Ann\nNote: a note that\n  "
                                 "goes on\nNote: another\n\nThe record's words.\n\n## Proposal 6\nJust words.\n")
    assert errors == []
    five, six = proposals
    assert (five.title, five.proposer, five.notes, five.text) == ("Dashes", "Ann", ("a note that goes on", "another"),
                                                                   "The record's words.")
    assert (six.source.line, six.proposer, six.text) == (12, "", "Just words.")  # a paragraph naming no key is text
    adopted, _ = _earlier("## Proposal 7\nResult: Adopted.\nPower: 2.0\n")
    assert (adopted[0].result, adopted[0].power) == ("adopted", "2.0")  # as the log reads them


def test_each_bad_key_line_is_reported_at_its_line_and_as_the_log_reports_it():
    keys = "Proposer: Ann\nDate: 2025-01-01\nProposer: Bob\nPower: much\nPower: 1\nBallots: for Ann\n"
    _, errors = _earlier(f"# Earlier\n\n## Proposal 1\n{keys}\n## Proposal x1\n")
    assert errors == [
        "g/earlier.md:6: 'Proposer' appears twice (first at line 4)",
        "g/earlier.md:8: 'Power' appears twice (first at line 7)",
        "g/earlier.md:9: unknown key 'Ballots' on a proposal of earlier.md, which records the proposer, co-authors, "
        "date, power, result and notes",
        "g/earlier.md:7: Power 'much' must be a decimal of 0 or more, like 'Power: 1.0'",
        "g/earlier.md:11: proposal number 'x1' is not a whole number"]
    # the log says the same of the same lines, at the same places
    logged = _log_errors(f"# Log\n\n## Proposal 1\n{keys}Votes: for Ann\nResult: adopted\n\n## Proposal x1\n"
                         "Proposer: Ann\nDate: 2025-01-01\n")
    assert logged[:2] == [error.replace("earlier.md", "log.md") for error in errors[:2]]
    assert logged[2] == "g/log.md:9: unknown key 'Ballots' on a proposal"
    assert "g/log.md:7: Power 'much' must be a decimal of 0 or more, like 'Power: 1.0'" in logged
    assert "g/log.md:13: proposal number 'x1' is not a whole number" in logged


def test_earlier_md_parsed_again_after_each_edit_is_the_file_parsed_afresh():
    """A remembering parser (serve's) gives earlier.md after random edits what a new parser gives: every
    proposal and every problem at its line."""
    import random

    from generator.parse.log import LogParser

    pieces = ["## Proposal 3: Three\nProposer: Ann\nDate: 1995\n\nWords.\n", "## Proposal 4\nPower: 1.5\n",
              "## Proposal 5: Five\nProposer: Bo\nProposer: Cy\n", "## Proposal 5: Again\n", "Prose between.\n",
              "## Judgment 2\n", "## Proposal 8\n\nNote: later\nNote: more\n\n> quoted\n", "\n"]
    rng = random.Random(53)
    parser = LogParser()
    chosen: list[str] = []
    for _ in range(200):  # each step an edit of one piece: one added, one taken out, or one replaced
        at = rng.randint(0, len(chosen))
        if at == len(chosen) or rng.random() < 0.3:
            chosen.insert(at, rng.choice(pieces))
        elif rng.random() < 0.5:
            del chosen[at]
        else:
            chosen[at] = rng.choice(pieces)
        text = "# Earlier\n\n" + "\n".join(chosen)
        remembered, fresh = _earlier(text, parser), _earlier(text)
        assert remembered == fresh
        assert [p.source.line for p in remembered[0]] == [p.source.line for p in fresh[0]]
