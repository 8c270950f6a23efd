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
from mlopt.errors import InputError
from mlopt.families import get_family
from mlopt.harness.ratios import close
from mlopt.schedule import Schedule
from mlopt.solve import SolveResult, Status, Verification, relative_gap, solve
from mlopt.solve import verify as verify_optimum
from mlopt.workload import Workload


@dataclass
class OfflineResult:
    solve: SolveResult
    schedule: Schedule | None  # None when the solver returned no incumbent
    check: CheckResult | None
    build_s: float
    model: str
    verification: Verification | None = None  # set when verification was requested

    @property
    def verified(self) -> bool:
        return self.verification is not None and self.verification.verified

    @property
    def verified_by(self) -> str | None:
        return None if self.verification is None else self.verification.verified_by

    @property
    def objective(self) -> float | None:
        """The checker's objective of the incumbent (not the solver's claim); None without an
        incumbent or when the checker rejects it (see ``partial_objective``)."""
        return self.check.reported_objective if self.check is not None else None

    @property
    def partial_objective(self) -> float | None:
        return self.check.partial_objective if self.check is not None else None

    def to_dict(self) -> dict[str, Any]:
        s = self.solve
        d = {
            "status": s.status.value, "objective": self.objective,
            "partial_objective": self.partial_objective, "solver_objective": s.objective,
            "bound": s.bound, "gap": s.gap,
            "runtime_s": s.runtime_s, "build_s": self.build_s,
            "feasible": None if self.check is None else self.check.feasible,
            "solver": s.solver, "solver_version": s.solver_version, "model": self.model,
            "termination": s.termination,
            "violations": [] if self.check is None else
            [v.__dict__ for v in self.check.violations[:20]],
            "verified": self.verified, "verified_by": self.verified_by,
            "verification": None if self.verification is None else self.verification.to_dict(),
        }
        if s.status == Status.DISPUTED and self.verification is not None:
            v = self.verification
            d["dispute"] = {"first": v.first, "second": v.second, "reason": v.reason}
        return d


@dataclass
class AlgorithmResult:
    algorithm: str
    schedule: Schedule
    check: CheckResult
    runtime_s: float
    options: dict[str, Any] = field(default_factory=dict)
    # the checker's arguments for this run (e.g. {"speed": 1.5}: a speed-augmented problem)
    check_options: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        c = self.check
        return {
            "algorithm": self.algorithm, "status": "feasible" if c.feasible else "infeasible",
            "objective": c.reported_objective, "partial_objective": c.partial_objective,
            "bound": None, "gap": None, "runtime_s": self.runtime_s,
            "feasible": c.feasible, "admitted": len(self.schedule.admitted),
            "options": self.options,
            **({"check_options": self.check_options} if self.check_options else {}),
            "violations": [v.__dict__ for v in c.violations[:20]],
        }


def verifier_name(verify: bool | str | None) -> str | None:
    """``verify`` option -> second solver name: None/False = off, True/"auto" = the default
    (:func:`mlopt.solve.default_verifier`), a string = that backend."""
    if verify is None or verify is False:
        return None
    if verify is True:
        return "auto"
    from mlopt.errors import InputError
    from mlopt.solvers import BACKENDS

    if isinstance(verify, str) and verify:
        if verify != "auto" and verify not in BACKENDS:  # a typo is an error, not "unverified"
            raise InputError(f"unknown solver (known: auto, {', '.join(sorted(BACKENDS))})",
                             field="verify", value=verify)
        return verify
    raise InputError("must be true, false or a solver name", field="verify", value=verify)


def solve_offline(workload: Workload, *, family: str = "oasis", model: str | None = None,
                  solver: str = "highs", time_limit: float | None = None, mip_gap: float = 0.0,
                  threads: int | None = 1, verify: bool | str | None = None) -> OfflineResult:
    """Build the family's model, solve, extract and check the schedule.

    ``verify`` (True, "auto" or a solver name): after an optimal solve, re-solve the same model
    with a second backend (:func:`mlopt.solve.verify`); the second solver's schedule is checked
    too.  Agreement sets ``verified``; a disagreement makes the status ``disputed`` (with both
    objectives and bounds in ``verification``; ``bound`` becomes the looser of the two, the only
    one valid if either is); verification that cannot run leaves ``optimal`` with
    ``verified = False`` and the reason.
    """
    verifier = verifier_name(verify)
    fam = get_family(family)
    fam.validate(workload)  # the family's own fields (InputError naming field and value)
    name = fam.exact_formulation(model).name  # a bound / export-only model is an error
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
        elif (check.feasible and res.objective is not None
              and not close(check.objective, res.objective)):
            # The model's objective is not the checked problem's: its optimum proves nothing.
            res.status = Status.ERROR
            res.message = (f"the checker's objective {check.objective:.10g} differs from the "
                           f"solver's {res.objective:.10g}")
    verification = None
    if verifier is not None:
        verification = verify_offline(fam, name, m, workload, res, verifier, time_limit,
                                      threads)
    return OfflineResult(res, schedule, check, build_s, name, verification)


def verify_offline(fam, name: str, m, workload: Workload, res: SolveResult, verifier: str,
                   time_limit: float | None, threads: int | None) -> Verification:
    """Second solve of the family's model ``m`` (model ``name``); the second solver's schedule
    goes through the family's checker as well (its verdict and objective are kept in
    ``verification.second``; a rejected schedule blocks verification).  On a dispute ``res``
    becomes ``disputed`` with the looser of the two bounds."""
    checked: dict = {}

    def on_second(model, second: SolveResult):
        sched = fam.extract[name](model, workload)
        chk = fam.check(workload, sched)
        checked.update(checked_objective=chk.objective, checked_feasible=chk.feasible)
        if not chk.feasible:
            return f"the checker rejects {second.solver}'s schedule: {chk.summary(limit=3)}"
        return None

    v = verify_optimum(m, res, verifier, time_limit=time_limit, threads=threads,
                       on_second=on_second)
    if v.second is not None:
        v.second.update(checked)
    if v.outcome.value == "disputed":
        bounds = [b for b in (v.first["bound"], v.second and v.second["bound"]) if b is not None]
        res.status = Status.DISPUTED
        res.message = "disputed: " + v.reason
        if bounds:  # the looser bound: valid whichever solver is right
            res.bound = max(bounds) if res.sense == "max" else min(bounds)
            res.gap = relative_gap(res.objective, res.bound)
    return v


def run_algorithm(workload: Workload, algorithm: str, *, family: str = "oasis", seed: int = 0,
                  options: dict | None = None, **more_options) -> AlgorithmResult:
    """Run ``algorithm`` through :meth:`Family.run` (seed and options checked first: ``seed`` as
    an option or an unknown name is an InputError) and check its schedule."""
    fam = get_family(family)
    fam.validate(workload)
    options = {**dict(options or {}), **more_options}
    t0 = time.perf_counter()
    schedule = fam.run(algorithm, workload, seed=seed, options=options)
    runtime = time.perf_counter() - t0
    schedule.meta.setdefault("producer", algorithm)
    # the problem the run solves (edgecloud's A_online at eps: speed 1 + eps), from its
    # (checked) options, never from the schedule's meta
    check_options = fam.run_check_options(algorithm, options)
    return AlgorithmResult(algorithm, schedule, fam.check(workload, schedule, **check_options),
                           runtime, dict(options, seed=seed), check_options)


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
