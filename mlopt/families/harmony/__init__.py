"""Harmony (seed 002, Bao, Peng, Wu; INFOCOM'19): interference-aware placement of PS jobs.

Wires the family's modules into one registered :class:`Family`: the ground-truth speed model
(:mod:`.speed`, parameters in ``speed_model.toml``), generator presets (:mod:`.generator`), the
placement simulator (:mod:`.state`), the independent checker (:mod:`.checker`), the paper's
baselines (:mod:`.baselines`) and the offline placement MILP (:mod:`mlopt.models.harmony`).
"""
from __future__ import annotations

from mlopt.families.base import Family, register_family
from mlopt.families.harmony.baselines import BASELINES
from mlopt.families.harmony.checker import check_harmony
from mlopt.families.harmony.drl import run_harmony, train_policy
from mlopt.families.harmony.from_trace import harmony_from_trace
from mlopt.families.harmony.generator import preset_generators
from mlopt.families.harmony.milp_greedy import run_milp_greedy
from mlopt.families.harmony.reward_model import train_reward_model
from mlopt.families.harmony.validate import validate_harmony
from mlopt.models.harmony.interval import build_interval_milp_at
from mlopt.models.harmony.placement import build_placement_milp, extract_schedule

FAMILY = register_family(Family(
    name="harmony",
    paper="seeds/002 Harmony (Bao, Peng, Wu; INFOCOM'19)",
    sense="min",
    check=check_harmony,
    # interval_milp: milp_greedy's per-interval model, for export (it has no full schedule, so
    # no extractor: solve/spec reject it as an offline method)
    models={"placement_milp": build_placement_milp, "interval_milp": build_interval_milp_at},
    default_model="placement_milp",
    extract={"placement_milp": extract_schedule},
    algorithms={"harmony": run_harmony, "milp_greedy": run_milp_greedy, **BASELINES},
    presets=preset_generators(),
    validate=validate_harmony,
    trainers={"policy": train_policy, "reward_model": train_reward_model},
    from_trace=harmony_from_trace,
))
