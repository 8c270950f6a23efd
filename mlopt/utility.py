"""Job utility functions f_i(t_hat - a_i): non-negative and non-increasing in the job's duration.

A utility is data (``{"kind": "sigmoid", "gamma1": .., "gamma2": .., "gamma3": ..}``) so it
round-trips through JSON; :func:`utility_from_dict` looks the kind up in :data:`UTILITY_KINDS`.
Durations are measured in slots as ``completion_slot - arrival_slot`` (0 when a job finishes in
the slot it arrives in), exactly the argument the OASiS paper feeds to f_i.
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Callable, ClassVar

import numpy as np

from mlopt import limits
from mlopt.errors import InputError


def _finite_nonneg(name: str, value, field: str) -> float:
    # strictly a JSON number: "5" and true are not numbers (they used to be converted silently)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InputError("must be a number", field=f"{field}.{name}", value=value)
    if isinstance(value, int) and abs(value) > limits.MAX_VALUE:
        raise InputError(f"above the limit {limits.MAX_VALUE:,} (see mlopt.limits)",
                         field=f"{field}.{name}", value=value)
    x = float(value)
    if not math.isfinite(x) or x < 0:
        raise InputError("must be finite and >= 0", field=f"{field}.{name}", value=value)
    if x > limits.MAX_VALUE:
        raise InputError(f"above the limit {limits.MAX_VALUE:,} (see mlopt.limits)",
                         field=f"{field}.{name}", value=value)
    return x


@dataclass(frozen=True)
class Utility:
    kind: ClassVar[str] = "base"

    def __call__(self, duration) -> float | np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    def to_dict(self) -> dict:
        """The utility function as a dict (its kind and parameters)."""
        return {"kind": self.kind, **asdict(self)}

    def max_value(self) -> float:
        """The utility of finishing at once (duration 0), its largest value."""
        return float(self(0))


@dataclass(frozen=True)
class Sigmoid(Utility):
    """OASiS Sec. V-A: f(d) = gamma1 / (1 + exp(gamma2 * (d - gamma3))).

    gamma1: priority, gamma2: decay (0 = time-insensitive), gamma3: target completion time.
    """

    gamma1: float
    gamma2: float
    gamma3: float
    kind: ClassVar[str] = "sigmoid"

    def __call__(self, duration):
        d = np.asarray(duration, dtype=float)
        # exp overflows to inf for very late completions; 1/(1+inf) = 0 is the right limit.
        with np.errstate(over="ignore"):
            val = self.gamma1 / (1.0 + np.exp(self.gamma2 * (d - self.gamma3)))
        return float(val) if val.ndim == 0 else val


@dataclass(frozen=True)
class Constant(Utility):
    """A time-insensitive job worth ``value`` whenever it completes within the horizon."""

    value: float
    kind: ClassVar[str] = "constant"

    def __call__(self, duration):
        d = np.asarray(duration, dtype=float)
        val = np.full(d.shape, self.value, dtype=float)
        return float(val) if val.ndim == 0 else val


@dataclass(frozen=True)
class Linear(Utility):
    """f(d) = max(0, value - slope * d): a simple linearly decaying utility."""

    value: float
    slope: float
    kind: ClassVar[str] = "linear"

    def __call__(self, duration):
        d = np.asarray(duration, dtype=float)
        val = np.maximum(0.0, self.value - self.slope * d)
        return float(val) if val.ndim == 0 else val


UTILITY_KINDS: dict[str, Callable[..., Utility]] = {
    Sigmoid.kind: Sigmoid,
    Constant.kind: Constant,
    Linear.kind: Linear,
}

_PARAMS = {"sigmoid": ("gamma1", "gamma2", "gamma3"), "constant": ("value",),
           "linear": ("value", "slope")}


def utility_from_dict(data, field: str = "utility") -> Utility:
    """A utility function from its dict; bad input is an InputError."""
    if not isinstance(data, dict):
        raise InputError("must be an object with a 'kind'", field=field, value=data)
    kind = data.get("kind")
    if not isinstance(kind, str) or kind not in UTILITY_KINDS:
        raise InputError(f"unknown utility kind (known: {', '.join(UTILITY_KINDS)})",
                         field=f"{field}.kind", value=kind)
    params = {}
    for name in _PARAMS[kind]:
        if name not in data:
            raise InputError("missing", field=f"{field}.{name}")
        params[name] = _finite_nonneg(name, data[name], field)
    extra = set(data) - set(_PARAMS[kind]) - {"kind"}
    if extra:
        raise InputError("unknown key", field=f"{field}.{sorted(extra)[0]}")
    return UTILITY_KINDS[kind](**params)
