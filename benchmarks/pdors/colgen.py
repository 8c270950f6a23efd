"""The ``colgen`` upper bound (mlopt/families/pdors/colgen.py) against OPT, ``job_sum`` and the
DMLRS MILP's LP relaxation.

``small``: contended small instances (preset ``small`` with more jobs / fewer machines, seeds
100-104) where the MILP proves OPT: gap (bound - OPT) / OPT and time per instance.
``large``: the Fig. 6 setting at 25 jobs / 10 machines / T = 20 (seeds 0-1), beyond the MILP's
reach in the time given: the MILP's incumbent and bound after ``--milp-limit`` s, PD-ORS's
checked utility, colgen and job_sum.

    python benchmarks/pdors/colgen.py small      # results/colgen_small.csv
    python benchmarks/pdors/colgen.py large      # results/colgen_large.csv
"""
from __future__ import annotations

import argparse
import csv
import time
from pathlib import Path

import pyomo.environ as pyo

from mlopt import pipeline
from mlopt.families.pdors.colgen import colgen_bound
from mlopt.families.pdors.generator import generate
from mlopt.families.pdors.theory import job_sum_bound
from mlopt.models.pdors import build_dmlrs_milp
from mlopt.solve import solve

OUT = Path(__file__).parent / "results"
SMALL = [(8, 1, 6), (10, 2, 6), (12, 1, 6), (14, 2, 5), (16, 2, 6), (10, 1, 8)]


def lp_relaxation(w, limit):
    m = build_dmlrs_milp(w)
    pyo.TransformationFactory("core.relax_integer_vars").apply_to(m)
    return solve(m, "highs", time_limit=limit, threads=1).objective


def small(args):
    rows = []
    for nj, nm, T in SMALL:
        for seed in range(100, 105):
            w = generate("small", seed=seed, n_jobs=nj, n_machines=nm, horizon=T)
            t0 = time.perf_counter()
            off = pipeline.solve_offline(w, family="pdors", time_limit=120, threads=1)
            t_milp = time.perf_counter() - t0
            r = colgen_bound(w, time_limit=args.cg_limit)
            rows.append({"n_jobs": nj, "machines": nm, "T": T, "seed": seed,
                         "opt": off.objective, "milp_status": off.solve.status.value,
                         "milp_s": round(t_milp, 2), "colgen": r["bound"],
                         "colgen_status": r["status"], "colgen_s": round(r["seconds"], 2),
                         "master_lp": r["lp_value"], "job_sum": job_sum_bound(w)["bound"],
                         "lp_relaxation": lp_relaxation(w, 120), "rounds": r["rounds"]})
            print(rows[-1], flush=True)
    return rows


def large(args):
    rows = []
    for seed in (0, 1):
        w = generate("paper-fig6", seed=seed, n_jobs=25, n_machines=10)
        t0 = time.perf_counter()
        off = pipeline.solve_offline(w, family="pdors", time_limit=args.milp_limit, threads=1)
        t_milp = time.perf_counter() - t0
        pd = pipeline.run_algorithm(w, "pdors", family="pdors", seed=seed)
        r = colgen_bound(w, time_limit=args.cg_limit)
        rows.append({"n_jobs": 25, "machines": 10, "T": w.horizon, "seed": seed,
                     "milp_incumbent": off.objective if off.check.feasible else None,
                     "milp_status": off.solve.status.value, "milp_bound": off.solve.bound,
                     "milp_s": round(t_milp, 2), "pdors": pd.check.objective,
                     "colgen": r["bound"], "colgen_status": r["status"],
                     "colgen_s": round(r["seconds"], 2), "master_lp": r["lp_value"],
                     "job_sum": job_sum_bound(w)["bound"],
                     "lp_relaxation": lp_relaxation(w, args.milp_limit),
                     "rounds": r["rounds"]})
        print(rows[-1], flush=True)
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("which", choices=("small", "large"))
    ap.add_argument("--cg-limit", type=float, default=120.0)
    ap.add_argument("--milp-limit", type=float, default=120.0)
    args = ap.parse_args()
    rows = {"small": small, "large": large}[args.which](args)
    OUT.mkdir(exist_ok=True)
    with open(OUT / f"colgen_{args.which}.csv", "w", newline="") as f:
        wr = csv.DictWriter(f, fieldnames=list(rows[0]))
        wr.writeheader()
        wr.writerows(rows)


if __name__ == "__main__":
    main()
