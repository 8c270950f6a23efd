"""PD-ORS frontier measurements (issue 22): on ``small`` instances, the proven optimum (the
DMLRS MILP, HiGHS) beside the column-generation certificate, the restricted master LP at
convergence and the best checked schedule of the master's primal side; for larger ``small``
instances (more jobs than the MILP proves in its budget) whether colgen's interval closes.

    python benchmarks/pdors/frontier.py --jobs 6 12 --seeds 0 1 2 --milp-limit 60 \
        --colgen-limit 60 > frontier_small.csv
"""
from __future__ import annotations

import argparse
import csv
import sys
import time

from mlopt import pipeline
from mlopt.families.pdors.colgen import colgen_bound
from mlopt.families.pdors.checker import check_pdors
from mlopt.families.pdors.generator import generate
from mlopt.families.pdors.online import run_pdors


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, nargs="+", default=[6, 12])
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    ap.add_argument("--machines", type=int, default=2)
    ap.add_argument("--horizon", type=int, default=6)
    ap.add_argument("--milp-limit", type=float, default=60.0)
    ap.add_argument("--colgen-limit", type=float, default=60.0)
    a = ap.parse_args()
    out = csv.writer(sys.stdout)
    out.writerow(["n_jobs", "seed", "milp_status", "milp_value", "milp_bound", "milp_s",
                  "pdors", "colgen_bound", "master_lp", "colgen_status", "primal",
                  "primal_source", "colgen_s", "closed"])
    for n in a.jobs:
        for seed in a.seeds:
            w = generate("small", seed=seed, n_jobs=n, n_machines=a.machines,
                         horizon=a.horizon)
            t = time.perf_counter()
            off = pipeline.solve_offline(w, family="pdors", time_limit=a.milp_limit)
            milp_s = time.perf_counter() - t
            ok = off.check is not None and off.check.feasible
            pd = check_pdors(w, run_pdors(w)).objective
            r = colgen_bound(w, time_limit=a.colgen_limit)
            prim = check_pdors(w, r["schedule"]).objective if r.get("schedule") else None
            closed = prim is not None and r["bound"] - prim <= 1e-9 * max(1.0, r["bound"])
            out.writerow([n, seed, off.solve.status.value,
                          f"{off.objective:.6f}" if ok else "", off.solve.bound, f"{milp_s:.1f}",
                          f"{pd:.6f}", f"{r['bound']:.6f}", r["lp_value"], r["status"],
                          "" if prim is None else f"{prim:.6f}", r["primal"]["source"],
                          f"{r['seconds']:.1f}", closed])
            sys.stdout.flush()


if __name__ == "__main__":
    main()
