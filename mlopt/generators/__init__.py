"""Instance generators, registered by name.

A generator is ``fn(preset: str, seed: int, **overrides) -> Workload``: seeded (same seed, same
workload bit for bit) and driven by named parameter presets.  Each family's generator lives in
its own module (``oasis`` for seed 000) and exposes ``PRESETS`` and ``generate``.
"""
from __future__ import annotations

from typing import Callable

from ..errors import InputError
from ..workload import Workload
from . import oasis

GeneratorFn = Callable[..., Workload]

# generator name -> (generate function, its preset table)
GENERATORS: dict[str, GeneratorFn] = {}
PRESETS: dict[str, dict[str, dict]] = {}


def register_generator(name: str, fn: GeneratorFn, presets: dict[str, dict]) -> None:
    GENERATORS[name] = fn
    PRESETS[name] = presets


def get_generator(name: str) -> GeneratorFn:
    if name not in GENERATORS:
        raise InputError(f"unknown generator (known: {', '.join(sorted(GENERATORS))})",
                         field="generator", value=name)
    return GENERATORS[name]


def generate(generator: str, preset: str | None = None, seed: int = 0, **overrides) -> Workload:
    """``generate("oasis", "paper-fig5", seed=3, n_servers=6)``; preset None: the default one."""
    fn = get_generator(generator)
    return fn(seed=seed, **overrides) if preset is None else fn(preset, seed=seed, **overrides)


register_generator("oasis", oasis.generate, oasis.PRESETS)

__all__ = ["GENERATORS", "PRESETS", "generate", "get_generator", "register_generator"]
