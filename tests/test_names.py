"""Players' names: compared in NFC everywhere, refused with invisible characters, reported when two look alike
(TR39 skeletons), and `new` holding its players to game.toml's rules before it writes anything."""
from __future__ import annotations

import contextlib
import json
import string
import tomllib
import unicodedata
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from generator.cli import main
from generator.pipeline import replay_games
from generator.errors import ArchiveError
from generator.importers.archive import toml_numbers
from generator.model import names
from generator.model.names import ASCII_PROTOTYPES, look_alike, skeleton
from generator.terminal import one_line

RULES = "# Rules\n\n## Mutable Rules\n\n### 201\nPlayers shall alternate.\n\n### 202. Café hours\nThe café opens at noon.\n"
MECHANICS = '\n[numbering]\namend_renumbers = false\n\n[turns]\norder = "none"\n\n[scoring]\nturn = "none"\nadopted = 0\ndefeated = 0\nagainst_adopted = 0\n'


def nfd(text: str) -> str:
    return unicodedata.normalize("NFD", text)


def proposal(number: int, proposer: str, votes: str, body: str = "", extra: str = "") -> str:
    return (f"## Proposal {number}\nProposer: {proposer}\nDate: 2024-01-0{number - 300}\nVotes: {votes}\n"
            f"Result: adopted\n{extra}\n{body}\n")


def write_game(folder: Path, players: list[str], log: str, *, toml_players: str | None = None) -> Path:
    folder.mkdir(parents=True)
    listed = toml_players if toml_players is not None else json.dumps(players, ensure_ascii=False)
    (folder / "game.toml").write_text(f'title = "Names"\nplayers = {listed}\n{MECHANICS}', encoding="utf-8")
    (folder / "rules.md").write_text(RULES, encoding="utf-8")
    (folder / "log.md").write_text("# Log\n\n" + log, encoding="utf-8")
    return folder


def check(folder: Path, capsys) -> tuple[int, str, str]:
    """check run from the folder that holds the game, so that it names the game's files as `g/log.md`."""
    with contextlib.chdir(folder.parent):
        code = main(["check", folder.name])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


# --- NFC ------------------------------------------------------------------------------------------


def test_a_name_typed_precomposed_and_decomposed_is_one_player(tmp_path, capsys):
    """`José` in game.toml with a precomposed é, and in the log with e and a combining accent (as macOS and
    copies from PDFs give): one player, not a finding showing the same glyphs twice."""
    game = write_game(tmp_path / "g", ["Jos\u00e9", "Bob"],
                      proposal(301, nfd("José"), f"for {nfd('José')}, Bob", extra=f"Scores: {nfd('José')} 0, Bob 0"))
    assert check(game, capsys)[0] == 0


def test_titles_and_quoted_phrases_are_compared_in_nfc(tmp_path, capsys):
    """A quoted phrase typed decomposed finds the rule's precomposed text; a snapshot's decomposed title and
    text are the rules' own."""
    body = nfd('Amend rule 202 by replacing "café" with "bar".')
    game = write_game(tmp_path / "g", ["Ann", "Bob"], proposal(301, "Ann", "for Ann, Bob", body))
    (game / "snapshots").mkdir()
    (game / "snapshots" / "after-301.md").write_text(nfd(
        "# Rules\n\nAfter: proposal 301\n\n## Mutable Rules\n\n### 201\nPlayers shall alternate.\n\n### 202. Café "
        "hours\nThe bar opens at noon.\n"), encoding="utf-8")
    code, out, err = check(game, capsys)
    assert code == 0, out + err
    (replay,) = replay_games(game)
    assert replay.rules_at(0)[1].text == "The bar opens at noon."


