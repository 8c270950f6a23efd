"""Edge-cloud JCT (seed 001, Wang, Zhou, Jiao, Zhang, Li, Li; IEEE JSAC 2022): minimize total
job completion time of distributed ML jobs over edge servers and a cloud.  Sense ``min``:
ratios are ALG / OPT.

The registration only: fields and validation (:mod:`.fields`), generator presets
(:mod:`.generator`), the exact MILP and the flow-time bound models (:mod:`mlopt.models.edgecloud`),
certified lower bounds (:mod:`.bounds`), A_online (:mod:`.online`), baselines (:mod:`.baselines`),
theory checks (:mod:`.theory`) and the independent checker (:mod:`.checker`).
"""
from __future__ import annotations

from mlopt.families.base import Algorithm, Bound, Family, Formulation

P = "mlopt.families.edgecloud"
M = "mlopt.models.edgecloud"

FAMILY = Family(
    name="edgecloud",
    paper="seeds/001 edge-cloud JCT, A_online (Wang, Zhou, Jiao, Zhang, Li, Li; JSAC'22)",
    sense="min",
    slots_past_horizon=True,  # T bounds arrivals; jobs may run past it
    checker=f"{P}.checker:check_edgecloud",
    fields=f"{P}.fields:validate",
    generator=f"{P}.generator",
    formulations=[
        Formulation("jct_milp", f"{M}:build_jct_milp", f"{M}:extract_schedule"),
        # lower-bound models: exportable (golden LPs), used through the bounds below
        Formulation("flow_lb", f"{M}:build_flow_lb", role="bound"),
        Formulation("flow_lb_zeta1", f"{M}:build_flow_lb_zeta1", role="bound"),
    ],
    default_model="jct_milp",
    algorithms_=[
        Algorithm("a_online", f"{P}.online:run_a_online", diagnostics=f"{P}.theory:diagnostics"),
        Algorithm("a_online_e", f"{P}.online:run_a_online_e",
                  diagnostics=f"{P}.theory:diagnostics_edge_only"),
        *(Algorithm(name, f"{P}.baselines:BASELINES.{name}", role="baseline")
          for name in ("srtf", "tiresias_l", "batchsche")),
    ],
    bounds_=[Bound(name, f"{P}.bounds:BOUNDS.{name}")
             for name in ("flow_lb", "flow_lb_zeta1", "jct_unpinned")],
)
