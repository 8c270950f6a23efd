"""Issue 23: what Alg. 4's work-conserving shift changes.  A_online and A_online-E with
``shift="uniform"`` (the paper's) and ``shift="compact"`` (work-conserving), on paper-sim
(300 jobs, 100 edge servers) seeds 0-2 and on sim.py's Fig. 7 workloads (50-200 jobs, 30 edge
servers, seeds 0-2).  Every schedule is checked; totals are the checker's.

    python benchmarks/edgecloud/shift.py > benchmarks/edgecloud/data/shift.csv

Columns: config, n_jobs, n_edge, seed, algorithm, shift, feasible, total_jct,
idle_waiting (edge worker-slots idle while a pinned chunk with its data there waits:
:func:`mlopt.families.edgecloud.metrics.idle_while_waiting`), wall_s.
"""
from __future__ import annotations

import argparse
import csv
import sys
import time

from sim import JOBS, SEEDS, workload  # the Fig. 7-11 workloads, one definition

from mlopt.families.edgecloud.generator import generate
from mlopt.families.edgecloud.metrics import idle_while_waiting
from mlopt.pipeline import run_algorithm

COLUMNS = ("config", "n_jobs", "n_edge", "seed", "algorithm", "shift", "feasible", "total_jct",
           "idle_waiting", "wall_s")


def cases(which):
    if "paper-sim" in which:  # the preset itself: 300 jobs, 100 edge servers; A_online only
        for s in SEEDS:
            yield "paper-sim", generate("paper-sim", s), s, ("a_online",)
    if "fig7" in which:
        for n in JOBS:
            for s in SEEDS:
                yield "fig7", workload(("jobs", n, 30, s)), s, ("a_online", "a_online_e")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--configs", nargs="+", default=["paper-sim", "fig7"])
    a = ap.parse_args()
    out = csv.DictWriter(sys.stdout, COLUMNS)
    out.writeheader()
    for config, w, seed, algs in cases(a.configs):
        for alg in algs:
            for shift in ("uniform", "compact"):
                t0 = time.perf_counter()
                r = run_algorithm(w, alg, family="edgecloud", seed=seed,
                                  options={"shift": shift})
                out.writerow({"config": config, "n_jobs": len(w.jobs),
                              "n_edge": len(w.servers) - 1, "seed": seed, "algorithm": alg,
                              "shift": shift, "feasible": r.check.feasible,
                              "total_jct": r.check.objective,
                              "idle_waiting": len(idle_while_waiting(w, r.schedule)),
                              "wall_s": round(time.perf_counter() - t0, 2)})
                sys.stdout.flush()


if __name__ == "__main__":
    main()
