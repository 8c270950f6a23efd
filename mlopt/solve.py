"""The one solve layer: ``solve(model, solver="highs", ...) -> SolveResult``.

Honesty rules (DESIGN.md): the status is ``optimal`` only when the solver *proved* it, i.e. the
returned gap is within ``OPTIMALITY_GAP_TOL`` (relative) or ``OPTIMALITY_ABS_TOL`` (absolute).
A run stopped by the time limit, or by a user-supplied ``mip_gap`` larger than that, is reported
as ``feasible`` with incumbent, bound and gap, or ``no_solution`` when it found no incumbent.

Backends register by name in :mod:`mlopt.solvers`; a backend solves, loads the incumbent into the
Pyomo variables (so the family's schedule extractor and the independent checker can read it), and
fills a :class:`SolveResult`.
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
        return self.objective is not None and self.status in (Status.OPTIMAL, Status.FEASIBLE)

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
    return backend.solve(model, time_limit=time_limit, mip_gap=mip_gap, threads=threads,
                         options=dict(options or {}))
