"""The scores-over-turns chart, drawn at build time as SVG so it reads without JavaScript.

Drawn twice, for a wide screen and for a phone (CSS shows one), so that its text is about the page's
size at both instead of shrinking with the picture. Labels are placed so that they never overlap or leave
the picture: the names at the lines' ends are spread apart and the margin is as wide as the longest;
the phone's picture ends its lines with the scores alone, and the legend under both names every line.

The lines are written in the chart's own terms, an entry's place and a score, and the picture's transform
maps them: an entry appended rescales the picture, not its lines. A long game's lines are thinned in buckets
of places (`_bucket`), each run of entries summed apart (views.summaries).
"""
from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass

from ..engine.replay import Replay
from ..model import Proposal
from .views import summaries

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
    points: str  # SVG polyline points, as (place, score): the layout's transform maps them
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
    transform: str  # of the lines: an SVG matrix from (place, score) to the picture


@dataclass(frozen=True)
class Chart:
    wide: Layout
    narrow: Layout
    legend: tuple[tuple[str, str, str, int], ...]  # player, colour, dash, final score
    win: int


def _text_width(text: str, font: int) -> float:
    return len(text) * font * CHAR_WIDTH


BUCKETS = 512  # a line is thinned to at most this many buckets of places (about one per unit of the wide plot)


def score_chart(replay: Replay) -> Chart | None:
    """The chart of `replay`'s scores."""
    steps = [s for s in replay.steps if s.deltas or s is replay.steps[-1]]
    if not steps:
        return None
    players = sorted({p for s in replay.steps for p in s.scores} | set(replay.initial_scores))
    win = replay.mechanics.scoring.win
    bucket = _bucket(len(steps))
    pieces = summaries(steps, lambda start, run: _line_pieces(start, run, bucket))
    initial = replay.initial_scores
    lines, lasts, values = {}, {}, {0} | set(initial.values())
    for player in players:
        parts = [(f"0,{_number(initial[player])}", initial[player], initial[player], initial[player])] \
            if player in initial else []
        parts += [piece[player] for piece in pieces if player in piece]
        lines[player] = " ".join(part[0] for part in parts)
        lasts[player] = parts[-1][3] if parts else 0
        values |= {part[1] for part in parts} | {part[2] for part in parts}
    extent = min(values), max(max(values), 1)
    marks = _marks(summaries(steps, _run_marks), len(steps))
    wide = _layout(steps, lines, lasts, extent, marks, win, width=760, height=340, font=13, names=True)
    narrow = _layout(steps, lines, lasts, extent, marks, win, width=360, height=300, font=13, names=False)
    legend = tuple((p, PALETTE[n % len(PALETTE)], DASHES[n % len(DASHES)], steps[-1].scores.get(p, 0))
                   for n, p in enumerate(players))
    return Chart(wide, narrow, legend, win)


def _bucket(count: int) -> int:
    """How many places a bucket of a line's points holds: 1 (none thinned) for a short game, else a power of
    two, the least that makes at most BUCKETS (the same for thousands of entries appended)."""
    bucket = 1
    while count > BUCKETS * bucket:
        bucket *= 2
    return bucket


