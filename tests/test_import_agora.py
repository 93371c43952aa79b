"""`nomic-archive import agora`: a small Rulekeepor's repository and Assessor's repository built here in
their layouts (one YAML file per rule with its history, an index, JSON batches on gh-pages), in our own
words, and the game the import writes."""
from __future__ import annotations

import json
import re
import subprocess

import pytest

from generator.cli import main
from helpers import git_commit, knows_format_1_2

needs_1_2 = pytest.mark.skipif(not knows_format_1_2(), reason="the log parser does not read format 1.2 yet; "
                               "enabled once it does")


def rule_file(number: int, name: str, power: str, text: str, history: list[tuple[str, str, str]],
              annotation: str | None = None) -> str:
    """A rule file as the Rulekeepor writes one; history is (type, date, agent YAML)."""
    lines = [f"id: {number}", f"name: {name}", f"power: {power}", "text: |"]
    lines += [f"  {line}" if line else "" for line in text.split("\n")]
    lines.append("history:")
    for kind, date, agent in history:
        lines += ["- change:", f"    type: {kind}", f"  date: {date}", "  agent:", f"    {agent}"]
    if annotation:
        lines += ["annotations:", "- cfjs:", "  - id: '77'", "    called: 2019-05-01", "  text: >", f"    {annotation}"]
    return "\n".join(lines) + "\n"


def index(*rules: int) -> str:
    return "- name: Everything\n  rules:\n" + "".join(f"  - {rule}\n" for rule in rules)


FIRST = ("enactment", "2019-12-01", 'proposal: "1"')
GAME_TEXT = "Agora is a game of Nomic.\n\n  * listed as drawn\n  * by hand"
VOTING_TEXT = "Each ballot counts."


def batch(*resolutions: tuple[int, str, str, list[tuple[str, str]], dict[str, int], int, int]) -> str:
    """An Assessor's JSON batch: (number, decision_ai, result, [(voter, vote)], strengths, F, A)."""
    return json.dumps({
        "metadata": {"name": "batch", "urls": []},
        "proposals": [{"version": "0", "number": n, "proposal_ai": ai, "decision_ai": ai, "title": f"Idea {n}",
                       "author": "Oldname", "coauthors": ["Cy"] if n == 10 else [], "text": f"Do thing {n}."}
                      for n, ai, *_ in resolutions],
        "quorum": 2,
        "resolutions": [{"proposal": n, "resolution": {
            "result": result, "strength_for": f, "strength_against": a,
            "votes": [{"voter": voter, "vote": vote, "comments": [{"kind": "endorsement", "parameters": []}]
                       if voter == "Cy" and vote == "FOR" else []} for voter, vote in votes]},
            "strengths": [{"person": person, "initial": 3, "modifications": [], "final": strength}
                          for person, strength in strengths.items()]}
            for n, _, result, votes, strengths, f, a in resolutions]})


