"""Incremental work gives what work from nothing gives, byte for byte: serve's pages after each kind of edit (each
drawn from the current replay when asked for), a build into its last site after each kind of edit (every page
drawn, those whose bytes changed put in place), each with the long lists in several parts; a deleted or corrupt
cache is rebuilt silently."""
from __future__ import annotations

import gc
import re
import shutil
import weakref
from pathlib import Path

import pytest

from generator.cache import CACHE_ENV, OWN_FOLDER
from generator.cli import main
from generator import pipeline
from generator.serve import LiveSite
from generator.site import search
from tests.helpers import ROOT, served_tree, site_digest, tree_digest


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
    live = LiveSite(game.parent, live_reload="")
    assert live.update().ok
    for step, edit in enumerate(EDITS):
        update = live.update(edit(game))
        assert update.ok, (edit.__name__, update.errors)
        fresh = tmp_path / f"fresh-{step}"
        assert main(["build", str(game.parent), "-o", str(fresh), "--quiet"]) == 0
        assert (fresh / "long" / "defeated-2.html").is_file()  # each long list in parts
        assert served_tree(live, fresh) == site_digest(fresh), edit.__name__
        shutil.rmtree(fresh)


def test_a_save_draws_nothing_until_a_page_is_asked_for_then_that_page_alone(game, monkeypatch):
    live = LiveSite(game.parent, live_reload="")
    assert live.update().ok
    drawn = []
    draw = live.pipeline.draw
    monkeypatch.setattr(live.pipeline, "draw", lambda page, **options: drawn.append(page.path) or draw(page, **options))
    assert live.update(_votes_of_a_proposal(game)).ok and drawn == []
    first = live.answer("/long/proposals/330.html")
    assert first.status == 200 and drawn == ["long/proposals/330.html"]
    assert live.answer("/long/proposals/330.html") == first and len(drawn) == 1  # kept until the next change
    assert live.update(_a_proposals_title(game)).ok
    assert live.answer("/long/proposals/330.html").status == 200 and len(drawn) == 2  # drawn again after it


def test_an_update_lets_go_of_the_last_replay_and_site_and_leaves_no_cycle_frozen(game):
    """serve freezes what an update leaves, so that the collector never walks a long game's replay again; what it
    froze must go with its last reference (a cycle frozen would never be collected), or a long session would keep
    every replay and site it made."""
    gc.unfreeze()  # (what this process froze before: `synth` checks the game it writes)
    gc.collect()
    live = LiveSite(game.parent, live_reload="")
    assert live.update().ok
    assert live.answer("/long/players.html").status == 200
    replay, site = weakref.ref(live.pipeline.replays["long"]), weakref.ref(live.site)
    assert live.update(_a_rule_in_rules_md(game)).ok
    assert live.answer("/long/rules/index.html").status == 200
    assert replay() is None and site() is None
    gc.unfreeze()
    try:
        assert gc.collect() == 0
    finally:
        gc.freeze()


def test_a_turn_renumbered_at_the_end_of_a_solitaire_log_reaches_every_page_that_names_it(tmp_path, capsys):
    """The rules now say after which turn they stand: once a page that a build into its last site left as it was."""
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content" / "solitaire", content / "solitaire")
    site = tmp_path / "site"
    assert main(["build", str(content), "-o", str(site), "--quiet"]) == 0
    log = content / "solitaire" / "log.md"
    log.write_text(log.read_text(encoding="utf-8").replace("## Turn 16", "## Turn 17"), encoding="utf-8")
    main(["build", str(content), "-o", str(site), "--quiet"])
    assert "After turn 17." in (site / "solitaire/rules/index.html").read_text(encoding="utf-8")
    fresh = tmp_path / "fresh"
    main(["build", str(content), "-o", str(fresh), "--quiet", "--cache-dir", str(tmp_path / "empty")])
    assert tree_digest(site) == tree_digest(fresh)


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
    assert main(["build", str(game.parent), "-o", str(site)]) == 0
    assert tree_digest(site) == built


