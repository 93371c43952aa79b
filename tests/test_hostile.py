"""Broken and hostile archives, beyond the case corpus (tests/cases/hostile): reading only regular files,
the caps, the bounded redline, the last-resort handler and the closed pipe, outputs that never replace a
keeper's file, addresses made of folder names, serve's paths and crashes, and the terminal."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import pytest

from generator import __version__, limits, serve
from generator.cli import main
from generator.errors import ErrorCollector, SourceError
from generator.files import SITE_MARKER, new_staging_folder
from generator.model.points import HINT
from generator.model.urls import former_url_segments, is_url_segment, url_segment
from generator.parse.game import load_content
from generator.parse.source import NumberTooLarge, read_bytes, read_decimal, read_int
from generator.diffing import redline as redline_module
from generator.diffing.redline import redline, render_ansi, render_html, split_blocks, summarize
from generator.pipeline import Pipeline
from generator.site.pages import SiteGame, moved_addresses
from generator.site.views import Listing, Page
from generator.terminal import for_terminal, one_line
from tests.helpers import ROOT, broken_links, copy_games, tree_digest
from tests.test_serve import edit, get, write_game

# --- Reading ---------------------------------------------------------------------------------------


def test_a_device_is_never_read(tmp_path):
    errors = ErrorCollector()
    assert read_bytes(Path("/dev/zero"), "rules.md", errors) is None
    assert [str(e) for e in errors.errors] == ["rules.md: is a device, not a file; nothing was read from it"]


def test_a_fifo_is_reported_without_blocking(tmp_path):
    os.mkfifo(tmp_path / "rules.md")  # nobody writes to it: opening it to read would wait for ever
    errors = ErrorCollector()
    assert read_bytes(tmp_path / "rules.md", "rules.md", errors, root=tmp_path) is None
    assert "is a FIFO (named pipe), not a file" in str(errors.errors[0])


def test_a_file_past_its_cap_is_not_read(tmp_path):
    (tmp_path / "log.md").write_bytes(b"x" * 101)
    errors = ErrorCollector()
    assert read_bytes(tmp_path / "log.md", "g/log.md", errors, limit=100) is None
    assert str(errors.errors[0]) == ("g/log.md: is 101 bytes; such a file may hold at most 100 bytes (split a long "
                                     "log into log/*.md, which are read in name order)")


@pytest.mark.parametrize("text, value", [("0", 0), ("301", 301), ("000000000000000000007", 7),
                                         ("999999999999", 999_999_999_999)])
def test_numbers_are_ascii_digits_within_the_cap(text, value):
    assert read_int(text) == value


@pytest.mark.parametrize("text", ["", "\u00b2", "3\u00b9", "\u0664", "\uff14", "1.5", "+1", "-1", " 1", "1e3"])
def test_anything_else_is_not_a_whole_number(text):
    with pytest.raises(ValueError, match="not a whole number"):
        read_int(text)


def test_signed_numbers_and_the_cap():
    assert (read_int("-12", signed=True), read_int("+12", signed=True)) == (-12, 12)
    with pytest.raises(NumberTooLarge, match=r"number too large \(at most 12 digits\)"):
        read_int("1" * 13)
    with pytest.raises(NumberTooLarge):
        read_int("9" * 5000)


@pytest.mark.parametrize("text, value", [("3", Fraction(3)), ("1.5", Fraction(3, 2)), ("0.25", Fraction(1, 4)),
                                         ("007.500", Fraction(15, 2)), ("999999999999.999999999999",
                                                                        Fraction(10**24 - 1, 10**12)),
                                         ("1." + "0" * 5000, Fraction(1))])
def test_decimals_are_exact_within_the_caps(text, value):
    assert read_decimal(text) == value


@pytest.mark.parametrize("text", ["", ".5", "1.", "1.5.0", "-1", "+1", "1e3", "1/3", "1_0", " 1", "1,5", "١.5",
                                  "1.٥", "½", "inf", "nan"])
def test_anything_else_is_not_a_decimal(text):
    with pytest.raises(ValueError) as raised:
        read_decimal(text)
    assert not isinstance(raised.value, NumberTooLarge)


def test_decimals_past_the_caps():
    with pytest.raises(NumberTooLarge, match=r"number too large \(at most 12 digits\)"):
        read_decimal("1" * 13 + ".5")
    with pytest.raises(NumberTooLarge, match=r"number too precise \(at most 12 digits after the point\)"):
        read_decimal("0." + "1" * 13)
    with pytest.raises(NumberTooLarge):
        read_decimal("0." + "9" * 5000)  # more digits than int() reads


def test_the_caps_are_listed_for_keepers():
    """docs/format.md names every cap with its value, so that a keeper can look it up."""
    doc = (ROOT / "docs" / "format.md").read_text(encoding="utf-8")
    for name in ("MAX_FILE_BYTES", "MAX_LOG_BYTES", "MAX_TOML_BYTES", "MAX_LINE_CHARS", "MAX_TOML_LINE_CHARS",
                 "MAX_RULE_CHARS", "MAX_DIGITS", "MAX_NESTING"):
        value = getattr(limits, name)
        shown = {"MAX_FILE_BYTES": "4 MB", "MAX_LOG_BYTES": "32 MB", "MAX_TOML_BYTES": "64 KB"}.get(name, f"{value:,}")
        assert shown in doc and name in doc, name


def test_a_games_whole_log_past_its_caps_is_refused_where_it_crosses_them(tmp_path, capsys, monkeypatch):
    """A log of many small entries, each file within its cap (300,000 took check 39 s and 1.5 GB), is refused at
    the line where the entry past the game's cap starts, before that file is parsed; a heading inside a code block
    starts no entry and is not counted. Past the game's bytes (log/ may hold any number of files), the file that
    crosses them is named. Exit 2, and the files are as they were."""
    game = write_game(tmp_path / "content")
    (game / "log").mkdir()
    (game / "log" / "2.md").write_text((game / "log.md").read_text(encoding="utf-8").replace("30", "31"),
                                       encoding="utf-8")
    before = tree_digest(tmp_path / "content")
    monkeypatch.setattr("generator.parse.log.MAX_GAME_ENTRIES", 4)
    assert main(["check", str(tmp_path / "content"), "--cache-dir", str(tmp_path / "cache")]) == 2
    said = capsys.readouterr().err
    second = (game / "log" / "2.md").read_text(encoding="utf-8").splitlines().index("## Proposal 312: Snacks") + 1
    assert f"tiny/log/2.md:{second}: the log's entry number 5 starts here; a game's log may hold at most 4 " \
           "entries" in said, said
    assert tree_digest(tmp_path / "content") == before
    monkeypatch.setattr("generator.parse.log.MAX_GAME_ENTRIES", 3)
    edit(game / "log.md", "> Players bring snacks.\n", "> Players bring snacks.\n\n```\n## Not an entry\n```\n")
    (game / "log" / "2.md").unlink()
    assert main(["check", str(tmp_path / "content"), "--cache-dir", str(tmp_path / "cache")]) == 0, \
        capsys.readouterr().err
    capsys.readouterr()
    for module in ("game", "folders"):  # (the files' digest, by which a check of unchanged files is answered, too)
        monkeypatch.setattr(f"generator.parse.{module}.MAX_GAME_BYTES", (game / "log.md").stat().st_size)
    assert main(["check", str(tmp_path / "content"), "--cache-dir", str(tmp_path / "cache")]) == 2
    assert "tiny/log.md: the game's files come to more than 0 MB with this one" in capsys.readouterr().err
    assert main(["build", str(tmp_path / "content"), "-o", str(tmp_path / "site"), "--cache-dir",
                 str(tmp_path / "cache")]) == 2
    assert "tiny/log.md: the game's files come to more than" in capsys.readouterr().err
    assert not (tmp_path / "site").exists()


def test_a_log_file_serve_parsed_before_counts_toward_the_games_cap(monkeypatch):
    """serve's parser keeps the files it parsed, which are not counted again before they are taken from it: an
    entry added to a file before them still puts the game past its cap, at the line of the entry past it."""
    from generator.parse.log import LogParser, parse_log

    monkeypatch.setattr("generator.parse.log.MAX_GAME_ENTRIES", 3)
    parser, errors = LogParser(), ErrorCollector()
    kept = "".join(f"## Event: {word}\nBy: Ann\nDate: 2001-01-01\n\n" for word in ("one", "two", "three"))
    assert len(parse_log([("g/log/2.md", kept)], errors, parser=parser)[1]) == 3 and not errors.errors
    parse_log([("g/log/1.md", "## Event: zero\nBy: Ann\nDate: 2001-01-01\n"), ("g/log/2.md", kept)], errors, parser=parser)
    assert [str(error) for error in errors.errors] == [
        "g/log/2.md:9: the log's entry number 4 starts here; a game's log may hold at most 3 entries (room for "
        "50,000 proposals with their judgments and events): split the game into rounds, a game folder each"]


# --- The redline's bounds --------------------------------------------------------------------------


def _reconstructs(rl, old: str, new: str) -> bool:
    return ([b.old for b in rl.blocks if b.kind != "inserted"] == split_blocks(old)
            and [b.new for b in rl.blocks if b.kind != "deleted"] == split_blocks(new))


def test_past_the_work_budget_the_rule_is_shown_rewritten_with_a_note(monkeypatch):
    monkeypatch.setattr(redline_module, "MAX_DIFF_WORK", 50)
    old = " ".join(f"w{i}" for i in range(400))
    new = " ".join(f"w{i}" if i % 4 else "changed" for i in range(400))
    redline.cache_clear()
    rl = redline(old, new)
    redline.cache_clear()
    assert rl.note == "shown whole: the versions differ in too many places to compare word by word"
    assert [b.kind for b in rl.blocks] == ["deleted", "inserted"] and _reconstructs(rl, old, new)
    assert summarize(rl) == [rl.note]
    assert '<p class="redline-note">Shown whole: the versions differ' in render_html(rl)
    assert render_ansi(rl, color=False).startswith("Shown whole: the versions differ in too many places")


def test_one_stretch_rewritten_is_one_change_whatever_the_work_budget(monkeypatch):
    """A stretch replaced by words it does not share needs no search (redline._one_stretch_replaced): it is
    shown as the one change it is, where searching it would have passed the budget."""
    monkeypatch.setattr(redline_module, "MAX_DIFF_WORK", 50)
    kept = " ".join(f"k{i}" for i in range(200))
    old = f"{kept} " + " ".join(f"old{i}" for i in range(300)) + f" {kept}"
    new = f"{kept} " + " ".join(f"new{i}" for i in range(300)) + f" {kept}"
    redline.cache_clear()
    rl = redline(old, new)
    redline.cache_clear()
    assert rl.note == "" and [b.kind for b in rl.blocks] == ["changed"] and _reconstructs(rl, old, new)
    assert [s.op for s in rl.blocks[0].segments] == ["equal", "delete", "insert", "equal"]
    assert summarize(rl) == ["replaced 300 words with 300 words"]


def test_the_same_texts_give_the_same_redline_whatever_the_clock():
    old = " ".join(f"w{i % 50}" for i in range(3000))
    new = " ".join(f"w{i % 50}" if i % 7 else "x" for i in range(3000))
    redline.cache_clear()
    first = redline(old, new)
    redline.cache_clear()
    assert redline(old, new) == first and _reconstructs(first, old, new)


def test_texts_past_the_size_bound_are_not_compared():
    old = "a " * (limits.MAX_RULE_CHARS // 2 + 1)
    rl = redline(old, old + "b")
    assert rl.note.startswith("shown whole: the two versions together are longer than 200,000 characters")


def test_more_distinct_words_than_codes_is_a_rewrite_not_a_crash(monkeypatch):
    monkeypatch.setattr(redline_module, "_PRIVATE_USE_PLANE_SIZE", 10)
    redline.cache_clear()
    old, new = " ".join(f"a{i}" for i in range(25)), " ".join(f"a{i}" for i in range(24)) + " b"  # 26 > 2 * 10
    rl = redline(old, new)
    redline.cache_clear()
    assert "distinct words" in rl.note and _reconstructs(rl, old, new)


def test_many_paragraphs_are_paired_nearby_and_aligned_within_the_budget():
    paragraphs = [f"Paragraph {i} says something about rule {i} and its players." for i in range(400)]
    edited = [p.replace("players", "voters") if i % 3 == 0 else p for i, p in enumerate(paragraphs)]
    old, new = "\n\n".join(paragraphs), "\n\n".join(edited[:200] + ["A new one."] + edited[200:])
    redline.cache_clear()
    rl = redline(old, new)
    assert rl.note == "" and _reconstructs(rl, old, new)
    assert [b.kind for b in rl.blocks].count("changed") == 134
    assert [b.kind for b in rl.blocks].count("inserted") == 1


# --- The command line ------------------------------------------------------------------------------


def test_an_unexpected_error_is_one_line_naming_the_input_and_exit_3(tmp_path, capsys, monkeypatch):
    from generator import replays

    def broken(content, **options):
        raise KeyError("a bug\nwith a second line")

    monkeypatch.setattr(replays, "replay_games", broken)
    monkeypatch.delenv("NOMIC_ARCHIVE_TRACEBACK", raising=False)
    assert main(["check", str(tmp_path / "content")]) == 3
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert err.startswith(f"{tmp_path / 'content'}: unexpected error (KeyError: 'a bug\\nwith a second line'); "
                          "this is a bug in nomic-archive")
    assert "please report it" in err


def test_check_into_a_closed_pipe_ends_quietly(tmp_path):
    content = copy_games(tmp_path, "mini")
    for name in ("a", "b", "c", "d"):  # enough output to outlast the reader
        shutil.copytree(content / "mini", content / name)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(f"{sys.executable} -m generator check {content} | head -c 1 >/dev/null; "
                          "echo ${PIPESTATUS[0]} >&2", shell=True, executable="/bin/bash", capture_output=True,
                          text=True, env=env)
    assert done.stderr.strip() in ("0", "1", "141"), done.stderr  # no traceback, no "Exception ignored"


# --- Outputs ---------------------------------------------------------------------------------------


def _single_file_commands(tmp_path: Path) -> dict[str, list[str]]:
    """Each command that writes one file at -o, with inputs that work."""
    game = copy_games(tmp_path, "mini") / "mini"
    source = tmp_path / "rules.txt"
    source.write_text("Immutable Rules\n\n101. All players must abide by the rules.\n", encoding="utf-8")
    draft = tmp_path / "idea.md"
    draft.write_text("## Proposal: Idea\nProposer: Alice\n\nRepeal rule 201.\n", encoding="utf-8")
    return {"import": ["import", str(source)], "diff": ["diff", str(game / "rules.md"), str(game)],
            "preview": ["preview", str(draft), "--game", str(game)]}


@pytest.mark.parametrize("command", ["import", "diff", "preview"])
def test_a_single_file_output_never_replaces_a_file_unless_forced(command, tmp_path, capsys):
    arguments = _single_file_commands(tmp_path)[command]
    keepers = tmp_path / "keepers.md"
    keepers.write_text("the keeper's only copy\n", encoding="utf-8")
    dangling = tmp_path / "dangling.md"
    dangling.symlink_to(tmp_path / "nowhere")
    before = tree_digest(tmp_path)
    for taken in (keepers, dangling):
        assert main([*arguments, "-o", str(taken)]) == 2
        assert capsys.readouterr().err == (
            f"{taken}: exists, and {command} does not replace a file (it may be a keeper's only copy): choose "
            "another name, or add --force to replace it; nothing was written\n")
    assert tree_digest(tmp_path) == before
    assert main([*arguments, "-o", str(keepers), "--force"]) in (0, 1)
    assert keepers.read_text(encoding="utf-8") not in ("", "the keeper's only copy\n")
    assert main([*arguments, "-o", str(tmp_path / "new.md")]) in (0, 1)
    assert (tmp_path / "new.md").read_text(encoding="utf-8") == keepers.read_text(encoding="utf-8")


def test_an_output_under_a_file_is_refused_before_anything_is_written(tmp_path, capsys, monkeypatch):
    content = copy_games(tmp_path, "mini")
    (tmp_path / "NOTES.txt").write_text("notes\n")
    before = tree_digest(tmp_path)
    assert main(["build", str(content), "-o", str(tmp_path / "NOTES.txt" / "site")]) == 2
    err = capsys.readouterr().err
    assert err == f"{tmp_path / 'NOTES.txt' / 'site'}: cannot be written: {tmp_path / 'NOTES.txt'} is a file, " \
                  "not a folder; nothing was written\n"
    assert tree_digest(tmp_path) == before


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write into any folder")
def test_an_unwritable_output_is_refused(tmp_path, capsys):
    content = copy_games(tmp_path, "mini")
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        assert main(["build", str(content), "-o", str(locked / "site")]) == 2
        assert "does not let you add files to it" in capsys.readouterr().err
    finally:
        locked.chmod(0o700)


def test_a_failed_write_is_cannot_write_exit_2(tmp_path, capsys, monkeypatch):
    """Past the checks, what the system refuses (a full disk, a read-only mount) is reported, not raised."""
    content = copy_games(tmp_path, "mini")

    def full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("generator.site.render._write_file", full)
    assert main(["build", str(content), "-o", str(tmp_path / "site")]) == 2
    assert capsys.readouterr().err == f"{tmp_path / 'site'}: cannot write: No space left on device\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["content"]


def test_what_a_killed_build_left_is_removed_but_not_a_running_builds(tmp_path):
    target = tmp_path / "site"
    dead = tmp_path / ".site.building.999999999.abc"  # no such process
    dead.mkdir()
    (dead / SITE_MARKER).write_text("x")
    retired = tmp_path / ".site.old.999999999.def"
    (retired / "site").mkdir(parents=True)
    (retired / "site" / SITE_MARKER).write_text("x")
    running = tmp_path / f".site.building.{os.getpid()}.ghi"  # this process: a build in progress
    running.mkdir()
    (running / SITE_MARKER).write_text("x")
    unmarked = tmp_path / ".site.building.999999999.jkl"  # not ours to judge
    unmarked.mkdir()
    (unmarked / "notes.txt").write_text("a person's file")
    staging = new_staging_folder(target)
    assert (staging / SITE_MARKER).is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([running.name, unmarked.name, staging.name])


@pytest.mark.skipif(not hasattr(time, "CLOCK_BOOTTIME"), reason="the system says when it started (Linux)")
def test_what_a_build_left_when_the_power_went_is_removed_though_its_number_is_taken(tmp_path):
    """After a restart, the number of the build the power cut short may be a running process's: its folder,
    made before the restart, is still removed; a person's folder made then is not."""
    long_ago = time.time() - time.clock_gettime(time.CLOCK_BOOTTIME) - 3600
    left = tmp_path / f".site.building.{os.getpid()}.abc"  # the number taken again, by this process
    left.mkdir()
    (left / SITE_MARKER).write_text("x")
    mine = tmp_path / f".site.building.{os.getpid()}.def"
    mine.mkdir()
    (mine / "notes.txt").write_text("a person's file")
    for folder in (left, mine):
        os.utime(folder, (long_ago, long_ago))
    staging = new_staging_folder(tmp_path / "site")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([mine.name, staging.name])


