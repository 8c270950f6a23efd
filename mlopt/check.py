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
        """The names of the constraints with at least one violation."""
        return {v.constraint for v in self.violations}

    def summary(self, limit: int = 5) -> str:
        """One line: feasible with its objective, or the first ``limit`` violations."""
        if self.feasible:
            return f"feasible, objective {self.objective:.6g}"
        head = "; ".join(f"{v.constraint}: {v.detail}" for v in self.violations[:limit])
        more = len(self.violations) - limit
        return (f"infeasible ({len(self.violations)} violations; no objective, partial "
                f"{self.objective:.6g}): {head}" + (f"; +{more} more" if more > 0 else ""))

    def to_dict(self) -> dict[str, Any]:
        """The result as a JSON-able dict (the objective only when feasible)."""
        return {"feasible": self.feasible, "objective": self.reported_objective,
                "partial_objective": self.partial_objective, "sense": self.sense,
                "violations": [v.__dict__ for v in self.violations]}


def structural_violations(workload, schedule, *, max_slot: int) -> list[Violation]:
    """What no family's schedule may contain, checked the same way for all of them before the
    family's own checker runs (:meth:`mlopt.families.base.Family.check`): ids the workload does
    not have (admitted or in a row), slots outside 1..``max_slot``, two rows with the same key
    (every column but ``count``: a duplicated row), and counts that are not positive finite
    numbers."""
    import numpy as np

    ids = {j.id for j in workload.jobs}
    out = [Violation("unknown_job", f"admitted job {j!r} is not in the workload", job=j)
           for j in sorted(schedule.admitted - ids)]
    a = schedule.allocations
    if a.empty:
        return out
    for j in sorted(set(a["job"]) - ids):
        out.append(Violation("unknown_job", f"rows for job {j!r}, not in the workload", job=j))
    slots = a["slot"].to_numpy()
    for i in np.flatnonzero((slots < 1) | (slots > max_slot))[:20]:
        out.append(Violation("slot_range", f"slot {int(slots[i])} outside 1..{max_slot}",
                             job=str(a["job"].iat[i]), slot=int(slots[i])))
    keys = [c for c in a.columns if c != "count"]
    # extra columns may hold lists or dicts (a malformed file): compare those by their text
    key_frame = a[keys].apply(lambda col: col.map(repr) if col.dtype == object else col)
    dup = key_frame.duplicated(keep="first").to_numpy()
    for i in np.flatnonzero(dup)[:20]:
        out.append(Violation("duplicate_row", "two rows with the same " + ", ".join(keys),
                             job=str(a["job"].iat[i]), slot=int(slots[i]),
                             server=str(a["server"].iat[i])))
    counts = pd.to_numeric(a["count"], errors="coerce").to_numpy(dtype=float)
    for i in np.flatnonzero(~np.isfinite(counts) | (counts <= 0))[:20]:
        out.append(Violation("count", f"count {a['count'].iat[i]!r} is not a positive number",
                             job=str(a["job"].iat[i]), slot=int(slots[i])))
    return out
