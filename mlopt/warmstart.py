"""Warm starts for every family's exact model from a checked schedule (issue 20, item 3).

A *start* is a mapping ``{VarData: value}`` (a Pyomo ``ComponentMap``: VarData do not hash)
for (some of) the variables of a family's exact model,
representing one schedule; each family's encoder (``mlopt.models.<family>.warmstart:encode``)
builds it, :func:`encode_schedule` finds the encoder, :func:`best_start` produces the schedule
(the family's algorithms, each schedule checked, the best kept), and :func:`solve_warm` solves the
model with the start handed to the solver:

* ``highs``: highspy directly (``Highs.passModel`` of the shared linear form, then
  ``setSolution``: the dense solution for a full start, the sparse one -- which HiGHS completes
  itself -- for a partial start);
* ``scip``: PySCIPOpt from the linear form; a feasible full start is added as a solution
  (``addSol``: SCIP checks it when solving starts), otherwise the known values go in as a
  partial solution that SCIP's ``completesol`` heuristic completes;
* ``cpsat``: OR-Tools CP-SAT with ``AddHint`` (the integer model is built exactly as
  :mod:`mlopt.solvers.cpsat` builds it, by its own functions; CP-SAT runs in a child process,
  :mod:`mlopt.solvers._cpsat_worker`, because OR-Tools and highspy cannot share a process).

Before any solver runs, the start is checked against every row and bound of the linear form
(:func:`check_start`): ``full`` (every column has a value), ``feasible`` (integral where needed,
max violation <= ``START_TOL``) and its objective.  The outcome is recorded in
``SolveResult.options["warm_start"]`` and summarized in ``SolveResult.message``.

Never worse than the start: when a full start is feasible and the solver comes back with no
incumbent, or a worse one (a solver may drop a start it re-checks with its own tolerances), the
start itself is returned as the incumbent (loaded onto the variables) with the solver's bound;
the status is then ``feasible`` unless that bound closes the gap.  ``warm_start["used"]`` says
whose incumbent was returned (``"solver"`` or ``"start"``).

For ``mlopt solve W --warm-start SOURCE`` (an algorithm, ``best`` or a schedule file):
``start, cand = start_from(workload, family, model, SOURCE)`` then
``solve_warm(model, start, solver, time_limit=..., mip_gap=..., threads=...)``.
"""
from __future__ import annotations

import importlib
import math
import os
import subprocess
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping

import numpy as np
import pyomo.environ as pyo

from mlopt.errors import InputError
from mlopt.solve import SolveResult, Status, classify
from mlopt.solvers._matrix import LinearForm, compile_linear, load_solution

#: a full start is feasible when no row or bound is violated by more than this (absolute) and
#: every integer column is within it of an integer
START_TOL = 1e-6
SOLVERS = ("highs", "scip", "cpsat")


@dataclass
class StartCheck:
    """A start measured against the linear form of its model."""

    full: bool  # every column has a value
    given: int  # columns with a value
    columns: int
    feasible: bool  # full, integral and within START_TOL of every row and bound
    max_violation: float | None  # None for a partial start
    worst_row: str | None  # the most violated row (or "bound of <var>"), if any
    objective: float | None  # of the start (full starts only)
    unknown: int = 0  # keys of the start that are no column of the model (ignored)

    def to_dict(self) -> dict:
        """The check of a warm start as a dict."""
        return dict(self.__dict__)


def _vector(form: LinearForm, start: dict) -> tuple[np.ndarray, np.ndarray, int]:
    """(x, given mask, count of start keys that are no column)."""
    col = {id(v): j for j, v in enumerate(form.columns)}
    x = np.full(form.n_cols, np.nan)
    unknown = 0
    for var, val in start.items():
        j = col.get(id(var))
        if j is None:
            unknown += 1
            continue
        x[j] = float(val)
    given = ~np.isnan(x)
    return x, given, unknown


