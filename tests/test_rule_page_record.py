"""A rule page read against the keepers' record (issue 51): its history list is the report's (format 1.4's
`History:` lines in the keepers' order, `Place:` where a change was recorded late), each line linked to the
change that made it, and a change shows every line its entry's changes carry. Hand-made cases of each shape, on
the case folder tests/cases/engine/v14-record."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

from generator.cli import main
from tests.helpers import page_words as _words

CASE = Path(__file__).resolve().parent / "cases" / "engine" / "v14-record"

# After the case's log: P303 recorded first though P304 took effect before it (Place: 4 puts P304's line
# before P303's), and P305 retitles and amends rule 201 in one entry, a line for each.
LATER = """
## Proposal 303: Spend four
Proposer: Ann
Date: 2026-02-10
Votes: for Ann, Bob
Result: adopted

Amend rule 201 to read:

> Each player may spend four coins a day.

History: Amended(5) by P303 'Spend four' (Ann), 2026-02-10
Revision: 5

## Proposal 304: Spend five
Proposer: Bob
Date: 2026-02-05
Votes: for Ann, Bob
Result: adopted

Amend rule 201 to read:

> Each player may spend five coins a day.

History: Amended(4) by P304 'Spend five' (Bob), 2026-02-05
Revision: 5
Place: 4

## Proposal 305: Rename and spend
Proposer: Ann
Date: 2026-03-01
Votes: for Ann, Bob
Result: adopted

Retitle rule 201 to "Coins".

History: Retitled by P305 'Rename and spend' (Ann), 2026-03-01

Amend rule 201 to read:

> Each player may spend six coins a day.

History: Amended(6) by P305 'Rename and spend' (Ann), 2026-03-01
Revision: 6
"""


def _page(tmp_path: Path, more: str = LATER, *, record: bool = True) -> str:
    """Rule 201's page after the case's log and `more`; without the record's keys where not `record`."""
    game = tmp_path / "content" / "v14-record"
    shutil.copytree(CASE, game)
    (game / "expected.txt").unlink()
    log = game / "log.md"
    text = log.read_text(encoding="utf-8") + more
    if not record:
        text = re.sub(r"\n(History|Revision|Place|Corrected): [^\n]*(\n[a-z][^\n]*)?", "", text)
    log.write_text(text, encoding="utf-8")
    assert main(["build", str(game), "-o", str(tmp_path / "site"), "-q"]) == 0
    return (tmp_path / "site" / "v14-record" / "rules" / "201.html").read_text(encoding="utf-8")


def _listed(page: str) -> list[tuple[str, str]]:
    """The page's history list: (the line's words, the revision it links to, "" for none)."""
    section = re.search(r'<section class="record-history">(.*?)</section>', page, re.S)[1]
    return [(_words(line).removesuffix(" ↓"), (re.search(r'href="#([^"]+)"', line) or [None, ""])[1])
            for line in re.findall(r"<li>(.*?)</li>", section, re.S)]


def test_the_history_list_is_the_records_order_a_change_recorded_late_at_its_place(tmp_path):
    listed = _listed(_page(tmp_path))
    assert listed == [
        ("Enacted by P10 (Ann), 2025-01-01", ""), ("Amended(1) by P11 (Bob), 2025-02-01", ""),
        ("Amended(2) by P12 (Ann), 2025-03-01", ""),
        ("Amended(3) by P301 'More spending' (Ann), 2026-01-10", "proposal-301"),
        ("Amended(4) by P304 'Spend five' (Bob), 2026-02-05", "proposal-304"),
        ("Amended(5) by P303 'Spend four' (Ann), 2026-02-10", "proposal-303"),
        ("Retitled by P305 'Rename and spend' (Ann), 2026-03-01", "proposal-305"),
        ("Amended(6) by P305 'Rename and spend' (Ann), 2026-03-01", "proposal-305")]


def test_the_changes_stay_in_the_logs_order_each_with_every_line_of_its_entry(tmp_path):
    page = _page(tmp_path)
    anchors = re.findall(r'<article class="revision[^"]*" id="([^"]+)"', page)
    assert anchors == ["initial", "proposal-301", "entry-2", "proposal-303", "proposal-304", "proposal-305"]
    last = page[page.index('id="proposal-305"'):]
    record = _words(re.search(r'<p class="record">(.*?)</p>', last, re.S)[1])
    assert record == ("Retitled by P305 'Rename and spend' (Ann), 2026-03-01 "
                      "Amended(6) by P305 'Rename and spend' (Ann), 2026-03-01")
    assert "Rule 201/6: revision 6." in _words(page)
    # P304's line says Amended(4), its text (after P303's too) is revision 5: the page says why
    late = _words(page[page.index('id="proposal-304"'):page.index('id="proposal-305"')])
    assert "Recorded after changes that took effect later: the record lists it before them (see the history " \
        "above), and the text here has them too (revision 5)." in late
    assert "Recorded after" not in _words(page[:page.index('id="proposal-304"')])


def test_a_game_whose_log_gives_no_record_lists_only_what_came_before_the_archive(tmp_path):
    page = _page(tmp_path, record=False)
    assert "<h2>Before this archive</h2>" in page and 'class="record"' not in page
    assert _listed(page) == [("Enacted by P10 (Ann), 2025-01-01", ""), ("Amended(1) by P11 (Bob), 2025-02-01", ""),
                             ("Amended(2) by P12 (Ann), 2025-03-01", "")]
