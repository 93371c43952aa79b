"""`import git` reading a game's proposals kept a file each (proposalfiles.py), as dracoling/smrshnomic keeps them:
`proposals/active/N.md` with a heading, an author, a status and dates, moved into `succeeded/`, `failed/` or
`withdrawn/` when decided, in the commit that changed the rules (whatever its subject says)."""
from __future__ import annotations

import re

import pytest

from generator.importers.proposalfiles import ProposalFolder, find_folder, read_folder, read_proposal
from helpers import git_commit
from test_import_git import check, entries, imported, imported_log

RULES = """# Rules

## 101
Everyone follows the rules in force.

## 201
Quorum is half the players.
"""


def proposal(number: int, author: str, status: str, text: str, closed: str = "") -> str:
    return (f"Proposal #{number}\n=============\n* Author: {author}\n* Entered: 2020-01-02 10:00:00\n"
            f"* Status: {status}\n" + (f"* Vote closed: {closed} 0:00:00\n" if closed else "") +
            f"\n__Proposal:__\n{{\n\n{text}\n\n}}\n")


def moved(number: int, author: str, result: str, text: str, closed: str, status: str = "") -> dict[str, str | None]:
    return {f"proposals/active/{number}.md": None,
            f"proposals/{result}/{number}.md": proposal(number, author, status or result, text, closed)}


ENACT = "This proposal creates a new rule with the following text:\n\n    Tea is served at four."
AMEND = "This proposal amends rule 201 to read: Quorum is two players."
REPEAL = "This proposal deletes rule 301."


@pytest.fixture
def filed_game(tmp_path):
    """Five proposals: 301 adopted (a rule enacted), 302 failed, 303 and 304 adopted in one commit (an amendment,
    a repeal: each change to the proposal whose text names its rule), 305 moved to succeeded/ with its Status left
    at `voting` by a commit that changed no rule."""
    repo = tmp_path / "repo"
    git_commit(repo, "Let the game begin", {"rules.md": RULES}, date="2020-01-01T12:00:00")
    git_commit(repo, "First proposals", {"proposals/active/301.md": proposal(301, "Ann", "voting", ENACT),
                                         "proposals/active/302.md": proposal(302, "Bo", "voting", "Points double.")},
               date="2020-01-02T12:00:00", author="Kee")
    git_commit(repo, "New Rule 318; Proposal #302 fails", {  # (the subject is the keeper's slip: the files say 301)
        **moved(301, "Ann", "succeeded", ENACT, "2020-01-05"), **moved(302, "Bo", "failed", "Points double.",
                                                                        "2020-01-05"),
        "rules.md": RULES + "\n## 301\nTea is served at four.\n"}, date="2020-01-05T12:00:00", author="Kee")
    git_commit(repo, "More", {"proposals/active/303.md": proposal(303, "Cy", "voting", AMEND),
                              "proposals/active/304.md": proposal(304, "Ann", "voting", REPEAL),
                              "proposals/active/305.md": proposal(305, "Bo", "voting", "Ann gets a point.")},
               date="2020-01-06T12:00:00", author="Kee")
    git_commit(repo, "Things happened", {
        **moved(303, "Cy", "succeeded", AMEND, "2020-01-09"), **moved(304, "Ann", "succeeded", REPEAL, "2020-01-09"),
        "rules.md": RULES.replace("half the players", "two players")}, date="2020-01-09T12:00:00", author="Kee")
    git_commit(repo, "Points", moved(305, "Bo", "succeeded", "Ann gets a point.", "2020-01-10", status="voting"),
               date="2020-01-10T12:00:00", author="Kee")
    return repo


