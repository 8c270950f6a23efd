"""The solve layer's result types: what a backend returns and what verification concludes.

:class:`Status`, :class:`SolveResult`, :func:`classify` and :func:`relative_gap` (the honesty
rules every backend applies), :class:`Verification` / :class:`Agreement` / :func:`agree` (a
second solver's verdict).  Backends (:mod:`mlopt.solvers`) and :mod:`mlopt.solve` both import
from here, so neither imports the other's module at load time; the names stay importable from
:mod:`mlopt.solve`.
"""
from __future__ import annotations

import enum
import math
from dataclasses import asdict, dataclass, field
from typing import Any

import pyomo.environ as pyo

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


def trusted_bound(bound: float | None, proven_optimal: bool, limit_reached: bool) -> float | None:
    """The solver's dual bound when its run ended proven optimal or at a limit, else None.

    DECISION (mlopt's): a run that ended in an error or an unknown state (numerical trouble, a
    failed postsolve) may have pruned on bad numbers, so its bound certifies nothing; its
    incumbent, if any, is kept as ``feasible`` with an infinite gap."""
    return bound if (proven_optimal or limit_reached) else None


def classify(sense: str, objective: float | None, bound: float | None, proven_optimal: bool,
             limit_reached: bool) -> tuple[Status, float | None]:
    """Common status logic for backends: optimal only with a closed gap."""
    gap = relative_gap(objective, bound)
    if objective is None:
        return (Status.NO_SOLUTION if limit_reached else Status.ERROR), None
    closed = bound is not None and ((gap is not None and gap <= OPTIMALITY_GAP_TOL) or
                                    abs(bound - objective) <= OPTIMALITY_ABS_TOL)
    if proven_optimal and closed:
        return Status.OPTIMAL, gap
    return Status.FEASIBLE, gap


def model_sense(model: pyo.ConcreteModel) -> str:
    objs = list(model.component_data_objects(pyo.Objective, active=True))
    if len(objs) != 1:
        raise ValueError(f"model must have exactly one active objective, has {len(objs)}")
    return "max" if objs[0].sense == pyo.maximize else "min"


# ---- verification by a second solver -----------------------------------------------------------
#: Two solvers agree on an optimum when the spread of the four numbers (both objectives, both
#: bounds) is at most max(VERIFY_ABS_TOL, VERIFY_REL_TOL * the largest magnitude).  Each solver
#: closes its own gap to OPTIMALITY_GAP_TOL (1e-6 relative), so two correct proofs differ by at
#: most about twice that; 2e-6 relative still catches the 5e-5 error that motivated verification.
VERIFY_REL_TOL = 2e-6
VERIFY_ABS_TOL = 1e-6

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
