"""Progress of long work on a terminal: one line on stderr that says which step is being done and how far the
command has come, drawn by tqdm, only when stderr is a terminal, never with --quiet, and only once the work
has taken more than a second (a quick run prints nothing extra). The line is cleared when the work ends.

The commands mark steps (a phase: reading the games, planning the pages, drawing them), never items inside a
loop. tqdm rather than a live display: it draws only when a step is marked, from the command's own thread, so
no thread runs when a build forks its workers (see parallel.py); its monitor thread is switched off.
"""
from __future__ import annotations

import sys
from typing import TextIO

DELAY_SECONDS = 1.0
# The steps each command says (replays.replay_games and build.build_site mark them).
REPLAY_STEPS = 2  # reading the games, replaying them
BUILD_STEPS = REPLAY_STEPS + 2  # and listing the pages, drawing them


class Progress:
    """`step(what)` for each of `steps` steps, then `close()` (or use it as a context manager)."""

    def __init__(self, command: str, steps: int, *, enabled: bool, stream: TextIO | None = None) -> None:
        self.command, self.steps, self.done = command, steps, 0
        self._bar = None
        if enabled:
            import tqdm  # only on a terminal: it takes a tenth of a second to import

            tqdm.tqdm.monitor_interval = 0  # no thread of its own
            self._bar = tqdm.tqdm(total=steps, file=stream or sys.stderr, leave=False, delay=DELAY_SECONDS,
                                  mininterval=0, bar_format="{desc} [{elapsed}]", dynamic_ncols=True)

    def step(self, what: str) -> None:
        """Start the next step: the line says `command: step N of M, what` once the work has taken a second."""
        self.done += 1
        if self._bar is None:
            return
        self._bar.set_description_str(f"{self.command}: step {self.done} of {self.steps}, {what}", refresh=False)
        self._bar.update(1 if self.done > 1 else 0)  # drawn by tqdm once its delay has passed

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def for_command(command: str, steps: int, *, quiet: bool) -> Progress:
    """A command's progress: shown on stderr when it is a terminal and --quiet was not given."""
    return Progress(command, steps, enabled=not quiet and sys.stderr.isatty())


NO_PROGRESS = Progress("", 0, enabled=False)
