"""``colgen_lb``: a certified lower bound on OPT of (2) / (15) from the LP relaxation of a
time-indexed formulation, solved by column generation, certified at every iteration by its
Lagrangian bound.

THE RELAXATION (each step only enlarges the feasible set, so its optimum is <= OPT):
1. the per-placement time-indexed model (:mod:`mlopt.models.hetero.placement_ti`) with its
   per-server capacity rows summed over the servers: one row per (resource r, slot tau) with
   C^r = sum_h C_h^r;
2. a column is then a configuration k = (m, p, q, N, d) of :func:`.configs.job_config_arrays`
   that fits the empty cluster (every placement's (m, p, q, d) has one with the same d and no
   more workers), using u_k^r = N e_m^r + s_k z_p^r per slot with s_k the fewest PSs any
   placement of k can have: 1 when co-located; with q = 0 at least one worker is off the PS
   server and at most g = min(N - 1, the most type-m workers one server holds) are on it, so
   (2i) needs s >= ceil(b_m (N - g) / B_p);
3. capacity rows only for slots 1..T (``slots``); a job may start at any slot t >= a_j, and
   the slots it runs after T are free;
4. x_jkt in [0, 1] (the LP relaxation), with sum_{k,t} x_jkt = 1 per job.
Columns dominated within a job (u <= and d <=) are dropped.

CLASS ROWS (``class_rows``, default on): servers with equal capacities form a class c; summing
the per-server rows over c's servers gives rows (c, r, tau) with capacity sum_{h in c} C_h^r.
A co-located (q = 1) placement sits on one server, so its column is split into one column type
per class whose servers hold it alone, loading that class's rows as well as the cluster's; a
split (q = 0) placement is left out of the class rows (dropping its nonnegative terms only
relaxes them).  These rows stop co-located jobs from sharing capacity that only other classes'
servers offer.  Dominance then compares use over all rows, so a split column never loses to a
co-located one and co-located columns only compete within a class.

TYPE ROWS (``type_rows``, default on): per worker type m and slot, the type-m workers running
number at most W_m = sum_h floor(min_r C_h^r / e_m^r) (each server holds at most that many
alone, whatever else it holds), a row (m, tau) with capacity W_m loaded by N_k for every
column of type m.  Valid for every schedule; it adds what the pooled rows lose to rounding
(a server's GPUs a type's CPU or memory demand leaves idle).

CERTIFICATE.  For any prices pi_{r,tau} >= 0, relaxing the capacity rows gives
  L(pi) = sum_j min_{k, t >= a_j} [w_j (t + d_k) + sum_r u_k^r sum_{tau=t}^{min(t+d_k,T+1)-1}
          pi_{r,tau}] - sum_{r,tau} pi_{r,tau} C^r  <=  OPT
(weak duality of the Lagrangian of the relaxed integer program; for t > T the bracket is
w_j (t + d_k), smallest at t = max(a_j, T + 1) with the fastest k).  With pi the master LP's
capacity duals this is the LP value plus the per-job minima of the reduced costs (the
convexity rows' duals cancel), so it is computed in every iteration by the same vectorized
scan that prices the columns, and the best value seen is returned.  It is exact arithmetic on
floats; the result is lowered by a relative 1e-9 so rounding cannot lift it above OPT.

USABLE ROWS (``usable_rows``, default on): the cluster's and the classes' capacities are the
servers' usable capacities K_h^r of :mod:`.usable` (the most of r an integer packing of
workers and PSs occupies on h alone; K_h^r <= C_h^r) instead of C_h^r.  Valid for every
schedule (each server holds such a packing in every slot).  Why: at ``paper-default`` the LP's
pooled rows counted resources no packing can use -- Ring-AllReduce: 29% of the CPUs, 43% of
the memory, 21% of the bandwidth (the 4-CPU servers hold no worker; memory outlasts GPUs).

CLIQUE ROWS (``cliques`` = Q, default 1): for every row group g above with capacity C_g > 0
and q = 1..Q, a row per slot "the columns whose use of g exceeds C_g / (q + 1) number at most
q" (q + 1 of them would use more than C_g).  A column's use is the least any placement of its
configuration has, so a real placement uses more still: valid for every schedule.  They cut
fractional points the capacity row admits -- two columns of 0.6 C each at x = 0.8 -- and are
left out for groups no column loads.  Measured (``benchmarks/hetero/frontier.md``): they lift
``hetero-small-1`` from 0.976 to 0.986 of OPT, levels above 1 added nothing on the committed
``small`` instances, and at ``paper-default`` no column is that large (no gain).

PRICED PACKING (``priced_packing``, default off): after column generation the Lagrangian
bound is evaluated once more at the LP's duals and at the best smoothed point, with each
slot's capacity term of the pooled and type rows, sum_r pi_r C^r + sum_m pi_m W_m, replaced by
sum_h max {alpha . n : n a packing of server h} where alpha_i = sum_r pi_r a_i^r (+ pi_m for a
type-m worker) prices one worker / PS of each kind (:func:`.usable.priced_capacity`): at
those prices no slot's contents are worth more, so the bound stays valid, and it is never
below the plain Lagrangian value at the same point (each slot keeps the smaller term).  At
the converged LP's duals it is thus at least the LP optimum: the LP prices resources
separately, a server's packing cannot fill all of them at once.  Off by default: at
``paper-default`` (RA) it added 0.004% for a knapsack per slot and server shape -- the
diagnosis that per-server packing is not where the relaxation loses (frontier.md).

DECISIONS (the paper has no bound): T defaults to max_j a_j + 2 ceil(max_r V^r / C^r) +
max_j dmin_j (V^r: the jobs' least resource-slot areas, the volume bound's numerators) -- room
for twice the work the cluster must absorb; a larger T can only tighten the relaxation and
costs rows.  Per pricing round each job adds its ``columns_per_job`` best columns with negative
reduced cost (distinct configurations).
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from mlopt.errors import InputError
from mlopt.families.hetero.configs import KeyTest, fits_alone, job_config_arrays
from mlopt.families.hetero.fields import HeteroData, hetero_data
from mlopt.families.hetero.placements import per_server_workers, server_classes
from mlopt.families.hetero.usable import items, priced_capacity, usable_capacity
from mlopt.workload import Workload

#: largest number of (resource, slot) rows of the master LP
MAX_ROWS = 200_000
#: a reduced cost below -RC_TOL * (objective scale) prices a column in
RC_TOL = 1e-9
SAFETY = 1e-9
#: least share of the time limit kept for the priced-packing evaluation
PACKING_SHARE = 0.15


def job_columns(data: HeteroData, fits: KeyTest, j: int, classes: np.ndarray | None = None,
                *, with_keys: bool = False, type_rows: bool = False) -> tuple[np.ndarray, ...]:
    """(d: K, u: K x G) of job j's non-dominated fitting configurations (module docstring 2);
    G = R (cluster rows), or R (1 + number of classes) with ``classes`` (class x R capacities
    of one server): a co-located configuration then becomes one column type per class whose
    servers hold it, using the class's rows as well (module docstring, CLASS ROWS).
    ``with_keys``: also the (m, p, q, n) row of each column's configuration (K x 4).
    ``type_rows``: M more use entries, N at the column's worker type (module docstring, TYPE
    ROWS)."""
    a = job_config_arrays(data, j)
    a = a[fits(a)]
    m, p, q, n, d = (a[:, i] for i in range(5))
    u = n[:, None] * data.e[m]
    if data.architecture == "ps":
        g = np.minimum(n - 1, np.array([per_server_workers(data, mm).max()
                                        for mm in range(len(data.e))])[m])
        s = np.where(q == 1, 1, data.fewest_ps((n - g) * data.b[m], p))
        u = u + s[:, None] * data.z[p]
    keys = a[:, :4]
    if classes is not None:
        R, nc = u.shape[1], len(classes)
        split = q == 0
        parts_u = [np.hstack([u[split], np.zeros((split.sum(), nc * R))])]
        parts_d, parts_k = [d[split]], [keys[split]]
        for c in range(nc):
            one = (q == 1) & (u <= classes[c] * (1 + 1e-9) + 1e-9).all(axis=1)
            extra = np.zeros((one.sum(), nc * R))
            extra[:, c * R:(c + 1) * R] = u[one]
            parts_u.append(np.hstack([u[one], extra]))
            parts_d.append(d[one])
            parts_k.append(keys[one])
        u, d, keys = np.vstack(parts_u), np.concatenate(parts_d), np.vstack(parts_k)
    if type_rows:
        count = np.zeros((len(d), len(data.e)))
        count[np.arange(len(d)), keys[:, 0]] = keys[:, 3]
        u = np.hstack([u, count])
    order = np.lexsort((u.sum(axis=1), d))
    d, u, keys = d[order], u[order], keys[order]
    # row b is dominated when an earlier row a (d_a <= d_b) uses no more of any resource;
    # blocks of rows keep the comparison matrix small
    keep = np.ones(len(d), dtype=bool)
    for lo in range(0, len(d), 512):
        blk = u[lo:lo + 512]
        le = (u[:, None, :] <= blk[None, :, :] + 1e-12).all(axis=2)  # le[a, b - lo]
        le &= np.arange(len(d))[:, None] < np.arange(lo, lo + len(blk))[None, :]
        keep[lo:lo + len(blk)] = ~le.any(axis=0)
    if with_keys:
        return d[keep].astype(np.int64), u[keep], keys[keep]
    return d[keep].astype(np.int64), u[keep]


def add_cliques(cols, C: np.ndarray, levels: int):
    """Clique rows (module docstring, CLIQUE ROWS) for q = 1 .. ``levels``: per row group g
    with capacity C_g > 0, a 0/1 group "uses more than C_g / (q + 1)" with capacity q; groups
    no column loads are left out.  Returns (cols with the new use entries, C extended)."""
    G = len(C)
    pos = np.flatnonzero(C > 0)
    thr = np.concatenate([C[pos] / (q + 1) * (1 + 1e-9) + 1e-9 for q in range(1, levels + 1)])
    cap = np.concatenate([np.full(len(pos), float(q)) for q in range(1, levels + 1)])
    src = np.tile(pos, levels)
    big = [u[:, src] > thr[None, :] for _, u in cols]
    used = np.zeros(len(thr), dtype=bool)
    for b in big:
        used |= b.any(axis=0)
    out = [(d, np.hstack([u, b[:, used].astype(float)])) for (d, u), b in zip(cols, big)]
    return out, np.concatenate([C[:G], cap[used]]), int(used.sum())


def default_slots(data: HeteroData, cols) -> int:
    """Return a slot horizon: last arrival + twice the volume span + the largest min duration."""
    cap = data.cap.sum(axis=0)
    R = len(cap)
    area = np.array([(d[:, None] * u[:, :R]).min(axis=0) for d, u in cols])  # J x R
    pos = cap > 0
    span = float((area[:, pos].sum(axis=0) / cap[pos]).max()) if pos.any() else 0.0
    dmin = max(int(d.min()) for d, _ in cols)
    return int(data.arrival.max()) + 2 * math.ceil(span) + dmin


def _check_int(name: str, value, lo: int, hi: int, *, none_ok: bool = False) -> None:
    if value is None and none_ok:
        return
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise InputError(f"must be an integer in [{lo}, {hi}]", field=name, value=value)


class _Pricer:
    """Per job, the cheapest (configuration, start) at prices pi (R x T), vectorized: per
    distinct duration d one window sum of the prefix-summed prices, then one matrix product
    with the use rows of the configurations of that duration."""

    def __init__(self, data: HeteroData, cols, T: int):
        self.data, self.cols, self.T = data, cols, T
        self.groups = []  # per job: [(d, first row, end row)] (cols are sorted by d)
        for d, _ in cols:
            cut = np.flatnonzero(np.diff(d)) + 1
            lo = np.concatenate([[0], cut])
            hi = np.concatenate([cut, [len(d)]])
            self.groups.append([(int(d[i]), int(i), int(k)) for i, k in zip(lo, hi)])

    def prefix(self, pi: np.ndarray) -> np.ndarray:
        P = np.zeros((pi.shape[0], self.T + 1))
        np.cumsum(pi, axis=1, out=P[:, 1:])
        return P

    def late(self, j: int):
        """(cost, k, t) of the best start after T (no prices there): the fastest k."""
        d = self.cols[j][0]
        t = max(int(self.data.arrival[j]), self.T + 1)
        kf = int(np.argmin(d))
        return float(self.data.weight[j]) * (t + int(d[kf])), kf, t

    def scan(self, P: np.ndarray, j: int, count: int = 1, upper: float = math.inf):
        """[(cost, k, t)] of the ``count`` cheapest starts t <= T with distinct k, at the prices
        whose prefix sums are P (:meth:`prefix`), among those costing less than ``upper``.
        EXACT pruning: prices are >= 0, so a column costs at least w_j (t + d_k); durations are
        scanned in increasing order, and starts / durations whose w_j (t + d) already reach the
        cheapest cost found (or ``upper``) are skipped."""
        d, u = self.cols[j]
        w, a, T = float(self.data.weight[j]), int(self.data.arrival[j]), self.T
        if a > T:
            return []
        found: list[tuple[float, int, int]] = []
        bar = upper
        for dd, lo, hi in self.groups[j]:
            last = min(T, math.ceil(bar / w) - dd) if math.isfinite(bar) else T
            if last < a:
                break  # every later group has a longer duration
            ts = np.arange(a, last + 1)
            window = P[:, np.minimum(ts + dd, T + 1) - 1] - P[:, ts - 1]  # R x nt
            cost = u[lo:hi] @ window + w * (ts + dd)[None, :]
            arg = cost.argmin(axis=1)
            best = cost[np.arange(hi - lo), arg]
            for k in np.argsort(best, kind="stable")[:count].tolist():
                found.append((float(best[k]), lo + k, int(ts[arg[k]])))
            found = sorted(found)[:count]
            bar = min(bar, found[0][0])
        return found

    def cost(self, P: np.ndarray, j: int, k: int, t: int) -> float:
        """Cost of one column (job j, configuration k, start t) at the prices of P."""
        d, u = self.cols[j]
        end = min(t + int(d[k]), self.T + 1) if t <= self.T else t
        price = float(u[k] @ (P[:, end - 1] - P[:, t - 1])) if t <= self.T else 0.0
        return float(self.data.weight[j]) * (t + int(d[k])) + price


def colgen_lb(workload: Workload, *, time_limit: float | None = 60.0, threads: int | None = 1,
              slots: int | None = None, max_iterations: int = 10_000,
              columns_per_job: int = 3, smoothing: float = 0.7, class_rows: bool = True,
              type_rows: bool = True, usable_rows: bool = True, cliques: int = 1,
              priced_packing: bool = False, primal: bool = True,
              primal_share: float = 0.3) -> dict:
    """The best Lagrangian bound of the column-generation LP within ``time_limit`` seconds.

    With ``primal`` (PRIMAL SIDE): column generation gets ``1 - primal_share`` of the time (all
    it needs if it converges sooner), then :func:`.price_and_branch.improve` builds schedules
    on its columns from Tiresias's (the best algorithm at ``paper-default``) and the best
    checked one is returned as ``schedule`` (``primal``: its objective), so ``mlopt bracket``
    takes it as an upper end (:func:`_primal_side`: its timing)."""
    t0 = time.perf_counter()
    limit = 60.0 if time_limit is None else float(time_limit)
    if not isinstance(primal, bool):
        raise InputError("must be true or false", field="primal", value=primal)
    if isinstance(primal_share, bool) or not isinstance(primal_share, (int, float)) or \
            not 0 < primal_share < 1:
        raise InputError("must be a number in (0, 1)", field="primal_share", value=primal_share)
    out, cols = run_colgen(workload, time_limit=limit * (1 - primal_share) if primal else limit,
                           threads=threads, slots=slots, max_iterations=max_iterations,
                           columns_per_job=columns_per_job, smoothing=smoothing,
                           class_rows=class_rows, type_rows=type_rows,
                           usable_rows=usable_rows, cliques=cliques,
                           priced_packing=priced_packing)
    if primal:
        out.update(_primal_side(workload, cols, out, t0, limit))
    return out


def _primal_side(workload: Workload, cols, info: dict, t0: float, limit: float) -> dict:
    """``schedule`` and ``primal`` of :func:`colgen_lb` (its docstring): the search plans to end
    at 75% of ``limit`` and the warm start, search and check are stopped at 95% whatever they
    do (a slow insertion or check on a loaded machine), so the bound is never lost to them."""
    from mlopt.alarm import alarm
    from mlopt.families import get_family
    from mlopt.families.hetero.price_and_branch import _warm_start, improve

    hard = t0 + 0.95 * limit - time.perf_counter()
    if hard <= 0:
        return {"primal": {"stopped": "no time left after column generation"}}
    try:
        with alarm(hard, lambda: TimeoutError("primal side stopped")):
            sched = improve(workload, _warm_start(workload, "tiresias"), cols,
                            deadline=t0 + 0.75 * limit, colgen=info)
            res = get_family("hetero").check(workload, sched)
    except TimeoutError:
        return {"primal": {"stopped": "at 95% of the time limit"}}
    return {"schedule": sched, "primal": {"objective": float(res.objective),
                                          "start": sched.meta["pnb"].get("start", "warm")}}


class _PricedPacking:
    """The capacity term of the Lagrangian bound with the pooled and type rows' prices
    evaluated by :func:`.usable.priced_capacity` (module docstring, PRICED PACKING)."""

    def __init__(self, data: HeteroData, C: np.ndarray, T: int, *, class_rows: bool,
                 type_rows: bool, nclass: int):
        self.data, self.C, self.T = data, C, T
        self.nres = len(data.resources)
        self.ncls = nclass * self.nres if class_rows else 0
        self.M = len(data.e) if type_rows else 0
        self.it = items(data)

    def term(self, pi: np.ndarray, *, deadline: float) -> float:
        """sum_{rows, tau} pi C, with each slot's pooled + type part replaced by the priced
        packing bound where that is smaller."""
        nres, ncls, M = self.nres, self.ncls, self.M
        pool, cls, typ = pi[:nres], pi[nres:nres + ncls], pi[nres + ncls:nres + ncls + M]
        alpha = pool.T @ self.it.T  # T x items: sum_r pi_r a_i^r
        if M:
            alpha[:, :M] += typ.T  # a type row counts that type's workers
        old = pool.T @ self.C[:nres] + (typ.T @ self.C[nres + ncls:nres + ncls + M] if M else 0.0)
        new = priced_capacity(self.data, alpha, deadline=deadline, fallback=old)
        rest = pi[nres + ncls + M:]  # the clique groups keep their plain term
        return float(new.sum() + (cls * self.C[nres:nres + ncls, None]).sum()
                     + (rest * self.C[nres + ncls + M:, None]).sum())


@dataclass(frozen=True)
class Columns:
    """The columns a column-generation run priced in, for a primal heuristic
    (:mod:`.price_and_branch`): per column its job, configuration key (m, p, q, n), duration,
    start, and its value in the last master LP solved (0 where none was)."""
    job: np.ndarray
    key: np.ndarray  # n x 4
    d: np.ndarray
    start: np.ndarray
    x: np.ndarray


def run_colgen(workload: Workload, *, time_limit: float | None = 60.0, threads: int | None = 1,
               slots: int | None = None, max_iterations: int = 10_000,
               columns_per_job: int = 3, smoothing: float = 0.7, class_rows: bool = True,
               type_rows: bool = True, usable_rows: bool = True, cliques: int = 1,
               priced_packing: bool = False) -> tuple[dict, Columns]:
    """:func:`colgen_lb`'s result and the columns it generated (:class:`Columns`)."""
    import highspy

    from mlopt.solvers.quiet_highs import quiet_highs, run_highs

    t0 = time.perf_counter()
    limit = 60.0 if time_limit is None else float(time_limit)
    data = hetero_data(workload)
    J, R = len(data.job_ids), len(data.resources)
    _check_int("slots", slots, 1, MAX_ROWS // R, none_ok=True)
    _check_int("max_iterations", max_iterations, 0, 10 ** 9)
    _check_int("columns_per_job", columns_per_job, 1, 1000)
    if isinstance(smoothing, bool) or not isinstance(smoothing, (int, float)) or \
            not 0 <= smoothing < 1:
        raise InputError("must be a number in [0, 1)", field="smoothing", value=smoothing)
    if not isinstance(class_rows, bool):
        raise InputError("must be true or false", field="class_rows", value=class_rows)
    if not isinstance(type_rows, bool):
        raise InputError("must be true or false", field="type_rows", value=type_rows)
    if not isinstance(usable_rows, bool):
        raise InputError("must be true or false", field="usable_rows", value=usable_rows)
    _check_int("cliques", cliques, 0, 20)
    if not isinstance(priced_packing, bool):
        raise InputError("must be true or false", field="priced_packing", value=priced_packing)
    fits = KeyTest(data, lambda c: fits_alone(data, c))
    groups = server_classes(data)
    shapes = np.array([data.limit[g[0]] for g in groups]) if class_rows else None
    triples = [job_columns(data, fits, j, shapes, with_keys=True, type_rows=type_rows)
               for j in range(J)]
    cols = [(d, u) for d, u, _ in triples]
    T = default_slots(data, cols) if slots is None else slots
    cap = usable_capacity(data) if usable_rows else data.limit  # the checker's accepted load
    C = cap.sum(axis=0)
    if class_rows:  # per class: its servers' summed capacity
        C = np.concatenate([C, *(cap[g].sum(axis=0) for g in groups)])
    if type_rows:  # per worker type: the most workers of it the servers hold, each alone
        C = np.concatenate([C, [float(per_server_workers(data, m).sum())
                                for m in range(len(data.e))]])
    if cliques:
        cols, C, _ = add_cliques(cols, C, cliques)
    R = len(C)  # row groups: resources of the cluster, of each class, worker counts per type,
    # then the clique groups
    if R * T > MAX_ROWS:
        raise InputError(f"{R * T:,} capacity rows (> {MAX_ROWS:,}, mlopt.families.hetero."
                         "colgen.MAX_ROWS): pass a smaller slots", field="slots", value=T)
    pricer = _Pricer(data, cols, T)
    # the priced-packing evaluation (PRICED PACKING) gets what convergence leaves, at least
    # PACKING_SHARE of the budget
    loop_limit = limit * (1 - PACKING_SHARE) if priced_packing else limit
    scale = max(1.0, float(np.sum(data.weight * (data.arrival + 1))))

    highs = quiet_highs()
    highs.setOptionValue("threads", 1)
    inf = highspy.kHighsInf
    nrow = R * T + J
    lower = np.concatenate([np.full(R * T, -inf), np.ones(J)])
    upper = np.concatenate([np.repeat(C, T), np.ones(J)])
    highs.addRows(nrow, lower, upper, 0, np.zeros(nrow, dtype=np.int32),
                  np.zeros(0, dtype=np.int32), np.zeros(0))
    seen: set[tuple[int, int, int]] = set()
    added: list[tuple[int, int, int]] = []  # master LP column order

    def add(columns):
        costs, starts, idx, val = [], [], [], []
        for j, k, t in columns:
            if (j, k, t) in seen:
                continue
            seen.add((j, k, t))
            added.append((j, k, t))
            d, u = cols[j]
            costs.append(float(data.weight[j]) * (t + int(d[k])))
            starts.append(len(idx))
            for r in np.flatnonzero(u[k] > 0).tolist():
                for tau in range(t, min(t + int(d[k]), T + 1)):
                    idx.append(r * T + tau - 1)
                    val.append(float(u[k, r]))
            idx.append(R * T + j)
            val.append(1.0)
        if costs:
            highs.addCols(len(costs), np.array(costs), np.zeros(len(costs)),
                          np.ones(len(costs)), len(idx), np.array(starts, dtype=np.int32),
                          np.array(idx, dtype=np.int32), np.array(val))
        return len(costs)

    # Wentges smoothing: price at alpha * (best prices so far) + (1 - alpha) * (LP duals);
    # every priced point's Lagrangian value is a certified bound.  A column enters when its
    # reduced cost at the LP duals is negative; a round that finds none at the smoothed point
    # (a mispricing) prices at the LP duals themselves, and none there means the LP is optimal
    # (its value is then the Lagrangian value at its duals, recorded in that round).
    best, lp, it, converged, status = -math.inf, math.nan, 0, False, "not run"
    lp_pi, mu = np.zeros((R, T)), np.zeros(J)
    center = np.zeros((R, T))
    alpha = 0.0  # no center before the first LP
    while True:
        new = []
        for a_ in (alpha, 0.0) if alpha > 0 else (0.0,):
            pi = a_ * center + (1 - a_) * lp_pi
            P, Plp = pricer.prefix(pi), pricer.prefix(lp_pi)
            mins = 0.0
            for j in range(J):
                late = pricer.late(j)
                cands = pricer.scan(P, j, columns_per_job, upper=late[0])
                mins += min([late[0], *(c for c, _, _ in cands)])
                for _, k, t in [*cands, late]:
                    if (j, k, t) not in seen and (
                            it == 0 or pricer.cost(Plp, j, k, t) - mu[j] < -RC_TOL * scale):
                        new.append((j, k, t))
            value = mins - float((pi * C[:, None]).sum())
            if value > best:
                best, center = value, pi
            if new:
                break
        if it and not new:
            converged = True
            break
        if it >= max_iterations or time.perf_counter() - t0 > loop_limit:
            break
        add(new)
        run_highs(highs)
        if highs.getModelStatus() != highspy.HighsModelStatus.kOptimal:
            highs.clearSolver()  # a warm re-solve can stall on numerics: once more from scratch
            run_highs(highs)
        status = highs.modelStatusToString(highs.getModelStatus())
        if highs.getModelStatus() != highspy.HighsModelStatus.kOptimal:
            break  # no duals to price at; the best bound so far stands
        dual = np.asarray(highs.getSolution().row_dual)
        lp = highs.getInfo().objective_function_value
        lp_pi = np.maximum(0.0, -dual[:R * T]).reshape(R, T)
        mu = dual[R * T:]
        alpha = smoothing
        it += 1
    packed = math.nan
    if priced_packing and math.isfinite(best):
        pk = _PricedPacking(data, C, T, class_rows=class_rows, type_rows=type_rows,
                            nclass=len(groups))
        for pi in (lp_pi, center):  # the LP's duals (converged: its optimum) and the best point
            P = pricer.prefix(pi)
            mins = sum(min([pricer.late(j)[0], *(c for c, _, _ in pricer.scan(P, j, 1))])
                       for j in range(J))
            value = mins - pk.term(pi, deadline=t0 + limit)
            packed = value if not math.isfinite(packed) else max(packed, value)
        best = max(best, packed)
    bound = best - SAFETY * abs(best)
    x = np.zeros(len(added))
    if status == "Optimal":
        x = np.asarray(highs.getSolution().col_value)[:len(added)]
    got = Columns(np.array([j for j, _, _ in added], dtype=np.int64),
                  np.array([triples[j][2][k] for j, k, _ in added], dtype=np.int64
                           ).reshape(-1, 4),
                  np.array([int(cols[j][0][k]) for j, k, _ in added], dtype=np.int64),
                  np.array([t for _, _, t in added], dtype=np.int64), x)
    return {"bound": float(bound), "lp": float(lp), "iterations": it, "converged": converged,
            "lp_status": status,
            "priced_packing": None if math.isnan(packed) else float(packed),
            "columns": len(seen), "slots": T, "seconds": round(time.perf_counter() - t0, 3)
            }, got
