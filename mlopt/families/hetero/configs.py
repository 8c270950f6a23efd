"""Per-job configurations: (worker type m, PS type p, co-location q, workers N) -> duration d.

For the PS architecture d = ceil(E D K / (N rho_jm^p(q))) (2f) with rho from (1); for RA rho
from (14) depends on N = Phi as well.  Dominance (seed 003 notes, decision 8): for the same
(m, p, q) and the same d, more workers only cost more, so per (m, p, q, d) only the smallest N is
kept; this equals the paper's loop over L = d with N = ceil(E D K / (L rho)) (Alg. 4, lines 5-6).
RA with Phi = 1 has only q = 1 (one worker sits on one server).

Restrictions (Fig. 9 / 10 of seed 003, options of A_online): ``worker_types`` keeps only those
worker types (every job uses one of them); ``workers`` fixes the count to N = min(workers, D_j)
((2g) caps N at D_j).  Dominance is applied after the restriction, so with a fixed N each
(m, p, q) keeps its own duration.  Both None: the unrestricted set, unchanged.
"""
from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

import numpy as np

from mlopt.families.hetero.fields import HeteroData, checked_slots


@dataclass(frozen=True)
class Config:
    m: int
    p: int  # -1 for RA
    q: int
    n: int
    d: int


def job_config_arrays(data: HeteroData, j: int, *, worker_types: Collection[int] | None = None,
                      workers: int | None = None) -> np.ndarray:
    """Every non-dominated configuration of job j as rows (m, p, q, n, d) of an int array,
    sorted by (d, n, m, p, q = 1 first), with N up to min(D_j, :func:`cluster_workers`) (more
    workers fit nowhere); optionally only worker types in ``worker_types`` (indices) and
    exactly min(workers, D_j) workers.

    Vectorized over N with the arithmetic of HeteroData.rate / duration, operation by operation
    (IEEE results are the same elementwise), so durations equal the scalar formulas exactly."""
    parts: list[np.ndarray] = []
    ps = data.architecture == "ps"
    n = np.arange(1, min(int(data.chunks[j]), cluster_workers(data)) + 1)
    if workers is not None:
        n = np.array([min(int(workers), int(data.chunks[j]))])
    work = data.work[j]
    for m in range(len(data.e)):
        if worker_types is not None and m not in worker_types:
            continue
        v, comm = data.v[j, m], data.comm[j, m]
        for p in (range(len(data.z)) if ps else (-1,)):
            for q in (1, 0):
                nn = n[n > 1] if (not ps and q == 0) else n  # RA with Phi = 1 is co-located only
                if ps:  # (1): one rate for every N
                    rate = 1.0 / (v + data.u_ps[j, p] + (0.0 if q else comm))
                else:  # (14): depends on Phi = N
                    f = (nn - 1) / nn
                    rate = 1.0 / (v + data.u_ra[j] * f + (0.0 if q else comm * f))
                d = checked_slots(work, nn, np.broadcast_to(rate, nn.shape))
                # the first N reaching each d is the smallest (n ascending)
                ds, idx = np.unique(d, return_index=True)
                rows = np.empty((len(ds), 5), dtype=np.int64)
                rows[:, 0], rows[:, 1], rows[:, 2] = m, p, q
                rows[:, 3], rows[:, 4] = nn[idx], ds
                parts.append(rows)
    a = np.concatenate(parts) if parts else np.empty((0, 5), dtype=np.int64)
    return a[np.lexsort((-a[:, 2], a[:, 1], a[:, 0], a[:, 3], a[:, 4]))]


def cluster_workers(data: HeteroData) -> int:
    """The most workers of any one type the empty cluster holds: sum_h min_r floor(C_h^r /
    e_m^r) with C the load the checker accepts (``data.limit``), maximized over m.  No
    configuration with more workers fits anywhere (fits_alone needs them on the servers), so
    the enumeration stops there: with D_j far above the cluster (D_j = 10^5 on a 2-server
    cluster) it stays as small as the cluster."""
    hit = _WORKERS.get(id(data))
    if hit is not None and hit[0] is data:
        return hit[1]
    best = 0
    for e in data.e:
        pos = e > 0
        per = np.floor(data.limit[:, pos] / e[pos] + 1e-9).min(axis=1) if pos.any() else \
            np.full(len(data.cap), np.inf)
        best = max(best, int(min(float(per.sum()), 2.0 ** 62)))
    if len(_WORKERS) > 64:
        _WORKERS.clear()
    _WORKERS[id(data)] = (data, best)
    return best


