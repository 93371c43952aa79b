"""The scores-over-turns chart, drawn at build time as SVG so it reads without JavaScript."""
from __future__ import annotations

from dataclasses import dataclass

from ..engine.replay import Replay

# Colours that stay apart in light and dark modes; each line also has its own dash pattern, so the chart
# does not rely on colour alone.
PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf")
DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 2", "10 4", "4 4", "3 6")


@dataclass(frozen=True)
class Series:
    player: str
    color: str
    dash: str
    points: str  # SVG polyline points
    last_x: float
    last_y: float
    final: int


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    series: tuple[Series, ...]
    y_ticks: tuple[tuple[float, int], ...]
    x_ticks: tuple[tuple[float, str], ...]
    win_y: float | None
    win: int
    left: int
    bottom: int


def score_chart(replay: Replay, width: int = 760, height: int = 320) -> Chart | None:
    steps = [s for s in replay.steps if s.deltas or s is replay.steps[-1]]
    if not steps:
        return None
    players = sorted({p for s in replay.steps for p in s.scores} | set(replay.initial_scores))
    left, right, top, bottom = 48, 90, 16, 36
    values = [v for s in steps for v in s.scores.values()] + [0]
    win = replay.steps[-1].mechanics.scoring.win
    low, high = min(values), max(max(values), 1)
    if win <= high * 1.5:
        high = max(high, win)
    span = max(high - low, 1)
    plot_w, plot_h = width - left - right, height - top - bottom
    count = len(steps)

    def x(position: int) -> float:
        return round(left + plot_w * position / max(count, 1), 1)

    def y(value: int) -> float:
        return round(top + plot_h * (high - value) / span, 1)

    series = []
    for n, player in enumerate(players):
        # A line starts when its player enters the game (players may join later).
        coords = [(x(0), y(replay.initial_scores[player]))] if player in replay.initial_scores else []
        coords += [(x(i + 1), y(s.scores[player])) for i, s in enumerate(steps) if player in s.scores]
        final = steps[-1].scores.get(player, 0)
        series.append(Series(player, PALETTE[n % len(PALETTE)], DASHES[n % len(DASHES)],
                             " ".join(f"{a},{b}" for a, b in coords), coords[-1][0], coords[-1][1], final))
    tick_step = _nice_step(span)
    first_tick = (low // tick_step) * tick_step
    y_ticks = tuple((y(v), v) for v in range(first_tick, high + 1, tick_step) if low <= v <= high)
    label_every = max(1, count // 8)
    x_ticks = tuple((x(i + 1), _short(s.label)) for i, s in enumerate(steps) if i % label_every == 0)
    return Chart(width, height, tuple(series), y_ticks, x_ticks, y(win) if low <= win <= high else None, win,
                 left, height - bottom)


def _nice_step(span: int) -> int:
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10000):
        if span / step <= 8:
            return step
    return 10 ** len(str(span))


def _short(label: str) -> str:
    return label.replace("proposal ", "").replace("judgment ", "J").replace("event ", "")[:12]
