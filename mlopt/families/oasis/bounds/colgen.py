"""Column generation on the LP relaxation of the OASiS master (14) (seed 000, Sec. IV-A).

Loop (Dantzig-Wolfe / Gilmore-Gomory style):

1. solve the restricted master LP (14)-(17) with x >= 0 over the columns found so far;
2. read its duals: p_h^r(t) >= 0 of (15), q_k^r(t) >= 0 of (16), mu_i >= 0 of (17) (rows that
   no column touches yet have dual 0: a perfectly good price);
3. price every job: the best schedule under prices (p, q) with EMPTY-server caps is problem
   (27), solved exactly by ``best_schedule(unit="worker_slot")``; its reduced cost is
   f_il - cost_l(p, q) - mu_i.  The same pricing gives the dual certificate (Lagrangian bound)
   D(p, q) = sum_i max(0, payoff_i) + sum p c + sum q c >= LP(14) >= OPT
   (:func:`.dual_certificate.price_certificate`), valid for ANY p, q >= 0 whatever the LP
   solver's accuracy, so the smallest one seen is kept and reported;
4. add the columns with positive reduced cost and repeat, until none prices out at the LP
   duals (the LP value then is LP(14), and the certificate meets it up to tolerances), or a
   time / iteration limit (the best certificate is reported, honestly labelled).

Then a feasible schedule: the last LP solution rounded greedily, and the restricted master
solved as an ILP (18); both are re-scored by the independent checker, and the best feasible
objective is the largest of those and the OASiS run's (checked) objective.

Decisions:

* The master LP lives in one in-memory ``highspy.Highs`` object grown with ``addCol`` /
  ``addRows`` (:class:`MasterLP`), so every round warm-starts from the previous basis
  (rebuilding a Pyomo model per round would dominate the run time at 100 jobs); capacity rows
  are generated lazily (see :class:`MasterLP`).  The tests check its LP and ILP values
  against the declarative Pyomo master ``models/oasis/master.py`` on the same columns.  Duals:
  HiGHS reports row duals of a maximization >= 0 on binding <= rows; they are clipped at 0
  anyway (any p, q >= 0 give a valid certificate).
* x_il <= 1 is not stated: (17) implies it.
* Initial columns: the OASiS run's schedules (so the restricted ILP is at least as good as
  OASiS) and one "greedy" schedule per job: its best schedule on the empty cluster under the
  flat empty-cluster prices P(0) = L_1, Q(0) = L_2 of (22), i.e. its cheapest fast schedule.
* Stabilization: several pricing points per round, see :func:`colgen_bound`.
* ``rc_tol`` is relative: a column enters when its reduced cost > rc_tol * max(1, max_i f_i).
  A column whose schedule is already in the master is not added twice; if every positive
  reduced cost is such a duplicate (LP dual inaccuracy), the loop stops as "stalled".
* The ILP with ``ilp_columns="near_zero_rc"`` uses only the columns whose reduced cost at the
  last LP duals is within ``ilp_rc_keep`` * max(1, f_il) of 0, the columns the LP uses and
  the OASiS columns (a price-and-branch heuristic: on the 100-job benchmark the ILP over all
  ~4000 columns found nothing better than its warm start in 60 s, the one over the ~1000
  near-zero columns was solved to optimality in 7 s, +35%); ``"all"`` uses every column;
  ``"auto"`` (default) every column up to ``AUTO_ALL_COLUMNS``, else the near-zero ones.
  Either way it is a *restricted* ILP: its optimum is a feasible schedule, not a bound.
* ``time_limit`` bounds the column generation loop (checked between rounds; the LP is given
  the remaining time); the ILP has its own ``ilp_time_limit``.
"""
from __future__ import annotations

import math
import time
from typing import Any

import highspy

from mlopt.solvers.quiet_highs import binary_program, quiet_highs, run_highs, \
    run_mip_consistent
import numpy as np

from mlopt.families.oasis.online import OasisRun, oasis_online
from mlopt.families.oasis.subroutine import SubJob, best_schedule, schedule_cost
from mlopt.families.oasis.checker import check_oasis
from mlopt.errors import InputError
from mlopt.models.oasis.master import (
    Column,
    build_master,
    column_coefficients,
    column_violations,
    columns_from_schedule,
    extract_master_schedule,
    schedule_from_columns,
)
from mlopt.solve import solve
from mlopt.workload import Workload
from mlopt.families.oasis.bounds.dual_certificate import (
    empty_market,
    payoff_tolerance,
    price_certificate,
    schedulable_jobs,
)
from mlopt.families.oasis.bounds.result import BoundResult
from mlopt.families.oasis.primal.price_and_branch import master_primal

INF = highspy.kHighsInf
ILP_BACKENDS = ("highs", "pyomo")
ILP_COLUMNS = ("auto", "near_zero_rc", "all")
LP_POINT_MODES = ("when_needed", "always", "add", "add_missing")
AUTO_ALL_COLUMNS = 1000  # "auto": the ILP takes every column up to this many


