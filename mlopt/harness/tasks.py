"""One harness task: (instance spec, seed) -> checked results for every method, as plain rows.

:func:`run_task` is a top-level function of a plain ``dict`` (JSON-representable) and returns a
plain ``dict``, so the local process pool and Dask workers run it alike.  It never touches the
results store: the parent process writes the rows it returns, one transaction per task.

A task

1. generates the workload with the family's preset (``preset(seed=seed, **params)``) and runs the
   family's ``validate``;
2. builds the offline model, solves it through :func:`mlopt.solve.solve`, extracts the incumbent
   schedule and CHECKS it with the family checker (the checker's objective is reported; the
   solver's objective and bound go to ``extra``);
3. runs each algorithm as ``fn(workload, seed=seed, **options)`` and checks its schedule;
4. computes the requested bounds on OPT;
5. combines everything into a bracket on OPT (:func:`~mlopt.harness.ratios.opt_bracket`) and the
   ratio interval of every algorithm (:func:`~mlopt.harness.ratios.ratio_interval`).

OPT is *proven* (point ratios) only when the solver status is ``optimal``, the checker accepts
the solver's schedule, the checked objective equals the solver's objective within tolerance
(else ``extra.objective_mismatch``) and no checked schedule of an algorithm beats it (else
``extra.optimum_beaten``: the model is a restriction of the checked problem) and, when the spec
sets ``[offline] verify``, a second solver agreed (``verified``; a disagreement is status
``disputed``, whose bound is the looser of the two solvers' and whose second schedule, checked,
is one more primal value).  Otherwise the bracket is [best checked feasible objective, best
bound] (max; mirrored for min).
Every feasible checked schedule — the MILP incumbent and every algorithm's — is a valid primal
value, except a speed-augmented one (the family's ``Algorithm.check_options`` for the run's
options give ``speed > 1``: it was checked at that speed, a different problem; ``extra.speed``
marks its row; a schedule's own ``meta`` never sets the speed).  A bound contradicted by a checked schedule (max: bound < a feasible objective) is
flagged ``violated`` and left out; the MILP's own bound is left out when the checker rejects the
MILP's schedule (the model then does not describe the checked problem).

Bound methods (the hook for families): ``family.bounds`` — if the family has that attribute —
maps a name to ``fn(workload, **options) -> float | dict | None``; the harness also passes
``seed=``, ``solver=``, ``time_limit=``, ``threads=`` when the function's signature accepts them.
The value is a certified bound on OPT (upper for max, lower for min); a dict must hold it under
``"bound"`` and may add ``"status"`` and JSON-able details (kept in ``extra``); ``None`` means no
bound was obtained.  Built-in: ``lp_relaxation`` (LP relaxation of the offline model).
"""
from __future__ import annotations

import datetime as _dt
import importlib
import inspect
import json
import math
import os
import platform
import socket
import time
import traceback
import warnings
from typing import TYPE_CHECKING, Any, Callable

from mlopt.errors import InputError
from mlopt.harness import ratios

if TYPE_CHECKING:  # pragma: no cover
    from mlopt.families.base import Family

#: row columns produced by a task (the store adds nothing but its own primary key order)
ROW_FIELDS = (
    "key", "task_key", "spec", "instance_id", "content_hash", "family", "preset", "params",
    "seed", "method_kind", "method", "status", "objective", "feasible", "proven", "bound_low",
    "bound_high", "ratio_low", "ratio_high", "runtime_s", "solver", "solver_version",
    "mlopt_version", "python_version", "numpy_version", "timestamp", "extra", "timing",
    "verified", "verified_by",  # added in store schema 2 (hence last: ALTER TABLE appends)
)

# ---- families -----------------------------------------------------------------------------------


def family_module(family) -> str | None:
    """Where a family is defined: a worker imports it when the family is not built in."""
    return getattr(family, "module", None) or getattr(family.check, "__module__", None)


