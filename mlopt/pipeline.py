"""The Python API's two verbs: get the offline optimum (or certified bounds) and run an algorithm.

Both always pass the resulting schedule through the family's independent checker; the checker's
verdict and recomputed objective are what get reported.

>>> from mlopt import Workload, pipeline
>>> w = Workload.load("instances/tiny/oasis-tiny-0.json")           # doctest: +SKIP
>>> off = pipeline.solve_offline(w, time_limit=60)                  # doctest: +SKIP
>>> alg = pipeline.run_algorithm(w, "oasis")                        # doctest: +SKIP
>>> off.check.objective / alg.check.objective                       # doctest: +SKIP
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from mlopt.check import CheckResult
from mlopt.families import get_family
from mlopt.schedule import Schedule
from mlopt.solve import SolveResult, Status, solve
from mlopt.workload import Workload


@dataclass
class OfflineResult:
    solve: SolveResult
    schedule: Schedule | None  # None when the solver returned no incumbent
    check: CheckResult | None
    build_s: float
    model: str

    @property
    def objective(self) -> float | None:
        """The checker's objective of the incumbent (not the solver's claim)."""
        return self.check.objective if self.check is not None else None

    def to_dict(self) -> dict[str, Any]:
        s = self.solve
        return {
            "status": s.status.value, "objective": self.objective,
            "solver_objective": s.objective, "bound": s.bound, "gap": s.gap,
            "runtime_s": s.runtime_s, "build_s": self.build_s,
            "feasible": None if self.check is None else self.check.feasible,
            "solver": s.solver, "solver_version": s.solver_version, "model": self.model,
            "termination": s.termination,
            "violations": [] if self.check is None else
            [v.__dict__ for v in self.check.violations[:20]],
        }


@dataclass
class AlgorithmResult:
    algorithm: str
    schedule: Schedule
    check: CheckResult
    runtime_s: float
    options: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        c = self.check
        return {
            "algorithm": self.algorithm, "status": "feasible" if c.feasible else "infeasible",
            "objective": c.objective, "bound": None, "gap": None, "runtime_s": self.runtime_s,
            "feasible": c.feasible, "admitted": len(self.schedule.admitted),
            "options": self.options,
            "violations": [v.__dict__ for v in c.violations[:20]],
        }


def solve_offline(workload: Workload, *, family: str = "oasis", model: str | None = None,
                  solver: str = "highs", time_limit: float | None = None, mip_gap: float = 0.0,
                  threads: int | None = 1) -> OfflineResult:
    fam = get_family(family)
    fam.validate(workload)  # the family's own fields (InputError naming field and value)
    name = model or fam.default_model
    build = fam.model(name)
    t0 = time.perf_counter()
    m = build(workload)
    build_s = time.perf_counter() - t0
    res = solve(m, solver, time_limit=time_limit, mip_gap=mip_gap, threads=threads)
    schedule = check = None
    if res.has_solution:
        schedule = fam.extract[name](m, workload)
        schedule.meta.update({"producer": f"{solver}:{name}", "status": res.status.value})
        check = fam.check(workload, schedule)
        if not check.feasible and res.status == Status.OPTIMAL:
            # Never report a proven optimum for a schedule the checker rejects.
            res.status = Status.ERROR
            res.message = "solver schedule rejected by the checker: " + check.summary()
    return OfflineResult(res, schedule, check, build_s, name)


def run_algorithm(workload: Workload, algorithm: str, *, family: str = "oasis", seed: int = 0,
                  **options) -> AlgorithmResult:
    fam = get_family(family)
    fam.validate(workload)
    fn = fam.algorithm(algorithm)
    t0 = time.perf_counter()
    schedule = fn(workload, seed=seed, **options)
    runtime = time.perf_counter() - t0
    schedule.meta.setdefault("producer", algorithm)
    return AlgorithmResult(algorithm, schedule, fam.check(workload, schedule), runtime,
                           dict(options, seed=seed))


def ratio_interval(sense: str, alg: float, opt_low: float | None, opt_high: float | None,
                   ) -> tuple[float | None, float | None]:
    """Competitive ratio as an interval [low, high] from bounds on OPT.

    Maximization: OPT/ALG with OPT in [incumbent, bound]; minimization: ALG/OPT with OPT in
    [bound, incumbent].  ALG = 0 (max) gives +inf unless OPT is 0 too (ratio 1).
    """
    def ratio(opt):
        if opt is None:
            return None
        num, den = (opt, alg) if sense == "max" else (alg, opt)
        if den == 0:
            return 1.0 if num == 0 else float("inf")
        return num / den

    lo, hi = ratio(opt_low), ratio(opt_high)
    if lo is not None and hi is not None and lo > hi:
        lo, hi = hi, lo
    return lo, hi