def test_the_proposal_files_are_the_record_of_the_proposals(tmp_path, capsys, filed_game) -> None:
    files, log, said = imported_log(tmp_path, capsys, filed_game, "--rules", "rules.md")
    assert list(log) == ["Proposal 301", "Proposal 302", "Proposal 303", "Proposal 304", "Proposal 305"]
    # the commit that moved 301's file into succeeded/ carried it out, proposed by its file's author, not its committer
    # and not titled by the commit's subject
    assert log["Proposal 301"].startswith("Proposal 301\nProposer: Ann\nDate: 2020-01-05\nResult: adopted\n\nEnact rule "
                                          "301")
    # a failed proposal: its file's result and day, and no Votes line (its ballots are not in the file)
    # and its own words, as proposed (never read as changes)
    assert log["Proposal 302"] == ("Proposal 302\nProposer: Bo\nDate: 2020-01-05\nResult: defeated\n\nIts file "
                                   "`proposals/failed/302.md` says: failed.\n\nAs proposed:\n\n> Points double.\n\n")
    assert "As proposed:\n\n> This proposal deletes rule 301.\n" in log["Proposal 304"]
    # one commit, two proposals: each change to the proposal whose text names its rule
    assert "Amend rule 201" in log["Proposal 303"] and "Repeal" not in log["Proposal 303"]
    assert "Repeal rule 301." in log["Proposal 304"] and "Amend" not in log["Proposal 304"]
    assert "proposal 303 by Cy; proposal 304 by Ann  # the record: its proposals' files 303.md, 304.md, moved to " \
        "proposals/succeeded/ by this commit" in files["corrections.txt"]
    # what the files say that was not taken as it stands, at the file's line
    assert "proposals/succeeded/305.md:5: it says 'voting', its folder succeeded/: read as adopted, as its folder" \
        in said
    assert "proposals/succeeded/305.md:5: proposal 305 succeeded/, and no commit that changed the rules made its file " \
        "say so: its entry holds no change" in said
    assert "## The proposal files: what was not taken as it stands" in files["IMPORT.md"]
    assert "- Decisions: 5 in the game's own proposal files, a file each in `proposals/` (4 adopted, 1 defeated)" \
        in files["IMPORT.md"]
    assert check(capsys, tmp_path / "game")[0] == 0


def test_a_records_file_names_the_folder_and_fields_a_guess_misses(tmp_path, capsys) -> None:
    repo = tmp_path / "repo"
    git_commit(repo, "Start", {"rules.md": RULES})
    motion = "# {n}\n\n- Mover: {who}\n- Verdict: {result}\n\nThe motion.\n"
    git_commit(repo, "Motions", {"motions/7.md": motion.format(n=7, who="Ann", result="aye"),
                                 "motions/8.md": motion.format(n=8, who="Bo", result="nay"),
                                 "rules.md": RULES + "\n## 7\nMotions are numbered.\n"}, author="Kee")
    # the usual names miss: no folder of proposals is found, and the commit's number is a guess
    files, log, said = imported_log(tmp_path, capsys, repo, "--rules", "rules.md")
    assert "Decisions:" not in files["IMPORT.md"] and "guessed" in said
    records = tmp_path / "records.toml"
    records.write_text('[proposals]\nfolder = "motions"\nproposer = "Mover"\nresult = "Verdict"\n'
                       'results = { aye = "adopted", nay = "defeated" }\n', encoding="utf-8")
    code, files, said = imported(tmp_path, capsys, repo, "--rules", "rules.md", "--records", str(records), out="named")
    assert code == 0, said
    assert "Proposal 7\nProposer: Ann\n" in files["log.md"] and "Enact rule 7" in files["log.md"]
    assert "Proposal 8\nProposer: Bo\nDate: 2020-01-01\nResult: defeated\n" in files["log.md"]
    assert "the folder the records file names" in files["IMPORT.md"]


@pytest.mark.parametrize("records, message", [
    ('[proposals]\nfolder = "motions"\nfile = "m.json"\n',
     "records.toml:2: proposals.folder: names a folder of proposal files, and file a file of proposals: name one"),
    ('[proposals]\nfolder = "nowhere"\n',
     "the records file's proposals.folder: no file in nowhere/ at commit"),
])
def test_a_folder_the_records_file_cannot_name_is_refused(tmp_path, capsys, filed_game, records, message) -> None:
    path = tmp_path / "records.toml"
    path.write_text(records, encoding="utf-8")
    code, files, said = imported(tmp_path, capsys, filed_game, "--rules", "rules.md", "--records", str(path))
    assert code == 2 and files == {} and not (tmp_path / "game" / "log.md").exists(), said
    assert message in said, said


