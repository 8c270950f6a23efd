"""The Python API's two verbs: get the offline optimum (or certified bounds) and run an algorithm.

Both always pass the resulting schedule through the family's independent checker; the checker's
verdict and recomputed objective are what get reported.

>>> from mlopt import Workload, pipeline
>>> w = Workload.load("instances/tiny/oasis-tiny-0.json")           # doctest: +SKIP
>>> off = pipeline.solve_offline(w, time_limit=60)                  # doctest: +SKIP
>>> alg = pipeline.run_algorithm(w, "oasis")                        # doctest: +SKIP
>>> off.check.objective / alg.check.objective                       # doctest: +SKIP

The family is the workload's own (``meta.family``); ``family=`` names it for a workload that
does not say, and a different one is an error (:func:`mlopt.families.family_of`): nothing is
ever run under a guessed family.
"""
from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from typing import Any

from mlopt.alarm import alarm
from mlopt.check import CheckResult
from mlopt.errors import InputError
from mlopt.families import family_of
from mlopt.harness.ratios import close
from mlopt.modelsize import estimate as estimate_size
from mlopt.modelsize import refusal, too_large
from mlopt.schedule import Schedule

log = logging.getLogger(__name__)
from mlopt.solve import SolveResult, Status, Verification, check_settings, relative_gap, solve
from mlopt.solve import verify as verify_optimum
from mlopt.solvers.progress import reporting
from mlopt.workload import Workload


