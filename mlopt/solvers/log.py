"""The solver's own log, streamed while it runs: ``mlopt solve|bracket --log-solver``.

``with solver_log(sys.stderr): solve(...)`` makes every solve inside the block write the
backend's log to the stream (a context, like :func:`mlopt.solvers.progress.reporting`, so warm
starts, verification and bracket's child processes stream without a parameter threaded through
every call).  Never to stdout: ``--json`` output stays one JSON object.

HiGHS: Pyomo's ``tee`` for the modelled solves, the ``cbLogging`` callback for solves that
drive highspy directly (warm starts).  SCIP: its output, redirected to Python's ``sys.stdout``
(PySCIPOpt's ``redirectOutput``), with ``sys.stdout`` pointed at the stream for the solve.
DECISION (CP-SAT, Gurobi): not streamed (CP-SAT runs in a worker process whose stdout carries
the result); a one-line warning says so.
"""
from __future__ import annotations

import contextlib
import logging
import sys
from typing import IO, Iterator

_STREAMS: list[IO[str]] = []


@contextlib.contextmanager
def solver_log(stream: IO[str] | None) -> Iterator[None]:
    """Solves inside the block stream their log to ``stream`` (None: the block runs as is)."""
    if stream is None:
        yield
        return
    _STREAMS.append(stream)
    try:
        yield
    finally:
        _STREAMS.remove(stream)


def log_stream() -> IO[str] | None:
    """The innermost active log stream, if any."""
    return _STREAMS[-1] if _STREAMS else None


def attach_highs_log(highs, stream: IO[str]) -> None:
    """Stream a ``highspy.Highs`` instance's log to ``stream`` (not to the console)."""
    highs.setOptionValue("output_flag", True)
    highs.setOptionValue("log_to_console", False)

    def write(event) -> None:
        try:
            stream.write(event.message)
        except (OSError, ValueError):  # a closed stream never breaks a solve
            pass

    highs.cbLogging.subscribe(write)


@contextlib.contextmanager
def scip_log(scip, stream: IO[str] | None) -> Iterator[None]:
    """During the block, SCIP's output goes to ``stream`` (nothing changes when None)."""
    if stream is None:
        yield
        return
    scip.hideOutput(False)
    scip.redirectOutput()  # to Python's sys.stdout, pointed at the stream for the block
    saved = sys.stdout
    sys.stdout = stream
    try:
        yield
    finally:
        sys.stdout = saved


def not_streamed(solver: str) -> None:
    """A backend without a log stream: say so once per solve (a warning, so ``-q`` hides it)."""
    if log_stream() is not None:
        logging.getLogger("mlopt.solvers").warning("--log-solver: %s's log is not streamed",
                                                   solver)
