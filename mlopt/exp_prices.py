"""Exponential resource prices, shared by OASiS (seed 000, (22)-(26)) and PD-ORS (seed 004,
(12)-(14)).  Both papers price a resource r of a machine at

    p(rho) = L (U^r / L)^(rho / C^r)

with L the lowest and U^r the highest value per unit of resource any job can bring; the
papers differ only in how they compute L, U^r and in the pools they price (OASiS: a worker pool
and a PS pool with their own L; PD-ORS: one pool).  This module holds what is the same:

* evaluation in log space (L is e^-1000 or smaller at paper scale: a sigmoid evaluated hundreds
  of slots past its target; keeping log L and log U avoids the underflow of L itself);
* :func:`log_utility`, log u(d) accurate where u(d) underflows;
* the ``price_scale`` option (:func:`cap_log_lower`).

``price_scale`` is NOT FROM THE PAPERS.  With the literal parameters, ln(U/L) reaches ~1600 at
T = 300 (OASiS) and prices become a cliff: flat at ~0 until a machine is almost full, then
prohibitive.  ``price_scale = s`` raises L until max_r ln(U^r / L) <= s (U is kept, so the
price of a full machine is unchanged; the empty-machine price rises to U_max e^-s).  Unset
(None, the default) changes nothing: the papers' literal prices.
"""
from __future__ import annotations

import math

import numpy as np

from mlopt.errors import InputError
from mlopt.utility import Sigmoid, Utility

EPS = 1e-9


def log_utility(utility: Utility, duration) -> np.ndarray:
    """log u(duration), accurate where u itself underflows (sigmoid far past its target)."""
    d = np.asarray(duration, dtype=float)
    if isinstance(utility, Sigmoid):
        with np.errstate(divide="ignore"):
            return np.log(utility.gamma1) - np.logaddexp(0.0, utility.gamma2 * (d - utility.gamma3))
    with np.errstate(divide="ignore"):
        return np.log(np.asarray(utility(d), dtype=float))


def log_ratio(log_u, log_l: float) -> np.ndarray:
    """ln(U / L) >= 0 per resource; inf when L = 0 (and U > 0)."""
    if log_l == -math.inf:
        return np.where(np.asarray(log_u) == -math.inf, 0.0, math.inf)
    return np.maximum(0.0, np.asarray(log_u) - log_l)


def exp_price(used, capacity, log_l: float, log_u) -> np.ndarray:
    """L (U/L)^(used / C) in log space; used/C := 0 where C = 0, clipped to [0, 1].

    ``used`` (..., H, R), ``capacity`` (H, R) broadcastable, ``log_u`` (R,).  When L is exactly 0
    (a utility that reaches 0), the price is taken at its limit: 0 below capacity, U at it.
    """
    used = np.asarray(used, dtype=float)
    cap = np.broadcast_to(np.asarray(capacity, dtype=float), used.shape)
    with np.errstate(divide="ignore", invalid="ignore"):
        frac = np.where(cap > 0, used / np.where(cap > 0, cap, 1.0), 0.0)
    frac = np.clip(frac, 0.0, 1.0)
    if log_l == -math.inf:
        full = frac >= 1.0 - EPS
        return np.where(full, np.exp(np.broadcast_to(log_u, used.shape)), 0.0)
    return np.exp(log_l + frac * log_ratio(log_u, log_l))


def check_price_scale(value) -> float | None:
    """None (literal prices) or a finite number > 0; anything else is an :class:`InputError`."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or \
            not math.isfinite(value) or value <= 0:
        raise InputError("must be a finite number > 0 (or unset for the papers' prices)",
                         field="price_scale", value=value)
    return float(value)


def cap_log_lower(log_l: float, log_u, price_scale: float | None) -> float:
    """log L raised so that max_r ln(U^r / L) <= ``price_scale`` (not from the papers).

    Only resources with a finite U count; L never decreases.  ``price_scale=None``: log L as is.
    """
    scale = check_price_scale(price_scale)
    if scale is None:
        return log_l
    u = np.asarray(log_u, dtype=float)
    u = u[np.isfinite(u)]
    if u.size == 0:
        return log_l
    return max(log_l, float(u.max()) - scale)
