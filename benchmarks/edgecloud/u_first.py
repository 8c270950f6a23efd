"""Branching on the edge/cloud choice u_j first (issue 21, seed 1 of the 100-job shape): the
decisive experiment of the fourth pass, kept as a diagnostic (it did not close the gap; the
bound that did is ``split_lb``, :mod:`mlopt.families.edgecloud.split`).

    python benchmarks/edgecloud/u_first.py --method lp_bnb --time-limit 60 \
        --start benchmarks/edgecloud/data/step_lns_seed1_schedule.json
    python benchmarks/edgecloud/u_first.py --method scip_priority --time-limit 900 \
        --start benchmarks/edgecloud/data/step_lns_seed1_schedule.json

Both print JSON lines (progress: bound, nodes, load average) and a last line with the result.

``scip_priority``: SCIP on ``jct_step`` with branching priority 1000 on every u_j (0 on the
rest), the start added as a solution, one thread.

``lp_bnb``: our own branch-and-bound over u only.  Why u first: the LP relaxation of
``jct_step`` leaves 20 u_j fractional (LP 433.5), and with u fixed at a schedule's choice
HiGHS proves the rest in seconds (``sides.py``).

A node fixes some u_j to 0 (every chunk on the edge) or 1 (the whole job in the
cloud, under ``jct_step``'s dominance rows).  Its LP relaxation (``jct_step`` with those u
fixed, every other integer relaxed) is solved by HiGHS's dual simplex, warm from the previous
node's basis, and turned into a certified bound (below).  A node is *pruned* when that bound
exceeds ``incumbent - 1`` (every total JCT is an integer, c_j and r_j being slots, so a node
whose bound is above incumbent - 1 holds no schedule better than the incumbent).  Otherwise
it branches on its most fractional u_j; when no u_j is fractional, the node's MILP (u fixed
where the node fixes it, the rest free) is given to HiGHS for ``node_limit`` seconds with the
objective cut incumbent - 1/2: proven (optimal or infeasible under the cut) closes the node, a
solution found there is extracted and kept if the family's checker confirms a smaller total;
stopped, the node keeps HiGHS's MILP dual bound and branches on an unfixed u_j (the one whose
relaxed column has the smallest reduced cost magnitude: the cheapest to flip).  Nodes are taken
best bound first.

Validity.  The nodes partition the u-space ({u_j = 0} and {u_j = 1} split a node), and the
optimum of ``jct_step`` is OPT (tested equal to ``jct_milp``), so OPT is the minimum over the
open nodes of their optima.  Each open node's bound is below its optimum, so
``min(incumbent, min over open nodes of their bound)``, rounded up, is a lower bound on OPT at
any moment (the ``bound`` returned when stopped); when no node is open, the incumbent (a
checked schedule) is optimal.  Pruning with ``bound > incumbent - 1`` only drops nodes without
an integer total below the incumbent, so that minimum is unchanged.

Certified node bounds.  The LP bound is not HiGHS's objective but the Lagrangian value of its
row duals y: for every x with row_lo <= A x <= row_hi and col_lb <= x <= col_ub,
c x + c0 >= c0 + sum_i (y_i row_lo_i if y_i > 0 else y_i row_hi_i) + sum_j min(d_j col_lb_j,
d_j col_ub_j) with d = c - A^T y, whatever y is (a dual with the wrong sign on an infinite
side is set to 0), so a solver tolerance can only weaken it.  It is summed with ``math.fsum``
and lowered by ``FLOAT_MARGIN`` times the sum of the terms' magnitudes (float rounding); every
column of ``jct_step`` is bounded, so the sum is finite.  A node closed by the node MILP rests
on HiGHS's MILP proof (a solver's word).

Parameters: the incumbent starts from ``pool_greedy`` (or a given schedule); ``node_limit``
20 s; a node's MILP only when its LP leaves no u_j fractional.
"""
from __future__ import annotations

import heapq
import math
import time
from dataclasses import dataclass, field

import numpy as np

from mlopt.errors import InputError
from mlopt.schedule import Schedule
from mlopt.workload import Workload

#: a u value further than this from 0 and 1 is fractional (HiGHS's primal feasibility
#: tolerance is 1e-7)
FRAC_TOL = 1e-6
#: relative margin for float rounding in the Lagrangian bound (the terms are summed with
#: math.fsum, so this is far above the real error)
FLOAT_MARGIN = 1e-9
#: every total JCT is an integer: a node is pruned when its bound is above incumbent - 1 by
#: more than this, and the reported bound is ceil(bound - INT_TOL)
INT_TOL = 1e-6
#: seconds kept at the end for extracting and checking
RESERVE_S = 0.5


