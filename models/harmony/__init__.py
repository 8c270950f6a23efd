"""Pyomo formulations of Harmony (seed 002): the exact placement MILP (:mod:`.placement`)."""
from mlopt.models.harmony.placement import MODEL_NAME, build_placement_milp, extract_schedule

__all__ = ["MODEL_NAME", "build_placement_milp", "extract_schedule"]
