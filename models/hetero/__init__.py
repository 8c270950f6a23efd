"""Formulations of seed 003 (Zhou et al., heterogeneous weighted completion time).

* :mod:`.wct_milp`: ``build_wct_milp`` / ``extract_schedule``, the exact configuration MILP of
  (2) (PS) / (15) (Ring-AllReduce) and, with ``deadline=``, the round's max-weight form (7) /
  (16); ``sequential_bound`` (the exact horizon it uses);
* :mod:`.placement_ti` / :mod:`.placement_clique`: the per-placement time-indexed model, and
  the same with per-slot clique rows (registered by module path, not re-exported);
* :mod:`.mincost13`: ``build_mincost13``, the one-job cost problem (13) / (21).

This package only re-exports them (the family registers ``mlopt.models.hetero.wct_milp``).
"""
from mlopt.models.hetero.mincost13 import build_mincost13
from mlopt.models.hetero.wct_milp import build_wct_milp, extract_schedule, sequential_bound

__all__ = ["build_mincost13", "build_wct_milp", "extract_schedule", "sequential_bound"]
