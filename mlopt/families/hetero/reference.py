"""Plain transliteration of the cost-minimization subroutines of seed 003: A_mincost1 (Alg. 4,
PS, q = 0), A_mincost2 (Alg. 5, PS, q = 1), A^RA_mincost1 (Alg. 6, RA, q = 1) and
A^RA_mincost2 (Alg. 7, RA, q = 0), as nested Python loops over starts t-, servers, PS server n,
workers g next to the PSs, and the greedy fill k, recomputing every window quantity from the
price and capacity tables the way the printed pseudo-code does.

It is the reference the fast search (:mod:`.mincost`) is tested against (same results on random
cases, tests/hetero/test_hetero_reference.py) and timed against (benchmarks/hetero/online_speed.py).
DECISION (where it lives): in the package, next to the code it checks, so tests and benchmarks
import it without path tricks; it is not registered as an algorithm.

What is the same as the fast search, on purpose:
* the configurations (m, p, q, N, L = d) of :func:`.configs.job_configs` (decision 8 of the
  notes: the printed loop over L with N = ceil(E D K / (L rho)) only adds dominated (N, L)
  pairs), visited in the same order (d, N, m, p, q = 1 first);
* the bug fixes of Alg. 4 and Alg. 7 documented in :mod:`.mincost` (N_hat reset per PS server
  n; the cheapest g < N rather than the last feasible g; the PS cost counted; one PS server;
  Alg. 7: N_hat = Phi, omega_h);
* the ranking: least cost, ties (relative 1e-12) to the earliest completion, then the first in
  visiting order (configuration, then start, then g, then server index) -- the fast search's rule.
What differs: every start 1..tau-L is tried (not only the change points), no lower-bound
pruning, no vectorization, costs summed server by server.
"""
from __future__ import annotations

import math

import numpy as np

from mlopt.families.hetero.configs import Config, job_configs
from mlopt.families.hetero.fields import HeteroData
from mlopt.families.hetero.mincost import Placement, Window

_EPS = 1e-9  # the fast search's tolerance for "fits" (floating-point capacities)
_TOL = 1e-12  # relative tolerance of cost ties


def _better(cost: float, comp: int, best: tuple) -> bool:
    tol = _TOL * max(1.0, abs(best[0]))
    return cost < best[0] - tol or (cost <= best[0] + tol and comp < best[1])


