"""PD-ORS resource prices: (12)-(14) of seed 004, on the shared :mod:`mlopt.exp_prices`.

    Q_h^r(rho) = L (U^r / L)^(rho / C_h^r)                                           (12)
    U^r = max_i u_i(d_i^best) / (alpha_i^r + beta_i^r)                               (13)
    L   = min_i u_i(T - a_i) / (2 mu sum_r ceil(n_i^ext) (alpha_i^r + beta_i^r))     (14)

DECISIONS (notes 004, O4/O5):

* (13)'s argument "ceil(...) - a_i" copies OASiS's slip; it is the shortest *duration*:
  F_i workers at internal speed every slot need ceil(n_i^int / F_i) slots, completing in slot
  a_i + that - 1, so d_i^best = ceil(n_i^int / F_i) - 1 (durations count from 0).
* (14) as printed: ceil(E_i K_i (tau_i + c^ext)) is in seconds of one worker; we read it as the
  job's worker-slots at external speed ceil(n_i^ext), as OASiS's (25).
* mu (undefined in the seed) = max(1, max_i T sum_h sum_r C_h^r / (ceil(n_i^ext) sum_r
  (alpha_i^r + beta_i^r))), the OASiS-eta analogue.
* Which jobs count: those that can finish by T at all (a_i + ceil(n_i^int / F_i) - 1 <= T);
  U^r only over jobs using r; if nobody uses r, U^r := L (flat price).  Machines with C = 0 in
  r keep the flat price L.
* Estimates (as OASiS Fig. 6): ``price_mode="estimate"`` scales every U^r / L by ``factor``
  (floored at 1).  ``price_scale`` (not from the papers) caps ln(U^r / L), see
  :mod:`mlopt.exp_prices`; unset, the literal (12)-(14).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from mlopt.errors import InputError
from mlopt.exp_prices import cap_log_lower, check_price_scale, exp_price, log_ratio, log_utility
from mlopt.families.pdors.fields import EPS, PdorsArrays, fastest_slots
from mlopt.workload import Workload

PRICE_MODES = ("oracle", "estimate")


@dataclass(frozen=True)
class PdorsPrices:
    resources: tuple[str, ...]
    log_L: float
    log_U: np.ndarray  # (R,)
    mu: float
    jobs_used: int
    mode: str = "oracle"
    factor: float = 1.0
    price_scale: float | None = None

    @property
    def log_ratio(self) -> np.ndarray:
        """ln(U^r / L) per resource."""
        return log_ratio(self.log_U, self.log_L)

    @property
    def alpha(self) -> float:
        """max_r(1, ln U^r / L): the OASiS-style constant (no theorem claims it for PD-ORS)."""
        return float(max(1.0, np.max(self.log_ratio)))

    def price(self, used: np.ndarray, capacity: np.ndarray) -> np.ndarray:
        """Return the exponential prices at the given usage and capacity."""
        return exp_price(used, capacity, self.log_L, self.log_U)

    def to_dict(self) -> dict:
        """Return the price parameters as a JSON-ready dict (non-finite numbers become None)."""
        def num(x):
            x = float(x)
            return x if math.isfinite(x) else None
        return {"mode": self.mode, "factor": self.factor, "price_scale": self.price_scale,
                "log_L": num(self.log_L), "mu": self.mu, "jobs_used": self.jobs_used,
                "log_U": {r: num(v) for r, v in zip(self.resources, self.log_U)},
                "log_ratio": {r: num(v) for r, v in zip(self.resources, self.log_ratio)},
                "alpha": num(self.alpha)}


def schedulable(workload: Workload, arr: PdorsArrays) -> np.ndarray:
    """Return a mask of the jobs that can finish within the horizon at full speed (as the
    checker counts work: :func:`.fields.fastest_slots`)."""
    return arr.arrival + fastest_slots(arr, workload.horizon) - 1 <= workload.horizon


def pdors_prices(workload: Workload, arr: PdorsArrays, *, price_mode: str = "oracle",
                 estimate_factor: float = 1.0, price_scale: float | None = None) -> PdorsPrices:
    """Return the PD-ORS price parameters L, U^r for the workload and price mode."""
    if price_mode not in PRICE_MODES:
        raise InputError(f"unknown price mode (known: {', '.join(PRICE_MODES)})",
                         field="price_mode", value=price_mode)
    check_price_scale(price_scale)
    T, R = workload.horizon, len(arr.resources)
    idx = np.flatnonzero(schedulable(workload, arr))
    if len(idx) == 0:
        return PdorsPrices(arr.resources, 0.0, np.zeros(R), 1.0, 0, price_mode,
                           estimate_factor, price_scale)
    dem = arr.alpha[idx] + arr.beta[idx]  # (n, R)
    work = np.maximum(1.0, np.ceil(arr.n_ext[idx] - EPS))
    mu = max(1.0, float(np.max(T * arr.cap.sum() / (work * dem.sum(axis=1)))))
    best = np.maximum(1, np.ceil(arr.n_int[idx] / arr.batch[idx] - EPS)) - 1
    log_best = np.array([float(log_utility(workload.jobs[i].utility, d))
                         for i, d in zip(idx, best)])
    log_last = np.array([float(log_utility(workload.jobs[i].utility, T - arr.arrival[i]))
                         for i in idx])
    log_L = -math.log(2 * mu) + float(np.min(log_last - np.log(work * dem.sum(axis=1))))
    log_U = np.empty(R)
    for r in range(R):
        users = dem[:, r] > 0
        log_U[r] = float(np.max(log_best[users] - np.log(dem[users, r]))) if users.any() \
            else log_L
    p = PdorsPrices(arr.resources, log_L, log_U, mu, len(idx))
    if price_mode == "estimate":
        if isinstance(estimate_factor, bool) or not isinstance(estimate_factor, (int, float)) \
                or not math.isfinite(estimate_factor) or estimate_factor <= 0:
            raise InputError("must be a finite number > 0", field="estimate_factor",
                             value=estimate_factor)
        lu = log_L + np.maximum(0.0, p.log_ratio + math.log(estimate_factor))
        p = replace(p, log_U=np.where(np.isinf(p.log_ratio), p.log_U, lu), mode="estimate",
                    factor=float(estimate_factor))
    if price_scale is not None:
        p = replace(p, log_L=cap_log_lower(p.log_L, p.log_U, price_scale),
                    price_scale=float(price_scale))
    return p
