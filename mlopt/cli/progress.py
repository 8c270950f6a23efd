"""How the command line talks while it works: the ``logging`` setup behind ``-v`` / ``-q`` and
a progress indication for steps that can take long.

Library code never prints: it logs to ``logging.getLogger("mlopt.<module>")`` (INFO for the
steps of a run, DEBUG for details).  The command line attaches one handler to the ``mlopt``
logger on stderr: warnings only by default, INFO with ``-v``, DEBUG with ``-vv``, errors only
with ``-q`` (which also turns progress bars off).  A library user configures ``logging`` as
usual; nothing is printed unless they do.
"""
from __future__ import annotations

import contextlib
import logging
import sys
import threading
import time
from typing import Iterator

#: set by :func:`configure`: progress bars are drawn (a terminal on stderr and no ``-q``)
SHOW_PROGRESS = True


class _OneLine(logging.Formatter):
    """``mlopt: message`` on one line (``mlopt.module: message`` at DEBUG)."""

    def __init__(self, debug: bool):
        super().__init__()
        self.debug = debug

    def format(self, record: logging.LogRecord) -> str:
        who = record.name if self.debug else "mlopt"
        return f"{who}: {' '.join(record.getMessage().split())}"


def configure(verbose: int = 0, quiet: bool = False, stream=None) -> int:
    """Set the ``mlopt`` logger's level from ``-v`` (count) / ``-q``; returns the level."""
    global SHOW_PROGRESS
    level = logging.ERROR if quiet else max(logging.DEBUG, logging.WARNING - 10 * verbose)
    logger = logging.getLogger("mlopt")
    for h in list(logger.handlers):
        if getattr(h, "_mlopt_cli", False):
            logger.removeHandler(h)
    handler = logging.StreamHandler(stream if stream is not None else sys.stderr)
    handler._mlopt_cli = True  # type: ignore[attr-defined]
    handler.setFormatter(_OneLine(level <= logging.DEBUG))
    logger.addHandler(handler)
    logger.setLevel(level)
    logger.propagate = False
    SHOW_PROGRESS = not quiet
    return level


def progress_wanted() -> bool:
    """Progress bars for this command: not with ``-q``, and only on a terminal."""
    try:
        return SHOW_PROGRESS and sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


@contextlib.contextmanager
def spinner(desc: str, enabled: bool | None = None, interval: float = 0.5,
            ) -> Iterator[None]:
    """Show ``desc [elapsed]`` on stderr while the block runs (a step with no count to show:
    a model build, an export), and log the step and its time at INFO."""
    log = logging.getLogger("mlopt.cli")
    log.info("%s ...", desc)
    enabled = progress_wanted() if enabled is None else enabled
    t0 = time.perf_counter()
    stop = threading.Event()
    bar = None
    if enabled:
        from tqdm import tqdm

        bar = tqdm(total=None, desc=desc, bar_format="{desc} [{elapsed}]", file=sys.stderr,
                   leave=False)

        def tick():
            while not stop.wait(interval):
                bar.refresh()

        ticker = threading.Thread(target=tick, daemon=True)
        ticker.start()
    try:
        yield
    finally:
        stop.set()
        if bar is not None:
            ticker.join()
            bar.close()
        log.info("%s: done in %.2f s", desc, time.perf_counter() - t0)


def add_solver_log_flag(p) -> None:
    """``--log-solver`` on a command that solves (``solve``, ``bracket``)."""
    p.add_argument("--log-solver", action="store_true",
                   help="stream the solver's own log to stderr while it runs (HiGHS, SCIP; "
                        "replaces the progress display; stdout and --json unchanged)")


def streaming_solver_log(handler):
    """``handler`` run with the solver's log streamed to stderr when ``--log-solver`` is given
    (:func:`mlopt.solvers.log.solver_log`)."""
    import functools

    @functools.wraps(handler)
    def run(args) -> int:
        from mlopt.solvers.log import solver_log

        with solver_log(sys.stderr if getattr(args, "log_solver", False) else None):
            return handler(args)

    return run
