"""PD-ORS (seed 004, "Toward Efficient Online Scheduling for Distributed Machine Learning
Systems"): maximize total utility when workers and PSs may share machines (Fact 1).

The registration only: job fields and validation (:mod:`.fields`), generator presets
(:mod:`.generator`), the independent checker (:mod:`.checker`), the exact DMLRS MILP
(:mod:`mlopt.models.pdors`), the online algorithm (:mod:`.online`: prices :mod:`.prices`, DP
:mod:`.dp`, per-slot oracle :mod:`.oracle`), the baselines on the OASiS-adapted view
(:mod:`.baselines`, one machine included) and the bounds (:mod:`.theory`, :mod:`.colgen`).

Every algorithm declares its options: ``pdors`` / ``pdors_no_internal`` in
:data:`.online.OPTIONS`, the adapted baselines the options of the OASiS code they run
(:data:`.baselines.OPTIONS`).  The field check (:func:`.fields.validate_pdors`) also refuses
every workload the exact model and the bounds are not exact / valid for (b^(i) < b^(e), no
jobs, degenerate work): see its docstring.
"""
from __future__ import annotations

from mlopt.families.base import Algorithm, Bound, Family, Formulation

P = "mlopt.families.pdors"

FAMILY = Family(
    name="pdors",
    paper="seeds/004 PD-ORS (online scheduling with worker/PS co-location)",
    sense="max",
    package=P,  # checker.py, fields.py, generator.py by convention
    formulations=[Formulation.exact("dmlrs_milp", "mlopt.models.pdors",
                                   estimate="mlopt.models.pdors.estimate:estimate_dmlrs_milp")],
    default_model="dmlrs_milp",
    algorithms_=[
        Algorithm("pdors", f"{P}.online:run_pdors", options=f"{P}.online:OPTIONS",
                  diagnostics=f"{P}.theory:pdors_diagnostics"),
        Algorithm("pdors_no_internal", f"{P}.online:run_pdors_no_internal",
                  options=f"{P}.online:OPTIONS_NO_INTERNAL", role="reference"),
        *(Algorithm(name, f"{P}.baselines:BASELINES.{name}", role="baseline",
                    options=f"{P}.baselines:OPTIONS.{name}")
          for name in ("fifo", "drf", "dorm", "oasis", "fifo_whole", "drf_whole", "dorm_whole")),
    ],
    bounds_=[Bound("job_sum", f"{P}.theory:job_sum_bound"),
             Bound("colgen", f"{P}.colgen:colgen_bound")],
)
