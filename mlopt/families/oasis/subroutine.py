"""OASiS subroutine, Alg. 2 of seed 000 (Sec. IV-C): the best schedule of one job under prices.

Problem (27): choose an end slot t_hat and integer worker / PS counts y_h(t), z_k(t) for
t in [a_i, t_hat] to maximize f_i(t_hat - a_i) - sum_t (sum_h pi_h(t) y_h(t) + sum_k sigma_k(t)
z_k(t)), with per-worker price pi_h(t) = sum_r p_h^r(t) w_i^r, per-PS price sigma_k(t) =
sum_r q_k^r(t) s_i^r, residual capacities (30)/(31), (3) at most N_i workers, (6) PS bandwidth,
(7) no more PSs than workers, and enough work (2)/(29).

Like the paper's DP (Sec. IV-C: "we may safely assume a worker trains an integer number of data
chunks in each time slot"), this solver counts work in chunks: slot t trains an integer d_t >= 0
chunks with sum_h y_h(t) >= d_t chunk_slots_i, and sum_t d_t >= D_i = E_i N_i.  It is therefore
exact for (27) *plus* per-slot chunk integrality (``models/oasis/subproblem.py``, variant (b));
(27) proper counts worker-slots and can only be better (DESIGN.md, OASiS notes).  The same DP
with the worker-slot as unit of work (``unit="worker_slot"``) is exact for (27) proper, variant
(a); Alg. 1 uses the paper's chunk version unless asked otherwise.

How this differs from a literal transliteration (:mod:`.oasis_reference`), same optimum:

* One forward pass serves every end time.  C_t[d] = least cost of slots a_i..t that trains at
  least d chunks (d capped at D_i); C_t[D_i] is cost(t_hat = t, E_i N_i) of Alg. 2 for every t
  at once, and the recursion C_t[d] = min_k C_{t-1}[d - chunks(k)] + cost_t(k) is Alg. 2's
  DP_COST with "exactly d" replaced by "at least d" (never worse, same optimum).
* Per slot, only worker counts matter, not chunk counts: k workers train chunks(k) =
  floor(k / chunk_slots) chunks (ceil(d chunk_slots) workers train d, line 24), and only the
  counts k where chunks(k) jumps are worth trying; at most N_i + 1 options per slot.
* cost_t(k) is COST_t's greedy (lines 21-41) for all k at once: per-worker prices sorted once per
  slot, each server repeated as often as its residual capacity allows (30), prefix sums give the
  k cheapest workers; the PS side uses m(k) = ceil(k b_i / B_i) PSs the same way (31).  Why the
  greedy is optimal within a slot: given the worker count k, any placement costs at least the k
  cheapest available worker units, and the cheapest units are what the greedy takes; the PS
  count needed by (6) is m(k) whatever the placement, (7) only caps it (m(k) <= k iff b <= B),
  and m is non-decreasing in k, so more workers never reduce the PS need; and for d chunks the
  fewest workers ceil(d chunk_slots) are best because prices >= 0 make costs non-decreasing
  in k.
* Exact pruning of end times: once max_{t' > t} f_i(t' - a_i) minus a lower bound on the cost of
  finishing after t cannot beat the best payoff found, later end times are skipped; states that
  cannot reach D_i by the last useful end time are dropped (a window [lo, hi] per slot).
* Vectorized with numpy: a narrow window is one gather of (options x window) candidates and a
  min; a wide one is a loop over options with in-place add/minimum (about 2x faster there).

Ties and tolerance: a later end time replaces the incumbent only when its payoff is larger by
more than ``PAYOFF_RTOL * max(1, max_t f_i(t - a_i))`` (ties -> earliest end, as Alg. 2's
strict ``>``), and a job is scheduled only if its payoff beats 0 by that much (Alg. 2 line 1);
backtracking prefers an idle slot, then the fewest workers.  The payoff reported is recomputed
from the returned allocation.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Callable

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from mlopt.errors import InputError
from mlopt.workload import Workload
from mlopt.families.oasis.prices import EPS

PAYOFF_RTOL = 1e-9


# ---- inputs and output -----------------------------------------------------------------------
@dataclass(frozen=True)
class SubJob:
    """Job i as problem (27) sees it (OASiS notation)."""

    arrival: int  # a_i, slot in 1..T
    chunks_total: int  # D_i = E_i N_i chunks
    max_workers: int  # N_i, (3)
    chunk_slots: float  # M_i (tau_i + 2 e_i / b_i) in slots: worker-slots per chunk
    worker_demand: np.ndarray  # (R,) w_i^r
    ps_demand: np.ndarray  # (R,) s_i^r
    worker_bw: float  # b_i
    ps_bw: float  # B_i
    utility: Callable  # f_i(duration), vectorized

    @classmethod
    def from_workload(cls, workload: Workload, i: int) -> "SubJob":
        """Build the subroutine's view of job i of the workload."""
        job, a = workload.jobs[i], workload.arrays
        return cls(int(a.arrival[i]), int(a.epochs[i] * a.chunks[i]), int(a.chunks[i]),
                   float(a.chunk_slots[i]), a.worker_demand[i].copy(), a.ps_demand[i].copy(),
                   float(a.worker_bw[i]), float(a.ps_bw[i]), job.utility)

    @property
    def work(self) -> float:
        """W_i = D_i chunk_slots_i worker-slots, the right-hand side of (2)/(29)."""
        return self.chunks_total * self.chunk_slots


