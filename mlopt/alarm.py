"""A wall-clock limit on a block of Python code in the main thread: :func:`alarm`.

Used where pure-Python work must stop on time (a Pyomo model build in ``solve``, a conformance
check that must not grind).  It cannot interrupt C code (a solver call): that needs a process
(:class:`mlopt.bracket.Boxed`)."""
from __future__ import annotations

import contextlib
import functools
import os
import signal
import sys
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
        # the garbage collector, whose exceptions Python ignores), so a tick may pass:
        # * in library code (the standard library, site-packages): an exception raised
        #   between a lock's acquire and its try/finally leaves the lock held for the rest of
        #   the process (seen: Pyomo's output-capture lock, after which every later Pyomo solve
        #   waited 200 s for it, and a CI run hung); raised in mlopt's (or the caller's) own
        #   code instead, it unwinds through library frames the normal way;
        # * inside an import: a module stopped halfway stays broken in sys.modules (seen:
        #   pandas, then every later test that used it failed);
        # * once the block is unwinding into this context manager's own code.
        f = frame
        while f is not None:
            if f.f_code in _OWN_CODE or _importing(f.f_code):
                return
            f = f.f_back
        if frame is None or _own_file(frame.f_code.co_filename):
            raise _Expired()
        # in library code: raise at the next line of the innermost own frame, once the library
        # call has returned into it (a line-trace on that frame alone)
        f = frame
        while f is not None and not _own_file(f.f_code.co_filename):
            f = f.f_back
        if f is not None and not armed:
            armed.append((f, sys.gettrace()))
            f.f_trace_lines = True
            f.f_trace = _raise_on_line
            if sys.gettrace() is None:
                sys.settrace(_untraced)  # per-frame traces run only while a global one is set

    armed: list = []

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
        if armed:
            f, before = armed.pop()
            f.f_trace = None
            sys.settrace(before)
        if outer_left:  # the enclosing alarm's remaining time (at least a tick, if overdue)
            signal.setitimer(signal.ITIMER_REAL,
                             max(1e-6, outer_left - (time.monotonic() - start)), outer_every)


def _untraced(frame, event, arg):
    return None


def _raise_on_line(frame, event, arg):
    if event == "line":
        frame.f_trace = None
        raise _Expired()
    return _raise_on_line


def _library_prefixes() -> tuple[str, ...]:
    import sysconfig

    paths = sysconfig.get_paths()
    found = {os.path.realpath(paths[k]) for k in ("stdlib", "platstdlib", "purelib", "platlib")
             if paths.get(k)}
    return tuple(p.rstrip(os.sep) + os.sep for p in found)


#: where library code lives (mlopt's own package may be installed there: it is not library)
_LIBRARY = _library_prefixes()
_MLOPT = os.path.dirname(os.path.realpath(__file__)) + os.sep


@functools.lru_cache(maxsize=4096)
def _own_file(filename: str) -> bool:
    """Code of mlopt or of its caller (tests, scripts): not the standard library, not an
    installed package, not frozen or generated code."""
    if filename.startswith("<"):
        return False
    path = os.path.realpath(filename)
    return path.startswith(_MLOPT) or not path.startswith(_LIBRARY)


def _importing(code) -> bool:
    """A frame of the import machinery (module code runs beneath it)."""
    name = code.co_filename
    return name.startswith("<frozen importlib") or name.endswith(
        ("importlib/_bootstrap.py", "importlib/_bootstrap_external.py"))


# frames in which a repeated signal must not raise again: this context manager's generator and
# contextlib's __exit__ that throws into it
_OWN_CODE = {alarm.__wrapped__.__code__, contextlib._GeneratorContextManager.__exit__.__code__}