def test_a_toml_escape_that_decomposes_a_name_is_the_same_player(tmp_path, capsys):
    game = write_game(tmp_path / "g", [], proposal(301, "José", "for José, Bob"),
                      toml_players='["Jose\\u0301", "Bob"]')
    assert check(game, capsys)[0] == 0


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(st.characters(categories=["Lu", "Ll"], max_codepoint=0x2FFF), min_size=1, max_size=3).flatmap(
    lambda start: st.text(st.characters(categories=["Lu", "Ll", "Mn"], max_codepoint=0x2FFF), max_size=6).map(
        lambda rest: start + rest)))
def test_names_equal_in_nfc_are_one_player(tmp_path_factory, name):
    """However each of its places writes a name (NFC, NFD), the game has one such player."""
    assume(unicodedata.normalize("NFC", name) != "Bob" and names.invisible_problem(name) is None)
    assume(skeleton(unicodedata.normalize("NFC", name)) != skeleton("Bob"))
    composed, decomposed = unicodedata.normalize("NFC", name), nfd(name)
    folder = tmp_path_factory.mktemp("nfc") / "g"
    write_game(folder, [composed, "Bob"], proposal(301, decomposed, f"for {name}, Bob",
                                                   extra=f"Scores: {decomposed} 0, Bob 0"))
    (replay,) = replay_games(folder)
    assert [f for f in replay.findings if f.kind in ("player", "scores")] == []
    assert replay.steps[0].players == (composed, "Bob")


# --- Invisible characters ---------------------------------------------------------------------------


@pytest.mark.parametrize("log, line, shown, points", [
    (proposal(301, "Ann", "for Ann, Bo\u200bb"), 6, "Bo\\u200bb", "U+200B ZERO WIDTH SPACE"),
    (proposal(301, "\ufeffAnn", "for Ann, Bob"), 4, "\\ufeffAnn", "U+FEFF ZERO WIDTH NO-BREAK SPACE"),
    (proposal(301, "Ann", "for Ann, Bob", extra="Scores: A\u202enn 0"), 8, "A\\u202enn",
     "U+202E RIGHT-TO-LEFT OVERRIDE"),
    (proposal(301, "Ann", "for Ann, Bob", extra="Winner: B\u2060ob"), 8, "B\\u2060ob", "U+2060 WORD JOINER"),
    ("## Event: Eve joins\nDate: 2024-01-01\nPlayers: +E\u200dve\n", 5, "E\\u200dve", "U+200D ZERO WIDTH JOINER"),
    ("## Judgment 1: A ruling\nJudge: An\u200cn\nDate: 2024-01-01\n", 4, "An\\u200cn", "U+200C ZERO WIDTH NON-JOINER"),
], ids=["votes", "proposer-bom", "scores-bidi", "winner", "joins", "judge"])
def test_a_name_with_invisible_characters_is_an_error_naming_its_line_and_code_points(tmp_path, capsys, log, line,
                                                                                      shown, points):
    game = write_game(tmp_path / "g", ["Ann", "Bob"], log)
    code, out, err = check(game, capsys)
    seen = "".join(c for c in shown.encode().decode("unicode_escape") if unicodedata.category(c) != "Cf")
    assert (code, err) == (2, f"g/log.md:{line}: the name '{shown}' holds invisible characters ({points}): every "
                              f"reader sees '{seen}'; remove them\n")


def test_a_player_in_game_toml_with_invisible_characters_is_an_error(tmp_path, capsys):
    game = write_game(tmp_path / "g", ["Ann", "Bo\u200bb"], "")
    assert check(game, capsys)[::2] == (2, "g/game.toml:2: the name 'Bo\\u200bb' holds invisible characters "
                                           "(U+200B ZERO WIDTH SPACE): every reader sees 'Bob'; remove them\n")


@pytest.mark.parametrize("name, problem", [
    ("A, B", "player 'A, B' holds a ',', which a Votes line reads as between two names (for A, B; against C): "
             "such a name cannot be written; rename the player"),
    ("C; D", "player 'C; D' holds a ';', which a Votes line reads as between two names (for A, B; against C): "
             "such a name cannot be written; rename the player"),
    ("snail x3", "player 'snail x3' ends in a space, x and digits, which a Votes line reads as the strength of a "
                 "ballot (format 1.1): such a name cannot be written; rename the player"),
])
def test_a_player_no_votes_line_can_write_is_an_error_in_game_toml(tmp_path, capsys, name, problem):
    game = write_game(tmp_path / "g", ["Ann", name], "")
    assert check(game, capsys)[::2] == (2, f"g/game.toml:2: {problem}\n")