def check_start(form: LinearForm, start: dict) -> tuple[StartCheck, np.ndarray, np.ndarray]:
    """Measure ``start`` against ``form``: see :class:`StartCheck`.  Also returns (x, given)."""
    x, given, unknown = _vector(form, start)
    full = bool(given.all())
    if not full:
        return StartCheck(False, int(given.sum()), form.n_cols, False, None, None, None,
                          unknown), x, given
    if not np.all(np.isfinite(x)):
        return StartCheck(True, form.n_cols, form.n_cols, False, math.inf, "non-finite value",
                          None, unknown), x, given
    frac = np.abs(x - np.round(x)) * form.integer
    worst, where = 0.0, None
    if form.n_rows:
        act = form.activity(x)
        rv = np.maximum(form.row_lo - act, act - form.row_hi)
        i = int(np.argmax(rv))
        if rv[i] > worst:
            worst, where = float(rv[i]), form.row_names[i]
    if form.n_cols:
        bv = np.maximum(np.maximum(form.col_lb - x, x - form.col_ub), frac)
        j = int(np.argmax(bv))
        if bv[j] > worst:
            worst, where = float(bv[j]), f"bound or integrality of {form.columns[j].name}"
    return StartCheck(True, form.n_cols, form.n_cols, worst <= START_TOL, worst, where,
                      form.objective(x), unknown), x, given


def _better(sense: str, a: float, b: float) -> bool:
    """a strictly better than b (by more than float noise)."""
    eps = 1e-9 * max(1.0, abs(a), abs(b))
    return a > b + eps if sense == "max" else a < b - eps


# ---- HiGHS ----------------------------------------------------------------------------------
_HIGHS_LIMITS = ("kTimeLimit", "kIterationLimit", "kSolutionLimit", "kInterrupt",
                 "kObjectiveBound", "kObjectiveTarget", "kMemoryLimit", "kHighsInterrupt")


def _new_highs():
    """A silent ``highspy.Highs`` (:mod:`mlopt.solvers.quiet_highs`)."""
    from mlopt.solvers.quiet_highs import quiet_highs

    return quiet_highs()


def _highs(form, x, given, full_ok, time_limit, mip_gap, threads, options):
    """Solve with HiGHS from the start; an answer whose reported objective disagrees with its
    own solution's objective is not trusted (see :func:`_highs_once`)."""
    t0 = time.perf_counter()
    out = _highs_once(form, x, given, full_ok, time_limit, mip_gap, threads, options)
    if _consistent(form, out):
        return out
    # HiGHS 1.16 with presolve on, given a full start on some models (hetero's placement_ti,
    # hetero-tiny-0), reported "optimal" with objective and bound 8,631.08 while returning the
    # start's values (26,162.34, the true optimum): neither number can be used.  Presolve off
    # answers correctly there, so that is the one retry, in what is left of the time limit.
    left = None if time_limit is None else max(0.0, time_limit - (time.perf_counter() - t0))
    retry = _highs_once(form, x, given, full_ok, left, mip_gap, threads,
                        {**(options or {}), "presolve": "off"})
    if _consistent(form, retry):
        return retry
    kind, objective, bound, sol, name = retry
    objective = float(np.dot(form.c, sol) + form.c0)  # the solution's own value, no bound
    return "other", objective, None, sol, f"{name} (HiGHS's objective disagreed with its " \
                                          "solution; its bound is not used)"


def _consistent(form, out) -> bool:
    """The objective HiGHS reports is the objective of the solution it returns."""
    _, objective, _, sol, _ = out
    if sol is None or objective is None:
        return True
    own = float(np.dot(form.c, sol) + form.c0)
    return abs(own - objective) <= 1e-6 * max(1.0, abs(own))


