"""OASiS resource prices: parameters (23)-(26) and price functions (22) of seed 000, Sec. IV-B.

    P_h^r(g) = L_1 (U_1^r / L_1)^(g / c_h^r),   Q_k^r(v) = L_2 (U_2^r / L_2)^(v / c_k^r)     (22)

Reading of the paper, decision by decision:

* "- a_i" in (23)/(24).  f_i takes a *duration* (t_hat_i - a_i).  The text says
  f_i(ceil(E_i M_i (tau_i + 2e_i/b_i)) - a_i) "is the largest utility that job i can achieve, by
  using the maximum number of workers (N_i) at all times ... to achieve the shortest job
  completion time ceil(E_i N_i M_i (...) / N_i)", and Appendix A restates U as
  max_{i, l in L_i} f_i(t_il - a_i) / w_i^r.  So the argument is the shortest achievable
  *duration*, and the literal "- a_i" (which would make the argument negative for late jobs) is a
  slip.  With n_i = ceil(W_i / N_i) = ceil(E_i chunk_slots_i) slots of N_i workers, started in
  the arrival slot, the job completes in slot a_i + n_i - 1, so the best utility is
  f_i(n_i - 1) (durations count from 0 = "completes in its arrival slot", :mod:`mlopt.utility`).
* Which jobs count.  Appendix A takes max/min over feasible schedules l in L_i; a job with an
  empty L_i (it cannot finish by T even with N_i workers every slot, or b_i > B_i so (6) and (7)
  exclude every worker) has no schedule and is left out of (23)-(26) and of eta_1, eta_2.
* Unused resources.  U_1^r is a max over jobs *using* r (w_i^r > 0): a job that needs none of r
  puts no lower bound on what r must cost.  If no job uses r, U_1^r := L_1: the price of r stays
  flat at L_1 (it multiplies w^r = 0 anyway).  Servers with c_h^r = 0 have g_h^r = 0 forever and
  get the flat price L_1 too (no 0/0).  Same for U_2^r, s_i^r, c_k^r.
* eta_1, eta_2.  The text asks 1/eta_1 <= ceil(W_i) sum_r w_i^r / (T sum_h sum_r c_h^r) for every
  job i, and Appendix A uses 1/eta_1 <= 1.  We take the smallest eta_1 satisfying both:
  eta_1 = max(1, T sum_h sum_r c_h^r / min_i ceil(W_i) sum_r w_i^r); eta_2 likewise with s_i, c_k.
  Note (25)/(26) use the worker-slot workload ceil(W_i) for the PS side too, as printed.
* Log space.  At paper scale min_i f_i(T - a_i) is e^-1000 or smaller (a time-critical sigmoid
  evaluated hundreds of slots past its target) and underflows to 0.0.  We therefore keep
  log L, log U and evaluate (22) as exp(log L + (g/c) log(U/L)): the prices are the paper's
  formula exactly, and underflow to 0 only where the true price is below 1e-308.  When L is
  truly 0 (a utility that reaches 0, e.g. ``linear``), (22) is taken at its limit: 0 below
  capacity, U at full capacity.
* Estimates (Fig. 6 feeds OASiS "estimated values of U_1^r/L_1 and U_2^r/L_2 ... at different
  percentages of their actual values").  ``mode="estimate"`` with ``factor`` scales the ratios:
  U^r/L := max(1, factor * (U^r/L)_oracle), keeping L at its oracle value, i.e. U^r is scaled by
  ``factor``.  Keeping L keeps the empty-cluster price, which Appendix A uses to guarantee that
  any job is admitted on an empty cluster; the max(1, .) keeps prices non-decreasing in load.
* ``price_scale`` (NOT FROM THE PAPER, :mod:`mlopt.exp_prices`): raise L_1 and L_2 until
  max_r ln(U_1^r / L_1) and max_r ln(U_2^r / L_2) are at most the given value.  Unset (the
  default), the parameters are the literal (23)-(26) and OASiS's results are unchanged.
  Applied after an estimate factor.  The price functions and log-space evaluation are the
  shared :mod:`mlopt.exp_prices`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np

from mlopt.errors import InputError
from mlopt.exp_prices import EPS, cap_log_lower, check_price_scale, exp_price, log_ratio
from mlopt.exp_prices import log_utility  # noqa: F401  (re-exported: part of this module's API)
from mlopt.workload import Workload
PRICE_MODES = ("oracle", "estimate")


def shortest_slots(workload: Workload) -> np.ndarray:
    """n_i = ceil(E_i chunk_slots_i): fewest slots covering W_i with N_i workers a slot, (2)-(3)."""
    a = workload.arrays
    return np.maximum(1, np.ceil(a.epochs * a.chunk_slots - EPS)).astype(int)


def schedulable(workload: Workload) -> np.ndarray:
    """Jobs with a non-empty schedule set L_i: finish by T with N_i workers, and b_i <= B_i."""
    a = workload.arrays
    in_time = a.arrival + shortest_slots(workload) - 1 <= workload.horizon
    return in_time & (a.worker_bw <= a.ps_bw * (1 + EPS))


@dataclass(frozen=True)
class PriceParams:
    """U_1^r, U_2^r, L_1, L_2 (in logs), eta_1, eta_2 of (23)-(26), and how they were obtained."""

    resources: tuple[str, ...]
    log_L1: float
    log_L2: float
    log_U1: np.ndarray  # (R,)
    log_U2: np.ndarray  # (R,)
    eta1: float
    eta2: float
    mode: str = "oracle"
    factor: float = 1.0
    jobs_used: int = 0  # jobs with a non-empty L_i that entered (23)-(26)
    notes: tuple[str, ...] = field(default_factory=tuple)
    price_scale: float | None = None  # cap on ln(U/L), not from the paper (None: literal)

    # ---- derived ---------------------------------------------------------------------------
    @property
    def log_ratio1(self) -> np.ndarray:
        """ln(U_1^r / L_1), >= 0; inf when L_1 = 0."""
        return _log_ratio(self.log_U1, self.log_L1)

    @property
    def log_ratio2(self) -> np.ndarray:
        """ln(U_2^r / L_2), >= 0; inf when L_2 = 0."""
        return _log_ratio(self.log_U2, self.log_L2)

    @property
    def alpha(self) -> float:
        """alpha = max_r (1, ln U_1^r/L_1, ln U_2^r/L_2): OASiS is 2 alpha-competitive (Thm. 4)."""
        return float(max(1.0, np.max(self.log_ratio1), np.max(self.log_ratio2)))

    @property
    def L1(self) -> float:
        """L_1 = exp(log_L1)."""
        return math.exp(self.log_L1)

    @property
    def L2(self) -> float:
        """L_2 = exp(log_L2)."""
        return math.exp(self.log_L2)

    @property
    def U1(self) -> np.ndarray:
        """U_1^r = exp(log_U1), per resource."""
        return np.exp(self.log_U1)

    @property
    def U2(self) -> np.ndarray:
        """U_2^r = exp(log_U2), per resource."""
        return np.exp(self.log_U2)

    # ---- price functions (22) ----------------------------------------------------------------
    def worker_price(self, used: np.ndarray, capacity: np.ndarray) -> np.ndarray:
        """p_h^r = P_h^r(g_h^r): ``used`` (..., H, R) allocated amounts, ``capacity`` (H, R)."""
        return _price(used, capacity, self.log_L1, self.log_U1)

    def ps_price(self, used: np.ndarray, capacity: np.ndarray) -> np.ndarray:
        """q_k^r = Q_k^r(v_k^r)."""
        return _price(used, capacity, self.log_L2, self.log_U2)

    def scaled(self, factor: float) -> "PriceParams":
        """The Fig. 6 estimate: ratios U^r/L scaled by ``factor`` (L kept, floored at ratio 1)."""
        if isinstance(factor, bool) or not isinstance(factor, (int, float)) or \
                not math.isfinite(factor) or factor <= 0:
            raise InputError("must be a finite number > 0", field="estimate_factor",
                             value=factor)
        lf = math.log(factor)
        u1 = self.log_L1 + np.maximum(0.0, self.log_ratio1 + lf)
        u2 = self.log_L2 + np.maximum(0.0, self.log_ratio2 + lf)
        # keep an infinite ratio infinite (L = 0): log_L + inf would be nan for log_L = -inf
        u1 = np.where(np.isinf(self.log_ratio1), self.log_U1, u1)
        u2 = np.where(np.isinf(self.log_ratio2), self.log_U2, u2)
        return PriceParams(self.resources, self.log_L1, self.log_L2, u1, u2, self.eta1,
                           self.eta2, "estimate", self.factor * factor, self.jobs_used,
                           self.notes)

    def capped(self, price_scale: float | None) -> "PriceParams":
        """L_1, L_2 raised so that every ln(U/L) <= ``price_scale`` (not from the paper)."""
        scale = check_price_scale(price_scale)
        if scale is None:
            return self
        return replace(self, log_L1=cap_log_lower(self.log_L1, self.log_U1, scale),
                       log_L2=cap_log_lower(self.log_L2, self.log_U2, scale),
                       price_scale=scale)

    def to_dict(self) -> dict:
        """JSON-friendly summary; infinite logs/ratios are written as None."""
        def num(x):
            x = float(x)
            return x if math.isfinite(x) else None

        return {
            "mode": self.mode, "factor": self.factor, "jobs_used": self.jobs_used,
            "L1": self.L1, "L2": self.L2, "log_L1": num(self.log_L1), "log_L2": num(self.log_L2),
            "U1": {r: num(v) for r, v in zip(self.resources, self.U1)},
            "U2": {r: num(v) for r, v in zip(self.resources, self.U2)},
            "log_ratio1": {r: num(v) for r, v in zip(self.resources, self.log_ratio1)},
            "log_ratio2": {r: num(v) for r, v in zip(self.resources, self.log_ratio2)},
            "eta1": float(self.eta1), "eta2": float(self.eta2), "alpha": num(self.alpha),
            "notes": list(self.notes),
            **({"price_scale": self.price_scale} if self.price_scale is not None else {}),
        }


# the shared exponential-price machinery (also PD-ORS's), under the names this module used
_log_ratio = log_ratio
_price = exp_price


def oracle_params(workload: Workload) -> PriceParams:
    """U_1^r, U_2^r, L_1, L_2, eta_1, eta_2 from the whole job set, (23)-(26)."""
    a = workload.arrays
    T = workload.horizon
    R = len(workload.resources)
    ok = schedulable(workload)
    idx = np.flatnonzero(ok)
    notes = []
    if len(idx) == 0:
        # No job can ever be scheduled, so no price is ever compared with a utility: flat 1.
        notes.append("no schedulable job: flat unit prices")
        zero = np.zeros(R)
        return PriceParams(workload.resources, 0.0, 0.0, zero, zero.copy(), 1.0, 1.0,
                           jobs_used=0, notes=tuple(notes))
    n_slots = shortest_slots(workload)
    log_best = np.array([float(log_utility(workload.jobs[i].utility, n_slots[i] - 1))
                         for i in idx])  # log f_i(shortest duration), see module docstring
    log_last = np.array([float(log_utility(workload.jobs[i].utility, T - a.arrival[i]))
                         for i in idx])  # log f_i(T - a_i)
    # ceil(E_i N_i M_i (tau_i + 2 e_i / b_i)) worker-slots, at least one
    work_ceil = np.maximum(1.0, np.ceil(a.work[idx] - EPS))
    w, s = a.worker_demand[idx], a.ps_demand[idx]

    # eta: the smallest values with 1/eta <= ceil(W_i) sum_r w_i^r / (T sum_h sum_r c_h^r), >= 1
    eta1 = max(1.0, T * a.cap_worker.sum() / float(np.min(work_ceil * w.sum(axis=1))))
    eta2 = max(1.0, T * a.cap_ps.sum() / float(np.min(work_ceil * s.sum(axis=1))))

    # (25)/(26) in logs; sum_r w_i^r > 0 because b_i > 0 (validated)
    log_L1 = -math.log(4 * eta1) + float(np.min(log_last - np.log(work_ceil * w.sum(axis=1))))
    log_L2 = -math.log(4 * eta2) + float(np.min(log_last - np.log(work_ceil * s.sum(axis=1))))

    def log_upper(dem: np.ndarray, log_l: float) -> np.ndarray:
        out = np.empty(R)
        for r in range(R):
            users = dem[:, r] > 0
            if users.any():
                out[r] = float(np.max(log_best[users] - np.log(dem[users, r])))
            else:  # nobody uses r: flat price L
                out[r] = log_l
        return out

    return PriceParams(workload.resources, log_L1, log_L2, log_upper(w, log_L1),
                       log_upper(s, log_L2), eta1, eta2, "oracle", 1.0, len(idx), tuple(notes))


def price_params(workload: Workload, mode: str = "oracle", factor: float = 1.0,
                 price_scale: float | None = None) -> PriceParams:
    """Oracle parameters, or the Fig. 6 estimate (oracle ratios scaled by ``factor``).

    For estimates "based on past experience" (Sec. IV-B), compute them on a past workload and
    pass them to :func:`mlopt.families.oasis.online.oasis_online` as ``params``.
    """
    if mode not in PRICE_MODES:
        raise InputError(f"unknown price mode (known: {', '.join(PRICE_MODES)})",
                         field="price_mode", value=mode)
    params = oracle_params(workload)
    params = params if mode == "oracle" else params.scaled(factor)
    return params.capped(price_scale)
