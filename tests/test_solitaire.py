"""Solitaire Nomic (seed 000): the engine's mechanics, the solver, its command, the pages and `new`.

Each action's legal and illegal cases, with their exact findings, are case folders in tests/cases/solitaire/.
"""
from __future__ import annotations

import dataclasses
import re
import shutil
from pathlib import Path

import pytest

from generator.cli import main
from generator.engine.solitaire import (changed_words, initial_position, locate_edits, mutation_limits, play,
                                        replay_solitaire)
from generator.engine.solve import Puzzle, play_out, search, shuffle_immutable
from generator.model import Source
from generator.model.solitaire import Action
from generator.parse.game import load_game
from tests.helpers import ROOT, broken_links, tree_digest

BUNDLED = ROOT / "content" / "solitaire"


@pytest.fixture
def game(tmp_path) -> Path:
    """A copy of the bundled game without its log, ready to be played or solved."""
    folder = tmp_path / "content" / "sol"
    folder.mkdir(parents=True)
    shutil.copy(BUNDLED / "game.toml", folder)
    shutil.copy(BUNDLED / "rules.md", folder)
    return folder


def with_options(folder: Path, **options) -> Path:
    text = (folder / "game.toml").read_text()
    for key, value in options.items():
        text = re.sub(rf"^{key} = .*$", f"{key} = {value}", text, flags=re.MULTILINE)
    (folder / "game.toml").write_text(text)
    return folder


def action(text: str) -> Action:
    from generator.errors import ErrorCollector
    from generator.parse.solitaire import read_action

    errors = ErrorCollector()
    parsed = read_action(text, Source("log.md", 1), errors)
    assert parsed is not None and not errors.errors, errors.errors
    return parsed


def played_out(folder: Path, *texts: str):
    """The positions after each action, played straight through the engine."""
    setup, position, problems = initial_position(load_game(folder))
    assert not problems
    results = []
    for text in texts:
        played = play(setup, position, action(text))
        results.append(played)
        position = played.position
    return setup, results


# --- Mechanics -----------------------------------------------------------------------------------

def test_rules_100_and_101_die_when_their_span_runs_out_after_the_eighth_action(game):
    setup, results = played_out(game, "transmute 12 to 20", *[f"transmute {12 - n} to {20 + n}" for n in range(1, 8)])
    assert [d.rule.number for d in results[7].deaths] == [100, 101]
    assert all(not r.deaths for r in results[:7])
    assert [r.points for r in results] == [10] * 8  # rule 100 stood when each action was performed
    assert results[7].position.score == 80


def test_with_tick_before_they_die_before_the_eighth_action_and_it_scores_nothing(game):
    with_options(game, tick='"before"')
    setup, results = played_out(game, *[f"transmute {12 - n} to {20 + n}" for n in range(8)])
    assert [d.rule.number for d in results[7].deaths] == [100, 101]
    assert [r.points for r in results] == [10] * 7 + [0]


def test_a_transmuted_rule_lives_eight_turns_after_its_own(game):
    setup, results = played_out(game, "transmute 12 to 20", *['mutate 100: "100." -> "1%d."' % (n + 10)
                                                               for n in range(7)])
    spans = [next(r.span for r in played.position.rules if r.number == 20) for played in results]
    assert spans == [8, 7, 6, 5, 4, 3, 2, 1]


def test_forced_division_is_a_finding_until_a_division_is_made(game):
    setup, results = played_out(game, "subsume 101 into 100", "transmute 12 to 20")
    assert results[1].forced and results[1].violations == (
        ("forced-division", "rule 6: fewer than 2 mutable rules remain (1), so this action must be a division"),)
    assert results[1].applied  # the replay follows the record
    setup, results = played_out(game, "subsume 101 into 100", "divide 100 as 102")
    assert results[1].forced and not results[1].violations
    assert [(r.number, r.span) for r in results[1].position.rules if r.mutable] == [(100, 7), (102, 7)]


def test_a_subsumer_gains_half_the_span_capped_at_eight_unless_the_option_lifts_it(game):
    _, results = played_out(game, "transmute 12 to 20", "subsume 20 into 100")
    assert next(r.span for r in results[1].position.rules if r.number == 100) == 7  # min(7 + 4, 8), then a turn
    with_options(game, subsumer_cap="false")
    _, results = played_out(game, "transmute 12 to 20", "subsume 20 into 100")
    assert next(r.span for r in results[1].position.rules if r.number == 100) == 10  # 7 + 4, then a turn