def test_what_a_proposals_file_says() -> None:
    folder = ProposalFolder("proposals")
    # YAML front matter, a heading giving the title; the Status read through the usual words
    read = read_proposal("proposals/12.md", "---\nauthor: Kit\nstatus: Passed (5-2)\ndate: 2021-03-04\n---\n"
                         "# Proposal 12: Dice\n\nRoll them.\n", folder)
    assert (read.number, read.decision.proposer, read.decision.result, read.decision.date, read.decision.title,
            read.decision.text) == (12, "Kit", "adopted", "2021-03-04", "Dice", "Roll them.")
    # a field of the front matter said at its own line
    read = read_proposal("proposals/14.md", "---\ntitle: Tea\n# the keeper's\n\"Proposed by\": Kit\nstatus: tabled\n"
                         "---\nTea.\n", folder)
    assert (read.decision.proposer, read.notes) == ("Kit", ((5, "its result 'tabled' is not one the import knows: read "
                                                                "as undecided (the records file's proposals.results "
                                                                "names it)"),))
    # a byline without a colon; the result written alone on the last line, after a section of ballots, neither of
    # them the proposal's words
    read = read_proposal("changes/rule-change-41.md", "# Change 41\n\nProposed by Kit/kit9\n\n> Tea at four.\n\n"
                         "## Votes\n\n| Player | Vote |\n|---|---|\n| Kit | For |\n\n*Not passed*\n", folder)
    assert (read.number, read.decision.proposer, read.decision.result, read.decision.said, read.decision.text) == \
        (41, "Kit/kit9", "defeated", "Not passed", "> Tea at four.")
    assert read_proposal("changes/rule-change-42.md", "Proposed by Bo\n\nPoints double.\n\n**Passed (4-1)**\n",
                         folder).decision.result == "adopted"
    # a closing line that is no result is the proposal's words
    read = read_proposal("changes/43.md", "Proposed by Bo\n\nPoints double.\n\nPassed unanimously on Tuesday\n", folder)
    assert (read.decision.result, read.decision.text) == ("", "Points double.\n\nPassed unanimously on Tuesday")
    # bold fields; a heading numbering another than its name (the name's number kept, said); an unknown result
    read = read_proposal("proposals/0013-tea.md", "## Proposal 31\n\n**Proposer:** Bo\n**Status:** tabled\n\nTea.\n",
                         folder)
    assert (read.number, read.decision.proposer, read.decision.result) == (13, "Bo", "")
    assert read.notes == ((1, "its heading numbers it 31, its name 13: read as 13, as its name says"),
                          (4, "its result 'tabled' is not one the import knows: read as undecided (the records file's "
                              "proposals.results names it)"))
    # a blog's posts, named by days, are no proposals; nor a folder of rules
    posts = ["_posts/2025-10-28-minutes.md", "_posts/2025-11-04-minutes.md"]
    assert find_folder(posts, lambda path: "---\nauthor: Kee\n---\n", []) is None
    assert find_folder(["rules/1.md", "rules/2.md"], lambda path: "Status: passed\n", ["rules"]) is None
    assert find_folder(["p/failed/1.md", "p/passed/2.md"], lambda path: "Author: Ann\n", ["rules.md"]) == "p"
    # a Jekyll collection's `_proposals/12.proposal`, front matter naming its fields with hyphens; a picture
    # named by a number beside them is read once, to see, and not counted
    jekyll = {"_p/12.proposal": "---\nproposed-by: Ann\nstatus: failed\n---\nTea.\n",
              "_p/13.proposal": "---\nproposed-by: Bo\nvoting-closed: 2020-01-02\nstatus: passed\n---\nCake.\n",
              "_p/14.png": "\x89PNG"}
    assert find_folder(sorted(jekyll), jekyll.get, ["_rules"]) == "_p"
    read = read_proposal("_p/13.proposal", jekyll["_p/13.proposal"], folder)
    assert (read.decision.proposer, read.decision.result, read.decision.date) == ("Bo", "adopted", "2020-01-02")
    # a label alone before the words, and the braces that set them apart, are not the words; a note after them
    # is kept
    read = read_proposal("proposals/passed/7.md", "* Author: Kit\n\n__Proposal:__\n{\n\nAmend rule 2:\n\n    Tea "
                         "at four.\n\n}\n\nNote: sent to the list as 6.\n", folder)
    assert read.decision.text == "Amend rule 2:\n\n    Tea at four.\n\nNote: sent to the list as 6."
    # braces that do not set the whole apart are the words' own (Agora's {{{ }}})
    read = read_proposal("proposals/passed/8.md", "Author: Kit\n\nIn rule 2, change\n{{{\nTea\n}}}\nto\n{{{\nCake\n}}}\n",
                         folder)
    assert read.decision.text == "In rule 2, change\n{{{\nTea\n}}}\nto\n{{{\nCake\n}}}"
    # files named `rule-change-N.md`, each opening with a byline written without a colon
    assert find_folder(["changes/rule-change-1.md", "changes/rule-change-2.md"], lambda path: "# Change\n\nProposed "
                       "by Ann\n\nTea.\n", ["rules.md"]) == "changes"


