"""What every checker returns. A checker never trusts the producer of a schedule: it recomputes
everything (completion times, objective) from the workload and the allocation table."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pandas as pd


@dataclass(frozen=True)
class Violation:
    constraint: str  # the paper's equation label, e.g. "c4_worker_capacity" or "unknown_job"
    detail: str  # plain words with the numbers
    job: str | None = None
    slot: int | None = None
    server: str | None = None


@dataclass
class CheckResult:
    feasible: bool
    # recomputed from the schedule, whatever the producer claimed.  For an infeasible schedule
    # this is only a *partial* objective (e.g. crediting jobs the schedule leaves unfinished):
    # reports use :attr:`reported_objective` (None) and name this one ``partial_objective``.
    objective: float
    sense: str  # "max" or "min"
    violations: list[Violation] = field(default_factory=list)
    per_job: pd.DataFrame = field(default_factory=pd.DataFrame)  # job, admitted, completion, value

    @property
    def reported_objective(self) -> float | None:
        """The objective to report: None for an infeasible schedule, never a number that looks
        valid."""
        return float(self.objective) if self.feasible else None

    @property
    def partial_objective(self) -> float | None:
        """The checker's recomputation for an infeasible schedule (None when feasible)."""
        return None if self.feasible else float(self.objective)

    def constraints_violated(self) -> set[str]:
        return {v.constraint for v in self.violations}

    def summary(self, limit: int = 5) -> str:
        if self.feasible:
            return f"feasible, objective {self.objective:.6g}"
        head = "; ".join(f"{v.constraint}: {v.detail}" for v in self.violations[:limit])
        more = len(self.violations) - limit
        return (f"infeasible ({len(self.violations)} violations; no objective, partial "
                f"{self.objective:.6g}): {head}" + (f"; +{more} more" if more > 0 else ""))

    def to_dict(self) -> dict[str, Any]:
        return {"feasible": self.feasible, "objective": self.reported_objective,
                "partial_objective": self.partial_objective, "sense": self.sense,
                "violations": [v.__dict__ for v in self.violations]}