def test_subsumption_appends_the_whole_text_number_included_and_the_subsumed_rule_dies(game):
    _, results = played_out(game, "subsume 101 into 100")
    (rule,) = [r for r in results[0].position.rules if r.mutable]
    assert rule.full_text == ("100. Scoring. The player shall gain 10 points by performing an action.\n\n"
                              "101. Permissibility of the Unprohibited. Whatever is not regulated or prohibited by "
                              "these rules is permitted.")
    assert [(d.rule.number, d.cause) for d in results[0].deaths] == [(101, "subsumed into rule 100")]


def test_a_mutation_may_renumber_a_rule_and_the_title_follows_the_text(game):
    _, results = played_out(game, 'mutate 100: "100. Scoring." -> "150. Points."')
    rule = next(r for r in results[0].position.rules if r.identity == 12)  # 100, after the twelve immutable
    assert (rule.number, rule.title, rule.text) == (150, "Points", "The player shall gain 10 points by performing "
                                                                  "an action.")


def test_words_keep_what_a_replacement_leaves_alone():
    assert changed_words("Lower number", "Higher number", "spaces") == (["Lower"], ["Higher"])
    assert changed_words("rules", "rules and more", "spaces") == ([], ["and", "more"])
    assert mutation_limits((("a b c d", "e"),), "spaces") == []
    assert mutation_limits((("Lower", "Higher"), ("higher", "lower")), "spaces") == []


def test_punctuation_is_part_of_a_word_between_spaces_and_not_between_letters():
    text = "101. Whatever is permitted."
    assert isinstance(locate_edits(text, (("permitted", "x"),), "spaces", "rule 101"), str)
    assert locate_edits(text, (("permitted.", "x"),), "spaces", "rule 101") == [(17, 27)]
    assert locate_edits(text, (("permitted", "x"),), "letters", "rule 101") == [(17, 26)]
    assert locate_edits(text, (("101", "102"),), "letters", "rule 101") == [(0, 3)]


def test_the_win_is_only_the_objective_left_whatever_its_number(game):
    replay = replay_solitaire(load_game(BUNDLED))
    assert replay.won_at == 16 and replay.winner == ("Solo",)
    ((number, title),) = [(r.number, r.title) for r in replay.rules]
    assert (number, title) == (30, "Objective")


# --- The solver ----------------------------------------------------------------------------------

def test_the_shortest_win_is_sixteen_turns_and_its_log_checks_clean(game, tmp_path, capsys):
    log = game / "log.md"
    assert main(["solve", str(game), "-o", str(log)]) == 0
    assert "the shortest win takes 16 turns" in capsys.readouterr().err
    assert main(["check", str(game)]) == 0
    assert capsys.readouterr().out.strip() == "sol: 16 turns, consistent, won by Solo"
    text = log.read_text()
    assert text.count("## Turn ") == 16 and text.rstrip().count("Winner: Solo") == 1


def test_the_bundled_log_is_the_solvers_answer(capsys):
    assert main(["solve", str(BUNDLED)]) == 0
    solved = capsys.readouterr().out
    bundled = (BUNDLED / "log.md").read_text()
    assert solved[solved.index("## Turn 1"):] == bundled[bundled.index("## Turn 1"):]


@pytest.mark.parametrize("options", [{"tick": '"before"'}, {"subsumer_cap": "false"}, {"divide_initial": "false"},
                                     {"words": '"letters"'}])
def test_the_answer_checks_clean_under_each_reading(game, options, capsys):
    with_options(game, **options)
    assert main(["solve", str(game), "-o", str(game / "log.md")]) == 0
    assert main(["check", str(game)]) == 0
    assert "consistent, won by Solo" in capsys.readouterr().out


def test_under_a_literal_rule_6_no_win_exists_and_the_solver_says_why(game, capsys):
    with_options(game, actions='"immutable"')
    assert main(["solve", str(game)]) == 1
    assert capsys.readouterr().err.startswith('sol: no win: under solitaire.actions = "immutable" transmutation ends '
                                              "once the Transmutation rule is transmuted")


def test_the_search_is_bounded_by_moves(game, capsys):
    assert main(["solve", str(game), "--max-moves", "15"]) == 1
    assert re.fullmatch(r"sol: no win in 15 turns or fewer \([\d,]+ states? explored in \d+\.\d\ds\)\n",
                        capsys.readouterr().err)


def test_the_search_is_bounded_by_states(game, capsys):
    assert main(["solve", str(game), "--max-states", "3"]) == 3
    err = capsys.readouterr().err
    assert err.startswith("sol: no win found before the search reached 3 states") and "raise --max-states" in err


