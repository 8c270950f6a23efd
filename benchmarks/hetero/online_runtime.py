"""Run time of A_online vs the number of jobs (seed 003, Fig. 7), PS and RA, at 2-core scale.

    python benchmarks/hetero/online_runtime.py --jobs 10 20 40 --servers 30 --seeds 0 1 \
        -o benchmarks/hetero/results/online_runtime.csv

Each row: architecture, jobs, servers, seed, wall seconds of A_online (the algorithm alone), the
checker's verdict and weighted completion time.  Prints a median per (architecture, jobs).
"""
from __future__ import annotations

import argparse
import csv
import statistics
import time
from pathlib import Path

from mlopt.families.hetero.checker import check_hetero
from mlopt.families.hetero.generator import generate
from mlopt.families.hetero.online import run_a_online


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, nargs="+", default=[10, 20, 40])
    ap.add_argument("--servers", type=int, default=30)
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1])
    ap.add_argument("--arch", nargs="+", default=["ps", "ra"])
    ap.add_argument("-o", "--out", default="benchmarks/hetero/results/online_runtime.csv")
    a = ap.parse_args(argv)
    rows = []
    for arch in a.arch:
        for n in a.jobs:
            for seed in a.seeds:
                w = generate("bench", seed=seed, n_jobs=n, n_servers=a.servers, architecture=arch)
                t0 = time.perf_counter()
                s = run_a_online(w)
                dt = time.perf_counter() - t0
                c = check_hetero(w, s)
                rows.append({"arch": arch, "jobs": n, "servers": a.servers, "seed": seed,
                             "seconds": round(dt, 3), "feasible": c.feasible,
                             "wct": round(c.objective, 3)})
                print(rows[-1], flush=True)
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    with open(a.out, "w", newline="") as f:
        wr = csv.DictWriter(f, fieldnames=list(rows[0]))
        wr.writeheader()
        wr.writerows(rows)
    for arch in a.arch:
        for n in a.jobs:
            v = [r["seconds"] for r in rows if r["arch"] == arch and r["jobs"] == n]
            print(f"{arch} jobs={n}: median {statistics.median(v):.2f} s over {len(v)} seeds")


if __name__ == "__main__":
    main()
