"""Alg. 4 of seed 004: theta(t, v), the cheapest placement of one job's work share in one slot.

The job's work is cut into ``grid`` equal units (:mod:`.dp`); v = j units need, in slot t,

* internal case (Fact 1: everything on one machine h): D_int = ceil(j n^int / grid) workers and
  s = max(1, ceil(D_int / gamma)) PSs on one machine, D_int <= F_i;
* external case: sum_h w_h >= D_ext = ceil(j n^ext / grid) workers anywhere (<= F_i), with
  gamma sum s >= sum w >= sum s >= 1, packing (24) on every machine: the packing-covering IP
  (23)-(26) plus the ratio rows (:func:`mlopt.models.pdors.slot.build_slot_ip`).

Internal case.  The seed sorts machines by sum_r p (alpha^r gamma + beta^r) and takes the first
that fits.  With integer w = D_int and s = ceil(D_int / gamma) that order is only a proxy for
the real cost p.(alpha w + beta s); we evaluate the real cost on every machine that fits and
take the minimum (ties: lowest machine index): the exact optimum of the internal case, at the
same O(H) cost as a scan (the sort is unnecessary).

External case (``oracle="rounding"``, the paper's Steps 8-11):
  8. solve the LP relaxation in one persistent HiGHS LP per job: slot changes only move costs
     and capacity bounds, each demand only the cover row's bound (``lp="rebuild"`` builds a new
     LP every time instead, for the speed-up measurement);
  9. scale by G_delta.  DECISION (G_delta, the seed's (31)/(32) are missing): a Hoeffding-style
     scale G_delta = 1 + sqrt(n_f ln(1/delta) / 2) / D_ext with n_f the number of fractional
     worker entries of the LP point w_bar.  What it guarantees, and what not: the draw rounds
     the *scaled* point G_delta w_bar, whose fractional entries number m, which can exceed n_f
     (scaling makes integer entries fractional).  Its mean is G_delta sum w_bar >= D_ext + t with
     t = sqrt(n_f ln(1/delta) / 2), and Hoeffding over the m independent roundings gives
     P(cover (26) fails) <= exp(-2 t^2 / m) = delta^(n_f / m): delta only when m = n_f (no new
     fractional entry), weaker otherwise.  Nothing bounds the packing rows (24)/(25), which the
     scale makes harder (`benchmarks/pdors/README.md`, rounding vs exact: most draws are
     infeasible).  So G_delta is a heuristic in the spirit of the paper's scaling, not a
     P(fail) <= delta certificate; feasibility is enforced by the draws' check and the repair
     below.  Kept as is so committed results reproduce; ``gdelta="one"`` uses G_delta = 1;
 10. round each coordinate up with probability equal to its fractional part (27)-(28);
 11. DECISION (the printed loop can run forever and discards draws): draw S times, keep the
     cheapest feasible draw; if none is feasible, a deterministic repair: start from
     floor(w_bar), floor(s_bar) (packing-feasible), add workers on the machine with the cheapest
     worker price that has room until sum w >= D_ext, then PSs by cheapest PS price until
     gamma sum s >= sum w and sum s >= 1; if that fails too, theta = inf.
``oracle="exact"`` solves the external IP exactly (HiGHS MILP) instead: the reference the DP is
checked against.  "Exactly" means zero MIP gap and up to :func:`exact_tolerance`: HiGHS's
optimality tolerances are absolute, so the costs are scaled first (:func:`cost_scale`: prices
near L are far below the tolerances).  Step 12: the cheaper of the two cases; ties prefer
internal.

Counts of LP solves, draws, failed draws, repairs and repair failures are kept in
:class:`OracleStats`; ``compare_exact=True`` also solves the exact IP whenever rounding runs and
records the cost ratio rounded / exact (never below 1 by more than exact_tolerance allows).
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import highspy
import numpy as np

from mlopt.errors import InputError
from mlopt.families.pdors.fields import EPS, min_ps
from mlopt.solvers.quiet_highs import run_highs

INF = highspy.kHighsInf
ORACLES = ("rounding", "exact")
LP_MODES = ("persistent", "rebuild")
GDELTA = ("hoeffding", "one")
TOL = 1e-9
# HiGHS's absolute optimality tolerances (defaults, documented in its option list):
# dual_feasibility_tolerance on reduced costs, mip_feasibility_tolerance when pruning.
DUAL_FEAS_TOL = 1e-7
MIP_FEAS_TOL = 1e-6


# Largest scaled |cost| 2^MAX_SCALED_EXP: 2^25 * machine epsilon (2^-52) = 7.5e-9, so rounding
# errors in reduced costs stay an order of magnitude below DUAL_FEAS_TOL.
MAX_SCALED_EXP = 25


def _log2_ceil(x: float) -> int:
    return math.ceil(math.log2(x))


def cost_scale(cost: np.ndarray) -> float:
    """A power of two (exact in floating point: the scaled IP has the same optimal w, s) that
    brings the smallest nonzero |cost| into (0.5, 1], unless that would lift the largest above
    2^MAX_SCALED_EXP; then the largest into (2^24, 2^25].  1 for all-zero costs.
    DECISION (measured on all 3330 exact IPs of the rounding benchmark, prices from 2e-10 to 350
    in one slot): with the smallest price at ~1 HiGHS matched the best of 7 set-ups on every
    one; unscaled with default gaps it was above by up to 1e-6 on 1194, with the largest price
    at ~1 by up to 5e-4 on 1104; a cap of 2^20 instead of 2^25 lost 60."""
    a = np.abs(np.asarray(cost, float))
    nz = a[a > 0]
    if nz.size == 0:
        return 1.0
    up = min(-_log2_ceil(float(nz.min())), MAX_SCALED_EXP - _log2_ceil(float(nz.max())))
    return math.ldexp(1.0, min(up, 1000))  # 2^1000: subnormal prices must not overflow


def exact_tolerance(pw: np.ndarray, ps: np.ndarray, F: int) -> float:
    """How far above the true optimum of the external IP a cost of ``oracle="exact"`` can lie:
    on the scaled costs HiGHS accepts a node LP as optimal with reduced costs down to
    -DUAL_FEAS_TOL, which moves its bound by at most that times ||x - x'||_1 <= 4F (sum w <= F,
    sum s <= sum w), and prunes nodes within MIP_FEAS_TOL of the incumbent (up to HiGHS's own
    scaling of the small-integer matrix); unscaling divides by cost_scale: the tolerance is
    relative to the smallest nonzero price (or to the largest / 2^25)."""
    return (MIP_FEAS_TOL + 4 * int(F) * DUAL_FEAS_TOL) / cost_scale(np.concatenate([pw, ps]))


@dataclass
class SlotPlan:
    cost: float
    w: np.ndarray  # (H,) int workers per machine
    s: np.ndarray  # (H,) int PSs per machine
    mode: str  # "int" or "ext"


@dataclass
class OracleStats:
    lp_solves: int = 0
    lp_seconds: float = 0.0
    ext_cases: int = 0  # external cases solved (one per distinct demand and slot state)
    draws: int = 0
    draws_infeasible: int = 0
    rounding_failed: int = 0  # no feasible draw among S: repaired
    repair_failed: int = 0  # repair impossible too: theta = inf for that demand
    exact_ratio: list = field(default_factory=list)  # rounded / exact external cost
    exact_cost: list = field(default_factory=list)  # (rounded, exact) external costs

    def merge(self, other: "OracleStats") -> None:
        """Add the other stats' counters and comparison samples into these."""
        for k in ("lp_solves", "lp_seconds", "ext_cases", "draws", "draws_infeasible",
                  "rounding_failed", "repair_failed"):
            setattr(self, k, getattr(self, k) + getattr(other, k))
        self.exact_ratio += other.exact_ratio
        self.exact_cost += other.exact_cost

    def to_dict(self) -> dict:
        # ratios of prices near L (e^-1000 at paper scale) are noise-dominated: report the
        # median, the share of cases where rounding found the exact optimum, and total costs
        """Return the counters and rounding-vs-exact summary as a plain dict."""
        r = np.array(self.exact_ratio, dtype=float)
        c = np.array(self.exact_cost, dtype=float).reshape(-1, 2)
        return {"lp_solves": self.lp_solves, "lp_seconds": self.lp_seconds,
                "ext_cases": self.ext_cases, "draws": self.draws,
                "draws_infeasible": self.draws_infeasible,
                "rounding_failed": self.rounding_failed, "repair_failed": self.repair_failed,
                "exact_compared": int(r.size),
                "exact_ratio_median": float(np.median(r)) if r.size else None,
                "exact_ratio_p90": float(np.percentile(r, 90)) if r.size else None,
                "exact_share_equal": float(np.mean(r <= 1 + 1e-9)) if r.size else None,
                "rounded_cost_total": float(c[:, 0].sum()) if c.size else None,
                "exact_cost_total": float(c[:, 1].sum()) if c.size else None}