class MasterLP:
    """The restricted master (14)-(17) over the columns found so far, grown in one HiGHS object.

    Capacity rows are generated lazily (``lazy_rows=True``): a (15)/(16) row (kind, t, server,
    r) enters the HiGHS model only once an LP solution violates it.  Every column's
    coefficients in every potential row are kept (numpy arrays), so after each solve the
    activity of all left-out rows is recomputed exactly and violated ones are added (with all
    their coefficients) before re-solving; :meth:`solve` returns only a solution feasible for
    every row (within ``FEAS_RTOL``), i.e. the optimum of the full restricted master LP, whose
    duals are those of the active rows and 0 for the slack left-out ones (complementary
    slackness holds).  Why: at 100 jobs the full master has ~26k capacity rows and 1.5M
    nonzeros of which ~1k rows are ever tight; each LP took 10-35 s with all rows.
    """

    FEAS_RTOL = 1e-7  # HiGHS's default primal feasibility tolerance, relative to max(1, c)

    def __init__(self, workload: Workload, threads: int = 1, lazy_rows: bool = True):
        self.workload = workload
        a = workload.arrays
        self.T, self.R = workload.horizon, len(workload.resources)
        self.H, self.K = len(a.cap_worker), len(a.cap_ps)
        self.n_jobs = len(workload.jobs)
        self.lazy_rows = lazy_rows
        self.threads = int(threads)
        h = quiet_highs()
        h.setOptionValue("threads", self.threads)
        h.changeObjectiveSense(highspy.ObjSense.kMaximize)
        # (17): one row per job, sum_l x_il <= 1; rows 0..I-1
        n = self.n_jobs
        h.addRows(n, np.full(n, -INF), np.ones(n), 0, np.zeros(n, dtype=np.int32),
                  np.zeros(0, dtype=np.int32), np.zeros(0))
        self.h = h
        self.n_rows = n  # rows in the HiGHS model
        # potential capacity rows: key ("w"|"p", t, server, r) -> pid; per pid: cap, HiGHS row
        self.pid: dict[tuple[str, int, int, int], int] = {}
        self.pid_key: list[tuple[str, int, int, int]] = []
        self.pid_cap: list[float] = []
        self.pid_row: list[int] = []  # -1 while left out
        self._chunks: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []  # (pid, col, coef)
        self._entries: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self.columns: list[Column] = []
        self.col_entries: list[tuple[np.ndarray, np.ndarray]] = []  # per column: (pids, coefs)
        self.keys: set[tuple] = set()
        self.lazy_passes = 0

    @property
    def rows(self) -> int:
        """Capacity rows currently in the HiGHS model."""
        return self.n_rows - self.n_jobs

    def add(self, col: Column) -> bool:
        """Add a column (validated); False if the same schedule is already there."""
        if col.key in self.keys:
            return False
        bad = column_violations(self.workload, col)
        if bad:
            raise AssertionError(f"column of job {self.workload.jobs[col.job].id!r} is not in "
                                 f"L_i: {bad[0]}")
        a = self.workload.arrays
        cw, cp = column_coefficients(self.workload, col)
        c = len(self.columns)
        pids, vals = [], []
        for kind, coefs, cap in (("w", cw, a.cap_worker), ("p", cp, a.cap_ps)):
            for (t, s, r), v in coefs.items():
                key = (kind, t, s, r)
                pid = self.pid.get(key)
                if pid is None:
                    pid = self.pid[key] = len(self.pid_key)
                    self.pid_key.append(key)
                    self.pid_cap.append(float(cap[s, r]))
                    self.pid_row.append(-1)
                pids.append(pid)
                vals.append(v)
        pids_a = np.array(pids, dtype=np.int64)
        vals_a = np.array(vals, dtype=float)
        self._chunks.append((pids_a, np.full(len(pids_a), c, dtype=np.int64), vals_a))
        self.col_entries.append((pids_a, vals_a))
        self._entries = None
        if not self.lazy_rows:
            new = [p for p in dict.fromkeys(pids) if self.pid_row[p] < 0]
            if new:
                self._activate(np.array(new, dtype=np.int64), upto=c)
        rows = np.array([self.pid_row[p] for p in pids], dtype=np.int64)
        on = rows >= 0
        idx = np.concatenate([[col.job], rows[on]]).astype(np.int32)
        val = np.concatenate([[1.0], vals_a[on]])
        self.h.addCol(float(col.utility), 0.0, INF, len(idx), idx, val)
        self.columns.append(col)
        self.keys.add(col.key)
        return True

    def entries(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """All (pid, column, coefficient) triples of (15)/(16), active or not."""
        if self._entries is None:
            if self._chunks:
                self._chunks = [tuple(np.concatenate(x) for x in zip(*self._chunks))]
                self._entries = self._chunks[0]
            else:
                z = np.zeros(0, dtype=np.int64)
                self._entries = (z, z, np.zeros(0))
        return self._entries

    def _activate(self, pids: np.ndarray, upto: int | None = None) -> None:
        """Add potential rows ``pids`` to HiGHS with their coefficients in existing columns
        (columns < ``upto`` when called while adding column ``upto``)."""
        pid_e, col_e, val_e = self.entries()
        sel = np.isin(pid_e, pids)
        if upto is not None:
            sel &= col_e < upto
        pid_s, col_s, val_s = pid_e[sel], col_e[sel], val_e[sel]
        order = np.lexsort((col_s, pid_s))
        pid_s, col_s, val_s = pid_s[order], col_s[order], val_s[order]
        pids = np.sort(pids)
        starts = np.searchsorted(pid_s, pids, side="left")
        caps = np.array([self.pid_cap[p] for p in pids.tolist()])
        self.h.addRows(len(pids), np.full(len(pids), -INF), caps, len(col_s),
                       starts.astype(np.int32), col_s.astype(np.int32), val_s)
        for n, p in enumerate(pids.tolist()):
            self.pid_row[p] = self.n_rows + n
        self.n_rows += len(pids)

    def violated(self, x: np.ndarray, rtol: float | None = None) -> np.ndarray:
        """Left-out rows that ``x`` violates by more than ``rtol`` * max(1, c) (pids);
        ``rtol`` defaults to ``FEAS_RTOL``."""
        rtol = self.FEAS_RTOL if rtol is None else rtol
        pid_e, col_e, val_e = self.entries()
        n = len(self.pid_key)
        act = np.bincount(pid_e, weights=val_e * x[col_e], minlength=n)
        cap = np.array(self.pid_cap)
        off = np.array(self.pid_row) < 0
        return np.flatnonzero(off & (act > cap + rtol * np.maximum(1.0, cap)))

    def solve(self, time_limit: float | None = None, strategy: int = 4
              ) -> dict[str, Any] | None:
        """Solve the full restricted master LP (adding violated rows as needed); return value,
        x, mu (I,), p (T, H, R), q (T, K, R); None if HiGHS stopped without an optimal basis
        (time limit): then there are no duals to price with.  ``strategy``: HiGHS's
        simplex_strategy of the first pass (4 primal: after new columns; 1 dual: after
        tightened column bounds, as in a dive)."""
        start = time.perf_counter()
        # Primal simplex after new columns (the old basis stays primal feasible), dual simplex
        # after new rows (it stays dual feasible): measured 0.3-0.5 s vs ~3 s per re-solve
        # at ~2000 columns on the 100-job benchmark when primal simplex re-solved after rows.
        while True:
            self.h.setOptionValue("simplex_strategy", strategy)
            if time_limit is not None:
                left = time_limit - (time.perf_counter() - start)
                # HiGHS compares time_limit with the object's cumulative run time
                self.h.setOptionValue("time_limit",
                                      self.h.getRunTime() + max(0.1, float(left)))
            run_highs(self.h)
            status = self.h.getModelStatus()
            if status != highspy.HighsModelStatus.kOptimal:
                self.last_status = self.h.modelStatusToString(status)
                return None
            sol = self.h.getSolution()
            x = np.asarray(sol.col_value, dtype=float)
            bad = self.violated(x)
            if len(bad) == 0:
                break
            self.lazy_passes += 1
            self._activate(bad)
            strategy = 1
        dual = np.maximum(np.asarray(sol.row_dual, dtype=float), 0.0)
        p = np.zeros((self.T, self.H, self.R))
        q = np.zeros((self.T, self.K, self.R))
        for key, row in zip(self.pid_key, self.pid_row):
            if row >= 0:
                kind, t, s, r = key
                (p if kind == "w" else q)[t - 1, s, r] = dual[row]
        return {"value": float(self.h.getInfo().objective_function_value), "x": x,
                "mu": dual[:self.n_jobs], "p": p, "q": q}

    def round_greedy(self, x: np.ndarray | None = None, allowed: np.ndarray | None = None
                     ) -> np.ndarray:
        """A feasible 0/1 selection: columns by decreasing LP value x (then utility), each
        taken if its job has none yet and it fits the remaining capacity of EVERY row (left-out
        ones included).  With ``x=None``: by utility only.  ``allowed``: mask of the columns
        it may take.  Deterministic (stable sort)."""
        n = len(self.columns)
        util = np.array([c.utility for c in self.columns])
        xs = np.zeros(n)
        if x is not None:  # columns added after that LP solve have x = 0
            xs[:len(x)] = np.asarray(x, dtype=float)
        order = np.lexsort((-util, -np.round(xs, 9)))  # x first, then utility, then index
        free = np.array(self.pid_cap, dtype=float)
        slack = self.FEAS_RTOL * np.maximum(1.0, free)
        taken = np.zeros(self.n_jobs, dtype=bool)
        out = np.zeros(n)
        ok = np.ones(n, dtype=bool) if allowed is None else np.asarray(allowed, dtype=bool)
        for c in order.tolist():
            j = self.columns[c].job
            if taken[j] or not ok[c]:
                continue
            pids, vals = self.col_entries[c]
            if np.all(vals <= free[pids] + slack[pids]):
                free[pids] -= vals
                taken[j] = True
                out[c] = 1.0
        return out

    def reduced_costs(self, lp: dict[str, Any]) -> np.ndarray:
        """Reduced cost of every column w.r.t. the duals of a :meth:`solve` result."""
        pid_e, col_e, val_e = self.entries()
        dual = np.zeros(len(self.pid_key))
        for n, (kind, t, s, r) in enumerate(self.pid_key):
            dual[n] = (lp["p"] if kind == "w" else lp["q"])[t - 1, s, r]
        cost = np.bincount(col_e, weights=val_e * dual[pid_e], minlength=len(self.columns))
        util = np.array([c.utility for c in self.columns])
        return util - cost - lp["mu"][np.array([c.job for c in self.columns], dtype=np.int64)]

    def solve_ilp(self, time_limit: float | None = None, warm_start: np.ndarray | None = None,
                  mip_gap: float = 1e-6, keep: np.ndarray | None = None) -> dict[str, Any]:
        """The restricted master as an ILP (18), x binary, over the columns in ``keep`` (mask;
        default all), with every capacity row those columns could violate (no lazy rows: the
        MIP is built once, from scratch; rows that cannot bind under (17) are left out).

        ``warm_start``: a feasible 0/1 x (e.g. the OASiS columns, or an LP rounding) handed to
        HiGHS as its first incumbent.  Returns status (``optimal`` only with a closed gap, else
        ``feasible`` / ``no_solution``), objective, HiGHS's dual bound of this restricted ILP
        (not a bound on OPT) and x over all columns.
        """
        start = time.perf_counter()
        n_all = len(self.columns)
        kept = np.flatnonzero(np.ones(n_all, bool) if keep is None else np.asarray(keep, bool))
        pos = np.full(n_all, -1, dtype=np.int64)
        pos[kept] = np.arange(len(kept))
        pid_e, col_e, val_e = self.entries()
        on = pos[col_e] >= 0
        pid_k, col_k, val_k = pid_e[on], pos[col_e[on]], val_e[on]
        jobs = np.array([self.columns[c].job for c in kept], dtype=np.int64)
        # Exact row reduction: with (17) at most one column per job, a row can be violated
        # only if sum_i max_{l of i} coef > c; the others are dropped (the LP master needs no
        # such step: its lazy rows are only ever the violated ones).
        n_pid = len(self.pid_key)
        pj = pid_k * self.n_jobs + jobs[col_k]
        pj_u, inv = np.unique(pj, return_inverse=True)
        pj_max = np.zeros(len(pj_u))
        np.maximum.at(pj_max, inv, val_k)
        worst = np.bincount(pj_u // self.n_jobs, weights=pj_max, minlength=n_pid)
        cap = np.array(self.pid_cap, dtype=float)
        binding = worst > cap * (1 + 1e-9) + 1e-9
        sel = binding[pid_k]
        pid_k, col_k, val_k = pid_k[sel], col_k[sel], val_k[sel]
        used = np.flatnonzero(binding)
        row_of = np.full(len(self.pid_key), -1, dtype=np.int64)
        row_of[used] = self.n_jobs + np.arange(len(used))
        rows = np.concatenate([jobs, row_of[pid_k]])
        cols = np.concatenate([np.arange(len(kept)), col_k])
        vals = np.concatenate([np.ones(len(kept)), val_k])
        lp = binary_program([self.columns[c].utility for c in kept], rows, cols, vals,
                            np.full(self.n_jobs + len(used), -INF),
                            np.concatenate([np.ones(self.n_jobs), cap[used]]), maximize=True)
        mip = quiet_highs()
        mip.setOptionValue("threads", self.threads)
        mip.setOptionValue("mip_rel_gap", float(mip_gap))
        if time_limit is not None:
            mip.setOptionValue("time_limit", max(0.1, float(time_limit)))
        mip.passModel(lp)
        ws = None
        if warm_start is not None:
            ws = highspy.HighsSolution()
            ws.col_value = [float(v) for v in np.asarray(warm_start, dtype=float)[kept]]
        # a start with presolve on once gave an "optimal" objective that was not its own
        # solution's value (HiGHS 1.16): checked, re-solved without presolve if so
        run = run_mip_consistent(mip, ws)
        info = mip.getInfo()
        status = mip.getModelStatus()
        has = info.primal_solution_status == 2  # kSolutionStatusFeasible
        x = None
        if has:
            x = np.zeros(n_all)
            x[kept] = np.round(np.asarray(mip.getSolution().col_value, dtype=float))
        # the solution's own value; HiGHS's bound only when its report agrees with it
        obj = run["own"] if has else None
        bound = float(info.mip_dual_bound) if run["consistent"] else math.nan
        proven = status == highspy.HighsModelStatus.kOptimal and has and \
            abs(bound - obj) <= 1e-6 * max(1.0, abs(obj))
        return {"status": "optimal" if proven else ("feasible" if has else "no_solution"),
                "termination": mip.modelStatusToString(status), "objective": obj,
                "bound": bound if math.isfinite(bound) else None, "x": x,
                "presolve_retry": run["retried"], "consistent": run["consistent"],
                "columns": int(lp.num_col_), "rows": int(lp.num_row_), "seconds": time.perf_counter() - start}


def initial_columns(workload: Workload, run: OasisRun, init: tuple[str, ...]
                    ) -> list[Column]:
    """Starting columns: the OASiS run's schedules and/or one greedy schedule per job."""
    cols: list[Column] = []
    if "oasis" in init:
        cols += columns_from_schedule(workload, run.schedule, source="oasis")
    if "greedy" in init:
        a = workload.arrays
        T = workload.horizon
        H, K, R = len(a.cap_worker), len(a.cap_ps), len(workload.resources)
        p0 = np.broadcast_to(run.params.worker_price(np.zeros((1, H, R)), a.cap_worker),
                             (T, H, R)).copy()
        q0 = np.broadcast_to(run.params.ps_price(np.zeros((1, K, R)), a.cap_ps),
                             (T, K, R)).copy()
        market = empty_market(workload, p0, q0)
        for i in range(len(workload.jobs)):
            best = best_schedule(SubJob.from_workload(workload, i), market, unit="worker_slot")
            if best.admit:
                cols.append(Column.from_dense(workload, i, best.workers, best.ps, "greedy"))
    return cols


def _reduced_costs(workload: Workload, cert, p: np.ndarray, q: np.ndarray, mu: np.ndarray
                   ) -> np.ndarray:
    """Reduced cost f_il - sum p w y - sum q s z - mu_i, w.r.t. the LP duals (p, q, mu), of
    the schedule the pricing found for each job (-inf where it found none)."""
    market = empty_market(workload, p, q)
    out = np.full(len(workload.jobs), -np.inf)
    for i, s in enumerate(cert.schedules):
        if s is not None:
            sub = SubJob.from_workload(workload, i)
            out[i] = s.utility - schedule_cost(sub, market, s.workers, s.ps)
    return out - mu


def server_classes(workload: Workload) -> tuple[np.ndarray, np.ndarray]:
    """Class labels of worker servers (H,) and PS servers (K,) for price symmetrization:
    servers of the same instance type (``kind``), or of identical capacities when untyped."""
    def labels(idx):
        keys = [workload.servers[s].kind or tuple(sorted(workload.servers[s].capacity.items()))
                for s in idx]
        uniq = {k: n for n, k in enumerate(dict.fromkeys(keys))}
        return np.array([uniq[k] for k in keys], dtype=np.int64)

    a = workload.arrays
    return labels(a.worker_servers), labels(a.ps_servers)


def symmetrize(price: np.ndarray, classes: np.ndarray) -> np.ndarray:
    """Replace each server's price by its class mean, per slot and resource: (T, S, R)."""
    n = np.bincount(classes).astype(float)
    sums = np.zeros((price.shape[0], len(n), price.shape[2]))
    np.add.at(sums, (slice(None), classes), price)
    return (sums / n[None, :, None])[:, classes, :]


def colgen_bound(workload: Workload, *, run: OasisRun | None = None, time_limit: float = 600.0,
                 max_iterations: int | None = None, rc_tol: float = 1e-7,
                 smoothing: float = 0.5, symmetrize_prices: bool = True,
                 init: tuple[str, ...] = ("oasis", "greedy"), ilp: bool = True,
                 ilp_time_limit: float | None = 60.0, ilp_backend: str = "highs",
                 ilp_columns: str = "auto", ilp_rc_keep: float = 1e-6,
                 lazy_rows: bool = True, threads: int = 1, verbose: bool = False,
                 primal_time_limit: float | None = 60.0, local_search: bool = True,
                 price_lp_point: str = "add_missing", total_time_limit: float | None = None,
                 seed: int = 0, dive_share: float = 0.25) -> BoundResult:
    """Column generation bound on OPT (LP(14)), plus the restricted-master ILP schedule.

    Returns a :class:`BoundResult` whose ``upper_bound`` is the best dual certificate seen
    (method ``lp_optimal`` when the loop converged, else ``lagrangian_at_limit`` /
    ``lagrangian_stalled``), ``lp_value`` the last master LP value (a lower bound on LP(14),
    equal to it when converged), and the best checked feasible schedule (restricted-master
    ILP, its LP rounding, or OASiS).  ``details["log"]`` has one entry per round.

    Pricing points (stabilization).  The master is highly degenerate: many capacity rows are
    tight with dual 0, and many servers are near-copies of each other (same instance type), so
    plain LP duals keep pricing "free" schedules on zero-dual servers and the certificate at
    the LP duals stalls far above the LP value (measured on the 100-job benchmark: ~3260 vs an
    LP value of ~2955 after 150 rounds).  Each round therefore prices at up to three points,
    all of them points of the dual, so each gives a valid certificate (the best is kept):

    1. ``smoothed``: sym(alpha pi_center + (1 - alpha) pi_LP), Wentges smoothing
       (``smoothing`` = alpha; 0 turns it off) around pi_center, the point with the best
       certificate so far;
    2. ``symmetric``: sym(pi_LP);
    3. ``lp``: pi_LP itself (exact pricing).

    sym() replaces each server's price by the mean over its class (:func:`server_classes`,
    ``symmetrize_prices``).  For servers that are exact copies this can never increase the
    certificate (D is convex and invariant under swapping identical servers, so the average of
    the swapped price vectors is no worse); for same-type servers with different NICs it is a
    heuristic, and the certificate is still evaluated exactly at whatever point it gives.
    Columns with reduced cost > ``rc_tol`` * max(1, max f) w.r.t. the LP duals are added from
    points 1-2, and point 3 is priced every round: with ``price_lp_point="add_missing"`` (the
    default) its columns enter for the jobs that 1-2 gave none, with ``"add"`` for every job
    (up to three columns per job per round).  "No such column at point 3" proves the LP
    optimal (LP(14) reached); so does a certificate within the tolerances of the LP value.
    The older modes price point 3 only when 1-2 added no column (``"when_needed"``) or every
    round without adding its columns when 1-2 added some (``"always"``).  DECISION (measured,
    ``benchmarks/oasis/frontier.md``, third round, 300 s of loop): on oasis-open-1
    "when_needed" stalled for ~60 rounds with the smoothed and symmetric points adding 1-9
    columns each that barely moved the LP, while the LP point, once priced, moved it by 7 in
    6 rounds.  Bound / LP at the end: when_needed 819.31 / 801.72, add 807.85 / 805.70,
    add_missing 808.10 / 804.99.  On oasis-open-2 (100 jobs) "add" made rounds of up to 300
    columns whose LP re-solves took 27-47 s: 2992.74 / 2949.92, 2999.82 / 2955.23 and
    2991.45 / 2951.49.  "add_missing" is the one never worse than the old loop in both.
    Tried and dropped (no measurable gain there): automatic Wentges smoothing (alpha moved by
    the subgradient's direction, after Pessoa et al. 2018).
    The certificate at the OASiS run's final prices (round 0, the ``dual_certificate`` bound)
    starts the best bound, so the result is never worse than that bound.
    """
    if not 0.0 <= smoothing < 1.0:
        raise InputError("must be in [0, 1)", field="smoothing", value=smoothing)
    if not 0.0 <= dive_share <= 1.0:
        raise InputError("must be in [0, 1]", field="dive_share", value=dive_share)
    if ilp_columns not in ILP_COLUMNS:
        raise InputError(f"unknown ILP column set (known: {', '.join(ILP_COLUMNS)})",
                         field="ilp_columns", value=ilp_columns)
    if price_lp_point not in LP_POINT_MODES:
        raise InputError(f"unknown mode (known: {', '.join(LP_POINT_MODES)})",
                         field="price_lp_point", value=price_lp_point)
    if ilp_backend not in ILP_BACKENDS:
        raise InputError(f"unknown ILP backend (known: {', '.join(ILP_BACKENDS)})",
                         field="ilp_backend", value=ilp_backend)
    start = time.perf_counter()
    hard = None if total_time_limit is None else start + float(total_time_limit)

    def phase_limit(own: float | None) -> float | None:
        """A phase's limit clipped to what is left of ``total_time_limit`` (minus a reserve
        of 5%, at least 0.5 s, for checking and returning the schedule)."""
        if hard is None:
            return own
        left = hard - time.perf_counter() - max(0.5, 0.05 * float(total_time_limit))
        return left if own is None else min(own, left)

    if run is None:
        run = oasis_online(workload)
    oasis_check = check_oasis(workload, run.schedule)
    if not oasis_check.feasible:  # pragma: no cover - would be a bug in Alg. 1
        raise AssertionError(f"OASiS schedule rejected by the checker: {oasis_check.summary()}")

    ok = schedulable_jobs(workload)
    tol = payoff_tolerance(workload)
    f_max = max([1.0] + [float(np.max(np.asarray(j.utility(np.arange(
        workload.horizon - j.arrival + 1, dtype=float))))) for j in workload.jobs])
    rc_abs = rc_tol * f_max
    # LP(14) is pinned once best certificate - LP value <= this (every mu_i carries tol_i)
    gap_abs = float(tol.sum()) + rc_abs * len(workload.jobs)
    cls_w, cls_p = server_classes(workload)

    def sym(p, q):
        return (symmetrize(p, cls_w), symmetrize(q, cls_p)) if symmetrize_prices else (p, q)

    master = MasterLP(workload, threads=threads, lazy_rows=lazy_rows)
    for col in initial_columns(workload, run, init):
        master.add(col)

    # Round 0: the certificate at OASiS's final prices (the dual_certificate bound), so the
    # result is a finite, valid bound even if the first LP hits the time limit, and never worse
    # than that bound.  It is not used as a stabilization center (far from LP-optimal duals).
    t1 = time.perf_counter()
    cert0 = price_certificate(workload, run.worker_price, run.ps_price, schedulable=ok,
                              tolerance=tol)
    best_ub, best_round, best_point = cert0.bound, 0, "oasis_prices"
    center: tuple[np.ndarray, np.ndarray] | None = None
    log: list[dict[str, Any]] = []
    method = "lagrangian_at_limit"
    lp: dict[str, Any] | None = None
    last_lp: dict[str, Any] | None = None  # the last LP solved to optimality
    lp_value: float | None = None
    rounds = 0
    t_lp, t_price = 0.0, time.perf_counter() - t1
    while True:
        t0 = time.perf_counter()
        lp = master.solve(time_limit=min(time_limit - (t0 - start), phase_limit(math.inf)))
        t_lp += time.perf_counter() - t0
        if lp is None:  # the LP itself hit the time limit: no duals to price with
            break
        last_lp = lp
        lp_value = lp["value"]
        if best_ub - lp_value <= gap_abs:  # LP(14) pinned between the two
            method = "lp_optimal"
            break
        rounds += 1
        pi_lp = (lp["p"], lp["q"])
        points = []
        if center is not None and smoothing > 0:
            points.append(("smoothed", sym(smoothing * center[0] + (1 - smoothing) * pi_lp[0],
                                           smoothing * center[1] + (1 - smoothing) * pi_lp[1])))
        if symmetrize_prices:
            points.append(("symmetric", sym(*pi_lp)))
        points.append(("lp", pi_lp))
        t1 = time.perf_counter()
        certs, added, positive_at_lp, got = {}, 0, 0, set()
        for name, (p, q) in points:
            if certs and (phase_limit(math.inf) <= 0 or time.perf_counter() - start >= time_limit):
                break  # out of time in mid-round: the certificates so far stand
            if name == "lp" and added and price_lp_point == "when_needed":
                continue  # columns came in: the exact LP point is only needed to prove LP(14)
            cert = price_certificate(workload, p, q, schedulable=ok, tolerance=tol)
            certs[name] = cert.bound
            if cert.bound < best_ub:
                best_ub, best_round, best_point, center = cert.bound, rounds, name, (p, q)
            rc = _reduced_costs(workload, cert, lp["p"], lp["q"], lp["mu"])
            pos = np.flatnonzero(rc > rc_abs)
            if name == "lp":
                positive_at_lp = len(pos)
                if added and price_lp_point not in ("add", "add_missing"):
                    continue
                if price_lp_point == "add_missing":  # only jobs no other point priced in
                    pos = pos[~np.isin(pos, list(got))]
            for i in pos.tolist():
                if master.add(Column.from_dense(workload, i, cert.schedules[i].workers,
                                                cert.schedules[i].ps, "pricing")):
                    added += 1
                    got.add(i)
        t_price += time.perf_counter() - t1
        entry = {"round": rounds, "lp_value": lp_value, "best_upper": best_ub,
                 "certificates": certs, "added": int(added), "columns": len(master.columns),
                 "rows": master.rows, "elapsed_s": time.perf_counter() - start}
        log.append(entry)
        if verbose:
            print(f"round {rounds}: LP {lp_value:.4f}  best upper {best_ub:.4f}  "
                  f"added {added}  columns {len(master.columns)}  "
                  f"{entry['elapsed_s']:.1f} s", flush=True)
        if added == 0:
            method = "lp_optimal" if positive_at_lp == 0 else "lagrangian_stalled"
            break
        if time.perf_counter() - start >= time_limit or phase_limit(math.inf) <= 0 or (
                max_iterations is not None and rounds >= max_iterations):
            break
    cg_seconds = time.perf_counter() - start

    details: dict[str, Any] = {
        "lp_value_is_lp14": method == "lp_optimal",
        "lp_status": getattr(master, "last_status", "optimal") if lp is None else "optimal",
        "best_round": best_round, "best_point": best_point, "rounds": rounds,
        "lazy_row_passes": master.lazy_passes, "capacity_rows_in_lp": master.rows,
        "capacity_rows_potential": len(master.pid_key), "rc_tol_abs": rc_abs,
        "gap_tol_abs": gap_abs, "smoothing": smoothing, "symmetrize": symmetrize_prices,
        "cg_seconds": cg_seconds, "lp_seconds": t_lp, "pricing_seconds": t_price,
        "oasis_objective": oasis_check.objective,
        "unschedulable": [workload.jobs[i].id for i in np.flatnonzero(~ok)],
        "columns_by_source": {s: sum(c.source == s for c in master.columns)
                              for s in ("oasis", "greedy", "pricing")},
        "log": log,
    }
    best_obj, best_src, best_sched = oasis_check.objective, "oasis", run.schedule

    def consider(sched, source):
        nonlocal best_obj, best_src, best_sched
        chk = check_oasis(workload, sched)
        if chk.feasible and chk.objective > best_obj:
            best_obj, best_src, best_sched = chk.objective, source, sched
        return chk

    # ---- LP rounding: a feasible schedule from the last LP solution, checked ----------------
    util = np.array([c.utility for c in master.columns])
    x_lp = None if last_lp is None else last_lp["x"]
    rounded = master.round_greedy(x_lp)
    chk = consider(schedule_from_columns(workload, master.columns, rounded > 0.5,
                                         {"producer": "mlopt.families.oasis.bounds.colgen.lp_rounding"}),
                   "lp_rounding")
    details["lp_rounding"] = {"objective": float(util @ rounded),
                              "checked_feasible": chk.feasible,
                              "checked_objective": chk.objective}

    # ---- restricted master as an ILP (18): a feasible schedule, checked ---------------------
    ilp_limit = phase_limit(ilp_time_limit)
    if ilp and ilp_limit is not None and ilp_limit < 0.2:
        details["ilp"] = {"skipped": "no time left in total_time_limit"}
    elif ilp:
        t0 = time.perf_counter()
        is_oasis = np.array([c.source == "oasis" for c in master.columns])
        reduce = ilp_columns == "near_zero_rc" or (
            ilp_columns == "auto" and len(master.columns) > AUTO_ALL_COLUMNS)
        if reduce and last_lp is not None:
            # price-and-branch heuristic: columns whose reduced cost at the last LP duals is
            # within ilp_rc_keep * max(1, f) of 0 (they span the LP optimal face), those the
            # LP uses, and the OASiS columns (so the OASiS schedule stays feasible)
            rc = master.reduced_costs(last_lp)
            x_full = np.zeros(len(util))
            x_full[:len(x_lp)] = x_lp
            keep = (rc >= -ilp_rc_keep * np.maximum(1.0, util)) | (x_full > 1e-9) | is_oasis
        else:
            keep = np.ones(len(util), dtype=bool)
        # warm start: the better of the LP rounding within the kept columns and OASiS
        warm = master.round_greedy(x_lp, allowed=keep)
        if is_oasis.any() and util @ is_oasis > util @ warm:
            warm = is_oasis.astype(float)
        ilp_x = None
        if ilp_backend == "highs":
            res = master.solve_ilp(ilp_limit, warm_start=warm, keep=keep)
            ilp_x = res["x"]
            ilp_info: dict[str, Any] = {k: res[k] for k in ("status", "termination", "presolve_retry",
                                                            "objective", "bound")}
            sched = None if res["x"] is None else schedule_from_columns(
                workload, master.columns, res["x"] > 0.5,
                {"producer": "mlopt.families.oasis.bounds.colgen.restricted_master",
                 "objective": res["objective"]})
        else:
            kept = [c for c, k in zip(master.columns, keep) if k]
            model = build_master(workload, kept, relax=False)
            sol = solve(model, time_limit=ilp_limit, threads=threads)
            ilp_info = {"status": str(sol.status), "termination": sol.termination,
                        "objective": sol.objective, "bound": sol.bound}
            sched = extract_master_schedule(model, workload, kept) \
                if sol.has_solution else None
        ilp_info["columns"] = int(keep.sum())
        ilp_info["column_set"] = "near_zero_rc" if reduce and last_lp is not None else "all"
        ilp_info["warm_start_objective"] = float(util @ warm)
        if sched is not None:
            chk = consider(sched, "restricted_master")
            ilp_info.update(checked_feasible=chk.feasible, checked_objective=chk.objective,
                            admitted=len(sched.admitted))
        ilp_info["backend"] = ilp_backend
        ilp_info["seconds"] = time.perf_counter() - t0
        details["ilp"] = ilp_info
        # ---- local search <-> restricted MIP from the ILP's schedule (primal/ package) -----
        primal_limit = phase_limit(primal_time_limit or 0.0)
        if primal_limit > 0:
            details["primal"] = master_primal(
                workload, master, last_lp, time_limit=primal_limit, consider=consider,
                incumbent=ilp_x, incumbent_source="restricted_master", rc_keep=ilp_rc_keep,
                local_search=local_search, seed=seed, dive_share=dive_share)
    return BoundResult("colgen", best_ub, method, best_obj, best_src,
                       time.perf_counter() - start, iterations=rounds,
                       columns=len(master.columns), lp_value=lp_value, schedule=best_sched,
                       details=details)
