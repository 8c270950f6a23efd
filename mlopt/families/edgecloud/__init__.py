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
from mlopt.errors import InputError
from mlopt.models.edgecloud import (build_flow_lb, build_flow_lb_zeta1, build_jct_milp,
                                    extract_schedule)


def _no_schedule(model, workload):
    """flow_lb is a lower bound: it has a formulation (export, golden LP) but no schedule."""
    raise InputError("a lower-bound model has no schedule; use it as a bound "
                     "([offline] bounds = [\"flow_lb\"] in a spec)", field="model",
                     value=model.name)

FAMILY = register_family(Family(
    name="edgecloud",
    paper="seeds/001 edge-cloud JCT, A_online (Wang, Zhou, Jiao, Zhang, Li, Li; JSAC'22)",
    sense="min",
    check=check_edgecloud,
    models={"jct_milp": build_jct_milp, "flow_lb": build_flow_lb,
            "flow_lb_zeta1": build_flow_lb_zeta1},
    default_model="jct_milp",
    extract={"jct_milp": extract_schedule, "flow_lb": _no_schedule,
             "flow_lb_zeta1": _no_schedule},
    algorithms={"a_online": run_a_online, "a_online_e": run_a_online_e,
                **BASELINES},
    presets={name: partial(generate, name) for name in PRESETS},
    validate=validate,
    bounds=dict(BOUNDS),
    diagnostics={"a_online": diagnostics, "a_online_e": partial(diagnostics, use_cloud=False)},
))