def resolve_family(name: str, module_hint: str | None = None) -> Family:
    """The registered family ``name``; imports ``module_hint`` first when it is not registered.

    Families registered at run time (e.g. in tests) are found without loading the built-in ones.
    """
    from mlopt.families.base import FAMILIES, get_family

    if name in FAMILIES:
        return FAMILIES[name]
    if module_hint:
        importlib.import_module(module_hint)
        if name in FAMILIES:
            return FAMILIES[name]
    try:
        return get_family(name)
    except ImportError as err:  # a built-in family failed to import: say so, in one line
        raise InputError(f"unknown family (registered: {', '.join(sorted(FAMILIES)) or 'none'}; "
                         f"loading the built-in families failed: {err})", field="family",
                         value=name) from None


# ---- environment ----------------------------------------------------------------------------------


def environment() -> dict[str, str]:
    """The versions stamped on every result row."""
    import numpy

    import mlopt

    return {"mlopt_version": mlopt.__version__, "python_version": platform.python_version(),
            "numpy_version": numpy.__version__}


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="milliseconds")


def _err(err: BaseException) -> str:
    text = f"{type(err).__name__}: {err}"
    return text if len(text) <= 500 else text[:497] + "..."


def _violations(check, limit: int = 5) -> list[dict]:
    return [{k: v for k, v in vi.__dict__.items() if v is not None}
            for vi in check.violations[:limit]]


def _call(fn: Callable, *args, context: dict, **options):
    """Call ``fn(*args, **options)`` adding the context keywords its signature accepts."""
    try:
        params = inspect.signature(fn).parameters
        takes_all = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
        extra = {k: v for k, v in context.items() if takes_all or k in params}
    except (TypeError, ValueError):
        extra = {}
    return fn(*args, **extra, **options)


# ---- built-in bounds ----------------------------------------------------------------------------


def lp_relaxation_bound(workload, *, family, model, model_options, solver, time_limit, threads,
                        solver_options, **_) -> dict[str, Any]:
    """LP relaxation of the offline model: a bound on OPT when solved to optimality."""
    import pyomo.environ as pyo

    from mlopt.solve import Status, solve

    m = family.model(model)(workload, **model_options)
    pyo.TransformationFactory("core.relax_integer_vars").apply_to(m)
    res = solve(m, solver, time_limit=time_limit, mip_gap=0.0, threads=threads,
                options=solver_options)
    if res.status == Status.OPTIMAL:
        bound = res.objective
    else:  # an LP stopped early: only a proven dual bound is a bound
        bound = res.bound
    return {"bound": bound, "status": res.status.value}


BUILTIN_BOUNDS: dict[str, Callable[..., Any]] = {"lp_relaxation": lp_relaxation_bound}


def _bound_value(ret) -> tuple[float | None, str | None, dict]:
    if ret is None:
        return None, None, {}
    if isinstance(ret, dict):
        details = {k: v for k, v in ret.items() if k not in ("bound", "status", "schedule")}
        value, status = ret.get("bound"), ret.get("status")
    elif isinstance(ret, (int, float)) and not isinstance(ret, bool):
        value, status, details = ret, None, {}
    elif hasattr(ret, "bound"):
        value, status, details = ret.bound, getattr(ret, "status", None), {}
    else:
        raise TypeError(f"a bound method must return a number, a dict or None, not "
                        f"{type(ret).__name__}")
    if value is not None:
        value = float(value)
        if math.isnan(value):
            value = None
    return value, (None if status is None else str(status)), details


# ---- the task -----------------------------------------------------------------------------------


def run_task(task: dict) -> dict:
    """Run one task description (see :func:`mlopt.harness.runner.build_tasks`); return rows.

    Exceptions raised by the generator, the solver, an algorithm, a checker or a bound method are
    results (rows with status ``error``); only infrastructure problems (the family cannot be
    found, the worker dies) escape, and then nothing is recorded for the task.

    Warnings behave as in a fresh worker process wherever the task runs: the CLI turns NumPy's
    RuntimeWarning into an error (bad input is one line), which must not turn a warning inside
    an algorithm into an error row when a spec runs in the calling process (``--workers 0``).
    """
    with warnings.catch_warnings():
        warnings.simplefilter("default", RuntimeWarning)
        return _run_task(task)


