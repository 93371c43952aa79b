"""preview: a draft against the rules in force, its numbers, votes and objections, as a page and as text."""
from __future__ import annotations

import os
import stat
import sys
import tempfile

import pytest

from generator.cli import main
from generator.pipeline import replay_games
from generator.errors import ErrorCollector
from generator.parse.log import parse_draft
from generator.preview import preview_draft
from tests.helpers import tree_digest
from tests.test_serve import write_game

HEAD = "## Proposal: {title}\nProposer: Ann\nDate: 2001-02-01\n{votes}\n"


def draft_text(body: str, *, title: str = "Draft", votes: str = "") -> str:
    return HEAD.format(title=title, votes=f"Votes: {votes}" if votes else "") + "\n" + body


@pytest.fixture
def game(tmp_path):
    return write_game(tmp_path / "content")


def preview(game, body: str, **kwargs):
    (base,) = replay_games(game)
    errors = ErrorCollector()
    draft = parse_draft("drafts/d.md", draft_text(body, **kwargs), errors)
    assert not errors.errors, errors.errors
    return preview_draft(base, draft)


def kinds(result) -> list[str]:
    return [o.kind for o in result.objections]


def test_an_amendment_takes_the_next_proposal_number(game):
    result = preview(game, 'Amend rule 201 by replacing "clockwise" with "any".')
    assert result.number == 304 and result.objections == ()
    change, = result.changes
    assert (change.kind, change.before_number, change.number) == ("changed", 201, 304)
    assert 'replaced "clockwise" with "any"' in change.summary and "rule 201 would become rule 304" in change.summary
    assert "<del" in change.html and "<ins" in change.html
    assert change.rule_page == "rules/201.html"


def test_an_enactment_is_numbered_and_has_no_page_yet(game):
    result = preview(game, "Repeal rule 203.\n\nEnact rule: Dice\n\n> Throw two dice.")
    assert [(c.kind, c.number, c.rule_page) for c in result.changes] == [
        ("repealed", 203, "rules/203.html"), ("enacted", 304, None)]


def test_a_drafted_number_gives_way_to_the_next_one(game):
    (base,) = replay_games(game)
    errors = ErrorCollector()
    draft = parse_draft("drafts/d.md", "## Proposal 350: Late\nProposer: Ann\nDate: 2001-02-01\n\n"
                        "Repeal rule 203.\n", errors)
    result = preview_draft(base, draft)
    assert result.number == 304 and result.drafted_number == 350
    assert "drafted as proposal 350, but the next proposal is 304" in result.notes


def test_a_phrase_not_found_is_an_objection_and_the_rest_still_shows(game):
    result = preview(game, 'Amend rule 201 by replacing "anticlockwise" with "any".\n\nRepeal rule 203.')
    assert kinds(result) == ["phrase"]
    assert result.objections[0].where == "drafts/d.md:6"
    assert '"anticlockwise" is not in rule 201' in result.objections[0].message
    assert [c.number for c in result.changes] == [203]


def test_a_rule_that_does_not_exist_is_an_objection(game):
    result = preview(game, "Amend rule 202 to read:\n\n> Anything.")
    assert kinds(result) == ["no-such-rule"]
    assert "there is no rule 202: it became rule 301" in result.objections[0].message


def test_the_mutable_cap_is_an_objection(game):
    result = preview(game, "Enact rule: Fifth\n\n> One too many.")
    assert kinds(result) == ["mutable-cap"]
    assert "5 mutable rules; at most 4" in result.objections[0].message


def test_amending_an_immutable_rule_is_an_objection(game):
    result = preview(game, "Amend rule 101 to read:\n\n> Nobody must.")
    assert kinds(result) == ["immutable"]


def test_a_transmutation_without_unanimity_is_an_objection(game):
    (game / "game.toml").write_text((game / "game.toml").read_text() + '[adoption]\nmethod = "majority"\n')
    result = preview(game, "Transmute rule 303 to immutable.", votes="for Ann, Ben; against Cat")
    assert kinds(result) == ["transmutation"]
    assert result.vote.result == "defeated" and result.vote.method == "unanimity"
    assert "it transmutes a rule, so it needs unanimity (not a simple majority)" in result.notes
    unanimous = preview(game, "Transmute rule 303 to immutable.", votes="for Ann, Ben, Cat")
    assert unanimous.objections == () and unanimous.vote.result == "adopted"
    assert [(c.before_number, c.number, c.rule_class) for c in unanimous.changes] == [(303, 304, "immutable")]


def test_hypothetical_votes_follow_the_current_adoption_method(game):
    result = preview(game, "Repeal rule 203.", votes="for Ann, Ben; against Cat")
    assert (result.vote.result, result.vote.method, result.vote.tally) == ("defeated", "unanimity", "2 for, 1 against")
    assert preview(game, "Repeal rule 203.").vote is None


def test_a_draft_changing_nothing_previews_without_objections(game):
    result = preview(game, "Players should be kind.")
    assert result.changes == () and result.objections == ()


# --- The command -------------------------------------------------------------------------------------


@pytest.fixture
def draft(game):
    (game / "drafts").mkdir()
    path = game / "drafts" / "kind.md"
    path.write_text("## Proposal 304: Be <script>alert(1)</script> kind\nProposer: Ann\nDate: 2001-02-01\n"
                    "Votes: for Ann, Ben; against Cat\n\n"
                    'Amend rule 201 by replacing "clockwise" with "any".\n\nRepeal rule 999.\n', encoding="utf-8")
    return path


