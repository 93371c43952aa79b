"""Incremental builds are full builds, byte for byte: serve after each kind of edit, build with its cache (the
pages that moved, drawn and put in place) after each kind of edit, each with the long lists in several
parts; a deleted or corrupt cache is rebuilt silently."""
from __future__ import annotations

import gc
import re
import shutil
import sys
import weakref
from pathlib import Path

import pytest

from generator.cache import CACHE_ENV
from generator.cli import main
from generator.engine import replay_game
from generator.parse.game import load_game
from generator.parse.log import LogParser
from generator import pipeline
from generator import serve
from generator.serve import SiteBuilder
from generator.site import keyed
from generator.site import pages
from generator.site.history import GameHistory
from generator.site import points
from generator.site import search
from generator.site import views
from tests.helpers import tree_digest


@pytest.fixture
def game(tmp_path, small_parts) -> Path:
    folder = tmp_path / "content" / "long"
    assert main(["synth", str(folder), "--proposals", "120", "--seed", "5"]) == 0
    return folder


def _middle(text: str, what: str = "## Proposal") -> int:
    return text.index(what, len(text) // 2)


def _prose_of_a_proposal(game: Path) -> list[Path]:
    log = game / "log.md"
    text = log.read_text(encoding="utf-8")
    heading = _middle(text)
    prose = re.compile(r"\n\n(?!Amend|Enact|Repeal|Transmute|Renumber|Retitle)([A-Z][^\n]*\.)\n").search(text, heading)
    log.write_text(text[:prose.end(1)] + " Edited." + text[prose.end(1):], encoding="utf-8")
    return [log]


def _votes_of_a_proposal(game: Path) -> list[Path]:
    log = game / "log.md"
    text = log.read_text(encoding="utf-8")
    at = text.index("Votes: for Alice, Bob, Carol", _middle(text))
    log.write_text(text[:at] + "Votes: for Alice; against Bob, Carol" + text[at + 28:], encoding="utf-8")
    return [log]


def _slips_late_in_the_log(game: Path) -> list[Path]:
    """Dana's score one more in the last two Scores lines: a finding, then a delta that names its line."""
    log = game / "log.md"
    text = log.read_text(encoding="utf-8")
    end = len(text)
    for _ in range(2):
        at = end = text.rindex("Scores: ", 0, end)
        claimed = re.search(r"Dana (-?\d+)", text[at:text.index("\n", at)])
        text = text[:at + claimed.start(1)] + str(int(claimed.group(1)) + 1) + text[at + claimed.end(1):]
    log.write_text(text, encoding="utf-8")
    return [log]


def _a_sentence_added_to_a_proposal(game: Path) -> list[Path]:
    """Two lines more in a proposal's prose, before its changes: its places below them, and every later entry's,
    move down (and the findings naming them)."""
    log = game / "log.md"
    text = log.read_text(encoding="utf-8")
    prose = re.compile(r"\n\n(?!Amend|Enact|Repeal|Transmute|Renumber|Retitle)([A-Z][^\n]*\.)\n").search(text, _middle(text))
    log.write_text(text[:prose.end(1)] + "\n\nA sentence added." + text[prose.end(1):], encoding="utf-8")
    return [log]


def _a_proposals_title(game: Path) -> list[Path]:
    text = (game / "log.md").read_text(encoding="utf-8")
    return _retitle(game, re.compile(r"## Proposal \d+: ").search(text, _middle(text)))


def _a_proposals_date(game: Path) -> list[Path]:
    """A date past every other: its points piece's range of dates in the manifest moves, the others' do not."""
    log = game / "log.md"
    text = log.read_text(encoding="utf-8")
    at = text.index("Date: ", _middle(text)) + len("Date: ")
    log.write_text(text[:at] + "2099-12-31" + text[at + len("1990-01-01"):], encoding="utf-8")
    return [log]


def _retitle(game: Path, heading: re.Match) -> list[Path]:
    log = game / "log.md"
    text = log.read_text(encoding="utf-8")
    log.write_text(text[:heading.end()] + "Retitled " + text[heading.end():], encoding="utf-8")
    return [log]


def _the_last_entrys_title(game: Path) -> list[Path]:
    """The last entry shows on the game's page, in the feed and on the comparison of the start with now."""
    *_, last = re.finditer(r"(?m)^## \w+( \d+)?: ", (game / "log.md").read_text(encoding="utf-8"))
    return _retitle(game, last)


def _a_defeated_proposals_title(game: Path) -> list[Path]:
    """A defeated proposal is on the list of those defeated."""
    text = (game / "log.md").read_text(encoding="utf-8")
    return _retitle(game, re.compile(r"## Proposal \d+: (?=[^\n]*\n(?:[^#\n][^\n]*\n)*Result: defeated)").search(
        text, _middle(text)))


def _a_repealing_proposals_title(game: Path) -> list[Path]:
    """The proposal that repealed a rule is on the list of repealed rules."""
    text = (game / "log.md").read_text(encoding="utf-8")
    return _retitle(game, re.compile(r"## Proposal \d+: (?=Repeal of)").search(text, _middle(text)))


def _an_events_title(game: Path) -> list[Path]:
    return _retitle(game, re.compile(r"## Event: ").search((game / "log.md").read_text(encoding="utf-8")))


def _an_amendments_text(game: Path) -> list[Path]:
    log = game / "log.md"
    text = log.read_text(encoding="utf-8")
    at = text.index(" to read:\n\n> ", _middle(text)) + len(" to read:\n\n> ")
    log.write_text(text[:at] + "Newly, " + text[at:], encoding="utf-8")
    return [log]


def _a_last_rule_text(game: Path) -> list[Path]:
    """The text of a rule no later entry changes, written whole by an amendment: the replay takes the rest of
    the log from the previous one, with the new text (engine.replay._texts_followed)."""
    from generator.pipeline import replay_games

    (replay,) = replay_games(game)
    version = next(v for v in reversed(replay.versions) if v.end is None and len(v.changes) == 1
                   and v.changes[0].kind == "amend" and v.start < len(replay.steps) - 10 and not any(
                       v.number in (c.rule, c.new_number) for e in replay.game.log.entries[v.start + 1:]
                       for c in e.changes))
    log = game / "log.md"
    lines = log.read_text(encoding="utf-8").split("\n")
    quoted = version.changes[0].source.line + 1  # 0-based: the blockquote two lines below "Amend rule N to read:"
    lines[quoted] = "> Lastly, " + lines[quoted][2:]
    log.write_text("\n".join(lines), encoding="utf-8")
    return [log]


def _a_rule_in_rules_md(game: Path) -> list[Path]:
    rules = game / "rules.md"
    text = rules.read_text(encoding="utf-8")
    at = text.index("\n", text.index("### 203")) + 1
    rules.write_text(text[:at] + "Foremost, " + text[at:], encoding="utf-8")
    return [rules]


def _rules_md_and_the_log_at_once(game: Path) -> list[Path]:
    """A rule of rules.md and a proposal's votes in one save (a checkout): the replay carries the new text
    through the log, then resumes at the proposal (engine/resume.py)."""
    rules = game / "rules.md"
    text = rules.read_text(encoding="utf-8")
    at = text.index("\n", text.index("### 203")) + 1
    rules.write_text(text[:at] + "Also, " + text[at:], encoding="utf-8")
    return [rules, *_votes_of_a_proposal(game)]


def _a_repeal_undone(game: Path) -> list[Path]:
    """The last adopted repeal struck from its proposal: the rule stays in force to the end, and the pages of
    its old numbers no longer say it was repealed."""
    log = game / "log.md"
    text = log.read_text(encoding="utf-8")
    for repeal in reversed(list(re.finditer(r"\n\nRepeal rule (\d+)\.\n", text))):
        if "Result: adopted" in text[text.rindex("\n## ", 0, repeal.start()):repeal.start()]:
            log.write_text(text[:repeal.start()] + f"\n\nRule {repeal.group(1)} stays.\n" + text[repeal.end():],
                           encoding="utf-8")
            return [log]
    raise AssertionError("no adopted repeal left")


def _an_entry_inserted(game: Path) -> list[Path]:
    log = game / "log.md"
    text = log.read_text(encoding="utf-8")
    at = _middle(text)
    date = re.search(r"Date: (\S+)", text[at:]).group(1)
    log.write_text(text[:at] + f"## Event: A note from the keepers\nDate: {date}\n\nA word about the game.\n\n"
                   + text[at:], encoding="utf-8")
    return [log]


def _an_entry_deleted(game: Path) -> list[Path]:
    log = game / "log.md"
    text = log.read_text(encoding="utf-8")
    start = text.index("## Event: A note from the keepers")
    log.write_text(text[:start] + text[text.index("## ", start + 3):], encoding="utf-8")
    return [log]


def _the_log_split_in_two(game: Path) -> list[Path]:
    log = game / "log.md"
    text = log.read_text(encoding="utf-8")
    at = _middle(text)
    (game / "log").mkdir()
    (game / "log" / "1.md").write_text(text[:at], encoding="utf-8")
    (game / "log" / "2.md").write_text(text[at:], encoding="utf-8")
    log.unlink()
    return [log, game / "log" / "1.md", game / "log" / "2.md"]


def _a_proposal_in_the_second_file(game: Path) -> list[Path]:
    log = game / "log" / "2.md"
    text = log.read_text(encoding="utf-8")
    at = text.index("\n", _middle(text))
    log.write_text(text[:at] + ", retitled" + text[at:], encoding="utf-8")
    return [log]


def _game_toml(game: Path) -> list[Path]:
    toml = game / "game.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace("win = 1000000000", "win = 900000000"),
                    encoding="utf-8")
    return [toml]