def _run_task(task: dict) -> dict:
    t_start, c_start = time.perf_counter(), time.process_time()
    family = resolve_family(task["family"], task.get("family_module"))
    env = environment()
    sense = family.sense
    seed = int(task["seed"])
    base = {
        "task_key": task["task_key"], "spec": task["spec"], "instance_id": task["instance_id"],
        "content_hash": None, "family": family.name, "preset": task["preset"],
        "params": json.dumps(task["params"], sort_keys=True, separators=(",", ":")),
        "seed": seed, **env,
    }
    timing_host = {"host": socket.gethostname(), "pid": os.getpid()}

    def row(kind: str, method: str, **fields) -> dict:
        r = {f: None for f in ROW_FIELDS}
        r.update(base)
        r.update(key=f"{task['task_key']}/{kind}/{method}", method_kind=kind, method=method)
        extra = fields.pop("extra", {})
        timing = fields.pop("timing", {})
        r.update(fields)
        r["extra"] = json.dumps(extra, sort_keys=True, default=str)
        r["timing"] = json.dumps({**timing, **timing_host}, sort_keys=True)
        r["timestamp"] = _now()
        return r

    # 1. the instance
    t0 = time.perf_counter()
    try:
        workload = family.preset(task["preset"])(seed=seed, **task["params"])
        family.validate(workload)
        content_hash = workload.content_hash()
    except Exception as err:
        r = row("instance", task["preset"], status="error",
                extra={"error": _err(err), "traceback": traceback.format_exc(limit=-3)},
                timing={"generate_s": time.perf_counter() - t0})
        return _finish(task, [r], t_start, c_start)
    timing_host["generate_s"] = time.perf_counter() - t0
    base["content_hash"] = content_hash

    off = task["offline"]
    solver_ctx = {"solver": task["solver"]["name"], "threads": task["solver"]["threads"],
                  "time_limit": off["time_limit"], "seed": seed}
    # 2. offline MILP
    offline = (_run_offline(family, workload, task) if off["method"] == "exact" else
               _run_bracket(family, workload, task) if off["method"] == "bracket" else None)
    # 3. algorithms
    algs = [_run_algorithm(family, workload, a, seed) for a in task["algorithms"]]
    # 4. bounds
    bounds = [_run_bound(family, workload, b, task, solver_ctx) for b in task["bounds"]]

    # 5. combine: primal values, dual bounds, consistency
    primal = []
    if offline is not None and offline["feasible"]:
        primal.append(offline["objective"])
    second = ((offline or {}).get("extra", {}).get("verification") or {}).get("second") or {}
    if second.get("checked_feasible"):  # the verifying solver's schedule, checked
        primal.append(second["checked_objective"])
    # a speed-augmented run (checked at speed > 1) solves an easier problem: its checked
    # objective is no feasible value of OPT, so it stays out of the bracket (ratios still apply)
    primal += [a["objective"] for a in algs if a["feasible"] and not a["extra"].get("speed")]
    best_primal = (max(primal) if sense == "max" else min(primal)) if primal else None

    def contradicted(bound: float) -> bool:  # a checked schedule is better than the bound
        return beats(sense, best_primal, bound)

    dual = []
    proven_opt = None
    if offline is not None:
        ex = offline["extra"]
        sb = ex.get("solver_bound")
        if sb is not None and math.isfinite(sb):
            if offline["feasible"] is False:
                ex["solver_bound_excluded"] = "the checker rejects the solver's schedule"
            elif contradicted(sb):
                ex["solver_bound_excluded"] = "contradicted by a checked feasible schedule"
            else:
                dual.append(sb)
        if offline["status"] == "optimal" and offline["feasible"]:
            if not ratios.close(offline["objective"], ex["solver_objective"]):
                ex["objective_mismatch"] = True  # the model's objective is not the checker's
            elif beats(sense, best_primal, offline["objective"]):
                ex["optimum_beaten"] = best_primal  # a checked schedule beats the "optimum"
            elif off.get("verify") and not offline["verified"]:
                pass  # the spec requires a second solver's agreement for a point value
            else:
                proven_opt = offline["objective"]
    for b in bounds:
        if b["value"] is None:
            continue
        if contradicted(b["value"]):
            b["status"] = "violated"
            b["extra"]["contradicted_by"] = best_primal
        else:
            dual.append(b["value"])
    bracket = ratios.opt_bracket(sense, proven_opt=proven_opt, primal=primal, dual=dual)

    for a in algs:
        _diagnose(family, workload, a, bracket)

    rows = []
    if offline is not None:
        rows.append(row("offline", offline["method"], status=offline["status"],
                        objective=offline["objective"], feasible=offline["feasible"],
                        proven=bracket.proven, bound_low=bracket.low, bound_high=bracket.high,
                        runtime_s=offline["runtime_s"], solver=offline["solver"],
                        solver_version=offline["solver_version"], extra=offline["extra"],
                        timing=offline["timing"], verified=offline["verified"],
                        verified_by=offline["verified_by"]))
    for b in bounds:
        low, high = (None, b["value"]) if sense == "max" else (b["value"], None)
        rows.append(row("bound", b["name"], status=b["status"], bound_low=low, bound_high=high,
                        runtime_s=b["runtime_s"], solver=b["solver"],
                        solver_version=b["solver_version"], extra=b["extra"], timing={}))
    for a in algs:
        r_low, r_high = (ratios.ratio_interval(sense, bracket, a["objective"])
                         if a["feasible"] else (None, None))
        rows.append(row("algorithm", a["label"], status=a["status"], objective=a["objective"],
                        feasible=a["feasible"], proven=bracket.proven, bound_low=bracket.low,
                        bound_high=bracket.high, ratio_low=r_low, ratio_high=r_high,
                        runtime_s=a["runtime_s"], extra=a["extra"], timing=a["timing"],
                        verified=None if offline is None else offline["verified"],
                        verified_by=None if offline is None else offline["verified_by"]))
    return _finish(task, rows, t_start, c_start)


