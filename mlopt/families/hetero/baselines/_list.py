"""A slot-by-slot list scheduler shared by the hetero baselines (seed 003, Sec. 7).

At every slot t = 1, 2, ... the waiting jobs that have arrived are offered, in the policy's
priority order, a start at t with the job's fixed configuration (worker type m, PS type p, N
workers).  A job is placed if it fits for its whole duration: on one server (q = 1, the faster
rate) if possible, else split (q = 0): PSs on one server covering the remote workers' bandwidth
(2i), workers first-fit on the other servers.  ``blocking=True`` stops at the first job that does
not fit (strict FIFO).

DECISION (split PS placement).  As in the model (A_mincost1, (13d)/(13e)) and
``configs.fits_alone``, the PS server n may also host g < N of the job's workers; then
s = max(1, ceil((N - g) b_m / B_p)) PSs cover the N - g remote workers (2i).  Rule: the first
server n (index order) where some g fits (g workers + s PSs in n's free capacity, the other
N - g workers within the other servers' room), with the largest such g there; the remote
workers go first-fit on the other servers.  Largest g: fewest PSs and fewest servers touched.
So ``place`` builds every configuration ``fits_alone`` accepts on the empty cluster (the ideal
configuration is placed with its full N); ``fit_count`` only shrinks N of counts the policies
choose themselves (FIFO's drawn N, DRF's share) that fit nowhere.

DECISION (preemption).  Tiresias and AntMan preempt in their papers; seed 003's model (and our
checker) forbids preemption, so all baselines run non-preemptively and keep only their ordering
rules.  This favours them relative to the paper's description ("frequent preemption" lengthens
their jobs).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable

import numpy as np

from mlopt.errors import InputError
from mlopt.families.hetero.configs import fits_alone, job_configs
from mlopt.families.hetero.fields import HeteroData
from mlopt.families.hetero.mincost import Placement
from mlopt.limits import MAX_HORIZON

if TYPE_CHECKING:  # pragma: no cover
    from mlopt.families.hetero.configs import Config

_EPS = 1e-9


class Profile:
    """Used capacity per server, resource and slot (grows as needed)."""

    def __init__(self, data: HeteroData, length: int = 256):
        self.data = data
        self.used = np.zeros((*data.cap.shape, length))
        self.last_start = 0  # latest start committed

    def free(self, a: int, b: int) -> np.ndarray:
        """H x R free capacity over slots [a, b) (1-based).

        From the latest committed start on, usage never increases (every committed job has
        started, and a job's slots are contiguous), and the rounded sums of a subset of the
        same nonnegative terms, added in the same order, are never larger: so the maximum over
        [a, b) is the usage at a, bit for bit, and is read in O(1) instead of O(b - a) (a
        long job made every placement test linear in its duration)."""
        if a >= self.last_start:
            if a - 1 >= self.used.shape[2]:
                return self.data.cap - 0.0
            return self.data.cap - self.used[:, :, a - 1]
        if b - 1 > self.used.shape[2]:
            self._grow(b - 1)
        return self.data.cap - self.used[:, :, a - 1:b - 1].max(axis=2)

    def _grow(self, length: int) -> None:
        while length > self.used.shape[2]:
            self.used = np.concatenate([self.used, np.zeros_like(self.used)], axis=2)

    def commit(self, pl: Placement, start: int) -> None:
        """Add a placement's per-server usage over its slots from start on."""
        self._grow(start - 1 + pl.d)
        self.last_start = max(self.last_start, start)
        for h, vec in pl.usage(self.data).items():
            self.used[h, :, start - 1:start - 1 + pl.d] += vec[:, None]


def ideal_config(data: HeteroData, j: int) -> Config:
    """The "ideal case" (notes 6.14): the fastest configuration on an empty cluster."""
    return next(c for c in job_configs(data, j) if fits_alone(data, c))


def place(data: HeteroData, prof: Profile, j: int, m: int, p: int, n: int, t: int
          ) -> Placement | None:
    """Place N type-m workers (+ type-p PSs) from slot t, co-located if possible."""
    ps = data.architecture == "ps"
    e = data.e[m]
    z = data.z[p] if ps else np.zeros_like(e)
    for q in (1, 0):
        if q == 0 and n == 1 and not ps:
            continue
        rate = data.rate(j, m, p, q, n)
        d = data.duration(j, n, rate)
        if t + d - 1 > MAX_HORIZON:  # past the last slot a schedule may name: no placement
            continue
        free = prof.free(t, t + d)
        if q == 1:
            ok = np.nonzero(((n * e + z) <= free + _EPS).all(axis=1))[0]
            if len(ok):
                h = int(ok[0])
                return Placement(j, m, p, 1, n, d, t, {h: n}, {h: 1} if ps else {})
            continue
        pos = e > 0
        caps = np.floor(free[:, pos] / e[pos] + _EPS).min(axis=1).astype(int)
        if ps:
            # g workers beside the PSs (g < N; g = N is q = 1), s(g) PSs for the N - g others
            g = np.arange(n)
            s_need = np.maximum(1, np.ceil((n - g) * data.b[m] / data.B[p] - _EPS)).astype(int)
            need = g[:, None] * e + s_need[:, None] * z  # N x R
            at_srv = (need[None] <= free[:, None, :] + _EPS).all(axis=2)  # H x N
            room = np.minimum(caps, n)
            rest = (room.sum() - room)[:, None] >= (n - g)[None, :]  # others hold N - g
            ok = at_srv & rest
            hit = np.nonzero(ok.any(axis=1))[0]
            if len(hit):
                srv = int(hit[0])
                gs = int(np.nonzero(ok[srv])[0].max())
                y, left = ({srv: gs} if gs else {}), n - gs
                for h in range(len(free)):
                    if h != srv and left and room[h]:
                        y[h] = int(min(room[h], left))
                        left -= y[h]
                return Placement(j, m, p, 0, n, d, t, y, {srv: int(s_need[gs])})
        else:
            caps = np.minimum(caps, n - 1)
            if caps.sum() >= n:
                y, left = {}, n
                for h in range(len(free)):
                    if left and caps[h]:
                        y[h] = int(min(caps[h], left))
                        left -= y[h]
                return Placement(j, m, p, 0, n, d, t, y, {})
    return None


def fit_count(data: HeteroData, j: int, m: int, p: int, n: int) -> int:
    """The largest n' <= n whose placement fits the empty cluster (so no job waits forever)."""
    for k in range(n, 0, -1):
        if place(data, Profile(data, 8), j, m, p, k, 1) is not None:
            return k
    raise InputError(f"job {data.job_ids[j]} fits nowhere within {MAX_HORIZON:,} slots with "
                     f"worker type {data.wtype_ids[m]}" + (f" and PS type {data.ptype_ids[p]}"
                                                           if p >= 0 else ""),
                     field=f"jobs[{j}]", value=data.job_ids[j])


def list_schedule(data: HeteroData, order: Callable[[int, list[int], dict], list[int]],
                  size: Callable[[int, int, list[int]], object], *,
                  blocking: bool = False, max_slots: int = MAX_HORIZON + 1,
                  shrunk: dict | None = None) -> list[tuple[Placement, int]]:
    """Generic loop: ``order(t, waiting, state)`` ranks waiting jobs, ``size(j, t, waiting)``
    gives (m, p, N) or a list of such alternatives tried in order.  ``shrunk`` (if given)
    receives job index -> (N asked, N placed) for every job started with fewer workers than
    its policy asked because the asked count fits nowhere (:func:`fit_count`)."""
    prof = Profile(data)
    J = len(data.job_ids)
    placed: list[tuple[Placement, int]] = []
    done = set()
    state: dict = {"running": [], "first_seen": {}}
    fitted: dict[tuple, int] = {}
    for t in range(1, max_slots):
        if len(done) == J:
            break
        if t == max_slots - 1:
            raise InputError(f"the list scheduler did not finish every job within {max_slots - 1:,}"
                             " slots (mlopt.limits.MAX_HORIZON)", field="jobs",
                             value=len(data.job_ids) - len(done))
        waiting = [j for j in range(J) if j not in done and data.arrival[j] <= t]
        for j in waiting:
            state["first_seen"].setdefault(j, t)
        for j in order(t, waiting, state):
            alts = size(j, t, waiting)
            pl = None
            for m, p, n in (alts if isinstance(alts, list) else [alts]):
                key = (j, m, p, n)
                if key not in fitted:
                    fitted[key] = fit_count(data, j, m, p, n)
                pl = place(data, prof, j, m, p, fitted[key], t)
                if pl is not None:
                    if shrunk is not None and fitted[key] < n:
                        shrunk[j] = (n, fitted[key])
                    break
            if pl is None:
                if blocking:
                    break
                continue
            prof.commit(pl, t)
            placed.append((pl, t))
            done.add(j)
    return placed
