"""Theory checks of seed 003 on every A_online run (harness diagnostics).

* alpha used and Theorem 5's alpha (log base 2), and 4 alpha (Lemma 1 / Theorem 5);
* the measured ratio's upper end ALG / (lower end of OPT) against 4 alpha for both alphas;
* assumption A1 (1 <= w_j / sum f/C <= F) and A2 (f_jh^r / C_h^r <= 1 / log lambda) over every
  admitted placement: counted where violated (the paper assumes, never enforces them);
"""
from __future__ import annotations

import math

import numpy as np

from mlopt.families.hetero.checker import check_hetero
from mlopt.families.hetero.data import hetero_data
from mlopt.families.hetero.online import a_online


def theory_checks(workload, run, *, objective: float, opt_lower: float | None) -> dict:
    data = hetero_data(workload)
    inv = np.where(data.cap > 0, 1.0 / np.where(data.cap > 0, data.cap, 1), 0.0)
    a1_low = a1_high = a2 = 0
    lim = 1.0 / math.log2(run.lam)
    for pl, _start in run.placements.values():
        vol = 0.0
        for h, vec in pl.usage(data).items():
            frac = vec * inv[h]
            vol += pl.d * float(frac.sum())
            a2 += int((frac > lim + 1e-12).any())
        ratio = data.weight[pl.job] / vol if vol > 0 else math.inf
        a1_low += int(ratio < 1)
        a1_high += int(ratio > run.F)
    ratio_hi = objective / opt_lower if opt_lower else None
    out = {
        "alpha": run.alpha, "alpha_theorem5": run.alpha_theorem5, "lambda": run.lam, "F": run.F,
        "competitive_bound": 4 * run.alpha, "competitive_bound_theorem5": 4 * run.alpha_theorem5,
        "ratio_upper": ratio_hi,
        "within_bound": None if ratio_hi is None else bool(ratio_hi <= 4 * run.alpha),
        "within_bound_theorem5": None if ratio_hi is None else bool(
            ratio_hi <= 4 * run.alpha_theorem5),
        "a1_below_1": a1_low, "a1_above_F": a1_high, "a2_violations": a2,
        "placements": len(run.placements), "rounds": len(run.rounds),
    }
    ends = [start + pl.d for pl, start in run.placements.values()]
    out["max_completion"] = max(ends) if ends else None
    return out


def diagnostics(workload, schedule, *, options, opt_upper):
    """Harness hook for ``a_online``: re-run (deterministic), check it reproduces the checked
    schedule, then :func:`theory_checks` (``opt_upper`` is the OPT side the harness passes: for
    this minimization family the lower end of OPT)."""
    opts = {k: v for k, v in options.items() if k in ("alpha", "F", "compact", "order")}
    run = a_online(workload, **opts)
    from mlopt.families.hetero.online import placements_to_schedule
    again = placements_to_schedule(workload, run.placements.values())
    if not again.allocations.equals(schedule.allocations):
        raise AssertionError("re-run of A_online did not reproduce the checked schedule")
    return theory_checks(workload, run, objective=check_hetero(workload, schedule).objective,
                         opt_lower=opt_upper)
