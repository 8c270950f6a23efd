"""Theory checks of seed 003 on every A_online run (harness diagnostics).

* alpha used and Theorem 5's alpha (log base 2), and 4 alpha (Lemma 1 / Theorem 5);
* the measured ratio's upper end ALG / (lower end of OPT) against 4 alpha for both alphas;
* assumption A1 (1 <= w_j / sum f/C <= F) and A2 (f_jh^r / C_h^r <= 1 / log lambda) over every
  admitted placement: counted where violated (the paper assumes, never enforces them);
* Theorem 3 on every A_maxweight call: the dual (9) at the call's final prices with u_j from
  (10) (:func:`~mlopt.families.hetero.maxweight.dual_value`) is an upper bound on the optimum of
  the round's max-weight ILP (8), so dual / (weight A_maxweight admitted) is an upper bound on
  the call's real approximation ratio; it is compared with 2 log lambda.  Every call above it is
  a violation (also reported as ``lemma_violations`` / ``lemma_checked``, the harness report's
  per-step column).  Theorem 3's proof needs A1 and A2 on the placements the call admits (they
  are what raise the prices), so violations are split: ``maxweight_violations_assumptions_held``
  counts calls above the bound although every placement they admitted satisfies A1 and A2 --
  those contradict the theorem (a bug), the others are explained by broken assumptions.
  DECISION: a call that admits nothing has ratio 1 when its dual is 0 too (no job fits the
  window: nothing was achievable) and infinity otherwise.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from mlopt.families.hetero.checker import check_hetero
from mlopt.families.hetero.fields import hetero_data
from mlopt.families.hetero.maxweight import dual_value, theorem3_ratio
from mlopt.families.hetero.mincost import Searcher
from mlopt.families.hetero.online import a_online, placements_to_schedule

if TYPE_CHECKING:  # pragma: no cover
    from mlopt.families.hetero.online import OnlineRun

# relative slack on the Theorem 3 comparison (the dual is a sum of float prices)
RATIO_TOL = 1e-9


def assumption_flags(data, pl, lam: float, F: float) -> tuple[bool, bool, bool]:
    """(A1 low side violated, A1 high side violated, A2 violated) for one placement."""
    inv = np.where(data.cap > 0, 1.0 / np.where(data.cap > 0, data.cap, 1), 0.0)
    lim = 1.0 / math.log2(lam)
    vol, a2 = 0.0, False
    for h, vec in pl.usage(data).items():
        frac = vec * inv[h]
        vol += pl.d * float(frac.sum())
        a2 = a2 or bool((frac > lim + 1e-12).any())
    ratio = data.weight[pl.job] / vol if vol > 0 else math.inf
    return ratio < 1, ratio > F, a2


def maxweight_call(data, searcher: Searcher, round_: int, sub_round: int, res) -> dict:
    """One A_maxweight call, measured while its window holds the final prices: achieved weight,
    dual (9)/(10) bound and their ratio (``admitted_placements``: for :func:`with_assumptions`)."""
    dual = dual_value(data, res, searcher)
    weight = res.weight
    if weight > 0:
        ratio = dual / weight
    else:
        ratio = 1.0 if dual <= 0 else math.inf
    return {"round": round_, "sub_round": sub_round, "jobs": len(res.considered),
            "admitted": len(res.admitted), "weight": weight, "dual": dual,
            "ratio_upper": ratio, "admitted_placements": list(res.admitted)}


def with_assumptions(data, call: dict, lam: float, F: float) -> dict:
    """The call's record with ``assumptions_held``: A1 and A2 on every placement it admitted."""
    out = {k: v for k, v in call.items() if k != "admitted_placements"}
    out["assumptions_held"] = not any(any(assumption_flags(data, pl, lam, F))
                                      for pl in call["admitted_placements"])
    return out


def maxweight_checks(calls: list[dict], lam: float) -> dict:
    """Theorem 3 over the calls of one run: the largest measured ratio upper bound against
    2 log lambda, violations counted (all, and those where A1/A2 held)."""
    bound = theorem3_ratio(lam)
    bad = [c for c in calls if c["ratio_upper"] > bound * (1 + RATIO_TOL)]
    ratios = [c["ratio_upper"] for c in calls]
    return {"maxweight_calls": len(calls), "maxweight_bound": bound,
            "maxweight_ratio_max": max(ratios) if ratios else None,
            "maxweight_violations": len(bad),
            "maxweight_violations_assumptions_held": sum(c["assumptions_held"] for c in bad),
            "maxweight_calls_assumptions_held": sum(c["assumptions_held"] for c in calls),
            "maxweight_worst": max(calls, key=lambda c: c["ratio_upper"]) if calls else None,
            "lemma_checked": len(calls), "lemma_violations": len(bad)}


def theory_checks(workload, run, *, objective: float, opt_lower: float | None,
                  maxweight_calls: list[dict] | None = None) -> dict:
    """Return the competitive-bound and assumption checks of an A_online run as a dict."""
    data = hetero_data(workload)
    a1_low = a1_high = a2 = 0
    for pl, _start in run.placements.values():
        low, high, bad2 = assumption_flags(data, pl, run.lam, run.F)
        a1_low, a1_high, a2 = a1_low + low, a1_high + high, a2 + bad2
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
    if maxweight_calls is not None:
        out.update(maxweight_checks(maxweight_calls, run.lam))
    return out


def observed_run(workload, **options) -> tuple[OnlineRun, list[dict]]:
    """A_online with every A_maxweight call measured -> (run, call records)."""
    data = hetero_data(workload)
    searcher = Searcher(data)
    calls: list[dict] = []
    run = a_online(workload, **options, observe=lambda i, iota, res: calls.append(
        maxweight_call(data, searcher, i, iota, res)))
    return run, [with_assumptions(data, c, run.lam, run.F) for c in calls]


def diagnostics(workload, schedule, *, options, opt_upper) -> dict:
    """Harness hook for ``a_online`` / ``a_online_ra``: re-run (deterministic) observing every
    A_maxweight call (Theorem 3), check it reproduces the checked schedule, then
    :func:`theory_checks` (``opt_upper`` is the OPT side the harness passes: for this
    minimization family the lower end of OPT)."""
    from mlopt.families.hetero.online import OPTIONS

    opts = {k: v for k, v in options.items() if k in OPTIONS}
    run, calls = observed_run(workload, **opts)
    again = placements_to_schedule(workload, run.placements.values())
    if not again.allocations.equals(schedule.allocations):
        raise AssertionError("re-run of A_online did not reproduce the checked schedule")
    return theory_checks(workload, run, objective=check_hetero(workload, schedule).objective,
                         opt_lower=opt_upper, maxweight_calls=calls)