def test_a_file_no_build_made_stops_the_build_and_nothing_is_written(game, tmp_path, capsys):
    """A keeper's page added to the site by hand (an about page, notes): the build removed it with the pages no
    longer made, the keeper's only copy maybe, and said nothing. It now refuses (exit 2), naming it, and writes
    nothing; once it is moved out, the build goes on."""
    site = tmp_path / "site"
    assert main(["build", str(game.parent), "-o", str(site)]) == 0
    (site / "long/about.html").write_text("the keeper's own page", encoding="utf-8")
    (site / "notes").mkdir()
    for name in "abcd":
        (site / "notes" / f"{name}.txt").write_text(name, encoding="utf-8")
    _prose_of_a_proposal(game)
    before = tree_digest(site)
    capsys.readouterr()
    assert main(["build", str(game.parent), "-o", str(site)]) == 2
    assert capsys.readouterr().err == (
        f"{site}/long/about.html: no build made this file (nor 4 more: notes/a.txt, notes/b.txt, notes/c.txt, ...): "
        f"the site holds only what a build makes, and building would remove it. Move it out of {site} (keep your "
        "own pages beside the site, not in it), or delete it; nothing was written\n")
    assert tree_digest(site) == before and not list(tmp_path.glob(".site.*"))
    shutil.move(site / "long/about.html", tmp_path / "about.html")
    shutil.rmtree(site / "notes")
    assert main(["build", str(game.parent), "-o", str(site)]) == 0
    fresh = tmp_path / "fresh"
    assert main(["build", str(game.parent), "-o", str(fresh)]) == 0
    assert tree_digest(site) == tree_digest(fresh)


@pytest.mark.parametrize("damage", ["deleted", "corrupt"])
def test_a_deleted_or_corrupt_cache_is_rebuilt_silently(game, tmp_path, monkeypatch, capsys, damage):
    cache = tmp_path / "cache"
    monkeypatch.setenv(CACHE_ENV, str(cache))
    site = tmp_path / "site"
    assert main(["build", str(game.parent), "-o", str(site)]) == 0
    built = tree_digest(site)
    assert main(["check", str(game)]) == 0
    capsys.readouterr()
    for file in (cache / OWN_FOLDER).glob("*.sqlite*"):
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
        patched.setattr(search, "search_pieces", lambda *args: pytest.fail("indexed again"))
        assert main(["build", str(game.parent), "-o", str(tmp_path / "second"), "--cache-dir", str(kept)]) == 0
    assert tree_digest(tmp_path / "second") == tree_digest(tmp_path / "first")
    _a_proposals_title(game)
    assert main(["build", str(game.parent), "-o", str(tmp_path / "first"), "--cache-dir", str(kept)]) == 0
    assert main(["build", str(game.parent), "-o", str(tmp_path / "fresh"), "--cache-dir", str(empty)]) == 0
    assert tree_digest(tmp_path / "first") == tree_digest(tmp_path / "fresh")
    assert "Retitled" in "".join(p.read_text(encoding="utf-8") for p in (tmp_path / "first/long/search").glob("docs-*"))


def test_the_search_index_is_kept_a_piece_a_record_never_whole(game, tmp_path, monkeypatch):
    """Kept as one record, the index was encoded, sealed and handed to SQLite whole, a copy of it each time: at
    100,000 entries, 360 MB over the build's peak. No record put is now larger than its largest piece."""
    from generator.cache import Cache

    sizes = []
    put = Cache.put
    monkeypatch.setattr(Cache, "put", lambda self, key, data: (sizes.append(len(data)), put(self, key, data)))
    assert main(["build", str(game.parent), "-o", str(tmp_path / "site"), "--cache-dir", str(tmp_path / "c")]) == 0
    pieces = list((tmp_path / "site/long/search").glob("*.js"))
    assert len(pieces) > 3 and max(sizes) <= max(piece.stat().st_size for piece in pieces)


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


@pytest.mark.parametrize("damage", ["flipped", "wrong shape"])
def test_a_damaged_cache_record_gives_the_answer_no_cache_gives(game, tmp_path, monkeypatch, capsys, damage):
    """Records that still read are not trusted on that alone: a flipped byte breaks the record's seal, and a
    sealed record of another shape than its key stands for is a miss too."""
    import sqlite3

    from generator.cache import _sealed, sealing_key
    from generator.records import encoded

    cache = tmp_path / "cache"
    monkeypatch.setenv(CACHE_ENV, str(cache))
    site = tmp_path / "site"
    assert main(["build", str(game.parent), "-o", str(site)]) == 0
    _prose_of_a_proposal(game)
    for file in (cache / OWN_FOLDER).glob("*.sqlite"):
        db = sqlite3.connect(file)
        for key, value in db.execute("SELECT key, value FROM records").fetchall():
            spoiled = (value[:len(value) // 2] + bytes([value[len(value) // 2] ^ 1]) + value[len(value) // 2 + 1:]
                       if damage == "flipped" else _sealed(sealing_key(), key, encoded(("not", "what", "this", "key", "holds"),
                                                                                   tuple[str, ...])))
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
