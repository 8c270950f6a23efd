"""Per-run checks of the OASiS theory (seed 000, Sec. IV-D, Theorem 4 and Appendix E).

:func:`theory_checks` takes a workload and an :class:`~mlopt.families.oasis.online.OasisRun` and
reports, with the numbers:

* ``alpha`` of Theorem 4, alpha = max_r (1, ln U_1^r / L_1, ln U_2^r / L_2), from the
  PriceParams the run actually used (oracle or estimated), and the per-resource terms;
* the measured ratio OPT / ALG against 2 alpha.  ALG is the checker's objective of the run's
  schedule.  OPT is known only through ``opt_lower`` <= OPT <= ``opt_upper`` (e.g. a proven
  optimum for both, or a feasible schedule and a :mod:`mlopt.families.oasis.bounds` upper bound), so the ratio
  is an interval [max(1, opt_lower / ALG), opt_upper / ALG] and the verdict is True (the upper
  end is within 2 alpha), False (even the lower end exceeds it) or None (undecided);
* Lemma 1's precondition D_0 <= OPT / 2, with D_0 = sum_t (sum_{h,r} L_1 c_h^r +
  sum_{k,r} L_2 c_k^r) (Appendix E, (33)): True / False / None the same way;
* Lemma 2 along the run: P_i - P_{i-1} >= (D_i - D_{i-1}) / alpha for every job i, where, as in
  the proof, P_i is the primal objective (14) after job i (the utilities of the jobs admitted so
  far) and D_i the dual objective (19) as Alg. 1 leaves it after job i:
  D_i = sum_{j <= i} mu_j + sum_{t,h,r} p_h^{r,i}(t) c_h^r + sum_{t,k,r} q_k^{r,i}(t) c_k^r,
  mu_j being the payoff job j saw on arrival (0 if rejected) and p^i, q^i the prices (22) after
  job i.  So for an admitted job  Delta P = f_i(t_il - a_i)  and
  Delta D = mu_i + sum c (p^i - p^{i-1}) + sum c (q^i - q^{i-1}); for a rejected one both are 0.
  Violations are REPORTED (job, Delta P, Delta D, Delta D / alpha, mu_i, and the
  allocation-cost deficit behind it), never hidden;
* the allocation-cost relationship (Definition 1), p^{i-1} (g^i - g^{i-1}) >= c / alpha
  (p^i - p^{i-1}) per job, slot, server and resource, whose sum is what Lemma 2 needs.  The
  proof only derives it from its differential version "since w_i^r << c_h^r"; with the
  exponential prices (22), a step x = Delta g / c and alpha_r = ln(U^r / L) it reads
  alpha x >= (U/L)^x - 1 = e^(alpha_r x) - 1, which FAILS for every x > 0 on a resource whose
  alpha_r equals alpha (e^y - 1 > y): the discrete relation never holds exactly there, and
  Lemma 2 then rests on the slack mu_i (1 - 1/alpha);
* the proof's final dual D_I = D_0 + sum_i (D_i - D_{i-1}) and its weak-duality claim
  D_I >= OPT.  D_I keeps each mu_j at its arrival value, so it is not in general a feasible
  dual point (prices rose afterwards, but the mu_j were not recomputed, cf.
  :mod:`.bounds.dual_certificate`); the claim is checked against the OPT interval like the others.

The prices after each job are recomputed by replaying the run's schedule through the run's own
price functions (22) (the run exposes only its final prices); ``replay`` reports the largest
relative difference between the replayed and the run's final prices, which must be ~0.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from mlopt.families.oasis.online import OasisRun
from mlopt.families.oasis.checker import check_oasis
from mlopt.workload import Workload

RTOL = 1e-9  # relative slack of every inequality checked here (float sums)


def _verdict(holds_for_sure: bool, fails_for_sure: bool) -> bool | None:
    return True if holds_for_sure else (False if fails_for_sure else None)


def _num(x: float | None) -> float | None:
    """JSON-friendly number: non-finite values (an unknown +inf bound) become None."""
    if x is None:
        return None
    x = float(x)
    return x if math.isfinite(x) else None


def _allocations(workload: Workload, run: OasisRun) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Per admitted job: (T, H) worker and (T, K) PS counts from the run's schedule table."""
    a = workload.arrays
    T = workload.horizon
    h_of = {workload.servers[s].id: n for n, s in enumerate(a.worker_servers)}
    k_of = {workload.servers[s].id: n for n, s in enumerate(a.ps_servers)}
    out = {}
    for jid, rows in run.schedule.allocations.groupby("job", sort=False):
        w = np.zeros((T, len(h_of)), dtype=np.int64)
        p = np.zeros((T, len(k_of)), dtype=np.int64)
        for r in rows.itertuples(index=False):
            if r.role == "worker":
                w[int(r.slot) - 1, h_of[r.server]] += int(r.count)
            else:
                p[int(r.slot) - 1, k_of[r.server]] += int(r.count)
        out[str(jid)] = (w, p)
    return out