def _highs_once(form, x, given, full_ok, time_limit, mip_gap, threads, options):
    import highspy

    h = _new_highs()
    h.setOptionValue("output_flag", False)
    lp = highspy.HighsLp()
    lp.num_col_ = form.n_cols
    lp.num_row_ = form.n_rows
    lp.col_cost_ = np.asarray(form.c, dtype=float)
    lp.col_lower_ = np.where(np.isinf(form.col_lb), -highspy.kHighsInf, form.col_lb)
    lp.col_upper_ = np.where(np.isinf(form.col_ub), highspy.kHighsInf, form.col_ub)
    lp.row_lower_ = np.where(np.isinf(form.row_lo), -highspy.kHighsInf, form.row_lo)
    lp.row_upper_ = np.where(np.isinf(form.row_hi), highspy.kHighsInf, form.row_hi)
    lp.offset_ = float(form.c0)
    lp.sense_ = highspy.ObjSense.kMaximize if form.sense == "max" else highspy.ObjSense.kMinimize
    lp.a_matrix_.format_ = highspy.MatrixFormat.kRowwise
    lp.a_matrix_.num_col_ = form.n_cols
    lp.a_matrix_.num_row_ = form.n_rows
    lp.a_matrix_.start_ = np.asarray(form.indptr, dtype=np.int32)
    lp.a_matrix_.index_ = np.asarray(form.indices, dtype=np.int32)
    lp.a_matrix_.value_ = np.asarray(form.data, dtype=float)
    if form.integer.any():
        lp.integrality_ = [highspy.HighsVarType.kInteger if i else
                           highspy.HighsVarType.kContinuous for i in form.integer]
    h.passModel(lp)
    if time_limit is not None:
        h.setOptionValue("time_limit", float(max(time_limit, 0.0)))
    h.setOptionValue("mip_rel_gap", float(mip_gap))
    if threads is not None:
        h.setOptionValue("threads", int(threads))
    for key, val in (options or {}).items():
        if h.setOptionValue(key, val) != highspy.HighsStatus.kOk:
            raise InputError("not a HiGHS option, or a bad value for it",
                             field=f"options.{key}", value=val)
    if given.any():
        if full_ok:
            sol = highspy.HighsSolution()
            sol.col_value = list(np.where(form.integer, np.round(x), x))
            sol.value_valid = True
            h.setSolution(sol)
        else:
            idx = np.flatnonzero(given).astype(np.int32)
            vals = np.where(form.integer[idx], np.round(x[idx]), x[idx]).astype(float)
            h.setSolution(len(idx), idx, vals)
    from mlopt.solvers.progress import attach_highs, current

    if current() is not None:  # a progress display listening (incumbent and bound)
        attach_highs(h, current())
    from mlopt.solvers.log import attach_highs_log, log_stream

    if log_stream() is not None:  # --log-solver
        attach_highs_log(h, log_stream())
    from mlopt.solvers.quiet_highs import run_highs

    run_highs(h)
    status = h.getModelStatus()
    name = h.modelStatusToString(status)
    info = h.getInfo()
    ms = highspy.HighsModelStatus
    if status == ms.kInfeasible:
        return "infeasible", None, None, None, name
    if status in (ms.kUnbounded, ms.kUnboundedOrInfeasible):
        return "unbounded", None, None, None, name
    sol = None
    objective = None
    if info.primal_solution_status == 2:  # kSolutionStatusFeasible
        sol = np.asarray(h.getSolution().col_value, dtype=float)
        objective = float(info.objective_function_value)
    bound = None
    if form.integer.any():
        b = float(info.mip_dual_bound)
        bound = b if math.isfinite(b) and abs(b) < highspy.kHighsInf else None
    elif status == ms.kOptimal and objective is not None:
        bound = objective
    limit = any(status == getattr(ms, n) for n in _HIGHS_LIMITS if hasattr(ms, n))
    kind = "optimal" if status == ms.kOptimal else ("limit" if limit else "other")
    return kind, objective, bound, sol, name


def _highs_version() -> str:
    import importlib.metadata

    return importlib.metadata.version("highspy")


# ---- SCIP -----------------------------------------------------------------------------------
_SCIP_LIMITS = {"timelimit", "gaplimit", "nodelimit", "totalnodelimit", "stallnodelimit",
                "memlimit", "sollimit", "bestsollimit", "restartlimit", "userinterrupt",
                "primallimit", "duallimit", "terminate"}


def _scip(form, x, given, full_ok, time_limit, mip_gap, threads, options, note):
    from mlopt.solvers.scip import scip_model

    scip, cols = scip_model(form)
    inf = scip.infinity()
    if time_limit is not None:
        scip.setParam("limits/time", max(float(time_limit), 0.0))
    scip.setParam("limits/gap", float(mip_gap))
    for key, val in (options or {}).items():
        try:
            scip.setParam(key, val)
        except Exception as err:  # noqa: BLE001 (PySCIPOpt raises plain exceptions)
            raise InputError(f"not a SCIP parameter, or a bad value: {err}",
                             field=f"options.{key}", value=val) from None
    if threads is not None and int(threads) > 1:
        raise InputError("warm starts run SCIP's sequential solver only", field="threads",
                         value=threads)
    xr = np.where(form.integer, np.round(x), x)
    if given.any():
        accepted = False
        if full_ok:
            sol = scip.createSol()
            for j, v in enumerate(cols):
                scip.setSolVal(sol, v, float(xr[j]))
            accepted = bool(scip.addSol(sol))
            note["scip_stored"] = accepted
        if not accepted:
            sol = scip.createPartialSol()
            for j in np.flatnonzero(given):
                scip.setSolVal(sol, cols[j], float(xr[j]))
            scip.addSol(sol)
            note["scip_partial"] = True
    from mlopt.solvers.progress import attach_scip, current

    # as the cold path does: progress.reports says SCIP on one thread reports, and the
    # bracket reads a silent exact model as one with no bound yet (patience)
    if current() is not None:
        attach_scip(scip, current())
    from mlopt.solvers.log import log_stream, scip_log

    with scip_log(scip, log_stream()):  # --log-solver
        scip.optimize()
    status = scip.getStatus()
    if status == "infeasible":
        return "infeasible", None, None, None, status
    if status in ("unbounded", "inforunbd"):
        return "unbounded", None, None, None, status
    objective = sol_x = None
    if scip.getNSols() > 0:
        best = scip.getBestSol()
        objective = float(scip.getSolObjVal(best))
        sol_x = np.asarray([scip.getSolVal(best, v) for v in cols], dtype=float)
    db = scip.getDualbound()
    bound = float(db) if db is not None and abs(db) < inf else None
    kind = "optimal" if status == "optimal" else ("limit" if status in _SCIP_LIMITS else "other")
    return kind, objective, bound, sol_x, status


