"""PD-ORS (seed 004, "Toward Efficient Online Scheduling for Distributed Machine Learning
Systems"): maximize total utility when workers and PSs may share machines (Fact 1).

Wires the family's modules into one registered :class:`Family`: job fields and validation
(:mod:`.fields`), generator presets (:mod:`.generator`), the OASiS-adapted view
(:mod:`.oasis_adapted`), the independent checker (:mod:`.checker`), the exact DMLRS MILP
(:mod:`mlopt.models.pdors`), the online algorithm (:mod:`.online`: prices :mod:`.prices`, DP
:mod:`.dp`, per-slot oracle :mod:`.oracle`) and the baselines (:mod:`.baselines`).
"""
from __future__ import annotations

from functools import partial

from mlopt.families.base import Family, register_family
from mlopt.families.pdors.baselines import BASELINES
from mlopt.families.pdors.checker import check_pdors
from mlopt.families.pdors.colgen import colgen_bound
from mlopt.families.pdors.fields import validate_pdors
from mlopt.families.pdors.generator import PRESETS, generate
from mlopt.families.pdors.online import run_pdors, run_pdors_no_internal
from mlopt.families.pdors.theory import job_sum_bound, pdors_diagnostics
from mlopt.models.pdors import build_dmlrs_milp, extract_schedule

FAMILY = register_family(Family(
    name="pdors",
    paper="seeds/004 PD-ORS (online scheduling with worker/PS co-location)",
    sense="max",
    check=check_pdors,
    models={"dmlrs_milp": build_dmlrs_milp},
    default_model="dmlrs_milp",
    extract={"dmlrs_milp": extract_schedule},
    algorithms={"pdors": run_pdors, "pdors_no_internal": run_pdors_no_internal, **BASELINES},
    presets={name: partial(generate, name) for name in PRESETS},
    validate=validate_pdors,
    diagnostics={"pdors": pdors_diagnostics},
    bounds={"job_sum": job_sum_bound, "colgen": colgen_bound},
))