@dataclass(order=True)
class _Node:
    bound: float
    seq: int
    fixed: dict = field(compare=False)  # job index -> 0 / 1


def lagrangian_bound(form, y: np.ndarray, col_lb: np.ndarray, col_ub: np.ndarray) -> float:
    """A bound on min c x + c0 over the rows and these column bounds from any row duals y
    (module docstring); -inf when a column with a nonzero reduced cost is unbounded."""
    y = np.where((y > 0) & np.isinf(form.row_lo), 0.0, y)
    y = np.where((y < 0) & np.isinf(form.row_hi), 0.0, y)
    rows = np.where(y > 0, y * np.where(np.isinf(form.row_lo), 0.0, form.row_lo),
                    y * np.where(np.isinf(form.row_hi), 0.0, form.row_hi))
    n_rows = len(form.indptr) - 1
    row_of = np.repeat(np.arange(n_rows), np.diff(form.indptr))
    aty = np.zeros(len(form.c))
    np.add.at(aty, form.indices, form.data * y[row_of])
    d = form.c - aty
    with np.errstate(invalid="ignore"):
        cols = np.where(d > 0, d * col_lb, np.where(d < 0, d * col_ub, 0.0))
    if not np.all(np.isfinite(cols)):
        return -math.inf
    terms = np.concatenate([rows, cols, [form.c0]])
    value = math.fsum(terms.tolist())
    return value - FLOAT_MARGIN * (1.0 + math.fsum(np.abs(terms).tolist()))


def _highs_of(form, integer: bool):
    import highspy

    from mlopt.solvers.quiet_highs import quiet_highs

    h = quiet_highs()
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = form.n_cols, form.n_rows
    inf = highspy.kHighsInf
    lp.col_cost_ = np.asarray(form.c, dtype=float)
    lp.col_lower_ = np.where(np.isinf(form.col_lb), -inf, form.col_lb)
    lp.col_upper_ = np.where(np.isinf(form.col_ub), inf, form.col_ub)
    lp.row_lower_ = np.where(np.isinf(form.row_lo), -inf, form.row_lo)
    lp.row_upper_ = np.where(np.isinf(form.row_hi), inf, form.row_hi)
    lp.offset_ = float(form.c0)
    a = lp.a_matrix_
    a.format_ = highspy.MatrixFormat.kRowwise
    a.num_col_, a.num_row_ = form.n_cols, form.n_rows
    a.start_ = np.asarray(form.indptr, dtype=np.int32)
    a.index_ = np.asarray(form.indices, dtype=np.int32)
    a.value_ = np.asarray(form.data, dtype=float)
    if integer:
        lp.integrality_ = [highspy.HighsVarType.kInteger if i else
                           highspy.HighsVarType.kContinuous for i in form.integer]
    h.passModel(lp)
    return h


