"""A silent ``highspy.Highs``: the one place that makes HiGHS objects for code that drives
highspy directly (column generation, the PD-ORS oracle, warm starts, the HiGHS backend's
option checks).  HiGHS's constructor writes a banner to file descriptor 1 (once per process),
which would land in the middle of a command's output or its ``--json``; it is discarded, and
logging is off."""
from __future__ import annotations

import os
import sys


def quiet_highs():
    """A new ``highspy.Highs`` with ``output_flag`` off and no banner on stdout."""
    import highspy

    sys.stdout.flush()
    saved, null = os.dup(1), os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    try:
        highs = highspy.Highs()
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(null)
    highs.setOptionValue("output_flag", False)
    # one thread unless the caller says otherwise: HiGHS's own choice counts the machine's
    # cores, not the ones this process may use (a CI container on a large host got a pool of
    # many threads on two cores)
    highs.setOptionValue("threads", 1)
    return highs


#: the thread count HiGHS's worker pool was started for in this process (0: HiGHS's own
#: choice); empty before the first run
_pool: list[int] = []


def pool_for(threads: int | None) -> None:
    """Call before a HiGHS run asking for ``threads`` (None or 0: HiGHS's own choice, which
    mlopt's own calls never leave to HiGHS).

    HiGHS keeps one pool of worker threads per process, sized by its first run, and fails any
    later run that asks for another count (status kError, no message).  Which count came first
    then decides which later solves fail: with HiGHS's own choice at half the machine's cores,
    a machine with more than two cores failed every later one-thread solve (seen in CI).  The
    pool is restarted when the count changes; runs in one process are sequential here
    (``bracket``'s sources are processes), so no solve is running on the pool it replaces."""
    import highspy

    key = int(threads or 0)
    if _pool and _pool[0] != key:
        highspy.Highs.resetGlobalScheduler(True)
    _pool[:] = [key]


def _threads_of(highs) -> int:
    value = highs.getOptionValue("threads")
    return int(value[1] if isinstance(value, tuple) else value)


def run_highs(highs):
    """``highs.run()`` on a pool of the thread count ``highs`` asks for (:func:`pool_for`);
    once more on a fresh pool if HiGHS still refuses the run (a pool started by code that
    did not come through here).  Without the retry a bound that needs an LP silently fell
    back to a weaker value."""
    import highspy

    pool_for(_threads_of(highs))
    status = highs.run()
    if status == highspy.HighsStatus.kError:
        highspy.Highs.resetGlobalScheduler(True)
        status = highs.run()
    return status


def binary_program(cost, rows, cols, vals, row_lower, row_upper, *, maximize: bool = False,
                   col_lower=None, integer: bool = True):
    """A ``highspy.HighsLp`` over 0/1 columns (upper bound 1, lower bound ``col_lower`` or 0)
    from its nonzeros ``(rows, cols, vals)`` in any order: the shape of every restricted
    master here (one column per candidate schedule, a once row per job, capacity rows).
    ``integer=False``: its LP relaxation."""
    import highspy
    import numpy as np

    rows, cols, vals = np.asarray(rows), np.asarray(cols), np.asarray(vals, dtype=float)
    order = np.lexsort((rows, cols))
    rows, cols, vals = rows[order], cols[order], vals[order]
    n = len(cost)
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = n, len(row_upper)
    lp.col_cost_ = np.asarray(cost, dtype=float)
    lp.col_lower_ = np.zeros(n) if col_lower is None else np.asarray(col_lower, dtype=float)
    lp.col_upper_ = np.ones(n)
    lp.row_lower_ = np.asarray(row_lower, dtype=float)
    lp.row_upper_ = np.asarray(row_upper, dtype=float)
    if maximize:
        lp.sense_ = highspy.ObjSense.kMaximize
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = np.searchsorted(cols, np.arange(n + 1)).astype(np.int32)
    lp.a_matrix_.index_ = rows.astype(np.int32)
    lp.a_matrix_.value_ = vals
    if integer:
        lp.integrality_ = [highspy.HighsVarType.kInteger] * n
    return lp


def run_mip_consistent(highs, start=None) -> dict:
    """Run a MIP (``start``: a ``HighsSolution`` handed to ``setSolution`` before each run)
    and make sure the objective HiGHS reports is its own solution's value.

    HiGHS 1.16 with presolve on and a start from ``setSolution`` once reported "optimal" with
    an objective far from the value of the solution ``getSolution()`` returned (hetero's
    master, :mod:`mlopt.warmstart`).  When the two disagree the run is repeated once with
    presolve off (which answered correctly there).  Returns ``{"retried": bool, "consistent":
    bool, "reported": float | None, "own": float | None}`` for the last run; callers use the
    solution's own value (``own``), never a disagreeing report, and no bound of such a run."""
    import numpy as np

    def once():
        if start is not None:
            highs.setSolution(start)
        run_highs(highs)
        info = highs.getInfo()
        if info.primal_solution_status != 2:  # no feasible solution: nothing to compare
            return None, None
        lp = highs.getLp()
        x = np.asarray(highs.getSolution().col_value, dtype=float)
        own = float(np.dot(np.asarray(lp.col_cost_, dtype=float), x) + float(lp.offset_))
        return float(info.objective_function_value), own

    def agree(rep, own):
        return rep is None or abs(rep - own) <= 1e-6 * max(1.0, abs(own))

    reported, own = once()
    retried = False
    if not agree(reported, own):
        retried = True
        highs.setOptionValue("presolve", "off")
        highs.clearSolver()
        reported, own = once()
    return {"retried": retried, "consistent": agree(reported, own), "reported": reported,
            "own": own}
