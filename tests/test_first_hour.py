"""A keeper's first hour: every message says how to go on, files are named as they can be opened from where the
command ran, a game starts from the keeper's own ruleset in one step, and long work shows its progress on a
terminal only."""
from __future__ import annotations

import datetime as dt
import fcntl
import os
import pty
import re
import shutil
import socket
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

from generator import cli
from generator.cli import main
from generator.commands.build import build_summary
from generator.commands.new import game_title
from tests.helpers import ROOT, copy_games

SLIPS = ROOT / "content" / "slips-example"
PLAIN_RULES = """From: keeper@example.org
Subject: our rules

Hi all, here they are.

101. All players must always abide by all the rules then in effect.

102. Initially rules in the 100's are immutable and rules in the 200's are mutable.

201. Players shall alternate in clockwise order, taking one whole turn apiece.

Cheers
"""


def run(cwd: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "generator", *args], cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})})


# --- Messages that say how to go on ------------------------------------------------------------------


@pytest.mark.parametrize("command", ["build", "check", "serve"])
def test_without_content_here_the_message_says_where_it_looked_and_how_to_name_another(tmp_path, capsys,
                                                                                    monkeypatch, command):
    monkeypatch.chdir(tmp_path)
    assert main([command]) == 2
    assert capsys.readouterr().err == (f"content: looked for the content folder in {tmp_path}, and there is none; "
                                       f"name another folder: nomic-archive {command} FOLDER; or start a game "
                                       "here: nomic-archive new content/GAME --player NAME\n")
    assert os.listdir(tmp_path) == []  # nothing made, a site least of all
    (tmp_path / "content").write_text("not a folder")
    assert main([command]) == 2
    assert capsys.readouterr().err == (f"content: looked for the content folder in {tmp_path}, and found a file; "
                                       f"name another folder: nomic-archive {command} FOLDER\n")


@pytest.mark.parametrize("command", ["build", "check", "serve"])
def test_a_folder_named_that_is_missing_or_a_file_is_said_to_be_so(tmp_path, capsys, monkeypatch, command):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "afile").write_text("x")
    assert main([command, "contnet"]) == 2
    assert capsys.readouterr().err == "contnet: no such folder\n"
    assert main([command, "afile"]) == 2
    assert capsys.readouterr().err == ("afile: is a file, not a folder: name a game's folder (the one holding "
                                       "game.toml) or a folder of games\n")


def test_preview_of_a_draft_that_is_not_there_says_so(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["preview", "nothere.md"]) == 2
    assert capsys.readouterr().err == "nothere.md: no such file; name a draft, e.g. content/GAME/drafts/NAME.md\n"


def test_a_port_in_use_suggests_port_0(tmp_path, capsys):
    content = copy_games(tmp_path, "mini")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", str(content), "--port", str(port)]) == 2
    assert capsys.readouterr().err == (f"127.0.0.1:{port}: cannot serve there: Address already in use; "
                                       "--port 0 picks a free one\n")


def test_serve_run_twice_on_one_port_says_where_the_first_serves(server, capsys):
    """A keeper who runs serve in a second terminal, the first still serving: the port is said to be the first
    serve's, with its address, not only 'in use'."""
    port = server.server_address[1]
    assert main(["serve", str(server.site.content), "--port", str(port)]) == 2
    assert capsys.readouterr().err == (f"127.0.0.1:{port}: cannot serve there: Address already in use, by another "
                                       f"nomic-archive serve: its site is at http://127.0.0.1:{port}/ (Ctrl-C in its "
                                       "terminal stops it); --port 0 picks a free one\n")


@pytest.mark.parametrize("name, title", [
    ("g-suber-2nd", "G Suber 2nd"), ("my-game", "My Game"), ("the_21st_century", "The 21st Century"),
    ("LiveJournal-2007", "LiveJournal 2007"), ("3rd-try", "3rd Try")])
def test_a_new_game_is_titled_from_its_folder_without_capitals_after_digits(name, title):
    assert game_title(name) == title


def test_new_writes_that_title(tmp_path, capsys):
    assert main(["new", str(tmp_path / "g-suber-2nd"), "--player", "Ann"]) == 0
    assert 'title = "G Suber 2nd"\n' in (tmp_path / "g-suber-2nd" / "game.toml").read_text()


def test_the_build_summary_counts_one_game_in_the_singular(tmp_path, capsys):
    content = copy_games(tmp_path, "mini")
    assert main(["build", str(content), "-o", str(tmp_path / "site")]) == 0
    summary = capsys.readouterr().err
    assert re.fullmatch(r"built \d+ pages for 1 game into \S+ in \d+\.\d\ds\n", summary), summary


def test_the_build_summary_counts_in_the_singular_and_the_plural():
    one = {"pages": 1, "written": 1, "games": 1, "findings": 1, "seconds": 0.5}
    assert build_summary(one, Path("site")) == ("built 1 page for 1 game into site in 0.50s; 1 discrepancy (see "
                                                "each game's check page or run nomic-archive check)")
    many = {"pages": 1200, "written": 2, "games": 2, "findings": 3, "seconds": 2}
    assert build_summary(many, Path("site")) == ("built 1,200 pages (2 written, the rest unchanged) for 2 games into "
                                                 "site in 2.00s; 3 discrepancies (see each game's check page or run "
                                                 "nomic-archive check)")


