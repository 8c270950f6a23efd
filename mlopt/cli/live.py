"""The live one-line display of ``mlopt solve`` and ``mlopt bracket`` (stderr).

Shows the current interval [low, high] on OPT with its gap, the last source that reported, and
the exact model's live solver incumbent and bound (:mod:`mlopt.solvers.progress`).  Shown when
stderr is a terminal (as every progress bar, :func:`mlopt.cli.progress.progress_wanted`), or
with ``--progress``; never with ``--json`` (stdout stays one JSON object, stderr quiet) or
``-q``.

It writes to its own duplicate of file descriptor 2, taken when it starts: Pyomo redirects
fd 2 while a solver runs (to capture the solver's log), and the solver callbacks that update
the display run inside that call.  Updates may come from a reader thread (bracket's exact model
reports from a child process), so they are serialised by a lock.
"""
from __future__ import annotations

import os
import threading


def _fmt(x) -> str:
    return "-" if x is None else f"{x:.6g}"


def _gap(low, high) -> str:
    if low is None or high is None:
        return ""
    scale = max(abs(low), abs(high)) or 1.0
    return f" gap {max(0.0, high - low) / scale:.2%}"


def wanted(args) -> bool:
    """Whether a command shows the live display: never with --json, -q or --log-solver; with --progress
    always; else only when stderr is a terminal."""
    from mlopt.cli import progress

    if getattr(args, "json", False) or not progress.SHOW_PROGRESS:
        return False
    if getattr(args, "log_solver", False):  # the solver's own log is the progress then
        return False
    return bool(getattr(args, "progress", False)) or progress.progress_wanted()


class Display:
    """``Display(enabled, sense)``; a disabled one accepts every call and prints nothing."""

    def __init__(self, enabled: bool, sense: str = "max"):
        self.enabled, self.sense = enabled, sense
        self.low = self.high = None
        self.last = ""
        self.solver: tuple | None = None  # the exact model's (incumbent, bound), unchecked
        self._lock = threading.Lock()
        self._bar = None  # started on the first update (lines printed before stay clean)
        self._out = os.fdopen(os.dup(2), "w", buffering=1) if enabled else None

    def line(self, text: str) -> None:
        """A line that stays (above the display line), when the display is shown."""
        if self.enabled and self._out is not None:
            with self._lock:
                if self._bar is not None:
                    self._bar.clear()
                self._out.write(text + "\n")
                self._out.flush()

    def note(self, text: str) -> None:
        """A phase (``building utility_ilp``, ``solving``)."""
        self.last = text
        self._show()

    def interval(self, state) -> None:
        """``mlopt.bracket``'s ``on_update``: the interval after a source reported."""
        self.low, self.high = state.low, state.high
        last = state.sources[-1]
        self.last = f"last: {last.name} ({last.status})"
        self._show()

    def progress(self, incumbent, bound) -> None:
        """A solver callback's (incumbent, bound), objective values in the model's sense."""
        self.solver = (incumbent, bound)
        if self.last.startswith("building"):
            self.last = "solving"
        self._show()

    def _show(self) -> None:
        if not self.enabled:
            return
        text = ""
        if self.low is not None or self.high is not None:
            text = f"[{_fmt(self.low)}, {_fmt(self.high)}]{_gap(self.low, self.high)}  "
        if self.solver is not None:
            inc, bnd = self.solver
            lo, hi = (inc, bnd) if self.sense == "max" else (bnd, inc)
            text += (f"solver incumbent {_fmt(inc)} bound {_fmt(bnd)}{_gap(lo, hi)}  ")
        text += self.last
        with self._lock:
            if self._out is None:  # closed
                return
            if self._bar is None:
                from tqdm import tqdm

                self._bar = tqdm(total=None, desc=text, bar_format="{desc} [{elapsed}]",
                                 file=self._out, leave=False, mininterval=0.1)
            self._bar.set_description_str(text)
            self._bar.update(0)

    def close(self) -> None:
        with self._lock:
            if self._bar is not None:
                self._bar.close()
                self._bar = None
            if self._out is not None:
                self._out.close()
                self._out = None