def theory_checks(workload: Workload, run: OasisRun, opt_upper: float | None = None, *,
                  opt_lower: float | None = None, rtol: float = RTOL) -> dict[str, Any]:
    """Theorem 4 / Lemma 1 / Lemma 2 checks of one OASiS run (see the module docstring).

    ``opt_upper``: an upper bound on OPT (a proven optimum, LP(14), a dual certificate...);
    ``opt_lower``: a lower bound (a proven optimum or any checked feasible objective);
    ALG itself is always used as a lower bound too.  Returns a JSON-friendly dict.
    """
    params = run.params
    alpha = params.alpha
    a = workload.arrays
    T = workload.horizon
    check = check_oasis(workload, run.schedule)
    alg = check.objective
    util_of = dict(zip(check.per_job["job"], check.per_job["utility"]))
    lower = max(alg, opt_lower if opt_lower is not None else -math.inf)
    upper = math.inf if opt_upper is None else float(opt_upper)

    # ---- replay Alg. 1's price updates (lines 7-10) ------------------------------------------
    cap_w, cap_p = a.cap_worker, a.cap_ps
    H, K, R = len(cap_w), len(cap_p), len(workload.resources)
    g = np.zeros((T, H, R))
    v = np.zeros((T, K, R))
    p = np.broadcast_to(params.worker_price(np.zeros((1, H, R)), cap_w), (T, H, R)).copy()
    q = np.broadcast_to(params.ps_price(np.zeros((1, K, R)), cap_p), (T, K, R)).copy()
    d0 = float(np.einsum("thr,hr->", p, cap_w) + np.einsum("tkr,kr->", q, cap_p))
    alloc = _allocations(workload, run)
    index = workload.job_index

    per_job, violations = [], []
    ac_checked = ac_violated = 0
    ac_worst: dict[str, Any] | None = None
    d_total = p_total = 0.0
    tight_resid = 0.0
    for dec in run.decisions:
        i = index[dec.job]
        if not dec.admitted:
            per_job.append({"job": dec.job, "admitted": False, "delta_P": 0.0, "delta_D": 0.0})
            continue
        w_cnt, p_cnt = alloc.get(dec.job, (np.zeros((T, H), np.int64), np.zeros((T, K), np.int64)))
        tw = np.flatnonzero(w_cnt.any(axis=1))
        tp = np.flatnonzero(p_cnt.any(axis=1))
        dg = w_cnt[tw][:, :, None] * a.worker_demand[i]  # (|tw|, H, R)
        dv = p_cnt[tp][:, :, None] * a.ps_demand[i]
        p_old, q_old = p[tw].copy(), q[tp].copy()
        g[tw] += dg
        v[tp] += dv
        p[tw] = params.worker_price(g[tw], cap_w)
        q[tp] = params.ps_price(v[tp], cap_p)
        dp, dq = p[tw] - p_old, q[tp] - q_old
        mu = float(dec.payoff)
        cost = float(np.sum(p_old * dg) + np.sum(q_old * dv))  # priced at arrival
        price_rise = float(np.einsum("thr,hr->", dp, cap_w) + np.einsum("tkr,kr->", dq, cap_p))
        dP = float(util_of[dec.job])
        dD = mu + price_rise
        # Definition 1, entry by entry where the job allocates something
        lhs = np.concatenate([(p_old * dg).ravel(), (q_old * dv).ravel()])
        rhs = np.concatenate([(np.broadcast_to(cap_w, dp.shape) * dp).ravel(),
                              (np.broadcast_to(cap_p, dq.shape) * dq).ravel()]) / alpha
        used = np.concatenate([dg.ravel(), dv.ravel()]) > 0
        bad = used & (lhs < rhs - rtol * np.maximum(np.abs(lhs), np.abs(rhs)))
        ac_checked += int(used.sum())
        ac_violated += int(bad.sum())
        deficit = float(np.sum(np.maximum(rhs - lhs, 0.0)[used]))
        if bad.any():
            k = int(np.argmax(np.where(bad, rhs - lhs, -np.inf)))
            worst = _locate(workload, k, tw, tp, dg, dv, cap_w, cap_p, lhs[k], rhs[k],
                            dec.job)
            if ac_worst is None or worst["deficit"] > ac_worst["deficit"]:
                ac_worst = worst
        slack = dP - dD / alpha
        row = {"job": dec.job, "admitted": True, "delta_P": dP, "delta_D": dD,
               "delta_D_over_alpha": dD / alpha, "mu": mu, "cost_at_arrival": cost,
               "price_term_rise": price_rise, "slack": slack,
               "allocation_cost_deficit": deficit}
        per_job.append(row)
        tight_resid = max(tight_resid, abs(dP - (mu + cost)) / max(1.0, abs(dP)))
        if slack < -rtol * max(1.0, abs(dP), abs(dD / alpha)):
            violations.append(row)
        d_total += dD
        p_total += dP
    d_final = d0 + d_total
    replay_diff = max(_rel_diff(p, run.worker_price), _rel_diff(q, run.ps_price))

    ratio_lo = (max(1.0, lower / alg) if alg > 0 else (math.inf if lower > 0 else 1.0))
    ratio_hi = (upper / alg if alg > 0 else (math.inf if upper > 0 else 1.0))
    return {
        "alpha": _num(alpha),
        "alpha_terms": {
            "worker": {r: _num(x) for r, x in zip(workload.resources, params.log_ratio1)},
            "ps": {r: _num(x) for r, x in zip(workload.resources, params.log_ratio2)}},
        "price_params": params.to_dict(),
        "alg_objective": alg, "alg_feasible": check.feasible,
        "opt_interval": [_num(lower), _num(upper)],
        "theorem4": {"two_alpha": _num(2 * alpha), "ratio_interval": [_num(ratio_lo), _num(ratio_hi)],
                     "within_2alpha": _verdict(ratio_hi <= 2 * alpha * (1 + rtol),
                                               ratio_lo > 2 * alpha * (1 + rtol))},
        "lemma1": {"D0": d0, "D0_le_half_opt": _verdict(d0 <= lower / 2 * (1 + rtol),
                                                        d0 > upper / 2 * (1 + rtol))},
        "lemma2": {"holds": not violations, "jobs_checked": len(run.decisions),
                   "admitted": sum(r["admitted"] for r in per_job),
                   "violations": violations,
                   "min_slack": min((r["slack"] for r in per_job if r["admitted"]),
                                    default=None),
                   "per_job": per_job},
        "allocation_cost": {"entries_checked": ac_checked, "entries_violated": ac_violated,
                            "worst": ac_worst},
        "proof_dual": {"P_final": p_total, "D_final": d_final,
                       "P_ge_(D_final-D0)/alpha": p_total >= (d_final - d0) / alpha
                       - rtol * max(1.0, abs(p_total)),
                       "D_final_ge_opt": _verdict(d_final >= upper * (1 - rtol),
                                                  d_final < lower * (1 - rtol))},
        "replay": {"max_rel_price_diff": replay_diff,
                   "primal_equals_checker": abs(p_total - alg) <= 1e-9 * max(1.0, alg),
                   "max_rel_residual_f_eq_mu_plus_cost": tight_resid},
    }