EDITS = [_prose_of_a_proposal, _slips_late_in_the_log, _a_sentence_added_to_a_proposal, _votes_of_a_proposal,
         _a_proposals_title, _a_proposals_date, _the_last_entrys_title, _a_defeated_proposals_title, _a_repealing_proposals_title,
         _an_events_title, _an_amendments_text, _a_last_rule_text, _a_rule_in_rules_md,
         _rules_md_and_the_log_at_once, _a_repeal_undone,
         _an_entry_inserted, _an_entry_deleted,
         _the_log_split_in_two, _a_proposal_in_the_second_file, _game_toml]


def test_serve_after_each_kind_of_edit_gives_the_site_a_full_build_gives(game, tmp_path):
    builder = SiteBuilder(game.parent, tmp_path / "served", live_reload="")
    assert builder.build_all().ok
    assert (builder.out / "long" / "defeated-2.html").is_file()  # each long list in parts
    for step, edit in enumerate(EDITS):
        result = builder.rebuild(edit(game))
        assert result.ok, (edit.__name__, result.errors)
        fresh = SiteBuilder(game.parent, tmp_path / f"fresh-{step}", live_reload="")
        assert fresh.build_all().ok
        assert tree_digest(builder.out) == tree_digest(fresh.out), edit.__name__
        shutil.rmtree(fresh.out)