@dataclass
class OfflineResult:
    solve: SolveResult
    schedule: Schedule | None  # None when the solver returned no incumbent
    check: CheckResult | None
    build_s: float
    model: str
    verification: Verification | None = None  # set when verification was requested
    size: Any = None  # the model's estimated size (mlopt.modelsize.ModelSize), if registered
    model_options: dict[str, Any] = field(default_factory=dict)  # the builder's, as checked

    @property
    def verified(self) -> bool:
        """Whether a second solver confirmed the optimum."""
        return self.verification is not None and self.verification.verified

    @property
    def verified_by(self) -> str | None:
        """The solver that confirmed the optimum (None if none did)."""
        return None if self.verification is None else self.verification.verified_by

    @property
    def objective(self) -> float | None:
        """The checker's objective of the incumbent (not the solver's claim); None without an
        incumbent or when the checker rejects it (see ``partial_objective``)."""
        return self.check.reported_objective if self.check is not None else None

    @property
    def partial_objective(self) -> float | None:
        """The checker's objective of an infeasible incumbent."""
        return self.check.partial_objective if self.check is not None else None

    def to_dict(self) -> dict[str, Any]:
        """The ``mlopt solve --json`` object of this result."""
        s = self.solve
        d = {
            "status": s.status.value, "objective": self.objective,
            "partial_objective": self.partial_objective, "solver_objective": s.objective,
            "bound": s.bound, "gap": s.gap,
            "runtime_s": s.runtime_s, "build_s": self.build_s,
            "feasible": None if self.check is None else self.check.feasible,
            "solver": s.solver, "solver_version": s.solver_version, "model": self.model,
            "model_options": self.model_options,
            "termination": s.termination, "message": s.message,
            "violations": [] if self.check is None else
            [v.__dict__ for v in self.check.violations[:20]],
            "verified": self.verified, "verified_by": self.verified_by,
            "verification": None if self.verification is None else self.verification.to_dict(),
            "estimate": None if self.size is None else self.size.to_dict(),
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
        """The ``mlopt run --json`` object of this result."""
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


def solve_offline(workload: Workload, *, family: str | None = None, model: str | None = None,
                  solver: str = "highs", time_limit: float | None = None, mip_gap: float = 0.0,
                  threads: int | None = 1, verify: bool | str | None = None,
                  options: dict | None = None, warm_start=None,
                  model_options: dict | None = None,
                  on_estimate=None, on_progress=None) -> OfflineResult:
    """Build the family's model, solve, extract and check the schedule.

    ``verify`` (True, "auto" or a solver name): after an optimal solve, re-solve the same model
    with a second backend (:func:`mlopt.solve.verify`); the second solver's schedule is checked
    too.  Agreement sets ``verified``; a disagreement makes the status ``disputed`` (with both
    objectives and bounds in ``verification``; ``bound`` becomes the looser of the two, the only
    one valid if either is); verification that cannot run leaves ``optimal`` with
    ``verified = False`` and the reason.  ``options``: the first solver's own options.  The
    time limit, gap, threads and options are checked before the model is built; the time limit
    is wall clock for building and solving.  ``warm_start``: an algorithm name of the family,
    ``"best"``, a :class:`Schedule` or a schedule file (:func:`mlopt.warmstart.start_from`):
    the solver starts from that checked schedule, and its incumbent is never worse.
    ``model_options``: the formulation's own options (``jct_step``'s ``tight``, ...), checked
    against what it declares before anything is built.
    ``on_estimate(ModelSize)``: called with the model's estimated size before it is built
    (a model that cannot be built within the time limit or the memory available is refused
    with one InputError).  ``on_progress(incumbent, bound)``: the solver's incumbent and bound
    while it runs (backends with callbacks: :mod:`mlopt.solvers.progress`).
    """
    check_settings(time_limit=time_limit, mip_gap=mip_gap, threads=threads, options=options,
                   solver=solver)
    verifier = verifier_name(verify)
    fam = family_of(workload, family)
    fam.validate(workload)  # the family's own fields (InputError naming field and value)
    name = fam.exact_formulation(model).name  # a bound / export-only model is an error
    model_options = fam.check_model_options(name, model_options or {})
    build = fam.model(name)
    t0 = time.perf_counter()
    # the modules the estimate and the build need are imported before the alarm is set: a
    # signal mid-import leaves a module half-initialized for the rest of the process (a harness
    # worker runs many tasks)
    import importlib

    from mlopt.families.base import resolve

    for module in ("pandas", "pyomo.environ"):
        importlib.import_module(module)
    if fam.formulation(name).estimate is not None:
        resolve(fam.formulation(name).estimate)
    # the build is pure Python: stopped at the time limit and refused in one line (mlopt.alarm)
    with alarm(time_limit, lambda: _too_slow_to_build(fam, name, workload, time_limit)):
        # the size first (it counts against the limit too): a model that cannot be built in
        # time or memory is refused before anything is built (mlopt.modelsize)
        size = estimate_size(fam, workload, name, model_options)
        if on_estimate is not None and size is not None:
            on_estimate(size)
        why = refusal(size, time_limit)
        if why is not None:
            raise too_large(fam, workload, size, why, time_limit)
        m = build(workload, **model_options)
    build_s = time.perf_counter() - t0
    log.info("built %s for %d jobs in %.2f s; solving with %s", name, len(workload.jobs),
             build_s, solver)
    # the time limit is wall clock for the whole call: the solver gets what the build left
    solve_limit = None if time_limit is None else max(0.01, time_limit - build_s)
    if warm_start is None:
        with reporting(on_progress):
            res = solve(m, solver, time_limit=solve_limit, mip_gap=mip_gap, threads=threads,
                        options=options)
    else:
        from mlopt.warmstart import solve_warm, start_from

        start, _ = start_from(workload, fam.name, m, warm_start)
        if time_limit is not None:  # the start's algorithm runs count against the limit too
            solve_limit = max(0.01, time_limit - (time.perf_counter() - t0))
        with reporting(on_progress):
            res = solve_warm(m, start, solver, time_limit=solve_limit, mip_gap=mip_gap,
                             threads=threads, options=options)
    schedule = check = None
    if res.has_solution:
        schedule = fam.extract[name](m, workload)
        schedule.meta.update({"producer": f"{solver}:{name}", "status": res.status.value})
        stamp(schedule, fam, workload)
        check = fam.check(workload, schedule)
        reconcile(res, check)
    verification = None
    if verifier is not None:
        verification = verify_offline(fam, name, m, workload, res, verifier, time_limit,
                                      threads)
    log.info("%s on %s: %s, objective %s, bound %s, %.2f s", solver, name, res.status.value,
             res.objective, res.bound, res.runtime_s)
    return OfflineResult(res, schedule, check, build_s, name, verification, size,
                         model_options)


def reconcile(res: SolveResult, check) -> None:
    """Hold the solver's word against the checker's, in place.

    A proven optimum whose schedule the checker rejects, or whose checked objective differs
    from the solver's, is an error: the model is then not the checked problem, and its optimum
    proves nothing.  DECISION: an unproven incumbent whose checked objective is *better* than
    the model's (lower for min, higher for max) is no error.  An exact model may carry slack at
    a non-optimal point (Harmony's "running" indicator can stay on after a job finished, so an
    incumbent scores 4.0 in the model and 3.9 checked) while its optimum is exact; the schedule
    is feasible and the checker's value is the honest primal end, so it replaces the model's
    and the gap is recomputed from it.  A checked value *worse* than the model's stays an error
    (the model under-counts: its bound is suspect too), and so is a checked value beyond the
    solver's bound."""
    if not check.feasible:
        if res.status == Status.OPTIMAL:  # never a proven optimum for a rejected schedule
            res.status = Status.ERROR
            res.message = "solver schedule rejected by the checker: " + check.summary()
        return
    if res.objective is None or close(check.objective, res.objective):
        return
    better = (check.objective < res.objective if res.sense == "min"
              else check.objective > res.objective)
    beats_bound = res.bound is not None and not close(check.objective, res.bound) and (
        check.objective < res.bound if res.sense == "min" else check.objective > res.bound)
    if res.status != Status.OPTIMAL and better and not beats_bound:
        res.message = (f"the incumbent's checked objective {check.objective:.10g} is better "
                       f"than the model's {res.objective:.10g} (slack at a non-optimal point); "
                       f"the checker's is reported")
        res.objective = check.objective
        res.gap = relative_gap(res.objective, res.bound)
        return
    res.status = Status.ERROR
    res.message = (f"the checker's objective {check.objective:.10g} differs from the "
                   f"solver's {res.objective:.10g}")


def _too_slow_to_build(fam, model: str, workload: Workload, time_limit: float) -> InputError:
    bounds = ", ".join(sorted(fam.bounds_)) or "lp_relaxation"
    return InputError(
        f"building {model} did not finish within the time limit ({len(workload.jobs)} jobs, "
        f"{len(workload.servers)} servers, {workload.horizon} slots; the time limit covers the "
        f"build): use 'mlopt bracket FILE --time-limit {time_limit:g}' for a certified "
        f"interval, or a bound ({bounds})", field="time_limit", value=time_limit)


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


def run_algorithm(workload: Workload, algorithm: str, *, family: str | None = None,
                  seed: int = 0, options: dict[str, Any] | None = None,
                  **more_options) -> AlgorithmResult:
    """Run ``algorithm`` of the workload's family through :meth:`Family.run` (the seed and
    every option checked against the algorithm's declaration first) and check the schedule.

    ``options``: the algorithm's options as a dict (as a user gave them: a ``seed`` or a
    ``family`` in it is an option name, refused unless declared); keyword options are merged
    in."""
    if options is not None and not isinstance(options, dict):
        raise InputError("must be a table of algorithm options", field="options",
                         value=options)
    options = {**(options or {}), **more_options}
    fam = family_of(workload, family)
    fam.validate(workload)
    fam.algorithm_record(algorithm)  # an unknown name: one InputError listing the known ones
    t0 = time.perf_counter()
    schedule = fam.run(algorithm, workload, seed=seed, options=options)
    runtime = time.perf_counter() - t0
    log.info("%s ran in %.3f s; checking its schedule", algorithm, runtime)
    schedule.meta.setdefault("producer", algorithm)
    stamp(schedule, fam, workload)
    # the problem the run solves (edgecloud's A_online at eps: speed 1 + eps), from its
    # (checked) options, never from the schedule's meta
    check_options = fam.run_check_options(algorithm, options)
    return AlgorithmResult(algorithm, schedule, fam.check(workload, schedule, **check_options),
                           runtime, dict(options, seed=seed), check_options)


def stamp(schedule, fam, workload) -> None:
    """Write into ``schedule.meta`` what it was made for: the family (``family``) and the
    workload's content hash (``workload``), which ``check`` and the commands that take a
    schedule file compare before checking it."""
    schedule.meta["family"] = fam.name
    schedule.meta["workload"] = workload.content_hash()


def schedule_families(schedule) -> list[str]:
    """The families a schedule can have been made for: its ``meta.family`` (written by
    ``run``, ``solve`` and ``bracket``), else the families whose algorithms or models name its
    producer (older files), else ``[]`` (unknown: a hand-made schedule)."""
    from mlopt.families.base import all_families

    named = schedule.meta.get("family")
    if isinstance(named, str) and named:
        return [named]
    producer = schedule.meta.get("producer")
    if not isinstance(producer, str) or not producer:
        return []
    name = producer.split(":", 1)[1] if ":" in producer else producer  # "highs:utility_ilp"
    return sorted(f.name for f in all_families().values()
                  if name in f.algorithms_ or name in f.models)


def check_schedule_family(fam, schedule, schedule_file: str | None = None) -> None:
    """Refuse (InputError) a schedule made for another family than the workload's: checking it
    would only report every row as an unknown job."""
    owners = schedule_families(schedule)
    if owners and fam.name not in owners:
        field = "meta.family" if schedule.meta.get("family") else "meta.producer"
        raise InputError(f"the schedule is for family {' or '.join(owners)}, the workload is "
                         f"{fam.name} (check a schedule against the workload it was made for)",
                         file=schedule_file, field=field,
                         value=schedule.meta.get("family") or schedule.meta.get("producer"))


def made_for_another(schedule, workload) -> str:
    """" (made for another workload: ...)" when ``schedule.meta.workload`` (written by
    :func:`stamp`) is not ``workload``'s content hash, else "".  The commands that refuse an
    infeasible schedule add it to their line: a mix-up of files, not a broken schedule.  A
    feasible one is checked as usual (an edit that leaves it feasible, e.g. of a free-form
    ``extra``, changes the hash too)."""
    made_for = schedule.meta.get("workload")
    if not isinstance(made_for, str) or not made_for:  # "": no hash
        return ""
    here = workload.content_hash()
    if made_for == here:
        return ""
    return (f" (it was made for another workload: content hash {made_for}, this one's is "
            f"{here}; check a schedule against the workload it was made for)")


def first_violation(res) -> str:
    """", first: CONSTRAINT: DETAIL" of a check result's first violation ("" without one): the
    lines that refuse an infeasible schedule keep something to act on."""
    if not res.violations:
        return ""
    return f", first: {res.violations[0].constraint}: {res.violations[0].detail}"


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
