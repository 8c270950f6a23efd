"""A forked child gets its own copy of the locks that must not be shared with its parent.

Pyomo serializes its output capture (``pyomo.common.tee.capture_output``, used by every
solver call through Pyomo) with ``pyomo.common.dependencies.capture_output_lock``, which
becomes a ``multiprocessing.Lock`` once multiprocessing is imported: a semaphore shared
with every process forked afterwards.  mlopt forks children and kills them at their deadlines
(``mlopt.bracket.Boxed``, harness workers): a child killed while it held the lock left it
held for good, and every later Pyomo solve in the parent and in new children waited 200 s
for it, then failed (seen: a test suite that hung until CI's limit).  The lock only needs to
serialize capture inside one process, so each child starts with a fresh one of its own.
Registered once, when mlopt is imported (standard library only)."""
from __future__ import annotations

import os
import sys
import threading


def fresh_locks_in_child() -> None:
    """Give this (just forked) process private copies of the shared locks it inherited."""
    deps = sys.modules.get("pyomo.common.dependencies")
    if deps is not None and hasattr(deps, "capture_output_lock"):
        deps.capture_output_lock = threading.Lock()


_registered: list[bool] = []


def register() -> None:
    """Run :func:`fresh_locks_in_child` after every fork of this process (once)."""
    if not _registered and hasattr(os, "register_at_fork"):
        os.register_at_fork(after_in_child=fresh_locks_in_child)
        _registered.append(True)