def _line_pieces(start: int, run: tuple, bucket: int) -> dict[str, tuple[str, int, int, int]]:
    """Each player's part of the lines in a run of the chart's entries (at places start + 1, ...; 0 is the
    start of the game): its points, in each bucket of places its first lowest, first highest and last score;
    and its lowest, highest and last score."""
    scores: dict[str, tuple[list[int], list[int]]] = {}
    for place, step in enumerate(run, start + 1):
        for player, score in step.scores.items():
            at = scores.setdefault(player, ([], []))
            at[0].append(place)
            at[1].append(score)
    pieces = {}
    for player, (places, values) in scores.items():
        kept: list[tuple[int, int]] = []
        first = 0
        while first < len(places):
            end = bisect_left(places, (places[first] // bucket + 1) * bucket, first)
            column = values[first:end]
            chosen = {first + column.index(min(column)), first + column.index(max(column)), end - 1}
            kept += sorted({(places[i], values[i]) for i in chosen})
            first = end
        pieces[player] = (" ".join(f"{place},{_number(value)}" for place, value in kept),
                          min(values), max(values), values[-1])
    return pieces


def _number(value) -> str:
    """A score as SVG reads it: an exact decimal or fraction as a decimal."""
    return str(value) if isinstance(value, int) else format(float(value), ".6g")


def _layout(steps, lines: dict[str, str], lasts: dict[str, int], extent: tuple[int, int],
            marks: tuple[list[tuple[int, str]], str, int], win: int, *, width: int, height: int, font: int,
            names: bool) -> Layout:
    players = list(lines)
    finals = {p: steps[-1].scores.get(p, 0) for p in players}
    labels = {p: f"{p} {_number(finals[p])}" if names else _number(finals[p]) for p in players}
    low, high = math.floor(extent[0]), math.ceil(extent[1])  # (whole: scores may be exact decimals, 31.7)
    if win <= high * 1.5:
        high = max(high, win)
    win_label = f"win {win}"
    label_room = max([_text_width(t, font) for t in labels.values()] + [_text_width(win_label, font)])
    # (room for the widest score a tick names: the lowest, or the highest)
    top, left = font, int(max(_text_width(str(min(low, -10)), font), _text_width(str(high), font)) + 10)
    right = width - int(label_room) - 10
    bottom = height - 2 * font - 14
    span = max(high - low, 1)
    plot_w, plot_h = right - left, bottom - top
    count = len(steps)

    def x(position: int) -> float:
        return round(left + plot_w * position / max(count, 1), 1)

    def y(value: int) -> float:
        return round(top + plot_h * (high - value) / span, 1)

    across, up = plot_w / max(count, 1), plot_h / span
    transform = f"matrix({across:.6g} 0 0 {-up:.6g} {left} {float(top + high * up):.6g})"
    ends = {p: y(lasts[p]) for p in players}
    win_y = y(win) if low <= win <= high else None
    wanted = {p: ends[p] + font * 0.35 for p in players}
    if win_y is not None:
        wanted[""] = win_y + font * 0.35  # the win line's label takes its place among the names
    placed = _spread(wanted, gap=font + 2, low=top + font * 0.7, high=bottom + font * 0.35)
    series = tuple(Series(p, PALETTE[n % len(PALETTE)], DASHES[n % len(DASHES)], lines[p], labels[p], right + 8,
                          placed[p], ends[p], finals[p]) for n, p in enumerate(players))
    tick_step = _nice_step(span)
    first_tick = (low // tick_step) * tick_step
    y_ticks = tuple((y(v), v) for v in range(first_tick, high + 1, tick_step) if low <= v <= high)
    x_ticks, x_title = _x_ticks(marks, x, plot_w, font)
    return Layout(width, height, font, left, right, top, bottom, series, y_ticks, x_ticks, x_title, win_y,
                  placed.get(""), transform)


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


def _run_marks(start: int, run: tuple) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """Where a run of the chart's entries (from place `start` in them) may have ticks: at each proposal, named by
    its number, and at each dated entry, by its date."""
    return ([(i, s.entry.name) for i, s in enumerate(run, start) if isinstance(s.entry, Proposal)],
            [(i, s.entry.date.isoformat()) for i, s in enumerate(run, start) if s.entry.date])


def _marks(runs: list[tuple[list, list]], count: int) -> tuple[list[tuple[int, str]], str, int]:
    """Where the x axis may have ticks (`runs`: each run's `_run_marks`, of `count` entries): at the proposals (or
    at the dated entries, when the chart's entries are mostly not proposals); the axis's title; the longest name's
    length. Found once for both pictures."""
    proposals = [mark for marks, _ in runs for mark in marks]
    if len(proposals) * 2 >= count:
        marks, title = proposals, "proposal"
    else:
        marks, title = [mark for _, dated in runs for mark in dated], "date"
    return marks, title, max((len(label) for _, label in marks), default=0)


def _x_ticks(marks: tuple[list[tuple[int, str]], str, int], x: Callable[[int], float], plot_w: float,
             font: int) -> tuple[tuple[tuple[float, str], ...], str]:
    """Ticks at the marks, as many as fit side by side."""
    at, title, longest = marks
    if not at:
        return (), ""
    widest = _text_width("x" * longest, font) + font
    room = max(1, int(plot_w // widest))
    every = -(-len(at) // room)
    return tuple((x(i + 1), label) for i, label in at[::every]), title


def _nice_step(span: int) -> int:
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10000):
        if span / step <= 8:
            return step
    return 10 ** len(str(span))
