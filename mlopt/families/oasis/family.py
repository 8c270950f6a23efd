"""OASiS (seed 000, Bao et al., INFOCOM'18): maximize total utility of admitted jobs.

The registration only: generator presets (:mod:`.generator`), the utility ILP (1)-(13)
(:mod:`mlopt.models.oasis`), the online algorithm (:mod:`.online`), the paper's baselines
(:mod:`.baselines`), certified bounds and theory checks (:mod:`.bounds`) and the independent
checker (:mod:`.checker`).
"""
from __future__ import annotations

from mlopt.families.base import Algorithm, Bound, Family, Formulation

P = "mlopt.families.oasis"

FAMILY = Family(
    name="oasis",
    paper="seeds/000 OASiS (Bao, Peng, Wu, Li; INFOCOM'18)",
    sense="max",
    checker=f"{P}.checker:check_oasis",
    fields="mlopt.workload:validate",
    generator=f"{P}.generator",
    formulations=[Formulation("utility_ilp", "mlopt.models.oasis:build_utility_ilp",
                              "mlopt.models.oasis:extract_schedule")],
    default_model="utility_ilp",
    algorithms_=[
        Algorithm("oasis", f"{P}.online:run_oasis", diagnostics=f"{P}.bounds.theory:diagnostics"),
        *(Algorithm(name, f"{P}.baselines:BASELINES.{name}", role="baseline")
          for name in ("fifo", "drf", "rrh", "dorm")),
    ],
    bounds_=[Bound(name, f"{P}.bounds:REGISTRY.{name}") for name in ("dual_certificate", "colgen")],
    from_trace_="mlopt.traces.convert:trace_to_workload",
)
