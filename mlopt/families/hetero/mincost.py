"""Cheapest schedule of one job under resource prices: A_mincost1/2 (PS, Alg. 4/5) and
A^RA_mincost1/2 (Alg. 6/7) of seed 003, solving (12)/(13) and (20)/(21) exactly.

One :class:`Window` is the cluster seen by one A_maxweight call: slots 1..tau-1, used amounts
beta_h^r(t), prices delta_h^r(t) = lambda^(beta/C) - 1 (11).  DECISION (units, notes 6.2): a
job pays delta per *fraction* of a server's capacity, cost = sum_t sum_h sum_r delta f / C.

:func:`best_schedule` returns the placement with the least cost, ties broken by the earliest
completion (notes 6.4).  It searches, for each window length L = d of a non-dominated
configuration (:mod:`.configs`):

* PS, q = 1 (A_mincost2): all N workers and one PS on one server h; cost N Omega_h + Pi_h.
* PS, q = 0 (A_mincost1): PSs on one server n with g < N workers (g = N would be co-located,
  q = 1), s = max(1, ceil((N - g) b / B)) PSs (13d)/(13e), the other N - g workers greedily on
  the cheapest servers != n.  FIXES of the printed Alg. 4 (notes 6.7): N_hat is reset for each
  candidate n; g is not "the last feasible g" (which can be g = N_j with s = 0) but the cheapest
  g over all feasible g < N_j; n and k index positions in the sorted order; the cost counts the
  PSs too; PSs of one job sit on one server (more PS servers only add PSs: every PS server must
  cover all remote workers by itself (2i)).
* RA, q = 1 (A^RA_mincost1): Phi workers on one server.
* RA, q = 0 (A^RA_mincost2): greedy over servers by Omega with at most Phi - 1 per server (so
  at least two servers: q = 0 iff not co-located (15a)).  FIXES: line 5's N_hat = d_hat is
  N_hat = Phi'; line 11's omega_k is omega_h.

Exactness of the fill: for a fixed window every worker on server h costs Omega_h, so taking the
cheapest unit slots first is optimal; the greedy over all servers but n is derived from the
greedy over all servers (if n lies inside the first K units, the first K + cap_n units of the full
order contain all of n).

Speed: the window sum of a piecewise-constant price is linear in the start t- between change
points of beta, and capacities are constant there, so only starts at change points (and their
neighbours, shifted by L) can be best: :meth:`Window.candidates`.  Prices of an empty
window are all zero, so the first job of each call is placed in O(configs).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from mlopt.families.hetero.configs import Config, KeyTest, job_config_arrays
from mlopt.families.hetero.fields import HeteroData

_EPS = 1e-9
_BIG = 1e300
_UNSET = object()
_NOT_BETTER = object()  # a subroutine proved it cannot beat the caller's best (not cached)
CACHE_BYTES = 256 * 2**20  # per Window: cached per-length arrays (see _LenCache)


@dataclass
class Placement:
    job: int
    m: int
    p: int  # -1 for RA
    q: int
    n: int  # workers
    d: int
    start: int  # 1-based slot inside the window
    y: dict[int, int]  # server -> workers
    s: dict[int, int] = field(default_factory=dict)  # server -> PSs
    cost: float = 0.0

    @property
    def completion(self) -> int:
        """Completion slot, start + d."""
        return self.start + self.d

    def usage(self, data: HeteroData) -> dict[int, np.ndarray]:
        """f_jh^r: resources on each server (per slot)."""
        out: dict[int, np.ndarray] = {}
        for h, c in self.y.items():
            out[h] = out.get(h, 0) + c * data.e[self.m]
        for h, c in self.s.items():
            out[h] = out.get(h, 0) + c * data.z[self.p]
        return out


class Window:
    """Slots 1..tau-1 of an empty cluster with prices (11)."""

    def __init__(self, data: HeteroData, tau: int, lam: float):
        self.data, self.tau, self.lam = data, int(tau), float(lam)
        H, R = data.cap.shape
        self.T = self.tau  # array index t-1 for slot t; slot tau itself is never usable
        self.beta = np.zeros((H, R, self.T))
        self.changes: set[int] = set()
        self._dirty = True
        # per window length L, what every query of this state shares (see _LenCache); emptied
        # by commit(), the only mutation of beta / changes, so it never outlives the state
        self.by_len: dict[int, _LenCache] = {}
        self.by_len_bytes = 0
        # True: free capacity is the empty cluster's while prices still follow beta (the
        # dual's u_j (10) ranges over every schedule of (8), priced: see priced_empty)
        self.empty_capacity = False
        with np.errstate(divide="ignore"):
            self._inv_cap = np.where(data.cap > 0, 1.0 / np.where(data.cap > 0, data.cap, 1), 0.0)

    # ---- state ---------------------------------------------------------------------------
    def commit(self, pl: Placement) -> None:
        """Add a placement's usage to the window and invalidate its cached tables."""
        a, b = pl.start - 1, pl.start - 1 + pl.d
        for h, vec in pl.usage(self.data).items():
            self.beta[h, :, a:b] += vec[:, None]
        self.changes.update((pl.start, pl.start + pl.d))
        self._dirty = True
        self.by_len.clear()
        self.by_len_bytes = 0

    def priced_empty(self) -> "Window":
        """A copy with this window's prices (11) on the empty cluster's capacities: the
        cheapest schedule in it is min over all schedules l of (8) of the priced cost, as the
        dual constraint (10) needs (the busy window would leave out schedules that no longer
        fit, and u_j would be too small for a dual bound)."""
        w = Window(self.data, self.tau, self.lam)
        w.beta = self.beta.copy()
        w.changes = set(self.changes)
        w.empty_capacity = True
        return w

    def prices(self) -> np.ndarray:
        """delta_h^r(t) = lambda^(beta/C) - 1 (11), H x R x T."""
        frac = self.beta * self._inv_cap[:, :, None]
        return np.power(self.lam, frac) - 1.0

    def _refresh(self) -> None:
        if not self._dirty:
            return
        d = self.data
        unit = self.prices() * self._inv_cap[:, :, None]  # price per unit of resource
        zero = np.zeros((1, unit.shape[0], 1))
        # stored time-major (types x (T+1) x H, (T) x H x R): gathering the S candidate starts
        # then reads whole contiguous rows and yields S x H blocks directly.  Only the layout
        # differs from summing over the t axis in place: every element is the same number.
        wcum = np.concatenate([zero.repeat(len(d.e), 0),
                               np.cumsum(np.einsum("mr,hrt->mht", d.e, unit), 2)], 2)
        self.wcum = np.ascontiguousarray(wcum.transpose(0, 2, 1))
        if len(d.z):
            pcum = np.concatenate([zero.repeat(len(d.z), 0),
                                   np.cumsum(np.einsum("pr,hrt->pht", d.z, unit), 2)], 2)
            self.pcum = np.ascontiguousarray(pcum.transpose(0, 2, 1))
        used = np.zeros_like(self.beta) if self.empty_capacity else self.beta
        omega = np.ascontiguousarray((d.cap[:, :, None] - used).transpose(2, 0, 1))
        self.sparse = [omega]  # sparse table of window minima over t (axis 0)
        k = 1
        while 2 * k <= self.T:
            prev = self.sparse[-1]
            self.sparse.append(np.minimum(prev[:-k], prev[k:]))
            k *= 2
        self._dirty = False

    def candidates(self, L: int) -> np.ndarray:
        """Starts t in 1..tau-L that can be best for length L (earliest among equal costs):
        1, tau - L, and c and c - L for every change point c (slot c may differ from c - 1).

        Why: the window cost W(t) = sum of p(u), u = t..t+L-1, has increments
        p(t+L) - p(t) that change only at t in C or C - L, so W is linear on [b, b'] between
        consecutive such points.  The window's free capacity min over u of free(u) only rises
        when a slot leaves it (t in C: slot t - 1 leaves) and only falls when one arrives
        (t in C - L + 1: slot t + L - 1 arrives), so feasible starts form runs that begin at
        a point of C (or 1) and end at a point of C - L (or tau - L).  On each piece where W
        is linear and feasibility fixed, the best start with the earliest tie is an end of the
        piece, and every end is in C, C - L, {1, tau - L}.  Until 2026-11-26 this also listed
        c - L - 1, c - L + 1, c - 1 and c + 1: the same answers (tests: every start searched
        instead gives the same placements), three times as many starts."""
        last = self.tau - L
        pts = {1, last}
        for c in self.changes:
            pts.update((c - L, c))
        return np.array(sorted(t for t in pts if 1 <= t <= last), dtype=int)

    def window_min(self, L: int, starts: np.ndarray) -> np.ndarray:
        """min over t in [t-, t- + L) of omega_h^r(t): S x H x R."""
        k = int(math.floor(math.log2(L)))
        tab = self.sparse[k]
        i0 = starts - 1
        i1 = starts - 1 + L - (1 << k)
        return np.minimum(tab[i0], tab[i1])

    def window_cost(self, cum: np.ndarray, L: int, starts: np.ndarray) -> np.ndarray:
        """sum over the window of a per-unit price: (types) x S x H."""
        i0 = starts - 1
        return cum[:, i0 + L] - cum[:, i0]


