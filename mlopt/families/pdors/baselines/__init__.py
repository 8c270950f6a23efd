"""Baselines of seed 004 (FIFO, DRF, Dorm) and OASiS on a PD-ORS workload.

All four run OASiS's own implementations on the OASiS-adapted view of the workload, so they
share one module (:mod:`.adapted`: the runner, the declared options, the one-machine case).
FIFO, DRF and Dorm also run on the whole machine pool (``fifo_whole``, ``drf_whole``,
``dorm_whole``, issue 23).  ``BASELINES`` maps the registry name to the function.
"""
from __future__ import annotations

from mlopt.families.pdors.baselines.adapted import ADAPTED, BASELINES, OPTIONS, WHOLE

__all__ = ["ADAPTED", "BASELINES", "OPTIONS", "WHOLE"]