class ReferenceSearcher:
    """Same interface as :class:`.mincost.Searcher` (configs, best, cost_fixed)."""

    def __init__(self, data: HeteroData):
        self.data = data
        self._all: dict[int, list[Config]] = {}

    def configs(self, j: int) -> list[Config]:
        """Return job j's configurations (cached)."""
        if j not in self._all:
            self._all[j] = job_configs(self.data, j)
        return self._all[j]

    def config_array(self, j: int) -> np.ndarray:
        """Rows (m, p, q, n, d) of configs(j) (what default_F reads)."""
        return np.array([[c.m, c.p, c.q, c.n, c.d] for c in self.configs(j)], dtype=np.int64)

    # ---- window tables, read slot by slot like the pseudo-code ----------------------------
    def _tables(self, win: Window):
        d = self.data
        H, R = d.cap.shape
        delta = win.prices()  # H x R x tau, (11)
        omega = [[[float(d.cap[h, r] - win.beta[h, r, t]) for t in range(win.T)]
                  for r in range(R)] for h in range(H)]  # omega_h^r(t) = C - beta (line 2)
        unit = [[[float(delta[h, r, t]) / float(d.cap[h, r]) if d.cap[h, r] > 0 else 0.0
                  for t in range(win.T)] for r in range(R)] for h in range(H)]
        return omega, unit

    @staticmethod
    def _window_price(unit, h, vec, t0, L) -> float:
        """sum_{t in [t-, t-+L)} sum_r delta_h^r(t) vec^r / C_h^r (Omega_h of line 8, Pi_h)."""
        total = 0.0
        for t in range(t0 - 1, t0 - 1 + L):
            for r in range(len(vec)):
                total += unit[h][r][t] * vec[r]
        return total

    @staticmethod
    def _fit_count(omega, h, vec, t0, L, limit) -> int:
        """min_{r, t} floor(omega_h^r(t) / vec^r), capped at ``limit`` (line 12)."""
        best = limit
        for t in range(t0 - 1, t0 - 1 + L):
            for r in range(len(vec)):
                if vec[r] > 0:
                    best = min(best, math.floor(omega[h][r][t] / vec[r] + _EPS))
        return max(best, 0)

    @staticmethod
    def _fits(omega, h, need, t0, L) -> bool:
        """need^r <= omega_h^r(t) for every r and every t of the window."""
        for t in range(t0 - 1, t0 - 1 + L):
            for r in range(len(need)):
                if omega[h][r][t] < need[r] - _EPS:
                    return False
        return True

    # ---- the four subroutines for one configuration and one start -------------------------
    def _start_ps_q1(self, c, omega, unit, t0):
        """Alg. 5: all N workers and one PS on one server h."""
        d = self.data
        e, z = list(d.e[c.m]), list(d.z[c.p])
        need = [c.n * e[r] + z[r] for r in range(len(e))]
        best = None
        for h in range(len(d.cap)):
            if not self._fits(omega, h, need, t0, c.d):
                continue
            cost = (c.n * self._window_price(unit, h, e, t0, c.d)
                    + self._window_price(unit, h, z, t0, c.d))
            if best is None or cost < best[0]:
                best = (cost, {h: c.n}, {h: 1})
        return best

    def _start_ps_q0(self, c, omega, unit, t0):
        """Alg. 4 with the fixes: PSs on server n with g < N workers, the rest greedily."""
        d = self.data
        H = len(d.cap)
        N, L = c.n, c.d
        e, z = list(d.e[c.m]), list(d.z[c.p])
        b, B = float(d.b[c.m]), float(d.B[c.p])
        Omega = [self._window_price(unit, h, e, t0, L) for h in range(H)]
        Pi = [self._window_price(unit, h, z, t0, L) for h in range(H)]
        order = sorted(range(H), key=lambda h: Omega[h])  # line 8 (stable: index on ties)
        best = None
        for g in range(N):  # g < N: g = N would be co-located (q = 1)
            s_need = max(1, math.ceil((N - g) * b / B - _EPS))  # (13d), (13e)
            for n in range(H):
                # lines 14-22: g workers and s_need PSs must fit on n in the whole window
                if not self._fits(omega, n, [g * e[r] + s_need * z[r] for r in range(len(e))],
                                  t0, L):
                    continue
                y = {n: g} if g else {}
                left = N - g  # N_hat, reset for every n (fix)
                for k in order:  # lines 11-24 over the other servers, cheapest first
                    if k == n or left == 0:
                        continue
                    take = min(self._fit_count(omega, k, e, t0, L, N), left)
                    if take:
                        y[k] = take
                        left -= take
                if left > 0:  # line 25
                    continue
                cost = sum(cnt * Omega[h] for h, cnt in y.items()) + s_need * Pi[n]  # line 28
                if best is None or cost < best[0]:
                    best = (cost, y, {n: s_need})
        return best

    def _start_ra_q1(self, c, omega, unit, t0):
        """Alg. 6: all Phi workers on one server."""
        d = self.data
        e = list(d.e[c.m])
        best = None
        for h in range(len(d.cap)):
            if not self._fits(omega, h, [c.n * x for x in e], t0, c.d):
                continue
            cost = c.n * self._window_price(unit, h, e, t0, c.d)
            if best is None or cost < best[0]:
                best = (cost, {h: c.n}, {})
        return best

    def _start_ra_q0(self, c, omega, unit, t0):
        """Alg. 7 with the fixes: greedy by Omega_h, at most Phi - 1 workers per server."""
        d = self.data
        H = len(d.cap)
        e = list(d.e[c.m])
        Omega = [self._window_price(unit, h, e, t0, c.d) for h in range(H)]
        left, y = c.n, {}
        for h in sorted(range(H), key=lambda h: Omega[h]):
            if left == 0:
                break
            take = min(self._fit_count(omega, h, e, t0, c.d, c.n - 1), left)
            if take:
                y[h] = take
                left -= take
        if left > 0:
            return None
        return sum(cnt * Omega[h] for h, cnt in y.items()), y, {}

    def _sub(self, c):
        if self.data.architecture == "ps":
            return self._start_ps_q1 if c.q else self._start_ps_q0
        return self._start_ra_q1 if c.q else self._start_ra_q0

    # ---- the search --------------------------------------------------------------------
    def _config_best(self, c, omega, unit, tau):
        """Cheapest start of configuration c: the earliest start within the tie tolerance of
        the least cost over all starts 1..tau-L."""
        rows = []
        for t0 in range(1, tau - c.d + 1):  # line 7
            r = self._sub(c)(c, omega, unit, t0)
            if r is not None:
                rows.append((t0, r))
        if not rows:
            return None
        cmin = min(r[0] for _, r in rows)
        tol = _TOL * max(1.0, abs(cmin))
        return next((t0, r) for t0, r in rows if r[0] <= cmin + tol)

    def best(self, j: int, win: Window, *, q_only: int | None = None) -> Placement | None:
        """Return job j's cheapest placement in the window (earliest completion on ties), or None."""
        omega, unit = self._tables(win)
        best = (math.inf, math.inf, None)
        for c in self.configs(j):
            if c.d > win.tau - 1 or (q_only is not None and c.q != q_only):
                continue
            found = self._config_best(c, omega, unit, win.tau)
            if found is None:
                continue
            t0, (cost, y, s) = found
            if _better(cost, t0 + c.d, best):
                best = (cost, t0 + c.d, Placement(j, c.m, c.p, c.q, c.n, c.d, t0, y, s, cost))
        return best[2]

    def cost_fixed(self, j: int, win: Window, c: Config, start: int) -> float | None:
        """Return the cost of config c starting at start in the window, or None if infeasible."""
        omega, unit = self._tables(win)
        r = self._sub(c)(c, omega, unit, start)
        return None if r is None else r[0]