@pytest.mark.parametrize("command", ["build", "check", "serve"])
def test_help_says_the_default_content_folder_and_where_the_cache_is(command):
    done = run(ROOT, command, "--help", env={"COLUMNS": "400", "NOMIC_ARCHIVE_CACHE_DIR": ""})
    assert done.returncode == 0
    assert "content folder or one game (default: content/ in the working directory)" in done.stdout
    if command == "serve":  # which keeps what it read in memory, and writes nothing
        assert "cache" not in done.stdout
        return
    import platformdirs

    assert platformdirs.user_cache_dir("nomic-archive", appauthor=False) in done.stdout
    assert "deleting it costs only time" in done.stdout


def test_check_help_explains_each_format():
    done = run(ROOT, "check", "--help", env={"COLUMNS": "400"})
    assert "text: file:line: message, one a line (default); json: the report as data" in done.stdout
    assert "github: GitHub Actions workflow commands" in done.stdout


# --- Paths named from the working directory ---------------------------------------------------------


@pytest.mark.parametrize("where", ["root", "content", "game", "outside"])
def test_errors_name_files_from_where_the_command_runs(tmp_path, where):
    content = tmp_path / "repo" / "content"
    shutil.copytree(SLIPS, content / "slips-example")
    (content / "slips-example" / "log.md").write_text("## Proposal 301: x\nProposer: Ada\nDate: someday\n")
    (tmp_path / "outside").mkdir()
    cwd = {"root": tmp_path / "repo", "content": content, "game": content / "slips-example",
           "outside": tmp_path / "outside"}[where]
    done = run(cwd, "build", str(content), "-o", str(tmp_path / "site"))
    log = {"root": "content/slips-example/log.md", "content": "slips-example/log.md", "game": "log.md",
           "outside": f"{content}/slips-example/log.md"}[where]
    assert (done.returncode, done.stderr) == (2, f"{log}:3: 'someday' is not a date like 1982-06-03\n")


def test_preview_names_a_draft_from_where_it_runs(tmp_path, monkeypatch, capsys):
    content = tmp_path / "content"
    shutil.copytree(SLIPS, content / "slips-example")
    (content / "slips-example" / "drafts").mkdir()
    draft = content / "slips-example" / "drafts" / "d.md"
    draft.write_text("## Proposal: x\nProposer: Nobody\n\nRepeal rule 999.\n")
    monkeypatch.chdir(content / "slips-example")
    assert main(["preview", "drafts/d.md", "--text"]) == 1
    assert re.search(r"^  drafts/d\.md:\d+: ", capsys.readouterr().out, re.MULTILINE)


# --- Starting a game ----------------------------------------------------------------------------------