def test_the_command_writes_one_self_contained_page_outside_the_archive(draft, game, tmp_path, capsys,
                                                                          monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    before = tree_digest(game)
    assert main(["preview", str(draft)]) == 1  # an objection: rule 999
    assert tree_digest(game) == before  # nothing written beside the draft, nothing in the archive
    (written,) = (tmp_path / "tmp").glob("nomic-preview-*/kind.html")
    page = written.read_text(encoding="utf-8")
    assert "<style>" in page and 'href="static/style.css"' not in page and "search-index.js" not in page
    assert "__nomic" not in page
    assert "Proposal 304" in page and "there is no rule 999" in page and "tiny/drafts/kind.md:8" in page
    assert "<del" in page and "<ins" in page and 'class="legend"' in page
    assert "<script>alert(1)" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert capsys.readouterr().err == f"wrote {written}\n"
    assert stat.S_IMODE(written.stat().st_mode) == 0o666 & ~_umask()
    assert stat.S_IMODE(written.parent.stat().st_mode) == 0o777 & ~_umask()


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def test_the_command_refuses_an_output_inside_the_archive(draft, game, capsys):
    before = tree_digest(game.parent)
    assert main(["preview", str(draft), "-o", str(game / "drafts" / "kind.html")]) == 2
    assert "lies inside the content folder" in capsys.readouterr().err
    assert tree_digest(game.parent) == before


def test_the_command_takes_a_draft_from_anywhere_with_game_and_output(game, tmp_path):
    outside = tmp_path / "idea.md"
    outside.write_text("## Proposal 304: Idea\nProposer: Ann\nDate: 2001-02-01\n\nRepeal rule 203.\n")
    assert main(["preview", str(outside), "--game", str(game), "-o", str(tmp_path / "out.html")]) == 0
    assert "Rule 203" in (tmp_path / "out.html").read_text()


def test_the_command_needs_a_game(tmp_path, capsys):
    (tmp_path / "idea.md").write_text("## Proposal 304: Idea\nProposer: Ann\nDate: 2001-02-01\n")
    assert main(["preview", str(tmp_path / "idea.md")]) == 2
    assert "--game" in capsys.readouterr().err


def test_text_is_coloured_on_a_terminal(draft, capsys, monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    main(["preview", str(draft), "--text"])
    out = capsys.readouterr().out
    assert "\x1b[9mclockwise\x1b[0m" in out and "\x1b[31;4many\x1b[0m" in out
    assert "would be proposal 304" in out and "no-such-rule: there is no rule 999" in out
    assert not draft.with_suffix(".html").exists()


@pytest.mark.parametrize("tty, no_color", [(True, "1"), (False, None)])
def test_text_is_plain_with_no_color_or_off_a_terminal(draft, capsys, monkeypatch, tty, no_color):
    if no_color is None:
        monkeypatch.delenv("NO_COLOR", raising=False)
    else:
        monkeypatch.setenv("NO_COLOR", no_color)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: tty)
    main(["preview", str(draft), "--text"])
    out = capsys.readouterr().out
    assert "\x1b[" not in out and "[-clockwise-]{+any+}" in out


def test_an_unnumbered_draft_in_a_game_loads(game, capsys):
    (game / "drafts").mkdir()
    (game / "drafts" / "idea.md").write_text(draft_text("Repeal rule 203.", title="Idea"), encoding="utf-8")
    assert main(["preview", str(game / "drafts" / "idea.md"), "--text"]) == 0, capsys.readouterr().err
    assert "Draft: Idea by Ann, would be proposal 304" in capsys.readouterr().out


def test_a_draft_in_a_game_with_powers_is_power_checked(tmp_path):
    import shutil

    from generator.commands.preview import _read_draft
    from generator.engine.replay import replay as replay_game
    from generator.parse.game import load_game
    from generator.preview import preview_draft
    from tests.helpers import ROOT

    game = tmp_path / "bureau-2024"
    shutil.copytree(ROOT / "content" / "bureau-2024", game)
    draft = tmp_path / "d.md"
    draft.write_text("## Proposal: Counting\nProposer: Brook\nIndex: 1.0\n\nChange the power of rule 1020 to 1.0.\n\n"
                     "Amend rule 1003 by appending:\n\n> Ballots are counted by the Clerk.\n", encoding="utf-8")
    result = preview_draft(replay_game(load_game(game)), _read_draft(draft, game, power=True))
    assert [o.message for o in result.objections] == ["proposal 510 changes rule 1003 (power 2.0) with power 1.0"]
    assert [c.summary for c in result.changes] == [("appended a paragraph",), ("power 0.5 → 1.0",)]


def test_a_log_of_several_entries_given_to_preview_is_refused_at_the_second(game, tmp_path, capsys):
    """Only the first entry of a draft was read, the rest dropped in silence: now each extra entry is an error."""
    log = tmp_path / "log.md"
    log.write_text("## Proposal 304: Idea\nProposer: Ann\nDate: 2001-02-01\n\nRepeal rule 203.\n\n"
                   "## Proposal 305: Another\nProposer: Ben\nDate: 2001-02-02\n\nRepeal rule 201.\n")
    assert main(["preview", str(log), "--game", str(game), "-o", str(tmp_path / "out.html")]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"{log}:7: a draft holds one proposal, and this is a second entry (after the one at line 1): give it a "
        "draft of its own"]
    assert not (tmp_path / "out.html").exists()
