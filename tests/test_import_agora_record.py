"""`import agora` credits every change from the rule's own history as the Rulekeepor keeps it now (issue 51): a small
repository of our own words, one commit for each thing his record does that a commit's subject does not say."""
from __future__ import annotations

import pytest

from generator.cli import main
from helpers import git_commit
from test_import_agora import entries, run_import
from test_import_agora_whole import entry_yaml, numbered_rule, sections

INITIAL = entry_yaml("initial", "1993-06-30", mutability="mutable", id="101")
VOTING = entry_yaml("enactment", "2001-01-01", "proposal: '5'")
OLD_LIVES = [entry_yaml("enactment", "1999-01-01", "proposal: '3'"), entry_yaml("repeal", "2000-01-01", "proposal: '4'")]


def _notes(*numbers: int) -> dict[str, str]:
    # (46's author writes her name in small letters: one player)
    return {f"rules_data/proposals/{n}": f"id: '{n}'\ntitle: Idea {n}\nauthor: {'cy' if n == 46 else 'Cy'}\n"
            + ("coauthors:\n- Dee\n" if n == 45 else "") for n in numbers}


@pytest.fixture
def imported(tmp_path, capsys):
    return _imported(tmp_path, capsys)


def _imported(tmp_path, capsys, *options: str):
    repo = tmp_path / "ruleset"
    game = [INITIAL]
    voting = [VOTING]

    def commit(subject: str, day: str, files: dict[str, str | None]) -> None:
        git_commit(repo, subject, files, date=f"{day}T12:00:00")

    commit("Start", "2020-01-01", {"rules_data/config/index": sections(("All", [101, 102])),
                                   "rules_data/rules/101": numbered_rule(101, "Game", "1", "Be\ngood.", game),
                                   "rules_data/rules/102": numbered_rule(102, "Voting", "1", "V.", voting),
                                   **_notes(41, 42, 43, 44, 45, 46)})
    # 1. A subject that names the wrong proposal: the entry the commit adds names 41.
    game.append(entry_yaml("amendment", "2020-01-30", "proposal: '41'"))
    commit("Proposal 40", "2020-02-01", {"rules_data/rules/101": numbered_rule(101, "Game", "1", "Be very\ngood.", game)})
    # 2. A rewrap: no entry, no revision.
    commit("Rewrap", "2020-02-05", {"rules_data/rules/101": numbered_rule(101, "Game", "1", "Be\nvery good.", game)})
    # 3. An amendment he records, and strikes later.
    commit("Proposal 42", "2020-03-01", {"rules_data/rules/102": numbered_rule(
        102, "Voting", "1", "W.", voting + [entry_yaml("amendment", "2020-03-01", "proposal: '42'")])})
    # 6. A commit titled "Finished" whose entry he re-dates later (2020-03-20 -> 2020-03-25).
    commit("Finished", "2020-04-01", {"rules_data/rules/101": numbered_rule(
        101, "Game", "1", "C.", game + [entry_yaml("amendment", "2020-03-20", "proposal: '43'")])})
    game.append(entry_yaml("amendment", "2020-03-25", "proposal: '43'"))
    # 4. A rule repealed before the archive comes back.
    commit("Proposal 44", "2020-06-01", {"rules_data/config/index": sections(("All", [101, 102, 100])),
                                         "rules_data/rules/100": numbered_rule(100, "Back", "1", "R.", OLD_LIVES + [
                                             entry_yaml("reenactment", "2020-06-01", "proposal: '44'")])})
    # 8. A change of December committed in January (his backlog).
    game.append(entry_yaml("amendment", "2020-12-20", "proposal: '45'"))
    commit("Proposal 45", "2021-01-10", {"rules_data/rules/101": numbered_rule(101, "Game", "1", "D.", game)})
    # 3, 5, 6: his corrections: 42's entry struck (its text undone), a ratification no commit shows, a date fixed.
    voting.append(entry_yaml("amendment", "2020-05-01", "ratification:\n      document: SLR"))
    commit("Fix the histories", "2021-02-01", {"rules_data/rules/102": numbered_rule(102, "Voting", "1", "V.", voting),
                                                "rules_data/rules/101": numbered_rule(101, "Game", "1", "D.", game)})
    commit("Proposal 46", "2021-03-01", {"rules_data/rules/102": numbered_rule(
        102, "Voting", "1", "X.", voting + [entry_yaml("amendment", "2021-03-01", "proposal: '46'")])})
    code, files, said = run_import(tmp_path, capsys, "--ruleset", str(repo), *options)
    assert code == 0, said
    log = {heading: text for name, text in sorted(files.items()) if name.startswith("log/")
           for heading, text in entries(text).items()}
    return files, log, tmp_path / "agora"


