"""OASiS (seed 000, Bao et al., INFOCOM'18): maximize total utility of admitted jobs.

Wires the pieces that live in their own modules into one registered :class:`Family`:
generator presets (:mod:`mlopt.generators.oasis`), the utility ILP (1)-(13)
(:mod:`mlopt.models.oasis`), the online algorithm (:mod:`mlopt.algorithms.oasis`), the paper's
baselines (:mod:`mlopt.algorithms.baselines`) and the independent checker
(:mod:`mlopt.checkers.oasis`).
"""
from __future__ import annotations

from functools import partial

from ..algorithms import ALGORITHMS
from ..algorithms.baselines import BASELINES
from ..checkers.oasis import check_oasis
from ..generators.oasis import PRESETS, generate
from ..models.oasis import build_utility_ilp, extract_schedule
from .base import Family, register_family

FAMILY = register_family(Family(
    name="oasis",
    paper="seeds/000 OASiS (Bao, Peng, Wu, Li; INFOCOM'18)",
    sense="max",
    check=check_oasis,
    models={"utility_ilp": build_utility_ilp},
    default_model="utility_ilp",
    extract={"utility_ilp": extract_schedule},
    algorithms={"oasis": ALGORITHMS["oasis"], **BASELINES},
    presets={name: partial(generate, name) for name in PRESETS},
))