def new_highs() -> highspy.Highs:
    """A silent single-threaded HiGHS object (:mod:`mlopt.solvers.quiet_highs`: no banner on
    stdout, which would corrupt ``--json`` output)."""
    from mlopt.solvers.quiet_highs import quiet_highs

    h = quiet_highs()
    h.setOptionValue("threads", 1)
    return h


class ExternalLP:
    """(23)-(26) + ratio rows for one job, as one HiGHS model: columns w_0..w_{H-1},
    s_0..s_{H-1}; rows: packing (h, r), batch, cover, gamma-cover, s <= w, s >= 1."""

    def __init__(self, alpha, beta, H: int, F: int, gamma: int, *, integer: bool = False,
                 rebuild: bool = False):
        self.alpha, self.beta = np.asarray(alpha, float), np.asarray(beta, float)
        self.H, self.F, self.gamma = H, int(F), int(gamma)
        self.integer, self.rebuild = integer, rebuild
        self.rs = [r for r in range(len(self.alpha)) if self.alpha[r] > 0 or self.beta[r] > 0]
        self.cost = np.zeros(2 * H)  # as HiGHS sees it: times self.scale
        self.scale = 1.0
        self.free = None
        self.h = None if rebuild else self._build()

    def _build(self) -> highspy.Highs:
        H, rs = self.H, self.rs
        h = new_highs()
        h.addVars(2 * H, np.zeros(2 * H), np.full(2 * H, INF))
        if self.integer:
            # the exact oracle must be exact: HiGHS stops at a 1e-4 relative / 1e-6 absolute
            # gap by default (mip_rel_gap, mip_abs_gap); see set_slot for the cost scaling
            h.setOptionValue("mip_rel_gap", 0.0)
            h.setOptionValue("mip_abs_gap", 0.0)
            h.changeColsIntegrality(2 * H, np.arange(2 * H, dtype=np.int32),
                                    np.full(2 * H, highspy.HighsVarType.kInteger))
        starts, idx, val, lo, up = [], [], [], [], []
        free = self.free if self.free is not None else np.zeros((H, len(self.alpha)))
        for hh in range(H):  # packing rows (24)
            for r in rs:
                starts.append(len(idx))
                cols = [(hh, self.alpha[r]), (H + hh, self.beta[r])]
                for c, v in cols:
                    if v > 0:
                        idx.append(c)
                        val.append(v)
                lo.append(-INF)
                up.append(free[hh, r])
        allw, alls = list(range(H)), list(range(H, 2 * H))
        for cols, vals, l, u in (
                (allw, [1.0] * H, -INF, self.F),  # (25)
                (allw, [1.0] * H, 0.0, INF),  # (26) cover, bound set per demand
                (allw + alls, [-1.0] * H + [float(self.gamma)] * H, 0.0, INF),  # gamma s >= w
                (allw + alls, [-1.0] * H + [1.0] * H, -INF, 0.0),  # s <= w
                (alls, [1.0] * H, 1.0, INF)):  # s >= 1
            starts.append(len(idx))
            idx += cols
            val += vals
            lo.append(l)
            up.append(u)
        h.addRows(len(lo), np.array(lo), np.array(up), len(idx), np.array(starts, np.int32),
                  np.array(idx, np.int32), np.array(val))
        h.changeColsCost(2 * H, np.arange(2 * H, dtype=np.int32), self.cost)
        return h

    @property
    def cover_row(self) -> int:
        """Index of the demand-cover row of the LP."""
        return self.H * len(self.rs) + 1

    def set_slot(self, pw: np.ndarray, ps: np.ndarray, free: np.ndarray) -> None:
        """Set the slot's worker/PS prices (scaled) and free capacities in the LP."""
        cost = np.concatenate([pw, ps]).astype(float)
        if self.integer:
            # HiGHS's optimality tests are absolute (dual_feasibility_tolerance 1e-7 on reduced
            # costs, mip_feasibility_tolerance 1e-6 when pruning against the incumbent): with
            # raw prices of 1e-7 (PD-ORS prices start at L) a strictly worse vertex passes as
            # optimal (price 6e-8 vs 0: the "exact" cost came out 6e-8, rounding found 0).
            # cost_scale makes them relative to the smallest price; exact_tolerance() is what
            # remains.  Costs are recomputed unscaled from w, s.
            self.scale = cost_scale(cost)
        self.cost = cost * self.scale
        self.free = np.asarray(free, float)
        if self.h is None:
            return
        self.h.changeColsCost(2 * self.H, np.arange(2 * self.H, dtype=np.int32), self.cost)
        n = self.H * len(self.rs)
        if n:
            up = self.free[:, self.rs].reshape(-1)
            self.h.changeRowsBounds(n, np.arange(n, dtype=np.int32), np.full(n, -INF), up)

    def solve(self, demand: int) -> tuple[float, np.ndarray, np.ndarray] | None:
        """Solve for the given demand; return (cost, workers, PSs) or None if not optimal."""
        h = self._build() if self.rebuild else self.h
        h.changeRowBounds(self.cover_row, float(demand), INF)
        run_highs(h)
        if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
            return None
        x = np.array(h.getSolution().col_value)
        x = np.maximum(x, 0.0)
        return float(h.getInfo().objective_function_value) / self.scale, x[:self.H], x[self.H:]


