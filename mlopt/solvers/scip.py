"""SCIP through PySCIPOpt, fed from the shared linear form (:mod:`mlopt.solvers._matrix`).

Settings: ``time_limit`` -> ``limits/time``; ``mip_gap`` -> ``limits/gap``; ``threads`` = 1 runs
``optimize()``; ``threads`` > 1 runs SCIP's concurrent solver (``solveConcurrent``, in SCIP's
deterministic ``parallel/mode`` 1) with exactly that many threads.  ``options`` are SCIP
parameters by their SCIP names (``{"presolving/maxrounds": 0}``), and ``objlimit`` (not a
parameter: SCIP's objective limit, ``setObjlimit``, in the model's own sense): only solutions
strictly better than it are accepted and nodes that cannot beat it are pruned, so "infeasible"
then says no solution is better than the limit (a cutoff without a cutoff row) *by more than
SCIP's tolerance*: measured with SCIP 10, an optimum 7/3 and a limit 2.3333334 (the optimum
better by 3e-8 relative) gave "infeasible", and an optimum of 2e6 with a limit 2e6 + 0.5
too; the message of such a result says so.  Keep a limit well clear of any value that
matters (a sum of integers: half-way between two).  Not with a warm start
(:func:`mlopt.warmstart.solve_warm` refuses it).

Status: SCIP's ``optimal`` is the only "proven" state, and :func:`mlopt.solve.classify` still
requires the returned dual bound to close the gap; any SCIP limit status (time, gap, nodes,
memory, solutions, interrupt) becomes ``feasible`` with incumbent, bound and gap, or
``no_solution``.  ``runtime_s`` is the wall time of the whole call (linear-form extraction,
building the SCIP model, solving, loading values); ``options`` records ``solve_s`` (SCIP's own
solving time) and ``build_s`` separately.
"""
from __future__ import annotations

import math
import time

from mlopt.solvers.result import SolveResult, Status, classify, trusted_bound
from mlopt.solvers._matrix import compile_linear, load_solution
from mlopt.errors import InputError
from mlopt.solvers.base import Capabilities, SolverBackend, register_backend, unknown_option

_LIMITS = {"timelimit", "gaplimit", "nodelimit", "totalnodelimit", "stallnodelimit",
           "memlimit", "sollimit", "bestsollimit", "restartlimit", "userinterrupt",
           "primallimit", "duallimit", "terminate"}

#: the option that sets SCIP's objective limit (module docstring)
OBJLIMIT = "objlimit"


def _pyscipopt():
    import pyscipopt

    return pyscipopt