def _stable_order(om: np.ndarray) -> np.ndarray:
    """np.argsort(om, axis=1, kind="stable") for costs om >= 0 (never NaN): non-negative
    doubles order like their bit patterns read as int64, and numpy sorts int64 several times
    faster than float64, so this is the same permutation, faster.  Adding 0.0 turns a -0.0
    (which float sorting treats as equal to 0.0) into +0.0."""
    return np.argsort((om + 0.0).view(np.int64), axis=1, kind="stable")


def _all_ge(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(a >= b).all(axis=-1) for a short last axis (the R resources), one resource at a time:
    the same booleans, without numpy's slow reduction over a length-4 axis."""
    out = a[..., 0] >= b[..., 0]
    for r in range(1, a.shape[-1]):
        out &= a[..., r] >= b[..., r]
    return out


def _caps_raw(wmin: np.ndarray, e: np.ndarray) -> np.ndarray:
    """Workers of demand e that fit in every slot of the window: S x H."""
    pos = e > 0
    out = None
    for r in np.flatnonzero(pos):  # min over r, one resource at a time (exact, faster)
        x = np.floor(wmin[:, :, r] / e[r] + _EPS)
        out = x if out is None else np.minimum(out, x)
    return out


def _caps(wmin: np.ndarray, e: np.ndarray, limit: int, raw: np.ndarray | None = None):
    """_caps_raw capped at ``limit`` (``raw``: precomputed by a :class:`_Prep`)."""
    return np.clip(_caps_raw(wmin, e) if raw is None else raw, 0, limit)


class _Prep:
    """Arrays of one (window, L) that every configuration of length L with worker type m
    shares, computed on first use: raw worker capacities and the stable cost order of the
    servers per start.  The same expressions as without it, so the same numbers."""

    def __init__(self, data: HeteroData, wmin: np.ndarray, Wc: np.ndarray):
        self.data, self.wmin, self.Wc = data, wmin, Wc
        self._raw: dict[int, np.ndarray] = {}
        self._sort: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self._alone: dict[int, int] = {}
        self._wmin_t: np.ndarray | None = None

    def raw(self, m: int) -> np.ndarray:
        if m not in self._raw:
            self._raw[m] = _caps_raw(self.wmin, self.data.e[m])
        return self._raw[m]

    def sort(self, m: int) -> tuple[np.ndarray, np.ndarray]:
        if m not in self._sort:
            om = self.Wc[m]
            order = _stable_order(om)
            self._sort[m] = order, np.take_along_axis(om, order, 1)
        return self._sort[m]

    def alone(self, m: int) -> int:
        """The most workers of type m that alone fit one server at some start (_g_limit's
        exact test, up to the largest D_j)."""
        if m not in self._alone:
            self._alone[m] = _g_limit(self.wmin, self.data.e[m],
                                      int(self.data.chunks.max(initial=1)))
        return self._alone[m]

    def wmin_t(self) -> np.ndarray:
        """wmin as R x (S H), cells row-major: one resource's column is contiguous."""
        if self._wmin_t is None:
            S, H, R = self.wmin.shape
            self._wmin_t = np.ascontiguousarray(self.wmin.reshape(S * H, R).T)
        return self._wmin_t


class _PrepRows:
    """A _Prep cut to the first ``rows`` starts (the arrays are row-wise: same numbers)."""

    def __init__(self, prep: _Prep, rows: int):
        self.prep, self.n = prep, rows

    def raw(self, m: int) -> np.ndarray:
        return self.prep.raw(m)[: self.n]

    def sort(self, m: int) -> tuple[np.ndarray, np.ndarray]:
        order, oms = self.prep.sort(m)
        return order[: self.n], oms[: self.n]

    def alone(self, m: int) -> int:
        # all starts' limit: cells of the prefix above the prefix's own limit fail every fit
        # test there, so a larger g range changes no answer (see Searcher._q0_tables)
        return self.prep.alone(m)

    def wmin_t(self) -> np.ndarray:
        return self.prep.wmin_t()[:, : self.n * self.prep.wmin.shape[1]]


class _LenCache:
    """Everything Searcher.best computes for one window length L that depends on the window
    state only (not on the job): candidate starts, free-capacity minima, window price sums,
    their per-type minima, the _Prep arrays, the bound of A_mincost1 per (m, N) and each
    subroutine's answer per configuration (m, p, q, N).  Jobs asked between two commits share
    it (A_maxweight asks one job after another; most are not admitted, so the state often does
    not change).  Per L about S x H x (R + 4 M + P) floats (wmin, Wc, Pc, the _Prep arrays;
    ~2-6 MB at H = 150), so a window caches lengths only up to CACHE_BYTES in all (unbounded,
    A_online at paper-default scale grew to ~800 MB; 256 MB instead of 96 MB: PS at 300 jobs
    1-2 s faster for ~50 MB more peak memory, measured); the A_mincost1 tables per (m, N) stay
    per query (``shared``)."""

    def __init__(self, win: Window, L: int, ps: bool):
        d = win.data
        self.starts = starts = win.candidates(L)
        H, R = d.cap.shape
        # the most this can hold: wmin, Wc, Pc and per worker type the _Prep raw caps and sort
        self.nbytes = 8 * len(starts) * H * (R + 4 * len(d.e) + len(d.z))
        self.data = d
        if not len(starts):
            return
        self.wmin = win.window_min(L, starts)
        self.Wc = win.window_cost(win.wcum, L, starts)  # M x S x H
        self.Pc = win.window_cost(win.pcum, L, starts) if ps else None
        # per-type minima for the lower bound (min is exact: same values as om.min())
        self.minW = self.Wc.reshape(len(self.Wc), -1).min(axis=1).tolist()
        self.minP = self.Pc.reshape(len(self.Pc), -1).min(axis=1).tolist() if ps else None
        self.prep = _Prep(d, self.wmin, self.Wc)
        self.least: dict[tuple[int, int], float | None] = {}  # A_mincost1 bound by (m, N)
        self.result: dict[tuple[int, int, int, int], tuple | None] = {}  # by (m, p, q, N)
        self._units: dict[int, np.ndarray] = {}
        self._ps_min: np.ndarray | None = None
        self._gmax = int(d.chunks.max(initial=1))

    def rows(self, rows: int, m: int) -> tuple[np.ndarray, np.ndarray]:
        """(wmin, window costs of worker type m) on the first ``rows`` starts."""
        return self.wmin[:rows], self.Wc[m, :rows]

    def prep_rows(self, rows: int) -> "_Prep":
        return self.prep if rows == len(self.starts) else _PrepRows(self.prep, rows)

    def lower(self, m: int, n: int) -> np.ndarray:
        """Lower bounds on the cost of every PS configuration (m, p, q, N = n), one row per
        PS type p, per candidate start: N worker slots of type m cost at least what
        _unit_costs says (every subroutine places N workers on slots of this window, with more
        restrictions), plus the cheapest PS slot, lowered by 1e-9 relative (all terms >= 0: far
        more than the rounding of any sum).  inf: fewer than N slots.  (The exact N cheapest
        slots need a sort per (L, m) and cost more than they prune: measured.)"""
        if m not in self._units:
            self._units[m] = self._unit_costs(m)
        if self._ps_min is None:
            self._ps_min = self.Pc.min(axis=2)  # P x S
        return (self._units[m][:, n][None, :] + self._ps_min) * (1 - 1e-9)

    def _unit_costs(self, m: int) -> np.ndarray:
        """S x (D + 1): a lower bound on the cost of the k cheapest worker slots of type m
        per start, without sorting: the free slots (window price 0) cost nothing, every further
        slot at least the cheapest priced one; inf beyond all slots."""
        k = np.arange(self._gmax + 1)
        om = self.Wc[m]
        raw = np.clip(self.prep.raw(m), 0, self._gmax)
        free = om == 0.0
        zero = np.where(free, raw, 0).sum(axis=1)
        cheapest = np.where(free | (raw <= 0), np.inf, om).min(axis=1)
        paid = np.maximum(k[None, :] - zero[:, None], 0)
        with np.errstate(invalid="ignore"):
            lb = np.where(paid > 0, paid * cheapest[:, None], 0.0)
        return np.where(k[None, :] <= raw.sum(axis=1)[:, None], lb, np.inf)

    def alone(self, m: int) -> int:
        """The most workers of type m that alone fit one server in some window of this length
        (_g_limit's exact test, up to the largest D_j).  Every subroutine's fit test for N
        workers on one server (with or without PSs: N e + s z >= N e in floating point) implies
        this one, so N > alone(m) means no single server can host them."""
        return self.prep.alone(m)


def _better(cost, comp, best) -> bool:
    return cost < best[0] - 1e-12 * max(1.0, abs(best[0])) or (
        cost <= best[0] + 1e-12 * max(1.0, abs(best[0])) and comp < best[1])


def _better_rows(cost: np.ndarray, comp: np.ndarray, best) -> np.ndarray:
    """Per row of cost (rows x starts): _better(cost[r, i], comp[i], best) for some i
    (vectorized, the same comparisons)."""
    b = best[0]
    if not math.isfinite(b):  # nothing yet: any finite cost is better
        return np.isfinite(cost).any(axis=1) | (b == math.inf)
    tol = 1e-12 * max(1.0, abs(b))
    return ((cost < b - tol) | ((cost <= b + tol) & (comp[None, :] < best[1]))).any(axis=1)


def _cells_may_beat(cost: np.ndarray, t: "_Q0Tables", starts: np.ndarray, L: int, best):
    """Which listed cells of A_mincost1 (cost per cell, rows = starts) could pass _better
    against ``best``: the same comparisons as _better, per cell (None: any can, no best yet).
    The cells are row-major, so those completing before best's completion are a prefix."""
    b = best[0]
    if not math.isfinite(b):
        return None
    tol = 1e-12 * max(1.0, abs(b))
    may = cost < b - tol
    rows = int(np.searchsorted(starts + L, best[1], side="left"))  # completion < best's
    k = int(np.searchsorted(t.ci, rows * t.H))
    may[:k] |= cost[:k] <= b + tol
    return may


def _cells_fit(t: "_Q0Tables", floor_g: np.ndarray, cells=slice(None)) -> np.ndarray:
    """Per listed cell of A_mincost1 (all, or the indices ``cells``): do its g workers and
    their PSs fit at n (free capacity >= the per-g need - EPS in every resource)?"""
    g = t.g[cells]
    fit = t.wmin[0][cells] >= floor_g[g, 0]
    for r in range(1, floor_g.shape[1]):
        fit &= t.wmin[r][cells] >= floor_g[g, r]
    return fit


def _prefix_ok(cost: float) -> bool:
    """May a subroutine's answer on a prefix of the starts stand in for the full answer while
    the best placement so far costs exactly 0?  Costs are >= 0 and only a cost <= 1e-12 with an
    earlier completion can still win (_better).  Answer 0: the prefix holds a free cell, so the
    full search picks the same (earliest) row and the same cell.  Answer > 2e-12: every prefix
    cell costs > 1e-12, so neither answer wins.  Anything between (never seen: a busy price is
    lambda^(beta/C) - 1, far above 1e-12) is recomputed on all starts."""
    return cost == 0.0 or cost > 2e-12


def _pick(cost: np.ndarray, starts: np.ndarray, L: int):
    """Lexicographic (cost, completion) argmin over an S x ... array (earliest start first)."""
    flat = cost.reshape(len(starts), -1)
    cmin = flat.min()
    if not np.isfinite(cmin) or cmin >= _BIG:
        return None
    tol = 1e-12 * max(1.0, abs(cmin))
    srow = int(np.nonzero((flat <= cmin + tol).any(axis=1))[0][0])
    col = int(np.argmin(flat[srow]))
    return float(flat[srow, col]), srow, col


def _units_before(cum: np.ndarray, k: np.ndarray) -> np.ndarray:
    """(cum[:, :, None] <= k).sum(axis=1) for rows cum (S x H) that are non-decreasing and
    integer-valued (running sums of worker counts) and integers k >= 0: one binary search over
    all rows at once, row s shifted by s * M with M above every value, so the rows stay sorted
    and apart (all numbers are integers far below 2^53: exact)."""
    S, H = cum.shape
    M = float(max(cum.max(initial=0.0), k.max(initial=0)) + 1)
    off = np.arange(S)[:, None] * M
    pos = np.searchsorted((cum + off).ravel(), (k[None, :] + off).ravel(), side="right")
    return pos.reshape(S, len(k)) - np.arange(S)[:, None] * H


def _g_limit(wmin: np.ndarray, e: np.ndarray, gmax: int) -> int:
    """The largest g <= gmax for which g workers of demand e alone fit (wmin >= g e - EPS in
    every resource) on some server at some start; -1 if none.  _ps_q0's test for g workers
    and s PSs at n is wmin >= g e + s z - EPS, and with s z >= 0 floating-point rounding keeps
    g e + s z >= g e, so every g above this limit fails it: those rows are all _BIG and are cut
    off (they sit after every other row, so argmin indices do not move)."""
    def fits(g: int) -> bool:
        return bool(_all_ge(wmin, g * e - _EPS).any())

    pos = e > 0
    if not pos.any():
        return gmax if fits(gmax) else -1
    est = ((wmin[:, :, pos] + _EPS) / e[pos]).min(axis=2).max()
    g = int(min(gmax, max(-1.0, math.floor(est) + 1)))
    while g >= 0 and not fits(g):
        g -= 1
    while g < gmax and fits(g + 1):  # guards against rounding in est
        g += 1
    return g


class Searcher:
    """best_schedule(j) for one window; configurations are cached per job."""

    def __init__(self, data: HeteroData, configs=job_config_arrays):
        # configs(data, j) -> the job's configuration rows (A_online passes a restricted set)
        self.data, self._configs = data, configs
        self._arr: dict[int, np.ndarray] = {}
        self._cfg: dict[int, dict[int, list[Config]]] = {}
        self._static: dict[tuple[int, int, int, int], bool] = {}
        self._fits = KeyTest(data, self.fits_empty)  # fits_empty per row, vectorized
        self._static_shared: dict[tuple[int, int], _Q0Tables | None] = {}

    def config_array(self, j: int) -> np.ndarray:
        """configs(data, j) (default job_config_arrays: rows m, p, q, n, d), computed once per
        job."""
        if j not in self._arr:
            self._arr[j] = self._configs(self.data, j)
        return self._arr[j]

    def configs(self, j: int) -> list[Config]:
        """job_configs(data, j)."""
        return [Config(*r) for r in self.config_array(j).tolist()]

    def groups(self, j: int) -> dict[int, list[Config]]:
        """Job j's configurations by duration, without those that fit nowhere even on the
        empty cluster (they can never be returned, so dropping them changes no result)."""
        if j not in self._cfg:
            a = self.config_array(j)
            kept = a[self._fits(a)]
            # rows are sorted by d first: one run of rows per duration
            cut = np.flatnonzero(np.diff(kept[:, 4])) + 1
            self._cfg[j] = {int(run[0, 4]): [Config(*r) for r in run.tolist()]
                            for run in np.split(kept, cut) if len(run)}
        return self._cfg[j]

    def fits_empty(self, c: Config) -> bool:
        """Does the subroutine of c find any placement on the empty cluster?  It runs the very
        subroutine on free capacity = C (zero prices), so the answer uses the same arithmetic:
        every feasibility test in the subroutines is monotone in the free capacity (floor, >=
        and sums of floating-point numbers are monotone), and free capacity never exceeds C,
        hence False here means infeasible in every window.  Independent of the job: cached by
        (m, p, q, N)."""
        key = (c.m, c.p, c.q, c.n)
        if key not in self._static:
            d = self.data
            wmin = d.cap[None].astype(float)
            zero = np.zeros((1, len(d.cap)))
            one = np.array([1])
            if d.architecture == "ps" and c.q:
                r = self._ps_q1(c, wmin, zero, zero, one)
            elif d.architecture == "ps":
                if (c.m, c.n) not in self._static_shared:
                    self._static_shared[c.m, c.n] = self._ps_q0_shared(c.m, c.n, wmin, zero)
                r = self._ps_q0(c, wmin, zero, zero, one, self._static_shared[c.m, c.n])
            else:
                r = (self._ra_q1 if c.q else self._ra_q0)(c, wmin, zero, one)
            self._static[key] = r is not None
        return self._static[key]

    def best(self, j: int, win: Window, *, q_only: int | None = None) -> Placement | None:
        """The cheapest placement of job j in ``win`` (ties: earliest completion)."""
        d = self.data
        win._refresh()
        ps = d.architecture == "ps"
        best = (math.inf, math.inf, None)
        for L in sorted(self.groups(j)):
            if L > win.tau - 1:
                break
            if best[0] <= 0 and 1 + L >= best[1]:
                break  # nothing longer can beat a free placement completing earlier
            lc = win.by_len.get(L) if win.data is d else None
            if lc is None:
                lc = _LenCache(win, L, ps)
                # answers depend on the data: cache only the window's own; past the memory
                # budget, lengths are computed per query as before (same numbers either way)
                if win.data is d and win.by_len_bytes + lc.nbytes <= CACHE_BYTES:
                    win.by_len[L] = lc
                    win.by_len_bytes += lc.nbytes
            starts = lc.starts
            if not len(starts):
                continue
            minW, minP = lc.minW, lc.minP
            shared: dict[tuple[int, int], tuple] = {}  # this query's A_mincost1 tables
            passes: dict[tuple[int, int], list[bool]] = {}  # per (m, N): p passes the bound
            first = int(starts[0]) + L
            for c in self.groups(j)[L]:
                if q_only is not None and c.q != q_only:
                    continue
                lb = c.n * minW[c.m] + (minP[c.p] if ps else 0.0)
                if not _better(lb, first, best):
                    continue
                if c.q and c.n > lc.alone(c.m):
                    continue  # no server holds N workers at any start (_LenCache.alone)
                # the per-start bound, for every PS type of (m, N) at once: worth it only before
                # A_mincost1's tables; the other subroutines cost about as much (measured).  It
                # is computed with the best known when (m, N) first comes up: still a valid
                # test later (the best only improves), just a looser one
                if ps and not c.q:
                    ok = passes.get((c.m, c.n))
                    if ok is None:
                        ok = passes[c.m, c.n] = _better_rows(lc.lower(c.m, c.n), starts + L,
                                                              best).tolist()
                    if not ok[c.p]:
                        continue
                ckey = (c.m, c.p, c.q, c.n)
                if ckey in lc.result:  # the same deterministic answer as computing it again
                    r = lc.result[ckey]
                else:
                    rows = len(starts)
                    if best[0] == 0.0:
                        # a free placement is known: only a free one completing earlier can
                        # win, so only starts < best completion - L matter (see _prefix_ok)
                        rows = int(np.searchsorted(starts, best[1] - L, side="left"))
                        if rows == 0:
                            continue
                    if ps and not c.q:
                        sh = self._q0_tables(shared, c, lc, rows)
                        if sh is None:
                            continue  # N workers fit nowhere (this many starts)
                        # the tighter bound, lowered by far more than the rounding of the sums
                        # (all terms >= 0), so it stays below every cost _ps_q0 can return
                        if not _better((sh.least + minP[c.p]) * (1 - 1e-9), first, best):
                            continue
                    r = self._solve(c, lc, rows, shared, best)
                    if r is _NOT_BETTER:
                        continue  # the answer would not beat best: nothing to keep either
                    if r is not None and rows < len(starts) and not _prefix_ok(r[0]):
                        r = self._solve(c, lc, len(starts), shared)  # never seen: prices jump
                    if rows == len(starts):
                        lc.result[ckey] = r
                if r is None:
                    continue
                cost, srow, y, s = r
                comp = int(starts[srow]) + L
                if _better(cost, comp, best):
                    best = (cost, comp, Placement(j, c.m, c.p, c.q, c.n, L, int(starts[srow]),
                                                  dict(y), dict(s), cost))
        return best[2]

    def _q0_tables(self, shared: dict, c: Config, lc: "_LenCache", rows: int):
        """_ps_q0_shared of (c.m, c.n) on the first ``rows`` starts, computed once per query
        (``shared``) and sliced for fewer rows; its bound is remembered per length when all
        starts were used.  A prefix gives the same rows as slicing the full table (row-wise
        arithmetic; only the g range and the bound can shrink: cells past the g limit of the
        prefix are infeasible there, so no answer moves)."""
        key = (c.m, c.n)
        if lc.least.get(key, 0.0) is None:
            return None
        if key not in shared or shared[key][0] < rows:
            wmin, om = lc.rows(rows, c.m)
            shared[key] = (rows, self._ps_q0_shared(c.m, c.n, wmin, om, lc.prep_rows(rows)))
            if rows == len(lc.starts):
                sh = shared[key][1]
                lc.least[key] = None if sh is None else sh.least
        n, sh = shared[key]
        return None if sh is None else sh.cut(rows)

    def _solve(self, c: Config, lc: "_LenCache", rows: int, shared: dict, best=None):
        """The subroutine of configuration c on the first ``rows`` candidate starts; with
        ``best`` (cost, completion, _) A_mincost1 may answer _NOT_BETTER instead."""
        ps = self.data.architecture == "ps"
        wmin, om = lc.rows(rows, c.m)
        starts = lc.starts[:rows]
        if ps and c.q:
            return self._ps_q1(c, wmin, om, lc.Pc[c.p, :rows], starts)
        if ps:
            sh = self._q0_tables(shared, c, lc, rows)
            if sh is None:
                return None
            return self._ps_q0(c, wmin, om, lc.Pc[c.p, :rows], starts, sh, best)
        if c.q:
            return self._ra_q1(c, wmin, om, starts)
        return self._ra_q0(c, wmin, om, starts, lc.prep_rows(rows))

    def cost_fixed(self, j: int, win: Window, c: Config, start: int) -> float | None:
        """Optimal cost of (13) / (21) with configuration c and start fixed (Theorem 1's
        claim, tested against a MILP); None if infeasible."""
        win._refresh()
        starts = np.array([start])
        wmin = win.window_min(c.d, starts)
        om = win.window_cost(win.wcum, c.d, starts)[c.m]
        if self.data.architecture == "ps":
            pi = win.window_cost(win.pcum, c.d, starts)[c.p]
            r = (self._ps_q1 if c.q else self._ps_q0)(c, wmin, om, pi, starts)
        else:
            r = (self._ra_q1 if c.q else self._ra_q0)(c, wmin, om, starts)
        return None if r is None else r[0]

    # ---- the four subroutines (vectorized over starts x servers) -------------------------
    def _ps_q1(self, c, wmin, om, pi, starts):
        d = self.data
        need = c.n * d.e[c.m] + d.z[c.p]
        ok = _all_ge(wmin, need - _EPS)
        cost = np.where(ok, c.n * om + pi, _BIG)
        r = _pick(cost, starts, c.d)
        if r is None:
            return None
        val, srow, h = r
        return val, srow, {h: c.n}, {h: 1}

    def _ra_q1(self, c, wmin, om, starts):
        d = self.data
        ok = _all_ge(wmin, c.n * d.e[c.m] - _EPS)
        cost = np.where(ok, c.n * om, _BIG)
        r = _pick(cost, starts, c.d)
        if r is None:
            return None
        val, srow, h = r
        return val, srow, {h: c.n}, {}

    @staticmethod
    def _greedy_units(om, caps, kmax, sort=None):
        """Sorted unit costs of the first kmax worker slots, per start: S x kmax (BIG = none).
        ``sort``: (order, sorted om) when precomputed."""
        if sort is None:
            order = _stable_order(om)
            oms = np.take_along_axis(om, order, 1)
        else:
            order, oms = sort
        cs = np.take_along_axis(caps, order, 1)
        cum = np.cumsum(cs, axis=1)
        k = np.arange(kmax)
        idx = _units_before(cum, k)  # position holding unit k
        H = om.shape[1]
        uc = np.where(idx < H, np.take_along_axis(oms, np.minimum(idx, H - 1), 1), _BIG)
        return order, cs, cum, uc

    def _ra_q0(self, c, wmin, om, starts, prep=None):
        d = self.data
        # at most Phi - 1 per server: >= 2 servers
        caps = _caps(wmin, d.e[c.m], c.n - 1, prep.raw(c.m) if prep else None)
        total = caps.sum(axis=1)
        if total.max(initial=0) < c.n:
            return None  # fewer than Phi free slots in every window: every cost is BIG
        order, cs, cum, uc = self._greedy_units(om, caps, c.n, prep.sort(c.m) if prep else None)
        cost = np.where(total >= c.n, np.minimum(uc, _BIG / (4 * c.n)).sum(axis=1), _BIG)
        r = _pick(cost[:, None], starts, c.d)
        if r is None:
            return None
        val, srow, _ = r
        take = np.clip(c.n - (cum[srow] - cs[srow]), 0, cs[srow])
        y = {int(order[srow, k]): int(t) for k, t in enumerate(take) if t > 0}
        return val, srow, y, {}

    def _ps_q0_shared(self, m, N, wmin, om, prep=None) -> "_Q0Tables | None":
        """The part of A_mincost1 that does not depend on the PS type p: worker capacities,
        the greedy order and, for every (g, start, n) that can be feasible, the cost of the g
        workers at n and of the other N - g workers.  Configs (d, N, m, p) are visited with p
        innermost, so best() computes this once for all p.

        Only cells that some p could accept are listed ("ragged", about an eighth of the
        G x S x H block at paper-default scale): g workers next to the PSs need room for g
        workers alone at n (the fit test g e + s z <= free + EPS implies g e <= free + EPS, and
        g <= raw caps + 1 covers that whenever a demand e_r > 0 exceeds ~1e-9), and the other
        servers need N - g slots (total - caps_n >= N - g).  Each listed cell gets the very
        expressions of the dense block, so every value is the same number."""
        e = self.data.e[m]
        S, H = om.shape
        raw = prep.raw(m) if prep else _caps_raw(wmin, e)
        caps = np.clip(raw, 0, N)
        total = caps.sum(axis=1)
        if total.max() < N:
            return None  # not enough room for N workers anywhere (PSs aside)
        # the same as _g_limit(wmin, e, N - 1): fits(g) is monotone in g
        gtop = min(N - 1, prep.alone(m)) if prep else _g_limit(wmin, e, N - 1)
        if gtop < 0:
            return None
        order, cs, cum, uc = self._greedy_units(om, caps, 2 * N, prep.sort(m) if prep else None)
        gcum = np.concatenate([np.zeros((S, 1)), np.cumsum(np.minimum(uc, _BIG / (4 * N)), 1)], 1)
        rank = np.empty_like(order)  # position of each server in the order (its inverse)
        np.put_along_axis(rank, order, np.broadcast_to(np.arange(H), order.shape), 1)
        before = np.take_along_axis(cum - cs, rank, 1)  # units ahead of server h: S x H
        # per cell (start, n): g from lo (enough room elsewhere) to hi (room at n)
        lo = np.maximum(0, N - (total[:, None] - caps)).astype(np.int64).ravel()
        hi = np.minimum(gtop, np.clip(raw, -1, gtop) + 1).astype(np.int64).ravel()
        count = np.maximum(hi - lo + 1, 0)
        ci = np.repeat(np.arange(S * H), count)  # cell index start * H + n, row-major
        first = np.cumsum(count) - count
        g = lo[ci] + (np.arange(len(ci)) - first[ci])
        K = N - g
        capsE, omE = caps.ravel()[ci], om.ravel()[ci]
        inside = K > before.ravel()[ci]  # n is among the first K units: use K + cap_n units
        idx = np.minimum(np.where(inside, K + capsE, K), 2 * N).astype(int)
        G = gcum[ci // H, idx] - np.where(inside, capsE * omE, 0)
        gom = g * omE
        # least worker cost of any listed (g, start, n): with s >= 1 PSs at n, every cost of
        # this (m, N) and PS type p is at least this + min pi_p (a bound)
        least = float(np.min(gom + G)) if len(ci) else math.inf
        wminE = (prep.wmin_t() if prep else wmin.reshape(S * H, -1).T)[:, ci]  # R x E
        return _Q0Tables(S, H, caps, order, ci, g, gom, G, wminE, least)

    def _ps_q0(self, c, wmin, om, pi, starts, shared=_UNSET, best=None):
        d = self.data
        N = c.n
        z = d.z[c.p]
        b, B = d.b[c.m], d.B[c.p]
        H = om.shape[1]
        if shared is _UNSET:
            shared = self._ps_q0_shared(c.m, N, wmin, om)
        if shared is None or not len(shared.ci):
            return None
        t = shared
        # PSs (13d)/(13e) and the room needed at n, per g (the same expressions per g as per
        # cell), then looked up per cell
        gs = np.arange(t.gmax + 1)
        s_g = np.maximum(1, np.ceil((N - gs) * b / B - _EPS))
        s_need = s_g[t.g]
        cost = t.gom + s_need * pi.ravel()[t.ci] + t.G  # each cell's cost if it fits
        floor_g = gs[:, None] * d.e[c.m] + s_g[:, None] * z - _EPS  # G x R
        may = None if best is None else _cells_may_beat(cost, t, starts, c.d, best)
        if may is not None:
            # the answer can win only through a cell that fits and could beat best: test
            # those cells first (usually none or few), then search all cells as before
            if not _cells_fit(t, floor_g, np.flatnonzero(may)).any():
                return _NOT_BETTER
        cost = np.where(_cells_fit(t, floor_g), cost, _BIG)
        # the dense search's pick: least cost, then the earliest start within 1e-12 of it,
        # then in that start the first (g, n) in g-major order with that start's least cost
        cmin = cost.min()
        if not np.isfinite(cmin) or cmin >= _BIG:
            return None
        tol = 1e-12 * max(1.0, abs(cmin))
        rowE = t.ci // H
        srow = int(rowE[cost <= cmin + tol].min())
        sel = np.flatnonzero(rowE == srow)
        val = cost[sel].min()
        at = sel[cost[sel] == val]
        k = at[np.argmin(t.g[at] * H + t.ci[at] % H)]
        g, n, s_need = int(t.g[k]), int(t.ci[k] % H), int(s_need[k])
        y = {n: g} if g else {}
        # the other N - g workers: greedily along the cost order, skipping n
        row = t.order[srow]
        capo = t.caps[srow, row].copy()
        capo[row == n] = 0
        take = np.clip(N - g - (np.cumsum(capo) - capo), 0, capo).astype(int)
        for h, k2 in zip(row[take > 0].tolist(), take[take > 0].tolist()):
            y[h] = k2
        assert sum(y.values()) == N
        return float(val), srow, y, {n: s_need}


class _Q0Tables:
    """_ps_q0_shared's answer: per start the capped worker slots and the cost order, and per
    listed (g, start, n) cell (flat, row-major by cell) what every PS type shares."""

    def __init__(self, S, H, caps, order, ci, g, gom, G, wmin, least):
        self.S, self.H, self.caps, self.order = S, H, caps, order
        self.ci, self.g, self.gom, self.G, self.wmin = ci, g, gom, G, wmin
        self.least = least
        self.gmax = int(g.max(initial=0))

    def cut(self, rows: int) -> "_Q0Tables":
        """The same tables for the first ``rows`` starts (cells are row-major: a prefix)."""
        if rows == self.S:
            return self
        k = int(np.searchsorted(self.ci, rows * self.H))
        return _Q0Tables(rows, self.H, self.caps[:rows], self.order[:rows], self.ci[:k],
                         self.g[:k], self.gom[:k], self.G[:k], self.wmin[:, :k],
                         self.least)
