"""Harmony (seed 002, Bao, Peng, Wu; INFOCOM'19): interference-aware placement of PS jobs.

The registration only: the ground-truth speed model (:mod:`.speed`, parameters in
``speed_model.toml``), generator presets (:mod:`.generator`), the placement simulator
(:mod:`.state`), the independent checker (:mod:`.checker`), the DRL policy (:mod:`.agent`; its training: :mod:`.training`), the
paper's baselines (:mod:`.baselines`) and the placement MILPs (:mod:`mlopt.models.harmony`).
"""
from __future__ import annotations

from mlopt.families.base import Algorithm, Family, Formulation

P = "mlopt.families.harmony"

FAMILY = Family(
    name="harmony",
    paper="seeds/002 Harmony (Bao, Peng, Wu; INFOCOM'19)",
    sense="min",
    checker=f"{P}.checker:check_harmony",
    fields=f"{P}.fields:validate_harmony",
    generator=f"{P}.generator",
    formulations=[
        Formulation("placement_milp", "mlopt.models.harmony.placement:build_placement_milp",
                    "mlopt.models.harmony.placement:extract_schedule"),
        # milp_greedy's per-interval model, for export (it has no full schedule)
        Formulation("interval_milp", "mlopt.models.harmony.interval:build_interval_milp_at",
                    role="export"),
    ],
    default_model="placement_milp",
    algorithms_=[
        Algorithm("harmony", f"{P}.agent:run_harmony"),
        Algorithm("milp_greedy", f"{P}.milp_greedy:run_milp_greedy", role="reference"),
        *(Algorithm(name, f"{P}.baselines:BASELINES.{name}", role="baseline")
          for name in ("lb", "tetris", "lif_line", "lif_quad")),
    ],
    trainers_={"policy": f"{P}.training:train_policy",
               "reward_model": f"{P}.reward_model:train_reward_model"},
    from_trace_=f"{P}.from_trace:harmony_from_trace",
)
