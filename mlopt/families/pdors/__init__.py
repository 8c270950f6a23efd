"""PD-ORS (seed 004, "Toward Efficient Online Scheduling for Distributed Machine Learning
Systems"): maximize total utility when workers and PSs may share machines (Fact 1).

Wires the family's modules into one registered :class:`Family`: job fields and validation
(:mod:`.fields`), generator presets (:mod:`.generator`), the OASiS-adapted view
(:mod:`.oasis_adapted`), the independent checker (:mod:`.checker`).
"""
from __future__ import annotations

from functools import partial

from mlopt.families.base import Family, register_family
from mlopt.families.pdors.checker import check_pdors
from mlopt.families.pdors.fields import validate_pdors
from mlopt.families.pdors.generator import PRESETS, generate

FAMILY = register_family(Family(
    name="pdors",
    paper="seeds/004 PD-ORS (online scheduling with worker/PS co-location)",
    sense="max",
    check=check_pdors,
    presets={name: partial(generate, name) for name in PRESETS},
    validate=validate_pdors,
))
