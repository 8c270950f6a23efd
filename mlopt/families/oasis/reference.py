"""Alg. 2 of seed 000 (OASiS, Sec. IV-C), transliterated line by line in plain Python.

For cross-checking :mod:`.oasis_subroutine` and as the baseline of
``benchmarks/oasis/decision_time.py``: recursive DP_COST with a memo over (t, d), COST_t with a
fresh sort of the servers on every call, no numpy in the loops.  Same inputs and output type as
the fast version.  Line numbers refer to Alg. 2 in the paper.

Only two things are added to the pseudo-code, both because the paper leaves them implicit:
the base case of DP_COST (before the arrival slot, workload 0 costs 0 and anything else is
infeasible), and a slack ``EPS`` in ceilings/floors of float ratios (0.3 / 0.1 counts as 3), the
same slack the fast version uses.  The payoff returned is recomputed from the schedule found.
"""
from __future__ import annotations

import math
import sys

from mlopt.families.oasis.prices import EPS
from mlopt.families.oasis.subroutine import JobSchedule, Market, SubJob, empty_schedule, schedule_cost

INF = math.inf


def best_schedule_reference(job: SubJob, market: Market) -> JobSchedule:
    """Alg. 2 as printed: enumerate t_hat, DP_COST over workload, greedy COST_t."""
    T = market.horizon
    a, D, N, cs = job.arrival, job.chunks_total, job.max_workers, job.chunk_slots
    w, s = [float(x) for x in job.worker_demand], [float(x) for x in job.ps_demand]
    b, B = job.worker_bw, job.ps_bw
    p, q = market.worker_price.tolist(), market.ps_price.tolist()
    g_free, v_free = market.worker_free.tolist(), market.ps_free.tolist()
    H, K, R = len(p[0]), len(q[0]), len(w)

    def units(free, dem):  # min_r floor((c^r - g^r) / w^r), resources with w^r > 0
        return min(math.floor(free[r] / dem[r] + EPS) for r in range(R) if dem[r] > 0)

    cost_t_memo: dict = {}

    def cost_t(t, d):  # lines 21-41
        if (t, d) in cost_t_memo:
            return cost_t_memo[t, d]
        y, z = [0] * H, [0] * K  # line 22
        wp = [sum(p[t - 1][h][r] * w[r] for r in range(R)) for h in range(H)]
        order = sorted(range(H), key=lambda h: (wp[h], h))  # line 23
        need = max(0, math.ceil((d - EPS) * cs))  # line 24: ceil(d M (tau + 2e/b))
        for h in order:  # lines 25-28
            y[h] = max(0, min(units(g_free[t - 1][h], w), N - sum(y), need))
            need -= y[h]
        if need > 0:  # lines 29-31
            out = (INF, y, z)
            cost_t_memo[t, d] = out
            return out
        sp = [sum(q[t - 1][k][r] * s[r] for r in range(R)) for k in range(K)]
        order = sorted(range(K), key=lambda k: (sp[k], k))  # line 32
        ny = sum(y)
        m = max(0, math.ceil(ny * b / B - EPS))
        for k in order:  # lines 33-35
            z[k] = max(0, min(units(v_free[t - 1][k], s), m - sum(z), ny - sum(z)))
        if sum(z) < b / B * ny - EPS:  # lines 36-38
            out = (INF, y, z)
        else:  # line 39
            out = (sum(wp[h] * y[h] for h in range(H)) + sum(sp[k] * z[k] for k in range(K)),
                   y, z)
        cost_t_memo[t, d] = out
        return out

    dp_memo: dict = {}

    def dp_cost(t_end, d_total):  # lines 10-20
        if t_end < a:  # base case: nothing before arrival
            return (0.0, []) if d_total == 0 else (INF, None)
        if (t_end, d_total) in dp_memo:
            return dp_memo[t_end, d_total]
        min_cost, sched = INF, None  # line 11
        for d in range(d_total + 1):  # line 12
            ct, y, z = cost_t(t_end, d)  # line 13
            if ct == INF:
                continue
            c, rest = dp_cost(t_end - 1, d_total - d)  # line 14
            if min_cost > ct + c:  # lines 15-17
                min_cost, sched = ct + c, rest + [(t_end, d, y, z)]
        dp_memo[t_end, d_total] = (min_cost, sched)
        return min_cost, sched

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, T + 200))
    try:
        mu, best = 0.0, None  # line 1
        for t_hat in range(a, T + 1):  # line 2
            cost, sched = dp_cost(t_hat, D)  # line 3
            mu_l = float(job.utility(t_hat - a)) - cost  # line 4
            if mu_l > mu:  # lines 5-7
                mu, best = mu_l, sched
    finally:
        sys.setrecursionlimit(limit)

    result = empty_schedule(market)
    if best is None:
        return result
    for t, d, y, z in best:
        result.workers[t - 1] = y
        result.ps[t - 1] = z
        result.chunks[t - 1] = d
    active = [t for t, d, y, z in best if sum(y) > 0]
    end = max(active)
    util = float(job.utility(end - a))
    cost = schedule_cost(job, market, result.workers, result.ps)
    return JobSchedule(util - cost, end, util, cost, result.workers, result.ps, result.chunks)
