"""Fig. 2 / 5 / 7 of seed 003 at 2-core scale: weighted completion time of A_online (paper
alpha = 4, and the compact-rounds variant) and the baselines vs the number of jobs, PS and RA,
with the certified lower bound and each algorithm's wall time.

    python benchmarks/hetero/wct_vs_jobs.py --jobs 10 20 --servers 15 --seeds 0 1 \
        -o benchmarks/hetero/results/wct_vs_jobs.csv

The paper's own scale (150 servers of preset paper-default, hundreds of jobs):

    python benchmarks/hetero/wct_vs_jobs.py --preset paper-default --servers 150 \
        --jobs 100 200 300 --seeds 0 -o benchmarks/hetero/data/wct_vs_jobs_paper.csv

Rows are appended as they finish (an interrupted run keeps what it measured).
"""
from __future__ import annotations

import argparse
import csv
import time
from pathlib import Path

from mlopt import pipeline
from mlopt.families.hetero.bounds import lower_bound
from mlopt.families.hetero.generator import generate

ALGS = [("a_online", {}), ("a_online-compact", {"compact": True}), ("fifo", {}), ("drf", {}),
        ("antman", {}), ("tiresias", {})]


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, nargs="+", default=[10, 20])
    ap.add_argument("--preset", default="bench", help="generator preset (bench: 2-core scale)")
    ap.add_argument("--servers", type=int, default=15)
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1])
    ap.add_argument("--arch", nargs="+", default=["ps", "ra"])
    ap.add_argument("-o", "--out", default="benchmarks/hetero/results/wct_vs_jobs.csv")
    a = ap.parse_args(argv)
    out = Path(a.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    fields = ["arch", "jobs", "servers", "seed", "algorithm", "feasible", "wct", "lower_bound",
              "ratio_to_lb", "seconds"]
    with open(out, "w", newline="") as f:
        csv.DictWriter(f, fieldnames=fields).writeheader()
    for n in a.jobs:
        for arch in a.arch:
            for seed in a.seeds:
                w = generate(a.preset, seed=seed, n_jobs=n, n_servers=a.servers,
                             architecture=arch)
                lb = lower_bound(w)["bound"]
                for label, opts in ALGS:
                    name = label.split("-")[0]
                    t0 = time.perf_counter()
                    r = pipeline.run_algorithm(w, name, family="hetero", **opts)
                    dt = time.perf_counter() - t0
                    row = {"arch": arch, "jobs": n, "servers": a.servers, "seed": seed,
                           "algorithm": label, "feasible": r.check.feasible,
                           "wct": round(r.check.objective, 1), "lower_bound": round(lb, 1),
                           "ratio_to_lb": round(r.check.objective / lb, 4),
                           "seconds": round(dt, 2)}
                    with open(out, "a", newline="") as f:
                        csv.DictWriter(f, fieldnames=fields).writerow(row)
                    print(row, flush=True)


if __name__ == "__main__":
    main()
