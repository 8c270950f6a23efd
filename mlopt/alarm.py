"""A wall-clock limit on a block of Python code in the main thread: :func:`alarm`.

Used where pure-Python work must stop on time (a Pyomo model build in ``solve``, a conformance
check that must not grind).  It cannot interrupt C code (a solver call): that needs a process
(:class:`mlopt.bracket.Boxed`)."""
from __future__ import annotations

import signal
import threading
import time
from contextlib import contextmanager
from typing import Callable, Iterator


class _Expired(BaseException):
    """Raised into the block when its time is up: a BaseException, so that no ``except
    Exception`` in the code being limited (a builder, Pyomo, an algorithm) swallows it."""


@contextmanager
def alarm(seconds: float | None, expired: Callable[[], BaseException]) -> Iterator[None]:
    """Run the block; if it is still running after ``seconds`` of wall clock, stop it at its
    next bytecode and raise ``expired()`` instead.  ``seconds=None``, a thread other than the
    main one, or a platform without SIGALRM: no limit.  An enclosing alarm keeps its own
    deadline (its handler and remaining time are restored afterwards)."""
    if seconds is None or not hasattr(signal, "SIGALRM") \
            or threading.current_thread() is not threading.main_thread():
        yield
        return

    def _stop(signum, frame):
        raise _Expired()

    outer_left, _ = signal.getitimer(signal.ITIMER_REAL)
    start = time.monotonic()
    old = signal.signal(signal.SIGALRM, _stop)
    signal.setitimer(signal.ITIMER_REAL, max(seconds, 1e-6))
    try:
        yield
    except _Expired:
        raise expired() from None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
        if outer_left:  # the enclosing alarm's remaining time (at least a tick, if overdue)
            signal.setitimer(signal.ITIMER_REAL,
                             max(1e-6, outer_left - (time.monotonic() - start)))