@pytest.fixture
def records(tmp_path):
    ruleset, assessor = tmp_path / "ruleset", tmp_path / "assessor"
    r101 = rule_file(101, "The Game", "3", GAME_TEXT, [FIRST], annotation="Rulings stay with the rule.")
    r102 = rule_file(102, "Voting", "1", VOTING_TEXT, [FIRST])
    git_commit(ruleset, "Start", {"rules_data/config/index": index(101, 102), "rules_data/rules/101": r101,
                                  "rules_data/rules/102": r102, "name_replacement_data": "Oldname:Newname\n",
                                  "rules_data/proposals/12": "id: '12'\ntitle: Quick fix\nauthor: Bea\npower: '1.0'\n"},
               date="2020-01-01T12:00:00")
    amended_history = [FIRST, ("amendment", "2020-01-30", 'proposal: "10"')]
    git_commit(ruleset, "Proposal 10", {"rules_data/rules/102": rule_file(102, "Voting", "1", "Each ballot counts "
                                                                          "once.", amended_history)},
               date="2020-02-01T12:00:00")
    r104 = rule_file(104, "Brief", "1", "A brief rule.", [("enactment", "2020-02-05", 'proposal: "11"')])
    git_commit(ruleset, "Proposal 11", {"rules_data/config/index": index(101, 102, 104),
                                        "rules_data/rules/104": r104}, date="2020-02-05T10:00:00")
    r104_gone = rule_file(104, "Brief", "1", "A brief rule.", [("enactment", "2020-02-05", 'proposal: "11"'),
                                                                ("repeal", "2020-02-05", 'proposal: "12"')])
    git_commit(ruleset, "Proposal 12", {"rules_data/config/index": index(101, 102), "rules_data/rules/104": r104_gone},
               date="2020-02-05T11:00:00")
    cleaned = amended_history + [("amendment", "2020-05-32", "cleaning:\n      by: Oldname")]
    git_commit(ruleset, "Oldname cleans Rule 102", {
        "rules_data/rules/102": rule_file(102, "Voting", "1", "Each ballot counts once only.", cleaned),
        "rules_data/rules/105": "# id: 105\n# name: Pending\n# text: |\n#   Not yet.\n"},
        date="2020-03-01T12:00:00")
    git_commit(ruleset, "Proposal 14", {"rules_data/rules/101": rule_file(
        101, "The Whole Game", "2", GAME_TEXT, [FIRST, ("power-change", "2020-03-10", 'proposal: "14"'),
                                                 ("retitling", "2020-03-10", 'proposal: "14"')],
        annotation="Rulings stay with the rule.")}, date="2020-03-11T12:00:00")

    git_commit(assessor, "Code", {"README.md": "The Assessor's tools.\n"})
    subprocess.run(["git", "-C", str(assessor), "checkout", "-q", "--orphan", "gh-pages"], check=True)
    subprocess.run(["git", "-C", str(assessor), "rm", "-q", "-rf", "."], check=True)
    git_commit(assessor, "10-11", {"json/10-11.txt": batch(
        (10, "1.0", "ADOPTED", [("Oldname", "FOR"), ("Bea", "FOR"), ("Cy", "AGAINST"), ("Dee", "PRESENT")],
         {"Bea": 5}, 8, 3),
        (11, "1.0", "ADOPTED", [("Bea", "FOR"), ("Cy", "FOR")], {}, 6, 0))}, date="2020-02-06T12:00:00")
    git_commit(assessor, "13-14", {"json/13-14.txt": batch(
        (13, "1.0", "REJECTED", [("Bea", "AGAINST"), ("Cy", "FOR")], {}, 3, 3),
        (14, "3.0", "FAILED_QUORUM", [("Bea", "FOR")], {}, 3, 0))}, date="2020-03-02T12:00:00")
    git_commit(assessor, "14A and 16", {"json/14A-16.txt": batch(
        (14, "3.0", "ADOPTED", [("Bea", "FOR"), ("Cy", "FOR")], {}, 6, 0),
        (16, "1.0", "REJECTED", [("Bea", "AGAINST"), ("Cy", "AGAINST")], {}, 0, 6))}, date="2020-03-12T12:00:00")
    return ruleset, assessor


def run_import(tmp_path, capsys, *args: str) -> tuple[int, dict[str, str], str]:
    out = tmp_path / "agora"
    code = main(["import", "agora", *args, "-o", str(out)])
    captured = capsys.readouterr()
    files = {p.relative_to(out).as_posix(): p.read_text(encoding="utf-8") for p in out.rglob("*") if p.is_file()} \
        if out.exists() else {}
    return code, files, captured.out + captured.err


def entries(log: str) -> dict[str, str]:
    return {part.split("\n", 1)[0]: part for part in re.split(r"^## ", log, flags=re.MULTILINE)[1:]}


