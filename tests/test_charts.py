"""The scores chart (site/charts.py): drawn in the chart's own terms, thinned in buckets that keep each bucket's
extremes, its labels where its lines end."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.cli import main
from generator.engine import replay_game
from generator.parse.game import load_game
from generator.site import charts


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("content") / "long"
    assert main(["synth", str(folder), "--proposals", "1500", "--seed", "3"]) == 0
    return folder


def _points(line: str) -> list[tuple[float, float]]:
    return [tuple(map(float, point.split(","))) for point in line.split()]


def test_a_long_games_lines_are_thinned_and_keep_each_buckets_extremes(game):
    replay = replay_game(load_game(game))
    chart = charts.score_chart(replay)
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
        chart = layout(charts.score_chart(replay))
        a, _, _, d, e, f = map(float, re.fullmatch(r"matrix\((.*)\)", chart.transform).group(1).split())
        for series in chart.series:
            place, score = _points(series.points)[-1]
            assert a * place + e == pytest.approx(chart.right, abs=0.1)
            assert d * score + f == pytest.approx(series.end_y, abs=0.06)


def test_the_margin_holds_the_widest_score_a_tick_names(game):
    """A game whose scores run to four digits once had its ticks cut at the picture's left edge (the margin held
    the lowest, -10)."""
    replay = replay_game(load_game(game))
    chart = charts.score_chart(replay)
    for layout in (chart.wide, chart.narrow):
        widest = max(charts._text_width(str(value), layout.font) for _, value in layout.y_ticks)
        assert max(value for _, value in layout.y_ticks) >= 1000 and layout.left - 6 >= widest