@pytest.mark.parametrize("seed", [None, "3", "7"])  # the Objective as rule 2, the greatest, the lowest
def test_the_lower_bound_never_overestimates(seed):
    """A* finds a shortest win only with an admissible bound: along a shortest win, the turns left from each
    position are its true distance (each tail of a shortest path is shortest), and the bound must not pass it."""
    game = load_game(BUNDLED)
    if seed:
        game = dataclasses.replace(game, rules=shuffle_immutable(game.rules, seed)[0])
    setup, position, _ = initial_position(game)
    puzzle = Puzzle.of(setup, position)
    answer = search(puzzle, max_moves=40, max_states=10_000)
    state = puzzle.start
    for done, move in enumerate(answer.moves):
        assert puzzle.lower_bound(state) <= len(answer.moves) - done
        state = dict(puzzle.successors(state))[move]
    assert puzzle.won(state)


def test_shuffle_is_deterministic_and_its_game_checks_clean(game, tmp_path, capsys):
    first, second = tmp_path / "first", tmp_path / "second"
    assert main(["solve", str(game), "--shuffle", "7", "-o", str(first)]) == 0
    assert main(["solve", str(game), "--shuffle", "7", "-o", str(second)]) == 0
    assert tree_digest(first) == tree_digest(second)
    assert sorted(p.name for p in first.iterdir()) == ["game.toml", "log.md", "rules.md"]
    assert (first / "rules.md").read_text() != (game / "rules.md").read_text()
    capsys.readouterr()
    assert main(["check", str(first)]) == 0
    assert "consistent, won by Solo" in capsys.readouterr().out
    assert "renumbered at random first (`--shuffle 7`): 1 → " in (first / "log.md").read_text()
    assert (first / "game.toml").read_text().startswith('title = "Solitaire Nomic 1.0 (shuffled: 7)"\n')


def test_a_shuffled_game_without_a_title_gets_one_and_keeps_the_rest(tmp_path):
    from generator.commands.solve import retitled

    toml = tmp_path / "game.toml"
    toml.write_text('variant = "solitaire"\n\n[solitaire]\ntick = "after"\n')
    assert retitled(toml, 'A "new" one') == ('title = "A \\"new\\" one"\nvariant = "solitaire"\n\n'
                                            '[solitaire]\ntick = "after"\n')


def test_shuffle_deals_the_same_numbers_differently_for_another_seed():
    rules = load_game(BUNDLED).rules
    one, mapping_one = shuffle_immutable(rules, "1")
    two, mapping_two = shuffle_immutable(rules, "2")
    assert sorted(mapping_one.values()) == sorted(mapping_two.values()) == list(range(1, 13))
    assert mapping_one != mapping_two
    assert [r.title for r in one.rules if r.rule_class == "mutable"] == ["Scoring", "Permissibility of the Unprohibited"]


def test_shuffled_answers_replay_clean_through_the_engine():
    game = load_game(BUNDLED)
    for seed in ("1", "2", "3", "4"):
        shuffled = dataclasses.replace(game, rules=shuffle_immutable(game.rules, seed)[0])
        setup, position, _ = initial_position(shuffled)
        answer = search(Puzzle.of(setup, position), max_moves=40, max_states=100_000)
        turns = play_out(shuffled, answer.moves)  # asserts every action is applied without a finding
        assert len(turns) in (16, 17), seed


def test_solve_never_overwrites(game, tmp_path, capsys):
    (game / "log.md").write_text("# mine\n")
    assert main(["solve", str(game), "-o", str(game / "log.md")]) == 2
    assert "already exists; nothing was written" in capsys.readouterr().err
    assert (game / "log.md").read_text() == "# mine\n"
    folder = tmp_path / "taken"
    folder.mkdir()
    (folder / "keep.txt").write_text("mine")
    assert main(["solve", str(game), "--shuffle", "1", "-o", str(folder)]) == 2
    assert sorted(p.name for p in folder.iterdir()) == ["keep.txt"]


def test_solve_refuses_a_standard_game(capsys):
    assert main(["solve", str(ROOT / "content" / "suber-1982")]) == 2
    assert capsys.readouterr().err.strip() == ('suber-1982/game.toml: solve plays Solitaire Nomic: the game needs '
                                               'variant = "solitaire"')


# --- The site and new ------------------------------------------------------------------------------

@pytest.fixture
def built(tmp_path) -> Path:
    content = tmp_path / "content"
    shutil.copytree(BUNDLED, content / "solitaire")
    assert main(["new", str(content / "fresh"), "--ruleset", "solitaire", "--player", "Ann"]) == 0
    site = tmp_path / "site"
    assert main(["build", str(content), "-o", str(site)]) == 0
    return site


