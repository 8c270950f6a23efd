"""Pyomo formulations of Harmony (seed 002): the exact placement MILP over the horizon
(:mod:`.placement`) and the per-interval placement MILP (:mod:`.interval`)."""
# (``mlopt.models`` loads the families first, so this package imports on its own; the family
# names the submodules below directly, as this package may still be initializing then.)
from mlopt.models.harmony.interval import build_interval_milp, build_interval_milp_at
from mlopt.models.harmony.placement import MODEL_NAME, build_placement_milp, extract_schedule

__all__ = ["MODEL_NAME", "build_interval_milp", "build_interval_milp_at", "build_placement_milp",
           "extract_schedule"]