def test_1_a_change_is_credited_from_its_history_entry_never_from_the_subject(imported):
    files, log, _ = imported
    assert "Amend rule 101 to read:\n\n> ```\n> Be very\n> good.\n> ```\n\nHistory: Amended(1) by P41 'Idea 41' (Cy), 2020-01-30\n" \
           "Revision: 1\n" in log["Proposal 41: Idea 41"]
    assert not any(heading.startswith(("Proposal 40", "Event: Finished")) for heading in log)
    assert "History: Amended(2) by P43 'Idea 43' (Cy), 2020-03-25" in log["Proposal 43: Idea 43"]


def test_2_a_rewrap_is_the_rulekeepors_and_counts_no_revision(imported):
    _, log, _ = imported
    rewrap = log["Event: The Rulekeepor, with no history entry: rule 101"]
    assert "Revision: 1\n" in rewrap and "History:" not in rewrap
    assert "The Rulekeepor's commit: \u201cRewrap\u201d." in rewrap


def test_3_a_struck_entry_is_a_failed_change_with_what_was_recorded_and_check_says_so(imported, capsys):
    _, log, game = imported
    forty_two = log["Proposal 42: Idea 42"]
    assert "Failed: Amend rule 102 to read:" in forty_two
    assert "Corrected: recorded at commit " in forty_two and "as 'Amended(1) by P42 'Idea 42' (Cy), 2020-03-01'; " \
        "the Rulekeepor later took it out of the rule's history" in forty_two
    assert not any("rule 102" in heading and "no history entry" in heading for heading in log)  # (the undoing: left out)
    assert main(["check", str(game)]) == 0
    assert "note: proposal 42: rule 102: the record was corrected: recorded at commit" in capsys.readouterr().out


def test_4_a_rule_re_enacted_keeps_its_earlier_lives(imported):
    _, log, _ = imported
    assert "Reenact power 1 rule 100: Back\n\n> ```\n> R.\n> ```\n\nHistory: Enacted by P3, 1999-01-01\n" \
           "History: Repealed by P4, 2000-01-01\nHistory: Re-enacted(1) and amended by P44 'Idea 44' (Cy), 2020-06-01\n" \
           "Revision: 1\n" in log["Proposal 44: Idea 44"]


def test_5_a_ratification_no_commit_shows_is_a_change_of_its_own(imported):
    _, log, _ = imported
    event = log["Event: SLR ratification: rule 102"]
    assert "Date: 2020-05-01\nBy: SLR ratification\n\nAmend rule 102 to read:\n\n> ```\n> V.\n> ```\n\n" \
           "History: Amended(1) by SLR ratification, 2020-05-01\nRevision: 1\n" in event


def test_6_a_date_he_corrected_is_the_entrys_with_the_first_kept(imported):
    _, log, _ = imported
    forty_three = log["Proposal 43: Idea 43"]
    assert "Date: 2020-03-25\n" in forty_three
    assert "Corrected: recorded at commit " in forty_three and "as 'Amended(2) by P43 'Idea 43' (Cy), 2020-03-20'" \
        in forty_three


def test_8_a_year_end_behind_the_record_is_one_note_with_its_cause(imported, capsys):
    files, _, game = imported
    # 45's change, and the ratification of 102 (his commit that undid 42's text takes its entry), are of 2020
    # and committed in 2021; 42's, struck.
    assert files["snapshots/2020-12-31.md"].startswith(
        "Date: 2020-12-31\nBehind: 2 changes of 2020 the Rulekeepor committed after the year's end (nothing was "
        "committed from 2020-06-01 to 2021-01-10); 1 change he recorded by then and struck from the rules' histories "
        "later.\n")
    assert main(["check", str(game)]) == 0
    out = capsys.readouterr().out
    assert "snapshot on 2020-12-31: differs from the replay in 2 rules (101, 102); the record says why: 2 changes of " \
        "2020" in out
    assert "snapshot on 2020-12-31: rule" not in out


def test_9_one_player_one_name_case_aside_and_the_keepers_word_for_the_rest(tmp_path, capsys):
    corrections = tmp_path / "corrections.txt"
    corrections.write_text("player Dee = Cy\n", encoding="utf-8")
    files, log, _ = _imported(tmp_path, capsys, "--corrections", str(corrections))
    assert 'players = [\n  "Cy",\n]' in files["game.toml"]
    assert "Proposer: Cy\n" in log["Proposal 46: Idea 46"] and "Co-authors" not in log["Proposal 45: Idea 45"].replace(
        "Co-authors: Cy", "")
    assert "- cy -> Cy" in files["IMPORT.md"]
    # The names folded are the names played under, game.toml's [aliases], which check reads as one player
    assert '[aliases]\n"Cy" = ["cy", "Dee"]\n' in files["game.toml"]


def test_9_a_corrections_line_that_names_no_one_is_refused(tmp_path, capsys):
    corrections = tmp_path / "corrections.txt"
    corrections.write_text("player Nobody = Cy\n", encoding="utf-8")
    with pytest.raises(AssertionError, match="corrections.txt:1: player Nobody: the name 'Nobody' is not in the "
                                             "records read"):  # (exit 2, and nothing is written)
        _imported(tmp_path, capsys, "--corrections", str(corrections))
    assert not (tmp_path / "agora").exists()
