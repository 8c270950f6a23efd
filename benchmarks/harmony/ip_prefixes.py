"""How many start prefixes (the first P jobs' starts) ``share_ip``'s integer relaxation leaves
for schedules of JCT sum <= U: its MILP over the runs within share's slack, plus the row
sum of JCTs <= U, solved again and again with the prefix found cut off each time, until it is
infeasible (every prefix listed) or the time is up.  The cases a proof like ``rc_prove.py``'s
would have to rule out with the exact model (one JSON line per prefix, then a summary line,
with the load average).

    python benchmarks/harmony/ip_prefixes.py --seed 0 --sum 37 -p n_jobs=10 --prefix 4 \\
        --time-limit 600 -o benchmarks/harmony/data/small10/ip_prefixes_seed0.jsonl
"""
from __future__ import annotations

import argparse
import json
import os
import time

import pyomo.environ as pyo

from mlopt.families import get_family
from mlopt.families.harmony.share_fixing import share_slack_columns
from mlopt.families.harmony.share_ip import build_share_ip
from mlopt.solve import Status, solve


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--preset", default="small")
    ap.add_argument("-p", "--param", action="append", default=[])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--sum", type=int, required=True, help="U: the JCT sum to stay within")
    ap.add_argument("--prefix", type=int, default=4)
    ap.add_argument("--time-limit", type=float, default=600.0, help="seconds in all")
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args(argv)
    params = {k: int(v) for k, v in (p.split("=", 1) for p in args.param)}
    w = get_family("harmony").generate(args.preset, seed=args.seed, **params)
    _, cols = share_slack_columns(w, args.sum)
    m, _ = build_share_ip(w, [[(s, n) for _, s, n in r] for r in cols], form="runs")
    m.within = pyo.Constraint(expr=m.obj.expr <= args.sum)
    m.cuts = pyo.ConstraintList()
    P, t0, found, done = args.prefix, time.perf_counter(), 0, False
    with open(args.output, "a") as out:
        while time.perf_counter() - t0 < args.time_limit:
            res = solve(m, time_limit=max(1.0, args.time_limit - (time.perf_counter() - t0)))
            if res.status != Status.OPTIMAL:
                done = res.status == Status.INFEASIBLE
                break
            pre = [next(s for (j, s, n) in m.X if j == i and m.x[j, s, n].value > 0.5)
                   for i in range(P)]
            found += 1
            out.write(json.dumps({"seed": args.seed, "sum": args.sum, "prefix": pre,
                                  "ip_objective": res.objective,
                                  "wall_s": round(time.perf_counter() - t0, 1)}) + "\n")
            out.flush()
            m.cuts.add(sum(m.x[j, s, n] for (j, s, n) in m.X
                           if j < P and s == pre[j]) <= P - 1)
        row = {"seed": args.seed, "sum": args.sum, "prefixes": found, "complete": done,
               "wall_s": round(time.perf_counter() - t0, 1), "load": os.getloadavg()[0]}
        out.write(json.dumps(row) + "\n")
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
