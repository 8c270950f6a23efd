"""Offline reach of the edge-cloud models on this machine (HiGHS, 1 thread).

    python benchmarks/edgecloud/offline_reach.py --time-limit 600 > benchmarks/edgecloud/data/offline_reach.json

* exact: the pinned jct_milp on paper-ratio shapes (5 edge servers, 2 jobs per slot) with
  J = 10, 15, 20, 25, 30 jobs; stops after the first size not proven within the limit;
* bounds: flow_lb and flow_lb_zeta1 at the paper's largest ratio scale (25 jobs, 45 edge
  servers) and at 10x the jobs (250 jobs, 45 edge servers).
"""
from __future__ import annotations

import argparse
import json
import time

from mlopt.families.edgecloud.generator import generate
from mlopt.machine import cpu_model
from mlopt.models.edgecloud import build_flow_lb, build_jct_milp
from mlopt.solve import solve


def timed(build, w, limit):
    t0 = time.perf_counter()
    m = build(w)
    t1 = time.perf_counter()
    r = solve(m, "highs", time_limit=limit, threads=1)
    return {"build_s": round(t1 - t0, 2), "solve_s": round(r.runtime_s, 2),
            "status": r.status.value, "objective": r.objective, "bound": r.bound, "gap": r.gap}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--time-limit", type=float, default=600.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--sizes", type=int, nargs="+", default=[10, 15, 20, 25, 30],
                    help="job counts for the exact model, tried in order until one is not proven")
    ap.add_argument("--no-bounds", action="store_true", help="skip the lower-bound timings")
    a = ap.parse_args()
    out = {"machine": cpu_model(), "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
           "time_limit_s": a.time_limit, "exact": [], "bounds": []}
    for n in a.sizes:
        w = generate("paper-ratio", a.seed, n_jobs=n, arrival_window=n / 2)
        res = {"jobs": n, "edge_servers": 5, **timed(build_jct_milp, w, a.time_limit)}
        out["exact"].append(res)
        print(json.dumps(res), flush=True, file=__import__("sys").stderr)
        if res["status"] != "optimal":
            break
    for n, s in (() if a.no_bounds else ((25, 45), (250, 45))):
        w = generate("paper-ratio", a.seed, n_jobs=n, n_edge=s, arrival_window=n / 2)
        for name, zeta1 in (("flow_lb", False), ("flow_lb_zeta1", True)):
            res = {"jobs": n, "edge_servers": s, "bound": name,
                   **timed(lambda w: build_flow_lb(w, zeta_one=zeta1), w, a.time_limit)}
            out["bounds"].append(res)
            print(json.dumps(res), flush=True, file=__import__("sys").stderr)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