def test_a_proposer_written_in_another_case_is_the_one_more_files_write() -> None:
    files = [(f"proposals/{number}.md", f"# Proposal {number}\n\n* Author: {name}\n* Status: failed\n")
             for number, name in ((1, "Renning"), (2, "Renning"), (3, "renning"), (4, "Will"))]
    files.append(("proposals/5.md", "# Proposal 5\n\n* Status: failed\n"))  # (naming nobody)
    read, said = read_folder(files, ProposalFolder("proposals"))
    assert [filed.decision.proposer for filed in read] == ["Renning", "Renning", "Renning", "Will", ""]
    assert said == [("proposals/3.md", 3, "its author 'renning' read as Renning, as 2 other files write the name "
                                          "(a guess)")]


def test_a_status_written_in_place_and_a_file_added_with_the_change_are_the_record_too(tmp_path, capsys) -> None:
    """Two other ways games keep their proposals a file each: front matter whose status the keeper changes in the
    commit that carries the proposal out (`status: open`, then `passed`); and a file added, naming no result, by
    the commit that changes the rules (a pull request bringing its proposal and its change)."""
    repo = tmp_path / "repo"
    front = "---\nproposer: {who}\nstatus: {status}\n---\n# Proposal {n}: {title}\n\nThe text.\n"
    git_commit(repo, "Start", {"rules.md": RULES})
    git_commit(repo, "Open 12 and 13", {"proposals/12.md": front.format(who="Kit", status="open", n=12, title="Dice"),
                                        "proposals/13.md": front.format(who="Lu", status="open", n=13, title="Tea")},
               author="Kee", date="2020-01-02T12:00:00")
    git_commit(repo, "Tuesday", {"proposals/12.md": front.format(who="Kit", status="passed", n=12, title="Dice"),
                                 "proposals/13.md": front.format(who="Lu", status="rejected", n=13, title="Tea"),
                                 "rules.md": RULES + "\n## 12\nDice are rolled.\n"},
               author="Kee", date="2020-01-03T12:00:00")
    git_commit(repo, "Merge", {"proposals/14.md": "# Proposal 14\n\nProposer: Mo\n\nQuorum is two.\n",
                               "rules.md": RULES.replace("half the players", "two") + "\n## 12\nDice are rolled.\n"},
               author="Kee", date="2020-01-04T12:00:00")
    files, log, said = imported_log(tmp_path, capsys, repo, "--rules", "rules.md")
    assert list(log) == ["Proposal 12: Dice", "Proposal 13: Tea", "Proposal 14"]
    assert log["Proposal 12: Dice"].startswith("Proposal 12: Dice\nProposer: Kit\nDate: 2020-01-03\nResult: adopted\n"
                                               "\nEnact rule 12")
    assert "Result: defeated\n\nIts file `proposals/13.md` says: rejected." in log["Proposal 13: Tea"]
    assert log["Proposal 14"].startswith("Proposal 14\nProposer: Mo\nDate: 2020-01-04\nResult: adopted\n\nAmend rule "
                                         "201")
    assert "its proposals' files 12.md, 'passed' written in it by this commit" in files["corrections.txt"]
    assert "its proposals' files 14.md, added to proposals/ with the rules' change (naming no result) by this " \
        "commit" in files["corrections.txt"]
    assert check(capsys, tmp_path / "game")[0] == 0


