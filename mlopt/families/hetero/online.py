"""A_online (Alg. 1) with A_dual (Alg. 2) of seed 003, PS and Ring-AllReduce.

Rounds i = 1, 2, ...: tau_i = 2^(i-1).  J_i = jobs not yet scheduled with a_j <= tau_i.  A_dual
calls A_maxweight alpha times on disjoint sub-windows of tau_i slots, each on an empty cluster
with fresh prices, removing the jobs it scheduled, and stops early when J_i is done.  Round i's
schedule runs from alpha tau_i: sub-window iota covers [alpha tau_i + (iota-1) tau_i,
alpha tau_i + iota tau_i), so c_j <= alpha tau_{i+1} and rounds never overlap (each call sees an
empty cluster).

DECISIONS (notes 6.6, 6.9):
* alpha is one global integer, both the number of sub-windows and the offset.  ``alpha=4``
  (default) is the paper's practical value; ``alpha_rule="theorem5"`` uses Theorem 5's value
  floor((log w(J) - log w_min) / (1 + log log lambda - log(2 log lambda - 1))) + 1, log base 2,
  instead of ``alpha``.  Either is at most :data:`MAX_ALPHA` (every round runs up to alpha
  A_maxweight calls, so a huge alpha would grind; Theorem 5's value beyond it is refused).
* ``F`` (assumption A1) is at least 1, as :func:`.maxweight.default_F` makes it: then
  lambda = 2 T H R F + 1 >= 9 and Theorem 5's denominator is positive.
* ``compact=True`` (not the paper): round i starts at max(tau_i, the last completion of earlier
  rounds) instead of alpha tau_i; decisions still use only jobs arrived by tau_i.
* Jobs too long for tau_i wait for later rounds; rounds continue past T until all jobs are done.

Options for the paper's Fig. 9 / 10 (restrictions of the choice A_online otherwise makes; not
used by default, where the schedule is unchanged):
* ``worker_types=["w3", ...]``: every job uses one of these worker types ("all jobs employ the
  same type of workers" is a one-element list);
* ``workers=k``: every job runs exactly min(k, D_j) workers ((2g) caps the count at D_j).
F and lambda stay those of the unrestricted instance: F bounds w_j / volume over every schedule
(A1), so it bounds it over the restricted subset too, and the runs differ only in their choices.
A job with no restricted configuration that fits the empty cluster is an input error.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np

from mlopt.errors import InputError
from mlopt.families.hetero.configs import fits_alone, job_config_arrays, job_configs
from mlopt.families.hetero.fields import MAX_TYPES, HeteroData, hetero_data
from mlopt.families.hetero.maxweight import a_maxweight, default_F, lam_of
from mlopt.families.hetero.mincost import Placement, Searcher
from mlopt.limits import MAX_COUNT, MAX_HORIZON, MAX_VALUE
from mlopt.params import Param
from mlopt.schedule import COLUMNS, SCHEDULE_SCHEMA_VERSION, Schedule
from mlopt.workload import Workload

MAX_ROUNDS = 40
#: largest alpha (sub-windows per round and the rounds' offset); the paper uses 4
MAX_ALPHA = 1024

#: every option of A_online (and a_online_ra): Family.run checks them before the run
OPTIONS: dict[str, Param] = {
    "alpha": Param.int(4, low=1, high=MAX_ALPHA, doc="sub-windows per round and offset"),
    "alpha_rule": Param.choice("fixed", ("fixed", "theorem5"),
                               doc="theorem5: Theorem 5's alpha instead of the alpha option"),
    "F": Param.float(None, low=1.0, high=MAX_VALUE, nullable=True,
                     doc="assumption A1's F (null: default_F, an upper estimate)"),
    "compact": Param.bool(False, doc="round i starts at max(tau_i, last completion)"),
    "order": Param.choice("arrival", ("arrival", "weight"), doc="order of J_i in A_maxweight"),
    "worker_types": Param.list(Param.str(), None, min_items=1, max_items=MAX_TYPES,
                               nullable=True, doc="only these worker type ids (Fig. 9)"),
    "workers": Param.int(None, low=1, high=MAX_COUNT, nullable=True,
                         doc="every job runs min(workers, D_j) workers (Fig. 10)"),
}


def theorem5_alpha(weights: np.ndarray, lam: float) -> int:
    """Return the alpha of Theorem 5 for the given weights and lambda."""
    lg = math.log2
    num = lg(float(np.sum(weights))) - lg(float(np.min(weights)))
    den = 1.0 + lg(lg(lam)) - lg(2.0 * lg(lam) - 1.0)
    return int(math.floor(num / den)) + 1


@dataclass
class OnlineRun:
    placements: dict[int, tuple[Placement, int]]  # job -> (placement, absolute start)
    alpha: int
    alpha_theorem5: int
    lam: float
    F: float
    rounds: list[dict] = field(default_factory=list)
    runtime_s: float = 0.0


def _restricted_configs(data: HeteroData, worker_types, workers):
    """The configuration generator for the Searcher, or None when nothing is restricted."""
    if worker_types is None and workers is None:
        return None
    idx = None
    if worker_types is not None:
        if (not isinstance(worker_types, (list, tuple)) or not worker_types
                or not all(isinstance(t, str) for t in worker_types)):
            raise InputError("must be a non-empty list of worker type ids", field="worker_types",
                             value=worker_types)
        unknown = [t for t in worker_types if t not in data.wtype_ids]
        if unknown:
            raise InputError(f"unknown worker type (known: {', '.join(data.wtype_ids)})",
                             field="worker_types", value=unknown[0])
        idx = frozenset(data.wtype_ids.index(t) for t in worker_types)
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int)
                                or workers < 1):
        raise InputError("must be an integer >= 1", field="workers", value=workers)
    restrict = {"worker_types": idx, "workers": workers}
    for j in range(len(data.job_ids)):
        if not any(fits_alone(data, c) for c in job_configs(data, j, **restrict)):
            field_ = "worker_types" if workers is None else "workers"
            raise InputError(f"job {data.job_ids[j]} has no configuration that fits the cluster"
                             " under this restriction", field=field_,
                             value=worker_types if workers is None else workers)
    return lambda d, j: job_config_arrays(d, j, **restrict)


def a_online(workload: Workload, *, alpha: int = 4, alpha_rule: str = "fixed",
             F: float | None = None, compact: bool = False, order: str = "arrival",
             observe=None, search=Searcher, worker_types: list[str] | None = None,
             workers: int | None = None) -> OnlineRun:
    """``observe(round, sub_round, result)`` (optional) sees every A_maxweight call's
    :class:`MaxWeightResult` while its window still holds the final prices (theory checks).
    ``search``: the class answering A_mincost queries, :class:`.mincost.Searcher` or the
    plain transliteration :class:`.reference.ReferenceSearcher` (side-by-side benchmark)."""
    t0 = time.perf_counter()
    data = hetero_data(workload)
    searcher = search(data)  # caches configurations for default_F and every round
    F = float(F) if F is not None else default_F(data, searcher)
    if not (math.isfinite(F) and 1 <= F <= MAX_VALUE):
        raise InputError(f"must be in [1, {MAX_VALUE:g}]", field="F", value=F)
    lam = lam_of(data, F)
    a5 = theorem5_alpha(data.weight, lam)
    if alpha_rule not in ("fixed", "theorem5"):
        raise InputError("must be fixed or theorem5", field="alpha_rule", value=alpha_rule)
    if alpha_rule == "theorem5":
        if a5 > MAX_ALPHA:
            raise InputError(f"Theorem 5's alpha = {a5} exceeds MAX_ALPHA = {MAX_ALPHA} "
                             "(mlopt.families.hetero.online)", field="alpha_rule",
                             value=alpha_rule)
        alpha = a5
    if isinstance(alpha, bool) or not isinstance(alpha, int) or not 1 <= alpha <= MAX_ALPHA:
        raise InputError(f"must be an integer in [1, {MAX_ALPHA}]", field="alpha", value=alpha)
    if order not in ("arrival", "weight"):
        raise InputError("must be arrival or weight", field="order", value=order)
    restricted = _restricted_configs(data, worker_types, workers)
    if restricted is not None:  # F above is the unrestricted instance's (module doc)
        if search is not Searcher:
            raise InputError("worker_types / workers need the default Searcher",
                             field="search", value=getattr(search, "__name__", search))
        searcher = Searcher(data, restricted)
    pending = list(np.argsort(data.arrival, kind="stable"))
    run = OnlineRun({}, alpha, a5, lam, F)
    last_end = 0
    for i in range(1, MAX_ROUNDS + 1):
        if not pending:
            break
        tau = 2 ** (i - 1)
        J_i = [j for j in pending if data.arrival[j] <= tau]
        if order == "weight":
            J_i.sort(key=lambda j: -data.weight[j])
        base = max(tau, last_end) if compact else alpha * tau
        info = {"round": i, "tau": tau, "jobs": len(J_i), "base": base, "scheduled": 0,
                "sub_rounds": 0}
        left = list(J_i)
        for iota in range(1, alpha + 1):
            if not left:
                break  # early stop: J_i^s = J_i
            res = a_maxweight(data, left, tau, lam, searcher=searcher)
            if observe is not None:
                observe(i, iota, res)
            info["sub_rounds"] = iota
            done = set()
            for pl in res.admitted:
                start = base + (iota - 1) * tau + pl.start - 1
                run.placements[pl.job] = (pl, start)
                last_end = max(last_end, start + pl.d)
                done.add(pl.job)
            info["scheduled"] += len(done)
            left = [j for j in left if j not in done]
        pending = [j for j in pending if j not in run.placements]
        run.rounds.append(info)
    if pending:
        raise InputError(f"{len(pending)} jobs still unscheduled after {MAX_ROUNDS} rounds",
                         field="jobs", value=[data.job_ids[j] for j in pending[:3]])
    run.runtime_s = time.perf_counter() - t0
    return run


def placements_to_schedule(workload: Workload, placed, meta: dict | None = None) -> Schedule:
    """Rows (job, slot, server, role, count, type) for absolute starts."""
    data = hetero_data(workload)
    rows = []
    last = max((start + pl.d - 1 for pl, start in placed), default=0)
    if last > MAX_HORIZON:
        raise InputError(f"the schedule runs until slot {last:,}, past the last slot a schedule "
                         f"may name ({MAX_HORIZON:,}, mlopt.limits.MAX_HORIZON)", field="jobs",
                         value=len(data.job_ids))
    for pl, start in placed:
        jid = data.job_ids[pl.job]
        wt = data.wtype_ids[pl.m]
        pt = data.ptype_ids[pl.p] if pl.p >= 0 else ""
        for t in range(start, start + pl.d):
            for h, c in pl.y.items():
                rows.append((jid, t, data.server_ids[h], "worker", int(c), wt))
            for h, c in pl.s.items():
                rows.append((jid, t, data.server_ids[h], "ps", int(c), pt))
    return Schedule.from_dict({
        "schema_version": SCHEDULE_SCHEMA_VERSION,
        "admitted": sorted({data.job_ids[pl.job] for pl, _ in placed}),
        "columns": [*COLUMNS, "type"], "rows": [list(r) for r in rows], "meta": meta or {}})


def run_a_online(workload: Workload, *, seed: int = 0, alpha: int = 4,
                 alpha_rule: str = "fixed", F: float | None = None, compact: bool = False,
                 order: str = "arrival", worker_types: list[str] | None = None,
                 workers: int | None = None) -> Schedule:
    """A_online as a family algorithm: the options are :data:`OPTIONS` (declared)."""
    run = a_online(workload, alpha=alpha, alpha_rule=alpha_rule, F=F, compact=compact,
                   order=order, worker_types=list(worker_types) if worker_types else None,
                   workers=workers)
    meta = {"alpha": run.alpha, "alpha_theorem5": run.alpha_theorem5, "lambda": run.lam,
            "F": run.F, "rounds": len(run.rounds)}
    schedule = placements_to_schedule(workload, run.placements.values(), meta)
    # wall-clock time stays out of the schedule file (same seed, same bytes)
    schedule.timing = {"algorithm_runtime_s": run.runtime_s}
    return schedule


def run_a_online_ra(workload: Workload, *, seed: int = 0, alpha: int = 4,
                    alpha_rule: str = "fixed", F: float | None = None, compact: bool = False,
                    order: str = "arrival", worker_types: list[str] | None = None,
                    workers: int | None = None) -> Schedule:
    """A_online with the RA subroutines: the workload must declare architecture "ra"."""
    if hetero_data(workload).architecture != "ra":
        raise InputError("a_online_ra needs a Ring-AllReduce workload (a_online runs PS ones)",
                         field="extra.hetero.architecture", value="ps")
    return run_a_online(workload, seed=seed, alpha=alpha, alpha_rule=alpha_rule, F=F,
                        compact=compact, order=order, worker_types=worker_types, workers=workers)
