"""Heterogeneous weighted completion time (seed 003, Zhou et al., TCC'22): minimize
sum_j w_j c_j choosing each job's start, worker/PS types, counts and placement, under the PS
architecture (problem (2)) or Ring-AllReduce (problem (15)); ``Workload.extra["hetero"]``
says which (:mod:`mlopt.families.hetero.data`).

DECISION: ``a_online`` serves both architectures -- it runs the PS subroutines (A_mincost1/2)
on a PS workload and the RA ones (A^RA_mincost1/2) on an RA workload, so a workload never meets
the wrong variant (and specs written for either keep working).  ``a_online_ra`` is the issue's
explicit Ring-AllReduce name: the same algorithm, but it refuses a PS workload (one-line
InputError, exit 2) instead of silently running the PS variant; its probe preset is ``tiny-ra``
(``Family.algorithm_presets``).

Pieces: generator presets (:mod:`.generator`), the checker (:mod:`.checker`), A_online with
A_dual / A_maxweight / A_mincost (:mod:`.online`, :mod:`.maxweight`, :mod:`.mincost`).
"""
from __future__ import annotations

from mlopt.families.base import Family, register_family
from mlopt.families.hetero.checker import check_hetero
from mlopt.families.hetero.data import validate_hetero
from mlopt.families.hetero.generator import PRESET_FUNCS, from_trace
from mlopt.families.hetero.baselines import BASELINES
from mlopt.families.hetero.bounds import lower_bound
from mlopt.families.hetero.online import run_a_online, run_a_online_ra
from mlopt.families.hetero.theory import diagnostics
from mlopt.models.hetero import build_wct_milp, extract_schedule

FAMILY = register_family(Family(
    name="hetero",
    paper="seeds/003 heterogeneous weighted completion (Zhou et al., TCC'22)",
    sense="min",
    check=check_hetero,
    models={"wct_milp": build_wct_milp},
    default_model="wct_milp",
    extract={"wct_milp": extract_schedule},
    bounds={"lower_bound": lower_bound},
    algorithms={"a_online": run_a_online, "a_online_ra": run_a_online_ra, **BASELINES},
    algorithm_presets={"a_online_ra": "tiny-ra"},
    presets=dict(PRESET_FUNCS),
    validate=validate_hetero,
    diagnostics={"a_online": diagnostics, "a_online_ra": diagnostics},
    from_trace=from_trace,
))