def test_a_decision_recorded_apart_from_its_change_is_paired_with_the_change_next_to_it(tmp_path, capsys) -> None:
    """A keeper who moves a proposal's file into succeeded/ in one commit and changes the rules in another: the
    change right after or right before the decision, with no other decision between, carried it out; the record
    ties it where both might (the proposal's text names the rule changed, the rule enacted is numbered as it); where
    nothing does, neither is read as it, and that is said at the file's line."""
    repo = tmp_path / "repo"
    ann_point, double = "Ann gets a point.", "Points double."
    git_commit(repo, "Start", {"rules.md": RULES}, date="2020-01-01T12:00:00")
    git_commit(repo, "Open", {f"proposals/active/{n}.md": proposal(n, who, "voting", text) for n, who, text in (
        (301, "Ann", ENACT), (302, "Bo", AMEND), (303, "Cy", ann_point), (304, "Dee", double),
        (305, "Eve", "Nothing."))}, date="2020-01-02T12:00:00", author="Kee")
    day = iter(range(3, 20))

    def commit(subject: str, files: dict[str, str | None]) -> None:
        git_commit(repo, subject, files, date=f"2020-01-{next(day):02}T12:00:00", author="Kee")

    tea = RULES + "\n## 301\nTea is served at four.\n"
    commit("Votes counted", moved(301, "Ann", "succeeded", ENACT, "2020-01-03"))        # the decision, then
    commit("Done", {"rules.md": tea})                                                  # its change
    commit("Tuesday", {"rules.md": tea.replace("half the players", "two players")})   # a change, then
    commit("Votes counted", moved(302, "Bo", "succeeded", AMEND, "2020-01-06"))        # its decision (text: rule 201)
    rules = tea.replace("half the players", "two players")
    commit("Wednesday", {"rules.md": (rules := rules.replace("Tea is", "Coffee is"))})
    commit("Votes counted", moved(303, "Cy", "succeeded", ann_point, "2020-01-08"))    # between two changes: unsure
    commit("Thursday", {"rules.md": (rules := rules + "\n## 9\nAnn has a point.\n")})
    commit("Votes counted", moved(305, "Eve", "failed", "Nothing.", "2020-01-10"))     # another decision, then
    commit("Votes counted", moved(304, "Dee", "succeeded", double, "2020-01-11"))      # one change next to it
    commit("Friday", {"rules.md": rules + "\n## 10\nPoints count double.\n"})
    files, log, said = imported_log(tmp_path, capsys, repo, "--rules", "rules.md")
    assert list(log) == ["Proposal 301", "Proposal 302", "Event: Wednesday", "Proposal 303", "Event: Thursday",
                         "Proposal 305", "Proposal 304"]
    assert "Proposer: Ann\n" in log["Proposal 301"] and "Enact rule 301" in log["Proposal 301"]
    assert "Proposer: Bo\n" in log["Proposal 302"] and "Amend rule 201" in log["Proposal 302"]
    assert "Enact rule 10" in log["Proposal 304"]
    assert "Enact" not in log["Proposal 303"] and "Amend" not in log["Proposal 303"]
    assert re.search(r"commit \S+ proposal 301 by Ann +# the record: its proposals' files 301.md, moved to "
                     r"proposals/succeeded/ by commit \S+, the decision just before this one", files["corrections.txt"])
    assert re.search(r"commit \S+ proposal 302 by Bo +# the record: its proposals' files 302.md, moved to "
                     r"proposals/succeeded/ by commit \S+, the decision just after this one", files["corrections.txt"])
    # the keeper's own changes between: no proposal's
    assert "By: Kee, no proposal" in log["Event: Wednesday"] and "By: Kee, no proposal" in log["Event: Thursday"]
    # the one change next to a decision, which nothing in the record ties to it: a guess, said
    assert re.search(r"commit \S+: proposal 304 by Dee: guessed: it carries out proposal 304, decided by commit \S+ "
                     r"just before it \(nothing in the record ties them", said)
    assert "proposals/succeeded/303.md:5: proposal 303 was decided by commit" in said
    assert "neither tied to it by the record: neither is read as carrying it out (a corrections line `commit ID " \
        "proposal 303` names the one that did)" in said
    assert "303.md:5: proposal 303 succeeded/, and no commit" not in said
    assert check(capsys, tmp_path / "game")[0] == 0