@register_backend
class ScipBackend(SolverBackend):
    name = "scip"
    capabilities = Capabilities(mip=True, lp=True, dual_bound=True, time_limit=True,
                                threads=True, deterministic=True)

    @classmethod
    def available(cls) -> bool:
        try:
            _pyscipopt()
        except Exception:
            return False
        return True

    @classmethod
    def version(cls) -> str:
        p = _pyscipopt()
        m = p.Model()
        return (f"{m.getMajorVersion()}.{m.getMinorVersion()}.{m.getTechVersion()} "
                f"(PySCIPOpt {p.__version__})")

    @classmethod
    def check_options(cls, options: dict) -> None:
        """SCIP parameter names and values, tried on an empty SCIP model."""
        m = _pyscipopt().Model()
        m.hideOutput()
        for key, val in options.items():
            if key == OBJLIMIT:
                if isinstance(val, bool) or not isinstance(val, (int, float)) \
                        or not math.isfinite(val):
                    raise InputError("must be a finite number (the objective limit)",
                                     field=key, value=val)
                continue
            try:
                m.setParam(key, val)
            except KeyError:
                raise unknown_option("SCIP", key, val) from None
            except (TypeError, ValueError, LookupError) as err:
                raise InputError(f"bad value for this SCIP parameter: {err}", field=key,
                                 value=val) from None
            except Exception as err:  # PySCIPOpt raises plain Exceptions for SCIP errors
                raise InputError(f"SCIP rejects this parameter value: {err}", field=key,
                                 value=val) from None

    def solve(self, model, *, time_limit, mip_gap, threads, options) -> SolveResult:
        start = time.perf_counter()
        form = compile_linear(model)
        settings = {"time_limit": time_limit, "mip_gap": mip_gap, "threads": threads}
        scip, cols = scip_model(form)
        if time_limit is not None:
            scip.setParam("limits/time", max(float(time_limit), 0.0))
        scip.setParam("limits/gap", float(mip_gap))
        for key, val in options.items():
            if key == OBJLIMIT:
                scip.setObjlimit(float(val))
            else:
                scip.setParam(key, val)
        build_s = time.perf_counter() - start
        n_threads = 1 if threads is None else max(1, int(threads))
        try:
            from mlopt.solvers.log import log_stream, scip_log

            with scip_log(scip, log_stream()):  # --log-solver
                if n_threads > 1:
                    scip.setParam("parallel/maxnthreads", n_threads)
                    scip.setParam("parallel/minnthreads", n_threads)
                    scip.solveConcurrent()
                else:
                    from mlopt.solvers.progress import attach_scip, current

                    if current() is not None:  # a progress display listening
                        attach_scip(scip, current())
                    scip.optimize()
        except Exception as err:  # a solver crash is a result, not a traceback
            return SolveResult(Status.ERROR, None, None, None, time.perf_counter() - start,
                               self.name, self.version(), form.sense, "exception", settings,
                               str(err))
        status = scip.getStatus()
        version = self.version()
        settings.update(build_s=round(build_s, 6), solve_s=scip.getSolvingTime(),
                        compile_s=round(form.compile_s, 6))
        if status == "infeasible":
            note = "" if OBJLIMIT not in options else (
                f"with objlimit {options[OBJLIMIT]!r}: no solution better than it by more "
                "than SCIP's tolerance; not a proof that the model is infeasible")
            return SolveResult(Status.INFEASIBLE, None, None, None, time.perf_counter() - start,
                               self.name, version, form.sense, status, settings, note)
        if status in ("unbounded", "inforunbd"):
            return SolveResult(Status.UNBOUNDED, None, None, None, time.perf_counter() - start,
                               self.name, version, form.sense, status, settings)
        objective = bound = None
        if scip.getNSols() > 0:
            sol = scip.getBestSol()
            objective = scip.getSolObjVal(sol)
            load_solution(form, [scip.getSolVal(sol, v) for v in cols])
        db = scip.getDualbound()
        if db is not None and abs(db) < scip.infinity():
            bound = float(db)
        bound = trusted_bound(bound, status == "optimal", status in _LIMITS)
        st, gap = classify(form.sense, objective, bound, proven_optimal=(status == "optimal"),
                           limit_reached=status in _LIMITS)
        return SolveResult(st, objective if st != Status.ERROR else None, bound, gap,
                           time.perf_counter() - start, self.name, version, form.sense, status,
                           settings)


def scip_model(form):
    """A PySCIPOpt model of a linear form (:mod:`._matrix`): columns, rows, sense and offset,
    output hidden; returns (model, column variables).  Shared by the backend and the warm
    starts (:mod:`mlopt.warmstart`)."""
    p = _pyscipopt()
    from pyscipopt.scip import Expr, ExprCons, Term

    scip = p.Model()
    scip.hideOutput()

    def finite(v):
        return None if math.isinf(v) else float(v)

    cols = []
    for j in range(form.n_cols):
        lb, ub = form.col_lb[j], form.col_ub[j]
        vtype = "C"
        if form.integer[j]:
            vtype = "B" if lb >= 0 and ub <= 1 else "I"
        cols.append(scip.addVar(name=f"x{j}", vtype=vtype, lb=finite(lb), ub=finite(ub),
                                obj=float(form.c[j])))
    for i in range(form.n_rows):
        idx, coef = form.row(i)
        expr = Expr({Term(cols[j]): float(a) for j, a in zip(idx, coef)})
        scip.addCons(ExprCons(expr, lhs=finite(form.row_lo[i]), rhs=finite(form.row_hi[i])),
                     name=f"r{i}")
    if form.sense == "max":
        scip.setMaximize()
    else:
        scip.setMinimize()
    if form.c0:
        scip.addObjoffset(form.c0)
    return scip, cols