@dataclass(frozen=True)
class Market:
    """Prices and residual capacities seen by one job; row t-1 is slot t (1..T)."""

    worker_price: np.ndarray  # (T, H, R) p_h^r(t)
    ps_price: np.ndarray  # (T, K, R) q_k^r(t)
    worker_free: np.ndarray  # (T, H, R) c_h^r - g_h^r(t)
    ps_free: np.ndarray  # (T, K, R) c_k^r - v_k^r(t)

    @property
    def horizon(self) -> int:
        """Number of slots T of the price arrays."""
        return self.worker_price.shape[0]

    def __post_init__(self):
        if self.worker_price.ndim != 3 or self.ps_price.ndim != 3 or \
                self.worker_price.shape != self.worker_free.shape or \
                self.ps_price.shape != self.ps_free.shape or \
                self.worker_price.shape[0] != self.ps_price.shape[0]:
            raise InputError("prices and residual capacities must be (T, servers, R) arrays of "
                             "matching shapes", field="market")


def _check_market_rows(market: Market, rows: slice) -> None:
    """Prices and residual capacities must be finite and >= 0 (checked on the rows used)."""
    for name in ("worker_price", "ps_price", "worker_free", "ps_free"):
        arr = getattr(market, name)[rows]
        if not np.isfinite(arr).all() or (arr < -EPS).any():
            raise InputError("must be finite and >= 0", field=f"market.{name}")


@dataclass
class JobSchedule:
    """The best schedule l* of (27) and its payoff mu_i (0 and an empty schedule if none > 0)."""

    payoff: float  # mu_i = f_i(end - a_i) - cost, > 0 iff admit
    end_slot: int | None  # t_hat_i
    utility: float  # f_i(end - a_i)
    cost: float  # recomputed from workers / ps and the prices
    workers: np.ndarray  # (T, H) int, y_h(t)
    ps: np.ndarray  # (T, K) int, z_k(t)
    chunks: np.ndarray  # (T,) int, d_t chunks trained per slot

    @property
    def admit(self) -> bool:
        """Whether the job is admitted (has an end slot)."""
        return self.end_slot is not None


def empty_schedule(market: Market) -> JobSchedule:
    """Return a rejecting JobSchedule with all-zero allocations."""
    T, H, K = market.horizon, market.worker_price.shape[1], market.ps_price.shape[1]
    return JobSchedule(0.0, None, 0.0, 0.0, np.zeros((T, H), dtype=np.int64),
                       np.zeros((T, K), dtype=np.int64), np.zeros(T, dtype=np.int64))


def schedule_cost(job: SubJob, market: Market, workers: np.ndarray, ps: np.ndarray) -> float:
    """Objective (28) of an allocation: sum of p_h^r(t) w^r y_h(t) + q_k^r(t) s^r z_k(t)."""
    tw, tp = np.flatnonzero(workers.any(axis=1)), np.flatnonzero(ps.any(axis=1))
    return float(np.einsum("thr,r,th->", market.worker_price[tw], job.worker_demand, workers[tw])
                 + np.einsum("tkr,r,tk->", market.ps_price[tp], job.ps_demand, ps[tp]))


# ---- small exact helpers -----------------------------------------------------------------------
def unit_capacity(free: np.ndarray, demand: np.ndarray, cap: int) -> np.ndarray:
    """min_r floor(free^r / demand^r) over r with demand^r > 0, clipped to [0, cap] ((30)/(31))."""
    used = demand > 0
    q = free[..., used] / demand[used]
    return np.clip(np.floor(q.min(axis=-1) + EPS), 0, cap).astype(np.int64)


