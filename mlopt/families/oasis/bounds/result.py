"""What every bound returns: :class:`BoundResult`.

An *upper* bound on the OASiS offline optimum OPT of (1)/(14) (a maximization), with how it was
obtained, and the best *feasible* schedule found on the way, whose objective is the independent
checker's (never the producer's).  ``gap`` is (upper - feasible) / feasible: OPT lies in
[feasible_objective, upper_bound], and a competitive ratio OPT/ALG lies in
[max(1, feasible/ALG), upper/ALG] (DESIGN.md: never a point value without a proof).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from mlopt.schedule import Schedule

# How ``upper_bound`` was certified.
METHODS = (
    "dual_certificate",  # final OASiS prices + recomputed mu_i: a feasible point of (19)-(20)
    "lp_optimal",  # column generation converged: no column with positive reduced cost
    "lagrangian_at_limit",  # best dual certificate seen before a time/iteration limit
    "lagrangian_stalled",  # positive reduced costs left but only duplicate columns priced
)


@dataclass
class BoundResult:
    name: str  # registry name of the bound ("dual_certificate", "colgen")
    upper_bound: float  # certified: OPT <= LP(14) <= upper_bound
    method: str  # one of METHODS
    feasible_objective: float | None  # best checked feasible objective (a lower bound on OPT)
    feasible_source: str | None  # which schedule achieved it ("oasis", "restricted_master")
    runtime_s: float
    iterations: int = 0  # column generation rounds (0 for the dual certificate)
    columns: int = 0  # columns in the final restricted master
    lp_value: float | None = None  # last restricted-master LP value (= LP(14) if lp_optimal)
    schedule: Schedule | None = field(default=None, repr=False)  # the best feasible schedule
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def gap(self) -> float | None:
        """(upper - feasible) / feasible; None without a feasible objective."""
        if self.feasible_objective is None:
            return None
        return (self.upper_bound - self.feasible_objective) / max(abs(self.feasible_objective),
                                                                  1e-10)

    def to_dict(self) -> dict[str, Any]:
        """Return the result as a JSON-ready dict (non-finite numbers become None)."""
        def num(x):
            return None if x is None or not math.isfinite(x) else float(x)

        return {"name": self.name, "upper_bound": num(self.upper_bound), "method": self.method,
                "feasible_objective": num(self.feasible_objective),
                "feasible_source": self.feasible_source, "gap": num(self.gap),
                "lp_value": num(self.lp_value), "iterations": self.iterations,
                "columns": self.columns, "runtime_s": self.runtime_s,
                "details": self.details}
