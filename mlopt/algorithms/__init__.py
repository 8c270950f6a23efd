"""Online algorithms and baselines, registered by name.

An algorithm is ``fn(workload, **options) -> Schedule`` (randomized ones take ``seed``); the
harness, the CLI and the family registry look it up in :data:`ALGORITHMS`.  Add one: write
``algorithms/<name>.py`` and call :func:`register_algorithm` here.
"""
from __future__ import annotations

from typing import Callable

from ..errors import InputError
from ..schedule import Schedule
from .oasis import run_oasis

AlgorithmFn = Callable[..., Schedule]

ALGORITHMS: dict[str, AlgorithmFn] = {}


def register_algorithm(name: str, fn: AlgorithmFn) -> AlgorithmFn:
    ALGORITHMS[name] = fn
    return fn


def get_algorithm(name: str) -> AlgorithmFn:
    if name not in ALGORITHMS:
        raise InputError(f"unknown algorithm (known: {', '.join(sorted(ALGORITHMS))})",
                         field="algorithm", value=name)
    return ALGORITHMS[name]


register_algorithm("oasis", run_oasis)  # seed 000, Alg. 1 + Alg. 2

__all__ = ["ALGORITHMS", "AlgorithmFn", "get_algorithm", "register_algorithm"]