def _scip_version() -> str:
    from mlopt.solvers.scip import ScipBackend

    return ScipBackend.version()


# ---- CP-SAT ---------------------------------------------------------------------------------
def _cpsat_payload(form: LinearForm, time_limit, mip_gap, threads, options):
    """The integer model of :class:`mlopt.solvers.cpsat.CpSatBackend` (the backend's own
    :func:`~mlopt.solvers.cpsat.integer_model`), as (payload, scale, delta, lb_i, ub_i);
    payload None when the integer model is infeasible before solving."""
    from mlopt.solvers import cpsat as C

    options = dict(options or {})
    forced_scale = options.pop("objective_scale", None)
    m = C.integer_model(form, time_limit, mip_gap, threads, options, forced_scale)
    if m.payload is not None:
        m.payload["nz"] = len(m.payload["objective"][0])
    return m.payload, m.scale, m.delta, m.lb, m.ub


def _run_hint_worker(payload: dict, time_limit) -> dict:
    """Solve ``payload`` (with its ``hint``) in the backend's CP-SAT child process."""
    from mlopt.solvers import cpsat as C

    return C._run_worker(payload, time_limit)


def _cpsat(form, x, given, full_ok, time_limit, mip_gap, threads, options, note):
    payload, scale, delta, lb_i, ub_i = _cpsat_payload(form, time_limit, mip_gap, threads,
                                                       options)
    if payload is None:
        return "infeasible", None, None, None, "empty integer domain or row"
    idx = [int(j) for j in np.flatnonzero(given)]
    payload["hint"] = [idx, [int(min(max(round(x[j]), lb_i[j]), ub_i[j])) for j in idx]]
    note["cpsat_hinted"] = len(idx)
    try:
        out = _run_hint_worker(payload, time_limit)
    except subprocess.TimeoutExpired:
        return "limit", None, None, None, "worker killed after time limit"
    name = out["status"]
    note["cpsat_version"] = out.get("version", "")
    if name == "INFEASIBLE":
        return "infeasible", None, None, None, name
    if name in ("MODEL_INVALID", "WORKER_ERROR"):
        raise RuntimeError(out.get("invalid") or out.get("message", name))
    sign = -1 if form.sense == "max" else 1
    bound = None
    if payload["nz"]:
        b_int = sign * float(out["bound"])
        if math.isfinite(b_int):
            bound = b_int / scale + form.c0 + (delta if form.sense == "max" else -delta)
    else:
        bound = form.c0 + (delta if form.sense == "max" else -delta)
    objective = sol = None
    if name in ("OPTIMAL", "FEASIBLE"):
        sol = np.asarray(out["solution"], dtype=float)
        objective = form.objective(sol)
    kind = "optimal" if name == "OPTIMAL" else ("limit" if name in ("FEASIBLE", "UNKNOWN")
                                                  else "other")
    return kind, objective, bound, sol, name


def _cpsat_version() -> str:
    import importlib.metadata

    return importlib.metadata.version("ortools")