# --- Look-alikes ------------------------------------------------------------------------------------


def test_two_players_who_look_alike_are_a_finding_naming_both_with_code_points(tmp_path, capsys):
    """`Аnn` (a Cyrillic А) votes beside Ann: every reader would see Ann vote twice."""
    game = write_game(tmp_path / "g", ["Ann", "\u0410nn", "Bob"], proposal(301, "Ann", "for Ann, \u0410nn, Bob"))
    code, out, err = check(game, capsys)
    assert code == 1
    assert out.splitlines()[0] == ("g/game.toml:2: players \u0410nn and Ann look alike (\\u0410nn looks like Ann): "
                                   "no reader can tell which of them voted or scored; rename one")


def test_a_player_who_joins_looking_like_a_player_is_a_finding(tmp_path, capsys):
    game = write_game(tmp_path / "g", ["Ann", "Bob"], "## Event: A newcomer\nDate: 2024-01-01\nPlayers: +B\u03bfb\n")
    code, out, err = check(game, capsys)
    assert code == 1
    assert out.splitlines()[0] == ("g/log.md:5: event 'A newcomer': B\u03bfb joins, and looks like Bob, who plays "
                                   "(B\\u03bfb looks like Bob): no reader can tell which of them voted or scored; "
                                   "rename one")


def test_a_stranger_who_looks_like_a_player_is_told_apart(tmp_path, capsys):
    game = write_game(tmp_path / "g", ["Ann", "Bob"], proposal(301, "Ann", "for Ann, \u0410nn, Bob"))
    code, out, err = check(game, capsys)
    assert code == 1
    assert out.splitlines()[0] == ("g/log.md:6: proposal 301: voter: \u0410nn is not a player in the game (players: "
                                   "Ann, Bob) (\\u0410nn looks like Ann)")


@pytest.mark.parametrize("one, other", [("Ann", "\u0410nn"), ("Sam", "Sarn"), ("Al", "AI"), ("Bill", "BiII"),
                                        ("Ann", "Ann\ufe00"), ("Ollie", "0llie"), ("paypal", "\u0440\u0430ypal"),
                                        ("Nomic", "\uff2eomic"), ("Zoe", "Z\u03bfe")])
def test_skeletons_of_look_alikes_are_equal(one, other):
    assert skeleton(one) == skeleton(other) and look_alike([one, other]) == [(other, one)]


@pytest.mark.parametrize("one, other", [("Ann", "Anne"), ("Zoë", "Zoe"), ("José", "Jose"), ("ann", "Ann"),
                                        ("Bob", "Rob")])
def test_different_names_are_not_look_alikes(one, other):
    assert look_alike([one, other]) == []


def test_the_ascii_prototypes_are_the_tables_own():
    """ASCII_PROTOTYPES spares names in ASCII alone the loading of the whole table: it must be the table's part
    for ASCII, and an ASCII name's skeleton the same whichever is used."""
    table = names._prototypes()
    printable = [chr(c) for c in range(0x20, 0x7F)]
    assert {c: table[c] for c in printable if c in table} == ASCII_PROTOTYPES
    for c in printable:
        assert skeleton(c) == unicodedata.normalize("NFD", table.get(c, c))


def _look_alikes() -> dict[str, list[str]]:
    """For each ASCII letter and digit, the other characters of the table whose prototype is its."""
    table = names._prototypes()
    alike: dict[str, list[str]] = {}
    for character, prototype in sorted(table.items()):
        for letter in string.ascii_letters + string.digits:
            if prototype == table.get(letter, letter) and character != letter and len(character) == 1 \
                    and unicodedata.category(character)[0] in "LN":
                alike.setdefault(letter, []).append(character)
    return alike


