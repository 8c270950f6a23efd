"""The slack the checkers grant, defined once for checkers and models alike.

Capacities: a load passes when it is at most c (1 + CAP_RTOL) + CAP_ATOL (float sums of
demands).  Work: a job's work counts as done at WORK_RTOL below it (the work is a float computed
from seconds, MB and Gbit/s).

DECISION: a model (and every bound built on one) allows what the checker accepts, so that it
is a relaxation of every checked schedule.  A model stricter than its checker is unsound: an
independent review built an OASiS schedule the checker accepts (two workers of 1 + 1e-9 CPU on
a 2-CPU server) worth 15 while the exact ILP called 1 optimal.  With integer data the slack
changes nothing (:func:`integral`), so rows on integer data keep the exact capacity / work and
the golden LP files do not change.
"""
from __future__ import annotations

import math

import numpy as np

CAP_RTOL = 1e-9
CAP_ATOL = 1e-9
WORK_RTOL = 1e-9
#: integers below this keep exact rows: their slack (1e-9 relative + 1e-9 absolute, or 1e-9
#: relative of a work) is below 1, so an integer load within it of an integer limit is within
#: the limit itself
EXACT_LIMIT = 1e8
#: :func:`integral` also accepts multiples of 2^-k for k up to this (0.5, 1.5, 0.25 GB ...)
GRID_EXP = 10


def accepted_capacity(capacity):
    """The most load a checker accepts on ``capacity`` (a number or a numpy array)."""
    return capacity * (1 + CAP_RTOL) + CAP_ATOL


def accepted_work(work):
    """The least a checker accepts as the whole of ``work`` (a number or a numpy array)."""
    return work * (1 - WORK_RTOL)


def integral(*values) -> bool:
    """True when the values lie on one grid 2^-k (k <= :data:`GRID_EXP`, the smallest that
    fits) and each is below :data:`EXACT_LIMIT` grid steps.  Then integer combinations of them
    (loads: counts times demands) are on the grid too, and a load within the capacity slack of
    a limit c, c 1e-9 + 1e-9 < 2^-k (as c 2^k < 1e8), is within c itself: exact rows are
    equivalent.  Integers are the grid k = 0."""
    vals = [float(v) for v in values]
    if not all(math.isfinite(v) for v in vals):
        return False
    for k in range(GRID_EXP + 1):
        scaled = [v * 2 ** k for v in vals]  # exact: a power-of-two factor
        if all(x.is_integer() for x in scaled):
            return all(abs(x) < EXACT_LIMIT for x in scaled)
    return False


def capacity_rhs(capacity: float, demands) -> float:
    """A capacity row's right-hand side: ``capacity`` itself when it and every demand in the
    row are integers or on one binary grid (:func:`integral`: equivalent for integer counts),
    else the accepted load (:func:`accepted_capacity`)."""
    return capacity if integral(capacity, *demands) else accepted_capacity(capacity)


def capacity_rhs_table(cap, demands_by_resource) -> np.ndarray:
    """H x R: :func:`capacity_rhs` of each ``cap[h, r]`` with the demands that load resource r
    (``demands_by_resource[r]``): the limits of a family's capacity rows, per server."""
    out = np.array(cap, dtype=float)
    for r, dem in enumerate(demands_by_resource):
        for h in range(out.shape[0]):
            out[h, r] = capacity_rhs(out[h, r], dem)
    return out
