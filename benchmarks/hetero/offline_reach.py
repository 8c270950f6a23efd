"""Offline reach of the hetero models on this machine (HiGHS, 1 thread).

    python benchmarks/hetero/offline_reach.py --time-limit 600 -o benchmarks/hetero/data/offline_reach.json

* exact: ``wct_milp`` (PS, problem (2); ``--preset small-ra``: (15)) on the ``small`` shape (2 g3.8xlarge servers, 2 worker /
  2 PS types, durations 1-6 slots) with J = 5, 6, 7, 8, 10, 12, 15 jobs; stops after the first
  size not proven optimal within the limit.  DECISION: the arrival window grows with J
  (round(0.8 J), at least the preset's 4) and the horizon with it (ceil(1.2 J), at least 6), so
  the arrival density of ``small`` (5 jobs over 4 slots) is kept; a fixed window would pile every
  job onto slot 1-4 and measure queueing depth instead of instance size.  Every optimum is
  checked by the independent checker (objective = the checker's);
* bound: ``lower_bound`` (B1 and the per-resource volume bounds) at ``paper-default``
  (100 jobs, 150 servers, T = 150) and at 2x the jobs, timed (``--bound-repeats`` runs, median;
  one by default: a run takes minutes).

Results are written to ``-o`` after every step (a partial file survives an interrupted run).
"""
from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path

from mlopt.families.hetero.bounds import lower_bound
from mlopt.families.hetero.checker import check_hetero
from mlopt.families.hetero.generator import generate
from mlopt.machine import cpu_model
from mlopt.models.hetero import build_wct_milp, extract_schedule
from mlopt.solve import Status, solve


def exact(preset: str, n: int, seed: int, limit: float) -> dict:
    w = generate(preset, seed, n_jobs=n, arrival_window=max(4, round(0.8 * n)),
                 horizon=max(6, math.ceil(1.2 * n)))
    t0 = time.perf_counter()
    m = build_wct_milp(w)
    build_s = time.perf_counter() - t0
    r = solve(m, "highs", time_limit=limit, threads=1)
    out = {"preset": preset, "jobs": n, "seed": seed, "build_s": round(build_s, 2),
           "variables": m.nvariables(), "constraints": m.nconstraints(),
           "solve_s": round(r.runtime_s, 2), "status": r.status.value, "objective": r.objective,
           "bound": r.bound, "gap": r.gap}
    if r.objective is not None:
        chk = check_hetero(w, extract_schedule(m, w))
        out["checked_objective"] = chk.objective if chk.feasible else None
        if r.status is Status.OPTIMAL and not chk.feasible:
            out["status"] = "error: checker rejected the optimum"
    return out


def bound_time(n_jobs: int, seed: int, repeats: int) -> dict:
    w = generate("paper-default", seed, n_jobs=n_jobs)
    times, res = [], None
    for _ in range(repeats):
        t0 = time.perf_counter()
        res = lower_bound(w)
        times.append(time.perf_counter() - t0)
    return {"preset": "paper-default", "jobs": n_jobs, "servers": len(w.servers), "seed": seed,
            "runs": len(times), "median_s": round(statistics.median(times), 3), "bound": res["bound"],
            "arrival_plus_dmin": res["arrival_plus_dmin"]}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--time-limit", type=float, default=600.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--sizes", type=int, nargs="+", default=[5, 6, 7, 8, 10, 12, 15],
                    help="job counts for the exact model, tried in order until one is not proven")
    ap.add_argument("--no-bounds", action="store_true", help="skip the lower-bound timings")
    ap.add_argument("--no-exact", action="store_true", help="only the lower-bound timings")
    ap.add_argument("--preset", default="small", choices=["small", "small-ra"],
                    help="shape of the exact runs (PS problem (2) or Ring-AllReduce (15))")
    ap.add_argument("--bound-repeats", type=int, default=1)
    ap.add_argument("-o", "--output", type=Path, required=True)
    a = ap.parse_args()
    out = {"machine": cpu_model(), "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
           "time_limit_s": a.time_limit, "command": " ".join(sys.argv), "bounds": [],
           "exact": []}

    def save():
        a.output.write_text(json.dumps(out, indent=1) + "\n")

    for n in ([] if a.no_exact else a.sizes):
        res = exact(a.preset, n, a.seed, a.time_limit)
        out["exact"].append(res)
        save()
        print(json.dumps(res), flush=True, file=sys.stderr)
        if res["status"] != "optimal":
            break
    for n in (() if a.no_bounds else (100, 200)):
        out["bounds"].append(bound_time(n, a.seed, a.bound_repeats))
        save()
    out["load_average_at_end"] = list(__import__("os").getloadavg())
    save()


if __name__ == "__main__":
    main()