def test_the_game_home_says_when_it_was_won_and_a_fresh_game_whose_turn_it_is(built):
    home = (built / "solitaire/index.html").read_text()
    assert "Won by Solo at turn 16: only the Objective remains." in home
    fresh = (built / "fresh/index.html").read_text()
    assert "Turn 1 is next: Ann to play." in fresh
    assert "No turn has been played yet" in fresh


def test_a_turn_shows_its_action_as_a_redline_and_the_rules_after_it(built):
    page = (built / "solitaire/turns/14.html").read_text()
    assert re.search(r"<del[^>]*>.*28\\?\. Rule Changes\. Rules may not be changed", page, re.DOTALL)
    assert re.search(r"<ins[^>]*>.*28\\?\. Rule Changes\.", page, re.DOTALL)
    assert "subsumed into rule 30: it dies" in page
    assert "Rule 25 (Transmutation): its life span ran out." in page
    rows = re.findall(r'<tr id="rule-(\d+)"><td class="num">\d+</td><td>[^<]*</td><td>mutable</td>'
                      r'<td class="num">(\d+)</td></tr>', page)
    assert rows == [("26", "1"), ("27", "2"), ("29", "4"), ("30", "7"), ("31", "6")]


def test_the_timeline_draws_every_rule_without_javascript(built):
    page = (built / "solitaire/timeline.html").read_text()
    assert page.count("<rect ") == 14 and "<script>" not in page.split("<main")[1].split("</main>")[0]
    assert "Rule 2 → 30 (Objective): immutable at first, mutable from turn 11, stands." in page


def test_no_solitaire_page_has_an_empty_table_and_every_link_resolves(built):
    for page in list((built / "solitaire").rglob("*.html")) + list((built / "fresh").rglob("*.html")):
        for body in re.findall(r"<tbody>(.*?)</tbody>", page.read_text(), re.DOTALL):
            assert "<tr" in body, page
    assert broken_links(built) == []


def test_new_solitaire_game_checks_clean_and_explains_the_actions(tmp_path, capsys):
    folder = tmp_path / "content" / "mine"
    assert main(["new", str(folder), "--ruleset", "solitaire", "--player", "Solo"]) == 0
    capsys.readouterr()
    how = (folder / "README.md").read_text()
    for example in ("transmute 12 to 20", 'mutate 20: "old words" -> "new words"', "subsume 22 into 21",
                    "divide 21 as 23", "Scores: Solo 10"):
        assert example in how
    assert main(["check", str(folder)]) == 0
    assert capsys.readouterr().out.strip() == "mine: 0 turns, consistent"


def test_new_solitaire_game_has_one_player(tmp_path, capsys):
    folder = tmp_path / "two"
    assert main(["new", str(folder), "--ruleset", "solitaire", "--player", "A", "--player", "B"]) == 2
    assert "a solitaire game has one player, not 2; nothing was written" in capsys.readouterr().err
    assert not folder.exists()


def test_check_reports_a_solitaire_game_in_json_as_any_other(capsys):
    import json

    assert main(["check", str(ROOT / "tests/cases/solitaire/transmute-not-greatest"), "--format", "json"]) == 1
    (report,) = json.loads(capsys.readouterr().out)["games"]
    assert report == {"game": "transmute-not-greatest", "consistent": False, "overrides": [], "notes": [],
                      "scores": {"Solo": 10}, "winner": [],
                      "findings": [{"file": "transmute-not-greatest/log.md", "line": 4, "kind": "action",
                                    "path": "tests/cases/solitaire/transmute-not-greatest/log.md",
                                    "entry": "turn 1", "message": "rule 7: 5 is not the greatest immutable rule; "
                                    "12 is", "expected": None, "found": None, "cause": None}]}


def test_diff_compares_a_solitaire_game_turn_by_turn(capsys):
    assert main(["diff", f"{BUNDLED}@start", f"{BUNDLED}@14"]) == 1
    out = capsys.readouterr().out
    assert "rule 12 removed: Rule Numbers" in out and "rules 2 and 4 merged into 30: Objective" in out
    assert main(["diff", f"{BUNDLED}@12", f"{BUNDLED}@40"]) == 2
    # Named from the working directory (the repository's root), as every file in a message is.
    assert capsys.readouterr().err.strip() == ("content/solitaire/log.md: turn 40 is not in the log (its turns run "
                                               "from 1 to 16)")


def test_preview_says_a_solitaire_game_has_no_proposals(tmp_path, capsys):
    draft = tmp_path / "draft.md"
    draft.write_text("## Proposal: More\nProposer: Solo\n")
    assert main(["preview", str(draft), "--game", str(BUNDLED)]) == 2
    assert "a solitaire game has no proposals to preview" in capsys.readouterr().err