def _rel_diff(x: np.ndarray, y: np.ndarray) -> float:
    if x.size == 0:
        return 0.0
    return float(np.max(np.abs(x - y) / np.maximum(1e-300, np.maximum(np.abs(x), np.abs(y)))))


def _locate(workload, k, tw, tp, dg, dv, cap_w, cap_p, lhs, rhs, job) -> dict:
    """Name the (slot, server, resource) of entry k of the worker entries followed by the PS
    entries (the flattened ``dg`` then ``dv``, as concatenated in :func:`theory_checks`)."""
    a = workload.arrays
    if k < dg.size:
        t, h, r = np.unravel_index(k, dg.shape)
        sid, slot, dx, c = (workload.servers[a.worker_servers[h]].id, int(tw[t]) + 1,
                            float(dg[t, h, r]), float(cap_w[h, r]))
    else:
        t, s, r = np.unravel_index(k - dg.size, dv.shape)
        sid, slot, dx, c = (workload.servers[a.ps_servers[s]].id, int(tp[t]) + 1,
                            float(dv[t, s, r]), float(cap_p[s, r]))
    return {"job": job, "slot": slot, "server": sid, "resource": workload.resources[r],
            "delta_alloc": dx, "capacity": c, "fraction": dx / c if c else None,
            "p_old_times_delta": float(lhs), "c_over_alpha_times_delta_p": float(rhs),
            "deficit": float(rhs - lhs)}


def diagnostics(workload, schedule, *, options, opt_upper) -> dict[str, Any]:
    """Theorem 4 / Lemma 1 / Lemma 2 checks of an OASiS run (:mod:`mlopt.families.oasis.theory`),
    summarized for the results table (the per-job detail stays out of the store)."""
    from mlopt.families.oasis.online import oasis_online
    
    opts = {k: v for k, v in options.items() if k in ("price_mode", "estimate_factor",
                                                      "work_unit", "price_scale")}
    run = oasis_online(workload, **opts)  # deterministic: re-run for the prices along the way
    if not run.schedule.allocations.equals(schedule.allocations):
        raise AssertionError("re-run of OASiS did not reproduce the checked schedule")
    t = theory_checks(workload, run, opt_upper=opt_upper)
    lemma2 = t["lemma2"]
    return {
        "alpha": t["alpha"], "competitive_bound": t["theorem4"]["two_alpha"],
        "ratio_interval": t["theorem4"]["ratio_interval"],
        "within_bound": t["theorem4"]["within_2alpha"],
        "lemma_checked": lemma2["jobs_checked"], "lemma_violations": len(lemma2["violations"]),
        "lemma_min_slack": lemma2["min_slack"],
        "lemma_violating_jobs": [{k: v[k] for k in ("job", "delta_P", "delta_D_over_alpha")}
                                 for v in lemma2["violations"][:5]],
        "d0_le_half_opt": t["lemma1"]["D0_le_half_opt"],
        "allocation_cost_violated": t["allocation_cost"]["entries_violated"],
        "replay_ok": t["replay"]["primal_equals_checker"],
    }
