"""Gurobi through gurobipy, fed from the shared linear form (:mod:`mlopt.solvers._matrix`).

Registered always, *available* only when ``gurobipy`` imports and a Gurobi environment starts
(i.e. a licence is found); otherwise ``solve(..., solver="gurobi")`` raises InputError and
tests skip.  Settings: ``time_limit`` -> ``TimeLimit``, ``mip_gap`` -> ``MIPGap`` (set
explicitly: Gurobi's own default is 1e-4, which would let ``OPTIMAL`` mean a 0.01 % gap),
``threads`` -> ``Threads``; ``options`` are Gurobi parameters by name.  Gurobi's ``OPTIMAL``
is "proven" for :func:`mlopt.solve.classify`, which still requires ``ObjBound`` to close the
gap; every limit status becomes ``feasible`` or ``no_solution``.
"""
from __future__ import annotations

import math
import time

from mlopt.solvers.result import SolveResult, Status, classify, trusted_bound
from mlopt.solvers._matrix import compile_linear, load_solution
from mlopt.solvers.base import Capabilities, SolverBackend, register_backend

_AVAILABLE: bool | None = None


def _gurobipy():
    import gurobipy

    return gurobipy


def _env():
    gp = _gurobipy()
    env = gp.Env(empty=True)
    env.setParam("OutputFlag", 0)
    env.start()  # raises GurobiError without a licence
    return env


@register_backend
class GurobiBackend(SolverBackend):
    name = "gurobi"
    capabilities = Capabilities(mip=True, lp=True, dual_bound=True, time_limit=True,
                                threads=True, deterministic=True)

    @classmethod
    def available(cls) -> bool:
        global _AVAILABLE
        if _AVAILABLE is None:
            try:
                _env().dispose()
                _AVAILABLE = True
            except Exception:  # not installed, or no licence
                _AVAILABLE = False
        return _AVAILABLE

    @classmethod
    def version(cls) -> str:
        return ".".join(str(v) for v in _gurobipy().gurobi.version())

    def solve(self, model, *, time_limit, mip_gap, threads, options) -> SolveResult:
        start = time.perf_counter()
        gp = _gurobipy()
        GRB = gp.GRB
        form = compile_linear(model)
        version = self.version()
        settings = {"time_limit": time_limit, "mip_gap": mip_gap, "threads": threads}

        def result(status, objective=None, bound=None, gap=None, termination=""):
            return SolveResult(status, objective, bound, gap, time.perf_counter() - start,
                               self.name, version, form.sense, termination, settings)

        def bnd(v):
            return -GRB.INFINITY if v == -math.inf else (GRB.INFINITY if v == math.inf
                                                         else float(v))

        env = _env()
        try:
            m = gp.Model(env=env)
            xs = [m.addVar(lb=bnd(form.col_lb[j]), ub=bnd(form.col_ub[j]),
                           obj=float(form.c[j]),
                           vtype=GRB.INTEGER if form.integer[j] else GRB.CONTINUOUS)
                  for j in range(form.n_cols)]
            for i in range(form.n_rows):
                idx, a = form.row(i)
                expr = gp.LinExpr([float(v) for v in a], [xs[j] for j in idx])
                lo, hi = form.row_lo[i], form.row_hi[i]
                if lo == hi:
                    m.addLConstr(expr, GRB.EQUAL, float(hi))
                elif math.isinf(lo):
                    m.addLConstr(expr, GRB.LESS_EQUAL, float(hi))
                elif math.isinf(hi):
                    m.addLConstr(expr, GRB.GREATER_EQUAL, float(lo))
                else:
                    m.addRange(expr, float(lo), float(hi))
            m.ModelSense = GRB.MAXIMIZE if form.sense == "max" else GRB.MINIMIZE
            m.ObjCon = form.c0
            if time_limit is not None:
                m.setParam("TimeLimit", max(float(time_limit), 0.0))
            m.setParam("MIPGap", float(mip_gap))
            if threads is not None:
                m.setParam("Threads", int(threads))
            for key, val in options.items():
                m.setParam(key, val)
            settings["build_s"] = round(time.perf_counter() - start, 6)
            try:
                m.optimize()
            except Exception as err:  # a solver crash is a result, not a traceback
                return SolveResult(Status.ERROR, None, None, None, time.perf_counter() - start,
                                   self.name, version, form.sense, "exception", settings,
                                   str(err))
            code = m.Status
            settings["solve_s"] = m.Runtime
            names = {GRB.OPTIMAL: "OPTIMAL", GRB.INFEASIBLE: "INFEASIBLE",
                     GRB.INF_OR_UNBD: "INF_OR_UNBD", GRB.UNBOUNDED: "UNBOUNDED",
                     GRB.TIME_LIMIT: "TIME_LIMIT", GRB.NODE_LIMIT: "NODE_LIMIT",
                     GRB.SOLUTION_LIMIT: "SOLUTION_LIMIT", GRB.INTERRUPTED: "INTERRUPTED",
                     GRB.ITERATION_LIMIT: "ITERATION_LIMIT", GRB.SUBOPTIMAL: "SUBOPTIMAL",
                     GRB.NUMERIC: "NUMERIC"}
            name = names.get(code, f"STATUS_{code}")
            if code == GRB.INFEASIBLE:
                return result(Status.INFEASIBLE, termination=name)
            if code in (GRB.UNBOUNDED, GRB.INF_OR_UNBD):
                return result(Status.UNBOUNDED, termination=name)
            objective = bound = None
            if m.SolCount > 0:
                objective = float(m.ObjVal)
                load_solution(form, m.getAttr("X", xs))
            if m.IsMIP:
                try:
                    b = float(m.ObjBound)
                    bound = b if math.isfinite(b) and abs(b) < GRB.INFINITY else None
                except Exception:  # attribute unavailable
                    bound = None
            elif code == GRB.OPTIMAL:
                bound = objective  # an optimal LP basis proves its own objective
            limits = {GRB.TIME_LIMIT, GRB.NODE_LIMIT, GRB.SOLUTION_LIMIT, GRB.INTERRUPTED,
                      GRB.ITERATION_LIMIT}
            for extra in ("USER_OBJ_LIMIT", "WORK_LIMIT", "MEM_LIMIT"):
                if hasattr(GRB, extra):
                    limits.add(getattr(GRB, extra))
            bound = trusted_bound(bound, code == GRB.OPTIMAL, code in limits)
            status, gap = classify(form.sense, objective, bound,
                                   proven_optimal=(code == GRB.OPTIMAL),
                                   limit_reached=code in limits)
            return result(status, objective if status != Status.ERROR else None, bound, gap,
                          name)
        finally:
            try:
                m.dispose()
            except Exception:
                pass
            env.dispose()
