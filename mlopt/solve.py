"""The one solve layer: ``solve(model, solver="highs", ...) -> SolveResult``.

Honesty rules (DESIGN.md): the status is ``optimal`` only when the solver *proved* it, i.e. the
returned gap is within ``OPTIMALITY_GAP_TOL`` (relative) or ``OPTIMALITY_ABS_TOL`` (absolute).
A run stopped by the time limit, or by a user-supplied ``mip_gap`` larger than that, is reported
as ``feasible`` with incumbent, bound and gap, or ``no_solution`` when it found no incumbent.

Backends register by name in :mod:`mlopt.solvers`; a backend solves, loads the incumbent into the
Pyomo variables (so the family's schedule extractor and the independent checker can read it), and
fills a :class:`SolveResult`.

Solvers can be wrong (a presolve bug once made HiGHS report a point 0.005% below the optimum as
optimal with gap 0), so an optimum can be *verified*: :func:`verify` re-solves the same model with
a second backend and accepts the optimum only when both agree (see :func:`verify` for the
tolerance).  A disagreement turns the status into ``disputed``, never ``optimal``.
"""
from __future__ import annotations

import sys
import types
from typing import Any

import pyomo.environ as pyo

from mlopt.errors import InputError
from mlopt.params import Param, check_values
from mlopt.solvers import get_backend
from mlopt.solvers.base import BACKENDS
from mlopt.solvers.result import (  # noqa: F401  (public names of the solve layer)
    OPTIMALITY_ABS_TOL, OPTIMALITY_GAP_TOL, VERIFY_ABS_TOL, VERIFY_REL_TOL, Agreement,
    SolveResult, Status, Verification, agree, classify, model_sense, relative_gap)

#: most threads a solve may ask for (far above any machine mlopt runs on; 0, negative and absurd
#: counts are refused before the solver sees them)
MAX_THREADS = 1024
#: longest time limit, in seconds (about 30 years: "no limit" is ``None``)
MAX_TIME_LIMIT = 1e9

#: the solve layer's own settings, checked by :func:`check_settings` before any model is built
#: (``mlopt solve --time-limit/--mip-gap/--threads``, a spec's ``[offline]``/``[solver]``)
SOLVE_PARAMS = {
    "time_limit": Param.float(None, low=0.0, low_open=True, high=MAX_TIME_LIMIT, nullable=True,
                              doc="seconds for the solver (null: no limit)"),
    "mip_gap": Param.float(0.0, low=0.0, high=1.0,
                           doc="relative gap at which to stop (optimal is only reported when "
                               "proven)"),
    "threads": Param.int(1, low=1, high=MAX_THREADS, nullable=True,
                         doc="solver threads (null: the solver's default)"),
}


def check_settings(*, time_limit: Any = None, mip_gap: Any = 0.0, threads: Any = 1,
                   options: dict | None = None, solver: str | None = None) -> None:
    """One :class:`InputError` for a bad time limit, gap or thread count (NaN, negative, zero
    threads, absurd values), and, when ``solver`` is given, for a solver option the backend
    does not know or a value it would refuse."""
    check_values(SOLVE_PARAMS, {"time_limit": time_limit, "mip_gap": mip_gap,
                                "threads": threads})
    if options is not None and not isinstance(options, dict):
        raise InputError("must be a table of solver options", field="options", value=options)
    if solver is not None:
        backend = get_backend(solver)
        if options:  # an unknown option is an error, never silently ignored
            try:
                backend.check_options(dict(options))
            except InputError as err:
                raise InputError(err.message, field=f"options.{err.field}",
                                 value=err.value) from None


def solve(model: pyo.ConcreteModel, solver: str = "highs", *, time_limit: float | None = None,
          mip_gap: float = 0.0, threads: int | None = 1, options: dict | None = None,
          ) -> SolveResult:
    """Solve ``model`` with the named backend; load the incumbent into its variables.

    ``mip_gap`` defaults to 0 so that ``optimal`` really means proven; ``threads`` defaults to 1
    for reproducible, comparable runs.
    """
    check_settings(time_limit=time_limit, mip_gap=mip_gap, threads=threads, options=options,
                   solver=solver)
    backend = get_backend(solver)
    options = dict(options or {})
    return backend.solve(model, time_limit=time_limit, mip_gap=mip_gap, threads=threads,
                         options=options)


#: Settings a backend uses when it is the *second* solver, chosen to take a different path than
#: a default run (HiGHS's wrong "optimal" came from presolve and a restart; with both off it found
#: the true optimum).  Merged under the user's own options.
VERIFY_SETTINGS: dict[str, dict[str, Any]] = {
    "highs": {"presolve": "off", "mip_allow_restart": False},
}


def default_verifier(first_solver: str) -> str:
    """SCIP when installed and not the first solver; otherwise HiGHS (with VERIFY_SETTINGS)."""
    scip = BACKENDS.get("scip")
    if first_solver != "scip" and scip is not None and scip.available():
        return "scip"
    return "highs"


def second_solver(confirm, first: str, *, continuous: bool = False) -> str | None:
    """A bound method's ``confirm`` option as the second solver to ask, or None (not asked):
    ``"auto"`` is :func:`default_verifier`; the first solver again is no second word (None);
    an unknown name, a non-string, or (``continuous``) a solver that cannot take continuous
    columns is an InputError (field ``confirm``) before anything is built."""
    from mlopt.solvers import get_backend

    if confirm is not None and not isinstance(confirm, str):
        raise InputError("confirm must be a solver name, 'auto' or null", field="confirm",
                         value=confirm)
    if confirm == "auto":
        confirm = default_verifier(first)
    if confirm is None:
        return None
    backend = get_backend(confirm)
    if continuous and not type(backend).capabilities.lp:
        raise InputError("the second solver must take continuous columns (a MILP solver)",
                         field="confirm", value=confirm)
    return None if confirm.lower() == first.lower() else confirm


