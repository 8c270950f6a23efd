"""OASiS (seed 000, Bao et al., INFOCOM'18): maximize total utility of admitted jobs.

The registration only: the family's own fields (:mod:`.fields`), generator presets
(:mod:`.generator`), the utility ILP (1)-(13) (:mod:`mlopt.models.oasis`), the online algorithm
(:mod:`.online`), the paper's baselines (:mod:`.baselines`), certified bounds (:mod:`.bounds`),
per-run theory checks (:mod:`.theory`), the trace conversion (:mod:`.trace`) and the
independent checker (:mod:`.checker`).

Every algorithm declares its options below (``mlopt run ... --option KEY=VALUE``); nothing else
is accepted, and the seed is ``--seed``, never an option.  Ranges are what the code supports:
worker counts that a baseline loops over are capped at :data:`MAX_FIXED_WORKERS`, solver time
limits at an hour per re-solve.
"""
from __future__ import annotations

from mlopt import limits
from mlopt.families.base import Algorithm, Bound, Family, Formulation
from mlopt.params import Param

P = "mlopt.families.oasis"

#: largest fixed worker count FIFO / RRH accept (the paper draws from [1, 30]; the sizing loop
#: tries every count from this down to 1 on the empty cluster)
MAX_FIXED_WORKERS = 10_000
#: longest re-solve Dorm accepts (seconds)
MAX_RESOLVE_SECONDS = 3600.0

_WORKERS = Param.int(None, low=1, high=MAX_FIXED_WORKERS, nullable=True,
                     doc="fixed worker count of every job (null: one draw per job from "
                         "worker_range); capped by N_i")
_WORKER_RANGE = Param.range((1, 30), low=1, high=MAX_FIXED_WORKERS, integer=True,
                            doc="inclusive range of the per-job worker draw (paper: [1, 30])")
_RECORD = Param.bool(True, doc="keep the per-event allocation log in the schedule's meta")

OASIS_OPTIONS = {
    "price_mode": Param.choice("oracle", ("oracle", "estimate"),
                               doc="price parameters (23)-(26): the oracle's or Fig. 6's estimate"),
    "estimate_factor": Param.float(1.0, low=0.0, low_open=True, high=1e6,
                                   doc="Fig. 6: U^r/L scaled by this factor (price_mode=estimate)"),
    "subroutine": Param.choice("fast", ("fast", "reference"),
                               doc="Alg. 2 implementation (reference: the literal DP, slow)"),
    "work_unit": Param.choice("chunk", ("chunk", "worker_slot"),
                              doc="whole chunks per slot (Alg. 2) or worker-slots ((27) proper)"),
    "price_scale": Param.float(None, low=0.0, low_open=True, high=1e6, nullable=True,
                               doc="cap on ln(U/L), not from the paper (null: literal prices)"),
}
LNS_OPTIONS = {
    "start": Param.choice("local_search", ("local_search", "oasis"),
                          doc="the schedule improved: the residual local search's (at most a "
                              "fifth of time_limit) or OASiS's"),
    "start_file": Param.path(None, doc="a schedule file of the workload to improve instead "
                                       "(e.g. mlopt bracket -o's best schedule)"),
    "time_limit": Param.float(60.0, low=0.0, low_open=True, high=86_400.0,
                              doc="seconds for the whole run (build, start, search), a cap"),
    "window": Param.int(8, low=1, high=limits.MAX_JOBS,
                        doc="jobs re-optimized per sub-MIP at first (adapts: +1 after a fast "
                            "optimal sub-MIP, -1 after one timed out without a gain)"),
    "window_time": Param.float(20.0, low=0.0, low_open=True, high=MAX_RESOLVE_SECONDS,
                               doc="HiGHS seconds per sub-MIP"),
    "neighbourhoods": Param.list(
        Param.choice("span", ("span", "span_servers", "rejected", "slab")),
        ["span", "span_servers", "rejected"], min_items=1, max_items=4,
        doc="windows drawn by adaptive weights: span (jobs near a slot), span_servers (twice "
            "the jobs, on the servers they use plus a quarter of the others), rejected (a "
            "rejected job and the jobs near its arrival), slab (every job active in a few "
            "slots, free on those slots); [span] with grow=0 is the fifth round's search"),
    "grow": Param.float(0.25, low=0.0, high=4.0,
                        doc="a window grows by max(1, grow x its size) after a fast optimal "
                            "sub-MIP"),
    "tail": Param.float(0.01, low=0.0, high=0.5,
                        doc="a window frees a job's slots only while its utility is at least "
                            "tail x its best (and up to its last used slot); 0 frees every "
                            "slot (the sixth round's search)"),
}
FIFO_OPTIONS = {"workers": _WORKERS, "worker_range": _WORKER_RANGE}
DRF_OPTIONS = {"record_events": _RECORD}
RRH_OPTIONS = {
    "threshold": Param.float(0.0, low=-limits.MAX_VALUE,
                             doc="admit iff gain minus delay cost exceeds this"),
    "workers": _WORKERS, "worker_range": _WORKER_RANGE, "record_events": _RECORD,
}
DORM_OPTIONS = {
    "theta": Param.float(0.5, low=0.0, high=1.0, doc="fairness band around the fair share"),
    "max_adjust": Param.int(None, low=0, high=limits.MAX_JOBS, nullable=True,
                            doc="jobs re-allocated per re-solve (null: from adjust_fraction)"),
    "adjust_fraction": Param.float(0.5, low=0.0, high=1.0,
                                   doc="max_adjust as a share of the jobs holding resources"),
    "solver": Param.choice("highs", ("highs", "scip", "cpsat", "gurobi"),
                           doc="MILP backend of each re-solve"),
    "time_limit": Param.float(2.0, low=0.0, high=MAX_RESOLVE_SECONDS,
                              doc="seconds per re-solve"),
    "mip_gap": Param.float(1e-4, low=0.0, high=1.0, doc="relative MIP gap per re-solve"),
    "threads": Param.int(1, low=1, high=256, nullable=True, doc="solver threads (null: solver's)"),
    "relax_floor": Param.bool(True, doc="re-solve without the fairness floor when infeasible"),
}

