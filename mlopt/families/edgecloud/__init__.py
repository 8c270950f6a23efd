"""Edge-cloud JCT (seed 001, Wang, Zhou, Jiao, Zhang, Li, Li; IEEE JSAC 2022): minimize total
job completion time of distributed ML jobs over edge servers and a cloud.

Wires the family's modules into one registered :class:`Family`: fields and validation
(:mod:`.instance`), generator presets (:mod:`.generator`), the exact MILP (``jct_milp``,
:mod:`mlopt.models.edgecloud`), certified lower bounds (:mod:`.bounds`), the online algorithm
A_online (:mod:`.online`), baselines (:mod:`.baselines`), theory checks (:mod:`.theory`) and the
independent checker (:mod:`.checker`).  Sense ``min``: ratios are ALG / OPT.
"""
from __future__ import annotations

from functools import partial

from mlopt.families.base import Family, register_family
from mlopt.families.edgecloud.baselines import BASELINES
from mlopt.families.edgecloud.bounds import BOUNDS
from mlopt.families.edgecloud.checker import check_edgecloud
from mlopt.families.edgecloud.generator import PRESETS, generate
from mlopt.families.edgecloud.instance import validate
from mlopt.families.edgecloud.online import run_a_online, run_a_online_e
from mlopt.families.edgecloud.theory import diagnostics
from mlopt.models.edgecloud import build_jct_milp, extract_schedule

FAMILY = register_family(Family(
    name="edgecloud",
    paper="seeds/001 edge-cloud JCT, A_online (Wang, Zhou, Jiao, Zhang, Li, Li; JSAC'22)",
    sense="min",
    check=check_edgecloud,
    models={"jct_milp": build_jct_milp},
    default_model="jct_milp",
    extract={"jct_milp": extract_schedule},
    algorithms={"a_online": run_a_online, "a_online_e": run_a_online_e,
                **BASELINES},
    presets={name: partial(generate, name) for name in PRESETS},
    validate=validate,
    bounds=dict(BOUNDS),
    diagnostics={"a_online": diagnostics, "a_online_e": partial(diagnostics, use_cloud=False)},
))
