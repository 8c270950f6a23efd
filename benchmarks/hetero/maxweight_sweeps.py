"""A_maxweight figure sweeps of seed 003 (Sec. 7.2) at 2-core scale: the total weight one call of
A_maxweight schedules in a window of tau slots (every job of the instance offered, arrivals
ignored, as in maxweight_vs_jain.py),

* ``F`` (Fig. 11): vs F (lambda = 2 T H R F + 1), as multiples of the instance's default F;
* ``servers`` (Fig. 12, left): vs the number of servers H, total GPUs held at a reference
  cluster's (the same jobs; see _sweep.with_cluster);
* ``jobs`` (Fig. 12, right): vs the number of jobs.

Each row also has the dual (9) at A_maxweight's final prices with u_j from (10), an upper bound
on the round's optimal weight; ``opt_upper`` = min(dual, weight of all offered jobs), so
opt_upper / weight bounds the real approximation ratio (against Theorem 3's 2 log lambda); and
Jain et al.'s greedy (baselines/jain.py) for reference.  tau = 128 by default: at 64 most
``bench`` jobs are longer than the window (their shortest duration is often 60-100 slots).

    python benchmarks/hetero/maxweight_sweeps.py F -o benchmarks/hetero/data/maxweight_sweeps.csv
    python benchmarks/hetero/maxweight_sweeps.py servers -o benchmarks/hetero/data/maxweight_sweeps.csv
    python benchmarks/hetero/maxweight_sweeps.py jobs -o benchmarks/hetero/data/maxweight_sweeps.csv

Rows are appended as they finish; re-running the same command resumes (see _sweep.py).
"""
from __future__ import annotations

import argparse
import time

from _sweep import Rows, bench, gpus, with_cluster

from mlopt.families.hetero.baselines.jain import jain_greedy
from mlopt.families.hetero.fields import hetero_data
from mlopt.families.hetero.maxweight import (a_maxweight, default_F, dual_value, lam_of,
                                             theorem3_ratio)
from mlopt.families.hetero.mincost import Searcher

FIELDS = ["sweep", "arch", "jobs", "servers", "seed", "factor", "F", "lambda", "tau", "weight",
          "admitted", "offered_weight", "dual_bound", "opt_upper", "upper_over_weight", "theorem3_bound",
          "jain", "seconds"]
KEY = ["sweep", "arch", "jobs", "servers", "seed", "factor"]


def measure(w, key: dict, tau: int, factor: float) -> dict:
    data = hetero_data(w)
    F = default_F(data) * factor
    lam = lam_of(data, F)
    jobs = list(range(len(data.job_ids)))
    searcher = Searcher(data)
    t0 = time.perf_counter()
    res = a_maxweight(data, jobs, tau, lam, searcher=searcher)
    dt = time.perf_counter() - t0
    dual = dual_value(data, res, searcher)
    offered = float(data.weight.sum())
    upper = min(float(dual), offered)  # OPT(8) <= dual (9); and <= all jobs' weight
    jain = sum(data.weight[pl.job] for pl, _ in jain_greedy(data, jobs, tau))
    return {**key, "F": round(F, 6), "lambda": round(lam, 3), "tau": tau,
            "weight": round(res.weight, 1), "admitted": len(res.admitted),
            "offered_weight": round(offered, 1), "dual_bound": round(float(dual), 1),
            "opt_upper": round(upper, 1),
            "upper_over_weight": round(upper / res.weight, 4) if res.weight else "",
            "theorem3_bound": round(theorem3_ratio(lam), 2), "jain": round(float(jain), 1),
            "seconds": round(dt, 2)}


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("sweep", choices=["F", "servers", "jobs"])
    ap.add_argument("--arch", nargs="+", default=["ps", "ra"])
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    ap.add_argument("--jobs", type=int, nargs="+", default=[10, 20, 40, 80],
                    help="the jobs sweep's values; the other sweeps use the third (40)")
    ap.add_argument("--servers", type=int, nargs="+", default=[10, 20, 30, 40],
                    help="the servers sweep's values; the other sweeps use the second (20)")
    ap.add_argument("--factors", type=float, nargs="+", default=[0.001, 0.01, 0.1, 1, 10, 100])
    ap.add_argument("--tau", type=int, default=128)
    ap.add_argument("-o", "--out", required=True)
    a = ap.parse_args(argv)
    rows = Rows(a.out, FIELDS, KEY)
    J0, H0 = a.jobs[min(2, len(a.jobs) - 1)], a.servers[min(1, len(a.servers) - 1)]
    for arch in a.arch:
        for seed in a.seeds:
            if a.sweep == "F":
                cases = [(J0, H0, f, None) for f in a.factors]
            elif a.sweep == "jobs":
                cases = [(J, H0, 1.0, None) for J in a.jobs]
            else:
                cases = [(J0, H, 1.0, H) for H in a.servers]
            ref = None
            for J, H, factor, cluster in cases:
                key = {"sweep": a.sweep, "arch": arch, "jobs": J, "servers": H, "seed": seed,
                       "factor": factor}
                if rows.done(**key):
                    continue
                if cluster is None:
                    w = bench(arch, seed, J, H)
                else:  # same jobs, H servers with the reference cluster's GPU total
                    ref = ref or bench(arch, seed, J, H0)
                    w = with_cluster(ref, arch, seed, H, gpus(ref))
                rows.add(measure(w, key, a.tau, factor))


if __name__ == "__main__":
    main()
