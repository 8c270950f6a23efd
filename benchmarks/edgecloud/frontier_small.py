"""pool_lb against flow_lb and the proven optimum on small edge-cloud instances
(benchmarks/edgecloud/frontier.md).  One line of JSON per instance on stdout.

    python benchmarks/edgecloud/frontier_small.py [--time-limit 60] [--jobs 10 15 20] [--seeds 0 1]

Instances: the committed sets edgecloud-tiny and edgecloud-small, then preset paper-ratio
(Fig. 12 shape, 5 edge servers) with n_jobs from --jobs and seeds from --seeds.
"""
from __future__ import annotations

import argparse
import json
import time

from mlopt.families.edgecloud.bounds import flow_lb
from mlopt.families.edgecloud.generator import generate
from mlopt.families.edgecloud.pool_bound import pool_lb
from mlopt.instances import load_set
from mlopt.pipeline import solve_offline


def instances(jobs, seeds):
    for name in ("edgecloud-tiny", "edgecloud-small"):
        iset = load_set(name)
        for entry in iset.entries:
            yield entry.name, iset.load(entry)
    for n in jobs:
        for s in seeds:
            yield f"paper-ratio n_jobs={n} seed={s}", generate("paper-ratio", s, n_jobs=n)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--jobs", type=int, nargs="*", default=[10, 15, 20])
    ap.add_argument("--seeds", type=int, nargs="*", default=[0, 1])
    args = ap.parse_args()
    for name, w in instances(args.jobs, args.seeds):
        t0 = time.perf_counter()
        pool = pool_lb(w)
        t_pool = time.perf_counter() - t0
        flow = flow_lb(w, time_limit=args.time_limit, threads=1)
        off = solve_offline(w, family="edgecloud", time_limit=args.time_limit)
        print(json.dumps({
            "instance": name, "jobs": len(w.jobs), "pool_lb": pool["bound"],
            "pool_s": round(t_pool, 2), "flow_lb": flow["bound"], "flow_status": flow["status"],
            "opt_status": off.solve.status.value,
            "best": off.objective if off.check is not None and off.check.feasible else None,
            "opt_bound": off.solve.bound}), flush=True)


if __name__ == "__main__":
    main()