# ---- the entry points -----------------------------------------------------------------------
def solve_warm(model: pyo.ConcreteModel, start: dict, solver: str = "highs",
               time_limit: float | None = None, mip_gap: float = 0.0, threads: int | None = 1,
               *, options: dict | None = None) -> SolveResult:
    """Solve ``model`` with the start ``start`` ({VarData: value}); see the module docstring.

    Same result type and honesty rules as :func:`mlopt.solve.solve` (optimal only with a
    closed gap); the incumbent is loaded onto the Pyomo variables.  ``options``: solver
    parameters by the solver's own names (e.g. ``{"mip_max_nodes": 1}`` for HiGHS,
    ``{"limits/nodes": 1}`` for SCIP).  The start's check is in
    ``result.options["warm_start"]`` (:class:`StartCheck` fields plus ``used``)."""
    if solver not in SOLVERS:
        raise InputError(f"warm starts support {', '.join(SOLVERS)}", field="solver",
                         value=solver)
    if not isinstance(start, Mapping):
        raise InputError("a warm start is a mapping {variable: value}", field="start",
                         value=type(start).__name__)
    if time_limit is not None and not (isinstance(time_limit, (int, float))
                                       and not isinstance(time_limit, bool)
                                       and math.isfinite(time_limit) and time_limit >= 0):
        raise InputError("time limit must be a finite number >= 0", field="time_limit",
                         value=time_limit)
    if not (isinstance(mip_gap, (int, float)) and not isinstance(mip_gap, bool)
            and math.isfinite(mip_gap) and 0 <= mip_gap <= 1):
        raise InputError("mip_gap must be a number in [0, 1]", field="mip_gap", value=mip_gap)
    if solver == "scip" and options and "objlimit" in options:
        # a start no better than the limit would be dropped by SCIP, and its "infeasible"
        # then read below as a solver error (the start satisfies every row) or the start
        # kept as the incumbent although the limit excludes it
        raise InputError("SCIP's objective limit is not taken with a warm start",
                         field="options.objlimit", value=options["objlimit"])
    if options:  # by the backend's own option check: an unknown name is never ignored
        from mlopt.solvers import get_backend

        backend = get_backend(solver)
        try:
            backend.check_options(dict(options))
        except InputError as err:
            raise InputError(err.message, field=f"options.{err.field}", value=err.value) \
                from None
    t0 = time.perf_counter()
    form = compile_linear(model)
    chk, x, given = check_start(form, start)
    note: dict[str, Any] = chk.to_dict()
    settings: dict[str, Any] = {"time_limit": time_limit, "mip_gap": mip_gap,
                                "threads": threads, **({"options": dict(options)} if options
                                                       else {}), "warm_start": note}
    version = {"highs": _highs_version, "scip": _scip_version, "cpsat": _cpsat_version}[solver]()

    def result(status, objective=None, bound=None, gap=None, termination="", message=""):
        return SolveResult(status, objective, bound, gap, time.perf_counter() - t0, solver,
                           version, form.sense, termination, settings, message)

    start_msg = (f"warm start: {'full' if chk.full else 'partial'} "
                 f"({chk.given}/{chk.columns} columns)"
                 + ("" if not chk.full else
                    (f", feasible, objective {chk.objective:.12g}" if chk.feasible else
                     f", infeasible (max violation {chk.max_violation:.3g} at {chk.worst_row})")))
    try:
        if solver == "highs":
            kind, obj, bound, sol, term = _highs(form, x, given, chk.feasible, time_limit,
                                                 mip_gap, threads, options)
        elif solver == "scip":
            kind, obj, bound, sol, term = _scip(form, x, given, chk.feasible, time_limit,
                                                mip_gap, threads, options, note)
        else:
            kind, obj, bound, sol, term = _cpsat(form, x, given, chk.feasible, time_limit,
                                                 mip_gap, threads, options, note)
    except InputError:
        raise
    except Exception as err:  # a solver crash is a result, not a traceback
        return result(Status.ERROR, termination="exception", message=f"{start_msg}; {err}")
    if kind == "infeasible":
        msg = start_msg + ("; the solver claims infeasibility although the start satisfies "
                           "every row: solver error" if chk.feasible else "")
        return result(Status.ERROR if chk.feasible else Status.INFEASIBLE, termination=term,
                      message=msg)
    if kind == "unbounded":
        return result(Status.UNBOUNDED, termination=term, message=start_msg)
    note["used"] = "solver"
    from mlopt.solvers.result import trusted_bound

    bound = trusted_bound(bound, kind == "optimal", kind == "limit")
    if chk.feasible and (obj is None or _better(form.sense, chk.objective, obj)):
        # the solver dropped (or did not beat) a start that satisfies every row: keep it
        obj, sol = chk.objective, np.where(form.integer, np.round(x), x)
        note["used"] = "start"
    if sol is not None:
        load_solution(form, sol)
    if obj is not None and bound is None:
        # no proven bound (e.g. no time to solve the root): an incumbent, nothing proven
        # (classify() itself would subtract None there)
        status, gap = Status.FEASIBLE, math.inf
    else:
        status, gap = classify(form.sense, obj, bound, proven_optimal=(kind == "optimal"),
                               limit_reached=(kind == "limit"))
    msg = start_msg + ("; returned the start (the solver found nothing better)"
                       if note["used"] == "start" else "")
    if status == Status.ERROR:
        return result(status, None, bound, None, term, msg)
    return result(status, obj, bound, gap, term, msg)


