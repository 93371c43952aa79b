"""generator/importers/record.py: history lines read as entries, and a commit's changes credited to the entries
it added (the one crediting the git and Agora importers share)."""
from __future__ import annotations

import pytest

from generator.importers.archive import Change
from generator.importers.record import Agent, HistoryEntry, Source, added_entries, credit, history_entry, plain_words

HERE = Source("rules.md", "c0ffee", 12)


@pytest.mark.parametrize("line, change, agent, authors, date, revision", [
    ("[*Amended (2) by Proposal 330 (Quill), Jul 27, 2020 (R5T2)*](https://example.org/x)",
     "amend", Agent("proposal", "330", "Proposal 330"), ("Quill",), "2020-07-27", 2),
    ("Created from Temporary Rule 601 (Wren), Aug 14, 2020", "enact",
     Agent("temporary-rule", "601", "Temporary Rule 601"), ("Wren",), "2020-08-14", None),
    ("Initial immutable Rule 101, Jun 1, 2020", "enact", Agent("initial"), (), "2020-06-01", None),
    ("Amended(4) by P4833 (Maud; disi.), 2005-08-06", "amend", Agent("proposal", "4833", "P4833"), ("Maud",),
     "2005-08-06", 4),
    ("Enacted by Proposal 7 (Ann, Bo), 28 October 2016", "enact", Agent("proposal", "7", "Proposal 7"),
     ("Ann", "Bo"), "2016-10-28", None),
    ("Renumbered from 203 by Judgment I (Cy)", "renumber", Agent("judgment", "I", "Judgment I"), ("Cy",), None, None),
    ("Repealed by cleaning (Dee)", "repeal", Agent("cleaning", "", "cleaning"), ("Dee",), None, None),
    ("Mutated from MI=1 to MI=3", "", Agent("unknown"), (), None, None),
])
def test_a_history_line_says_what_changed_who_did_it_and_when(line, change, agent, authors, date, revision) -> None:
    entry = history_entry(line, HERE)
    assert (entry.change, entry.agent, entry.authors, entry.date, entry.revision) == \
        (change, agent, authors, date, revision)
    assert entry.said == plain_words(line) and entry.source == HERE


def test_an_entry_is_the_same_entry_wherever_it_was_read() -> None:
    line = "Amended (1) by Proposal 12 (Ann), Jan 2, 2020"
    assert history_entry(line, Source("a.md", "1", 3)) == history_entry(line, Source("b.md", "2", 9))
    assert history_entry(line, HERE).proposal == 12
    assert history_entry("Renumbered by Judgment I", HERE).proposal is None


def _entries(*lines: str) -> list[HistoryEntry]:
    return [history_entry(line, HERE) for line in lines]


ENACTED = "Enacted by Proposal 5 (Ann), Jan 1, 2020"
AMENDED = "Amended (1) by Proposal 9 (Bo), Feb 1, 2020"
RETITLED = "Retitled by Proposal 10 (Cy), Feb 2, 2020"


def test_a_change_is_credited_to_the_entry_of_its_kind_that_its_commit_added() -> None:
    before = _entries(ENACTED)
    after = _entries(ENACTED, RETITLED, AMENDED)
    assert credit([Change("amend", 5, text="x")], before, after).said.startswith("Amended (1) by Proposal 9")
    assert credit([Change("retitle", 5, title="T")], before, after).said.startswith("Retitled")
    # none of its kind: the first added, which the record gives for the commit
    assert credit([Change("repeal", 5)], before, after).said.startswith("Retitled")
    # nothing added: nothing to credit (the importer's guess, said as one)
    assert credit([Change("amend", 5, text="x")], after, after) is None


def test_a_history_that_arrives_whole_credits_only_its_last_entry_and_only_of_the_same_kind() -> None:
    after = _entries(ENACTED, AMENDED)
    assert credit([Change("amend", 5, text="x")], None, after).proposal == 9
    assert credit([Change("enact", 5, text="x")], None, after) is None  # the enactment is older than this commit
    assert credit([Change("enact", 5, text="x")], None, []) is None


def test_entries_are_counted_as_written_and_need_not_be_hashable() -> None:
    assert added_entries(_entries(AMENDED), _entries(AMENDED, AMENDED)) == _entries(AMENDED)
    before = [{"change": {"type": "enactment"}}]
    after = before + [{"change": {"type": "amendment"}, "agent": {"proposal": "9"}}]
    kinds = {"enactment": "enact", "amendment": "amend"}
    assert credit([Change("amend", 5, text="x")], before, after,
                  kind=lambda entry: kinds[entry["change"]["type"]]) == after[1]