_WORKERS: dict[int, tuple[HeteroData, int]] = {}


def job_configs(data: HeteroData, j: int, **restrict) -> list[Config]:
    """Every non-dominated configuration of job j, sorted by (d, n, m, p, q); ``restrict``: the
    options of :func:`job_config_arrays`."""
    return [Config(*r) for r in job_config_arrays(data, j, **restrict).tolist()]


class KeyTest:
    """test(Config) for configuration rows (m, p, q, n, d), remembered per (m, p, q, n) in a
    flat table: ``test`` must ignore d (fits_alone, Searcher.fits_empty), so it runs once per
    distinct key however many jobs share it, and a job's rows are looked up vectorized."""

    def __init__(self, data: HeteroData, test):
        self.test = test
        self.P1 = len(data.z) + 1  # p = -1 (RA) .. P - 1
        self.width = int(data.chunks.max(initial=1)) + 1  # n = 0 .. max D_j
        self.table = np.full(len(data.e) * self.P1 * 2 * self.width, -1, dtype=np.int8)

    def code(self, a: np.ndarray) -> np.ndarray:
        """Return the flat table index of each (m, p, q, n) row."""
        return ((a[:, 0] * self.P1 + a[:, 1] + 1) * 2 + a[:, 2]) * self.width + a[:, 3]

    def __call__(self, a: np.ndarray) -> np.ndarray:
        code = self.code(a)
        vals = self.table[code]
        for i in np.flatnonzero(vals < 0).tolist():
            if self.table[code[i]] < 0:  # not tested yet (rows of one job never repeat a key)
                self.table[code[i]] = bool(self.test(Config(*a[i, :4].tolist(), 0)))
        return self.table[code] == 1

    def known(self, m: int, p: int, q: int, n: int) -> bool | None:
        """Return the remembered test result for (m, p, q, n), or None if not yet tested."""
        v = int(self.table[self.code(np.array([[m, p, q, n]]))[0]])
        return None if v < 0 else bool(v)


def fits_alone(data: HeteroData, c: Config) -> bool:
    """Can configuration c be placed on the empty cluster at all (capacities only, the loads
    the checker accepts: ``data.limit``, and its PS count ``data.fewest_ps``)?"""
    cap = data.limit
    e = data.e[c.m]
    with np.errstate(divide="ignore", invalid="ignore"):
        per = np.where(e > 0, np.floor(cap / np.where(e > 0, e, 1) + 1e-9), np.inf).min(axis=1)
    if data.architecture == "ra":
        if c.q == 1:
            return bool((per >= c.n).any())
        return per.clip(max=c.n - 1).sum() >= c.n  # at least two servers
    z = data.z[c.p]
    if c.q == 1:
        return bool(((c.n * e + z) <= cap + 1e-9).all(axis=1).any())
    # q = 0: PSs on some server n with g < N workers, the rest elsewhere (checked exactly by
    # the placement search; here a quick necessary-and-sufficient test over (n, g))
    b = data.b[c.m]
    per_c = np.minimum(per, c.n)
    total = per_c.sum()
    g = np.arange(c.n)
    s = data.fewest_ps((c.n - g) * b, c.p)  # PSs needed with g workers at n
    need = g[:, None] * e + s[:, None] * z  # N x R
    fit = (need[None, :, :] <= cap[:, None, :] + 1e-9).all(axis=2)  # H x N
    rest = (total - per_c)[:, None] >= (c.n - g)[None, :]
    return bool((fit & rest).any())


def min_durations(data: HeteroData) -> np.ndarray:
    """Per job, the shortest duration of any configuration that fits the empty cluster."""
    out = np.zeros(len(data.job_ids), dtype=int)
    for j in range(len(out)):
        out[j] = min(c.d for c in job_configs(data, j) if fits_alone(data, c))
    return out