class ChoiceBnB:
    """One search over one workload (module docstring); :meth:`run` until closed or timed."""

    def __init__(self, workload: Workload, start: Schedule | None = None, *, seed: int = 0,
                 node_limit: float = 20.0):
        from mlopt.families import get_family
        from mlopt.models.edgecloud.jct_step import build_jct_step
        from mlopt.solvers._matrix import compile_linear

        self.fam = get_family("edgecloud")
        self.workload = workload
        # first, so that a workload beyond the model-size limit is refused before any work
        self.model = build_jct_step(workload)
        self.form = compile_linear(self.model)
        if not np.all(np.isfinite(self.form.col_lb) & np.isfinite(self.form.col_ub)):
            raise InputError("choice_bnb needs every column of jct_step bounded",
                             field="model", value="jct_step")
        col = {id(v): k for k, v in enumerate(self.form.columns)}
        # a u_j fixed by the model itself (no column) cannot be branched on: leave it out
        self.ucol = {j: col[id(self.model.u[j])] for j in self.model.J
                     if id(self.model.u[j]) in col}
        self.best = start if start is not None else self.fam.run("pool_greedy", workload,
                                                                  seed=seed)
        chk = self.fam.check(workload, self.best)
        if not chk.feasible:
            raise InputError("the start failed the checker", field="start",
                             value="given schedule" if start is not None else "pool_greedy")
        self.upper = float(chk.objective)
        self.start_objective = self.upper
        self.node_limit = float(node_limit)
        self.lp = _highs_of(self.form, integer=False)
        self.mip = None  # built on the first node MILP
        self.open: list[_Node] = []
        self.seq = 0
        self.stats = {"nodes": 0, "pruned": 0, "node_milps": 0, "milp_closed": 0,
                      "improved": 0, "lp_s": 0.0, "milp_s": 0.0}
        self.root_bound: float | None = None
        heapq.heappush(self.open, _Node(-math.inf, 0, {}))

    # ---- bounds -----------------------------------------------------------------------------
    def bound(self) -> float:
        """The certified lower bound now: min(incumbent, open nodes' bounds)."""
        low = min([self.upper] + [n.bound for n in self.open])
        return low

    def closed(self) -> bool:
        return not self.open

    def _prunable(self, b: float) -> bool:
        return b > self.upper - 1.0 + INT_TOL

    def _col_bounds(self, fixed: dict) -> tuple[np.ndarray, np.ndarray]:
        lb, ub = self.form.col_lb.copy(), self.form.col_ub.copy()
        for j, v in fixed.items():
            lb[self.ucol[j]] = ub[self.ucol[j]] = float(v)
        return lb, ub

    def _set_bounds(self, h, lb, ub) -> None:
        idx = np.fromiter(self.ucol.values(), dtype=np.int32)
        h.changeColsBounds(len(idx), idx, lb[idx], ub[idx])

    # ---- one node ---------------------------------------------------------------------------
    def _lp(self, node: _Node):
        """(certified bound, u values, reduced costs) of the node's LP; bound +inf when the
        LP is infeasible, None when HiGHS returned no usable solution."""
        import highspy

        from mlopt.solvers.quiet_highs import run_highs

        lb, ub = self._col_bounds(node.fixed)
        self._set_bounds(self.lp, lb, ub)
        t = time.perf_counter()
        run_highs(self.lp)
        self.stats["lp_s"] += time.perf_counter() - t
        status = self.lp.getModelStatus()
        if status == highspy.HighsModelStatus.kInfeasible:
            return math.inf, None, None
        if status != highspy.HighsModelStatus.kOptimal:
            return None, None, None
        sol = self.lp.getSolution()
        y = np.asarray(sol.row_dual, dtype=float)
        b = lagrangian_bound(self.form, y, lb, ub)
        x = np.asarray(sol.col_value, dtype=float)
        return b, x, np.asarray(sol.col_dual, dtype=float)

    def _node_milp(self, node: _Node, limit: float) -> float:
        """HiGHS on the node's MILP under the cut incumbent - 1/2; the node's bound after it
        (+inf when proven: nothing below the cut is left there)."""
        import highspy

        from mlopt.solvers._matrix import load_solution
        from mlopt.solvers.quiet_highs import run_highs

        if self.mip is None:
            self.mip = _highs_of(self.form, integer=True)
        h = self.mip
        h.clearSolver()
        lb, ub = self._col_bounds(node.fixed)
        self._set_bounds(h, lb, ub)
        h.setOptionValue("time_limit", float(max(limit, 0.1)))
        h.setOptionValue("objective_bound", self.upper - 0.5)
        t = time.perf_counter()
        run_highs(h)
        self.stats["milp_s"] += time.perf_counter() - t
        self.stats["node_milps"] += 1
        status = h.getModelStatus()
        info = h.getInfo()
        if info.primal_solution_status == 2 and info.objective_function_value \
                < self.upper - 1.0 + INT_TOL:
            load_solution(self.form, np.asarray(h.getSolution().col_value, dtype=float))
            sched = self.fam.extract["jct_step"](self.model, self.workload)
            got = self.fam.check(self.workload, sched)
            if got.feasible and got.objective < self.upper - 1e-6:
                self.best, self.upper = sched, float(got.objective)
                self.stats["improved"] += 1
        ms = highspy.HighsModelStatus
        if status in (ms.kOptimal, ms.kInfeasible):
            # optimal: its value is the node's optimum (kept if better); infeasible under the
            # cut: no total below incumbent - 1/2 there.  Either way nothing better is left.
            self.stats["milp_closed"] += 1
            return math.inf
        b = float(info.mip_dual_bound)
        return b if math.isfinite(b) and abs(b) < highspy.kHighsInf else -math.inf

    def _children(self, node: _Node, j: int, b: float) -> None:
        for v in (0, 1):
            self.seq += 1
            heapq.heappush(self.open, _Node(b, self.seq, {**node.fixed, j: v}))

    def step(self, deadline: float) -> None:
        """Process the best open node."""
        node = heapq.heappop(self.open)
        if self._prunable(node.bound):
            self.stats["pruned"] += 1
            return
        self.stats["nodes"] += 1
        b, x, rc = self._lp(node)
        if b is None:  # no proven LP: keep the parent's bound, branch blindly
            free = [j for j in self.ucol if j not in node.fixed]
            if not free:
                heapq.heappush(self.open, node)
                raise RuntimeError("HiGHS returned no LP solution at a leaf")
            self._children(node, free[0], node.bound)
            return
        b = max(b, node.bound)
        if self.root_bound is None:
            self.root_bound = b
        if self._prunable(b):
            self.stats["pruned"] += 1
            return
        frac = {j: x[c] for j, c in self.ucol.items()
                if j not in node.fixed and FRAC_TOL < x[c] < 1 - FRAC_TOL}
        if frac:
            j = min(frac, key=lambda j: (abs(frac[j] - 0.5), j))
            self._children(node, j, b)
            return
        left = deadline - time.perf_counter() - RESERVE_S
        mb = self._node_milp(node, min(self.node_limit, left))
        b = max(b, mb)
        if self._prunable(b):
            return
        free = [j for j in self.ucol if j not in node.fixed]
        if not free:  # every u fixed and not proven: again, with the time it had
            self.seq += 1
            heapq.heappush(self.open, _Node(b, self.seq, node.fixed))
            return
        j = min(free, key=lambda j: (abs(rc[self.ucol[j]]), j))
        self._children(node, j, b)

    def run(self, time_limit: float, max_nodes: int = 0) -> dict:
        t0 = time.perf_counter()
        deadline = t0 + float(time_limit)
        done = 0
        while self.open and deadline - time.perf_counter() > RESERVE_S + 0.2:
            if max_nodes and done >= max_nodes:
                break
            self.step(deadline)
            done += 1
        low = self.bound()
        closed = self.closed()
        return {"bound": float(math.ceil(low - INT_TOL)) if math.isfinite(low) else None,
                "raw_bound": low, "status": "optimal" if closed else "stopped",
                "upper": self.upper, "start_objective": self.start_objective,
                "root_bound": self.root_bound, "open_nodes": len(self.open),
                **self.stats, "solve_s": round(time.perf_counter() - t0, 2)}


