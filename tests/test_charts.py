"""The scores chart (site/charts.py): drawn in the chart's own terms, thinned in buckets that an entry appended
leaves as they were, each run of entries' lines made once."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.cli import main
from generator.engine import replay_game
from generator.parse.game import load_game
from generator.parse.log import LogParser
from generator.site import charts
from generator.site.history import GameHistory
from generator.site.views import GamePlan


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("content") / "long"
    assert main(["synth", str(folder), "--proposals", "1500", "--seed", "3"]) == 0
    return folder


def _plan(replay, earlier: GamePlan | None = None) -> GamePlan:
    plan = GamePlan(replay, GameHistory(replay), replay.game.slug)
    if earlier is not None:
        plan.memo = earlier.memo
    return plan


def _points(line: str) -> list[tuple[float, float]]:
    return [tuple(map(float, point.split(","))) for point in line.split()]


def test_a_long_games_lines_are_thinned_and_keep_each_buckets_extremes(game):
    replay = replay_game(load_game(game))
    chart = charts.score_chart(replay, _plan(replay).summaries)
    scored = [s for s in replay.steps if s.deltas or s is replay.steps[-1]]
    bucket = charts._bucket(len(scored))
    assert bucket > 1 and len(scored) <= charts.BUCKETS * bucket
    for series in chart.wide.series:
        points = _points(series.points)
        assert len(points) <= 3 * charts.BUCKETS + 1
        # Every score the player had is within the line's extremes, and the line ends at the last
        had = [s.scores[series.player] for s in scored if series.player in s.scores]
        start = [replay.initial_scores[series.player]] if series.player in replay.initial_scores else []
        assert max(y for _, y in points) == max(start + had) and min(y for _, y in points) == min(start + had)
        assert points[-1] == (len(scored), had[-1])
    assert chart.narrow.series[0].points == chart.wide.series[0].points  # one line, two transforms


def test_the_transform_puts_each_lines_end_where_its_label_points(game):
    replay = replay_game(load_game(game))
    for layout in (lambda c: c.wide, lambda c: c.narrow):
        chart = layout(charts.score_chart(replay, _plan(replay).summaries))
        a, _, _, d, e, f = map(float, re.fullmatch(r"matrix\((.*)\)", chart.transform).group(1).split())
        for series in chart.series:
            place, score = _points(series.points)[-1]
            assert a * place + e == pytest.approx(chart.right, abs=0.1)
            assert d * score + f == pytest.approx(series.end_y, abs=0.06)


def test_the_margin_holds_the_widest_score_a_tick_names(game):
    """A game whose scores run to four digits once had its ticks cut at the picture's left edge (the margin held
    the lowest, -10)."""
    replay = replay_game(load_game(game))
    chart = charts.score_chart(replay, _plan(replay).summaries)
    for layout in (chart.wide, chart.narrow):
        widest = max(charts._text_width(str(value), layout.font) for _, value in layout.y_ticks)
        assert max(value for _, value in layout.y_ticks) >= 1000 and layout.left - 6 >= widest


def test_an_entry_appended_draws_the_last_run_of_lines_again_not_the_others(game, monkeypatch):
    parser = LogParser()
    earlier = replay_game(load_game(game, parser=parser), checkpoints=True)
    plan = _plan(earlier)
    charts.score_chart(earlier, plan.summaries)
    log = game / "log.md"
    text = log.read_text(encoding="utf-8")
    number = max(map(int, re.findall(r"(?m)^## Proposal (\d+)", text))) + 1
    log.write_text(text + f"\n## Proposal {number}: Late\nProposer: Alice\nDate: 2999-12-31\nVotes: for Alice, Bob, "
                   f"Carol\nResult: adopted\nScores: Alice 99999\n\nA word.\n", encoding="utf-8")
    try:
        replay = replay_game(load_game(game, parser=parser), previous=earlier, checkpoints=True)
        drawn = []
        real = charts._line_pieces
        monkeypatch.setattr(charts, "_line_pieces", lambda start, run, bucket: drawn.append(start) or real(start, run,
                                                                                                            bucket))
        again = charts.score_chart(replay, _plan(replay, plan).summaries)
        monkeypatch.setattr(charts, "_line_pieces", real)
        assert drawn == [max(drawn)] and drawn[0] > 0  # the last run alone
        assert again == charts.score_chart(replay, _plan(replay).summaries)  # what drawing from nothing gives
    finally:
        log.write_text(text, encoding="utf-8")
