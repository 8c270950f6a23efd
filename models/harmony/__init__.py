"""Pyomo formulations of Harmony (seed 002): the exact placement MILP over the horizon
(:mod:`.placement`) and the per-interval placement MILP (:mod:`.interval`)."""
from mlopt.models.harmony.interval import build_interval_milp
from mlopt.models.harmony.placement import MODEL_NAME, build_placement_milp, extract_schedule

__all__ = ["MODEL_NAME", "build_interval_milp", "build_placement_milp", "extract_schedule"]
