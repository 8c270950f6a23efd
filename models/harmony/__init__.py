"""Pyomo formulations of Harmony (seed 002): the exact placement MILP over the horizon
(:mod:`.placement`) and the per-interval placement MILP (:mod:`.interval`)."""
# The formulations read the family's speed model, and the family registers them (and runs the
# per-interval MILP in milp_greedy): importing the family first lets ``import
# mlopt.models.harmony`` work on its own (the family then imports the submodules below while
# this package is still initializing, so it names them directly, not this package).
import mlopt.families.harmony  # noqa: F401  (import order, see above)
from mlopt.models.harmony.interval import build_interval_milp, build_interval_milp_at
from mlopt.models.harmony.placement import MODEL_NAME, build_placement_milp, extract_schedule

__all__ = ["MODEL_NAME", "build_interval_milp", "build_interval_milp_at", "build_placement_milp",
           "extract_schedule"]