def verify(model: pyo.ConcreteModel, first: SolveResult, solver: str | None = None, *,
           time_limit: float | None = None, threads: int | None = 1,
           options: dict | None = None, on_second=None) -> Verification:
    """Re-solve ``model`` with a second backend and compare with ``first`` (its optimal result).

    ``solver`` None or ``"auto"`` picks :func:`default_verifier`.  The second solve runs with
    ``mip_gap=0`` and ``VERIFY_SETTINGS[solver]`` (overridden by ``options``).  Outcomes:

    * ``verified``: both statuses are optimal and the spread of both objectives and both bounds
      is within tolerance (:func:`agree`);
    * ``disputed``: the second solve contradicts the first: it proved a different optimum, or
      its incumbent beats the first's bound, or its bound cuts off the first's incumbent;
    * ``not_verified``: ``first`` is not optimal (nothing to verify), the second solver is
      unknown, failed, or stopped at a limit without contradicting the first (the reason says
      which).  Not verified is never reported as verified.

    The model's variables hold ``first``'s solution again afterwards.  ``on_second(model,
    second_result)``, if given, is called while the second solution is loaded and may return a
    reason (str) that blocks verification, e.g. the checker rejecting the second schedule.
    """
    name = default_verifier(first.solver) if solver in (None, "auto") else solver
    settings = {**VERIFY_SETTINGS.get(name, {}), **(options or {})}
    first_d = {"solver": first.solver, "solver_version": first.solver_version,
               "status": first.status.value, "objective": first.objective,
               "bound": first.bound}

    def outcome(kind, reason="", second=None, version="", runtime=0.0):
        return Verification(kind, name, version, settings, first_d, second, reason, runtime)

    if first.status != Status.OPTIMAL:
        return outcome(Agreement.NOT_VERIFIED, f"nothing to verify: status {first.status}")
    try:
        backend = get_backend(name)
    except InputError as err:
        return outcome(Agreement.NOT_VERIFIED, f"second solver {name!r}: {err.message}")
    version = type(backend).version()
    saved = [(v, v.value) for v in model.component_data_objects(pyo.Var, descend_into=True)]
    try:
        res = backend.solve(model, time_limit=time_limit, mip_gap=0.0, threads=threads,
                            options=dict(settings))
        block = on_second(model, res) if on_second is not None and res.has_solution else None
    except Exception as err:  # a crashing second solver is a reason, not a verification
        return outcome(Agreement.NOT_VERIFIED, f"second solver {name} failed: {err}",
                       version=version)
    finally:
        for v, val in saved:
            v.set_value(val, skip_validation=True)
    second = {"solver": res.solver, "solver_version": res.solver_version,
              "status": res.status.value, "objective": res.objective, "bound": res.bound,
              "termination": res.termination}
    kind, reason = _compare(first, res)
    if block and kind == Agreement.VERIFIED:
        kind, reason = Agreement.NOT_VERIFIED, block
    elif block:
        reason = f"{reason}; {block}"
    return outcome(kind, reason, second, version, res.runtime_s)


def _compare(first: SolveResult, second: SolveResult) -> tuple[Agreement, str]:
    sense = first.sense
    obj1, bnd1 = first.objective, first.bound
    obj2, bnd2 = second.objective, second.bound
    tol = lambda *v: max(VERIFY_ABS_TOL, VERIFY_REL_TOL * max(abs(x) for x in v))  # noqa: E731

    def better(a, b):  # a strictly better than b beyond tolerance, in the model's sense
        return (a - b if sense == "max" else b - a) > tol(a, b)

    # Contradictions count whatever the second status: a feasible point beyond a claimed
    # optimum, or a valid bound below it (max), refutes the claim.
    if obj2 is not None and better(obj2, obj1):
        return Agreement.DISPUTED, (f"{second.solver} found objective {obj2!r}, better than "
                                    f"the claimed optimum {obj1!r}")
    if bnd2 is not None and better(obj1, bnd2):
        return Agreement.DISPUTED, (f"{second.solver}'s bound {bnd2!r} cuts off the claimed "
                                    f"optimum {obj1!r}")
    if second.status in (Status.INFEASIBLE, Status.UNBOUNDED):
        return Agreement.DISPUTED, f"{second.solver} says {second.status}"
    if second.status != Status.OPTIMAL:
        return Agreement.NOT_VERIFIED, (f"{second.solver} did not prove optimality: status "
                                        f"{second.status} ({second.termination}) "
                                        f"{second.message}".strip())
    if bnd1 is None or bnd2 is None or not agree(obj1, obj2, bnd1, bnd2):
        return Agreement.DISPUTED, (f"optima disagree: {first.solver} {obj1!r} (bound "
                                    f"{bnd1!r}), {second.solver} {obj2!r} (bound {bnd2!r})")
    return Agreement.VERIFIED, ""


# ``mlopt.solve`` is the function at package level (mlopt/__init__.py); this makes
# ``mlopt.solve.verify(...)`` work there as well as ``from mlopt.solve import verify``.
solve.verify = verify  # type: ignore[attr-defined]


class _CallableModule(types.ModuleType):
    """``mlopt.solve`` names this module (a submodule import binds it on the package), and
    ``mlopt.solve(model, ...)`` has always meant the function: calling the module solves."""

    def __call__(self, *args, **kwargs) -> SolveResult:
        return solve(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
