"""Child processes end when the process that started them dies: no orphans.

A harness pool worker or a solver subprocess calls :func:`watch_parent` once at start-up.  Two
mechanisms, because either alone has a gap:

* Linux ``PR_SET_PDEATHSIG``: the kernel sends SIGKILL when the *direct* parent exits (for a
  pool started with ``forkserver`` that is the fork server, which itself exits with mlopt);
* a daemon thread that checks every ``interval`` seconds whether the *watched* process (by
  default the parent; the harness passes its own pid) is still alive (not gone, not a zombie),
  and ends this process at once (``os._exit``) when it is not.

Standard library only: the CP-SAT worker loads this file by path, without importing mlopt
(OR-Tools and highspy cannot share a process).
"""
from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import sys
import threading
import time

EXIT_CODE = 70  # distinct, so a log shows why the process ended
PARENT_ENV = "MLOPT_PARENT_PID"  # set by a starter in its child's environment


def child_env() -> dict[str, str]:
    """The environment for a child process that will call :func:`watch_parent`."""
    return {**os.environ, PARENT_ENV: str(os.getpid())}


def _set_pdeathsig() -> None:
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)  # 1 = PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # pragma: no cover - no prctl here: the thread remains
        pass


def alive(pid: int) -> bool:
    """Whether process ``pid`` exists and is not a zombie (a killed parent nobody reaped)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        with open(f"/proc/{pid}/stat") as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
        return state not in ("Z", "X")
    except (OSError, IndexError):
        return True  # no /proc (not Linux): existence is all we can tell


def _watch(pid: int, interval: float) -> None:
    while True:
        time.sleep(interval)
        if not alive(pid):
            os._exit(EXIT_CODE)


def watch_parent(pid: int | None = None, interval: float = 1.0, *,
                 pdeathsig: bool = True) -> threading.Thread:
    """End this process when ``pid`` (default: the parent process) dies.

    ``pdeathsig=False`` for a child that a short-lived *thread* may have started: Linux sends
    the signal when the forking thread exits, not only when its process does."""
    if pid is None:  # the starter's pid, given at spawn time: getppid() is already the new
        # parent (init, a subreaper) when the starter died before this call
        pid = int(os.environ.get(PARENT_ENV) or os.getppid())
    pid = int(pid)
    if pdeathsig:
        _set_pdeathsig()
    if not alive(pid):  # died before we started watching
        os._exit(EXIT_CODE)
    thread = threading.Thread(target=_watch, args=(pid, interval), daemon=True,
                              name="mlopt-lifeline")
    thread.start()
    return thread