def _scip_priority(w, start: Schedule, limit: float) -> dict:
    """SCIP on jct_step with u_j branched first (module docstring)."""
    from mlopt.models.edgecloud.jct_step import build_jct_step
    from mlopt.solvers._matrix import compile_linear
    from mlopt.solvers.scip import scip_model
    from mlopt.warmstart import _vector, encode_schedule

    m = build_jct_step(w)
    form = compile_linear(m)
    scip, cols = scip_model(form)
    col = {id(v): k for k, v in enumerate(form.columns)}
    for j in m.J:
        if id(m.u[j]) in col:
            scip.chgVarBranchPriority(cols[col[id(m.u[j])]], 1000)
    x, _, _ = _vector(form, encode_schedule("edgecloud", m, w, start))
    sol = scip.createSol()
    for k, v in enumerate(cols):
        scip.setSolVal(sol, v, float(np.round(x[k]) if form.integer[k] else x[k]))
    stored = bool(scip.addSol(sol))
    scip.setParam("limits/time", float(limit))
    scip.hideOutput(True)
    scip.optimize()
    return {"method": "scip_priority", "start_stored": stored, "status": scip.getStatus(),
            "bound": scip.getDualbound(), "upper": scip.getPrimalbound(),
            "nodes": scip.getNNodes(), "solve_s": round(scip.getSolvingTime(), 1)}


def main() -> None:
    import argparse
    import json
    import os
    import sys

    from mlopt.families.edgecloud.generator import generate
    from mlopt.machine import cpu_model

    ap = argparse.ArgumentParser()
    ap.add_argument("--method", choices=("lp_bnb", "scip_priority"), default="lp_bnb")
    ap.add_argument("--jobs", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--start", help="a schedule file (checked); default pool_greedy's")
    a = ap.parse_args()
    w = generate("paper-ratio", a.seed, n_jobs=a.jobs, arrival_window=a.jobs / 2)
    head = {"machine": cpu_model(), "argv": sys.argv[1:],
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "load_start": [round(x, 1) for x in os.getloadavg()]}
    start = Schedule.load(a.start) if a.start else None
    if a.method == "scip_priority":
        from mlopt.families import get_family

        fam = get_family("edgecloud")
        start = start or fam.run("pool_greedy", w, seed=0)
        out = _scip_priority(w, start, a.time_limit)
    else:
        bnb = ChoiceBnB(w, start)
        t0 = time.perf_counter()
        deadline = t0 + a.time_limit
        last = t0
        while bnb.open and deadline - time.perf_counter() > RESERVE_S + 0.2:
            bnb.step(deadline)
            if time.perf_counter() - last > 10:
                last = time.perf_counter()
                print(json.dumps({"s": round(last - t0, 1), "bound": bnb.bound(),
                                  "open": len(bnb.open), "nodes": bnb.stats["nodes"],
                                  "load": round(os.getloadavg()[0], 1)}), flush=True)
        out = {"method": "lp_bnb", **bnb.run(0.0)}
    print(json.dumps({**head, **out, "load_end": [round(x, 1) for x in os.getloadavg()]}))


if __name__ == "__main__":
    main()
