"""The scores-over-turns chart, drawn at build time as SVG so it reads without JavaScript.

Drawn twice, for a wide screen and for a phone (CSS shows one), so that its text is about the page's
size at both instead of shrinking with the picture. Labels are placed so that they never overlap or leave
the picture: the names at the lines' ends are spread apart and the margin is as wide as the longest;
the phone's picture ends its lines with the scores alone, and the legend under both names every line.
"""
from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass

from ..engine.replay import Replay
from ..model import Proposal

# Colours that stay apart in light and dark modes; each line also has its own dash pattern, so the chart
# does not rely on colour alone.
PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf")
DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 2", "10 4", "4 4", "3 6")
CHAR_WIDTH = 0.62  # of the font size: a generous average advance of system-ui's digits and letters


@dataclass(frozen=True)
class Series:
    player: str
    color: str
    dash: str
    points: str  # SVG polyline points
    label: str
    label_x: float
    label_y: float  # the label's baseline, moved apart from the others
    end_y: float  # where the line ends, which a leader joins to the label when it moved
    final: int


@dataclass(frozen=True)
class Layout:
    width: int
    height: int
    font: int
    left: int
    right: int  # x of the plot's right edge
    top: int
    bottom: int  # y of the x axis
    series: tuple[Series, ...]
    y_ticks: tuple[tuple[float, int], ...]
    x_ticks: tuple[tuple[float, str], ...]
    x_title: str
    win_y: float | None
    win_label_y: float | None


@dataclass(frozen=True)
class Chart:
    wide: Layout
    narrow: Layout
    legend: tuple[tuple[str, str, str, int], ...]  # player, colour, dash, final score
    win: int


def _text_width(text: str, font: int) -> float:
    return len(text) * font * CHAR_WIDTH


def score_chart(replay: Replay) -> Chart | None:
    steps = [s for s in replay.steps if s.deltas or s is replay.steps[-1]]
    if not steps:
        return None
    players = sorted({p for s in replay.steps for p in s.scores} | set(replay.initial_scores))
    win = replay.steps[-1].mechanics.scoring.win
    scores = [s.scores for s in steps]
    runs = {player: _run(player, replay.initial_scores, scores) for player in players}
    marks = _marks(steps)
    wide = _layout(steps, runs, marks, win, width=760, height=340, font=13, names=True)
    narrow = _layout(steps, runs, marks, win, width=360, height=300, font=13, names=False)
    legend = tuple((p, PALETTE[n % len(PALETTE)], DASHES[n % len(DASHES)], steps[-1].scores.get(p, 0))
                   for n, p in enumerate(players))
    return Chart(wide, narrow, legend, win)


def _run(player: str, initial: dict[str, int], scores: list[dict[str, int]]) -> tuple[list[int], list[int]]:
    """A player's line as the positions on the x axis it has a score at (0: the start; a line starts when its
    player enters the game, as players may join later) and those scores."""
    positions = [0] if player in initial else []
    positions += [i + 1 for i, entry in enumerate(scores) if player in entry]
    values = ([initial[player]] if player in initial else []) + [scores[i - 1][player] for i in positions if i]
    return positions, values