def _finish(task: dict, rows: list[dict], t_start: float, c_start: float) -> dict:
    """Stamp every row's timing with the whole task's wall and CPU time (this process)."""
    wall, cpu = time.perf_counter() - t_start, time.process_time() - c_start
    for r in rows:
        r["timing"] = json.dumps({**json.loads(r["timing"]), "task_wall_s": wall,
                                  "task_cpu_s": cpu}, sort_keys=True)
    return {"task_key": task["task_key"], "rows": rows, "elapsed_s": wall, "cpu_s": cpu}


def beats(sense: str, value: float | None, reference: float) -> bool:
    """``value`` is strictly better than ``reference`` (beyond the comparison tolerance)."""
    if value is None:
        return False
    better = value - reference if sense == "max" else reference - value
    return better > 0 and not ratios.close(value, reference)


def _run_offline(family, workload, task) -> dict:
    from mlopt.solve import solve

    off, sv = task["offline"], task["solver"]
    model_name = off["model"]
    out = {"method": model_name, "status": "error", "objective": None, "feasible": None,
           "runtime_s": None, "solver": sv["name"], "solver_version": None, "extra": {},
           "timing": {}, "verified": None, "verified_by": None}
    t0 = time.perf_counter()
    try:
        m = family.model(model_name)(workload, **off["model_options"])
        t1 = time.perf_counter()
        res = solve(m, sv["name"], time_limit=off["time_limit"], mip_gap=off["mip_gap"],
                    threads=sv["threads"], options=sv["options"])
        t2 = time.perf_counter()
    except Exception as err:
        out["extra"] = {"error": _err(err), "traceback": traceback.format_exc(limit=-3)}
        out["timing"] = {"offline_total_s": time.perf_counter() - t0}
        return out
    out.update(status=res.status.value, runtime_s=res.runtime_s, solver=res.solver,
               solver_version=res.solver_version)
    out["extra"] = {"solver_objective": res.objective, "solver_bound": res.bound, "gap": res.gap,
                    "termination": res.termination, "message": res.message}
    out["timing"] = {"build_s": t1 - t0, "solve_wall_s": t2 - t1}
    if res.has_solution:
        try:
            t3 = time.perf_counter()
            schedule = family.extract[model_name](m, workload)
            t4 = time.perf_counter()
            check = family.check(workload, schedule)
            t5 = time.perf_counter()
        except Exception as err:
            out["extra"].update(error=_err(err), traceback=traceback.format_exc(limit=-3))
            out["status"] = "error"
            return out
        out["timing"].update(extract_s=t4 - t3, check_s=t5 - t4)
        out["objective"] = check.reported_objective  # None when infeasible
        out["feasible"] = bool(check.feasible)
        out["extra"]["admitted"] = len(schedule.admitted)
        if not check.feasible:
            out["extra"]["violations"] = _violations(check)
            out["extra"]["partial_objective"] = check.partial_objective
    if off.get("verify"):
        _verify_offline(family, workload, task, m, res, out)
    return out