def decisions_around_a_change(repo, subject: str, second: str):
    """Proposal 7 decided in a commit of its own, then a change of the rules titled `subject`, then proposal 8's
    decision (`second`: succeeded, failed)."""
    git_commit(repo, "Start", {"rules.md": RULES}, date="2020-01-01T12:00:00")
    git_commit(repo, "Open", {"proposals/active/7.md": proposal(7, "Ann", "voting", "Points double."),
                              "proposals/active/8.md": proposal(8, "Bo", "voting", "Tea at four.")},
               date="2020-01-02T12:00:00", author="Kee")
    git_commit(repo, "Counted", moved(7, "Ann", "succeeded", "Points double.", "2020-01-03"),
               date="2020-01-03T12:00:00", author="Kee")
    git_commit(repo, subject, {"rules.md": RULES + "\n## 9\nPoints count double.\n"}, date="2020-01-04T12:00:00",
               author="Kee")
    git_commit(repo, "Counted", moved(8, "Bo", second, "Tea at four.", "2020-01-05"), date="2020-01-05T12:00:00",
               author="Kee")


def test_one_change_between_two_decisions_the_record_ties_to_neither_carries_out_neither(tmp_path, capsys) -> None:
    decisions_around_a_change(tmp_path / "repo", "Rules", "succeeded")
    files, log, said = imported_log(tmp_path, capsys, tmp_path / "repo", "--rules", "rules.md")
    for number in (7, 8):
        assert re.search(rf"proposals/succeeded/{number}.md:5: proposal {number} was decided by commit \S+, which "
                         r"changed no rule, and so were others beside commit \S+, the one that changed the rules "
                         rf"between them: it is not read as carrying out any of them \(a corrections line `commit \S+ "
                         rf"proposal {number}` says it did\)", said), said
    assert "Enact rule 9" not in log["Proposal 7"] + log["Proposal 8"]


def test_a_change_whose_title_names_another_proposal_is_not_paired_with_a_decision_apart(tmp_path, capsys) -> None:
    decisions_around_a_change(tmp_path / "repo", "Proposal 9", "failed")
    files, log, said = imported_log(tmp_path, capsys, tmp_path / "repo", "--rules", "rules.md")
    assert "Enact rule 9" in log["Proposal 9"] and "Enact" not in log["Proposal 7"]
    assert "proposals/succeeded/7.md:5: proposal 7 succeeded, and no commit that changed the rules made its file " \
        "say so" in said


def test_a_proposal_text_past_the_cap_is_left_out_and_said(tmp_path, capsys) -> None:
    """A proposal's own words longer than a rule's text may be (100,000 characters) are not its As proposed: the
    import says so, at its file, and the rest of the game is read."""
    repo = tmp_path / "repo"
    git_commit(repo, "Let the game begin", {"rules.md": RULES}, date="2020-01-01T12:00:00")
    long = "\n\n".join(["Tea is served at four, and the kettle is kept warm."] * 2_000)
    git_commit(repo, "Proposals", {"proposals/active/301.md": proposal(301, "Ann", "voting", long),
                                   "proposals/active/302.md": proposal(302, "Bo", "voting", "Points double.")},
               date="2020-01-02T12:00:00", author="Kee")
    git_commit(repo, "Decided", {**moved(301, "Ann", "succeeded", long, "2020-01-05"),
                                 **moved(302, "Bo", "failed", "Points double.", "2020-01-05"),
                                 "rules.md": RULES + "\n## 301\nTea is served at four.\n"},
               date="2020-01-05T12:00:00", author="Kee")
    code, files, said = imported(tmp_path, capsys, repo, "--rules", "rules.md")
    assert code == 1
    assert ("proposals/succeeded/301.md: proposal 301: its text, of 105,998 characters, is left out (a text as "
            "proposed may hold at most 100,000)") in said
    log = entries(files["log.md"])
    assert "As proposed" not in log["Proposal 301"] and "As proposed:\n\n> Points double." in log["Proposal 302"]
    assert check(capsys, tmp_path / "game")[0] == 0
