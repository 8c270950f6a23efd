"""HiGHS through Pyomo's direct (in-memory) interface: the embedded default solver."""
from __future__ import annotations

import math
import time

import pyomo.environ  # noqa: F401  (registers the contrib solvers with SolverFactory)
from pyomo.contrib.solver.common.factory import SolverFactory
from pyomo.contrib.solver.common.results import SolutionStatus, TerminationCondition as TC

from mlopt.solvers.result import SolveResult, Status, classify, model_sense, trusted_bound
from mlopt.errors import InputError
from mlopt.solvers.base import Capabilities, SolverBackend, register_backend, unknown_option

def _quiet_highs():
    """A ``highspy.Highs`` instance with logging off and no banner (:mod:`.quiet_highs`)."""
    from mlopt.solvers.quiet_highs import quiet_highs

    return quiet_highs()


def _Reporting(sink):
    """Pyomo's HiGHS interface with the progress callbacks subscribed on its highspy instance
    just before the run (the instance exists from then on; Pyomo's own code is unchanged)."""
    from pyomo.contrib.solver.solvers.highs import Highs

    from mlopt.solvers.progress import attach_highs

    class ReportingHighs(Highs):
        def _solve(self):
            attach_highs(self._solver_model, sink)
            return super()._solve()

    return ReportingHighs()


_LIMITS = {TC.maxTimeLimit, TC.iterationLimit, TC.objectiveLimit, TC.interrupted}


@register_backend
class HighsBackend(SolverBackend):
    name = "highs"
    capabilities = Capabilities()

    @classmethod
    def available(cls) -> bool:
        try:
            return bool(SolverFactory("highs").available())
        except Exception:  # pragma: no cover - broken install
            return False

    @classmethod
    def version(cls) -> str:
        return ".".join(str(v) for v in SolverFactory("highs").version())

    @classmethod
    def check_options(cls, options: dict) -> None:
        """HiGHS option names and value types, from highspy's option record (no solver
        instance, so nothing is printed)."""
        import highspy

        record = highspy.HighsOptions()
        names = [n for n in dir(record) if not n.startswith("_")]
        highs = None
        for key, val in options.items():
            if key not in names:
                # highspy's option record lacks some options HiGHS itself has (1.16:
                # mip_allow_restart, which the verifier sets): ask a solver instance
                highs = highs or _quiet_highs()
                status, current = highs.getOptionValue(key)
                if status != highspy.HighsStatus.kOk:
                    raise unknown_option("HiGHS", key, val, names)
                if isinstance(val, bool) != isinstance(current, bool):
                    raise InputError(f"wrong type for this HiGHS option (expects "
                                     f"{type(current).__name__})", field=key, value=val)
                continue
            current = getattr(record, key)
            if isinstance(val, bool) != isinstance(current, bool):
                raise InputError(f"wrong type for this HiGHS option (expects "
                                 f"{type(current).__name__})", field=key, value=val)
            try:
                setattr(record, key, val)
            except (TypeError, ValueError):
                raise InputError(f"wrong type for this HiGHS option (expects "
                                 f"{type(current).__name__})", field=key, value=val) from None
            if isinstance(val, float) and math.isnan(val):
                raise InputError("NaN is not a value for a HiGHS option", field=key, value=val)
        if options:  # values: HiGHS's own check (a string option's allowed words, ranges)
            highs = _quiet_highs()
            for key, val in options.items():
                if highs.setOptionValue(key, val) != highspy.HighsStatus.kOk:
                    raise InputError("HiGHS refuses this value for the option", field=key,
                                     value=val)

    def solve(self, model, *, time_limit, mip_gap, threads, options) -> SolveResult:
        from mlopt.solvers.progress import current

        sense = model_sense(model)
        sink = current()  # a progress display listening (mlopt.solvers.progress)
        opt = SolverFactory("highs") if sink is None else _Reporting(sink)
        kwargs = dict(load_solutions=False, raise_exception_on_nonoptimal_result=False,
                      rel_gap=mip_gap, solver_options=dict(options))
        if time_limit is not None:
            kwargs["time_limit"] = float(time_limit)
        if threads is None:  # HiGHS's own rule (half the cores), on the cores this process
            # may use: HiGHS itself counts the machine's, however few this process has
            from mlopt.machine import cores

            threads = max(1, (cores() + 1) // 2)
        kwargs["threads"] = int(threads)
        from mlopt.solvers.log import log_stream

        if log_stream() is not None:  # --log-solver: HiGHS's log to that stream, not stdout
            kwargs["tee"] = [log_stream()]
        from mlopt.solvers.quiet_highs import pool_for

        pool_for(threads)  # HiGHS fails a run asking for another pool size than the last one
        start = time.perf_counter()
        try:
            res = opt.solve(model, **kwargs)
        except Exception as err:  # a solver crash is a result, not a traceback
            return SolveResult(Status.ERROR, None, None, None, time.perf_counter() - start,
                               self.name, self.version(), sense, "exception", kwargs, str(err))
        runtime = time.perf_counter() - start
        tc = res.termination_condition
        version = self.version()
        if tc == TC.provenInfeasible:
            return SolveResult(Status.INFEASIBLE, None, None, None, runtime, self.name, version,
                               sense, tc.name)
        if tc in (TC.unbounded, TC.infeasibleOrUnbounded):
            return SolveResult(Status.UNBOUNDED, None, None, None, runtime, self.name, version,
                               sense, tc.name)
        has_incumbent = res.solution_status in (SolutionStatus.optimal, SolutionStatus.feasible)
        objective = res.incumbent_objective if has_incumbent else None
        bound = res.objective_bound
        if bound is not None and abs(bound) == float("inf"):
            bound = None
        if has_incumbent:
            res.solution_loader.load_vars()
        proven, limit = tc == TC.convergenceCriteriaSatisfied, tc in _LIMITS
        bound = trusted_bound(bound, proven, limit)
        status, gap = classify(sense, objective, bound, proven_optimal=proven,
                               limit_reached=limit)
        if status == Status.ERROR:
            return SolveResult(status, None, bound, None, runtime, self.name, version, sense,
                               tc.name, {"time_limit": time_limit, "mip_gap": mip_gap})
        return SolveResult(status, objective, bound, gap, runtime, self.name, version, sense,
                           tc.name, {"time_limit": time_limit, "mip_gap": mip_gap,
                                     "threads": threads})