# --- Addresses -------------------------------------------------------------------------------------


@pytest.mark.parametrize("name, address", [
    ("suber-1982", "suber-1982"), ("javascript:alert(document.domain)", "javascript-alert-document.domain"),
    ("My Game", "My-Game"), ("..", "game"), (".hidden", "hidden"), ("a?b#c", "a-b-c"), ("Nómic", "Nomic"),
    ("日本", "game"), ("%2e%2e", "2e-2e"), ("x" * 300, "x" * 100), ("Ørjan", "Orjan"), ("Straße 2", "Strasse-2"),
    ("-Ø", "-O"), ("Œuvre: Þing", "OEuvre-Thing")])
def test_folder_names_become_plain_url_segments(name, address):
    assert url_segment(name) == address and is_url_segment(address)


@pytest.mark.parametrize("name, former", [("Ørjan", ("rjan",)), ("Straße 2", ("Strae-2",)), ("ØÆ", ("game",)),
                                          ("-Ø", ("game",)), ("Nómic", ()), ("My Game", ()), ("suber-1982", ())])
def test_a_name_spelled_now_had_the_letters_dropped_before(name, former):
    assert former_url_segments(name) == former


def test_a_game_whose_address_moved_keeps_its_old_address_working(tmp_path):
    content = copy_games(tmp_path, "mini")
    (content / "mini").rename(content / "Ørjan")  # `rjan` on sites built before its letters were spelled
    site = tmp_path / "site"
    assert main(["build", str(content), "-o", str(site), "--quiet", "--base-url", "https://example.org/n/"]) == 0
    now, before = site / "Orjan", site / "rjan"
    pages = sorted(p.relative_to(now).as_posix() for p in now.rglob("*.html"))
    assert "index.html" in pages and "log.html" in pages
    assert sorted(p.relative_to(before).as_posix() for p in before.rglob("*.html")) == pages
    log = (before / "log.html").read_text()
    assert '<meta http-equiv="refresh" content="0; url=../Orjan/log.html">' in log
    assert '<link rel="canonical" href="../Orjan/log.html">' in log and '<header' not in log
    deep = next(page for page in pages if page.count("/") == 1)
    assert f'content="0; url=../../Orjan/{deep}"' in (before / deep).read_text()
    # A feed keeps its address (the same file); the data pieces only the game's own pages load stay there alone
    # and its ids, the first address's: a reader's feed and its entries stay the ones it read
    assert (before / "feed.xml").read_bytes() == (now / "feed.xml").read_bytes()
    assert "<id>urn:nomic-archive:rjan</id>" in (now / "feed.xml").read_text()
    assert "<id>urn:nomic-archive:rjan:proposal:301</id>" in (now / "feed.xml").read_text()
    assert not list(before.rglob("*.js")) and list(now.rglob("*.js"))
    sitemap = (site / "sitemap.xml").read_text()
    assert "/n/Orjan/log.html</loc>" in sitemap and "/n/rjan/" not in sitemap
    assert 'href="Orjan/index.html"' in (site / "index.html").read_text()
    assert broken_links(site) == []
    # serve finds the same page at the old address
    pipeline = Pipeline(content, serving=True)
    served = pipeline.site(pipeline.replay()).page("rjan/log.html")
    assert pipeline.draw(served) == (before / "log.html").read_bytes()