def chunks_for_workers(k: np.ndarray, chunk_slots: float) -> np.ndarray:
    """floor(k / chunk_slots): chunks that k worker-slots train (d chunks need d chunk_slots)."""
    return np.floor(np.asarray(k) / chunk_slots + EPS).astype(np.int64)


def ps_for_workers(k: np.ndarray, worker_bw: float, ps_bw: float) -> np.ndarray:
    """m(k) = ceil(k b / B): fewest PSs meeting (6)."""
    return np.maximum(0, np.ceil(np.asarray(k) * (worker_bw / ps_bw) - EPS)).astype(np.int64)


def _prefix_costs(price: np.ndarray, units: np.ndarray, cap: int
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Per slot (row): cost of the k cheapest units, k = 0..cap (inf beyond capacity).

    Servers are sorted by price (ties by index) and server s offers ``units[s]`` units; returns
    (costs (n, cap + 1), order (n, S)).  Vectorized over rows with one searchsorted.
    """
    n, S = price.shape
    order = np.argsort(price, axis=1, kind="stable")
    p_sorted = np.take_along_axis(price, order, axis=1)
    cum = np.minimum(np.cumsum(np.take_along_axis(units, order, axis=1), axis=1), cap)
    # row-offset trick: rows are non-decreasing and bounded by cap, so shifting row t by
    # t * (cap + 1) makes the whole array sorted; the k-th unit of row t sits on the first
    # server whose cumulative count reaches k.
    off = (np.arange(n) * (cap + 1))[:, None]
    keys = (off + np.arange(1, cap + 1)[None, :]).ravel()
    pos = np.searchsorted((cum + off).ravel(), keys, side="left").reshape(n, cap)
    pos -= (np.arange(n) * S)[:, None]
    p_ext = np.concatenate([p_sorted, np.full((n, 1), np.inf)], axis=1)
    unit_price = np.take_along_axis(p_ext, np.minimum(pos, S), axis=1)
    costs = np.zeros((n, cap + 1))
    np.cumsum(unit_price, axis=1, out=costs[:, 1:])
    return costs, order


def _fill(order: np.ndarray, units: np.ndarray, count: int) -> np.ndarray:
    """Greedy placement of ``count`` units on servers in ``order`` (COST_t lines 25-28, 33-35)."""
    out = np.zeros(len(units), dtype=np.int64)
    left = int(count)
    for s in order:
        if left <= 0:
            break
        take = min(int(units[s]), left)
        out[s] = take
        left -= take
    if left > 0:  # pragma: no cover - the DP only picks counts within capacity
        raise AssertionError("placement exceeds capacity")
    return out


WIDE = 1024  # window width from which a loop over options beats one big gather (measured)


def _relax(prev: np.ndarray, start: int, width: int, chunks: np.ndarray, costs: np.ndarray
           ) -> np.ndarray:
    """new[d] = min(prev[d], min_j prev[d - chunks_j] + costs_j) for d in a window of ``prev``.

    Narrow windows: one (options x width) gather and a min (few numpy calls).  Wide windows: a
    loop over options with in-place add/minimum (two passes per option, cache-friendly).
    """
    if len(chunks) == 0:
        return prev[start: start + width].copy()
    if width < WIDE:
        src = start - np.concatenate([[0], chunks])
        windows = sliding_window_view(prev, width)[src]  # (J + 1, width) copy
        windows += np.concatenate([[0.0], costs])[:, None]
        return windows.min(axis=0)
    vals = prev[start: start + width].copy()
    tmp = np.empty(width)
    for c, k in zip((start - chunks).tolist(), costs.tolist()):
        np.add(prev[c: c + width], k, out=tmp)
        np.minimum(vals, tmp, out=vals)
    return vals


# ---- the subroutine --------------------------------------------------------------------------
WORK_UNITS = ("chunk", "worker_slot")


def best_schedule(job: SubJob, market: Market, *, unit: str = "chunk") -> JobSchedule:
    """Alg. 2 (fast): optimal schedule and payoff of (27) with per-slot chunk integrality.

    ``unit="worker_slot"`` runs the same DP with worker-slots as the unit of work (state =
    workers so far, capped at ceil(W_i)): that is exactly (27) proper, since integer counts
    meet sum_t sum_h y_h(t) >= W_i iff they reach ceil(W_i).  It upper-bounds the chunk DP, and
    is what a dual-feasible mu_i of (20) needs.  ``chunks`` is then all zeros.
    f_i must be non-increasing (Sec. III-C), so "done by t" and "completes at t" coincide.
    """
    if unit not in WORK_UNITS:
        raise InputError(f"unknown work unit (known: {', '.join(WORK_UNITS)})", field="unit",
                         value=unit)
    if unit == "worker_slot":
        units_total = max(0, math.ceil(job.work - EPS))
        out = best_schedule(replace(job, chunks_total=units_total, chunk_slots=1.0), market)
        out.chunks[:] = 0
        return out
    T = market.horizon
    a, D, N, cs = job.arrival, job.chunks_total, job.max_workers, job.chunk_slots
    if not 1 <= a <= T:
        raise InputError(f"arrival must be in 1..{T}", field="job.arrival", value=a)
    result = empty_schedule(market)

    # Only end slots whose utility exceeds the tolerance can give a positive payoff (costs are
    # >= 0): look at slots a .. a + n - 1 only.
    f_all = np.asarray(job.utility(np.arange(T - a + 1, dtype=float)), dtype=float)
    f_all = f_all.reshape(T - a + 1)
    f_after = np.maximum.accumulate(f_all[::-1])[::-1]  # max_{t' >= t} f(t' - a)
    tol = PAYOFF_RTOL * max(1.0, float(f_all.max()))
    useful = np.flatnonzero(f_after > tol)
    if len(useful) == 0:
        return result
    n = int(useful[-1]) + 1
    f_vals, f_after = f_all[:n], f_after[:n]
    span = slice(a - 1, a - 1 + n)
    _check_market_rows(market, span)

    # --- per-slot option costs: K[t, k] = cost of k workers and m(k) PSs in slot a + t --------
    w_price = market.worker_price[span] @ job.worker_demand  # (n, H) pi_h(t)
    p_price = market.ps_price[span] @ job.ps_demand  # (n, K) sigma_k(t)
    w_units = unit_capacity(market.worker_free[span], job.worker_demand, N)
    p_units = unit_capacity(market.ps_free[span], job.ps_demand, N)
    w_cost, w_order = _prefix_costs(w_price, w_units, N)
    p_cost, p_order = _prefix_costs(p_price, p_units, N)
    ks = np.arange(N + 1)
    m = ps_for_workers(ks, job.worker_bw, job.ps_bw)
    m_ok = m <= ks  # (7); fails for every k >= 1 iff b > B
    cost_k = w_cost + p_cost[:, np.minimum(m, N)]
    cost_k[:, ~m_ok] = np.inf

    # options: worker counts where the chunk count jumps, chunks capped at D (first reaching D)
    chunks_k = np.minimum(chunks_for_workers(ks, cs), D)
    jump = np.flatnonzero(np.diff(chunks_k) > 0) + 1
    if len(jump) == 0:
        return result  # not even N workers train one chunk in a slot
    opt_k, opt_c = jump, chunks_k[jump]
    opt_cost = cost_k[:, opt_k]  # (n, J), non-decreasing along J, inf where infeasible
    n_opt = np.isfinite(opt_cost).sum(axis=1)  # feasible options are a prefix
    cmax = np.where(n_opt > 0, opt_c[np.maximum(n_opt - 1, 0)], 0)  # most chunks per slot

    # --- bounds for exact pruning -------------------------------------------------------------
    # least cost per chunk of any option in each slot, and at or after it: any plan that trains
    # x more chunks in those slots costs at least x times that (a valid, integrality-aware bound)
    with np.errstate(invalid="ignore"):
        per_chunk = np.where(np.isfinite(opt_cost), opt_cost / opt_c, np.inf).min(axis=1)
    per_chunk_after = np.append(np.minimum.accumulate(per_chunk[::-1])[::-1], np.inf)

    def rest_lb(t: int, d_left: np.ndarray) -> np.ndarray:
        """Lower bound on the cost of training ``d_left`` more chunks in slots after t."""
        unit = per_chunk_after[t + 1]
        with np.errstate(invalid="ignore"):
            return np.where(d_left > 0, d_left * unit, 0.0)

    best, best_t = 0.0, -1  # Alg. 2 line 1: mu = 0, l* = empty

    def last_useful(best_val: float) -> int:
        """Last end slot index whose payoff could beat ``best_val`` (-1: none)."""
        lb0 = float(rest_lb(-1, np.array([D]))[0])
        ok = np.flatnonzero(f_after - lb0 > best_val + tol)
        return int(ok[-1]) if len(ok) else -1

    t_max = last_useful(best)
    if t_max < 0:
        return result
    cmax_suffix = np.concatenate([np.cumsum(cmax[::-1])[::-1], [0]])  # sum_{s >= t} cmax_s
    if cmax_suffix[0] - cmax_suffix[t_max + 1] < D:
        # D is out of reach by t_max even at the most chunks every slot: no end slot completes
        # (the DP below would find none either), and its rows would need memory of order D
        return result

    # --- forward DP over slots, C_t[d] on a window [lo, hi] ------------------------------------
    # Two buffers C[pad + d] alternate as previous / current row; entries below the pad stand
    # for d < 0 ("at least d" is free: 0), entries outside the window are inf.
    pad = int(opt_c[-1])
    inf = np.inf
    bufs = [np.full(pad + D + 1, inf), np.full(pad + D + 1, inf)]
    for buf in bufs:
        buf[:pad] = 0.0
    bufs[0][pad] = 0.0  # C_{a-1}[0] = 0, C_{a-1}[d > 0] = inf
    written = [(0, 0), (0, -1)]  # window [lo, hi] last written into each buffer
    rows: list[tuple[int, np.ndarray]] = []
    hi_prev = 0
    for t in range(n):
        if t > t_max:
            break
        J = int(n_opt[t])
        hi = min(D, hi_prev + int(cmax[t]))
        lo = max(0, D - int(cmax_suffix[t + 1] - cmax_suffix[t_max + 1]))
        if lo > hi:  # D unreachable by t_max from anywhere
            break
        width = hi - lo + 1
        prev, cur = bufs[t % 2], bufs[(t + 1) % 2]
        vals = _relax(prev, pad + lo, width, opt_c[:J], opt_cost[t, :J])
        old_lo, old_hi = written[(t + 1) % 2]
        cur[pad + old_lo: pad + old_hi + 1] = inf  # clear the row written two slots ago
        cur[pad + lo: pad + hi + 1] = vals
        written[(t + 1) % 2] = (lo, hi)
        rows.append((lo, vals))
        hi_prev = hi

        if hi == D and np.isfinite(vals[-1]):
            payoff = f_vals[t] - vals[-1]
            if payoff > best + tol:
                best, best_t = payoff, t
                t_max = min(t_max, last_useful(best))
        # prune: can any later end time still beat the incumbent?
        if t + 1 >= n:
            break
        d = np.arange(lo, hi + 1)
        fin = np.isfinite(vals)
        lb_future = float(np.min(vals[fin] + rest_lb(t, D - d[fin]))) if fin.any() else inf
        if f_after[t + 1] - lb_future <= best + tol:
            break

    if best_t < 0:
        return result

    # --- backtrack from (best_t, D): idle first, then the fewest workers ----------------------
    k_of = np.zeros(n, dtype=np.int64)
    d_of = np.zeros(n, dtype=np.int64)
    need = D
    for t in range(best_t, -1, -1):
        if need <= 0:
            break
        lo_t, vals_t = rows[t]
        target = vals_t[need - lo_t]
        J = int(n_opt[t])
        chosen = None
        for j in range(-1, J):
            c = 0 if j < 0 else int(opt_c[j])
            kc = 0.0 if j < 0 else float(opt_cost[t, j])
            src = need - c
            if src <= 0:
                pv = 0.0 if (t == 0 or rows[t - 1][0] == 0) else inf
            elif t == 0:
                pv = inf
            else:
                lo_p, vals_p = rows[t - 1]
                pv = vals_p[src - lo_p] if lo_p <= src < lo_p + len(vals_p) else inf
            if pv + kc == target:
                chosen = j
                break
        if chosen is None:  # pragma: no cover - float equality holds by construction
            raise AssertionError("DP backtracking failed")
        if chosen >= 0:
            k_of[t] = opt_k[chosen]
            d_of[t] = min(int(opt_c[chosen]), need)
            need -= int(opt_c[chosen])

    workers, ps, chunks = result.workers, result.ps, result.chunks
    for t in np.flatnonzero(k_of):
        slot = a - 1 + t
        workers[slot] = _fill(w_order[t], w_units[t], int(k_of[t]))
        ps[slot] = _fill(p_order[t], p_units[t], int(m[k_of[t]]))
        chunks[slot] = d_of[t]
    end = a + int(np.flatnonzero(k_of)[-1])
    cost = schedule_cost(job, market, workers, ps)
    util = float(f_vals[end - a])
    return JobSchedule(util - cost, end, util, cost, workers, ps, chunks)
