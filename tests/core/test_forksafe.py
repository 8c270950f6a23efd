"""mlopt.forksafe: a child killed while it held Pyomo's output-capture lock leaves the parent's
lock free (the lock was a semaphore shared across fork; the parent then hung in every later
Pyomo solve)."""
from __future__ import annotations

import multiprocessing
import time

from mlopt.bracket import Boxed


def test_a_killed_child_does_not_keep_the_parents_capture_lock(monkeypatch):
    from pyomo.common import dependencies

    shared = multiprocessing.get_context("fork").Lock()  # what Pyomo uses once mp is imported
    monkeypatch.setattr(dependencies, "capture_output_lock", shared)

    def hold_forever():
        dependencies.capture_output_lock.acquire()
        time.sleep(60)

    kind, _ = Boxed(1.0, hold_forever).result()  # killed at its 1 s deadline, lock held
    assert kind != "ok"
    got = shared.acquire(timeout=2)
    assert got, "the killed child's lock is the parent's: every later Pyomo solve would wait"
    shared.release()
