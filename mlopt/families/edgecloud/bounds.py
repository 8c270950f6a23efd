"""Certified lower bounds on the optimal total JCT (the harness's ``[offline] bounds``).

* ``flow_lb``: ILP (4) with whole-slot processing and the mode zeta_j kept (Lemma 1);
* ``flow_lb_zeta1``: the same with zeta_j = 1 for every job, the bound behind the paper's
  Fig. 12-13 ratios (a relaxation of ``flow_lb``, so never larger);
* ``jct_unpinned``: the literal MINLP (2) without chunk pinning (a relaxation of the pinned
  ``jct_milp``), solved as a MILP.

Each returns the solver's proven dual bound (the optimum when solved to optimality, a valid
bound when stopped at the time limit) and, because every total JCT is an integer (a sum of
integer c_j - r_j), also ``ceil(bound - 1e-6)``, which is reported as the bound.  None when the
solver proved nothing.  These are bounds only: no schedule comes out of them.
"""
from __future__ import annotations

import math

from mlopt.solve import Status, solve
from mlopt.workload import Workload

INT_TOL = 1e-6


def _bound(model, *, solver: str, time_limit: float | None, threads: int | None) -> dict:
    res = solve(model, solver, time_limit=time_limit, threads=threads)
    raw = res.bound
    if res.status == Status.OPTIMAL and res.objective is not None:
        raw = res.objective if raw is None else min(raw, res.objective)
    if raw is None or not math.isfinite(raw):
        return {"bound": None, "status": res.status.value, "runtime_s": res.runtime_s}
    return {"bound": float(math.ceil(raw - INT_TOL)), "raw_bound": raw,
            "status": res.status.value, "gap": res.gap, "solver": res.solver,
            "solve_s": res.runtime_s}


def flow_lb(workload: Workload, *, solver: str = "highs", time_limit: float | None = 60.0,
            threads: int | None = 1) -> dict:
    """Return the certified lower bound from ILP (4) with the mode zeta_j kept."""
    from mlopt.models.edgecloud import build_flow_lb

    return _bound(build_flow_lb(workload), solver=solver, time_limit=time_limit, threads=threads)


def flow_lb_zeta1(workload: Workload, *, solver: str = "highs", time_limit: float | None = 60.0,
                  threads: int | None = 1) -> dict:
    """Return the certified lower bound from ILP (4) with zeta_j = 1 for every job."""
    from mlopt.models.edgecloud import build_flow_lb

    return _bound(build_flow_lb(workload, zeta_one=True), solver=solver, time_limit=time_limit,
                  threads=threads)


def jct_unpinned(workload: Workload, *, solver: str = "highs", time_limit: float | None = 60.0,
                 threads: int | None = 1) -> dict:
    """Return the certified lower bound from the JCT MILP without chunk pinning."""
    from mlopt.models.edgecloud import build_jct_milp

    return _bound(build_jct_milp(workload, pin_chunks=False), solver=solver,
                  time_limit=time_limit, threads=threads)


BOUNDS = {"flow_lb": flow_lb, "flow_lb_zeta1": flow_lb_zeta1, "jct_unpinned": jct_unpinned}