@pytest.mark.parametrize("edit", [_prose_of_a_proposal, _votes_of_a_proposal])
def test_a_part_of_the_log_drawn_again_draws_only_the_texts_that_changed(game, tmp_path, monkeypatch, edit):
    """serve lends the proposals' texts it drew to the next plan (keyed._lend_texts): the part of the log an edit
    draws again shows 40 texts here (200 at scale), of which it draws the edited one, if any."""
    builder = SiteBuilder(game.parent, tmp_path / "served", live_reload="")
    assert builder.build_all().ok
    drawn = []
    real = pages.entry_html
    monkeypatch.setattr(pages, "entry_html", lambda body: drawn.append(body) or real(body))
    result = builder.rebuild(edit(game))
    assert result.ok and any("/log-" in path or path.endswith("/log.html") for path in result.written)
    assert len(drawn) <= 1


def test_a_plan_that_fails_leaves_its_game_to_be_drawn_at_the_next_save(game, tmp_path, monkeypatch):
    """Should planning fail (a bug), the game it was drawing stays to be drawn: saved again, the same edit must
    not look like no change to the pages the failure left unwritten."""
    builder = SiteBuilder(game.parent, tmp_path / "served", live_reload="")
    assert builder.build_all().ok
    planned = serve.replan, serve.plan_keyed

    def failing(*args):
        raise RuntimeError("a bug")
    monkeypatch.setattr(serve, "replan", failing)
    monkeypatch.setattr(serve, "plan_keyed", failing)
    changed = _votes_of_a_proposal(game)
    with pytest.raises(RuntimeError):
        builder.rebuild(changed)
    monkeypatch.setattr(serve, "replan", planned[0])
    monkeypatch.setattr(serve, "plan_keyed", planned[1])
    assert builder.rebuild(changed).ok  # the same save again
    fresh = SiteBuilder(game.parent, tmp_path / "fresh", live_reload="")
    assert fresh.build_all().ok
    assert tree_digest(builder.out) == tree_digest(fresh.out)