LOOK_ALIKES = _look_alikes()


@st.composite
def a_name_and_a_look_alike(draw) -> tuple[str, str]:
    name = draw(st.text(st.sampled_from(sorted(LOOK_ALIKES)), min_size=1, max_size=8))
    variant = "".join(draw(st.sampled_from([c] + LOOK_ALIKES[c])) for c in name)
    assume(variant != name and unicodedata.normalize("NFC", variant) == variant)
    return name, variant


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(a_name_and_a_look_alike())
def test_confusable_players_are_always_reported(tmp_path_factory, pair):
    name, variant = pair
    folder = write_game(tmp_path_factory.mktemp("alike") / "g", ["Someone", name, variant], "")
    try:
        (replay,) = replay_games(folder)
    except ArchiveError as error:  # a name game.toml refuses (a digit's look-alike ending in ` x1`...)
        assume(False)
        raise AssertionError from error
    reported = [f for f in replay.findings if f.kind == "player" and "look alike" in str(f.message)]
    assert len(reported) == 1 and names.shown(variant) in str(reported[0].message)


# --- new --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players, problems", [
    (["Ann", ""], ["a player's name is empty"]),
    (["Ann", "Ann"], ["player 'Ann' is named twice"]),
    (["Jos\u00e9", nfd("José")], ["player 'José' is named twice"]),
    (["Ann", "snail x3"], ["player 'snail x3' ends in a space, x and digits, which a Votes line reads as the "
                           "strength of a ballot (format 1.1): such a name cannot be written; rename the player"]),
    (["A, B"], ["player 'A, B' holds a ',', which a Votes line reads as between two names (for A, B; against C): "
                "such a name cannot be written; rename the player"]),
    (["C; D"], ["player 'C; D' holds a ';', which a Votes line reads as between two names (for A, B; against C): "
                "such a name cannot be written; rename the player"]),
    (["Bo\u200bb"], ["the name 'Bo\\u200bb' holds invisible characters (U+200B ZERO WIDTH SPACE): every reader sees "
                     "'Bob'; remove them"]),
    (["Ann", "\u0410nn"], ["players \u0410nn and Ann look alike (\\u0410nn looks like Ann): no reader could tell "
                           "which of them voted or scored"]),
], ids=["empty", "twice", "twice-in-nfc", "strength", "comma", "semicolon", "invisible", "look-alike"])
def test_new_applies_the_rules_for_names_before_writing_anything(tmp_path, capsys, players, problems):
    arguments = ["new", str(tmp_path / "game")] + [a for p in players for a in ("--player", p)]
    assert main(arguments) == 2
    assert capsys.readouterr().err == "".join(one_line(f"--player: {p}; nothing was written") + "\n" for p in problems)
    assert list(tmp_path.iterdir()) == []


def test_new_writes_names_in_nfc_and_its_game_checks(tmp_path, capsys):
    assert main(["new", str(tmp_path / "game"), "--player", nfd("José"), "--player", "Bob"]) == 0
    assert 'players = ["José", "Bob"]' in (tmp_path / "game" / "game.toml").read_text(encoding="utf-8")
    capsys.readouterr()
    assert main(["check", str(tmp_path / "game")]) == 0


@pytest.mark.parametrize("count", [0, 1, 5, 40, 1500])
def test_game_toml_numbers_are_wrapped_and_read_back_as_written(count):
    """A section of hundreds of rules takes a few lines of game.toml, not one line per rule, and none too long."""
    numbers = [100 + 37 * i for i in range(count)]
    written = toml_numbers("rules", numbers)
    assert tomllib.loads(written) == {"rules": numbers}
    assert all(len(line) <= 100 for line in written.splitlines())
    assert len(written.splitlines()) <= 3 + len(", ".join(map(str, numbers))) // 90
