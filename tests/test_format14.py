"""Format 1.4: the record's word on each change (`History:`, `Revision:`, `Corrected:` after it) and annotations
removed (`Unannotate`), as the site shows them and check reports them. The case folders
tests/cases/engine/v14-record and tests/cases/parse/v14-bad-record hold the check's exact report."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

from generator.cli import main
from tests.helpers import built_case, page_words as _words

CASE = Path(__file__).resolve().parent / "cases" / "engine" / "v14-record"


def _built(tmp_path: Path, log: str | None = None) -> Path:
    return built_case(tmp_path, CASE, log)


def test_a_rule_page_gives_the_records_revision_and_line_and_never_counts_a_rewrap(tmp_path):
    page = _words((_built(tmp_path) / "rules" / "201.html").read_text(encoding="utf-8"))
    # Revision 2 at the start; P301's Revision: 3; the rewrap says Revision: 3 again: not counted.
    assert "Revision 2, in force from the start" in page
    assert page.count("Revision 3, in force from this entry") == 2 and "Revision 4" not in page
    assert "Amended(3) by P301 'More spending' (Ann), 2026-01-10" in page


def test_an_annotation_removed_is_shown_removed_with_the_entry_that_removed_it(tmp_path):
    page = (_built(tmp_path) / "rules" / "201.html").read_text(encoding="utf-8")
    kept, removed = re.findall(r'<div class="annotation( removed)?">(.*?)</div>', page, re.S)
    assert kept[0] == "" and "<del>" not in kept[1] and "spending is an action" in kept[1]
    assert removed[0] == " removed" and "<del>" in removed[1] and "a day is a calendar day" in removed[1]
    assert "Removed by proposal 302 : Tidy annotations, 2026-01-20" in _words(removed[1])


def test_a_repeal_shows_its_record_and_a_corrected_record_is_said(tmp_path):
    page = _words((_built(tmp_path) / "rules" / "202.html").read_text(encoding="utf-8"))
    assert "Repealed by P302 'Tidy annotations' (Bob), 2026-01-20" in page
    assert "The record was corrected: recorded at first on 2026-01-21" in page


def test_without_a_revision_each_version_counts_one_more_as_in_1_2(tmp_path):
    log = (CASE / "log.md").read_text(encoding="utf-8").replace("Revision: 3\n", "")
    page = _words((_built(tmp_path, log) / "rules" / "201.html").read_text(encoding="utf-8"))
    assert "Revision 3, in force from this entry until" in page and "Revision 4, in force from this entry to now" \
        in page


def test_unannotating_what_the_rule_does_not_have_is_a_finding_and_removes_nothing(tmp_path, capsys):
    game = tmp_path / "v14-record"
    shutil.copytree(CASE, game)
    log = (game / "log.md").read_text(encoding="utf-8").replace("> Judgment 5: a day is a calendar day.",
                                                                 "> Judgment 6: no such finding.")
    (game / "log.md").write_text(log, encoding="utf-8")
    assert main(["check", str(game)]) == 1
    out = capsys.readouterr().out
    assert "proposal 302: Unannotate rule 201: rule 201 has no such annotation (\"Judgment 6: no such finding.\")" \
        in out


def test_a_corrected_failed_change_is_a_note_never_a_failed_change_finding(tmp_path, capsys):
    game = tmp_path / "v14-record"
    shutil.copytree(CASE, game)
    assert main(["check", str(game), "--format", "json"]) == 0
    out = capsys.readouterr().out
    assert '"kind": "corrected"' in out and "failed-change" not in out
    log = (game / "log.md").read_text(encoding="utf-8")
    (game / "log.md").write_text(log.replace("Corrected: recorded at first as Amended(2) by P301; a later judgment\n"
                                             "found that this part of the proposal had no effect\n", ""), encoding="utf-8")
    assert main(["check", str(game)]) == 1
    assert "is recorded as failed, but the proposal was adopted and nothing stops it" in capsys.readouterr().out


def test_a_proposal_whose_text_no_record_holds_says_so_and_never_shows_the_records_notes_as_its_text(tmp_path):
    """Agora's 9361 (only the Rulekeepor recorded it, changing no rule): its entry's text was the importer's
    sources line, which its page showed as "As proposed"."""
    log = (CASE / "log.md").read_text(encoding="utf-8") + (
        "\n## Proposal 303: Senseless\nProposer: Bob\nDate: 2026-01-25\nResult: adopted\n\n"
        "Keeper: [abc123](https://example.org/abc123).\n\nAs proposed: not recorded\n")
    site = _built(tmp_path, log)
    page = (site / "proposals" / "303.html").read_text(encoding="utf-8")
    shown = page[page.index('<section class="proposal-text">'):page.index("</section>", page.index("proposal-text"))]
    assert _words(shown) == "As proposed The record holds no text of this proposal."
    own = page[page.index('<details class="record-text">'):page.index("</details>")]
    assert '<a href="https://example.org/abc123">abc123</a>' in own and "not recorded" not in _words(own)


def test_as_proposed_not_recorded_is_no_change_and_one_text_as_proposed(tmp_path, capsys):
    game = tmp_path / "v14-record"
    shutil.copytree(CASE, game)
    (game / "expected.txt").unlink()
    with (game / "log.md").open("a", encoding="utf-8") as log:
        log.write("\n## Proposal 303: Twice\nProposer: Bob\nDate: 2026-01-25\nResult: adopted\n\n"
                  "As proposed: not recorded\n\nAs proposed:\n\n> Repeal rule 201.\n")
    assert main(["check", str(game)]) == 2
    assert "log.md:54: a second 'As proposed:' (the first is at line 52): a proposal has one text as proposed" \
        in capsys.readouterr().err