def test_serve_lets_go_of_the_entries_an_edit_replaced(game, tmp_path, monkeypatch):
    """serve lends a game's memo from save to save (views.PlanMemo): what it kept by the entries an edit replaced
    goes with them, or a long session would keep every replay it made alive (a setting replays every entry
    anew)."""
    replays = []
    monkeypatch.setattr(serve, "plan_keyed", lambda plan: replays.append(plan.replay) or keyed.plan_keyed(plan))
    builder = SiteBuilder(game.parent, tmp_path / "served", live_reload="")
    assert builder.build_all().ok
    first = replays.pop().steps
    toml = game / "game.toml"  # a scoring formula: every entry replayed anew, some not as they were
    toml.write_text(toml.read_text(encoding="utf-8").replace('formula = "2 *', 'formula = "3 *'), encoding="utf-8")
    assert builder.rebuild([toml]).ok  # (and planned by keyed.replan)
    kept = set(map(id, builder._games["long"].replay.steps))
    replaced = [weakref.ref(step) for step in first if id(step) not in kept]
    assert len(replaced) > 10
    del first
    assert builder.rebuild(_prose_of_a_proposal(game)).ok
    assert not replays
    gc.collect()
    assert [ref() for ref in replaced if ref() is not None] == []


def _history_shown(history: GameHistory) -> tuple:
    """Everything a history tells pages, its revisions and versions by object."""
    def ids(revisions):
        return [(id(r.before), id(r.after), r.step and r.step.index) for r in revisions]
    last = len(history.replay.steps)
    return ({index: ids(revisions) for index, revisions in history.revisions_by_step.items()},
            {identity: ids(revisions) for identity, revisions in history.revisions_by_rule.items()},
            [(identity, list(map(id, rule.versions))) for identity, rule in history.rules.items()],
            history.page_number, list(map(id, history.in_force())), history.ordinal, history.old_numbers(),
            history.rules_in_order(), [list(map(id, history.starting(index))) for index in range(-1, last)],
            [list(map(id, history.rules_at(index))) for index in range(-1, last)],
            list(map(id, history.proposal_steps)))


def test_a_history_patched_with_every_rule_touched_is_the_history_made_afresh(game):
    """keyed.replan patches the history with the entries and versions an edit replaced; a rules.md edit or a
    replay from the start may replace every one (patching was once quadratic in them: 5 s at 10,000)."""
    replay = replay_game(load_game(game))
    everything = list(range(len(replay.steps))), list(replay.versions)
    patched, fresh = GameHistory(replay).patched(replay, *everything), GameHistory(replay)
    assert len(fresh.revisions_by_step) > 50
    assert _history_shown(patched) == _history_shown(fresh)