def test_an_old_address_a_game_has_now_or_two_games_had_is_not_kept():
    def game(slug: str, *former: str) -> SiteGame:
        return SiteGame(slug, slug, Listing(slug, {}), dict, list, former)
    # ØOslo was `Oslo`, Øslo is `Oslo` now; Øx and Æx were both `x`, refused then as one address; Ørjan was `rjan`
    games = [game("OOslo", "Oslo"), game("Oslo", "slo"), game("Ox", "x"), game("AEx", "x"), game("Orjan", "rjan"),
             game("Ostatic", "static")]
    assert {former: moved.slug for former, moved in moved_addresses(games).items()} == {"slo": "Oslo",
                                                                                        "rjan": "Orjan"}


def test_two_folders_with_one_address_are_refused(tmp_path):
    content = copy_games(tmp_path, "mini")
    shutil.copytree(content / "mini", content / "My Game")
    shutil.copytree(content / "mini", content / "My:Game")
    with pytest.raises(Exception) as raised:
        load_content(content)
    assert [str(e) for e in raised.value.errors] == [
        "My:Game: its address on the site would be 'My-Game', as My Game's is; rename one of the folders"]


def test_folders_whose_addresses_differ_in_case_alone_or_name_the_sites_own_files_are_refused(tmp_path, capsys,
                                                                                              monkeypatch):
    """On a Mac's or Windows' disk `Game` and `game` are one folder: the site would mix the two games' pages. A
    game named `static` would stand in the site's own folder of styles and scripts."""
    content = copy_games(tmp_path, "mini")
    for name in ("Mini", "STATIC", "game", "\u0438\u0433\u0440\u0430"):
        shutil.copytree(content / "mini", content / name)
    monkeypatch.chdir(tmp_path)
    assert main(["build", content.name, "-o", "site"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "content/STATIC: a game's folder cannot be named 'STATIC': the site's own files use that name; rename the "
        "folder",
        "content/mini: its address on the site would be 'mini', as Mini's is ('Mini': one folder on a disk that "
        "ignores case, as macOS's and Windows' do); rename one of the folders",
        "content/\u0438\u0433\u0440\u0430: its address on the site would be 'game', as game's is "
        "(\u0438\u0433\u0440\u0430: no letter an address spells, which are Latin letters and digits: 'game' stands "
        "for them); rename one of the folders"]
    assert not (tmp_path / "site").exists()


def test_a_game_named_search_is_served_at_its_own_address(tmp_path, capsys):
    """A keeper's game folder named `search` (the site's own list of games to search is a file, search-games.js):
    it builds, each of its links leads somewhere, and a search of all games looks in it."""
    content = copy_games(tmp_path, "mini")
    shutil.copytree(content / "mini", content / "search")
    assert main(["build", str(content), "-o", str(tmp_path / "site"), "--cache-dir", str(tmp_path / "cache")]) in (0, 1)
    site = tmp_path / "site"
    assert (site / "search" / "index.html").is_file() and (site / "search" / "search" / "index.js").is_file()
    assert '"search"' in (site / "search-games.js").read_text(encoding="utf-8")
    assert 'href="search/index.html"' in (site / "index.html").read_text(encoding="utf-8")
    assert broken_links(site) == []


@pytest.mark.parametrize("path", ["javascript:alert(1)/index.html", "../x.html", "a b/index.html", "x/.hidden",
                                  "//evil.example/x"])
def test_a_page_path_that_is_not_plain_segments_is_a_bug(path):
    with pytest.raises(ValueError, match="not made of plain URL segments"):
        Page(path, "index.html", {})


def test_a_draft_named_like_a_link_gets_a_plain_page(live, game):
    (game / "drafts").mkdir()
    (game / "drafts" / "javascript:alert(1).md").write_text(
        "## Proposal: Idea\nProposer: Ann\n\nRepeal rule 203.\n", encoding="utf-8")
    update = live.update([game / "drafts" / "javascript:alert(1).md"])
    assert update.ok, update.errors
    index = live.answer("/tiny/drafts/index.html").data.decode()
    assert 'href="javascript-alert-1.html"' in index and "javascript:" not in index


# --- serve -----------------------------------------------------------------------------------------


def test_an_overlong_path_segment_is_a_404(server):
    response = get(server, "/" + "a" * 300 + "/index.html")
    assert response.status == 404
    response = get(server, "/" + "/".join(["b" * 200] * 30))
    assert response.status == 404


def test_a_crashing_load_names_the_game_until_it_is_fixed(live, game, monkeypatch):
    other = write_game(game.parent, "other")
    assert live.update([other / "game.toml"]).ok
    real = live.pipeline.replay

    def crash_on_tiny(folder, **options):
        if folder.name == "tiny" and "crash" in (folder / "log.md").read_text(encoding="utf-8"):
            raise RuntimeError("boom")
        return real(folder, **options)

    monkeypatch.setattr(live.pipeline, "replay", crash_on_tiny)
    update = live.update([edit(game / "log.md", "Players bring snacks.", "Players bring crash.")])
    assert [str(e) for e in update.errors] == [
        f"tiny: unexpected error (RuntimeError: boom); this is a bug in nomic-archive {__version__}: please report it "
        "with this game"]
    # An unrelated save does not make the error vanish while tiny's stale pages are served.
    again = live.update([edit(other / "rules.md", "clockwise", "any")])
    assert not again.ok and again.errors == update.errors
    fixed = live.update([edit(game / "log.md", "Players bring crash.", "Players bring fruit.")])
    assert fixed.ok and "fruit" in live.answer("/tiny/proposals/302.html").data.decode()


def test_a_crash_while_updating_is_one_line_in_the_overlay_and_a_traceback_on_the_terminal(live, game, capsys,
                                                                                           monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("a bug\nwith a second line")

    monkeypatch.setattr(live.pipeline, "site", broken)
    hub, updates = serve.EventHub(), []
    loop = serve.UpdateLoop(live, hub, quiet=0.01, report=updates.append)
    loop.start()
    try:
        loop.notify([edit(game / "rules.md", "clockwise", "any")])
        deadline = time.monotonic() + 10
        while not updates and time.monotonic() < deadline:
            time.sleep(0.02)
    finally:
        loop.stop()
        loop.join()
    assert json.loads(hub.error)["problems"] == [{
        "where": str(live.content), "file": str(live.content), "line": 0, "text": "",
        "message": "while updating: unexpected error (RuntimeError: a bug\\nwith a second line); this is a bug in "
                   f"nomic-archive {__version__}: please report it with the content folder"}]
    err = capsys.readouterr().err
    assert "Traceback (most recent call last)" in err and "in broken" in err  # for whoever reports it
    assert "clockwise" in live.answer("/tiny/rules/201.html").data.decode()  # the last good site, still served


def test_a_save_with_a_superscript_shows_its_line_in_the_overlay(live, game):
    update = live.update([edit(game / "log.md", "Die: 5", "Die: \u00b2")])
    (problem,) = live.problems(update.errors)
    assert problem["where"] == "tiny/log.md:18" and "must be the total thrown" in problem["message"]


# --- The terminal ----------------------------------------------------------------------------------


def test_messages_stay_on_one_line_and_drive_nothing():
    assert one_line("a\nb\r\nc\u2028d\x1b[2J\u202e") == "a\\nb\\nc\\nd\ufffd[2J\ufffd"
    assert for_terminal("a\n\tb\x1b[31m\x07") == "a\n\tb\ufffd[31m\ufffd"
    long = one_line("start " + "x" * 5000 + " (write 'Points: Bob +5')")
    assert len(long) == 1000 and long.startswith("start ") and long.endswith("(write 'Points: Bob +5')")
    error = SourceError("g/log.md", 3, "'## A\nB' is not an entry")
    assert str(error) == "g/log.md:3: '## A\\nB' is not an entry"


def test_preview_text_escapes_player_text(tmp_path, capsys):
    game = write_game(tmp_path / "content")
    (game / "drafts").mkdir()
    draft = game / "drafts" / "d.md"
    draft.write_text("## Proposal: Be \x1b[2J kind\nProposer: Ann\n\nRepeal rule 203.\n", encoding="utf-8")
    main(["preview", str(draft), "--text"])
    out = capsys.readouterr().out
    assert "\x1b" not in out and "Be \ufffd[2J kind" in out
    assert re.search(r"^Draft: Be \ufffd\[2J kind by Ann, would be proposal 304$", out, re.MULTILINE)


@pytest.mark.parametrize("arguments, message", [
    (["new", "{tmp}/afile"], "{tmp}/afile: already exists and is not an empty folder; nothing was written (new "
     "writes a game into a new or empty folder, or one holding only the rules.md it starts from)"),
    (["serve", "{tmp}", "--port", "99999"], "127.0.0.1:99999: cannot serve there: bind(): port must be 0-65535."),
    (["diff", "{tmp}/mini@\u00b3", "{tmp}/mini"], "{tmp}/mini@\u00b3: no such point; " + HINT),
    (["diff", "{tmp}/mini@" + "9" * 5000, "{tmp}/mini"],
     "{tmp}/mini@" + "9" * 5000 + ": number too large (at most 12 digits)"),
], ids=["new-on-a-file", "no-such-port", "superscript-point", "5000-digit-point"])
def test_command_line_mistakes_are_exit_2_not_bugs(tmp_path, capsys, arguments, message):
    content = copy_games(tmp_path, "mini")
    (content / "afile").write_text("x")
    assert main([a.format(tmp=content) for a in arguments]) == 2
    assert capsys.readouterr().err == one_line(message.format(tmp=content)) + "\n"


@pytest.mark.parametrize("template, message", [
    ("{% block main %}{% if %}{% endblock %}", "Expected an expression, got 'end of statement block'"),
    ("{% block main %}{{ nosuch.thing }}{% endblock %}", "UndefinedError: 'nosuch' is undefined"),
])
def test_a_broken_template_override_is_its_file_and_line_exit_2(tmp_path, capsys, monkeypatch, template, message):
    content = copy_games(tmp_path, "mini")
    (content / "_templates").mkdir()
    (content / "_templates" / "index.html").write_text('{% extends "base.html" %}\n' + template + "\n")
    monkeypatch.chdir(tmp_path)
    assert main(["build", "content", "-o", "site"]) == 2
    assert capsys.readouterr().err == f"_templates/index.html:2: {message}\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["content"]


def test_an_event_by_a_rule_of_thousands_of_digits_is_a_finding_not_a_crash(tmp_path, capsys):
    """No rule has a number longer than a number may be (limits.MAX_DIGITS): an event `By:` one is by a rule
    not in force, whatever its digits (int() refuses to read 5,000 of them)."""
    content = tmp_path / "content"
    shutil.copytree(ROOT / "tests" / "cases" / "engine" / "v12-rules-history", content / "game")
    log = content / "game" / "log.md"
    log.write_text(log.read_text(encoding="utf-8").replace("By: rule 2999", "By: rule " + "9" * 5000),
                   encoding="utf-8")
    assert main(["check", str(content)]) == 1
    assert "game/log.md:39: event 'A rule from before the archive': By: rule 9999" in capsys.readouterr().out
