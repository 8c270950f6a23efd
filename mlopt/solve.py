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

import enum
import math
from dataclasses import asdict, dataclass, field
from typing import Any

import pyomo.environ as pyo

from mlopt.errors import InputError

OPTIMALITY_GAP_TOL = 1e-6
OPTIMALITY_ABS_TOL = 1e-6


class Status(str, enum.Enum):
    OPTIMAL = "optimal"  # proven: gap within tolerance
    FEASIBLE = "feasible"  # incumbent + bound, stopped at a limit (time, gap, nodes)
    NO_SOLUTION = "no_solution"  # stopped at a limit without any incumbent
    INFEASIBLE = "infeasible"
    UNBOUNDED = "unbounded"
    ERROR = "error"
    # a second solver contradicted the claimed optimum (see verify): incumbent + bounds of both,
    # the optimum is open
    DISPUTED = "disputed"

    def __str__(self) -> str:
        return self.value


@dataclass
class SolveResult:
    status: Status
    objective: float | None  # incumbent objective (None without incumbent)
    bound: float | None  # proven dual bound (upper for max, lower for min)
    gap: float | None  # relative gap |bound - objective| / max(|objective|, 1e-10)
    runtime_s: float
    solver: str
    solver_version: str
    sense: str  # "max" or "min"
    termination: str = ""  # the solver's own termination reason, verbatim
    options: dict[str, Any] = field(default_factory=dict)
    message: str = ""

    @property
    def has_solution(self) -> bool:
        return self.objective is not None and self.status in (Status.OPTIMAL, Status.FEASIBLE,
                                                              Status.DISPUTED)

    def to_dict(self) -> dict:
        d = asdict(self)
        d["status"] = self.status.value
        return d


def relative_gap(objective: float | None, bound: float | None) -> float | None:
    if objective is None or bound is None or not math.isfinite(bound):
        return None if objective is None else math.inf
    return abs(bound - objective) / max(abs(objective), 1e-10)


def classify(sense: str, objective: float | None, bound: float | None, proven_optimal: bool,
             limit_reached: bool) -> tuple[Status, float | None]:
    """Common status logic for backends: optimal only with a closed gap."""
    gap = relative_gap(objective, bound)
    if objective is None:
        return (Status.NO_SOLUTION if limit_reached else Status.ERROR), None
    closed = gap is not None and (gap <= OPTIMALITY_GAP_TOL or
                                  abs(bound - objective) <= OPTIMALITY_ABS_TOL)
    if proven_optimal and closed:
        return Status.OPTIMAL, gap
    return Status.FEASIBLE, gap


def model_sense(model: pyo.ConcreteModel) -> str:
    objs = list(model.component_data_objects(pyo.Objective, active=True))
    if len(objs) != 1:
        raise ValueError(f"model must have exactly one active objective, has {len(objs)}")
    return "max" if objs[0].sense == pyo.maximize else "min"


def solve(model: pyo.ConcreteModel, solver: str = "highs", *, time_limit: float | None = None,
          mip_gap: float = 0.0, threads: int | None = 1, options: dict | None = None,
          ) -> SolveResult:
    """Solve ``model`` with the named backend; load the incumbent into its variables.

    ``mip_gap`` defaults to 0 so that ``optimal`` really means proven; ``threads`` defaults to 1
    for reproducible, comparable runs.
    """
    from mlopt.solvers import get_backend

    backend = get_backend(solver)
    options = dict(options or {})
    if options:  # an unknown option is an error, never silently ignored
        try:
            backend.check_options(options)
        except InputError as err:
            raise InputError(err.message, field=f"options.{err.field}", value=err.value) \
                from None
    return backend.solve(model, time_limit=time_limit, mip_gap=mip_gap, threads=threads,
                         options=options)


# ---- verification by a second solver -----------------------------------------------------------
#: Two solvers agree on an optimum when the spread of the four numbers (both objectives, both
#: bounds) is at most max(VERIFY_ABS_TOL, VERIFY_REL_TOL * the largest magnitude).  Each solver
#: closes its own gap to OPTIMALITY_GAP_TOL (1e-6 relative), so two correct proofs differ by at
#: most about twice that; 2e-6 relative still catches the 5e-5 error that motivated verification.
VERIFY_REL_TOL = 2e-6
VERIFY_ABS_TOL = 1e-6

#: Settings a backend uses when it is the *second* solver, chosen to take a different path than
#: a default run (HiGHS's wrong "optimal" came from presolve and a restart; with both off it found
#: the true optimum).  Merged under the user's own options.
VERIFY_SETTINGS: dict[str, dict[str, Any]] = {
    "highs": {"presolve": "off", "mip_allow_restart": False},
}


class Agreement(str, enum.Enum):
    VERIFIED = "verified"  # both solvers proved the same optimum
    DISPUTED = "disputed"  # both ran; their objectives or bounds contradict each other
    NOT_VERIFIED = "not_verified"  # verification could not run or could not conclude

    def __str__(self) -> str:
        return self.value


@dataclass
class Verification:
    """Outcome of re-solving a model with a second backend (see :func:`verify`)."""

    outcome: Agreement
    solver: str  # the second backend's name
    solver_version: str
    options: dict[str, Any]  # settings of the second solve
    first: dict[str, Any]  # {"solver", "status", "objective", "bound"} of the claimed optimum
    second: dict[str, Any] | None  # the same for the second solve (None if it never ran)
    reason: str = ""  # why not verified / what was disputed
    runtime_s: float = 0.0
    tolerance: dict[str, float] = field(default_factory=lambda: {
        "rel": VERIFY_REL_TOL, "abs": VERIFY_ABS_TOL})

    @property
    def verified(self) -> bool:
        return self.outcome == Agreement.VERIFIED

    @property
    def verified_by(self) -> str | None:
        """``"<solver> <version>"`` of the second solver when verified, else None."""
        if not self.verified:
            return None
        how = ",".join(f"{k}={_plain(v)}" for k, v in sorted(self.options.items()))
        return f"{self.solver} {self.solver_version}" + (f" with {how}" if how else "")

    def to_dict(self) -> dict:
        d = asdict(self)
        d["outcome"] = self.outcome.value
        d["verified"] = self.verified
        d["verified_by"] = self.verified_by
        return d


def _plain(v: Any) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def agree(a: float, b: float, *others: float) -> bool:
    """Whether all values lie within the verification tolerance of each other."""
    vals = [a, b, *others]
    spread = max(vals) - min(vals)
    return spread <= max(VERIFY_ABS_TOL, VERIFY_REL_TOL * max(abs(v) for v in vals))


def default_verifier(first_solver: str) -> str:
    """SCIP when installed and not the first solver; otherwise HiGHS (with VERIFY_SETTINGS)."""
    from mlopt.solvers import BACKENDS

    scip = BACKENDS.get("scip")
    if first_solver != "scip" and scip is not None and scip.available():
        return "scip"
    return "highs"


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
    from mlopt.errors import InputError
    from mlopt.solvers import get_backend

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