def test_new_with_rules_starts_a_game_from_a_plain_text_ruleset_in_one_step(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("rules.txt").write_text(PLAIN_RULES)
    assert main(["new", "content/my-game", "--rules", "rules.txt", "--player", "Ann", "--player", "Bo"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("created content/my-game from the rules of rules.txt, with the mechanics of the "
                          "suber-1982 ruleset in game.toml")
    # What the reading left out and guessed, said as `import text` says it: the keeper's to confirm
    assert err.splitlines() == ["rules.txt:1: left out: lines 1-4, before the first rule, not a rule",
                                "rules.txt:12: left out: line 12, after the rules, not a rule (a signature or a "
                                "sign-off, or text repeated from before the rules)",
                                "rules.txt:8: guessed: rules 101-102, 201 classed by Suber's numbering (immutable in "
                                "the 100s, mutable in the 200s), which rule 102 says applies"]
    rules = Path("content/my-game/rules.md").read_text()
    assert "### 101" in rules and "### 201" in rules and "keeper@example.org" not in rules and "Cheers" not in rules
    assert main(["check", "content/my-game"]) == 0
    assert capsys.readouterr().out == "my-game: 0 proposals, consistent\n"


def test_new_with_rules_reads_rules_md_as_it_is(tmp_path, capsys):
    rules = tmp_path / "mine.md"
    shutil.copyfile(SLIPS / "rules.md", rules)
    assert main(["new", str(tmp_path / "content" / "g"), "--rules", str(rules), "--ruleset", "suber-2nd",
                 "--player", "Ann"]) == 0
    assert (tmp_path / "content" / "g" / "rules.md").read_bytes() == rules.read_bytes()
    assert main(["check", str(tmp_path / "content" / "g")]) == 0


def test_new_with_rules_that_cannot_be_read_writes_nothing(tmp_path, capsys):
    (tmp_path / "chatter.txt").write_text("no rules in here at all\n")
    assert main(["new", str(tmp_path / "g"), "--rules", str(tmp_path / "chatter.txt")]) == 2
    assert capsys.readouterr().err.startswith(f"{tmp_path / 'chatter.txt'}:")
    assert not (tmp_path / "g").exists()


def test_new_starts_a_game_around_the_rules_md_that_import_wrote(tmp_path, capsys, monkeypatch):
    """The README's order: import first, then new in the same folder."""
    monkeypatch.chdir(tmp_path)
    Path("rules.txt").write_text(PLAIN_RULES)
    assert main(["import", "rules.txt", "-o", "content/my-game/rules.md"]) == 0
    # The import says what it left out (the mail's headers, its sign-off) and what the record does not say: the
    # classes, taken from the rule that says Suber's numbering applies.
    assert capsys.readouterr().err == (
        "rules.txt:1: left out: lines 1-4, before the first rule, not a rule\n"
        "rules.txt:12: left out: line 12, after the rules, not a rule (a signature or a sign-off, or text repeated "
        "from before the rules)\n"
        "rules.txt:8: guessed: rules 101-102, 201 classed by Suber's numbering (immutable in the 100s, mutable in "
        "the 200s), which rule 102 says applies\n")
    imported = Path("content/my-game/rules.md").read_bytes()
    assert main(["new", "content/my-game", "--rules", "rules.txt", "--player", "Ann"]) == 2
    assert capsys.readouterr().err == ("content/my-game/rules.md: exists, and new does not replace it (it may be a "
                                       "keeper's only copy): leave --rules out to start the game from it, or name "
                                       "a new folder; nothing was written\n")
    assert main(["new", "content/my-game", "--player", "Ann"]) == 0
    assert capsys.readouterr().out.startswith("created content/my-game from its rules.md")
    assert Path("content/my-game/rules.md").read_bytes() == imported
    assert sorted(p.name for p in Path("content/my-game").iterdir()) == ["README.md", "game.toml", "log.md",
                                                                         "rules.md"]
    assert main(["check", "content/my-game"]) == 0


def test_the_docs_new_commands_work_as_written(tmp_path, capsys, monkeypatch):
    """Each `nomic-archive new …` written inline in the README and the guide, run as written (where it names
    rules.txt, one is there). tests/test_docs_examples.py runs those of code blocks."""
    docs = [ROOT / "README.md", *sorted((ROOT / "docs" / "guide").glob("*.md"))]
    commands = [command.split() for doc in docs
                for command in re.findall(r"`nomic-archive (new [^`]+)`", doc.read_text(encoding="utf-8"))]
    assert len(commands) >= 3 and any("--rules" in command for command in commands)
    for number, command in enumerate(commands):
        (tmp_path / str(number)).mkdir()
        monkeypatch.chdir(tmp_path / str(number))
        Path("rules.txt").write_text(PLAIN_RULES)
        assert main(command) == 0, command
        assert main(["check", command[1]]) == 0, command


@pytest.mark.parametrize("ruleset, said", [
    ("suber-1982", "--player: name each player, in seating order: --player Ann --player Bob ...; nothing was "
                   "written\n"),
    ("solitaire", "--player: name its player: --player NAME; nothing was written\n")])
def test_new_invents_no_players(tmp_path, capsys, monkeypatch, ruleset, said):
    monkeypatch.chdir(tmp_path)
    assert main(["new", "content/g", "--ruleset", ruleset]) == 2
    assert capsys.readouterr().err == said
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("ruleset", ["suber-1982", "solitaire"])
def test_a_new_game_says_how_to_keep_it_where_keepers_read_and_the_site_does_not_publish(tmp_path, capsys,
                                                                                       monkeypatch, ruleset):
    """The how-to goes in the game's README.md, which nothing reads; the log starts empty, for the keepers'
    own words above its first entry (shown on the home page, under "From the keepers")."""
    monkeypatch.chdir(tmp_path)
    assert main(["new", "content/my-game", "--ruleset", ruleset, "--player", "Ann"]) == 0
    assert "its README.md says how to keep it" in capsys.readouterr().out
    game = tmp_path / "content" / "my-game"
    how = (game / "README.md").read_text(encoding="utf-8")
    assert how.startswith("# My Game: how to keep it\n\nFor the keepers: nomic-archive does not read this file, and "
                          "the site does not show it.") and "Ann" in how
    assert (game / "log.md").read_text(encoding="utf-8") == ""
    assert main(["build", "content", "-o", "site"]) == 0
    published = "".join(page.read_text(encoding="utf-8") for page in (tmp_path / "site").rglob("*.html"))
    assert "From the keepers" not in published and "how to keep it" not in published
    assert "README" not in " ".join(str(path) for path in (tmp_path / "site").rglob("*"))
    (game / "log.md").write_text("Kept by Ann, on the club's board.\n", encoding="utf-8")
    assert main(["build", "content", "-o", "site"]) == 0
    home = (tmp_path / "site" / "my-game" / "index.html").read_text(encoding="utf-8")
    assert "From the keepers" in home and "Kept by Ann, on the club" in home


# --- Progress ---------------------------------------------------------------------------------------


def test_quiet_and_a_non_terminal_print_no_progress(tmp_path):
    """Progress drawn from the first step (AT_ONCE) on a pipe, as a script or CI reads it: none, nor with --quiet
    (which leaves out the summary too)."""
    content = copy_games(tmp_path, "mini")
    done = _run_at_once(tmp_path, ["build", str(content), "-o", str(tmp_path / "site")])
    assert done.returncode == 0 and re.fullmatch(r"built \d+ pages for 1 game into \S+ in \d+\.\d\ds\n", done.stderr)
    done = _run_at_once(tmp_path, ["build", str(content), "-o", str(tmp_path / "site"), "--quiet"])
    assert (done.returncode, done.stderr) == (0, "")
    done = _run_at_once(tmp_path, ["check", str(content)])
    assert (done.returncode, done.stderr) == (0, "")


# The program with progress drawn from the first step (no second's delay), for a small game to show it.
AT_ONCE = ("import sys; import generator.progress as p; p.DELAY_SECONDS = 0; from generator.cli import main; "
           "sys.exit(main(sys.argv[1:]))")


def _run_at_once(cwd: Path, args: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", AT_ONCE, *args], cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


def _on_a_terminal(cwd: Path, args: list[str], *, at_once: bool) -> tuple[int, str]:
    """Run the program with its stderr (and stdout) on a pseudo-terminal 100 columns wide; its exit code and
    all it wrote there."""
    primary, secondary = pty.openpty()
    fcntl.ioctl(secondary, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    program = ["-c", AT_ONCE] if at_once else ["-m", "generator"]
    process = subprocess.Popen([sys.executable, *program, *args], cwd=cwd, stdin=subprocess.DEVNULL,
                               stdout=secondary, stderr=secondary, env={**os.environ, "PYTHONPATH": str(ROOT)})
    os.close(secondary)
    written = b""
    while True:
        try:
            chunk = os.read(primary, 65536)
        except OSError:  # the program has ended and closed the terminal
            break
        if not chunk:
            break
        written += chunk
    os.close(primary)
    return process.wait(timeout=60), written.decode("utf-8", "replace")


@pytest.mark.parametrize("command", ["build", "check"])
def test_a_terminal_shows_progress_of_long_work_and_clears_it(tmp_path, command):
    content = copy_games(tmp_path, "mini")
    args = [command, str(content)] + (["-o", str(tmp_path / "site")] if command == "build" else [])
    code, written = _on_a_terminal(tmp_path, args, at_once=True)
    assert code == 0, written
    steps = 4 if command == "build" else 2
    assert f"\r{command}: step {steps} of {steps}, " in written, written
    assert re.search(r"\r {20,}\r", written), written  # the line cleared at the end
    code, written = _on_a_terminal(tmp_path, args + ["--quiet"], at_once=True)
    assert code == 0 and "step" not in written, written


def test_a_terminal_shows_no_progress_for_work_quicker_than_a_second(tmp_path):
    content = copy_games(tmp_path, "mini")
    code, written = _on_a_terminal(tmp_path, ["check", str(content)], at_once=False)
    assert code == 0 and "step" not in written, written


def test_a_solitaire_game_takes_no_ruleset_of_the_keepers(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("rules.txt").write_text(PLAIN_RULES)
    assert main(["new", "content/solo", "--ruleset", "solitaire", "--rules", "rules.txt", "--player", "Solo"]) == 2
    assert capsys.readouterr().err == ("--rules: a solitaire game plays Solitaire Nomic's own rules; choose another "
                                       "--ruleset, or start it in a new folder without --rules; nothing was written\n")
    assert not Path("content").exists()


# --- Help: what each command does, what its exit codes mean, placeholders that say what to write ----------

COMMANDS = [[command] for command in cli.COMMAND_MODULES if command != "import"] + \
    [["import", kind] for kind in cli.IMPORT_KINDS]


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_each_commands_help_says_in_a_line_what_it_does(command):
    done = run(ROOT, *command, "--help", env={"COLUMNS": "200"})
    assert done.returncode == 0
    usage, _, rest = done.stdout.partition("\n\n")
    first = rest.splitlines()[0]
    assert re.fullmatch(r"[A-Z][^\n]{20,}[.:]?", first) and not first.startswith(("positional", "options")), rest


@pytest.mark.parametrize("command, meanings", [
    ("check", ["Exit 0: every game is consistent", "1: discrepancies", "2: the content could not be read"]),
    ("diff", ["Exit 0: the rulesets are the same", "1: they differ", "2: a side could not be read"]),
    ("preview", ["Exit 0: the engine has no objection", "1: it objects", "2: the draft or its game could not be read"]),
    ("solve", ["Exit 0: a win was found", "1: there is none", "3: the search reached --max-states"])])
def test_the_help_of_a_command_whose_exit_1_means_something_says_what(command, meanings):
    shown = " ".join(run(ROOT, command, "--help", env={"COLUMNS": "200"}).stdout.split())
    for meaning in meanings:
        assert meaning in shown, shown


def test_diff_says_what_each_format_is():
    shown = " ".join(run(ROOT, "diff", "--help", env={"COLUMNS": "200"}).stdout.split())
    assert "--format {text,html,json} text: each rule's redline" in shown
    assert "html: a page of redlines; json: the comparison as data" in shown


# The placeholders of every option and argument: each a word for what to write there, one value each (the
# import kinds' TITLE, START and STOP: the text of a title, of the line where the rules start, where they stop).
PLACEHOLDERS = {"CONTENT", "FOLDER", "FILE", "PATH", "N", "URL", "NAME", "TEXT", "SEED", "PORT", "SOURCE", "DRAFT",
                "OLD", "NEW", "GAME", "POINT", "REPO", "REV", "CLONE", "KIND", "COMMAND", "TITLE", "START", "STOP"}


@pytest.mark.parametrize("command", [[]] + COMMANDS + [["import"]], ids=lambda c: " ".join(c) or "nomic-archive")
def test_placeholders_are_words_for_what_to_write(command):
    usage = run(ROOT, *command, "--help", env={"COLUMNS": "1000"}).stdout.partition("\n\n")[0]
    shown = set(re.findall(r"\b[A-Z][A-Z_]+\b", usage.removeprefix("usage: nomic-archive")))
    assert shown <= PLACEHOLDERS, shown - PLACEHOLDERS
    if command == ["new"]:
        assert "[--player NAME]" in usage


@pytest.mark.parametrize("jobs", ["0", "-3", "two"])
def test_jobs_must_be_a_positive_whole_number(tmp_path, jobs):
    content = copy_games(tmp_path, "mini")
    done = run(tmp_path, "build", str(content), "-o", str(tmp_path / "site"), "--jobs", jobs)
    assert done.returncode == 2 and f"argument --jobs: must be a positive whole number, not '{jobs}'" in done.stderr
    assert not (tmp_path / "site").exists()


def test_serve_neither_reads_nor_writes_the_cache(tmp_path, monkeypatch):
    """As its help and the reference say: what it read stays in memory."""
    from generator.serve import LiveSite

    content = copy_games(tmp_path, "mini")
    monkeypatch.setenv("NOMIC_ARCHIVE_CACHE_DIR", str(tmp_path / "cache"))
    assert LiveSite(content).update().ok
    assert not (tmp_path / "cache").exists()


def test_a_save_by_rename_says_its_problems_once(tmp_path, capsys, monkeypatch):
    """vim and `sed -i` save by writing another file and renaming it: serve sees several events, often two
    updates finding the same problem. The keeper reads it once, and again only once it changed or went."""
    from generator.commands.serve import UpdatePrinter
    from generator.errors import SourceError
    from generator.serve import Update

    monkeypatch.chdir(tmp_path)
    printer = UpdatePrinter(tmp_path)
    printer(Update(1, [], 0.01))
    capsys.readouterr()
    broken = Update(1, [SourceError("g/log.md", 8, "'someday' is not a date like 1982-06-03")], 0.01)
    printer(broken)
    printer(broken)
    said = ("g/log.md:8: 'someday' is not a date like 1982-06-03\n"
            "the last good site is still served; fix the file and it is drawn again\n")
    assert capsys.readouterr().err == said
    printer(Update(1, [SourceError("g/log.md", 9, "'soon' is not a date like 1982-06-03")], 0.01))
    assert capsys.readouterr().err.startswith("g/log.md:9: 'soon'")
    printer(Update(1, [], 0.01))
    printer(broken)
    assert capsys.readouterr().err == "replayed 1 game in 0.01s\n" + said


def test_a_web_address_where_a_file_or_a_clone_belongs_says_how_to_bring_it_here(tmp_path, capsys):
    """A newcomer pasting a wiki page's or a repository's address: refused (exit 2, nothing written), saying that
    only this computer's files are read and what to do, not only `https:/example.org/...: no such file`."""
    assert main(["import", "text", "https://wiki.example.org/Ruleset", "-o", str(tmp_path / "rules.md")]) == 2
    assert capsys.readouterr().err.endswith(
        "no such file: a web address, and nomic-archive reads only the files on this computer: save the page's text "
        "to a file (a wiki page's wikitext: its Edit source) and name the file\n")
    assert main(["import", "git", "https://github.com/someone/nomic", "--rules", "rules.md", "-o",
                 str(tmp_path / "game")]) == 2
    assert "no such folder: a web address, and nomic-archive reads only the files on this computer: clone the " \
           "repository (git clone ADDRESS) and name the clone" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_the_licence_is_the_mit_licence_pyproject_names():
    licence = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert licence.startswith("MIT License\n\nCopyright (c) the nomic-archive developers\n")
    assert "THE SOFTWARE IS PROVIDED \"AS IS\", WITHOUT WARRANTY OF ANY KIND" in licence
    assert 'license = "MIT"' in (ROOT / "pyproject.toml").read_text(encoding="utf-8")


def test_serve_started_on_a_broken_game_says_its_pages_say_what_is_wrong(tmp_path, capsys, monkeypatch):
    """At the start a game has no last good site: its pages and its entry on the home page say what is wrong (a
    log leading out of the content folder, here) until the file is fixed, and the terminal says so once, not that
    an earlier site is served."""
    from generator.commands.serve import UpdatePrinter
    from generator.serve import LiveSite

    content = copy_games(tmp_path, "mini")
    game = next(path.parent for path in content.glob("*/game.toml"))
    (tmp_path / "outside.md").write_text((game / "log.md").read_text(encoding="utf-8"), encoding="utf-8")
    (game / "log.md").unlink()
    (game / "log.md").symlink_to(tmp_path / "outside.md")
    monkeypatch.chdir(tmp_path)
    live = LiveSite(content, live_reload="")
    update = live.update()
    UpdatePrinter(tmp_path)(update)
    said = capsys.readouterr().err.splitlines()
    assert said[-2].endswith(f"{game.name}/log.md: leads out of the content folder through a symbolic "
                             f"link (to {tmp_path / 'outside.md'}); only files inside it are read"), said
    assert said[-1] == ("a game that cannot be read is not served: its pages say what is wrong until the file is "
                        "fixed; every other game is served")
    for path in ("/", f"/{game.name}/index.html"):
        assert "leads out of the content folder" in live.answer(path).data.decode("utf-8")


def test_check_in_json_of_an_archive_that_cannot_be_read_is_still_json(tmp_path, capsys, monkeypatch):
    """A player's script reading `check --format json` gets data at exit 2 too: each problem where it is (the
    same lines as ever on stderr), no game, and the archive as it was."""
    import json

    content = copy_games(tmp_path, "mini")
    log = content / "mini" / "log.md"
    log.write_bytes(log.read_bytes() + b"Ann says caf\xe9\n")
    before = log.read_bytes()
    monkeypatch.chdir(tmp_path)
    assert main(["check", content.name, "--format", "json"]) == 2
    out, err = capsys.readouterr()
    line = before.count(b"\n")
    assert json.loads(out) == {"version": 1, "games": [], "errors": [
        {"file": "mini/log.md", "path": f"{content.name}/mini/log.md", "line": line, "column": 13,
         "message": "not UTF-8 text (byte 0xe9); save the file as UTF-8"}]}
    assert err == f"{content.name}/mini/log.md:{line}:13: not UTF-8 text (byte 0xe9); save the file as UTF-8\n"
    assert log.read_bytes() == before
    monkeypatch.chdir(content / "mini")  # no content folder here: nothing to check, said as data as well
    assert main(["check", "--format", "json"]) == 2
    out, err = capsys.readouterr()
    (error,) = json.loads(out)["errors"]
    assert error["file"] == "content" and error["message"].startswith("looked for the content folder in ")
    assert err.startswith("content: looked for the content folder in ")


def test_serve_says_on_the_terminal_why_a_draft_is_not_previewed(tmp_path, capsys, monkeypatch):
    """A proposer saves a draft serve cannot read: its page says why, and so does the terminal, once, naming the
    file from where serve was started; the line goes when the draft is mended."""
    from generator.commands.serve import UpdatePrinter
    from generator.serve import LiveSite

    content = copy_games(tmp_path, "mini")
    monkeypatch.chdir(tmp_path)
    drafts = content / "mini" / "drafts"
    drafts.mkdir()
    (drafts / "turn.md").write_text("Amend rule 2", encoding="utf-8")
    site, printer = LiveSite(content), UpdatePrinter(content)
    first = site.update()
    assert first.ok
    printer.say_drafts(first)  # (as serve's start does, after "read 1 game")
    printer(site.update([drafts / "turn.md"]))  # the same draft saved again, as it was: not said again
    said = capsys.readouterr().err.splitlines()
    assert [line for line in said if "turn.md" in line] == [
        "content/mini/drafts/turn.md:1: a draft must hold one '## Proposal: Title' entry (the draft is not "
        "previewed; every other page is served)"]
    (drafts / "turn.md").write_text("## Proposal: A turn\nProposer: Ann\n\nRepeal rule 201.\n", encoding="utf-8")
    printer(site.update([drafts / "turn.md"]))
    assert "turn.md" not in capsys.readouterr().err


# --- A newcomer's slips: what is wrong, where, and what to write -------------------------------------


@pytest.mark.parametrize("where, expected", [
    ("content", "looked for the content folder in {here}, which is a folder of games itself; run the command "
                "from the folder above it: cd .. && nomic-archive {command} content"),
    ("content/our-game", "looked for the content folder in {here}, which is a game's folder itself; run the "
                         "command from two folders up: cd ../.. && nomic-archive {command} content/our-game")])
@pytest.mark.parametrize("command", ["build", "check", "serve"])
def test_a_command_run_inside_the_content_folder_says_where_to_run_it(tmp_path, capsys, monkeypatch, command,
                                                                       where, expected):
    """It used to say there was no content folder and offered to start a game there: content/content/GAME."""
    assert main(["new", str(tmp_path / "content/our-game"), "--player", "Ann"]) == 0
    before = sorted(tmp_path.rglob("*"))
    here = tmp_path / where
    monkeypatch.chdir(here)
    capsys.readouterr()
    assert main([command]) == 2
    assert capsys.readouterr().err == "content: " + expected.format(here=here, command=command) + "\n"
    assert sorted(tmp_path.rglob("*")) == before  # nothing made: no site, no game


@pytest.mark.parametrize("slip, expected", [
    (('title = "Our Game"', 'title = Our Game'), '1:9: not valid TOML: Invalid value; a text needs quotes (title = '
                                                '"Our Game"), a date is written 2026-12-07, a list ["Ann", "Bob"]'),
    (('title = "Our Game"', 'title = "Our Game'), "1:18: not valid TOML: Illegal character '\\n'; a quoted text is "
                                                 "not closed on its line: end it with the quote it opens with"),
    (("start = {today}", "start = 7 December 2026"), "2:11: not valid TOML: Expected newline or end of document "
                                                        "after a statement; something follows a value on its line: a "
                                                        "text of several words needs quotes, a date is written "
                                                        "2026-12-07, a comment starts with #"),
    (('die = "d6"', 'die "d6"'), "16:5: not valid TOML: Expected '=' after a key in a key/value pair; a setting is "
                                 "written name = value"),
    (("[scoring]", "[scorring]"), "14: unknown table [scorring] (did you mean [scoring]?)"),
    (("[turns]", "[turn]"), "24: unknown table [turn] (did you mean [turns]?)")])
def test_a_slip_in_game_toml_says_what_to_write(tmp_path, capsys, slip, expected):
    """tomllib's words ('Invalid value') told a keeper nothing of what to write; a mistyped table's name was
    matched against the settings ('did you mean scoring.win?')."""
    game = tmp_path / "content/our-game"
    assert main(["new", str(game), "--player", "Ann", "--player", "Bob"]) == 0
    toml = game / "game.toml"
    text = toml.read_text().replace(*(part.format(today=dt.date.today().isoformat()) for part in slip), 1)
    assert text != toml.read_text()  # (`new` starts the game today)
    toml.write_text(text)
    capsys.readouterr()
    assert main(["check", str(game)]) == 2
    assert capsys.readouterr().err == f"{game}/game.toml:{expected}\n"
    assert toml.read_text() == text


@pytest.mark.parametrize("renamed, expected", [
    (("log.md", "Log.md"), "Log.md: not read: the log must be named log.md (or be files in log/); rename it log.md"),
    (("log.md", "log.txt"), "log.txt: not read: the log must be named log.md (or be files in log/); rename it "
                            "log.md"),
    (("rules.md", "rules.txt"), "rules.md: missing: a game needs game.toml and rules.md\n{game}/rules.txt: not "
                                "read: the rules must be named rules.md; rename it rules.md (a plain-text ruleset "
                                "becomes rules.md with: nomic-archive import text {game}/rules.txt -o "
                                "{game}/rules.md)")])
def test_a_log_or_rules_under_another_name_is_said_not_read(tmp_path, capsys, monkeypatch, renamed, expected):
    """A log saved as Log.md or log.txt was not read: the game replayed an empty log and `check` said it was
    consistent, exit 0, the keeper's record unread."""
    monkeypatch.chdir(tmp_path)
    game = Path("content/our-game")
    assert main(["new", str(game), "--player", "Ann", "--player", "Bob"]) == 0
    (game / "log.md").write_text("## Proposal 301: Counting the days\nProposer: Ann\nDate: 2026-12-07\n")
    (game / renamed[0]).rename(game / renamed[1])
    files = {path: path.read_bytes() for path in game.iterdir()}
    capsys.readouterr()
    assert main(["check", str(game)]) == 2
    assert capsys.readouterr().err == f"{game}/" + expected.format(game=game) + "\n"
    assert {path: path.read_bytes() for path in game.iterdir()} == files


@pytest.mark.parametrize("command", ["build", "check", "serve"])
def test_a_mistyped_folder_names_the_one_meant(tmp_path, capsys, monkeypatch, command):
    monkeypatch.chdir(tmp_path)
    assert main(["new", "content/our-game", "--player", "Ann"]) == 0
    capsys.readouterr()
    assert main([command, "content/our-gmae"]) == 2
    assert capsys.readouterr().err == "content/our-gmae: no such folder (did you mean content/our-game?)\n"
    assert main([command, "contnet"]) == 2
    assert capsys.readouterr().err == "contnet: no such folder (did you mean content?)\n"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["content"]


# --- A first proposal written as a person would write it -----------------------------------------------------

FIRST_PROPOSAL = ("## Proposal 301: Tea\nProposer: Ann\nDate: {date}\nVotes: for {votes}\nDie: 3\nResult: adopted\n\n"
                  "Enact rule: Tea\n\n> Tea is served at four.\n")


@pytest.mark.parametrize("date, votes, code, said", [
    ("7 Dec 2026", "Ann, Bob", 2, "log.md:3: '7 Dec 2026' is not a date like 1982-06-03: write 2026-12-07"),
    ("December 7, 2026", "Ann, Bob", 2, "log.md:3: 'December 7, 2026' is not a date like 1982-06-03: write "
                                        "2026-12-07"),
    ("07/12/2026", "Ann, Bob", 2, "log.md:3: '07/12/2026' is not a date like 1982-06-03"),  # (July or December?)
    ("2026-12-07", "Ann and Bob", 1, "log.md:4: proposal 301: voter: Ann and Bob is not a player in the game "
                                     "(players: Ann, Bob): a line of names separates them with commas ('Ann, Bob')"),
    ("2026-12-07", "Ann, Bob against", 1, "log.md:4: proposal 301: voter: Bob against is not a player in the game "
                                          "(players: Ann, Bob): 'against' starts a group of its own, after a ';' "
                                          "('...; against Bob')"),
    ("2026-12-07", "Ann, agianst Bob", 1, "log.md:4: proposal 301: voter: agianst Bob is not a player in the game "
                                          "(players: Ann, Bob): 'against' starts a group of its own, after a ';' "
                                          "('...; against Bob')"),
])
def test_a_first_proposals_date_and_votes_written_otherwise_say_what_to_write(tmp_path, capsys, date, votes, code,
                                                                              said):
    assert main(["new", str(tmp_path / "g"), "--player", "Ann", "--player", "Bob"]) == 0
    (tmp_path / "g" / "log.md").write_text(FIRST_PROPOSAL.format(date=date, votes=votes), encoding="utf-8")
    capsys.readouterr()
    assert main(["check", str(tmp_path / "g")]) == code
    out, err = capsys.readouterr()
    assert (out + err).splitlines()[0] == f"{tmp_path / 'g'}/{said}"


@pytest.mark.parametrize("heading, why", [
    ("# Proposal 301: Tea", "is a level-1 heading"),
    ("### Proposal 301: Tea", "is a level-3 heading"),
    ("##Proposal 301: Tea", "is no heading (no space after '##')"),
])
@pytest.mark.parametrize("where", ["first", "after an entry"])
def test_an_entrys_heading_at_another_level_says_so_where_it_was_read_as_text(tmp_path, capsys, heading, why, where):
    """A first proposal's heading written `# ...`, `### ...` or `##Proposal`: Markdown starts no entry there, so
    the log read as the home page's text above its entries (first) or as the entry above's text: `check` said
    `0 proposals, consistent`. It now says why at the line, exit 2, and writes nothing."""
    assert main(["new", str(tmp_path / "g"), "--player", "Ann", "--player", "Bob"]) == 0
    above = "Kept by Ann.\n\n" if where == "first" else FIRST_PROPOSAL.format(date="2026-12-07", votes="Ann, Bob")
    text = (above + "\n" + FIRST_PROPOSAL.format(date="2026-12-08", votes="Ann, Bob").replace(
        "## Proposal 301: Tea", heading).replace("301", "301" if where == "first" else "302"))
    (tmp_path / "g" / "log.md").write_text(text, encoding="utf-8")
    before = {path.name: path.read_bytes() for path in (tmp_path / "g").iterdir()}
    line = text.splitlines().index(heading.replace("301", "301" if where == "first" else "302")) + 1
    capsys.readouterr()
    for command in (["check", str(tmp_path / "g")], ["build", str(tmp_path / "g"), "-o", str(tmp_path / "site")]):
        assert main(command) == 2
        written = heading.replace("301", "301" if where == "first" else "302")
        meant = written.lstrip("#").strip()
        assert capsys.readouterr().err.splitlines()[0] == (
            f"{tmp_path / 'g'}/log.md:{line}: '{written}' {why}, so no entry starts there and what follows is read "
            f"as text: an entry's heading is level 2, '## {meant}'")
    assert {path.name: path.read_bytes() for path in (tmp_path / "g").iterdir()} == before
    assert not (tmp_path / "site").exists()


def test_a_heading_of_a_proposals_text_that_names_a_proposal_is_text(tmp_path, capsys):
    """A proposal's text with a heading of its own naming another proposal, prose after it: no key lines follow,
    so it is the text it looks like."""
    assert main(["new", str(tmp_path / "g"), "--player", "Ann", "--player", "Bob"]) == 0
    (tmp_path / "g" / "log.md").write_text(FIRST_PROPOSAL.format(date="2026-12-07", votes="Ann, Bob")
                                           + "\n### Proposal 300: what it replaces\n\nIt was too long.\n",
                                           encoding="utf-8")
    capsys.readouterr()
    assert main(["check", str(tmp_path / "g")]) == 0
    assert capsys.readouterr().out.endswith("g: 1 proposal, consistent\n")


@pytest.mark.parametrize("written, meant", [("Votes - for Ann, Bob", "Votes: for Ann, Bob"),
                                            ("Votes = for Ann, Bob", "Votes: for Ann, Bob"),
                                            ("result \u2013 adopted", "result: adopted")])
def test_a_key_line_with_a_dash_for_its_colon_says_to_write_the_colon(tmp_path, capsys, written, meant):
    """`Votes - for Ann, Bob` is no key line: it went on the Date line above, and the message was that
    '2026-12-07 Votes - for Ann, Bob' is not a date."""
    assert main(["new", str(tmp_path / "g"), "--player", "Ann", "--player", "Bob"]) == 0
    log = FIRST_PROPOSAL.format(date="2026-12-07", votes="Ann, Bob")
    key = written.split()[0].capitalize()
    log = re.sub(f"^{key}: .*$", written, log, flags=re.MULTILINE)
    (tmp_path / "g" / "log.md").write_text(log, encoding="utf-8")
    line = log.splitlines().index(written) + 1
    capsys.readouterr()
    assert main(["check", str(tmp_path / "g")]) == 2
    assert capsys.readouterr().err == (f"{tmp_path / 'g'}/log.md:{line}: '{written}' would be read as part of the key "
                                       f"line above it: a key line has a colon after its key, '{meant}'\n")


def test_a_phrase_not_in_the_rule_names_the_words_meant(tmp_path, capsys):
    """A slip in the quoted words of an amendment ('unanimus'): the rule's words most like them are named; words
    like none of the rule's are said not found, as before."""
    assert main(["new", str(tmp_path / "g"), "--player", "Ann", "--player", "Bob"]) == 0
    log = FIRST_PROPOSAL.format(date="2026-12-07", votes="Ann, Bob").replace(
        "Enact rule: Tea\n\n> Tea is served at four.", 'Amend rule 203 by replacing "vote is unanimus" with "majority".')
    for quoted, said in (("vote is unanimus", ' (did you mean "vote is unanimous"?)'), ("zebra crossing", "")):
        (tmp_path / "g" / "log.md").write_text(log.replace("vote is unanimus", quoted), encoding="utf-8")
        capsys.readouterr()
        assert main(["check", str(tmp_path / "g")]) == 2
        assert capsys.readouterr().err == (f'{tmp_path / "g"}/log.md:8: proposal 301: "{quoted}" is not in rule 203'
                                           f"{said}\n")


@pytest.mark.parametrize("named, example", [("g", "g/drafts/NAME.md"), ("g/drafts", "g/drafts/NAME.md"),
                                            (".", "GAME/drafts/NAME.md")])
def test_preview_of_a_folder_says_to_name_a_drafts_file(tmp_path, capsys, monkeypatch, named, example):
    """`preview content/my-game`, a game's folder where a draft belongs, said there was no game.toml above it."""
    assert main(["new", str(tmp_path / "g"), "--player", "Ann", "--player", "Bob"]) == 0
    (tmp_path / "g" / "drafts").mkdir()
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    assert main(["preview", named]) == 2
    assert capsys.readouterr().err == (f"{named}: is a folder: preview shows one draft, so name its file, e.g. "
                                       f"{example} (serve shows every draft of every game)\n")
