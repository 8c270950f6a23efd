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

CAP_RTOL = 1e-9
CAP_ATOL = 1e-9
WORK_RTOL = 1e-9
#: integers below this keep exact rows: their slack (1e-9 relative + 1e-9 absolute, or 1e-9
#: relative of a work) is below 1, so an integer load within it of an integer limit is within
#: the limit itself
EXACT_LIMIT = 1e8


def accepted_capacity(capacity):
    """The most load a checker accepts on ``capacity`` (a number or a numpy array)."""
    return capacity * (1 + CAP_RTOL) + CAP_ATOL


def accepted_work(work):
    """The least a checker accepts as the whole of ``work`` (a number or a numpy array)."""
    return work * (1 - WORK_RTOL)


def integral(*values) -> bool:
    """True when every value is an integer of magnitude below :data:`EXACT_LIMIT` (then the
    checkers' slack admits no other integer combination: exact rows are equivalent)."""
    for v in values:
        v = float(v)
        if not (math.isfinite(v) and v.is_integer() and abs(v) < EXACT_LIMIT):
            return False
    return True


def capacity_rhs(capacity: float, demands) -> float:
    """A capacity row's right-hand side: ``capacity`` itself when it and every demand in the
    row are integers (:func:`integral`: equivalent for integer counts), else the accepted load
    (:func:`accepted_capacity`)."""
    return capacity if integral(capacity, *demands) else accepted_capacity(capacity)