FAMILY = Family(
    name="oasis",
    paper="seeds/000 OASiS (Bao, Peng, Wu, Li; INFOCOM'18)",
    sense="max",
    package=P,  # checker.py, fields.py, generator.py by convention
    formulations=[Formulation.exact("utility_ilp", "mlopt.models.oasis",
                                   estimate="mlopt.models.oasis.estimate:estimate_utility_ilp")],
    default_model="utility_ilp",
    algorithms_=[
        Algorithm("oasis", f"{P}.online:run_oasis", options=OASIS_OPTIONS,
                  diagnostics=f"{P}.theory:diagnostics"),
        Algorithm("fifo", f"{P}.baselines:BASELINES.fifo", options=FIFO_OPTIONS,
                  role="baseline"),
        Algorithm("drf", f"{P}.baselines:BASELINES.drf", options=DRF_OPTIONS, role="baseline"),
        Algorithm("rrh", f"{P}.baselines:BASELINES.rrh", options=RRH_OPTIONS, role="baseline"),
        Algorithm("dorm", f"{P}.baselines:BASELINES.dorm", options=DORM_OPTIONS,
                  role="baseline"),
        # offline fix-and-resolve on the utility ILP from a start of its own (.primal.lns)
        Algorithm("lns", f"{P}.primal.lns:run_lns", options=LNS_OPTIONS, role="reference",
                  budget_option="time_limit", start_option="start_schedule"),
    ],
    bounds_=[Bound(name, f"{P}.bounds:REGISTRY.{name}") for name in ("dual_certificate", "colgen")]
    # a MILP solver's dual bound of a relaxation: closes an interval only with a witness it meets
    # (bracket hands it the best checked schedule as the solver's first incumbent: the
    # seventh round's 600 s bounds at oasis-open-2 were measured from such a start)
    # from a start it runs the check-and-cut loop above it and asks SCIP to confirm a proof
    # (bounds/class_relaxation.py, eighth round), so a bracket from a start gives it the core
    # the exact model would take (oasis-open-1: benchmarks/oasis/frontier.md, eighth round)
    + [Bound("class_relaxation", f"{P}.bounds:REGISTRY.class_relaxation", solver=True,
             start_option="warm_start", proves_from_start=True)],
    from_trace_=f"{P}.trace:trace_to_workload",
)