def _run_bracket(family, workload, task) -> dict:
    """``[offline] method = "bracket"``: :func:`mlopt.bracket.bracket` within the time limit.
    The row is read like an exact solve's: ``objective`` is the best checked schedule's,
    ``solver_bound`` the certified dual end, status ``optimal`` only with a proof (then
    ``verified``), else ``interval``."""
    from mlopt.bracket import bracket

    off, sv = task["offline"], task["solver"]
    out = {"method": "bracket", "status": "error", "objective": None, "feasible": None,
           "runtime_s": None, "solver": sv["name"], "solver_version": None, "extra": {},
           "timing": {}, "verified": None, "verified_by": None}
    t0 = time.perf_counter()
    try:
        b = bracket(workload, family=family.name, time_limit=off["time_limit"] or 60.0,
                    solver=sv["name"], threads=sv["threads"] or 1)
    except Exception as err:
        out["extra"] = {"error": _err(err), "traceback": traceback.format_exc(limit=-3)}
        out["timing"] = {"offline_total_s": time.perf_counter() - t0}
        return out
    primal = b.low if b.sense == "max" else b.high
    dual = b.high if b.sense == "max" else b.low
    out.update(status="optimal" if b.status == "optimal" else b.status,
               objective=primal, feasible=primal is not None, runtime_s=b.elapsed_s,
               verified=b.status == "optimal", verified_by=b.proof)
    d = b.to_dict()
    out["extra"] = {"solver_objective": primal, "solver_bound": dual, "gap": d["gap"],
                    "low_source": b.low_source, "high_source": b.high_source,
                    "sources": d["sources"], "proof": b.proof}
    out["timing"] = {"bracket_wall_s": time.perf_counter() - t0}
    return out


def _verify_offline(family, workload, task, m, res, out: dict) -> None:
    """``[offline] verify``: a second solver re-solves an optimum (see
    :func:`mlopt.pipeline.verify_offline`); the row gets ``verified``/``verified_by``, a dispute
    turns the status into ``disputed`` with the looser of both bounds."""
    from mlopt.pipeline import verify_offline

    off, sv = task["offline"], task["solver"]
    out["verified"] = False
    if res.status.value != "optimal" or not out["feasible"]:
        out["extra"]["verification"] = {
            "outcome": "not_verified",
            "reason": f"nothing to verify: status {out['status']}, checked feasible "
                      f"{out['feasible']}"}
        return
    t0 = time.perf_counter()
    try:
        v = verify_offline(family, off["model"], m, workload, res, off["verify"],
                           off["time_limit"], sv["threads"])
    except Exception as err:
        out["extra"]["verification"] = {"outcome": "not_verified", "reason": _err(err)}
        return
    finally:
        out["timing"]["verify_s"] = time.perf_counter() - t0
    out["extra"]["verification"] = v.to_dict()
    out["verified"], out["verified_by"] = v.verified, v.verified_by
    out["status"] = res.status.value
    out["extra"].update(solver_bound=res.bound, gap=res.gap)