def test_the_two_records_become_one_game(tmp_path, capsys, records) -> None:
    ruleset, assessor = records
    code, files, said = run_import(tmp_path, capsys, "--ruleset", str(ruleset), "--assessor", str(assessor))
    # The cleaning's date, 2020-05-32, is no day: the one problem, on standard error and in IMPORT.md.
    no_day = re.compile(r'rules_data/rules/102 at [0-9a-f]{10}: the history entry\'s date "2020-05-32" is not a day: '
                        r'dated by the commit')
    assert code == 1 and no_day.search(said) and said.count(" at ") == 1, said
    assert sorted(files) == ["IMPORT.md", "game.toml", "log/2020.md", "rules.md"]
    log = entries(files["log/2020.md"])
    assert list(log) == ["Proposal 10: Idea 10", "Proposal 11: Idea 11", "Proposal 12: Quick fix",
                         "Event: Cleaning (Newname): rule 102", "Proposal 13: Idea 13", "Proposal 14: Idea 14",
                         "Proposal 14A: Idea 14", "Unrecorded: 15", "Proposal 16: Idea 16"]
    ten = log["Proposal 10: Idea 10"]
    # The batch lists only Bea's strength: the others have what F = 8 leaves, 3 each.
    assert ("Proposer: Newname\nCo-authors: Cy\nDate: 2020-01-30\nIndex: 1.0\nQuorum: 2\n"
            "Votes: for Newname x3, Bea x5; against Cy x3; present Dee x3\nResult: adopted\n") in ten
    assert "Amend rule 102 to read:\n\n> ```\n> Each ballot counts once.\n> ```" in ten
    assert "As proposed:\n\n```\nDo thing 10.\n```" in ten  # the proposal's text, verbatim
    # Where it comes from, as links to the Assessor's report and the Rulekeepor's commit on GitHub.
    assert re.search(r"Assessor: \[10-11\.txt\]\(https://github\.com/AgoraNomic/assessor/blob/gh-pages/10-11\.txt\)\. "
                     r"Rulekeepor: \[[0-9a-f]{10}\]\(https://github\.com/AgoraNomic/ruleset/commit/[0-9a-f]{40}\)\.", ten)
    assert "Enact power 1 rule 104: Brief\n\n> ```\n> A brief rule.\n> ```" in log["Proposal 11: Idea 11"]
    twelve = log["Proposal 12: Quick fix"]  # the Rulekeepor applied it; the Assessor has no JSON for it
    assert "Proposer: Bea\nDate: 2020-02-05\nPower: 1.0\nResult: adopted\n" in twelve and "Repeal rule 104." in twelve
    cleaning = log["Event: Cleaning (Newname): rule 102"]
    assert "Date: 2020-03-01\nBy: cleaning (Newname)" in cleaning  # 2020-05-32 is no day: the commit's date
    assert "Votes: against Bea x3; present" not in log["Proposal 13: Idea 13"]
    assert "Result: defeated" in log["Proposal 13: Idea 13"]
    assert "Result: failed-quorum" in log["Proposal 14: Idea 14"]
    fourteen = log["Proposal 14A: Idea 14"]
    assert "Change the power of rule 101 to 2." in fourteen and 'Retitle rule 101 to "The Whole Game".' in fourteen
    assert "Ballots the Assessor resolved: Cy (endorsement)." in log["Proposal 11: Idea 11"]
    rules = files["rules.md"]
    assert ("### 101. The Game\nPower: 3\nRevision: 0\nHistory: Enacted by P1, 2019-12-01\n\n```\n" + GAME_TEXT
            + "\n```\n\nAnnotation: CFJ 77 (called 2019-05-01): Rulings stay with the rule.") in rules
    toml = files["game.toml"]
    assert 'players = [\n  "Bea",\n  "Cy",\n  "Dee",\n  "Newname",\n]' in toml
    assert "next_rule = 103" in toml and "first_proposal = 10" in toml and "power_exempt = 3.0" in toml
    report = files["IMPORT.md"]
    assert "- Decisions: 7 proposal entries (4 adopted, 2 defeated, 1 failed-quorum), 13 ballots, 1 decided again." in report
    assert "- Unrecorded numbers: 15." in report
    assert "## Problems in the record (1)" in report and no_day.search(report)
    assert "## Commented out whole (read as absent) (1)" in report
    assert "## Applied by the Rulekeepor, not in the Assessor's record (1)" in report
    assert "Oldname -> Newname" in report