class SlotOracle:
    """theta(t, j) for j = 0..grid of one job (see the module docstring)."""

    def __init__(self, *, alpha, beta, F: int, gamma: int, n_int: float, n_ext: float,
                 grid: int, H: int, rng: np.random.Generator, oracle: str = "rounding",
                 internal: bool = True, delta: float = 0.1, retries: int = 10,
                 gdelta: str = "hoeffding", lp: str = "persistent", compare_exact: bool = False):
        if oracle not in ORACLES:
            raise InputError(f"unknown oracle (known: {', '.join(ORACLES)})", field="oracle",
                             value=oracle)
        if lp not in LP_MODES:
            raise InputError(f"unknown lp mode (known: {', '.join(LP_MODES)})", field="lp",
                             value=lp)
        if gdelta not in GDELTA:
            raise InputError(f"unknown G_delta rule (known: {', '.join(GDELTA)})",
                             field="gdelta", value=gdelta)
        if not (isinstance(delta, (int, float)) and 0 < delta <= 1):
            raise InputError("must be in (0, 1]", field="delta", value=delta)
        if isinstance(retries, bool) or not isinstance(retries, int) or retries < 1:
            raise InputError("must be an integer >= 1", field="retries", value=retries)
        self.alpha, self.beta = np.asarray(alpha, float), np.asarray(beta, float)
        self.F, self.gamma, self.grid, self.H = int(F), int(gamma), int(grid), H
        self.n_int, self.n_ext = float(n_int), float(n_ext)
        self.rng, self.oracle, self.internal = rng, oracle, internal
        self.delta, self.retries, self.gdelta = float(delta), retries, gdelta
        self.compare_exact = compare_exact
        self.stats = OracleStats()
        self.lp = ExternalLP(alpha, beta, H, F, gamma, integer=(oracle == "exact"),
                             rebuild=(lp == "rebuild"))
        self.exact = ExternalLP(alpha, beta, H, F, gamma, integer=True) \
            if compare_exact and oracle == "rounding" else None
        self._cache: dict[bytes, tuple[np.ndarray, dict]] = {}

    # ---- helpers ---------------------------------------------------------------------------
    def demands(self, n: float) -> np.ndarray:
        """Workers that do j units: ceil(j n / grid) (forgiving float noise), and at least one
        for j >= 1 (a tiny job's share would otherwise round to 0 workers and do no work)."""
        j = np.arange(self.grid + 1)
        d = np.ceil(j * n / self.grid * (1 - EPS) - EPS)
        return np.maximum(np.minimum(j, 1), d).astype(int)

    def _feasible(self, w, s, free, demand) -> bool:
        sw, ss = int(w.sum()), int(s.sum())
        if not (demand <= sw <= self.F and 1 <= ss <= sw and self.gamma * ss >= sw):
            return False
        use = np.outer(w, self.alpha) + np.outer(s, self.beta)
        return bool(np.all(use <= free * (1 + TOL) + TOL))

    def _repair(self, wbar, sbar, free, pw, ps, demand):
        w = np.floor(wbar + 1e-9).astype(int)
        s = np.floor(sbar + 1e-9).astype(int)
        left = free - np.outer(w, self.alpha) - np.outer(s, self.beta)
        for vec, dem, price, done in (
                (w, self.alpha, pw, lambda: w.sum() >= demand),
                (s, self.beta, ps, lambda: self.gamma * s.sum() >= w.sum() and s.sum() >= 1)):
            order = np.argsort(price, kind="stable")
            while not done():
                room = np.all(left[order] >= dem - TOL, axis=1)
                if not room.any():
                    return None
                k = order[np.argmax(room)]
                vec[k] += 1
                left[k] -= dem
        return (w, s) if self._feasible(w, s, free, demand) else None

    def _external(self, demand, pw, ps, free) -> SlotPlan | None:
        t0 = time.perf_counter()
        sol = self.lp.solve(demand)
        self.stats.lp_seconds += time.perf_counter() - t0
        self.stats.lp_solves += 1
        self.stats.ext_cases += 1
        if sol is None:
            self.lp_infeasible = True  # monotone in the demand: larger ones are infeasible too
            return None
        cost, wbar, sbar = sol
        if self.oracle == "exact":
            w, s = np.round(wbar).astype(int), np.round(sbar).astype(int)
            return SlotPlan(float(pw @ w + ps @ s), w, s, "ext")
        frac = wbar - np.floor(wbar + 1e-9)
        n_f = int(np.sum(frac > 1e-9))
        g = 1.0 if self.gdelta == "one" or n_f == 0 else \
            1.0 + math.sqrt(n_f * math.log(1.0 / self.delta) / 2.0) / max(1, demand)
        ws, ss = g * wbar, g * sbar
        best = None
        for _ in range(self.retries):
            self.stats.draws += 1
            u = self.rng.random(2 * self.H)
            w = (np.floor(ws) + (u[:self.H] < ws - np.floor(ws))).astype(int)
            s = (np.floor(ss) + (u[self.H:] < ss - np.floor(ss))).astype(int)
            if not self._feasible(w, s, free, demand):
                self.stats.draws_infeasible += 1
                continue
            c = float(pw @ w + ps @ s)
            if best is None or c < best.cost - 1e-12:
                best = SlotPlan(c, w, s, "ext")
        if best is None:
            self.stats.rounding_failed += 1
            rep = self._repair(wbar, sbar, free, pw, ps, demand)
            if rep is None:
                self.stats.repair_failed += 1
                return None
            best = SlotPlan(float(pw @ rep[0] + ps @ rep[1]), rep[0], rep[1], "ext")
        if self.exact is not None:
            self.exact.set_slot(pw, ps, free)
            ex = self.exact.solve(demand)
            if ex is not None:  # its cost as oracle="exact" reports it: from the integer point
                ecost = float(pw @ np.round(ex[1]) + ps @ np.round(ex[2]))
                if ecost > 0:
                    self.stats.exact_ratio.append(best.cost / ecost)
                    self.stats.exact_cost.append((best.cost, ecost))
        return best

    # ---- theta(t, .) for one slot ----------------------------------------------------------
    def slot(self, price: np.ndarray, free: np.ndarray) -> tuple[np.ndarray, dict]:
        """Costs theta(j), j = 0..grid (inf where impossible), and plans {j: SlotPlan}."""
        key = price.tobytes() + free.tobytes()
        if key in self._cache:
            return self._cache[key]
        G = self.grid
        cost = np.full(G + 1, math.inf)
        cost[0] = 0.0
        plans: dict[int, SlotPlan] = {}
        pw, ps = price @ self.alpha, price @ self.beta
        if self.internal:
            by_d: dict[int, SlotPlan | None] = {}
            for j, d in enumerate(self.demands(self.n_int)):
                if j == 0 or d > self.F:
                    continue
                if d not in by_d:
                    s = min_ps(d, self.gamma)
                    need = d * self.alpha + s * self.beta
                    fits = np.all(need <= free * (1 + TOL) + TOL, axis=1)
                    if fits.any():
                        c = np.where(fits, d * pw + s * ps, math.inf)
                        h = int(np.argmin(c))
                        w_, s_ = np.zeros(self.H, int), np.zeros(self.H, int)
                        w_[h], s_[h] = d, s
                        by_d[d] = SlotPlan(float(c[h]), w_, s_, "int")
                    else:
                        by_d[d] = None
                if by_d[d] is not None:
                    cost[j], plans[j] = by_d[d].cost, by_d[d]
        self.lp.set_slot(pw, ps, free)
        cap_w = int(min(self.F, np.floor(np.min(np.where(
            self.alpha > 0, free / np.where(self.alpha > 0, self.alpha, 1), np.inf),
            axis=1) + EPS).clip(0).sum()))
        by_e: dict[int, SlotPlan | None] = {}
        self.lp_infeasible = False
        for j, d in enumerate(self.demands(self.n_ext)):
            if j == 0:
                continue
            if d > cap_w:
                break  # monotone: no larger demand fits either
            if d not in by_e:
                by_e[d] = self._external(d, pw, ps, free)
                if self.lp_infeasible:
                    break
            p = by_e[d]
            if p is not None and p.cost < cost[j] - 1e-12:
                cost[j], plans[j] = p.cost, p
        self._cache[key] = (cost, plans)
        return cost, plans