def _run_algorithm(family, workload, a: dict, seed: int) -> dict:
    out = {"label": a["label"], "status": "error", "objective": None, "feasible": None,
           "runtime_s": None, "extra": {"algorithm": a["name"], "options": a["options"]},
           "timing": {}}
    try:
        t0 = time.perf_counter()
        if hasattr(family, "run"):  # seed and options checked against the declaration
            schedule = family.run(a["name"], workload, seed=seed, options=a["options"])
        else:  # a family-like object without the contract's hooks
            schedule = family.algorithm(a["name"])(workload, seed=seed, **a["options"])
        t1 = time.perf_counter()
        # the problem the run solves (e.g. speed 1 + eps), from its options, not its output
        check_options = (family.run_check_options(a["name"], a["options"])
                         if hasattr(family, "run_check_options") else {})
        check = family.check(workload, schedule, **check_options)
        t2 = time.perf_counter()
    except Exception as err:
        out["extra"].update(error=_err(err), traceback=traceback.format_exc(limit=-3))
        return out
    out.update(status="feasible" if check.feasible else "infeasible",
               objective=check.reported_objective, feasible=bool(check.feasible),
               runtime_s=t1 - t0)
    out["extra"]["admitted"] = len(schedule.admitted)
    speed = check_options.get("speed")
    if isinstance(speed, (int, float)) and speed > 1:
        out["extra"]["speed"] = float(speed)  # augmented: excluded from the OPT bracket
    if not check.feasible:
        out["extra"]["violations"] = _violations(check)
        out["extra"]["partial_objective"] = check.partial_objective
    out["timing"] = {"check_s": t2 - t1}
    out["schedule"] = schedule  # for the family's diagnostics; never serialized
    return out


def _diagnose(family, workload, a: dict, bracket) -> None:
    """Run the family's per-algorithm diagnostics (e.g. OASiS's Theorem 4 / Lemma 2 checks) and
    keep the result in the row's ``extra["theory"]``; a failing diagnostic is recorded, not
    raised, and never changes the algorithm's result."""
    fn = getattr(family, "diagnostics", {}).get(a["extra"]["algorithm"])
    schedule = a.pop("schedule", None)
    if fn is None or schedule is None or not a["feasible"]:
        return
    opt_high = bracket.high if family.sense == "max" else bracket.low
    try:
        a["extra"]["theory"] = fn(workload, schedule, options=a["extra"]["options"],
                                  opt_upper=opt_high)
    except Exception as err:
        a["extra"]["theory"] = {"error": _err(err)}


def _run_bound(family, workload, b: dict, task: dict, ctx: dict) -> dict:
    name = b["name"]
    out = {"name": name, "value": None, "status": "error", "runtime_s": None, "solver": None,
           "solver_version": None, "extra": {"options": b["options"]}}
    fam_bounds = getattr(family, "bounds", None) or {}
    t0 = time.perf_counter()
    try:
        if name in fam_bounds:
            ret = _call(fam_bounds[name], workload, context=ctx, **b["options"])
        elif name in BUILTIN_BOUNDS:
            off, sv = task["offline"], task["solver"]
            ret = BUILTIN_BOUNDS[name](workload, family=family, model=off["model"],
                                       model_options=off["model_options"], solver=sv["name"],
                                       time_limit=off["time_limit"], threads=sv["threads"],
                                       solver_options=sv["options"], **b["options"])
            out["solver"] = sv["name"]
            from mlopt.solvers import get_backend

            out["solver_version"] = type(get_backend(sv["name"])).version()
        else:
            raise InputError("unknown bound method", field="bounds", value=name)
        value, status, details = _bound_value(ret)
    except Exception as err:
        out["runtime_s"] = time.perf_counter() - t0
        out["extra"].update(error=_err(err), traceback=traceback.format_exc(limit=-3))
        return out
    out["runtime_s"] = time.perf_counter() - t0
    out["value"] = value
    out["status"] = "ok" if value is not None else "no_bound"
    if status is not None:
        details["method_status"] = status
    out["extra"].update(details)
    return out
