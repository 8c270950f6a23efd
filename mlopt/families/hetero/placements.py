"""Per-job placements: a configuration (m, p, N) *with* its servers, so that the duration, the
co-location q and the PS-bandwidth condition (2i) are known per placement.

A placement of job j is (worker type m, PS type p, workers y_h per server, PS server h* with s
PSs) for PS jobs, (m, y_h) for Ring-AllReduce jobs.  What it implies, exactly as the checker
(:mod:`.checker`) derives it from a schedule: N = sum_h y_h <= D_j (2g); q = 1 iff every worker
and PS sits on one server, else 0; rate (1) / (14) and d = ceil(E D K / (N rho)) (2f, the same
:meth:`HeteroData.duration`); per-server use y_h e_m (+ s z_p on h*), which must fit C_h alone.

DOMINANCE (why only these placements are enumerated; every dropped placement has one kept with
use <= its use on every server and resource and duration <= its duration, so swapping it into
any schedule keeps the schedule feasible and never delays the job):
* one PS server: (2i) asks *every* server holding PSs of j to cover the bandwidth of j's workers
  on other servers by itself, so dropping the PSs of all but one PS server h* keeps (2i) on h*,
  frees resources, and can only turn q from 0 into 1 (the faster rate);
* the fewest PSs on h*: s = max(1, ceil(b_m (N - y_h*) / B_p)) ((2e) and (2i), with the
  checker's slack: :meth:`HeteroData.fewest_ps`); more PSs only use resources (the rate does not
  depend on their number);
* then, per job, every placement whose (per-server use, duration) is dominated by another's is
  dropped (:func:`drop_dominated`; equal pairs keep the first).
Identical servers are *not* merged: per-server capacity rows are needed for exactness (two jobs
that each fit one server of a pair need not fit one server together).  Their permutation
symmetry is broken instead (:func:`canonical`).
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import product

import numpy as np

from mlopt.errors import InputError
from mlopt.families.hetero.configs import cluster_workers
from mlopt.families.hetero.fields import HeteroData
from mlopt.tolerance import accepted_capacity

#: placements enumerated per job before dominance (the exact model is for small clusters)
MAX_PLACEMENTS = 200_000
_FIT_TOL = 1e-9


@dataclass(frozen=True)
class Placements:
    """Placements of one job, as parallel arrays (row l = one placement)."""
    m: np.ndarray  # L
    p: np.ndarray  # L (-1 for RA)
    q: np.ndarray  # L
    n: np.ndarray  # L workers
    d: np.ndarray  # L duration (slots)
    y: np.ndarray  # L x H workers per server
    s: np.ndarray  # L x H PSs per server (all zero for RA)
    use: np.ndarray  # L x H x R resources per server

    def __len__(self) -> int:
        return len(self.d)

    def take(self, keep: np.ndarray) -> "Placements":
        """Return the placements selected by the mask or index keep."""
        return Placements(*(a[keep] for a in (self.m, self.p, self.q, self.n, self.d, self.y,
                                             self.s, self.use)))


def per_server_workers(data: HeteroData, m: int) -> np.ndarray:
    """Per server, the most type-m workers it holds alone (within the load the checker
    accepts, ``data.limit``)."""
    e = data.e[m]
    pos = e > 0
    return np.floor(data.limit[:, pos] / e[pos] + _FIT_TOL).min(axis=1).astype(np.int64)


def _splits(n: int, limits: np.ndarray):
    """Every (y_0 .. y_H-1) with sum n and 0 <= y_h <= limits[h]."""
    H = len(limits)
    if H == 0:
        return
    if H == 1:
        if n <= limits[0]:
            yield (n,)
        return
    for first in range(min(n, int(limits[0])), -1, -1):
        for rest in _splits(n - first, limits[1:]):
            yield (first, *rest)


def count_splits(n: int, limits: np.ndarray) -> float:
    """Number of :func:`_splits` (a float: dynamic programming over servers with prefix sums,
    without enumerating them; huge counts only need comparing with a limit)."""
    ways = np.zeros(n + 1)
    ways[0] = 1.0
    for lim in limits.tolist():
        pre = np.concatenate([[0.0], np.cumsum(ways)])  # pre[k] = sum ways[:k]
        k = np.arange(n + 1)
        ways = pre[k + 1] - pre[np.maximum(k - min(int(lim), n), 0)]
    return float(ways[n])


def job_placements(data: HeteroData, j: int) -> Placements:
    """Every non-dominated placement of job j that fits the empty cluster (module docstring)."""
    H, R = data.cap.shape
    ps = data.architecture == "ps"
    nmax = min(int(data.chunks[j]), cluster_workers(data))
    total = 0
    for m in range(len(data.e)):
        lim = per_server_workers(data, m)
        total += sum(count_splits(n, lim) for n in range(1, nmax + 1)) * (
            len(data.z) * H if ps else 1)
        if total > MAX_PLACEMENTS:
            raise InputError(f"job {data.job_ids[j]} has more than {MAX_PLACEMENTS:,} placements"
                             " (mlopt.families.hetero.placements.MAX_PLACEMENTS): too many for "
                             "the per-placement model; use wct_milp or a bound", field="jobs",
                             value=len(data.job_ids))
    rows = []  # (m, p, q, n, d, y, s)
    for m in range(len(data.e)):
        lim = per_server_workers(data, m)
        for n in range(1, nmax + 1):
            for y in _splits(n, lim):
                y = np.array(y, dtype=np.int64)
                hosts = np.flatnonzero(y)
                if not ps:
                    q = 1 if len(hosts) == 1 else 0
                    d = data.duration(j, n, data.rate_ra(j, m, n, q))
                    rows.append((m, -1, q, n, d, y, np.zeros(H, dtype=np.int64)))
                    continue
                for p, h in product(range(len(data.z)), range(H)):
                    remote = (n - int(y[h])) * data.b[m]
                    k = data.fewest_ps(remote, p)
                    s = np.zeros(H, dtype=np.int64)
                    s[h] = k
                    q = 1 if (len(hosts) == 1 and hosts[0] == h) else 0
                    d = data.duration(j, n, data.rate_ps(j, m, p, q))
                    rows.append((m, p, q, n, d, y, s))
    if not rows:
        return _empty(H, R)
    ys = np.array([r[5] for r in rows])
    ss = np.array([r[6] for r in rows])
    zz = data.z if ps else np.zeros((1, R))
    ms = np.array([r[0] for r in rows])
    pp = np.array([max(r[1], 0) for r in rows])
    use = ys[:, :, None] * data.e[ms][:, None, :] + ss[:, :, None] * zz[pp][:, None, :]
    fits = (use <= accepted_capacity(data.cap)[None]).all(axis=(1, 2))  # the checker's test
    cols = [np.array([r[i] for r in rows], dtype=np.int64) for i in range(5)]
    out = Placements(*cols, ys, ss, use).take(fits)
    return drop_dominated(out)


def _empty(H, R) -> Placements:
    z = np.zeros(0, dtype=np.int64)
    return Placements(z, z, z, z, z, np.zeros((0, H), np.int64), np.zeros((0, H), np.int64),
                      np.zeros((0, H, R)))


def drop_dominated(pl: Placements) -> Placements:
    """Drop placements another *strictly* dominates (use <= everywhere, d <=, not equal in
    both) and keep one of each group with equal (use, d) (the same column for the model).
    Strict dominance commutes with permuting identical servers, so the kept set of (use, d) is
    closed under those permutations (what :func:`canonical` relies on)."""
    if len(pl) == 0:
        return pl
    flat = pl.use.reshape(len(pl), -1)
    key = np.column_stack([pl.d, flat])
    _, first = np.unique(key, axis=0, return_index=True)
    pl, flat = pl.take(np.sort(first)), flat[np.sort(first)]
    le = (flat[:, None, :] <= flat[None, :, :] + 1e-12).all(axis=2) & \
        (pl.d[:, None] <= pl.d[None, :])  # le[a, b]: a dominates b weakly
    np.fill_diagonal(le, False)
    dominated = le.any(axis=0)  # distinct (use, d) rows: weak dominance by another is strict
    kept = np.flatnonzero(~dominated)
    return pl.take(kept[np.lexsort((kept, pl.d[kept]))])


def server_classes(data: HeteroData) -> list[list[int]]:
    """Servers grouped by identical capacity vectors (each list ascending)."""
    groups: dict[tuple, list[int]] = {}
    for h, row in enumerate(data.cap.tolist()):
        groups.setdefault(tuple(row), []).append(h)
    return list(groups.values())


def canonical(pl: Placements, classes: list[list[int]]) -> np.ndarray:
    """Mask of placements whose per-server use is lexicographically non-increasing along every
    class of identical servers.  SAFE symmetry breaking for ONE job: permuting identical servers
    maps every schedule to one with the same objective and, the kept set being closed under such
    permutations (:func:`drop_dominated`), to one the model still has; some permutation sorts
    that job's use into this form."""
    keep = np.ones(len(pl), dtype=bool)
    for cls in classes:
        for a, b in zip(cls, cls[1:]):
            diff = pl.use[:, a, :] - pl.use[:, b, :]
            nz = np.abs(diff) > 1e-12
            first = np.where(nz.any(axis=1), nz.argmax(axis=1), 0)
            sign = np.where(nz.any(axis=1), diff[np.arange(len(pl)), first], 0.0)
            keep &= sign >= 0
    return keep
