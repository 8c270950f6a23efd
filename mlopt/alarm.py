"""A wall-clock limit on a block of Python code in the main thread: :func:`alarm`.

Used where pure-Python work must stop on time (a Pyomo model build in ``solve``, a conformance
check that must not grind).  It cannot interrupt C code (a solver call): that needs a process
(:class:`mlopt.bracket.Boxed`)."""
from __future__ import annotations

import contextlib
import signal
import threading
import time
from contextlib import contextmanager
from typing import Callable, Iterator


#: seconds between repeated signals once the limit has passed (until the block has stopped)
REPEAT_S = 0.25


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
        # the timer repeats (a first raise can be swallowed: it may land in a finalizer run by
        # the garbage collector, whose exceptions Python ignores); once the block is unwinding
        # into this context manager's own code, stay quiet; inside an import, wait for the next
        # tick: an import stopped halfway leaves a broken module in sys.modules for the rest
        # of the process (seen: pandas, then every later test that used it failed)
        while frame is not None:
            if frame.f_code in _OWN_CODE or _importing(frame.f_code):
                return
            frame = frame.f_back
        raise _Expired()

    outer_left, outer_every = signal.getitimer(signal.ITIMER_REAL)
    start = time.monotonic()
    old = signal.signal(signal.SIGALRM, _stop)
    signal.setitimer(signal.ITIMER_REAL, max(seconds, 1e-6), REPEAT_S)
    try:
        yield
    except _Expired:
        raise expired() from None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
        if outer_left:  # the enclosing alarm's remaining time (at least a tick, if overdue)
            signal.setitimer(signal.ITIMER_REAL,
                             max(1e-6, outer_left - (time.monotonic() - start)), outer_every)


def _importing(code) -> bool:
    """A frame of the import machinery (module code runs beneath it)."""
    name = code.co_filename
    return name.startswith("<frozen importlib") or name.endswith(
        ("importlib/_bootstrap.py", "importlib/_bootstrap_external.py"))


# frames in which a repeated signal must not raise again: this context manager's generator and
# contextlib's __exit__ that throws into it
_OWN_CODE = {alarm.__wrapped__.__code__, contextlib._GeneratorContextManager.__exit__.__code__}
