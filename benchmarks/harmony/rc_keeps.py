"""Sanity check of the proof by cases (``rc_prove.py --rc-runs``) on a checked schedule: its
start vector is among the cases' vectors for U = its JCT sum, and ``placement_milp`` with
``upper`` = U / J, ``rc_runs`` and every start but the schedule's fixed at 0 is feasible (a case
holding it would not be ruled out).  One JSON line, with the load average.

    python benchmarks/harmony/rc_keeps.py --seed 0 -p n_jobs=10 \\
        --schedule benchmarks/harmony/data/lns/s10_0_lns_300_best.json \\
        -o benchmarks/harmony/data/small10/rc_keeps.jsonl
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from mlopt.families import get_family
from mlopt.models.harmony import build_placement_milp, extract_schedule
from mlopt.schedule import Schedule
from mlopt.solve import solve

sys.path.insert(0, str(Path(__file__).resolve().parent))
from rc_prove import start_vectors  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--preset", default="small")
    ap.add_argument("-p", "--param", action="append", default=[])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--schedule", required=True, help="a schedule of the workload")
    ap.add_argument("--time-limit", type=float, default=300.0)
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args(argv)
    params = {k: int(v) for k, v in (p.split("=", 1) for p in args.param)}
    fam = get_family("harmony")
    w = fam.generate(args.preset, seed=args.seed, **params)
    sched = Schedule.load(args.schedule)
    chk = fam.check(w, sched)
    if not chk.feasible:
        sys.exit(f"{args.schedule}: fails the Harmony checker")
    J = len(w.jobs)
    U = round(chk.objective * J)
    vec = tuple(int(sched.rows_for(j.id)["slot"].min()) for j in w.jobs)
    t0, c0, load0 = time.perf_counter(), time.process_time(), os.getloadavg()[0]
    among = vec in start_vectors(w, U)
    m = build_placement_milp(w, upper=U / J, rc_runs=True)
    for (n, t) in m.JT:
        if t != vec[[j.id for j in w.jobs].index(n)]:
            m.st[n, t].fix(0)
    res = solve(m, "highs", time_limit=args.time_limit)
    row = {"seed": args.seed, "schedule": args.schedule, "sum": U, "starts": list(vec),
           "among_vectors": among, "status": str(res.status.value), "objective": res.objective}
    if res.has_solution:
        c2 = fam.check(w, extract_schedule(m, w))
        row.update(checked_feasible=bool(c2.feasible), checked_objective=float(c2.objective))
    row.update(wall_s=round(time.perf_counter() - t0, 2),
               cpu_s=round(time.process_time() - c0, 2), load_start=load0,
               load_end=os.getloadavg()[0])
    with open(args.output, "a") as out:
        out.write(json.dumps(row) + "\n")
    print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