TAILS = {
    "a proposal appended": lambda chunks, n: chunks + [
        f"## Proposal {n}: Appended\nProposer: Alice\nDate: 2999-12-31\nVotes: none\nResult: defeated\n\nA word.\n"],
    "a rule enacted, one amended, one repealed": lambda chunks, n: chunks + [
        f"## Proposal {n}: Three changes\nProposer: Alice\nDate: 2999-12-31\nVotes: for Alice, Bob, Carol, Dana\n"
        f"Result: adopted\n\nEnact rule: Late\n\n> A late rule.\n\nAmend rule 101 by replacing \"the\" with \"a\".\n\n"
        f"Repeal rule 102.\n"],
    "the last entry deleted": lambda chunks, n: chunks[:-1],
    "the last five deleted": lambda chunks, n: chunks[:-5],
    "an entry deleted halfway": lambda chunks, n: chunks[:len(chunks) // 2] + chunks[len(chunks) // 2 + 1:],
}


@pytest.mark.parametrize("edit", TAILS)
def test_a_history_resumed_after_entries_came_or_went_is_the_history_made_afresh(game, edit, monkeypatch):
    """keyed._replan_tail takes the history of an edit that added or removed entries from the last one: the rules
    whose versions came or went, or whose revisions stand where the log changed, made again, in the order a history
    made afresh has them (pages list revisions in it)."""
    monkeypatch.setattr(sys.modules["generator.engine.replay"], "CHECKPOINT_MIN_SPACING", 16)
    parser = LogParser()  # (which keeps the entries it parsed: the replay resumes from the first that moved)
    previous = replay_game(load_game(game, parser=parser), checkpoints=True)
    log = game / "log.md"
    text = log.read_text(encoding="utf-8")
    chunks = re.split(r"(?m)^(?=## )", text)
    number = max(map(int, re.findall(r"(?m)^## Proposal (\d+)", text))) + 1
    log.write_text("".join(TAILS[edit](chunks, number)).rstrip("\n") + "\n", encoding="utf-8")
    replay = replay_game(load_game(game, parser=parser), previous=previous, checkpoints=True)
    first = next((i for i, (new, was) in enumerate(zip(replay.steps, previous.steps)) if new is not was),
                 min(len(replay.steps), len(previous.steps)))
    if edit != "an entry deleted halfway":  # (which moves the synthetic game's snapshot: replayed from the start)
        assert first > 0 and any(new is was for new, was in zip(replay.versions, previous.versions))
    resumed, fresh = GameHistory(previous).resumed(replay, first), GameHistory(replay)
    assert _history_shown(resumed) == _history_shown(fresh)


def test_what_a_rebuild_leaves_in_cycles_is_collected_not_frozen(game, tmp_path):
    """serve freezes what a rebuild leaves, so that the collector never walks the whole site again; a cycle
    frozen would never be collected (a template's macro makes one with each page it draws, the comparison
    pieces'): SiteBuilder.settle collects first."""
    gc.unfreeze()  # (what this process froze before: `synth` checks the game it writes)
    gc.collect()
    builder = SiteBuilder(game.parent, tmp_path / "served", live_reload="")
    assert builder.build_all().ok
    assert builder.rebuild(_a_rule_in_rules_md(game)).ok
    gc.unfreeze()
    assert gc.collect() == 0


def test_the_feeds_latest_date_and_the_players_counts_follow_edits_that_move_them(game, tmp_path):
    """serve keeps the latest date (the feed's) and the proposals by player and result (the players page) from
    plan to plan, putting in only what the changed entries moved: a date past every other, made and undone (the
    latest then found again), and a vote that flips a result, each give the site a full build gives."""
    builder = SiteBuilder(game.parent, tmp_path / "served", live_reload="")
    assert builder.build_all().ok
    log = game / "log.md"
    original = log.read_text(encoding="utf-8")

    def undone(game: Path) -> list[Path]:
        log.write_text(original, encoding="utf-8")
        return [log]
    for step, edit in enumerate([_a_proposals_date, undone, _votes_of_a_proposal, _a_proposals_date]):
        result = builder.rebuild(edit(game))
        assert result.ok
        fresh = SiteBuilder(game.parent, tmp_path / f"fresh-{step}", live_reload="")
        assert fresh.build_all().ok
        assert tree_digest(builder.out) == tree_digest(fresh.out), step
        shutil.rmtree(fresh.out)
    feed = (builder.out / "long" / "feed.xml").read_text(encoding="utf-8")
    assert "2099-12-31" in feed


def test_serve_follows_the_keyframes_of_the_points_pieces_when_rules_come_into_force(game, tmp_path, monkeypatch):
    """A keyframe every (rules in force / PER_PIECE) pieces: a rule more in force can move the interval, and
    with it every points piece and the manifest, which serve then draws again, whatever else it touched."""
    monkeypatch.setattr(points, "PER_PIECE", 2)
    monkeypatch.setattr(points, "KEYFRAME", 1)

    def interval(site: Path) -> int:
        return int(re.search(r'"keyframe": ?(\d+)', (site / "long/points/index.js").read_text()).group(1))
    builder = SiteBuilder(game.parent, tmp_path / "served", live_reload="")
    assert builder.build_all().ok
    intervals = [interval(builder.out)]
    for step in range(2):  # two rules more in force: one of them moves the interval
        result = builder.rebuild(_a_repeal_undone(game))
        assert result.ok and len(result.written) < 100  # what the edit touched, not the whole site
        intervals.append(interval(builder.out))
        fresh = SiteBuilder(game.parent, tmp_path / f"fresh-{step}", live_reload="")
        assert fresh.build_all().ok
        assert tree_digest(builder.out) == tree_digest(fresh.out)
    assert len(set(intervals)) == 2 and intervals == sorted(intervals)


def test_build_after_each_kind_of_edit_rewrites_what_moved_and_gives_the_full_build(game, tmp_path, capsys):
    site = tmp_path / "site"
    assert main(["build", str(game.parent), "-o", str(site)]) == 0
    assert main(["build", str(game.parent), "-o", str(site)]) == 0
    assert "(0 written, the rest unchanged)" in capsys.readouterr().err
    for step, edit in enumerate(EDITS):
        before = {p: p.stat().st_mtime_ns for p in site.rglob("*") if p.is_file()}
        edit(game)
        assert main(["build", str(game.parent), "-o", str(site)]) == 0
        written = int(re.search(r"\((\d+) written", capsys.readouterr().err).group(1))
        fresh = tmp_path / f"fresh-{step}"
        assert main(["build", str(game.parent), "-o", str(fresh), "--cache-dir", str(tmp_path / "empty")]) == 0
        assert tree_digest(site) == tree_digest(fresh), edit.__name__
        untouched = [p for p, mtime in before.items() if p.exists() and p.stat().st_mtime_ns == mtime]
        assert written < len(before) and len(untouched) >= len(before) - written - 1, edit.__name__
        shutil.rmtree(fresh)


def test_a_build_puts_back_a_page_changed_or_removed_by_hand(game, tmp_path):
    site = tmp_path / "site"
    assert main(["build", str(game.parent), "-o", str(site)]) == 0
    built = tree_digest(site)
    (site / "long/proposals/330.html").write_text("changed by hand", encoding="utf-8")
    (site / "long/rules/index.html").unlink()
    (site / "long/stray.html").write_text("not the build's", encoding="utf-8")
    assert main(["build", str(game.parent), "-o", str(site)]) == 0
    assert tree_digest(site) == built


@pytest.mark.parametrize("damage", ["deleted", "corrupt"])
def test_a_deleted_or_corrupt_cache_is_rebuilt_silently(game, tmp_path, monkeypatch, capsys, damage):
    cache = tmp_path / "cache"
    monkeypatch.setenv(CACHE_ENV, str(cache))
    site = tmp_path / "site"
    assert main(["build", str(game.parent), "-o", str(site)]) == 0
    built = tree_digest(site)
    assert main(["check", str(game)]) == 0
    capsys.readouterr()
    for file in cache.iterdir():
        if damage == "deleted":
            file.unlink()
        else:
            file.write_bytes(b"\x00not a database\x00" * 100)
    _prose_of_a_proposal(game)
    assert main(["build", str(game.parent), "-o", str(site)]) == 0
    assert main(["check", str(game)]) == 0
    err = capsys.readouterr().err
    assert "Traceback" not in err and "cache" not in err
    fresh = tmp_path / "fresh"
    assert main(["build", str(game.parent), "-o", str(fresh)]) == 0
    assert tree_digest(site) == tree_digest(fresh) != built
    assert main(["build", str(game.parent), "-o", str(site)]) == 0
    assert "(0 written, the rest unchanged)" in capsys.readouterr().err  # and kept again


def test_a_build_takes_the_search_index_from_the_cache_until_a_document_changes(game, tmp_path, monkeypatch):
    kept, empty = tmp_path / "kept", tmp_path / "empty"
    assert main(["build", str(game.parent), "-o", str(tmp_path / "first"), "--cache-dir", str(kept)]) == 0
    with monkeypatch.context() as patched:  # a second build into a new folder indexes nothing: it is all kept
        patched.setattr(search, "search_pages", lambda *args: pytest.fail("indexed again"))
        assert main(["build", str(game.parent), "-o", str(tmp_path / "second"), "--cache-dir", str(kept)]) == 0
    assert tree_digest(tmp_path / "second") == tree_digest(tmp_path / "first")
    _a_proposals_title(game)
    assert main(["build", str(game.parent), "-o", str(tmp_path / "first"), "--cache-dir", str(kept)]) == 0
    assert main(["build", str(game.parent), "-o", str(tmp_path / "fresh"), "--cache-dir", str(empty)]) == 0
    assert tree_digest(tmp_path / "first") == tree_digest(tmp_path / "fresh")
    assert "Retitled" in "".join(p.read_text(encoding="utf-8") for p in (tmp_path / "first/long/search").glob("docs-*"))


def test_a_build_with_nothing_changed_reads_no_game_and_writes_nothing(game, tmp_path, monkeypatch, capsys):
    site = tmp_path / "site"
    assert main(["build", str(game.parent), "-o", str(site)]) == 0
    built = {p: p.stat().st_mtime_ns for p in site.rglob("*")}
    with monkeypatch.context() as patched:
        patched.setattr(pipeline, "replay_games", lambda *args, **kwargs: pytest.fail("parsed again"))
        assert main(["build", str(game.parent), "-o", str(site)]) == 0
    assert "(0 written, the rest unchanged)" in capsys.readouterr().err
    assert {p: p.stat().st_mtime_ns for p in site.rglob("*")} == built
    # Anything the site is made of, changed, and the build looks again: an option, a template, a page by hand.
    for change in ("base-url", "template", "page"):
        if change == "template":
            (game.parent / "_templates").mkdir()
            (game.parent / "_templates" / "feed.xml").write_text("<feed/>\n", encoding="utf-8")
        elif change == "page":
            (site / "long/rules/index.html").write_text("changed by hand", encoding="utf-8")
        options = ["--base-url", "https://example.org/"] if change == "base-url" else []
        assert main(["build", str(game.parent), "-o", str(site), *options]) == 0
        fresh = tmp_path / f"fresh-{change}"
        assert main(["build", str(game.parent), "-o", str(fresh), "--cache-dir", str(tmp_path / "empty"), *options]) == 0
        assert tree_digest(site) == tree_digest(fresh), change
        shutil.rmtree(fresh)


def test_a_game_file_that_cannot_be_read_after_a_build_is_reported_not_skipped(game, tmp_path, capsys):
    site = tmp_path / "site"
    assert main(["build", str(game.parent), "-o", str(site)]) == 0
    built = tree_digest(site)
    rules = game / "rules.md"
    rules.unlink()
    rules.symlink_to("/etc/passwd")
    capsys.readouterr()
    assert main(["build", str(game.parent), "-o", str(site)]) == 2
    assert "long/rules.md: leads out of the content folder through a symbolic link" in capsys.readouterr().err
    assert tree_digest(site) == built


def test_records_read_at_every_run_are_kept_and_records_left_unread_are_dropped(tmp_path):
    from generator.cache import KEEP_RUNS, Cache

    record = b"x" * 300_000  # a few runs' worth of these outgrows what one run uses: old records are dropped

    def run(read: list[bytes], written: list[bytes]) -> dict[bytes, bytes]:
        cache = Cache(tmp_path, tmp_path)
        found = cache.get_many(read)
        for key in written:
            cache.put(key, record)
        cache.close()
        return found

    run([], [b"read every run", b"never read again"])
    for number in range(4 * KEEP_RUNS):
        assert b"read every run" in run([b"read every run"], [b"written in run %d" % number])
    assert run([b"never read again", b"written in run 0", b"read every run"], []).keys() == {b"read every run"}


def test_a_pages_key_follows_its_deps_data_not_how_the_objects_were_made():
    """The manifest compares keys made in other processes and runs: equal deps give the same key whether their
    strings are shared or interned, and deps that are not plain data (a date) are keyed by their repr."""
    import datetime as dt
    import sys

    def page(deps):
        return views.Page("game/proposals/1.html", "proposal.html", {}, deps=deps)

    digest = b"\x01" * 20
    shared = "Rule of Fines"
    made = "".join(["Rule of ", "Fines"])
    assert page((digest, shared, shared, 3)).key(b"s") == page((bytes(digest), sys.intern(made), made, 3)).key(b"s")
    assert page((digest, shared, 3)).key(b"s") != page((digest, shared, 4)).key(b"s")
    assert page((digest, shared, 3)).key(b"s") != page((digest, shared, 3)).key(b"t")
    dated = page((digest, dt.date(2007, 8, 12))).key(b"s")
    assert dated == page((digest, dt.date(2007, 8, 12))).key(b"s") != page((digest, dt.date(2007, 8, 13))).key(b"s")


@pytest.mark.parametrize("damage", ["flipped", "wrong shape"])
def test_a_damaged_cache_record_gives_the_answer_no_cache_gives(game, tmp_path, monkeypatch, capsys, damage):
    """Records that still unpickle are not trusted on that alone: a flipped byte breaks the record's seal, and a
    sealed record of another shape than its key stands for is a miss too."""
    import sqlite3

    from generator.cache import pickled

    cache = tmp_path / "cache"
    monkeypatch.setenv(CACHE_ENV, str(cache))
    site = tmp_path / "site"
    assert main(["build", str(game.parent), "-o", str(site)]) == 0
    _prose_of_a_proposal(game)
    for file in cache.iterdir():
        db = sqlite3.connect(file)
        for key, value in db.execute("SELECT key, value FROM records").fetchall():
            spoiled = (value[:len(value) // 2] + bytes([value[len(value) // 2] ^ 1]) + value[len(value) // 2 + 1:]
                       if damage == "flipped" else pickled(("not", "what", "this", "key", "holds")))
            db.execute("UPDATE records SET value = ? WHERE key = ?", (spoiled, key))
        db.commit()
        db.close()
    capsys.readouterr()
    assert main(["check", str(game)]) == 0
    assert main(["build", str(game.parent), "-o", str(site)]) == 0
    assert "Traceback" not in capsys.readouterr().err
    fresh = tmp_path / "fresh"
    assert main(["build", str(game.parent), "-o", str(fresh), "--cache-dir", str(tmp_path / "empty")]) == 0
    assert tree_digest(site) == tree_digest(fresh)