def test_the_same_clones_give_the_same_files(tmp_path, capsys, records) -> None:
    ruleset, assessor = records
    first = run_import(tmp_path / "a", capsys, "--ruleset", str(ruleset), "--assessor", str(assessor))[1]
    second = run_import(tmp_path / "b", capsys, "--ruleset", str(ruleset), "--assessor", str(assessor))[1]
    assert first == second


def test_from_and_to_choose_the_proposals(tmp_path, capsys, records) -> None:
    ruleset, assessor = records
    code, files, said = run_import(tmp_path, capsys, "--ruleset", str(ruleset), "--assessor", str(assessor),
                                   "--from", "11", "--to", "13")
    assert code == 1, said  # the cleaning's date, which is no day
    log = entries(files["log/2020.md"])
    assert [h for h in log if h.startswith("Proposal")] == ["Proposal 11: Idea 11", "Proposal 12: Quick fix",
                                                            "Proposal 13: Idea 13"]
    assert "Each ballot counts once." in files["rules.md"]  # proposal 10's change is before the start


@needs_1_2
def test_the_imported_game_checks(tmp_path, capsys, records) -> None:
    ruleset, assessor = records
    assert run_import(tmp_path, capsys, "--ruleset", str(ruleset), "--assessor", str(assessor))[0] == 1
    code = main(["check", str(tmp_path / "agora")])
    assert code == 0, capsys.readouterr()


def test_refusals_name_the_problem(tmp_path, capsys, records) -> None:
    ruleset, assessor = records
    cases = [(["--ruleset", str(tmp_path)], "--ruleset: is not a git repository"),
             (["--ruleset", str(ruleset), "--from", "ten"], "--from: must be a proposal number, such as 8253"),
             (["--ruleset", str(ruleset), "--assessor", str(ruleset)], "has no gh-pages branch")]
    for args, message in cases:
        code, files, said = run_import(tmp_path, capsys, *args)
        assert code == 2 and message in said and "Traceback" not in said, said
        assert files == {}
    with pytest.raises(SystemExit) as stopped:  # argparse's usage error
        main(["import", "agora", "-o", str(tmp_path / "agora")])
    assert stopped.value.code == 2
    assert "the following arguments are required: --ruleset" in capsys.readouterr().err


def test_unreadable_batches_and_odd_values_are_reported_not_fatal(tmp_path, capsys, records) -> None:
    ruleset, assessor = records
    odd = {"proposals": "none", "quorum": "many", "resolutions": [1, {"proposal": 17, "resolution": {
        "result": "ADOPTED", "strength_for": "x", "votes": [{"voter": "Bea", "vote": "FOR", "comments": "no"},
                                                            {"voter": 5, "vote": "FOR"}, "junk"]}}]}
    git_commit(assessor, "odd batches", {"json/17.txt": json.dumps(odd), "json/broken.txt": "{not json"},
               date="2020-03-20T12:00:00")
    git_commit(ruleset, "Proposal 18", {"rules_data/rules/102": "id: 102\nname: [unclosed\n"},
               date="2020-03-21T12:00:00")
    code, files, said = run_import(tmp_path, capsys, "--ruleset", str(ruleset), "--assessor", str(assessor))
    assert code == 1, said
    log = entries(files["log/2020.md"])
    # No author to write it with: its number is unrecorded, saying what the Assessor holds, never "unknown".
    assert "Proposal 17: The Assessor resolved it ADOPTED (17.txt), with the ballots for Bea x3, naming no author." \
        in log["Unrecorded: 17"] and "unknown" not in files["log/2020.md"] + files["game.toml"]
    tip = subprocess.run(["git", "-C", str(assessor), "rev-parse", "--short=10", "gh-pages"], capture_output=True,
                         text=True, check=True).stdout.strip()
    for problem in (f"json/broken.txt at {tip}, line 1: not JSON: Expecting property name enclosed in double quotes; "
                    "none of its decisions is read",
                    f"json/17.txt at {tip}: its proposals are not a list: its decisions are written without their "
                    "titles, authors and texts",
                    f"json/17.txt at {tip}: its quorum 'many' is not a whole number of ballots (of at most 12 digits): "
                    "its decisions are written without a Quorum",
                    f"json/17.txt at {tip}: a resolution that is not an object with a resolution (1): left out",
                    f"json/17.txt at {tip}: proposal 17: 2 ballots without a voter or a FOR, AGAINST or PRESENT vote, "
                    "left out"):
        assert problem in said and problem in files["IMPORT.md"], problem
    assert re.search(r"rules_data/rules/102 at [0-9a-f]{10}, line 3: not YAML: did not find expected ',' or ']' "
                     r"\(while parsing a flow sequence at line 2\); the rule is read as it was before", said)


