"""Diagnostics of a PD-ORS run (seed 004), reported per run by the harness; nothing here is a
certificate.

Seed 004 states no competitive theorem (its only claim is "an instance-dependent constant ratio
approximation scheme" for the per-slot problem (23)), so none is claimed:

* ``dual_objective`` D = sum_i lambda_i + sum_{t,h,r} p_h^r[t] C_h^r with lambda_i the payoffs
  Alg. 1 saw and p the final prices: the objective (10) of D-R-DMLRS at the run's dual point.
  It is an upper bound on OPT only if every lambda_i were recomputed exactly at the final prices
  (as OASiS's dual certificate does); PD-ORS's oracle is a grid DP with randomized rounding, so
  D is compared with the OPT bound (``dual_ge_opt_upper``) but never used as a bound;
* ``alpha_oasis_style`` = max_r(1, ln U^r / L): the constant of OASiS's 2 alpha, whose proof
  needs an exact oracle; reported for reference only (``within_2alpha`` only says where the
  measured ratio falls);
* rounding statistics of the run (:class:`.oracle.OracleStats`).
"""
from __future__ import annotations

import numpy as np

from mlopt.families.pdors.fields import pdors_arrays
from mlopt.families.pdors.online import pdors_online

RUN_OPTIONS = ("grid", "oracle", "internal", "delta", "retries", "gdelta", "lp", "price_mode",
               "estimate_factor", "price_scale")


def pdors_diagnostics(workload, schedule, *, options, opt_upper) -> dict:
    """Re-run PD-ORS and return its dual objective, oracle stats and bound checks."""
    opts = {k: v for k, v in options.items() if k in RUN_OPTIONS}
    run = pdors_online(workload, seed=int(schedule.meta.get("seed", 0)), **opts)
    if not run.schedule.allocations.equals(schedule.allocations):
        raise AssertionError("re-run of PD-ORS did not reproduce the checked schedule")
    arr = pdors_arrays(workload)
    dual = float(sum(d.payoff for d in run.decisions) + np.sum(run.price * arr.cap[None]))
    primal = float(sum(d.utility for d in run.decisions))
    alpha = run.prices.alpha
    out = {"dual_objective": dual, "planned_utility": primal, "alpha_oasis_style": alpha,
           "theorem": "none stated in seed 004; no ratio claimed",
           "internal_slots": int(sum(d.internal_slots for d in run.decisions)),
           **{f"oracle_{k}": v for k, v in run.stats.to_dict().items()}}
    if opt_upper is not None:
        out["opt_upper"] = float(opt_upper)
        out["dual_ge_opt_upper"] = bool(dual >= opt_upper - 1e-9)
        if primal > 0:
            out["within_2alpha"] = bool(opt_upper / primal <= 2 * alpha + 1e-9)
    return out


def job_sum_bound(workload, **_) -> dict:
    """A certified upper bound on OPT: sum over jobs of u_i(ceil(n_i^int (1 - 1e-9) / F_i) - 1),
    each job's utility at its shortest possible duration (no slot does more than F_i / n_i^int
    of the job, since at most F_i workers run at the faster, internal speed, and the checker
    accepts 1 - 1e-9 of the job: :func:`.fields.fastest_slots`), 0 for a job that cannot finish
    by T.  Valid because u_i is non-increasing; cheap, and loose under contention."""
    from mlopt.families.pdors.fields import fastest_slots, validate_pdors
    from mlopt.families.pdors.prices import schedulable

    validate_pdors(workload)  # its assumptions: b_int >= b_ext (n_int is the fastest speed)
    arr = pdors_arrays(workload)
    ok = schedulable(workload, arr)
    best = fastest_slots(arr, workload.horizon) - 1
    total = float(sum(workload.jobs[i].utility(best[i]) for i in np.flatnonzero(ok)))
    return {"bound": total, "status": "optimal", "jobs_counted": int(ok.sum())}
