"""The solver's incumbent and bound while it runs: :func:`reporting` and the HiGHS callbacks.

``with reporting(sink): solve(...)`` makes every solve inside the block report
``sink(incumbent, bound)`` (objective values in the model's own sense; None where the solver has
none yet) whenever the backend's callbacks say something new.  A context, not a keyword of
``solve``, so warm-started solves, verification and the bracket's child process report without
a parameter threaded through every backend; a backend without callbacks reports nothing.

HiGHS (highspy's callback API): ``cbMipImprovingSolution`` (a new incumbent: always reported)
and ``cbMipInterrupt`` (fired at every node, carrying the primal and dual bounds: reported when
either moved, at most every :data:`MIN_INTERVAL_S`).  The sink runs inside the solver's call
(the GIL is held, the solver waits), so it must be quick; an exception in it is swallowed and
reporting stops (a display must never break a solve).

SCIP (one thread): an event handler (PySCIPOpt ``Eventhdlr``) on ``BESTSOLFOUND`` (reported at
once) and ``NODESOLVED`` (throttled), reading SCIP's primal and dual bounds.  SCIP's concurrent
mode (``threads`` > 1) reports nothing.

DECISION (CP-SAT, Gurobi): no callbacks wired (CP-SAT runs in a worker process of its own);
those solves show the bracket's interval without live solver updates.
"""
from __future__ import annotations

import math
import time
from contextlib import contextmanager
from typing import Callable, Optional

Sink = Callable[[Optional[float], Optional[float]], None]

#: least seconds between two reports of the same kind of event (node events come by the
#: thousand per second; improving solutions are always reported)
MIN_INTERVAL_S = 0.2

_SINKS: list[Sink] = []


@contextmanager
def reporting(sink: Sink | None):
    """Solves inside the block report to ``sink`` (None: no reporting, the block runs as is)."""
    if sink is None:
        yield
        return
    _SINKS.append(sink)
    try:
        yield
    finally:
        _SINKS.remove(sink)


def current() -> Sink | None:
    """The innermost active sink, if any."""
    return _SINKS[-1] if _SINKS else None


def _finite(x) -> float | None:
    try:
        x = float(x)
    except (TypeError, ValueError):
        return None
    return x if math.isfinite(x) and abs(x) < 1e30 else None


def reports(solver: str, threads: int = 1) -> bool:
    """Whether a solve with ``solver`` reports through :func:`reporting` (HiGHS; SCIP with
    one thread): a caller may read silence from these as "no incumbent or bound yet"."""
    return solver == "highs" or (solver == "scip" and int(threads) == 1)


class Throttle:
    """Forwards (incumbent, bound) pairs to a sink: a new incumbent at once, other changes at
    most every ``interval`` seconds, nothing that did not change."""

    def __init__(self, sink: Sink, interval: float = MIN_INTERVAL_S):
        self.sink, self.interval = sink, interval
        self.last: tuple | None = None
        self.at = -math.inf
        self.broken = False

    def __call__(self, incumbent, bound, urgent: bool = False) -> None:
        if self.broken:
            return
        pair = (_finite(incumbent), _finite(bound))
        if pair == (None, None) or pair == self.last:
            return
        now = time.monotonic()
        if not urgent and now - self.at < self.interval:
            return
        self.last, self.at = pair, now
        try:
            self.sink(*pair)
        except Exception:  # noqa: BLE001  (a display never breaks a solve)
            self.broken = True


def attach_highs(highs, sink: Sink) -> None:
    """Subscribe ``sink`` (through a :class:`Throttle`) to a ``highspy.Highs`` instance's MIP
    callbacks."""
    throttle = Throttle(sink)

    def improving(event):
        out = event.data_out
        throttle(out.mip_primal_bound, out.mip_dual_bound, urgent=True)

    def node(event):
        out = event.data_out
        throttle(out.mip_primal_bound, out.mip_dual_bound)

    highs.cbMipImprovingSolution.subscribe(improving)
    highs.cbMipInterrupt.subscribe(node)


def attach_scip(scip, sink: Sink) -> None:
    """Include an event handler reporting to ``sink`` (through a :class:`Throttle`) in a
    ``pyscipopt.Model`` before ``optimize()``."""
    from pyscipopt import SCIP_EVENTTYPE, Eventhdlr

    throttle = Throttle(sink)
    kinds = (SCIP_EVENTTYPE.BESTSOLFOUND, SCIP_EVENTTYPE.NODESOLVED)

    class Progress(Eventhdlr):
        def eventinit(self):
            for kind in kinds:
                self.model.catchEvent(kind, self)

        def eventexit(self):
            for kind in kinds:
                self.model.dropEvent(kind, self)

        def eventexec(self, event):
            m = self.model
            found = event.getType() == SCIP_EVENTTYPE.BESTSOLFOUND
            # at BESTSOLFOUND the primal bound is not updated yet: the new solution's value
            inc = m.getSolObjVal(m.getBestSol()) if found else m.getPrimalbound()
            bnd = m.getDualbound()
            throttle(*(None if v is None or abs(v) >= m.infinity() else v for v in (inc, bnd)),
                     urgent=found)

    scip.includeEventhdlr(Progress(), "mlopt_progress", "incumbent and bound for a display")