def test_the_notes_of_proposals_before_the_log_become_earlier_md(tmp_path, capsys, records) -> None:
    """The Rulekeepor's notes of proposals the log does not hold (numbered below its first) are earlier.md (format
    1.4): each with his note's title, authors, power and date, else the date of the history entry crediting it; a
    note named by no number is listed in IMPORT.md; a proposal the log holds is the log's alone."""
    ruleset, assessor = records
    git_commit(ruleset, "Notes of old proposals", {
        "rules_data/proposals/1": "id: '1'\ntitle: The first\nauthor: Oldname\ncoauthors:\n- Bea\n",
        "rules_data/proposals/3": "id: '3'\nname: Undated idea\nauthor: Cy\ndate: 2019-06-02\npower: '2.0'\n"
                                  "chamber: Economy\ndisinterested: true\n",
        "rules_data/proposals/5": "id: '5'\n",
        "rules_data/proposals/Two Words": "id: Two Words\nauthor: Bea\n",
        "rules_data/proposals/10": "id: '10'\ntitle: Idea 10 as noted\nauthor: Oldname\n"},
        date="2020-03-12T12:00:00")
    code, files, said = run_import(tmp_path, capsys, "--ruleset", str(ruleset), "--assessor", str(assessor))
    assert code == 1, said
    earlier = entries(files["earlier.md"])
    assert list(earlier) == ["Proposal 1: The first", "Proposal 3: Undated idea", "Proposal 5"]
    # named as now (Oldname -> Newname); dated by the history entry that credits it with rule 101's enactment
    assert earlier["Proposal 1: The first"].startswith("Proposal 1: The first\nProposer: Newname\nCo-authors: Bea\n"
                                                       "Date: 2019-12-01\n\nThe Rulekeepor's note: [rules_data/"
                                                       "proposals/1](https://github.com/AgoraNomic/ruleset/blob/")
    assert "Proposer: Cy\nDate: 2019-06-02\nPower: 2.0\nNote: The Rulekeepor's note says: chamber Economy; " \
           "disinterested.\n" in earlier["Proposal 3: Undated idea"]
    assert earlier["Proposal 5"].startswith("Proposal 5\n\nThe Rulekeepor's note:")  # no author, no date: none said
    assert "- Two Words (rules_data/proposals/Two Words): the format numbers proposals" in files["IMPORT.md"]
    assert "- earlier.md: 3 proposals numbered below the log's first" in files["IMPORT.md"]
    assert main(["check", str(tmp_path / "agora")]) == 0, capsys.readouterr()
    site = tmp_path / "site"
    assert main(["build", str(tmp_path / "agora"), "-o", str(site)]) == 0
    page = (site / "agora" / "rules" / "101.html").read_text(encoding="utf-8")
    assert 'Enacted by <a href="../proposals/1.html">P1</a> &#39;The first&#39; (Newname, Bea)' in page
    assert "Known from the record only" in (site / "agora" / "proposals" / "1.html").read_text(encoding="utf-8")
