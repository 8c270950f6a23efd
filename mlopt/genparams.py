"""Helpers shared by the instance generators: uniform draws with a given rounding, and the
declared-parameter shorthands the generators' ``params(preset)`` schemas are built from.

A generator module (see :mod:`mlopt.families.base`) declares its parameters with
:class:`mlopt.params.Param`; these helpers only shorten the common cases (a count range, a
real range, a size capped by :mod:`mlopt.limits`) and hold the two draw helpers several
generators use, so no generator imports another family's private functions.
"""
from __future__ import annotations

import numpy as np

from mlopt import limits
from mlopt.params import Param


# ---- draws -----------------------------------------------------------------------------------

def sig6(x, lo: float, hi: float) -> np.ndarray:
    """Round to 6 significant digits (readable JSON), clipped back into [lo, hi]."""
    rounded = np.array([float(f"{v:.6g}") for v in np.atleast_1d(x)])
    return np.clip(rounded, lo, hi)


def uniform6(rng: np.random.Generator, bounds, size: int) -> np.ndarray:
    """``size`` uniform reals in [lo, hi], rounded to 6 significant digits."""
    lo, hi = bounds
    return sig6(rng.uniform(lo, hi, size=size), lo, hi)


def integers(rng: np.random.Generator, bounds, size: int) -> np.ndarray:
    """``size`` uniform integers in [lo, hi] (both ends included)."""
    lo, hi = bounds
    return rng.integers(lo, hi, size=size, endpoint=True)


# ---- declared parameters ---------------------------------------------------------------------

def count_range(default, *, low: int = 0, high: int = limits.MAX_COUNT, doc: str = "") -> Param:
    """[a, b] of integers in [low, high] (uniform integer draws)."""
    return Param.range(tuple(default), low=low, high=high, integer=True, doc=doc)


def real_range(default, *, low: float = 0.0, high: float = limits.MAX_VALUE,
               low_open: bool = False, doc: str = "") -> Param:
    """[a, b] of reals in [low, high] (``low_open``: a > low)."""
    return Param.range(tuple(default), low=low, high=high, low_open=low_open, doc=doc)


def as_float_range(value) -> tuple[float, float]:
    """A two-item range as a (low, high) pair of floats."""
    return float(value[0]), float(value[1])


def as_int_range(value) -> tuple[int, int]:
    """A two-item range as a (low, high) pair of ints."""
    return int(value[0]), int(value[1])