def _layout(steps, runs: dict[str, tuple[list[int], list[int]]], marks: tuple[list[tuple[int, str]], str, int],
            win: int, *, width: int, height: int, font: int, names: bool) -> Layout:
    players = list(runs)
    finals = {p: steps[-1].scores.get(p, 0) for p in players}
    labels = {p: f"{p} {finals[p]}" if names else str(finals[p]) for p in players}
    values = {v for _, run in runs.values() for v in run} | {0}
    low, high = min(values), max(max(values), 1)
    if win <= high * 1.5:
        high = max(high, win)
    win_label = f"win {win}"
    label_room = max([_text_width(t, font) for t in labels.values()] + [_text_width(win_label, font)])
    top, left = font, int(_text_width(str(min(low, -10)), font) + 10)
    right = width - int(label_room) - 10
    bottom = height - 2 * font - 14
    span = max(high - low, 1)
    plot_w, plot_h = right - left, bottom - top
    count = len(steps)

    def x(position: int) -> float:
        return round(left + plot_w * position / max(count, 1), 1)

    def y(value: int) -> float:
        return round(top + plot_h * (high - value) / span, 1)

    # Each entry's x and each score's y worked out once, not once per player: a long game has 10,000 entries
    # (x inlined: a call per entry is most of the cost)
    xs = [round(left + plot_w * position / max(count, 1), 1) for position in range(count + 1)]
    ys = {value: y(value) for value in values}
    ends = {}
    lines = {}
    for player, (positions, scores) in runs.items():
        line_x, line_y = list(map(xs.__getitem__, positions)), list(map(ys.__getitem__, scores))
        lines[player] = _thin(line_x, line_y, plot_w)
        ends[player] = line_y[-1] if line_y else y(0)
    win_y = y(win) if low <= win <= high else None
    wanted = {p: ends[p] + font * 0.35 for p in players}
    if win_y is not None:
        wanted[""] = win_y + font * 0.35  # the win line's label takes its place among the names
    placed = _spread(wanted, gap=font + 2, low=top + font * 0.7, high=bottom + font * 0.35)
    series = tuple(Series(p, PALETTE[n % len(PALETTE)], DASHES[n % len(DASHES)],
                          " ".join(f"{a},{b}" for a, b in lines[p]), labels[p], right + 8, placed[p], ends[p],
                          finals[p]) for n, p in enumerate(players))
    tick_step = _nice_step(span)
    first_tick = (low // tick_step) * tick_step
    y_ticks = tuple((y(v), v) for v in range(first_tick, high + 1, tick_step) if low <= v <= high)
    x_ticks, x_title = _x_ticks(marks, xs, plot_w, font)
    return Layout(width, height, font, left, right, top, bottom, series, y_ticks, x_ticks, x_title, win_y,
                  placed.get(""))


def _thin(line_x: list[float], line_y: list[float], plot_w: float) -> list[tuple[float, float]]:
    """A line's points, at most about two per unit of width, keeping each column's lowest and highest (the first
    of each) and the last: a long game draws the same line in a fraction of the bytes. (x grows: a column's
    points are a run, found by bisection, and its ends by min and max: no step per point.)"""
    if len(line_x) <= 2 * plot_w:
        return list(zip(line_x, line_y))
    kept: list[tuple[float, float]] = []
    start = 0
    while start < len(line_x):
        end = bisect_left(line_x, int(line_x[start]) + 1, start)
        column = line_y[start:end]
        chosen = {start + column.index(min(column)), start + column.index(max(column)), end - 1}
        kept += sorted({(line_x[i], line_y[i]) for i in chosen})
        start = end
    return kept


def _spread(wanted: dict[str, float], *, gap: float, low: float, high: float) -> dict[str, float]:
    """Label baselines as near their lines' ends as can be with at least `gap` between them, within [low, high]."""
    order = sorted(wanted, key=lambda p: (wanted[p], p))
    placed: dict[str, float] = {}
    previous = low - gap
    for player in order:
        placed[player] = max(wanted[player], previous + gap)
        previous = placed[player]
    # Pushed past the bottom: shift the run up, keeping the gaps.
    overflow = previous - high
    if overflow > 0:
        ceiling = high
        for player in reversed(order):
            placed[player] = min(placed[player], ceiling)
            ceiling = placed[player] - gap
    return {p: round(v, 1) for p, v in placed.items()}


def _marks(steps) -> tuple[list[tuple[int, str]], str, int]:
    """Where the x axis may have ticks: at each proposal, named by its number (or at each dated entry, by date,
    when the chart's entries are not proposals); the axis's title; the longest name's length. Found once for both
    pictures."""
    proposals = [(i, s) for i, s in enumerate(steps) if isinstance(s.entry, Proposal)]
    if len(proposals) * 2 >= len(steps):
        marks, title = [(i, s.entry.name) for i, s in proposals], "proposal"
    else:
        marks, title = [(i, s.entry.date.isoformat()) for i, s in enumerate(steps) if s.entry.date], "date"
    return marks, title, max((len(label) for _, label in marks), default=0)


def _x_ticks(marks: tuple[list[tuple[int, str]], str, int], xs: list[float], plot_w: float,
             font: int) -> tuple[tuple[tuple[float, str], ...], str]:
    """Ticks at the marks, as many as fit side by side."""
    at, title, longest = marks
    if not at:
        return (), ""
    widest = _text_width("x" * longest, font) + font
    room = max(1, int(plot_w // widest))
    every = -(-len(at) // room)
    return tuple((xs[i + 1], label) for i, label in at[::every]), title


def _nice_step(span: int) -> int:
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10000):
        if span / step <= 8:
            return step
    return 10 ** len(str(span))