def encoder(family: str) -> Callable[..., dict]:
    """The family's encoder ``encode(model, workload, schedule) -> {VarData: value}``."""
    from mlopt.families import get_family

    fam = get_family(family)
    name = f"mlopt.models.{fam.name}.warmstart"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as err:
        if err.name not in (name, f"mlopt.models.{fam.name}"):
            raise  # the encoder exists but is broken: a bug, not an input error
        raise InputError("this family has no warm-start encoder", field="family",
                         value=family) from None
    return module.encode


def encode_schedule(family: str, model: pyo.ConcreteModel, workload, schedule) -> dict:
    """The start representing ``schedule`` in ``model`` (the family's exact default model)."""
    return encoder(family)(model, workload, schedule)


@dataclass
class Candidate:
    algorithm: str
    schedule: Any
    objective: float  # the checker's


def best_start(workload, family: str, algorithms: Iterable[str] | None = None,
               ) -> Candidate | None:
    """Run the family's algorithms (``get_family(F).run(name, workload, seed=0)``; all of them
    by default), check every schedule with the family's checker and return the best feasible
    one (ties: the first in name order), or None when none is feasible.  An algorithm that
    raises InputError (it does not apply to this workload) is skipped; a named algorithm the
    family does not have is an InputError."""
    from mlopt.families import get_family

    fam = get_family(family)
    names = sorted(fam.algorithms_) if algorithms is None else list(algorithms)
    for name in names:
        fam.algorithm_record(name)  # unknown -> InputError
    best = None
    for name in names:
        try:
            sched = fam.run(name, workload, seed=0)
        except InputError:
            continue
        res = fam.check(workload, sched)
        if not res.feasible or res.objective is None or not math.isfinite(res.objective):
            continue
        if best is None or _better(fam.sense, float(res.objective), best.objective):
            best = Candidate(name, sched, float(res.objective))
    return best


def start_from(workload, family: str, model: pyo.ConcreteModel, source) -> tuple[
        Mapping, Candidate]:
    """The start for ``mlopt solve W --warm-start SOURCE``: ``source`` is an algorithm name of
    the family, ``"best"`` (:func:`best_start` over all of them), a :class:`Schedule`, or the
    path of a schedule file.  The schedule is checked first; one the checker rejects is an
    InputError (field ``warm_start``), as is an unknown algorithm or unreadable file.  Returns
    (start for ``model``, the checked schedule with its objective)."""
    from mlopt.families import get_family
    from mlopt.schedule import Schedule

    fam = get_family(family)
    if isinstance(source, Schedule):
        sched, label = source, "schedule"
    elif isinstance(source, str) and source == "best":
        cand = best_start(workload, family)
        if cand is None:
            raise InputError("no algorithm of this family gives a feasible schedule here",
                             field="warm_start", value=source)
        return encode_schedule(family, model, workload, cand.schedule), cand
    elif isinstance(source, str) and source in fam.algorithms_:
        sched, label = fam.run(source, workload, seed=0), source
    elif isinstance(source, (str, os.PathLike)) and os.path.isfile(source):
        from mlopt.pipeline import check_schedule_family

        sched, label = Schedule.load(source), str(source)
        check_schedule_family(fam, sched, label)  # another family's: one line naming both
    else:
        raise InputError(f"neither an algorithm of family {family} (known: "
                         f"{', '.join(sorted(fam.algorithms_))}, best) nor a schedule file",
                         field="warm_start", value=str(source))
    res = fam.check(workload, sched)
    if not res.feasible:
        from mlopt.pipeline import first_violation, made_for_another

        raise InputError(f"the warm-start schedule is infeasible ({len(res.violations)} "
                         f"violations{first_violation(res)}){made_for_another(sched, workload)}",
                         field="warm_start", value=label)
    return encode_schedule(family, model, workload, sched), Candidate(label, sched,
                                                                      float(res.objective))
